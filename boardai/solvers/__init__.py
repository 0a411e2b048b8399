"""Exact solvers and the books built with them, one folder per game (above ``games/``).

``hex/``: depth-first proof-number search with H-search virtual connections and inferior cells
(boards up to 8x8), and the table of solved openings.  ``connect4/``: Pascal Pons'-style
alpha-beta solver, the opening book and the line-by-line ``solve connect4`` logic.

``for_game(name)`` gives the module that plays perfect moves for a game (what the ``solver``
engine calls), or None when the game has no solver; it is the one place here that maps game
names to solver folders.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# game name -> the module with ``engine_play(board, seconds, every_move, options)``
_PLAYERS = {"hex": "boardai.solvers.hex.player", "connect4": "boardai.solvers.connect4.player"}


def for_game(name: str) -> ModuleType | None:
    """The perfect-play module of game ``name`` (imported on first use), or None."""
    path = _PLAYERS.get(name)
    return None if path is None else importlib.import_module(path)
