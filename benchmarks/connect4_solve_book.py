"""``boardai solve connect4`` from a fresh process: every shallow position, and ``4453``.

    python benchmarks/connect4_solve_book.py                 # positions of <= 3 stones, 4453
    python benchmarks/connect4_solve_book.py --stones 2 --runs 3

Issue 14 asks that ``solve`` read every position the shipped book holds, answer every position
of at most three stones within 1 s, and ``echo 4453 | boardai solve connect4`` within 5 s (it
took 18.3 s from a fresh install).  Each figure is a real ``boardai solve connect4`` process:
its own timing of each line (microseconds, the search or the book lookup) and the command's
whole wall time, start-up included.  The last line is JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time


def shallow_lines(stones: int, width: int = 7) -> list[str]:
    """Every sequence of at most ``stones`` moves (column digits; none fills a 6-high column)."""
    cols = [str(c) for c in range(1, width + 1)]
    return ["".join(p) for n in range(1, stones + 1) for p in itertools.product(cols, repeat=n)]


def solve(lines: list[str]) -> tuple[float, list[tuple[str, int, float]]]:
    """(wall seconds, [(moves, score, seconds)]) of one ``boardai solve connect4`` process."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "boardai", "solve", "connect4"], check=True,
                         input="\n".join(lines) + "\n", capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    rows = []
    for line in out.splitlines():
        moves, score, _nodes, micros = line.split()
        rows.append((moves, int(score), int(micros) / 1e6))
    return wall, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stones", type=int, default=3, help="positions of up to this many stones")
    ap.add_argument("--runs", type=int, default=3, help="fresh processes solving 4453")
    args = ap.parse_args()
    wall, rows = solve(shallow_lines(args.stones))
    slowest = max(rows, key=lambda r: r[2])
    print(f"{len(rows)} positions of 1-{args.stones} stones in one process: {wall:.2f} s wall, "
          f"slowest line {slowest[0]} {slowest[2] * 1000:.1f} ms")
    walls = []
    for _ in range(args.runs):
        w, ((moves, score, secs),) = solve(["4453"])
        walls.append(w)
        print(f"echo 4453 | boardai solve connect4: score {score}, search {secs:.2f} s, "
              f"command {w:.2f} s")
    print(json.dumps({"positions": len(rows), "stones": args.stones,
                      "slowest_line_s": round(slowest[2], 4), "slowest_line": slowest[0],
                      "shallow_wall_s": round(wall, 2), "solve_4453_wall_s": [round(w, 2) for w in walls],
                      "load": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
