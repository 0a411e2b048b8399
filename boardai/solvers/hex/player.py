"""Perfect Hex moves for the ``solver`` engine, where the solver finishes in time, and the
solver's knowledge of a position without search for ``mcts:mustplay`` (``Player.knowledge``).

``engine_move`` is the engine's move: the book of first replies (``book.py``), the table of
solved openings (``openings.py``: the first move, and the swap decision where it covers the
size), then the DFPN (``solver.py``) within the budget.  ``load`` readies all three.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from boardai.games.layout import HEADER
from boardai.solvers.answer import Answer, Watch
from boardai.solvers.base import SolverPlayer
from boardai.solvers.hex import vc
from boardai.solvers.hex.bits import MAX_CELLS, from_words, to_words, words_for
from boardai.solvers.hex.inferior import fill, ring_table
from boardai.solvers.hex.book import book_reply, reply_book
from boardai.solvers.hex.openings import opening_table
from boardai.solvers.hex.solver import (
    LOSS, UNKNOWN, WIN, Solver, best_move, centre_rank, check_board, colour_name, evaluate,
    known_outcomes, move_outcomes, solver_for, think,
)

_LOADED: set[int] = set()          # the kinds of set (words) whose search is compiled


def load(width: int, height: int) -> None:
    """Load the compiled search for this board's kind of set (a tiny 2x2 solve, once per
    process and kind), the shipped opening table and reply book, and the table of this size, so
    that a timed search that follows spends its time searching."""
    words = words_for(width * height)
    if words not in _LOADED:
        tiny = Solver(2, 2, tt_bits=8, words=words)
        pos = tiny.position([0, 0, 0, 0], 0)
        tiny.run(pos, 0, None)
        tiny.run(tiny.child(pos, 0, 1), 1, None)
        opening_table()
        reply_book()
        _LOADED.add(words)
    solver_for(width, height)


def engine_move(board, seconds: float | None) -> tuple[int, dict] | None:
    """A perfect-play move for the ``solver`` engine, or None if not solved within ``seconds``.

    Returns (move, info): a winning move when the side to move wins, else the losing move whose
    proof took the most work (the most stubborn resistance).  With the swap rule available,
    swaps exactly when Black's opening wins: looked up in the shipped opening table
    (``opening_table``) for the sizes it covers, else solved within the time.  On an empty
    board without the swap rule, the table's winning opening nearest the centre.
    """
    check_board(board)
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + float(seconds)
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    n0 = int(s.stats[0])
    booked = book_reply(board)
    if booked is not None:
        return booked, {"winner": colour_name(mover), "swap": False, "from_book": True, "nodes": 0,
                        "seconds": time.perf_counter() - t0}
    table = opening_table().get(board.width, {}) if board.width == board.height else {}
    if table and not board.swap_allowed and not np.any(np.asarray(board.cells)):
        # the first move: a winning opening of the table, the one nearest the centre
        for c in (int(x) for x in s.order):
            if table.get(board.move_name(c)) == "black":
                return c, {"winner": "black", "swap": False, "from_table": True, "nodes": 0,
                           "seconds": time.perf_counter() - t0}
    if board.is_legal(board.swap_move):
        # the opening stone wins for Black iff White to move loses; swapping takes it over
        opening = board.move_name(int(np.flatnonzero(np.asarray(board.cells))[0]))
        known = opening_table().get(board.width, {}).get(opening) \
            if board.width == board.height else None
        if known == "black":
            return board.swap_move, {"swap": True, "winner": colour_name(1 - mover),
                                     "from_table": True, "nodes": 0,
                                     "seconds": time.perf_counter() - t0}
        pos = s.position(board.cells, mover)
        r = WIN if known == "white" else s.run(pos, mover, deadline)
        if r == UNKNOWN:
            return None
        if r == LOSS:
            return board.swap_move, {"swap": True, "winner": colour_name(1 - mover),
                                     "nodes": int(s.stats[0]) - n0,
                                     "seconds": time.perf_counter() - t0}
    found = best_move(board, deadline)
    if found is None:
        return None
    best, r = found
    info = {"winner": colour_name(mover if r == WIN else 1 - mover), "swap": False,
            "nodes": int(s.stats[0]) - n0, "seconds": time.perf_counter() - t0}
    return best, info


_VC_TABLES: dict[tuple[int, int, int], tuple] = {}   # (w, h, thread) -> geometry, H-search scratch


def _tables(board) -> tuple | None:
    """(words, neighbours, edges, rings, centre ranks, H-search scratch) for ``board``'s size,
    one set a thread; None on boards of more than 128 cells, and while the swap is a legal move
    (the evaluation knows only stones)."""
    w, h = board.width, board.height
    n = w * h
    if n > MAX_CELLS or (board.swap_allowed and board.is_legal(board.swap_move)):
        return None
    key = (w, h, threading.get_ident())
    if key not in _VC_TABLES:
        nbr, edges = vc.geometry(w, h)
        _VC_TABLES[key] = (words_for(n), nbr, edges, ring_table(w, h), centre_rank(w, h),
                           vc.new_scratch(n))
    return _VC_TABLES[key]


def _position(board) -> tuple | None:
    """(``_tables``, cells, Black's stones, White's stones) of ``board`` for the node
    evaluation, the stones as cell sets of the tables' words (``bits.py``); None where
    ``_tables`` is."""
    tables = _tables(board)
    if tables is None:
        return None
    n = board.width * board.height
    cells = np.asarray(board.state[HEADER:HEADER + n])
    black = sum(1 << int(c) for c in np.flatnonzero(cells == 1))
    white = sum(1 << int(c) for c in np.flatnonzero(cells == 2))
    return tables, n, to_words(black, tables[0]), to_words(white, tables[0])


class Player(SolverPlayer):
    """Stateless apart from the solver's own per-size tables (kept by ``solver.py``); answers
    every ``SolverPlayer`` method, and ``mustplay`` and ``threat`` (Hex's own, for tests and
    benchmarks)."""

    has_knowledge = True

    @staticmethod
    def supports(board) -> bool:
        """Boards of at most 128 cells (the solver's bitboards are one or two 64-bit words)."""
        return board.width * board.height <= MAX_CELLS

    def __init__(self, **_options):
        pass

    @staticmethod
    def mustplay(board) -> set[int] | None:
        """The cells the side to move must play in, or lose at once to a virtual connection:
        the cells common to the opponent's edge-to-edge semi connections (H-search; boards of
        up to 128 cells).  None when the opponent has no semi connection, or a full one (then
        every move loses), or the board is too large.  Sound: a move outside the set leaves
        one of those semi connections whole, and the opponent completes it."""
        answer = Player.threat(board)
        return None if answer is None or answer is True else answer

    @staticmethod
    def threat(board) -> set[int] | bool | None:
        """The opponent's edge-to-edge connection by H-search alone: True if it is a full one
        (the side to move has lost), the mustplay cells if only semi ones (see ``mustplay``),
        None if none is found or the board has more than 128 cells."""
        answer = Player.knowledge(board, inferior=False)
        if answer is None:
            return None
        result, moves = answer
        if result == LOSS:
            return True
        n = board.width * board.height
        if result == WIN or len(moves) == np.count_nonzero(board.state[HEADER:HEADER + n] == 0):
            return None                # no semi connection: every empty cell is left

        return moves

    @staticmethod
    def filled(board) -> np.ndarray | None:
        """Per cell of ``board``: 1 or 2 where filling in dead cells and captured pairs
        (``inferior.fill``) puts a Black or White stone, 0 elsewhere; the value of the position
        is the same with them.  None where ``knowledge`` is None."""
        position = _position(board)
        if position is None:
            return None
        (words, nbr, edges, ring, rank, scratch), n, black, white = position
        fb, fw = fill(black, white, ring, n)
        out = np.zeros(n, dtype=np.int64)
        for colour, before, after in ((1, black, fb), (2, white, fw)):
            added = from_words(after) & ~from_words(before)
            out[[c for c in range(n) if added >> c & 1]] = colour
        return out

    @staticmethod
    def knowledge(board, inferior: bool = True,
                  reversible: bool = True) -> tuple[int, set[int]] | None:
        """What the solver's node evaluation (``solver.evaluate``) knows of ``board`` without
        searching: (LOSS, set()) if the opponent has a virtual win, (WIN, set()) if filling in
        the inferior cells completes the mover's chain, else (UNKNOWN, the moves worth trying):
        the mustplay, less the cells filled in as dead or captured, the vulnerable and
        captured-reversible moves and the capture-dominated ones (``inferior=False``: the
        mustplay alone, or every empty cell; ``reversible=False``: the captured-reversible
        moves kept).  A move left out is lost or no better than one kept.  None on boards of more
        than 128 cells, and while the swap is a legal move (the evaluation knows only
        stones)."""
        position = _position(board)
        if position is None:
            return None
        (words, nbr, edges, ring, rank, scratch), n, black, white = position
        result, moves, _ = evaluate(black, white, int(board.turn), nbr, edges, ring, rank, n,
                                    scratch, inferior, reversible)
        value = from_words(moves)
        return int(result), {c for c in range(n) if value >> c & 1}

    @staticmethod
    def load(board) -> None:
        """Load the compiled search and this size's table now (a few tenths of a second the
        first time), so that a timed move spends its time searching."""
        load(board.width, board.height)

    @staticmethod
    def known_outcomes(board) -> dict[int, int]:
        """Moves whose value the solver's table already holds (+1 wins, -1 loses), no search."""
        return known_outcomes(board)

    @staticmethod
    def think(board, seconds: float) -> None:
        """Solve on ``board`` (the position after a proven move) for up to ``seconds``: the
        table keeps the work, and the next move's proof starts from it."""
        if not board.is_game_over():
            think(board, seconds)

    def move(self, board, budget: float | None, every_move: bool,
             watch: Watch | None = None) -> Answer | None:
        """A winning move (or the most stubborn loss); None if not solved within ``budget``.
        ``every_move``: also every cell the solver settles in the time (+1 won, -1 lost), each
        told to ``watch`` as it settles; a stop set on ``watch`` ends the cells' search (the
        search for the move itself ends only at ``budget``)."""
        clock = time.perf_counter()
        answer = engine_move(board, budget)
        if answer is None:
            return None
        move, info = answer
        # the swap is only chosen when it takes over a won opening
        won = info.get("swap") or info["winner"] == ("black" if int(board.turn) == 0 else "white")
        value = 1.0 if won else -1.0
        scores = None
        if every_move:
            left = None if budget is None else max(0.0, budget - (time.perf_counter() - clock))
            scores = move_outcomes(board, left, watch)
            info = {**info, "scores": {board.move_name(c): v for c, v in scores.items()}}
        return Answer(move, scores=scores, value=value, nodes=int(info.get("nodes", 0)), info=info)
