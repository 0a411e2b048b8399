"""``human``: a person at the terminal. Only ``boardai play`` can seat one; it asks for the moves.

The registry refuses to build it from a spec (``interactive``), so ``analyse``, ``match`` or
``gtp`` with ``human`` fail with that message instead of waiting for a move nobody types.
"""

from __future__ import annotations

from boardai.engines.base import Engine, EngineError, Limit, PlayResult
from boardai.games.base import Board


class HumanEngine(Engine):
    name = "human"
    summary = "a person typing moves at the terminal (boardai play only)"
    interactive = True

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        raise EngineError("a human player can only be seated by `boardai play`")
