"""The kernel's one-move win tests agree with playing the move and looking at the winner."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardai.games import Color, make_board
from boardai.games import kernel as K


def _agrees_along_random_game(board, rng):
    out = np.empty(board.num_actions, dtype=np.int64)
    while not board.is_game_over():
        for colour in (0, 1):
            k = K.winning_moves(board.state, colour, out)
            expected = [m for m in board.legal_moves
                        if m < board.width * board.height or board.game_name != "hex"
                        if K.wins_if_played(board.state, m, colour)]
            assert sorted(out[:k].tolist()) == sorted(expected)
        for move in board.legal_moves:
            if move >= board.width * board.height and board.game_name == "hex":
                continue   # swap is not a stone
            mover = board.turn
            board.push(move)
            wins = board.outcome() is not None and board.outcome().winner == mover
            board.pop()
            assert bool(K.wins_if_played(board.state, move, int(mover))) == wins
        board.push(rng.choice(list(board.legal_moves)))


@pytest.mark.parametrize("seed", range(6))
def test_hex_wins_if_played_matches_push(seed):
    rng = random.Random(seed)
    _agrees_along_random_game(make_board("hex", rng.choice(["3", "4", "5", "3x4", "6x4"])), rng)


@pytest.mark.parametrize("seed", range(6))
def test_connect4_wins_if_played_matches_push(seed):
    rng = random.Random(seed)
    _agrees_along_random_game(make_board("connect4", rng.choice(["7x6", "5x4", "4x4"])), rng)


def test_opponent_threat_is_seen():
    # Black has c1-c2 on a 3x3 board; Black threatens c3 even when White is to move
    board = make_board("hex", "3")
    board.push_many(["c1", "a1", "c2"])
    assert board.turn == Color.WHITE
    assert K.wins_if_played(board.state, board.parse_move("c3"), int(Color.BLACK))
    assert not K.wins_if_played(board.state, board.parse_move("a3"), int(Color.BLACK))
