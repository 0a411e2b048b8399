"""The jitted MCTS: UCT with RAVE, an MCTS-solver and one-move win/block checks, for any game.

Written only against the kernel contract (``games/kernel.py``), so the same compiled code serves
Hex and Connect Four.  The tree lives in two preallocated arrays (no node objects, and
positions are never stored: a simulation replays moves from the root)::

    ints[M, 5]  int32    PARENT, MOVE (move leading here), CHILD (first child, children are
                         contiguous), NCHILD, PROOF (+1: the player who moved here wins with
                         perfect play, -1: loses, 0: unknown)
    flts[M, 8]  float64  VISITS, WINS (for the player who moved here; a draw counts 1/2),
                         AMAF_N, AMAF_W (all-moves-as-first statistics of this move, RAVE),
                         Q (cached exploitation value: mean, blended with AMAF under RAVE;
                         1e9 until first seen, so every child is tried once), ISQ (1/sqrt(visits)),
                         PRIOR (the move's prior probability: learned patterns here, the
                         network's policy in a PUCT tree; 0 when there is none), NET (the
                         network's priors for this node's children: 0 not asked, 1 queued,
                         2 written)
    meta[4]     int64    USED nodes, ROOT index, FULL flag (expansion refused: memory cap),
                         QUEUED (nodes waiting in the network's queue)

``params`` (float64): C (UCT exploration), RAVE (0/1), RAVE_BIAS (b in beta = n_amaf / (n_amaf +
n + n*n_amaf*b)), EXPAND (visits a leaf needs before it grows children), CHECKS (0/1: look for
one-move wins and must-blocks when expanding), POLICY (the game's own playout policy number for
``playout_policy``: 0 uniform; its description's ``playout_switches`` name the others), FORKS
(with CHECKS: a move making two threats is the only child), BIAS (the progressive-bias constant
of the learned priors; 0 off), LOCAL (the weight of the learned patterns in the playouts'
answers to the last move, ``playout_policy``'s ``local``; 0 off), NET (the visits at which a
node's position joins the network's queue; 0 off), SETTLE (a node with at most this many
empty cells is given to the game's exact late-game search, ``settle``, once, when a
simulation passes it with SETTLE_VISITS visits, for at most SETTLE_NODES nodes: a win or loss
it finds is the node's proof; 0 off; a shorter ``params`` leaves it off), RULE (when a node
grows its children, the game's static rule on its position, ``rule_result``, where it applies,
counts as RULE visits at its result; 0 off), VALUE (the network's value of a node it evaluates
counts as VALUE visits at that value, ``add_values``; 0 off).  ``knowledge`` serves both.

Priors (as MoHex 2.0): when a node grows its children and BIAS > 0, the game's ``move_weights``
hook weighs them from ``knowledge`` (its learned table; empty: none), and each child's PRIOR is
its weight over the sum of its siblings' (the chance the pattern model gives it of being the
move chosen).  Selection adds ``BIAS * PRIOR / sqrt(visits + 1)`` to a child's value: the likely
moves are tried first, and the term fades as real visits come in.

Network priors (as MoHex-CNN): with NET > 0, a node with two children or more whose simulation
passes it with NET - 1 visits already (so it reaches NET) gets its position copied into the
queue (``queue_states[i]``, ``queue_nodes[i]``, ``meta[QUEUED]`` of them, each node once: its
NET column says so) and the simulations go on; between slices the engine evaluates the queue in
one batch and ``write_priors`` puts the network's policy into the children's PRIOR, where the
same progressive bias reads it.  A full queue takes no more nodes (they join on a later visit).
With VALUE > 0 the network's value of the same position (it comes with the policy) is mixed
into the node's statistics (``add_values``): VALUE visits at the network's win chance for the
player who moved into the node, as the RULE visits are; they weigh as much as VALUE playouts in
the node's mean, which its parent's selection reads, and fade as real visits come in.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from boardai.games.kernel import (
    apply_move, copy_position, free_cells, legal_moves, move_weights, playout_policy, rule_result,
    settle, winning_moves,
)
from boardai.games.layout import DRAW, NO_WINNER, NUM_ACTIONS, PLY, WINNER

PARENT, MOVE, CHILD, NCHILD, PROOF = 0, 1, 2, 3, 4
VISITS, WINS, AMAF_N, AMAF_W, Q, ISQ, PRIOR, NET = 0, 1, 2, 3, 4, 5, 6, 7
NF = 8
UNSEEN = 1e9
PRIOR_AMAF_N = 8.0        # with priors: each child's starting AMAF samples (at 1/2), as MoHex 2.0
USED, ROOT, FULL, QUEUED = 0, 1, 2, 3
P_C, P_RAVE, P_RAVE_BIAS, P_EXPAND, P_CHECKS, P_POLICY, P_FORKS, P_BIAS, P_LOCAL, P_NET = range(10)
P_SETTLE, P_SETTLE_NODES, P_SETTLE_VISITS, P_RULE, P_VALUE = 10, 11, 12, 13, 14
N_PARAMS = 15
SETTLE_BITS = 15          # the late-game search's table: 2**15 entries, one per run_simulations
TABLE_SIZE = 1 << 16


def new_tables() -> np.ndarray:
    """[2, TABLE_SIZE]: sqrt(log(n + 1)) and 1/sqrt(n) for small visit counts (saves a log and two
    square roots per tree level; larger counts are computed)."""
    n = np.arange(TABLE_SIZE, dtype=np.float64)
    return np.stack([np.sqrt(np.log(n + 1.0)), 1.0 / np.sqrt(np.maximum(n, 1.0))])
NODE_BYTES = 5 * 4 + NF * 8


def new_tree(capacity: int):
    """Empty tree arrays with a root node at index 0."""
    ints = np.zeros((capacity, 5), dtype=np.int32)
    flts = np.zeros((capacity, NF), dtype=np.float64)
    meta = np.zeros(4, dtype=np.int64)
    reset_tree(ints, flts, meta)
    return ints, flts, meta


@njit(cache=True, nogil=True)
def reset_tree(ints, flts, meta):
    ints[0, PARENT] = -1
    ints[0, MOVE] = -1
    ints[0, CHILD] = -1
    ints[0, NCHILD] = 0
    ints[0, PROOF] = 0
    _clear_stats(flts, 0)
    meta[USED] = 1
    meta[ROOT] = 0
    meta[FULL] = 0
    meta[QUEUED] = 0


@njit(cache=True, nogil=True)
def _clear_stats(flts, i):
    flts[i, VISITS] = 0.0
    flts[i, WINS] = 0.0
    flts[i, AMAF_N] = 0.0
    flts[i, AMAF_W] = 0.0
    flts[i, Q] = UNSEEN
    flts[i, ISQ] = 1.0
    flts[i, PRIOR] = 0.0
    flts[i, NET] = 0.0


@njit(cache=True, nogil=True)
def _refresh_q(flts, i, rave, bias):
    """Recompute the cached exploitation value of node ``i`` after its statistics changed."""
    n = flts[i, VISITS]
    an = flts[i, AMAF_N]
    if n == 0.0:
        flts[i, Q] = flts[i, AMAF_W] / an if (rave and an > 0.0) else UNSEEN
        return
    q = flts[i, WINS] / n
    if rave and an > 0.0:
        beta = an / (an + n + n * an * bias)
        q = (1.0 - beta) * q + beta * flts[i, AMAF_W] / an
    flts[i, Q] = q


@njit(cache=True, nogil=True)
def _propagate_proof(ints, node, root):
    """After ``node``'s proof changed, update its ancestors up to the root."""
    while node != root:
        p = ints[node, PARENT]
        if p < 0:
            return
        first = ints[p, CHILD]
        any_win = False
        all_loss = True
        for ch in range(first, first + ints[p, NCHILD]):
            pr = ints[ch, PROOF]
            if pr == 1:
                any_win = True
                break
            if pr != -1:
                all_loss = False
        if any_win:
            new = -1          # the opponent of p's mover has a winning reply
        elif all_loss:
            new = 1           # every reply loses
        else:
            return
        if ints[p, PROOF] == new:
            return
        ints[p, PROOF] = new
        node = p


