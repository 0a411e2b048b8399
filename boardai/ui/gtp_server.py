"""The GTP/HTP front-end: serve one engine on a pair of line streams (stdin/stdout).

HexGui's command set plus a few of our own (``game``, ``boardai-analyse``).  Every line gets an
answer; a malformed, unknown or illegal command (wrong argument count included) is answered
``? reason`` and changes nothing; the server never dies on input (an unexpected exception becomes
``? internal error: ...``).  Input is read as bytes and decoded here (a line that is not UTF-8 is
answered ``?``), whatever the locale; answers are written as UTF-8.
"""

from __future__ import annotations

import io
import math
import random
import re
import sys
import time
from typing import IO, Callable

from boardai._version import __version__
from boardai.engines.base import Engine, Limit
from boardai.engines.base import PlayResult
from boardai.engines.budget import MAX_BUDGET, TimeControl, move_limit  # noqa: F401 (MAX_BUDGET)
from boardai.games import (
    DEFAULT_GAME, Board, BoardSetup, Color, InvalidMoveError, MoveError, all_games, get_game,
)
from boardai.games.game import blocked_games_text, swap_games_text
from boardai.gtp.protocol import decode_command, format_response, parse_command

# what time_settings / time_left accept, and the longest move the server ever asks for
MAX_SECONDS = 1_000_000.0       # about 11.5 days
MAX_STONES = 1_000_000
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[0-9]+")
TIME_TEXT = (f"times are finite numbers of seconds from 0 to {MAX_SECONDS:.0f}, stones a whole "
             f"number from 0 to {MAX_STONES}")

# HexGui's analyze commands (type/label/command, GoGui's format)
ANALYZE_COMMANDS = (
    "param/Game Param/param_game",
    "gfx/Engine Analysis/boardai-analyse",
    "string/Show Board/showboard",
)



MAX_LINE = 64 * 1024      # characters (or bytes) in one command line


def _bounded_lines(inp, limit: int):
    """The lines of ``inp``, each read with at most ``limit`` characters in memory; a longer
    line is skipped to its end and given as None (so a line with no end cannot fill memory)."""
    while True:
        line = inp.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line[-1:] in ("\n", b"\n"):
            yield line
            continue
        while line and line[-1:] not in ("\n", b"\n"):
            line = inp.readline(limit + 1)
        yield None

class CommandError(Exception):
    """Answered as ``? message``."""


def _seconds(text: str) -> float:
    """A time from the protocol: a finite decimal number of seconds in [0, MAX_SECONDS]."""
    if not _NUMBER.fullmatch(text):
        raise ValueError(text)
    value = float(text)
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise ValueError(text)
    return value


def _stones(text: str) -> int:
    """A stone count from the protocol: ASCII digits, at most MAX_STONES."""
    if not _WHOLE.fullmatch(text) or int(text) > MAX_STONES:
        raise ValueError(text)
    return int(text)


def gfx_answer(board: Board, result: PlayResult) -> str:
    """An engine's analysis as GoGui/HexGui ``gfx`` lines: ``VAR`` (the principal variation,
    colours alternating from the side to move), ``INFLUENCE`` (each move's score in [0, 1]: its
    win rate, else (value + 1) / 2, else its share of the most visits) and ``TEXT`` (a summary).
    HexGui reads INFLUENCE up to TEXT and colours a cell by its score (so scores stay in [0, 1])."""
    lines = []
    pv = list(result.pv) or ([] if result.resign else [result.name])
    if pv:
        colour = board.turn
        var = []
        for name in pv:
            var.append(f"{colour.letter.lower()} {name}")
            colour = colour.other
        lines.append("VAR " + " ".join(var))
    most = max((m.visits or 0 for m in result.moves), default=0)
    scores = []
    for m in result.moves:
        if m.winrate is not None:
            score = float(m.winrate)
        elif m.value is not None:
            score = (float(m.value) + 1) / 2
        elif m.visits is not None and most > 0:
            score = m.visits / most
        else:
            continue
        if math.isfinite(score) and " " not in m.name:
            scores.append(f"{m.name} {min(1.0, max(0.0, score)):.3f}")
    if scores:
        lines.append("INFLUENCE " + " ".join(scores))
    text = f"TEXT {'resign' if result.resign else result.name}"
    if result.value is not None and math.isfinite(result.value):
        text += f" value {result.value:+.3f}"
    text += f" nodes {result.nodes} time {result.time_s:.2f} s"
    lines.append(text)
    return "\n".join(lines)


