"""Exactly once under fire: a match on a local Ray while its worker processes are killed.

    python benchmarks/ray_kills.py                    # 40 games, a kill -9 every 0.7 s, >= 10 kills
    python benchmarks/ray_kills.py --games 60 --kills 20

A killer thread sends SIGKILL to a Ray worker that is playing a game (its process title is
``ray::_play_on_worker``) every ``--every`` seconds until ``--kills`` kills are done; Ray re-runs
the lost games with the same seeds.  Afterwards the store must hold every game of the plan
exactly once, and each must be the game the local backend plays for the same plan (the seeds
and ``sims=`` budgets make games reproducible).  Printed: kills, games re-delivered and refused
by the store as doubles, games lost, games that differ from the local replay.
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import threading
import time
from pathlib import Path

from boardai.arena.match import make_plan, run_match
from boardai.games.setup import BoardSetup
from boardai.arena.ray_runner import RayRunner
from boardai.arena.runner import ProcessRunner
from boardai.arena.store import Store


def playing_workers() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"ray::_play_on_worker" in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--kills", type=int, default=12)
    ap.add_argument("--every", type=float, default=0.7, help="seconds between kills")
    ap.add_argument("--engine", default="mcts:sims=3000")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ray-kills-"))
    plan = make_plan(args.engine, args.engine, BoardSetup("hex", 7, 7), None, 11, None,
                     folder / "x.sqlite")

    kills = []
    done = threading.Event()

    def killer() -> None:
        while not done.is_set() and len(kills) < args.kills:
            time.sleep(args.every)
            pids = playing_workers()
            if pids:
                try:
                    os.kill(pids[0], signal.SIGKILL)
                    kills.append(pids[0])
                except ProcessLookupError:
                    pass

    runner = RayRunner(None, 2)
    doubles = 0
    try:
        with Store(folder / "ray.sqlite") as store:
            store.ensure_match(plan.info())
            thread = threading.Thread(target=killer, daemon=True)
            t0 = time.perf_counter()
            thread.start()
            for g in runner.play(plan.task(i) for i in range(args.games)):
                doubles += not store.add_game(g)
            took = time.perf_counter() - t0
            done.set()
            got = {g.idx: (tuple(g.moves), g.winner) for g in store.games(plan.key)}
    finally:
        runner.close()
    with Store(folder / "local.sqlite") as store, ProcessRunner(2) as local:
        run_match(plan, args.games, store, local)
        want = {g.idx: (tuple(g.moves), g.winner) for g in store.games(plan.key)}
    lost = sorted(set(want) - set(got))
    differ = sorted(i for i in got if got[i] != want.get(i))
    print(f"ray kills: {args.games} games of {args.engine} on Hex 7x7 in {took:.0f} s, "
          f"{len(kills)} workers killed mid-game")
    print(f"  stored {len(got)} of {args.games}; lost {len(lost)}; doubles refused {doubles}; "
          f"games different from the local replay {len(differ)}")
    ok = len(kills) >= 10 and not lost and not differ and len(got) == args.games
    print(f"  target (0 lost, 0 doubled over >= 10 kills): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
