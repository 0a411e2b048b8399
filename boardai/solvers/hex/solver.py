"""Exact Hex solver: depth-first proof-number search (DFPN) with Hex knowledge, for boards of at
most 128 cells (11x11 has 121).

A position is two bitboards of Black's and White's stones, each one ``uint64`` up to 64 cells
(8x8) and a pair of them up to 128 (``bits.py``: numba compiles the search once for each kind,
so the small boards keep their one-word speed).  At each new node the solver first fills in
dead cells and captured pairs (``inferior.py``: same value, fewer moves, and H-search sees the
extra stones), then asks H-search (``vc.hsearch``) about the opponent: the side to move loses
if the opponent has a full VC between its edges, and otherwise may only play inside the
*mustplay*, the intersection of the opponent's edge-to-edge semi carriers (a move outside one
lets the opponent play its key and connect).  The must-block of an immediate threat is the
simplest case.  Vulnerable moves (an opponent stone beside them would leave them dead,
``inferior.vulnerable``) and captured-reversible ones (an opponent answer leaves a pair it has
captured and the cell dead, ``inferior.reversible``) leave the mustplay, and then the moves
another kept one dominates (its stone leaves the cell dead or captured,
``inferior.capture_dominated``: every edge-row move on an empty board).  The DFPN (Nagai;
negamax form, the 1+ε trick of Pawlewicz & Lew for child thresholds) keeps proof/disproof
numbers and the mustplay of each node in a transposition table keyed by Zobrist hash; a
position and its 180° rotation share an entry.  A child's first visit leaves it a disproof
number equal to its mustplay size, so the parent prefers the moves that leave the opponent the
fewest answers.  The search runs in jitted slices of a node budget, the clock read between
them.

Public face: ``solve(board, time_limit)`` -> ``HexSolveResult``; ``best_move(board, deadline)``
(a winning move, or the most stubborn loss, by search alone); ``think``, ``move_outcomes`` and
``known_outcomes`` (the engines' questions about a position's moves); ``solver_for(w, h)``, the
search of one board size with its table.  Beside it: ``openings.py`` (the table of solved
openings), ``book.py`` (the book of first replies), ``player.py`` (the ``solver`` engine's and
``mcts``'s face: books first, then the search).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from boardai.solvers.hex import vc
from boardai.solvers.hex.inferior import (capture_dominated, fill, reversible, ring_table,
                                         vulnerable)
from boardai.solvers.hex.bits import (
    MAX_CELLS, at, at3, b_and, b_andnot, b_not, b_or, from_words, has, is_empty, none_like, put,
    single, to_words, words_for,
)
from boardai.solvers.hex.vc import ZERO, connected, cover, hsearch

INF = np.int64(1 << 40)
EPS = 0.25                    # the 1+ε trick: child disproof threshold ceil(delta2 * (1+ε))
TT_BITS = 23                   # 8M entries of 48 bytes, 64 on two words (pages are touched
                               # only when used)
SLICE_S = 0.01                 # seconds of one jitted slice (the clock is read between slices)
MAX_SLICE_NODES = 2_000        # nodes per slice at most
PROGRESS_EVERY = 5.0           # seconds between progress reports of a long solve
WIN, LOSS, UNKNOWN = 1, -1, 0


@dataclass
class HexSolveResult:
    """What ``solve`` found: ``winner`` is ``"black"``/``"white"`` or None if not solved in time;
    ``winning_moves`` are the side to move's winning cells (names), empty when it loses."""

    winner: str | None
    to_move: str
    winning_moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"winner": self.winner, "to_move": self.to_move,
                "winning_moves": self.winning_moves, "nodes": self.nodes,
                "seconds": round(self.seconds, 4)}


# --- transposition table -----------------------------------------------------------------
#   keys[i]   uint64 key (min of the hash and the hash of the 180° rotation), 0 = empty slot
#   vals[i,0] phi (proof number of the side to move), vals[i,1] delta, vals[i,2] work
#   sets[2i]   the moves still worth trying (the mustplay, narrowed by refuted moves' proofs)
#   sets[2i+1] a proven node: its proof set, the cells the winner's proof uses (the winner still
#              wins if every other empty cell goes to the loser); an open node: the cells
#              that justify cutting the move list to sets[2i] (the opponent's semi carriers,
#              the cells filled in, the proof sets of the refuted moves dropped)
#   Both sets are kept in the orientation of the position with the smaller hash, side by side
#   (one cache line); a set is one uint64, or a pair of them (``[k, 2]``) on boards of more
#   than 64 cells.


