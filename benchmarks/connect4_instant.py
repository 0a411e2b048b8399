"""Exact Connect Four 7x6 analysis: how long `solve connect4 --analyze` takes a position.

    python benchmarks/connect4_instant.py                          # every set, in one process
    python benchmarks/connect4_instant.py --sets small --max-stones 3
    python benchmarks/connect4_instant.py --random 100 --deep 50 --pons /path/to/c4bench
    python benchmarks/connect4_instant.py --book build/c4book/book5.npz

Every column's exact score (``LineSolver(analyze=True).analyze_board``, what ``boardai solve
connect4 --analyze`` does for a line), one process, the table kept from position to position,
on three sets: ``small``: every position of up to --max-stones stones (mirror images once),
``random``: --random positions of 5-12 stones, ``deep``: --deep positions of 13-30 stones (both
from uniformly random games stopped at a uniformly drawn number of stones, --seed).  Each
position's wall and CPU time, nodes and Pons' class (from the moves left) are kept; per set the
median, 99th percentile and maximum, and the positions over 1 s.  With ``--pons`` (a build
of Pascal Pons' solver that reads positions on stdin and prints ``moves s1..s7 nodes
microseconds``, its table reset before each position: benchmarks/connect4_pons_main.cpp says how
to build it) every score is checked against his and his nodes are kept beside ours (ours
counted cold too with ``--cold``).  The last line of stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

import numpy as np

from boardai.games.connect4.board import Connect4Board
from boardai.solvers.connect4.book import Book, positions_at
from boardai.solvers.connect4.lines import LineSolver

W, H = 7, 6


def moves_left(score: int, played: int) -> int:
    """Moves until the game ends with perfect play, from the side to move's exact score."""
    if score == 0:
        return W * H - played
    stones = (W * H + 1) // 2 + 1 - abs(score)
    winner_first = (played % 2 == 0) == (score > 0)
    return (2 * stones - 1 if winner_first else 2 * stones) - played


def pons_class(played: int, left: int) -> str:
    """Pons' test classes: begin/middle/end by stones played, easy/medium/hard by moves left."""
    stage = "end" if played > 28 else ("middle" if played >= 15 else "begin")
    level = "easy" if left <= 14 else ("medium" if left <= 28 else "hard")
    return f"{stage}-{level}"


def random_positions(rng: random.Random, count: int, lo: int, hi: int) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        target = rng.randint(lo, hi)
        board = Connect4Board(W, H)
        while board.ply < target and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if board.ply == target and not board.is_game_over():
            out.append(board.position)
    return out


def pons_scores(binary: str, positions: list[str]) -> dict[str, tuple[list[int], int, float]]:
    """Pons' analysis of each position: (scores, nodes, seconds)."""
    run = subprocess.run([binary, "-a"], input="\n".join(positions) + "\n", capture_output=True,
                         text=True, check=True)
    out = {}
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) == W + 2:            # the empty board: its moves are the empty string
            parts = [""] + parts
        if len(parts) == W + 3:
            out[parts[0]] = ([int(x) for x in parts[1:W + 1]], int(parts[W + 1]),
                             int(parts[W + 2]) / 1e6)
    return out


