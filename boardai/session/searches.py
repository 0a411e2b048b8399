"""Where a live game's searches run: an engine's move, an analysis, a review, a solve.

A search is described by a ``Job`` (plain data: the kind, a copy of the board, the engine's spec,
the caller's time per move) and carried out by ``run_job`` wherever it runs, so the same code
searches in a thread of the caller's process (``ThreadSearches``: tests, scripts, a server told
to) and in a small pool of worker processes (``ProcessSearches``: ``boardai serve``), where no
search holds the interpreter lock of the process that answers the page.

Both give the caller the same face: ``submit(job, on_message, on_done)`` returns a ``Ticket``
whose ``stop()`` ends the search within a few milliseconds; ``on_message(dict)`` receives the
live messages the search sends (analysis snapshots, review progress, a solve's moves as they
settle) and ``on_done(result, error)`` its answer or failure, both called on the caller's event
loop.  A stopped solve still answers, with the moves it settled.  A seat's engine is
kept between moves (``Job.key``: the game and the colour), so an engine that reuses its tree
goes on where it was; ``release(game)`` closes a game's engines.

Worker processes are started with the pool (``spawn``: a clean interpreter), load the compiled
searches of the common engines at once (warm), run several searches at a time each (threads at
a lower priority; the jitted searches release the interpreter lock), and keep each game's
engines in the worker the game is assigned to.  A worker that dies (killed, out of memory)
fails its searches with ``WorkerLost`` -- the game is left as it was, and the caller may ask
again -- and is replaced at once by a fresh one.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import multiprocessing
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from boardai.engines.base import Engine, EngineError, Limit, PlayResult
from boardai.engines.budget import move_limit
from boardai.engines.registry import make_engine
from boardai.games import Color
from boardai.games.base import Board, MoveError

ENGINE_MEMORY_MB = 128           # engines with a memory option get this unless their spec says
INFO_EVERY = 0.25                # seconds between live messages of one search
FIRST_SLICE = 2.0                # analysis until stopped: slices of 2, 4, 8 ... 30 s
LONGEST_SLICE = 30.0
UNTIL_STOPPED = 3600.0           # ... for at most an hour
MULTI_PV = 3                     # candidate moves whose line an analysis message carries
SOLVE_TIME = 3.5                 # seconds a solve may search where a stop cannot end it (Hex)
SOLVE_TIME_STOPPABLE = 20.0      # ... where it can (Connect Four's solver: Stop ends it sooner)
SOLVE_INFO_EVERY = 0.1           # boards of many moves: at most one solve message this often
SOLVE_MANY_MOVES = 16            # (fewer legal moves: every settled move is sent at once)
SEARCH_NICE = 19                 # search threads yield the CPU to the loop that answers
THREADS_PER_WORKER = 64          # searches one worker runs at once


class WorkerLost(EngineError):
    """The worker process running a search stopped (killed, crashed); the search is lost, the
    game is not."""


def make_seat_engine(spec: str) -> Engine:
    """The engine ``spec`` names, with a memory cap of ``ENGINE_MEMORY_MB`` where the engine
    has a memory option its spec leaves unset (a page's many games share the machine)."""
    from boardai.engines.registry import parse_spec
    engine = make_engine(spec)
    declared = {o.name for o in engine.all_options()}
    if "memory_mb" in declared and "memory_mb" not in parse_spec(spec)[1]:
        engine.close()
        engine = make_engine(spec, memory_mb=ENGINE_MEMORY_MB)
    return engine


@dataclass
class Job:
    """One search, as data (it crosses to a worker process).

    ``kind``: ``move`` (the seat's engine plays: ``spec``, kept under ``key`` between moves,
    ``per_move`` the caller's time per move), ``analyse`` (``seconds``, None: slices until
    stopped), ``review`` (every position of ``board``'s game from the start, ``seconds`` each)
    or ``solve`` (the game's solver: ``solve_time``, or until stopped)."""

    kind: str
    board: Board
    spec: str = "mcts"
    key: tuple | None = None            # (game id, colour) of a seat's engine
    per_move: float | None = None
    seconds: float | None = None
    source: str = "engine"              # the live messages' source: engine | analysis


def _line(board: Board, names: list[str]) -> list[dict]:
    """A line of move names as ``[{move, spot}]`` (cut at the first move that does not apply)."""
    line = []
    replay = board.copy()
    for name in names[:30]:
        try:
            move = replay.parse_move(name)
            spot = replay.spot_of(move)
            replay.push(move)
        except (MoveError, ValueError):
            break
        line.append({"move": name, "spot": None if spot is None else list(spot)})
    return line


def analysis_message(board: Board, result: PlayResult, source: str, spec: str,
                     done: bool) -> dict:
    """What a page draws from an engine's (running or final) answer on ``board``:
    every move's statistics, the principal variation, and ``lines``: the best few moves
    (``MULTI_PV``) each with its win-rate and its line where the engine gives one."""
    moves = []
    for info in result.moves[:400]:
        spot = board.spot_of(info.move)
        moves.append({"move": info.name, "spot": None if spot is None else list(spot),
                      "visits": info.visits, "winrate": None if info.winrate is None
                      else round(float(info.winrate), 4),
                      "prior": None if info.prior is None else round(float(info.prior), 4)})
    pv = _line(board, result.pv)
    lines = []
    for info in result.moves[:MULTI_PV]:
        names = list(getattr(info, "pv", None) or ([info.name] + result.pv[1:]
                                                  if result.pv[:1] == [info.name] else [info.name]))
        lines.append({"move": info.name, "visits": info.visits,
                      "winrate": None if info.winrate is None else round(float(info.winrate), 4),
                      "pv": _line(board, names)})
    rate = None if result.value is None else round((result.value + 1) / 2, 4)
    scores = result.info.get("scores") if result.info.get("exact") else None
    return {"type": "analysis", "source": source, "engine": spec, "ply": board.ply,
            "best": result.name, "moves": moves, "pv": pv, "lines": lines, "winrate": rate,
            "scores": None if not scores else {n: int(v) for n, v in scores.items()},
            "exact": bool(result.info.get("exact")),
            "black_winrate": None if rate is None else
            (rate if board.turn == Color.BLACK else round(1 - rate, 4)),
            "nodes": int(result.nodes), "time_s": round(result.time_s, 3),
            "nps": round(result.nodes / result.time_s) if result.time_s > 0 else None,
            "done": done}


class Engines:
    """The seats' engines kept between moves, by ``(game id, colour)``; one search at a time
    per engine (a stopped search that has not yet returned holds it until it does)."""

    def __init__(self) -> None:
        self._engines: dict[tuple, tuple[str, Engine, threading.Lock]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple, spec: str) -> tuple[Engine, threading.Lock]:
        with self._lock:
            held = self._engines.get(key)
            if held is not None and held[0] == spec:
                return held[1], held[2]
        engine = make_seat_engine(spec)
        with self._lock:
            old = self._engines.pop(key, None)
            self._engines[key] = (spec, engine, threading.Lock())
            entry = self._engines[key]
        if old is not None:
            _release(old[1])
        return entry[1], entry[2]

    def release(self, game: str) -> None:
        with self._lock:
            gone = [k for k in self._engines if k[0] == game]
            held = [self._engines.pop(k) for k in gone]
        for _, engine, _ in held:
            _release(engine)

    def close(self) -> None:
        with self._lock:
            held = list(self._engines.values())
            self._engines.clear()
        for _, engine, _ in held:
            _release(engine)


def _release(engine: Engine) -> None:
    engine.on_info = None
    engine.stop = None
    try:
        engine.close()
    except Exception:                    # noqa: BLE001 - closing is best effort
        pass


def _streamer(board: Board, source: str, spec: str, stop: threading.Event,
              emit: Callable[[dict], None]) -> Callable[[PlayResult], None]:
    last = [0.0]

    def on_info(result: PlayResult) -> None:
        now = time.monotonic()
        if now - last[0] < INFO_EVERY or stop.is_set():
            return
        last[0] = now
        emit(analysis_message(board, result, source, spec, done=False))
    return on_info


def run_job(job: Job, engines: Engines, stop: threading.Event,
            emit: Callable[[dict], None]) -> Any:
    """Carry out ``job`` here (a thread of whichever process runs it): the answer of its kind
    (``move``/``analyse``: ``(PlayResult, final message)``; ``review``: Black's win-rate at
    every ply; ``solve``: the solve message), live messages through ``emit``."""
    board = job.board
    if job.kind == "move":
        engine, lock = engines.get(job.key, job.spec)
        with lock:
            if stop.is_set():
                raise EngineError("cancelled")
            engine.stop = stop
            engine.on_info = _streamer(board, job.source, job.spec, stop, emit)
            try:
                result = engine.play(board, move_limit(engine, per_move=job.per_move))
            finally:
                engine.on_info = None
                engine.stop = None
        return result, analysis_message(board, result, job.source, job.spec, done=True)
    if job.kind == "analyse":
        engine = make_seat_engine(job.spec)
        try:
            engine.stop = stop
            engine.on_info = _streamer(board, "analysis", job.spec, stop, emit)
            result = _analyse(engine, board, job, stop, emit)
        finally:
            _release(engine)
        return result, analysis_message(board, result, "analysis", job.spec, done=True)
    if job.kind == "review":
        engine = make_seat_engine(job.spec)
        engine.stop = stop
        try:
            return _review(engine, board, job.seconds or 0.5, stop, emit)
        finally:
            _release(engine)
    if job.kind == "solve":
        return _solve(board, stop, emit)
    raise ValueError(f"unknown search kind {job.kind!r}")


def _analyse(engine: Engine, board: Board, job: Job, stop: threading.Event,
             emit: Callable[[dict], None]) -> PlayResult:
    if job.seconds is not None:
        return engine.analyse(board, Limit(time=job.seconds))
    # until stopped: slices of growing length (an engine that keeps its tree, such as mcts,
    # goes on where it was; one that starts afresh searches deeper each time), each slice's
    # answer streamed; an engine that settles the position (a solver's exact answer) or ends a
    # slice early by itself has nothing more to find
    spent, piece = 0.0, FIRST_SLICE
    while True:
        piece = min(piece, UNTIL_STOPPED - spent)
        result = engine.analyse(board, Limit(time=piece))
        spent += piece
        if stop.is_set() or spent >= UNTIL_STOPPED or result.info.get("exact") \
                or result.info.get("proven") or result.time_s < 0.5 * piece:
            return result
        emit(analysis_message(board, result, "analysis", job.spec, done=False))
        piece = min(piece * 2, LONGEST_SLICE)


def _review(engine: Engine, final: Board, seconds: float, stop: threading.Event,
            emit: Callable[[dict], None]) -> list[float]:
    history = final.move_stack
    replay = final.copy()
    for _ in history:
        replay.pop()
    rates: list[float] = []
    for ply in range(len(history) + 1):
        if stop.is_set():
            break
        if replay.is_game_over():
            out = replay.outcome()
            rate = 0.5 if out.winner is None else float(out.winner == Color.BLACK)
        else:
            result = engine.analyse(replay, Limit(time=seconds))
            mine = 0.5 if result.value is None else (result.value + 1) / 2
            rate = mine if replay.turn == Color.BLACK else 1 - mine
        rates.append(round(rate, 4))
        emit({"type": "review", "done": ply + 1, "total": len(history) + 1, "ply": ply,
              "black_winrate": rates[-1]})
        if ply < len(history):
            replay.push(history[ply])
    return rates


def solve_time(board: Board) -> float:
    """The seconds a solve of ``board`` may search: longer where a stop ends the solver's
    search at once (the page's Stop), a few seconds where it does not."""
    from boardai.engines.solver import stoppable
    return SOLVE_TIME_STOPPABLE if stoppable(board) else SOLVE_TIME


def solve_message(board: Board, result: PlayResult, solving: bool, stopped: bool) -> dict:
    """The page's solve message from the ``solver`` engine's (running or final) answer:
    ``scores`` of the moves settled, ``unsettled`` the moves with a spot that are not (yet),
    ``solving`` while the search goes on, ``stopped`` when a stop ended it early."""
    info = result.info
    scores = {name: int(v) for name, v in (info.get("scores") or {}).items()}
    exact = bool(info.get("exact")) and not solving
    unsettled = [name for m in board.legal_moves
                 if (name := board.move_name(m)) not in scores and board.spot_of(m) is not None]
    return {"type": "solve", "ply": board.ply, "exact": exact, "solving": solving,
            "stopped": bool(stopped and unsettled), "scores": scores,
            "spots": {name: (None if (s := board.spot_of(board.parse_move(name))) is None
                             else list(s)) for name in scores},
            "unsettled": unsettled, "best": result.name,
            "note": "solving" if solving else "stopped" if stopped and unsettled else
            info.get("why") or info.get("fallback") or ("exact" if exact else "not solved")}


def _solve(board: Board, stop: threading.Event, emit: Callable[[dict], None]) -> dict:
    """The game's solver on ``board`` (no mcts in its place: ``solver:fallback=0``), each move
    sent through ``emit`` as it settles; ``stop`` ends it with what is settled."""
    engine = make_engine("solver:fallback=0")
    many = len(board.legal_moves) > SOLVE_MANY_MOVES
    last = [0.0]

    def on_info(result: PlayResult) -> None:
        now = time.monotonic()
        if stop.is_set() or (many and now - last[0] < SOLVE_INFO_EVERY):
            return
        last[0] = now
        emit(solve_message(board, result, solving=True, stopped=False))

    try:    # compiling the solver (first use, cold cache) is not solving time
        engine.warm_up(board, analyse=True)
        engine.stop = stop
        engine.on_info = on_info
        result = engine.analyse(board, Limit(time=solve_time(board)))
    finally:
        _release(engine)
    return solve_message(board, result, solving=False, stopped=stop.is_set())


def _lower_priority() -> None:
    """Run this search thread at a lower priority than the loop that answers (Linux threads
    have their own nice value); a timed engine still gets its full wall-clock time."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICE)
    except (AttributeError, OSError):
        pass


class Ticket:
    """A submitted search: ``stop()`` ends it (its answer, if any, still comes to ``on_done``)."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self._stop = stop

    def stop(self) -> None:
        self._stop()


class Searches:
    """The face both kinds of pool share (see the module's docstring)."""

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def submit(self, job: Job, on_message: Callable[[dict], None],
               on_done: Callable[[Any, BaseException | None], None]) -> Ticket:
        raise NotImplementedError

    def release(self, game: str) -> None:
        """Close the engines of ``game``'s seats."""

    def close(self) -> None:
        """Stop every search and worker."""


class ThreadSearches(Searches):
    """Searches in threads of this process (the jitted searches release the interpreter lock
    while they run; their Python between slices does not)."""

    def __init__(self, threads: int = 64) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="boardai-search",
                                       initializer=_lower_priority)
        self.engines = Engines()
        self.loop: asyncio.AbstractEventLoop | None = None

    def submit(self, job, on_message, on_done) -> Ticket:
        loop = self.loop or asyncio.get_running_loop()
        stop = threading.Event()

        def task() -> None:
            try:
                result = run_job(job, self.engines, stop,
                                 lambda m: loop.call_soon_threadsafe(on_message, m))
            except BaseException as exc:        # an engine's fault goes to the caller
                loop.call_soon_threadsafe(on_done, None, exc)
            else:
                loop.call_soon_threadsafe(on_done, result, None)

        self.pool.submit(task)
        return Ticket(stop.set)

    def release(self, game: str) -> None:
        self.engines.release(game)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.engines.close()


