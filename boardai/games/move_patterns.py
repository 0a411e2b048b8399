"""Learned move patterns: what a game gives the MCTS priors and ``boardai train patterns``.

A game with move patterns numbers the shape around each move (Hex: ``games/hex/patterns.py``)
and ships a weight per pattern number, learned from stored games (``train/patterns.py``).  The
jitted search reads the weights through the kernel's ``move_weights`` hook; this description is
what the Python side needs: how to number a move's pattern, how many numbers there are, and
where the shipped weights live.  Files hold only the learned patterns (the rest weigh 1).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class MovePatterns:
    """A game's move patterns: ``number(state, move)`` gives a move's pattern (a jitted
    function of the kernel state), ``count`` how many there are, ``shipped`` the file of the
    weights ``mcts`` uses, ``what`` a line for people."""

    number: Callable[[np.ndarray, int], int]
    count: int
    shipped: str
    what: str
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def table(self) -> np.ndarray:
        """The shipped weights as a dense table (all 1, no knowledge, if the file is missing);
        read once."""
        if "table" not in self._cache:
            self._cache["table"] = self.load(self.shipped) if os.path.exists(self.shipped) \
                else np.ones(self.count, dtype=np.float64)
        return self._cache["table"]

    def dense(self, ids: np.ndarray, gammas: np.ndarray) -> np.ndarray:
        """The full table (weight 1 for every pattern not listed)."""
        table = np.ones(self.count, dtype=np.float64)
        table[np.asarray(ids, dtype=np.int64)] = gammas
        return table

    def save(self, path: str | os.PathLike, ids: np.ndarray, gammas: np.ndarray, **info) -> None:
        """Write the learned patterns and what made them (``info``, kept as text)."""
        np.savez_compressed(path, ids=np.asarray(ids, dtype=np.int32),
                            gammas=np.asarray(gammas, dtype=np.float32),
                            info=np.array(repr(info)))

    def load(self, path: str | os.PathLike) -> np.ndarray:
        """The dense table of a file written by ``save``; ValueError naming the file if it is
        not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                ids, gammas = data["ids"], data["gammas"]
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not a move-patterns file ({exc})") from None
        if ids.shape != gammas.shape or ids.ndim != 1 or (ids.size and (
                ids.min() < 0 or ids.max() >= self.count)) or not np.all(gammas > 0):
            raise ValueError(f"{path}: not a move-patterns file (pattern numbers below "
                             f"{self.count} with positive weights expected)")
        return self.dense(ids, gammas)
