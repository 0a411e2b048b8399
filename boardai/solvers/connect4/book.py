"""Connect Four opening book: exact scores of every position up to a few plies, built by our solver.

``boardai book connect4 --depth D`` solves every position with exactly D stones (one of each
mirror pair) with ``solver.py``, then derives the scores of all shallower positions from them by
negamax over the book (exact, no search).  The positions are solved in chunks of neighbours
(by key) by ``--jobs`` local worker processes or Ray's workers, each keeping its own table; the
build saves what is solved every few seconds, and when it stops, to ``<out>.partial`` and
resumes from there when run again.

The shipped book is ``boardai/data/connect4_book.npz`` (compressed): ``keys`` (uint64, sorted:
``solver.position_key``, the smaller of a position's key and its mirror's), ``scores`` (int8, Pons'
convention, side to move), ``moves`` (int8: the best move of the engine's lines, -1 elsewhere),
``width``, ``height``, ``depth``, ``lines_ply``.  It is read on first use only; ``Book.load``
refuses a file that is not one (ValueError naming what is wrong).
"""

from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from boardai.games.connect4.board import Connect4Board
from boardai.solvers.connect4.solver import (
    G_BOTTOM, Solver, make_geometry, position_key, state_bits, win_score,
)

BOOK_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "connect4_book.npz"
SAVE_EVERY_S = 20.0
BOOK_TT_BITS = 24         # early positions: a larger table saves more nodes than it costs


NO_MOVE = -1


class Book:
    """Exact scores of every position with at most ``depth`` stones (one board size), and of the
    deeper positions on the ``solver`` engine's lines (``build_lines``), which also keep their
    best move (``moves``: the column for the position the key was taken from, NO_MOVE if none
    is stored)."""

    def __init__(self, keys: np.ndarray, scores: np.ndarray, width: int, height: int, depth: int,
                 moves: np.ndarray | None = None, lines_ply: int = -1):
        order = np.argsort(keys)
        self.keys = np.ascontiguousarray(keys[order], dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores[order], dtype=np.int8)
        if moves is None:
            moves = np.full(len(keys), NO_MOVE, dtype=np.int8)
        self.moves = np.ascontiguousarray(moves[order], dtype=np.int8)
        self.width, self.height, self.depth = width, height, depth
        self.lines_ply = lines_ply        # the engine's lines are covered up to this ply
        self._geo = make_geometry(width, height)

    def __len__(self) -> int:
        return len(self.keys)

    def key(self, board: Connect4Board) -> int:
        return _key(board, self._geo)

    def _mirrored(self, board: Connect4Board) -> bool:
        """Is the book's key of ``board`` its mirror image's?"""
        cur, mask, _ = state_bits(board.state)
        return self.key(board) != cur + mask + int(self._geo[G_BOTTOM])

    def oriented(self, board: Connect4Board, col: int) -> int:
        """A column of ``board`` as the key's orientation has it (or back: its own inverse)."""
        return self.width - 1 - col if self._mirrored(board) else col

    def _index(self, board: Connect4Board) -> int | None:
        if (board.width, board.height) != (self.width, self.height) or board.is_game_over():
            return None
        k = np.uint64(self.key(board))
        i = int(np.searchsorted(self.keys, k))
        return i if i < len(self.keys) and self.keys[i] == k else None

    def get(self, board: Connect4Board) -> int | None:
        """The score of ``board`` for the side to move, or None if the book does not hold it."""
        i = self._index(board)
        return None if i is None else int(self.scores[i])

    def best_move(self, board: Connect4Board) -> tuple[int, int] | None:
        """(score, column) of a best move of ``board`` if the book stores one."""
        i = self._index(board)
        if i is None or self.moves[i] == NO_MOVE:
            return None
        return int(self.scores[i]), self.oriented(board, int(self.moves[i]))

    def with_moves(self, entries: dict[int, tuple[int, int]], lines_ply: int) -> "Book":
        """This book plus ``entries`` (key -> (score, column in the key's orientation))."""
        known = {int(k): (int(s), int(m)) for k, s, m in zip(self.keys, self.scores, self.moves)}
        known.update(entries)
        keys = np.array(list(known), dtype=np.uint64)
        vals = np.array(list(known.values()), dtype=np.int64).reshape(-1, 2)
        return Book(keys, vals[:, 0], self.width, self.height, self.depth, vals[:, 1], lines_ply)

    def save(self, path: str | os.PathLike) -> None:
        np.savez_compressed(path, keys=self.keys, scores=self.scores, moves=self.moves,
                            width=self.width, height=self.height, depth=self.depth,
                            lines_ply=self.lines_ply)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Book":
        """The book saved at ``path``; ValueError saying why if it is not one (unreadable,
        arrays missing or of unequal lengths, a board the solver cannot hold, scores out of
        range), OSError if it cannot be read at all."""
        try:
            with np.load(path) as z:
                keys, scores = z["keys"], z["scores"]
                moves = z["moves"] if "moves" in z.files else None
                lines = int(z["lines_ply"]) if "lines_ply" in z.files else -1
                width, height, depth = int(z["width"]), int(z["height"]), int(z["depth"])
        except FileNotFoundError:
            raise
        except (ValueError, KeyError, EOFError, zipfile.BadZipFile, OSError, TypeError) as exc:
            raise ValueError(f"not a Connect Four book ({type(exc).__name__}: {exc})") from None
        if not (1 <= width and 1 <= height and width * (height + 1) <= 64):
            raise ValueError(f"not a Connect Four book (board {width}x{height})")
        ceil = (width * height + 1) // 2
        n = len(keys)
        if (keys.ndim != 1 or scores.shape != (n,) or (moves is not None and moves.shape != (n,))
                or keys.dtype.kind not in "ui" or scores.dtype.kind not in "i"
                or (n and int(np.abs(scores.astype(np.int64)).max()) > ceil)
                or not 0 <= depth <= width * height):
            raise ValueError("not a Connect Four book (its arrays disagree or hold "
                             "impossible scores)")
        return cls(keys, scores, width, height, depth, moves, lines)


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
                nxt.setdefault(_key(child, geo), child)
        layer = nxt
    return [layer[k] for k in sorted(layer)]


