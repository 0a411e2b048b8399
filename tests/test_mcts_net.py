"""``mcts``'s network priors (``net``, ``net_visits``, ``prior_weight``; engines/mcts/network.py):
the network's policy reaches the tree's PRIOR column and steers the search, each busy node is
evaluated once, its value is mixed into the node's statistics with ``value_weight`` (from the
right player's side), bad or mismatched network files are refused in one line, and without a
shipped network the engine plays on plainly and says so."""

from __future__ import annotations

import numpy as np
import pytest

from boardai.engines.base import EngineUnavailable, Limit
from boardai.engines.mcts import kernel as MK
from boardai.engines.mcts.network import NetPriors
from boardai.engines.registry import make_engine
from boardai.games import get_game
from boardai.nn import features, model


def planted_network(path, game: str = "hex", planes: int = features.PLANES):
    """A network whose policy puts (almost) all its weight on the top-left cell (a1) of any
    board: the stem's first channel is 1/2 only where the taps above and left of a cell are off
    the board, the residual blocks pass it through, and the policy head turns it into a logit
    of 20 there and 0 elsewhere."""
    net = model.random_init(model.Config(game, channels=8, blocks=1, planes=planes), seed=3)
    w = {k: np.zeros_like(v) for k, v in net.weights.items()}
    ones = 4                                     # the input plane of ones
    for dy in range(3):
        for dx in range(3):
            if dy == 0 or dx == 0:               # a tap above or to the left
                w["stem.w"][(dy * 3 + dx) * planes + ones, 0] = -1.0
    w["stem.b"][0] = 0.5
    w["policy.conv.w"][0, 0] = 40.0
    w["policy.cell.w"][0, 0] = 1.0
    planted = model.Network(net.config, w)
    planted.save(path)
    return path


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return planted_network(tmp_path_factory.mktemp("net") / "planted.npz")


def test_the_planted_network_prefers_a1(planted):
    board = get_game("hex").new_board(5)
    priors, _ = model.load(planted).policy_value(board.state[None, :])
    assert priors[0].argmax() == board.parse_move("a1") and priors[0].max() > 0.99


def test_the_networks_priors_reach_the_tree_and_steer_it(planted):
    board = get_game("hex").new_board(5)
    a1 = board.parse_move("a1")
    plain = make_engine("mcts:seed=3,mustplay=0").play(board, Limit(sims=3000))
    assert max(plain.moves, key=lambda m: m.visits).move != a1
    engine = make_engine(f"mcts:seed=3,mustplay=0,net={planted},net_visits=3,prior_weight=50")
    result = engine.play(board, Limit(sims=3000))
    by_move = {m.move: m for m in result.moves}
    assert by_move[a1].prior > 0.99                      # the root's priors are the network's
    assert max(result.moves, key=lambda m: m.visits).move == a1
    assert result.info["net"] == str(planted) and result.info["net_evals"] > 1
    # every node evaluated is marked done, and no other node is (each once)
    tree = engine._trees[0]
    used = int(tree.meta[MK.USED])
    assert int((tree.flts[:used, MK.NET] == 2.0).sum()) == result.info["net_evals"]
    assert int((tree.flts[:used, MK.NET] == 1.0).sum()) == 0     # nothing left queued


def test_a_sims_search_with_the_network_is_reproducible(planted):
    board = get_game("hex").new_board(6)
    board.push(board.parse_move("c3"))
    spec = f"mcts:seed=5,net={planted},net_visits=5"
    a = make_engine(spec).play(board, Limit(sims=1500))
    b = make_engine(spec).play(board, Limit(sims=1500))
    assert a.move == b.move
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]


def test_a_timed_search_with_the_network(planted):
    board = get_game("hex").new_board(7)
    result = make_engine(f"mcts:net={planted},net_visits=4,solver=0").play(board, Limit(time=0.3))
    assert result.info["net_evals"] > 0 and result.info["sims"] > 0


def test_queue_entries_follow_rows_the_knowledge_exchanges():
    class Tree:
        meta = np.zeros(4, dtype=np.int64)
        queue_nodes = np.array([7, 9, 4, 0], dtype=np.int64)
    tree = Tree()
    tree.meta[MK.QUEUED] = 3
    NetPriors.swapped(tree, 9, 4)
    assert tree.queue_nodes.tolist() == [7, 4, 9, 0]
    NetPriors.swapped(tree, 0, 7)                     # row 0 is not queued (past QUEUED)
    assert tree.queue_nodes.tolist() == [0, 4, 9, 0]


# --- refused files, and the plain fallback -------------------------------------------------
def test_a_corrupt_network_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "corrupt.npz"
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    with pytest.raises(EngineUnavailable) as err:
        make_engine(f"mcts:net={path}")
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"net={path}: not a network file")


