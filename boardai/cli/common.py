"""What every command module of the ``boardai`` command shares: context, errors, the --game option."""

from __future__ import annotations

import click

import boardai.games

GAME_CHOICE = click.Choice(list(boardai.games.all_games()), case_sensitive=False)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Fail(click.ClickException):
    """A clear error message and exit status 1."""


def game_option(default: str = boardai.games.DEFAULT_GAME, help: str | None = None):
    """The ``--game`` option: any registered game, ``default`` shown in the help."""
    return click.option("--game", type=GAME_CHOICE, default=default, show_default=True, help=help)
