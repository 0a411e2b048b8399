"""Connect Four on any size up to 16×16 (and beyond) with blocked cells, against a naive model.

Both layouts are exercised: one 64-bit word (W*(H+1) <= 64) and the line words of
``connect4/wide.py``.  The model is a plain grid with a scan for four in a row; the kernel must
agree with it on every landing row, winner, legal move, one-move win, and push/pop must restore
the board and its hash exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from boardai.games import kernel as K
from boardai.games.connect4.board import Connect4Board
from boardai.games.connect4.kernel import fits_one_word
from boardai.games.layout import FLAG_C4_LINES, FLAGS, HASH, POS_LEN
from boardai.games.base import IllegalMoveError


class Naive:
    """A grid: 0 empty, 1 Black, 2 White, 3 blocked; row 0 at the bottom."""

    def __init__(self, w, h, blocked):
        self.w, self.h = w, h
        self.grid = [[0] * h for _ in range(w)]
        for c, r in blocked:
            self.grid[c][r] = 3
        self.winner = None
        self.ply = 0
        if not any(self.landing(x) < h for x in range(w)):
            self.winner = 2                  # nothing to play: drawn before it starts

    def landing(self, c):
        for r in range(self.h):
            if self.grid[c][r] == 0:
                # the lowest empty cell; everything under it is a stone or blocked
                return r
        return self.h

    def legal(self):
        if self.winner is not None:
            return []
        return [c for c in range(self.w) if self.landing(c) < self.h]

    def four(self, colour):
        g, w, h = self.grid, self.w, self.h
        for c in range(w):
            for r in range(h):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(0 <= c + k * dc < w and 0 <= r + k * dr < h
                           and g[c + k * dc][r + k * dr] == colour for k in range(4)):
                        return True
        return False

    def wins_if_played(self, c, colour):
        r = self.landing(c)
        if r >= self.h:
            return False
        self.grid[c][r] = colour + 1
        won = self.four(colour + 1)
        self.grid[c][r] = 0
        return won

    def play(self, c):
        colour = self.ply & 1
        self.grid[c][self.landing(c)] = colour + 1
        self.ply += 1
        if self.four(colour + 1):
            self.winner = colour
        elif not any(self.landing(x) < self.h for x in range(self.w)):
            self.winner = 2


@st.composite
def boards(draw, max_side=16):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    cells = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    blocked = draw(st.lists(cells, max_size=min(6, w * h), unique=True))
    return w, h, blocked


@settings(max_examples=120, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_random_games_agree_with_naive_model(setup, rnd):
    w, h, blocked = setup
    board = Connect4Board(w, h, blocked)
    naive = Naive(w, h, blocked)
    assert bool(int(board.state[FLAGS]) & FLAG_C4_LINES) == (not fits_one_word(w, h))
    out = np.empty(w, dtype=np.int64)
    snapshots = [(board.state[:int(board.state[POS_LEN])].copy(), int(board.state[HASH]))]
    while True:
        assert sorted(board.legal_moves) == naive.legal()
        assert [board.landing_row(c) for c in range(w)] == [naive.landing(c) for c in range(w)]
        for c in range(w):
            for r in range(h):
                assert board.cell(c, r) == naive.grid[c][r]
        if naive.winner is not None:
            assert board.is_game_over()
            assert int(board.outcome().winner if board.outcome().winner is not None else 2) \
                == naive.winner
            break
        assert not board.is_game_over()
        for colour in (0, 1):
            expect = [c for c in range(w) if naive.wins_if_played(c, colour)]
            assert [c for c in range(w) if K.wins_if_played(board.state, c, colour)] == expect
            n = K.winning_moves(board.state, colour, out)
            assert sorted(out[:n]) == expect
        move = rnd.choice(naive.legal())
        board.push(move)
        naive.play(move)
        snapshots.append((board.state[:int(board.state[POS_LEN])].copy(), int(board.state[HASH])))
    # pop everything: every earlier position comes back exactly, hash included
    for prefix, key in reversed(snapshots[:-1]):
        board.pop()
        assert int(board.state[HASH]) == key
        assert np.array_equal(board.state[:len(prefix)], prefix)


@settings(max_examples=40, deadline=None)
@given(boards(max_side=14), st.integers(0, 2**32))
def test_playouts_never_use_a_blocked_cell(setup, seed):
    """A playout leaves the state as it was, ends with a result and drops nothing into a
    column that is already full (its top blocked or stacked)."""
    w, h, blocked = setup
    board = Connect4Board(w, h, blocked)
    before = board.state.copy()
    work = np.empty(len(board.state) + 64, dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    owner = np.empty(w, dtype=np.int64)
    for policy in (0, 1):
        owner[:] = -1
        result = K.playout_policy(board.state, rng, work, owner, policy, K.NO_TABLE, 0.0, K.NO_FILL)
        assert result in (0, 1, 2)
        assert np.array_equal(board.state, before)
        for c in range(w):
            if board.landing_row(c) >= h:
                assert owner[c] == -1          # nothing can be dropped in a full column


def test_blocked_cells_break_lines_and_are_skipped():
    # three Black stones in row 0 of columns 1-3, column 4's bottom cell blocked
    board = Connect4Board(7, 6, blocked=[(3, 0)])
    board.push_many("1 1 2 2 3 3")
    assert not K.wins_if_played(board.state, 3, 0)   # lands on row 1, not next to the three
    board.push(3)                                    # Black's stone goes to (3, 1)
    assert board.cell(3, 1) == 1 and board.cell(3, 0) == 3
    wide = Connect4Board(12, 12, blocked=[(3, 0)])
    wide.push_many("1 1 2 2 3 3")
    assert not K.wins_if_played(wide.state, 3, 0)


def test_a_column_whose_top_is_blocked_fills_early_and_a_fully_blocked_board_is_drawn():
    board = Connect4Board(3, 2, blocked=[(0, 1), (1, 0), (1, 1)])
    assert board.landing_row(1) == 2 and sorted(board.legal_moves) == [0, 2]
    board.push(0)
    assert 0 not in board.legal_moves
    with pytest.raises(IllegalMoveError, match="full"):
        board.push(1)
    assert Connect4Board(2, 2, blocked=[(0, 0), (0, 1), (1, 0), (1, 1)]).is_game_over()


def test_hash_depends_on_blocked_cells_and_board_picture_marks_them():
    plain = Connect4Board(10, 9)
    a = Connect4Board(10, 9, blocked=[(3, 4)])
    b = Connect4Board(10, 9, blocked=[(4, 3)])
    assert len({plain.zobrist_hash(), a.zobrist_hash(), b.zobrist_hash()}) == 3
    assert a != plain and a == Connect4Board(10, 9, blocked=[(3, 4)])
    text = a.render()
    assert text.count("#") == 1
    assert "10" in text.splitlines()[0]


@pytest.mark.parametrize("args, match", [
    ((7, 6, [(7, 0)]), "off the 7x6 board"),
    ((7, 6, [(0, -1)]), "off the 7x6 board"),
    ((33, 9, []), "32x32"),
    ((7, 6, ["x"]), "col, row"),
])
def test_bad_setups_are_refused_with_what_is_accepted(args, match):
    with pytest.raises(ValueError, match=match):
        Connect4Board(*args)


# --- the course's board draw, engines and records on course boards -----------------------------

def test_the_referees_board_draw_stays_in_range_and_covers_it():
    import random

    from boardai.games.connect4 import course

    rng = random.Random(7)
    sizes, cells = set(), set()
    for _ in range(4000):
        w, h, blocked = course.draw_board(rng)
        assert 9 <= w <= 12 and 9 <= h <= 12 and len(blocked) == 1
        c, r = blocked[0]
        assert 0 <= c < w and 0 <= r < h
        sizes.add((w, h))
        if (w, h) == (9, 9):
            cells.add((c, r))
    assert len(sizes) == 16                     # every M, N in 9..12
    assert len(cells) > 70                      # the no-go cell ranges over the whole 9x9 board


def test_setup_board_random_is_seeded_and_matches_the_referees_draw():
    import random

    from boardai.games import get_game
    from boardai.games.connect4 import course

    game = get_game("connect4")
    a = game.setup_board("random", ["random"], rng=random.Random(3))
    w, h, blocked = course.draw_board(random.Random(3))
    assert (a.width, a.height, a.blocked) == (w, h, blocked)
    b = game.setup_board("random", (), rng=random.Random(3))
    assert (b.width, b.height, b.blocked) == (w, h, ())


def test_evaluator_counts_no_window_through_a_blocked_cell():
    """Three Black stones in a row: with the fourth cell of their only window blocked the
    three-link is worth nothing, on both layouts."""
    for size in ((7, 6), (12, 12)):
        open_board = Connect4Board(*size)
        shut = Connect4Board(*size, blocked=[(0, 0), (4, 0)])
        for board in (open_board, shut):
            board.push_many("2 2 3 3 4 6")        # Black on 2,3,4 of row 1; White above; White 6
        aux = np.zeros((1, 1), dtype=np.int64)
        assert K.evaluate(open_board.state, 0, aux) > K.evaluate(shut.state, 0, aux)


def test_solver_is_exact_on_a_small_board_with_a_blocked_cell_and_falls_back_on_big_ones():
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    # 4x4 with a blocked cell: searched to the end by alphabeta; Black's move is exact
    small = Connect4Board(4, 4, blocked=[(0, 3)])
    with make_engine("solver:exact=1") as engine:
        result = engine.play(small, Limit(time=30))
    assert result.info["exact"] is True and small.is_legal(result.move)
    # 12x10 from the start: too many empty cells, mcts plays and says why
    big = Connect4Board(12, 10, blocked=[(3, 0)])
    with make_engine("solver") as engine:
        result = engine.play(big, Limit(time=0.3))
    assert result.info["exact"] is False and "too many" in result.info["fallback"]


@pytest.mark.parametrize("spec", ["random", "montecarlo:time=0.05", "minimax:depth=2",
                                  "alphabeta:time=0.05", "mcts:time=0.05", "solver:time=0.05"])
def test_every_engine_plays_a_legal_move_on_a_course_board(spec):
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    board = Connect4Board(11, 10, blocked=[(5, 1)])
    board.push_many("6 6 6")                    # the second stone passes over the no-go cell
    assert [board.cell(5, r) for r in range(4)] == [1, 3, 2, 1]
    with make_engine(spec) as engine:
        result = engine.play(board, Limit(time=0.05))
    assert board.is_legal(result.move)


def test_bruteforce_plays_small_blocked_boards():
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    board = Connect4Board(4, 4, blocked=[(1, 1)])
    board.push_many("1 2 3 1 4 4")
    with make_engine("bruteforce") as engine:
        result = engine.play(board, Limit())
    assert board.is_legal(result.move)
