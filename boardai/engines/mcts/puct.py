"""PUCT on the MCTS tree: the hook that lets a network (or any evaluator) guide the one search.

The tree is ``kernel.py``'s (same arrays, same proofs, same reuse and compaction); what changes
is where a simulation's knowledge comes from.  Plain ``mcts`` ends a simulation with a playout;
here a simulation stops at a leaf whose position an *evaluator* scores, and the evaluator works
on a batch of leaves at once (a network runs at batch speed)::

    n = descend_batch(...)            # up to B leaves, each path marked with a virtual loss
    priors, values = evaluate(states[:n])     # in Python: the network, or anything else
    apply_batch(..., priors, values)  # expand the leaves with their priors, back the values up

Selection is PUCT (AlphaZero): ``Q + c * P * sqrt(N) / (1 + n)``; a child never visited has
``Q = parent's Q - fpu`` (first-play urgency).  ``P`` is the tree's ``PRIOR`` column, so
compaction and reuse keep it.  A terminal
leaf (the game is over there) or a proven child needs no evaluation: its result is backed up at
once.  The one-move win/must-block checks of ``kernel._expand`` still restrict a new node's
children when ``CHECKS`` is on.

Values: the evaluator's value is from the side to move at the leaf, in [-1, 1]; the tree keeps
WINS for the player who moved into a node, so a leaf gets ``(1 - v) / 2`` and each level up the
complement.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from boardai.engines.mcts.kernel import (
    CHILD, MOVE, NCHILD, PRIOR, PROOF, ROOT, VISITS, WINS, _expand, known_result,
    set_child_priors,
)
from boardai.games.kernel import apply_move, copy_position
from boardai.games.layout import DRAW, NO_WINNER, NUM_ACTIONS, PLY, WINNER

Q_C, Q_FPU = 0, 1                    # params: c_puct, first-play-urgency reduction
DRAW_VALUE = 0.5


@njit(cache=True, nogil=True)
def _select_puct(ints, flts, node, c_puct, fpu):
    first = ints[node, CHILD]
    k = ints[node, NCHILD]
    n = flts[node, VISITS]
    sqrt_n = math.sqrt(max(n, 1.0))
    # the node's value for the side to move at it (the player choosing among its children)
    parent_q = 1.0 - flts[node, WINS] / n if n > 0.0 else 0.5
    unseen = max(0.0, parent_q - fpu)
    best = -1
    best_score = -1e300
    fallback = first
    for ch in range(first, first + k):
        pr = ints[ch, PROOF]
        if pr == 1:
            return ch
        if pr == -1:
            if flts[ch, VISITS] > flts[fallback, VISITS]:
                fallback = ch
            continue
        cn = flts[ch, VISITS]
        q = flts[ch, WINS] / cn if cn > 0.0 else unseen
        score = q + c_puct * flts[ch, PRIOR] * sqrt_n / (1.0 + cn)
        if score > best_score:
            best_score = score
            best = ch
    return best if best >= 0 else fallback


@njit(cache=True, nogil=True)
def _backup(ints, flts, path, depth, value, virtual):
    """Back ``value`` (for the player who moved into the leaf, in [0, 1]) up the path; with
    ``virtual`` the visits were already counted by the descent's virtual loss."""
    v = value
    for d in range(depth, -1, -1):
        node = path[d]
        if not virtual:
            flts[node, VISITS] += 1.0
        flts[node, WINS] += v
        v = 1.0 - v


@njit(cache=True, nogil=True)
def descend_batch(ints, flts, meta, root_state, batch, states, leaves, paths, depths, params):
    """Walk down from the root up to ``batch`` times, each walk leaving a virtual loss on its
    path, and collect the leaves that need the evaluator: their positions in ``states[i]``,
    node in ``leaves[i]``, path in ``paths[i, :depths[i] + 1]``.  Walks that end on a finished
    game or a proven node are backed up at once.  Returns (leaves collected, walks done)."""
    root = meta[ROOT]
    s0 = root_state[PLY] & 1
    c_puct = params[Q_C]
    fpu = params[Q_FPU]
    st = np.empty_like(root_state)
    path = np.empty(paths.shape[1], dtype=np.int64)
    n = 0
    walks = 0
    for _ in range(batch):
        if ints[root, PROOF] != 0:
            break
        copy_position(root_state, st)
        node = root
        depth = 0
        path[0] = root
        result = -1                   # a known result: the winner (0/1) or DRAW
        while ints[node, NCHILD] > 0:
            child = _select_puct(ints, flts, node, c_puct, fpu)
            apply_move(st, np.int64(ints[child, MOVE]))
            depth += 1
            path[depth] = child
            node = child
            result = known_result(ints, st, child, (s0 + depth + 1) & 1, root)
            if result >= 0:
                break
        walks += 1
        if result < 0 and st[WINNER] != NO_WINNER:      # the root itself is over
            result = st[WINNER]
        mover = (s0 + depth + 1) & 1
        if result >= 0:
            value = DRAW_VALUE if result == DRAW else (1.0 if result == mover else 0.0)
            _backup(ints, flts, path, depth, value, False)
            continue
        for d in range(depth + 1):                       # virtual loss: a visit, no win
            flts[path[d], VISITS] += 1.0
        states[n, :] = st
        leaves[n] = node
        for d in range(depth + 1):
            paths[n, d] = path[d]
        depths[n] = depth
        n += 1
    return n, walks


@njit(cache=True, nogil=True)
def apply_batch(ints, flts, meta, states, leaves, paths, depths, count, priors, values,
                expand_params):
    """Expand each collected leaf with its priors (once, if two walks met the same leaf) and
    back its value up, replacing the virtual loss.  ``expand_params``: the kernel's params
    (its CHECKS entry restricts new children to one-move wins and must-blocks).  Returns how
    many leaves could not be expanded because the tree is full (their values still count)."""
    legal = np.empty(priors.shape[1] + 1, dtype=np.int64)
    no_knowledge = np.empty(0, dtype=np.float64)       # the priors here are the evaluator's
    full = 0
    for i in range(count):
        node = leaves[i]
        if ints[node, NCHILD] == 0:
            if _expand(ints, flts, meta, node, states[i], legal, expand_params, no_knowledge):
                set_child_priors(ints, flts, node, priors[i])
            else:
                full += 1
        # the evaluator's value is the side to move's; the leaf keeps its mover's
        _backup(ints, flts, paths[i], depths[i], (1.0 - values[i]) / 2.0, True)
    return full


def new_batch(root_state: np.ndarray, batch: int):
    """Work arrays for ``descend_batch``/``apply_batch``."""
    n = int(root_state[NUM_ACTIONS])
    return (np.empty((batch, root_state.shape[0]), dtype=np.int64),
            np.empty(batch, dtype=np.int64),
            np.empty((batch, root_state.shape[0] + 2), dtype=np.int64),
            np.empty(batch, dtype=np.int64),
            np.zeros((batch, n), dtype=np.float64),
            np.zeros(batch, dtype=np.float64))


__all__ = ["PRIOR", "apply_batch", "descend_batch", "new_batch"]
