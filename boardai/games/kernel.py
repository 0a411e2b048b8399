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
``playout_policy(..., policy)``        the same with one of the game's own playout policies
                                       (0 uniform; the game's description names the others)
``copy_position(src, dst)``            clone a position for forward play (``dst`` same length)
``wins_if_played(state, move, colour)`` would ``colour`` win at once by playing ``move`` (a legal
                                       cell/column; either colour, whoever is to move)?
``winning_moves(state, colour, out)``  all such moves at once, written to ``out``; returns count.
                                       Blocking a threat means playing on the same action (true
                                       for both games), which MCTS's must-block check relies on.
=====================================  ==============================================================

Read-only facts come straight from the header: ``state[PLY] & 1`` is the side to move,
``state[WINNER]`` the result so far, ``state[HASH]`` the Zobrist hash, ``state[NUM_ACTIONS]`` the
size of the action space.

Every function branches on ``state[GAME]`` and names each game: adding a game is one branch per
function (``docs/adding_a_game.md``), and a state of an unknown game raises instead of falling
through to some other game's rules.  Games that lack a hook (a game with no fill-in structure,
no static evaluator) answer in their branch what the hook's docstring says "not available" is.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.eval import c4_evaluate, c4_move_prior
from boardai.games.connect4.kernel import (
    c4_apply, c4_encode_planes, c4_free_cells, c4_is_legal, c4_legal_moves, c4_playout,
    c4_playout_quality, c4_playout_tactical, c4_symmetric, c4_symmetric_move, c4_undo,
    c4_winning_moves, c4_wins_if_played, fits_one_word, new_c4_state,
)
from boardai.games.hex.eval import hex_evaluate, hex_move_prior
from boardai.games.hex.patterns import hex_pattern_gammas
from boardai.games.hex.fill import (
    hex_fill_cells, hex_fill_connects, hex_fill_length, hex_fill_load, hex_fill_rank,
    hex_fill_set, hex_playout_quality,
)
from boardai.games.hex.kernel import (
    hex_apply, hex_free_cells, hex_is_legal, hex_legal_moves, hex_symmetric, hex_symmetric_move,
    hex_undo, hex_winning_moves, hex_wins_if_played, new_hex_state,
)
from boardai.games.hex.planes import hex_encode_planes
from boardai.games.hex.playouts import hex_playout, hex_playout_bridge, hex_playout_local
from boardai.games.connect4.wide import (
    zugzwang as wide_zugzwang,
    LATE_EMPTY, new_wide_state, wide_apply, wide_free_cells, wide_is_legal, wide_legal_moves,
    wide_playout, wide_playout_parity, wide_playout_quality, wide_playout_safe, wide_playout_safer,
    wide_playout_tactical,
    wide_symmetric, wide_undo, wide_winning_moves, wide_wins_if_played,
)
from boardai.games.connect4.threats import settle as wide_settle
from boardai.games.connect4.wide_eval import wide_evaluate
from boardai.games.layout import (
    FLAG_C4_LINES, FLAGS, GAME, GAME_CONNECT4, GAME_HEX, GAME_TICTACTOE, POS_LEN, rng_next,
)
from boardai.games.tictactoe.eval import ttt_evaluate, ttt_move_prior
from boardai.games.tictactoe.kernel import (
    new_ttt_state, ttt_apply, ttt_encode_planes, ttt_free_cells, ttt_is_legal, ttt_legal_moves,
    ttt_playout, ttt_playout_quality, ttt_symmetric, ttt_symmetric_move, ttt_undo,
    ttt_winning_moves, ttt_wins_if_played,
)


def new_state(game: int, width: int, height: int, swap: bool = False,
              blocked=()) -> np.ndarray:
    """A fresh state array for kernel id ``game`` (``blocked``: Connect Four's no-go cells)."""
    if game == GAME_HEX:
        return new_hex_state(width, height, swap)
    if game == GAME_CONNECT4:
        if fits_one_word(width, height):
            return new_c4_state(width, height, blocked)
        return new_wide_state(width, height, blocked)
    if game == GAME_TICTACTOE:
        return new_ttt_state(width, height)
    raise ValueError(f"unknown game id {game}")


