"""How fast the command line answers --help: `boardai --help` and each `boardai CMD --help`.

    python benchmarks/cli_startup.py              # 7 runs each: min and median, a table
    python benchmarks/cli_startup.py --runs 15 --json

Each command runs in a new process (as a user types it), from the venv's ``boardai`` script,
beside ``python -c pass`` measured in the same run (the floor: the interpreter's own start).
Targets: ``boardai --help`` <= 0.2 s and every ``boardai CMD --help`` <= 0.3 s, warm (the OS's file
cache hot: the first run of each command is dropped).  The targets are wall-clock times: run it
on a quiet machine; on a busy one the CPU seconds (user + system, median) and the ratio to
``python -c pass`` say more.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

TARGET_MAIN_S = 0.2
TARGET_COMMAND_S = 0.3


def _boardai() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "boardai")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "boardai"]


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _time(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (user + system) of each run of ``argv``."""
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # warm
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), _cpu()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall.append(time.perf_counter() - start)
        cpu.append(_cpu() - start_cpu)
    return wall, cpu


def _commands() -> list[str]:
    from boardai.cli import main
    return sorted(main.commands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    parser.add_argument("--json", action="store_true", help="last line: the numbers as JSON")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs: at least 1")

    boardai = _boardai()
    rows = [("python -c pass", [sys.executable, "-c", "pass"], None),
            ("boardai --help", [*boardai, "--help"], TARGET_MAIN_S)]
    rows += [(f"boardai {c} --help", [*boardai, c, "--help"], TARGET_COMMAND_S)
             for c in _commands()]
    results = {}
    print(f"{'command':<28} {'min s':>7} {'median s':>9} {'cpu s':>7}  target", flush=True)
    for label, argv, target in rows:
        times, cpu = _time(argv, args.runs)
        best, median, cpu_median = min(times), statistics.median(times), statistics.median(cpu)
        results[label] = {"min_s": round(best, 4), "median_s": round(median, 4),
                          "cpu_median_s": round(cpu_median, 4), "target_s": target}
        verdict = "" if target is None else \
            f"<= {target}  {'met' if median <= target else 'NOT met'}"
        print(f"{label:<28} {best:7.3f} {median:9.3f} {cpu_median:7.3f}  {verdict}", flush=True)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