def _new_tt(bits: int, words: int = 1):
    size = 1 << bits
    tail = () if words == 1 else (2,)
    return (np.zeros(size, dtype=np.uint64), np.zeros((size, 3), dtype=np.int64),
            np.zeros((2 * size,) + tail, dtype=np.uint64))


@njit(cache=True, nogil=True)
def _tt_find(keys, key):
    i = np.int64(key & np.uint64(keys.shape[0] - 1)) & ~np.int64(1)
    if keys[i] == key:
        return i
    if keys[i + 1] == key:
        return i + 1
    return -1


@njit(cache=True, nogil=True)
def _tt_store(keys, vals, sets, key, phi, delta, work, mask, pset):
    i = np.int64(key & np.uint64(keys.shape[0] - 1)) & ~np.int64(1)
    j = i
    if keys[i] != key:
        if keys[i + 1] == key:
            j = i + 1
        elif vals[i + 1, 2] < vals[i, 2] or keys[i + 1] == ZERO:
            j = i + 1
    keys[j] = key
    vals[j, 0] = phi
    vals[j, 1] = delta
    vals[j, 2] = work
    put(sets, 2 * j, mask)
    put(sets, 2 * j + 1, pset)


@njit(cache=True, nogil=True, inline="always")
def _key(h, hr):
    return h if h < hr else hr


@njit(cache=True, nogil=True)
def _rotate(mask, n):
    """The 180° rotation of a bitboard (cell c -> n-1-c).  A table entry shared by a position
    and its rotation keeps its mustplay in the orientation of the smaller hash."""
    out = none_like(mask)
    for c in range(n):
        if has(mask, c):
            out = b_or(out, single(n - 1 - c, mask))
    return out


# --- node evaluation ---------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _justification(sc, ns, inter):
    """The union of a few of the opponent's edge-to-edge semi carriers whose common part is
    already ``inter``: each move outside the mustplay misses one of them, which is all a proof
    needs (the union of them all would make proof sets larger)."""
    return cover(sc, ns, 0, 1, b_not(none_like(inter)), inter)[1]


@njit(cache=True, nogil=True)
def evaluate(black, white, mover, nbr, edges, ring, rank, n, scr, inferior=True, reversing=True):
    """(result, moves, cells) for the side to move.

    LOSS if the opponent has an edge-to-edge full VC (or no cell is left to stop its semis, or
    only vulnerable and captured-reversible ones), WIN if the mover is connected, else UNKNOWN
    with the cells it must choose from.  ``cells`` is the proof set of a decided node (the VC's
    carrier) and otherwise what justifies the move list (the opponent's semi carriers); both
    include the cells filled in.  Dead cells and captured pairs are filled in first
    (``inferior.py``): the value is the same, H-search sees more, and the filled cells are
    never moves; vulnerable, captured-reversible and capture-dominated moves are dropped (with
    the cells their patterns read).  ``inferior=False`` skips all of it (H-search alone: the
    MCTS knowledge's ablation), ``reversing=False`` keeps the captured-reversible moves
    (``mcts:reversible=0``).  Sets are words or pairs (``bits.py``): the solver's boards and
    the MCTS knowledge's up to 11x11.
    """
    fc, nf, sc, ns, pmask, pcell, pnb, near, dirty = scr
    nothing = none_like(black)
    before = b_or(black, white)
    if inferior:
        black, white = fill(black, white, ring, n)
    filled = b_andnot(b_or(black, white), before)
    own = black if mover == 0 else white
    opp = white if mover == 0 else black
    o = 1 - mover
    if connected(opp, at(edges, 2 * o), at(edges, 2 * o + 1), nbr, n):
        return LOSS, nothing, filled
    if connected(own, at(edges, 2 * mover), at(edges, 2 * mover + 1), nbr, n):
        return WIN, nothing, filled          # the fill-in completed the mover's chain
    # The mover's own VCs are not searched: its edge-to-edge semis were all cut by the last
    # move (it was inside their common part, the mustplay), so a win found here would only
    # come from H-search's caps; the child that wins says so one ply down, at half the cost.
    full, semi, inter = hsearch(opp, own, o, nbr, edges, n, fc, nf, sc, ns, pmask, pcell,
                                pnb, near, dirty)
    if full:
        return LOSS, nothing, b_or(at3(fc, 0, 1, 0), filled)
    if is_empty(inter):
        return LOSS, inter, b_or(_justification(sc, ns, inter), filled)
    just = b_or(_justification(sc, ns, inter), filled)
    if inferior:
        # vulnerable and captured-reversible moves first (one rule: dropped together, they
        # leave a winning move), then capture domination, whose dominating moves are kept ones
        weak, pattern = vulnerable(black, white, mover, inter, ring, nbr, n)
        if not is_empty(weak):
            inter = b_andnot(inter, weak)
            just = b_or(just, pattern)
        if reversing:
            weak, pattern = reversible(black, white, mover, inter, ring, nbr, n)
            if not is_empty(weak):
                inter = b_andnot(inter, weak)
                just = b_or(just, pattern)
        if is_empty(inter):              # a win would need a move neither outside nor dropped
            return LOSS, inter, just
        dominated, pattern = capture_dominated(black, white, mover, inter, rank, ring, nbr, n)
        if not is_empty(dominated):
            inter = b_andnot(inter, dominated)
            just = b_or(just, pattern)
    return UNKNOWN, inter, just


