"""Hex rules as numba functions over the flat state array (see ``games/layout.py``).

Board index layout for a W×H board (here 4×3), cell = row * W + col, ``a1`` is cell 0::

      a   b   c   d
    1  0 - 1 - 2 - 3        Black joins row 1 (TOP) to row H (BOTTOM),
        \\ / \\ / \\ / \\       White joins column a (LEFT) to the last column (RIGHT).
      2  4 - 5 - 6 - 7      Neighbours of (r, c): (r, c±1), (r-1, c), (r-1, c+1),
          \\ / \\ / \\ / \\                        (r+1, c), (r+1, c-1).
        3  8 - 9 -10 -11

Hex data in the state array (N = W*H)::

    [HEADER, +N)          cells: 0 empty, 1 black, 2 white
    [ROWS_B, +H)          black stones per row as bit masks (bit c = column c)
    [ROWS_W, +H)          white stones per row
    [PARENT, +N+4)        union-find parents; N+0..N+3 are the virtual TOP, BOTTOM, LEFT, RIGHT
    [SIZE, +N+4)          union-find set sizes (union by size, no path compression, so undo is exact)
    --- POS_LEN ---
    [HIST, +N+1)          move per ply
    [JOURNAL, +18*(N+1))  per ply: count of unions (-1 = swap), up to 8 (child root, new root)
                          pairs, and the last move before this ply (restored by undo)

Action ``N`` is the swap (swap-pieces): legal only as the second move of a square board whose state
was created with FLAG_SWAP.  It removes Black's first stone at (r, c) and puts a White stone at
(c, r), the mirror image across the long diagonal; Black moves next.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import (
    encode_cell_planes,
    new_state_array,
    BLACK, FLAGS, FLAG_SWAP, GAME_HEX, HASH, HEADER, HEIGHT, HIST, JOURNAL, LAST_MOVE,
    NO_WINNER, PLY, WHITE, WIDTH, WINNER, rng_below, rng_next, zobrist_key,
)
from boardai.games.hex.patterns import POW3, RING_DC, RING_DR, TURN, pattern_codes

JOURNAL_STRIDE = 18
NEIGHBOUR_STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1))   # (dr, dc)
MAX_SIDE = 26          # row masks are int64 and cell names run a..z, aa..


def hex_state_size(w: int, h: int) -> int:
    n = w * h
    return HEADER + n + 2 * h + 2 * (n + 4) + (n + 1) + JOURNAL_STRIDE * (n + 1)


def new_hex_state(w: int, h: int, swap: bool = False) -> np.ndarray:
    """A fresh empty Hex position."""
    n = w * h
    pos_len = HEADER + n + 2 * h + 2 * (n + 4)
    state = new_state_array(hex_state_size(w, h), GAME_HEX, w, h, num_actions=n + 1,
                            pos_len=pos_len, journal=pos_len + n + 1,
                            flags=FLAG_SWAP if swap else 0)
    _reset_union_find(state)
    return state


@njit(cache=True, nogil=True)
def neighbour_table(w, h):
    """[W*H, 6] table of every cell's neighbours in the order of NEIGHBOUR_STEPS, the ones on
    the board first, -1 after them (the one place the six steps are written out)."""
    n = w * h
    nb = np.full((n, 6), -1, dtype=np.int64)
    for r in range(h):
        for c in range(w):
            i = r * w + c
            k = 0
            for dr, dc in NEIGHBOUR_STEPS:
                rr = r + dr
                cc = c + dc
                if 0 <= rr < h and 0 <= cc < w:
                    nb[i, k] = rr * w + cc
                    k += 1
    return nb


@njit(cache=True, nogil=True)
def _offsets(state):
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    rows_b = HEADER + n
    rows_w = rows_b + h
    parent = rows_w + h
    size = parent + n + 4
    return w, h, n, rows_b, rows_w, parent, size


@njit(cache=True, nogil=True)
def _reset_union_find(state):
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    for i in range(n + 4):
        state[parent + i] = i
        state[size + i] = 1


@njit(cache=True, nogil=True)
def _find(state, parent, x):
    while state[parent + x] != x:
        x = state[parent + x]
    return x


@njit(cache=True, nogil=True)
def _union(state, parent, size, a, b, jslot):
    """Merge the sets of a and b; record (child, root) at state[jslot] and return 1 if merged."""
    ra = _find(state, parent, a)
    rb = _find(state, parent, b)
    if ra == rb:
        return 0
    if state[size + ra] < state[size + rb]:
        ra, rb = rb, ra
    state[parent + rb] = ra
    state[size + ra] += state[size + rb]
    if jslot >= 0:
        state[jslot] = rb
        state[jslot + 1] = ra
    return 1


@njit(cache=True, nogil=True)
def _connect_stone(state, cell, colour, jbase):
    """Union a new stone with its same-coloured neighbours and own edges; returns unions made."""
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    r = cell // w
    c = cell - r * w
    mine = colour + 1
    count = 0
    # the six neighbours, bounds-checked
    if c > 0 and state[HEADER + cell - 1] == mine:
        count += _union(state, parent, size, cell, cell - 1, jbase + 1 + 2 * count if jbase >= 0 else -1)
    if c < w - 1 and state[HEADER + cell + 1] == mine:
        count += _union(state, parent, size, cell, cell + 1, jbase + 1 + 2 * count if jbase >= 0 else -1)
    if r > 0:
        if state[HEADER + cell - w] == mine:
            count += _union(state, parent, size, cell, cell - w, jbase + 1 + 2 * count if jbase >= 0 else -1)
        if c < w - 1 and state[HEADER + cell - w + 1] == mine:
            count += _union(state, parent, size, cell, cell - w + 1, jbase + 1 + 2 * count if jbase >= 0 else -1)
    if r < h - 1:
        if state[HEADER + cell + w] == mine:
            count += _union(state, parent, size, cell, cell + w, jbase + 1 + 2 * count if jbase >= 0 else -1)
        if c > 0 and state[HEADER + cell + w - 1] == mine:
            count += _union(state, parent, size, cell, cell + w - 1, jbase + 1 + 2 * count if jbase >= 0 else -1)
    if colour == BLACK:
        if r == 0:
            count += _union(state, parent, size, cell, n, jbase + 1 + 2 * count if jbase >= 0 else -1)
        if r == h - 1:
            count += _union(state, parent, size, cell, n + 1, jbase + 1 + 2 * count if jbase >= 0 else -1)
    else:
        if c == 0:
            count += _union(state, parent, size, cell, n + 2, jbase + 1 + 2 * count if jbase >= 0 else -1)
        if c == w - 1:
            count += _union(state, parent, size, cell, n + 3, jbase + 1 + 2 * count if jbase >= 0 else -1)
    return count


@njit(cache=True, nogil=True)
def _set_stone(state, cell, colour, on):
    """Put (on=True) or lift a stone: cells, row masks and hash; union-find is the caller's job."""
    w = state[WIDTH]
    n = w * state[HEIGHT]
    r = cell // w
    bit = np.int64(1) << (cell - r * w)
    rows = HEADER + n + (0 if colour == BLACK else state[HEIGHT])
    if on:
        state[HEADER + cell] = colour + 1
        state[rows + r] |= bit
    else:
        state[HEADER + cell] = 0
        state[rows + r] &= ~bit
    state[HASH] ^= zobrist_key(GAME_HEX, cell, colour)


