"""What the network's priors cost ``mcts`` (``net=``, issue 36): simulations a second with and
without them on the same positions, the positions evaluated a move and their seconds, the
network's cost a position by batch size, and the move's time against its budget.

    python benchmarks/mcts_net.py --net boardai/data/networks/hex-9x9.npz --size 9 --time 1 \
        --positions 6 [--spec "mcts:net_visits=40"]

Positions: the empty board's opening stone at a few cells, then random moves (seeded).  Each
position is searched by both engines in turn (plain first, then with the network), so a busy
machine slows both alike; say the machine's load when quoting a figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from boardai.engines.base import Limit
from boardai.engines.mcts.network import load_file
from boardai.engines.registry import make_engine
from boardai.games import get_game


def positions(size: int, count: int, seed: int):
    rng = np.random.default_rng(seed)
    game = get_game("hex")
    out = []
    for i in range(count):
        board = game.new_board(size)
        for _ in range(int(rng.integers(1, 12))):
            board.push(int(rng.choice(list(board.legal_moves))))
        out.append(board)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--net", required=True)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", default="mcts", help="the engine both runs use (net= is added)")
    args = ap.parse_args()
    boards = positions(args.size, args.positions, args.seed)
    net = load_file(args.net)
    print(f"network {args.net}: {net}")
    stack = np.stack([b.state for b in boards] * 22)
    for batch in (1, 8, 32, 128):
        net.policy_value(stack[:batch])
        clock, done = time.perf_counter(), 0
        while time.perf_counter() - clock < 0.5:
            net.policy_value(stack[:batch])
            done += batch
        print(f"  batch {batch:4d}: {(time.perf_counter() - clock) / done * 1e3:.3f} ms a position")
    sep = "," if ":" in args.spec else ":"
    plain = make_engine(args.spec)
    guided = make_engine(f"{args.spec}{sep}net={args.net}")
    rows = {"plain": [], "net": []}
    over = {"plain": [], "net": []}
    evals, net_s = [], []
    for board in boards:
        for name, engine in (("plain", plain), ("net", guided)):
            engine.new_game(board)
            engine.play(board, Limit(sims=64))          # loads and warms off the clock
            engine.new_game(board)
            r = engine.play(board, Limit(time=args.time))
            rows[name].append(r.info.get("sims_per_s", 0.0))
            over[name].append(r.time_s - args.time)
            if name == "net":
                evals.append(r.info.get("net_evals", 0))
                net_s.append(r.info.get("net_s", 0.0))
    for name in rows:
        print(f"{name}: simulations a second median {statistics.median(rows[name]):,.0f} "
              f"(each position: {', '.join(f'{v:,.0f}' for v in rows[name])}); "
              f"worst overshoot {max(over[name]) * 1e3:.1f} ms")
    print(f"net: positions evaluated a move median {statistics.median(evals)}, seconds a move "
          f"median {statistics.median(net_s):.3f} (of {args.time} s), "
          f"{sum(net_s) / max(sum(evals), 1) * 1e3:.2f} ms a position")


if __name__ == "__main__":
    main()
