"""Simulations per second of ``mcts`` on the course's boards and 7x6, beside the C++ reference.

    python benchmarks/course_speed.py                       # 1 s each, 3 rounds, all positions
    python benchmarks/course_speed.py --seconds 0.5 --rounds 5
    python benchmarks/course_speed.py --parts               # also playouts/s by playout kind
    python benchmarks/course_speed.py --fingerprint 20000   # root visits after N simulations

A few fixed positions (12x12 with the no-go cell at column 5, row 3: empty, 20 and 36 moves
in; 9x11 with one at the foot of column 2, 6 moves in; 7x6 empty and 8 moves in), none with a
win or a forced block at the root (where the C++ player answers at once).  Each round
measures, per position, the C++ reference (``benchmarks/course_uct/uct.cpp``, built by ``course_reference.py`` with its
think time set to ``--seconds``; its own count of simulations over the wall time of its
``getPoint``, a fresh tree each time) and then ``mcts`` with its defaults (``seed=1``, a fresh
engine told ``time=--seconds``; its own count over its own search time).  The two alternate,
so a change in the machine's load falls on both; the median of the rounds and the ratio of
the medians are printed.  The reference is written for the course's boards (up to 12x12)
but takes any smaller one, 7x6 included.

``--parts`` adds, per position, playouts per second of the kernel's Connect Four playouts
(uniform, tactical: takes wins and blocks, safe: also keeps off the cells under the
opponent's threats, the default) from the position itself, run in one jitted loop: what a
simulation spends in its playout, against the simulations/s above (the rest is the tree).
``--fingerprint N`` prints, per position, ``mcts:seed=1`` after ``N`` simulations: the move,
and every root child's visits and value, so two versions of the kernel can be compared for
playing exactly the same search.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

# name, width, height, blocked (col, row) 0-based from the bottom, moves (1-based columns)
POSITIONS = (
    ("12x12 empty", 12, 12, ((4, 2),), ""),
    ("12x12 +20", 12, 12, ((4, 2),), "2 3 12 3 11 2 8 5 8 2 4 11 11 8 7 1 4 10 3 1"),
    ("12x12 +36", 12, 12, ((4, 2),), "9 8 10 7 2 3 10 8 3 10 3 4 5 7 6 12 9 4 2 11 4 3 3 4 "
                                     "4 12 12 11 10 10 4 3 6 4 1 12"),
    ("9x11 +6", 9, 11, ((1, 0),), "6 8 3 2 6 5"),
    ("7x6 empty", 7, 6, (), ""),
    ("7x6 +8", 7, 6, (), "3 2 6 1 6 5 3 7"),
)


def board_of(w: int, h: int, blocked, moves: str):
    from boardai.games import Connect4Board

    board = Connect4Board(w, h, blocked=list(blocked))
    if moves:
        board.push_many(moves.split())
    return board


class Reference:
    """The C++ reference, loaded once with its think time."""

    def __init__(self, think_ms: int):
        from course_reference import build_reference

        self.lib = ctypes.CDLL(str(build_reference(think_ms)))
        self.lib.uctLastSims.restype = ctypes.c_longlong

        class Point(ctypes.Structure):
            _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]

        self.lib.getPoint.restype = ctypes.POINTER(Point)
        self.lib.clearPoint.argtypes = [ctypes.POINTER(Point)]

    def rate(self, board) -> float:
        """Simulations per second of one ``getPoint`` on ``board`` (a fresh tree: lastY -1)."""
        m, n = board.height, board.width
        me = board.ply & 1
        top = (ctypes.c_int * n)()
        cells = (ctypes.c_int * (m * n))()
        for c in range(n):
            top[c] = m - board.landing_row(c)
            for r in range(m):
                v = board.cell(c, r)
                if v in (1, 2):
                    cells[(m - 1 - r) * n + c] = 2 if v - 1 == me else 1
        no_x, no_y = -1, -1
        if board.blocked:
            c, r = board.blocked[0]
            no_x, no_y = m - 1 - r, c
        start = time.perf_counter()
        p = self.lib.getPoint(m, n, top, cells, -1, -1, no_x, no_y)
        took = time.perf_counter() - start
        if p:
            self.lib.clearPoint(p)
        return self.lib.uctLastSims() / took


def ours_rate(board, seconds: float, spec: str = "mcts:seed=1") -> float:
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    engine = make_engine(spec)
    try:
        result = engine.play(board.copy(), Limit(time=seconds))
        return result.info["sims"] / result.time_s
    finally:
        engine.close()


def fingerprint(board, sims: int, spec: str = "mcts:seed=1") -> str:
    """The move and the root children's visits/wins after ``sims`` simulations."""
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    engine = make_engine(spec)
    try:
        result = engine.play(board.copy(), Limit(sims=sims))
        kids = " ".join(f"{m.move}:{m.visits}/{m.value}" for m in result.moves)
        return f"move {result.move} sims {result.info['sims']} | {kids}"
    finally:
        engine.close()