@njit(cache=True, nogil=True)
def _rebuild_union_find(state):
    _reset_union_find(state)
    n = state[WIDTH] * state[HEIGHT]
    for cell in range(n):
        v = state[HEADER + cell]
        if v != 0:
            _connect_stone(state, cell, v - 1, -1)


@njit(cache=True, nogil=True)
def _connected_winner(state):
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    if _find(state, parent, n) == _find(state, parent, n + 1):
        return BLACK
    if _find(state, parent, n + 2) == _find(state, parent, n + 3):
        return WHITE
    return NO_WINNER


@njit(cache=True, nogil=True)
def hex_is_legal(state, move):
    if state[WINNER] != NO_WINNER:
        return False
    w = state[WIDTH]
    n = w * state[HEIGHT]
    if move < 0 or move > n:
        return False
    if move == n:
        return (state[FLAGS] & FLAG_SWAP) != 0 and state[PLY] == 1 and w == state[HEIGHT]
    return state[HEADER + move] == 0


@njit(cache=True, nogil=True)
def hex_legal_moves(state, out):
    """Write the legal moves into ``out`` (length >= NUM_ACTIONS) and return how many."""
    if state[WINNER] != NO_WINNER:
        return 0
    n = state[WIDTH] * state[HEIGHT]
    k = 0
    for i in range(n):
        if state[HEADER + i] == 0:
            out[k] = i
            k += 1
    if (state[FLAGS] & FLAG_SWAP) != 0 and state[PLY] == 1 and state[WIDTH] == state[HEIGHT]:
        out[k] = n
        k += 1
    return k


