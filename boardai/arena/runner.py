"""Where arena games are played: the runner interface and its local backends.

A :class:`GameTask` says everything about one game (engine specs, colours, opening, seed), so
any worker anywhere can play it; :func:`play_task` plays it and returns the finished
:class:`~boardai.arena.store.StoredGame`.  A :class:`Runner` takes tasks and yields finished
games as they end; the caller stores them.  ``ProcessRunner`` plays in ``jobs`` worker
processes, ``SerialRunner`` in one (one game after the other).  Games never run in the caller's
process: an engine that does not answer within the move timeout loses on time and is abandoned,
and only a process can stop it; its worker is replaced.  A distributed backend only has to
implement ``Runner.play`` (and ``close``) the same way.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from abc import ABC, abstractmethod
from collections import deque
from multiprocessing import connection as mp_connection
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from boardai.arena.game import FAULTS, games_running, play_game
from boardai.arena.logs import GAME_LOG_CAP, CappedLog, store_room
from boardai.arena.store import StoredGame
from boardai.engines.base import Engine
from boardai.engines.budget import move_limit
from boardai.engines.registry import engine_options, make_engine, parse_spec, all_engines
from boardai.games import Color, all_games
from boardai.games.setup import BoardSetup

LOGGED = ("gtp", "strategy")    # engines whose stderr goes to a log file beside the store


@dataclass(frozen=True)
class GameTask:
    """One game to play: index ``idx`` of match ``match_key``."""

    match_key: str
    idx: int
    engine_a: str
    engine_b: str
    a_is_black: bool
    setup: BoardSetup                 # the board: game, size, swap rule, blocked cells
    opening: tuple[int, ...]
    seed: int
    move_timeout: float | None = None
    log_dir: str | None = None
    move_time: float | None = None    # the caller's time per move (engines/budget.py's rule)


def game_seed(match_seed: int, idx: int) -> int:
    """The seed of game ``idx`` of a match: a hash of both, so games are independent."""
    return int(np.random.SeedSequence([match_seed & 0xFFFFFFFF, idx]).generate_state(1)[0])


def build_engine(spec: str, seed: int, move_timeout: float | None, stderr=None) -> Engine:
    """The engine of ``spec``, seeded with ``seed`` unless the spec fixes its own seed."""
    name, raw = parse_spec(spec)
    if name == "gtp":
        return make_engine(spec, timeout=move_timeout, stderr=stderr)
    if name == "strategy":
        return make_engine(spec, stderr=stderr)
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
            if parse_spec(specs[colour])[0] in LOGGED and task.log_dir is not None:
                Path(task.log_dir).mkdir(parents=True, exist_ok=True)
                logs[colour] = Path(task.log_dir) / (
                    f"{task.match_key[:12]}-{task.idx:05d}-{str(colour).lower()}.stderr")
                room = min(GAME_LOG_CAP, store_room(Path(task.log_dir)))
                stderr = files[colour] = CappedLog(logs[colour], room)
            engines[colour] = build_engine(specs[colour], int(seeds[colour]), task.move_timeout,
                                           stderr)
        versions = {colour: _start(engine) for colour, engine in engines.items()}
        limits = {colour: move_limit(engine, per_move=task.move_time)    # the one rule
                  for colour, engine in engines.items()}
        board = task.setup.make_board()
        board.push_many(list(task.opening))
        for engine in engines.values():
            engine.warm_up(board)           # compiled code loaded before the clocks run
        result = play_game(board, engines[Color.BLACK], engines[Color.WHITE], limits,
                           move_timeout=task.move_timeout)
    finally:
        for colour, engine in engines.items():
            if result is not None and result.abandoned == colour:
                _stop_abandoned(engine)
                continue
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
    setup = task.setup
    return StoredGame(
        match_key=task.match_key, idx=task.idx, black=specs[Color.BLACK],
        white=specs[Color.WHITE], a_is_black=task.a_is_black, game=setup.game, width=setup.width,
        height=setup.height, opening=list(task.opening), seed=task.seed, moves=result.moves,
        winner=None if result.winner is None else int(result.winner), reason=result.reason,
        times=result.times, black_version=versions[Color.BLACK],
        white_version=versions[Color.WHITE], detail=result.detail, logs=kept,
        finished=time.time(), blocked=list(setup.blocked), swap=setup.swap)


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


def _stop_abandoned(engine: Engine, wait: float = 2.0) -> None:
    """``kill`` an engine whose move was abandoned, from a thread of its own: it may block on
    the search still running (an external engine's process is killed at once)."""
    def stop() -> None:
        try:
            engine.kill()
        except Exception:             # noqa: BLE001 -- it already lost; nothing more to do
            pass

    thread = threading.Thread(target=stop, name="boardai-stop", daemon=True)
    thread.start()
    thread.join(wait)


def _healthy(result, colour: Color) -> bool:
    """False when the engine of ``colour`` failed (or the game never finished): kill it."""
    return result is not None and not (result.reason in FAULTS and result.loser == colour)


# --- runners ------------------------------------------------------------------------------
class WorkerError(RuntimeError):
    """A worker process died while playing (killed, out of memory, a crash in native code)."""


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (the cause of the one re-raised here)."""

    def __str__(self) -> str:
        return "\n" + self.args[0]


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


def _worker_init() -> None:
    """In a worker: die with the parent (Linux), and leave Ctrl-C to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()                       # a no-op after fork; loads the kernels after spawn
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)         # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker_main(conn) -> None:
    """A worker process: play the tasks of each batch received, one message per finished game.

    A game that abandoned an engine still computing (``play_game``'s move timeout) leaves a
    thread that cannot be stopped; the worker then reports the game, says it retires and exits,
    so the engine dies with it and the next game starts in a fresh process.
    """
    _worker_init()
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            break
        if batch is None:
            break
        for task in batch:
            try:
                game = play_task(task)
            except BaseException as exc:      # noqa: BLE001 -- re-raised by the parent
                tb = traceback.format_exc()
                try:
                    pickle.dumps(exc)
                except Exception:             # noqa: BLE001 -- not picklable: its words only
                    exc = RuntimeError(f"{type(exc).__name__}: {exc}")
                conn.send(("error", exc, tb))
                os._exit(1)
            retire = games_running() > 0
            conn.send(("game", game, retire))
            if retire:
                os._exit(0)     # not sys.exit: that would wait for the abandoned engine's threads
    os._exit(0)


