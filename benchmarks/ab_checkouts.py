"""A/B of two checkouts of boardai in one process: the same playouts and MCTS work, interleaved.

Use it to show that a change costs no speed: check the older commit out beside this one
(``git worktree add ../base <commit>``) and run

    python benchmarks/ab_checkouts.py --base ../base                 # 60 rounds of each work
    python benchmarks/ab_checkouts.py --base ../base --rounds 100 --only hexplay,c4mcts

Timing whole processes against each other on a shared machine swings by 10-20% from one
process to the next; inside one process the two sides share the CPU's state, so the base
checkout's package is copied to a temporary folder as ``boardai_base`` (its imports rewritten)
and imported beside today's ``boardai``.  Each round times one fixed piece of work on each side,
alternating which goes first: a batch of random playouts from the empty board (what
``boardai bench playouts`` times) and an ``mcts`` search of a fixed number of simulations with a
fixed seed (what ``boardai bench mcts`` times; the same tree on both sides).  Printed per work:
each side's fastest and median time, and new/base speed as the median of the per-round ratios.
The first run compiles the copy's numba code (a minute); later runs load it from the cache.

On a loaded machine, run it both ways round as well (from the base checkout with ``--base`` the
new one): with identical playout code the side imported as ``boardai`` measured 3-6 % slower
than the copy in three of four 100-round runs at load 10-14, and the geometric mean of the two
directions, sqrt(ratio / ratio swapped), cancels such a bias of the harness.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
WORKS = {            # name -> (game, size, kind, amount)
    "hexplay": ("hex", 11, "playouts", 150_000),
    "c4play": ("connect4", None, "playouts", 500_000),
    "hexmcts": ("hex", 11, "mcts", 12_000),
    "c4mcts": ("connect4", None, "mcts", 50_000),
}


def renamed_copy(checkout: Path, name: str) -> Path:
    """The checkout's ``boardai`` package copied as ``name`` into a cache folder (kept between
    runs so numba's cache survives); returns the folder to put on ``sys.path``."""
    digest = hashlib.sha1(str(checkout.resolve()).encode()).hexdigest()[:10]
    root = Path(tempfile.gettempdir()) / f"boardai-ab-{digest}"
    target = root / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(checkout / "boardai", target,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in target.rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\bboardai\.", f"{name}.", text)
        text = re.sub(r"\bfrom boardai import", f"from {name} import", text)
        text = re.sub(r"^import boardai$", f"import {name}", text, flags=re.M)
        path.write_text(text)
    return root


def load(package: str):
    """The modules one side's work needs."""
    mods = [importlib.import_module(f"{package}.{m}") for m in
            ("games", "games.kernel", "games.layout", "engines.registry", "engines.base")]
    return dict(zip(("games", "kernel", "layout", "registry", "base"), mods))


def work(side: dict, name: str):
    """A function doing one fixed piece of work on that side."""
    game, size, kind, amount = WORKS[name]
    board = side["games"].make_board(game, size)
    if kind == "playouts":
        return lambda: side["kernel"].playout_batch(board.state, side["layout"].new_rng(1), amount)
    limit = side["base"].Limit(sims=amount)
    return lambda: side["registry"].make_engine("mcts:seed=1").play(board, limit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (A)")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--only", help=f"comma list of: {', '.join(WORKS)}")
    opts = ap.parse_args()
    sys.path.insert(0, str(renamed_copy(opts.base, "boardai_base")))
    sys.path.insert(0, str(HERE))
    sides = {"base": load("boardai_base"), "new": load("boardai")}
    names = list(WORKS) if not opts.only else [n.strip() for n in opts.only.split(",")]
    print(f"{'work':8} {'base min':>9} {'base med':>9} {'new min':>9} {'new med':>9}  "
          f"new/base speed (median of round ratios)")
    for name in names:
        runs = {s: work(side, name) for s, side in sides.items()}
        for run in runs.values():
            run()                                     # compile or load, fill caches
        times: dict[str, list[float]] = {"base": [], "new": []}
        for r in range(opts.rounds):
            for s in (("base", "new") if r % 2 == 0 else ("new", "base")):
                t = time.perf_counter()
                runs[s]()
                times[s].append(time.perf_counter() - t)
        b, n = times["base"], times["new"]
        ratio = statistics.median(x / y for x, y in zip(b, n))
        print(f"{name:8} {min(b) * 1e3:7.1f}ms {statistics.median(b) * 1e3:7.1f}ms "
              f"{min(n) * 1e3:7.1f}ms {statistics.median(n) * 1e3:7.1f}ms  {ratio:.3f}", flush=True)


if __name__ == "__main__":
    main()
