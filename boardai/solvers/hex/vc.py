"""Hex virtual connections for the exact solver: bitboard geometry and H-search.

The solver works on boards of at most 64 cells with one ``uint64`` bit per cell (bit ``r*W + c``,
the same cell numbering as ``kernel.py``).  A *virtual connection* (VC) between two points
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
Carrier lists are capped (``KF`` full, ``KS`` semi per pair), which only loses VCs, never
makes a wrong one, so the answers stay sound.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.hex.kernel import neighbour_table
from boardai.games.layout import popcount

ONE = np.uint64(1)
ZERO = np.uint64(0)
KF = 8          # full-VC carriers kept per pair of points
KS = 32         # semi-VC carriers kept per pair of points
MAX_POINTS = 66  # 64 cells + 2 edges
MAX_PASSES = 12  # AND/OR rounds (the closure is usually reached in 3-5)


def geometry(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Neighbour masks ``nbr[cell]`` and the edge masks ``edges[4]`` (top, bottom, left, right)
    of a W×H board of at most 64 cells."""
    n = w * h
    if n > 64:
        raise ValueError(f"the Hex solver handles boards of at most 64 cells, not {w}x{h}")
    nbr = np.array([sum(1 << int(j) for j in row if j >= 0)
                    for row in neighbour_table(w, h)], dtype=np.uint64)
    top = sum(1 << c for c in range(w))
    bottom = top << ((h - 1) * w)
    left = sum(1 << (r * w) for r in range(h))
    right = left << (w - 1)
    edges = np.array([top, bottom, left, right], dtype=np.uint64)
    return nbr, edges


@njit(cache=True, nogil=True, inline="always")
def bit(c):
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True)
def grow(seed, allowed, nbr, n):
    """The cells of ``allowed`` connected to ``seed`` (seed must lie inside allowed)."""
    reach = seed & allowed
    frontier = reach
    while frontier != ZERO:
        nxt = ZERO
        for c in range(n):
            if (frontier >> np.uint64(c)) & ONE:
                nxt |= nbr[c]
        nxt &= allowed & ~reach
        reach |= nxt
        frontier = nxt
    return reach


@njit(cache=True, nogil=True)
def neighbourhood(mask, nbr, n):
    out = ZERO
    for c in range(n):
        if (mask >> np.uint64(c)) & ONE:
            out |= nbr[c]
    return out & ~mask


@njit(cache=True, nogil=True)
def connected(own, edge_a, edge_b, nbr, n):
    """True if the stones ``own`` join ``edge_a`` to ``edge_b``."""
    return grow(own & edge_a, own, nbr, n) & edge_b != ZERO


@njit(cache=True, nogil=True)
def _has_subset(car, cnt, x, y, c):
    """Does the list of pair (x, y) hold a subset of carrier ``c``?"""
    if x > y:
        x, y = y, x
    for i in range(cnt[x, y]):
        if car[x, y, i] & c == car[x, y, i]:
            return True
    return False