@njit(cache=True, nogil=True)
def _unknown_game():
    raise ValueError("state[GAME] is not the id of a game this kernel knows")


@njit(cache=True, nogil=True)
def apply_move(state, move):
    g = state[GAME]
    if g == GAME_HEX:
        hex_apply(state, move)
    elif g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            wide_apply(state, move)
        else:
            c4_apply(state, move)
    elif g == GAME_TICTACTOE:
        ttt_apply(state, move)
    else:
        _unknown_game()


@njit(cache=True, nogil=True)
def undo_move(state):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_undo(state)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_undo(state)
        return c4_undo(state)
    if g == GAME_TICTACTOE:
        return ttt_undo(state)
    _unknown_game()
    return -1


@njit(cache=True, nogil=True)
def is_legal(state, move):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_is_legal(state, move)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_is_legal(state, move)
        return c4_is_legal(state, move)
    if g == GAME_TICTACTOE:
        return ttt_is_legal(state, move)
    _unknown_game()
    return False


@njit(cache=True, nogil=True)
def legal_moves(state, out):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_legal_moves(state, out)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_legal_moves(state, out)
        return c4_legal_moves(state, out)
    if g == GAME_TICTACTOE:
        return ttt_legal_moves(state, out)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def playout(state, rng, work, owner):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_playout(state, rng, work, owner)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_playout(state, rng, work, owner)
        return c4_playout(state, rng, work, owner)
    if g == GAME_TICTACTOE:
        return ttt_playout(state, rng, work, owner)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def wins_if_played(state, move, colour):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_wins_if_played(state, move, colour)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_wins_if_played(state, move, colour)
        return c4_wins_if_played(state, move, colour)
    if g == GAME_TICTACTOE:
        return ttt_wins_if_played(state, move, colour)
    _unknown_game()
    return False


@njit(cache=True, nogil=True)
def winning_moves(state, colour, out):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_winning_moves(state, colour, out)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_winning_moves(state, colour, out)
        return c4_winning_moves(state, colour, out)
    if g == GAME_TICTACTOE:
        return ttt_winning_moves(state, colour, out)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def settle(state, budget, keys, vals):
    """The exact result of a late position where the game has a search for it within
    ``budget`` nodes (Connect Four past 64 cells: ``connect4/threats.py``, pruned by the
    threat rules), the winner (0/1) or DRAW; -1 when unknown or the game has none.  ``state``
    (a full state array) is left as it came; ``keys``/``vals``: the search's table."""
    g = state[GAME]
    if g == GAME_HEX:
        return -1
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_settle(state, budget, keys, vals)
        return -1
    if g == GAME_TICTACTOE:
        return -1
    _unknown_game()
    return -1


@njit(cache=True, nogil=True)
def rule_result(state):
    """The result a game's static rule gives a position, where it has one: the winner (0/1) or
    DRAW (Connect Four past 64 cells: the zugzwang rule on a quiet position, a heuristic);
    -1 where it does not apply."""
    g = state[GAME]
    if g == GAME_HEX:
        return -1
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_zugzwang(state, 1 << 20)
        return -1
    if g == GAME_TICTACTOE:
        return -1
    _unknown_game()
    return -1


NO_TABLE = np.zeros(0, dtype=np.float64)     # playout_policy without learned weights
NO_FILL = np.zeros(0, dtype=np.int64)        # and without cells filled in