@njit(cache=True, nogil=True)
def hex_wins_if_played(state, move, colour):
    """True if a ``colour`` stone on the empty cell ``move`` would join that colour's sides.

    Reads the union-find only (no change to the state): the new stone wins when its own edge
    contacts and its same-coloured neighbours' groups reach both of the colour's sides.
    """
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    if move >= n:
        return False          # the swap move places no new stone of its own
    r = move // w
    c = move - r * w
    mine = colour + 1
    side_a = n if colour == BLACK else n + 2
    side_b = n + 1 if colour == BLACK else n + 3
    ra = _find(state, parent, side_a)
    rb = _find(state, parent, side_b)
    if colour == BLACK:
        touch_a = r == 0
        touch_b = r == h - 1
    else:
        touch_a = c == 0
        touch_b = c == w - 1
    for k in range(6):
        if k == 0:
            rr, cc = r, c - 1
        elif k == 1:
            rr, cc = r, c + 1
        elif k == 2:
            rr, cc = r - 1, c
        elif k == 3:
            rr, cc = r - 1, c + 1
        elif k == 4:
            rr, cc = r + 1, c
        else:
            rr, cc = r + 1, c - 1
        if 0 <= rr < h and 0 <= cc < w and state[HEADER + rr * w + cc] == mine:
            root = _find(state, parent, rr * w + cc)
            if root == ra:
                touch_a = True
            if root == rb:
                touch_b = True
    return touch_a and touch_b


@njit(cache=True, nogil=True)
def _spread(stones, reach, h):
    """Grow ``reach`` (row masks, a subset of ``stones``) through ``stones`` until it stops."""
    while True:
        grown = False
        for r in range(h):
            x = reach[r]
            if r > 0:
                p = reach[r - 1]
                x |= (p | (p >> 1)) & stones[r]
            if r < h - 1:
                q = reach[r + 1]
                x |= (q | (q << 1)) & stones[r]
            if x != 0:
                x = _spread_row(x, stones[r])
            if x != reach[r]:
                reach[r] = x
                grown = True
        if not grown:
            return


@njit(cache=True, nogil=True)
def _touching(reach, r, h):
    """Cells of row r next to a cell of ``reach`` (row masks, unmasked by width)."""
    x = reach[r]
    d = (x << 1) | (x >> 1)
    if r > 0:
        p = reach[r - 1]
        d |= p | (p >> 1)
    if r < h - 1:
        q = reach[r + 1]
        d |= q | (q << 1)
    return d


@njit(cache=True, nogil=True)
def hex_winning_moves(state, colour, out):
    """Every empty cell where a ``colour`` stone would win at once; written to ``out``, counted.

    Row-mask work, no union-find: flood the colour's stones from each of its two sides, then a
    winning cell is empty and touches both floods (or the side itself).
    """
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    full = (np.int64(1) << w) - 1
    stones = state[HEADER + n + (0 if colour == BLACK else h): HEADER + n + (h if colour == BLACK else 2 * h)]
    other = state[HEADER + n + (h if colour == BLACK else 0): HEADER + n + (2 * h if colour == BLACK else h)]
    reach_a = np.zeros(h, dtype=np.int64)
    reach_b = np.zeros(h, dtype=np.int64)
    if colour == BLACK:
        reach_a[0] = stones[0]
        reach_b[h - 1] = stones[h - 1]
    else:
        last = np.int64(1) << (w - 1)
        for r in range(h):
            reach_a[r] = stones[r] & 1
            reach_b[r] = stones[r] & last
    _spread(stones, reach_a, h)
    _spread(stones, reach_b, h)
    k = 0
    for r in range(h):
        empty = full & ~(stones[r] | other[r])
        if empty == 0:
            continue
        ta = _touching(reach_a, r, h)
        tb = _touching(reach_b, r, h)
        if colour == BLACK:
            if r == 0:
                ta = full
            if r == h - 1:
                tb = full
        else:
            ta |= 1
            tb |= np.int64(1) << (w - 1)
        wins = empty & ta & tb
        c = 0
        while wins != 0:
            if wins & 1:
                out[k] = r * w + c
                k += 1
            wins >>= 1
            c += 1
    return k


