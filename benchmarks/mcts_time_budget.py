"""How closely `mcts:time=T` keeps its budget: wall time of play() over many positions.

    python benchmarks/mcts_time_budget.py [--moves 30]
    python benchmarks/mcts_time_budget.py --spec mcts:solver=0.5 --boards hex:7,connect4:7x6

Plays random positions of 11x11 Hex and Connect Four (or ``--boards``) and reports, per budget,
the median and the worst overshoot (wall time of the whole play() call minus T), with 1 and 2
threads.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import make_board


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--spec", default="mcts", help="engine spec (seed and threads are added)")
    ap.add_argument("--boards", default="hex:11,connect4:7x6", help="GAME:SIZE, comma-separated")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    boards = [tuple(b.split(":")) for b in args.boards.split(",")]
    for game, size in boards:
        for threads in (1, 2):
            engine = make_engine(args.spec + ("," if ":" in args.spec else ":")
                                 + f"seed=1,threads={threads}")
            engine.play(make_board(game, size), Limit(sims=100))     # compiled code loaded
            for budget in (0.05, 0.2, 1.0):
                rng = random.Random(1)
                over = []
                for _ in range(args.moves if budget < 1 else max(5, args.moves // 4)):
                    board = make_board(game, size)
                    for _ in range(rng.randrange(0, 12)):
                        board.push(rng.choice(list(board.legal_moves)))
                    start = time.perf_counter()
                    engine.play(board, Limit(time=budget))
                    over.append(time.perf_counter() - start - budget)
                row = {"game": game, "size": size, "threads": threads, "budget_s": budget,
                       "median_over_ms": round(1000 * statistics.median(over), 2),
                       "max_over_ms": round(1000 * max(over), 2), "moves": len(over)}
                rows.append(row)
                print(f"{args.spec} {game:8} {size:4} threads={threads} time={budget:<5} overshoot median "
                      f"{row['median_over_ms']:6.2f} ms, worst {row['max_over_ms']:6.2f} ms "
                      f"({row['moves']} moves)", flush=True)
            engine.close()
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
