"""MoHex 2.0 as the judge of stored Hex games: its win chance before and after each move.

    python benchmarks/mohex_judge.py --mohex /path/to/mohex \
        --store benchmarks/data/mohex/mohex9_all.sqlite.xz --games 60,78,100 --time 2

For every position of the chosen games (arena store indexes), MoHex searches ``--time`` seconds
(``genmove``, then ``undo``; no subtree kept from one position to the next) and its log gives
``Score``, the win chance of the side to move.  Printed per game, for each move of the side
``--side`` names (default: ours, the non-``gtp:`` engine): the move played, MoHex's choice in
brackets, and the mover's chance before and after the move (one minus the opponent's chance
in the next position).  A position MoHex plays without searching (its virtual connections or
solver already decide it) has no score; the first such ply is printed as the ply from which
MoHex's knowledge decides the game.  MoHex is not built or shipped by this project (see
``mohex_match.py``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from boardai.engines.gtp_client import GtpEngine
from boardai.games.hex.board import HexBoard
from stores import connect          # benchmarks/stores.py: packed stores too

SCORE = re.compile(r"^Score\s+([-\d.]+)", re.MULTILINE)


def judge_game(engine: GtpEngine, log: Path, moves: list[int], width: int):
    """[(move name, MoHex's choice, MoHex's chance for the side to move or None)] per ply."""
    board = HexBoard(width)
    out = []
    for move in moves:
        engine.sync(board)
        start = log.stat().st_size
        choice = engine.send(f"genmove {'bw'[board.turn]}", timeout=600)
        engine.send("undo")
        with log.open(encoding="utf-8", errors="replace") as fh:
            fh.seek(start)
            found = SCORE.findall(fh.read())
        out.append((board.move_name(move), choice.strip().lower(),
                    float(found[-1]) if found else None))
        board.push(move)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mohex", required=True, help="path of MoHex's binary")
    ap.add_argument("--store", required=True, help="arena store holding the games")
    ap.add_argument("--games", required=True, help="game indexes, e.g. 60,78,100")
    ap.add_argument("--time", type=float, default=2.0, help="MoHex's seconds a position (2)")
    ap.add_argument("--side", choices=("ours", "black", "white"), default="ours",
                    help="whose moves are shown (default: the engine that is not gtp:)")
    ap.add_argument("--json", dest="json_out", help="also write every score to this file")
    args = ap.parse_args(argv)

    wanted = [int(x) for x in args.games.split(",") if x.strip()]
    with connect(args.store) as db:
        rows = {idx: (black, width, json.loads(moves)) for idx, black, width, moves in db.execute(
            "select idx, black, width, moves from games")}
    missing = [i for i in wanted if i not in rows]
    if missing:
        print(f"no game {missing} in {args.store} (it has {len(rows)})", file=sys.stderr)
        return 2
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "mohex.log"
        with log.open("w") as err:
            engine = GtpEngine(command=args.mohex, stderr=err)
            try:
                engine.sync(HexBoard(rows[wanted[0]][1]))
                engine.send(f"param_mohex max_time {args.time:g}")
                engine.send("param_mohex reuse_subtree 0")
                for idx in wanted:
                    black, width, moves = rows[idx]
                    results[idx] = judge_game(engine, log, moves, width)
                    report(idx, black, results[idx], args.side)
            finally:
                engine.close()
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def report(idx: int, black: str, scores, side: str) -> None:
    ours_black = not black.startswith("gtp:")
    colour = {"black": 0, "white": 1, "ours": 0 if ours_black else 1}[side]
    decided = next((ply for ply, (_, _, s) in enumerate(scores) if s is None), None)
    parts = []
    for ply in range(colour, len(scores) - 1, 2):
        if ply == 0:
            continue                     # the opening stone is not the engine's move
        name, choice, before = scores[ply]
        after = scores[ply + 1][2]
        if before is None or after is None:
            break
        parts.append(f"{name} ({choice}) {before:.2f}->{1 - after:.2f}")
    print(f"game {idx} ({'Black' if colour == 0 else 'White'}'s moves; opening "
          f"{scores[0][0]}): " + "; ".join(parts))
    print(f"  MoHex plays without searching from ply "
          f"{decided if decided is not None else '(never)'}")


if __name__ == "__main__":
    sys.exit(main())