# --- worker processes -------------------------------------------------------------------------

WARM_BOARDS = ("hex 9", "hex 11", "connect4 7x6")    # the common engines' searches loaded at start
WARM_SPECS = ("mcts",)


def _warm_worker() -> None:
    """Load the compiled searches of the common engines (numba's cache: once per process), so
    a worker's first game waits for nothing."""
    from boardai.games.setup import BoardSetup
    for text in WARM_BOARDS:
        board = BoardSetup.parse(text).make_board()
        for spec in WARM_SPECS:
            try:
                engine = make_engine(spec)
                try:
                    engine.warm_up(board)
                finally:
                    engine.close()
            except Exception:                # noqa: BLE001 - a warm-up is only a head start
                pass


def _worker_main(conn, warm: bool) -> None:
    """A worker process: reads jobs, stops and releases from ``conn``; sends back live messages
    and answers.  Ends when the connection closes."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 5)
    except (AttributeError, OSError):
        pass
    _few_malloc_arenas()
    send_lock = threading.Lock()

    def send(item: tuple) -> None:
        """Send ``item``; a closed pipe is ignored (the caller has gone), an answer that
        cannot be pickled raises."""
        with send_lock:
            try:
                conn.send(item)
            except (OSError, EOFError):
                pass

    engines = Engines()
    stops: dict[int, threading.Event] = {}
    pool = ThreadPoolExecutor(max_workers=THREADS_PER_WORKER, thread_name_prefix="search",
                              initializer=_lower_priority)
    if warm:
        threading.Thread(target=_warm_worker, name="warm", daemon=True).start()

    def task(jid: int, job: Job, stop: threading.Event) -> None:
        try:
            try:
                result = run_job(job, engines, stop, lambda m: send(("message", jid, m)))
            except BaseException as exc:        # noqa: BLE001 - said to the caller
                send(("done", jid, None, _error_text(exc)))
                return
            try:
                send(("done", jid, result, None))
            except Exception as exc:            # noqa: BLE001 - an answer that does not pickle
                send(("done", jid, None, f"the answer could not be sent back: {exc}"))
        finally:
            stops.pop(jid, None)

    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            break
        what = item[0]
        if what == "job":
            _, jid, job = item
            stop = stops[jid] = threading.Event()
            pool.submit(task, jid, job, stop)
        elif what == "stop":
            stop = stops.get(item[1])
            if stop is not None:
                stop.set()
        elif what == "release":
            engines.release(item[1])
            _give_back_memory()
        elif what == "ping":
            send(("pong", item[1]))
        elif what == "exit":
            break
    for stop in list(stops.values()):
        stop.set()
    pool.shutdown(wait=False, cancel_futures=True)
    engines.close()


MALLOC_ARENAS = 4                # glibc heaps a worker's search threads share (M_ARENA_MAX)


@functools.cache
def _glibc():
    """The C library when it is glibc (its malloc tuning calls), else None; loaded once."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def _few_malloc_arenas() -> None:
    """Let the search threads share a few malloc arenas (glibc makes up to eight a core, one
    per thread that allocates while another holds one): memory freed in one arena serves the
    next game's trees wherever it searches, instead of waiting in an idle thread's arena.  The
    searches allocate once per engine, so the arenas are not contended."""
    libc = _glibc()
    if libc is not None:
        libc.mallopt(-8, MALLOC_ARENAS)        # -8: M_ARENA_MAX