@njit(cache=True, nogil=True)
def hex_apply(state, move):
    """Play ``move`` (assumed legal) for the side to move."""
    w = state[WIDTH]
    n = w * state[HEIGHT]
    ply = state[PLY]
    colour = ply & 1
    jbase = state[JOURNAL] + ply * JOURNAL_STRIDE
    state[jbase + JOURNAL_STRIDE - 1] = state[LAST_MOVE]
    if move == n:
        first = state[LAST_MOVE]            # at ply 1 the last move is Black's first stone
        r = first // w
        c = first - r * w
        _set_stone(state, first, BLACK, False)
        _set_stone(state, c * w + r, WHITE, True)
        _rebuild_union_find(state)
        state[jbase] = -1
        state[WINNER] = _connected_winner(state)
    else:
        _set_stone(state, move, colour, True)
        state[jbase] = _connect_stone(state, move, colour, jbase)
        parent = HEADER + n + 2 * state[HEIGHT]
        if colour == BLACK:
            if _find(state, parent, n) == _find(state, parent, n + 1):
                state[WINNER] = BLACK
        elif _find(state, parent, n + 2) == _find(state, parent, n + 3):
            state[WINNER] = WHITE
    state[state[HIST] + ply] = move
    state[PLY] = ply + 1
    state[HASH] ^= zobrist_key(GAME_HEX, 0, 2)
    state[LAST_MOVE] = move


@njit(cache=True, nogil=True)
def hex_undo(state):
    """Take back the last move (its journal must lie in this array: see layout.py)."""
    w = state[WIDTH]
    n = w * state[HEIGHT]
    ply = state[PLY] - 1
    move = state[state[HIST] + ply]
    jbase = state[JOURNAL] + ply * JOURNAL_STRIDE
    if move == n:
        first = state[jbase + JOURNAL_STRIDE - 1]   # the last move before the swap
        r = first // w
        c = first - r * w
        _set_stone(state, c * w + r, WHITE, False)
        _set_stone(state, first, BLACK, True)
        _rebuild_union_find(state)
    else:
        parent = HEADER + n + 2 * state[HEIGHT]
        size = parent + n + 4
        for k in range(state[jbase] - 1, -1, -1):
            child = state[jbase + 1 + 2 * k]
            root = state[jbase + 2 + 2 * k]
            state[size + root] -= state[size + child]
            state[parent + child] = child
        _set_stone(state, move, ply & 1, False)
    state[PLY] = ply
    state[WINNER] = NO_WINNER
    state[HASH] ^= zobrist_key(GAME_HEX, 0, 2)
    state[LAST_MOVE] = state[jbase + JOURNAL_STRIDE - 1]
    return move


@njit(cache=True, nogil=True)
def _spread_row(x, allowed):
    """Grow the stones ``x`` along row runs of ``allowed`` (bit masks of one row)."""
    while True:
        y = (x | (x << 1) | (x >> 1)) & allowed
        if y == x:
            return x
        x = y


@njit(cache=True, nogil=True)
def _flood(rows, base, h, reach, goal_row, goal_mask):
    """Grow the seeded ``reach`` through the stones ``rows[base:base+h]`` until it stops.

    Row-parallel flood fill: sweep down then up, each row spreading along its runs.  True as
    soon as row ``goal_row`` (any row when -1) of the reached set meets ``goal_mask``.
    """
    while True:
        grown = False
        for r in range(1, h):
            p = reach[r - 1]
            seed = (p | (p >> 1)) & rows[base + r] & ~reach[r]
            if seed != 0:
                reach[r] = _spread_row(seed | reach[r], rows[base + r])
                if (reach[r] & goal_mask) != 0 and (goal_row < 0 or r == goal_row):
                    return True
                grown = True
        for r in range(h - 2, -1, -1):
            q = reach[r + 1]
            seed = (q | (q << 1)) & rows[base + r] & ~reach[r]
            if seed != 0:
                reach[r] = _spread_row(seed | reach[r], rows[base + r])
                if (reach[r] & goal_mask) != 0 and (goal_row < 0 or r == goal_row):
                    return True
                grown = True
        if not grown:
            return False


@njit(cache=True, nogil=True)
def black_connects(rows, base, h, reach):
    """True if the black row masks ``rows[base:base+h]`` join the top row to the bottom row.

    ``reach`` is scratch of length >= h.
    """
    for r in range(h):
        reach[r] = 0
    reach[0] = rows[base]
    if reach[h - 1] != 0:
        return True
    return _flood(rows, base, h, reach, h - 1, np.int64(-1))


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


