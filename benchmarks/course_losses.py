"""Where an engine's lost games turned: each loss of a match store replayed with a longer search.

    python benchmarks/course_losses.py STORE --ours mcts                      # every match
    python benchmarks/course_losses.py STORE --ours mcts:time=0.1 --judge "mcts:seed=3" --seconds 3

For every game of the store that ``--ours`` (an engine spec as the store names it) lost, the
position after each of its moves is searched by ``--judge`` for ``--seconds``; printed per game,
one entry per move of ours: ``ply:column:win rate for ours`` with ``*`` where the judge proved the
result.  A long run of high win rates ending in a proved loss within a few plies is a late-game
misjudgement (docs/experiments.md, "The safe playouts in the late game").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games.connect4.board import Connect4Board

sys.path.insert(0, str(Path(__file__).parent))
from stores import connect  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", help="a match store (.sqlite or .sqlite.xz)")
    ap.add_argument("--ours", required=True, help="the engine spec whose losses are replayed")
    ap.add_argument("--judge", default="mcts:seed=3", help="the longer search (default mcts)")
    ap.add_argument("--seconds", type=float, default=1.0, help="the judge's time a position")
    ap.add_argument("--games", type=int, default=0, help="at most this many losses (0: all)")
    args = ap.parse_args()
    db = connect(Path(args.store))
    rows = db.execute("select match_key, idx, black, white, moves, width, height, blocked, "
                      "winner from games where game = 'connect4' and (black = ? or white = ?) "
                      "order by match_key, idx", (args.ours, args.ours)).fetchall()
    judge = make_engine(args.judge)
    shown = 0
    for key, idx, black, white, moves, w, h, blocked, winner in rows:
        me = 0 if black == args.ours else 1
        if winner is None or winner == me:
            continue
        moves = json.loads(moves)
        cells = [tuple(c) for c in json.loads(blocked or "[]")]
        board = Connect4Board(w, h, blocked=cells)
        print(f"{key} game {idx}: {w}x{h}, no-go {cells}, ours "
              f"{'first' if me == 0 else 'second'}, {len(moves)} plies", flush=True)
        line = []
        for ply, move in enumerate(moves):
            board.push(move)
            if board.is_game_over():
                break
            if ply % 2 == me:
                judge.new_game(board)
                result = judge.play(board, Limit(time=args.seconds))
                proven = "*" if result.info.get("proven") else ""
                line.append(f"{ply + 1}:{move + 1}:{1 - result.info['winrate']:.2f}{proven}")
        print("  " + " ".join(line), flush=True)
        shown += 1
        if args.games and shown >= args.games:
            break
    judge.close()


if __name__ == "__main__":
    main()
