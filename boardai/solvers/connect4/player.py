"""Perfect Connect Four moves for the ``solver`` engine: the opening book, then the solver.

On the engine's own lines the book stores the best move; inside the book's complete part every
column's score is looked up; elsewhere the position is solved and the columns tried one
null-window test each until one keeps the score (``Solver.best_move``).  A move keeping the
position's exact score is the fastest win, the slowest loss, or a draw kept (Pons' scores grow
with the speed of a win); ties go to the column nearest the centre.
"""

from __future__ import annotations

from boardai.solvers.answer import Answer, Watch
from boardai.solvers.base import SolverPlayer
from boardai.solvers.connect4.lines import EARLY_TT_BITS, LineSolver

# 2**24 entries (128 MB): off the book's lines, early positions solve 2-4x faster than with the
# 2**20 that suits 'boardai solve' on test sets (4444: 35 s against 149 s; docs/experiments.md)
ENGINE_TT_BITS = 24


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


class Player(SolverPlayer):
    """Keeps one solver (and its table) per board size between moves; answers the
    ``SolverPlayer`` methods with their defaults beyond ``supports``, ``load`` and ``move``."""

    stoppable = True              # every column's analysis ends soon after ``watch.stop``

    def __init__(self, book: bool = True, tt_bits: int | None = None):
        self.use_book = book
        self.tt_bits = None if tt_bits is None else int(tt_bits)
        self._lines: LineSolver | None = None
        self._loaded = False

    def table_bits(self, board) -> int:
        """The table's size (log2 of its entries): ``tt_bits`` where given, else ENGINE_TT_BITS,
        at most 2**cells entries on small boards (a 4x4 board needs no 128 MB table,
        and touching one for the first time costs a second on a loaded machine)."""
        if self.tt_bits is not None:
            return self.tt_bits
        return min(ENGINE_TT_BITS, max(16, board.width * board.height))

    @staticmethod
    def supports(board) -> bool:
        """The solver's bitboards hold W*(H+1) <= 64 cells and know no blocked cells."""
        return board.width * (board.height + 1) <= 64 and not board.setup

    def _solver(self, board) -> LineSolver:
        if self._lines is None or (self._lines.width, self._lines.height) != (board.width, board.height):
            bits = self.table_bits(board)
            self._lines = LineSolver(board.width, board.height, use_book=self.use_book,
                                     tt_bits=bits,
                                     early_tt_bits=EARLY_TT_BITS if self.tt_bits else bits)
            self._loaded = False
        return self._lines

    def load(self, board) -> None:
        """Make the solver for ``board``'s size (its table, the book) and load its compiled
        search with a few milliseconds of work on ``board`` (kept in the table), so that the
        first answer under a clock spends its seconds searching, not loading code."""
        lines = self._solver(board)
        if self._loaded or board.is_game_over():
            return
        solver = lines.solver_for(board)
        solver.tt.fill(0)           # the table's pages are touched here, not under the clock
        solver.analyze(board, False, seconds=0.01)
        self._loaded = True

    def move(self, board, budget: float | None, every_move: bool,
             watch: Watch | None = None) -> Answer | None:
        """Every column's exact score (``every_move``), or for a move only a best one; None when
        the search does not finish within ``budget`` seconds (None: no limit) or ``watch.stop``
        is set.  With ``every_move`` each column is told to ``watch`` as it settles, so the
        columns settled before the time ran out are known even when the answer is None."""
        lines = self._solver(board)
        nodes = lines.solver.nodes
        book = lines.book
        stored = None if (every_move or book is None) else book.best_move(board)
        if stored is not None:                           # on the engine's lines in the book
            s, best = stored
            scores = {best: s}
        elif every_move or (book is not None and board.ply + 1 <= book.depth):
            all_scores = lines.analyze_columns(board, budget, watch)
            if any(s is None for s in all_scores):
                return None
            legal = [c for c in lines.solver.order.tolist() if board.is_legal(c)]
            best = max(legal, key=lambda c: all_scores[c])   # first of the best, centre first
            scores = {c: all_scores[c] for c in legal}
        else:
            answer = lines.solver.best_move(board, seconds=budget, at_least=lines.floor(board))
            if answer is None:
                return None
            s, best = answer
            scores = {best: s}
        return Answer(best, scores=scores, value=float(_sign(scores[best])),
                      nodes=lines.solver.nodes - nodes,
                      info={"score": scores[best],
                            "scores": {board.move_name(c): v for c, v in scores.items()}})
