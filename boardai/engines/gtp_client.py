"""``gtp:CMD``: any external GTP/HTP engine (MoHex, a second boardai, ...) as one of our engines.

Before each ``genmove`` the engine's board is brought in line with ours: if the moves it already
knows are a prefix of our history only the new ones are sent, otherwise ``clear_board`` and a
replay.  A timed limit is passed on as ``time_settings 0 T 1`` (T seconds per move).
"""

from __future__ import annotations

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
    """The engine's output ended: it exited or crashed."""


class GtpEngine(Engine):
    name = "gtp"
    summary = "an external GTP/HTP engine: gtp:COMMAND (e.g. gtp:boardai gtp --engine random)"
    options = (Option("command", str, None, "the engine's command line"),)
    limit_options = ("time",)

    def __init__(self, command: str | None = None, timeout: float | None = None,
                 stderr=None, **opts):
        super().__init__(command=command, **opts)
        if not command:
            raise ValueError("gtp engine needs a command")
        self.command = command
        self.timeout = timeout
        self.stderr = stderr        # where the engine's stderr goes (a file; None: discarded)
        self._conn: GtpConnection | None = None
        self._known: list[int] | None = None      # moves the engine's board holds
        self._setup: tuple | None = None           # (game, width, height) sent
        self._time: float | None = None
        self._commands: set[str] = set()

    @property
    def spec(self) -> str:
        return f"gtp:{self.command}"

    # --- connection ---------------------------------------------------------------------
    def _connection(self) -> GtpConnection:
        if self._conn is None:
            self._conn = GtpConnection.spawn(self.command, **(
                {} if self.stderr is None else {"stderr": self.stderr}))
            try:
                listing = self._conn.send("list_commands", timeout=self.timeout or 30)
                self._commands = {c.strip().lower() for c in listing.split()}
            except GtpError:
                self._commands = set()
            self._known = None
            self._setup = None
            self._time = None
        return self._conn

    def send(self, command: str, timeout: float | None = None) -> str:
        """One command's answer; a timeout or a vanished engine raise the engine fault types."""
        try:
            return self._connection().send(command, timeout=timeout or self.timeout)
        except GtpTimeout as exc:
            raise GtpEngineTimeout(str(exc)) from None
        except GtpDisconnected as exc:
            raise GtpEngineGone(str(exc)) from None

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
        setup = (board.game_name, board.width, board.height)
        if self._setup != setup:
            if "game" in self._commands:
                self.send(f"game {board.game_name}")
            size = game_of(board).size_text(board.width, board.height)
            self.send(f"boardsize {size.replace('x', ' ')}")
            self.send("clear_board")
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
        answer = self.send(f"genmove {colour}").strip()
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
                          info={"engine": shlex.split(self.command)[0]})

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
