"""PUCT on the MCTS tree (``engines/mcts/puct.py``, ``guided.py``): the search half of the
learning player.  Visit counts worked out by hand for a uniform evaluator, priors steering the
search, values oriented for the side to move, proven wins found, batches, stop and snapshots,
and plain ``mcts`` unchanged by the hook."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from boardai.engines.base import EngineUnavailable, Limit
from boardai.engines.mcts.guided import GuidedMcts, RolloutEvaluator, UniformEvaluator
from boardai.engines.registry import make_engine
from boardai.games import get_game
from boardai.games.layout import HEADER, NUM_ACTIONS, PLY
from hex_positions import won_hex_positions


def visits(result):
    return {m.name: m.visits for m in result.moves}


@pytest.mark.parametrize("batch", [1, 4])
def test_uniform_prior_and_constant_value_spread_visits_evenly(batch):
    """Uniform priors, value 0 everywhere and no first-play penalty: every child of the root
    has the same score until visited, and a virtual loss keeps the walks of one batch apart,
    so the visits go round: the first batch of walks all stop at the root (it expands it), then
    9k walks on 3x3 Hex give every cell k."""
    board = get_game("hex").new_board(3)
    engine = GuidedMcts(UniformEvaluator(), fpu=0.0, batch=batch, checks=False)
    result = engine.analyse(board, Limit(sims=batch + 9 * 4))
    assert set(visits(result).values()) == {4}
    assert result.value == pytest.approx(0.0)


class Favour:
    """Nearly all prior on one move; values 0."""

    def __init__(self, move: int):
        self.move = move

    def evaluate(self, states):
        k = int(states[0, NUM_ACTIONS])
        priors = np.full((states.shape[0], k), 0.01)
        priors[:, self.move] = 10.0
        return priors, np.zeros(states.shape[0])


def test_priors_steer_the_visits():
    board = get_game("hex").new_board(5)
    favoured = board.parse_move("d2")
    result = GuidedMcts(Favour(favoured), batch=8).analyse(board, Limit(sims=400))
    counts = visits(result)
    assert result.name == "d2" and counts["d2"] > 0.5 * sum(counts.values())


class SideToMoveWins:
    """Values +1 for the side to move in every position, except after ``bad``: there the side
    to move (the opponent) is lost (-1)."""

    def __init__(self, board, bad: int):
        self.bad_ply = board.ply + 1
        self.bad = bad
        self.start = board.state.copy()

    def evaluate(self, states):
        k = int(states[0, NUM_ACTIONS])
        values = np.zeros(states.shape[0])
        for i, st in enumerate(states):
            # a position one move deep whose cell `bad` is taken: the mover of `bad` wins
            if int(st[PLY]) == self.bad_ply and not np.array_equal(st, self.start) and \
                    st[HEADER + self.bad] != 0:
                values[i] = -1.0
        return np.ones((states.shape[0], k)), values


def test_values_are_read_for_the_side_to_move():
    """The evaluator says the position after one move is lost for the side to move there: the
    search must prefer that move (it is good for us)."""
    board = get_game("hex").new_board(4)
    good = board.parse_move("b3")
    result = GuidedMcts(SideToMoveWins(board, good), batch=4).analyse(board, Limit(sims=300))
    assert result.name == "b3" and result.value > 0


def test_a_won_position_is_proven_with_playout_values():
    board = get_game("hex").new_board(3)
    board.push_many("a1 b1")     # Black to move; the solver says which moves win
    engine = GuidedMcts(RolloutEvaluator(seed=1), batch=8)
    result = engine.analyse(board, Limit(sims=3000))
    from boardai.solvers.hex.solver import move_outcomes
    won = {board.move_name(m) for m, v in move_outcomes(board, None).items() if v > 0}
    assert result.name in won and result.info["proven"] == 1


def test_batches_of_any_size_and_budgets_are_kept():
    board = get_game("connect4").new_board()
    for batch in (1, 3, 64):
        result = GuidedMcts(RolloutEvaluator(seed=2), batch=batch).analyse(board, Limit(sims=200))
        assert 200 <= result.nodes < 200 + batch and board.is_legal(result.move)


def test_stop_and_snapshots():
    board = get_game("hex").new_board(7)
    engine = GuidedMcts(RolloutEvaluator(seed=3), batch=8)
    engine.stop = threading.Event()
    engine.stop.set()
    assert board.is_legal(engine.play(board, Limit(time=60)).move)
    engine.stop = None
    engine.INFO_EVERY = 0.0
    seen = []
    engine.on_info = seen.append
    engine.play(board, Limit(sims=500))
    assert seen and all(board.is_legal(s.move) for s in seen)


def test_tree_reuse_between_moves():
    board = get_game("hex").new_board(5)
    engine = GuidedMcts(RolloutEvaluator(seed=4), batch=8)
    first = engine.play(board, Limit(sims=400))
    board.push(first.move)
    reply = engine.play(board, Limit(sims=1))     # the subtree under the move is kept
    assert reply.info["sims"] >= 1 and sum(visits(reply).values()) > 1


# plain mcts: the same seed gives the same moves as before the PUCT hook existed (recorded at
# commit 791eef3 with mcts:sims=300,seed=7, Hex 5x5 self-play, 10 moves)
PLAIN_MOVES = ['b3', 'b4', 'a4', 'a5', 'c4', 'c3', 'e2', 'e1', 'd2', 'd1']


def test_plain_mcts_is_unchanged_by_the_hook():
    # edge=0, mustplay=0: the search of the time the moves were recorded (the edge answers and
    # the tree knowledge came later)
    board = get_game("hex").new_board(5)
    engine = make_engine("mcts:sims=300,seed=7,edge=0,mustplay=0")
    moves = []
    for _ in range(10):
        r = engine.play(board, Limit())
        moves.append(r.name)
        board.push(r.move)
    again = get_game("hex").new_board(5)
    engine2 = make_engine("mcts:sims=300,seed=7,edge=0,mustplay=0")
    for name in moves:
        assert engine2.play(again, Limit()).name == name
        again.push(name)
    if PLAIN_MOVES is not None:
        assert moves == PLAIN_MOVES


def test_nn_and_policy_engines_play_from_a_network_file(tmp_path):
    from boardai.nn import model
    path = tmp_path / "hex.npz"
    model.random_init({"game": "hex", "channels": 8, "blocks": 1}, seed=1).save(path)
    board = get_game("hex").new_board(5)
    nn = make_engine(f"nn:model={path},sims=64,batch=8")
    result = nn.analyse(board, Limit())
    assert board.is_legal(result.move) and 64 <= result.nodes < 72
    policy = make_engine(f"policy:model={path}")
    answer = policy.play(board)
    assert board.is_legal(answer.move)
    assert answer.moves[0].prior == max(m.prior for m in answer.moves)
    assert sum(m.prior for m in answer.moves) == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(Exception, match="plays hex"):
        nn.play(get_game("connect4").new_board())


@pytest.mark.parametrize("spec,words", [("nn:model=/no/such.npz", "no network '/no/such.npz'"),
                                        ("policy:model=nosuch", "a shipped network"),
                                        ("nn:sims=0,model=x", "sims")])
def test_engines_without_a_usable_network_are_refused(spec, words, tmp_path):
    with pytest.raises(ValueError, match=words):
        make_engine(spec)


@pytest.mark.parametrize("name", ["nn", "policy"])
def test_without_a_model_a_game_with_no_shipped_network_is_refused(name):
    engine = make_engine(name)
    board = get_game("tictactoe").new_board()
    with pytest.raises(EngineUnavailable, match="no network ships for tictactoe"):
        engine.play(board)


def test_a_file_that_is_not_a_network_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a network file"):
        make_engine(f"policy:model={bad}")


def test_shipped_networks_are_found_by_name_and_by_board(tmp_path, monkeypatch):
    from boardai.engines import nn_engine
    from boardai.nn import model

    monkeypatch.setattr(nn_engine, "NETWORKS_DIR", tmp_path)
    for name, seed in (("connect4-7x6", 1), ("connect4-9x9", 2)):
        model.random_init({"game": "connect4", "channels": 4, "blocks": 1},
                          seed=seed).save(tmp_path / f"{name}.npz")
    assert nn_engine.network_for("connect4", 7, 6) == tmp_path / "connect4-7x6.npz"
    assert nn_engine.network_for("connect4", 10, 9) == tmp_path / "connect4-9x9.npz"
    assert nn_engine.network_for("connect4", 6, 5) == tmp_path / "connect4-7x6.npz"
    assert nn_engine.network_for("hex", 9, 9) is None
    # a network trained on the course's drawn boards takes every board of the drawn sizes
    model.random_init({"game": "connect4", "channels": 4, "blocks": 1},
                      seed=3).save(tmp_path / "connect4-random.npz")
    assert nn_engine.network_for("connect4", 10, 9) == tmp_path / "connect4-random.npz"
    assert nn_engine.network_for("connect4", 12, 12) == tmp_path / "connect4-random.npz"
    assert nn_engine.network_for("connect4", 9, 9) == tmp_path / "connect4-9x9.npz"   # exact
    assert nn_engine.network_for("connect4", 13, 12) == tmp_path / "connect4-9x9.npz"
    assert nn_engine.network_for("connect4", 7, 6) == tmp_path / "connect4-7x6.npz"
    (tmp_path / "connect4-random.npz").unlink()
    engine = make_engine("policy:model=connect4-9x9")
    board = get_game("connect4").new_board((9, 9))
    expected = model.load(tmp_path / "connect4-9x9.npz").policy_value(board.state[None, :])[0]
    assert engine.play(board).move == int(np.argmax(expected[0]))
    default = make_engine("nn:sims=16")
    assert default.play(board).move in board.legal_moves
    assert default.evaluator.network.config.game == "connect4"
    # a shipped name reads no file of the user's: a web server lets a page use it
    cls = type(default)
    assert not cls.reads_local_files({}) and not cls.reads_local_files({"model": "connect4-7x6"})
    assert cls.reads_local_files({"model": str(tmp_path / "connect4-7x6.npz")})


def test_analyse_gives_each_move_its_prior_visits_and_value(tmp_path):
    from boardai.nn import model

    path = tmp_path / "c4.npz"
    net = model.random_init({"game": "connect4", "channels": 4, "blocks": 1}, seed=3)
    net.save(path)
    board = get_game("connect4").new_board()
    result = make_engine(f"nn:model={path},seed=1").analyse(board, Limit(sims=64))
    priors, _ = net.policy_value(board.state[None, :])
    assert {m.move for m in result.moves} == set(board.legal_moves)
    for info in result.moves:
        assert info.prior == pytest.approx(priors[0, info.move], abs=1e-6)
        assert info.visits >= 0 and (info.visits == 0 or -1 <= info.value <= 1)
    assert 64 - 8 <= sum(m.visits for m in result.moves) <= 64   # the first batch is the root
    plain = make_engine("mcts:seed=1").analyse(board, Limit(sims=64))
    assert all(m.prior is None for m in plain.moves)


# --- the game's exact solver on the root, as in mcts (solver=S) --------------------------------
def test_root_solver_plays_a_proven_win_in_the_puct_search():
    engine = GuidedMcts(UniformEvaluator(), solver=0.9, batch=4)
    for board, wins in won_hex_positions(4, 4, 21):
        result = engine.play(board, Limit(time=5))
        assert result.move in wins and result.info["solver"] == "win"


def test_root_solver_stays_out_of_a_sims_search_in_the_puct_search():
    board, _ = won_hex_positions(4, 1, 22)[0]
    a = GuidedMcts(RolloutEvaluator(seed=4), solver=0.5, batch=4).play(board, Limit(sims=200))
    b = GuidedMcts(RolloutEvaluator(seed=4), solver=0, batch=4).play(board, Limit(sims=200))
    assert (a.move, a.nodes) == (b.move, b.nodes) and "solver" not in a.info


def test_moves_the_solver_refuted_are_never_played_by_the_puct_search(monkeypatch):
    """The refuted root moves are marked after the PUCT root expansion (with its priors): the
    search plays the one move left, even when the priors favour another."""
    from boardai.solvers.hex import player as hex_player
    board = get_game("hex").new_board(5)
    board.push_many("c3")
    keep = board.parse_move("b4")
    favoured = board.parse_move("d2")
    everything_else = {m for m in board.legal_moves if m != keep}
    monkeypatch.setattr(hex_player.Player, "move", lambda self, b, budget, every: None)
    monkeypatch.setattr(hex_player.Player, "known_outcomes",
                        staticmethod(lambda b: {m: -1 for m in everything_else}))
    result = GuidedMcts(Favour(favoured), solver=0.3, batch=4).play(board, Limit(time=0.3))
    assert result.name == "b4"
    assert all(m.visits == 0 for m in result.moves if m.name != "b4")
