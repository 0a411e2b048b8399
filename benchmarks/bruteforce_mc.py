"""Brute force and flat Monte Carlo: speed of the exact first move, playout speed, strength.

    python benchmarks/bruteforce_mc.py bf --size 5                 # all rows for 5x5
    python benchmarks/bruteforce_mc.py bf --size 5 --score winrate --threads 2 --symmetry 1
    python benchmarks/bruteforce_mc.py bf --size 5 --moves c3      # the second move
    python benchmarks/bruteforce_mc.py bf --game connect4 --size 5x4
    python benchmarks/bruteforce_mc.py mc --size 11 --repeat 5      # 1000 playouts per move
    python benchmarks/bruteforce_mc.py match --game hex --size 7 --games 20
    python benchmarks/bruteforce_mc.py match --game connect4 --size 7x6 --games 20
    python benchmarks/bruteforce_mc.py match --game hex --size 7 --games 40 \
        --a montecarlo:sims=1000 --b montecarlo:sims=1000,cut=0

``bf``: seconds for ``bruteforce`` to score every first move of the empty board (Hex NxN, or
Connect Four WxH; or every move after --moves), for each combination of score, threads and symmetry given (all by
default), with the chosen move, its exact win ratio, the fill-ins counted and the nodes the
enumeration visited (Connect Four: positions expanded); cpu is the process's CPU time (about twice the wall time when two threads
really run side by side).  The engine is built and warmed (compiled) on a 3x3 board first.
``mc``: seconds for ``montecarlo`` (1000 playouts per candidate unless --sims) to choose a move
on the empty board, median of --repeat runs, with and without ``cut``, both scores, 1 and 2
threads.  ``match``: engine --a (montecarlo) against --b (random), colours alternating, every
game seeded by its index (both engines take a seed); the score of --a with its 95% Wilson
interval.  The load average is printed first: the machine is shared, and another busy process
slows the 2-thread rows.  ``--json``: the last line of stdout is all numbers as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time

from boardai.arena.game import play_game
from boardai.engines.registry import make_engine
from boardai.games import Color, make_board


def bf_rows(args) -> list[dict]:
    rows = []
    scores = [args.score] if args.score else ["winrate", "quality"]
    threads = [args.threads] if args.threads else [1, 2]
    symmetry = [args.symmetry] if args.symmetry is not None else [1, 0]
    for score in scores:
        for th in threads:
            for sym in symmetry:
                spec = f"bruteforce:score={score},threads={th},symmetry={sym}"
                engine = make_engine(spec)
                warm = make_board(args.game, "3" if args.game == "hex" else "4x4")
                if args.game != "hex":
                    warm.push_many([0, 1, 2, 3, 0, 1])
                engine.play(warm)                                    # compile / load the cache
                board = make_board(args.game, args.size)
                board.push_many(args.moves.split())
                start, cpu = time.perf_counter(), time.process_time()
                result = engine.play(board)
                seconds = time.perf_counter() - start
                cpu = time.process_time() - cpu
                engine.close()
                row = {"game": args.game, "size": board.size_text, "moves": args.moves,
                       "score": score,
                       "threads": th,
                       "symmetry": bool(sym), "seconds": round(seconds, 3),
                       "cpu_seconds": round(cpu, 3), "move": result.name,
                       "score_value": round((result.value + 1) / 2, 6),
                       "winrate": round(result.info["winrate"], 6),
                       "fillins_counted": result.info.get("fillins_counted"),
                       "nodes_visited": result.info.get("nodes_visited",
                                                        result.info.get("positions_expanded")),
                       "spec": spec}
                rows.append(row)
                fillins = "-" if row["fillins_counted"] is None else f"{row['fillins_counted']:,}"
                print(f"bf {row['size']} {score:8} threads={th} symmetry={sym}: {seconds:7.3f} s "
                      f"(cpu {cpu:7.3f} s)  "
                      f"move {result.name}  score {row['score_value']:.5f}  exact win ratio "
                      f"{row['winrate']:.5f}  fill-ins {fillins}  nodes "
                      f"{row['nodes_visited']:,}", flush=True)
    return rows


def mc_rows(args) -> list[dict]:
    rows = []
    for score in ("winrate", "quality"):
        for cut in (0, 1):
            for th in (1, 2):
                spec = f"montecarlo:sims={args.sims},score={score},cut={cut},threads={th},seed=1"
                engine = make_engine(spec)
                engine.play(make_board(args.game, "3" if args.game == "hex" else "4x4"))
                board = make_board(args.game, args.size)
                times, playouts = [], []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = engine.play(board)
                    times.append(time.perf_counter() - start)
                    playouts.append(result.info["playouts"])
                engine.close()
                med = statistics.median(times)
                row = {"game": args.game, "size": board.size_text, "spec": spec,
                       "seconds_median": round(med, 4), "seconds_min": round(min(times), 4),
                       "playouts": playouts[0], "playouts_per_s": round(playouts[0] / med),
                       "move": result.name, "moves_cut": result.info["moves_cut"]}
                rows.append(row)
                print(f"mc {board.size_text} {score:8} cut={cut} threads={th}: median {med:.4f} s "
                      f"(min {min(times):.4f})  playouts {playouts[0]:,}  "
                      f"{row['playouts_per_s']:,}/s  move {result.name}", flush=True)
    return rows


def match(args) -> dict:
    wins = draws = 0
    plies = []
    for i in range(args.games):
        mc = make_engine(f"{args.a},seed={i}" if ":" in args.a else f"{args.a}:seed={i}")
        rnd = make_engine(f"{args.b},seed={i + 1000}" if ":" in args.b else f"{args.b}:seed={i + 1000}")
        mc_colour = Color.BLACK if i % 2 == 0 else Color.WHITE
        black, white = (mc, rnd) if mc_colour == Color.BLACK else (rnd, mc)
        result = play_game(make_board(args.game, args.size), black, white)
        mc.close()
        rnd.close()
        plies.append(len(result.moves))
        if result.winner is None:
            draws += 1
            mark = "draw"
        elif result.winner == mc_colour:
            wins += 1
            mark = "win"
        else:
            mark = "loss"
        print(f"game {i + 1:3}: {args.a} as {mc_colour}: {mark} in {len(result.moves)} plies",
              flush=True)
    n = args.games
    p = (wins + draws / 2) / n
    lo, hi = wilson(p, n)
    print(f"{args.a} vs {args.b} on {args.game} {args.size}: {wins} wins, {draws} draws, "
          f"{n - wins - draws} losses of {n}; score {p:.3f}, 95% interval [{lo:.3f}, {hi:.3f}]",
          flush=True)
    return {"game": args.game, "size": args.size, "engine": args.a, "opponent": args.b,
            "games": n, "wins": wins,
            "draws": draws, "score": round(p, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "mean_plies": round(sum(plies) / n, 1)}


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (sensible at 0 and 1, unlike p +- z*se)."""
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bf")
    b.add_argument("--game", default="hex")
    b.add_argument("--size", default="5")
    b.add_argument("--moves", default="", help='moves played first, e.g. "c3"')
    b.add_argument("--score", choices=("winrate", "quality"))
    b.add_argument("--threads", type=int)
    b.add_argument("--symmetry", type=int, choices=(0, 1))
    m = sub.add_parser("mc")
    m.add_argument("--game", default="hex")
    m.add_argument("--size", default="11")
    m.add_argument("--sims", type=int, default=1000)
    m.add_argument("--repeat", type=int, default=5)
    g = sub.add_parser("match")
    g.add_argument("--game", default="hex")
    g.add_argument("--size", default="7")
    g.add_argument("--games", type=int, default=20)
    g.add_argument("--a", default="montecarlo:sims=1000")
    g.add_argument("--b", default="random")
    for p in (b, m, g):
        p.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores",
          flush=True)
    if args.cmd == "bf":
        out = {"bf": bf_rows(args)}
    elif args.cmd == "mc":
        out = {"mc": mc_rows(args)}
    else:
        out = {"match": match(args)}
    out["load_average"] = load[0]
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