class GtpServer:
    """Serves ``engine`` for ``game``; ``handle(line)`` returns the answer text."""

    def __init__(self, engine: Engine, game: str = DEFAULT_GAME, size: str | None = None,
                 swap: bool = False, err: IO[str] | None = None, blocked=(),
                 seed: int | None = None):
        self.engine = engine
        self.game = get_game(game)
        self.swap = swap
        self.board: Board = self.game.setup_board(size, blocked, swap and self.game.swap,
                                                  random.Random(seed))
        self.setup = BoardSetup.of_board(self.board)      # what clear_board starts again from
        self.clock = TimeControl()
        self.err = err if err is not None else sys.stderr
        self.done = False
        no_args = (0,)
        # name -> (handler, argument counts accepted or None when the handler checks, usage)
        self.table: dict[str, tuple[Callable[[list[str]], str], tuple[int, ...] | None, str]] = {
            "protocol_version": (lambda a: "2", no_args, ""),
            "name": (lambda a: "boardai", no_args, ""),
            "version": (lambda a: f"{__version__} ({self.engine.spec})", no_args, ""),
            "list_commands": (lambda a: "\n".join(sorted(self.commands)), no_args, ""),
            "known_command": (self.cmd_known_command, (1,),
                              "known_command needs one command name, e.g. known_command genmove"),
            "boardsize": (self.cmd_boardsize, None, ""),
            "clear_board": (self.cmd_clear_board, no_args, ""),
            "block_cell": (self.cmd_block_cell, (2,),
                           "block_cell needs a column and a row counted from 1 at the bottom, "
                           "e.g. block_cell 4 1"),
            "game": (self.cmd_game, None, ""),
            "play": (self.cmd_play, None, ""),
            "genmove": (self.cmd_genmove, None, ""),
            "undo": (self.cmd_undo, no_args, "undo takes no arguments: it takes back one move"),
            "showboard": (lambda a: "\n" + self.board.render(), no_args, ""),
            "final_score": (self.cmd_final_score, no_args, ""),
            "time_settings": (self.cmd_time_settings, None, ""),
            "time_left": (self.cmd_time_left, None, ""),
            "param_game": (self.cmd_param_game, (0, 2),
                           ("param_game takes no arguments (to list the settings) or a name and "
                            "a value, e.g. param_game allow_swap 1")),
            "hexgui-analyze_commands": (lambda a: "\n".join(ANALYZE_COMMANDS), no_args, ""),
            "boardai-analyse": (self.cmd_analyse, no_args, ""),
            "quit": (self.cmd_quit, no_args, ""),
        }
        self.commands: dict[str, Callable[[list[str]], str]] = {
            name: entry[0] for name, entry in self.table.items()}
        self.engine.new_game(self.board)

    # --- the loop -----------------------------------------------------------------------
    def handle(self, line: str | bytes) -> str | None:
        """The answer to one command line (None for an empty or comment line).  Bytes are
        decoded here: a line that is not valid UTF-8 is answered ``?`` and does nothing."""
        problem = None
        if isinstance(line, (bytes, bytearray)):
            line, problem = decode_command(bytes(line))
        cmd = parse_command(line)
        if cmd is None:
            return None
        if problem is not None:
            return format_response(cmd.id, False, problem)
        entry = self.table.get(cmd.name)
        if entry is None:
            return format_response(cmd.id, False, f"unknown command: {cmd.name or '(none)'}")
        handler, counts, usage = entry
        if counts is not None and len(cmd.args) not in counts:
            if not usage:
                usage = f"{cmd.name} takes no arguments"
            return format_response(cmd.id, False, f"{usage} (got {len(cmd.args)})")
        try:
            return format_response(cmd.id, True, handler(cmd.args))
        except CommandError as exc:
            return format_response(cmd.id, False, str(exc))
        except Exception as exc:  # the server must never die on input
            return format_response(cmd.id, False, f"internal error: {type(exc).__name__}: {exc}")

    def serve(self, inp: IO[bytes] | IO[str] | None = None,
              out: IO[bytes] | IO[str] | None = None) -> None:
        """Answer every line of ``inp`` on ``out`` until ``quit`` or the end of the input.

        The defaults are stdin and stdout as bytes: the locale plays no part.  Text streams
        work too (tests); bytes are written as UTF-8."""
        inp = sys.stdin.buffer if inp is None else inp
        out = sys.stdout.buffer if out is None else out
        text_out = isinstance(out, io.TextIOBase)
        for line in _bounded_lines(inp, MAX_LINE):
            answer = self.handle(line) if line is not None else \
                format_response(None, False, f"line too long: a command is at most "
                                f"{MAX_LINE // 1024} KiB (the rest of the line was skipped)")
            if answer is not None:
                out.write(answer if text_out else answer.encode("utf-8"))
                out.flush()
            if self.done:
                break

    # --- commands -----------------------------------------------------------------------
    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args[0].lower() in self.commands else "false"

    def _new_board(self, setup: BoardSetup) -> None:
        """Start again from ``setup`` (the rules check it: a bad one is ``? reason``)."""
        try:
            board = setup.make_board()
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.setup, self.board = setup, board
        self.engine.new_game(self.board)

    def _setup(self, size=None, blocked=()) -> BoardSetup:
        """The set-up of a new board of this game: ``size`` (None: the game's default), the swap
        rule as ``param_game allow_swap`` last said, ``blocked`` cells."""
        try:
            w, h = self.game.parse_size(size)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        return BoardSetup(self.game.name, w, h, self.swap and self.game.swap, blocked)

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
        if not all(a.isascii() and a.isdigit() for a in args):
            raise CommandError(f"boardsize needs whole numbers, not {' '.join(args)!r}")
        self._new_board(self._setup(size))
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        """Takes every stone off; blocked cells stay (boardsize clears them)."""
        self._new_board(self._setup(self.setup.size, self.setup.blocked))
        return ""

    def cmd_block_cell(self, args: list[str]) -> str:
        """``block_cell COL ROW``: no stone may stand on that cell (Connect Four's no-go cell);
        1-based, row 1 at the bottom, on an empty board only."""
        if not self.game.blocked_cells:
            raise CommandError(f"block_cell: blocked cells are a rule of {blocked_games_text()}; "
                               f"{self.game.title} has none")
        if self.board.ply:
            raise CommandError("block_cell works on an empty board: clear_board first "
                               "(blocked cells stay), then block_cell, then play")
        try:
            cells = self.game.parse_blocked([":".join(args)], self.board.width,
                                            self.board.height)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self._new_board(self._setup(self.setup.size, self.setup.blocked + cells))
        return ""

    def cmd_game(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("game needs a name: "
                               + " or ".join(f"game {g}" for g in all_games()))
        try:
            self.game = get_game(args[0])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self._new_board(self._setup())
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

    def _warm(self) -> None:
        """Load the engine's search for this board once, before a move's clock runs (on a cold
        cache it compiles, and says so on stderr first)."""
        from boardai.warmup import warm_engine
        warmed = self.__dict__.setdefault("_warmed", set())
        key = (self.board.game_name, self.board.width, self.board.height)
        if key not in warmed:
            warmed.add(key)
            warm_engine(self.engine, self.board)

    def cmd_genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("genmove needs a colour: genmove black or genmove white")
        colour = self._colour(args[0])
        if self.board.is_game_over():
            return "resign"
        self._check_turn(colour)
        self._warm()
        limit = self._limit(colour)
        started = time.perf_counter()
        result = self.engine.play(self.board.copy(), limit)
        if result.resign:
            return "resign"
        try:
            self.board.push(result.move)
        except MoveError as exc:
            raise CommandError(f"engine error: it chose {result.name!r}: {exc}") from None
        self.engine.notify(self.board, result.move)
        self.clock.spend(colour, time.perf_counter() - started)
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
            if len(args) != 3:
                raise ValueError
            main, byo, stones = _seconds(args[0]), _seconds(args[1]), _stones(args[2])
        except ValueError:
            raise CommandError("time_settings needs main_time byo_yomi_time byo_yomi_stones "
                               f"({TIME_TEXT}), e.g. time_settings 300 0 0") from None
        self.clock.main, self.clock.byo, self.clock.stones = main, byo, stones
        self.clock.left.clear()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise CommandError("time_left needs colour time stones, e.g. time_left black 120 0")
        colour = self._colour(args[0])
        try:
            seconds, stones = _seconds(args[1]), _stones(args[2])
        except ValueError:
            raise CommandError(f"time_left needs a time and a stone count ({TIME_TEXT})") from None
        self.clock.left[colour] = (seconds, stones)
        return ""

    def cmd_param_game(self, args: list[str]) -> str:
        """Benzene's game parameters (HexGui's parameter dialog): ``allow_swap`` on swap games,
        the rule of the next new board."""
        if not args:
            return f"[bool] allow_swap {int(self.swap)}" if self.game.swap else ""
        name, value = args[0].lower(), args[1].lower()
        if name != "allow_swap":
            known = "allow_swap" if self.game.swap else f"none for {self.game.title}"
            raise CommandError(f"unknown game parameter {args[0]!r}: the parameters are {known}")
        if not self.game.swap:
            raise CommandError(f"allow_swap: {self.game.title} has no swap rule (the swap rule "
                               f"is a rule of {swap_games_text()})")
        if value not in ("0", "1", "false", "true"):
            raise CommandError(f"allow_swap takes 1 (swap allowed) or 0, not {args[1]!r}")
        self.swap = value in ("1", "true")
        return ""

    def _limit(self, colour: Color) -> Limit:
        """The move's limit by the one rule (``engines/budget.py``): the time control's share
        for ``colour``, when one is set, replaces the spec's time=."""
        return move_limit(self.engine, clock=self.clock.budget(colour, len(self.board.legal_moves)))

    def cmd_analyse(self, args: list[str]) -> str:
        if self.board.is_game_over():
            raise CommandError("the game is over: nothing to analyse")
        result = self.engine.analyse(self.board.copy(), self._limit(self.board.turn))
        return gfx_answer(self.board, result)

    def cmd_quit(self, args: list[str]) -> str:
        self.done = True
        return ""