def test_a_missing_network_file_is_a_bad_option():
    with pytest.raises(ValueError, match="no network"):
        make_engine("mcts:net=/no/such/file.npz")


def test_a_network_of_another_game_is_refused(tmp_path):
    path = tmp_path / "c4.npz"
    model.random_init(model.Config("connect4", channels=4, blocks=1)).save(path)
    engine = make_engine(f"mcts:net={path}")
    with pytest.raises(EngineUnavailable, match="plays connect4, not hex") as err:
        engine.play(get_game("hex").new_board(5), Limit(sims=10))
    assert "\n" not in str(err.value)


def test_a_network_of_other_input_planes_is_refused(tmp_path):
    path = planted_network(tmp_path / "planes.npz", planes=features.PLANES + 1)
    engine = make_engine(f"mcts:net={path}")
    with pytest.raises(EngineUnavailable, match=f"reads {features.PLANES + 1} input planes"):
        engine.play(get_game("hex").new_board(5), Limit(sims=10))


def test_a_network_for_another_board_size_is_refused(tmp_path):
    net = model.random_init(model.Config("hex", channels=4, blocks=1))
    net.about = {"size": 9}
    net.save(tmp_path / "nine.npz")
    engine = make_engine(f"mcts:net={tmp_path / 'nine.npz'}")
    with pytest.raises(EngineUnavailable, match="for 9x9 boards, not 7x7"):
        engine.play(get_game("hex").new_board(7), Limit(sims=10))


def test_auto_without_a_shipped_network_plays_plainly_and_says_so(tmp_path, monkeypatch):
    from boardai.engines.mcts import network
    monkeypatch.setattr(network, "NETWORKS_DIR", tmp_path)         # none of any size
    board = get_game("hex").new_board(6)
    result = make_engine("mcts:net=auto,seed=1").play(board, Limit(sims=300))
    assert result.info["net"] == "none shipped for hex 6x6: playing without"
    assert "net_evals" not in result.info and board.is_legal(result.move)


def test_auto_takes_the_teacher_network_shipped_for_the_size(planted, tmp_path, monkeypatch):
    from boardai.engines.mcts import network
    (tmp_path / "hex-5x5-teacher.npz").write_bytes(planted.read_bytes())
    (tmp_path / "hex-6x6.npz").write_bytes(planted.read_bytes())     # not a teacher's: not auto
    monkeypatch.setattr(network, "NETWORKS_DIR", tmp_path)
    engine = make_engine("mcts:net=auto,seed=1,mustplay=0,net_visits=3,prior_weight=50")
    result = engine.play(get_game("hex").new_board(5), Limit(sims=1000))
    assert result.info["net"] == "hex-5x5-teacher" and result.info["net_evals"] > 0
    assert max(result.moves, key=lambda m: m.visits).name == "a1"
    result = engine.play(get_game("hex").new_board(6), Limit(sims=300))
    assert result.info["net"] == "hex-5x5-teacher"     # the nearest size's, not hex-6x6


def test_net_off_leaves_the_search_as_it_was():
    board = get_game("hex").new_board(5)
    a = make_engine("mcts:seed=2,net=off").play(board, Limit(sims=800))
    b = make_engine("mcts:seed=2").play(board, Limit(sims=800))
    assert "net" not in a.info
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]


def test_the_cli_refuses_a_corrupt_network_in_one_line(tmp_path):
    from click.testing import CliRunner

    from boardai.cli import main
    path = tmp_path / "corrupt.npz"
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    result = CliRunner().invoke(main, ["analyse", "--engine", f"mcts:net={path}"])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "not a network file" in errors[0], result.output


