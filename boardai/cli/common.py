"""What every command module of the ``boardai`` command shares: context, errors, the --game option."""

from __future__ import annotations

import contextlib

import click

import boardai.games

GAME_CHOICE = click.Choice(list(boardai.games.GAME_NAMES), case_sensitive=False)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Fail(click.ClickException):
    """A clear error message and exit status 1."""


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


def board_from_options(game: str, size, blocked=(), swap: bool = False, seed: int | None = None):
    """The board ``--size/--blocked/--swap`` describe (random draws seeded by ``seed``); a
    usage error naming what is accepted."""
    import random

    try:
        return boardai.games.get_game(game).setup_board(size, blocked, swap, random.Random(seed))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def setup_text(board) -> str:
    """One line for people: the size and blocked cells of ``board`` ("12x10, blocked 4:1")."""
    text = board.size_text
    if board.setup:
        text += ", blocked " + " ".join(boardai.games.game_of(board).blocked_text(board.setup))
    return text


def game_setup_options(no_color_help: str):
    """The options of a game played here (``play``, ``tui``): the game and its board, the two
    seats, the seed, the record to save to or resume, and colour."""
    from boardai.engines.base import MAX_SEED
    options = [
        game_option(help="Which game."),
        size_option(" (Hex default 7 here, Connect Four 7x6)"),
        blocked_option(),
        click.option("--swap", is_flag=True,
                     help="Hex: allow the swap rule (White may take Black's first stone)."),
        click.option("--black", "black", metavar="SPEC",
                     help="Black (first player): human or an engine spec."),
        click.option("--white", "white", metavar="SPEC", help="White: human or an engine spec."),
        click.option("--seed", type=click.IntRange(0, MAX_SEED - 1),
                     help="Seed for engines that take one (reproducible games), 0..2**63-2."),
        click.option("--save", type=click.Path(dir_okay=False),
                     help="Record the game to this SGF file."),
        click.option("--load", type=click.Path(dir_okay=False),
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
