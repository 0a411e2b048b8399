"""``boardai bench course``: a Tsinghua course board (12x12, one no-go cell), our playouts and
``mcts`` against the plain array-board playout and UCT of ``plain.py`` measured in the same run,
and the same figures on 7x6 for comparison."""

from __future__ import annotations

import time

from boardai.bench import plain
from boardai.bench.speed import bench_playouts, calibrate_chunk, mcts_sims_per_second

UCT_MCTS = "mcts:c=0.8,rave=0,checks=0,tactics=0,expand=1"   # plain UCT (c=0.8), our kernel
COURSE_BOARD = (12, 12, ((4, 2),))                                 # 12x12, no-go cell 5:3


def bench_course(seconds: float = 2.0, seed: int = 0) -> dict:
    """A course board (12x12, one no-go cell): our playouts and ``mcts`` against the
    plain array-board playout and UCT of ``plain.py``, in the same run, and the
    same figures on 7x6 for comparison."""
    w, h, blocked = COURSE_BOARD
    out: dict = {"board": f"{w}x{h}", "blocked": ["5:3"], "seconds": seconds}
    cells, top = plain.plain_board(w, h, blocked)
    plain.plain_seed(seed)
    run = lambda n: plain.plain_playouts(cells, top, w, h, n)      # noqa: E731
    chunk = calibrate_chunk(run)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        run(chunk)
        done += chunk
    out["plain_playouts_per_s"] = done / (time.perf_counter() - start)
    ours = bench_playouts("connect4", w, h, seconds, 1, seed, blocked)
    out["playouts_per_s"] = ours["playouts_per_s"]
    out["playout_ratio"] = out["playouts_per_s"] / out["plain_playouts_per_s"]
    sims, took = plain.plain_uct(w, h, blocked, seconds)
    out["plain_uct_sims_per_s"] = sims / took
    out["uct_mcts_sims_per_s"] = mcts_sims_per_second(UCT_MCTS, "connect4", w, h, seconds,
                                                      blocked)
    out["mcts_sims_per_s"] = mcts_sims_per_second("mcts", "connect4", w, h, seconds, blocked)
    out["uct_mcts_ratio"] = out["uct_mcts_sims_per_s"] / out["plain_uct_sims_per_s"]
    out["mcts_ratio"] = out["mcts_sims_per_s"] / out["plain_uct_sims_per_s"]
    out["c4_7x6_playouts_per_s"] = bench_playouts("connect4", 7, 6, seconds, 1, seed)["playouts_per_s"]
    out["c4_7x6_mcts_sims_per_s"] = mcts_sims_per_second("mcts", "connect4", 7, 6, seconds)
    return out


def format_course(r: dict) -> str:
    return "\n".join([
        f"course board {r['board']}, no-go cell {r['blocked'][0]}, {r['seconds']:g} s each:",
        f"  random playouts/s   boardai {r['playouts_per_s']:>12,.0f}   plain array board "
        f"{r['plain_playouts_per_s']:>10,.0f}   ratio {r['playout_ratio']:.2f}x",
        f"  UCT simulations/s   {UCT_MCTS} {r['uct_mcts_sims_per_s']:>10,.0f}   plain UCT "
        f"{r['plain_uct_sims_per_s']:>10,.0f}   ratio {r['uct_mcts_ratio']:.2f}x",
        f"  mcts (the game's defaults: tactical, safe playouts) {r['mcts_sims_per_s']:>10,.0f}/s   "
        f"ratio {r['mcts_ratio']:.2f}x",
        f"7x6 for comparison: {r['c4_7x6_playouts_per_s']:,.0f} playouts/s, mcts "
        f"{r['c4_7x6_mcts_sims_per_s']:,.0f} simulations/s",
    ])
