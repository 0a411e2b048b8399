"""The zugzwang rule of Connect Four on column tops and threat bits (Allis's odd and even
threats, for any board and its no-go cells): who is left without a free cell first, and what
giving up threats then changes.  Plain arrays, no board: ``wide.zugzwang`` reads them off a
line-word position (``threats.py`` describes the rule and what it assumes)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import DRAW

UNKNOWN = -1


@njit(cache=True, nogil=True)
def free_cells_of(top, t0, t1, blocked, w, h):
    """Cells both sides can fill without playing right under a threat: per column, those below
    the cell under its lowest threat (all of a column without threats)."""
    free = 0
    for c in range(w):
        r = top[c]
        run = 0
        while r < h:
            if ((t0[c] | t1[c]) >> r) & 1:
                run -= 1               # the cell right under the threat is not free
                break
            run += 1
            r += 1
            while r < h and (blocked[c] >> r) & 1:
                r += 1
        if run > 0:
            free += run
    return free


@njit(cache=True, nogil=True)
def lowest_threat(top, t0, t1, blocked, c, h):
    """Column c's lowest threat row (either colour), h when none."""
    r = top[c]
    while r < h:
        if ((t0[c] | t1[c]) >> r) & 1:
            return r
        r += 1
        while r < h and (blocked[c] >> r) & 1:
            r += 1
    return h


@njit(cache=True, nogil=True)
def zugzwang_rule(top, t0, t1, blocked, w, h, mover):
    """The zugzwang game on column tops ``top`` and threat bits ``t0``/``t1`` (changed in
    place), ``mover`` to move: DRAW or the winner.  The side that runs out of free cells gives
    up its own threats, lowest first, until it wins on a stacked pair, gets free cells of a
    new parity, or has none left to give (it loses); no threat left: a draw.  (A loop, not a
    search: numba's cache does not keep recursive functions.)"""
    for _ in range(4 * w * h):
        free = free_cells_of(top, t0, t1, blocked, w, h)
        z = mover if free % 2 == 0 else 1 - mover    # the side to move once they are filled
        pick = -1
        pick_low = h
        any_threat = False
        for c in range(w):
            low = lowest_threat(top, t0, t1, blocked, c, h)
            if low >= h:
                top[c] = h                            # no threat: filled to the top
                continue
            r = low - 1                               # filled up to the cell under the threat
            while r > top[c] and (blocked[c] >> r) & 1:
                r -= 1
            if r > top[c]:
                top[c] = r
            any_threat = True
            own = ((t0[c] if z == 0 else t1[c]) >> low) & 1
            other = ((t1[c] if z == 0 else t0[c]) >> low) & 1
            if own and not other and low < pick_low:
                pick = c
                pick_low = low
        if not any_threat:
            return DRAW
        if pick < 0:
            return 1 - z                              # only the opponent's threats are left
        # z plays right under its threat, the opponent blocks on it, z moves again
        c = pick
        clear = ~(np.int64(1) << pick_low)
        t0[c] &= clear
        t1[c] &= clear
        up = pick_low + 1
        while up < h and (blocked[c] >> up) & 1:
            up += 1
        top[c] = up
        mover = z
        if up < h:
            if ((t0[c] if z == 0 else t1[c]) >> up) & 1:
                return z                              # stacked: z wins on top of the block
            if ((t1[c] if z == 0 else t0[c]) >> up) & 1:
                t0[c] &= ~(np.int64(1) << up)         # z must take the cell the block made
                t1[c] &= ~(np.int64(1) << up)         # the opponent's threat
                up += 1
                while up < h and (blocked[c] >> up) & 1:
                    up += 1
                top[c] = up
                mover = 1 - z
    return UNKNOWN