@njit(cache=True, nogil=True)
def _add(car, cnt, x, y, c, k):
    """Add carrier ``c`` to the list of pair (x, y) unless a subset is there; drop supersets.
    A full list keeps its ``k`` smallest carriers.  Returns True if the list changed."""
    if x > y:
        x, y = y, x
    if _has_subset(car, cnt, x, y, c):
        return False
    m = cnt[x, y]
    j = 0
    for i in range(m):
        e = car[x, y, i]
        if e & c != c:            # keep carriers that are not supersets of c
            car[x, y, j] = e
            j += 1
    if j < k:
        car[x, y, j] = c
        j += 1
    elif j == m:
        # full: a smaller carrier takes the place of the largest (small ones cut more)
        big = 0
        big_size = popcount(car[x, y, 0])
        for i in range(1, j):
            size = popcount(car[x, y, i])
            if size > big_size:
                big, big_size = i, size
        if popcount(c) >= big_size:
            return False
        car[x, y, big] = c
    cnt[x, y] = j
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
    union = ZERO
    while common != target:
        best = -1
        best_left = popcount(common)
        best_size = 65
        for i in range(m):
            left = popcount(common & sc[x, y, i])
            size = popcount(sc[x, y, i])
            if left < best_left or (left == best_left and best >= 0 and size < best_size):
                best, best_left, best_size = i, left, size
        if best < 0:
            break
        common &= sc[x, y, best]
        union |= sc[x, y, best]
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
        a = sc[x, y, i]
        if a == new:
            continue
        na = new & a
        if na == ZERO:
            if _add(fc, nf, x, y, new | a, KF):
                added = True
            continue
        for j in range(i + 1, m):
            b = sc[x, y, j]
            if b == new:
                continue
            nab = na & b
            if nab == ZERO:
                if _add(fc, nf, x, y, new | a | b, KF):
                    added = True
                continue
            for l in range(j + 1, m):
                c = sc[x, y, l]
                if c != new and nab & c == ZERO:
                    if _add(fc, nf, x, y, new | a | b | c, KF):
                        added = True
    if not added and m > 4:
        common, union = cover(sc, ns, x, y, new, ZERO)
        if common == ZERO and _add(fc, nf, x, y, new | union, KF):
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
    empty = ~(own | opp)
    ea = edges[2 * colour]
    eb = edges[2 * colour + 1]
    allcells = edges[0] | ~edges[0]
    if n < 64:
        allcells = (ONE << np.uint64(n)) - ONE
    empty &= allcells
    # --- points: 0 and 1 the edges (with the stones joined to them), then groups, then cells
    ga = grow(own & ea, own, nbr, n)
    gb = grow(own & eb, own, nbr, n)
    if ga & gb != ZERO:
        return True, True, ZERO
    pmask[0] = ga
    pnb[0] = (neighbourhood(ga, nbr, n) | ea) & empty
    pcell[0] = -1
    pmask[1] = gb
    pnb[1] = (neighbourhood(gb, nbr, n) | eb) & empty
    pcell[1] = -1
    p = 2
    rest = own & ~(ga | gb)
    while rest != ZERO:
        low = rest & (~rest + ONE)
        g = grow(low, own, nbr, n)
        rest &= ~g
        pmask[p] = g
        pnb[p] = neighbourhood(g, nbr, n) & empty
        pcell[p] = -1
        p += 1
    first_cell = p
    cellpoint = near[MAX_POINTS:]
    for c in range(n):
        if (empty >> np.uint64(c)) & ONE:
            pmask[p] = bit(c)
            pnb[p] = nbr[c] & empty
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
        if x < first_cell:
            nb = pnb[x]
            for c in range(n):
                if (nb >> np.uint64(c)) & ONE:
                    _add(fc, nf, x, cellpoint[c], ZERO, KF)
        else:
            c0 = pcell[x]
            nb = pnb[x]
            for c in range(c0 + 1, n):
                if (nb >> np.uint64(c)) & ONE:
                    _add(fc, nf, x, cellpoint[c], ZERO, KF)
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
                xbit = bit(pcell[x]) if pcell[x] >= 0 else ZERO
                for j in range(i + 1, k):
                    y = near[j]
                    ya, yb = (y, z) if y < z else (z, y)
                    if dirty[xa, xb] <= it and dirty[ya, yb] <= it:
                        continue        # both halves already combined in an earlier pass
                    ybit = bit(pcell[y]) if pcell[y] >= 0 else ZERO
                    for u in range(nf[xa, xb]):
                        c1 = fc[xa, xb, u]
                        if c1 & ybit:
                            continue
                        for v in range(nf[ya, yb]):
                            c2 = fc[ya, yb, v]
                            if c1 & c2 or c2 & xbit:
                                continue
                            if zc >= 0:
                                semi = c1 | c2 | bit(zc)
                                # a semi holding a full carrier of the pair adds nothing
                                if not _has_subset(fc, nf, x, y, semi) and \
                                        _add(sc, ns, x, y, semi, KS):
                                    changed = True
                                    lo, hi = (x, y) if x < y else (y, x)
                                    if _or_rule(sc, ns, fc, nf, lo, hi, semi):
                                        dirty[lo, hi] = it + 2
                            else:
                                if _add(fc, nf, x, y, c1 | c2, KF):
                                    changed = True
                                    lo, hi = (x, y) if x < y else (y, x)
                                    dirty[lo, hi] = it + 2
        if nf[0, 1] > 0 or (stop_at_semi and ns[0, 1] > 0) or not changed:
            break
    inter = empty
    for i in range(ns[0, 1]):
        inter &= sc[0, 1, i]
    return nf[0, 1] > 0, ns[0, 1] > 0, inter


def new_scratch():
    """Scratch arrays for ``hsearch`` (one set per thread)."""
    fc = np.zeros((MAX_POINTS, MAX_POINTS, KF), dtype=np.uint64)
    nf = np.zeros((MAX_POINTS, MAX_POINTS), dtype=np.int64)
    sc = np.zeros((MAX_POINTS, MAX_POINTS, KS), dtype=np.uint64)
    ns = np.zeros((MAX_POINTS, MAX_POINTS), dtype=np.int64)
    pmask = np.zeros(MAX_POINTS, dtype=np.uint64)
    pcell = np.zeros(MAX_POINTS, dtype=np.int64)
    pnb = np.zeros(MAX_POINTS, dtype=np.uint64)
    near = np.zeros(MAX_POINTS + 64, dtype=np.int64)
    dirty = np.zeros((MAX_POINTS, MAX_POINTS), dtype=np.int64)
    return fc, nf, sc, ns, pmask, pcell, pnb, near, dirty
