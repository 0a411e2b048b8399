"""The Ray backend's cost against the local process pool, on this machine, in one run.

    python benchmarks/ray_overhead.py                 # both kinds of game, 2 workers each
    python benchmarks/ray_overhead.py --games 40 --jobs 2

For each kind of game (``random`` against ``random`` on Hex 11x11: games of a few milliseconds,
where the per-game overhead shows; ``mcts:sims=1000`` against itself on Hex 9x9: games of about
a second) the same plan is played twice, by ``ProcessRunner(jobs)`` and by a local Ray with
``jobs`` CPUs (``RayRunner``), each into its own store, the runner started before the clock
(Ray's start-up is printed apart).  Printed: games per second of each and the ratio Ray/local.
Target (issue #19): >= 0.8x local for the ``mcts`` games.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boardai.arena.match import make_plan, run_match
from boardai.games.setup import BoardSetup
from boardai.arena.ray_runner import RayRunner
from boardai.arena.runner import ProcessRunner
from boardai.arena.store import Store

KINDS = {"random 11x11": ("random", "random", 11, 200),
         "mcts:sims=1000 9x9": ("mcts:sims=1000", "mcts:sims=1000", 9, 24)}


def rate(runner, plan, games: int, path: Path) -> float:
    with Store(path) as store:
        t0 = time.perf_counter()
        out = run_match(plan, games, store, runner)
        took = time.perf_counter() - t0
    assert out.score.games == games
    return games / took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, help="games per kind (default: 200 random, 24 mcts)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ray-overhead-"))
    local = ProcessRunner(args.jobs)
    t0 = time.perf_counter()
    remote = RayRunner(None, args.jobs)
    print(f"Ray start-up: {time.perf_counter() - t0:.1f} s (a local Ray with {args.jobs} CPUs)")
    try:
        for name, (a, b, size, default_games) in KINDS.items():
            games = args.games or default_games
            plan = make_plan(a, b, BoardSetup("hex", size, size), None, 1, None, folder / "x.sqlite")
            # one warm-up game each: the workers load the compiled kernels
            rate(local, plan, 1, folder / f"warm-local-{size}.sqlite")
            rate(remote, plan, 1, folder / f"warm-ray-{size}.sqlite")
            r_local = rate(local, plan, games, folder / f"local-{size}.sqlite")
            r_ray = rate(remote, plan, games, folder / f"ray-{size}.sqlite")
            print(f"{name:20s} {games:4d} games: local {r_local:8.2f} games/s   ray "
                  f"{r_ray:8.2f} games/s   ray/local {r_ray / r_local:5.2f}x")
    finally:
        local.close()
        remote.close()


if __name__ == "__main__":
    main()