@njit(cache=True, nogil=True)
def busy_nodes(ints, flts, root, visits, out):
    """The unproven nodes with children under the root that have at least ``visits`` visits
    (their ancestors have as many), into ``out``; returns how many (at most ``len(out)``)."""
    k = 0
    head = 0
    if flts[root, VISITS] >= visits:
        out[0] = root
        k = 1
    while head < k:
        node = out[head]
        head += 1
        first = ints[node, CHILD]
        for ch in range(first, first + ints[node, NCHILD]):
            if flts[ch, VISITS] >= visits and ints[ch, NCHILD] > 0 and ints[ch, PROOF] == 0:
                if k == out.shape[0]:
                    return k
                out[k] = ch
                k += 1
    return k


@njit(cache=True, nogil=True)
def apply_knowledge(ints, flts, node, result, keep, root, swaps):
    """Knowledge found outside the tree about ``node``'s position (its mover: the side to move
    there).  ``result`` +1: the mover has lost (the opponent's virtual win), so the player who
    moved into the node wins; -1: the mover has won; 0: only the children whose moves are
    flagged in ``keep`` (indexed by move) are worth searching, each other move being lost or
    no better than a kept one, so the others are dropped.  Dropping keeps the block of
    children contiguous: kept rows move to its front (rows exchanged, their own children's
    PARENT fixed, each exchange written to ``swaps``), NCHILD shrinks, and the rows left
    behind are unreachable (compaction frees them).  A child already proven won, and at least
    one child, always stay.  Proofs are propagated to the ancestors.  Returns the number of
    exchanges."""
    if result != 0:
        ints[node, PROOF] = result
        _propagate_proof(ints, node, root)
        return 0
    first = ints[node, CHILD]
    k = ints[node, NCHILD]
    kept = 0
    for ch in range(first, first + k):
        if keep[ints[ch, MOVE]] or ints[ch, PROOF] == 1:
            kept += 1
    if kept == 0 or kept == k:
        return 0
    at = first
    exchanged = 0
    for ch in range(first, first + k):
        if not (keep[ints[ch, MOVE]] or ints[ch, PROOF] == 1):
            continue
        if ch != at:
            for j in range(ints.shape[1]):
                ints[ch, j], ints[at, j] = ints[at, j], ints[ch, j]
            for j in range(flts.shape[1]):
                flts[ch, j], flts[at, j] = flts[at, j], flts[ch, j]
            for row in (ch, at):
                c0 = ints[row, CHILD]
                for g in range(c0, c0 + ints[row, NCHILD]):
                    ints[g, PARENT] = row
            swaps[exchanged, 0] = ch
            swaps[exchanged, 1] = at
            exchanged += 1
        at += 1
    ints[node, NCHILD] = kept
    _propagate_proof(ints, first, root)
    return exchanged


