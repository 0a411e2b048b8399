"""``solver``: perfect play from the game's exact solver where it finishes in time, else ``mcts``.

The game's perfect-play module comes from ``boardai.solvers.for_game`` (Connect Four: opening
book, then Pons-style alpha-beta; Hex: the opening table, then DFPN with virtual connections).
The search gets 70% of ``time`` (default 10 s); if that is not enough, or the game has no solver,
``mcts`` plays in the rest of the time, ``info["exact"]`` is False and ``info["fallback"]`` says
why (``exact=1``: always search to the end, however long, or until ``Engine.stop`` is set;
``fallback=0``: the solver gets the whole time and, where it does not finish, the answer is what
it settled, marked not exact, with ``info["why"]``: no ``mcts`` move).
``analyse`` asks the solver for every move's exact score where it can give them (Connect Four)
and puts them in ``moves`` and ``info["scores"]``.  Where the time runs out first (or the search
is stopped), ``info["scores"]`` still holds the moves settled so far, ``info["unsettled"]`` names
the legal moves that are not, and ``info["exact"]`` is False; while it runs, ``on_info`` gets a
snapshot (``info["solving"]`` True) as each move settles.

Boards the game's solver does not take (Connect Four with blocked cells, or bigger than one
64-bit word) are searched exactly by ``alphabeta`` to the end of the game when at most
``EXACT_FREE_CELLS`` cells are left (endgames); its answer counts as exact when it proved a win
or a loss or searched every line to the end, and otherwise ``mcts`` plays, as above.
"""

from __future__ import annotations

from boardai import solvers
from boardai.engines.base import (
    Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool, seed_option,
)
from boardai.engines.alphabeta import AlphaBetaEngine
from boardai.engines.mcts import MctsEngine
from boardai.games import game_of
from boardai.games import kernel as K
from boardai.games.base import Board
from boardai.solvers.answer import Watch
from boardai.solvers.base import SolverPlayer

DEFAULT_TIME = 10.0
SOLVE_SHARE = 0.7         # of the time, for the exact search before mcts gets the rest
TT_BITS = (16, 30)        # the Connect Four solver's table: 2**16 (512 KiB) .. 2**30 (8 GiB)
EXACT_FREE_CELLS = 30     # boards without a solver: a full-depth alphabeta only this late


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


