"""Perfect Hex moves for the ``solver`` engine, where the solver finishes in time.

The swap decision comes from the shipped table of solved openings where it covers the size
(``solver.engine_move``); otherwise the position is solved within the budget.
"""

from __future__ import annotations

import time

from boardai.solvers.answer import Answer
from boardai.solvers.hex.solver import engine_move, move_outcomes


class Player:
    """Stateless apart from the solver's own per-size tables (kept by ``solver.py``)."""

    @staticmethod
    def supports(board) -> bool:
        """Every Hex board (big ones simply do not finish in time)."""
        return True

    def __init__(self, **_options):
        pass

    def move(self, board, budget: float | None, every_move: bool) -> Answer | None:
        """A winning move (or the most stubborn loss); None if not solved within ``budget``.
        ``every_move``: also every cell the solver settles in the time (+1 won, -1 lost)."""
        clock = time.perf_counter()
        answer = engine_move(board, budget)
        if answer is None:
            return None
        move, info = answer
        scores = None
        if every_move:
            left = None if budget is None else max(0.0, budget - (time.perf_counter() - clock))
            scores = move_outcomes(board, left)
            info = {**info, "scores": {board.move_name(c): v for c, v in scores.items()}}
        return Answer(move, scores=scores, nodes=int(info.get("nodes", 0)), info=info)