def build_book(depth: int, out: str | os.PathLike = BOOK_PATH, width: int = 7, height: int = 6,
               tt_bits: int = BOOK_TT_BITS, progress: Callable[[int, int], None] | None = None,
               jobs: int = 1, backend: str = "local", base: Book | None = None) -> Book:
    """Solve every position with ``depth`` stones, derive the shallower ones, write ``out``.

    ``progress(done, total)`` is called as positions are solved.  Resumes from
    ``<out>.partial`` if a previous run left one (saved every SAVE_EVERY_S seconds and when the
    build stops, interrupted or not).  ``jobs`` local worker processes (``backend="local"``) or
    Ray's workers (``"ray"``, ``"ray:ADDRESS"``) each solve chunks of CHUNK neighbouring
    positions with their own table of 2**tt_bits entries.  ``base``: a book whose entries are
    kept (the engine's lines with their moves) and whose ``depth``-stone scores are not solved
    again.
    """
    if depth < 0:
        raise ValueError(f"the book depth is a number of stones >= 0, not {depth}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)     # before the first progress save
    partial = out.with_name(out.name + ".partial")
    geo = make_geometry(width, height)
    leaves = positions_at(depth, width, height)
    known: dict[int, int] = {}
    if partial.exists():
        with np.load(partial) as z:
            if int(z["depth"]) == depth and int(z["width"]) == width and int(z["height"]) == height:
                known = {int(k): int(s) for k, s in zip(z["keys"], z["scores"])}
    if base is not None and (base.width, base.height) == (width, height):
        for board in leaves:
            s = base.get(board)
            if s is not None:
                known.setdefault(_key(board, geo), s)

    def save_partial() -> None:
        keys = np.array(list(known), dtype=np.uint64)
        tmp = partial.with_name(partial.name + ".tmp")
        with open(tmp, "wb") as f:          # a file object: numpy adds no ".npz"
            np.savez(f, keys=keys, scores=np.array(list(known.values()), dtype=np.int8),
                     width=width, height=height, depth=depth)
        os.replace(tmp, partial)            # an interruption never leaves half a file

    todo = [b.position for b in leaves if _key(b, geo) not in known]
    tasks = [(width, height, tt_bits, todo[i:i + CHUNK]) for i in range(0, len(todo), CHUNK)]
    kind, _, address = backend.partition(":")
    if kind not in ("local", "ray") or (kind == "local" and address):
        raise ValueError(f"the backend is local, ray or ray:ADDRESS, not {backend!r}")
    stream = (_local_chunks(tasks, jobs) if kind == "local"
              else _ray_chunks(tasks, address or None, jobs))
    total = len(leaves)
    done = total - len(todo)
    if progress is not None:
        progress(done, total)
    last = time.monotonic()
    try:
        for results in stream:
            for k, s in results:
                known[k] = s
                done += 1
                if progress is not None:
                    progress(done, total)
            if time.monotonic() - last > SAVE_EVERY_S:
                save_partial()
                last = time.monotonic()
    finally:
        stream.close()
        save_partial()
    # shallower plies by negamax over the book
    for d in range(depth - 1, -1, -1):
        for board in positions_at(d, width, height):
            best = max(move_score(board, m, lambda child: known[_key(child, geo)])
                       for m in board.legal_moves)
            known[_key(board, geo)] = best
    moves = dict.fromkeys(known, NO_MOVE)
    lines_ply = -1
    if base is not None and (base.width, base.height) == (width, height):
        for k, s, m in zip(base.keys.tolist(), base.scores.tolist(), base.moves.tolist()):
            if k not in known:
                known[k] = s
            moves[k] = m if m != NO_MOVE else moves.get(k, NO_MOVE)
        lines_ply = base.lines_ply
    keys = np.array(list(known), dtype=np.uint64)
    book = Book(keys, np.array(list(known.values()), dtype=np.int8), width, height, depth,
                np.array([moves[k] for k in known], dtype=np.int8), lines_ply)
    book.save(out)
    partial.unlink(missing_ok=True)
    return book


CHUNK = 8       # positions a worker solves in a row (neighbours by key share much of their search)
_WORKER_SOLVER: dict[tuple[int, int, int], Solver] = {}


def solve_chunk(task: tuple[int, int, int, list[str]]) -> list[tuple[int, int]]:
    """A worker's job: ``[(key, score)]`` of positions given as move strings, with one solver
    (its table kept from chunk to chunk) per process."""
    width, height, tt_bits, texts = task
    solver = _WORKER_SOLVER.get((width, height, tt_bits))
    if solver is None:
        _WORKER_SOLVER.clear()
        solver = _WORKER_SOLVER[(width, height, tt_bits)] = Solver(width, height, tt_bits)
    out = []
    for text in texts:
        board = Connect4Board.from_position(text, width, height)
        out.append((_key(board, solver.geo), int(solver.solve(board))))
    return out


def _local_chunks(tasks: list, jobs: int) -> Iterator[list[tuple[int, int]]]:
    if jobs <= 1:            # in this process, one position at a time: an interruption
        for width, height, tt_bits, texts in tasks:          # loses at most the one running
            for text in texts:
                yield solve_chunk((width, height, tt_bits, [text]))
        return
    import multiprocessing as mp
    with mp.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(solve_chunk, tasks)


def _ray_chunks(tasks: list, address: str | None, jobs: int) -> Iterator[list[tuple[int, int]]]:
    from boardai._ray import ray_map
    return ray_map(solve_chunk, [(t,) for t in tasks], address, jobs)


def build_lines(max_ply: int, out: str | os.PathLike = BOOK_PATH, tt_bits: int = BOOK_TT_BITS,
                progress: Callable[[int, int, int], None] | None = None) -> Book:
    """Extend the book at ``out`` with the ``solver`` engine's lines up to ``max_ply`` stones.

    The engine's positions are the empty board and every 1-stone board (it may play either
    side), and then, ply by ply, each of them plus its best move plus any reply.  Each one gets
    its exact score and best move (the book's children where it holds them, else
    ``Solver.best_move``: the fastest win, the slowest loss, centre first among equals), so
    the engine answers on these lines without searching.  Saves progress every few seconds to
    ``<out>.lines.partial`` and resumes from it.  ``progress(ply, done, total)`` after each.
    """
    out = Path(out)
    book = Book.load(out)
    width, height = book.width, book.height
    partial = out.with_name(out.name + ".lines.partial")
    entries: dict[int, tuple[int, int]] = {}
    if partial.exists():
        with np.load(partial) as z:
            entries = {int(k): (int(s), int(m)) for k, s, m in zip(z["keys"], z["scores"], z["moves"])}

    def save_partial() -> None:
        vals = np.array(list(entries.values()), dtype=np.int64).reshape(-1, 2)
        with open(partial, "wb") as f:
            np.savez(f, keys=np.array(list(entries), dtype=np.uint64), scores=vals[:, 0],
                     moves=vals[:, 1])

    def known_score(b: Connect4Board) -> int | None:      # the lines built so far, else the book
        k = book.key(b)
        return entries[k][0] if k in entries else book.get(b)

    solver = Solver(width, height, tt_bits)
    order = solver.order.tolist()
    empty = Connect4Board(width, height)
    layers: dict[int, dict[int, Connect4Board]] = {0: {book.key(empty): empty}, 1: {}}
    for c in range(width):
        child = empty.copy()
        child.push(c)
        layers[1].setdefault(book.key(child), child)
    last = time.monotonic()
    for ply in range(0, max_ply + 1):
        layer = layers.pop(ply, {})
        nxt = layers.setdefault(ply + 2, {})
        for done, (key, board) in enumerate(sorted(layer.items()), 1):
            if key not in entries:
                found = book.best_move(board)
                if found is None:
                    found = _best_from_children(book, board, order)
                if found is None:
                    found = solver.best_move(board, at_least=floor(board, known_score))
                score, col = found
                entries[key] = (score, book.oriented(board, col))
                if time.monotonic() - last > SAVE_EVERY_S:
                    save_partial()
                    last = time.monotonic()
            col = book.oriented(board, entries[key][1])
            after = board.copy()
            after.push(col)
            if not after.is_game_over() and ply + 2 <= max_ply:
                for r in after.legal_moves:
                    again = after.copy()
                    again.push(r)
                    if not again.is_game_over():
                        nxt.setdefault(book.key(again), again)
            if progress is not None:
                progress(ply, done, len(layer))
    save_partial()
    extended = book.with_moves(entries, max_ply)
    extended.save(out)
    partial.unlink(missing_ok=True)
    return extended


def build_main_line(max_ply: int, out: str | os.PathLike = BOOK_PATH,
                    tt_bits: int = BOOK_TT_BITS) -> tuple[Book, list[int]]:
    """Extend the book at ``out`` with the line of perfect play from the empty board up to
    ``max_ply`` stones: both sides play the ``solver`` engine's move (the book's, else the
    children's best, else ``Solver.best_move`` from the book's floor: the fastest win, the
    slowest loss, centre first among equals), each position stored with its score and that
    move, so the engine against itself searches nothing before ``max_ply``.  Returns the book
    and the line's columns."""
    out = Path(out)
    book = Book.load(out)
    solver = Solver(book.width, book.height, tt_bits)
    order = solver.order.tolist()
    entries: dict[int, tuple[int, int]] = {}

    def known_score(b: Connect4Board) -> int | None:
        k = book.key(b)
        return entries[k][0] if k in entries else book.get(b)

    board = Connect4Board(book.width, book.height)
    line = []
    while board.ply <= max_ply and not board.is_game_over():
        found = book.best_move(board) or _best_from_children(book, board, order)
        if found is None:
            found = solver.best_move(board, at_least=floor(board, known_score))
        score, col = found
        entries[book.key(board)] = (score, book.oriented(board, col))
        line.append(col)
        board.push(col)
    extended = book.with_moves(entries, book.lines_ply)
    extended.save(out)
    return extended, line


def floor(board: Connect4Board, score_of) -> int | None:
    """A score ``board`` is known to reach: minus ``score_of`` the position one move before
    (exact when that move was a best one); None if that score is not known."""
    if board.ply == 0:
        return None
    before = board.copy()
    before.pop()
    s = score_of(before)
    return None if s is None else -s


def _best_from_children(book: Book, board: Connect4Board, order: list[int]) -> tuple[int, int] | None:
    """(score, column) from the book's scores of every child, None if it lacks one."""
    best = None
    for c in order:
        if board.is_legal(c):
            s = move_score(board, c, book.get)
            if s is None:
                return None
            if best is None or s > best[0]:
                best = (s, c)
    return best


def move_score(board: Connect4Board, col: int, score_of) -> int | None:
    """The score of playing ``col`` for the side to move of ``board``: the win or draw the move
    makes, else minus ``score_of(child)`` (None where that is None)."""
    child = board.copy()
    child.push(col)
    if child.is_game_over():
        return 0 if child.outcome().winner is None else win_score(board.width, board.height,
                                                                  board.ply)
    s = score_of(child)
    return None if s is None else -s


def _key(board: Connect4Board, geo) -> int:
    """The position's table key (a board and its mirror image share it)."""
    cur, mask, _ = state_bits(board.state)
    return int(position_key(np.uint64(cur), np.uint64(mask), geo))
