"""Games: rules, notation, pictures and kernels, one folder per game; this module registers them.

Every game is known to the rest of boardai through its description (``games/game.py``:
``Game``), registered here -- the one place that lists the games.  ``get_game("c4")`` finds a
description by name or alias, ``game_of(board)`` by board; ``make_board("hex", "9")`` builds an
empty board from the names the CLI and the protocols use.
"""

from __future__ import annotations

from boardai.games.base import (
    Board, Color, IllegalMoveError, InvalidMoveError, LegalMoves, MoveError, Outcome, Termination,
)
from boardai.games.connect4.board import Connect4Board
from boardai.games.connect4.game import CONNECT4
from boardai.games.game import Game, all_games, game_of, get_game, register_game
from boardai.games.hex.board import HexBoard
from boardai.games.hex.game import HEX
from boardai.games.tictactoe.game import TICTACTOE

for _game in (HEX, CONNECT4, TICTACTOE):
    register_game(_game)

DEFAULT_GAME = HEX.name     # what `--game` and a new GTP server start with


def game_name(text: str) -> str:
    """Canonical game name for ``text`` (a name or an alias, any case)."""
    return get_game(text).name


def parse_size(game: str, size: str | int | None) -> tuple[int, int]:
    """Board size from ``N`` or ``WxH``; None gives the game's default."""
    return get_game(game).parse_size(size)


def make_board(game: str, size: str | int | tuple[int, int] | None = None,
               swap: bool = False) -> Board:
    """A new empty board of ``game``; raises ValueError naming what is accepted."""
    return get_game(game).new_board(size, swap=swap)


__all__ = [
    "Board", "Color", "Connect4Board", "DEFAULT_GAME", "Game", "HexBoard", "IllegalMoveError", "InvalidMoveError",
    "LegalMoves", "MoveError", "Outcome", "Termination", "all_games", "game_name", "game_of",
    "get_game", "make_board", "parse_size",
]