def _give_back_memory() -> None:
    """Hand the freed heap pages back to the system (glibc's ``malloc_trim``): a released game's
    trees were freed into the malloc arenas of the threads that searched, which keep them."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def _error_text(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class _Worker:
    """One worker process and the searches it runs (the caller's side)."""

    def __init__(self, pool: "ProcessSearches", slot: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pool = pool
        self.slot = slot
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, pool.warm),
                                   name=f"boardai-search-{slot}", daemon=True)
        self.process.start()
        child.close()
        self.pending: dict[int, tuple[Callable, Callable]] = {}
        self.send_lock = threading.Lock()
        self.alive = True
        self.reader = threading.Thread(target=self._read, name=f"boardai-search-reader-{slot}",
                                       daemon=True)
        self.reader.start()

    def send(self, item: tuple) -> bool:
        with self.send_lock:
            if not self.alive:
                return False
            try:
                self.conn.send(item)
                return True
            except (OSError, EOFError, BrokenPipeError):
                return False

    def _read(self) -> None:
        while True:
            try:
                item = self.conn.recv()
            except (EOFError, OSError):
                break
            except Exception:                       # noqa: BLE001 - an answer that does not load
                continue
            what = item[0]
            if what == "message":
                entry = self.pending.get(item[1])
                if entry is not None:
                    self.pool.call(entry[0], item[2])
            elif what == "done":
                entry = self.pending.pop(item[1], None)
                if entry is not None:
                    error = None if item[3] is None else EngineError(item[3])
                    self.pool.call(entry[1], item[2], error)
            elif what == "pong":
                self.pool._pong(item[1])
        self.pool._lost(self)


