"""Time ``records.loads`` on growing records of several shapes: loading must be linear.

    python benchmarks/sgf_load.py              # five shapes, sizes n, 2n, 5n, 10n
    python benchmarks/sgf_load.py --only root-props,comments --repeat 1

For each shape the record is built at four sizes and loaded in this one process, after one
warm-up load: ``--repeat`` rounds, each loading every size once (so a busy spell of the machine
falls on all sizes), the best time of each size kept.  Printed are each size's bytes and
seconds and the ratio of every time to the smallest size's.  The target is linear work: ten times the input in at most
twelve times the time (``ratio 10n/n <= 12``).  The largest sizes stay within the limits of a
record (``records.MAX_NODES``, ``MAX_VALUES``, ``MAX_BYTES``) so that they load.

Which ``boardai`` is timed is printed first: put an older checkout first on ``PYTHONPATH`` to
time it the same way (``git archive <commit> boardai | tar -x -C /tmp/base`` then
``PYTHONPATH=/tmp/base python benchmarks/sgf_load.py``).
"""

from __future__ import annotations

import argparse
import gc
import time

import boardai
from boardai import records

ROOT = "(;FF[4]GM[11]SZ[11]"
SHAPES = {   # name -> (what, record of size n, smallest n)
    "root-props": ("repeated root properties GN[x] (the issue's case)",
                   lambda n: ROOT + "GN[x]" * n + ";B[a1])", 16_000),
    "comments": ("repeated root comments C[...] of 100 characters (10n = 4 MB)",
                 lambda n: ROOT + ("C[" + "c" * 98 + ".]") * n + ";B[a1])", 4_000),
    "nodes": ("nodes ;C[x] without moves",
              lambda n: ROOT + ";B[a1]" + ";C[x]" * n + ")", 9_000),
    "variations": ("variations (;C[x])",
                   lambda n: ROOT + ";B[a1]" + "(;C[x])" * n + ")", 9_000),
    "escapes": ("one comment of lines with escapes a\\]b\\<CR LF>",
                lambda n: ROOT + "C[" + "a\\]b\\\r\n" * n + "];B[a1])", 200_000),
}
FACTORS = (1, 2, 5, 10)


def best_times(texts: list[str], repeat: int) -> list[float]:
    """The best time of loading each text, over ``repeat`` rounds through all of them."""
    best = [float("inf")] * len(texts)
    for _ in range(repeat):
        for k, text in enumerate(texts):
            gc.collect()
            start = time.perf_counter()
            records.loads(text)
            best[k] = min(best[k], time.perf_counter() - start)
        if max(best) > 10:      # an old, quadratic checkout: one round is enough
            break
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated shapes: " + ", ".join(SHAPES))
    ap.add_argument("--repeat", type=int, default=5, help="rounds, best time kept (5)")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(SHAPES)
    print(f"boardai {boardai.__file__}")
    records.loads(ROOT + ";B[a1])")                 # warm up: imports, the game's kernel
    worst = 0.0
    for name in names:
        what, make, n = SHAPES[name]
        print(f"\n{name}: {what}")
        texts = [make(n * factor) for factor in FACTORS]
        times = best_times(texts, args.repeat)
        for factor, text, seconds in zip(FACTORS, texts, times):
            print(f"  n={n * factor:>9,}  {len(text) / 1e6:7.2f} MB  {seconds:8.3f} s  "
                  f"ratio {seconds / times[0]:6.2f}")
        ratio = times[-1] / times[0]
        worst = max(worst, ratio)
        print(f"  ratio 10n/n = {ratio:.2f} ({'meets' if ratio <= 12 else 'MISSES'} the <= 12 "
              f"target)")
    print(f"\nworst ratio 10n/n: {worst:.2f} (target <= 12)")


if __name__ == "__main__":
    main()