@njit(cache=True, nogil=True)
def known_result(ints, st, child, mover, root):
    """After ``mover`` moved into ``child`` (position ``st``): the game's result if it is known
    there, the winner (0/1) or DRAW, from the child's proof or the game having ended (a win
    just played proves the child and its ancestors as far as it goes); -1 if not known."""
    pr = ints[child, PROOF]
    if pr != 0:
        return mover if pr == 1 else 1 - mover
    if st[WINNER] != NO_WINNER:
        result = st[WINNER]
        if result == mover:
            ints[child, PROOF] = 1
            _propagate_proof(ints, child, root)
        return result
    return -1


@njit(cache=True, nogil=True)
def _expand(ints, flts, meta, node, state, legal, params, knowledge):
    """Give ``node`` its children (with their priors, see the module's text); False when the
    memory cap refuses."""
    me = state[PLY] & 1
    k = 0
    if params[P_CHECKS] != 0.0:
        k = winning_moves(state, me, legal)
        if k > 1:
            k = 1                        # one winning move is all we need
        elif k == 0:
            k = winning_moves(state, 1 - me, legal)   # must block: only the opponent's spots
            if k == 0 and params[P_FORKS] != 0.0:
                k = _fork(state, me, legal)          # a move that makes two threats wins
    if k == 0:
        k = legal_moves(state, legal)
        if k == 0:
            return False
    used = meta[USED]
    if used + k > ints.shape[0]:
        meta[FULL] = 1
        return False
    for i in range(k):
        ch = used + i
        ints[ch, PARENT] = node
        ints[ch, MOVE] = legal[i]
        ints[ch, CHILD] = -1
        ints[ch, NCHILD] = 0
        ints[ch, PROOF] = 0
        _clear_stats(flts, ch)
    ints[node, CHILD] = used
    ints[node, NCHILD] = k
    meta[USED] = used + k
    if k > 1 and params[P_BIAS] > 0.0 and knowledge.shape[0] > 0:
        _set_priors(flts, used, k, state, legal, knowledge, params[P_RAVE] != 0.0)
    return True


