"""Perfect Hex moves for the ``solver`` engine, where the solver finishes in time.

The swap decision comes from the shipped table of solved openings where it covers the size
(``solver.engine_move``); otherwise the position is solved within the budget.
"""

from __future__ import annotations

from boardai.solvers.answer import Answer
from boardai.solvers.hex.solver import engine_move


class Player:
    """Stateless apart from the solver's own per-size tables (kept by ``solver.py``)."""

    @staticmethod
    def supports(board) -> bool:
        """Every Hex board (big ones simply do not finish in time)."""
        return True

    def __init__(self, **_options):
        pass

    def move(self, board, budget: float | None, every_move: bool) -> Answer | None:
        """A winning move (or the most stubborn loss); None if not solved within ``budget``."""
        answer = engine_move(board, budget)
        if answer is None:
            return None
        move, info = answer
        return Answer(move, nodes=int(info.get("nodes", 0)), info=info)
