"""Tic-tac-toe rules as numba functions over the flat state array (see ``games/layout.py``).

The worked example of ``docs/adding_a_game.md``: the smallest complete kernel, a plain array of
cells and a move history, no bitboards.  Board index layout for a W×H board (here the standard
3×3), cell = row * W + col, ``a1`` is cell 0 (rows counted from the top)::

          a   b   c
      1   0 | 1 | 2
         ---+---+---
      2   3 | 4 | 5
         ---+---+---
      3   6 | 7 | 8

Tic-tac-toe data in the state array (N = W*H)::

    [HEADER, +N)     cells: 0 empty, 1 black (X, moves first), 2 white (O)
    --- POS_LEN ---
    [HIST, +N)       cell played at each ply
    [HIST+N, +N)     the last move before each ply (restored by undo)

A move is a cell index 0..N-1.  Three stones of one colour in a row -- across, down or along a
diagonal -- win (four or more count too, on boards larger than 3×3); a full board without one
is a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import (
    encode_cell_planes,
    new_state_array,
    DRAW, GAME_TICTACTOE, HASH, HEADER, HEIGHT, HIST, LAST_MOVE, NO_WINNER,
    NUM_ACTIONS, PLY, WIDTH, WINNER, rng_below, zobrist_key,
)

IN_A_ROW = 3                                     # stones in a line that win
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))   # (dr, dc): across, down, both diagonals
MAX_SIDE = 26                                    # column letters a..z


def ttt_state_size(w: int, h: int) -> int:
    return HEADER + 3 * w * h


def new_ttt_state(w: int, h: int) -> np.ndarray:
    """A fresh empty tic-tac-toe position."""
    n = w * h
    return new_state_array(ttt_state_size(w, h), GAME_TICTACTOE, w, h, num_actions=n,
                           pos_len=HEADER + n)


@njit(cache=True, nogil=True)
def makes_line(cells, base, w, h, cell, v):
    """True if a stone ``v`` (1 black, 2 white) on ``cell`` would be part of ``IN_A_ROW`` in a
    row of ``v``; ``cells[base + i]`` holds cell ``i`` (``cell`` itself is not read).

    The one win test: the kernel (``base`` = HEADER) and the playout's scratch copy (``base``
    = 0) both use it, so a playout and ``apply`` can never disagree on who won.
    """
    r = cell // w
    c = cell - r * w
    for dr, dc in DIRECTIONS:
        run = 1
        rr = r + dr
        cc = c + dc
        while 0 <= rr < h and 0 <= cc < w and cells[base + rr * w + cc] == v:
            run += 1
            rr += dr
            cc += dc
        rr = r - dr
        cc = c - dc
        while 0 <= rr < h and 0 <= cc < w and cells[base + rr * w + cc] == v:
            run += 1
            rr -= dr
            cc -= dc
        if run >= IN_A_ROW:
            return True
    return False


@njit(cache=True, nogil=True)
def ttt_is_legal(state, move):
    if state[WINNER] != NO_WINNER:
        return False
    if move < 0 or move >= state[NUM_ACTIONS]:
        return False
    return state[HEADER + move] == 0


@njit(cache=True, nogil=True)
def ttt_legal_moves(state, out):
    """Write the empty cells into ``out`` and return how many (none once the game is over)."""
    if state[WINNER] != NO_WINNER:
        return 0
    k = 0
    for i in range(state[NUM_ACTIONS]):
        if state[HEADER + i] == 0:
            out[k] = i
            k += 1
    return k


@njit(cache=True, nogil=True)
def ttt_wins_if_played(state, move, colour):
    """True if a ``colour`` stone on the empty cell ``move`` would make three in a row."""
    if state[HEADER + move] != 0:
        return False
    return makes_line(state, HEADER, state[WIDTH], state[HEIGHT], move, colour + 1)


@njit(cache=True, nogil=True)
def ttt_winning_moves(state, colour, out):
    """Every empty cell where a ``colour`` stone makes three in a row; written to ``out``."""
    w = state[WIDTH]
    h = state[HEIGHT]
    k = 0
    for i in range(w * h):
        if state[HEADER + i] == 0 and makes_line(state, HEADER, w, h, i, colour + 1):
            out[k] = i
            k += 1
    return k


@njit(cache=True, nogil=True)
def ttt_apply(state, move):
    """Put a stone of the side to move on the empty cell ``move`` (assumed legal)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    ply = state[PLY]
    colour = ply & 1
    state[HEADER + move] = colour + 1
    state[HASH] ^= zobrist_key(GAME_TICTACTOE, move, colour) ^ zobrist_key(GAME_TICTACTOE, 0, 2)
    if makes_line(state, HEADER, w, h, move, colour + 1):
        state[WINNER] = colour
    elif ply + 1 == n:
        state[WINNER] = DRAW
    state[state[HIST] + ply] = move
    state[state[HIST] + n + ply] = state[LAST_MOVE]
    state[PLY] = ply + 1
    state[LAST_MOVE] = move


