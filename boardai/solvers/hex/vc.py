"""Hex virtual connections for the exact solver: bitboard geometry and H-search.

A set of cells is one ``uint64`` on boards of at most 64 cells and a pair of them up to 128
cells (11x11), bit ``r*W + c`` being cell (r, c) as in ``kernel.py``; the functions
below are written once over ``bits.py``'s operations and numba compiles them for either kind.  A *virtual connection* (VC) between two points
(an edge, a group of stones, or an empty cell taken as if owned) is a set of empty cells, its
*carrier*, inside which the owner connects the two points even if the opponent moves first (a
full VC) or only if the owner moves first (a semi VC, whose carrier includes the key move).

H-search (Anshelevich) derives VCs from adjacency by two rules, repeated until nothing new:

* AND: full VCs x~z and z~y with disjoint carriers (x, y outside them) give x~y: a full VC when
  z is a group of stones, a semi VC with key z when z is an empty cell.
* OR: semi VCs x~y whose carriers have an empty common part give a full VC x~y (the owner
  answers each threat inside its own carrier).  Two to four semis are tried, then a greedy
  cover by more.

Bridges, the bridge to the edge (template II) and the third-row ziggurat (template IIIa) come out
of these two rules.  What the solver reads is the edge-to-edge summary of one colour:
a full VC (that colour has won, whoever moves), a semi VC (it wins if it moves), and the
intersection of the semi carriers (the *mustplay*: the opponent must play there or lose).
A full carrier joins its pair's list only if it narrows the list, dropping a superset or leaving
out a cell common to all the others (Benzene's ``limit_fulls``: the rules and the mustplay read
mostly what is common to a pair's carriers); lists are capped (``KF`` full, ``KS`` semi per pair,
the sizes of the scratch arrays).  Dropping a carrier only loses VCs, never makes a wrong one,
so the answers stay sound.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.hex.kernel import neighbour_table
from boardai.solvers.hex.bits import (
    ONE, ZERO, array_of, at, at3, b_and, b_andnot, b_not, b_or, count, first_cells, has,
    is_empty, lowest, none_like, put, put3, same, single, words_for,
)

KF = 16         # full-VC carriers kept per pair of points (new_scratch's default)
KS = 32         # semi-VC carriers kept per pair of points (new_scratch's default)
MAX_PASSES = 12  # AND/OR rounds (the closure is usually reached in 3-5)

__all__ = ["ONE", "ZERO", "bit", "connected", "cover", "geometry", "grow", "hsearch",
           "neighbourhood", "new_scratch"]


def max_points(cells: int) -> int:
    """Points of an H-search: the cells and the two edges."""
    return cells + 2


def geometry(w: int, h: int, words: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Neighbour sets ``nbr[cell]`` and the edge sets ``edges[4]`` (top, bottom, left, right)
    of a W×H board: one word each up to 64 cells, a pair (``[.., 2]`` arrays) up to 128
    (``words=2`` asks for pairs on a small board too)."""
    words = max(words_for(w * h), words or 1)
    nbr = [sum(1 << int(j) for j in row if j >= 0) for row in neighbour_table(w, h)]
    top = sum(1 << c for c in range(w))
    bottom = top << ((h - 1) * w)
    left = sum(1 << (r * w) for r in range(h))
    right = left << (w - 1)
    return array_of(nbr, words), array_of([top, bottom, left, right], words)


@njit(cache=True, nogil=True, inline="always")
def bit(c):
    """The one-word set {c} (the solver's boards)."""
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True)
def grow(seed, allowed, nbr, n):
    """The cells of ``allowed`` connected to ``seed`` (seed must lie inside allowed)."""
    reach = b_and(seed, allowed)
    frontier = reach
    while not is_empty(frontier):
        nxt = none_like(frontier)
        for c in range(n):
            if has(frontier, c):
                nxt = b_or(nxt, at(nbr, c))
        nxt = b_andnot(b_and(nxt, allowed), reach)
        reach = b_or(reach, nxt)
        frontier = nxt
    return reach


