"""The threat analysis of the line-word boards (``games/connect4/threats.py``): threat cells
against a scan of the board, the no-go cell, Allis's row parity, the zugzwang rule on known
cases, and the exact late-game search against plain minimax; ``mcts:settle`` in the tree."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import Connect4Board, kernel as K
from boardai.games.connect4 import threats as T
from boardai.games.connect4.parity import zugzwang_rule
from boardai.games.layout import DRAW

from connect4_scan import fours


def scan_threats(board: Connect4Board, colour: int) -> set[int]:
    return {c * board.height + r for c in range(board.width) for r in range(board.height)
            if r >= board.landing_row(c) and board.cell(c, r) == 0 and fours(board, colour, c, r)}


def drawn_board(seed: int, plies: int) -> Connect4Board:
    """A course-sized board with one no-go cell and up to ``plies`` random moves (no game end)."""
    rnd = random.Random(seed)
    w, h = rnd.randint(9, 12), rnd.randint(9, 12)
    board = Connect4Board(w, h, blocked=[(rnd.randrange(w), rnd.randrange(h))])
    for _ in range(plies):
        moves = [m for m in board.legal_moves if not K.wins_if_played(board.state, m, board.ply & 1)]
        if not moves:
            break
        board.push(rnd.choice(moves))
    return board


def late_board(seed: int, empty: int) -> Connect4Board:
    """A course-sized board filled by random moves that do not make four until at most
    ``empty`` cells are left (fewer when no such move is left first)."""
    rnd = random.Random(seed)
    w, h = rnd.randint(9, 12), rnd.randint(9, 12)
    board = Connect4Board(w, h, blocked=[(rnd.randrange(w), rnd.randrange(h))])
    while w * h - 1 - board.ply > empty:
        moves = [m for m in board.legal_moves if not K.wins_if_played(board.state, m, board.ply & 1)]
        if not moves:
            break
        board.push(rnd.choice(moves))
    return board


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90))
def test_a_threat_reported_is_a_cell_that_makes_four(seed, plies):
    board = drawn_board(seed, plies)
    (nogo,) = board.blocked
    out = np.empty(board.width * board.height, dtype=np.int64)
    for colour in (0, 1):
        k = T.threat_cells(board.state, colour, out)
        cells = set(out[:k].tolist())
        assert cells == scan_threats(board, colour)
        assert nogo[0] * board.height + nogo[1] not in cells
        for cell in cells:
            c, r = divmod(cell, board.height)
            assert board.cell(c, r) == 0 and fours(board, colour, c, r)


def test_a_line_through_the_no_go_cell_is_broken():
    # Black on columns 0, 1 and 3 of row 0, the no-go cell at column 2 of row 0: no four there,
    # so no threat; with the no-go cell elsewhere column 2's landing cell is Black's threat
    for nogo, expect in (((2, 0), set()), ((8, 8), {2 * 9 + 0})):
        board = Connect4Board(9, 9, blocked=[nogo])
        board.push_many([0, 8, 1, 8, 3, 7])
        out = np.empty(81, dtype=np.int64)
        k = T.threat_cells(board.state, 0, out)
        assert {x for x in out[:k].tolist() if x < 9 * 4 and x % 9 == 0} == expect


def test_playable_row_skips_the_no_go_cell():
    board = Connect4Board(9, 9, blocked=[(4, 2)])
    assert [T.playable_row(board.state, 4, r) for r in (0, 1, 3, 4)] == [1, 2, 3, 4]
    assert [T.playable_row(board.state, 3, r) for r in (0, 1, 3, 4)] == [1, 2, 4, 5]


def test_stacked_threats_are_found():
    board = Connect4Board(9, 9, blocked=[(8, 8)])
    board.push_many([0, 5, 1, 5, 2, 6, 8, 7, 0, 7, 1, 6])
    # Black: columns 0-2 on rows 0 and 1 but (2, 1); White: columns 5-7 on rows 0 and 1
    assert T.stacked(board.state, 0) == -1        # Black's row 1 is not three yet
    assert T.stacked(board.state, 1) == 4         # White's threats on (4, 0) and (4, 1)
    board.push(2)
    assert T.stacked(board.state, 0) == 3         # Black's on (3, 0) and (3, 1)
    board.push(3)                                 # White blocks (3, 0): (3, 1) is left alone
    assert T.stacked(board.state, 0) == -1


def rule_on(w, h, top, black, white, mover, blocked=None):
    """The zugzwang rule on tops and threat rows given by hand (columns not named are full)."""
    tops = np.full(w, h, dtype=np.int64)
    t0 = np.zeros(w, dtype=np.int64)
    t1 = np.zeros(w, dtype=np.int64)
    b = np.zeros(w, dtype=np.int64)
    for c, r in top.items():
        tops[c] = r
    for c, rows in black.items():
        for r in rows:
            t0[c] |= 1 << r
    for c, rows in white.items():
        for r in rows:
            t1[c] |= 1 << r
    for c, r in (blocked or {}).items():
        b[c] |= 1 << r
    return zugzwang_rule(tops, t0, t1, b, w, h, mover)


def test_zugzwang_parity_rule_on_known_cases():
    # rows are 0-based here: Allis's odd rows are 0, 2, 4, ...
    # White's even threat (row 1) in an empty column, Black to move: Black runs out of free
    # cells first and must play under it
    assert rule_on(2, 6, {0: 0}, {}, {0: [1]}, 0) == 1
    # Black's odd threat (row 2), Black to move: one free cell, then White is in zugzwang
    assert rule_on(2, 6, {0: 0}, {0: [2]}, {}, 0) == 0
    # both: Black's odd threat below White's even one in the same column: the lower one wins
    assert rule_on(2, 6, {0: 0}, {0: [2]}, {0: [3]}, 0) == 0
    # no threat at all: the board fills up, a draw
    assert rule_on(3, 6, {0: 0, 1: 2}, {}, {}, 0) == DRAW
    # a stacked pair of White's (rows 3, 4) with nothing else: White gives up the lower one
    # when in zugzwang and wins on top of Black's block
    assert rule_on(2, 6, {0: 0}, {}, {0: [3, 4]}, 1) == 1


def test_the_no_go_cell_moves_the_parity():
    # White's threat on row 2 of column 0, Black to move: with every cell playable the free
    # cell below (row 0) leaves White in zugzwang, which gives its threat up (no win for
    # anyone: a draw); with the no-go cell on row 0 there is no free cell, and Black must play
    # right under White's threat
    assert rule_on(2, 6, {0: 0}, {}, {0: [2]}, 0) == DRAW
    assert rule_on(2, 6, {0: 1}, {}, {0: [2]}, 0, blocked={0: 0}) == 1


def minimax(board: Connect4Board) -> int:
    """Plain exhaustive minimax (no pruning): +1 / 0 / -1 for the side to move."""
    if board.is_game_over():
        winner = board.outcome().winner
        return 0 if winner is None else -1
    best = -1
    for m in list(board.legal_moves):
        board.push(m)
        v = -minimax(board)
        board.pop()
        if v > best:
            best = v
            if best == 1:
                break
    return best


@pytest.mark.parametrize("seed", range(16))
def test_settle_agrees_with_plain_minimax_on_late_positions(seed):
    board = late_board(seed, 8)
    keys, vals = T.new_table(12)
    state = board.state.copy()
    got = T.settle(state, 10**6, keys, vals)
    assert np.array_equal(state[:state[7]], board.state[:board.state[7]])   # left as it came
    v = minimax(board)
    me = board.ply & 1
    assert got == (DRAW if v == 0 else (me if v == 1 else 1 - me))


def test_settle_gives_up_past_its_budget():
    board = Connect4Board(12, 12, blocked=[(5, 3)])
    board.push_many([5, 6])
    keys, vals = T.new_table(12)
    state = board.state.copy()
    assert T.settle(state, 500, keys, vals) == T.UNKNOWN
    assert np.array_equal(state[:state[7]], board.state[:board.state[7]])


def test_mcts_settle_reaches_the_kernel_and_keeps_the_exact_result():
    keys, vals = T.new_table(16)
    for seed in range(6):
        board = late_board(100 + seed, 16)
        best = T.settle(board.state.copy(), 10**7, keys, vals)
        engine = make_engine("mcts:settle=20,settle_visits=2,settle_nodes=100000,seed=1")
        result = engine.play(board, Limit(sims=300))
        after = board.copy()
        after.push(result.move)
        assert T.settle(after.state.copy(), 10**7, keys, vals) == best


def test_the_kernel_rule_is_the_zugzwang_rule_on_course_boards_only():
    board = late_board(7, 20)
    while not T.quiet(board.state):
        board.pop()
    assert K.rule_result(board.state) == T.zugzwang(board.state, 10**6) != T.UNKNOWN
    assert K.rule_result(Connect4Board().state) == -1          # 7x6: one word, no rule
    engine = make_engine("mcts:rule=8,seed=1")
    assert board.is_legal(engine.play(board, Limit(sims=200)).move)
