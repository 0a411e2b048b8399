"""The games the web page plays: one ``GameSession`` per game, kept by ``Sessions``.

A session holds the board, who sits on each side (``human`` or an engine built from its spec),
the clocks, the win-rate known after each move, and at most one running search -- the engine's
own move, an analysis or a review of the whole game -- and beside it at most one solve, whose
moves are published as they settle.  Everything that changes a session runs on the server's
event loop; searches run elsewhere (``boardai.session.searches``: worker processes for
``boardai serve``, so no search holds the interpreter lock of the loop; threads of this process
for tests and scripts) on a copy of the board, send live snapshots back to the loop and stop
early when told.  A search's answer is applied only if the game has not
changed since it started (each change bumps ``generation``), so an undo or a closed tab never
receives a stale move.  A worker process that dies loses its search, not the game: the engine's
move is asked again.

Listeners (one ``asyncio.Queue`` per open websocket) receive every message; a slow listener's
oldest messages are dropped, never the game.

With a games folder (``boardai serve`` uses ``$BOARDAI_HOME/games``, where ``play`` records
too), every game is recorded after every change, as ``play`` records its games, in
``<date>-<time>-<game>-web-<id>.sgf``; the root's ``WEB`` property says whether the game is
``live``, ``over`` or was ``closed`` on the page (``WID``: its id, ``WTM``: the engines' seconds
per move).  At start-up the live ones -- games the server was playing when it stopped or was
killed -- are played on again.  While a server plays a recorded game it holds a lock on it
(``.web-locks/`` beside the records; the system drops it when the process dies, ``kill -9``
included), so a second server on the same folder does not play the same game on.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import os
import random
import re
import threading
import time
from collections import OrderedDict
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Callable

from boardai import records
from boardai._files import write_atomic
from boardai.engines.base import Engine, PlayResult
from boardai.engines.registry import all_engines, parse_spec
from boardai.games import DEFAULT_GAME, all_games, game_of, get_game
from boardai.games.setup import BoardSetup
from boardai.games.base import Board, Color, MoveError
from boardai.session.core import GameCore, Seat, black_rate, colour_name
from boardai.session.searches import (   # noqa: F401  (analysis_message: the page's format)
    ENGINE_MEMORY_MB, INFO_EVERY, MULTI_PV, SOLVE_TIME, Job, Searches, ThreadSearches, Ticket,
    WorkerLost, analysis_message, make_seat_engine,
)

DEFAULT_MOVE_TIME = 1.0
MAX_MOVE_TIME = 60.0
MAX_ANALYSIS_TIME = 600.0
MAX_REVIEW_TIME = 30.0            # per position
MAX_GAMES = 64                   # live games; a new one beyond it is refused
WEB_RECORD = "-web-"             # in the names of the records of the server's games
MAX_LISTENER_BACKLOG = 200       # messages queued for one websocket before old ones are dropped
ENGINE_RETRIES = 2               # a move asked again after its worker process died, at most


class WebError(ValueError):
    """A request the server refuses; the message says what is accepted (HTTP 400)."""


class NotFound(WebError):
    """No such game, store or stored game (HTTP 404)."""


class Full(WebError):
    """The server already keeps as many live games as it may (HTTP 409)."""


_colour_name = colour_name


def build_engine(spec: str, allow_programs: bool) -> Engine:
    """The engine a seat's spec names, with the page's memory cap; WebError with the registry's
    message for a bad spec."""
    if not isinstance(spec, str) or not spec.strip():
        raise WebError("an engine spec is text such as mcts or mcts:time=2 (see /api/meta)")
    if len(spec) > 500:
        raise WebError("an engine spec is at most 500 characters")
    try:
        name, raw = parse_spec(spec)
    except ValueError as exc:
        raise WebError(str(exc)) from None
    cls = all_engines().get(name)
    if cls is not None and cls.reads_local_files(raw) and not allow_programs:
        raise WebError(f"{name}: engines that run or read files of this machine (a program, a "
                       "library, a network file) are refused by this server (start it with "
                       "--allow-programs to use them)")
    try:
        return make_seat_engine(spec)
    except ValueError as exc:
        raise WebError(str(exc)) from None


def check_spec(spec: Any, allow_programs: bool) -> str:
    """``spec`` stripped, once this server may seat it (the engine is built and closed: its
    searches run where ``Searches`` runs them); WebError otherwise."""
    build_engine(spec, allow_programs).close()
    return spec.strip()


def check_seconds(value: Any, what: str, most: float, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not \
            0 < float(value) <= most:
        raise WebError(f"{what} must be a number of seconds in (0, {most:g}], not {value!r}")
    return float(value)


@dataclass
class Search:
    kind: str                          # engine | analysis | review (self.search), solve
    generation: int
    stop: threading.Event = field(default_factory=threading.Event)
    ticket: Ticket | None = None


class GameSession:
    """One game on the page (see the module's docstring)."""

    def __init__(self, gid: str, board: Board, seats: tuple[Seat, Seat], move_time: float,
                 manager: "Sessions"):
        self.id = gid
        # the game itself (board, seats, move list, clocks, undo, record): the session core
        # every front-end drives; the seats' engines live where the searches run
        self.core = GameCore(board, seats[0], seats[1], move_time=move_time)
        self.manager = manager
        self.message: str | None = None
        self.generation = 0
        self.search: Search | None = None
        self.solving: Search | None = None       # a solve runs beside the search
        self.analysis: tuple[str, float] | None = None    # (spec, seconds) while analysis is on
        self.listeners: set[asyncio.Queue] = set()
        self.last_used = time.monotonic()
        self.closed = False
        self.record_path: Path | None = None    # where the game is recorded (None: not)
        self.record_lock: tuple[int, Path] | None = None   # held while this server plays it
        self.retries = 0                        # engine moves asked again after a lost worker

    # --- facts ----------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.core.board

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return self.core.seats[Color.BLACK], self.core.seats[Color.WHITE]

    @property
    def move_time(self) -> float:
        return self.core.move_time

    @property
    def move_meta(self) -> list[dict]:
        """Per move played: ply, name, colour, time_s, black_winrate (the state's move list)."""
        return self.core.moves

    @property
    def over(self) -> bool:
        return self.core.over

    def seat_to_move(self) -> Seat:
        return self.core.seat_to_move()

    def state(self) -> dict:
        board = self.board
        game = game_of(board)
        view = board.view()
        core = self.core
        if core.resigned is not None and not board.is_game_over():
            view.update(over=True, winner=_colour_name(core.resigned.other),
                        result=core.result_text())
        elif core.fault is not None and not board.is_game_over():
            view.update(over=True, result=core.fault)
        legal = {}
        if not self.over:
            for m in board.legal_moves:
                spot = board.spot_of(m)
                legal[board.move_name(m)] = None if spot is None else list(spot)
        running = None
        if not self.over:
            running = _colour_name(board.turn)
        clocks = core.clocks_now()
        moves = [dict(entry) for entry in self.move_meta]
        search = self.search
        return {
            "id": self.id, "game": board.game_name, "title": game.title,
            "size": board.size_text if not game.square_sizes or board.width != board.height
            else str(board.width),
            "swap": bool(getattr(board, "swap_allowed", False)),
            "blocked": game.blocked_text(board.setup),
            "players": {"black": self.seats[0].spec, "white": self.seats[1].spec},
            "time": self.move_time, "view": view, "moves": moves, "legal": legal,
            "start_black_winrate": core.start_rate,
            "clocks": {"black": round(clocks[0], 3), "white": round(clocks[1], 3),
                       "running": running},
            "thinking": _colour_name(board.turn) if search and search.kind == "engine" else None,
            "analysing": bool(search and search.kind in ("analysis", "review")),
            "analysis": None if self.analysis is None else
            {"engine": self.analysis[0], "time": self.analysis[1]},
            "message": self.message, "edges": view["edges"],
            "solvable": solvable(board),
        }

    def summary(self) -> dict:
        return {"id": self.id, "game": self.board.game_name, "size": self.board.size_text,
                "players": {"black": self.seats[0].spec, "white": self.seats[1].spec},
                "ply": self.board.ply, "over": self.over}

    def view_at(self, ply: int) -> dict:
        history = self.board.move_stack
        if not 0 <= ply <= len(history):
            raise WebError(f"ply must be 0..{len(history)} (the moves played), not {ply}")
        replay = self.board.copy()
        for _ in range(len(history) - ply):
            replay.pop()
        return replay.view()

    # --- messages -------------------------------------------------------------------------
    def publish(self, message: dict) -> None:
        for queue in list(self.listeners):
            while queue.qsize() >= MAX_LISTENER_BACKLOG:
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    break
            queue.put_nowait(message)

    def publish_state(self) -> None:
        self.publish({"type": "state", "state": self.state()})

    def _changed(self) -> None:
        """The position changed: recorded, stale searches cancelled, engines move, analysis
        follows."""
        self.generation += 1
        self.last_used = time.monotonic()
        self.save_record()
        self._cancel_search()
        self._stop_solve()
        self._after_change()

    def save_record(self, status: str | None = None) -> None:
        """Write the game's record (atomically) if it has a file: ``status`` is ``WEB``'s value,
        by default ``over`` or ``live``.  A record that cannot be written is said on the page
        and not tried again; the game goes on."""
        if self.record_path is None:
            return
        extra = {"WEB": status or ("over" if self.over else "live"), "WID": self.id,
                 "WTM": f"{self.move_time:g}"}
        if self.core.fault is not None:
            extra["C"] = self.core.fault
        rec = self.core.record()
        rec.extra.update(extra)
        try:
            raw = records.dumps(rec).encode("utf-8")
        except (records.RecordError, UnicodeEncodeError) as exc:
            self._not_recorded(exc)
            return
        self.manager.writer.write(self.record_path, raw, self._not_recorded)

    def _not_recorded(self, exc: BaseException) -> None:
        if self.record_path is None:
            return
        self.message = f"the game is no longer recorded: {exc}"
        self.record_path = None
        self.publish_state()

    def _after_change(self) -> None:
        if not self.over and not self.seat_to_move().human:
            self._start_engine_move()
        elif self.analysis is not None and not self.over:
            self._start_analysis(*self.analysis)
        self.publish_state()

    def _cancel_search(self) -> None:
        search = self.search
        if search is not None:
            search.stop.set()
            if search.ticket is not None:
                search.ticket.stop()
            self.search = None

    # --- moves ----------------------------------------------------------------------------
    def human_move(self, move: Any = None, x: Any = None, y: Any = None) -> None:
        """Play a human's move (its name, or the spot clicked); WebError and nothing changed if
        it is not the human's turn or the move is not legal."""
        if self.over:
            raise WebError(f"the game is over: {self.state()['view']['result']}")
        if not self.seat_to_move().human:
            raise WebError(f"it is {self.board.turn}'s move and {self.seat_to_move().spec} "
                           "plays it: wait for the engine")
        board = self.board
        if move is None:
            if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) \
                    or not isinstance(y, int):
                raise WebError('a move is {"move": "c3"} or a spot {"x": 2, "y": 0}')
            played = board.move_at(x, y)
            if played is None:
                if not (0 <= x < board.width and 0 <= y < board.height):
                    raise WebError(f"({x}, {y}) is off the {board.size_text} board")
                raise WebError(f"no legal move at {board.labels()[0][x]}"
                               f"{board.labels()[1][y]}" if not board.drops else
                               f"column {board.labels()[0][x]} is full")
            move = played
        elif not isinstance(move, str) or len(move) > 40:
            raise WebError('a move is text such as "c3" (Hex) or "4" (Connect Four)')
        try:
            self.core.play(move)
        except MoveError as exc:
            raise WebError(str(exc)) from None
        self.message = None
        self._changed()

    def undo(self) -> None:
        """Back to the last position where a human was to move (one move when no human sits)."""
        if not self.board.move_stack:
            raise WebError("no move to take back")
        self.core.undo()
        self.message = None
        self._changed()

    def resign(self) -> None:
        if self.over:
            raise WebError("the game is already over")
        self.core.resign()
        self._changed()

    # --- searches -------------------------------------------------------------------------
    def _run(self, search: Search, job: Job, done: Callable[[Any], None],
             failed: Callable[[BaseException], None]) -> None:
        """Run ``job`` where the manager's searches run; its live messages are published and
        ``done``/``failed`` called (on the loop) only while the search is still current."""
        self.search = search

        def on_message(message: dict) -> None:
            self._publish_if_current(search, message)

        def on_done(result: Any, error: BaseException | None) -> None:
            if self.search is not search or self.closed:
                return
            self.search = None
            if error is not None:
                failed(error)
            else:
                done(result)

        search.ticket = self.manager.searches.submit(job, on_message, on_done)
        if search.stop.is_set():              # cancelled while being submitted
            search.ticket.stop()

    def _publish_if_current(self, search: Search, message: dict) -> None:
        if self.search is search:
            self.publish(message)

    def _start_engine_move(self) -> None:
        seat = self.seat_to_move()
        colour = int(self.board.turn)
        search = Search("engine", self.generation)
        # the limit is the one rule's (engines/budget.py: move_limit), applied where it searches
        job = Job("move", self.board.copy(), seat.spec, key=(self.id, colour),
                  per_move=self.move_time)

        def done(answer: tuple[PlayResult, dict]) -> None:
            result, message = answer
            mover = self.board.turn
            self.retries = 0
            try:
                played = self.core.play_result(result)
            except MoveError as exc:
                self.core.fault = f"{mover} ({seat.spec}) played an illegal move: {exc}"
                self.message = self.core.fault
                self.generation += 1
                self.save_record()
                self.publish_state()
                return
            if played:
                self.publish(message)
            else:
                self.message = f"{seat.spec} resigns"
            self._changed()

        def failed(exc: BaseException) -> None:
            mover = self.board.turn
            if isinstance(exc, WorkerLost) and self.retries < ENGINE_RETRIES:
                self.retries += 1          # the game is as it was: its engine is asked again
                self.message = f"{exc}: {mover}'s engine {seat.spec} thinks again"
                self._start_engine_move()
                self.publish_state()
                return
            self.core.fault = f"{mover}'s engine {seat.spec} failed: {exc}; {mover.other} wins"
            self.message = self.core.fault
            self.generation += 1
            self.save_record()
            self.publish_state()

        self._run(search, job, done, failed)

    def start_analysis(self, spec: Any, seconds: Any) -> None:
        """Analyse the position with ``spec`` for ``seconds``, or until stopped when
        ``seconds`` is None (slice after slice, as long as the page keeps it on)."""
        seconds = None if seconds is None else check_seconds(seconds, "time",
                                                             MAX_ANALYSIS_TIME, 10.0)
        spec = "mcts" if spec in (None, "") else spec
        spec = check_spec(spec, self.manager.allow_programs)      # the spec is checked now
        if self.over:
            raise WebError("the game is over: nothing to analyse")
        if self.search is not None and self.search.kind == "engine":
            raise WebError("an engine is thinking about its move: its thinking is shown")
        self.analysis = (spec, seconds)
        self._cancel_search()
        self._start_analysis(spec, seconds)
        self.publish_state()

    def stop_analysis(self, what: Any = None) -> None:
        """Stop the analysis or review (``what`` "analysis"), the solve ("solve": it answers
        with the moves it settled) or both (None)."""
        if what not in (None, "analysis", "solve"):
            raise WebError(f'search is "analysis" (an analysis or review), "solve" or left out '
                           f'(both), not {repr(what)[:40]}')
        if what in (None, "solve"):
            self._stop_solve(keep=True)
        if what == "solve":
            return
        self.analysis = None
        if self.search is not None and self.search.kind in ("analysis", "review"):
            self._cancel_search()
        self.publish_state()

    def _start_analysis(self, spec: str, seconds: float | None) -> None:
        board = self.board.copy()
        search = Search("analysis", self.generation)
        ply = board.ply

        def done(answer: tuple[PlayResult, dict]) -> None:
            result, message = answer
            self._record_rate(ply, board, result)
            self.publish(message)
            if seconds is not None:       # until stopped: the next position is analysed too
                self.analysis = None
            self.publish_state()

        def failed(exc: BaseException) -> None:
            self.analysis = None
            self.message = f"analysis with {spec} failed: {exc}"
            self.publish_state()

        self._run(search, Job("analyse", board, spec, seconds=seconds, source="analysis"),
                  done, failed)

    def _record_rate(self, ply: int, board: Board, result: PlayResult) -> None:
        if ply == self.board.ply:
            self.core.set_rate(ply, black_rate(result, board.turn))

    def start_review(self, spec: Any, seconds: Any) -> None:
        """Analyse every position of the game in turn (``seconds`` each), filling the win-rate
        graph; progress and each position's answer are streamed."""
        seconds = check_seconds(seconds, "time", MAX_REVIEW_TIME, 0.5)
        spec = "mcts" if spec in (None, "") else spec
        if self.search is not None and self.search.kind == "engine":
            raise WebError("an engine is thinking about its move: review when it has played")
        spec = check_spec(spec, self.manager.allow_programs)
        self._cancel_search()
        self.analysis = None
        search = Search("review", self.generation)

        def done(rates: list[float]) -> None:
            for ply, rate in enumerate(rates):
                self.core.set_rate(ply, rate)
            self.publish_state()

        def failed(exc: BaseException) -> None:
            self.message = f"review with {spec} failed: {exc}"
            self.publish_state()

        self._run(search, Job("review", self.board.copy(), spec, seconds=seconds), done, failed)
        self.publish_state()

    async def solve(self) -> dict:
        """Exact values of the moves here where the game's solver settles them in its time
        (``searches.solve_time``; Connect Four: every column's score; Hex: won/lost cells);
        ``exact`` False otherwise.  Each move is published as it settles (solve messages with
        ``solving`` true); a stop (``stop_analysis``) ends the solve with the moves settled;
        a new position ends it unpublished.  A second solve replaces the first."""
        if self.over:
            raise WebError("the game is over: nothing to solve")
        self._stop_solve()
        search = Search("solve", self.generation)
        self.solving = search
        answer: asyncio.Future = asyncio.get_running_loop().create_future()

        def on_message(message: dict) -> None:
            if self.solving is search and not self.closed:
                self.publish(message)

        def on_done(result: Any, error: BaseException | None) -> None:
            # current, or stopped by a Stop on the same position (not replaced, not moved on)
            published = self.solving is search or (
                search.stop.is_set() and search.generation == self.generation
                and not self.closed)
            if self.solving is search:
                self.solving = None
            if error is None and published:
                self.publish(result)
            if not answer.done():
                if error is not None:
                    answer.set_exception(error)
                else:
                    answer.set_result(result)

        search.ticket = self.manager.searches.submit(
            Job("solve", self.board.copy(), "solver"), on_message, on_done)
        return await answer

    def _stop_solve(self, keep: bool = False) -> None:
        """Stop the running solve: its answer (the moves settled) is still published when
        ``keep`` (a stop asked for), else only returned to its caller."""
        search = self.solving
        if search is None:
            return
        self.solving = None
        if keep:
            search.stop.set()
        if search.ticket is not None:
            search.ticket.stop()

    def sgf(self) -> str:
        return records.dumps(self.core.record())

    def close(self) -> None:
        """Stop the search, release the engines (their hooks point back at this session: the
        links are cut so the memory goes at once, not at the next cycle collection)."""
        self.closed = True
        self._cancel_search()
        self._stop_solve()
        self.manager.searches.release(self.id)
        self.publish({"type": "closed"})


