"""Plain numba playouts: the honest references our kernel playouts are measured against.

They are written the way a competent person writes a first numba playout, with no tricks:

* Hex, "fill then flood fill": copy the cells (0 empty, 1 black, 2 white, row-major W*H),
  ``np.random.shuffle`` the empty cells, give them out alternately starting with the side to
  move, then a stack flood fill over cells from Black's stones on the top row, with the
  6-neighbour rule, to see whether Black reaches the bottom row (a full Hex board has exactly one
  winner, so otherwise White wins).
* Connect Four, "plain bitboard": two uint64 bitboards with one pad bit per column
  (bit = col*(H+1) + row), a heights array, a random column by ``np.random.randint`` redrawn
  until it is not full, the usual shift test for four in a row, a draw on a full board.

Results are BLACK (0), WHITE (1) or DRAW (2), as in ``boardai.games.layout``.  The random
generator is numba's own ``np.random`` (per thread), seeded by ``plain_seed`` inside jitted code.

``bench_plain_playouts`` times them with the same loop as ``boardai.bench.speed.bench_playouts``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.bench.speed import run_timed, summarise
from boardai.games import game_name

BLACK = 0
WHITE = 1
DRAW = 2


@njit(cache=True, nogil=True)
def plain_seed(seed):
    """Seed numba's np.random for the calling thread."""
    np.random.seed(seed)


# --- Hex: fill then flood fill ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def plain_hex_playout(cells, w, h, mover):
    """Fill the empty cells at random (``mover`` = 0 Black / 1 White plays first); the winner."""
    board = cells.copy()
    empties = np.flatnonzero(board == 0)
    np.random.shuffle(empties)
    colour = mover + 1
    for cell in empties:
        board[cell] = colour
        colour = 3 - colour
    # flood fill over Black's stones from the top row
    n = w * h
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for c in range(w):
        if board[c] == 1:
            seen[c] = True
            stack[top] = c
            top += 1
    while top > 0:
        top -= 1
        cell = stack[top]
        r = cell // w
        c = cell % w
        if r == h - 1:
            return BLACK
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
            if 0 <= rr < h and 0 <= cc < w:
                nb = rr * w + cc
                if board[nb] == 1 and not seen[nb]:
                    seen[nb] = True
                    stack[top] = nb
                    top += 1
    return WHITE


@njit(cache=True, nogil=True)
def plain_hex_batch(cells, w, h, mover, count):
    """``count`` Hex playouts from ``cells``; wins per result [black, white, draw]."""
    totals = np.zeros(3, dtype=np.int64)
    for _ in range(count):
        totals[plain_hex_playout(cells, w, h, mover)] += 1
    return totals


# --- Connect Four: plain bitboard -------------------------------------------------------------
@njit(cache=True, nogil=True)
def plain_four(b, h):
    """True if the uint64 bitboard ``b`` (columns of h+1 bits) holds four in a row."""
    for s in (1, h, h + 1, h + 2):          # vertical, diagonal /, horizontal, diagonal \
        m = b & (b >> np.uint64(s))
        if m & (m >> np.uint64(2 * s)):
            return True
    return False


@njit(cache=True, nogil=True)
def plain_c4_playout(w, h):
    """A uniformly random Connect Four game from the empty ``w`` x ``h`` board; the winner."""
    boards = np.zeros(2, dtype=np.uint64)
    heights = np.zeros(w, dtype=np.int64)
    player = 0
    for _ in range(w * h):
        col = np.random.randint(0, w)
        while heights[col] == h:
            col = np.random.randint(0, w)
        bit = np.uint64(1) << np.uint64(col * (h + 1) + heights[col])
        heights[col] += 1
        boards[player] |= bit
        if plain_four(boards[player], h):
            return player
        player = 1 - player
    return DRAW


@njit(cache=True, nogil=True)
def plain_c4_batch(w, h, count):
    """``count`` Connect Four playouts from the empty board; wins per result [black, white, draw]."""
    totals = np.zeros(3, dtype=np.int64)
    for _ in range(count):
        totals[plain_c4_playout(w, h)] += 1
    return totals


def bench_plain_playouts(game: str, width: int, height: int, seconds: float, threads: int = 1,
                         seed: int = 0) -> dict:
    """Time the plain reference from the empty board; same keys as ``bench_playouts``."""
    game = game_name(game)
    cells = np.zeros(width * height, dtype=np.int64)

    def make_worker(i: int):
        plain_seed(seed + i)            # numba's np.random state belongs to the calling thread
        if game == "hex":
            return lambda count: plain_hex_batch(cells, width, height, BLACK, count)
        return lambda count: plain_c4_batch(width, height, count)

    timed = run_timed(make_worker, seconds, threads)
    return summarise(game, width, height, threads, timed, impl="plain")


if __name__ == "__main__":
    from boardai.bench.speed import format_playouts

    for args in (("hex", 11, 11), ("connect4", 7, 6)):
        print(format_playouts(bench_plain_playouts(*args, seconds=1.0)))