@njit(cache=True, nogil=True)
def neighbourhood(mask, nbr, n):
    out = none_like(mask)
    for c in range(n):
        if has(mask, c):
            out = b_or(out, at(nbr, c))
    return b_andnot(out, mask)


@njit(cache=True, nogil=True)
def connected(own, edge_a, edge_b, nbr, n):
    """True if the stones ``own`` join ``edge_a`` to ``edge_b``."""
    return not is_empty(b_and(grow(b_and(own, edge_a), own, nbr, n), edge_b))


@njit(cache=True, nogil=True, inline="always")
def _subset(a, b):
    """Is ``a`` a subset of ``b``?"""
    return same(b_and(a, b), a)


@njit(cache=True, nogil=True)
def _has_subset(car, cnt, x, y, c):
    """Does the list of pair (x, y) hold a subset of carrier ``c``?"""
    if x > y:
        x, y = y, x
    for i in range(cnt[x, y]):
        if _subset(at3(car, x, y, i), c):
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _drop_supersets(car, cnt, x, y, c):
    """Close up the list of pair (x, y) (x < y) over its carriers that hold all of ``c``;
    returns how many are left (``cnt`` is the caller's to set)."""
    j = 0
    for i in range(cnt[x, y]):
        e = at3(car, x, y, i)
        if not _subset(c, e):
            put3(car, x, y, j, e)
            j += 1
    return j


@njit(cache=True, nogil=True)
def _add(car, cnt, x, y, c, k):
    """Add carrier ``c`` to the list of pair (x, y) unless a subset is there; drop supersets.
    A list that already holds ``k`` keeps its smallest carriers (the semi lists).  Returns True
    if the list changed."""
    if x > y:
        x, y = y, x
    if _has_subset(car, cnt, x, y, c):
        return False
    m = cnt[x, y]
    j = _drop_supersets(car, cnt, x, y, c)
    if j < k:
        put3(car, x, y, j, c)
        j += 1
    elif j == m:
        # full: a smaller carrier takes the place of the largest (small ones cut more)
        big = 0
        big_size = count(at3(car, x, y, 0))
        for i in range(1, j):
            size = count(at3(car, x, y, i))
            if size > big_size:
                big, big_size = i, size
        if count(c) >= big_size:
            return False
        put3(car, x, y, big, c)
    cnt[x, y] = j
    return True


@njit(cache=True, nogil=True)
def _add_full(car, cnt, x, y, c):
    """Add the full carrier ``c`` to the list of pair (x, y) if it narrows the list: it drops
    a superset, or it does not hold every cell common to the list (Benzene's ``limit_fulls``:
    what the AND and OR rules and the mustplay read of a pair is mostly its common part).  A
    list holds ``car.shape[2]`` carriers at most.  Returns True if the list changed."""
    if x > y:
        x, y = y, x
    m = cnt[x, y]
    if m == 0:
        put3(car, x, y, 0, c)
        cnt[x, y] = 1
        return True
    common = at3(car, x, y, 0)
    for i in range(m):
        e = at3(car, x, y, i)
        if _subset(e, c):
            return False             # a subset is there already
        common = b_and(common, e)
    j = _drop_supersets(car, cnt, x, y, c)
    if (j == m and _subset(common, c)) or j == car.shape[2]:
        return False                 # narrows nothing, or no room
    put3(car, x, y, j, c)
    cnt[x, y] = j + 1
    return True


@njit(cache=True, nogil=True)
def cover(sc, ns, x, y, common, target):
    """Greedy: semi carriers of pair (x, y) that cut ``common`` down to ``target``, each time the
    one leaving the fewest common cells (the smaller on a tie).  Returns (what is left of
    ``common``, the union of the carriers taken); it stops early when no carrier cuts more.
    Used by the OR rule (down to no common cell: a full VC) and by the solver (the few semis
    that justify a mustplay)."""
    if x > y:
        x, y = y, x
    m = ns[x, y]
    union = none_like(common)
    while not same(common, target):
        best = -1
        best_left = count(common)
        best_size = 1 << 30
        for i in range(m):
            carrier = at3(sc, x, y, i)
            left = count(b_and(common, carrier))
            size = count(carrier)
            if left < best_left or (left == best_left and best >= 0 and size < best_size):
                best, best_left, best_size = i, left, size
        if best < 0:
            break
        carrier = at3(sc, x, y, best)
        common = b_and(common, carrier)
        union = b_or(union, carrier)
    return common, union


