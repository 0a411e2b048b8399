"""The list of games: each game's name and where its description is, loaded only when asked.

The one place that lists the games (``boardai.games`` re-exports it).  The command line reads the
names from here to offer ``--game`` and to show its help, and the registry (``games/game.py``)
imports the descriptions -- and with them the boards and the compiled kernels -- on its first use.
"""

from __future__ import annotations

import importlib

# canonical name -> "module:description", in the order games are shown (the aliases are in
# the descriptions)
GAMES: dict[str, str] = {
    "hex": "boardai.games.hex.game:HEX",
    "connect4": "boardai.games.connect4.game:CONNECT4",
    "tictactoe": "boardai.games.tictactoe.game:TICTACTOE",
}
GAME_NAMES: tuple[str, ...] = tuple(GAMES)
DEFAULT_GAME = "hex"        # what `--game` and a new GTP server start with


def load_descriptions() -> list:
    """Every game's description, importing them (and their kernels) in ``GAMES`` order."""
    out = []
    for where in GAMES.values():
        module, _, attr = where.partition(":")
        out.append(getattr(importlib.import_module(module), attr))
    return out