def centre_rank(w: int, h: int) -> np.ndarray:
    """``rank[cell]``: the cell's place in the order nearest the centre first (hex distance),
    the solver's move order and the tie-break of ``capture_dominated``."""
    cells = [(max(abs(2 * r - h + 1), abs(2 * c - w + 1), abs(2 * r - h + 1 + 2 * c - w + 1)),
              r * w + c) for r in range(h) for c in range(w)]
    order = np.array([c for _, c in sorted(cells)], dtype=np.int64)
    return np.argsort(order).astype(np.int64)


# --- DFPN --------------------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _oriented(x, flip, n):
    return _rotate(x, n) if flip else x


@njit(cache=True, nogil=True, inline="always")
def _child_hashes(h, hr, zob, mover, c, n):
    """The hashes of the position and of its rotation after ``mover`` plays cell c."""
    return h ^ zob[mover, c] ^ zob[2, 0], hr ^ zob[mover, n - 1 - c] ^ zob[2, 0]


@njit(cache=True, nogil=True)
def _mid(black, white, mover, h, hr, thphi, thdelta, depth, g, zob, nbr, edges, ring, n, order,
         rank, keys, vals, sets, scr, cmoves, stats):
    """Multiple iterative deepening at one node (negamax DFPN).  ``stats[0]`` counts nodes,
    ``stats[1]`` is the node budget of this slice.

    A refuted move's proof set bounds the other moves: a move outside it leaves the opponent's
    winning proof untouched, so it loses too.  The move list shrinks to that set and the proof
    joins the node's justification; when no move is left the node is lost, and its proof set is
    the justification.  A won node's proof set is the winning child's plus the move.
    """
    key = _key(h, hr)
    t = _tt_find(keys, key)
    flip = hr < h
    if t >= 0 and vals[t, 2] > 0:
        if vals[t, 0] == 0 or vals[t, 1] == 0:
            return
        mask = _oriented(at(sets, 2 * t), flip, n)
        just = _oriented(at(sets, 2 * t + 1), flip, n)
    else:
        stats[0] += 1
        res, mask, just = evaluate(black, white, mover, nbr, edges, ring, rank, n, scr)
        if res == WIN:
            _tt_store(keys, vals, sets, key, 0, INF, 1, none_like(black),
                      _oriented(just, flip, n))
            return
        if res == LOSS:
            _tt_store(keys, vals, sets, key, INF, 0, 1, none_like(black),
                      _oriented(just, flip, n))
            return
    work0 = stats[0]
    o = 1 - mover
    k = -1                                  # the move list is (re)built when k < 0
    while True:
        if k < 0:
            k = 0
            for i in range(n):
                c = order[i]
                if has(mask, c):
                    cmoves[depth, k] = c
                    k += 1
        phi = INF
        delta = np.int64(0)
        best = -1
        best_phi = np.int64(0)
        delta2 = INF
        narrowed = False
        for i in range(k):
            c = cmoves[depth, i]
            ch, chr_ = _child_hashes(h, hr, zob, mover, c, n)
            ct = _tt_find(keys, _key(ch, chr_))
            if ct >= 0:
                cphi = vals[ct, 0]
                cdelta = vals[ct, 1]
                if cphi == 0:               # refuted: keep only the moves inside its proof
                    proof = _oriented(at(sets, 2 * ct + 1), chr_ < ch, n)
                    just = b_or(just, proof)
                    mask = b_and(mask, b_andnot(proof, single(c, proof)))
                    narrowed = True
                    break
            else:
                cphi = np.int64(1)
                cdelta = np.int64(1)
            delta += cphi
            if cdelta < phi:
                delta2 = phi
                phi = cdelta
                best = i
                best_phi = cphi
            elif cdelta < delta2:
                delta2 = cdelta
        if narrowed:
            k = -1
            continue
        if delta > INF:
            delta = INF
        if phi == 0:                        # won: the winning child's proof and the move
            c = cmoves[depth, best]
            ch, chr_ = _child_hashes(h, hr, zob, mover, c, n)
            ct = _tt_find(keys, _key(ch, chr_))
            just = b_or(_oriented(at(sets, 2 * ct + 1), chr_ < ch, n), single(c, just))
        if phi >= thphi or delta >= thdelta or stats[0] >= stats[1]:
            _tt_store(keys, vals, sets, key, phi, delta, stats[0] - work0 + 1,
                      _oriented(mask, flip, n), _oriented(just, flip, n))
            return
        c = cmoves[depth, best]
        cthphi = thdelta - delta + best_phi
        if cthphi > INF:
            cthphi = INF
        d2 = np.int64(np.ceil(delta2 * (1.0 + EPS))) if delta2 < INF else INF
        if d2 <= delta2:
            d2 = delta2 + 1
        cthdelta = thphi if thphi < d2 else d2
        b = single(c, black)
        nb = b_or(black, b) if mover == 0 else black
        nw = b_or(white, b) if mover == 1 else white
        ch, chr_ = _child_hashes(h, hr, zob, mover, c, n)
        _mid(nb, nw, o, ch, chr_, cthphi, cthdelta, depth + 1, g, zob, nbr, edges, ring, n, order,
             rank, keys, vals, sets, scr, cmoves, stats)


