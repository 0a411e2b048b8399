"""Threats on the line-word boards (``wide.py``: past 64 cells, the course's): where each side
makes four, the parity of those cells, the zugzwang they decide, and the endgames they settle.

A **threat** of a colour is an empty cell (not blocked, at or above its column's landing cell)
where a stone of that colour makes four with the colour's stones already on the board.  Allis
("A Knowledge-based Approach of Connect-Four", 1988) gives the facts used here:

* a stone right under the opponent's threat hands the opponent the win (the opponent plays on
  top of it), unless the stone itself wins;
* two threats of one colour on consecutive playable cells of a column (**stacked**) win for that
  colour once the column reaches the lower one: a block of the lower cell is answered on the
  upper one;
* **zugzwang**: when the cells both sides can fill without giving anything away run out, the
  side to move must play right under a threat -- under its own (it gives that threat up: the
  opponent blocks on it, and the same side is to move again) or under the opponent's (it
  loses).  Which side runs out first follows from the parity of those free cells; on a board
  with a no-go cell the column holding it counts one cell fewer above it (``playable_row``),
  which is how the parity of Allis's odd and even threats moves there.

``zugzwang`` (``wide.py``, beside the playouts that use it; the rule on plain arrays is
``parity.py``'s) applies that rule to a quiet position (no side can make four at once): it counts
the free cells, lets the side that runs out of them give up its own threats, lowest first,
and says who wins, assuming no new threats are made while the free cells fill (a heuristic:
on quiet positions of games against the course's reference it named the game's winner in 74-85
% of those with up to 31 free cells, the safe playouts' mean 0.56-0.66; docs/experiments.md).
``settle`` is an exact search of a late position (alpha-beta over win/draw/loss with a
transposition table and a node budget) that prunes by the threat facts, which are exact:
a winning move is taken, a single opponent threat is blocked (two lose), and a move right under
an opponent's threat is never tried (it loses at once).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.parity import UNKNOWN, free_cells_of
from boardai.games.connect4.wide import (
    _next_row, _would_four, lines_jit, quiet, rule_inputs, threat_rows, wide_apply, wide_undo,
    zugzwang,
)
from boardai.games.layout import DRAW, HASH, HEADER, HEIGHT, NO_WINNER, PLY, WIDTH, WINNER

__all__ = ["UNKNOWN", "free_count", "new_table", "playable_row", "quiet", "settle", "stacked",
           "threat_cells", "threat_rows", "zugzwang"]


@njit(cache=True, nogil=True)
def threat_cells(state, colour, out):
    """``colour``'s threat cells, each as ``col * height + row``, into ``out`` (at least the
    board's cells long); returns how many."""
    w = state[WIDTH]
    h = state[HEIGHT]
    rows = np.empty(w, dtype=np.int64)
    threat_rows(state, colour, rows)
    k = 0
    for c in range(w):
        for r in range(h):
            if (rows[c] >> r) & 1:
                out[k] = c * h + r
                k += 1
    return k


@njit(cache=True, nogil=True)
def playable_row(state, col, row):
    """The 1-based number of ``row`` among column ``col``'s playable cells counted from the
    bottom (a no-go cell below it is not counted): Allis's row, whose parity makes a threat
    odd or even."""
    w = state[WIDTH]
    h = state[HEIGHT]
    blocked = state[HEADER + 3 * lines_jit(w, h) + w + col]
    k = 0
    for r in range(row + 1):
        if not (blocked >> r) & 1:
            k += 1
    return k


@njit(cache=True, nogil=True)
def stacked(state, colour):
    """The first column (from the left) holding two threats of ``colour`` on consecutive
    playable cells with no threat of the opponent below them in that column, else -1."""
    w = state[WIDTH]
    h = state[HEIGHT]
    mine = np.empty(w, dtype=np.int64)
    theirs = np.empty(w, dtype=np.int64)
    threat_rows(state, colour, mine)
    threat_rows(state, 1 - colour, theirs)
    tops = HEADER + 3 * lines_jit(w, h)
    for c in range(w):
        r = state[tops + c]
        while r < h:
            if (theirs[c] >> r) & 1:
                break
            if (mine[c] >> r) & 1:
                up = _next_row(state, tops + w, c, r + 1, h)
                if up < h and (mine[c] >> up) & 1:
                    return c
            r = _next_row(state, tops + w, c, r + 1, h)
    return -1


@njit(cache=True, nogil=True)
def free_count(state):
    """The cells both sides can still fill without playing right under a threat (the free
    cells of the zugzwang rule)."""
    top, t0, t1, blocked = rule_inputs(state)
    return free_cells_of(top, t0, t1, blocked, state[WIDTH], state[HEIGHT])


# --- the exact endgame -------------------------------------------------------------------------

_EXACT, _LOWER, _UPPER = 0, 1, 2
_ABORT = 9


def new_table(bits: int = 14):
    """An empty transposition table for ``settle``: (keys, values) of 2**bits entries."""
    return np.zeros(1 << bits, dtype=np.int64), np.full(1 << bits, -1, dtype=np.int64)


_OPEN = 5                 # _enter: the node is open (its moves are in the frame)