class ProcessSearches(Searches):
    """Searches in ``workers`` worker processes (see the module's docstring).  A game's
    searches all go to one worker (its engines live there), games are spread over the workers
    by how many each holds."""

    def __init__(self, workers: int = 2, warm: bool = True) -> None:
        self.warm = warm
        self.loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._closed = False
        self._pongs: dict[int, threading.Event] = {}
        self.assigned: dict[str, int] = {}            # game id -> worker slot
        self.workers = [_Worker(self, i) for i in range(max(1, workers))]
        self.restarts = 0

    # --- the caller's loop -------------------------------------------------------------
    def call(self, fn: Callable, *args: Any) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:                         # the loop stopped meanwhile
            pass

    def _worker_for(self, game: str | None) -> _Worker:
        with self._lock:
            if game is not None and game in self.assigned:
                return self.workers[self.assigned[game]]
            counts = [0] * len(self.workers)
            for slot in self.assigned.values():
                counts[slot] += 1
            slot = min(range(len(self.workers)), key=lambda i: (counts[i],
                                                                len(self.workers[i].pending)))
            if game is not None:
                self.assigned[game] = slot
            return self.workers[slot]

    def submit(self, job, on_message, on_done) -> Ticket:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        game = job.key[0] if job.key else None
        worker = self._worker_for(game)
        jid = next(self._ids)
        worker.pending[jid] = (on_message, on_done)
        if not worker.send(("job", jid, job)):
            worker.pending.pop(jid, None)
            self.call(on_done, None, WorkerLost("the search worker is restarting: try again"))
            return Ticket(lambda: None)
        return Ticket(lambda: worker.send(("stop", jid)))

    def release(self, game: str) -> None:
        with self._lock:
            slot = self.assigned.pop(game, None)
        if slot is not None:
            self.workers[slot].send(("release", game))

    # --- the readers' threads ----------------------------------------------------------
    def _pong(self, n: int) -> None:
        event = self._pongs.pop(n, None)
        if event is not None:
            event.set()

    def _lost(self, worker: _Worker) -> None:
        """``worker``'s connection ended: fail its searches, start a fresh worker in its slot
        (unless the pool is closing)."""
        with worker.send_lock:
            worker.alive = False
        worker.process.join(5)
        code = worker.process.exitcode
        pending, worker.pending = worker.pending, {}
        if self._closed:
            return
        why = f"the search worker stopped (exit code {code})" if code is not None else \
            "the search worker stopped"
        with self._lock:
            if self._closed:
                return
            self.workers[worker.slot] = _Worker(self, worker.slot)
            self.restarts += 1
        for _, on_done in pending.values():
            self.call(on_done, None, WorkerLost(f"{why}; it was replaced"))

    # --- for tests and shutdown ---------------------------------------------------------
    def ping(self, timeout: float = 60.0) -> bool:
        """True when every worker answers (it has started and reads its pipe)."""
        events = []
        for worker in list(self.workers):
            n = next(self._ids)
            event = self._pongs[n] = threading.Event()
            if not worker.send(("ping", n)):
                return False
            events.append(event)
        return all(e.wait(timeout) for e in events)

    def close(self) -> None:
        self._closed = True
        for worker in self.workers:
            worker.send(("exit",))
            with worker.send_lock:
                worker.alive = False
                worker.conn.close()
        for worker in self.workers:
            worker.process.join(2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(2)