def test_analyse_shows_the_networks_priors(planted):
    from click.testing import CliRunner

    from boardai.cli import main
    result = CliRunner().invoke(main, [
        "analyse", "--engine", f"mcts:seed=1,net={planted},net_visits=3,prior_weight=50",
        "--size", "5", "--sims", "2000", "--lines", "2"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line[:3] in ("1. ", "2. ")]
    assert lines[0].startswith("1. a1") and "prior 100.0%" in lines[0], result.output
    assert "prior 0.0%" in lines[1], result.output


def test_the_help_gives_each_games_network_defaults():
    from boardai.engines.mcts import defaults as D
    from boardai.engines.mcts.engine import MctsEngine
    from boardai.games import all_games
    helps = {o.name: o.help for o in MctsEngine.options}
    for name in all_games():
        d = D.defaults_for(name)
        assert f"{name} {d.net}" in helps["net"]
        assert f"{name} {d.net_visits}" in helps["net_visits"]
        assert f"{name} {d.prior_weight:g}" in helps["prior_weight"]


def test_mcts_on_9x9_hex_is_guided_by_the_shipped_teacher_network_by_default():
    from boardai.engines.mcts import defaults as D
    from boardai.engines.mcts.network import auto_path
    board = get_game("hex").new_board(9)
    d = D.defaults_for("hex")
    assert d.net == "auto" and d.net_sizes == frozenset({9, 11, 13})
    assert auto_path(board) is not None and auto_path(board).stem == "hex-9x9-teacher"
    result = make_engine("mcts:seed=1").play(board, Limit(sims=4 * d.net_visits))
    assert result.info["net"] == "hex-9x9-teacher" and result.info["net_evals"] >= 1
    off = make_engine("mcts:seed=1").play(get_game("hex").new_board(7), Limit(sims=300))
    assert "net" not in off.info            # other sizes play without


def test_auto_takes_the_exact_size_else_the_nearest_square_teacher_network(monkeypatch, tmp_path):
    from boardai.engines.mcts import network as N
    for name in ("hex-9x9-teacher", "hex-13x13-teacher", "hex-5x7-teacher", "hex-9x9-other"):
        (tmp_path / f"{name}.npz").write_bytes(b"")
    monkeypatch.setattr(N, "NETWORKS_DIR", tmp_path)
    hex_game = get_game("hex")
    assert N.auto_path(hex_game.new_board(9)).stem == "hex-9x9-teacher"      # exact
    assert N.auto_path(hex_game.new_board(10)).stem == "hex-9x9-teacher"     # nearest
    assert N.auto_path(hex_game.new_board(11)).stem == "hex-13x13-teacher"   # tie: the larger
    assert N.auto_path(hex_game.new_board(19)).stem == "hex-13x13-teacher"
    assert N.auto_path(get_game("connect4").new_board((7, 6))) is None       # none of its game


def test_mcts_on_11x11_and_13x13_hex_is_guided_by_the_shipped_11x11_network_by_default():
    from boardai.engines.mcts.network import auto_path
    board = get_game("hex").new_board(11)
    assert auto_path(board).stem == "hex-11x11-teacher"
    assert auto_path(get_game("hex").new_board(13)).stem == "hex-11x11-teacher"   # nearest
    assert auto_path(get_game("hex").new_board(10)).stem == "hex-11x11-teacher"   # tie: larger
    result = make_engine("mcts:seed=1").play(board, Limit(sims=400))
    assert result.info["net"] == "hex-11x11-teacher" and result.info["net_evals"] >= 1


def test_the_default_network_applies_to_its_sizes_only(monkeypatch):
    from boardai.engines.mcts import defaults as D
    monkeypatch.setattr(D, "MCTS_DEFAULTS", {"hex": D.MctsDefaults(net="auto",
                                                                   net_sizes=frozenset({9}))})
    engine = make_engine("mcts")
    assert engine._net_default(get_game("hex").new_board(9)) == "auto"
    assert engine._net_default(get_game("hex").new_board(7)) == "off"
    assert make_engine("nn")._net_default(get_game("hex").new_board(9)) == "off"


# --- the value head mixed into the tree (value_weight) --------------------------------------
def test_add_values_counts_the_value_as_visits_for_the_player_who_moved_in():
    ints, flts, meta = MK.new_tree(16)
    flts[3, MK.VISITS], flts[3, MK.WINS] = 10.0, 3.0
    flts[5, MK.VISITS], flts[5, MK.WINS] = 4.0, 4.0
    params = np.zeros(MK.N_PARAMS)
    params[MK.P_VALUE] = 5.0
    # the side to move at node 3 is judged +0.6 (win chance 0.8): the player who moved into it
    # wins 0.2; node 5's value is out of range and counts as -1 (the mover-in wins)
    MK.add_values(flts, np.array([3, 5, 7]), 2, np.array([0.6, -3.0, 1.0]), params)
    assert flts[3, MK.VISITS] == 15.0 and flts[3, MK.WINS] == pytest.approx(3.0 + 5 * 0.2)
    assert flts[3, MK.Q] == pytest.approx(4.0 / 15.0)
    assert flts[3, MK.ISQ] == pytest.approx(1.0 / np.sqrt(15.0))
    assert flts[5, MK.VISITS] == 9.0 and flts[5, MK.WINS] == pytest.approx(9.0)
    assert flts[7, MK.VISITS] == 0.0               # past count: untouched
    before = flts.copy()
    params[MK.P_VALUE] = 0.0                        # off: nothing changes
    MK.add_values(flts, np.array([3]), 1, np.array([0.9]), params)
    MK.add_values(flts, np.array([3]), 1, np.array([0.9]), params[:MK.P_VALUE])
    assert np.array_equal(flts, before)


def _hex9(black, white):
    board = get_game("hex").new_board(9)
    for i in range(max(len(black), len(white))):
        for side in (black, white):
            if i < len(side):
                board.push(board.parse_move(side[i]))
    return board


CHAIN = ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]    # Black's: e9 and d9 both finish
SCATTERED = ["a3", "b5", "h2", "i4", "a7", "h6", "c9", "g9"]