@njit(cache=True, nogil=True)
def _set_priors(flts, first, k, state, moves, knowledge, rave):
    """The PRIOR of children ``first..first+k`` (moves ``moves[:k]``): each one's learned
    weight over their sum; with RAVE they also start at an even AMAF value (PRIOR_AMAF_N
    samples at 1/2), so no child counts as unseen and the bias orders the first visits."""
    g = np.empty(k, dtype=np.float64)
    if not move_weights(state, moves, k, knowledge, g):
        return
    total = g.sum()
    for i in range(k):
        ch = first + i
        flts[ch, PRIOR] = g[i] / total
        if rave:
            flts[ch, AMAF_N] = PRIOR_AMAF_N
            flts[ch, AMAF_W] = 0.5 * PRIOR_AMAF_N
            flts[ch, Q] = 0.5


@njit(cache=True, nogil=True)
def expand_root(ints, flts, meta, state, params, knowledge):
    """Give the root its children now if it has none (so that known results can be written
    into them before the search); False when the memory cap refuses or nothing is legal."""
    root = meta[ROOT]
    if ints[root, NCHILD] > 0:
        return True
    legal = np.empty(state[NUM_ACTIONS], dtype=np.int64)
    return _expand(ints, flts, meta, root, state, legal, params, knowledge)


@njit(cache=True, nogil=True)
def _fork(state, me, legal):
    """1 with ``legal[0]`` = a move after which ``me`` has two winning moves or more and the
    opponent none (a win in three plies: one stone blocks one win only), else 0.  Called
    when neither side has a winning move now."""
    n = legal_moves(state, legal)
    after = np.empty_like(state)
    wins = np.empty(state[NUM_ACTIONS], dtype=np.int64)
    for i in range(n):
        copy_position(state, after)
        apply_move(after, legal[i])
        if winning_moves(after, 1 - me, wins) == 0 and winning_moves(after, me, wins) >= 2:
            legal[0] = legal[i]
            return 1
    return 0


@njit(cache=True, nogil=True)
def _select(ints, flts, node, params, tables):
    """The child to descend into: a proven win at once, proven losses last, else UCT(+RAVE)."""
    first = ints[node, CHILD]
    k = ints[node, NCHILD]
    n = flts[node, VISITS]
    if n < TABLE_SIZE:
        explore = params[P_C] * tables[0, np.int64(n)]
    else:
        explore = params[P_C] * math.sqrt(math.log(n + 1.0))
    bias = params[P_BIAS]
    best = -1
    best_score = -1e300
    fallback = first
    for ch in range(first, first + k):
        pr = ints[ch, PROOF]
        if pr != 0:
            if pr == 1:
                return ch
            if flts[ch, VISITS] > flts[fallback, VISITS]:
                fallback = ch
            continue
        score = flts[ch, Q] + explore * flts[ch, ISQ]
        if bias != 0.0:
            m = flts[ch, VISITS] + 1.0
            score += bias * flts[ch, PRIOR] * (tables[1, np.int64(m)] if m < TABLE_SIZE
                                               else 1.0 / math.sqrt(m))
        if score > best_score:
            best_score = score
            best = ch
    return best if best >= 0 else fallback