# --- hooks for flat Monte Carlo and brute force (engines/rollout/kernel.py) -------------------
#
# Random play in Hex is a random *fill-in*: the order of the moves does not matter, only which
# empty cells each side receives (the side to move gets ceil(k/2) of k).  The brute-force engine
# enumerates fill-ins on a scratch array ``fill`` of 5H int64 slots (all row masks, bit c =
# column c)::
#
#     fill[0, H)      Black's stones per row (position + cells assigned so far)
#     fill[H, 2H)     White's stones per row
#     fill[2H, 3H)    scratch: the stones a test may use (own colour, optionally + unassigned)
#     fill[3H, 5H)    scratch of the floods / breadth-first layers
#
# The "length" of a win (the quality score is 1/length) is the number of cells of the
# winner's shortest chain joining its two sides.


@njit(cache=True, nogil=True)
def hex_chain_length(rows, base, colour, w, h, reach):
    """Cells of the shortest chain of the stones ``rows[base:base+h]`` joining ``colour``'s
    sides (Black: top-bottom, White: left-right); 0 if they do not join them.

    Breadth-first search by layers on row masks: ``reach[0:h]`` holds the cells reached so far,
    ``reach[h:2h]`` the next layer (cells touching the reached set).  Scratch: 2H slots.
    """
    last = np.int64(1) << (w - 1)
    seen = np.int64(0)
    for r in range(h):
        if colour == BLACK:
            reach[r] = rows[base] if r == 0 else 0
        else:
            reach[r] = rows[base + r] & 1
        seen |= reach[r]
    if seen == 0:
        return 0
    d = 1
    while True:
        if colour == BLACK:
            if reach[h - 1] != 0:
                return d
        else:
            hit = np.int64(0)
            for r in range(h):
                hit |= reach[r]
            if hit & last:
                return d
        grown = np.int64(0)
        for r in range(h):
            x = _touching(reach, r, h) & rows[base + r] & ~reach[r]
            reach[h + r] = x
            grown |= x
        if grown == 0:
            return 0
        for r in range(h):
            reach[r] |= reach[h + r]
        d += 1


@njit(cache=True, nogil=True)
def hex_white_connects(rows, base, w, h, reach):
    """True if the white row masks ``rows[base:base+h]`` join column a to the last column.

    The left-right twin of ``black_connects``: row runs grown from the left edge, then the same
    flood.  ``reach`` is scratch of length >= h.
    """
    last = np.int64(1) << (w - 1)
    for r in range(h):
        x = rows[base + r] & 1
        if x != 0:
            x = _spread_row(x, rows[base + r])
            if x & last:
                return True
        reach[r] = x
    return _flood(rows, base, h, reach, -1, last)


@njit(cache=True, nogil=True)
def hex_playout_quality(state, rng, work):
    """A random fill-in of every empty cell, scored for the quality score: (winner, length).

    The side to move receives a uniformly random ceil(k/2) of the k empty cells (the same law
    as ``hex_playout``); ``length`` is the cell count of the winner's shortest chain on the
    filled board.  A finished position is filled too (its winner stays), so the length is
    always measured on a full board.  ``work``: int64 scratch of length >= N + 4H.
    """
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    k = 0
    for r in range(h):
        for c in range(w):
            if state[HEADER + r * w + c] == 0:
                work[k] = (r << 5) | c
                k += 1
    mover = state[PLY] & 1
    take = (k + 1) >> 1
    for j in range(take):
        t = j + rng_below(rng, k - j)
        tmp = work[j]
        work[j] = work[t]
        work[t] = tmp
    black = n
    white = n + h
    full = (np.int64(1) << w) - 1
    for r in range(h):
        work[black + r] = state[rows_b + r]
    lo, hi = (0, take) if mover == BLACK else (take, k)
    for j in range(lo, hi):
        e = work[j]
        work[black + (e >> 5)] |= np.int64(1) << (e & 31)
    for r in range(h):
        work[white + r] = full & ~work[black + r]
    scratch = work[n + 2 * h:]
    winner = state[WINNER]
    if winner == WHITE:
        return WHITE, hex_chain_length(work, white, WHITE, w, h, scratch)
    length = hex_chain_length(work, black, BLACK, w, h, scratch)
    if length > 0:
        return BLACK, length
    return WHITE, hex_chain_length(work, white, WHITE, w, h, scratch)


@njit(cache=True, nogil=True)
def hex_free_cells(state):
    """Number of empty cells."""
    n = state[WIDTH] * state[HEIGHT]
    k = 0
    for i in range(n):
        if state[HEADER + i] == 0:
            k += 1
    return k


