"""A/B of two checkouts of boardai on the same `boardai bench` commands, interleaved in one run.

Use it to show that a change costs no speed: check the older commit out beside this one
(``git worktree add ../base <commit>``) and run

    python benchmarks/ab_checkouts.py --base ../base                # this checkout = B, ../base = A
    python benchmarks/ab_checkouts.py --base ../base --rounds 7 --seconds 3

Each round runs every benchmark once on each side, alternating which side goes first, so a drift
in the machine's speed falls on both.  A side runs as ``python -c 'from boardai.cli import main'``
with that checkout first on ``sys.path`` (both use this interpreter and its packages); one
untimed warm-up per side fills numba's cache first.  Printed: per benchmark the median rate of
each side and the median of the per-round ratios new/base, with their range.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

BENCHES = {                      # name -> (bench arguments, the rate field in its JSON)
    "playouts hex 11x11": (["playouts", "--game", "hex", "--size", "11"], "playouts_per_s"),
    "playouts connect4 7x6": (["playouts", "--game", "connect4"], "playouts_per_s"),
    "mcts hex 11x11": (["mcts", "--game", "hex", "--size", "11"], "sims_per_s"),
    "mcts connect4 7x6": (["mcts", "--game", "connect4"], "sims_per_s"),
}


def run(checkout: Path, args: list[str], seconds: float) -> dict:
    """One benchmark's rate from the checkout's `boardai bench ... --json`."""
    code = (f"import sys; sys.path.insert(0, {str(checkout)!r}); sys.argv[0] = 'boardai'; "
            "from boardai.cli import main; main()")
    cmd = [sys.executable, "-c", code, "bench", *args, "--seconds", str(seconds), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=checkout).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (A)")
    ap.add_argument("--new", type=Path, default=HERE, help="this checkout (B, default)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--only", help="comma list of benchmark names to run")
    opts = ap.parse_args()
    sides = {"base": opts.base.resolve(), "new": opts.new.resolve()}
    names = list(BENCHES) if not opts.only else [n.strip() for n in opts.only.split(",")]
    rates: dict[str, dict[str, list[float]]] = {n: {"base": [], "new": []} for n in names}
    for side, path in sides.items():                      # warm-up: numba caches
        for n in names:
            run(path, BENCHES[n][0], 0.2)
    for r in range(opts.rounds):
        order = ["base", "new"] if r % 2 == 0 else ["new", "base"]
        for n in names:
            args, field = BENCHES[n]
            for side in order:
                rates[n][side].append(float(run(sides[side], args, opts.seconds)[field]))
        print(f"round {r + 1}/{opts.rounds} done", file=sys.stderr)
    print(f"{'benchmark':24} {'base /s':>12} {'new /s':>12} {'new/base':>9}  (range of round ratios)")
    for n in names:
        b, w = rates[n]["base"], rates[n]["new"]
        ratios = [x / y for x, y in zip(w, b)]
        print(f"{n:24} {statistics.median(b):12,.0f} {statistics.median(w):12,.0f} "
              f"{statistics.median(ratios):9.3f}  ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
