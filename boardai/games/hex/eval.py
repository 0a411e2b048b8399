"""Static evaluators of Hex positions for the minimax engines (``engines/alphabeta/``).

Each returns a score from the side to move's view (positive = good for the player to move),
bounded well under the search's win score.  Cells are read from the kernel's state array
(``hex/kernel.py``: ``state[HEADER + r*W + c]`` is 0 empty, 1 Black, 2 White); Black joins the
top row to the bottom row, White the left column to the right column.

* ``connected`` (the simplest evaluator): stones touching another stone of their colour,
  mine minus the opponent's.
* ``better`` (a better first evaluator than ``connected``): the shortest path -- how
  many empty cells each side still needs to join its two sides, own stones free, opponent
  stones walls (0-1 breadth-first search) -- as the opponent's count minus mine, ten points a
  cell, with ``connected`` as the tie-break.
* ``twodistance`` (Anshelevich's two-distance, as in Queenbee): an empty cell's distance to an
  edge is 1 + the *second* smallest distance among its neighbours (an opponent can always block
  the best one), own stones passing their neighbours' best distance on; a cell's potential is
  its distance to one edge plus to the other, a side's value its smallest potential; score =
  the opponent's minus mine, with the number of cells at the minimum as the tie-break.
* ``resistance`` (Anshelevich / Hexy): the board as an electrical circuit between a side's two
  edges, empty cells resistance 1, own stones 0.1, opponent stones cut out; the effective
  resistance (solved with Jacobi-preconditioned conjugate gradients on the cell Laplacian) is
  lower for the side whose connection is stronger and more redundant; score =
  10 * ln(R_opponent / R_mine).

``twodistance`` is the default: in a round robin on 7x7 at 0.25 s per move it won every game
against ``resistance`` (docs/experiments.md).  Our resistance model likes edge and corner cells
(a stone on its own edge row both merges with that edge and cuts the opponent's), which the
two-distance, by counting only connections the opponent cannot cut with one stone, does not.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from boardai.games.hex.kernel import neighbour_table as neighbours  # noqa: F401 (eval API)
from boardai.games.layout import BLACK, HEADER, HEIGHT, PLY, WIDTH

CONNECTED = 0
BETTER = 1
TWODISTANCE = 2
RESISTANCE = 3
EVALUATORS = {
    "connected": (CONNECTED, "stones touching a stone of their own colour"),
    "better": (BETTER, "shortest path: empty cells each side still needs to connect, ties by "
                       "connected stones"),
    "twodistance": (TWODISTANCE, "Anshelevich's two-distance potentials: connections the "
                                 "opponent cannot cut with one stone"),
    "resistance": (RESISTANCE, "electrical resistance between a side's edges: strong, redundant "
                               "connections (Anshelevich, Hexy)"),
}
DEFAULT = "twodistance"   # measured strongest: docs/experiments.md (resistance lost 0-10 to it)

INF = 1 << 20
R_EMPTY = 1.0
R_OWN = 0.1
CG_TOL = 1e-8          # on the squared residual, relative to the right-hand side's
CAP = 400.0            # |score| bound (far under the search's win score)


@njit(cache=True, nogil=True)
def _on_start(colour, r, c):
    """Cell (r, c) touches ``colour``'s first edge (Black: top row, White: left column)."""
    return r == 0 if colour == BLACK else c == 0


@njit(cache=True, nogil=True)
def _on_end(colour, r, c, w, h):
    return r == h - 1 if colour == BLACK else c == w - 1


@njit(cache=True, nogil=True)
def _connected(state, nb, colour):
    n = nb.shape[0]
    stone = colour + 1
    count = 0
    for i in range(n):
        if state[HEADER + i] == stone:
            for k in range(6):
                j = nb[i, k]
                if j >= 0 and state[HEADER + j] == stone:
                    count += 1
                    break
    return count


