"""The Connect Four ``solver`` engine move by move: time per move and whether it was exact.

    python benchmarks/connect4_engine.py                   # perfect play against itself
    python benchmarks/connect4_engine.py --opponent random --games 3 --seed 1
    python benchmarks/connect4_engine.py --time 1          # the engine's budget per move

Issue 7 asks for at most 1 s per move from the empty board, using the opening book.  Each line is
one move of the engine: the ply, the time, the exact score (or ``fallback`` when the search did
not finish within 70% of the budget and mcts played), from the book or the search.  The last
line (JSON) counts the moves answered exactly within 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games.connect4.board import Connect4Board
from boardai.solvers.connect4.book import shipped_book


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", choices=("self", "random"), default="self",
                    help="self: the engine plays both sides (the main line of perfect play)")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--time", type=float, default=10.0, help="the engine's seconds per move")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tt-bits", type=int, default=None,
                    help="the engine's table size (default: the engine's own)")
    args = ap.parse_args()
    book = shipped_book()
    print(f"book: {'none' if book is None else f'{len(book)} positions, depth {book.depth}'}")
    spec = "solver:seed=1" + (f",tt_bits={args.tt_bits}" if args.tt_bits else "")
    warm = make_engine(spec)                  # load the compiled code, then start afresh: the
    warm.play(Connect4Board.from_position("4444"), Limit(time=1))   # timed engine's table is cold
    warm.close()
    engine = make_engine(spec)
    rng = random.Random(args.seed)
    rows = []
    for game in range(args.games):
        board = Connect4Board()
        engine_side = game % 2
        while not board.is_game_over():
            if args.opponent == "random" and board.ply % 2 != engine_side:
                board.push(rng.choice(list(board.legal_moves)))
                continue
            t = time.perf_counter()
            result = engine.play(board, Limit(time=args.time))
            seconds = time.perf_counter() - t
            exact = result.info.get("exact", False)
            in_book = book is not None and (book.best_move(board) is not None
                                            or board.ply + 1 <= book.depth)
            rows.append({"game": game, "ply": board.ply, "seconds": round(seconds, 3),
                         "exact": exact, "score": result.info.get("score"), "book": in_book})
            print(f"game {game} ply {board.ply:2} {board.move_name(result.move)}  {seconds:7.3f} s  "
                  f"{'score ' + str(result.info['score']) if exact else 'fallback'}"
                  f"{'  (book)' if in_book else ''}", flush=True)
            board.push(result.move)
        print(f"game {game}: {board.outcome()}  moves {board.moves_text()}")
    fast = sum(r["exact"] and r["seconds"] <= 1.0 for r in rows)
    print(json.dumps({"moves": len(rows), "exact_within_1s": fast,
                      "exact": sum(r["exact"] for r in rows),
                      "max_exact_seconds": max((r["seconds"] for r in rows if r["exact"]), default=0),
                      "first_ply_over_1s": min((r["ply"] for r in rows
                                                if not (r["exact"] and r["seconds"] <= 1.0)),
                                               default=None),
                      "time_per_move": args.time, "load": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
