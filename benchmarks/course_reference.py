"""An engine against the course game's reference opponents, under the course's rules.

    python benchmarks/course_reference.py mcts:time=1 --rounds 50            # vs the C++ UCT at 2.6 s
    python benchmarks/course_reference.py mcts:time=1 --rounds 50 --opponent plain
    python benchmarks/course_reference.py mcts:time=0.33 --rounds 4 --move-time 1 --ref-ms 870
    python benchmarks/course_reference.py --speed                          # playouts and simulations/s
    python benchmarks/course_reference.py mcts:time=1 --rounds 50 --report # the store's figures only

Opponents (``--opponent``):

* ``cxx`` (default): ``benchmarks/course_uct/uct.cpp``, a UCT in C++ with the course's
  strategy interface (``getPoint``/``clearPoint``), as a strong student of the course writes one
  and as fast as the course's compiled test programs: line bitboards with per-colour masks of
  the columns that win at once, UCB1 with C = 0.6 (tuned by self-play), children made at once
  (only the win, or only the block, where there is one), random playouts that take an
  immediate win and block an immediate loss, the tree kept between moves, the same two checks
  at the root.  It
  thinks ``--ref-ms`` milliseconds a move (default 2600 of the course's 3 s, as the course's own
  test programs do), compiled in (``-DTHINK_MS``) with ``g++ -O2 -shared -fPIC`` into
  ``--build-dir`` (default ``build/course_uct/``, not committed), once per source and think time;
  it plays as ``strategy:PATH``.
* ``plain``: today's reference, the plain UCT a course student describes, on boardai's kernel
  (``PLAIN_SPEC``; docs/experiments.md, the course game's section), told the move time less
  the referee's margin like every engine.

The games are those of ``boardai compete SPEC OPPONENT RESULT ROUNDS --move-time S --seed N --db
STORE`` (run as a subprocess: the course's drawn boards, each twice with the first move swapped,
a move over S + 0.1 s lost on time), so the store and the result file are the referee's and the
same command resumes (only the games the store lacks are played; more ``--rounds`` extend a
run).  Printed afterwards from the store: the score of SPEC with a 95 % interval (normal
approximation over the games, draws half), as the first and as the second player, the faults,
the longest move of each side and the moves over S.  ``--speed`` measures, in one run on a
12x12 board with a no-go cell, the C++ reference's random playouts per second (uniform and with
its checks) and simulations per second from the empty board, beside the plain numba references
of ``boardai/bench/plain.py`` (uniform playouts and plain UCT).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "benchmarks" / "course_uct" / "uct.cpp"
BUILD_DIR = ROOT / "build" / "course_uct"
PLAIN_SPEC = "mcts:c=0.8,rave=0,checks=0,tactics=0,expand=1,reuse=1"
DEFAULT_REF_MS = 2600


def build_reference(think_ms: int = DEFAULT_REF_MS, build_dir: Path = BUILD_DIR) -> Path:
    """Compile uct.cpp with THINK_MS = ``think_ms`` into ``build_dir`` (once per source and
    time: the name holds both); the object's path.  SystemExit without g++ or on a failure."""
    gxx = shutil.which("g++")
    if gxx is None:
        raise SystemExit("g++ is needed to compile the C++ reference (benchmarks/course_uct/uct.cpp)")
    digest = hashlib.sha1(SOURCE.read_bytes()).hexdigest()[:10]
    build_dir.mkdir(parents=True, exist_ok=True)
    lib = build_dir / f"uct_{think_ms}ms_{digest}.so"
    if lib.exists():
        return lib
    tmp = lib.with_suffix(f".{os.getpid()}.tmp")
    proc = subprocess.run([gxx, "-O2", "-shared", "-fPIC", f"-DTHINK_MS={int(think_ms)}",
                           "-o", str(tmp), str(SOURCE)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"g++ failed on {SOURCE}:\n{proc.stdout}")
    os.replace(tmp, lib)
    return lib


def strategy_spec(lib: Path) -> str:
    """``strategy:PATH``, relative to the repository root when under it (so that a store's key
    does not depend on where the checkout lies; run from the root)."""
    try:
        return f"strategy:{lib.resolve().relative_to(ROOT)}"
    except ValueError:
        return f"strategy:{lib}"


def match_key(spec_a: str, spec_b: str, seed: int, move_time: float) -> str:
    """The store key ``boardai compete`` gives these games."""
    from boardai.arena.compete import CompetePlan
    from boardai.engines.strategy import TIME_GRACE
    from boardai.games import Connect4Board
    from boardai.games.connect4 import course

    return CompetePlan(spec_a.strip(), spec_b.strip(), Connect4Board.game_name, course.BOARDS,
                       course.draw_board, seed, move_time, TIME_GRACE).key


def summary(store: Path, spec_a: str, spec_b: str, seed: int, move_time: float,
            rounds: int) -> dict:
    """Figures of rounds 1..``rounds`` from the store (A is the engine measured)."""
    from boardai.arena.compete import CODES, longest_moves, result_code, side_moves
    from boardai.arena.store import Store

    key = match_key(spec_a, spec_b, seed, move_time)
    with Store(store) as db:
        games = [g for g in db.games(key) if g.idx < 2 * rounds]
    scores = [g.score_a for g in games]
    first = [g.score_a for g in games if g.a_is_black]
    second = [g.score_a for g in games if not g.a_is_black]
    n = len(scores)
    mean = sum(scores) / n if n else float("nan")
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else float("nan")
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("nan")
    long_a, long_b = longest_moves(games)
    over = [0, 0]
    moves = [0, 0]
    for g in games:
        for side, t in side_moves(g):
            moves[side] += 1
            over[side] += t > move_time
    codes = {}
    for g in games:
        name = CODES[result_code(g)]
        codes[name] = codes.get(name, 0) + 1
    return {"key": key, "games": n, "score": mean, "ci95": half,
            "wins": sum(s == 1 for s in scores), "losses": sum(s == 0 for s in scores),
            "draws": sum(s == 0.5 for s in scores),
            "first": (sum(first), len(first)), "second": (sum(second), len(second)),
            "longest": (long_a, long_b), "moves": tuple(moves), "over": tuple(over),
            "codes": codes}


def print_summary(r: dict, spec_a: str, spec_b: str, move_time: float) -> None:
    print(f"A = {spec_a}   B = {spec_b}   move time {move_time:g} s   store key {r['key']}")
    if not r["games"]:
        print("no games in the store yet")
        return
    lo, hi = max(0.0, r["score"] - r["ci95"]), min(1.0, r["score"] + r["ci95"])
    print(f"A: {r['games']} games, {r['wins']}-{r['losses']}-{r['draws']} (wins-losses-draws), "
          f"score {r['score']:.3f} (95 %: {lo:.3f}..{hi:.3f})")
    for name in ("first", "second"):
        pts, n = r[name]
        if n:
            print(f"  A moving {name}: {pts:g} of {n} ({pts / n:.3f})")
    print(f"longest move: A {r['longest'][0]:.3f} s, B {r['longest'][1]:.3f} s; moves over "
          f"{move_time:g} s: A {r['over'][0]} of {r['moves'][0]}, B {r['over'][1]} of "
          f"{r['moves'][1]}")
    print("results: " + ", ".join(f"{k} x{v}" for k, v in sorted(r["codes"].items())))


def speed(seconds: float) -> None:
    """The C++ reference's speed beside the plain numba references, 12x12 with a no-go cell."""
    from boardai.bench import plain

    lib_path = build_reference()
    lib = ctypes.CDLL(str(lib_path))
    lib.uctPlayoutRate.restype = ctypes.c_double
    lib.uctPlayoutRate.argtypes = [ctypes.c_int] * 4 + [ctypes.c_double, ctypes.c_int]
    lib.uctLastSims.restype = ctypes.c_longlong

    class Point(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]

    lib.getPoint.restype = ctypes.POINTER(Point)
    lib.clearPoint.argtypes = [ctypes.POINTER(Point)]
    m = n = 12
    no_x, no_y = 8, 5                    # from the top: row 3 from the bottom, column 5
    load = os.getloadavg()
    cxx_uniform = lib.uctPlayoutRate(m, n, no_x, no_y, seconds, 0)
    cxx_checked = lib.uctPlayoutRate(m, n, no_x, no_y, seconds, 1)
    os.environ["COURSE_UCT_MS"] = str(int(seconds * 1000))
    top = (ctypes.c_int * n)(*([m] * n))
    top[no_y] = m
    board = (ctypes.c_int * (m * n))()
    start = time.perf_counter()
    p = lib.getPoint(m, n, top, board, -1, -1, no_x, no_y)
    took = time.perf_counter() - start
    lib.clearPoint(p)
    cxx_sims = lib.uctLastSims() / took
    del os.environ["COURSE_UCT_MS"]

    blocked = ((no_y, m - 1 - no_x),)
    cells, ptop = plain.plain_board(n, m, blocked)
    plain.plain_seed(1)
    plain.plain_playouts(cells, ptop, n, m, 10)          # compile or load
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        plain.plain_playouts(cells, ptop, n, m, 2000)
        done += 2000
    plain_uniform = done / (time.perf_counter() - start)
    sims, t = plain.plain_uct(n, m, blocked, seconds)
    plain_sims = sims / t
    print(f"12x12, no-go cell at column {no_y}, row {m - 1 - no_x} from the bottom; {seconds:g} s "
          f"each; load average before {load[0]:.2f}")
    print(f"  C++ reference: uniform playouts/s {cxx_uniform:12,.0f}   checked playouts/s "
          f"{cxx_checked:10,.0f}   UCT simulations/s (empty board) {cxx_sims:10,.0f}")
    print(f"  plain numba  : uniform playouts/s {plain_uniform:12,.0f}   "
          f"{'':31}plain UCT simulations/s {plain_sims:10,.0f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", nargs="?", help="the engine measured (A), e.g. mcts:time=1")
    ap.add_argument("--opponent", choices=("cxx", "plain"), default="cxx",
                    help="cxx: the C++ UCT (default); plain: today's reference, " + PLAIN_SPEC)
    ap.add_argument("--rounds", type=int, default=50, help="rounds, 2 games each (default 50)")
    ap.add_argument("--move-time", type=float, default=3.0, help="seconds a move (default 3)")
    ap.add_argument("--ref-ms", type=int, default=DEFAULT_REF_MS,
                    help=f"the C++ reference's thinking per move, ms (default {DEFAULT_REF_MS}); "
                         "keep it under the move time")
    ap.add_argument("--seed", type=int, default=1, help="board draws and engine seeds (default 1)")
    ap.add_argument("--store", type=Path, default=None,
                    help="result store (default benchmarks/data/course/reference.sqlite)")
    ap.add_argument("--result", type=Path, default=None,
                    help="the referee's result file (default beside the store, named by key)")
    ap.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    ap.add_argument("--build-dir", type=Path, default=BUILD_DIR,
                    help="where the C++ reference is compiled (default build/course_uct)")
    ap.add_argument("--report", action="store_true", help="only print the store's figures")
    ap.add_argument("--speed", action="store_true",
                    help="only measure playouts and simulations per second")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per speed figure")
    args = ap.parse_args(argv)
    if args.speed:
        speed(args.seconds)
        return 0
    if not args.spec:
        ap.error("give the engine spec to measure (e.g. mcts:time=1), or --speed")
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if not 0 < args.move_time <= 60:
        ap.error("--move-time must be in (0, 60]")
    if args.opponent == "cxx" and not 1 <= args.ref_ms < 1000 * args.move_time:
        ap.error("--ref-ms must be from 1 to below the move time (in ms)")
    if args.opponent == "cxx":
        opponent = strategy_spec(build_reference(args.ref_ms, args.build_dir))
    else:
        opponent = PLAIN_SPEC
    store = args.store or ROOT / "benchmarks" / "data" / "course" / "reference.sqlite"
    store.parent.mkdir(parents=True, exist_ok=True)
    key = match_key(args.spec, opponent, args.seed, args.move_time)
    result = args.result or store.with_name(f"{store.stem}_{key}.txt")
    if not args.report:
        cmd = [sys.executable, "-m", "boardai", "compete", args.spec, opponent, str(result),
               str(args.rounds), "--move-time", str(args.move_time), "--seed", str(args.seed),
               "--db", str(store), "--jobs", str(args.jobs)]
        print("$ " + " ".join(cmd[2:]), flush=True)
        rc = subprocess.run(cmd, cwd=ROOT).returncode
        if rc != 0:
            print(f"compete stopped with status {rc}; the same command resumes", file=sys.stderr)
            if not store.exists():
                return rc
    print_summary(summary(store, args.spec, opponent, args.seed, args.move_time, args.rounds),
                  args.spec, opponent, args.move_time)
    print(f"result file: {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