@njit(cache=True, nogil=True)
def playout_policy(state, rng, work, owner, policy, table, local, fill):
    """``playout`` with one of the game's policies (its description's ``playout_switches``):
    Hex 1 saves bridges, 3 also the edge templates of second-row stones (2 alone is uniform),
    and with bridges, ``local`` > 0 answers the last move by the learned pattern weights in
    ``table`` (``hex_playout_local``) and starts with the cells of ``fill`` (per cell: 0, or
    1 / 2 for a stone of the first / second player, known to make no difference to the
    result; empty: none) as stones; Connect Four 1 takes wins and blocks threats, 3 also
    keeps off the cells right under the opponent's threats, 5 or 7 under its own too where it
    can, 9 or more (8 set) is 3 ended by the zugzwang rule once quiet with few free cells,
    and with 16 set a playout from at most ``LATE_EMPTY`` empty cells plays 1 whatever else is
    set, with 32 set half the playouts (one random bit each) play 1 (on the line-word boards
    past 64 cells, the course's; the one-word boards play 1); 0
    and any policy the game lacks are uniform.  ``work``: len(state) + 64."""
    g = state[GAME]
    if g == GAME_HEX:
        if policy & 1:
            edges = (policy & 2) != 0
            if (local > 0.0 and table.shape[0] > 0) or fill.shape[0] > 0:
                return hex_playout_local(state, rng, work, owner, edges, table, local, fill)
            return hex_playout_bridge(state, rng, work, owner, edges)      # without their code
        return hex_playout(state, rng, work, owner)
    if g == GAME_CONNECT4:
        if policy & 1:
            if state[FLAGS] & FLAG_C4_LINES:
                if policy & 16 and wide_free_cells(state) <= LATE_EMPTY:
                    return wide_playout_tactical(state, rng, work, owner)
                if policy & 32 and rng_next(rng) & np.uint64(1):
                    return wide_playout_tactical(state, rng, work, owner)
                if policy & 8:
                    return wide_playout_parity(state, rng, work, owner)
                if policy & 4:
                    return wide_playout_safer(state, rng, work, owner)
                if policy & 2:
                    return wide_playout_safe(state, rng, work, owner)
                return wide_playout_tactical(state, rng, work, owner)
            return c4_playout_tactical(state, rng, work, owner)
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_playout(state, rng, work, owner)
        return c4_playout(state, rng, work, owner)
    if g == GAME_TICTACTOE:
        return ttt_playout(state, rng, work, owner)         # one policy: uniform
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def copy_position(src, dst):
    for i in range(src[POS_LEN]):
        dst[i] = src[i]


@njit(cache=True, nogil=True)
def playout_batch(state, rng, count):
    """Run ``count`` playouts from ``state``; returns wins per result [black, white, draw].
    The game is chosen once, outside the loop (what ``boardai bench playouts`` times)."""
    work = np.empty(state.shape[0], dtype=np.int64)
    no_owner = np.empty(0, dtype=np.int64)
    totals = np.zeros(3, dtype=np.int64)
    g = state[GAME]
    if g == GAME_HEX:
        for _ in range(count):
            totals[hex_playout(state, rng, work, no_owner)] += 1
    elif g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            for _ in range(count):
                totals[wide_playout(state, rng, work, no_owner)] += 1
        else:
            for _ in range(count):
                totals[c4_playout(state, rng, work, no_owner)] += 1
    elif g == GAME_TICTACTOE:
        for _ in range(count):
            totals[ttt_playout(state, rng, work, no_owner)] += 1
    else:
        _unknown_game()
    return totals


# --- hooks for minimax and alpha-beta (engines/alphabeta/kernel.py) -------------------------
#
# =======================================  ==========================================================
# ``evaluate(state, ev, aux)``             static evaluation for the side to move by the game's
#                                          evaluator ``ev`` (its description's ``evaluators``);
#                                          ``aux``: the int64 2-D table the description's
#                                          ``eval_aux(width, height)`` built (Hex: neighbours).
#                                          0.0 for a game without evaluators
# ``move_prior(state, move)``              the game's ordering hint (higher = try earlier)
# =======================================  ==========================================================


@njit(cache=True, nogil=True)
def evaluate(state, ev, aux):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_evaluate(state, ev, aux)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_evaluate(state, ev)
        return c4_evaluate(state, ev)
    if g == GAME_TICTACTOE:
        return ttt_evaluate(state, ev)
    _unknown_game()
    return 0.0


@njit(cache=True, nogil=True)
def move_prior(state, move):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_move_prior(state, move)
    if g == GAME_CONNECT4:
        return c4_move_prior(state, move)
    if g == GAME_TICTACTOE:
        return ttt_move_prior(state, move)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def move_weights(state, moves, k, table, out):
    """Learned weights of ``moves[:k]`` into ``out`` (the MCTS's priors at expansion): a
    move's weight is its chance of being chosen relative to the others (Hex: the shape around
    the cell, ``games/hex/patterns.py``, with ``table`` the game's learned gammas).  False if
    the game has no such knowledge (``out`` untouched)."""
    g = state[GAME]
    if g == GAME_HEX:
        hex_pattern_gammas(state, moves, k, table, out)
        return True
    if g == GAME_CONNECT4 or g == GAME_TICTACTOE:
        return False
    _unknown_game()
    return False