def stats(times: list[float]) -> dict:
    if not times:
        return {"n": 0}
    a = np.array(times)
    return {"n": len(a), "median": float(np.median(a)), "p99": float(np.percentile(a, 99)),
            "max": float(a.max()), "over_1s": int((a > 1.0).sum())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="small,random,deep")
    ap.add_argument("--max-stones", type=int, default=4, help="the small set: up to this many")
    ap.add_argument("--small-sample", type=int, default=0,
                    help="only this many of the small set's deepest layer (0: all)")
    ap.add_argument("--random", type=int, default=1000)
    ap.add_argument("--deep", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--book", default=None, help="a book file instead of the package's")
    ap.add_argument("--no-book", action="store_true")
    ap.add_argument("--pons", default=None, help="Pons' solver (see the docstring)")
    ap.add_argument("--cold", action="store_true", help="reset our table before each position")
    ap.add_argument("--verbose", "-v", action="store_true", help="a line per position")
    ap.add_argument("--out", default=None, help="write every position's figures here (JSON)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    sets: dict[str, list[str]] = {}
    wanted = args.sets.split(",")
    if "small" in wanted:
        small = []
        for d in range(args.max_stones + 1):
            layer = [b.position for b in positions_at(d, W, H)]
            if d == args.max_stones and args.small_sample:
                layer = rng.sample(layer, min(args.small_sample, len(layer)))
            small += layer
        sets["small"] = small
    if "random" in wanted:
        sets["random"] = random_positions(rng, args.random, 5, 12)
    if "deep" in wanted:
        sets["deep"] = random_positions(rng, args.deep, 13, 30)

    lines = LineSolver(W, H, analyze=True, use_book=not args.no_book)
    if args.book:
        lines.book = Book.load(args.book)
    book = lines.book
    print(f"book: {'none' if book is None else f'depth {book.depth}, {len(book)} positions'}",
          file=sys.stderr)
    start = Connect4Board.from_position("4444", W, H)          # load the compiled code
    lines.solver_for(start).analyze(start, seconds=0.01)
    lines.solver_for(start).reset()

    rows = []
    for name, positions in sets.items():
        t_set = time.perf_counter()
        for i, text in enumerate(positions):
            board = Connect4Board.from_position(text, W, H)
            solver = lines.solver_for(board)
            if args.cold:
                solver.reset()
            n0 = solver.nodes
            t0, c0 = time.perf_counter(), time.process_time()
            scores = lines.analyze_board(board)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            best = max(s for s in scores if s != -1000)
            rows.append({"set": name, "moves": text, "stones": board.ply, "scores": scores,
                         "wall": wall, "cpu": cpu, "nodes": solver.nodes - n0,
                         "class": pons_class(board.ply, moves_left(best, board.ply))})
            if args.verbose or wall > 1.0 or (i + 1) % 100 == 0:
                print(f"{name} {i + 1}/{len(positions)} {text or '(empty)'} {wall:.2f} s "
                      f"(CPU {cpu:.2f} s, {rows[-1]['nodes']} nodes, {rows[-1]['class']}; "
                      f"{time.perf_counter() - t_set:.0f} s in the set)", file=sys.stderr,
                      flush=True)

    wrong = None
    if args.pons:
        theirs = pons_scores(args.pons, [r["moves"] for r in rows])
        wrong = []
        for r in rows:
            p = theirs.get(r["moves"])
            if p is None:
                wrong.append(r["moves"])
                continue
            r["pons_nodes"], r["pons_s"] = p[1], p[2]
            if p[0] != r["scores"]:
                wrong.append(r["moves"])
    summary: dict = {"book_depth": None if book is None else book.depth,
                     "book_positions": None if book is None else len(book), "sets": {}}
    for name in sets:
        mine = [r for r in rows if r["set"] == name]
        entry = {"wall": stats([r["wall"] for r in mine]), "cpu": stats([r["cpu"] for r in mine]),
                 "by_class": {}}
        for cls in sorted({r["class"] for r in mine}):
            entry["by_class"][cls] = {
                "wall": stats([r["wall"] for r in mine if r["class"] == cls]),
                "cpu": stats([r["cpu"] for r in mine if r["class"] == cls])}
        if args.pons:
            entry["nodes"] = int(sum(r["nodes"] for r in mine))
            entry["pons_nodes"] = int(sum(r.get("pons_nodes", 0) for r in mine))
            entry["pons_cpu"] = stats([r["pons_s"] for r in mine if "pons_s" in r])
        slowest = max(mine, key=lambda r: r["wall"], default=None)
        entry["slowest"] = None if slowest is None else slowest["moves"]
        summary["sets"][name] = entry
        for clock in ("wall", "cpu"):
            w = entry[clock]
            if w["n"]:
                print(f"{name:7s} {clock:4s} {w['n']:5d} positions  median {w['median']:.4f} s  "
                      f"p99 {w['p99']:.3f} s  max {w['max']:.3f} s  over 1 s: {w['over_1s']}",
                      file=sys.stderr)
    if wrong is not None:
        summary["checked_against_pons"] = len(rows)
        summary["wrong"] = wrong
        print(f"checked against Pons' solver: {len(rows)} positions, {len(wrong)} differ",
              file=sys.stderr)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "positions": rows}, f)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
