"""Inferior cells for the exact Hex solver: dead cells and captured pairs, found from each empty
cell's ring of six neighbours and filled in before the solver looks at a position; and the
moves that can be left out of a node's move list (capture-dominated and vulnerable ones).

* A cell is *dead* when no minimal winning set of either colour contains it, so its colour never
  matters.  The test used here: for each colour X, every two neighbours X could route a path
  through (X stones, X's edge, empty cells) are either adjacent to each other or joined by an
  arc of X stones / X edge around the cell, so an X path through the cell can always go round it.
  Four X neighbours in a row, or three of each colour, are the common cases.
* Two adjacent empty cells are *X-captured* when each becomes dead once X owns the other: if the
  opponent plays one, X answers with the other and the opponent's stone is dead.  X may fill
  both at once.

Filling dead cells (with either colour) and captured pairs (with their owner) keeps the value of
the position (Hayward & Henderson), and both rules only look at stones, so what is found in a
position stays true after more stones are played.  ``fill`` repeats them until nothing changes.

Off-board neighbours belong to the edge's colour (top/bottom Black, left/right White); the two
corner points that touch two edges count for nobody, which can only miss a pattern.

Sets of cells are one 64-bit word or a pair of them (``bits.py``), so the same rules serve the
solver's small boards and the MCTS knowledge up to 11x11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.solvers.hex.bits import (
    as_set, at, b_and, b_andnot, b_or, count, first_cells, has, none_like, single,
)

EDGE_BLACK, EDGE_WHITE, OFF_CORNER = -1, -2, -3
# around a cell, each step adjacent to the next: up, up-right, right, down, down-left, left
_RING_STEPS = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))
EMPTY, BLACK, WHITE, NOBODY = 0, 1, 2, 3


def ring_table(w: int, h: int) -> np.ndarray:
    """``ring[c]``: the six neighbours of cell c in circular order (cell index, or EDGE_BLACK,
    EDGE_WHITE, OFF_CORNER for off-board points)."""
    ring = np.zeros((w * h, 6), dtype=np.int64)
    for r in range(h):
        for c in range(w):
            for k, (dr, dc) in enumerate(_RING_STEPS):
                rr, cc = r + dr, c + dc
                row_off, col_off = not 0 <= rr < h, not 0 <= cc < w
                if row_off and col_off:
                    ring[r * w + c, k] = OFF_CORNER
                elif row_off:
                    ring[r * w + c, k] = EDGE_BLACK
                elif col_off:
                    ring[r * w + c, k] = EDGE_WHITE
                else:
                    ring[r * w + c, k] = rr * w + cc
    return ring


@njit(cache=True, nogil=True, inline="always")
def _label(x, black, white):
    if x >= 0:
        if has(black, x):
            return BLACK
        if has(white, x):
            return WHITE
        return EMPTY
    if x == EDGE_BLACK:
        return BLACK
    if x == EDGE_WHITE:
        return WHITE
    return NOBODY


@njit(cache=True, nogil=True)
def _useless_for(lab, colour):
    """True if a ``colour`` path through the cell can always go round it (see module doc)."""
    for i in range(6):
        if lab[i] != EMPTY and lab[i] != colour:
            continue
        for j in range(i + 2, 6):
            if j - i == 5 or (lab[j] != EMPTY and lab[j] != colour):
                continue                     # adjacent around the ring, or not usable
            inner = True
            for k in range(i + 1, j):
                if lab[k] != colour:
                    inner = False
                    break
            if inner:
                continue
            outer = True
            for k in range(j + 1, i + 6):
                if lab[k % 6] != colour:
                    outer = False
                    break
            if not outer:
                return False
    return True


@njit(cache=True, nogil=True)
def _dead_ring(lab):
    return _useless_for(lab, BLACK) and _useless_for(lab, WHITE)


@njit(cache=True, nogil=True)
def _ring_labels(ring, c, black, white, lab):
    for k in range(6):
        lab[k] = _label(ring[c, k], black, white)


@njit(cache=True, nogil=True)
def is_dead(c, black, white, ring):
    lab = np.empty(6, dtype=np.int64)
    _ring_labels(ring, c, black, white, lab)
    return _dead_ring(lab)


@njit(cache=True, nogil=True)
def _dead_if_owned(x, y, colour, black, white, ring, lab):
    """Is empty cell x dead once ``colour`` owns its neighbour y?"""
    _ring_labels(ring, x, black, white, lab)
    for k in range(6):
        if ring[x, k] == y:
            lab[k] = colour
    return _dead_ring(lab)


@njit(cache=True, nogil=True)
def fill(black_in, white_in, ring, n):
    """The position with its dead cells and captured pairs filled in (same value).

    Dead cells take the colour most of their ring has (Black on a tie); captured pairs their
    owner's.  Returns (black, white), of the kind given (a word or a pair, ``bits.py``).
    """
    black, white = as_set(black_in), as_set(white_in)
    lab = np.empty(6, dtype=np.int64)
    changed = True
    while changed:
        changed = False
        for c in range(n):
            if has(black, c) or has(white, c):
                continue
            _ring_labels(ring, c, black, white, lab)
            if _dead_ring(lab):
                nb = 0
                nw = 0
                for k in range(6):
                    nb += lab[k] == BLACK
                    nw += lab[k] == WHITE
                if nw > nb:
                    white = b_or(white, single(c, white))
                else:
                    black = b_or(black, single(c, black))
                changed = True
                continue
            for k in range(6):
                d = ring[c, k]
                if d <= c:                    # each pair once, cells only
                    continue
                if has(black, d) or has(white, d):
                    continue
                pair = b_or(single(c, black), single(d, black))
                if _dead_if_owned(c, d, BLACK, black, white, ring, lab) and \
                        _dead_if_owned(d, c, BLACK, black, white, ring, lab):
                    black = b_or(black, pair)
                    changed = True
                    break
                if _dead_if_owned(c, d, WHITE, black, white, ring, lab) and \
                        _dead_if_owned(d, c, WHITE, black, white, ring, lab):
                    white = b_or(white, pair)
                    changed = True
                    break
    return black, white


@njit(cache=True, nogil=True)
def _ring_cells(ring, c, like):
    out = none_like(like)
    for k in range(6):
        if ring[c, k] >= 0:
            out = b_or(out, single(ring[c, k], like))
    return out


@njit(cache=True, nogil=True)
def capture_dominated(black_in, white_in, mover, moves_in, rank, ring, nbr, n):
    """The moves of ``moves`` (a set of empty cells, for ``mover`` 0 Black / 1 White) that
    another of them dominates, and the cells the patterns read.

    If the mover's stone on x leaves a neighbour y dead, or y in a pair the mover has captured,
    then x is at least as good a move as y: the position after x equals the one with the
    mover's stones on both x and y, which is no worse for the mover than a stone on y alone.
    So y can be dropped while x stays; to rule out cycles y is dropped only for an x that comes
    first in ``rank`` (lower is earlier), and every dropped cell has a kept cell at least as
    good at the end of the chain.  The cells returned (the rings of the cells judged, and the
    cells themselves) join a proof's justification: the patterns hold as long as they do.
    Expects a filled-in position (``fill``): nothing is dead or captured before the move.
    ``nbr``: the neighbour sets of the ``n`` cells (``vc.geometry``); a dead ring has at most
    two empty cells (checked over every ring by a test), which rules most cells out at once.
    Sets are words or pairs (``bits.py``), all of one kind.
    """
    black, white, moves = as_set(black_in), as_set(white_in), as_set(moves_in)
    board = first_cells(n, black)
    lab = np.empty(6, dtype=np.int64)
    colour = BLACK if mover == 0 else WHITE
    pruned = none_like(black)
    cells = none_like(black)
    for x in range(n):
        if not has(moves, x):
            continue
        bx = single(x, black)
        b2 = b_or(black, bx) if mover == 0 else black
        w2 = b_or(white, bx) if mover == 1 else white
        empty = b_andnot(board, b_or(b2, w2))
        for k in range(6):
            y = ring[x, k]
            if y < 0 or not has(empty, y):
                continue
            ey = count(b_and(at(nbr, y), empty))
            if ey > 3:                  # dead needs <= 2 empty neighbours (one may be d)
                continue
            y_counts = has(moves, y) and rank[y] > rank[x]
            if y_counts and not has(pruned, y) and ey <= 2:
                _ring_labels(ring, y, b2, w2, lab)
                if _dead_ring(lab):
                    pruned = b_or(pruned, single(y, black))
                    cells = b_or(cells, b_or(_ring_cells(ring, y, black), single(y, black)))
                    continue
            for m in range(6):
                d = ring[y, m]
                if d < 0 or d == x or not has(empty, d) or count(b_and(at(nbr, d), empty)) > 3:
                    continue
                d_counts = has(moves, d) and rank[d] > rank[x]
                if not ((y_counts and not has(pruned, y)) or (d_counts and not has(pruned, d))):
                    continue
                if _dead_if_owned(y, d, colour, b2, w2, ring, lab) and \
                        _dead_if_owned(d, y, colour, b2, w2, ring, lab):
                    if y_counts:
                        pruned = b_or(pruned, single(y, black))
                    if d_counts:
                        pruned = b_or(pruned, single(d, black))
                    cells = b_or(cells, b_or(b_or(_ring_cells(ring, y, black),
                                                  _ring_cells(ring, d, black)),
                                             b_or(single(y, black), single(d, black))))
    return pruned, cells


@njit(cache=True, nogil=True)
def vulnerable(black_in, white_in, mover, moves_in, ring, nbr, n):
    """The moves of ``moves`` (empty cells, for ``mover`` 0 Black / 1 White) that are
    *vulnerable*: an opponent stone on one of the cell's neighbours would leave it dead (the
    *killer*), and the cells the patterns read (the cell and its ring).

    Dropping every vulnerable move keeps a winning move when there is one (Hayward et al.):
    if the vulnerable x wins, the mover also wins after x and the killer y, where x is dead,
    so with the opponent's stones on both; a winning move z there (by induction on the empty
    cells one that is neither dead nor vulnerable there) also wins now, with fewer opponent
    stones, and is not vulnerable now either, since a dead ring stays dead as stones are added
    and a killer on x or y would leave z dead there.  Expects a filled-in position (``fill``:
    no dead cells).  Sets are words or pairs (``bits.py``)."""
    black, white, moves = as_set(black_in), as_set(white_in), as_set(moves_in)
    empty = b_andnot(first_cells(n, black), b_or(black, white))
    lab = np.empty(6, dtype=np.int64)
    killer = WHITE if mover == 0 else BLACK
    pruned = none_like(black)
    cells = none_like(black)
    for x in range(n):
        if not has(moves, x) or count(b_and(at(nbr, x), empty)) > 3:
            continue                # a dead ring has at most two empty cells
        for k in range(6):
            y = ring[x, k]
            if y >= 0 and has(empty, y) and _dead_if_owned(x, y, killer, black, white, ring, lab):
                pruned = b_or(pruned, single(x, black))
                cells = b_or(cells, b_or(_ring_cells(ring, x, black), single(x, black)))
                break
    return pruned, cells


@njit(cache=True, nogil=True)
def _dead_with(x, own, opp, extra, mover, ring, lab):
    """Is cell x dead once the opponent of ``mover`` also owns the cells of ``extra``?"""
    opp2 = b_or(opp, extra)
    if mover == 0:
        _ring_labels(ring, x, own, opp2, lab)
    else:
        _ring_labels(ring, x, opp2, own, lab)
    return _dead_ring(lab)


@njit(cache=True, nogil=True)
def _captured_for(d, e, killer, own, opp, mover, ring, lab):
    """Are empty neighbours d and e a pair captured by the opponent of ``mover`` (each dead once
    it owns the other) in the position ``own`` / ``opp``?"""
    black, white = (own, opp) if mover == 0 else (opp, own)
    return _dead_if_owned(d, e, killer, black, white, ring, lab) and \
        _dead_if_owned(e, d, killer, black, white, ring, lab)


@njit(cache=True, nogil=True)
def reversible(black_in, white_in, mover, moves_in, ring, nbr, n):
    """The moves of ``moves`` (empty cells, for ``mover`` 0 Black / 1 White) that are
    *captured-reversible*: after the move x, an opponent answer y (or none) leaves a pair of
    empty cells d, e captured by the opponent, and x is dead once the opponent owns y, d and e.
    Returns them and the cells the patterns read (the rings of x, d and e, and x, y, d, e).
    ``vulnerable`` is the case with no pair; this rule finds the rest.

    Dropping every such move together with the vulnerable and dead ones keeps a winning move
    when there is one.  Call R(H) the cells x of a position H for which some answer y (or none)
    and some set S the opponent may fill in (dead cells, its captured pairs, one after another)
    in H + x + y leave x dead; the dead, vulnerable and captured-reversible cells are in R(H).
    If x wins and is in R(H), the mover also wins H + x + y + S, which with x dead is H with
    opponent stones on T = {x, y} | S (without an answer: H + T with the opponent to move, so
    also with one more opponent stone, on any cell).  By induction on the empty cells, some
    winning move z of H + T is not in R(H + T); z wins in H too, with fewer opponent stones.
    And R only grows as opponent stones are added: a dead ring stays dead with more stones, a
    fill step stays one (a captured pair with one cell taken leaves the other dead), and an
    answer y already on the board is the case without one.  So z is not in R(H).
    Sets are words or pairs (``bits.py``)."""
    black, white, moves = as_set(black_in), as_set(white_in), as_set(moves_in)
    empty = b_andnot(first_cells(n, black), b_or(black, white))
    own = black if mover == 0 else white
    opp = white if mover == 0 else black
    killer = WHITE if mover == 0 else BLACK
    lab = np.empty(6, dtype=np.int64)
    around = np.empty(4, dtype=np.int64)
    pruned = none_like(black)
    cells = none_like(black)
    for x in range(n):
        if not has(moves, x):
            continue
        ex = count(b_and(at(nbr, x), empty))
        if ex < 2 or ex > 4:
            continue    # one empty neighbour: dead or vulnerable; a dead ring keeps two at most
        k = 0
        for j in range(6):
            if ring[x, j] >= 0 and has(empty, ring[x, j]):
                around[k] = ring[x, j]
                k += 1
        own_x = b_or(own, single(x, black))
        found = False
        # K: the empty neighbours the opponent's stones y, d, e must cover for x to die (two
        # or three of them, and at most two empty neighbours left)
        for mask in range(3, 1 << ex):
            size = 0
            kill = none_like(black)
            a = b = c = -1
            for j in range(ex):
                if mask >> j & 1:
                    size += 1
                    kill = b_or(kill, single(around[j], black))
                    a, b, c = (around[j], b, c) if a < 0 else (
                        (a, around[j], c) if b < 0 else (a, b, around[j]))
            if size > 3 or size < ex - 2 or size < 2:
                continue
            if not _dead_with(x, own, opp, kill, mover, ring, lab):
                continue
            if size == 3:
                # one of the three is the answer, the other two the pair
                for t in range(3):
                    y, d, e = (a, b, c) if t == 0 else ((b, a, c) if t == 1 else (c, a, b))
                    if has(at(nbr, d), e) and _captured_for(
                            d, e, killer, own_x, b_or(opp, single(y, black)), mover, ring, lab):
                        found = True
                        break
            else:
                y, d, e = -1, a, b
                if has(at(nbr, a), b):
                    # the pair is K itself; the answer: none, or a cell beside the pair
                    for j in range(-1, 12):
                        if j >= 0:
                            y = ring[a if j < 6 else b, j % 6]
                            if y < 0 or y == x or y == a or y == b or not has(empty, y):
                                continue
                        opp_y = opp if j < 0 else b_or(opp, single(y, black))
                        if _captured_for(a, b, killer, own_x, opp_y, mover, ring, lab):
                            found = True
                            break
                if not found:
                    # the answer is one cell of K, the pair the other and a cell beside it
                    for t in range(12):
                        y, d = (a, b) if t < 6 else (b, a)
                        e = ring[d, t % 6]
                        if e < 0 or e == x or e == y or not has(empty, e):
                            continue
                        if _captured_for(d, e, killer, own_x, b_or(opp, single(y, black)),
                                         mover, ring, lab):
                            found = True
                            break
            if found:
                pruned = b_or(pruned, single(x, black))
                read = b_or(b_or(_ring_cells(ring, x, black), _ring_cells(ring, d, black)),
                            b_or(_ring_cells(ring, e, black), single(x, black)))
                read = b_or(read, b_or(single(d, black), single(e, black)))
                if y >= 0:
                    read = b_or(read, single(y, black))
                cells = b_or(cells, read)
                break
    return pruned, cells
