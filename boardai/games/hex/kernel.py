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

This module is Hex's rules: the state, moves and their undo, legality, one-move wins and the
connection tests on row masks.  The rest of Hex's kernel hooks live beside it: the playout
policies in ``playouts.py``, the fill-in hooks of flat Monte Carlo and brute force in
``fill.py``, the network's input planes in ``planes.py``; ``games/kernel.py`` dispatches to all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import (
    new_state_array,
    BLACK, FLAGS, FLAG_SWAP, GAME_HEX, HASH, HEADER, HEIGHT, HIST, JOURNAL, LAST_MOVE,
    NO_WINNER, PLY, WHITE, WIDTH, WINNER, zobrist_key,
)

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
