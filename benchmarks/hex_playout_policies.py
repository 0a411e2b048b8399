"""What each Hex playout policy costs: microseconds a playout, and the ratio to the one
``mcts`` ships (bridges and edge templates answered), measured in the same run.

Policies (``games/kernel.py``'s ``playout_policy``): uniform fill-in (0), bridges answered (1),
bridges and edge templates (3, the default), the default plus local answers to the last move
by the shipped patterns (``mcts:local=1``), and the default starting from the position's
fill-in of dead cells and captured pairs (``mcts:fill=1``).  Positions: the first plies of
the stored 9x9 and 11x11 MoHex games (``benchmarks/data/mohex``), so the boards look like
real play.  One thread; run it on an idle machine.

    python benchmarks/hex_playout_policies.py --plies 10,30 --playouts 20000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from boardai.games import get_game, make_board
from boardai.games import kernel as K
from boardai.games.layout import new_rng
from stores import connect          # benchmarks/stores.py: packed stores too
from boardai.solvers.hex.player import Player

DATA = Path(__file__).resolve().parent / "data" / "mohex"
STORES = {9: "mohex9_all.sqlite.xz", 11: "mohex11_knowledge.sqlite.xz"}


def positions(size: int, ply: int, count: int):
    """Up to ``count`` positions after ``ply`` moves of stored games of ``size``."""
    db = connect(DATA / STORES[size])
    out = []
    for (moves,) in db.execute("select moves from games order by rowid"):
        moves = json.loads(moves)
        if len(moves) <= ply + 1:
            continue
        board = make_board("hex", size=size)
        for m in moves[:ply]:
            board.push(m)
        out.append(board)
        if len(out) == count:
            break
    return out


def time_policy(boards, playouts: int, policy: int, table, local: float, fill: bool) -> float:
    """Microseconds a playout, spread evenly over ``boards``."""
    rng = new_rng(1)
    each = max(1, playouts // len(boards))
    total = 0.0
    for board in boards:
        state = board.state
        work = np.zeros(len(state) + 64, dtype=np.int64)
        owner = np.zeros(board.width * board.height, dtype=np.int64)
        cells = Player.filled(board) if fill else None
        cells = K.NO_FILL if cells is None else cells
        K.playout_policy(state, rng, work, owner, policy, table, local, cells)     # compiled
        start = time.perf_counter()
        for _ in range(each):
            K.playout_policy(state, rng, work, owner, policy, table, local, cells)
        total += time.perf_counter() - start
    return 1e6 * total / (each * len(boards))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="9,11")
    ap.add_argument("--plies", default="10,30", help="positions after this many moves")
    ap.add_argument("--boards", type=int, default=10, help="positions per size and ply")
    ap.add_argument("--playouts", type=int, default=20000, help="playouts per policy and row")
    args = ap.parse_args()
    table = get_game("hex").move_patterns.table()
    policies = [("uniform", 0, 0.0, False), ("bridges", 1, 0.0, False),
                ("bridges+edges (default)", 3, 0.0, False), ("+ local=1", 3, 1.0, False),
                ("+ fill", 3, 0.0, True)]
    print(f"{'size':>4} {'ply':>4}  {'policy':<24} {'us/playout':>10} {'vs default':>10}")
    for size in (int(s) for s in args.sizes.split(",")):
        for ply in (int(p) for p in args.plies.split(",")):
            boards = positions(size, ply, args.boards)
            times = {name: time_policy(boards, args.playouts, pol, table, local, fill)
                     for name, pol, local, fill in policies}
            base = times["bridges+edges (default)"]
            for name, us in times.items():
                print(f"{size:>4} {ply:>4}  {name:<24} {us:>10.2f} {us / base:>10.2f}")


if __name__ == "__main__":
    main()
