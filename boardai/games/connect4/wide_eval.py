"""Static evaluators of Connect Four positions in the line-word layout (``wide.py``).

The same two evaluators as ``eval.py`` (``lines`` and ``threats``, same weights), counted window
by window over the line words, with what big boards with a no-go cell teach:

* a window of four that touches a blocked cell counts nothing (the blocked words mark them);
* a three-link whose empty cell lies far above its column's next stone is worth less than one that
  can be completed soon: it is weighted ``1 / (1 + d)``, ``d`` the rows between the empty cell and
  the cell its column's next stone lands on (0 = playable now).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.eval import (
    THREATS, W_CENTRE, W_GOOD_THREAT, W_OTHER_THREAT, W_THREE, W_TWO,
)
from boardai.games.connect4.wide import lines_jit
from boardai.games.layout import HEADER, HEIGHT, PLY, WIDTH, popcount


@njit(cache=True, nogil=True)
def _span(kind, j, w, h):
    """(first, last) bit of line ``j`` of ``kind`` (0 row, 1 column, 2 diagonal, 3 anti)."""
    if kind == 0:
        return 0, w - 1
    if kind == 1:
        return 0, h - 1
    if kind == 2:                   # c - r = j - (h - 1)
        k = j - (h - 1)
        return max(0, -k), min(h - 1, w - 1 - k)
    return max(0, j - (w - 1)), min(h - 1, j)      # c + r = j


@njit(cache=True, nogil=True)
def _cell_of(kind, j, bit, h):
    """(col, row) of ``bit`` on line ``j`` of ``kind``."""
    if kind == 0:
        return bit, j
    if kind == 1:
        return j, bit
    if kind == 2:
        return j - (h - 1) + bit, bit
    return j - bit, bit


@njit(cache=True, nogil=True)
def wide_evaluate(state, ev):
    """Score for the side to move with evaluator ``ev`` (LINES or THREATS), as ``c4_evaluate``."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    me = state[PLY] & 1
    score = 0.0
    threat_odd = np.zeros(2, dtype=np.int64)      # threats on rows 1, 3, 5, ... (from 1)
    threat_even = np.zeros(2, dtype=np.int64)
    seen = np.zeros(2 * w, dtype=np.int64)        # threat cells as bits per colour and column
    starts = (0, h, h + w, h + w + w + h - 1)
    counts = (h, w, w + h - 1, w + h - 1)
    for kind in range(4):
        for j in range(counts[kind]):
            lo, hi = _span(kind, j, w, h)
            if hi - lo < 3:
                continue
            i = HEADER + starts[kind] + j
            blocked = state[i + 2 * n]
            for colour in range(2):
                p = state[i + colour * n]
                o = state[i + (1 - colour) * n]
                sign = 1.0 if colour == me else -1.0
                for s in range(lo, hi - 2):
                    window = np.int64(15) << s
                    if (o | blocked) & window:
                        continue
                    mine = p & window
                    if mine == 0:
                        continue
                    stones = popcount(np.uint64(mine))
                    if stones == 3:
                        empty = window & ~mine
                        bit = 0
                        while not (empty >> bit) & 1:
                            bit += 1
                        c, r = _cell_of(kind, j, bit, h)
                        d = r - state[tops + c]
                        score += sign * W_THREE / (1.0 + d)
                        if ev == THREATS and not (seen[colour * w + c] >> r) & 1:
                            seen[colour * w + c] |= np.int64(1) << r
                            if r & 1:
                                threat_even[colour] += 1
                            else:
                                threat_odd[colour] += 1
                    elif stones == 2:
                        score += sign * W_TWO
    if w & 1:
        centre = w // 2
        for colour in range(2):
            k = popcount(np.uint64(state[HEADER + colour * n + h + centre]))
            score += (W_CENTRE if colour == me else -W_CENTRE) * k
    if ev == THREATS:
        v = (W_GOOD_THREAT * threat_odd[0] + W_OTHER_THREAT * threat_even[0]
             - W_GOOD_THREAT * threat_even[1] - W_OTHER_THREAT * threat_odd[1])
        score += v if me == 0 else -v
    return score
