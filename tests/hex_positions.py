"""Test helper: random Hex positions whose side to move wins, by the project's exact solver."""

from __future__ import annotations

import random

from boardai.games import get_game
from boardai.games.base import Color


def won_hex_positions(size: int, count: int, seed: int):
    """``count`` random positions of 2-6 stones on a ``size`` board whose side to move wins,
    each with the set of its winning moves."""
    from boardai.solvers.hex.solver import solve
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = get_game("hex").new_board(size)
        for _ in range(rng.randrange(2, 7)):
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        result = solve(board)
        if result.winner == ("black" if board.turn == Color.BLACK else "white"):
            found.append((board, {board.parse_move(m) for m in result.winning_moves}))
    return found
