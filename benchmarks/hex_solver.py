"""Exact Hex solver timing: every one-stone opening of an N×N board (Benzene's DFPN: 4.8 s for all
36 of 6×6, 121 s for the 25 7×7 openings it lists; issue 7).

    python benchmarks/hex_solver.py --size 5
    python benchmarks/hex_solver.py --size 6 --time 60      # per-opening limit in seconds
    python benchmarks/hex_solver.py --size 7 --time 120 --threads 2
    python benchmarks/hex_solver.py --size 8 --cells d4,e5  # stretch: 8x8 centre openings
    python benchmarks/hex_solver.py --size 7 --slice-nodes 50     # the same node counts each run
"""

from __future__ import annotations

import argparse
import json
import os
import time

from boardai.solvers.hex import openings as O
from boardai.solvers.hex import solver as S
from boardai.games.hex.board import HexBoard


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--time", type=float, default=None, help="seconds per opening (default none)")
    ap.add_argument("--cells", default="", help="only these openings, e.g. d4,e5 (one thread)")
    ap.add_argument("--threads", type=int, default=1, help="openings solved side by side")
    ap.add_argument("--slice-nodes", type=int, default=None,
                    help="fixed DFPN slices of this many nodes (e.g. 50, about the clock's "
                         "10 ms): the same node counts on every run of one thread, for A/B "
                         "comparisons by nodes")
    args = ap.parse_args()
    S.solve(HexBoard(2))                       # load the compiled code before timing
    rows = []

    def progress(name, winner, nodes, seconds):
        rows.append({"opening": name, "winner": winner, "nodes": nodes,
                     "seconds": round(seconds, 3)})
        print(f"{name:4} {winner or 'unsolved':8} {nodes:9} nodes {seconds:8.2f} s", flush=True)

    t0, c0 = time.perf_counter(), time.process_time()
    if args.cells:
        s = S.solver_for(args.size, args.size)
        for name in args.cells.split(","):
            board = HexBoard.from_moves(name, args.size)
            t, n0 = time.perf_counter(), int(s.stats[0])
            r = s.run(s.position(board.cells, 1), 1, None if args.time is None else t + args.time,
                      fixed_slice=args.slice_nodes)
            progress(name, {S.WIN: "white", S.LOSS: "black"}.get(r), int(s.stats[0]) - n0,
                     time.perf_counter() - t)
        winners = {r["opening"]: r["winner"] for r in rows}
    else:                                      # every opening; 180-degree images not searched
        winners = O.solve_openings(args.size, args.time, progress, args.threads,
                                   args.slice_nodes)
    print(json.dumps({"size": args.size, "threads": args.threads,
                      "solved": sum(w is not None for w in winners.values()),
                      "openings": len(winners), "searched": len(rows),
                      "total_seconds": round(time.perf_counter() - t0, 2),
                      "cpu_seconds": round(time.process_time() - c0, 2),
                      "black_wins": sorted(k for k, w in winners.items() if w == "black"),
                      "unsolved": sorted(k for k, w in winners.items() if w is None),
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
