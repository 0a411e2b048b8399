"""Static evaluators of Connect Four positions for the minimax engines (``engines/alphabeta/``).

Each returns a score from the side to move's view (positive = good for the player to move), a
few hundred at most, far below the search's win score.  Both work on the kernel's bitboards
(``connect4/kernel.py``: bit ``col * (H+1) + row``, a pad bit on top of every column):

* ``lines``: for each player, the windows of four cells on a line (any
  direction) that hold none of the opponent's stones -- a window with 3 own stones is an open
  three-link, with 2 an open two-link; a window touching an opponent stone is blocked and counts
  nothing -- plus stones in the centre column, which lie on the most windows.  Counted for all
  windows at once with bit-sliced adders over shifted bitboards.
* ``threats``: ``lines`` plus odd/even threat analysis: an empty cell that would complete four is
  a threat; the first player's threats on odd rows (1st, 3rd, 5th from the bottom) and the second
  player's on even rows are the ones that decide endgames under zugzwang, so they weigh most.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.kernel import BOARD, BOTTOM, OCCUPIED, STONES, _threat_cells
from boardai.games.layout import popcount
from boardai.games.layout import HEIGHT, PLY, WIDTH

LINES = 0
THREATS = 1
EVALUATORS = {
    "lines": (LINES, "open two- and three-links (windows of four free of the opponent) and the "
                     "centre column"),
    "threats": (THREATS, "lines plus odd/even threat analysis: threats on the rows that decide "
                         "zugzwang endgames weigh most"),
}
DEFAULT = "threats"

W_THREE = 8.0
W_TWO = 2.0
W_CENTRE = 3.0
W_GOOD_THREAT = 24.0
W_OTHER_THREAT = 6.0


@njit(cache=True, nogil=True)
def _links(p, o, board, s):
    """(three-links, two-links) of stones ``p`` in direction ``s`` not blocked by ``o``."""
    s2 = s + s
    s3 = s2 + s
    valid = board & (board >> s) & (board >> s2) & (board >> s3)
    free = valid & ~(o | (o >> s) | (o >> s2) | (o >> s3))
    a0 = p
    a1 = p >> s
    a2 = p >> s2
    a3 = p >> s3
    x = a0 ^ a1
    c1 = a0 & a1
    y = a2 ^ a3
    c2 = a2 & a3
    s0 = x ^ y                       # window sum = s0 + 2 * (c1 + c2 + x&y)
    three = s0 & (c1 ^ c2)
    two = ~s0 & ((x & y) | (c1 ^ c2))
    return popcount(three & free), popcount(two & free)


@njit(cache=True, nogil=True)
def _line_score(p, o, board, w, h):
    one = np.uint64(1)
    t, d = _links(p, o, board, one)
    threes = t
    twos = d
    if w >= 4:
        stride = np.uint64(h + 1)
        for s in (stride, stride - one, stride + one):
            t, d = _links(p, o, board, s)
            threes += t
            twos += d
    return W_THREE * threes + W_TWO * twos


@njit(cache=True, nogil=True)
def c4_evaluate(state, ev):
    """Score of the position for the side to move with evaluator ``ev`` (LINES or THREATS)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    me = state[PLY] & 1
    mine = np.uint64(state[STONES + me])
    theirs = np.uint64(state[STONES + 1 - me])
    board = np.uint64(state[BOARD])
    score = _line_score(mine, theirs, board, w, h) - _line_score(theirs, mine, board, w, h)
    if w & 1:
        centre = (np.uint64(1) << np.uint64(h)) - np.uint64(1)
        centre <<= np.uint64((w // 2) * (h + 1))
        score += W_CENTRE * (popcount(mine & centre) - popcount(theirs & centre))
    if ev == THREATS:
        empty = board & ~np.uint64(state[OCCUPIED])
        bottom = np.uint64(state[BOTTOM])
        odd_rows = np.uint64(0)             # rows 1, 3, 5, ... counted from the bottom
        for r in range(0, h, 2):
            odd_rows |= bottom << np.uint64(r)
        first = np.uint64(state[STONES])
        second = np.uint64(state[STONES + 1])
        t1 = _threat_cells(first, h, w) & empty
        t2 = _threat_cells(second, h, w) & empty
        v = (W_GOOD_THREAT * popcount(t1 & odd_rows) + W_OTHER_THREAT * popcount(t1 & ~odd_rows)
             - W_GOOD_THREAT * popcount(t2 & ~odd_rows) - W_OTHER_THREAT * popcount(t2 & odd_rows))
        score += v if me == 0 else -v
    return score


@njit(cache=True, nogil=True)
def c4_move_prior(state, move):
    """Ordering hint: central columns first."""
    c2 = 2 * move - (state[WIDTH] - 1)
    return -abs(c2)
