"""THE rule for how long an engine thinks about one move, used by every caller.

Three things can say how long a move may take, and :func:`move_limit` alone decides between them:

1. **a clock** -- a time control's share for this move (:class:`TimeControl`: GTP's
   ``time_settings`` / ``time_left``).  The controller owns the time, so its share *replaces*
   the spec's ``time=`` (``boardai gtp`` serves ``mcts:time=1`` by default; a tournament's
   ``time_settings 300 0 0`` lets it think longer);
2. **the spec's own** ``time=`` (``mcts:time=2``): what the engine was built to think;
3. **the caller's time per move** -- a setting of the surface that runs the game (the web
   page's seconds per move, ``compete --move-time`` less its margin): the time of an engine
   whose spec gives none.

The first of these that is given is the move's time.  The spec's ``sims=``, ``nodes=`` and
``depth=`` always stand beside it (the search ends at whichever bound it meets first); an engine
that does not honour a time (``random``, ``bruteforce``) gets its spec's own limit alone.  So the
arena, the GTP server, the web page and the terminal games (``play``, ``tui``) give an engine the
same budget for the same spec and settings (``tests/test_budget.py``).
"""

from __future__ import annotations

import math

from boardai.engines.base import Engine, Limit

MAX_BUDGET = 3600.0             # seconds for one move, whatever a clock says


def margin(seconds: float) -> float:
    """What a move that must end within ``seconds`` keeps back from its search: 5 % of the time,
    at most 0.1 s, for the search's own overshoot (a few milliseconds on a quiet machine) and
    the caller's overhead.  The one margin of a hard limit per move: ``compete``'s move time
    and a time control's byo-yomi."""
    return min(0.1, 0.05 * seconds)


def move_limit(engine: Engine, per_move: float | None = None, clock: float | None = None
               ) -> Limit:
    """The limit ``engine`` searches one move with (see the module's text: clock, then the
    spec's ``time=``, then ``per_move``; the spec's sims/nodes/depth kept).  The result is
    complete: ``engine.play(board, move_limit(...))`` searches with exactly it."""
    own = engine.default_limit
    if not engine.timed:
        return own
    if clock is not None:
        return Limit(time=clock).merged(own)
    if own.time is None and per_move is not None:
        return Limit(time=per_move).merged(own)
    return own


class TimeControl:
    """A game's clock as a time control gives it (GTP ``time_settings main byo stones`` and
    ``time_left colour seconds stones``), turned into each move's share: the clock of
    :func:`move_limit`."""

    def __init__(self) -> None:
        self.main = 0.0
        self.byo = 0.0
        self.stones = 0
        self.left: dict = {}            # colour -> (seconds left, byo-yomi stones left)

    @property
    def active(self) -> bool:
        return self.main > 0 or self.byo > 0 or bool(self.left)

    def budget(self, colour, empty_cells: int) -> float | None:
        """Seconds for the next move of ``colour``, or None when no time control is set.  In
        byo-yomi (stones to play in a period: GTP's ``time_settings 0 1 1`` is one second a
        move) the period's time left over its stones, less :func:`margin`, as every hard limit
        per move; otherwise the time left (or the main time) over half the empty cells (at
        least 8 moves), 90 % of that less 50 ms (the game's clock must last).  At least 10 ms
        and at most ``MAX_BUDGET``."""
        if not self.active:
            return None
        per_move = spread = None        # byo-yomi: a period's share; sudden death: the time left
        if colour in self.left:
            remaining, stones = self.left[colour]
            if stones > 0:
                per_move = remaining / stones
            else:
                spread = remaining
        elif self.main > 0:
            spread = self.main
        else:
            per_move = self.byo / max(1, self.stones)
        if per_move is not None:
            share = per_move - margin(per_move)
        else:
            share = 0.9 * spread / max(8, empty_cells // 2) - 0.05
        if not math.isfinite(share):
            return MAX_BUDGET
        return min(MAX_BUDGET, max(0.01, share))

    def spend(self, colour, seconds: float) -> None:
        """``colour`` took ``seconds`` for a move: its time left goes down (when known)."""
        if colour in self.left:
            remaining, stones = self.left[colour]
            self.left[colour] = (max(0.0, remaining - seconds), stones)
