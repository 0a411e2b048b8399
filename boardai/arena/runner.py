"""Where arena games are played: the runner interface and its local backends.

A :class:`GameTask` says everything about one game (engine specs, colours, opening, seed), so
any worker anywhere can play it; :func:`play_task` plays it and returns the finished
:class:`~boardai.arena.store.StoredGame`.  A :class:`Runner` takes tasks and yields finished
games as they end; the caller stores them.  ``SerialRunner`` plays in this process,
``ProcessRunner`` in a pool of worker processes.  A distributed backend only has to implement
``Runner.play`` (and ``close``) the same way.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import multiprocessing
import os
import signal
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from boardai.arena.game import FAULTS, play_game
from boardai.arena.store import StoredGame
from boardai.engines.base import Engine
from boardai.engines.registry import engine_options, make_engine, parse_spec, all_engines
from boardai.games import Color, all_games, make_board


@dataclass(frozen=True)
class GameTask:
    """One game to play: index ``idx`` of match ``match_key``."""

    match_key: str
    idx: int
    engine_a: str
    engine_b: str
    a_is_black: bool
    game: str
    width: int
    height: int
    opening: tuple[int, ...]
    seed: int
    move_timeout: float | None = None
    log_dir: str | None = None


def game_seed(match_seed: int, idx: int) -> int:
    """The seed of game ``idx`` of a match: a hash of both, so games are independent."""
    return int(np.random.SeedSequence([match_seed & 0xFFFFFFFF, idx]).generate_state(1)[0])


def build_engine(spec: str, seed: int, move_timeout: float | None, stderr=None) -> Engine:
    """The engine of ``spec``, seeded with ``seed`` unless the spec fixes its own seed."""
    name, raw = parse_spec(spec)
    if name == "gtp":
        return make_engine(spec, timeout=move_timeout, stderr=stderr)
    cls = all_engines().get(name)
    seeded = cls is not None and "seed" not in raw and any(
        o.name == "seed" for o in engine_options(cls))
    return make_engine(spec, **({"seed": seed} if seeded else {}))


def play_task(task: GameTask) -> StoredGame:
    """Play one game task to its end and describe it for the store."""
    specs = {Color.BLACK: task.engine_a if task.a_is_black else task.engine_b,
             Color.WHITE: task.engine_b if task.a_is_black else task.engine_a}
    seeds = np.random.SeedSequence(task.seed).generate_state(2)
    logs: dict[Color, Path] = {}
    files = {}
    engines: dict[Color, Engine] = {}
    result = None
    try:
        for colour in (Color.BLACK, Color.WHITE):
            stderr = None
            if parse_spec(specs[colour])[0] == "gtp" and task.log_dir is not None:
                Path(task.log_dir).mkdir(parents=True, exist_ok=True)
                logs[colour] = Path(task.log_dir) / (
                    f"{task.match_key[:12]}-{task.idx:05d}-{str(colour).lower()}.stderr")
                stderr = files[colour] = open(logs[colour], "w")
            engines[colour] = build_engine(specs[colour], int(seeds[colour]), task.move_timeout,
                                           stderr)
        versions = {colour: _start(engine) for colour, engine in engines.items()}
        board = make_board(task.game, (task.width, task.height))
        board.push_many(list(task.opening))
        result = play_game(board, engines[Color.BLACK], engines[Color.WHITE],
                           move_timeout=task.move_timeout)
    finally:
        for colour, engine in engines.items():
            if not _healthy(result, colour):
                engine.kill()
            engine.close()
        for fh in files.values():
            fh.close()
    kept = []
    for path in logs.values():
        if path.exists() and path.stat().st_size == 0:
            path.unlink()
        elif path.exists():
            kept.append(str(path))
    return StoredGame(
        match_key=task.match_key, idx=task.idx, black=specs[Color.BLACK],
        white=specs[Color.WHITE], a_is_black=task.a_is_black, game=task.game, width=task.width,
        height=task.height, opening=list(task.opening), seed=task.seed, moves=result.moves,
        winner=None if result.winner is None else int(result.winner), reason=result.reason,
        times=result.times, black_version=versions[Color.BLACK],
        white_version=versions[Color.WHITE], detail=result.detail, logs=kept,
        finished=time.time())


def _start(engine: Engine) -> str | None:
    """Ask the engine what it is before its first move: an external engine starts here, so its
    start-up is not move time (``Engine.describe``)."""
    return engine.describe()


def warm_up() -> None:
    """Load the games' compiled kernels now, so no game's first move pays for it."""
    for game in all_games().values():
        board = game.new_board()
        board.push(board.legal_moves[0])
        board.pop()


def _healthy(result, colour: Color) -> bool:
    """False when the engine of ``colour`` failed (or the game never finished): kill it."""
    return result is not None and not (result.reason in FAULTS and result.loser == colour)


# --- runners ------------------------------------------------------------------------------
class Runner(ABC):
    """Plays game tasks and yields each finished game as soon as it ends (in any order).

    Breaking out of ``play`` (or closing its iterator) abandons the games not yet started.
    """

    jobs: int = 1

    @abstractmethod
    def play(self, tasks: Iterable[GameTask]) -> Iterator[StoredGame]:
        ...

    def drain(self) -> list[StoredGame]:
        """After breaking out of ``play``: wait for the games already being played and return
        them (so no finished game is thrown away)."""
        return []

    def close(self) -> None:
        """Release workers."""

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SerialRunner(Runner):
    """Plays every game in this process, one after the other."""

    def play(self, tasks: Iterable[GameTask]) -> Iterator[StoredGame]:
        warm_up()
        for task in tasks:
            yield play_task(task)


def _worker_init() -> None:
    """In a worker: die with the parent (Linux), and leave Ctrl-C to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()                       # a no-op after fork; loads the kernels after spawn
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)         # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _play_batch(tasks: list[GameTask]) -> list[StoredGame]:
    return [play_task(t) for t in tasks]


class ProcessRunner(Runner):
    """Plays games in ``jobs`` worker processes on this machine.

    Tasks go out in small batches (``batch`` games per message) so quick games do not spend
    their time in inter-process messages; results come back batch by batch.
    """

    def __init__(self, jobs: int, batch: int = 1):
        self.jobs = jobs
        self.batch = max(1, batch)
        ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        warm_up()                   # forked workers inherit the loaded kernels
        self._pool = cf.ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init)
        self._running: list[cf.Future] = []

    def play(self, tasks: Iterable[GameTask]) -> Iterator[StoredGame]:
        tasks = list(tasks)
        batches = [tasks[i:i + self.batch] for i in range(0, len(tasks), self.batch)]
        futures = [self._pool.submit(_play_batch, b) for b in batches]
        try:
            for fut in cf.as_completed(futures):
                yield from fut.result()
        finally:
            for fut in futures:
                fut.cancel()
            self._running = [f for f in futures if not f.cancelled() and not f.done()]

    def drain(self) -> list[StoredGame]:
        running, self._running = self._running, []
        games: list[StoredGame] = []
        for fut in running:
            games.extend(fut.result())
        return games

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def make_runner(jobs: int | None, batch: int = 1) -> Runner:
    """The local runner for ``jobs`` processes (None: one per core; 1: this process)."""
    jobs = jobs or os.cpu_count() or 1
    return SerialRunner() if jobs == 1 else ProcessRunner(jobs, batch)
