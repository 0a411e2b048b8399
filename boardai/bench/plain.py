"""A plain array-board Connect Four in numba: the reference ``boardai bench course`` measures against.

Written the way a course student describes a first program (a board array and column tops),
as a competent first numba version with no tricks, so the ratio says what the line-word kernel
and the MCTS engine buy:

* the board is an ``int8`` array of M*N cells (0 empty, 1 / 2 stones, 3 the no-go cell) and a
  ``top`` array with each column's landing row (already past the no-go cell);
* a random playout lists the open columns each move by a scan over ``top``, draws one with
  ``np.random.randint``, and checks four in a row by counting equal stones outward from the new
  stone in the four directions (the course's referee does the same);
* ``plain_uct`` is plain UCT as the report builds it: a node per position holding its board and
  ``top`` (copied, not replayed), children expanded one at a time in column order, UCB1 with
  C = 0.8, one uniform playout per simulation, terminal nodes scored without a playout.

Rows count from the bottom here (row 0 = bottom), like the rest of boardai.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

EMPTY, NO_GO = 0, 3


def plain_board(width: int, height: int, blocked=()) -> tuple[np.ndarray, np.ndarray]:
    """(cells, top): cells[row * width + col], row 0 at the bottom; top[col] the landing row."""
    cells = np.zeros(width * height, dtype=np.int8)
    for c, r in blocked:
        cells[r * width + c] = NO_GO
    top = np.zeros(width, dtype=np.int64)
    for c in range(width):
        r = 0
        while r < height and cells[r * width + c] == NO_GO:
            r += 1
        top[c] = r
    return cells, top


@njit(cache=True, nogil=True)
def plain_seed(seed):
    np.random.seed(seed)


@njit(cache=True, nogil=True)
def _count(cells, w, h, c, r, dc, dr, who):
    n = 0
    c += dc
    r += dr
    while 0 <= c < w and 0 <= r < h and cells[r * w + c] == who:
        n += 1
        c += dc
        r += dr
    return n


@njit(cache=True, nogil=True)
def plain_wins(cells, w, h, c, r):
    """True if the stone on (c, r) is part of four in a row (counted outward, both ways)."""
    who = cells[r * w + c]
    if _count(cells, w, h, c, r, 0, -1, who) >= 3:
        return True
    if _count(cells, w, h, c, r, 1, 0, who) + _count(cells, w, h, c, r, -1, 0, who) >= 3:
        return True
    if _count(cells, w, h, c, r, 1, 1, who) + _count(cells, w, h, c, r, -1, -1, who) >= 3:
        return True
    return _count(cells, w, h, c, r, 1, -1, who) + _count(cells, w, h, c, r, -1, 1, who) >= 3


@njit(cache=True, nogil=True)
def plain_drop(cells, top, w, h, c, who):
    """Drop ``who``'s stone in column c; returns its row (``top`` moves past the no-go cell)."""
    r = top[c]
    cells[r * w + c] = who
    nxt = r + 1
    while nxt < h and cells[nxt * w + c] == NO_GO:
        nxt += 1
    top[c] = nxt
    return r


@njit(cache=True, nogil=True)
def plain_playout(cells, top, w, h, mover):
    """Uniform random moves from a copy of the position until the end: 1 / 2 the winner's
    stone value (``mover`` moves first), 0 a draw."""
    b = cells.copy()
    t = top.copy()
    legal = np.empty(w, dtype=np.int64)
    who = mover
    while True:
        k = 0
        for c in range(w):
            if t[c] < h:
                legal[k] = c
                k += 1
        if k == 0:
            return 0
        c = legal[np.random.randint(k)]
        r = plain_drop(b, t, w, h, c, who)
        if plain_wins(b, w, h, c, r):
            return who
        who = 3 - who


