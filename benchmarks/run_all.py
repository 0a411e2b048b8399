"""Playouts per second: our kernels against the plain numba references, 1 and 2 threads.

    python benchmarks/run_all.py                 # 3 s per measurement, a table
    python benchmarks/run_all.py --seconds 1 --json
    python benchmarks/run_all.py --repeat 3      # keep the fastest of 3 runs per measurement

For each board (Hex 11x11 and Connect Four 7x6, which carry the targets, then Hex 7x7 and 9x9 for
information) it runs, one after another: the plain reference on 1 thread, our ``playout_batch``
on 1 thread, and ours on 2 threads.  Targets: ours/plain >= 1.5x, 2 threads/1 thread >= 1.8x.
With ``--json`` the last line of stdout is the numbers as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from rich.console import Console
from rich.table import Table

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from plain_playouts import bench_plain_playouts  # noqa: E402

from boardai.bench.speed import bench_playouts  # noqa: E402

BOARDS = [("hex", 11, 11, True), ("connect4", 7, 6, True), ("hex", 7, 7, False), ("hex", 9, 9, False)]
TARGET_RATIO = 1.5
TARGET_SCALING = 1.8


def busy_fraction(interval: float = 0.5) -> float | None:
    """Share of the machine's CPU time in use over ``interval`` (Linux /proc/stat; else None)."""
    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]          # total, idle + iowait
    try:
        total0, idle0 = sample()
        time.sleep(interval)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def best_of(repeat: int, bench, *args, **kwargs) -> dict:
    """The fastest of ``repeat`` runs (on a shared machine the slow ones met other work)."""
    runs = [bench(*args, **kwargs) for _ in range(repeat)]
    return max(runs, key=lambda r: r["playouts_per_s"])


def measure(game: str, w: int, h: int, seconds: float, seed: int, repeat: int, log) -> dict:
    plain = best_of(repeat, bench_plain_playouts, game, w, h, seconds, threads=1, seed=seed)
    log(f"  {game} {w}x{h} plain    {plain['playouts_per_s']:>13,.0f}/s")
    one = best_of(repeat, bench_playouts, game, w, h, seconds, threads=1, seed=seed)
    log(f"  {game} {w}x{h} ours 1t  {one['playouts_per_s']:>13,.0f}/s")
    two = best_of(repeat, bench_playouts, game, w, h, seconds, threads=2, seed=seed)
    log(f"  {game} {w}x{h} ours 2t  {two['playouts_per_s']:>13,.0f}/s")
    return {
        "game": game, "size": f"{w}x{h}",
        "plain_per_s": round(plain["playouts_per_s"]),
        "ours_per_s": round(one["playouts_per_s"]),
        "ours_2threads_per_s": round(two["playouts_per_s"]),
        "ratio_vs_plain": round(one["playouts_per_s"] / plain["playouts_per_s"], 2),
        "thread_scaling": round(two["playouts_per_s"] / one["playouts_per_s"], 2),
        "black_win_rate": {"plain": round(plain["black_win_rate"], 4),
                           "ours": round(one["black_win_rate"], 4)},
        "draw_rate": {"plain": round(plain["draw_rate"], 4), "ours": round(one["draw_rate"], 4)},
    }


def verdict(value: float, target: float, graded: bool) -> str:
    text = f"{value:.2f}x"
    if not graded:
        return text
    return f"[green]{text} ✓[/]" if value >= target else f"[red]{text} ✗[/]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each measurement N times and keep the fastest (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON last")
    args = parser.parse_args(argv)

    console = Console(width=None if sys.stdout.isatty() else 110)   # a pipe: no 80-column wrap
    progress = Console(stderr=True)          # progress lines on stderr, the table on stdout
    busy = busy_fraction()
    if busy is not None and busy > 0.1:
        progress.print(f"[yellow]the CPUs are {100 * busy:.0f}% busy before we start: other work "
                       f"is running and the numbers (2 threads above all) will suffer[/]")
    rows = []
    for game, w, h, graded in BOARDS:
        row = measure(game, w, h, args.seconds, args.seed, max(1, args.repeat),
                      lambda s: progress.print(s, highlight=False))
        row["graded"] = graded
        rows.append(row)

    table = Table(title=f"Random playouts per second from the empty board ({args.seconds:g} s each, "
                        f"{os.cpu_count()} cores)")
    for name in ("game", "size", "plain 1t /s", "ours 1t /s", "ours 2t /s",
                 f"ours/plain (>={TARGET_RATIO})", f"2t/1t (>={TARGET_SCALING})",
                 "Black wins plain/ours"):
        table.add_column(name, justify="left" if name in ("game", "size") else "right")
    for r in rows:
        table.add_row(r["game"], r["size"], f"{r['plain_per_s']:,}", f"{r['ours_per_s']:,}",
                      f"{r['ours_2threads_per_s']:,}",
                      verdict(r["ratio_vs_plain"], TARGET_RATIO, r["graded"]),
                      verdict(r["thread_scaling"], TARGET_SCALING, r["graded"]),
                      f"{r['black_win_rate']['plain']:.3f} / {r['black_win_rate']['ours']:.3f}")
    console.print(table)
    console.print("Hex 7x7 and 9x9 are for information; the targets apply to Hex 11x11 and "
                  "Connect Four 7x6.", highlight=False)
    if args.json:
        out = {"seconds": args.seconds, "repeat": args.repeat, "cpu_count": os.cpu_count(),
               "cpu_busy_before": None if busy is None else round(busy, 3),
               "python": platform.python_version(), "rows": rows}
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
