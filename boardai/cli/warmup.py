"""``boardai warmup``: compile the default engines before the first game (``boardai/warmup.py``)."""

from __future__ import annotations

import sys

import click

from boardai.cli.common import CONTEXT, GAME_CHOICE


@click.command(context_settings=CONTEXT)
@click.option("--game", "games", type=GAME_CHOICE, multiple=True,
              help="Only this game (repeat for more); default: every game.")
def warmup(games) -> None:
    """Compile the default engine of every game now, so that no game waits for the compiler.

    The engines are compiled once and kept in numba's cache; `make venv` runs this after
    installing.  Without it the first game of each kind says "preparing the engines, once"
    and compiles before its first machine move.  Run again, it checks and says "ready".

    \b
    Examples:
      boardai warmup
      boardai warmup --game connect4
    """
    import boardai.games
    from boardai.warmup import warm_defaults

    from boardai.warmup import cold_estimate

    chosen = list(dict.fromkeys(g.lower() for g in games)) or list(boardai.games.GAME_NAMES)
    seconds = cold_estimate(chosen)
    click.echo("boardai: preparing the engines, once (numba compiles them to machine code; "
               f"about {seconds} s):" if seconds else
               "boardai: the engines are compiled already; checking them:")
    took = warm_defaults(chosen, sys.stdout)
    click.echo(f"boardai: engines ready ({took:.0f} s)")
