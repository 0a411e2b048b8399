"""Connect Four solver speed on Pons' six classes of positions, against his C++ figures.

    python benchmarks/connect4_solver.py                      # every class (a few minutes)
    python benchmarks/connect4_solver.py --classes end-easy,middle-easy --json
    python benchmarks/connect4_solver.py --generate           # rebuild boardai/bench/connect4_tests/ (slow)

The same as ``boardai bench solver``.  The sets in ``boardai/bench/connect4_tests/<class>.txt`` were
made by our solver from random games (``boardai.bench.solver.generate_sets``); every
score is checked again while timing (column ``wrong``).  No opening book; one transposition
table (2**20 entries) kept across the positions of a class, as Pons' bench program does.
"""

from __future__ import annotations

import argparse
import json
import os

from boardai.bench.solver import CLASS_NAMES, format_bench, generate_sets, run_bench


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", default=",".join(CLASS_NAMES), help="comma-separated class names")
    ap.add_argument("--limit", type=int, help="at most this many positions per class")
    ap.add_argument("--tt-bits", type=int, default=20, help="table of 2**N entries (16..30)")
    ap.add_argument("--generate", action="store_true", help="write new sets instead of timing")
    ap.add_argument("--json", action="store_true", help="last line: one JSON object")
    args = ap.parse_args()
    names = tuple(n.strip() for n in args.classes.split(",") if n.strip())
    bad = [n for n in names if n not in CLASS_NAMES]
    if bad:
        ap.error(f"unknown class {bad[0]!r}: choose from {', '.join(CLASS_NAMES)}")
    if args.generate:
        generate_sets(names)
        return
    rows = run_bench(names, args.limit, tt_bits=args.tt_bits)
    load = os.getloadavg()[0]
    print(format_bench(rows) + f"\nload average (1 min) at the end: {load:.2f}")
    if args.json:
        print(json.dumps({"rows": rows, "load1": load}))


if __name__ == "__main__":
    main()
