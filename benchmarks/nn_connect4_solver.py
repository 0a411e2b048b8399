"""How often a Connect Four network plays a move the exact solver rates best (issue 17's target:
the ``nn`` engine at 800 simulations in >= 90 % of the positions of the six solver test classes;
the raw policy's rate reported beside it).

    python benchmarks/nn_connect4_solver.py                     # the shipped connect4-7x6
    python benchmarks/nn_connect4_solver.py --model runs/c4/run/nets/g0020.npz --limit 20 --json
    python benchmarks/nn_connect4_solver.py --labels held.jsonl --limit 100   # positions of our own

Positions: the first ``--limit`` lines of each class in ``boardai/bench/connect4_tests/``.  Every
column's exact score comes from the project's solver (with its book) once and is kept in
``benchmarks/data/nn/connect4_move_scores.json``, so later runs only time the network.  A move
counts as best when its score equals the best column's score.

``--tests DIR``: the classes' files from another folder (one written by ``boardai.bench.solver.generate_sets``
with another seed: positions no network run has been chosen on); ``--scores FILE`` keeps their
scores' cache out of the committed one.

``--labels FILE``: instead, the first ``--limit`` positions of each band (begin: up to 14 stones,
middle: 15-28, end: 29 on) of a file of solver-labelled positions (``benchmarks/c4_solver_labels.py``,
e.g. one held out of training), with the scores it holds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.bench.solver import CLASS_NAMES, DATA_DIR, read_set
from boardai.solvers.connect4.lines import LineSolver

SCORES = Path(__file__).parent / "data" / "nn" / "connect4_move_scores.json"


def move_scores(positions: list[str], path: Path = SCORES) -> dict[str, list[int]]:
    """Every column's exact score of each position (cached in ``path``, solved once)."""
    cache = json.loads(path.read_text()) if path.exists() else {}
    todo = [p for p in positions if p not in cache]
    if todo:
        solver = LineSolver()
        for i, pos in enumerate(todo, 1):
            start = time.perf_counter()
            cache[pos] = solver.analyze_board(solver.parse(pos))
            print(f"  solved {i}/{len(todo)} {pos} in {time.perf_counter() - start:.1f} s",
                  flush=True)
            if i % 10 == 0 or i == len(todo):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(cache, indent=0, sort_keys=True))
    return cache


def labelled_sets(path: str, limit: int) -> tuple[dict[str, list[str]], dict[str, list[int]]]:
    """The first ``limit`` positions of each band of a labels file, and their scores."""
    from boardai.train.c4_labels import read_labels
    _, records = read_labels(path)
    sets: dict[str, list[str]] = {"own-begin": [], "own-middle": [], "own-end": []}
    scores = {}
    for r in records:
        if "scores" not in r:
            continue
        n = len(r["moves"])
        band = "own-begin" if n <= 14 else "own-middle" if n <= 28 else "own-end"
        if len(sets[band]) < limit:
            sets[band].append(r["moves"])
            scores[r["moves"]] = r["scores"]
    return sets, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="connect4-7x6", help="network name or file")
    ap.add_argument("--sims", type=int, default=800)
    ap.add_argument("--limit", type=int, default=50, help="positions per class")
    ap.add_argument("--classes", default=",".join(CLASS_NAMES))
    ap.add_argument("--tests", help="a folder of class files to read instead of the bench's own")
    ap.add_argument("--scores", default=str(SCORES),
                    help="the cache of every column's exact score (default: the committed one)")
    ap.add_argument("--labels", help="a labels file to measure on instead of the test classes")
    ap.add_argument("--json", action="store_true", help="last line: one JSON object")
    args = ap.parse_args()
    if args.labels:
        sets, scores = labelled_sets(args.labels, args.limit)
    else:
        classes = [c for c in args.classes.split(",") if c]
        folder = Path(args.tests) if args.tests else DATA_DIR
        sets = {c: [p for p, _ in read_set(c, folder)[:args.limit]] for c in classes}
        scores = move_scores([p for ps in sets.values() for p in ps], Path(args.scores))
    policy = make_engine(f"policy:model={args.model}")
    nn = make_engine(f"nn:model={args.model},sims={args.sims},seed=1")
    solver = LineSolver()
    rows = []
    for c, positions in sets.items():
        good_policy = good_nn = 0
        clock = time.perf_counter()
        for pos in positions:
            board = solver.parse(pos)
            s = scores[pos]
            legal = [col for col in range(board.width) if board.is_legal(col)]
            best = max(s[col] for col in legal)
            good_policy += s[policy.play(board).move] == best
            nn.new_game(board)
            good_nn += s[nn.play(board, Limit(sims=args.sims)).move] == best
        n = len(positions)
        rows.append({"class": c, "positions": n, "policy_best": round(good_policy / n, 4),
                     "nn_best": round(good_nn / n, 4),
                     "seconds": round(time.perf_counter() - clock, 1)})
    total = sum(r["positions"] for r in rows)
    overall = {"class": "all", "positions": total,
               "policy_best": round(sum(r["policy_best"] * r["positions"] for r in rows) / total, 4),
               "nn_best": round(sum(r["nn_best"] * r["positions"] for r in rows) / total, 4)}
    print(f"model {args.model}, nn at {args.sims} simulations; target: nn >= 0.90 overall")
    print(f"{'class':16} {'positions':>9} {'policy best':>12} {'nn best':>8}")
    for r in rows + [overall]:
        print(f"{r['class']:16} {r['positions']:9d} {r['policy_best']:12.3f} {r['nn_best']:8.3f}")
    if args.json:
        print(json.dumps({"model": args.model, "sims": args.sims, "rows": rows,
                          "overall": overall}))


if __name__ == "__main__":
    main()
