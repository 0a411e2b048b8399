"""The ``strategy:`` engine's own cost: starting its child process, and a move beyond getPoint.

    python benchmarks/strategy_overhead.py             # 2000 moves on a 12x12 board, 20 starts
    python benchmarks/strategy_overhead.py --moves 5000 --json

Compiles a trivial strategy (leftmost open column) with g++, then measures (medians):

* start: building the engine = starting the child process and loading the library;
* pipe: one request and answer over the pipes, nothing else (the protocol's floor);
* move: ``engine.play`` on a 12x12 board with 36 stones and a no-go cell, minus the time
  getPoint itself took (the board's conversion to the course's arrays, the pipes, the checks).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from array import array
from pathlib import Path

from boardai.engines.strategy import ANSWER, HEADER, StrategyEngine
from boardai.games import Connect4Board

SOURCE = r"""
struct Point { int x; int y; };
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    for (int y = 0; y < N; y++) if (top[y] > 0) return new Point{top[y] - 1, y};
    return 0;
}
extern "C" void clearPoint(Point* p) { delete p; }
"""


def measure(moves: int, starts: int) -> dict:
    gxx = shutil.which("g++")
    if gxx is None:
        raise SystemExit("g++ is needed to compile the strategy")
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = Path(tmp) / "s.cpp", Path(tmp) / "s.so"
        src.write_text(SOURCE)
        subprocess.run([gxx, "-shared", "-fPIC", "-O1", "-o", str(lib), str(src)], check=True)
        start = []
        for _ in range(starts):
            t = time.perf_counter()
            StrategyEngine(str(lib)).close()
            start.append(time.perf_counter() - t)
        engine = StrategyEngine(str(lib))
        request = HEADER.pack(12, 12, -1, -1, 0, 0) + array("i", [12] * 12 + [0] * 144).tobytes()
        pipe = []
        for _ in range(moves):
            t = time.perf_counter()
            os.write(engine._wfd, request)
            engine._read(ANSWER.size, t + 5.0)
            pipe.append(time.perf_counter() - t)
        board = Connect4Board(12, 12, blocked=[(5, 6)])
        board.push_many([c for c in range(12) for _ in range(3)])
        move, inside = [], []
        for _ in range(moves):
            t = time.perf_counter()
            result = engine.play(board)
            move.append(time.perf_counter() - t)
            inside.append(result.info["getpoint_s"])
        engine.close()
    beyond = [m - g for m, g in zip(move, inside)]
    return {"start_ms": round(1e3 * statistics.median(start), 2),
            "pipe_us": round(1e6 * statistics.median(pipe), 1),
            "move_overhead_us": round(1e6 * statistics.median(beyond), 1),
            "getpoint_us": round(1e6 * statistics.median(inside), 1),
            "load": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--starts", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = measure(args.moves, args.starts)
    if args.json:
        print(json.dumps(r))
        return
    print(f"child start and library load: {r['start_ms']} ms; pipe round trip {r['pipe_us']} us; "
          f"a move beyond getPoint {r['move_overhead_us']} us (getPoint itself "
          f"{r['getpoint_us']} us; load average {' '.join(map(str, r['load']))})")


if __name__ == "__main__":
    main()
