"""``solver``: perfect play from the exact solvers (Connect Four always; Hex where it solves in time).

Connect Four: a move keeping the position's exact score is played, which is the fastest win, the
slowest loss, or a draw kept (Pons' scores grow with the speed of a win); ties go to the column
nearest the centre.  On its own lines the opening book stores the best move; inside the book's
complete part every column's score is looked up; elsewhere the position is solved and the
columns tried one null-window test each until one keeps the score
(``games/connect4/solver.py``, ``best_move``).  ``analyse`` scores every column exactly and
puts them in ``info["scores"]``.  Late in a game that takes microseconds;
early, past the book, it can take minutes, so the search gets 70% of ``time`` (default 10 s)
and, if that is not enough, ``mcts`` plays in the rest of the time, ``info["exact"]`` is False
and ``info["fallback"]`` says why (``exact=1``: always search to the end, however long).

Hex: ``boardai.games.hex.solver.engine_move(board, seconds)`` (with 70% of the time) when that
module exists and solves the position in time; otherwise ``mcts`` plays, as above.
"""

from __future__ import annotations

from boardai.engines.base import Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool
from boardai.engines.registry import register
from boardai.games.base import Board

DEFAULT_TIME = 10.0
SOLVE_SHARE = 0.7         # of the time, for the exact search before mcts gets the rest
# 2**24 entries (128 MB): off the book's lines, early positions solve 2-4x faster than with the
# 2**20 that suits 'boardai solve' on test sets (4444: 35 s against 149 s; docs/experiments.md)
ENGINE_TT_BITS = 24


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@register
class SolverEngine(Engine):
    name = "solver"
    summary = ("Perfect play: exact Connect Four solver with opening book (fastest win, slowest "
               "loss); Hex solver where it finishes in time, else mcts")
    limit_options = ("time",)
    options = (
        Option("book", parse_bool, True, "Connect Four: use the shipped opening book"),
        Option("tt_bits", int, ENGINE_TT_BITS,
               "Connect Four: transposition table of 2**tt_bits entries (8 B each)"),
        Option("exact", parse_bool, False, "Connect Four: always solve to the end, however long"),
        Option("seed", int, None, "seed for the mcts fallback"),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        self._c4 = None          # LineSolver for the current Connect Four size
        self._mcts = None

    # --- Connect Four -------------------------------------------------------------------
    def _c4_solver(self, board: Board):
        from boardai.games.connect4.solve_lines import LineSolver

        if self._c4 is None or (self._c4.width, self._c4.height) != (board.width, board.height):
            self._c4 = LineSolver(board.width, board.height, use_book=bool(self.opts.get("book", True)),
                                  tt_bits=int(self.opts.get("tt_bits") or ENGINE_TT_BITS))
        return self._c4

    def _connect4(self, board: Board, limit: Limit, every_column: bool) -> PlayResult:
        """Every column's exact score (the book's when it holds the children, or ``analyse``),
        or for a move only a best one: solve, then one null-window test a column."""
        clock = Stopwatch()
        solver = self._c4_solver(board)
        seconds = limit.time if limit.time is not None else DEFAULT_TIME
        budget = None if self.opts.get("exact") else seconds * SOLVE_SHARE
        nodes = solver.solver.nodes
        book = solver.book
        stored = None if (every_column or book is None) else book.best_move(board)
        if stored is not None:                           # on the engine's lines in the book
            s, best = stored
            legal, scores = [best], {best: s}
        elif every_column or (book is not None and board.ply + 1 <= book.depth):
            scores = solver.analyze_board(board, budget)
            if scores is None:
                return self._fallback(board, seconds, clock, f"not solved in {budget:g} s")
            legal = [c for c in solver.solver.order.tolist() if board.is_legal(c)]
            best = max(legal, key=lambda c: scores[c])     # first of the best, centre first
        else:
            answer = solver.solver.best_move(board, seconds=budget)
            if answer is None:
                return self._fallback(board, seconds, clock, f"not solved in {budget:g} s")
            s, best = answer
            legal, scores = [best], {best: s}
        searched = solver.solver.nodes - nodes
        s = scores[best]
        infos = [MoveInfo(c, board.move_name(c), value=float(_sign(scores[c])),
                          winrate=(_sign(scores[c]) + 1) / 2) for c in legal]
        infos.sort(key=lambda mi: -scores[mi.move])
        return PlayResult(best, board.move_name(best), value=float(_sign(s)), pv=[board.move_name(best)],
                          nodes=searched, time_s=clock(), moves=infos,
                          info={"score": s, "scores": {board.move_name(c): scores[c] for c in legal},
                                "exact": True})

    def _fallback(self, board: Board, seconds: float, clock: Stopwatch, reason: str) -> PlayResult:
        """``mcts``'s move in the time left, marked as not exact."""
        if self._mcts is None:
            from boardai.engines.mcts import MctsEngine
            self._mcts = MctsEngine(seed=self.opts.get("seed"))
        left = max(0.05, seconds - clock())
        result = self._mcts.play(board, Limit(time=left))
        result.info = {**result.info, "exact": False, "fallback": f"mcts ({reason})"}
        result.time_s = clock()
        return result

    # --- Hex ----------------------------------------------------------------------------
    def _hex(self, board: Board, limit: Limit) -> PlayResult:
        clock = Stopwatch()
        seconds = limit.time if limit.time is not None else DEFAULT_TIME
        reason = None
        try:
            from boardai.games.hex.solver import engine_move
        except ImportError:
            engine_move, reason = None, "no Hex solver in this build"
        if engine_move is not None:
            answer = engine_move(board, seconds * SOLVE_SHARE)
            if answer is not None:
                move, info = answer
                return PlayResult(move, board.move_name(move), value=None, pv=[board.move_name(move)],
                                  time_s=clock(), info={**info, "exact": True})
            reason = f"not solved in {seconds * SOLVE_SHARE:g} s"
        return self._fallback(board, seconds, clock, reason)

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        if board.game_name == "connect4":
            return self._connect4(board, self._limit(limit), every_column=False)
        return self._hex(board, self._limit(limit))

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """As ``play``, and on Connect Four with every column's exact score in ``moves`` and
        ``info["scores"]``."""
        if board.game_name == "connect4" and not board.is_game_over():
            return self._connect4(board, self._limit(limit), every_column=True)
        return self.play(board, limit)

    def close(self) -> None:
        if self._mcts is not None:
            self._mcts.close()


__all__ = ["SolverEngine"]
