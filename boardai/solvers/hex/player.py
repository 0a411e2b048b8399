"""Perfect Hex moves for the ``solver`` engine, where the solver finishes in time, and the
solver's knowledge of a position without search for ``mcts:mustplay`` (``Player.knowledge``).

The swap decision comes from the shipped table of solved openings where it covers the size
(``solver.engine_move``); otherwise the position is solved within the budget.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from boardai.games.layout import HEADER
from boardai.solvers.answer import Answer
from boardai.solvers.base import SolverPlayer
from boardai.solvers.hex import vc
from boardai.solvers.hex.bits import MAX_CELLS, from_words, to_words, words_for
from boardai.solvers.hex.inferior import fill, ring_table
from boardai.solvers.hex.solver import (
    LOSS, WIN, centre_rank, engine_move, evaluate, known_outcomes, load, move_outcomes, think,
)

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

    def move(self, board, budget: float | None, every_move: bool) -> Answer | None:
        """A winning move (or the most stubborn loss); None if not solved within ``budget``.
        ``every_move``: also every cell the solver settles in the time (+1 won, -1 lost)."""
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
            scores = move_outcomes(board, left)
            info = {**info, "scores": {board.move_name(c): v for c, v in scores.items()}}
        return Answer(move, scores=scores, value=value, nodes=int(info.get("nodes", 0)), info=info)