@njit(cache=True, nogil=True)
def _enter(st, d, alpha, beta, keys, vals, order, moves, nmoves):
    """A node of the search at depth ``d``: its value (+1 / 0 / -1 for the side to move) when
    the rules, the threat facts or the table settle it, else _OPEN with its moves (the
    forced block alone; else those not right under an opponent's threat, the ones under its
    own threat last) in ``moves[d]`` and their number in ``nmoves[d]``."""
    if st[WINNER] != NO_WINNER:
        return 0 if st[WINNER] == DRAW else -1          # the side that just moved won
    w = st[WIDTH]
    h = st[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    me = st[PLY] & 1
    mine = HEADER + me * n
    theirs = HEADER + (1 - me) * n
    forced = -1
    threats = 0
    for c in range(w):
        r = st[tops + c]
        if r < h:
            if _would_four(st, mine, w, h, c, r):
                return 1
            if _would_four(st, theirs, w, h, c, r):
                threats += 1
                forced = c
    if threats > 1:
        return -1
    key = st[HASH]
    slot = key & (keys.shape[0] - 1)
    if keys[slot] == key and vals[slot] >= 0:
        v = (vals[slot] & 3) - 1
        flag = vals[slot] >> 2
        if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
            return v
    k = 0
    if forced >= 0:
        moves[d, 0] = forced
        k = 1
    else:
        for i in range(w):                       # first pass: the plain moves
            c = order[i]
            r = st[tops + c]
            if r >= h:
                continue
            up = _next_row(st, tops + w, c, r + 1, h)
            if up < h and (_would_four(st, theirs, w, h, c, up)
                           or _would_four(st, mine, w, h, c, up)):
                continue
            moves[d, k] = c
            k += 1
        for i in range(w):                       # then those under its own threat
            c = order[i]
            r = st[tops + c]
            if r >= h:
                continue
            up = _next_row(st, tops + w, c, r + 1, h)
            if up < h and not _would_four(st, theirs, w, h, c, up) \
                    and _would_four(st, mine, w, h, c, up):
                moves[d, k] = c
                k += 1
        if k == 0:
            return -1                            # every open column hands over a win
    nmoves[d] = k
    return _OPEN


@njit(cache=True, nogil=True)
def _negamax(st, budget, count, keys, vals, order):
    """The value (+1 win, 0 draw, -1 loss) of ``st`` for its side to move, or _ABORT once
    ``count[0]`` passes ``budget``; alpha-beta on an explicit stack (numba's cache does not
    keep recursive functions).  ``st`` is left as it came."""
    w = st[WIDTH]
    depth = st[WIDTH] * st[HEIGHT] - st[PLY] + 2
    moves = np.empty((depth, w), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    nxt = np.zeros(depth, dtype=np.int64)
    al = np.zeros(depth, dtype=np.int64)
    be = np.zeros(depth, dtype=np.int64)
    a0 = np.zeros(depth, dtype=np.int64)
    best = np.zeros(depth, dtype=np.int64)
    d = 0
    al[0] = -1
    be[0] = 1
    entering = True
    val = 0
    while True:
        if entering:
            count[0] += 1
            if count[0] > budget:
                for _ in range(d):
                    wide_undo(st)
                return _ABORT
            v = _enter(st, d, al[d], be[d], keys, vals, order, moves, nmoves)
            if v == _OPEN:
                a0[d] = al[d]
                best[d] = -2
                nxt[d] = 1
                wide_apply(st, moves[d, 0])
                d += 1
                al[d] = -be[d - 1]
                be[d] = -al[d - 1]
                continue
            val = v
        # `val` is the value of the node at depth d: hand it to its parent
        if d == 0:
            return val
        wide_undo(st)
        d -= 1
        v = -val
        if v > best[d]:
            best[d] = v
            if v > al[d]:
                al[d] = v
        if al[d] >= be[d] or nxt[d] == nmoves[d]:
            b = best[d]
            flag = _EXACT
            if b <= a0[d]:
                flag = _UPPER
            elif b >= be[d]:
                flag = _LOWER
            key = st[HASH]
            slot = key & (keys.shape[0] - 1)
            keys[slot] = key
            vals[slot] = (b + 1) | (flag << 2)
            val = b
            entering = False
            continue
        wide_apply(st, moves[d, nxt[d]])
        nxt[d] += 1
        d += 1
        al[d] = -be[d - 1]
        be[d] = -al[d - 1]
        entering = True


@njit(cache=True, nogil=True)
def settle(state, budget, keys, vals):
    """The exact result of a position by the threat-pruned search: the winner (0/1), ``DRAW``,
    or ``UNKNOWN`` when ``budget`` nodes do not settle it.  ``state`` is searched in place and
    left as it came (it needs the undo area: a full state array).  ``keys``/``vals``: a
    transposition table (``new_table``), kept between calls on the same board."""
    if state[WINNER] != NO_WINNER:
        return state[WINNER]
    w = state[WIDTH]
    order = np.empty(w, dtype=np.int64)
    k = 0
    for d in range(2 * w):                  # centre first
        for c in range(w):
            if abs(2 * c - (w - 1)) == d:
                order[k] = c
                k += 1
    count = np.zeros(1, dtype=np.int64)
    v = _negamax(state, budget, count, keys, vals, order)
    if v == _ABORT:
        return UNKNOWN
    me = state[PLY] & 1
    if v == 0:
        return DRAW
    return me if v == 1 else 1 - me
