"""Hex strength against MoHex 2.0 (Benzene), through the arena with MoHex as a ``gtp:`` engine.

    python benchmarks/mohex_match.py --mohex /path/to/mohex --size 7 --time 1 \
        --store mohex7.sqlite
    python benchmarks/mohex_match.py --mohex /path/to/mohex --size 9 --ours "mcts:solver=0.5" \
        --store mohex9.sqlite --openings a1,b2,e5
    python benchmarks/mohex_match.py --store mohex7.sqlite --report      # the tables again
    python benchmarks/mohex_match.py --mohex /path/to/mohex --size 9 --store all9.sqlite --jobs 2
    python benchmarks/mohex_match.py --mohex /path/to/mohex --size 9 --ours-time 3 \
        --openings a1,e5 --store odds9.sqlite                       # ours 3 s, MoHex 1 s

Every one-stone opening (``hex-1stone``, or the cells of ``--openings``) is played twice, once
with each program as Black (Black's first stone is the opening; White moves next), no swap.
MoHex gets ``param_mohex max_time T`` in a config file written beside the store (MoHex's own
time control, which it overruns; the table shows each side's real thinking time); ours gets
``time=T``.  The games go to the arena store, so the same command resumes after an interruption.

The report: one row per opening with the winner by the shipped table of solved openings (sizes
it covers), ours as Black and ours as White; then the score with its 95% interval, on sizes with
a table the games each program *held* (had the winning side of the opening) and how many of them
it won, and each side's mean and longest move.  MoHex is not built or shipped by this project:
build Benzene (e.g. ``cgao3/benzene-vanilla-cmake``) and give the path of its ``mohex``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

from boardai.arena.backends import runner_for_backend
from boardai.arena.compete import side_moves
from boardai.arena.match import make_plan, run_match
from boardai.games.setup import BoardSetup
from boardai.arena.store import Store
from boardai.games.hex.board import HexBoard
from boardai.solvers.hex.openings import opening_table


def mohex_config(path: Path, seconds: float, threads: int) -> Path:
    """A MoHex start-up file: its time per move, threads, no swap, no pondering."""
    path.write_text(
        f"param_mohex max_time {seconds:g}\n"
        f"param_mohex num_threads {threads}\n"
        "param_mohex ponder 0\n"
        "param_game allow_swap 0\n", encoding="utf-8")
    return path


def openings_file(path: Path, size: int, cells: str | None) -> str:
    """``hex-1stone`` for every opening, else a file with the cells asked for."""
    if not cells:
        return "hex-1stone"
    board = HexBoard(size)
    names = [c.strip() for c in cells.split(",") if c.strip()]
    for name in names:
        board.parse_move(name)          # ValueError names what is accepted
    path.write_text("".join(f"{n}\n" for n in names), encoding="utf-8")
    return str(path)


def _result(won: bool | None) -> str:
    return "draw" if won is None else ("won" if won else "lost")


def report(store: Store, match_key: str, size: int, ours: str) -> dict:
    board = HexBoard(size)
    table = opening_table().get(size, {}) if size <= 8 else {}
    rows: dict[str, dict] = {}
    times = {0: [], 1: []}               # 0 ours, 1 MoHex
    held = {0: [0, 0], 1: [0, 0]}        # side -> [games holding the winning side, of them won]
    score = 0.0
    games = store.games(match_key)
    for g in games:
        opening = board.move_name(g.opening[0])
        ours_black = g.a_is_black
        ours_won = None if g.winner is None else ((g.winner == 0) == ours_black)
        score += g.score_a
        row = rows.setdefault(opening, {"opening": opening, "table": table.get(opening)})
        row["ours_black" if ours_black else "ours_white"] = _result(ours_won)
        row.setdefault("reasons", []).append(g.reason)
        for side, t in side_moves(g):
            times[side].append(t)
        winner_colour = table.get(opening)
        if winner_colour is not None:
            holder = 0 if (winner_colour == "black") == ours_black else 1
            held[holder][0] += 1
            if ours_won is not None and ours_won == (holder == 0):
                held[holder][1] += 1
    n = len(games)
    order = sorted(rows, key=lambda name: board.parse_move(name))
    print(f"{'opening':8} {'table':6} {'ours Black':11} {'ours White':11}")
    for name in order:
        r = rows[name]
        print(f"{name:8} {r['table'] or '?':6} {r.get('ours_black', '-'):11} "
              f"{r.get('ours_white', '-'):11}")
    print("\nthe same on the board: per opening cell, the table's winner (b/w, ? unknown), then "
          "ours as Black and ours as White (+ won, - lost, . not played)")
    mark = {"won": "+", "lost": "-", "draw": "="}
    for r in range(size):
        cells = []
        for c in range(size):
            name = board.move_name(r * size + c)
            row = rows.get(name, {})
            cells.append(f"{(table.get(name) or '?')[0]}{mark.get(row.get('ours_black'), '.')}"
                         f"{mark.get(row.get('ours_white'), '.')}")
        print(" " * (2 * r) + " ".join(cells))
    p = score / n if n else 0.0
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n) if n else 0.0
    print(f"\n{ours} against MoHex, {size}x{size}: {score:g}/{n} = {100 * p:.1f}% "
          f"+- {100 * half:.1f}%")
    if table:
        print(f"games where ours held the winning side: {held[0][0]}, won {held[0][1]}; "
              f"MoHex held {held[1][0]}, won {held[1][1]}")
    for side, who in ((0, "ours "), (1, "MoHex")):
        ts = times[side]
        if ts:
            print(f"{who} moves: {len(ts)}, mean {sum(ts) / len(ts):.3f} s, longest {max(ts):.3f} s")
    return {"size": size, "ours": ours, "games": n, "score": score, "pct": round(100 * p, 1),
            "ci95_pct": round(100 * half, 1),
            "held": {"ours": held[0], "mohex": held[1]} if table else None,
            "longest": {"ours": max(times[0], default=None), "mohex": max(times[1], default=None)},
            "rows": [rows[k] for k in order]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mohex", default=os.environ.get("MOHEX"),
                    help="path of Benzene's mohex (default: $MOHEX)")
    ap.add_argument("--size", type=int, default=7)
    ap.add_argument("--time", type=float, default=1.0, help="seconds per move, both sides")
    ap.add_argument("--ours", default="mcts", help="our engine spec (time= is added)")
    ap.add_argument("--ours-time", type=float, default=None,
                    help="our seconds per move if not --time's (time odds)")
    ap.add_argument("--mohex-threads", type=int, default=1)
    ap.add_argument("--openings", help="comma-separated opening cells (default: every cell)")
    ap.add_argument("--store", required=True, help="arena store (SQLite) of the games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1,
                    help="games played at once (each needs about one core: the programs alternate)")
    ap.add_argument("--report", action="store_true", help="only print the tables of the store")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    store_path = Path(args.store).resolve()
    if not args.mohex:
        sys.exit("give --mohex PATH (or set MOHEX): the mohex program built from Benzene")
    config = mohex_config(store_path.with_suffix(".mohex.htp"), args.time, args.mohex_threads)
    ours_time = args.time if args.ours_time is None else args.ours_time
    ours = args.ours + ("," if ":" in args.ours else ":") + f"time={ours_time:g}"
    mohex = f"gtp:{args.mohex} --config {config}"
    suite = openings_file(store_path.with_suffix(".openings.txt"), args.size, args.openings)
    plan = make_plan(ours, mohex, BoardSetup("hex", args.size, args.size), suite, args.seed,
                     30.0 + 4 * max(args.time, ours_time), store_path)
    games = 2 * (args.size * args.size if not args.openings else len(args.openings.split(",")))
    with Store(store_path) as store:
        if not args.report:
            def progress(score, done):
                print(f"\r{done}/{games} games, ours {score.wins + score.draws / 2:g}", end="", file=sys.stderr,
                      flush=True)
            with runner_for_backend("local", args.jobs) as runner:
                run_match(plan, games, store, runner, None, progress)
            print(file=sys.stderr)
        key = plan.key
        if args.report and not store.games(key):
            # a store copied from elsewhere: its MoHex path and start-up file differ, so take
            # its one match of this engine spec and size
            found = [m.match_key for m in store.matches()
                     if m.engine_a == ours and m.width == args.size]
            if len(found) == 1:
                key = found[0]
        out = report(store, key, args.size, ours)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
