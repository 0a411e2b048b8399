"""The exact solver on ``mcts``'s root (the ``solver=S`` option): one move's proof attempt.

``root_solver(player, board, share, seconds, analysing)`` decides whether a move gets one (a timed
search, not an analysis, a board the game's ``SolverPlayer`` takes; the solver is loaded even for
a ``sims=`` search, so the warm-up loads it) and ``RootSolver`` runs it: before the trees on one
thread (for the share S of the move's time), or beside them on a thread of its own for the whole
move, ``proved`` stopping the trees (``stop_also``).  A proven win is played at once
(``result``); a proven loss is left to the trees, which still get the moves the solver's table
already refutes (``refuted``).
"""

from __future__ import annotations

import threading
import time

from boardai.engines.base import MoveInfo, PlayResult, Stopwatch
from boardai.engines.mcts.defaults import defaults_for
from boardai.games.base import Board
from boardai.solvers.base import SolverPlayer


class EitherEvent:
    """Set when either of two events is (the engine's ``stop`` and the solver's proof)."""

    def __init__(self, a: threading.Event, b: threading.Event | None):
        self.a, self.b = a, b

    def is_set(self) -> bool:
        return self.a.is_set() or (self.b is not None and self.b.is_set())


class RootSolver:
    """One move's exact search on the root: ``run`` until a deadline, ``result`` of a proof."""

    def __init__(self, player: SolverPlayer, share: float):
        self.player, self.share = player, share
        self.proved = threading.Event()
        self.outcome = "open"
        self.nodes = 0

    def stop_also(self, stop: threading.Event | None) -> EitherEvent:
        return EitherEvent(self.proved, stop)

    def run(self, board: Board, deadline: float):
        """The solver's answer if it proves a win by ``deadline`` (then ``proved`` is set), else
        None (a proven loss is noted in ``outcome`` and left to the trees)."""
        budget = max(0.0, deadline - time.perf_counter())
        if budget <= 0.0:
            return None
        answer = self.player.move(board, budget, False)
        if answer is None:
            return None
        self.nodes = answer.nodes
        if answer.value is not None and answer.value > 0:
            self.outcome = "win"
            self.proved.set()
            return answer
        self.outcome = "loss" if answer.value is not None and answer.value < 0 else "draw"
        return None

    def think_ahead(self, board: Board, move: int, deadline: float) -> None:
        """Solve the position ``move`` leaves until ``deadline`` (the table keeps the work;
        ``SolverPlayer.think``, which does nothing where the game's solver keeps no table)."""
        left = deadline - time.perf_counter()
        if left <= 0:
            return
        after = board.copy()
        after.push(move)
        self.player.think(after, left)

    def refuted(self, board: Board) -> set[int]:
        """The moves the solver's table already proves lost for the side to move (no search;
        empty when the game's solver keeps no such table)."""
        return {m for m, v in self.player.known_outcomes(board).items() if v < 0}

    def result(self, board: Board, answer, clock: Stopwatch) -> PlayResult:
        move = answer.move
        return PlayResult(move, board.move_name(move), value=1.0, pv=[board.move_name(move)],
                          nodes=answer.nodes, time_s=clock(),
                          moves=[MoveInfo(move, board.move_name(move), 0, 1.0, 1.0)],
                          info={"sims": 0, "winrate": 1.0, "proven": 1, "solver": "win",
                                "solver_nodes": answer.nodes})


def root_solver(player: SolverPlayer | None, board: Board, share: float | None,
                seconds: float | None, analysing: bool) -> RootSolver | None:
    """The exact solver for this move's root, or None: off (``share`` 0; None: the game's
    default share, on boards of at most its ``solver_cells``, from ``defaults.py``), no time
    limit (a ``sims`` search stays reproducible), an analysis, or a board the game's solver does
    not take."""
    if share is None:
        defaults = defaults_for(board.game_name)
        small = not defaults.solver_cells or board.width * board.height <= defaults.solver_cells
        share = defaults.solver if small else 0.0
    if not share or analysing:
        return None
    if player is None or not player.supports(board):
        return None
    player.load(board)          # also on a sims= search: the warm-up loads it here
    if seconds is None:
        return None
    return RootSolver(player, float(share))


__all__ = ["EitherEvent", "RootSolver", "root_solver"]
