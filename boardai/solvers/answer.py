"""What a perfect-play module tells the ``solver`` engine: the move and what is known of it.

Solvers sit below the engines, so they answer in this plain record and the engine turns it into
the engine protocol's ``PlayResult``.  A ``Watch`` is what the caller of a solve sees while it
runs: the moves settled so far (kept when the time runs out, so a partial answer still shows
them), a callback as each one settles, and a stop the caller may set from another thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Answer:
    """A solver's move.  ``scores``: exact scores (side to move's view; > 0 wins, 0 draws) of the
    moves it scored, best first order not implied; ``value`` in [-1, 1] when known."""

    move: int
    scores: dict[int, int] | None = None
    value: float | None = None
    nodes: int = 0
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Watch:
    """A running solve as its caller sees it.  ``settled``: the exact scores (side to move's
    view) of the moves settled so far, filled in as they settle, whether or not the whole
    solve finishes; ``on_score(move, score)`` is called (from the solving thread) as each one
    settles; once ``stop`` is set the solve gives up within a few hundredths of a second."""

    on_score: Callable[[int, int], None] | None = None
    stop: threading.Event | None = None
    settled: dict[int, int] = field(default_factory=dict)

    def score(self, move: int, score: int) -> None:
        """Record ``move``'s exact score and tell ``on_score``."""
        self.settled[move] = int(score)
        if self.on_score is not None:
            self.on_score(move, int(score))

    @property
    def stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()