@njit(cache=True, nogil=True)
def plain_playouts(cells, top, w, h, count):
    """``count`` playouts from the position (1 to move); returns [draws, 1 wins, 2 wins]."""
    out = np.zeros(3, dtype=np.int64)
    for _ in range(count):
        out[plain_playout(cells, top, w, h, 1)] += 1
    return out


@njit(cache=True, nogil=True)
def _uct_run(n_nodes, w, h, sims, c_uct, node_cells, node_top, parent, child, visits,
             value, mover, last_win, untried):
    """``sims`` more simulations of plain UCT from node 0 on a tree of ``n_nodes`` nodes;
    returns the nodes used after them."""
    for _ in range(sims):
        node = 0
        # selection: descend through fully expanded nodes by UCB1
        while untried[node] >= w and last_win[node] == 0:
            best, best_v = -1, -1e300
            logn = math.log(visits[node])
            for c in range(w):
                ch = child[node, c]
                if ch < 0:
                    continue
                v = value[ch] / visits[ch] + c_uct * math.sqrt(logn / visits[ch])
                if v > best_v:
                    best, best_v = ch, v
            if best < 0:
                break
            node = best
        # expansion: the next untried column, in order
        if last_win[node] == 0 and untried[node] < w:
            c = untried[node]
            while c < w and node_top[node, c] >= h:
                c += 1
            nxt = c + 1
            while nxt < w and node_top[node, nxt] >= h:
                nxt += 1
            untried[node] = nxt
            if c < w:
                new = n_nodes
                n_nodes += 1
                node_cells[new, :] = node_cells[node, :]
                node_top[new, :] = node_top[node, :]
                who = mover[node]
                r = plain_drop(node_cells[new], node_top[new], w, h, c, who)
                mover[new] = 3 - who
                parent[new] = node
                child[node, c] = new
                untried[new] = 0
                while untried[new] < w and node_top[new, untried[new]] >= h:
                    untried[new] += 1
                if plain_wins(node_cells[new], w, h, c, r):
                    last_win[new] = 1
                elif untried[new] >= w:
                    last_win[new] = 2          # board full: a draw
                node = new
        # simulation: from the node's position, its mover to play
        if last_win[node] == 1:
            result = 3 - mover[node]            # the player who just moved won
        elif last_win[node] == 2:
            result = 0
        else:
            result = plain_playout(node_cells[node], node_top[node], w, h, mover[node])
        # backup: each node's value is from the view of the player who moved into it
        while node >= 0:
            visits[node] += 1
            if result == 0:
                value[node] += 0.5
            elif result != mover[node]:
                value[node] += 1.0
            node = parent[node]
    return n_nodes


def plain_uct(width: int, height: int, blocked=(), seconds: float = 1.0, c_uct: float = 0.8,
              max_nodes: int = 2_000_000) -> tuple[int, float]:
    """Plain UCT from the empty board for about ``seconds``: (simulations, seconds taken)."""
    cells, top = plain_board(width, height, blocked)
    n = max_nodes
    node_cells = np.zeros((n, width * height), dtype=np.int8)
    node_top = np.zeros((n, width), dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    child = np.full((n, width), -1, dtype=np.int64)
    visits = np.zeros(n, dtype=np.int64)
    value = np.zeros(n)
    mover = np.zeros(n, dtype=np.int64)
    last_win = np.zeros(n, dtype=np.int64)
    untried = np.zeros(n, dtype=np.int64)
    node_cells[0] = cells
    node_top[0] = top
    mover[0] = 1
    args = (node_cells, node_top, parent, child, visits, value, mover, last_win, untried)
    _uct_run(1, width, height, 10, c_uct, *args)      # compile / load before timing
    parent[:] = -1
    child[:] = -1
    visits[:] = 0
    value[:] = 0
    untried[:] = 0
    last_win[:] = 0
    sims, start = 0, time.perf_counter()
    batch = 2000
    used = 1
    while time.perf_counter() - start < seconds and used + batch < n:
        used = _uct_run(used, width, height, batch, c_uct, *args)
        sims += batch
    return sims, time.perf_counter() - start
