"""What each Connect Four playout kind knows of a late position that the exact search settles.

    python benchmarks/course_late_playouts.py                       # the course matches' store
    python benchmarks/course_late_playouts.py STORE --share 0.5 --playouts 128

From every game of a store (default ``benchmarks/data/course/stronger.sqlite.xz``: ours against
the C++ reference on the course's boards), a random ``--share`` of the positions with at most
``--max-empty`` empty cells is given to the threat-pruned exact search
(``games/connect4/threats.py: settle``) for ``--nodes`` nodes; for each position it settles as a
win, ``--playouts`` playouts of each kind (uniform, tactical, safe) give their mean result for
the exact winner (a draw counts half).  Printed by bands of ten empty cells: how far each kind's
verdict is from the truth where a short forced line decides (the positions ``settle`` proves).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from numba import njit

from boardai.games.connect4 import wide
from boardai.games.connect4.board import Connect4Board
from boardai.games.connect4.threats import new_table, settle
from boardai.games.kernel import NO_FILL, NO_TABLE, playout_policy

sys.path.insert(0, str(Path(__file__).parent))
from stores import connect  # noqa: E402

STORE = Path(__file__).parent / "data" / "course" / "stronger.sqlite.xz"
KINDS = ("uniform", "tactical", "safe")


POLICIES = (0, 1, 3)      # the kinds' policy numbers for games/kernel.py: playout_policy


@njit(cache=True)
def mean_for(state, winner, n, policy, seed):
    """The mean result for ``winner`` of ``n`` playouts of ``policy`` from ``state``."""
    rng = np.array([seed], dtype=np.uint64)
    work = np.empty(state.shape[0] + 64, dtype=np.int64)
    owner = np.empty(0, dtype=np.int64)
    total = 0.0
    for _ in range(n):
        r = playout_policy(state, rng, work, owner, policy, NO_TABLE, 0.0, NO_FILL)
        if r == winner:
            total += 1.0
        elif r != 1 - winner:
            total += 0.5
    return total / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", nargs="?", default=str(STORE), help="a match store (.sqlite[.xz])")
    ap.add_argument("--share", type=float, default=0.25, help="share of the late positions tried")
    ap.add_argument("--max-empty", type=int, default=49)
    ap.add_argument("--nodes", type=int, default=200_000, help="settle's budget a position")
    ap.add_argument("--playouts", type=int, default=64, help="playouts of each kind a position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    db = connect(Path(args.store))
    rows = db.execute("select moves, width, height, blocked from games "
                      "where game = 'connect4'").fetchall()
    rng = np.random.default_rng(args.seed)
    bands: dict[int, list[float]] = {}
    for moves, w, h, blocked in rows:
        board = Connect4Board(w, h, blocked=[tuple(c) for c in json.loads(blocked or "[]")])
        keys, vals = new_table(20)
        for i, move in enumerate(json.loads(moves)):
            empty = int(wide.wide_free_cells(board.state))
            if empty <= args.max_empty and rng.random() < args.share:
                winner = settle(board.state.copy(), args.nodes, keys, vals)
                if winner in (0, 1):
                    acc = bands.setdefault(empty // 10 * 10, [0, 0.0, 0.0, 0.0])
                    acc[0] += 1
                    for kind, policy in enumerate(POLICIES):
                        acc[1 + kind] += mean_for(board.state, winner, args.playouts, policy,
                                                  args.seed * 1_000_003 + i)
            board.push(move)
            if board.is_game_over():
                break
    print(f"{len(rows)} games of {args.store}; positions settled within {args.nodes:,} nodes")
    print(f"{'empty cells':>11} {'settled':>8} " + " ".join(f"{k:>9}" for k in KINDS))
    for band in sorted(bands):
        n, *sums = bands[band]
        print(f"{band:>5}-{band + 9:<5} {n:8d} " + " ".join(f"{s / n:9.3f}" for s in sums))


if __name__ == "__main__":
    main()
