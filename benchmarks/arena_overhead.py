"""Arena overhead: games per second of random vs random on 11x11 Hex through the whole arena.

    python benchmarks/arena_overhead.py                  # 2000 games, 2 jobs
    python benchmarks/arena_overhead.py --games 4000 --jobs 2 --json

Everything a real match does is in the measurement (worker processes, engines built per game,
one SQLite transaction per game, the running score), except the progress bar and process
start-up.  Random moves cost microseconds, so this is the arena's own cost per game.
Target: >= 200 games/s with 2 jobs.  Prints the machine's load average next to the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from boardai.arena.match import make_plan, run_match
from boardai.games.setup import BoardSetup
from boardai.arena.runner import make_runner
from boardai.arena.store import Store

TARGET = 200.0


def measure(games: int, jobs: int, size: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "overhead.sqlite"
        plan = make_plan("random", "random", BoardSetup("hex", size, size), None, 1, None, path)
        with Store(path) as store, make_runner(jobs) as runner:
            start = time.perf_counter()
            out = run_match(plan, games, store, runner)
            elapsed = time.perf_counter() - start
        assert out.score.games == games
    return {"games": games, "jobs": jobs, "size": size, "seconds": round(elapsed, 3),
            "games_per_s": round(games / elapsed, 1), "target_games_per_s": TARGET,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = measure(args.games, args.jobs, args.size)
    verdict = "meets" if r["games_per_s"] >= TARGET else "misses"
    print(f"random vs random, Hex {r['size']}x{r['size']}, {r['jobs']} jobs: {r['games']} games "
          f"in {r['seconds']} s = {r['games_per_s']} games/s ({verdict} the {TARGET:g}/s target; "
          f"load average {' '.join(map(str, r['load_average']))})")
    if args.json:
        print(json.dumps(r))


if __name__ == "__main__":
    main()
