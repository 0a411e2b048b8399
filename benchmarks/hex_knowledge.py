"""What the Hex knowledge of `mcts:mustplay=N` costs and what it prunes, with and without the
inferior cells (`inferior=`): the solver's node evaluation (`Player.knowledge`) on random
positions of each board, timed one call at a time.

    python benchmarks/hex_knowledge.py --sizes 9,11 --positions 300

For each board and setting it prints the median and 90th-percentile time of one call, the
share of positions decided (a virtual win found), and among the others the share of the empty
cells kept as moves, all on the same positions.  The positions are random games of 4 to 40
stones that are not over yet, so they are sparser and more chaotic than real play.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boardai.games import get_game
from boardai.solvers.hex.player import Player
from boardai.solvers.hex.solver import UNKNOWN


def positions(size: int, count: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = get_game("hex").new_board(size)
        for _ in range(rng.randrange(4, 41)):
            board.push(rng.choice([m for m in board.legal_moves if m < size * size]))
            if board.is_game_over():
                break
        if not board.is_game_over():
            out.append(board)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="9,11")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'board':6} {'inferior':9} {'median ms':>10} {'p90 ms':>8} {'decided':>8} "
          f"{'kept':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        boards = positions(size, args.positions, args.seed)
        for inferior in (False, True):
            Player.knowledge(boards[0], inferior=inferior)          # compile / load first
            times, decided, kept = [], 0, []
            for board in boards:
                t0 = time.perf_counter()
                result, moves = Player.knowledge(board, inferior=inferior)
                times.append(time.perf_counter() - t0)
                if result != UNKNOWN:
                    decided += 1
                else:
                    empty = size * size - len(board.move_stack)
                    kept.append(len(moves) / empty)
            times.sort()
            print(f"{size}x{size:<4} {'on' if inferior else 'off':9} "
                  f"{1000 * statistics.median(times):10.2f} "
                  f"{1000 * times[int(0.9 * len(times))]:8.2f} "
                  f"{decided / len(boards):8.2f} {statistics.mean(kept):6.2f}")


if __name__ == "__main__":
    main()
