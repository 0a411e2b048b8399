"""H-search on sets of two words (``solvers/hex/bits.py``): the same answers as the one-word
search on every board both take, and the known connections on 9x9 and 11x11, beyond 64 cells."""

from __future__ import annotations

import pytest

from hypothesis import given, settings, strategies as st

from boardai.solvers.hex import vc
from boardai.solvers.hex.bits import from_words, to_words


def search(w: int, h: int, black: set[int], white: set[int], colour: int, words: int):
    """(full, semi, mustplay cells) of ``colour``'s edge-to-edge H-search."""
    nbr, edges = vc.geometry(w, h, words)
    scratch = vc.new_scratch(64 if words == 1 else 128)
    own, opp = (black, white) if colour == 0 else (white, black)
    full, semi, inter = vc.hsearch(to_words(sum(1 << c for c in own), words),
                                   to_words(sum(1 << c for c in opp), words), colour, nbr, edges,
                                   w * h, *scratch)
    value = from_words(inter)
    return bool(full), bool(semi), {c for c in range(w * h) if value >> c & 1}


positions = st.tuples(st.integers(2, 8), st.integers(2, 8)).flatmap(
    lambda wh: st.tuples(st.just(wh[0]), st.just(wh[1]),
                         st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=wh[0] * wh[1],
                                  max_size=wh[0] * wh[1]), st.integers(0, 1)))


@settings(max_examples=150, deadline=None)
@given(positions)
def test_two_words_answer_as_one_word_does(case):
    w, h, cells, colour = case
    black = {c for c, v in enumerate(cells) if v == 1}
    white = {c for c, v in enumerate(cells) if v == 2}
    assert search(w, h, black, white, colour, 2) == search(w, h, black, white, colour, 1)


def node_knowledge(w, h, black, white, mover, words):
    """``solver.evaluate`` (fill-in, H-search, capture domination) as plain Python values."""
    from boardai.solvers.hex.inferior import ring_table
    from boardai.solvers.hex.solver import centre_rank, evaluate

    nbr, edges = vc.geometry(w, h, words)
    result, moves, cells = evaluate(
        to_words(sum(1 << c for c in black), words), to_words(sum(1 << c for c in white), words),
        mover, nbr, edges, ring_table(w, h), centre_rank(w, h), w * h,
        vc.new_scratch(64 if words == 1 else 128))
    return int(result), from_words(moves), from_words(cells)


@settings(max_examples=120, deadline=None)
@given(positions)
def test_the_node_evaluation_on_two_words_answers_as_on_one(case):
    """The solver's whole node evaluation (dead and captured cells filled in, H-search,
    capture-dominated moves dropped), which the MCTS knowledge runs on 9x9 to 11x11."""
    w, h, cells, mover = case
    black = {c for c, v in enumerate(cells) if v == 1}
    white = {c for c, v in enumerate(cells) if v == 2}
    assert node_knowledge(w, h, black, white, mover, 2) == \
        node_knowledge(w, h, black, white, mover, 1)


def cell(w: int, row: int, col: int) -> int:
    return row * w + col