class SolverEngine(Engine):
    name = "solver"
    summary = ("Perfect play: exact Connect Four solver with opening book (fastest win, slowest "
               "loss); Hex solver where it finishes in time, else mcts")
    limit_options = ("time",)
    options = (
        Option("book", parse_bool, True, "use the shipped opening book (Connect Four)"),
        Option("tt_bits", int, None, "transposition table of 2**tt_bits entries, 8 B each "
               "(Connect Four; default 24 = 128 MiB)", min=TT_BITS[0], max=TT_BITS[1]),
        Option("exact", parse_bool, False, "always solve to the end, however long"),
        Option("fallback", parse_bool, True, "mcts plays in the rest of the time where the "
               "solver does not finish (0: the solver gets all the time and the answer is what "
               "it settled)"),
        seed_option("seed for the mcts fallback"),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        self._players: dict[str, SolverPlayer | None] = {}
        self._mcts: MctsEngine | None = None
        self._alphabeta: AlphaBetaEngine | None = None

    def _player(self, board: Board) -> SolverPlayer | None:
        """The game's perfect-play object (kept between moves), or None without a solver."""
        name = board.game_name
        if name not in self._players:
            module = solvers.for_game(name)
            self._players[name] = None if module is None else module.Player(
                book=bool(self.opts.get("book", True)), tt_bits=self.opts.get("tt_bits"))
        return self._players[name]

    def _solve(self, board: Board, limit: Limit, every_move: bool) -> PlayResult:
        clock = Stopwatch()
        seconds = limit.time if limit.time is not None else DEFAULT_TIME
        share = SOLVE_SHARE if self.opts.get("fallback", True) else 1.0
        budget = None if self.opts.get("exact") else seconds * share
        player = self._player(board)
        if player is None or not player.supports(board):
            return self._search_to_the_end(board, seconds, budget, clock, player is None)
        watch = None
        if every_move:
            watch = Watch(stop=self.stop)
            report = self.on_info
            if report is not None:
                watch.on_score = lambda move, score: report(
                    self._settled(board, watch.settled, clock, solving=True))
        try:
            answer = player.move(board, budget, every_move, watch)
        except MemoryError:
            raise self._memory_error() from None
        if answer is None and watch is not None and watch.stopped:
            return self._settled(board, watch.settled, clock, solving=False)
        if answer is None:
            result = self._fallback(board, seconds, clock, f"not solved in {budget:g} s",
                                    {} if watch is None else watch.settled)
            if watch is not None:
                result.info.update(self._settled_info(board, watch.settled))
            return result
        scores = answer.scores or {}
        infos = [MoveInfo(m, board.move_name(m), value=float(_sign(s)), winrate=(_sign(s) + 1) / 2)
                 for m, s in sorted(scores.items(), key=lambda ms: -ms[1])]
        best = answer.move
        return PlayResult(best, board.move_name(best), value=answer.value,
                          pv=[board.move_name(best)], nodes=answer.nodes, time_s=clock(),
                          moves=infos, info={**answer.info, "exact": True})

    @staticmethod
    def _settled_info(board: Board, settled: dict[int, int]) -> dict:
        """``scores`` of the moves settled so far and the legal moves still ``unsettled``."""
        return {"scores": {board.move_name(m): int(v) for m, v in settled.items()},
                "unsettled": [board.move_name(m) for m in board.legal_moves if m not in settled]}

    def _settled(self, board: Board, settled: dict[int, int], clock: Stopwatch,
                 solving: bool, stopped: bool = True) -> PlayResult:
        """What is known while a solve runs (``solving``), after it was stopped or (not
        ``stopped``, ``fallback=0``) when its time ran out: the settled moves' scores, the best
        of them as the move (the first legal move if none is)."""
        settled = dict(settled)
        infos = [MoveInfo(m, board.move_name(m), value=float(_sign(s)), winrate=(_sign(s) + 1) / 2)
                 for m, s in sorted(settled.items(), key=lambda ms: -ms[1])]
        best = infos[0].move if infos else board.legal_moves[0]
        value = infos[0].value if infos else None
        return PlayResult(best, board.move_name(best), value=value, pv=[board.move_name(best)],
                          time_s=clock(), moves=infos,
                          info={"exact": False, "solving": solving,
                                **({"stopped": True} if stopped and not solving else {}),
                                **self._settled_info(board, settled)})

    def _memory_error(self) -> MemoryError:
        return MemoryError("solver: not enough memory for the solver's transposition table "
                           f"(tt_bits={self.opts.get('tt_bits') or 'default'}): lower tt_bits")

    def _search_to_the_end(self, board: Board, seconds: float, budget: float | None,
                           clock: Stopwatch, no_solver: bool) -> PlayResult:
        """A board the game's solver does not take: full-depth ``alphabeta`` in the endgame."""
        what = (f"no exact solver for {game_of(board).title}" if no_solver
                else f"the solver does not take {board.size_text}"
                     f"{' with blocked cells' if board.setup else ''}")
        free = int(K.free_cells(board.state))
        if free > EXACT_FREE_CELLS and budget is not None:
            return self._fallback(board, seconds, clock, f"{what}; {free} empty cells are too "
                                  f"many for a search to the end (at most {EXACT_FREE_CELLS})")
        if self._alphabeta is None:
            self._alphabeta = AlphaBetaEngine()
        result = self._alphabeta.play(board, Limit(time=budget) if budget else Limit(depth=free))
        if result.info.get("proven") or (result.depth or 0) >= free:
            value = result.value if result.info.get("proven") else 0.0
            result.info = {**result.info, "exact": True, "by": "alphabeta to the end"}
            result.value = value
            result.time_s = clock()
            return result
        return self._fallback(board, seconds, clock, f"{what}; alphabeta did not reach the "
                              f"end in {budget:g} s")

    def _fallback_engine(self) -> MctsEngine:
        """The ``mcts`` a move falls back on, made at first use."""
        if self._mcts is None:
            self._mcts = MctsEngine(seed=self.opts.get("seed"))
        return self._mcts

    def _fallback(self, board: Board, seconds: float, clock: Stopwatch, reason: str,
                  settled: dict[int, int] | None = None) -> PlayResult:
        """``mcts``'s move in the time left, marked as not exact (``fallback=0``: the moves
        ``settled`` so far instead, with ``info["why"]``)."""
        if not self.opts.get("fallback", True):
            result = self._settled(board, settled or {}, clock, solving=False, stopped=False)
            result.info["why"] = reason
            return result
        left = max(0.05, seconds - clock())
        result = self._fallback_engine().play(board, Limit(time=left))
        result.info = {**result.info, "exact": False, "fallback": f"mcts ({reason})"}
        result.time_s = clock()
        return result

    def warm_up(self, board: Board, analyse: bool = False) -> None:
        """Load the game's solver for ``board`` (its compiled search and tables:
        ``SolverPlayer.load``) and the ``mcts`` a move falls back on, before a clock runs."""
        player = self._player(board)
        if player is not None and player.supports(board):
            try:
                player.load(board)
            except MemoryError:
                raise self._memory_error() from None
        if self.opts.get("fallback", True):
            self._fallback_engine().warm_up(board, analyse)

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        return self._solve(board, self._limit(limit), every_move=False)

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """As ``play``, with every move's exact score in ``moves`` and ``info["scores"]`` where
        the game's solver gives them (Connect Four)."""
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        return self._solve(board, self._limit(limit), every_move=True)

    def close(self) -> None:
        for engine in (self._mcts, self._alphabeta):
            if engine is not None:
                engine.close()


def solvable(board: Board) -> tuple[bool, str | None]:
    """Whether the ``solver`` engine can settle ``board`` exactly: (True, None), or (False, why)
    -- the game's solver takes it, or it is an endgame a search to the end settles."""
    module = solvers.for_game(board.game_name)
    if module is not None and module.Player.supports(board):
        return True, None
    free = int(K.free_cells(board.state))
    if free <= EXACT_FREE_CELLS:
        return True, None
    title = game_of(board).title
    what = (f"{title} has no exact solver" if module is None else
            f"the {title} solver does not take {board.size_text}"
            f"{' with blocked cells' if board.setup else ''}")
    return False, (f"{what}; a search to the end settles it once at most {EXACT_FREE_CELLS} "
                   f"cells are empty ({free} now)")


def stoppable(board: Board) -> bool:
    """Whether ``solver:exact=1``'s analysis of ``board`` ends soon after ``Engine.stop`` is
    set (the game's solver takes the board and honours a stop), so it may run until stopped."""
    module = solvers.for_game(board.game_name)
    return module is not None and module.Player.stoppable and module.Player.supports(board)


__all__ = ["SolverEngine", "solvable", "stoppable"]
