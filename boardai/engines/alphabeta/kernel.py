"""The jitted negamax behind ``minimax`` and ``alphabeta``: one search for every game.

Written against the kernel contract (``games/kernel.py``: apply_move, undo_move, legal_moves,
winning_moves, the evaluation hooks ``evaluate`` and ``move_prior``, and the state header's PLY,
WINNER, HASH); the game's evaluator is chosen by evaluator id inside numba (no jitted function is
passed as an argument, so numba's on-disk cache holds).  ``aux`` is the game's evaluation table
(its description's ``eval_aux``), passed through to ``evaluate`` untouched.

Scores are from the side to move's view.  A finished game scores ``WIN - plies`` for the winner
(``plies`` = stones on the board when it ends, so quicker wins score higher and slower losses
lose less; a position's ply count is fixed, so the score never depends on the path), 0 for a
draw; evaluations stay within a few hundred.  At depth >= 1 a win in one is scored at once: the
same value the full search would find, so it changes nothing but the time.

``ctx`` (int64) carries the switches and counters::

    ctx[NODES]   nodes visited (incremented on entry)
    ctx[STOP]    set to 1 from outside (a timer thread) to abandon the search; the result of an
                 abandoned call is meaningless and the caller discards it
    ctx[PRUNE]   1 = alpha-beta cut-offs, 0 = plain minimax (every node searched)
    ctx[TT_ON]   1 = use the transposition table
    ctx[ORDER]   1 = order moves (TT move, killers, history, the game's prior)
    ctx[EVAL]    evaluator id of the game

The transposition table is one int64 array ``tt[size, 4]`` indexed by ``hash & (size - 1)``, an
entry per 32-byte row (one cache line holds two): column 0 the full hash, column 1 the score (read
and written through ``ttv``, a float64 view of the same memory), column 2 depth | bound << 8 |
(move + 1) << 10 (0 = empty).
A stored score cuts the search only at the *same* remaining depth, so the table never changes the
value of a fixed-depth search (a deeper score would be better informed, but different).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.kernel import (
    apply_move, evaluate, legal_moves, move_prior, undo_move, winning_moves,
)
from boardai.games.layout import DRAW, HASH, NO_WINNER, PLY, WINNER

WIN = 1_000_000.0
INF = 1e18
NODES, STOP, PRUNE, TT_ON, ORDER, EVAL = 0, 1, 2, 3, 4, 5
CTX_LEN = 8
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 700                      # > any game's length (26x26 Hex)


@njit(cache=True, nogil=True)
def negamax(state, depth, alpha, beta, ctx, aux, tt, ttv, killers, history, moves, scores):
    """Value of ``state`` searched ``depth`` plies deep within (alpha, beta) (fail-soft)."""
    ctx[NODES] += 1
    if ctx[STOP] != 0:
        return 0.0
    winner = state[WINNER]
    if winner != NO_WINNER:
        if winner == DRAW:
            return 0.0
        return -(WIN - state[PLY])           # the player who just moved won
    if depth <= 0:
        return evaluate(state, ctx[EVAL], aux)
    ply = state[PLY]
    me = ply & 1
    row = moves[ply]
    if winning_moves(state, me, row) > 0:
        return WIN - (ply + 1)
    key = state[HASH]
    slot = key & (tt.shape[0] - 1)
    tt_move = -1
    if ctx[TT_ON] != 0 and tt[slot, 2] != 0 and tt[slot, 0] == key:
        info = tt[slot, 2]
        tt_move = (info >> 10) - 1
        if (info & 0xFF) == depth:
            v = ttv[slot, 1]
            bound = (info >> 8) & 3
            if bound == EXACT or (bound == LOWER and v >= beta) or (bound == UPPER and v <= alpha):
                return v
    n = legal_moves(state, row)
    order = ctx[ORDER] != 0
    if order:
        for i in range(n):
            m = row[i]
            s = history[me, m] + move_prior(state, m)
            if m == tt_move:
                s += 1 << 40
            elif m == killers[ply, 0]:
                s += 1 << 30
            elif m == killers[ply, 1]:
                s += 1 << 29
            scores[ply, i] = s
    prune = ctx[PRUNE] != 0
    alpha0 = alpha
    best = -INF
    best_move = -1
    for i in range(n):
        if order:                            # selection sort: best remaining move first
            k = i
            for j in range(i + 1, n):
                if scores[ply, j] > scores[ply, k]:
                    k = j
            if k != i:
                row[i], row[k] = row[k], row[i]
                scores[ply, i], scores[ply, k] = scores[ply, k], scores[ply, i]
        m = row[i]
        apply_move(state, m)
        v = -negamax(state, depth - 1, -beta, -alpha, ctx, aux, tt, ttv, killers, history,
                     moves, scores)
        undo_move(state)
        if ctx[STOP] != 0:
            return 0.0
        if v > best:
            best = v
            best_move = m
        if prune:
            if v > alpha:
                alpha = v
            if alpha >= beta:
                if killers[ply, 0] != m:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = m
                history[me, m] += depth * depth
                break
    if ctx[TT_ON] != 0:
        bound = EXACT
        if best <= alpha0:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        tt[slot, 0] = key
        ttv[slot, 1] = best
        tt[slot, 2] = depth | (bound << 8) | ((best_move + 1) << 10)
    return best


@njit(cache=True, nogil=True)
def search_root(state, depth, root_moves, root_vals, ctx, aux, tt, ttv, killers, history, moves,
                scores):
    """Search every root move in the given order; returns the index of the best one.

    With PRUNE off every ``root_vals[i]`` is the move's exact value; with it on, only the best
    move's value is exact (the others are upper bounds: they failed to beat it).
    """
    best = -INF
    best_i = -1
    prune = ctx[PRUNE] != 0
    for i in range(root_moves.shape[0]):
        apply_move(state, root_moves[i])
        alpha = best if prune else -INF
        v = -negamax(state, depth - 1, -INF, -alpha, ctx, aux, tt, ttv, killers, history, moves,
                     scores)
        undo_move(state)
        if ctx[STOP] != 0:
            return -1
        root_vals[i] = v
        if v > best:
            best = v
            best_i = i
    ctx[NODES] += 1
    return best_i


def new_tables(num_actions: int, tt_entries: int):
    """The work arrays of a search: (tt, ttv, killers, history, moves, scores)."""
    size = 1 << max(10, int(tt_entries - 1).bit_length())
    tt = np.empty((size, 4), dtype=np.int64)
    tt.fill(0)             # touch every page now: faulting them in during a timed search costs more
    return (tt, tt.view(np.float64),
            np.full((MAX_PLY, 2), -1, dtype=np.int64), np.zeros((2, num_actions), dtype=np.int64),
            np.zeros((MAX_PLY, num_actions), dtype=np.int64),
            np.zeros((MAX_PLY, num_actions), dtype=np.int64))
