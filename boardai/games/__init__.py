"""Games: rules, notation, pictures and kernels, one folder per game; this module is their face.

Every game is known to the rest of boardai through its description (``games/game.py``:
``Game``).  ``GAMES`` (``games/catalog.py``, re-exported here) is the one place that lists the
games: their names and where each description lives.  The descriptions are loaded on first
use (``get_game("c4")`` finds one by name or alias, ``game_of(board)`` by board), so what only
needs the names -- the command line's ``--game`` choices and its help -- loads neither the rules
nor the compiled kernels.  ``make_board("hex", "9")`` builds an empty board from the names the
CLI and the protocols use.

The names this module exports (``HexBoard``, ``get_game``, ...) are loaded when first read.
"""

from __future__ import annotations

import importlib

from boardai.games.catalog import DEFAULT_GAME, GAME_NAMES, GAMES, load_descriptions


def game_name(text: str) -> str:
    """Canonical game name for ``text`` (a name or an alias, any case)."""
    from boardai.games.game import get_game
    return get_game(text).name


def parse_size(game: str, size: str | int | None) -> tuple[int, int]:
    """Board size from ``N`` or ``WxH``; None gives the game's default."""
    from boardai.games.game import get_game
    return get_game(game).parse_size(size)


def make_board(game: str, size: str | int | tuple[int, int] | None = None,
               swap: bool = False):
    """A new empty board of ``game``; raises ValueError naming what is accepted."""
    from boardai.games.game import get_game
    return get_game(game).new_board(size, swap=swap)


_LAZY = {
    **{name: "boardai.games.base" for name in (
        "Board", "Color", "IllegalMoveError", "InvalidMoveError", "LegalMoves", "MoveError",
        "Outcome", "Termination")},
    **{name: "boardai.games.game" for name in (
        "Game", "all_games", "game_of", "get_game", "register_game")},
    "BoardSetup": "boardai.games.setup",
    "Connect4Board": "boardai.games.connect4.board",
    "HexBoard": "boardai.games.hex.board",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'boardai.games' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Board", "BoardSetup", "Color", "Connect4Board", "DEFAULT_GAME", "GAMES", "GAME_NAMES", "Game",
    "HexBoard",
    "IllegalMoveError", "InvalidMoveError", "LegalMoves", "MoveError", "Outcome", "Termination",
    "all_games", "game_name", "game_of", "get_game", "load_descriptions", "make_board",
    "parse_size",
]