@njit(cache=True, nogil=True)
def shortest_path(state, nb, colour):
    """Empty cells ``colour`` needs to join its edges (0-1 BFS); INF when it is cut off."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    stone = colour + 1
    enemy = 2 - colour
    dist = np.full(n, INF, dtype=np.int64)
    # deque in one array: a cell is pushed once per improvement, at most once per edge (6n)
    # plus its start, so 7n + 1 slots on each side of the middle are enough
    dq = np.empty(14 * n + 2, dtype=np.int64)
    head = 7 * n + 1
    tail = head
    for i in range(n):
        r = i // w
        c = i - r * w
        if _on_start(colour, r, c) and state[HEADER + i] != enemy:
            d = 0 if state[HEADER + i] == stone else 1
            dist[i] = d
            if d == 0:
                head -= 1
                dq[head] = i
            else:
                dq[tail] = i
                tail += 1
    best = INF
    while head < tail:
        i = dq[head]
        head += 1
        r = i // w
        c = i - r * w
        if _on_end(colour, r, c, w, h) and dist[i] < best:
            best = dist[i]
        for k in range(6):
            j = nb[i, k]
            if j < 0:
                break
            v = state[HEADER + j]
            if v == enemy:
                continue
            step = 0 if v == stone else 1
            if dist[i] + step < dist[j]:
                dist[j] = dist[i] + step
                if step == 0:
                    head -= 1
                    dq[head] = j
                else:
                    dq[tail] = j
                    tail += 1
    return best


@njit(cache=True, nogil=True)
def _two_distance(state, nb, colour, start, out):
    """Two-distance of every cell to ``colour``'s first (start=True) or second edge, in ``out``."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    stone = colour + 1
    enemy = 2 - colour
    for i in range(n):
        out[i] = INF
    changed = True
    forward = True
    while changed:
        changed = False
        for t in range(n):
            i = t if forward else n - 1 - t           # alternate sweeps: converges in a few
            v = state[HEADER + i]
            if v == enemy:
                continue
            r = i // w
            c = i - r * w
            on_edge = _on_start(colour, r, c) if start else _on_end(colour, r, c, w, h)
            if v == stone:
                best = 0 if on_edge else INF          # a stone passes its best on
                for k in range(6):
                    j = nb[i, k]
                    if j < 0:
                        break
                    if out[j] < best:
                        best = out[j]
                new = best
            elif on_edge:
                new = 1
            else:
                m1 = INF                              # two best empty neighbours
                m2 = INF
                group = INF                           # best own stone next to it
                for k in range(6):
                    j = nb[i, k]
                    if j < 0:
                        break
                    d = out[j]
                    if state[HEADER + j] == stone:
                        group = min(group, d)
                    elif d < m1:
                        m2 = m1
                        m1 = d
                    elif d < m2:
                        m2 = d
                new = min(m2, group) + 1 if min(m2, group) < INF else INF
            if new < out[i]:
                out[i] = new
                changed = True
        forward = not forward


@njit(cache=True, nogil=True)
def _potential(state, nb, colour):
    """(smallest two-distance potential over empty cells, how many cells reach it)."""
    n = nb.shape[0]
    a = np.empty(n, dtype=np.int64)
    b = np.empty(n, dtype=np.int64)
    _two_distance(state, nb, colour, True, a)
    _two_distance(state, nb, colour, False, b)
    best = INF
    count = 0
    for i in range(n):
        if state[HEADER + i] == 0:
            p = min(a[i] + b[i], INF)
            if p < best:
                best = p
                count = 1
            elif p == best:
                count += 1
    return best, count