@njit(cache=True, nogil=True)
def _simulate(ints, flts, meta, root_state, st, rng, params, work, owner, path, legal, tables,
              knowledge, fills, fill_of, queue_states, queue_nodes, tt_keys, tt_vals):
    root = meta[ROOT]
    copy_position(root_state, st)
    s0 = root_state[PLY] & 1
    node = root
    depth = 0
    path[0] = root
    result = -1
    marked = fill_of.shape[0] > 0
    fill_row = fill_of[root] if marked else 0
    net_at = params[P_NET] - 1.0
    settling = params.shape[0] > P_SETTLE_VISITS and params[P_SETTLE] > 0.0
    ruling = params.shape[0] > P_RULE and params[P_RULE] > 0.0
    queue_cap = queue_nodes.shape[0]
    while True:
        if ints[node, NCHILD] == 0:
            if st[WINNER] != NO_WINNER:
                result = st[WINNER]
                break
            if node != root and flts[node, VISITS] < params[P_EXPAND]:
                break
            if not _expand(ints, flts, meta, node, st, legal, params, knowledge):
                break
            if ruling and node != root:
                ruled = rule_result(st)
                if ruled >= 0:
                    k = params[P_RULE]
                    into = (s0 + depth + 1) & 1
                    flts[node, VISITS] += k
                    flts[node, WINS] += k * (0.5 if ruled == DRAW else (1.0 if ruled == into
                                                                         else 0.0))
                    flts[node, ISQ] = 1.0 / math.sqrt(flts[node, VISITS])
                    _refresh_q(flts, node, params[P_RAVE] != 0.0, params[P_RAVE_BIAS])
        if settling and node != root and flts[node, VISITS] == params[P_SETTLE_VISITS] \
                and free_cells(st) <= params[P_SETTLE]:
            found = settle(st, np.int64(params[P_SETTLE_NODES]), tt_keys, tt_vals)
            if found >= 0 and found != DRAW:
                ints[node, PROOF] = 1 if found == (s0 + depth + 1) & 1 else -1
                _propagate_proof(ints, node, root)
                result = found
                break
        if net_at >= 0.0 and flts[node, NET] == 0.0 and flts[node, VISITS] >= net_at \
                and ints[node, NCHILD] > 1 and meta[QUEUED] < queue_cap:
            q = meta[QUEUED]
            copy_position(st, queue_states[q])
            queue_nodes[q] = node
            meta[QUEUED] = q + 1
            flts[node, NET] = 1.0
        child = _select(ints, flts, node, params, tables)
        apply_move(st, np.int64(ints[child, MOVE]))     # one specialisation: int64 moves
        depth += 1
        path[depth] = child
        node = child
        if marked and fill_of[child] > 0:
            fill_row = fill_of[child]
        result = known_result(ints, st, child, (s0 + depth + 1) & 1, root)
        if result >= 0:
            break
        if flts[child, VISITS] == 0.0:
            break
    rave = params[P_RAVE] != 0.0
    bias = params[P_RAVE_BIAS]
    for i in range(owner.shape[0]):
        owner[i] = -1
    if result < 0:
        policy = np.int64(params[P_POLICY])
        local = params[P_LOCAL]
        fill = fills[fill_row] if fill_row > 0 else fills[0, :0]
        if rave:
            result = playout_policy(st, rng, work, owner, policy, knowledge, local, fill)
        else:
            result = playout_policy(st, rng, work, owner[:0], policy, knowledge, local, fill)
    # back up from the leaf: node at depth d was entered by `mover`
    for d in range(depth, -1, -1):
        node = path[d]
        mover = (s0 + d + 1) & 1
        if result == DRAW:
            v = 0.5
        elif result == mover:
            v = 1.0
        else:
            v = 0.0
        flts[node, VISITS] += 1.0
        flts[node, WINS] += v
        n = flts[node, VISITS]
        flts[node, ISQ] = tables[1, np.int64(n)] if n < TABLE_SIZE else 1.0 / math.sqrt(n)
        _refresh_q(flts, node, rave, bias)
        if rave and d < depth:
            to_move = 1 - mover
            first = ints[node, CHILD]
            for ch in range(first, first + ints[node, NCHILD]):
                if owner[ints[ch, MOVE]] == to_move:
                    flts[ch, AMAF_N] += 1.0
                    flts[ch, AMAF_W] += 1.0 - v
                    _refresh_q(flts, ch, rave, bias)
        if d > 0:
            owner[ints[node, MOVE]] = mover
    return depth


@njit(cache=True, nogil=True)
def run_simulations(ints, flts, meta, root_state, count, rng, params, tables, knowledge, fills,
                    fill_of, queue_states, queue_nodes):
    """Run up to ``count`` simulations from ``root_state``; stops early once the root is solved.
    ``knowledge``: the game's learned move weights for the priors (empty: none).  ``fills``
    (rows of cells, ``playout_policy``'s ``fill``; row 0 unused) and ``fill_of`` (per node,
    its row, 0 none; empty: no fills at all): the cells of a node's position that make no
    difference to its result, found by the tree knowledge; a playout starts with those of the
    deepest such node on its path, where they are still empty.  ``queue_states``,
    ``queue_nodes``: the network's queue (see the module's text; empty: none).

    Returns (simulations done, deepest path seen).
    """
    st = np.empty_like(root_state)
    work = np.empty(root_state.shape[0] + 64, dtype=np.int64)
    owner = np.empty(root_state[NUM_ACTIONS], dtype=np.int64)
    legal = np.empty(root_state[NUM_ACTIONS], dtype=np.int64)
    path = np.empty(root_state.shape[0] + 2, dtype=np.int64)   # longer than any game
    settling = params.shape[0] > P_SETTLE_VISITS and params[P_SETTLE] > 0.0
    tt_keys = np.zeros((1 << SETTLE_BITS) if settling else 1, dtype=np.int64)
    tt_vals = np.full((1 << SETTLE_BITS) if settling else 1, -1, dtype=np.int64)
    root = meta[ROOT]
    done = 0
    deepest = 0
    for _ in range(count):
        if ints[root, PROOF] != 0:
            break
        d = _simulate(ints, flts, meta, root_state, st, rng, params, work, owner, path, legal, tables,
                      knowledge, fills, fill_of, queue_states, queue_nodes, tt_keys, tt_vals)
        if d > deepest:
            deepest = d
        done += 1
    return done, deepest


