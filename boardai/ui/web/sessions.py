"""The games the web page plays: one ``GameSession`` per game, kept by ``Sessions``.

A session holds the board, who sits on each side (``human`` or an engine built from its spec),
the clocks, the win-rate known after each move, and at most one running search: the engine's
own move, an analysis, a review of the whole game or a solve.  Everything that changes a session
runs on the server's event loop; searches run in worker threads (the jitted searches release
the GIL) on a copy of the board, send live snapshots back through ``loop.call_soon_threadsafe``
and stop early through ``Engine.stop``.  A search's answer is applied only if the game has not
changed since it started (each change bumps ``generation``), so an undo or a closed tab never
receives a stale move.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from boardai import records
from boardai.engines.base import Engine, EngineError, Limit, PlayResult
from boardai.engines.budget import move_limit
from boardai.engines.registry import all_engines, make_engine, parse_spec
from boardai.games import DEFAULT_GAME, all_games, game_of, get_game
from boardai.games.setup import BoardSetup
from boardai.games.base import Board, Color, MoveError

DEFAULT_MOVE_TIME = 1.0
MAX_MOVE_TIME = 60.0
MAX_ANALYSIS_TIME = 600.0
MAX_REVIEW_TIME = 30.0            # per position
SOLVE_TIME = 5.0
FIRST_SLICE = 2.0                # analysis until stopped: slices of 2, 4, 8 ... 30 s
LONGEST_SLICE = 30.0
UNTIL_STOPPED = 3600.0           # ... for at most an hour (a page left open stops there)
MULTI_PV = 3                     # candidate moves whose line an analysis message carries
ENGINE_MEMORY_MB = 128           # engines with a memory option get this unless their spec says
MAX_GAMES = 64                   # live games; a new one beyond it is refused
WEB_RECORD = "-web-"             # in the names of the records of the server's games
MAX_LISTENER_BACKLOG = 200       # messages queued for one websocket before old ones are dropped
INFO_EVERY = 0.25                # seconds between analysis messages of one search


class WebError(ValueError):
    """A request the server refuses; the message says what is accepted (HTTP 400)."""


class NotFound(WebError):
    """No such game, store or stored game (HTTP 404)."""


class Full(WebError):
    """The server already keeps as many live games as it may (HTTP 409)."""


def _colour_name(c: Color) -> str:
    return c.name.lower()


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
        engine = make_engine(spec)
        declared = {o.name for o in engine.all_options()}
        if "memory_mb" in declared and "memory_mb" not in raw:
            engine.close()
            engine = make_engine(spec, memory_mb=ENGINE_MEMORY_MB)
    except ValueError as exc:
        raise WebError(str(exc)) from None
    return engine



def check_seconds(value: Any, what: str, most: float, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not \
            0 < float(value) <= most:
        raise WebError(f"{what} must be a number of seconds in (0, {most:g}], not {value!r}")
    return float(value)


@dataclass
class Seat:
    spec: str                          # "human" or an engine spec
    engine: Engine | None = None
    # one search at a time per engine: a cancelled search that has not yet returned (an engine
    # that cannot stop early) holds it until it does
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def human(self) -> bool:
        return self.engine is None


@dataclass
class Search:
    kind: str                          # engine | analysis | review | solve
    generation: int
    stop: threading.Event = field(default_factory=threading.Event)
    engine: Engine | None = None
    own_engine: bool = False           # built for this search (closed when it ends)


class GameSession:
    """One game on the page (see the module's docstring)."""

    def __init__(self, gid: str, board: Board, seats: tuple[Seat, Seat], move_time: float,
                 manager: "Sessions"):
        self.id = gid
        self.board = board
        self.seats = seats
        self.move_time = move_time
        self.manager = manager
        # per move played: ply, name, colour, time_s, black_winrate (the state's move list)
        self.move_meta: list[dict] = []
        replay = board.copy()
        for _ in board.move_stack:
            replay.pop()
        for move in board.move_stack:
            self.move_meta.append(_move_entry(replay, move, None))
            replay.push(move)
        self.start_rate: float | None = None   # Black's win rate before any move
        self.clocks = [0.0, 0.0]
        self.turn_started = time.monotonic()
        self.resigned: Color | None = None
        self.fault: str | None = None          # an engine that failed ends the game
        self.message: str | None = None
        self.generation = 0
        self.search: Search | None = None
        self.analysis: tuple[str, float] | None = None    # (spec, seconds) while analysis is on
        self.listeners: set[asyncio.Queue] = set()
        self.last_used = time.monotonic()
        self.closed = False
        self.record_path: Path | None = None    # where the game is recorded (None: not)
        self.record_lock: tuple[int, Path] | None = None   # held while this server plays it

    # --- facts ----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.board.is_game_over() or self.resigned is not None or self.fault is not None

    def seat_to_move(self) -> Seat:
        return self.seats[int(self.board.turn)]

    def state(self) -> dict:
        board = self.board
        game = game_of(board)
        view = board.view()
        if self.resigned is not None and not board.is_game_over():
            view.update(over=True, winner=_colour_name(self.resigned.other),
                        result=f"{self.resigned} resigns; {self.resigned.other} wins")
        elif self.fault is not None and not board.is_game_over():
            view.update(over=True, result=self.fault)
        legal = {}
        if not self.over:
            for m in board.legal_moves:
                spot = board.spot_of(m)
                legal[board.move_name(m)] = None if spot is None else list(spot)
        running = None
        if not self.over:
            running = _colour_name(board.turn)
        clocks = list(self.clocks)
        if running is not None:
            clocks[int(board.turn)] += time.monotonic() - self.turn_started
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
            "start_black_winrate": self.start_rate,
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
        self._after_change()

    def save_record(self, status: str | None = None) -> None:
        """Write the game's record (atomically) if it has a file: ``status`` is ``WEB``'s value,
        by default ``over`` or ``live``.  A record that cannot be written is said on the page
        and not tried again; the game goes on."""
        if self.record_path is None:
            return
        rec = self._game_record()
        rec.extra.update({"WEB": status or ("over" if self.over else "live"), "WID": self.id,
                          "WTM": f"{self.move_time:g}"})
        if self.fault is not None:
            rec.extra["C"] = self.fault
        try:
            self.record_path.parent.mkdir(parents=True, exist_ok=True)
            records.save(rec, self.record_path)
        except (records.RecordError, OSError) as exc:
            self.message = f"the game is no longer recorded: {exc}"
            self.record_path = None

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
            self.search = None

    # --- moves ----------------------------------------------------------------------------
    def _spend_clock(self) -> float:
        now = time.monotonic()
        spent = now - self.turn_started
        self.clocks[int(self.board.turn)] += spent
        self.turn_started = now
        return spent

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
            move = board.parse_move(move) if isinstance(move, str) else move
            entry = _move_entry(board, move, None)
            board.push(move)
        except MoveError as exc:
            raise WebError(str(exc)) from None
        entry["time_s"] = round(self._spend_clock(), 3)
        self.move_meta.append(entry)
        self.message = None
        self._changed()

    def undo(self) -> None:
        """Back to the last position where a human was to move (one move when no human sits)."""
        if not self.board.move_stack:
            raise WebError("no move to take back")
        self.resigned = None
        self.fault = None
        humans = any(s.human for s in self.seats)
        while self.board.move_stack:
            self.board.pop()
            self.move_meta.pop()
            if not humans or self.seat_to_move().human:
                break
        self.turn_started = time.monotonic()
        self.message = None
        self._changed()

    def resign(self) -> None:
        if self.over:
            raise WebError("the game is already over")
        self.resigned = self.board.turn
        self._changed()

    # --- searches -------------------------------------------------------------------------
    def _run(self, search: Search, work: Callable[[], Any], done: Callable[[Any], None],
             failed: Callable[[BaseException], None]) -> None:
        """Run ``work`` in the manager's threads; ``done``/``failed`` on the loop, only if the
        search is still current."""
        self.search = search
        loop = self.manager.loop

        def finish(result: Any, error: BaseException | None) -> None:
            if self.search is not search or self.closed:
                if search.own_engine and search.engine is not None:
                    _release(search.engine)
                return
            self.search = None
            if search.own_engine and search.engine is not None:
                _release(search.engine)
            if error is not None:
                failed(error)
            else:
                done(result)

        def job() -> None:
            try:
                result = work()
            except BaseException as exc:        # an engine's fault ends up on the page
                loop.call_soon_threadsafe(finish, None, exc)
            else:
                loop.call_soon_threadsafe(finish, result, None)

        self.manager.pool.submit(job)

    def _streamer(self, search: Search, source: str, board: Board, spec: str
                  ) -> Callable[[PlayResult], None]:
        loop = self.manager.loop
        last = [0.0]

        def on_info(result: PlayResult) -> None:
            now = time.monotonic()
            if now - last[0] < INFO_EVERY or search.stop.is_set():
                return
            last[0] = now
            message = analysis_message(board, result, source, spec, done=False)
            loop.call_soon_threadsafe(self._publish_if_current, search, message)
        return on_info

    def _publish_if_current(self, search: Search, message: dict) -> None:
        if self.search is search:
            self.publish(message)

    def _start_engine_move(self) -> None:
        seat = self.seat_to_move()
        engine = seat.engine
        assert engine is not None
        board = self.board.copy()
        search = Search("engine", self.generation, engine=engine)
        limit = move_limit(engine, per_move=self.move_time)   # the one rule: engines/budget.py

        def work() -> PlayResult:
            with seat.lock:
                if search.stop.is_set():
                    raise EngineError("cancelled")
                engine.stop = search.stop
                engine.on_info = self._streamer(search, "engine", board, seat.spec)
                return engine.play(board, limit)

        def done(result: PlayResult) -> None:
            mover = self.board.turn
            self._spend_clock()
            if result.resign or result.move < 0:
                self.resigned = mover
                self.message = f"{seat.spec} resigns"
            else:
                try:
                    entry = _move_entry(self.board, result.move, round(result.time_s, 3))
                    self.board.push(result.move)
                except MoveError as exc:
                    self.fault = f"{mover} ({seat.spec}) played an illegal move: {exc}"
                    self.message = self.fault
                    self.generation += 1
                    self.save_record()
                    self.publish_state()
                    return
                rate = None
                if result.value is not None:
                    mine = (result.value + 1) / 2
                    rate = mine if mover == Color.BLACK else 1 - mine
                entry["black_winrate"] = None if rate is None else round(rate, 4)
                self.move_meta.append(entry)
                self.publish(analysis_message(board, result, "engine", seat.spec, done=True))
                for s in self.seats:
                    if s.engine is not None and s.engine is not engine:
                        s.engine.notify(self.board, result.move)
            self._changed()

        def failed(exc: BaseException) -> None:
            mover = self.board.turn
            self.fault = f"{mover}'s engine {seat.spec} failed: {exc}; {mover.other} wins"
            self.message = self.fault
            self.generation += 1
            self.save_record()
            self.publish_state()

        self._run(search, work, done, failed)

    def start_analysis(self, spec: Any, seconds: Any) -> None:
        """Analyse the position with ``spec`` for ``seconds``, or until stopped when
        ``seconds`` is None (slice after slice, as long as the page keeps it on)."""
        seconds = None if seconds is None else check_seconds(seconds, "time",
                                                             MAX_ANALYSIS_TIME, 10.0)
        spec = "mcts" if spec in (None, "") else spec
        build_engine(spec, self.manager.allow_programs).close()      # the spec is checked now
        if self.over:
            raise WebError("the game is over: nothing to analyse")
        if self.search is not None and self.search.kind == "engine":
            raise WebError("an engine is thinking about its move: its thinking is shown")
        self.analysis = (spec, seconds)
        self._cancel_search()
        self._start_analysis(spec, seconds)
        self.publish_state()

    def stop_analysis(self) -> None:
        self.analysis = None
        if self.search is not None and self.search.kind in ("analysis", "review", "solve"):
            self._cancel_search()
        self.publish_state()

    def _start_analysis(self, spec: str, seconds: float | None) -> None:
        engine = build_engine(spec, self.manager.allow_programs)
        board = self.board.copy()
        search = Search("analysis", self.generation, engine=engine, own_engine=True)
        engine.stop = search.stop
        engine.on_info = self._streamer(search, "analysis", board, spec)
        ply = board.ply
        loop = self.manager.loop

        def work() -> PlayResult:
            if seconds is not None:
                return engine.analyse(board, Limit(time=seconds))
            # until stopped: slices of growing length (an engine that keeps its tree, such as
            # mcts, goes on where it was; one that starts afresh searches deeper each time),
            # each slice's answer streamed; an engine that settles the position (a solver's
            # exact answer) or ends a slice early by itself has nothing more to find
            spent, piece = 0.0, FIRST_SLICE
            while True:
                piece = min(piece, UNTIL_STOPPED - spent)
                result = engine.analyse(board, Limit(time=piece))
                spent += piece
                if search.stop.is_set() or spent >= UNTIL_STOPPED or result.info.get("exact") \
                        or result.info.get("proven") or result.time_s < 0.5 * piece:
                    return result
                message = analysis_message(board, result, "analysis", spec, done=False)
                loop.call_soon_threadsafe(self._publish_if_current, search, message)
                piece = min(piece * 2, LONGEST_SLICE)

        def done(result: PlayResult) -> None:
            self._record_rate(ply, board, result)
            self.publish(analysis_message(board, result, "analysis", spec, done=True))
            if seconds is not None:       # until stopped: the next position is analysed too
                self.analysis = None
            self.publish_state()

        def failed(exc: BaseException) -> None:
            self.analysis = None
            self.message = f"analysis with {spec} failed: {exc}"
            self.publish_state()

        self._run(search, work, done, failed)

    def _record_rate(self, ply: int, board: Board, result: PlayResult) -> None:
        if result.value is None or ply != self.board.ply:
            return
        mine = (result.value + 1) / 2
        rate = round(mine if board.turn == Color.BLACK else 1 - mine, 4)
        if ply == 0:
            self.start_rate = rate
        else:
            self.move_meta[ply - 1]["black_winrate"] = rate

    def start_review(self, spec: Any, seconds: Any) -> None:
        """Analyse every position of the game in turn (``seconds`` each), filling the win-rate
        graph; progress and each position's answer are streamed."""
        seconds = check_seconds(seconds, "time", MAX_REVIEW_TIME, 0.5)
        spec = "mcts" if spec in (None, "") else spec
        if self.search is not None and self.search.kind == "engine":
            raise WebError("an engine is thinking about its move: review when it has played")
        engine = build_engine(spec, self.manager.allow_programs)
        self._cancel_search()
        self.analysis = None
        search = Search("review", self.generation, engine=engine, own_engine=True)
        engine.stop = search.stop
        history = self.board.move_stack
        final = self.board.copy()
        loop = self.manager.loop

        def work() -> list[float | None]:
            replay = final.copy()
            for _ in history:
                replay.pop()
            rates: list[float | None] = []
            for ply in range(len(history) + 1):
                if search.stop.is_set():
                    break
                if replay.is_game_over():
                    out = replay.outcome()
                    rate = 0.5 if out.winner is None else float(out.winner == Color.BLACK)
                else:
                    result = engine.analyse(replay, Limit(time=seconds))
                    mine = 0.5 if result.value is None else (result.value + 1) / 2
                    rate = mine if replay.turn == Color.BLACK else 1 - mine
                rates.append(round(rate, 4))
                loop.call_soon_threadsafe(self._publish_if_current, search,
                                          {"type": "review", "done": ply + 1,
                                           "total": len(history) + 1, "ply": ply,
                                           "black_winrate": rates[-1]})
                if ply < len(history):
                    replay.push(history[ply])
            return rates

        def done(rates: list[float | None]) -> None:
            if rates:
                self.start_rate = rates[0]
            for i, rate in enumerate(rates[1:]):
                self.move_meta[i]["black_winrate"] = rate
            self.publish_state()

        def failed(exc: BaseException) -> None:
            self.message = f"review with {spec} failed: {exc}"
            self.publish_state()

        self._run(search, work, done, failed)
        self.publish_state()

    async def solve(self) -> dict:
        """Exact values of the moves here where the game's solver settles them in a few seconds
        (Connect Four: every column's score; Hex: won/lost cells); ``exact`` False otherwise."""
        if self.over:
            raise WebError("the game is over: nothing to solve")
        board = self.board.copy()
        generation = self.generation
        engine = make_engine("solver")

        def work() -> PlayResult:
            import io

            from boardai.warmup import warm_engine
            try:    # compiling the solver (first use, cold cache) is not solving time
                warm_engine(engine, board, out=io.StringIO(), analyse=True)
                return engine.analyse(board, Limit(time=SOLVE_TIME))
            finally:
                engine.close()

        result = await self.manager.loop.run_in_executor(self.manager.pool, work)
        scores = result.info.get("scores") or {}
        answer = {"type": "solve", "ply": board.ply, "exact": bool(result.info.get("exact")),
                  "scores": {name: int(v) for name, v in scores.items()},
                  "spots": {name: (None if (s := board.spot_of(board.parse_move(name))) is None
                                   else list(s)) for name in scores},
                  "best": result.name,
                  "note": result.info.get("fallback") or ("exact" if result.info.get("exact")
                                                          else "not solved")}
        if generation == self.generation:
            self.publish(answer)
        return answer

    def _game_record(self) -> records.GameRecord:
        rec = records.GameRecord.from_board(self.board, black=self.seats[0].spec,
                                            white=self.seats[1].spec)
        if self.resigned is not None and not self.board.is_game_over():
            rec.result = f"{self.resigned.other.letter}+"
            rec.resigned = self.resigned.letter
        return rec

    def sgf(self) -> str:
        return records.dumps(self._game_record())

    def close(self) -> None:
        """Stop the search, release the engines (their hooks point back at this session: the
        links are cut so the memory goes at once, not at the next cycle collection)."""
        self.closed = True
        self._cancel_search()
        for seat in self.seats:
            if seat.engine is not None:
                _release(seat.engine)
                seat.engine = None
        self.publish({"type": "closed"})


def _move_entry(board: Board, move: int, time_s: float | None) -> dict:
    """The move list's entry for ``move`` about to be played on ``board``."""
    return {"ply": board.ply + 1, "name": board.move_name(move),
            "color": _colour_name(board.turn), "time_s": time_s, "black_winrate": None}


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


def _release(engine: Engine) -> None:
    engine.on_info = None
    engine.stop = None
    engine.close()


SEARCH_NICE = 19      # search threads yield the CPU to the event loop that answers the page


def _lower_priority() -> None:
    """Run this search thread at a lower priority than the server's event loop (Linux threads
    have their own nice value), so moves and messages go out at once however many engines
    think; a timed engine still gets its full wall-clock time."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICE)
    except (AttributeError, OSError):
        pass


def _return_memory() -> None:
    """Give freed memory back to the system (glibc keeps freed search trees for reuse)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


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


def solvable(board: Board) -> dict:
    """Whether Solve can settle this board: ``{"ok": bool, "why": text or None}`` (the page
    disables its button with ``why``).  The game's solver takes it, or it is an endgame that a
    search to the end settles."""
    from boardai import solvers
    from boardai.engines.solver import EXACT_FREE_CELLS
    from boardai.games import kernel as K

    module = solvers.for_game(board.game_name)
    if module is not None and module.Player.supports(board):
        return {"ok": True, "why": None}
    free = int(K.free_cells(board.state))
    if free <= EXACT_FREE_CELLS:
        return {"ok": True, "why": None}
    title = game_of(board).title
    what = (f"{title} has no exact solver" if module is None else
            f"the {title} solver does not take {board.size_text}"
            f"{' with blocked cells' if board.setup else ''}")
    return {"ok": False, "why": f"{what}; a search to the end settles it once at most "
                                f"{EXACT_FREE_CELLS} cells are empty ({free} now)"}


def analysis_message(board: Board, result: PlayResult, source: str, spec: str,
                     done: bool) -> dict:
    """What the page draws from an engine's (running or final) answer on ``board``:
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


class Sessions:
    """Every live game of the server, by id; the thread pool searches run in."""

    def __init__(self, allow_programs: bool = False, max_games: int = MAX_GAMES,
                 threads: int = MAX_GAMES, games_dir: Path | None = None):
        self.allow_programs = allow_programs
        self.max_games = max_games
        self.games_dir = games_dir
        self.games: OrderedDict[str, GameSession] = OrderedDict()
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="boardai-search",
                                       initializer=_lower_priority)
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop or asyncio.get_running_loop()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def get(self, gid: str) -> GameSession:
        session = self.games.get(gid)
        if session is None:
            raise NotFound(f"no game {gid!r} (it was closed, or the server restarted)")
        session.last_used = time.monotonic()
        return session

    def _add(self, board: Board, seats: tuple[Seat, Seat], move_time: float,
             gid: str | None = None, record_path: Path | None = None) -> GameSession:
        if len(self.games) >= self.max_games:
            for seat in seats:
                if seat.engine is not None:
                    seat.engine.close()
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
                    seats.append(Seat(spec, build_engine(spec, self.allow_programs)))
                except WebError as exc:
                    seats.append(Seat("human"))
                    notes.append(f"{colour}'s engine {spec} cannot be started here ({exc}): "
                                 "a human plays it")
            lock = _claim(path)
            if lock is None:                    # another server plays it
                for seat in seats:
                    if seat.engine is not None:
                        seat.engine.close()
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
        try:
            for spec in (black, white):
                if isinstance(spec, str) and spec.strip().lower() == "human":
                    seats.append(Seat("human"))
                else:
                    engine = build_engine(spec, self.allow_programs)
                    seats.append(Seat(spec.strip(), engine))
        except WebError:
            for seat in seats:
                if seat.engine is not None:
                    seat.engine.close()
            raise
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
        self.pool.shutdown(wait=False, cancel_futures=True)
