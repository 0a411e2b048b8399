"""Perfect Hex moves for the ``solver`` engine, where the solver finishes in time.

The swap decision comes from the shipped table of solved openings where it covers the size
(``solver.engine_move``); otherwise the position is solved within the budget.
"""

from __future__ import annotations

import time

from boardai.solvers.answer import Answer
from boardai.solvers.hex.solver import engine_move, known_outcomes, load, move_outcomes


class Player:
    """Stateless apart from the solver's own per-size tables (kept by ``solver.py``)."""

    @staticmethod
    def supports(board) -> bool:
        """Boards of at most 64 cells (the solver's bitboards are one 64-bit word)."""
        return board.width * board.height <= 64

    def __init__(self, **_options):
        pass

    @staticmethod
    def load(board) -> None:
        """Load the compiled search and this size's table now (a few tenths of a second the
        first time), so that a timed move spends its time searching."""
        load(board.width, board.height)

    @staticmethod
    def known_outcomes(board) -> dict[int, int]:
        """Moves whose value the solver's table already holds (+1 wins, -1 loses), no search."""
        return known_outcomes(board)

    def move(self, board, budget: float | None, every_move: bool) -> Answer | None:
        """A winning move (or the most stubborn loss); None if not solved within ``budget``.
        ``every_move``: also every cell the solver settles in the time (+1 won, -1 lost)."""
        clock = time.perf_counter()
        answer = engine_move(board, budget)
        if answer is None:
            return None
        move, info = answer
        # the swap is only chosen when it takes over a won opening
        won = info.get("swap") or info["winner"] == ("black" if int(board.turn) == 0 else "white")
        value = 1.0 if won else -1.0
        scores = None
        if every_move:
            left = None if budget is None else max(0.0, budget - (time.perf_counter() - clock))
            scores = move_outcomes(board, left)
            info = {**info, "scores": {board.move_name(c): v for c, v in scores.items()}}
        return Answer(move, scores=scores, value=value, nodes=int(info.get("nodes", 0)), info=info)
