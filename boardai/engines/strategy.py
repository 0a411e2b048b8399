"""``strategy:PATH``: a strategy for the Tsinghua course's gravity Connect Four (a shared library
exporting ``getPoint`` and ``clearPoint``) as one of our engines, run in a child process.

The course's C interface::

    struct Point { int x; int y; };
    extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                               const int lastX, const int lastY, const int noX, const int noY);
    extern "C" void clearPoint(Point* p);

(coordinates and arrays: ``boardai.games.connect4.course``).  The library is loaded with ctypes
in a child process (``strategy_child.py``, run by path with the standard library only; it first
loads the C++ runtime globally, as the course's referee host does), one per engine, started
when the engine is built: a library that cannot be loaded or lacks one of the two functions is
refused then, with a message saying which (``StrategyLoadError``, a ValueError).  Every move sends the whole position (the course calls its strategies per move with
the full board) and waits for the answer:

* the child dies (a segfault, ``abort``, ``exit``): ``StrategyCrash`` (an ``EngineError``, a
  crash for the arena); ``getPoint`` returning a null pointer is one too;
* no answer within the move's time (``Limit.time``, default ``DEFAULT_TIME`` = the course's 3 s)
  plus ``TIME_GRACE`` (0.1 s): the child is killed, ``StrategyTimeout`` (an ``EngineTimeout``);
* an answer that is not the cell where a stone would land (``course.answer_problem``):
  ``StrategyIllegalMove`` (an ``EngineMoveError``); the child lives on.

Each of them carries ``kind`` (``"crash"``, ``"timeout"``, ``"illegal"``).  After a crash or a
timeout the next move starts a fresh child.  Whatever the strategy prints goes to the engine's
``stderr`` (a file; default discarded), never into the protocol.  The child exits by itself when
this process dies.  POSIX only (the pipes are waited on with ``select``).
"""

from __future__ import annotations

import hashlib
import os
import select
import signal
import struct
import subprocess
import sys
import time
from array import array
from pathlib import Path

from boardai.engines.base import (
    Engine, EngineError, EngineMoveError, EngineTimeout, Limit, Option, PlayResult,
)
from boardai.games import Connect4Board, game_of
from boardai.games.base import Board
from boardai.games.connect4 import course

CHILD = Path(__file__).with_name("strategy_child.py")
DEFAULT_TIME = 3.0      # seconds per move without a time limit: the course's
TIME_GRACE = 0.1        # a move may take this much longer than its time before it is a timeout
LOAD_TIMEOUT = 10.0     # seconds for the child to start and load the library

HEADER = struct.Struct("=6i")           # M, N, lastX, lastY, noX, noY (then top[N], board[M*N])
ANSWER = struct.Struct("=iiid")         # status (0 point, 1 null), x, y, seconds in getPoint
HELLO = struct.Struct("=ii")            # status (0 ready, 1 no load, 2/3 no getPoint/clearPoint),
                                        # length of the text that follows


class StrategyError(EngineError):
    """A strategy failed to give a move; ``kind`` says how (``crash``, ``timeout``, ``illegal``)."""

    kind = "crash"


class StrategyCrash(StrategyError):
    """The strategy's process died (segfault, abort, exit) or ``getPoint`` returned null."""

    kind = "crash"


class StrategyTimeout(StrategyError, EngineTimeout):
    """``getPoint`` did not answer within the move's time plus the grace (a time forfeit)."""

    kind = "timeout"


class StrategyIllegalMove(StrategyError, EngineMoveError):
    """``getPoint`` answered a cell where no stone can land (an illegal move)."""

    kind = "illegal"


class StrategyLoadError(EngineError, ValueError):
    """The library is missing, cannot be loaded, or lacks ``getPoint``/``clearPoint``."""


class _Gone(Exception):
    """The child's pipe ended."""


class _Late(Exception):
    """The child did not answer in time."""


def _signal_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