@njit(cache=True, nogil=True)
def _tt_value(keys, vals, h, hr):
    t = _tt_find(keys, _key(h, hr))
    if t < 0:
        return np.int64(1), np.int64(1), np.int64(0)
    return vals[t, 0], vals[t, 1], vals[t, 2]


class Solver:
    """One board geometry, its Zobrist keys, transposition table and scratch."""

    def __init__(self, w: int, h: int, tt_bits: int = TT_BITS, words: int | None = None):
        self.w, self.h, self.n = w, h, w * h
        self.words = max(words_for(self.n), words or 1)     # words=2: pairs on a small board
        self.nbr, self.edges = vc.geometry(w, h, self.words)
        self.ring = ring_table(w, h)
        rng = np.random.default_rng(20261123)
        cells = max(64, self.n)
        self.zob = rng.integers(1, 2**63, size=(3, cells), dtype=np.int64).astype(np.uint64)
        self.keys, self.vals, self.sets = _new_tt(tt_bits, self.words)
        self.scr = vc.new_scratch(64 * self.words)
        self.cmoves = np.zeros((self.n + 2, cells), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.rank = centre_rank(w, h)           # rank[cell]: place in the move order
        self.order = np.argsort(self.rank).astype(np.int64)      # nearest the centre first

    def position(self, cells, mover: int):
        black = white = 0
        h = hr = 0
        zob = [[int(x) for x in row] for row in self.zob]
        for c, v in enumerate(cells):
            if v:
                col = int(v) - 1
                if col == 0:
                    black |= 1 << c
                else:
                    white |= 1 << c
                h ^= zob[col][c]
                hr ^= zob[col][self.n - 1 - c]
        if mover == 1:
            h ^= zob[2][0]
            hr ^= zob[2][0]
        return (to_words(black, self.words), to_words(white, self.words), np.uint64(h),
                np.uint64(hr))

    def child(self, pos, mover: int, c: int):
        black, white, h, hr = pos
        if mover == 0:
            black = to_words(from_words(black) | 1 << c, self.words)
        else:
            white = to_words(from_words(white) | 1 << c, self.words)
        h, hr = _child_hashes(h, hr, self.zob, mover, c, self.n)
        return black, white, np.uint64(h), np.uint64(hr)

    def run(self, pos, mover: int, deadline: float | None, progress=None,
            fixed_slice: int | None = None) -> int:
        """Solve ``pos`` (WIN/LOSS for the side to move), UNKNOWN if the deadline passes.
        ``progress(nodes, seconds, phi, delta)`` is called every PROGRESS_EVERY seconds.
        The search runs in slices sized from the measured rate, so where they end (and the
        node count) varies a little from run to run; ``fixed_slice`` nodes a slice instead
        makes the search the same every time (benchmarks comparing node counts)."""
        black, white, h, hr = pos
        t0 = last = time.perf_counter()
        n0 = int(self.stats[0])
        slice_nodes = fixed_slice or 1    # else grown to about SLICE_S of work from the rate
        while True:
            phi, delta, _ = _tt_value(self.keys, self.vals, h, hr)
            if phi == 0:
                return WIN
            if delta == 0:
                return LOSS
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                return UNKNOWN
            if progress is not None and now - last >= PROGRESS_EVERY:
                progress(int(self.stats[0]) - n0, now - t0, int(phi), int(delta))
                last = now
            self.stats[1] = self.stats[0] + slice_nodes
            before = int(self.stats[0])
            _mid(black, white, mover, h, hr, INF, INF, 0, 0, self.zob, self.nbr, self.edges,
                 self.ring, self.n, self.order, self.rank, self.keys, self.vals, self.sets,
                 self.scr, self.cmoves, self.stats)
            took = time.perf_counter() - now
            done = int(self.stats[0]) - before
            if fixed_slice or done <= 0 or took <= 0:
                continue
            slice_nodes = int(max(1, min(MAX_SLICE_NODES, 2 * slice_nodes,
                                         done * SLICE_S / took)))
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left > 0:
                    slice_nodes = max(1, min(slice_nodes, int(done * left / took)))

    def work(self, pos) -> int:
        return int(_tt_value(self.keys, self.vals, pos[2], pos[3])[2])


_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(w: int, h: int) -> Solver:
    """The search of a w x h board with its table (one size at a time: a new size replaces it)."""
    if w * h > MAX_CELLS:
        raise ValueError(f"the Hex solver handles boards of at most {MAX_CELLS} cells (11x11), "
                         f"not {w}x{h}")
    if (w, h) not in _SOLVERS:
        _SOLVERS.clear()             # one table at a time (memory)
        _SOLVERS[(w, h)] = Solver(w, h)
    return _SOLVERS[(w, h)]


def check_board(board):
    """Refuse a board that is no HexBoard or whose game is over (ValueError)."""
    from boardai.games.hex.board import HexBoard
    if not isinstance(board, HexBoard):
        raise ValueError(f"the Hex solver needs a HexBoard, not {type(board).__name__}")
    if board.is_game_over():
        raise ValueError(f"the game is already over: {board.outcome()}")


def colour_name(i: int) -> str:
    return "black" if i == 0 else "white"


def _solve_children(s: Solver, pos, mover: int, empty: list[int], deadline, progress=None):
    """Result of every move (the side to move's view); None where the deadline passed."""
    out = {}
    for c in empty:
        r = s.run(s.child(pos, mover, c), 1 - mover, deadline, progress)
        out[c] = None if r == UNKNOWN else (r == LOSS)
    return out


def solve(board, time_limit: float | None = None, progress=None) -> HexSolveResult:
    """The winner of ``board`` with perfect play (no swap from here on), and every winning move
    of the side to move.  ``time_limit`` in seconds (None: no limit); ``progress(nodes,
    seconds, phi, delta)`` is called every few seconds of a long search."""
    check_board(board)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + float(time_limit)
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    pos = s.position(board.cells, mover)
    n0 = int(s.stats[0])
    r = s.run(pos, mover, deadline, progress)
    result = HexSolveResult(None, colour_name(mover))
    if r != UNKNOWN:
        result.winner = colour_name(mover if r == WIN else 1 - mover)
        if r == WIN:
            empty = [c for c in range(s.n) if board.cells[c] == 0]
            wins = _solve_children(s, pos, mover, empty, deadline, progress)
            if any(v is None for v in wins.values()):
                result.winner = None
            else:
                result.winning_moves = [board.move_name(c) for c, v in wins.items() if v]
    result.nodes = int(s.stats[0]) - n0
    result.seconds = time.perf_counter() - t0
    return result


def best_move(board, deadline: float | None) -> tuple[int, int] | None:
    """(move, result) by search alone: ``result`` WIN or LOSS for the side to move, ``move`` a
    winning one (the first nearest the centre) or, in a lost position, the one whose proof took
    the most work (the most stubborn resistance); None if the search passes ``deadline`` (a
    ``time.perf_counter()`` time, None for none).  No swap and no book: ``player.engine_move``
    adds those."""
    check_board(board)
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    pos = s.position(board.cells, mover)
    r = s.run(pos, mover, deadline)
    if r == UNKNOWN:
        return None
    empty = [c for c in range(s.n) if board.cells[c] == 0]
    best, best_work = None, -1
    for c in [int(x) for x in s.order if int(x) in set(empty)]:
        child = s.child(pos, mover, c)
        cr = s.run(child, 1 - mover, deadline)
        if cr == UNKNOWN:
            return None
        if r == WIN and cr == LOSS:
            best = c
            break
        if r == LOSS and s.work(child) > best_work:
            best, best_work = c, s.work(child)
    return best, r


def think(board, seconds: float) -> int:
    """Go on solving ``board`` for up to ``seconds`` and keep what is learnt in the table (the
    ``mcts`` engine's ``ahead``: after its own proven move, the opponent's replies, so that the
    next move's proof starts warm).  The result (WIN, LOSS, or UNKNOWN if time ran out) is
    returned but needs no use; positions while the swap is legal are left alone."""
    check_board(board)
    if seconds <= 0 or board.is_legal(board.swap_move):
        return UNKNOWN
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    return s.run(s.position(board.cells, mover), mover, time.perf_counter() + seconds)


def move_outcomes(board, seconds: float | None, watch=None) -> dict[int, int]:
    """Every cell's exact value for the side to move that the solver settles within
    ``seconds``: +1 the move wins, -1 it loses; cells not settled in time are left out (the
    swap, when allowed, is not scored).  Used to mark solved cells on a board.  ``watch``
    (``solvers.answer.Watch``) is told each cell as it settles; once its stop is set no
    further cell is searched."""
    check_board(board)
    deadline = None if seconds is None else time.perf_counter() + float(seconds)
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    pos = s.position(board.cells, mover)
    out: dict[int, int] = {}
    for c in [int(x) for x in s.order]:
        if board.cells[c] != 0:
            continue
        if (deadline is not None and time.perf_counter() >= deadline) or \
                (watch is not None and watch.stopped):
            break
        r = s.run(s.child(pos, mover, c), 1 - mover, deadline)
        if r != UNKNOWN:
            out[c] = -r                      # the child's result is the opponent's
            if watch is not None:
                watch.score(c, out[c])
    return out


def known_outcomes(board) -> dict[int, int]:
    """Every move whose value for the side to move the solver's table already holds, with no
    search: +1 the move wins, -1 it loses (what earlier searches of this process proved)."""
    check_board(board)
    s = solver_for(board.width, board.height)
    mover = int(board.turn)
    pos = s.position(board.cells, mover)
    out: dict[int, int] = {}
    for c in range(s.n):
        if board.cells[c] == 0:
            r = s.run(s.child(pos, mover, c), 1 - mover, 0.0)     # a passed deadline: no search
            if r != UNKNOWN:
                out[c] = -r
    return out
