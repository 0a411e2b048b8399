"""Hex move patterns: the shape of the 12 cells around an empty cell, for the MCTS priors.

A move's pattern is what lies on the cell's 6 neighbours and its 6 bridge cells (the cells two
steps away that share two neighbours with it), each seen from the side to move: 0 empty, 1 its
own (a stone, or its own edge off the board), 2 the opponent's (a stone or the opponent's edge).
The 12 digits in base 3 give the pattern's number (3**12 = 531,441 of them)::

    neighbours, in ring order:   (-1, 0) (-1, +1) (0, +1) (+1, 0) (+1, -1) (0, -1)    (row, col)
    bridge cells, between each
    neighbour and the next:      (-2, +1) (-1, +2) (+1, +1) (+2, -1) (+1, -2) (-1, -1)

White's patterns are read on the transposed board (offset (dr, dc) read at (dc, dr)), where
White joins top to bottom as Black does, so one table serves both colours; a pattern and its
180-degree turn (each ring moved on by three) share one number, the smaller.  Off the board, a
row past the top or bottom is the edge of the side joining top and bottom, otherwise a column
past the left or right is the other side's edge.

Each pattern has a weight ``gamma`` (Coulom's "Elo ratings of move patterns"): a move's chance
of being chosen among the legal ones is taken as its gamma over the sum of theirs.  The project
learns the weights from its own games (``boardai train patterns``, ``boardai/train/patterns.py``)
and ships them as ``boardai/data/hex_patterns.npz``; a pattern never seen has gamma 1.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from boardai.games.layout import HEADER, HEIGHT, PLY, WIDTH
from boardai.games.move_patterns import MovePatterns

N_PATTERNS = 3 ** 12
RING_DR = np.array([-1, -1, 0, 1, 1, 0, -2, -1, 1, 2, 1, -1], dtype=np.int64)
RING_DC = np.array([0, 1, 1, 0, -1, -1, 1, 2, 1, -1, -2, -1], dtype=np.int64)
POW3 = 3 ** np.arange(12, dtype=np.int64)
# the 180-degree turn moves digit i to TURN[i]: three places on within its ring
TURN = np.array([(i + 3) % 6 for i in range(6)] + [6 + (i + 3) % 6 for i in range(6)],
                dtype=np.int64)


@njit(cache=True, nogil=True)
def hex_pattern(state, cell):
    """The pattern number of empty ``cell`` for the side to move (see the module's text)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    r = cell // w
    rows_b = HEADER + w * h                 # the state's row masks (hex/kernel.py's layout)
    return pattern_at(state, rows_b, rows_b + h, w, h, r, cell - r * w, state[PLY] & 1)


@njit(cache=True, nogil=True)
def pattern_at(rows, rows_b, rows_w, w, h, r, c, mover):
    """The pattern number of the empty cell (r, c) for ``mover`` (0 Black, 1 White), read from
    row masks (bit c of ``rows[rows_b + r]`` a Black stone, of ``rows[rows_w + r]`` a White
    one): the state's own, or a playout's copy (``hex/kernel.py``)."""
    code, turned = pattern_codes(rows, rows_b, rows_w, w, h, r, c, mover)
    return code if code <= turned else turned


@njit(cache=True, nogil=True)
def pattern_codes(rows, rows_b, rows_w, w, h, r, c, mover):
    """The pattern's two codes before the choice of the smaller: (as read, turned by 180
    degrees).  A stone of colour q added at the cell of digit i adds ``s * POW3[i]`` and ``s *
    POW3[TURN[i]]`` to them (s = 1 if q is ``mover``, else 2), which lets a playout keep them
    up to date (``stone_digits``)."""
    own = rows_b if mover == 0 else rows_w
    other = rows_w if mover == 0 else rows_b
    code = 0
    turned = 0
    for i in range(12):
        dr = RING_DR[i] if mover == 0 else RING_DC[i]      # White reads the board transposed
        dc = RING_DC[i] if mover == 0 else RING_DR[i]
        rr = r + dr
        cc = c + dc
        off_row = rr < 0 or rr >= h
        off_col = cc < 0 or cc >= w
        if off_row if mover == 0 else off_col:
            s = 1                           # past the mover's own edge
        elif off_row or off_col:
            s = 2
        elif (rows[own + rr] >> cc) & 1:
            s = 1
        elif (rows[other + rr] >> cc) & 1:
            s = 2
        else:
            s = 0
        code += s * POW3[i]
        turned += s * POW3[TURN[i]]
    return code, turned


@njit(cache=True, nogil=True)
def hex_pattern_gammas(state, moves, k, table, out):
    """``out[i]`` = the weight of ``moves[i]`` (i < k) from ``table`` (gamma per pattern
    number); a move that is not a cell (the swap) gets 1."""
    n = state[WIDTH] * state[HEIGHT]
    for i in range(k):
        m = moves[i]
        out[i] = table[hex_pattern(state, m)] if m < n else 1.0


PATTERNS = MovePatterns(
    number=hex_pattern, count=N_PATTERNS,
    shipped=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data",
                         "hex_patterns.npz"),
    what="the 6 neighbours and 6 bridge cells of a cell, seen from the side to move")