def test_a_chain_of_bridges_joins_black_on_9x9_and_11x11():
    for size in (9, 11):
        # Black stones on every other row, each bridged to the next: (r, c) and (r + 2, c - 1)
        stones = {cell(size, r, 6 - r // 2) for r in range(1, size, 2)}
        assert search(size, size, stones, set(), 0, 2)[0]
        # and White, even moving first, has no connection left to make
        assert not search(size, size, stones, set(), 1, 2)[1]


def test_a_single_gap_past_cell_64_is_a_semi_connection_with_that_key():
    size = 9
    column = 4
    gap = cell(size, 8, column)                 # cell 76, in the second word
    black = {cell(size, r, column) for r in range(8)}
    white = {cell(size, 8, c) for c in range(size) if c != column}   # only the gap is left
    full, semi, must = search(size, size, black, white, 0, 2)
    assert not full and semi and must == {gap}


def test_words_are_chosen_by_the_board():
    nbr, edges = vc.geometry(8, 8)
    assert nbr.shape == (64,) and edges.shape == (4,)
    nbr, edges = vc.geometry(11, 11)
    assert nbr.shape == (121, 2) and edges.shape == (4, 2)
    assert from_words(tuple(edges[1])) == sum(1 << cell(11, 10, c) for c in range(11))
    # k11 (cell 120), the corner, is the neighbour of k10 and j11 only
    assert [c for c, m in enumerate(nbr) if from_words(tuple(m)) >> 120 & 1] == [109, 119]


def test_the_mustplay_past_cell_64_is_the_only_move_mcts_keeps():
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.solvers.hex.player import Player

    board = get_game("hex").new_board(9)
    for r in range(8):               # Black down column e, White along row 9 but for e9
        board.push(cell(9, r, 4))
        board.push(cell(9, 8, r if r < 4 else r + 1))
    assert Player.mustplay(board) == {cell(9, 8, 4)}
    engine = make_engine("mcts:mustplay=50,seed=3")
    assert engine.search(board, Limit(sims=200)).move == cell(9, 8, 4)
    assert Player.mustplay(get_game("hex").new_board(9)) is None       # nothing to answer


def test_mustplay_never_drops_a_winning_move():
    """On random small positions the exact solver finds no winning move outside the mustplay."""
    import random

    from boardai.games import get_game
    from boardai.solvers.hex.player import Player
    from boardai.solvers.hex.solver import solve

    rng = random.Random(5)
    checked = with_a_win = 0
    while checked < 12 or with_a_win < 4:
        board = get_game("hex").new_board(rng.choice((4, 5)))
        for _ in range(rng.randrange(3, 9)):
            board.push(rng.choice([m for m in board.legal_moves if m < board.width ** 2]))
            if board.is_game_over():
                break
        if board.is_game_over():
            continue
        must = Player.mustplay(board)
        if must is None:
            continue
        result = solve(board)
        winning = {board.parse_move(m) for m in result.winning_moves}
        assert winning <= must, (board.move_stack, must, winning)
        checked += 1
        with_a_win += bool(winning)


def test_tree_knowledge_proves_nodes_and_keeps_the_time():
    """In a timed search, busy nodes get H-search: some tree nodes end up proven (the position
    below is full of threats) and the answer is still a legal move."""
    from boardai.engines.base import Limit
    from boardai.engines.mcts import kernel as MK
    from boardai.engines.registry import make_engine
    from boardai.games import get_game

    board = get_game("hex").new_board(9)
    for move in ("e5", "d6", "f3", "c4", "g2", "b3"):
        board.push(move)
    engine = make_engine("mcts:mustplay=100,seed=1")
    result = engine.search(board, Limit(time=0.5))
    tree = engine._trees[0]
    used = int(tree.meta[MK.USED])
    assert board.is_legal(result.move) and len(tree.known) > 0
    assert (tree.ints[:used, MK.PROOF] != 0).any()
    # every position the knowledge looked at is counted, with its time, in the move's info
    assert result.info["knowledge_calls"] == len(tree.known)
    assert 0.0 < result.info["knowledge_s"] < 0.5


@pytest.mark.parametrize("inferior", [True, False])
def test_every_proof_in_a_tree_with_knowledge_is_right(inferior):
    """On 5x5 positions, the tree's proven root children (by the knowledge or the MCTS-solver)
    agree with the exact solver, and the children the knowledge dropped never held the only
    winning moves: when the side to move wins, a kept child wins too."""
    import random

    from boardai.engines.base import Limit
    from boardai.engines.mcts import kernel as MK
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.solvers.hex.solver import solve

    rng = random.Random(3)
    proofs = wins_kept = dropped = 0
    for _ in range(6):
        board = get_game("hex").new_board(5)
        for _ in range(4):
            board.push(rng.choice([m for m in board.legal_moves if m < 25]))
        engine = make_engine(f"mcts:mustplay=20,seed=2,inferior={str(inferior).lower()}")
        engine.search(board, Limit(sims=3000))
        tree = engine._trees[0]
        root = tree.root
        first, k = int(tree.ints[root, MK.CHILD]), int(tree.ints[root, MK.NCHILD])
        mover = int(board.turn)
        winning = {board.parse_move(m) for m in solve(board).winning_moves}
        kept = set()
        for ch in range(first, first + k):
            move = int(tree.ints[ch, MK.MOVE])
            kept.add(move)
            proof = int(tree.ints[ch, MK.PROOF])
            if proof == 0:
                continue
            after = board.copy()
            after.push(move)
            winner = after.outcome().winner if after.is_game_over() else solve(after).winner
            mover_wins = (winner == "black") == (mover == 0) if isinstance(winner, str) \
                else winner == mover
            assert mover_wins == (proof == 1), (board.move_stack, move)
            proofs += 1
        dropped += 25 - len(board.move_stack) - k
        if winning:
            assert kept & winning, (board.move_stack, sorted(kept), sorted(winning))
            wins_kept += 1
    assert proofs >= 5 and wins_kept >= 2 and dropped >= 10, (proofs, wins_kept, dropped)


def test_a_virtually_lost_root_is_still_searched():
    """White already holds a virtual win (a chain of bridges across the board): with the
    knowledge on, Black's root is proven lost, and the search plays on from its statistics
    instead of stopping with an unsearched move."""
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.solvers.hex.player import Player

    board = get_game("hex").new_board(9)
    white = [cell(9, 6 - c // 2, c) for c in range(1, 9, 2)]     # bridged, left to right
    black = ["a9", "b9", "c9", "d9"]
    for w_cell, b_move in zip(white, black):
        board.push(b_move)
        board.push(w_cell)
    assert Player.threat(board) is True
    engine = make_engine("mcts:mustplay=50,seed=4")
    result = engine.search(board, Limit(time=0.3))
    assert board.is_legal(result.move) and result.info["sims"] > 100


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), keep_bits=st.integers(0, 2**25 - 1), deep=st.booleans())
def test_dropping_children_keeps_the_tree_whole(seed, keep_bits, deep):
    """``apply_knowledge`` drops the children not kept by trading rows inside the block: every
    node still reached from the root has its children's PARENT pointing at it, a kept child
    keeps its statistics and its whole subtree, and only the kept moves (and a proven win)
    remain, at least one of them."""
    import numpy as np

    from boardai.engines.base import Limit
    from boardai.engines.mcts import kernel as MK
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.games.layout import NUM_ACTIONS

    board = get_game("hex").new_board(5)
    engine = make_engine(f"mcts:seed={seed % 1000}")
    engine.search(board, Limit(sims=400))
    tree = engine._trees[0]
    ints, flts = tree.ints, tree.flts

    def children(node):
        first = int(ints[node, MK.CHILD])
        return range(first, first + int(ints[node, MK.NCHILD]))

    def snapshot(node):
        """move path -> (visits, wins, proof) of every node under ``node``."""
        out, todo = {}, [(node, ())]
        while todo:
            at, path = todo.pop()
            out[path] = (float(flts[at, MK.VISITS]), float(flts[at, MK.WINS]),
                         int(ints[at, MK.PROOF]))
            todo += [(ch, path + (int(ints[ch, MK.MOVE]),)) for ch in children(at)]
        return out

    node = tree.root
    if deep:                                    # the busiest grandchild-bearing child
        node = max(children(node), key=lambda ch: flts[ch, MK.VISITS])
    before = {int(ints[ch, MK.MOVE]): snapshot(ch) for ch in children(node)}
    assert len(before) > 1
    keep = np.array([(keep_bits >> m) & 1 for m in range(int(board.state[NUM_ACTIONS]))],
                    dtype=np.bool_)
    swaps = np.empty((32, 2), dtype=np.int64)
    MK.apply_knowledge(ints, flts, node, 0, keep, tree.root, swaps)
    after = {int(ints[ch, MK.MOVE]): snapshot(ch) for ch in children(node)}
    wanted = {m for m in before if keep[m] or before[m][()][2] == 1}
    assert set(after) == (wanted if wanted else set(before))
    for move, sub in after.items():
        assert sub == before[move]
    todo = [tree.root]
    while todo:
        at = todo.pop()
        for ch in children(at):
            assert ints[ch, MK.PARENT] == at
            todo.append(ch)


def test_the_knowledge_leaves_the_swap_alone():
    """With the swap rule, the second player's first move may be the swap, which the stones-only
    evaluation knows nothing of: the knowledge answers nothing there, and the tree keeps the
    swap among the root's children."""
    from boardai.engines.base import Limit
    from boardai.engines.mcts import kernel as MK
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.solvers.hex.player import Player

    board = get_game("hex").new_board(9, swap=True)
    board.push("a1")
    assert board.is_legal(board.swap_move)
    assert Player.knowledge(board) is None
    engine = make_engine("mcts:mustplay=1,seed=5")
    engine.search(board, Limit(sims=300))
    tree = engine._trees[0]
    first, k = int(tree.ints[tree.root, MK.CHILD]), int(tree.ints[tree.root, MK.NCHILD])
    assert board.swap_move in {int(m) for m in tree.ints[first:first + k, MK.MOVE]}
    board.push(board.swap_move)                 # after the swap the knowledge answers again
    assert Player.knowledge(board) is not None


def test_an_analysis_keeps_every_move_with_the_knowledge_on():
    """``analyse`` wants every move's visits: the knowledge, which drops moves, stays out of it
    (as the root solver does), while ``play`` on the same position drops some."""
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game

    board = get_game("hex").new_board(9)
    for move in ("e5", "d6", "f3", "c4", "g2", "b3"):
        board.push(move)
    engine = make_engine("mcts:mustplay=1,seed=6")
    analysis = engine.analyse(board, Limit(sims=3000))
    assert len(analysis.moves) == 81 - 6 and "knowledge_calls" not in analysis.info
    played = make_engine("mcts:mustplay=1,seed=6").play(board, Limit(sims=3000))
    assert len(played.moves) < 81 - 6 and played.info["knowledge_calls"] > 0