@njit(cache=True, nogil=True)
def ttt_undo(state):
    """Take back the last move; returns its cell."""
    n = state[WIDTH] * state[HEIGHT]
    ply = state[PLY] - 1
    colour = ply & 1
    move = state[state[HIST] + ply]
    state[HEADER + move] = 0
    state[HASH] ^= zobrist_key(GAME_TICTACTOE, move, colour) ^ zobrist_key(GAME_TICTACTOE, 0, 2)
    state[WINNER] = NO_WINNER
    state[PLY] = ply
    state[LAST_MOVE] = state[state[HIST] + n + ply]
    return move


@njit(cache=True, nogil=True)
def _ttt_playout(state, rng, work, owner):
    """The one playout loop: returns (winner, length), ``length`` = 1 + the moves it played.

    Plays on a copy of the cells in ``work[0:N]`` with the empty cells listed in ``work[N:2N]``
    (a played cell is swapped out of the list), so ``state`` is only read.
    """
    played = np.int64(1)
    if state[WINNER] != NO_WINNER:
        return state[WINNER], played
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    k = 0
    for i in range(n):
        work[i] = state[HEADER + i]
        if work[i] == 0:
            work[n + k] = i
            k += 1
    track = owner.shape[0] >= n
    if track:
        for i in range(n):
            owner[i] = -1
    mover = state[PLY] & 1
    while k > 0:
        idx = rng_below(rng, k)
        cell = work[n + idx]
        k -= 1
        work[n + idx] = work[n + k]
        work[cell] = mover + 1
        played += 1
        if track:
            owner[cell] = mover
        if makes_line(work, 0, w, h, cell, mover + 1):
            return mover, played
        mover = 1 - mover
    return DRAW, played


@njit(cache=True, nogil=True)
def ttt_playout(state, rng, work, owner):
    """Uniformly random moves until the game ends; returns the winner, ``state`` unchanged.

    ``work``: int64 scratch of length >= 2N (``len(state)`` is 3N + HEADER).  If ``owner`` has
    length N it receives the colour that played each cell in the playout (-1 for the cells it
    did not play: taken before, or still empty when the game ended): the AMAF statistic.
    """
    return _ttt_playout(state, rng, work, owner)[0]


# --- hooks for flat Monte Carlo and brute force (engines/rollout/kernel.py) -------------------


@njit(cache=True, nogil=True)
def ttt_playout_quality(state, rng, work):
    """Random playout scored for the quality score: returns (winner, length).

    ``length`` counts the moves from the position *before* ``state``: 1 + the moves this
    playout plays (as Connect Four's: a candidate that wins at once has length 1).
    """
    return _ttt_playout(state, rng, work, work[:0])


@njit(cache=True, nogil=True)
def ttt_free_cells(state):
    """Number of empty cells."""
    return state[WIDTH] * state[HEIGHT] - state[PLY]


@njit(cache=True, nogil=True)
def ttt_symmetric(state):
    """True if the position is its own left-right mirror image (column c <-> W-1-c)."""
    w = state[WIDTH]
    for r in range(state[HEIGHT]):
        for c in range(w // 2):
            if state[HEADER + r * w + c] != state[HEADER + r * w + w - 1 - c]:
                return False
    return True


@njit(cache=True, nogil=True)
def ttt_symmetric_move(state, move):
    """Image of cell ``move`` under the left-right mirror."""
    w = state[WIDTH]
    r = move // w
    return r * w + (w - 1 - (move - r * w))


@njit(cache=True, nogil=True)
def ttt_encode_planes(state, out):
    """The network's input planes (``games/kernel.py: encode_planes``): ``out[p, y, x]`` for the
    cell of row y (top row first) and column x: 0 the side to move's stones, 1 the opponent's,
    2 empty cells, 3 blocked (none), 4 ones, 5 swap (none)."""
    encode_cell_planes(state, out)
