"""Play one game between two engines through the engine protocol."""

from __future__ import annotations

from dataclasses import dataclass, field

from boardai.engines.base import Engine, Limit
from boardai.games import Board, Color, MoveError


@dataclass
class GameResult:
    """How a game between engines ended: ``winner`` None for a draw."""

    winner: Color | None
    reason: str                      # connection, four in a row, draw, resign, illegal move
    moves: list[int]
    times: list[float] = field(default_factory=list)


def play_game(board: Board, black: Engine, white: Engine, limit: Limit | None = None,
              on_move=None) -> GameResult:
    """Play from ``board`` (changed in place) until the end; ``on_move(board, result)`` per move."""
    engines = {Color.BLACK: black, Color.WHITE: white}
    for e in engines.values():
        e.new_game(board.copy())
    times: list[float] = []
    while not board.is_game_over():
        colour = board.turn
        result = engines[colour].play(board.copy(), limit)
        times.append(result.time_s)
        if result.resign:
            return GameResult(colour.other, "resign", board.move_stack, times)
        try:
            board.push(result.move)
        except MoveError:
            return GameResult(colour.other, "illegal move", board.move_stack, times)
        for e in engines.values():
            e.notify(board, result.move)
        if on_move is not None:
            on_move(board, result)
    outcome = board.outcome()
    assert outcome is not None
    return GameResult(outcome.winner, outcome.termination.value, board.move_stack, times)