@njit(cache=True, nogil=True)
def hex_symmetric(state):
    """True if the position is its own image under the 180-degree rotation (cell i <-> N-1-i),
    which maps each side's pair of edges onto itself, so both players' goals are kept."""
    n = state[WIDTH] * state[HEIGHT]
    for i in range(n // 2):
        if state[HEADER + i] != state[HEADER + n - 1 - i]:
            return False
    return True


@njit(cache=True, nogil=True)
def hex_symmetric_move(state, move):
    """Image of ``move`` under the 180-degree rotation (the swap move is its own image)."""
    n = state[WIDTH] * state[HEIGHT]
    return move if move >= n else n - 1 - move


@njit(cache=True, nogil=True)
def hex_fill_cells(state, out):
    """The empty cells a fill-in assigns, written to ``out``; returns how many."""
    n = state[WIDTH] * state[HEIGHT]
    k = 0
    for i in range(n):
        if state[HEADER + i] == 0:
            out[k] = i
            k += 1
    return k


@njit(cache=True, nogil=True)
def hex_fill_load(state, fill):
    """Start a fill-in: copy both colours' row masks into ``fill`` (layout above)."""
    w, h, n, rows_b, rows_w, parent, size = _offsets(state)
    for r in range(h):
        fill[r] = state[rows_b + r]
        fill[h + r] = state[rows_w + r]


@njit(cache=True, nogil=True)
def hex_fill_set(state, fill, cell, colour, on):
    """Give (on) or take back an empty ``cell`` to/from ``colour`` in the fill-in."""
    w = state[WIDTH]
    h = state[HEIGHT]
    r = cell // w
    bit = np.int64(1) << (cell - r * w)
    slot = r + (0 if colour == BLACK else h)
    if on:
        fill[slot] |= bit
    else:
        fill[slot] &= ~bit


@njit(cache=True, nogil=True)
def _fill_allowed(state, fill, colour, with_free):
    """Write into fill[2H, 3H) the stones ``colour`` may use: its own, plus every unassigned
    cell if ``with_free``; returns the base offset."""
    w = state[WIDTH]
    h = state[HEIGHT]
    full = (np.int64(1) << w) - 1
    own = 0 if colour == BLACK else h
    for r in range(h):
        x = fill[own + r]
        if with_free:
            x |= full & ~(fill[r] | fill[h + r])
        fill[2 * h + r] = x
    return 2 * h


@njit(cache=True, nogil=True)
def hex_fill_connects(state, fill, colour, with_free):
    """Does ``colour`` join its sides with its fill-in stones (plus all unassigned cells if
    ``with_free``: False then means it can no longer win whatever the rest of the fill-in)?"""
    w = state[WIDTH]
    h = state[HEIGHT]
    base = _fill_allowed(state, fill, colour, with_free)
    if colour == BLACK:
        return black_connects(fill, base, h, fill[3 * h:])
    return hex_white_connects(fill, base, w, h, fill[3 * h:])


@njit(cache=True, nogil=True)
def hex_fill_length(state, fill, colour, with_free):
    """Cells of ``colour``'s shortest joining chain in the fill-in (plus all unassigned cells if
    ``with_free``: a lower bound over every completion); 0 if none."""
    w = state[WIDTH]
    h = state[HEIGHT]
    base = _fill_allowed(state, fill, colour, with_free)
    return hex_chain_length(fill, base, colour, w, h, fill[3 * h:])


@njit(cache=True, nogil=True)
def hex_fill_rank(state, rank):
    """The order in which brute force assigns the empty cells (lowest rank first): nearest the
    centre first by hex distance, then row by row.  Central cells settle connections soonest:
    the first move of an empty 5x5 is counted 1.8x faster than in row order."""
    w = state[WIDTH]
    h = state[HEIGHT]
    for r in range(h):
        for c in range(w):
            dr = 2 * r - (h - 1)           # doubled offsets from the centre (integers)
            dc = 2 * c - (w - 1)
            d = max(abs(dr), abs(dc), abs(dr + dc))
            rank[r * w + c] = d * w * h + r * w + c


@njit(cache=True, nogil=True)
def hex_encode_planes(state, out):
    """The network's input planes (``games/kernel.py: encode_planes``): ``out[p, y, x]`` for the
    cell of row y (top row first) and column x: 0 the side to move's stones, 1 the opponent's,
    2 empty cells, 3 blocked cells (none in Hex), 4 ones, 5 ones while the swap is legal."""
    w = state[WIDTH]
    h = state[HEIGHT]
    encode_cell_planes(state, out)
    if hex_is_legal(state, w * h):
        out[5, :h, :w] = 1.0
