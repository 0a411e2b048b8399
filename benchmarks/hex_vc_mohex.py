"""What our Hex knowledge sees of a position against what MoHex 2.0's (Benzene's) sees.

    python benchmarks/hex_vc_mohex.py --mohex /path/to/mohex \
        --store benchmarks/data/mohex/mohex9_all.sqlite.xz --games 60 --step 4
    python benchmarks/hex_vc_mohex.py --mohex /path/to/mohex --store ... --mohex-setting \
        "param_player_vc use_patterns 0"                  # MoHex without its pattern VCs

Positions are taken from stored games (an arena store, e.g. a ``mohex_match.py`` one): every
``--step``-th ply from the fourth of the first ``--games`` games.  For each, both programs build
their virtual connections from scratch with the dead and captured cells filled in (ours:
``inferior.fill`` and ``vc.hsearch`` for each colour, as the MCTS knowledge and the solver do;
MoHex: ``vc-build``, which runs its inferior-cell engine first) and answer, for each colour,
whether it has a full (F) or only a semi (S) edge-to-edge connection, or none (-).  Printed: the
table of (MoHex, ours) answers, how often the position is *decided* (the side to move has a
semi or full connection, or its opponent a full one) by ply, the cells each fills in, and our
time per position.  MoHex answers "none" for a colour whose chain the fill-in already
completed; where ours then says F, the position counts as decided for both.  MoHex is not
built or shipped by this project (see ``mohex_match.py``).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

from boardai.engines.gtp_client import GtpEngine
from boardai.games.hex.board import HexBoard
from boardai.solvers.hex import vc
from stores import connect          # benchmarks/stores.py: packed stores too
from boardai.solvers.hex.bits import from_words, to_words
from boardai.solvers.hex.inferior import fill
from boardai.solvers.hex.player import _position

EDGES = {"b": "north south", "w": "east west"}


def positions(store: str, games: int, step: int):
    """(game index, ply, board) of the sampled positions."""
    with connect(store) as db:
        rows = db.execute("select idx, width, moves from games order by idx").fetchall()
    for idx, width, moves in rows[:games]:
        moves = json.loads(moves)
        board = HexBoard(width)
        for ply, move in enumerate(moves):
            if ply >= 4 and (ply - 4) % step == 0:
                yield idx, ply, board.copy()
            board.push(move)


def ours(board: HexBoard) -> tuple[dict[str, str], int]:
    """Our edge-to-edge answer per colour on the filled position (the tables and stones of the
    tree knowledge, ``player._position``), and the cells filled in."""
    (words, nbr, edges, ring, _, scratch), n, black, white = _position(board)
    filled = [to_words(from_words(s), words) for s in fill(black, white, ring, n)]
    answer = {}
    for colour, name in enumerate("bw"):
        own, opp = (filled[0], filled[1]) if colour == 0 else (filled[1], filled[0])
        full, semi, _ = vc.hsearch(own, opp, colour, nbr, edges, n, *scratch)
        answer[name] = "F" if full else "S" if semi else "-"
    stones = bin(from_words(filled[0]) | from_words(filled[1])).count("1")
    return answer, stones - board.ply


def mohex(engine: GtpEngine, board: HexBoard) -> tuple[dict[str, str], int]:
    """MoHex's edge-to-edge answer per colour after ``vc-build``, and the cells it fills in."""
    engine.sync(board)
    labels = engine.send(f"vc-build {'bw'[board.turn]}").split()
    filled = sum(1 for tag in labels[1::2] if tag in ("fb", "fw"))
    answer = {}
    for name in "bw":
        if "full" in engine.send(f"vc-between-cells-full {name} {EDGES[name]}"):
            answer[name] = "F"
        elif "semi" in engine.send(f"vc-between-cells-semi {name} {EDGES[name]}"):
            answer[name] = "S"
        else:
            answer[name] = "-"
    return answer, filled


def decided(answer: dict[str, str], mover: str) -> bool:
    other = "w" if mover == "b" else "b"
    return answer[mover] in "FS" or answer[other] == "F"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mohex", required=True, help="path of MoHex's binary")
    ap.add_argument("--store", required=True, help="arena store whose games give the positions")
    ap.add_argument("--games", type=int, default=60, help="first games of the store (60)")
    ap.add_argument("--step", type=int, default=4, help="every STEP-th ply (4)")
    ap.add_argument("--mohex-setting", action="append", default=[],
                    help="a GTP command sent to MoHex first, e.g. 'param_player_vc use_patterns 0'")
    args = ap.parse_args(argv)

    engine = GtpEngine(command=args.mohex)
    started = False
    pairs = collections.Counter()
    by_ply = collections.defaultdict(lambda: [0, 0, 0])
    fills = [0, 0]
    count = 0
    ours_s = 0.0
    try:
        for _, ply, board in positions(args.store, args.games, args.step):
            if not started:
                engine.sync(board)
                for setting in args.mohex_setting:
                    engine.send(setting)
                ours(board)                              # compiled before the clock runs
                started = True
            t0 = time.perf_counter()
            mine, mine_filled = ours(board)
            ours_s += time.perf_counter() - t0
            theirs, theirs_filled = mohex(engine, board)
            mover = "bw"[board.turn]
            for name in "bw":
                pairs[theirs[name], mine[name]] += 1
            joined = theirs["b"] == theirs["w"] == "-" and "F" in mine.values()
            row = by_ply[min(ply // 4 * 4, 40)]
            row[0] += 1
            row[1] += decided(theirs, mover) or joined
            row[2] += decided(mine, mover)
            fills[0] += theirs_filled
            fills[1] += mine_filled
            count += 1
    finally:
        engine.close()
    if not count:
        print("no positions in the store", file=sys.stderr)
        return 1
    print(f"{count} positions of {args.store}, each colour's edge-to-edge connection "
          f"(MoHex rows, ours columns; F full, S semi, - none)")
    print("         ours F  ours S  ours -")
    for m in "FS-":
        print(f"MoHex {m}" + "".join(f"{pairs[m, o]:8d}" for o in "FS-"))
    found_mohex = sum(v for (m, _), v in pairs.items() if m != "-")
    found_ours = sum(v for (_, o), v in pairs.items() if o != "-")
    print(f"connections found: MoHex {found_mohex}, ours {found_ours} "
          f"({found_ours / max(1, found_mohex):.2f} of MoHex's)")
    print("decided positions by ply (the side to move has a semi or full connection, or its "
          "opponent a full one):")
    print("  ply     n   MoHex   ours")
    for ply in sorted(by_ply):
        n_, m_, o_ = by_ply[ply]
        label = f"{ply}+" if ply == 40 else f"{ply}-{ply + 3}"
        print(f"  {label:6}{n_:4d}{m_ / n_:8.2f}{o_ / n_:7.2f}")
    print(f"cells filled in per position: MoHex {fills[0] / count:.1f}, ours {fills[1] / count:.1f}")
    print(f"ours: {1000 * ours_s / count:.2f} ms a position (fill-in and two H-searches)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
