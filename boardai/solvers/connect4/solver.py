"""Exact Connect Four solver: scores in Pascal Pons' convention for any W×H the kernel allows.

The search (all numba, ``cache=True``) follows Pons' solver: negamax with alpha-beta on bitboards,
a null-window search that narrows the score bounds (iterative, around 0 first), a transposition
table keeping a lower and an upper bound per position in one 8-byte entry, move ordering by the
number of threats a move creates (centre columns first on ties), only non-losing moves searched
(a forced block is the only move, a double threat is a loss found at once, a cell under an
opponent's threat is never filled), and the left-right mirror folded into the table key in the
first ``SYM_PLIES`` stones.  Beyond Pons: while a node orders its moves it prefetches its
children's table entries (table probes are random memory accesses, the search's bottleneck),
and the negamax is a loop over an explicit stack that another thread can stop (``Solver.stop``).

**Scores** (Pascal Pons' convention): 0 is a draw; a positive score means the side to move
wins.  ``|score| = CEIL + 1 - (the winner's stones when the game ends)`` with
``CEIL = ceil(W*H/2)``: 22 − stones on 7×6 (W·H/2 + 1 − stones on every even-area board), so a
win with the last stone scores 1.  If ``n`` stones are on the board and the side to move wins
with its next stone, the score is ``CEIL - n // 2``.

**Solver position** (derived from the kernel state, ``kernel.py`` draws the bit layout: column-major,
H+1 bits per column, the top bit a pad)::

    cur   uint64   stones of the side to move
    mask  uint64   occupied cells (both colours)
    n     int64    stones on the board (= ply)

    key = cur + mask + bottom       per column: a 1 just above the top stone, the mover's stones
                                    below it; unique, and each column stays in its own H+1 bits,
                                    so the mirror key is the columns in reverse order.  The table
                                    uses min(key, mirror key) below SYM_PLIES stones.

**Geometry array** ``geo`` (int64): ``[W, H, W*H, CEIL, bottom, board, mirror, sym_plies]``
(bitboards as int64 views; ``mirror`` 1: ``position_key`` folds mirror images, as the book
does; the search folds them in positions of fewer than ``sym_plies`` stones).
"""

from __future__ import annotations

import threading

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from boardai.games.connect4.kernel import OCCUPIED, STONES, _threat_cells
from boardai.games.layout import PLY, popcount

G_W, G_H, G_WH, G_CEIL, G_BOTTOM, G_BOARD, G_MIRROR, G_SYM_PLIES = range(8)

NO_LOWER = -128      # transposition table: no bound known
NO_UPPER = 127
FULL_COLUMN = -1000  # --analyze: the column is full
DEFAULT_TT_BITS = 20
SYM_PLIES = 12       # the search folds mirror images together in positions of fewer stones

# stats slots: nodes searched so far, the node count at which a search gives up, aborted flag
S_NODES, S_LIMIT, S_ABORTED = 0, 1, 2
NO_LIMIT = np.iinfo(np.int64).max
ABORTED = -2000      # what the jitted entry points return when the node budget ran out
NO_BOUND = 1000      # solve_bits without a known floor: at_least=-NO_BOUND


def make_geometry(width: int, height: int, mirror: bool = True,
                  sym_plies: int = SYM_PLIES) -> np.ndarray:
    """The ``geo`` array for a W×H board (see the module docstring)."""
    bottom = sum(1 << (c * (height + 1)) for c in range(width))
    board = bottom * ((1 << height) - 1)
    wh = width * height
    geo = np.zeros(8, dtype=np.int64)
    geo[G_MIRROR] = int(mirror)
    geo[G_SYM_PLIES] = sym_plies if mirror else 0
    geo[G_W], geo[G_H], geo[G_WH], geo[G_CEIL] = width, height, wh, (wh + 1) // 2
    geo[G_BOTTOM], geo[G_BOARD] = np.array([bottom, board], dtype=np.uint64).view(np.int64)
    return geo


def column_order(width: int) -> np.ndarray:
    """Columns from the centre outwards (``[3, 2, 4, 1, 5, 0, 6]`` on 7 columns)."""
    return np.array(sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c)), dtype=np.int64)


