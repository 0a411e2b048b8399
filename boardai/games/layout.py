"""The flat state array every game kernel works on: header slots and shared helpers.

A position is one 1-D ``int64`` numpy array.  Its first ``HEADER`` slots are the same for every
game, so game-agnostic search code (MCTS, alpha-beta, playouts) reads side to move, winner, hash
and sizes without knowing which game it is playing::

    state[0:HEADER]                       common header (slots below)
    state[HEADER:state[POS_LEN]]          the game's own position data (cells, bitboards, ...)
    state[state[POS_LEN]:len(state)]      undo data: move history and per-move journal

Copying ``state[:state[POS_LEN]]`` into another array of the same length clones the position for
forward play (what a tree search does at every simulation).  The undo area is only valid for
moves applied after such a copy.

The random generator is splitmix64 over a one-element ``uint64`` array, so every jitted loop
can carry its own seeded stream (numba's global ``np.random`` state is per thread and cannot be
seeded per search).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- header slots -------------------------------------------------------------------------
GAME = 0        # game id: GAME_HEX, GAME_CONNECT4 or GAME_TICTACTOE
WIDTH = 1       # board width (columns)
HEIGHT = 2      # board height (rows)
PLY = 3         # moves played so far; side to move is PLY & 1 (0 = Black/first, 1 = White)
WINNER = 4      # NO_WINNER, BLACK, WHITE or DRAW
HASH = 5        # Zobrist hash of the position (int64 view of a uint64)
NUM_ACTIONS = 6 # size of the action space: moves are ints in [0, NUM_ACTIONS)
POS_LEN = 7     # length of the prefix that holds the whole position (see module docstring)
FLAGS = 8       # game options and layouts as bits (FLAG_SWAP, FLAG_C4_LINES)
LAST_MOVE = 9   # last move played, -1 at the start
HIST = 10       # offset of the move history (one slot per ply) in the undo area
JOURNAL = 11    # offset of the game's undo journal in the undo area (0 when unused)
HEADER = 16     # first slot of the game's own data

GAME_HEX = 0
GAME_CONNECT4 = 1
GAME_TICTACTOE = 2

NO_WINNER = -1
BLACK = 0
WHITE = 1
DRAW = 2

FLAG_SWAP = 1          # Hex: the swap rule is on
FLAG_C4_LINES = 2      # Connect Four: the line-word layout (connect4/wide.py), not one word

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def mix64(z):
    """splitmix64's finaliser: a well-mixed 64-bit function of a 64-bit input."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def zobrist_key(game, slot, colour):
    """Zobrist key of a stone of ``colour`` on ``slot``; colour 2 is the side-to-move key."""
    return np.int64(mix64(np.uint64(game * 1_000_003 + slot * 3 + colour + 1) * _GOLDEN))


@njit(cache=True, nogil=True)
def rng_next(rng):
    """Next 64 random bits from the splitmix64 stream held in ``rng[0]`` (uint64 array)."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


@njit(cache=True, nogil=True)
def rng_below(rng, n):
    """A random int in [0, n) (multiply-shift on 32 random bits; bias < n / 2**32)."""
    r = rng_next(rng) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


def new_state_array(length: int, game: int, width: int, height: int, num_actions: int,
                    pos_len: int, journal: int = 0, flags: int = 0) -> np.ndarray:
    """A zeroed state of ``length`` slots with the common header of a fresh game: no moves, no
    winner, hash 0, the move history starting at ``pos_len`` (right after the position)."""
    state = np.zeros(length, dtype=np.int64)
    state[GAME] = game
    state[WIDTH] = width
    state[HEIGHT] = height
    state[WINNER] = NO_WINNER
    state[NUM_ACTIONS] = num_actions
    state[POS_LEN] = pos_len
    state[FLAGS] = flags
    state[LAST_MOVE] = -1
    state[HIST] = pos_len
    state[JOURNAL] = journal
    return state


def new_rng(seed: int | None) -> np.ndarray:
    """A generator state for the jitted loops; ``None`` draws a seed from the OS."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy) & ((1 << 64) - 1)
    return np.array([seed & ((1 << 64) - 1)], dtype=np.uint64)


@njit(cache=True, nogil=True)
def popcount(x):
    """Set bits of a uint64 (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


# --- the network's input planes (games/kernel.py: encode_planes) ----------------------------
@njit(cache=True, nogil=True)
def put_spot(out, y, x, v, mine):
    """Mark spot (x, y) of value ``v`` (0 empty, 1/2 a colour's stone, 3 blocked) in the
    planes: 0 the side to move's (``mine``) stones, 1 the opponent's, 2 empty, 3 blocked,
    4 the board."""
    if v == 0:
        out[2, y, x] = 1.0
    elif v == 3:
        out[3, y, x] = 1.0
    elif v == mine:
        out[0, y, x] = 1.0
    else:
        out[1, y, x] = 1.0
    out[4, y, x] = 1.0


@njit(cache=True, nogil=True)
def encode_cell_planes(state, out):
    """Planes 0-4 of a game whose cells sit row-major after the header (top row first);
    plane 5 is left 0 (the caller sets it)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    mine = (state[PLY] & 1) + 1
    out[:] = 0.0
    for y in range(h):
        for x in range(w):
            put_spot(out, y, x, state[HEADER + y * w + x], mine)