@njit(cache=True, nogil=True)
def resistance(state, nb, colour):
    """Effective resistance between ``colour``'s edges (inf when they cannot be joined)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = w * h
    stone = colour + 1
    enemy = 2 - colour
    res = np.empty(n)
    for i in range(n):
        v = state[HEADER + i]
        res[i] = -1.0 if v == enemy else (R_OWN if v == stone else R_EMPTY)
    diag = np.zeros(n)
    g_src = np.zeros(n)
    rhs = np.zeros(n)
    for i in range(n):
        if res[i] < 0:
            continue
        r = i // w
        c = i - r * w
        for k in range(6):
            j = nb[i, k]
            if j < 0:
                break
            if res[j] >= 0:
                diag[i] += 1.0 / (res[i] + res[j])
        if _on_start(colour, r, c):
            g_src[i] = 1.0 / res[i]
            diag[i] += g_src[i]
            rhs[i] = g_src[i]
        if _on_end(colour, r, c, w, h):
            diag[i] += 1.0 / res[i]
    # conjugate gradients on A v = rhs, Jacobi preconditioner
    x = np.zeros(n)
    rvec = rhs.copy()
    z = np.zeros(n)
    p = np.zeros(n)
    ap = np.zeros(n)
    rz = 0.0
    b2 = 0.0
    for i in range(n):
        if diag[i] > 0.0:
            z[i] = rvec[i] / diag[i]
        p[i] = z[i]
        rz += rvec[i] * z[i]
        b2 += rhs[i] * rhs[i]
    if b2 == 0.0:
        return math.inf
    for _ in range(4 * n + 20):
        pap = 0.0
        for i in range(n):
            if res[i] < 0:
                ap[i] = 0.0
                continue
            s = diag[i] * p[i]
            for k in range(6):
                j = nb[i, k]
                if j < 0:
                    break
                if res[j] >= 0:
                    s -= p[j] / (res[i] + res[j])
            ap[i] = s
            pap += p[i] * s
        if pap <= 0.0:
            break
        alpha = rz / pap
        rr = 0.0
        rz_new = 0.0
        for i in range(n):
            x[i] += alpha * p[i]
            rvec[i] -= alpha * ap[i]
            rr += rvec[i] * rvec[i]
            z[i] = rvec[i] / diag[i] if diag[i] > 0.0 else 0.0
            rz_new += rvec[i] * z[i]
        if rr <= CG_TOL * b2:
            break
        beta = rz_new / rz
        rz = rz_new
        for i in range(n):
            p[i] = z[i] + beta * p[i]
    current = 0.0
    for i in range(n):
        if g_src[i] > 0.0:
            current += g_src[i] * (1.0 - x[i])
    if current <= 1e-12:
        return math.inf
    return 1.0 / current


@njit(cache=True, nogil=True)
def hex_evaluate(state, ev, nb):
    """Score of the position for the side to move with evaluator ``ev``; ``nb`` = neighbours()."""
    me = state[PLY] & 1
    op = 1 - me
    if ev == CONNECTED:
        return float(_connected(state, nb, me) - _connected(state, nb, op))
    if ev == BETTER:
        d = min(shortest_path(state, nb, op), 40) - min(shortest_path(state, nb, me), 40)
        return 10.0 * d + 0.1 * (_connected(state, nb, me) - _connected(state, nb, op))
    if ev == TWODISTANCE:
        pm, cm = _potential(state, nb, me)
        po, co = _potential(state, nb, op)
        pm = min(pm, 60)
        po = min(po, 60)
        return 5.0 * (po - pm) + 0.1 * (cm - co)
    rm = resistance(state, nb, me)
    ro = resistance(state, nb, op)
    if math.isinf(rm) and math.isinf(ro):
        return 0.0
    if math.isinf(rm):
        return -CAP
    if math.isinf(ro):
        return CAP
    return max(-CAP, min(CAP, 10.0 * math.log(ro / rm)))


@njit(cache=True, nogil=True)
def hex_move_prior(state, move):
    """Ordering hint: cells near the centre first."""
    w = state[WIDTH]
    h = state[HEIGHT]
    r = move // w
    c = move - r * w
    dr = 2 * r - (h - 1)
    dc = 2 * c - (w - 1)
    return -(abs(dr) + abs(dc) + abs(dr + dc))
