"""Hex's playout policies: random games to a full board from a position (``games/kernel.py``'s
``playout`` and ``playout_policy`` call them), each returning the winner and leaving the state
unchanged.

- ``hex_playout`` (policy 0, uniform): a random split of the empty cells, one flood fill;
- ``hex_playout_bridge`` (policy 1): a move into a bridge of the opponent is answered in the
  other cell of the bridge; with ``edges`` (policy 3) a second-row stone's edge template too;
- ``hex_playout_local``: the bridge playout whose other moves may answer the last move by the
  learned move patterns (``patterns.py``), as MoHex 2.0's do, starting from a fill-in of cells
  known dead or captured.

Cells are packed ``row << 5 | column`` inside a playout; the row masks are those of
``kernel.py``'s layout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import (
    BLACK, HEADER, LAST_MOVE, NO_WINNER, PLY, WHITE, WINNER, rng_below, rng_next,
)
from boardai.games.hex.kernel import _offsets, black_connects
from boardai.games.hex.patterns import POW3, RING_DC, RING_DR, TURN, pattern_codes


@njit(cache=True, nogil=True)
def hex_playout(state, rng, work, owner):
    """Random playout to a full board; returns the winner and leaves ``state`` unchanged.

    Filling the empty cells in random order is the same as giving a uniformly random subset of
    them to the side to move (it gets ceil(k/2) of k).  A partial Fisher-Yates shuffle picks the
    subset, then one flood fill on the black row masks decides the game: a full Hex board has
    exactly one winner.  ``work`` is int64 scratch of length >= N + 2H; if ``owner`` has length N
    it receives the playout colour of every empty cell (-1 for cells already occupied).
    """
    if state[WINNER] != NO_WINNER:
        return state[WINNER]
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    k = 0
    for r in range(h):
        for c in range(w):
            if state[HEADER + r * w + c] == 0:
                work[k] = (r << 5) | c   # row and column packed: no division later
                k += 1
    mover = state[PLY] & 1
    take = (k + 1) >> 1                  # cells the side to move receives
    for j in range(take):
        t = j + rng_below(rng, k - j)
        tmp = work[j]
        work[j] = work[t]
        work[t] = tmp
    rows = n                             # black row masks in work[n : n+h]
    for r in range(h):
        work[rows + r] = state[rows_b + r]
    lo, hi = (0, take) if mover == BLACK else (take, k)
    for j in range(lo, hi):
        e = work[j]
        work[rows + (e >> 5)] |= np.int64(1) << (e & 31)
    if owner.shape[0] >= n:
        for i in range(n):
            owner[i] = -1
        for j in range(k):
            e = work[j]
            owner[(e >> 5) * w + (e & 31)] = mover if j < take else 1 - mover
    if black_connects(work, rows, h, work[n + h:]):
        return BLACK
    return WHITE


@njit(cache=True, nogil=True)
def _held(rows, base, h, w, r, c, colour, edges):
    """A stone of ``colour`` at (r, c) (its rows at ``base``); with ``edges`` also a point off
    the board on one of its own edges (rows -1 and h are Black's, columns -1 and w White's; the
    corner points count as Black's)."""
    if r < 0 or r >= h:
        return edges and colour == 0
    if c < 0 or c >= w:
        return edges and colour == 1
    return (rows[base + r] >> c) & 1 == 1


@njit(cache=True, nogil=True)
def _at_most_two(x):
    """Set bits of ``x`` when it has at most two (0, 1 or 2)."""
    if x == 0:
        return 0
    return 1 if (x & (x - 1)) == 0 else 2


@njit(cache=True, nogil=True)
def hex_playout_bridge(state, rng, work, owner, edges=False):
    """Random playout that saves threatened bridges: a sequential game in random order, except
    that when a move enters one of the two empty cells between two stones of the opponent (a
    bridge), the opponent answers in the other one.  With ``edges`` a stone's own edge counts as
    one of the two, so a second-row stone's link to its edge (the edge template of two cells)
    is saved too.  Slower than ``hex_playout`` (one move at a time), closer to real play.  Same
    contract as ``hex_playout``; ``work`` needs N + 3H slots.
    """
    return hex_playout_local(state, rng, work, owner, edges, None, 0.0, None)


@njit(cache=True, nogil=True)
def hex_playout_local(state, rng, work, owner, edges, table, scale, fill):
    """``hex_playout_bridge`` whose other moves may answer the last move locally, as MoHex
    2.0's playouts do: each empty cell of the 12 around the last move (its neighbours and bridge
    cells) weighs ``scale`` times its pattern's gamma in ``table`` (``games/hex/patterns.py``),
    every empty cell of the board 1, and the move is drawn by weight (a local cell by its
    weight, else any empty cell uniformly).  A saved bridge still comes first.  ``scale`` 0 or
    an empty table: no local moves, ``hex_playout_bridge``.  ``fill`` (length N, or empty for
    none; ``table`` and ``fill`` None compile a version without their code, the bridge
    playout's): cells known to be dead or captured higher in the tree (1 Black's, 2 White's) that
    are still empty here start the playout as stones of that colour, not moves (their
    ``owner`` stays -1).  ``work`` needs 5N + 3H + 24 slots.
    """
    if state[WINNER] != NO_WINNER:
        return state[WINNER]
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    black = n                     # row masks of both colours in work[n : n + 2h]
    for r in range(h):
        work[black + r] = state[rows_b + r]
        work[black + h + r] = state[rows_w + r]
    filled = False
    if fill is not None:
        filled = fill.shape[0] >= n
    k = 0
    for r in range(h):
        for c in range(w):
            if state[HEADER + r * w + c] == 0:
                if fill is not None:
                    if filled and fill[r * w + c] != 0:
                        work[black + (fill[r * w + c] - 1) * h + r] |= np.int64(1) << c
                        continue
                work[k] = (r << 5) | c
                k += 1
    for j in range(k - 1):
        t = j + rng_below(rng, k - j)
        tmp = work[j]
        work[j] = work[t]
        work[t] = tmp
    track = owner.shape[0] >= n
    if track:
        for i in range(n):
            owner[i] = -1
    local = False
    if table is not None:
        local = table.shape[0] > 0 and scale > 0.0
    codes = black + 3 * h + 24    # per cell: Black's pattern codes (as read, turned), White's
    if local:
        for r in range(h):
            for c in range(w):
                if ((work[black + r] | work[black + h + r]) >> c) & 1 == 0:
                    x = codes + 4 * (r * w + c)
                    work[x], work[x + 1] = pattern_codes(work, black, black + h, w, h, r, c, 0)
                    work[x + 2], work[x + 3] = pattern_codes(work, black, black + h, w, h, r, c, 1)
    last = state[LAST_MOVE] if local else -1
    if last >= n:                 # the swap: no cell to answer
        last = -1
    if last >= 0:
        last = ((last // w) << 5) | (last % w)
    # the hexagon around a cell, in circular order: E, NE, NW, W, SW, SE
    dr = (0, -1, -1, 0, 1, 1)
    dc = (1, 1, 0, -1, -1, 0)
    p = state[PLY] & 1
    nxt = 0
    reply = -1
    for played in range(k):
        e = -1
        if reply >= 0:
            e = reply
            reply = -1
        elif last >= 0:
            if table is not None:
                e = _local_answer(work, black, codes, h, w, last >> 5, last & 31, p, table,
                                  scale, k - played, rng)
        if e < 0:
            while True:
                e = work[nxt]
                nxt += 1
                rr = e >> 5
                cc = e & 31
                if ((work[black + rr] | work[black + h + rr]) >> cc) & 1 == 0:
                    break
        r = e >> 5
        c = e & 31
        work[black + p * h + r] |= np.int64(1) << c
        if track:
            owner[r * w + c] = p
        q = 1 - p
        qbase = black + q * h
        # a bridge of the opponent through e needs two of its stones next to e: count them
        # first (most moves of a playout have fewer and skip the hexagon walk)
        near = _at_most_two(work[qbase + r] & ((np.int64(5) << (c - 1)) if c > 0 else np.int64(2)))
        if r > 0:
            near += _at_most_two(work[qbase + r - 1] & (np.int64(3) << c))
        if r < h - 1 and near < 2:
            near += _at_most_two(work[qbase + r + 1] & ((np.int64(3) << (c - 1)) if c > 0 else np.int64(1)))
        if edges and near < 2:
            if q == 0 and (r == 0 or r == h - 1):
                near += 2
            elif q == 1 and (c == 0 or c == w - 1):
                near += 2
        for i in range(6 if near >= 2 else 0):
            a = (i + 5) % 6
            b = (i + 1) % 6
            yr = r + dr[i]
            yc = c + dc[i]
            if yr < 0 or yr >= h or yc < 0 or yc >= w:
                continue
            if ((work[black + yr] | work[black + h + yr]) >> yc) & 1:
                continue
            if _held(work, qbase, h, w, r + dr[a], c + dc[a], q, edges) and \
                    _held(work, qbase, h, w, r + dr[b], c + dc[b], q, edges):
                reply = (yr << 5) | yc
                break
        if local:
            last = e
            _stone_digits(work, codes, h, w, r, c, p)
        p = q
    if black_connects(work, black, h, work[n + 2 * h:]):
        return BLACK
    return WHITE


@njit(cache=True, nogil=True)
def _local_answer(work, black, codes, h, w, r, c, p, table, scale, empty, rng):
    """A cell of the 12 around (r, c) drawn for ``p`` by ``scale`` times its pattern's gamma
    against 1 for each of the ``empty`` cells of the board, or -1 for the uniform draw.
    Packed (row << 5 | column) like the playout's cells; ``work[black + 3h :]`` holds the
    candidates (24 slots past the flood's scratch), ``work[codes:]`` the cells' pattern codes."""
    found = black + 3 * h
    m = 0
    extra = 0.0
    for i in range(12):
        yr = r + RING_DR[i]
        yc = c + RING_DC[i]
        if yr < 0 or yr >= h or yc < 0 or yc >= w:
            continue
        if ((work[black + yr] | work[black + h + yr]) >> yc) & 1:
            continue
        x = codes + 4 * (yr * w + yc) + 2 * p
        pattern = min(work[x], work[x + 1])
        work[found + m] = (yr << 5) | yc
        work[found + 12 + m] = pattern
        extra += table[pattern]
        m += 1
    if m == 0:
        return -1
    extra *= scale
    u = (rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * (empty + extra)
    for i in range(m):
        u -= scale * table[work[found + 12 + i]]
        if u < 0.0:
            return work[found + i]
    return -1


@njit(cache=True, nogil=True)
def _stone_digits(work, codes, h, w, r, c, q):
    """A stone of colour ``q`` at (r, c): the pattern codes of the cells around it change by
    its digit (``patterns.pattern_codes``); cells read by Black and by White (transposed)."""
    for v in range(2):
        s = 1 if q == v else 2
        for i in range(12):
            xr = r - (RING_DR[i] if v == 0 else RING_DC[i])
            xc = c - (RING_DC[i] if v == 0 else RING_DR[i])
            if xr < 0 or xr >= h or xc < 0 or xc >= w:
                continue
            x = codes + 4 * (xr * w + xc) + 2 * v
            work[x] += s * POW3[i]
            work[x + 1] += s * POW3[TURN[i]]
