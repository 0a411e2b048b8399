"""Dead cells and captured pairs (``solvers/hex/inferior.py``) keep the value of a position, and
capture-dominated, vulnerable and captured-reversible moves can be dropped, checked by plain
minimax; and the solver's 5x5 opening map against an independent solver's."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings, strategies as st

from boardai.games.hex.board import HexBoard
from boardai.solvers.hex.inferior import (EMPTY, _dead_ring, capture_dominated, fill, is_dead,
                                        reversible, ring_table, vulnerable)
from boardai.solvers.hex.openings import solve_openings
from boardai.solvers.hex.solver import UNKNOWN, WIN, Solver, centre_rank, evaluate
from boardai.solvers.hex.vc import geometry, new_scratch
from test_hex_solver import _joined, _nbrs, mover_wins, random_board, stone_bits


def _bits(board: HexBoard):
    black, white = stone_bits(board)
    return np.uint64(black), np.uint64(white)


def _rebuild(board: HexBoard, black: int, white: int):
    """``board`` with the extra stones, as the test's minimax reads it (cells, width, turn);
    placed directly, since moves would change the side to move."""
    cells = [1 if (v == 0 and (black >> c) & 1) else 2 if (v == 0 and (white >> c) & 1) else int(v)
             for c, v in enumerate(board.cells)]
    return SimpleNamespace(cells=cells, width=board.width, turn=board.turn,
                           is_game_over=lambda: False)


def _winner_after(board: HexBoard, black: int, white: int) -> str:
    """Winner with perfect play of ``board`` with the extra stones, side to move unchanged."""
    filled = _rebuild(board, black, white)
    size = board.width
    rows = [set(range(0, size)), set(range(size * (size - 1), size * size))]
    cols = [set(range(0, size * size, size)), set(range(size - 1, size * size, size))]
    for colour, (a, b), own in ((0, rows, black), (1, cols, white)):
        if _joined(own, a, b, _nbrs(size)):
            return "black" if colour == 0 else "white"
    mover = int(board.turn)
    wins = mover_wins(filled)
    return ("black" if mover == 0 else "white") if wins else ("white" if mover == 0 else "black")


@settings(max_examples=80, deadline=None)
@given(size=st.integers(2, 4), data=st.data())
def test_fill_in_keeps_the_value(size, data):
    board = random_board(data, size)
    black, white = _bits(board)
    fb, fw = fill(black, white, ring_table(size, size), size * size)
    assert int(fb) & int(black) == int(black) and int(fw) & int(white) == int(white)
    assert int(fb) & int(fw) == 0
    assert _winner_after(board, int(fb), int(fw)) == _winner_after(board, int(black), int(white))


@settings(max_examples=80, deadline=None)
@given(size=st.integers(2, 4), data=st.data())
def test_a_dead_cell_may_take_either_colour(size, data):
    board = random_board(data, size)
    black, white = _bits(board)
    ring = ring_table(size, size)
    value = _winner_after(board, int(black), int(white))
    for c in range(size * size):
        if board.cells[c] == 0 and is_dead(c, black, white, ring):
            assert _winner_after(board, int(black) | 1 << c, int(white)) == value
            assert _winner_after(board, int(black), int(white) | 1 << c) == value


def test_dead_cell_patterns():
    ring = ring_table(5, 5)
    board = HexBoard.from_moves("b2 a1 c2 e5 c3 e4 b4", 5)
    black, white = _bits(board)
    # four Black neighbours in a row around b3 (b2, c2, c3, b4 touch it; a3 and a4 do not)
    b3 = board.parse_move("b3")
    assert is_dead(b3, black, white, ring)
    # an empty cell in the open is not dead
    assert not is_dead(board.parse_move("d3"), black, white, ring)
    # an empty board has no dead cells and nothing to fill
    zero = np.uint64(0)
    assert not any(is_dead(c, zero, zero, ring) for c in range(25))
    assert fill(zero, zero, ring, 25) == (0, 0)


# Black's winning one-stone openings on 5x5 as found by a second, independently written solver
# (branch issue7hexb, greedy VCs and no fill-in); they also match the published 5x5 solution.
FIVE_BY_FIVE_BLACK_WINS = "a4 a5 b2 b3 b4 c2 c3 c4 d2 d3 d4 e1 e2".split()


def test_five_by_five_openings_match_an_independent_solver():
    openings = solve_openings(5)
    assert sorted(k for k, v in openings.items() if v == "black") == FIVE_BY_FIVE_BLACK_WINS
    assert all(v in ("black", "white") for v in openings.values())


def _mover_joined(board: HexBoard, black: int, white: int) -> bool:
    """Do the stones of ``board``'s side to move (with the extra ones) join its two edges?"""
    size = board.width
    if int(board.turn) == 0:
        edges, own = (set(range(size)), set(range(size * (size - 1), size * size))), black
    else:
        edges, own = (set(range(0, size * size, size)), set(range(size - 1, size * size, size))), white
    return _joined(own, *edges, _nbrs(size))