@njit(cache=True, nogil=True)
def _or_rule(sc, ns, fc, nf, x, y, new):
    """Full VCs of (x, y) from the new semi carrier ``new`` and one, two or three others of
    the pair with no cell common to all (each combination is tried once, when its last semi
    arrives); if none is found among more than four semis, a greedy ``cover``.  Any number of
    semis with no common cell make a full VC: the opponent's move misses one of them, whose key
    answers it."""
    added = False
    m = ns[x, y]
    for i in range(m):
        a = at3(sc, x, y, i)
        if same(a, new):
            continue
        na = b_and(new, a)
        if is_empty(na):
            if _add_full(fc, nf, x, y, b_or(new, a)):
                added = True
            continue
        for j in range(i + 1, m):
            b = at3(sc, x, y, j)
            if same(b, new):
                continue
            nab = b_and(na, b)
            if is_empty(nab):
                if _add_full(fc, nf, x, y, b_or(b_or(new, a), b)):
                    added = True
                continue
            for l in range(j + 1, m):
                c = at3(sc, x, y, l)
                if not same(c, new) and is_empty(b_and(nab, c)):
                    if _add_full(fc, nf, x, y, b_or(b_or(new, a), b_or(b, c))):
                        added = True
    if not added and m > 4:
        common, union = cover(sc, ns, x, y, new, none_like(new))
        if is_empty(common) and _add_full(fc, nf, x, y, b_or(new, union)):
            added = True
    return added


