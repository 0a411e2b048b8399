"""The static evaluator of tic-tac-toe positions for the minimax engines (``engines/alphabeta/``).

One evaluator, enough for ``minimax`` and ``alphabeta`` to play at any depth (a 3×3 game is
searched to the end anyway, where the evaluator is never asked):

* ``lines``: every window of three cells on a line (across, down, diagonal) that holds none of
  the opponent's stones is open for a player and counts 1 + the player's stones in it; the
  score is my open windows minus the opponent's, from the side to move's view.  On the empty
  3×3 board both sides have 8 and the score is 0; it stays within a few dozen on 3×3.

``move_prior`` orders moves by the number of windows through the cell: the centre (4 on 3×3)
first, then the corners (3), then the edges (2).
"""

from __future__ import annotations

from numba import njit

from boardai.games.layout import HEADER, HEIGHT, PLY, WIDTH
from boardai.games.tictactoe.kernel import DIRECTIONS, IN_A_ROW

LINES = 0
EVALUATORS = {
    "lines": (LINES, "windows of three free of the opponent's stones, each worth 1 + own stones "
                     "in it, mine minus the opponent's"),
}
DEFAULT = "lines"


@njit(cache=True, nogil=True)
def ttt_evaluate(state, ev):
    """Score of the position for the side to move (``ev``: LINES, the only evaluator)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    mine = (state[PLY] & 1) + 1             # cell value of the side to move's stones
    score = 0
    for r in range(h):
        for c in range(w):
            for dr, dc in DIRECTIONS:
                er = r + (IN_A_ROW - 1) * dr
                ec = c + (IN_A_ROW - 1) * dc
                if er < 0 or er >= h or ec < 0 or ec >= w:
                    continue                # the window runs off the board
                own = 0
                other = 0
                for s in range(IN_A_ROW):
                    v = state[HEADER + (r + s * dr) * w + c + s * dc]
                    if v == mine:
                        own += 1
                    elif v != 0:
                        other += 1
                if other == 0:
                    score += 1 + own
                if own == 0:
                    score -= 1 + other
    return float(score)


@njit(cache=True, nogil=True)
def ttt_move_prior(state, move):
    """Ordering hint: the number of windows of three through the cell (centre first)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    r = move // w
    c = move - r * w
    count = 0
    for dr, dc in DIRECTIONS:
        for back in range(IN_A_ROW):        # the window starts ``back`` steps behind the cell
            sr = r - back * dr
            sc = c - back * dc
            er = sr + (IN_A_ROW - 1) * dr
            ec = sc + (IN_A_ROW - 1) * dc
            if 0 <= sr < h and 0 <= sc < w and 0 <= er < h and 0 <= ec < w:
                count += 1
    return count