LOCKS = ".web-locks"


def _claim(record: Path) -> tuple[int, Path] | None | bool:
    """Lock ``record`` for this process (``.web-locks/NAME.lock`` beside it, ``flock``): the lock
    (fd, file); None if another process holds it; False where no lock can be taken (no
    ``fcntl``, a read-only folder): the game is played unlocked."""
    try:
        import fcntl
    except ImportError:
        return False
    lock = record.parent / LOCKS / (record.name + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd, lock


def _unclaim(held: tuple[int, Path] | None | bool) -> None:
    if not held:
        return
    fd, lock = held                                      # type: ignore[misc]
    try:
        lock.unlink()
    except OSError:
        pass
    os.close(fd)


def _return_memory() -> None:
    """Give freed memory back to the system (glibc keeps freed search trees for reuse)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def solvable(board: Board) -> dict:
    """Whether Solve can settle this board: ``{"ok": bool, "why": text or None}`` (the page
    disables its button with ``why``); the rule is the solver engine's (``engines/solver.py``)."""
    from boardai.engines.solver import solvable as engine_solvable

    ok, why = engine_solvable(board)
    return {"ok": ok, "why": why}


class RecordWriter:
    """Writes the games' records in one thread of its own, in order, so the event loop never
    waits for the disk (an atomic write syncs the file: ~10 ms, much more on a busy disk).  A
    record written again before its last write began is written once, with the newer text."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardai-records")
        self.lock = threading.Lock()
        self.latest: dict[Path, tuple[bytes, Callable[[BaseException], None]]] = {}
        self.futures: set = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def write(self, path: Path, raw: bytes, failed: Callable[[BaseException], None]) -> None:
        """Write ``raw`` to ``path`` (atomically, soon); ``failed(error)`` on the loop if it
        cannot be written."""
        with self.lock:
            queued = path in self.latest
            self.latest[path] = (raw, failed)
        if not queued:
            future = self.pool.submit(self._write, path)
            self.futures.add(future)
            future.add_done_callback(self.futures.discard)

    def _write(self, path: Path) -> None:
        with self.lock:
            raw, failed = self.latest.pop(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, raw)
        except OSError as exc:
            error = records.RecordError(f"cannot write the record: {exc.strerror or exc}",
                                        str(path))
            loop = self.loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(failed, error)

    async def flush(self) -> None:
        """Wait until every record asked for so far is written."""
        pending = list(self.futures)
        if pending:
            await asyncio.gather(*(asyncio.wrap_future(f) for f in pending),
                                 return_exceptions=True)

    def close(self) -> None:
        """Write what is queued, then stop."""
        self.pool.shutdown(wait=True)


class Sessions:
    """Every live game of the server, by id, and where their searches run (``searches``:
    threads of this process unless given worker processes)."""

    def __init__(self, allow_programs: bool = False, max_games: int = MAX_GAMES,
                 threads: int = MAX_GAMES, games_dir: Path | None = None,
                 searches: Searches | None = None):
        self.allow_programs = allow_programs
        self.max_games = max_games
        self.games_dir = games_dir
        self.games: OrderedDict[str, GameSession] = OrderedDict()
        self.searches = searches if searches is not None else ThreadSearches(threads)
        self.writer = RecordWriter()
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop or asyncio.get_running_loop()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.searches.bind(loop)
        self.writer.loop = loop

    def get(self, gid: str) -> GameSession:
        session = self.games.get(gid)
        if session is None:
            raise NotFound(f"no game {gid!r} (it was closed, or the server restarted)")
        session.last_used = time.monotonic()
        return session

    def _add(self, board: Board, seats: tuple[Seat, Seat], move_time: float,
             gid: str | None = None, record_path: Path | None = None) -> GameSession:
        if len(self.games) >= self.max_games:
            raise Full(f"this server keeps at most {self.max_games} live games: close one "
                       "(DELETE /api/games/ID) before starting another")
        gid = gid or f"g{next(self._ids)}"
        session = GameSession(gid, board, seats, move_time, self)
        self.games[gid] = session
        if record_path is not None:
            session.record_path = record_path
        elif self.games_dir is not None:
            session.record_path = self._new_record_path(board.game_name, gid)
            session.record_lock = _claim(session.record_path) or None
            session.save_record()
        session._after_change()
        return session

    def _new_record_path(self, game: str, gid: str) -> Path:
        """A file name no record has yet: ``<date>-<time>-<game>-web-<id>.sgf``."""
        assert self.games_dir is not None
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.games_dir / f"{stamp}-{game}{WEB_RECORD}{gid}.sgf"
        n = 2
        while path.exists():
            path = self.games_dir / f"{stamp}-{game}{WEB_RECORD}{gid}-{n}.sgf"
            n += 1
        return path

    def restore(self) -> list[GameSession]:
        """Play on the games the server was playing when it last stopped: the records in the
        games folder still ``live`` (unfinished, not closed), newest last, at most half the
        games the server keeps.  A seat whose engine this server may not start (a program
        without --allow-programs) becomes human, and the game's message says so.  Unreadable
        records are left alone."""
        if self.games_dir is None or not self.games_dir.is_dir():
            return []
        found: list[tuple[float, Path, records.GameRecord, Board]] = []
        for path in self.games_dir.glob(f"*{WEB_RECORD}*.sgf"):
            try:
                rec = records.load(path)
                if rec.extra.get("WEB") != "live" or rec.result:
                    continue
                board = rec.to_board()
                found.append((path.stat().st_mtime, path, rec, board))
            except (records.RecordError, ValueError, OSError):
                continue
        found = sorted((f for f in found if not f[3].is_game_over()),
                       key=lambda f: (f[0], f[1].name))[-(self.max_games // 2):]
        taken = {int(r.extra["WID"][1:]) for _, _, r, _ in found
                 if re.fullmatch(r"g[0-9]{1,9}", r.extra.get("WID", ""))}
        self._ids = itertools.count(max(taken, default=0) + 1)
        restored = []
        for _, path, rec, board in found:
            wid = rec.extra.get("WID", "")
            gid = wid if re.fullmatch(r"g[0-9]{1,9}", wid) and wid not in self.games else None
            try:
                move_time = check_seconds(float(rec.extra.get("WTM", "")), "time",
                                          MAX_MOVE_TIME, DEFAULT_MOVE_TIME)
            except (ValueError, WebError):
                move_time = DEFAULT_MOVE_TIME
            seats, notes = [], []
            for colour, spec in (("Black", rec.black), ("White", rec.white)):
                spec = (spec or "human").strip()
                if spec.lower() == "human":
                    seats.append(Seat("human"))
                    continue
                try:
                    seats.append(Seat(check_spec(spec, self.allow_programs)))
                except WebError as exc:
                    seats.append(Seat("human"))
                    notes.append(f"{colour}'s engine {spec} cannot be started here ({exc}): "
                                 "a human plays it")
            lock = _claim(path)
            if lock is None:                    # another server plays it
                continue
            try:
                session = self._add(board, (seats[0], seats[1]), move_time, gid=gid,
                                    record_path=path)
            except Full:
                _unclaim(lock)
                break
            session.record_lock = lock or None
            session.message = "; ".join(notes) or (
                f"played on after the server restarted ({board.ply} moves)")
            restored.append(session)
        return restored

    def new_game(self, body: dict) -> GameSession:
        """A game from the new-game form (see docs/web.md); WebError naming what is wrong."""
        known = {"game", "size", "swap", "blocked", "seed", "black", "white", "time"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise WebError(f"unknown field(s) {', '.join(unknown)}: a new game takes "
                           f"{', '.join(sorted(known))}")
        name = body.get("game", DEFAULT_GAME)
        if not isinstance(name, str) or name.lower() not in all_games():
            raise WebError(f"game must be one of {', '.join(sorted(all_games()))}, not {name!r}")
        rules = get_game(name.lower())
        size = body.get("size")
        if size is not None and not isinstance(size, (str, int)) or isinstance(size, bool):
            raise WebError(f"size is text such as {rules.size_text(*rules.default_size)}")
        blocked = body.get("blocked") or ()
        if isinstance(blocked, str):
            blocked = tuple(blocked.replace(",", " ").split())
        if not isinstance(blocked, (list, tuple)) or not all(isinstance(b, str) for b in blocked) \
                or len(blocked) > 1024:
            raise WebError('blocked is a list of "COL:ROW" cells (1-based, row 1 at the bottom) '
                           'or "random"')
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed < 2**63):
            raise WebError("seed is an integer from 0 to 2**63-1")
        swap = body.get("swap", False)
        if not isinstance(swap, bool):
            raise WebError("swap is true or false")
        move_time = check_seconds(body.get("time"), "time", MAX_MOVE_TIME, DEFAULT_MOVE_TIME)
        try:
            setup = BoardSetup.from_options(rules.name, str(size) if size is not None else None,
                                            tuple(blocked), swap, random.Random(seed))
        except ValueError as exc:
            raise WebError(str(exc)) from None
        seats = self._seats(body.get("black", "human"), body.get("white", "mcts"))
        return self._add(setup.make_board(), seats, move_time)

    def _seats(self, black: Any, white: Any) -> tuple[Seat, Seat]:
        seats: list[Seat] = []
        for spec in (black, white):
            if isinstance(spec, str) and spec.strip().lower() == "human":
                seats.append(Seat("human"))
            else:
                seats.append(Seat(check_spec(spec, self.allow_programs)))
        return seats[0], seats[1]

    def from_record(self, text: str, black: str = "human", white: str = "human") -> GameSession:
        """A game at the end of an uploaded record, both seats human unless given."""
        try:
            rec = records.loads(text)
            board = rec.to_board()
        except (records.RecordError, ValueError) as exc:
            raise WebError(f"not a record boardai reads: {exc}") from None
        session = self._add(board, self._seats(black, white), DEFAULT_MOVE_TIME)
        return session

    def from_board(self, board: Board) -> GameSession:
        return self._add(board, (Seat("human"), Seat("human")), DEFAULT_MOVE_TIME)

    def close(self, gid: str, keep: bool = False) -> None:
        """Close a game; its record (if any) is marked ``closed`` unless ``keep`` (the server
        stopping: the game is played on at the next start)."""
        session = self.games.pop(gid, None)
        if session is None:
            raise NotFound(f"no game {gid!r}")
        if not keep and not session.over:
            session.save_record("closed")
        session.close()
        if session.record_lock is not None:
            _unclaim(session.record_lock)
            session.record_lock = None
        _return_memory()

    def shutdown(self) -> None:
        for gid in list(self.games):
            self.close(gid, keep=True)
        self.searches.close()
        self.writer.close()
