"""Playout speed: how many random games per second the kernel plays from the empty board.

``bench_playouts("hex", 11, 11, seconds=3, threads=2)`` runs the kernel's jitted, GIL-free
``playout_batch`` in chunks until the time is up, one Python thread per requested thread (each
with its own copy of the state and its own random stream), and returns the counts and the rate::

    >>> r = bench_playouts("connect4", 7, 6, seconds=0.05)
    >>> sorted(r)[:4], r["size"], r["threads"]
    (['black_win_rate', 'blocked', 'chunk', 'draw_rate'], '7x6', 1)

``run_timed`` is the game-agnostic timing loop; ``benchmarks/plain_playouts.py`` times its plain
reference playouts with it too, so both sides are measured the same way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from boardai.games import game_name, get_game
from boardai.games.kernel import playout_batch
from boardai.games.layout import new_rng

# A worker factory: called with the worker's index *inside* its thread (so thread-local set-up
# such as seeding numba's per-thread np.random happens in the right thread); it returns a
# function that plays ``count`` playouts and returns the results as [black, white, draw] counts.
Worker = Callable[[int], Callable[[int], np.ndarray]]

CHUNK_SECONDS = 0.02   # one chunk runs about this long: deadline overshoot and loop overhead


def calibrate_chunk(run: Callable[[int], np.ndarray], target: float = CHUNK_SECONDS) -> int:
    """Playouts per chunk so that ``run(chunk)`` takes about ``target`` seconds (run warm)."""
    run(1)                                   # compile or load the cache
    n = 16
    while True:
        start = time.perf_counter()
        run(n)
        dt = time.perf_counter() - start
        if dt >= target / 4 or n >= 1 << 24:
            return max(1, int(n * target / max(dt, 1e-9)))
        n *= 4


def run_timed(make_worker: Worker, seconds: float, threads: int = 1,
              chunk: int | None = None) -> dict:
    """Run ``threads`` workers side by side for ``seconds``; counts, wall time and chunk size.

    Workers start together (a barrier) and each stops at the first chunk boundary past its
    deadline; the wall time runs from the earliest start to the latest stop.
    """
    if threads < 1:
        raise ValueError("threads must be >= 1")
    if seconds <= 0:
        raise ValueError("seconds must be > 0")
    if chunk is None:
        chunk = calibrate_chunk(make_worker(threads))   # index ``threads``: a stream no worker uses
    barrier = threading.Barrier(threads)

    def work(i: int) -> tuple[np.ndarray, int, float, float]:
        run = make_worker(i)
        run(1)                                           # thread's first call outside the clock
        totals = np.zeros(3, dtype=np.int64)
        done = 0
        barrier.wait()
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            totals += run(chunk)
            done += chunk
            end = time.perf_counter()
            if end >= deadline:
                return totals, done, start, end

    if threads == 1:
        results = [work(0)]
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = list(pool.map(work, range(threads)))
    totals = sum((r[0] for r in results), np.zeros(3, dtype=np.int64))
    playouts = sum(r[1] for r in results)
    wall = max(r[3] for r in results) - min(r[2] for r in results)
    return {"totals": totals, "playouts": playouts, "seconds": wall, "chunk": chunk}


def summarise(game: str, width: int, height: int, threads: int, timed: dict, **extra) -> dict:
    """The result dict of a timed run (see ``bench_playouts``)."""
    totals = timed["totals"]
    n = max(1, int(timed["playouts"]))
    out = {
        "game": game,
        "size": f"{width}x{height}",
        "threads": threads,
        "seconds": float(timed["seconds"]),
        "playouts": int(timed["playouts"]),
        "playouts_per_s": float(timed["playouts"]) / float(timed["seconds"]),
        "black_win_rate": int(totals[0]) / n,
        "white_win_rate": int(totals[1]) / n,
        "draw_rate": int(totals[2]) / n,
        "chunk": int(timed["chunk"]),
    }
    out.update(extra)
    return out


def bench_playouts(game: str, width: int, height: int, seconds: float, threads: int = 1,
                   seed: int = 0, blocked=()) -> dict:
    """Time the kernel's ``playout_batch`` from the empty ``width`` x ``height`` board.

    Returns ``game``, ``size`` ("WxH"), ``threads``, ``seconds`` (measured wall time),
    ``playouts``, ``playouts_per_s``, ``black_win_rate``, ``white_win_rate``, ``draw_rate`` and
    ``chunk`` (playouts per jitted call).  Thread ``i`` uses the random stream ``seed + i``.
    """
    game = game_name(game)
    state = get_game(game).new_board((width, height), blocked=blocked).state.copy()

    def make_worker(i: int):
        own = state.copy()
        rng = new_rng(seed + i)
        return lambda count: playout_batch(own, rng, count)

    timed = run_timed(make_worker, seconds, threads)
    return summarise(game, width, height, threads, timed, impl="boardai",
                     blocked=get_game(game).blocked_text(blocked))


def _blocked_text(result: dict) -> str:
    cells = result.get("blocked")
    return f" blocked {' '.join(cells)}" if cells else ""


def format_playouts(result: dict) -> str:
    """One line for people, e.g. ``hex 11x11, 1 thread: 1,234,567 playouts in 3.00 s = ...``."""
    t = result["threads"]
    line = (f"{result['game']} {result['size']}{_blocked_text(result)}, "
            f"{t} thread{'s' if t != 1 else ''}: "
            f"{result['playouts']:,} playouts in {result['seconds']:.2f} s = "
            f"{result['playouts_per_s']:,.0f} playouts/s "
            f"(Black wins {100 * result['black_win_rate']:.1f}%")
    if result.get("draw_rate"):
        line += f", draws {100 * result['draw_rate']:.1f}%"
    return line + ")"


# --- MCTS simulations per second ------------------------------------------------------------

def _without_solver(spec: str) -> str:
    """``spec`` with ``solver=0`` added for engines that have the option and were not given it:
    a simulation rate means nothing when the exact solver answers first."""
    from boardai.engines.registry import all_engines, engine_options, parse_spec

    name, opts = parse_spec(spec)
    cls = all_engines().get(name)
    if cls is None or "solver" in opts or \
            not any(o.name == "solver" for o in engine_options(cls)):
        return spec
    return spec + ("," if ":" in spec else ":") + "solver=0"


def mcts_sims_per_second(spec: str, game: str, width: int, height: int, seconds: float,
                         blocked=()) -> float:
    """Simulations per second of the engine ``spec`` searching the empty board for ``seconds``.

    The engine is warmed up first (numba caches loaded, OpenSpiel's bot built).  Our ``mcts``
    reports its own count; OpenSpiel's bot reports none, so it is timed on a fixed number of
    simulations sized from a short probe to last about ``seconds``.
    """
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    board = get_game(game).new_board((width, height), blocked=blocked)
    spec = _without_solver(spec)
    warm = make_engine(spec)
    warm.play(board, Limit(sims=200))
    warm.close()
    engine = make_engine(spec)
    try:
        if spec.startswith("openspiel"):
            probe = 2000
            start = time.perf_counter()
            engine.play(board, Limit(sims=probe))
            rate = probe / (time.perf_counter() - start)
            n = max(probe, int(rate * seconds))
            start = time.perf_counter()
            engine.play(board, Limit(sims=n))
            return n / (time.perf_counter() - start)
        result = engine.play(board, Limit(time=seconds))
        return result.info["sims"] / result.time_s
    finally:
        engine.close()


def bench_mcts(game: str, width: int, height: int, seconds: float, threads: int = 1,
               options: str = "", peer: bool = False, blocked=()) -> dict:
    """``mcts`` simulations per second from the empty board, with optional peer and 1-thread ratios.

    ``options`` are extra ``mcts`` options (``"rave=0,bridge=1"``).  With ``threads`` > 1 the
    one-thread rate is measured too and ``thread_scaling`` reported; with ``peer`` OpenSpiel's
    C++ ``MCTSBot`` (pip package ``open_spiel``) is measured in the same run and
    ``ratio_vs_openspiel`` reported.
    """
    game = game_name(game)

    def spec(k: int) -> str:
        opts = ",".join(o for o in (f"threads={k}" if k > 1 else "", options) if o)
        return "mcts" + (":" + opts if opts else "")

    out: dict = {"game": game, "size": f"{width}x{height}", "threads": threads,
                 "blocked": get_game(game).blocked_text(blocked),
                 "seconds": seconds, "engine": spec(threads)}
    out["sims_per_s"] = mcts_sims_per_second(spec(threads), game, width, height, seconds, blocked)
    if threads > 1:
        one = mcts_sims_per_second(spec(1), game, width, height, seconds, blocked)
        out["sims_per_s_1thread"] = one
        out["thread_scaling"] = out["sims_per_s"] / one
    if peer:
        ref = mcts_sims_per_second("openspiel-mcts", game, width, height, seconds)
        out["openspiel_sims_per_s"] = ref
        out["ratio_vs_openspiel"] = out.get("sims_per_s_1thread", out["sims_per_s"]) / ref
    return out


def format_mcts(result: dict) -> str:
    """One line for people: the rate, and the ratios that were measured."""
    t = result["threads"]
    line = (f"{result['engine']} on {result['game']} {result['size']}{_blocked_text(result)}: "
            f"{result['sims_per_s']:,.0f} simulations/s ({t} thread{'s' if t != 1 else ''})")
    if "thread_scaling" in result:
        line += (f"; 1 thread {result['sims_per_s_1thread']:,.0f}/s, "
                 f"scaling {result['thread_scaling']:.2f}x")
    if "ratio_vs_openspiel" in result:
        line += (f"; OpenSpiel MCTSBot {result['openspiel_sims_per_s']:,.0f}/s, "
                 f"1 thread = {result['ratio_vs_openspiel']:.1f}x OpenSpiel")
    return line


# --- alpha-beta nodes per second ----------------------------------------------------------

# the bench's own start positions: a few moves in, so ordering and cut-offs are at work (a game
# not listed starts from the empty board)
BENCH_POSITIONS: dict[str, str] = {"connect4": "4453"}


def bench_alphabeta(game: str, width: int, height: int, seconds: float, evaluator: str | None = None,
                    moves: str | None = None, blocked=()) -> dict:
    """Nodes per second of ``alphabeta`` (one thread) deepening from a position for ``seconds``."""
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine

    game = game_name(game)
    board = get_game(game).new_board((width, height), blocked=blocked)
    text = BENCH_POSITIONS.get(game, "") if moves is None else moves
    board.push_many(text)
    spec = "alphabeta" + (f":eval={evaluator}" if evaluator else "")
    engine = make_engine(spec)
    engine.play(board, Limit(depth=1))                  # load the compiled code
    result = make_engine(spec).play(board, Limit(time=seconds))
    return {"game": game, "size": f"{width}x{height}", "position": text, "engine": spec,
            "blocked": get_game(game).blocked_text(blocked),
            "eval": result.info["eval"], "seconds": result.time_s, "nodes": result.nodes,
            "depth": result.depth, "nodes_per_s": result.nodes / max(result.time_s, 1e-9),
            "move": result.name}


def format_alphabeta(result: dict) -> str:
    return (f"alphabeta eval={result['eval']} on {result['game']} {result['size']}"
            f"{_blocked_text(result)}"
            f"{' after ' + result['position'] if result['position'] else ''}: "
            f"{result['nodes']:,} nodes in {result['seconds']:.2f} s = "
            f"{result['nodes_per_s']:,.0f} nodes/s (depth {result['depth']}, plays {result['move']})")
