"""The kernel contract: game-agnostic jitted entry points that dispatch on the game id.

Every search engine (MCTS, alpha-beta, flat Monte Carlo, ...) is written against these functions
only, never against Hex or Connect Four directly.  They take the flat ``int64`` state array of
``games/layout.py``; dispatching on ``state[GAME]`` inside one jitted function (instead of passing
jitted functions around) keeps numba's on-disk cache working, so a new process compiles nothing.

=====================================  ==============================================================
``apply_move(state, move)``            play a legal move for the side to move (no checking)
``undo_move(state) -> move``           take back the last move
``is_legal(state, move) -> bool``      move legality (False once the game is over)
``legal_moves(state, out) -> n``       legal moves written to ``out[:n]`` (len >= NUM_ACTIONS)
``playout(state, rng, work, owner)``   random game to the end from ``state`` (left unchanged);
                                       returns BLACK, WHITE or DRAW.  ``work``: int64 scratch of
                                       ``len(state)``; ``owner``: AMAF colours or an empty array
``playout_policy(..., policy)``        the same with a game policy (1: Hex saves bridges,
                                       2: Connect Four takes wins and blocks threats)
``copy_position(src, dst)``            clone a position for forward play (``dst`` same length)
``wins_if_played(state, move, colour)`` would ``colour`` win at once by playing ``move`` (a legal
                                       cell/column; either colour, whoever is to move)?
``winning_moves(state, colour, out)``  all such moves at once, written to ``out``; returns count.
                                       Blocking a threat means playing on the same action (true
                                       for both games), which MCTS's must-block check relies on.
=====================================  ==============================================================

Read-only facts come straight from the header: ``state[PLY] & 1`` is the side to move,
``state[WINNER]`` the result so far, ``state[HASH]`` the Zobrist hash, ``state[NUM_ACTIONS]`` the
size of the action space.  A tiny worked example of the contract is in ``docs/architecture.md``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.kernel import (
    c4_apply, c4_is_legal, c4_legal_moves, c4_playout, c4_playout_tactical, c4_undo, c4_winning_moves, c4_wins_if_played,
    new_c4_state,
)
from boardai.games.hex.kernel import (
    hex_apply, hex_is_legal, hex_legal_moves, hex_playout, hex_playout_bridge, hex_undo,
    hex_winning_moves,
    hex_wins_if_played, new_hex_state,
)
from boardai.games.layout import GAME, GAME_CONNECT4, GAME_HEX, POS_LEN

def new_state(game: int, width: int, height: int, swap: bool = False) -> np.ndarray:
    """A fresh state array for ``game`` (GAME_HEX or GAME_CONNECT4)."""
    if game == GAME_HEX:
        return new_hex_state(width, height, swap)
    if game == GAME_CONNECT4:
        return new_c4_state(width, height)
    raise ValueError(f"unknown game id {game}")


@njit(cache=True, nogil=True)
def apply_move(state, move):
    if state[GAME] == GAME_HEX:
        hex_apply(state, move)
    else:
        c4_apply(state, move)


@njit(cache=True, nogil=True)
def undo_move(state):
    if state[GAME] == GAME_HEX:
        return hex_undo(state)
    return c4_undo(state)


@njit(cache=True, nogil=True)
def is_legal(state, move):
    if state[GAME] == GAME_HEX:
        return hex_is_legal(state, move)
    return c4_is_legal(state, move)


@njit(cache=True, nogil=True)
def legal_moves(state, out):
    if state[GAME] == GAME_HEX:
        return hex_legal_moves(state, out)
    return c4_legal_moves(state, out)


@njit(cache=True, nogil=True)
def playout(state, rng, work, owner):
    if state[GAME] == GAME_HEX:
        return hex_playout(state, rng, work, owner)
    return c4_playout(state, rng, work, owner)


@njit(cache=True, nogil=True)
def wins_if_played(state, move, colour):
    if state[GAME] == GAME_HEX:
        return hex_wins_if_played(state, move, colour)
    return c4_wins_if_played(state, move, colour)


@njit(cache=True, nogil=True)
def winning_moves(state, colour, out):
    if state[GAME] == GAME_HEX:
        return hex_winning_moves(state, colour, out)
    return c4_winning_moves(state, colour, out)


@njit(cache=True, nogil=True)
def playout_policy(state, rng, work, owner, policy):
    """``playout`` with a game policy: 0 uniform; 1 Hex saves bridges; 2 Connect Four takes wins
    and blocks threats.  A policy the game lacks means uniform.  ``work``: len(state) + 64."""
    if state[GAME] == GAME_HEX:
        if policy == 1:
            return hex_playout_bridge(state, rng, work, owner)
        return hex_playout(state, rng, work, owner)
    if policy == 2:
        return c4_playout_tactical(state, rng, work, owner)
    return c4_playout(state, rng, work, owner)


@njit(cache=True, nogil=True)
def copy_position(src, dst):
    for i in range(src[POS_LEN]):
        dst[i] = src[i]


@njit(cache=True, nogil=True)
def playout_batch(state, rng, count):
    """Run ``count`` playouts from ``state``; returns wins per result [black, white, draw]."""
    work = np.empty(state.shape[0], dtype=np.int64)
    no_owner = np.empty(0, dtype=np.int64)
    totals = np.zeros(3, dtype=np.int64)
    for _ in range(count):
        totals[playout(state, rng, work, no_owner)] += 1
    return totals


# --- hooks for flat Monte Carlo and brute force (engines/rollout_kernel.py) -------------------
#
# =======================================  ==========================================================
# ``playout_quality(state, rng, work)``    random playout scored for seed 000's quality: returns
#                                          (winner, length), the quality being 1/length.  Hex:
#                                          cells of the winner's shortest chain on the filled
#                                          board; Connect Four: moves from the position before
#                                          ``state`` (1 + the playout's moves).  ``work`` as for
#                                          ``playout``.
# ``free_cells(state)``                    empty cells (Connect Four: the most moves left)
# ``position_symmetric(state)``            the position is its own image under the board's
#                                          symmetry (Hex: 180-degree rotation, Connect Four:
#                                          left-right mirror), so mirrored moves are worth the same
# ``symmetric_move(state, move)``          a move's image under that symmetry
# ``fill_cells(state, out)``               the game is a *fill-in* game (uniformly random play is
#                                          a uniformly random split of the empty cells, the side
#                                          to move getting ceil(k/2)): write the empty cells to
#                                          ``out`` and return k; -1 if not (Connect Four: gravity)
# ``fill_load/fill_set/fill_connects/      a fill-in in progress on a scratch ``fill`` (int64 of
#   fill_length``                          ``len(state)``): start from the position, give/take back
#                                          a cell, does a colour connect (with only its stones, or
#                                          with all unassigned cells too), its shortest chain
# ``fill_rank(state, rank)``               the order to assign cells in (lowest ``rank`` first)
# =======================================  ==========================================================

from boardai.games.connect4.kernel import (  # noqa: E402
    c4_free_cells, c4_playout_quality, c4_symmetric, c4_symmetric_move,
)
from boardai.games.hex.kernel import (  # noqa: E402
    hex_fill_cells, hex_fill_connects, hex_fill_length, hex_fill_load, hex_fill_rank, hex_fill_set,
    hex_free_cells, hex_playout_quality, hex_symmetric, hex_symmetric_move,
)


@njit(cache=True, nogil=True)
def playout_quality(state, rng, work):
    if state[GAME] == GAME_HEX:
        return hex_playout_quality(state, rng, work)
    return c4_playout_quality(state, rng, work)


@njit(cache=True, nogil=True)
def free_cells(state):
    if state[GAME] == GAME_HEX:
        return hex_free_cells(state)
    return c4_free_cells(state)


@njit(cache=True, nogil=True)
def position_symmetric(state):
    if state[GAME] == GAME_HEX:
        return hex_symmetric(state)
    return c4_symmetric(state)


@njit(cache=True, nogil=True)
def symmetric_move(state, move):
    if state[GAME] == GAME_HEX:
        return hex_symmetric_move(state, move)
    return c4_symmetric_move(state, move)


@njit(cache=True, nogil=True)
def fill_cells(state, out):
    if state[GAME] == GAME_HEX:
        return hex_fill_cells(state, out)
    return -1


@njit(cache=True, nogil=True)
def fill_load(state, fill):
    if state[GAME] == GAME_HEX:
        hex_fill_load(state, fill)


@njit(cache=True, nogil=True)
def fill_set(state, fill, cell, colour, on):
    if state[GAME] == GAME_HEX:
        hex_fill_set(state, fill, cell, colour, on)


@njit(cache=True, nogil=True)
def fill_connects(state, fill, colour, with_free):
    if state[GAME] == GAME_HEX:
        return hex_fill_connects(state, fill, colour, with_free)
    return False


@njit(cache=True, nogil=True)
def fill_length(state, fill, colour, with_free):
    if state[GAME] == GAME_HEX:
        return hex_fill_length(state, fill, colour, with_free)
    return 0


@njit(cache=True, nogil=True)
def fill_rank(state, rank):
    if state[GAME] == GAME_HEX:
        hex_fill_rank(state, rank)
