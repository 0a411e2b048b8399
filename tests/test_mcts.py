"""MCTS: tactics (win in one, must-block, solver), determinism, tree reuse, time budget, threads."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from boardai.arena.game import play_game
from boardai.engines.mcts import kernel as MK
from clocks import still_clock, stepping_clock
from hex_positions import won_hex_positions
from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import Color, make_board
from boardai.games import kernel as K
from boardai.games.layout import NUM_ACTIONS


def test_plays_a_win_in_one_and_knows_it():
    board = make_board("connect4")
    board.push_many(list("121212"))            # X has three in column 1
    result = make_engine("mcts:seed=1").play(board, Limit(sims=500))
    assert result.name == "1"
    assert result.info["proven"] == 1 and result.value == 1.0


def test_hex_win_in_one():
    board = make_board("hex", "4")
    board.push_many("b1 a1 b2 a2 b3 a3".split())   # Black b1-b3; b4 or a4 wins
    result = make_engine("mcts:seed=2").play(board, Limit(sims=300))
    board.push(result.move)
    assert board.outcome() is not None and board.outcome().winner == Color.BLACK


def _positions_with_one_threat(game, size, seed, count):
    """Random positions where the side not to move threatens exactly one immediate win."""
    rng = random.Random(seed)
    found = []
    out = np.empty(64 * 26, dtype=np.int64)
    while len(found) < count:
        board = make_board(game, size)
        while not board.is_game_over():
            me = int(board.turn)
            if K.winning_moves(board.state, me, out) == 0 and \
                    K.winning_moves(board.state, 1 - me, out) == 1:
                found.append((board.copy(), int(out[0])))
                break
            board.push(rng.choice(list(board.legal_moves)))
    return found


@pytest.mark.parametrize("game,size", [("hex", "5"), ("connect4", "7x6")])
def test_must_block(game, size):
    engine = make_engine("mcts:seed=3")
    for board, threat in _positions_with_one_threat(game, size, 7, 5):
        assert engine.play(board, Limit(sims=200)).move == threat


def test_solver_avoids_proven_losses():
    """Without the expansion checks, the solver alone proves every move but the block loses."""
    board = make_board("connect4", "4x4")
    board.push_many(list("21212"))      # X has three in column 2; O to move
    engine = make_engine("mcts:seed=4,checks=0")
    result = engine.analyse(board, Limit(sims=4000))
    assert result.name == "2"
    assert all(m.winrate == 0.0 for m in result.moves if m.name != "2")


def test_small_board_solved_exactly():
    """2x2 Hex is a first-player win; the solver proves it from the empty board."""
    result = make_engine("mcts:seed=1").play(make_board("hex", "2"), Limit(sims=5000))
    assert result.info["proven"] == 1


@pytest.mark.parametrize("game,size", [("hex", "7"), ("connect4", "7x6")])
def test_same_seed_same_search(game, size):
    board = make_board(game, size)
    a = make_engine("mcts:seed=11").analyse(board, Limit(sims=3000))
    b = make_engine("mcts:seed=11").analyse(board, Limit(sims=3000))
    assert a.move == b.move
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]


@pytest.mark.parametrize("game,size", [("hex", "6"), ("connect4", "6x5")])
def test_tree_reuse_keeps_the_subtree(game, size):
    board = make_board(game, size)
    engine = make_engine("mcts:seed=5")
    first = engine.analyse(board, Limit(sims=4000))
    tree = engine._trees[0]
    # the statistics of the chosen move's node, and of its most visited reply
    child = next(ch for ch in range(tree.ints[0, MK.CHILD], tree.ints[0, MK.CHILD] + tree.ints[0, MK.NCHILD])
                 if tree.ints[ch, MK.MOVE] == first.move)
    visits = tree.flts[child, MK.VISITS]
    board.push(first.move)
    engine._prepare(tree, board)
    assert tree.root == child and tree.flts[tree.root, MK.VISITS] == visits
    # a second engine with the same seed, following the same game, gets identical statistics
    other = make_engine("mcts:seed=5")
    replay = make_board(game, size)
    other.analyse(replay, Limit(sims=4000))
    replay.push(first.move)
    again = engine.analyse(board, Limit(sims=2000))
    again_other = other.analyse(replay, Limit(sims=2000))
    assert [(m.move, m.visits) for m in again.moves] == [(m.move, m.visits) for m in again_other.moves]
    assert sum(m.visits for m in again.moves) >= visits  # the old visits were kept


def test_compaction_preserves_the_subtree():
    board = make_board("hex", "5")
    engine = make_engine("mcts:seed=9")
    engine.analyse(board, Limit(sims=3000))
    tree = engine._trees[0]
    board.push(board.parse_move("c3"))
    engine._prepare(tree, board)
    root = tree.root
    first, k = tree.ints[root, MK.CHILD], tree.ints[root, MK.NCHILD]
    before = sorted((int(tree.ints[c, MK.MOVE]), tree.flts[c, MK.VISITS], tree.flts[c, MK.WINS])
                    for c in range(first, first + k))
    ints, flts, meta = MK.new_tree(tree.ints.shape[0])
    MK.compact_tree(tree.ints, tree.flts, tree.meta, ints, flts)
    first, k = ints[0, MK.CHILD], ints[0, MK.NCHILD]
    after = sorted((int(ints[c, MK.MOVE]), flts[c, MK.VISITS], flts[c, MK.WINS])
                   for c in range(first, first + k))
    assert before == after


def test_time_budget_is_answered(monkeypatch):
    from boardai.engines.mcts import engine as mcts_engine, knowledge, root_solver
    engine = make_engine("mcts:seed=1")
    board = make_board("hex", "11")
    engine.play(board, Limit(sims=50))          # load the compiled code first
    stepping_clock(monkeypatch, mcts_engine, knowledge, root_solver)
    result = engine.play(board, Limit(time=0.2))
    assert board.is_legal(result.move) and result.info["sims"] > 0
    # the search stopped at its deadline, as the engine's clock reads it (a few readings past)
    assert 0.2 - 0.002 <= result.time_s <= 0.2 + 0.1


def test_first_short_move_of_a_new_process_still_searches():
    """Loading the compiled code must not eat a short budget (it once made the first move blind)."""
    import subprocess

    code = ("from boardai.engines.registry import make_engine; from boardai.engines.base import Limit;"
            "from boardai.games import make_board;"
            "r = make_engine('mcts').play(make_board('connect4', None), Limit(time=0.1));"
            "print(r.info['sims'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout.split()[-1]) > 0


def test_threads_and_tiny_memory_still_play_legally():
    board = make_board("hex", "9")
    engine = make_engine("mcts:seed=1,threads=2")
    result = engine.play(board, Limit(sims=2000))
    assert board.is_legal(result.move) and result.info["sims"] == 2000
    engine.close()
    small = make_engine("mcts:seed=1,memory_mb=1")
    result = small.play(board, Limit(sims=30000))
    assert board.is_legal(result.move) and result.info["tree_full"]


def test_analyse_gives_heat_map_and_legal_pv():
    board = make_board("hex", "5")
    result = make_engine("mcts:seed=1").analyse(board, Limit(sims=2000))
    assert sum(m.visits for m in result.moves) <= 2000 and len(result.moves) == 25
    replay = board.copy()
    for name in result.pv:
        replay.push(name)
    assert result.pv[0] == result.name


@pytest.mark.parametrize("game,size,moves", [("hex", "7", ["d4", "c5"]), ("connect4", "7x6", [])])
def test_every_move_of_a_line_was_searched_at_least_twice(game, size, moves):
    """A line (and each candidate's own line) stops where the tree has only single playouts:
    past that point the child picked would be the first of many tied at one visit (on Hex,
    a stray a1 at the end of every line)."""
    board = make_board(game, size)
    for m in moves:
        board.push(m)
    engine = make_engine("mcts:seed=1")
    result = engine.analyse(board, Limit(sims=3000))
    tree = engine._trees[0]
    for line in [result.pv] + [m.pv for m in result.moves if m.pv]:
        replay, node = board.copy(), tree.root
        for name in line:
            move = replay.parse_move(name)
            first, k = int(tree.ints[node, MK.CHILD]), int(tree.ints[node, MK.NCHILD])
            node = next(c for c in range(first, first + k) if int(tree.ints[c, MK.MOVE]) == move)
            assert node == tree.root or tree.flts[node, MK.VISITS] >= 2 or name == line[0]
            replay.push(move)


@pytest.mark.parametrize("game,size", [("hex", "5"), ("connect4", "7x6")])
def test_mcts_beats_random(game, size):
    wins = 0
    for i in range(4):
        mcts = make_engine(f"mcts:seed={i}")
        rnd = make_engine(f"random:seed={i}")
        board = make_board(game, size)
        black, white = (mcts, rnd) if i % 2 == 0 else (rnd, mcts)
        result = play_game(board, black, white, Limit(sims=1500))
        wins += result.winner == (Color.BLACK if i % 2 == 0 else Color.WHITE)
    assert wins == 4


@pytest.mark.parametrize("opponent", ["random:seed=3", "mcts:sims=200,seed=4"])
def test_gtp_server_with_mcts_plays_whole_games(opponent):
    served = make_engine(f"gtp:{sys.executable} -m boardai gtp --game hex --engine mcts:sims=300,seed=1")
    try:
        board = make_board("hex", "5")
        result = play_game(board, served, make_engine(opponent))
        assert board.is_game_over() and result.reason == "connection"
    finally:
        served.close()


@pytest.mark.parametrize("stones, cells, intruder", [
    ("d2", ("d1", "e1"), 1),           # Black's second-row stone and its top edge
    ("d6", ("c7", "d7"), 1),           # ... its bottom edge
    ("g1 b4", ("a4", "a5"), 0),        # White's second-column stone and its left edge
    ("a1 f4", ("g3", "g4"), 0),        # ... its right edge
])
def test_edge_playouts_save_a_second_row_stones_link_to_its_edge(stones, cells, intruder):
    """With the edge switch (policy 3) an intrusion into the two cells between a second-row
    stone and its edge is answered, so the intruder almost never gets both (only when another
    threat's answer comes first); bridge-only playouts (policy 1) let that happen about a
    quarter of the time."""
    from boardai.games.layout import new_rng
    board = make_board("hex", "7")
    board.push_many(stones)
    owner = np.empty(49, dtype=np.int64)
    work = np.empty(board.state.shape[0] + 64, dtype=np.int64)
    pair = [board.parse_move(c) for c in cells]
    lost = {}
    for policy in (1, 3):
        rng = new_rng(5)
        lost[policy] = sum(all(owner[c] == intruder for c in pair)
                           for _ in range(2000)
                           if K.playout_policy(board.state, rng, work, owner, policy, K.NO_TABLE, 0.0, K.NO_FILL) >= 0) / 2000
    assert lost[1] > 0.15 and lost[3] < 0.05


@pytest.mark.parametrize("policy", [1, 3])
@pytest.mark.parametrize("seed", range(4))
def test_bridge_playout_fills_the_board_and_names_the_right_winner(seed, policy):
    rng = random.Random(seed)
    board = make_board("hex", rng.choice(["5", "7", "4x6"]))
    for _ in range(rng.randrange(0, 8)):
        board.push(rng.choice(list(board.legal_moves)))
    n = board.width * board.height
    owner = np.empty(n, dtype=np.int64)
    work = np.empty(board.state.shape[0] + 64, dtype=np.int64)
    from boardai.games.layout import new_rng
    winner = K.playout_policy(board.state, new_rng(seed), work, owner, policy, K.NO_TABLE, 0.0, K.NO_FILL)
    final = board.copy()
    empties = [c for c in range(n) if board.cells[c] == 0]
    assert all(owner[c] in (0, 1) for c in empties)
    mover_count = sum(owner[c] == int(board.turn) for c in empties)
    assert mover_count == (len(empties) + 1) // 2
    # replay the colours in alternating order and compare the winner
    mine = [c for c in empties if owner[c] == int(board.turn)]
    theirs = [c for c in empties if owner[c] != int(board.turn)]
    while mine or theirs:
        final.push(mine.pop() if final.turn == board.turn else theirs.pop())
        if final.is_game_over():
            break
    assert final.outcome().winner == winner


def test_bridge_policy_engine_plays():
    board = make_board("hex", "7")
    result = make_engine("mcts:seed=1,bridge=1").play(board, Limit(sims=2000))
    assert board.is_legal(result.move)


def test_tactical_connect4_playout_takes_wins_and_blocks():
    from boardai.games.layout import new_rng
    work = np.empty(128, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    win_now = make_board("connect4")
    win_now.push_many(list("121212"))             # X to move wins in column 1
    assert all(K.playout_policy(win_now.state, new_rng(s), work, none, 1, K.NO_TABLE, 0.0, K.NO_FILL) == 0 for s in range(50))
    two_threats = make_board("connect4")
    two_threats.push_many(list("44553"))          # X: 3 4 5 on the bottom row, open at 2 and 6
    assert all(K.playout_policy(two_threats.state, new_rng(s), work, none, 1, K.NO_TABLE, 0.0, K.NO_FILL) == 0 for s in range(50))
    block = make_board("connect4")
    block.push_many(list("12121"))                # O to move must block column 1; it then goes on
    results = {int(K.playout_policy(block.state, new_rng(s), work, none, 1, K.NO_TABLE, 0.0, K.NO_FILL)) for s in range(200)}
    assert results <= {0, 1, 2} and len(results) >= 2


def test_tactical_playouts_from_the_start_favour_the_first_player():
    from boardai.games.layout import new_rng
    state = make_board("connect4").state
    rng = new_rng(5)
    work = np.empty(128, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    results = [int(K.playout_policy(state, rng, work, none, 1, K.NO_TABLE, 0.0, K.NO_FILL)) for _ in range(4000)]
    assert 0.5 < results.count(0) / (results.count(0) + results.count(1)) < 0.7


def test_stop_and_live_snapshots():
    """``Engine.stop`` set before the search: it answers at once with a legal move; ``on_info``
    snapshots carry the moves searched so far."""
    import threading

    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    board = get_game("hex").new_board(7)
    engine = make_engine("mcts:seed=1")
    engine.stop = threading.Event()
    engine.stop.set()
    result = engine.play(board, Limit(time=60))
    assert board.is_legal(result.move) and result.nodes < 1000
    engine.stop = None
    snapshots = []
    engine.INFO_EVERY = 0.0
    engine.on_info = snapshots.append
    engine.play(board, Limit(sims=2000))
    assert snapshots and all(board.is_legal(s.move) for s in snapshots)
    assert snapshots[-1].nodes >= snapshots[0].nodes



def _winning(state, colour) -> list[int]:
    out = np.empty(int(state[NUM_ACTIONS]), dtype=np.int64)
    return list(out[:K.winning_moves(state, colour, out)])


def test_a_fork_found_at_expansion_wins_in_three_plies():
    """The fork rule (``mcts:forks``): a move after which the mover has two winning moves and
    the opponent none wins against every reply; and when none is reported, no legal move is
    one (checked one by one through the board API), on random Connect Four games with blocked
    cells."""
    from boardai.games import Connect4Board

    rng = random.Random(17)
    found = 0
    for _ in range(400):
        w, h = rng.randint(4, 10), rng.randint(4, 10)
        blocked = [(rng.randrange(w), rng.randrange(h))] if rng.random() < 0.5 else []
        board = Connect4Board(w, h, blocked=blocked)
        for _ in range(rng.randrange(4, w * h // 2)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        me = int(board.turn)
        state = board.state.copy()
        if _winning(state, me) or _winning(state, 1 - me):
            continue
        legal = np.empty(board.num_actions, dtype=np.int64)
        k = MK._fork(state, me, legal)
        np.testing.assert_array_equal(state, board.state)          # the position is kept
        forks = []
        for m in list(board.legal_moves):
            board.push(m)
            if not _winning(board.state, 1 - me) and len(_winning(board.state, me)) >= 2:
                forks.append(m)
            board.pop()
        assert (k == 1) == bool(forks)
        if not k:
            continue
        found += 1
        move = int(legal[0])
        assert move in forks
        board.push(move)
        for reply in list(board.legal_moves):        # every answer leaves a win for `me`
            board.push(reply)
            assert not board.is_game_over() or board.outcome().winner is None
            if not board.is_game_over():
                assert _winning(board.state, me), (board.position, move, reply)
            board.pop()
    assert found >= 10          # the rule had cases to prove itself on


def test_the_forks_option_makes_a_fork_the_only_child():
    from boardai.games import Connect4Board

    board = Connect4Board(7, 6)
    for col in (1, 1, 2, 2):          # Black b1 c1, White b2 c2: Black's d1 threatens a1 and e1
        board.push(col)
    assert make_engine("mcts")._params(board)[MK.P_FORKS] == 0.0
    assert make_engine("mcts:forks=1,checks=0")._params(board)[MK.P_FORKS] == 0.0
    engine = make_engine("mcts:forks=1,seed=3")
    result = engine.play(board, Limit(sims=3))
    assert result.move == 3 and [m.move for m in result.moves] == [3]


# --- the game's exact solver on the root (solver=S) ----------------------------------------------
@pytest.mark.parametrize("threads", [1, 2])
def test_root_solver_plays_a_proven_win(threads):
    """With solver=0.9 and time to spare, every move on these 4x4 positions is a proven win."""
    engine = make_engine(f"mcts:seed=5,solver=0.9,threads={threads}")
    for board, wins in won_hex_positions(4, 6, 3):
        result = engine.play(board, Limit(time=5))
        assert result.move in wins
        assert result.info["solver"] == "win" and result.info["proven"] == 1
    engine.close()


def test_root_solver_stays_out_of_reproducible_and_unsupported_searches():
    """A sims= search never asks the solver (same seed, same move); nor does a board the
    game's solver does not take (Hex above 128 cells, Connect Four with blocked cells), nor by
    default a Hex board above the game's 64 cells (9x9 only when asked)."""
    board, _ = won_hex_positions(4, 1, 4)[0]
    a = make_engine("mcts:seed=6,solver=0.5").play(board, Limit(sims=300))
    b = make_engine("mcts:seed=6").play(board, Limit(sims=300))
    assert (a.move, a.nodes) == (b.move, b.nodes) and "solver" not in a.info
    big = make_board("hex", "12")
    assert "solver" not in make_engine("mcts:solver=0.5").play(big, Limit(time=0.1)).info
    nine = make_board("hex", "9")
    assert "solver" not in make_engine("mcts").play(nine, Limit(time=0.1)).info
    assert make_engine("mcts:solver=0.5").play(nine, Limit(time=0.2)).info["solver"] == "open"
    blocked = make_board("connect4", (9, 9))
    blocked = type(blocked)(9, 9, blocked=[(4, 0)])
    assert "solver" not in make_engine("mcts:solver=0.5").play(blocked, Limit(time=0.1)).info


def test_root_solver_leaves_a_lost_position_to_the_trees():
    """Where the side to move is lost, the trees' move stands and the info says the solver
    proved the loss."""
    from boardai.solvers.hex.solver import solve
    rng = random.Random(8)
    while True:
        board = make_board("hex", "4")
        for _ in range(rng.randrange(1, 6)):
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and solve(board).winning_moves == [] \
                and solve(board).winner is not None:
            break
    # a generous move: the solver's half proves a 4x4 loss in milliseconds, but a machine
    # loaded by other tests once took more than the 0.25 s of a half-second move
    result = make_engine("mcts:seed=7,solver=0.5").play(board, Limit(time=3))
    assert result.info["solver"] == "loss"
    assert board.is_legal(result.move)


def test_moves_the_solver_refuted_are_never_played(monkeypatch):
    """Root moves the solver's table proves lost are marked in the tree before the search: the
    trees' move is another one, and each marked move shows a win rate of 0."""
    from boardai.solvers.hex import player as hex_player
    board = make_board("hex", "5")
    board.push_many(["c3"])
    everything_else = {m for m in board.legal_moves if board.move_name(m) != "b4"}
    monkeypatch.setattr(hex_player.Player, "move", lambda self, b, budget, every: None)
    monkeypatch.setattr(hex_player.Player, "known_outcomes",
                        staticmethod(lambda b: {m: -1 for m in everything_else}))
    # mustplay=0: the tree knowledge would drop moves of its own (b4 among them, maybe)
    result = make_engine("mcts:seed=9,solver=0.3,mustplay=0").play(board, Limit(time=0.3))
    assert result.name == "b4"
    assert all(m.winrate == 0.0 for m in result.moves if m.name != "b4")


def test_ahead_solves_the_position_after_a_proven_move(monkeypatch):
    """ahead=S: after a proven move, the solver goes on with the position that move leaves (the
    opponent to move), within the move's time; ahead=0 (the default) returns at once."""
    from boardai.engines.mcts import engine as mcts_engine, knowledge, root_solver
    from boardai.solvers.hex import player as hex_player
    # a controllable clock for the engine (its stopwatch and its deadline): it stands still
    # except while the solver thinks ahead (0.05 s), so the budget is exact, whatever the load
    now = still_clock(monkeypatch, mcts_engine, knowledge, root_solver)
    calls = []

    def think(b, seconds):
        calls.append((b.copy(), seconds))
        now[0] += 0.05

    monkeypatch.setattr(hex_player.Player, "think", staticmethod(think))
    board, wins = won_hex_positions(4, 1, 3)[0]
    result = make_engine("mcts:seed=5,solver=0.9").play(board, Limit(time=2))
    assert result.info["solver"] == "win" and calls == []
    result = make_engine("mcts:seed=5,solver=0.9,ahead=0.5").play(board, Limit(time=2))
    assert result.info["solver"] == "win" and result.move in wins
    assert len(calls) == 1
    after, seconds = calls[0]
    expected = board.copy()
    expected.push(result.move)
    assert after.cells.tolist() == expected.cells.tolist() and after.turn == expected.turn
    assert seconds == pytest.approx(2 * 0.5 - 0.002)   # the move's share, less the margin
    assert result.time_s == pytest.approx(0.05)        # the move's time counts the thinking ahead


def test_a_sims_search_with_the_tree_knowledge_is_reproducible():
    """The knowledge (on by default for Hex) is asked between slices; in a sims= search the
    slices have a fixed size, so the same seed gives the same tree whatever the clock says."""
    board = make_board("hex", "9")
    board.push_many(["e5", "d6", "c7"])
    runs = [make_engine("mcts:seed=3").play(board, Limit(sims=20000)) for _ in range(3)]
    assert runs[0].info["knowledge_calls"] > 1
    seen = {(r.move, tuple((m.move, m.visits) for m in r.moves)) for r in runs}
    assert len(seen) == 1


def test_analysis_keeps_the_trees_statistics_without_the_solver():
    """analyse wants every move's visits: the root solver (which would answer a won 4x4
    position at once, with no visits) stays out of it."""
    board, wins = won_hex_positions(4, 1, 10)[0]
    result = make_engine("mcts:seed=11,solver=0.9").analyse(board, Limit(time=0.2))
    assert "solver" not in result.info and sum(m.visits for m in result.moves) > 0


def test_playout_switches_are_or_ed_into_the_game_policy():
    from boardai.games import get_game
    hex_game, c4 = get_game("hex"), get_game("connect4")
    assert hex_game.playout_policy({"bridge": True, "edge": True}) == 3    # bridges and edges
    assert hex_game.playout_policy({"bridge": True, "edge": False}) == 1
    assert hex_game.playout_policy({}) == 0 == hex_game.playout_policy({"bridge": None})
    assert c4.playout_policy({"tactics": True}) == 1 and c4.playout_policy({}) == 0
    # mcts's defaults (engines/mcts/defaults.py) turn them on: the policy in its parameters
    hex_board, c4_board = hex_game.new_board(7), c4.new_board()
    assert make_engine("mcts")._params(hex_board)[MK.P_POLICY] == 3
    assert make_engine("mcts:edge=0")._params(hex_board)[MK.P_POLICY] == 1
    assert make_engine("mcts:bridge=0,edge=0")._params(hex_board)[MK.P_POLICY] == 0
    assert make_engine("mcts")._params(c4_board)[MK.P_POLICY] == 35       # tactics, safe, mix
    assert make_engine("mcts:mix=0")._params(c4_board)[MK.P_POLICY] == 3
    assert make_engine("mcts:safe=0,mix=0")._params(c4_board)[MK.P_POLICY] == 1
    assert make_engine("mcts:tactics=0,safe=0,mix=0")._params(c4_board)[MK.P_POLICY] == 0
    assert make_engine("mcts:edge=1").opts["edge"] is True
