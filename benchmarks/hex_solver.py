"""Exact Hex solver timing: every one-stone opening of an N×N board (Benzene's DFPN: 4.8 s for all
36 of 6×6, 121 s for the 25 7×7 openings it lists; issue 7).

    python benchmarks/hex_solver.py --size 5
    python benchmarks/hex_solver.py --size 6 --time 60      # per-opening limit in seconds
    python benchmarks/hex_solver.py --size 8 --cells d4,e5  # stretch: 8x8 centre openings
"""

from __future__ import annotations

import argparse
import json
import os
import time

from boardai.games.hex import solver as S
from boardai.games.hex.board import HexBoard


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--time", type=float, default=None, help="seconds per opening (default none)")
    ap.add_argument("--cells", default="", help="only these openings, e.g. d4,e5")
    args = ap.parse_args()
    S.solve(HexBoard(2))                       # load the compiled code before timing
    names = [x for x in args.cells.split(",") if x] or \
        [HexBoard(args.size).move_name(c) for c in range(args.size ** 2)]
    rows, t0 = [], time.perf_counter()
    for name in names:
        board = HexBoard.from_moves(name, args.size)
        t = time.perf_counter()
        s = S._solver_for(args.size, args.size)
        n0 = int(s.stats[0])
        r = s.run(s.position(board.cells, 1), 1,
                  None if args.time is None else t + args.time)
        winner = {S.WIN: "white", S.LOSS: "black"}.get(r)
        rows.append({"opening": name, "winner": winner, "nodes": int(s.stats[0]) - n0,
                     "seconds": round(time.perf_counter() - t, 3)})
        print(f"{name:4} {winner or 'unsolved':8} {rows[-1]['nodes']:9} nodes "
              f"{rows[-1]['seconds']:8.2f} s", flush=True)
    total = time.perf_counter() - t0
    print(json.dumps({"size": args.size, "solved": sum(r["winner"] is not None for r in rows),
                      "openings": len(rows), "total_seconds": round(total, 2),
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
