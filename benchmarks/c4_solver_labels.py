"""Label random Connect Four 7x6 positions with the exact solver, for ``boardai train
supervised`` (``boardai/train/c4_labels.py`` says how positions are drawn and what a line holds).

    python benchmarks/c4_solver_labels.py runs/c4sup/labels.jsonl --positions 20000
    python benchmarks/c4_solver_labels.py runs/c4sup/held.jsonl --positions 600 --seed 2
    python benchmarks/c4_solver_labels.py runs/c4sup/labels.jsonl --positions 20000 \\
        --exclude runs/c4sup/held.jsonl          # none of the held-out file's positions either
    python benchmarks/c4_solver_labels.py runs/c4sup/games.jsonl \
        --games benchmarks/data/train/connect4-7x6/run/games.csv --exclude runs/c4sup/held.jsonl

The same command goes on where a stopped one stopped (each position index is drawn from the seed
and the index alone); a larger ``--positions`` adds more.  ``--games CSV`` labels the positions of
played games instead (a self-play run's ``games.csv``, from 9 stones on; ``--positions`` then
bounds the new positions of this call).  The solver test sets'
positions (and their mirrors) are never kept.
"""

from __future__ import annotations

import argparse
import json
import sys

from boardai.train import c4_labels as L


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="the labels file (JSON lines), created or continued")
    ap.add_argument("--positions", type=int, default=10000,
                    help="position indices the file holds when done (labelled or skipped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="the solver's time for all columns of one position")
    ap.add_argument("--games", help="label the positions of these games (games.csv)")
    ap.add_argument("--exclude", action="append", default=[],
                    help="a labels file whose positions are kept out too (repeatable)")
    args = ap.parse_args()
    if args.positions < 0 or args.seconds <= 0:
        print("--positions is 0 or more and --seconds above 0", file=sys.stderr)
        return 2
    try:
        exclude = L.test_set_keys()
        for path in args.exclude:
            _, records = L.read_labels(path)
            exclude |= {L.position_key(r["moves"]) for r in records if "moves" in r}
        log = lambda t: print(t, file=sys.stderr, flush=True)     # noqa: E731
        if args.games:
            counts = L.generate_from_games(args.out, L.read_games_csv(args.games),
                                           seconds=args.seconds, log=log, exclude=exclude,
                                           limit=args.positions)
        else:
            counts = L.generate(args.out, args.positions, args.seed, args.seconds, log=log,
                                exclude=exclude)
    except (L.LabelError, OSError, KeyError) as exc:
        print(exc, file=sys.stderr)
        return 1
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
