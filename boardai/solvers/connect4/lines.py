"""``boardai solve connect4``: solve positions given one per line, as Pascal Pons' solver reads them.

A line's first token is the moves from the empty board as column digits (``4453``); other tokens
are ignored (``LineResult.extra`` says so, the command tells once) and blank lines skipped.
Lines may be bytes: they are decoded as UTF-8 here, whatever the locale.  Each good line gives
``moves score nodes microseconds`` (``--analyze``: ``moves s1 ... sW``, ``-1000`` for a full
column; ``--weak``: only the sign).  With a time per position (``seconds``), a position not
solved in it gives ``?`` for its score, or with ``--analyze`` the columns settled in the time and
``?`` for the others (``LineResult.settled`` False).  A bad line (not UTF-8, not digits, a column off the board or
already full, a position already won) is reported with its number and reason; the others are
still solved.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from boardai.games.base import MoveError
from boardai.games.connect4.board import Connect4Board
from boardai.solvers.answer import Watch
from boardai.solvers.connect4.book import Book, floor, move_score, shipped_book
from boardai.solvers.connect4.solver import DEFAULT_TT_BITS, FULL_COLUMN, Solver

# Positions of up to EARLY_STONES stones (off the book) are solved with a second, larger table:
# there a 2**24-entry table needs half the nodes of the 2**20 that suits deeper positions
# (4453: 4.0 s against 5.8 s; --analyze of 21135666, 8 stones: 50.8M nodes and 5.9 s of CPU
# against 89.3M and 8.3 s, Pons' solver 47.4M; of 5374337: 38.5M, 4.7 s against 67.3M, 6.9 s;
# from 9-10 stones the small table is as fast: fewer nodes, slower ones).
EARLY_STONES = 8
EARLY_TT_BITS = 24
# A timed analysis first gives every column this many nodes (a few milliseconds), so the columns
# that settle easily are known even where a hard one takes all the time
PROBE_NODES = 200_000


@dataclass
class LineResult:
    line: int
    moves: str
    score: int | None = None
    scores: list[int | None] | None = None     # None: a column not settled in the time
    nodes: int = 0
    micros: float = 0.0
    error: str | None = None
    from_book: bool = False
    extra: str | None = None        # tokens after the first, ignored

    @property
    def settled(self) -> bool:
        """Whether every score asked for is known (False: the time ran out first)."""
        if self.scores is not None:
            return all(s is not None for s in self.scores)
        return self.score is not None

    def text(self) -> str:
        if self.scores is not None:
            return " ".join([self.moves, *("?" if s is None else str(s) for s in self.scores)])
        score = "?" if self.score is None else self.score
        return f"{self.moves} {score} {self.nodes} {self.micros:.0f}"

    def json(self) -> dict:
        d = {"line": self.line, "moves": self.moves, "nodes": self.nodes,
             "microseconds": round(self.micros, 1)}
        if self.scores is not None:
            d["scores"] = self.scores
        else:
            d["score"] = self.score
        if not self.settled:
            d["settled"] = False
        return d


@dataclass
class LineSolver:
    """Solves lines with one solver (its table kept from line to line)."""

    width: int = 7
    height: int = 6
    weak: bool = False
    analyze: bool = False
    use_book: bool = True
    tt_bits: int = DEFAULT_TT_BITS
    early_tt_bits: int = EARLY_TT_BITS
    seconds: float | None = None           # per position (None: solve each to the end)
    solver: Solver = field(init=False)
    book: Book | None = field(init=False)
    _early: Solver | None = field(init=False, default=None)

    def __post_init__(self):
        self.solver = Solver(self.width, self.height, self.tt_bits)
        self.book = shipped_book() if self.use_book else None

    def solver_for(self, board: Connect4Board) -> Solver:
        """The solver for ``board``: the one with the larger table (made on first use) for
        positions of up to EARLY_STONES stones, the usual one after."""
        if board.ply > EARLY_STONES or self.early_tt_bits <= self.tt_bits:
            return self.solver
        if self._early is None:
            self._early = Solver(self.width, self.height, self.early_tt_bits)
        return self._early

    def parse(self, text: str) -> Connect4Board:
        """The board a line's first token describes; ValueError with the reason if it is bad."""
        token = text.split()[0]
        if self.width > 9:
            raise ValueError(f"positions are column digits, so the width is at most 9, not {self.width}")
        if not (token.isascii() and token.isdigit()):
            raise ValueError(f"{token!r} is not a position: give column digits 1-{self.width}")
        board = Connect4Board(self.width, self.height)
        for i, ch in enumerate(token):
            if board.is_game_over():
                raise ValueError(f"the game is already over before move {i + 1} ({ch})")
            col = int(ch)
            if not 1 <= col <= self.width:
                raise ValueError(f"move {i + 1}: column {ch} is off the board (1-{self.width})")
            try:
                board.push(col - 1)
            except MoveError:
                raise ValueError(f"move {i + 1}: column {ch} is already full") from None
        out = board.outcome()
        if out is not None and out.winner is not None:
            raise ValueError(f"the position is already won ({out.winner} made four)")
        return board

    def floor(self, board: Connect4Board) -> int | None:
        """A score ``board`` is known to reach from the book (``book.floor``), or None."""
        return None if self.book is None else floor(board, self.book.get)

    def score(self, board: Connect4Board, seconds: float | None = None) -> tuple[int | None, bool]:
        """Score of ``board`` and whether it came from the book (None: not within ``seconds``)."""
        if self.book is not None:
            s = self.book.get(board)
            if s is not None:
                return (s > 0) - (s < 0) if self.weak else s, True
        return self.solver_for(board).solve(board, self.weak, seconds=seconds,
                                            at_least=self.floor(board)), False

    def solve_line(self, number: int, text: str, watch: Watch | None = None) -> LineResult:
        try:
            board = self.parse(text)
        except ValueError as exc:
            return LineResult(number, text.strip(), error=str(exc))
        res = LineResult(number, board.position)
        tokens = text.split(None, 1)
        if len(tokens) > 1 and tokens[1].strip():
            res.extra = tokens[1].strip()
        solver = self.solver_for(board)
        nodes = solver.nodes
        t = time.perf_counter()
        if self.analyze:
            res.scores = self.analyze_columns(board, self.seconds, watch)
        else:
            res.score, res.from_book = self.score(board, self.seconds)
        res.micros = (time.perf_counter() - t) * 1e6
        res.nodes = solver.nodes - nodes
        return res

    def analyze_board(self, board: Connect4Board, seconds: float | None = None) -> list[int] | None:
        """Score of each column (``FULL_COLUMN`` if full), using the book where it can; None if
        ``seconds`` (for all columns together) were not enough."""
        scores = self.analyze_columns(board, seconds)
        return None if any(s is None for s in scores) else scores

    def analyze_columns(self, board: Connect4Board, seconds: float | None = None,
                        watch: Watch | None = None) -> list[int | None]:
        """Score of each column (``FULL_COLUMN`` if full) as far as it is settled: None for a
        column still unsettled when ``seconds`` (for all columns together) ran out or
        ``watch.stop`` was set.  Columns known without a search (the move ends the game, the
        book holds the position after it) settle first; with a time limit every other column
        then gets a short search (``PROBE_NODES``), so the easy ones settle even when a hard
        one would take all the time, and the rest are searched to the end one after another.
        Each column is told to ``watch`` (``Watch.score``) as it settles."""
        w = self.width
        if board.is_game_over():
            return [FULL_COLUMN] * w
        deadline = None if seconds is None else time.perf_counter() + float(seconds)
        in_book = self.book is not None and board.ply + 1 <= self.book.depth
        out: list[int | None] = [None] * w
        known = self.book.get if in_book else (lambda child: None)

        def settle(c: int, s: int) -> None:
            out[c] = ((s > 0) - (s < 0)) if self.weak else s
            if watch is not None:
                watch.score(c, out[c])

        pending = []
        for c in range(w):
            if not board.is_legal(c):
                out[c] = FULL_COLUMN
                continue
            s = move_score(board, c, known)
            if s is None:
                pending.append(c)
            else:
                settle(c, s)
        # off the book, the whole analysis runs on the board's solver (its table size), as
        # the one jitted analysis did; in the book, each child's own (and its floor)
        solvers = {id(s): s for s in (self.solver_for(board), *(self.solver_for(_child(board, c))
                                                                  for c in pending))}
        stop = None if watch is None else watch.stop
        with _Stopper(stop, list(solvers.values())):
            for probe in ((PROBE_NODES, None) if deadline is not None else (None,)):
                still = []
                for c in pending:
                    left = None if deadline is None else deadline - time.perf_counter()
                    if (left is not None and left <= 0) or (stop is not None and stop.is_set()):
                        still.append(c)
                        continue
                    child = _child(board, c)
                    if in_book:
                        r = self.solver_for(child).solve(child, self.weak, max_nodes=probe,
                                                         seconds=left, at_least=self.floor(child))
                    else:
                        r = self.solver_for(board).solve(child, self.weak, max_nodes=probe,
                                                         seconds=left)
                    if r is None:
                        still.append(c)
                    else:
                        settle(c, -r)
                pending = still
        return out

    def run(self, lines: Iterable[str | bytes],
            watch_line: Callable[[int, str], Watch | None] | None = None) -> Iterator[LineResult]:
        """Solve every non-blank line; bytes lines are decoded as UTF-8 (a line that is not
        is a bad line, reported with its bytes replaced; a byte-order mark is dropped).
        ``watch_line(number, text)``: a ``Watch`` told each column of that line's analysis as
        it settles (the command's live line), or None."""
        for number, text in enumerate(lines, 1):
            if isinstance(text, (bytes, bytearray)):
                try:
                    text = bytes(text).decode("utf-8")
                except UnicodeDecodeError as exc:
                    shown = bytes(text).decode("utf-8", "replace")
                    if shown.strip():
                        yield LineResult(number, shown.strip(), error=(
                            f"not UTF-8 text (byte 0x{text[exc.start]:02x} at position "
                            f"{exc.start + 1})"))
                    continue
            if number == 1:
                text = text.removeprefix("\ufeff")
            if text.strip():
                watch = None if watch_line is None else watch_line(number, text)
                yield self.solve_line(number, text, watch)


def _child(board: Connect4Board, col: int) -> Connect4Board:
    child = board.copy()
    child.push(col)
    return child


class _Stopper:
    """While open, stops ``solvers``' searches as soon as ``stop`` is set (a search runs
    without the GIL and reads its node limit at every node; this thread lowers it, again
    every 20 ms, so a search started just after the stop is stopped too)."""

    def __init__(self, stop: threading.Event | None, solvers: list[Solver]):
        self.stop, self.solvers = stop, solvers
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def _run(self) -> None:
        while not self.done.wait(0.02):
            if self.stop.is_set():
                for solver in self.solvers:
                    solver.stop()

    def __enter__(self) -> "_Stopper":
        if self.stop is not None:
            self.thread = threading.Thread(target=self._run, daemon=True,
                                           name="connect4-solve-stop")
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