# --- hooks for flat Monte Carlo and brute force (engines/rollout/kernel.py) -------------------
#
# =======================================  ==========================================================
# ``playout_quality(state, rng, work)``    random playout scored for the quality score: returns
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


@njit(cache=True, nogil=True)
def playout_quality(state, rng, work):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_playout_quality(state, rng, work)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_playout_quality(state, rng, work)
        return c4_playout_quality(state, rng, work)
    if g == GAME_TICTACTOE:
        return ttt_playout_quality(state, rng, work)
    _unknown_game()
    return 0, 0


@njit(cache=True, nogil=True)
def free_cells(state):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_free_cells(state)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_free_cells(state)
        return c4_free_cells(state)
    if g == GAME_TICTACTOE:
        return ttt_free_cells(state)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def position_symmetric(state):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_symmetric(state)
    if g == GAME_CONNECT4:
        if state[FLAGS] & FLAG_C4_LINES:
            return wide_symmetric(state)
        return c4_symmetric(state)
    if g == GAME_TICTACTOE:
        return ttt_symmetric(state)
    _unknown_game()
    return False


@njit(cache=True, nogil=True)
def symmetric_move(state, move):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_symmetric_move(state, move)
    if g == GAME_CONNECT4:
        return c4_symmetric_move(state, move)
    if g == GAME_TICTACTOE:
        return ttt_symmetric_move(state, move)
    _unknown_game()
    return 0


@njit(cache=True, nogil=True)
def fill_cells(state, out):
    g = state[GAME]
    if g == GAME_HEX:
        return hex_fill_cells(state, out)
    if g == GAME_CONNECT4:
        return -1                      # gravity: not a fill-in game
    if g == GAME_TICTACTOE:
        return -1                      # the first line ends the game: order matters
    _unknown_game()
    return -1


@njit(cache=True, nogil=True)
def _not_fill_in():
    raise ValueError("fill_* hooks are only for fill-in games (fill_cells returned -1)")


@njit(cache=True, nogil=True)
def fill_load(state, fill):
    if state[GAME] == GAME_HEX:
        hex_fill_load(state, fill)
    else:
        _not_fill_in()


@njit(cache=True, nogil=True)
def fill_set(state, fill, cell, colour, on):
    if state[GAME] == GAME_HEX:
        hex_fill_set(state, fill, cell, colour, on)
    else:
        _not_fill_in()


@njit(cache=True, nogil=True)
def fill_connects(state, fill, colour, with_free):
    if state[GAME] == GAME_HEX:
        return hex_fill_connects(state, fill, colour, with_free)
    _not_fill_in()
    return False


@njit(cache=True, nogil=True)
def fill_length(state, fill, colour, with_free):
    if state[GAME] == GAME_HEX:
        return hex_fill_length(state, fill, colour, with_free)
    _not_fill_in()
    return 0


@njit(cache=True, nogil=True)
def fill_rank(state, rank):
    if state[GAME] == GAME_HEX:
        hex_fill_rank(state, rank)
    else:
        _not_fill_in()


# --- the network's input (boardai/nn) ------------------------------------------------------
#
# =======================================  ==========================================================
# ``encode_planes(state, out)``            the position as ``PLANES`` float32 planes ``out[p, y,
#                                          x]`` (``[PLANES, H, W]``), spots as ``Board.view()``
#                                          draws them (y from the top row as drawn), from the side
#                                          to move's view: 0 its stones, 1 the opponent's, 2 empty
#                                          playable cells, 3 blocked cells, 4 ones (the board), 5
#                                          ones while the swap is legal (else zeros)
# =======================================  ==========================================================

PLANES = 6


@njit(cache=True, nogil=True)
def encode_planes(state, out):
    g = state[GAME]
    if g == GAME_HEX:
        hex_encode_planes(state, out)
    elif g == GAME_CONNECT4:
        c4_encode_planes(state, out)          # both layouts (it reads FLAG_C4_LINES itself)
    elif g == GAME_TICTACTOE:
        ttt_encode_planes(state, out)
    else:
        _unknown_game()
