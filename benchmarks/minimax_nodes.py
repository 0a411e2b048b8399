"""Nodes searched by minimax and alpha-beta at equal depth (the claim to check: the same value
from far fewer nodes), on fixed random positions; plus nodes per second.

    python benchmarks/minimax_nodes.py [--positions 5] [--json]

For each game and depth: total nodes of ``minimax`` (every node), ``alphabeta`` with plain
cut-offs (``tt=0,id=0``: only the move ordering helps) and the full ``alphabeta`` (table and
iterative deepening; its count includes the shallower iterations), the ratios, and a check that
the three values agree.
"""

from __future__ import annotations

import argparse
import json
import random

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import make_board

CASES = [("hex", "5", "connected", 4, 6), ("hex", "7", "resistance", 3, 8),
         ("connect4", "7x6", "lines", 7, 8)]


def positions(game: str, size: str, count: int, plies: int, seed: int = 1):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = make_board(game, size)
        for _ in range(rng.randint(plies // 2, plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            out.append(board)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for game, size, ev, max_depth, plies in CASES:
        boards = positions(game, size, args.positions, plies)
        for depth in range(1, max_depth + 1):
            row = {"game": game, "size": size, "eval": ev, "depth": depth}
            values = {}
            for label, spec in (("minimax", f"minimax:eval={ev}"),
                                ("alphabeta_plain", f"alphabeta:eval={ev},tt=0,id=0"),
                                ("alphabeta", f"alphabeta:eval={ev}")):
                nodes, secs, vals = 0, 0.0, []
                for b in boards:
                    r = make_engine(spec).analyse(b, Limit(depth=depth))
                    nodes += r.nodes
                    secs += r.time_s
                    vals.append(round(r.info["score"], 6))
                row[label] = nodes
                row[label + "_nps"] = round(nodes / max(secs, 1e-9))
                values[label] = vals
            row["same_values"] = values["minimax"] == values["alphabeta_plain"] == values["alphabeta"]
            row["ratio_plain"] = round(row["minimax"] / row["alphabeta_plain"], 1)
            row["ratio_full"] = round(row["minimax"] / row["alphabeta"], 1)
            rows.append(row)
            print(f"{game:8} {size:4} {ev:10} depth {depth}: minimax {row['minimax']:>10,}  "
                  f"alphabeta(plain) {row['alphabeta_plain']:>9,} ({row['ratio_plain']:>6}x)  "
                  f"alphabeta(tt+id) {row['alphabeta']:>9,} ({row['ratio_full']:>6}x)  "
                  f"same values: {row['same_values']}", flush=True)
    if args.json:
        print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
