"""Compiling the engines before a game needs them, and saying so when a command must compile.

numba compiles a kernel on its first call and keeps the machine code on disk (``_numba_cache``),
so only a cold cache -- a new install, or changed kernel sources -- pays the compiler, and then
for up to a minute or two.  Two things keep that from being a silent wait inside a move:

- ``warm_engine(engine, board)`` loads (or compiles) an engine's search for ``board`` before any
  clock runs, so compiling is never thinking time; when the stamp below does not list that
  engine and game, it first says on stderr "preparing the engines, once: about N s";
- ``boardai warmup`` (``make venv`` runs it after installing) compiles the default engine of
  every game ahead of time, with a line per engine and game.

The stamp (``boardai-warm`` in the numba cache root) starts with the hash of the kernel sources
and lists the ``engine:game`` pairs compiled since; a stamp of other sources is stale.  Telling
cold from warm is one small file read.  The seconds each pair took are kept apart
(``boardai-compile-seconds``, not reset by new sources) for the next estimate.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

from boardai._numba_cache import cache_root, sources_digest

if TYPE_CHECKING:
    from boardai.engines.base import Engine
    from boardai.games.base import Board

DEFAULT_ENGINE = "mcts:time=1"      # what `play` seats by default, and what `warmup` compiles
WARM_STAMP = "boardai-warm"
SECONDS_FILE = "boardai-compile-seconds"
# seconds to compile an engine's search for a game on a cold cache, before one was measured
# here (the default engine, mcts, on a 2-core machine: about a minute for the first game, much
# less for the next, which shares most kernels)
FIRST_ESTIMATE_S = 60


def engine_key(engine: "Engine", board: "Board") -> str:
    """``engine:game:cells``: some searches are compiled apart for boards of up to 64 cells (one
    64-bit word a cell set) and for larger ones, so the board's class is part of the key."""
    return f"{engine.name}:{board.game_name}:{engine_key_size(board)}"


def _read(name: str) -> str | None:
    try:
        return (cache_root() / name).read_text()
    except OSError:
        return None


def _write(name: str, text: str) -> None:
    path = cache_root() / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    except OSError:
        pass        # a read-only cache: it cannot be warmed here either


def warm_keys() -> set[str]:
    """The ``engine:game`` pairs compiled for the current kernel sources."""
    lines = (_read(WARM_STAMP) or "").split("\n")
    if lines[0] != sources_digest():
        return set()
    return {line for line in lines[1:] if line}


def _seconds() -> dict[str, float]:
    try:
        data = json.loads(_read(SECONDS_FILE) or "{}")
        return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (ValueError, TypeError):
        return {}


def estimate(key: str) -> int:
    """Seconds ``key`` is expected to take to compile: as measured here last time, or a first
    guess."""
    return max(1, round(_seconds().get(key, FIRST_ESTIMATE_S)))


def _default_seats(name: str) -> list[tuple[str, "Board", bool]]:
    """What a first command of game ``name`` runs: ``play``'s engine on its board, and
    ``analyse``'s (the game's strongest) on the game's default board, as (spec, board,
    analyse)."""
    from boardai.engines.registry import strongest_spec
    from boardai.games import get_game
    rules = get_game(name)
    return [(DEFAULT_ENGINE, rules.setup_board(rules.play_size_or_default, (), False), False),
            (strongest_spec(rules.name), rules.setup_board(rules.default_size, (), False), True)]


def _key(spec: str, board: "Board", analyse: bool) -> str:
    key = f"{spec.split(':')[0]}:{board.game_name}:" + engine_key_size(board)
    return key + "/analyse" if analyse else key


def engine_key_size(board: "Board") -> str:
    cells = board.width * board.height
    return str(64 if cells <= 64 else 128 if cells <= 128 else "more")


def _is_warm(key: str, warm: set[str]) -> bool:
    return key in warm or key.removesuffix("/analyse") in warm


def cold_estimate(games: list[str]) -> int:
    """Seconds to compile the default engines of ``games`` where not yet done: the largest
    estimate of them (the first compile makes most of the code the others share); 0 if warm."""
    warm = warm_keys()
    keys = [_key(*seat) for name in games for seat in _default_seats(name)]
    return max((estimate(key) for key in keys if not _is_warm(key, warm)), default=0)


def mark_warm(key: str, seconds: float | None = None) -> None:
    keys = warm_keys() | {key}
    _write(WARM_STAMP, "\n".join([sources_digest(), *sorted(keys)]) + "\n")
    if seconds is not None:
        times = _seconds()
        times[key] = round(seconds, 1)
        _write(SECONDS_FILE, json.dumps(times, sort_keys=True) + "\n")


def _timed_warm_up(engine: "Engine", board: "Board", analyse: bool = False) -> tuple[float, bool]:
    """``engine.warm_up(board)``: the seconds it took and whether numba compiled anything (a
    load from the cache is no compile, and its time is no estimate of one)."""
    from numba.core import event

    class Count(event.Listener):
        compiled = 0

        def on_start(self, ev):
            pass

        def on_end(self, ev):
            Count.compiled += 1

    start = time.perf_counter()
    with event.install_listener("numba:compile", Count()):
        engine.warm_up(board, analyse)
    return time.perf_counter() - start, Count.compiled > 0


def needs_warming(engine: "Engine") -> bool:
    """Does ``engine`` have compiled code to load (a jitted search, a solver)?"""
    from boardai.engines.base import Engine
    return engine.warm_limit is not None or type(engine).warm_up is not Engine.warm_up


def warm_engine(engine: "Engine", board: "Board", out: TextIO | None = None,
                analyse: bool = False) -> float:
    """Load (or compile) ``engine``'s search for ``board`` before its clock runs (``analyse``:
    what ``engine.analyse`` uses); on a cold cache say so on ``out`` (stderr) first.  Returns
    the seconds it took."""
    if not needs_warming(engine) or board.is_game_over():
        return 0.0
    key = engine_key(engine, board) + ("/analyse" if analyse else "")
    cold = not _is_warm(key, warm_keys())       # a game's warm-up covers an analysis too
    if cold:
        out = sys.stderr if out is None else out
        print(f"preparing the engines, once: about {estimate(key)} s", file=out, flush=True)
    took, compiled = _timed_warm_up(engine, board, analyse)
    if cold:
        mark_warm(key, took if compiled else None)
    return took


def warm_defaults(games: list[str], out: TextIO) -> float:
    """Compile the default engines of each of ``games``: ``play``'s on the board it starts
    with and ``analyse``'s on the game's default board; one line on ``out`` per game and
    engine; returns the seconds it took in all."""
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    total = 0.0
    for name in games:
        title = get_game(name).title
        for spec, board, analyse in _default_seats(name):
            key = _key(spec, board, analyse)
            label = f"  {title} {board.size_text}, {spec.split(':')[0]}" + \
                (" (analyse)" if analyse else "")
            if _is_warm(key, warm_keys()):
                out.write(f"{label}: ready\n")
                continue
            out.write(f"{label} ... ")
            out.flush()
            engine = make_engine(spec)
            try:
                took, compiled = _timed_warm_up(engine, board, analyse)
            finally:
                engine.close()
            mark_warm(key, took if compiled else None)
            total += took
            out.write(f"compiled in {took:.0f} s\n" if compiled else
                      f"ready ({took:.1f} s: its code was compiled already)\n")
            out.flush()
    return total