def _move_wins(board: HexBoard, black: int, white: int, c: int) -> bool:
    """Does the side to move of ``board`` plus the extra stones win by playing cell c?"""
    mover = int(board.turn)
    black, white = (black | 1 << c, white) if mover == 0 else (black, white | 1 << c)
    if _mover_joined(board, black, white):
        return True
    after = _rebuild(board, black, white)
    after.turn = 1 - mover
    return not mover_wins(after)


def _dominated_cases(board: HexBoard, rank):
    """(filled black, white, every empty cell, the moves dropped) for the side to move."""
    size = board.width
    ring = ring_table(size, size)
    black, white = fill(*_bits(board), ring, size * size)
    empty = ~(int(black) | int(white)) & ((1 << size * size) - 1)
    dropped, cells = capture_dominated(black, white, int(board.turn), np.uint64(empty),
                                       np.asarray(rank, dtype=np.int64), ring,
                                       geometry(size, size)[0], size * size)
    return int(black), int(white), empty, int(dropped), int(cells)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(3, 4), data=st.data())
def test_dropping_dominated_moves_keeps_a_winning_move(size, data):
    board = random_board(data, size, most=size * size - 4)
    rank = data.draw(st.permutations(range(size * size)))
    black, white, empty, dropped, cells = _dominated_cases(board, rank)
    assert dropped & ~empty == 0 and (dropped != empty or empty == 0)   # one move always stays
    if dropped:
        assert cells & dropped == dropped
        moves = [c for c in range(size * size) if empty >> c & 1]
        wins = {c: _move_wins(board, black, white, c) for c in moves}
        kept_win = any(wins[c] for c in moves if not dropped >> c & 1)
        assert kept_win == any(wins.values())


def test_dominated_moves_are_found():
    """On the empty board every cell of Black's own edge rows is dropped (a stone on the second
    row captures the two edge cells under it, the bridge to the edge), and on random 4x4
    positions the rule drops moves often enough for the test above to test something."""
    rank = Solver(4, 4).rank
    board = HexBoard(4)
    dropped = _dominated_cases(board, rank)[3]
    assert sorted(board.move_name(c) for c in range(16) if dropped >> c & 1) == \
        ["a1", "a4", "b1", "b4", "c1", "c4", "d1", "d4"]
    found = sum(_dominated_cases(board, rank)[3] != 0 for board in _random_games(7, 200, 2, 9))
    assert found >= 10