class _Worker:
    """One worker process and the tasks it was given but has not reported yet."""

    def __init__(self, ctx):
        self.conn, theirs = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(theirs,), daemon=True,
                                   name="boardai-arena-worker")
        self.process.start()
        theirs.close()
        self.tasks: list[GameTask] = []

    def give(self, batch: list[GameTask]) -> None:
        self.tasks.extend(batch)
        self.conn.send(batch)

    def stop(self) -> None:
        """Let an idle worker exit; kill a busy (or stuck) one."""
        if not self.tasks:
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(2.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(2.0)
        self.conn.close()


class ProcessRunner(Runner):
    """Plays games in ``jobs`` worker processes on this machine.

    Workers are forked with the compiled kernels already loaded, die with this process and
    ignore Ctrl-C (this process handles it).  Tasks go out in small batches (``batch`` games per
    message) so quick games do not spend their time in inter-process messages; each finished
    game comes back at once.  A worker that had to abandon an engine (one that never answered
    within the move timeout) is replaced by a fresh process, so the engine cannot keep a core
    busy or change anything of later games; the worker's tasks not yet started go to others.
    """

    keep_workers = True         # between calls of play (SerialRunner: only while playing)

    def __init__(self, jobs: int, batch: int = 1):
        self.jobs = max(1, jobs)
        self.batch = max(1, batch)
        self._ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        self._workers: list[_Worker] = []
        self._queue: deque[GameTask] = deque()
        self._ready: deque[StoredGame] = deque()
        self._warm = False

    # --- workers ------------------------------------------------------------------------
    def _feed(self) -> None:
        """Give queued tasks to idle workers, starting workers up to ``jobs``."""
        for w in self._workers:
            if not w.tasks and self._queue:
                w.give(self._take())
        while self._queue and len(self._workers) < self.jobs:
            if not self._warm:
                warm_up()               # forked workers inherit the loaded kernels
                self._warm = True
            w = _Worker(self._ctx)
            self._workers.append(w)
            w.give(self._take())

    def _take(self) -> list[GameTask]:
        return [self._queue.popleft() for _ in range(min(self.batch, len(self._queue)))]

    def _busy(self) -> list[_Worker]:
        return [w for w in self._workers if w.tasks]

    def _receive(self) -> None:
        """Wait for news from the busy workers: finished games go to ``_ready``."""
        busy = self._busy()
        for conn in mp_connection.wait([w.conn for w in busy]):
            w = next(w for w in busy if w.conn is conn)
            try:
                kind, payload, extra = conn.recv()
            except (EOFError, OSError):
                self._drop(w)
                t = w.tasks[0]
                raise WorkerError(
                    f"a worker process died (exit code {w.process.exitcode}) while playing game "
                    f"{t.idx} of match {t.match_key} ({t.engine_a} vs {t.engine_b}); the games "
                    "stored so far are kept: run the same command to resume") from None
            if kind == "error":
                self._drop(w)
                raise payload from _RemoteTraceback(extra)
            w.tasks = [t for t in w.tasks
                       if (t.match_key, t.idx) != (payload.match_key, payload.idx)]
            self._ready.append(payload)
            if extra:                   # it retires: its tasks not started go to the others
                self._queue.extendleft(reversed(w.tasks))
                w.tasks = []
                self._drop(w)

    def _drop(self, w: _Worker) -> None:
        self._workers.remove(w)
        w.process.join(2.0)
        w.stop()

    def _stop_idle(self) -> None:
        for w in [w for w in self._workers if not w.tasks]:
            self._workers.remove(w)
            w.stop()

    # --- the interface ------------------------------------------------------------------
    def play(self, tasks: Iterable[GameTask]) -> Iterator[StoredGame]:
        self._queue.extend(tasks)
        try:
            while True:
                self._feed()
                if self._ready:
                    yield self._ready.popleft()
                elif self._busy():
                    self._receive()
                else:
                    break
        finally:
            self._queue.clear()         # the games not started are abandoned
            if not self.keep_workers:
                self._stop_idle()

    def drain(self) -> list[StoredGame]:
        games = list(self._ready)
        self._ready.clear()
        while self._busy():
            self._receive()
            games.extend(self._ready)
            self._ready.clear()
        self._queue.clear()             # tasks handed back by a retiring worker: not started
        if not self.keep_workers:
            self._stop_idle()
        return games

    def close(self) -> None:
        self._queue.clear()
        for w in self._workers:
            w.stop()
        self._workers = []


class SerialRunner(ProcessRunner):
    """Plays the games one after the other in one worker process (``--jobs 1``).

    Not in this process: only a process can be stopped, and an engine that never answers
    within the move timeout must not keep running beside the games after it (it would take a
    core from them, or change shared state).  The worker is started when ``play`` starts and
    stopped when it ends; it is replaced after a game that abandoned an engine.
    """

    keep_workers = False

    def __init__(self) -> None:
        super().__init__(1, 1)


def make_runner(jobs: int | None, batch: int = 1) -> Runner:
    """The local runner for ``jobs`` processes (None: one per core; 1: one worker process).
    ``arena/backends.py`` picks between this and Ray."""
    jobs = jobs or os.cpu_count() or 1
    return SerialRunner() if jobs == 1 else ProcessRunner(jobs, batch)
