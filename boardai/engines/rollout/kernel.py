"""Jitted inner loops shared by the ``montecarlo`` and ``bruteforce`` engines (any game).

Both engines score every legal move by the result of *uniformly random play* after it: flat
Monte Carlo samples it (``mc_round``), brute force computes it exactly (``fillin_task`` for a
fill-in game such as Hex, ``random_play_value`` for any game by recursion over the kernel
contract, with a transposition table on the Zobrist hash).  Everything goes through the kernel
contract of ``games/kernel.py`` (and its documented hooks ``playout_quality`` and ``fill_*``), so
the same compiled code serves Hex and Connect Four.

Two scores (``mode``), both from the view of the side that plays the candidate ("mover"):

* ``WINRATE``: a win counts 1, a draw 1/2, a loss 0;
* ``QUALITY``: a win counts +1/L, a loss -1/L, L being the game's "length" of the
  win (hook ``playout_quality``); the estimate is mean(q+) / (mean(q+) + mean(q-)).

Per-candidate Monte Carlo statistics, ``stats[i, :]`` (float64), with x the mover's part of a
playout (WINRATE: 1, 1/2 or 0; QUALITY: 1/L if the mover won, else 0) and y the opponent's part
(WINRATE: 1 - x; QUALITY: 1/L if the opponent won, else 0)::

    N  playouts   SX, SY  sums of x and y   SXX, SYY, SXY  sums of squares / products
    SW  mover's wins (a draw counts 1/2), whatever the mode
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.kernel import (
    apply_move, copy_position, fill_cells, fill_connects, fill_length, fill_load, fill_set,
    free_cells, legal_moves, playout, playout_quality, undo_move,
)
from boardai.games.layout import DRAW, HASH, NO_WINNER, NUM_ACTIONS, PLY, WINNER

WINRATE = 0
QUALITY = 1

N, SX, SY, SXX, SYY, SXY, SW = range(7)
NSTATS = 7


# --- flat Monte Carlo ------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def mc_round(state, cands, which, count, rngs, stats, mode):
    """Play ``count`` more random playouts after each candidate ``cands[i]``, i in ``which``.

    ``rngs[i]`` is candidate i's own random stream (so results do not depend on how candidates
    are split between threads or rounds); statistics are added to ``stats[i]`` (see module doc).
    Threads may call this at once on disjoint ``which``.
    """
    mover = state[PLY] & 1
    pos = state.copy()                   # full copy: the swap move reads the move history
    work = np.empty(state.shape[0], dtype=np.int64)
    no_owner = np.empty(0, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)   # a private copy: threads writing neighbouring
    for j in range(which.shape[0]):      # elements of ``rngs`` would share a cache line
        i = which[j]
        copy_position(state, pos)
        apply_move(pos, cands[i])
        rng[0] = rngs[i]
        sx = 0.0
        sy = 0.0
        sxx = 0.0
        syy = 0.0
        sxy = 0.0
        sw = 0.0
        for _ in range(count):
            if mode == WINRATE:
                res = playout(pos, rng, work, no_owner)
                x = 1.0 if res == mover else (0.5 if res == DRAW else 0.0)
                y = 1.0 - x
                w = x
            else:
                res, length = playout_quality(pos, rng, work)
                x = 0.0
                y = 0.0
                w = 0.5 if res == DRAW else 0.0
                if res == mover:
                    x = 1.0 / length
                    w = 1.0
                elif res != DRAW:
                    y = 1.0 / length
            sx += x
            sy += y
            sxx += x * x
            syy += y * y
            sxy += x * y
            sw += w
        rngs[i] = rng[0]
        stats[i, N] += count
        stats[i, SX] += sx
        stats[i, SY] += sy
        stats[i, SXX] += sxx
        stats[i, SYY] += syy
        stats[i, SXY] += sxy
        stats[i, SW] += sw


@njit(cache=True, nogil=True)
def score_bounds(stats, z, out):
    """Per candidate: score and a z-sigma confidence interval, written to ``out[i] = (score,
    low, high)``.

    The score is SX / (SX + SY) (WINRATE: the mean; QUALITY: the quality ratio).  Its standard
    error comes from the delta method on the two means, floored at the binomial error of an
    Agresti-Coull-smoothed proportion ((n*score + 2) / (n + 4)), so that a run of all wins
    does not claim zero uncertainty.
    """
    for i in range(stats.shape[0]):
        n = stats[i, N]
        if n <= 0.0:
            out[i, 0] = 0.5
            out[i, 1] = 0.0
            out[i, 2] = 1.0
            continue
        a = stats[i, SX] / n
        b = stats[i, SY] / n
        if a + b <= 0.0:
            r = 0.5
            var = 0.25
        else:
            r = a / (a + b)
            va = stats[i, SXX] / n - a * a
            vb = stats[i, SYY] / n - b * b
            cab = stats[i, SXY] / n - a * b
            s4 = (a + b) ** 4
            var = (b * b * va + a * a * vb - 2.0 * a * b * cab) / s4
            if var < 0.0:
                var = 0.0
        p = (n * r + 2.0) / (n + 4.0)
        floor = p * (1.0 - p)
        if var < floor:
            var = floor
        se = np.sqrt(var / n)
        out[i, 0] = r
        out[i, 1] = r - z * se
        out[i, 2] = r + z * se


# --- brute force over fill-ins (Hex) --------------------------------------------------------

@njit(cache=True, nogil=True)
def fillin_task(state, cand, rank, prefix_len, prefix_bits, mode, binom, counts, sums):
    """Exact statistics over every fill-in after ``cand`` that starts with a given prefix.

    After ``cand`` the opponent is to move, so of the k empty cells it receives ceil(k/2) and
    the mover floor(k/2).  The cells are assigned in the order of ``rank`` (lowest first); the
    first ``prefix_len`` of them are fixed by ``prefix_bits`` (bit j set: cell j goes to the
    mover), which lets callers split one candidate's enumeration into independent tasks.
    Returns False if the prefix is infeasible (gives one side too many cells).

    Depth-first assignment with early termination: as soon as one side connects with its
    assigned stones, every completion is its win, and they are counted at once with a binomial
    (``binom[m, j]`` = C(m, j)).  In QUALITY mode a decided subtree is also closed at once when
    the winner's shortest chain cannot change any more (its length with only its stones equals
    its length with every unassigned cell added); otherwise it is enumerated to the leaves.

    Adds ``counts[:2] += (mover-winning fill-ins, losing fill-ins)`` (int64, exact), ``counts[2]
    += nodes of the enumeration visited`` when ``counts`` has a third slot, and, in QUALITY
    mode, ``sums += (sum of 1/L over wins, sum of 1/L over losses)``.
    """
    mover = state[PLY] & 1
    opp = 1 - mover
    pos = state.copy()
    apply_move(pos, cand)
    cells = np.empty(pos[NUM_ACTIONS], dtype=np.int64)
    k = fill_cells(pos, cells)
    # order the cells by rank (insertion sort: k is small)
    for a in range(1, k):
        c = cells[a]
        b = a - 1
        while b >= 0 and rank[cells[b]] > rank[c]:
            cells[b + 1] = cells[b]
            b -= 1
        cells[b + 1] = c
    if prefix_len > k:
        return False
    fill = np.empty(pos.shape[0], dtype=np.int64)
    fill_load(pos, fill)
    rm = k // 2                 # cells still to give to the mover
    ro = k - rm                 # ... and to the opponent
    for j in range(prefix_len):
        if (prefix_bits >> j) & 1:
            fill_set(pos, fill, cells[j], mover, True)
            rm -= 1
        else:
            fill_set(pos, fill, cells[j], opp, True)
            ro -= 1
    if rm < 0 or ro < 0:
        return False
    root = prefix_len
    stage = np.zeros(k + 2, dtype=np.int64)
    col = np.full(k + 2, -1, dtype=np.int64)     # colour given to cells[i] (-1: none yet)
    dec = np.full(k + 2, -1, dtype=np.int64)     # winner already decided at depth i (-1: not)
    wins = np.int64(0)
    losses = np.int64(0)
    qwin = 0.0
    qloss = 0.0
    nodes = np.int64(0)
    i = root
    while True:
        s = stage[i]
        if s == 0:
            nodes += 1
            # evaluate the node: is the winner decided, and can the subtree be closed?
            if dec[i] < 0:
                last = col[i - 1] if i > root else -1
                if last != opp and fill_connects(pos, fill, mover, False):
                    dec[i] = mover
                elif last != mover and fill_connects(pos, fill, opp, False):
                    dec[i] = opp
            closed = False
            if dec[i] >= 0:
                cnt = binom[rm + ro, rm]
                if mode == WINRATE:
                    closed = True
                else:
                    lmax = fill_length(pos, fill, dec[i], False)
                    if rm + ro == 0 or fill_length(pos, fill, dec[i], True) == lmax:
                        closed = True
                        if dec[i] == mover:
                            qwin += cnt / lmax
                        else:
                            qloss += cnt / lmax
                if closed:
                    if dec[i] == mover:
                        wins += cnt
                    else:
                        losses += cnt
            if closed:
                stage[i] = 3
            else:
                stage[i] = 1
            continue
        if s == 1:
            stage[i] = 2
            if rm > 0:
                fill_set(pos, fill, cells[i], mover, True)
                rm -= 1
                col[i] = mover
                i += 1
                stage[i] = 0
                dec[i] = dec[i - 1]
            continue
        if s == 2:
            if col[i] == mover:
                fill_set(pos, fill, cells[i], mover, False)
                rm += 1
                col[i] = -1
            stage[i] = 3
            if ro > 0:
                fill_set(pos, fill, cells[i], opp, True)
                ro -= 1
                col[i] = opp
                i += 1
                stage[i] = 0
                dec[i] = dec[i - 1]
            continue
        # s == 3: this node is done; undo its assignment and go up
        if col[i] == opp:
            fill_set(pos, fill, cells[i], opp, False)
            ro += 1
            col[i] = -1
        stage[i] = 0
        if i == root:
            break
        i -= 1
    counts[0] += wins
    counts[1] += losses
    if counts.shape[0] > 2:
        counts[2] += nodes
    sums[0] += qwin
    sums[1] += qloss
    return True


# --- brute force by recursion over the kernel contract (any game) ---------------------------

@njit(cache=True, nogil=True)
def _terminal_value(state, root_ply, out):
    """Write a finished game's values to ``out``: (Black's win, White's win) with a draw 1/2
    each, then (Black's quality, White's quality): 1/L for the winner, L = moves since the root
    position (``root_ply``), 0 for the loser and for a draw."""
    winner = state[WINNER]
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    out[3] = 0.0
    if winner == DRAW:
        out[0] = 0.5
        out[1] = 0.5
    else:
        out[winner] = 1.0
        out[2 + winner] = 1.0 / (state[PLY] - root_ply)


@njit(cache=True, nogil=True)
def random_play_value(state, root_ply, keys, used, vals, counter, out):
    """Exact expected values of uniformly random play from ``state``, written to ``out``:
    (Black's win, White's win, Black's quality, White's quality) as in ``_terminal_value``.

    Depth-first over ``legal_moves``/``apply_move``/``undo_move``, a node's value being the
    mean of its children's; values are kept in a transposition table indexed by the Zobrist
    hash (``keys``/``used``/``vals[:, 4]``, length a power of two, always-replace), valid across
    calls with the same ``root_ply``.  ``state`` is left unchanged (its undo area must hold its
    history).  ``counter[0]`` counts the positions expanded.
    """
    if state[WINNER] != NO_WINNER:
        _terminal_value(state, root_ply, out)
        return
    mask = keys.shape[0] - 1
    na = state[NUM_ACTIONS]
    depth_max = free_cells(state) + 1        # a game cannot last longer than that
    moves = np.empty((depth_max + 1, na), dtype=np.int64)
    nmov = np.zeros(depth_max + 1, dtype=np.int64)
    idx = np.zeros(depth_max + 1, dtype=np.int64)
    acc = np.zeros((depth_max + 1, 4))
    term = np.zeros(4)
    d = 0
    nmov[0] = legal_moves(state, moves[0])
    counter[0] += 1
    while True:
        if idx[d] < nmov[d]:
            m = moves[d, idx[d]]
            idx[d] += 1
            apply_move(state, m)
            if state[WINNER] != NO_WINNER:
                _terminal_value(state, root_ply, term)
                for j in range(4):
                    acc[d, j] += term[j] / nmov[d]
                undo_move(state)
                continue
            h = state[HASH]
            slot = h & mask
            if used[slot] and keys[slot] == h:
                for j in range(4):
                    acc[d, j] += vals[slot, j] / nmov[d]
                undo_move(state)
                continue
            d += 1
            nmov[d] = legal_moves(state, moves[d])
            idx[d] = 0
            for j in range(4):
                acc[d, j] = 0.0
            counter[0] += 1
            continue
        h = state[HASH]
        slot = h & mask
        keys[slot] = h
        used[slot] = True
        for j in range(4):
            vals[slot, j] = acc[d, j]
        if d == 0:
            for j in range(4):
                out[j] = acc[0, j]
            return
        undo_move(state)
        d -= 1
        for j in range(4):
            acc[d, j] += acc[d + 1, j] / nmov[d]
