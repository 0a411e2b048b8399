"""Connect Four opening book: exact scores of every position up to a few plies, built by our solver.

``boardai book connect4 --depth D`` solves every position with exactly D stones (one of each
mirror pair) with ``solver.py``, then derives the scores of all shallower positions from them by
negamax over the book (exact, no search).  The build saves its progress every few seconds to
``<out>.partial`` and resumes from there when run again.

The shipped book is ``boardai/data/connect4_book.npz`` (compressed): ``keys`` (uint64, sorted:
``solver.position_key``, the smaller of a position's key and its mirror's), ``scores`` (int8, Pons'
convention, side to move), ``width``, ``height``, ``depth``.  It is read on first use only.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

import numpy as np

from boardai.games.connect4.board import Connect4Board
from boardai.games.connect4.solver import (
    Solver, make_geometry, position_key, state_bits, win_score,
)

BOOK_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "connect4_book.npz"
SAVE_EVERY_S = 20.0
BOOK_TT_BITS = 24         # early positions: a larger table saves more nodes than it costs


class Book:
    """Exact scores of the positions with at most ``depth`` stones (one board size)."""

    def __init__(self, keys: np.ndarray, scores: np.ndarray, width: int, height: int, depth: int):
        order = np.argsort(keys)
        self.keys = np.ascontiguousarray(keys[order], dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores[order], dtype=np.int8)
        self.width, self.height, self.depth = width, height, depth
        self._geo = make_geometry(width, height)

    def __len__(self) -> int:
        return len(self.keys)

    def key(self, board: Connect4Board) -> np.uint64:
        cur, mask, _ = state_bits(board.state)
        return position_key(np.uint64(cur), np.uint64(mask), self._geo)

    def get(self, board: Connect4Board) -> int | None:
        """The score of ``board`` for the side to move, or None if the book does not hold it."""
        if (board.width, board.height) != (self.width, self.height) or board.ply > self.depth \
                or board.is_game_over():
            return None
        k = self.key(board)
        i = int(np.searchsorted(self.keys, k))
        if i < len(self.keys) and self.keys[i] == k:
            return int(self.scores[i])
        return None

    def save(self, path: str | os.PathLike) -> None:
        np.savez_compressed(path, keys=self.keys, scores=self.scores, width=self.width,
                            height=self.height, depth=self.depth)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Book":
        with np.load(path) as z:
            return cls(z["keys"], z["scores"], int(z["width"]), int(z["height"]), int(z["depth"]))


_SHIPPED: Book | None = None


def shipped_book() -> Book | None:
    """The book in the package (loaded on the first call), or None if it is missing."""
    global _SHIPPED
    if _SHIPPED is None and BOOK_PATH.exists():
        _SHIPPED = Book.load(BOOK_PATH)
    return _SHIPPED


def positions_at(depth: int, width: int = 7, height: int = 6) -> list[Connect4Board]:
    """One board per position with exactly ``depth`` stones and no winner yet, mirrors merged."""
    geo = make_geometry(width, height)
    layer = {np.uint64(0): Connect4Board(width, height)}
    for _ in range(depth):
        nxt: dict = {}
        for board in layer.values():
            for m in board.legal_moves:
                child = board.copy()
                child.push(m)
                if child.is_game_over():
                    continue
                cur, mask, _ = state_bits(child.state)
                nxt.setdefault(position_key(np.uint64(cur), np.uint64(mask), geo), child)
        layer = nxt
    return [layer[k] for k in sorted(layer)]


def build_book(depth: int, out: str | os.PathLike = BOOK_PATH, width: int = 7, height: int = 6,
               tt_bits: int = BOOK_TT_BITS, progress: Callable[[int, int], None] | None = None) -> Book:
    """Solve every position with ``depth`` stones, derive the shallower ones, write ``out``.

    ``progress(done, total)`` is called after each solved position.  Resumes from
    ``<out>.partial`` if a previous run left one.
    """
    if depth < 0:
        raise ValueError(f"the book depth is a number of stones >= 0, not {depth}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)     # before the first progress save
    partial = out.with_name(out.name + ".partial")
    solver = Solver(width, height, tt_bits)
    geo = solver.geo
    leaves = positions_at(depth, width, height)
    known: dict[int, int] = {}
    if partial.exists():
        with np.load(partial) as z:
            if int(z["depth"]) == depth and int(z["width"]) == width and int(z["height"]) == height:
                known = {int(k): int(s) for k, s in zip(z["keys"], z["scores"])}

    def save_partial() -> None:
        keys = np.array(list(known), dtype=np.uint64)
        with open(partial, "wb") as f:          # a file object: numpy adds no ".npz"
            np.savez(f, keys=keys, scores=np.array(list(known.values()), dtype=np.int8),
                     width=width, height=height, depth=depth)

    last = time.monotonic()
    for i, board in enumerate(leaves):
        cur, mask, _ = state_bits(board.state)
        k = int(position_key(np.uint64(cur), np.uint64(mask), geo))
        if k not in known:
            known[k] = solver.solve(board)
            if time.monotonic() - last > SAVE_EVERY_S:
                save_partial()
                last = time.monotonic()
        if progress is not None:
            progress(i + 1, len(leaves))
    save_partial()
    # shallower plies by negamax over the book
    for d in range(depth - 1, -1, -1):
        for board in positions_at(d, width, height):
            best = -1000
            for m in board.legal_moves:
                child = board.copy()
                child.push(m)
                if child.is_game_over():
                    s = 0 if child.outcome().winner is None else win_score(width, height, d)
                else:
                    cur, mask, _ = state_bits(child.state)
                    s = -known[int(position_key(np.uint64(cur), np.uint64(mask), geo))]
                best = max(best, s)
            cur, mask, _ = state_bits(board.state)
            known[int(position_key(np.uint64(cur), np.uint64(mask), geo))] = best
    book = Book(np.array(list(known), dtype=np.uint64), np.array(list(known.values()), dtype=np.int8),
                width, height, depth)
    book.save(out)
    partial.unlink(missing_ok=True)
    return book
