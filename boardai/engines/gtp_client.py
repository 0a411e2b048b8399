"""``gtp:CMD``: any external GTP/HTP engine (MoHex, a second boardai, ...) as one of our engines.

Before each ``genmove`` the engine's board is brought in line with ours: if the moves it already
knows are a prefix of our history only the new ones are sent, otherwise ``clear_board`` and a
replay.  A timed limit is passed on as ``time_settings 0 T 1`` (T seconds per move).

Every answer has a timeout (``GtpEngineTimeout`` when it passes): ``timeout=S`` at the start of
the spec (``gtp:timeout=90,mohex``) or the arena's move timeout sets it for every command;
otherwise 30 s per command, and for ``genmove`` the move's time limit plus a margin, or 60 s
without a time limit.
"""

from __future__ import annotations

import math
import re
import shlex

from boardai.engines.base import (
    Engine, EngineError, EngineMoveError, EngineTimeout, Limit, Option, PlayResult, Stopwatch,
)
from boardai.games import game_of
from boardai.games.base import Board, MoveError
from boardai.gtp.protocol import GtpConnection, GtpDisconnected, GtpError, GtpTimeout


class GtpBadMove(EngineMoveError, GtpError):
    """The engine answered ``genmove`` with text that is not a move."""


class GtpEngineTimeout(EngineTimeout, GtpTimeout):
    """The engine did not answer in its hard timeout (a time forfeit for the arena)."""


class GtpEngineGone(EngineError, GtpDisconnected):
    """The engine's output ended: it exited or crashed (or could not start)."""


class GtpEngineRefused(EngineError, GtpError):
    """The engine answered ``?`` to a command the game needs (boardsize, play, genmove...)."""


COMMAND_TIMEOUT = 30.0      # seconds for any answer but genmove's
GENMOVE_TIMEOUT = 60.0      # genmove without a time limit


def genmove_margin(seconds: float) -> float:
    """How long past its time limit of ``seconds`` a move may take before it is a timeout."""
    return max(10.0, 0.25 * seconds)


def _exit_status(proc) -> str:
    """`` (exit status N)`` once ``proc`` has ended (waiting a moment for it), else ``""``."""
    if proc is None:
        return ""
    try:
        return f" (exit status {proc.wait(timeout=0.5)})"
    except Exception:       # still running, or not a process we can wait for
        return ""


_SPEC_TIMEOUT = re.compile(r"\s*timeout=([^,\s]*)\s*,(.*)", re.IGNORECASE | re.DOTALL)


def split_command(command: str) -> tuple[float | None, str]:
    """``timeout=S,CMD`` -> (S, CMD); a command without the prefix -> (None, command).
    ValueError when S is not a finite number > 0."""
    match = _SPEC_TIMEOUT.fullmatch(command)
    if match is None:
        return None, command
    text = match.group(1)
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"gtp: timeout={text!r} must be a number of seconds > 0, "
                         "e.g. gtp:timeout=60,mohex")
    return value, match.group(2).strip()