def new_table(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """An empty transposition table of 2**bits entries, 8 bytes each (bits >= 16).

    The key is first multiplied by an odd constant (a bijection on 64-bit words): its top
    ``bits`` bits pick the slot and the other 64 - bits are stored, so slot + tag give the key
    back and no two positions are confused::

        tt[slot] = tag << 16 | (lower + 128) | (upper + 128) << 8        0: empty
    """
    return np.zeros(1 << bits, dtype=np.int64)


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Hint the CPU to load ``arr[idx]`` into cache (LLVM's prefetch; no effect on results)."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, idx), codegen


@njit(cache=True, nogil=True, inline="always")
def _mirror(key, w, h):
    """``key`` with its columns in reverse order (each column is h+1 bits)."""
    stride = np.uint64(h + 1)
    colmask = (np.uint64(1) << stride) - np.uint64(1)
    out = np.uint64(0)
    for c in range(w):
        col = (key >> (np.uint64(c) * stride)) & colmask
        out |= col << (np.uint64(w - 1 - c) * stride)
    return out


@njit(cache=True, nogil=True, inline="always")
def position_key(cur, mask, geo):
    """The table key of a position: min of its key and its mirror image's."""
    key = cur + mask + np.uint64(geo[G_BOTTOM])
    if not geo[G_MIRROR]:
        return key
    m = _mirror(key, geo[G_W], geo[G_H])
    return m if m < key else key


@njit(cache=True, nogil=True, inline="always")
def _search_key(cur, mask, n, geo):
    """The search's table key: the mirror-folded key before ``G_SYM_PLIES`` stones, where
    symmetric positions happen, and the plain key after, where the children's keys are cheap
    enough to prefetch their table entries."""
    key = cur + mask + np.uint64(geo[G_BOTTOM])
    if n >= geo[G_SYM_PLIES]:
        return key
    m = _mirror(key, geo[G_W], geo[G_H])
    return m if m < key else key


@njit(cache=True, nogil=True, inline="always")
def _tighten(e, tag, lo, hi):
    """Bounds [lo, hi] narrowed by table entry ``e`` if it holds the position ``tag``."""
    if e != 0 and ((e ^ (tag << 16)) >> 16) == 0:
        lo = max(lo, (e & 255) - 128)
        hi = min(hi, ((e >> 8) & 255) - 128)
    return lo, hi


@njit(cache=True, nogil=True, inline="always")
def _slot_tag(key, nbits):
    h = key * np.uint64(0x9E3779B97F4A7C15)
    shift = np.uint64(64 - nbits)
    return np.int64(h >> shift), np.int64(h & ((np.uint64(1) << shift) - np.uint64(1)))


@njit(cache=True, nogil=True, inline="always")
def can_win_next(cur, mask, geo):
    """True if the side to move makes four with its next stone."""
    board = np.uint64(geo[G_BOARD])
    possible = (mask + np.uint64(geo[G_BOTTOM])) & board
    return (_threat_cells(cur, geo[G_H], geo[G_W]) & (board ^ mask) & possible) != 0


# per-ply frame of the explicit search stack in ``work`` (FRAME(w) slots a ply)
F_CUR, F_MASK, F_ALPHA, F_BETA, F_K, F_J, F_KEY, F_SLOT, F_MOVES = range(9)


def frame_size(width: int) -> int:
    return F_MOVES + 2 * width


@njit(cache=True, nogil=True, inline="always")
def _enter(cur, mask, n, alpha, beta, geo, order, tt, nbits, work, base):
    """Open a node: returns (True, value) if it is decided without children, else sets up its
    frame at ``work[base:]`` (window, table slot, ordered non-losing moves) and returns (False, 0).
    """
    w = geo[G_W]
    h = geo[G_H]
    ceil = geo[G_CEIL]
    # read the table entry first: the cache miss then overlaps the threat computations below
    key = _search_key(cur, mask, n, geo)
    slot, tag = _slot_tag(key, nbits)
    e = tt[slot]
    board = np.uint64(geo[G_BOARD])
    empty = board ^ mask
    possible = (mask + np.uint64(geo[G_BOTTOM])) & board
    opp_win = _threat_cells(cur ^ mask, h, w) & empty
    forced = possible & opp_win
    if forced:
        if forced & (forced - np.uint64(1)):
            return True, -(ceil - (n + 1) // 2)     # two threats: the opponent wins next move
        possible = forced
    possible &= ~(opp_win >> np.uint64(1))          # never play under an opponent's threat
    if possible == 0:
        return True, -(ceil - (n + 1) // 2)
    if n >= geo[G_WH] - 2:
        return True, np.int64(0)
    lo = -(ceil - (n + 3) // 2)                     # the opponent cannot win at its next move
    hi = ceil - (n + 2) // 2                        # nor can we at this one
    lo, hi = _tighten(e, tag, lo, hi)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return True, alpha
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return True, beta
    # order the moves: most threats created first, centre first on ties (insertion sort)
    mv0 = base + F_MOVES
    sc0 = mv0 + w
    k = 0
    stride = np.uint64(h + 1)
    colmask = (np.uint64(1) << np.uint64(h)) - np.uint64(1)
    prefetch = n + 1 >= geo[G_SYM_PLIES]
    child_base = (cur ^ mask) + mask + np.uint64(geo[G_BOTTOM])
    for i in range(w):
        c = order[i]
        mv = possible & (colmask << (np.uint64(c) * stride))
        if mv:
            if prefetch:        # the child's key is child_base + mv: start loading its entry
                _prefetch(tt, _slot_tag(child_base + mv, nbits)[0])
            sc = popcount(_threat_cells(cur | mv, h, w) & empty)
            j = k
            while j > 0 and work[sc0 + j - 1] < sc:
                work[mv0 + j] = work[mv0 + j - 1]
                work[sc0 + j] = work[sc0 + j - 1]
                j -= 1
            work[mv0 + j] = np.int64(mv)
            work[sc0 + j] = sc
            k += 1
    work[base + F_CUR] = np.int64(cur)
    work[base + F_MASK] = np.int64(mask)
    work[base + F_ALPHA] = alpha
    work[base + F_BETA] = beta
    work[base + F_K] = k
    work[base + F_J] = 0
    work[base + F_KEY] = tag
    work[base + F_SLOT] = slot
    return False, np.int64(0)


@njit(cache=True, nogil=True)
def _negamax(cur, mask, n, alpha, beta, geo, order, tt, nbits, work, stats):
    """Score of a position where the side to move cannot win at once, within [alpha, beta].

    Fail-hard: a result <= alpha is an upper bound, >= beta a lower bound.  Written as a loop
    over an explicit stack of frames in ``work`` (one a ply) rather than recursion, so a stopped
    search unwinds at once; it measured about as fast as the recursive version.
    """
    fs = F_MOVES + 2 * geo[G_W]
    n0 = n
    d = 0
    nodes = 0
    done, value = _enter(cur, mask, n, alpha, beta, geo, order, tt, nbits, work, 0)
    nodes += 1
    while True:
        if done:
            # pass ``value`` up to the parent frame
            if d == 0:
                stats[S_NODES] += nodes
                return value
            if stats[S_NODES] + nodes > stats[S_LIMIT]:     # out of budget: unwind at once
                stats[S_NODES] += nodes
                stats[S_ABORTED] = 1
                return 0
            d -= 1
            base = d * fs
            score = -value
            if score >= work[base + F_BETA]:
                _store(tt, work[base + F_SLOT], work[base + F_KEY],
                       score, NO_UPPER)
                value = score
                continue
            if score > work[base + F_ALPHA]:
                work[base + F_ALPHA] = score
            work[base + F_J] += 1
        base = d * fs
        j = work[base + F_J]
        if j >= work[base + F_K]:
            alpha = work[base + F_ALPHA]
            _store(tt, work[base + F_SLOT], work[base + F_KEY],
                   NO_LOWER, alpha)
            done, value = True, alpha
            continue
        mv = np.uint64(work[base + F_MOVES + j])
        c = np.uint64(work[base + F_CUR])
        m = np.uint64(work[base + F_MASK])
        d += 1
        nodes += 1
        done, value = _enter(c ^ m, m | mv, n0 + d, -work[base + F_BETA], -work[base + F_ALPHA],
                             geo, order, tt, nbits, work, d * fs)


@njit(cache=True, nogil=True, inline="always")
def _store(tt, slot, tag, lo, hi):
    """Tighten the bounds of the position ``slot, tag`` (replacing whatever else held the slot)."""
    lo, hi = _tighten(tt[slot], tag, lo, hi)
    tt[slot] = (tag << 16) | (lo + 128) | ((hi + 128) << 8)


@njit(cache=True, nogil=True)
def solve_bits(cur, mask, n, weak, geo, order, tt, work, stats, at_least=-NO_BOUND):
    """Exact score (or with ``weak`` only its sign: -1, 0, 1) of a position not yet decided.

    Null-window searches narrow [min, max] until they meet, probing near 0 first (Pons).  A
    known floor (``at_least``, e.g. minus an opening book's score of the position before)
    raises the minimum, and the first probe is at it: a position reached by a best move scores
    exactly its floor, which one null-window test confirms.
    """
    nbits = 0
    while (np.int64(1) << nbits) < tt.shape[0]:
        nbits += 1
    ceil = geo[G_CEIL]
    if n >= geo[G_WH]:
        return 0
    if can_win_next(cur, mask, geo):
        s = ceil - n // 2
        return 1 if weak else s
    lo = -(ceil - (n + 1) // 2)
    hi = ceil - (n + 2) // 2
    if weak:
        lo = -1
        hi = 1
        at_least = max(-1, min(1, at_least))
    probe = NO_BOUND
    if at_least > lo:
        lo = min(at_least, hi)
        probe = lo
    while lo < hi:
        med = lo + (hi - lo) // 2
        if probe != NO_BOUND and lo <= probe < hi:
            med = probe
            probe = NO_BOUND
        elif med <= 0 and lo // 2 < med:
            med = lo // 2
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        r = _negamax(cur, mask, n, med, med + 1, geo, order, tt, nbits, work,
                     stats)
        if stats[S_ABORTED]:
            return ABORTED
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


@njit(cache=True, nogil=True, inline="always")
def _columns(cur, mask, geo):
    """(playable cells, cells that make four for the side to move, bottom column's mask, bits
    from one column to the next): what scoring moves column by column starts from."""
    h = geo[G_H]
    board = np.uint64(geo[G_BOARD])
    stride = np.uint64(h + 1)
    colmask = (np.uint64(1) << np.uint64(h)) - np.uint64(1)
    possible = (mask + np.uint64(geo[G_BOTTOM])) & board
    wins = _threat_cells(cur, h, geo[G_W]) & (board ^ mask)
    return possible, wins, colmask, stride


@njit(cache=True, nogil=True)
def analyze_bits(cur, mask, n, weak, geo, order, tt, work, stats, out):
    """Score of every column for the side to move (``FULL_COLUMN`` for a full one) into ``out``."""
    w = geo[G_W]
    ceil = geo[G_CEIL]
    possible, wins, colmask, stride = _columns(cur, mask, geo)
    for c in range(w):
        mv = possible & (colmask << (np.uint64(c) * stride))
        if mv == 0:
            out[c] = FULL_COLUMN
        elif mv & wins:
            out[c] = 1 if weak else ceil - n // 2
        else:
            r = solve_bits(cur ^ mask, mask | mv, n + 1, weak, geo, order, tt, work, stats)
            if r == ABORTED:
                out[c] = ABORTED
                return
            out[c] = -r


@njit(cache=True, nogil=True)
def best_move_bits(cur, mask, n, geo, order, tt, work, stats, at_least=-NO_BOUND):
    """(score, column) of a best move: the position is solved exactly, then the columns are tried
    centre first with one null-window test each (does this move keep the score?) until one
    does.  Much cheaper than scoring every column, since the solve leaves the bounds in the table.
    Returns (ABORTED, -1) if the node budget ran out."""
    w = geo[G_W]
    ceil = geo[G_CEIL]
    possible, wins, colmask, stride = _columns(cur, mask, geo)
    for i in range(w):
        c = order[i]
        if possible & wins & (colmask << (np.uint64(c) * stride)):
            return ceil - n // 2, c
    s = solve_bits(cur, mask, n, False, geo, order, tt, work, stats, at_least)
    if s == ABORTED:
        return ABORTED, -1
    nbits = 0
    while (np.int64(1) << nbits) < tt.shape[0]:
        nbits += 1
    for i in range(w):
        c = order[i]
        mv = possible & (colmask << (np.uint64(c) * stride))
        if mv == 0:
            continue
        ccur = cur ^ mask
        cmask = mask | mv
        if n + 1 >= geo[G_WH]:
            child = np.int64(0)
        elif can_win_next(ccur, cmask, geo):
            child = ceil - (n + 1) // 2
        else:
            # the child's score is <= -s exactly when a null window at -s fails low
            child = _negamax(ccur, cmask, n + 1, -s, -s + 1, geo, order, tt, nbits, work, stats)
            if stats[S_ABORTED]:
                return ABORTED, -1
        if -child >= s:
            return s, c
    return s, -1            # not reached: some move keeps the score


def state_bits(state: np.ndarray) -> tuple[int, int, int]:
    """(cur, mask, n) of a kernel state: the solver's view of the position."""
    ply = int(state[PLY])
    cur = int(state[STONES + (ply & 1)]) & ((1 << 64) - 1)
    mask = int(state[OCCUPIED]) & ((1 << 64) - 1)
    return cur, mask, ply


class Solver:
    """An exact solver for one board size, keeping its transposition table between calls.

    >>> from boardai.games.connect4.board import Connect4Board
    >>> Solver().solve(Connect4Board.from_position("4455667"[:-1]))   # X wins now, 4th stone
    18
    """

    def __init__(self, width: int = 7, height: int = 6, tt_bits: int = DEFAULT_TT_BITS):
        if width * (height + 1) > 64 or width < 1 or height < 1:
            raise ValueError(f"the solver needs W,H >= 1 and W*(H+1) <= 64, not {width}x{height}")
        if not 16 <= tt_bits <= 32:
            raise ValueError(f"tt_bits must be in 16..32, not {tt_bits}")
        self.width, self.height = width, height
        self.geo = make_geometry(width, height)
        self.order = column_order(width)
        self.tt = new_table(tt_bits)
        self.work = np.zeros(frame_size(width) * (width * height + 2), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self.stats[S_LIMIT] = NO_LIMIT

    def reset(self) -> None:
        """Forget the transposition table (entries stay correct across positions otherwise)."""
        self.tt[:] = 0

    def win_score(self, stones_before: int) -> int:
        """Score of winning with the next stone when ``stones_before`` stones are on the board."""
        return win_score(self.width, self.height, stones_before)

    @property
    def nodes(self) -> int:
        return int(self.stats[S_NODES])

    def _bits(self, board) -> tuple[np.uint64, np.uint64, int]:
        if board.width != self.width or board.height != self.height:
            raise ValueError(f"this solver is for {self.width}x{self.height}, not {board.size_text}")
        if board.is_game_over() and board.outcome().winner is not None:
            raise ValueError("the game is already won: nothing to solve")
        cur, mask, n = state_bits(board.state)
        return np.uint64(cur), np.uint64(mask), n

    def _budget(self, max_nodes: int | None) -> None:
        self.stats[S_ABORTED] = 0
        self.stats[S_LIMIT] = NO_LIMIT if max_nodes is None else self.stats[S_NODES] + max_nodes

    def stop(self) -> None:
        """Make a running search give up (safe from another thread: the search runs without
        the GIL and reads its node limit at every node)."""
        self.stats[S_LIMIT] = 0

    def _timed(self, seconds: float | None, run):
        if seconds is None:
            return run()
        timer = threading.Timer(max(0.0, seconds), self.stop)
        timer.start()
        try:
            return run()
        finally:
            timer.cancel()

    def solve(self, board, weak: bool = False, max_nodes: int | None = None,
              seconds: float | None = None, at_least: int | None = None) -> int | None:
        """Score of ``board`` (a Connect4Board) for the side to move; ``weak``: only its sign.

        With ``max_nodes`` or ``seconds``, None when the search needs more than that.
        ``at_least``: a score the position is known to reach (from a book: minus the score of
        the position before it); the search starts there.
        """
        cur, mask, n = self._bits(board)
        self._budget(max_nodes)
        floor = -NO_BOUND if at_least is None else int(at_least)
        r = int(self._timed(seconds, lambda: solve_bits(cur, mask, n, weak, self.geo, self.order,
                                                        self.tt, self.work, self.stats, floor)))
        return None if r == ABORTED else r

    def analyze(self, board, weak: bool = False, max_nodes: int | None = None,
                seconds: float | None = None) -> list[int] | None:
        """Score of playing each column (``FULL_COLUMN`` = -1000 where the column is full).

        With ``max_nodes`` or ``seconds``, None when that is not enough for all columns.
        """
        cur, mask, n = self._bits(board)
        self._budget(max_nodes)
        out = np.zeros(self.width, dtype=np.int64)
        self._timed(seconds, lambda: analyze_bits(cur, mask, n, weak, self.geo, self.order, self.tt,
                                                  self.work, self.stats, out))
        if self.stats[S_ABORTED]:
            return None
        return [int(v) for v in out]


    def best_move(self, board, max_nodes: int | None = None, seconds: float | None = None,
                  at_least: int | None = None) -> tuple[int, int] | None:
        """(score, column) of a move that keeps the position's exact score, centre first among
        equals: the fastest win, the slowest loss, or a draw kept.  None if out of budget.
        ``at_least`` as in ``solve``."""
        cur, mask, n = self._bits(board)
        if board.is_game_over():
            raise ValueError("the game is over: no move to choose")
        self._budget(max_nodes)
        floor = -NO_BOUND if at_least is None else int(at_least)
        s, c = self._timed(seconds, lambda: best_move_bits(cur, mask, n, self.geo, self.order,
                                                           self.tt, self.work, self.stats, floor))
        if s == ABORTED:
            return None
        return int(s), int(c)


def win_score(width: int, height: int, stones_before: int) -> int:
    """Score of the side to move when it wins with its next stone, ``stones_before`` on the board."""
    return (width * height + 1) // 2 - stones_before // 2