def _random_games(seed: int, count: int, low: int, high: int):
    """``count`` 4x4 boards after ``low`` to ``high - 1`` random moves (stopping before the
    move that would end the game)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        board = HexBoard(4)
        for _ in range(int(rng.integers(low, high))):
            board.push(int(rng.choice(list(board.legal_moves))))
            if board.is_game_over():
                board.pop()
                break
        yield board


def _vulnerable_cases(board: HexBoard, rank):
    """(filled black, white, every empty cell, the vulnerable moves, their patterns, the
    captured-reversible moves among the rest, their patterns, and the moves the solver's node
    keeps: neither of those nor capture-dominated among the rest)."""
    size = board.width
    ring = ring_table(size, size)
    nbr = geometry(size, size)[0]
    black, white = fill(*_bits(board), ring, size * size)
    empty = ~(int(black) | int(white)) & ((1 << size * size) - 1)
    weak, cells = vulnerable(black, white, int(board.turn), np.uint64(empty), ring, nbr,
                             size * size)
    rev, rev_cells = reversible(black, white, int(board.turn), np.uint64(empty & ~int(weak)),
                                ring, nbr, size * size)
    rest = empty & ~int(weak) & ~int(rev)
    dropped, _ = capture_dominated(black, white, int(board.turn), np.uint64(rest),
                                   np.asarray(rank, dtype=np.int64), ring, nbr, size * size)
    return (int(black), int(white), empty, int(weak), int(cells), int(rev), int(rev_cells),
            rest & ~int(dropped))


@settings(max_examples=80, deadline=None)
@given(size=st.integers(3, 4), data=st.data())
def test_dropping_vulnerable_moves_keeps_a_winning_move(size, data):
    """A winning move survives dropping every vulnerable move, and then the capture-dominated
    ones among the rest."""
    board = random_board(data, size, most=size * size - 4)
    rank = data.draw(st.permutations(range(size * size)))
    black, white, empty, weak, cells, _, _, _ = _vulnerable_cases(board, rank)
    assert weak & ~empty == 0 and cells & weak == weak
    rest = empty & ~weak
    ring, nbr = ring_table(size, size), geometry(size, size)[0]
    dropped, _ = capture_dominated(np.uint64(black), np.uint64(white), int(board.turn),
                                   np.uint64(rest), np.asarray(rank, dtype=np.int64), ring, nbr,
                                   size * size)
    kept = rest & ~int(dropped)
    # (when the fill-in joins the mover's edges the solver answers WIN and drops nothing)
    if (weak or kept != empty) and not _mover_joined(board, black, white):
        moves = [c for c in range(size * size) if empty >> c & 1]
        wins = {c: _move_wins(board, black, white, c) for c in moves}
        assert any(wins[c] for c in moves if kept >> c & 1) == any(wins.values())
        assert any(wins[c] for c in moves if rest >> c & 1) == any(wins.values())


@settings(max_examples=150, deadline=None)
@given(size=st.integers(3, 4), data=st.data())
def test_dropping_reversible_moves_too_keeps_a_winning_move(size, data):
    """What ``solver.evaluate`` drops: the vulnerable and captured-reversible moves together,
    then the capture-dominated ones among the rest; a winning move survives each step."""
    board = random_board(data, size, most=size * size - 4)
    rank = data.draw(st.permutations(range(size * size)))
    black, white, empty, weak, _, rev, rev_cells, kept = _vulnerable_cases(board, rank)
    assert rev & ~empty == 0 and rev & weak == 0 and rev_cells & rev == rev
    assert kept & ~empty == 0
    if rev and not _mover_joined(board, black, white):     # (else the solver answers WIN)
        rest = empty & ~weak & ~rev
        moves = [c for c in range(size * size) if empty >> c & 1]
        wins = {c: _move_wins(board, black, white, c) for c in moves}
        assert any(wins[c] for c in moves if rest >> c & 1) == any(wins.values())
        assert any(wins[c] for c in moves if kept >> c & 1) == any(wins.values())


@settings(max_examples=80, deadline=None)
@given(size=st.integers(3, 4), data=st.data())
def test_the_node_evaluation_agrees_with_minimax(size, data):
    """``solver.evaluate`` as a whole (fill-in, H-search, vulnerable and capture-dominated moves
    dropped): a LOSS or WIN is the minimax value, and when the mover wins one of the moves it
    keeps wins (a node left with only vulnerable moves is a LOSS)."""
    board = random_board(data, size, most=size * size - 3)
    ring = ring_table(size, size)
    nbr, edges = geometry(size, size)
    black, white = _bits(board)
    result, moves, _ = evaluate(black, white, int(board.turn), nbr, edges, ring,
                                centre_rank(size, size), size * size, new_scratch())
    wins = mover_wins(board)
    if result != UNKNOWN:
        assert (result == WIN) == wins
    elif wins:
        kept = [c for c in range(size * size) if int(moves) >> c & 1]
        assert any(_move_wins(board, int(black), int(white), c) for c in kept)


def test_vulnerable_moves_are_found():
    """On the empty board the two corners a1 and d4 are vulnerable for either side: a1 touches
    only b1 and a2, and a White stone on a2 leaves it dead for Black (a Black one on b1 for
    White), as does its mirror at d4; and the rule drops moves on random 4x4 positions often
    enough for the test above to test something."""
    board = HexBoard(4)
    for mover in (0, 1):
        weak, cells = vulnerable(np.uint64(0), np.uint64(0), mover, np.uint64((1 << 16) - 1),
                                 ring_table(4, 4), geometry(4, 4)[0], 16)
        assert sorted(board.move_name(c) for c in range(16) if int(weak) >> c & 1) == ["a1", "d4"]
        assert sorted(board.move_name(c) for c in range(16) if int(cells) >> c & 1) == \
            ["a1", "a2", "b1", "c4", "d3", "d4"]
    rank = Solver(4, 4).rank
    found = sum(_vulnerable_cases(board, rank)[3] != 0 for board in _random_games(11, 300, 3, 10))
    assert found >= 10


def test_captured_reversible_moves_are_found():
    """On the empty 4x4 board Black's b1 is captured-reversible: White answers b2, which leaves
    a2 and a3 a pair White has captured, and with White on the three b1 is dead (its empty
    neighbours a1 and c1 are joined round it by Black's edge and by White's stones).  So is its
    mirror c4; White's are a2 and d3.  The corners are vulnerable, so the rule leaves them out.
    And the rule drops moves beyond the vulnerable ones on random 4x4 positions often enough for
    the test above to test something."""
    board = HexBoard(4)
    ring, nbr = ring_table(4, 4), geometry(4, 4)[0]
    for mover, expected in ((0, ["b1", "c4"]), (1, ["a2", "d3"])):
        everything = np.uint64((1 << 16) - 1)
        weak, _ = vulnerable(np.uint64(0), np.uint64(0), mover, everything, ring, nbr, 16)
        rev, cells = reversible(np.uint64(0), np.uint64(0), mover, everything & ~np.uint64(weak),
                                ring, nbr, 16)
        assert sorted(board.move_name(c) for c in range(16) if int(rev) >> c & 1) == expected
        assert int(cells) & int(rev) == int(rev)
    rank = Solver(4, 4).rank
    found = sum(_vulnerable_cases(board, rank)[5] != 0 for board in _random_games(12, 300, 3, 10))
    assert found >= 10


def test_a_dead_ring_has_at_most_two_empty_cells():
    """``capture_dominated`` skips cells with three or more empty neighbours: checked on every
    labelling of a ring (empty, Black, White, off-board corner)."""
    for labels in itertools.product(range(4), repeat=6):
        if _dead_ring(np.array(labels, dtype=np.int64)):
            assert sum(v == EMPTY for v in labels) <= 2


@settings(max_examples=60, deadline=None)
@given(size=st.integers(2, 4), data=st.data())
def test_the_cells_the_playouts_start_with_keep_the_value(size, data):
    """``Player.filled`` (the dead cells and captured pairs the MCTS's playouts start with)
    names empty cells only, and the position with them has the same winner."""
    from boardai.solvers.hex.player import Player

    board = random_board(data, size)
    cells = Player.filled(board)
    assert cells is not None and cells.shape == (size * size,)
    assert all(board.cells[c] == 0 for c in np.flatnonzero(cells))
    black = sum(1 << int(c) for c in np.flatnonzero(cells == 1))
    white = sum(1 << int(c) for c in np.flatnonzero(cells == 2))
    b0, w0 = stone_bits(board)
    assert _winner_after(board, b0 | black, w0 | white) == _winner_after(board, b0, w0)