@njit(cache=True, nogil=True)
def hsearch(own, opp, colour, nbr, edges, n, fc, nf, sc, ns, pmask, pcell, pnb, near, dirty,
            stop_at_semi=False):
    """H-search for ``colour`` (0 joins edges[0]-edges[1], 1 joins edges[2]-edges[3]).

    Returns (full, semi, inter): whether the colour has a full / a semi VC between its two
    edges, and the intersection of its edge-to-edge semi carriers (all empty cells if none).
    The other arguments are scratch arrays (see ``new_scratch``).  The closure stops as soon as
    an edge-to-edge full VC is found, or a semi one if ``stop_at_semi`` (then ``inter`` is not
    complete).
    """
    nothing = none_like(own)
    empty = b_and(b_not(b_or(own, opp)), first_cells(n, own))
    ea = at(edges, 2 * colour)
    eb = at(edges, 2 * colour + 1)
    # --- points: 0 and 1 the edges (with the stones joined to them), then groups, then cells
    ga = grow(b_and(own, ea), own, nbr, n)
    gb = grow(b_and(own, eb), own, nbr, n)
    if not is_empty(b_and(ga, gb)):
        return True, True, nothing
    put(pmask, 0, ga)
    put(pnb, 0, b_and(b_or(neighbourhood(ga, nbr, n), ea), empty))
    pcell[0] = -1
    put(pmask, 1, gb)
    put(pnb, 1, b_and(b_or(neighbourhood(gb, nbr, n), eb), empty))
    pcell[1] = -1
    p = 2
    rest = b_andnot(own, b_or(ga, gb))
    while not is_empty(rest):
        g = grow(lowest(rest), own, nbr, n)
        rest = b_andnot(rest, g)
        put(pmask, p, g)
        put(pnb, p, b_and(neighbourhood(g, nbr, n), empty))
        pcell[p] = -1
        p += 1
    first_cell = p
    npoints = nf.shape[0]
    cellpoint = near[npoints:]
    for c in range(n):
        if has(empty, c):
            put(pmask, p, single(c, own))
            put(pnb, p, b_and(at(nbr, c), empty))
            pcell[p] = c
            cellpoint[c] = p
            p += 1
    npts = p
    for x in range(npts):
        for y in range(x, npts):
            nf[x, y] = 0
            ns[x, y] = 0
            dirty[x, y] = 1
    # --- base: adjacent points are joined by an empty carrier
    for x in range(npts):
        nb = at(pnb, x)
        start = 0 if x < first_cell else pcell[x] + 1
        for c in range(start, n):
            if has(nb, c):
                _add_full(fc, nf, x, cellpoint[c], nothing)
    # --- closure
    for it in range(MAX_PASSES):
        changed = False
        # pairs whose full VCs changed in the last pass carry generation it+1 (first pass: all)
        for z in range(2, npts):            # never AND through an edge
            if nf[0, 1] > 0 or (stop_at_semi and ns[0, 1] > 0):
                break
            zc = pcell[z]
            # points with a full VC to z
            k = 0
            for x in range(npts):
                if x != z:
                    a, b = (x, z) if x < z else (z, x)
                    if nf[a, b] > 0:
                        near[k] = x
                        k += 1
            for i in range(k):
                x = near[i]
                xa, xb = (x, z) if x < z else (z, x)
                xbit = single(pcell[x], own) if pcell[x] >= 0 else nothing
                for j in range(i + 1, k):
                    y = near[j]
                    ya, yb = (y, z) if y < z else (z, y)
                    if dirty[xa, xb] <= it and dirty[ya, yb] <= it:
                        continue        # both halves already combined in an earlier pass
                    ybit = single(pcell[y], own) if pcell[y] >= 0 else nothing
                    for u in range(nf[xa, xb]):
                        c1 = at3(fc, xa, xb, u)
                        if not is_empty(b_and(c1, ybit)):
                            continue
                        for v in range(nf[ya, yb]):
                            c2 = at3(fc, ya, yb, v)
                            if not is_empty(b_and(c1, c2)) or not is_empty(b_and(c2, xbit)):
                                continue
                            if zc >= 0:
                                semi = b_or(b_or(c1, c2), single(zc, own))
                                # a semi holding a full carrier of the pair adds nothing
                                if not _has_subset(fc, nf, x, y, semi) and \
                                        _add(sc, ns, x, y, semi, sc.shape[2]):
                                    changed = True
                                    lo, hi = (x, y) if x < y else (y, x)
                                    if _or_rule(sc, ns, fc, nf, lo, hi, semi):
                                        dirty[lo, hi] = it + 2
                            else:
                                if _add_full(fc, nf, x, y, b_or(c1, c2)):
                                    changed = True
                                    lo, hi = (x, y) if x < y else (y, x)
                                    dirty[lo, hi] = it + 2
        if nf[0, 1] > 0 or (stop_at_semi and ns[0, 1] > 0) or not changed:
            break
    inter = empty
    for i in range(ns[0, 1]):
        inter = b_and(inter, at3(sc, 0, 1, i))
    return nf[0, 1] > 0, ns[0, 1] > 0, inter


def new_scratch(cells: int = 64, fulls: int | None = None, semis: int | None = None):
    """Scratch arrays for ``hsearch`` on boards of up to ``cells`` cells (one set per thread):
    sets of one word up to 64 cells, of two (a last axis of 2) up to 128.  ``fulls`` and
    ``semis`` are the carriers a pair's lists hold (default ``KF`` and ``KS``)."""
    words = words_for(cells)
    points = max_points(64 if words == 1 else 128)
    tail = () if words == 1 else (2,)
    fc = np.zeros((points, points, fulls or KF) + tail, dtype=np.uint64)
    nf = np.zeros((points, points), dtype=np.int64)
    sc = np.zeros((points, points, semis or KS) + tail, dtype=np.uint64)
    ns = np.zeros((points, points), dtype=np.int64)
    pmask = np.zeros((points,) + tail, dtype=np.uint64)
    pcell = np.zeros(points, dtype=np.int64)
    pnb = np.zeros((points,) + tail, dtype=np.uint64)
    near = np.zeros(points + 128, dtype=np.int64)
    dirty = np.zeros((points, points), dtype=np.int64)
    return fc, nf, sc, ns, pmask, pcell, pnb, near, dirty
