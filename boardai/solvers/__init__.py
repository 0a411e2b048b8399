"""Exact solvers and the books built with them, one folder per game (above ``games/``).

``hex/``: depth-first proof-number search with H-search virtual connections and inferior cells
(boards of up to 128 cells, ``hex.bits.MAX_CELLS``), and the table of solved openings.
``connect4/``: Pascal Pons'-style alpha-beta solver (boards with W*(H+1) <= 64 and no blocked
cells), the opening book and the line-by-line ``solve connect4`` logic.

``for_game(name)`` gives the module that plays perfect moves for a game (what the ``solver``
engine, ``mcts:solver=S`` and ``mcts:mustplay=N`` call), or None when the game has no solver; it
is the one place here that maps game names to solver folders.  Each such module has a ``Player``
class, a ``SolverPlayer`` (``base.py``) built with the engine's options (``book``, ``tt_bits``):
``Player.supports(board)`` says whether the solver takes the board and
``Player.move(board, budget, every_move, watch)`` answers an ``Answer`` (``answer.py``: the move,
exact scores, value) or None when the search does not finish within ``budget`` seconds or
``watch.stop`` is set (``watch``, an ``answer.Watch`` or None: the moves settled so far, told as
they settle, kept when the answer is None); ``load``, ``known_outcomes``, ``think``,
``knowledge`` and ``filled`` have defaults meaning "not offered" (Connect Four keeps them, Hex
answers them all), so the engines call every method directly.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# game name -> the module with the game's ``Player`` (a ``base.SolverPlayer``)
_PLAYERS = {"hex": "boardai.solvers.hex.player", "connect4": "boardai.solvers.connect4.player"}


def for_game(name: str) -> ModuleType | None:
    """The perfect-play module of game ``name`` (imported on first use), or None."""
    path = _PLAYERS.get(name)
    return None if path is None else importlib.import_module(path)
