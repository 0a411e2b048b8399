"""MCTS speed and strength against OpenSpiel's C++ MCTSBot, measured in the same run.

    python benchmarks/mcts_vs_openspiel.py speed --seconds 3
    python benchmarks/mcts_vs_openspiel.py match --game hex --size 9 --time 0.25 --games 20
    python benchmarks/mcts_vs_openspiel.py match --game connect4 --time 1 --games 20 \
        --a mcts --b openspiel-mcts

Speed: simulations per second from the empty board (ours with 1 and 2 threads, OpenSpiel's
single-threaded bot) and the ratios.  Match: colours alternate, every game seeded by its index;
prints each game and the score with a 95% interval.  Needs the peers extra (open_spiel).
"""

from __future__ import annotations

import argparse
import json
import math

from boardai.arena.game import play_game
from boardai.bench.speed import mcts_sims_per_second
from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import Color, make_board, parse_size


def sims_per_second(spec: str, game: str, size: str, seconds: float) -> float:
    w, h = parse_size(game, size)
    return mcts_sims_per_second(spec, game, w, h, seconds)


def speed(args) -> dict:
    rows = []
    for game, size in (("hex", "11"), ("hex", "9"), ("connect4", "7x6")):
        ref = sims_per_second("openspiel-mcts", game, size, args.seconds)
        one = sims_per_second("mcts", game, size, args.seconds)
        two = sims_per_second("mcts:threads=2", game, size, args.seconds)
        rows.append({"game": game, "size": size, "openspiel_sims_per_s": round(ref),
                     "mcts_sims_per_s": round(one), "mcts_2threads_sims_per_s": round(two),
                     "ratio_vs_openspiel": round(one / ref, 2), "thread_scaling": round(two / one, 2)})
        print(f"{game:8} {size:5} openspiel {ref:>10,.0f}/s  mcts {one:>10,.0f}/s "
              f"({one / ref:4.1f}x)  mcts 2 threads {two:>10,.0f}/s ({two / one:4.2f}x)", flush=True)
    return {"speed": rows}


def match(args) -> dict:
    score = 0.0
    games = []
    for i in range(args.games):
        a = make_engine(args.a + (f",seed={i}" if ":" in args.a else f":seed={i}"))
        b = make_engine(args.b + (f",seed={1000 + i}" if ":" in args.b else f":seed={1000 + i}"))
        board = make_board(args.game, args.size)
        a_colour = Color.BLACK if i % 2 == 0 else Color.WHITE
        black, white = (a, b) if a_colour == Color.BLACK else (b, a)
        result = play_game(board, black, white, Limit(time=args.time))
        s = 0.5 if result.winner is None else float(result.winner == a_colour)
        score += s
        games.append({"index": i, "a_colour": str(a_colour), "score_a": s, "plies": len(result.moves)})
        print(f"game {i + 1:3}: A={args.a} as {a_colour}: {s}  ({len(result.moves)} plies)  "
              f"running {score}/{i + 1}", flush=True)
        for e in (a, b):
            e.close()
    n = args.games
    p = score / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n)
    print(f"A={args.a} vs B={args.b}, {args.game} {args.size}, {args.time} s/move: "
          f"score {score}/{n} = {100 * p:.1f}% +- {100 * half:.1f}%")
    return {"a": args.a, "b": args.b, "game": args.game, "size": args.size, "time": args.time,
            "games": n, "score_a": score, "pct": round(100 * p, 1), "ci95_pct": round(100 * half, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--seconds", type=float, default=3.0)
    mp = sub.add_parser("match")
    mp.add_argument("--game", default="hex")
    mp.add_argument("--size", default=None)
    mp.add_argument("--time", type=float, default=0.25)
    mp.add_argument("--games", type=int, default=20)
    mp.add_argument("--a", default="mcts")
    mp.add_argument("--b", default="openspiel-mcts")
    for p in (sp, mp):
        p.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = speed(args) if args.cmd == "speed" else match(args)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