class GtpEngine(Engine):
    name = "gtp"
    uses_local_files = True
    summary = "an external GTP/HTP engine: gtp:COMMAND (e.g. gtp:boardai gtp --engine random)"
    options = (Option("command", str, None, "the engine's command line; a leading "
                      "timeout=S, sets the seconds allowed for every answer (default 30 s, "
                      "genmove 60 s or its time limit plus a margin)"),)
    limit_options = ("time",)

    def __init__(self, command: str | None = None, timeout: float | None = None,
                 stderr=None, **opts):
        super().__init__(command=command, **opts)
        spec_timeout, command = split_command(command or "")
        if not command:
            raise ValueError("gtp engine needs a command, e.g. gtp:'boardai gtp --engine random'")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"gtp: cannot read the command {command!r}: {exc}") from None
        if not argv:
            raise ValueError("gtp engine needs a command, e.g. gtp:'boardai gtp --engine random'")
        self.command = command
        self.program = argv[0]
        self.spec_timeout = spec_timeout
        # the spec's timeout=, else the caller's (the arena's move timeout), else the defaults
        self.timeout = spec_timeout if spec_timeout is not None else timeout
        self.stderr = stderr        # where the engine's stderr goes (a file; None: discarded)
        self._conn: GtpConnection | None = None
        self._known: list[int] | None = None      # moves the engine's board holds
        self._setup: tuple | None = None           # (game, width, height, blocked) sent
        self._time: float | None = None
        self._commands: set[str] = set()

    @property
    def spec(self) -> str:
        prefix = "" if self.spec_timeout is None else f"timeout={self.spec_timeout:g},"
        return f"gtp:{prefix}{self.command}"

    # --- connection ---------------------------------------------------------------------
    def _connection(self) -> GtpConnection:
        if self._conn is None:
            self._conn = GtpConnection.spawn(self.command, **(
                {} if self.stderr is None else {"stderr": self.stderr}))
            try:
                listing = self._conn.send("list_commands", timeout=self.timeout or COMMAND_TIMEOUT)
                self._commands = {c.strip().lower() for c in listing.split()}
            except GtpDisconnected as exc:
                status = _exit_status(self._conn.process)
                self.kill()             # a dead engine: start afresh next time
                raise GtpDisconnected(f"GTP engine {self.program!r}: {exc}{status}") from None
            except GtpTimeout as exc:
                self.kill()             # not a GTP engine, or a stuck one
                raise GtpTimeout(f"GTP engine {self.program!r}: {exc}") from None
            except GtpError:            # no list_commands: fine
                self._commands = set()
            self._known = None
            self._setup = None
            self._time = None
        return self._conn

    def _started(self) -> GtpConnection:
        """The running engine (started if need be), its start-up faults as engine faults."""
        try:
            return self._connection()
        except GtpTimeout as exc:           # no answer to list_commands
            raise GtpEngineTimeout(str(exc)) from None
        except GtpDisconnected as exc:      # it cannot start, or died at once
            raise GtpEngineGone(str(exc)) from None

    def send(self, command: str, timeout: float | None = None) -> str:
        """One command's answer within ``timeout`` seconds (default: the engine's timeout, else
        30 s); a timeout, a vanished engine and a ``?`` answer raise the engine fault types."""
        wait = timeout or self.timeout or COMMAND_TIMEOUT
        conn = self._started()
        try:
            return conn.send(command, timeout=wait)
        except GtpTimeout as exc:
            raise GtpEngineTimeout(f"GTP engine {self.program!r}: {exc}") from None
        except GtpDisconnected as exc:
            status = "" if self._conn is None else _exit_status(self._conn.process)
            raise GtpEngineGone(f"GTP engine {self.program!r}: {exc}{status}") from None
        except GtpError as exc:
            raise GtpEngineRefused(f"GTP engine {self.program!r} refused {command!r}: {exc}") from None

    def genmove_timeout(self, limit: Limit) -> float:
        """Seconds allowed for a ``genmove`` answer under ``limit``."""
        if self.timeout:
            return self.timeout
        if limit.time is not None and math.isfinite(limit.time):
            return limit.time + genmove_margin(limit.time)
        return GENMOVE_TIMEOUT

    def describe(self) -> str | None:
        """Start the engine and ask its name and version (None if it cannot say)."""
        try:
            return f"{self.send('name')} {self.send('version')}".strip()
        except (GtpTimeout, GtpDisconnected):
            self.kill()         # it will be started again for its first move, and fail there
            return None
        except GtpError:        # no name or version command: fine
            return None

    def sync(self, board: Board) -> None:
        setup = (board.game_name, board.width, board.height, board.setup)
        if self._setup != setup:
            self._started()             # so its command list is known
            if board.setup and "block_cell" not in self._commands:
                raise GtpEngineRefused(f"{self.program or 'the engine'} has no block_cell "
                                       "command: it cannot play a board with blocked cells")
            if "game" in self._commands:
                self.send(f"game {board.game_name}")
            size = game_of(board).size_text(board.width, board.height)
            self.send(f"boardsize {size.replace('x', ' ')}")
            self.send("clear_board")
            for text in game_of(board).blocked_text(board.setup):
                self.send("block_cell " + text.replace(":", " "))
            self._setup = setup
            self._known = []
        history = board.move_stack
        known = self._known or []
        if known != history[:len(known)]:
            self.send("clear_board")
            known = []
        replay = board.copy()
        while replay.ply > len(known):
            replay.pop()
        for move in history[len(known):]:
            colour = "b" if replay.turn == 0 else "w"
            self.send(f"play {colour} {replay.move_name(move)}")
            replay.push(move)
        self._known = list(history)

    # --- the protocol ---------------------------------------------------------------------
    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        limit = self._limit(limit)
        self.sync(board)
        if limit.time is not None and limit.time != self._time and "time_settings" in self._commands:
            self.send(f"time_settings 0 {limit.time:g} 1")
            self._time = limit.time
        colour = "b" if board.turn == 0 else "w"
        answer = self.send(f"genmove {colour}", timeout=self.genmove_timeout(limit)).strip()
        if answer.lower() == "resign":
            self._known = None   # its board may differ from ours now; resync next time
            return PlayResult(-1, "resign", resign=True, time_s=clock())
        try:
            move = board.parse_move(answer)
        except MoveError as exc:
            self._known = None
            raise GtpBadMove(f"engine answered {answer!r}, which is not a move: {exc}") from None
        self._known = board.move_stack + [move]
        return PlayResult(move, board.move_name(move), time_s=clock(),
                          info={"engine": self.program})

    def new_game(self, board: Board) -> None:
        self._known = None if self._conn is None else self._known

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def kill(self) -> None:
        """Stop the engine process at once (after a hang or a crash); the next use restarts it."""
        if self._conn is not None:
            proc = self._conn.process
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            self._conn.close(timeout=0.1)
            self._conn = None
