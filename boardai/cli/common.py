"""What every command module of the ``boardai`` command shares: context, errors, the --game option."""

from __future__ import annotations

import contextlib
import math
import os
from pathlib import Path

import click

import boardai.games
from boardai.engines.registry import is_number_text

GAME_CHOICE = click.Choice(list(boardai.games.GAME_NAMES), case_sensitive=False)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Fail(click.ClickException):
    """A clear error message and exit status 1."""


# --- checked numbers ---------------------------------------------------------------------------
# Every number on the command line goes through Int or Float: ASCII digits only (``١٠`` is not
# ten here, whatever Python's int() says), finite (no nan, no inf), inside a range that the help
# names.  Counts always have a maximum, so no typo starts a job that never ends.

MAX_ROUNDS = 100_000        # games of a match, rounds of compete, games per pair of a tournament


class Int(click.IntRange):
    """An integer written in ASCII digits, in [min, max] (``max`` is required: counts are
    bounded)."""

    name = "integer"

    def __init__(self, min: int | None, max: int | None, what: str = "an integer"):
        super().__init__(min, max)
        self.what = what

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            if not is_number_text(value.strip(), integer=True):
                self.fail(f"{value!r} is not {self._accepts()} written in ASCII digits",
                          param, ctx)
            value = value.strip()
        return super().convert(value, param, ctx)

    def _accepts(self) -> str:
        if self.min is not None and self.max is not None:
            return f"{self.what} from {self.min} to {self.max}"
        return self.what

    def _describe_range(self) -> str:
        """The range as the help and the errors show it: ``1..11``, ``>= 0``."""
        if self.min is not None and self.max is not None:
            return f"{self.min}..{self.max}"
        return f">= {self.min}" if self.min is not None else f"<= {self.max}"


class Float(click.FloatRange):
    """A finite number written in ASCII digits (``2``, ``0.5``, ``1e-3``), in its range."""

    name = "number"

    def __init__(self, min: float | None, max: float | None, min_open: bool = False,
                 max_open: bool = False):
        super().__init__(min, max, min_open, max_open)

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            if not is_number_text(value.strip()):
                self.fail(f"{value!r} is not a finite number written in ASCII digits "
                          f"(e.g. 2, 0.5, 1e-3), {self._describe_range()}", param, ctx)
            value = value.strip()
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number ({self._describe_range()})", param, ctx)
        return number

    def _describe_range(self) -> str:
        """The range as the help and the errors show it: ``> 0 and <= 86400``."""
        parts = []
        if self.min is not None:
            parts.append(f"{'>' if self.min_open else '>='} {self.min:g}")
        if self.max is not None:
            parts.append(f"{'<' if self.max_open else '<='} {self.max:g}")
        return " and ".join(parts)


# --- checked output paths ----------------------------------------------------------------------

class OutPath(click.ParamType):
    """A file (or, with ``directory=True``, a folder) a command will write: not empty, its
    parent folder exists, it is not a folder (or, for a folder, not a file), and it can be
    written: tried before any work starts, so ``/proc/nope`` fails at once with a one-line usage
    error instead of after an hour (or with a traceback).  Nothing is left behind by the try."""

    name = "path"

    def __init__(self, directory: bool = False):
        self.directory = directory

    def convert(self, value, param, ctx):
        text = os.fspath(value) if not isinstance(value, str) else value
        if not text.strip():
            self.fail("the path is empty: give a file name", param, ctx)
        if "\0" in text:
            self.fail("the path holds a NUL character", param, ctx)
        problem = writable_problem(Path(text).expanduser(), self.directory)
        if problem:
            self.fail(f"{text!r}: {problem}", param, ctx)
        return text


def writable_problem(path: Path, directory: bool = False) -> str | None:
    """Why ``path`` cannot be written (None: it can).  A file is tried by opening it to append
    (an existing one) or creating it and removing it again (a new one); a folder by creating a
    file in it (an existing one) or creating it and removing it again (a new one)."""
    import tempfile
    try:
        if path.is_dir():
            if not directory:
                return "is a folder: give a file name"
            with tempfile.TemporaryFile(dir=path):
                pass
            return None
        if path.exists() or path.is_symlink():
            if directory:
                return "is a file, not a folder"
            if not path.is_file():          # a device or a pipe: opening it could block
                return None if os.access(path, os.W_OK) else "cannot be written"
            with open(path, "ab"):
                pass
            return None
        parent = path.parent
        if not parent.is_dir():
            return f"the folder {str(parent)!r} does not exist"
        if directory:
            path.mkdir()
            path.rmdir()
        else:
            with open(path, "xb"):
                pass
            path.unlink()
        return None
    except OSError as exc:
        return f"cannot be written ({exc.strerror or exc})"