@njit(cache=True, nogil=True)
def write_priors(ints, flts, nodes, count, priors):
    """The network's policy ``priors[i]`` (over the moves) for the children of ``nodes[i]``,
    ``i < count``: each child's PRIOR is its move's share of the children's total (uniform when
    the network gives them nothing), and the node is marked done (NET 2)."""
    for i in range(count):
        set_child_priors(ints, flts, nodes[i], priors[i])
        flts[nodes[i], NET] = 2.0


@njit(cache=True, nogil=True)
def add_values(flts, nodes, count, values, params):
    """The network's values ``values[i]`` (in [-1, 1], for the side to move in the position of
    ``nodes[i]``, as ``Network.policy_value`` gives them), ``i < count``, mixed into the nodes'
    statistics: ``params[P_VALUE]`` visits at the win chance ``(1 - value) / 2`` of the player
    who moved into the node (the one its WINS count for).  Nothing when P_VALUE is 0 or the
    params are shorter."""
    if params.shape[0] <= P_VALUE or params[P_VALUE] <= 0.0:
        return
    k = params[P_VALUE]
    rave = params[P_RAVE] != 0.0
    for i in range(count):
        node = nodes[i]
        v = min(1.0, max(-1.0, values[i]))
        flts[node, VISITS] += k
        flts[node, WINS] += k * 0.5 * (1.0 - v)
        flts[node, ISQ] = 1.0 / math.sqrt(flts[node, VISITS])
        _refresh_q(flts, node, rave, params[P_RAVE_BIAS])


@njit(cache=True, nogil=True)
def set_child_priors(ints, flts, node, policy):
    """Each child's PRIOR: its move's share of ``policy`` (over the moves) among the children
    of ``node`` (uniform when the policy gives them nothing).  The network's priors of the
    plain tree and the evaluator's of PUCT both go in this way."""
    first = ints[node, CHILD]
    k = ints[node, NCHILD]
    total = 0.0
    for ch in range(first, first + k):
        total += policy[ints[ch, MOVE]]
    for ch in range(first, first + k):
        flts[ch, PRIOR] = policy[ints[ch, MOVE]] / total if total > 0.0 else 1.0 / k


@njit(cache=True, nogil=True)
def compact_tree(ints, flts, meta, new_ints, new_flts):
    """Copy the subtree under the root into fresh arrays (root at 0), children kept contiguous."""
    root = meta[ROOT]
    for j in range(5):
        new_ints[0, j] = ints[root, j]
    for j in range(NF):
        new_flts[0, j] = flts[root, j]
    new_ints[0, PARENT] = -1
    old_of = np.empty(new_ints.shape[0], dtype=np.int64)
    old_of[0] = root
    used = 1
    i = 0
    while i < used:
        old = old_of[i]
        k = ints[old, NCHILD]
        if k > 0:
            if used + k > new_ints.shape[0]:
                new_ints[i, CHILD] = -1
                new_ints[i, NCHILD] = 0
            else:
                first = ints[old, CHILD]
                new_ints[i, CHILD] = used
                for t in range(k):
                    for j in range(5):
                        new_ints[used + t, j] = ints[first + t, j]
                    for j in range(NF):
                        new_flts[used + t, j] = flts[first + t, j]
                    new_ints[used + t, PARENT] = i
                    old_of[used + t] = first + t
                used += k
        i += 1
    meta[USED] = used
    meta[ROOT] = 0
    meta[FULL] = 0
