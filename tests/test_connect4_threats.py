"""Threats on the line-word boards (the course's): the columns under an opponent's threat cell,
past a no-go cell, and the ``safe`` playouts that keep off them unless every column is one."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardai.engines.registry import make_engine
from boardai.engines.mcts import kernel as MK
from boardai.games import Connect4Board, kernel as K
from boardai.games.connect4 import course
from boardai.games.connect4.wide import wide_threat_under
from boardai.games.layout import new_rng

from connect4_scan import fours

# a 10x6 board (past 64 cells: line words), no-go cell at column 3, row 2; White (O) to move,
# no win and no threat to block, and every open column but one puts a stone right under a cell
# where Black makes four
POSITION = [1, 3, 1, 7, 5, 6, 2, 4, 5, 2, 4, 9, 8, 8, 3, 6, 3, 3, 4, 6, 6, 6, 1, 1, 1, 2, 1, 3,
            9, 6, 0, 7, 9, 4, 5, 5, 4, 4, 0, 8, 9, 9, 7, 5, 5, 8, 8, 8, 9]


def naive_under(board: Connect4Board, colour: int) -> list[int]:
    out = []
    for c in board.legal_moves:
        up = board.landing_row(c) + 1
        while up < board.height and board.cell(c, up) == 3:      # past the no-go cell
            up += 1
        if up < board.height and fours(board, colour, c, up):
            out.append(c)
    return sorted(out)


def under(board: Connect4Board, colour: int) -> list[int]:
    out = np.zeros(board.width, dtype=np.int64)
    return sorted(out[:wide_threat_under(board.state, colour, out)].tolist())


def test_the_hand_made_position_has_one_safe_column():
    board = Connect4Board(10, 6, blocked=[(3, 2)])
    board.push_many(POSITION)
    mover = len(board.move_stack) % 2
    assert mover == 1                                 # 49 plies: White (O) to move
    out = np.zeros(10, dtype=np.int64)
    assert K.winning_moves(board.state, mover, out) == 0
    assert K.winning_moves(board.state, 1 - mover, out) == 0
    assert under(board, 1 - mover) == naive_under(board, 1 - mover) == [2, 7]
    assert sorted(board.legal_moves) == [0, 2, 7]


def test_a_no_go_cell_between_the_landing_cell_and_the_threat():
    # 10x9, no-go cell at (4, 1): a stone in column 4 lands on row 0 and the next one on row 2;
    # White holds (5, 2), (6, 2), (7, 2) on their columns' stones, so (4, 2) makes four for White
    # (and so does (8, 2), two rows above column 8's landing cell: not right above it)
    moves = [5, 6, 7, 5, 6, 7, 0, 5, 0, 6, 9, 7]
    board = Connect4Board(10, 9, blocked=[(4, 1)])
    board.push_many(moves)
    assert [board.cell(c, 2) for c in (4, 5, 6, 7)] == [0, 2, 2, 2]
    assert board.landing_row(4) == 0
    assert under(board, 1) == naive_under(board, 1) == [4]
    assert under(board, 0) == naive_under(board, 0) == []
    # on a board without the no-go cell the cell above column 4's landing cell is row 1
    plain = Connect4Board(10, 9)
    plain.push_many(moves)
    assert under(plain, 1) == []


@pytest.mark.parametrize("seed", range(4))
def test_threat_under_agrees_with_a_scan_on_course_boards(seed):
    rng = random.Random(seed)
    for _ in range(40):
        w, h, blocked = course.draw_board(rng)
        board = Connect4Board(w, h, blocked=blocked)
        for _ in range(rng.randrange(w * h * 3 // 4)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        for colour in (0, 1):
            assert under(board, colour) == naive_under(board, colour), (w, h, blocked,
                                                                        board.move_stack)


def first_owner(board: Connect4Board, policy: int, seed: int) -> np.ndarray:
    owner = np.full(board.width, -1, dtype=np.int64)
    work = np.zeros(len(board.state) + 64, dtype=np.int64)
    K.playout_policy(board.state, new_rng(seed), work, owner, policy, K.NO_TABLE, 0.0, K.NO_FILL)
    return owner


def test_safe_playouts_keep_off_the_cells_under_threats():
    board = Connect4Board(10, 6, blocked=[(3, 2)])
    board.push_many(POSITION)
    before = board.state.copy()
    mover = len(board.move_stack) % 2
    # safe (policy 3): the mover's first stone goes to column 0, the only safe one
    assert all(first_owner(board, 3, s)[0] == mover for s in range(60))
    # tactics alone (policy 1) plays columns 2 and 7 too: column 0's first stone is not
    # always the mover's
    assert any(first_owner(board, 1, s)[0] != mover for s in range(60))
    assert np.array_equal(board.state, before)


def test_the_safe_switch_reaches_the_kernel_and_plays_legal_moves():
    board = Connect4Board(11, 10, blocked=[(2, 4)])
    eng = make_engine("mcts:safe=1,mix=0,sims=300,seed=2")
    assert eng._params(board)[MK.P_POLICY] == 3
    assert make_engine("mcts:safe=0,mix=0")._params(board)[MK.P_POLICY] == 1
    for _ in range(6):
        res = eng.play(board)
        assert board.is_legal(res.move)
        board.push(res.move)
