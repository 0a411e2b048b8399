"""``random``: a uniformly random legal move, the baseline every other engine must beat."""

from __future__ import annotations

import random

from boardai.engines.base import Engine, Limit, PlayResult, Stopwatch, seed_option
from boardai.games.base import Board


class RandomEngine(Engine):
    name = "random"
    summary = "uniformly random legal move; the baseline"
    options = (seed_option("random seed (same seed, same moves)"),)

    def __init__(self, seed: int | None = None, **opts):
        super().__init__(seed=seed, **opts)
        self._rng = random.Random(seed)

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        moves = list(board.legal_moves)
        if not moves:
            return PlayResult(-1, "resign", resign=True, time_s=clock())
        move = self._rng.choice(moves)
        return PlayResult(move, board.move_name(move), nodes=1, time_s=clock())