def _playout_loop():
    from numba import njit

    from boardai.games.kernel import NO_FILL, NO_TABLE, playout_policy

    @njit(nogil=True)
    def loop(state, rng, policy, count):
        work = np.empty(state.shape[0] + 64, dtype=np.int64)
        owner = np.empty(0, dtype=np.int64)
        total = 0
        for _ in range(count):
            total += playout_policy(state, rng, work, owner, policy, NO_TABLE, 0.0, NO_FILL)
        return total

    return loop


def playout_rates(board, seconds: float, loop) -> dict:
    from boardai.games.layout import new_rng

    out = {}
    for name, policy in (("uniform", 0), ("tactical", 1), ("safe", 3)):
        rng = new_rng(1)
        loop(board.state, rng, policy, 10)
        done, start = 0, time.perf_counter()
        chunk = 200
        while time.perf_counter() - start < seconds:
            loop(board.state, rng, policy, chunk)
            done += chunk
        out[name] = done / (time.perf_counter() - start)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds a figure (default 1)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--only", default="", help="positions whose name contains this text")
    ap.add_argument("--parts", action="store_true", help="also playouts/s by playout kind")
    ap.add_argument("--no-ref", action="store_true", help="leave out the C++ reference")
    ap.add_argument("--spec", default="mcts:seed=1", help="the engine measured (default mcts:seed=1)")
    ap.add_argument("--fingerprint", type=int, default=0, metavar="N",
                    help="only print the search after N simulations per position")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        ap.error("--seconds must be positive and --rounds at least 1")
    positions = [p for p in POSITIONS if args.only in p[0]]
    if not positions:
        ap.error("--only matches none of the positions: " + ", ".join(p[0] for p in POSITIONS))
    boards = {p[0]: board_of(*p[1:]) for p in positions}
    if args.fingerprint:
        for name, board in boards.items():
            print(f"{name:12} {fingerprint(board, args.fingerprint, args.spec)}", flush=True)
        return 0
    ref = None if args.no_ref else Reference(int(args.seconds * 1000))
    ours_rate(boards[positions[0][0]], 0.05, args.spec)       # load the compiled code
    cxx: dict = {p: [] for p in boards}
    mine: dict = {p: [] for p in boards}
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.seconds:g} s a figure, "
          f"{args.rounds} rounds; {args.spec}", flush=True)
    for r in range(args.rounds):
        for name, board in boards.items():
            if ref is not None:
                cxx[name].append(ref.rate(board))
            mine[name].append(ours_rate(board, args.seconds, args.spec))
        print(f"  round {r + 1} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    print(f"{'position':12} {'mcts sims/s':>12} {'C++ sims/s':>12} {'ours/C++':>9}")
    for name in boards:
        m = statistics.median(mine[name])
        line = f"{name:12} {m:12,.0f}"
        if ref is not None:
            c = statistics.median(cxx[name])
            line += f" {c:12,.0f} {m / c:9.2f}"
        print(line)
    if args.parts:
        loop = _playout_loop()
        print(f"playouts/s from each position ({args.seconds:g} s each):")
        for name, board in boards.items():
            rates = playout_rates(board, args.seconds, loop)
            print(f"{name:12} " + "   ".join(f"{k} {v:10,.0f}" for k, v in rates.items()))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
