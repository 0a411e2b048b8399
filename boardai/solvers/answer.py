"""What a perfect-play module tells the ``solver`` engine: the move and what is known of it.

Solvers sit below the engines, so they answer in this plain record and the engine turns it into
the engine protocol's ``PlayResult``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Answer:
    """A solver's move.  ``scores``: exact scores (side to move's view; > 0 wins, 0 draws) of the
    moves it scored, best first order not implied; ``value`` in [-1, 1] when known."""

    move: int
    scores: dict[int, int] | None = None
    value: float | None = None
    nodes: int = 0
    info: dict[str, Any] = field(default_factory=dict)
