"""The GTP/HTP front-end: serve one engine on a pair of line streams (stdin/stdout).

HexGui's command set plus a few of our own (``game``).  Every line gets an answer; a malformed,
unknown or illegal command is answered ``? reason`` and changes nothing; the server never dies on
input (an unexpected exception becomes ``? internal error: ...``).
"""

from __future__ import annotations

import sys
import time
from typing import IO, Callable

from boardai._version import __version__
from boardai.engines.base import Engine, Limit
from boardai.games import (
    DEFAULT_GAME, Board, Color, InvalidMoveError, MoveError, all_games, get_game,
)
from boardai.gtp.protocol import format_response, parse_command


class CommandError(Exception):
    """Answered as ``? message``."""


class TimeControl:
    """GTP time_settings / time_left, turned into a per-move budget for timed engines."""

    def __init__(self) -> None:
        self.main = 0.0
        self.byo = 0.0
        self.stones = 0
        self.left: dict[Color, tuple[float, int]] = {}

    @property
    def active(self) -> bool:
        return self.main > 0 or self.byo > 0 or bool(self.left)

    def budget(self, colour: Color, empty_cells: int) -> float | None:
        """Seconds for the next move of ``colour``, or None when no time control is set."""
        if not self.active:
            return None
        moves_to_go = max(8, empty_cells // 2)
        if colour in self.left:
            remaining, stones = self.left[colour]
            if stones > 0:
                t = remaining / stones
            else:
                t = remaining / moves_to_go
        elif self.main > 0:
            t = self.main / moves_to_go
        else:
            t = self.byo / max(1, self.stones)
        return max(0.01, 0.9 * t - 0.05)


class GtpServer:
    """Serves ``engine`` for ``game``; ``handle(line)`` returns the answer text."""

    def __init__(self, engine: Engine, game: str = DEFAULT_GAME, size: str | None = None,
                 swap: bool = False, err: IO[str] | None = None):
        self.engine = engine
        self.game = get_game(game)
        self.swap = swap
        self.board: Board = self.game.new_board(size, swap=swap and self.game.swap)
        self.clock = TimeControl()
        self.err = err if err is not None else sys.stderr
        self.done = False
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "boardai",
            "version": lambda a: f"{__version__} ({self.engine.spec})",
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "known_command": self.cmd_known_command,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "game": self.cmd_game,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "undo": self.cmd_undo,
            "showboard": lambda a: "\n" + self.board.render(),
            "final_score": self.cmd_final_score,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "hexgui-analyze_commands": lambda a: "",
            "quit": self.cmd_quit,
        }
        self.engine.new_game(self.board)

    # --- the loop -----------------------------------------------------------------------
    def handle(self, line: str) -> str | None:
        cmd = parse_command(line)
        if cmd is None:
            return None
        handler = self.commands.get(cmd.name)
        if handler is None:
            return format_response(cmd.id, False, f"unknown command: {cmd.name or '(none)'}")
        try:
            return format_response(cmd.id, True, handler(cmd.args))
        except CommandError as exc:
            return format_response(cmd.id, False, str(exc))
        except Exception as exc:  # the server must never die on input
            return format_response(cmd.id, False, f"internal error: {type(exc).__name__}: {exc}")

    def serve(self, inp: IO[str] = sys.stdin, out: IO[str] = sys.stdout) -> None:
        for line in inp:
            answer = self.handle(line)
            if answer is not None:
                out.write(answer)
                out.flush()
            if self.done:
                break

    # --- commands -----------------------------------------------------------------------
    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0].lower() in self.commands else "false"

    def _new_board(self, size: str | tuple[int, int] | None) -> None:
        try:
            board = self.game.new_board(size, swap=self.swap and self.game.swap)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.board = board
        self.engine.new_game(self.board)

    def cmd_boardsize(self, args: list[str]) -> str:
        if len(args) == 1 and self.game.square_sizes:
            size = args[0]
        elif len(args) == 2:
            size = f"{args[0]}x{args[1]}"
        else:
            w, h = self.game.default_size
            raise CommandError("boardsize needs a size: boardsize N or boardsize W H"
                               if self.game.square_sizes
                               else f"boardsize needs W H, e.g. boardsize {w} {h}")
        if not all(a.isdigit() for a in args):
            raise CommandError(f"boardsize needs whole numbers, not {' '.join(args)!r}")
        self._new_board(size)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._new_board((self.board.width, self.board.height))
        return ""

    def cmd_game(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("game needs a name: "
                               + " or ".join(f"game {g}" for g in all_games()))
        try:
            self.game = get_game(args[0])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self._new_board(None)
        return ""

    def _colour(self, text: str) -> Color:
        try:
            return Color.parse(text)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    def _check_turn(self, colour: Color) -> None:
        if self.board.is_game_over():
            raise CommandError("the game is over")
        if colour != self.board.turn:
            raise CommandError(f"it is {self.board.turn}'s turn, not {colour}'s")

    def cmd_play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise CommandError(f"play needs a colour and a move, e.g. play black "
                               f"{self.game.move_example}")
        colour = self._colour(args[0])
        self._check_turn(colour)
        try:
            move = self.board.push(args[1])
        except MoveError as exc:
            kind = "invalid move" if isinstance(exc, InvalidMoveError) else "illegal move"
            raise CommandError(f"{kind}: {exc}") from None
        self.engine.notify(self.board, move)
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("genmove needs a colour: genmove black or genmove white")
        colour = self._colour(args[0])
        if self.board.is_game_over():
            return "resign"
        self._check_turn(colour)
        limit = None
        if self.engine.timed:
            budget = self.clock.budget(colour, len(self.board.legal_moves))
            if budget is not None:
                limit = Limit(time=budget)
        started = time.perf_counter()
        result = self.engine.play(self.board.copy(), limit)
        if result.resign:
            return "resign"
        try:
            self.board.push(result.move)
        except MoveError as exc:
            raise CommandError(f"engine error: it chose {result.name!r}: {exc}") from None
        self.engine.notify(self.board, result.move)
        if colour in self.clock.left:
            remaining, stones = self.clock.left[colour]
            self.clock.left[colour] = (max(0.0, remaining - (time.perf_counter() - started)), stones)
        return self.board.move_name(result.move)

    def cmd_undo(self, args: list[str]) -> str:
        if not self.board.move_stack:
            raise CommandError("cannot undo: no moves have been played")
        self.board.pop()
        return ""

    def cmd_final_score(self, args: list[str]) -> str:
        outcome = self.board.outcome()
        if outcome is None:
            raise CommandError("the game is not over")
        return outcome.result()

    def cmd_time_settings(self, args: list[str]) -> str:
        try:
            main, byo, stones = float(args[0]), float(args[1]), int(args[2])
            if len(args) != 3 or main < 0 or byo < 0 or stones < 0:
                raise ValueError
        except (ValueError, IndexError):
            raise CommandError("time_settings needs main_time byo_yomi_time byo_yomi_stones "
                               "(numbers >= 0), e.g. time_settings 300 0 0") from None
        self.clock.main, self.clock.byo, self.clock.stones = main, byo, stones
        self.clock.left.clear()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise CommandError("time_left needs colour time stones, e.g. time_left black 120 0")
        colour = self._colour(args[0])
        try:
            seconds, stones = float(args[1]), int(args[2])
            if seconds < 0 or stones < 0:
                raise ValueError
        except ValueError:
            raise CommandError("time_left needs a time in seconds and a stone count >= 0") from None
        self.clock.left[colour] = (seconds, stones)
        return ""

    def cmd_quit(self, args: list[str]) -> str:
        self.done = True
        return ""