def game_option(default: str = boardai.games.DEFAULT_GAME, help: str | None = None):
    """The ``--game`` option: any registered game, ``default`` shown in the help."""
    return click.option("--game", type=GAME_CHOICE, default=default, show_default=True, help=help)


SIZE_HELP = ("Board size: N or WxH{default}; Connect Four also 'random' (as the Tsinghua course "
             "draws it: M rows and N columns from 9..12).")


def size_option(default: str = " (default 11 for Hex, 7x6 for Connect Four)", **kw):
    """The ``--size`` option (N, WxH, or ``random`` for games with a random board draw)."""
    return click.option("--size", help=SIZE_HELP.format(default=default), **kw)


def blocked_option():
    """``--blocked COL:ROW`` (repeatable) or ``--blocked random``: Connect Four's no-go cells."""
    return click.option("--blocked", multiple=True, metavar="COL:ROW",
                        help="Connect Four: a cell no stone may stand on (column 1.., row 1 = "
                             "bottom; repeat for more), or 'random' for one no-go cell drawn "
                             "over the board as the Tsinghua course does; --seed makes it "
                             "reproducible.")


def setup_from_options(game: str, size, blocked=(), swap: bool = False, seed: int | None = None):
    """The ``BoardSetup`` that ``--game/--size/--blocked/--swap`` describe (random draws seeded
    by ``seed``); a usage error naming what is accepted."""
    import random

    from boardai.games.setup import BoardSetup
    try:
        return BoardSetup.from_options(game, size, blocked, swap, random.Random(seed))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def board_from_options(game: str, size, blocked=(), swap: bool = False, seed: int | None = None):
    """The empty board of :func:`setup_from_options`."""
    return setup_from_options(game, size, blocked, swap, seed).make_board()


def setup_text(board) -> str:
    """One line for people: the size and blocked cells of ``board`` ("12x10, blocked 4:1")."""
    text = board.size_text
    if board.setup:
        text += ", blocked " + " ".join(boardai.games.game_of(board).blocked_text(board.setup))
    return text


def _not_blank(ctx, param, value):
    """A seat given as the empty string is a mistake, not a question (leave the option out to
    be asked)."""
    if value is not None and not value.strip():
        raise click.BadParameter("empty: give human or an engine spec such as random", ctx, param)
    return value


def _not_empty_path(ctx, param, value):
    """An input path given as the empty string is refused (a missing file fails later, with the
    record's own message)."""
    if value is not None and not value.strip():
        raise click.BadParameter("the path is empty: give a record file", ctx, param)
    return value


def game_setup_options(no_color_help: str):
    """The options of a game played here (``play``, ``tui``): the game and its board, the two
    seats, the seed, the record to save to or resume, and colour."""
    from boardai.engines.base import MAX_SEED
    options = [
        game_option(help="Which game."),
        size_option(),
        blocked_option(),
        click.option("--swap", is_flag=True,
                     help="Hex: allow the swap rule (White may take Black's first stone)."),
        click.option("--black", "black", metavar="SPEC", callback=_not_blank,
                     help="Black (first player): human or an engine spec."),
        click.option("--white", "white", metavar="SPEC", callback=_not_blank,
                     help="White: human or an engine spec."),
        click.option("--seed", type=Int(0, MAX_SEED - 1),
                     help="Seed for engines that take one (reproducible games), 0..2**63-2."),
        click.option("--time", "move_time", type=Float(0, 3600, min_open=True), metavar="SECONDS",
                     help="Seconds per move of an engine whose spec gives no time= (mcts, "
                          "alphabeta, ...; a spec's time= stays, its sims=/depth= still bound "
                          "the search), in (0, 3600]: e.g. --white mcts --time 2."),
        click.option("--save", type=OutPath(),
                     help="Record the game to this SGF file."),
        click.option("--load", type=click.Path(dir_okay=False), callback=_not_empty_path,
                     help="Resume the game recorded in this file."),
        click.option("--no-color", is_flag=True, help=no_color_help),
    ]

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command
    return apply


@contextlib.contextmanager
def setup_errors():
    """Setting a game up: a bad record or an engine that cannot run fails with its message;
    any other ValueError is a usage error (the option's message names what is accepted)."""
    from boardai.engines.base import EngineUnavailable
    from boardai.records import RecordError
    try:
        yield
    except (RecordError, EngineUnavailable) as exc:   # not usage errors: a file, a package
        raise Fail(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