def _turned(move):
    """The cell across the board's long diagonal (Black's edges become White's)."""
    return "abcdefghi"[int(move[1:]) - 1] + str("abcdefghi".index(move[0]) + 1)


@pytest.mark.parametrize("black, white, winner", [
    (CHAIN, SCATTERED, 0),                          # Black won, Black to move
    (CHAIN + ["a1"], SCATTERED, 0),                 # Black won, White to move
    ([_turned(m) for m in SCATTERED], [_turned(m) for m in CHAIN], 1),   # White won, Black to move
])
def test_the_shipped_networks_value_favours_the_side_with_a_won_connection(black, white, winner):
    """The teacher network reads positions in the mover's frame and values them for the side to
    move; the tree counts wins for the player who moved into a node: the mixed value must
    favour the player whose connection cannot be stopped, whoever is to move."""
    board = _hex9(black, white)
    net = NetPriors("hex-9x9-teacher")
    net.choose(board, "auto")

    class Tree:
        ints, flts, meta = MK.new_tree(256)
        queue_states, queue_nodes = net.queue(board.state)
    tree = Tree()
    params = np.zeros(MK.N_PARAMS)
    params[MK.P_EXPAND], params[MK.P_VALUE] = 2.0, 10.0
    assert MK.expand_root(tree.ints, tree.flts, tree.meta, board.state, params, np.zeros(0))
    tree.queue_states[0], tree.queue_nodes[0], tree.meta[MK.QUEUED] = board.state, 0, 1
    net.flush(tree, None, params)
    assert tree.flts[0, MK.NET] == 2.0 and tree.flts[0, MK.VISITS] == 10.0
    moved_in = 1 - (len(board.move_stack) & 1)      # the player whose wins the root counts
    chance = tree.flts[0, MK.WINS] / tree.flts[0, MK.VISITS]
    winner_chance = chance if moved_in == winner else 1.0 - chance
    assert winner_chance > 0.9, (chance, moved_in, winner)


@pytest.mark.parametrize("weight", [0.0, 7.0])
def test_the_engines_value_weight_reaches_the_evaluated_nodes(planted, weight):
    """The planted network's value is 0 (its value head is all zeros): each evaluated node
    gains ``weight`` visits at 1/2, the root among them, on top of the simulations."""
    board = get_game("hex").new_board(5)
    engine = make_engine(f"mcts:seed=3,mustplay=0,net={planted},net_visits=3,prior_weight=50,"
                         f"value_weight={weight:g}")
    result = engine.play(board, Limit(sims=600))
    tree = engine._trees[0]
    root = tree.root
    assert tree.flts[root, MK.NET] == 2.0
    assert tree.flts[root, MK.VISITS] == result.info["sims"] + weight
    used = int(tree.meta[MK.USED])
    evaluated = np.flatnonzero(tree.flts[:used, MK.NET] == 2.0)
    assert len(evaluated) == result.info["net_evals"] > 1
    # an evaluated node's own visits (its virtual ones taken off) are what passed through it:
    # its children's own visits and the few playouts before it grew them (expand=2)
    own = tree.flts[:used, MK.VISITS] - weight * (tree.flts[:used, MK.NET] == 2.0)
    left = [own[n] - own[int(tree.ints[n, MK.CHILD]):int(tree.ints[n, MK.CHILD])
                         + int(tree.ints[n, MK.NCHILD])].sum() for n in evaluated if n != root]
    assert min(left) >= 0 and np.median(left) <= 2, left


def test_value_weight_is_an_option_with_its_bounds_and_defaults():
    from boardai.engines.mcts import defaults as D
    from boardai.engines.mcts.engine import MctsEngine
    from boardai.games import all_games
    assert make_engine("mcts:value_weight=2.5").opts["value_weight"] == 2.5
    assert make_engine("mcts:value_weight=0").opts["value_weight"] == 0.0
    for bad in ("-1", "nan", "inf", "abc", "1e308"):
        with pytest.raises(ValueError, match="value_weight"):
            make_engine(f"mcts:value_weight={bad}")
    help_text = {o.name: o.help for o in MctsEngine.options}["value_weight"]
    for name in all_games():
        assert f"{name} {D.defaults_for(name).value_weight:g}" in help_text
