"""``SolverPlayer``: the one shape every game's perfect-play player has (``solvers.for_game``).

The ``solver`` engine and ``mcts`` call these methods directly, never probing for them.  Two are
what every solver must answer (``supports``, ``move``); the rest are what a solver *may* know
beyond that, and their defaults here mean "not offered" and do nothing:

- ``load(board)``: load the compiled search and the size's tables before a clock runs (default:
  nothing to load);
- ``known_outcomes(board)``: the moves the solver's table already settles, without search
  (default: none);
- ``think(board, seconds)``: solve on a position for a while so a later proof starts from a warm
  table (default: nothing done);
- ``knowledge(board, inferior, reversible)`` and ``filled(board)``: what the solver's node
  evaluation knows of a position without searching (the tree knowledge of ``mcts:mustplay``)
  and the cells it fills in (``mcts:fill``) (default: None, no knowledge).  ``has_knowledge``
  says whether a player offers these two (True for Hex).

Connect Four's player answers the two required methods only; Hex's answers them all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from boardai.solvers.answer import Answer, Watch


class SolverPlayer(ABC):
    """A game's perfect-play player, built with the ``solver`` engine's options (``book``,
    ``tt_bits``; a player ignores those it has no use for)."""

    has_knowledge: bool = False      # do ``knowledge`` and ``filled`` answer (not None)?
    stoppable: bool = False          # does ``move`` end soon after ``watch.stop`` is set?

    @abstractmethod
    def supports(self, board) -> bool:
        """Does the solver take ``board`` (its size, blocked cells)?"""

    @abstractmethod
    def move(self, board, budget: float | None, every_move: bool,
             watch: Watch | None = None) -> Answer | None:
        """A best move (``every_move``: with every move's exact score where the solver gives
        them), or None when the search does not finish within ``budget`` seconds (None: no
        limit) or ``watch.stop`` is set.  A player that scores moves one by one tells
        ``watch`` each score as it settles (``Watch.score``), so a caller still has the moves
        settled so far when the answer is None (default: ``watch`` unused)."""

    def load(self, board) -> None:
        """Load the solver for ``board``'s size before a clock runs (default: nothing to do)."""

    def known_outcomes(self, board) -> dict[int, int]:
        """Moves whose value the solver's table already holds (+1 wins, -1 loses), without a
        search (default: none known)."""
        return {}

    def think(self, board, seconds: float) -> None:
        """Solve on ``board`` for up to ``seconds``, keeping the work in the solver's table
        for the next proof (default: nothing done)."""

    def knowledge(self, board, inferior: bool = True,
                  reversible: bool = True) -> tuple[int, set[int]] | None:
        """What the solver knows of ``board`` without searching: (result for the side to move,
        the moves worth trying), or None (default: no knowledge)."""
        return None

    def filled(self, board) -> np.ndarray | None:
        """Per cell of ``board``, the stone (1 or 2) that filling in the cells the knowledge
        finds inferior puts there, 0 elsewhere; None where ``knowledge`` is (default)."""
        return None


__all__ = ["SolverPlayer"]