class StrategyEngine(Engine):
    name = "strategy"
    uses_local_files = True
    summary = ("a course strategy library exporting getPoint/clearPoint (Connect Four), run in "
               "a child process: strategy:PATH")
    options = (Option("path", str, None, "the strategy's shared library (.so/.dylib); "
                      "everything after strategy: is the path", what="a path to a library"),)
    limit_options = ("time",)

    def __init__(self, path: str | None = None, stderr=None, **opts):
        super().__init__(path=path, **opts)
        if not path or not str(path).strip():
            raise StrategyLoadError("strategy needs a library: strategy:PATH, e.g. "
                                    "strategy:./Strategy.so")
        file = Path(str(path).strip()).expanduser()
        if not file.exists():
            raise StrategyLoadError(f"strategy library {str(file)!r} does not exist")
        if not file.is_file():
            raise StrategyLoadError(f"strategy library {str(file)!r} is not a file")
        self.path_text = str(path).strip()
        self.path = str(file.resolve())
        self.digest = hashlib.sha256(file.read_bytes()).hexdigest()
        self.stderr = stderr        # where the strategy's output goes (a file; None: discarded)
        self._proc: subprocess.Popen | None = None
        self._rfd = self._wfd = -1
        self.starts = 0             # children started (tests: a restart after a fault)
        try:
            self._start()
        except StrategyError as exc:
            raise StrategyLoadError(str(exc)) from None

    @property
    def spec(self) -> str:
        return f"strategy:{self.path_text}"

    @property
    def timeout(self) -> float:
        """The hard limit of a move at the default time: the engine enforces its own (the
        arena gives such engines a grace second to report it)."""
        return (self.default_limit.time or DEFAULT_TIME) + TIME_GRACE

    def describe(self) -> str | None:
        return f"strategy {Path(self.path).name} sha256:{self.digest[:16]}"

    # --- the child ----------------------------------------------------------------------
    def _start(self) -> None:
        """Start a child and wait for it to load the library; StrategyError if it cannot."""
        self.kill()
        name = Path(self.path).name
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(CHILD), self.path], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, bufsize=0, close_fds=True, start_new_session=True,
                stderr=subprocess.DEVNULL if self.stderr is None else self.stderr)
        except OSError as exc:
            raise StrategyCrash(f"cannot start the process for strategy {name}: {exc}") from None
        self._proc = proc
        self._rfd, self._wfd = proc.stdout.fileno(), proc.stdin.fileno()
        self.starts += 1
        deadline = time.perf_counter() + LOAD_TIMEOUT
        try:
            status, length = HELLO.unpack(self._read(HELLO.size, deadline))
            text = self._read(length, deadline).decode("utf-8", "replace") if length else ""
        except _Late:
            self.kill()
            raise StrategyTimeout(f"strategy {name} did not load within {LOAD_TIMEOUT:g} s "
                                  "(a hang in its start-up code?)") from None
        except _Gone:
            code = self._reap()
            raise StrategyCrash(f"strategy {name} crashed while loading "
                                f"({_signal_text(code)})") from None
        if status != 0:
            self.kill()
            if status == 1:
                raise StrategyLoadError(f"cannot load strategy library {self.path!r}: {text}")
            missing = "getPoint" if status == 2 else "clearPoint"
            raise StrategyLoadError(
                f"strategy library {self.path!r} does not export {missing}: declare "
                f'getPoint and clearPoint extern "C" (the course\'s interface)')

    def _read(self, n: int, deadline: float) -> bytes:
        chunks = []
        while n:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise _Late
            try:
                ready, _, _ = select.select([self._rfd], [], [], left)
            except ValueError:          # the pipe was closed by kill() from another thread
                raise _Gone from None
            if not ready:
                raise _Late
            try:
                data = os.read(self._rfd, n)
            except OSError:
                raise _Gone from None
            if not data:
                raise _Gone
            chunks.append(data)
            n -= len(data)
        return b"".join(chunks)

    def _reap(self) -> int | None:
        """The exit code of a child whose pipe ended (waiting a moment); the child is gone."""
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        return code

    # --- the protocol -------------------------------------------------------------------
    def _check_game(self, board: Board) -> None:
        if not isinstance(board, Connect4Board):
            raise EngineError(f"strategy plays Connect Four only (the course's getPoint "
                              f"interface), not {game_of(board).title}")

    def new_game(self, board: Board) -> None:
        self._check_game(board)

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        self._check_game(board)
        limit = self._limit(limit)
        seconds = limit.time if limit.time is not None else DEFAULT_TIME
        try:
            no_x, no_y = course.no_go_point(board)
        except ValueError as exc:
            raise EngineError(f"strategy: {exc}") from None
        m, n, top, cells = course.to_course(board, int(board.turn))
        last_x, last_y = course.last_point(board)
        request = HEADER.pack(m, n, last_x, last_y, no_x, no_y) + array("i", top + cells).tobytes()
        if self._proc is None:
            self._start()               # after a crash or a timeout: a fresh child
        name = Path(self.path).name
        start = time.perf_counter()
        deadline = start + seconds + TIME_GRACE
        try:
            os.write(self._wfd, request)
            status, x, y, took = ANSWER.unpack(self._read(ANSWER.size, deadline))
        except (_Gone, OSError):
            code = self._reap()
            raise StrategyCrash(f"strategy {name} crashed in getPoint "
                                f"({_signal_text(code)})") from None
        except _Late:
            self.kill()
            raise StrategyTimeout(f"strategy {name} gave no answer within {seconds:g} s "
                                  f"(+{TIME_GRACE:g} s grace); its process was killed") from None
        elapsed = time.perf_counter() - start
        if status == 1:
            raise StrategyCrash(f"strategy {name}: getPoint returned a null pointer")
        problem = course.answer_problem(top, x, y)
        if problem is not None:
            raise StrategyIllegalMove(f"strategy {name} answered (x={x}, y={y}): {problem}")
        return PlayResult(y, board.move_name(y), time_s=elapsed,
                          info={"engine": name, "getpoint_s": took, "point": [x, y]})

    def close(self) -> None:
        """End the child: it reads the end of its input and exits (killed if it does not)."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        for pipe in (proc.stdin, proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        """Kill the child at once (after a hang or a crash); the next move starts a new one."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def __del__(self) -> None:
        try:
            self.kill()
        except Exception:       # noqa: BLE001 -- interpreter shutdown
            pass
