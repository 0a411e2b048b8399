"""The ``boardai`` command: play, gtp, analyse, engines, solve, book, bench.

Every subcommand turns bad input into a one-line error that says what is accepted (exit status 2
for usage errors, 1 for failures) instead of a traceback.  One module per command group; each
defines its commands and this module attaches them to ``main``.
"""

from __future__ import annotations

import click

from boardai import __version__
from boardai.cli.analyse import analyse, engines
from boardai.cli.arena import match, results, tournament
from boardai.cli.bench import bench
from boardai.cli.common import CONTEXT, GAME_CHOICE, Fail, game_option
from boardai.cli.compete import compete
from boardai.cli.gtp import gtp
from boardai.cli.play import play
from boardai.cli.serve import serve
from boardai.cli.solve import book, solve
from boardai.cli.train import train
from boardai.cli.tui import tui
from boardai.cli.warmup import warmup


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="boardai")
def main() -> None:
    """Hex and Connect Four with fast AI engines.

    \b
    Examples:
      boardai play                                   # asks size and players, then plays
      boardai play --game connect4 --black human --white random
      boardai gtp --game hex --engine random         # serve an engine to HexGui
      boardai analyse --game hex --size 9 --moves "e5 d6" --engine random --json
      boardai bench playouts --game hex --size 11 --seconds 2
      boardai engines                                # every engine and its options
      boardai match random mcts:sims=200 --game hex --size 7 --games 20
      boardai tournament random mcts:sims=50 mcts:sims=200 --size 5 --games-per-pair 10
      boardai results ~/.local/share/boardai/arena.sqlite
      echo 4453 | boardai solve connect4 --analyze   # exact scores of every column
      boardai solve hex --size 4 --all-openings      # exact winner of every opening
      boardai serve --open                           # the web page: play and analyse
      boardai tui --game connect4                    # the full-screen terminal game
      boardai train --game connect4 --hours 3 runs/c4  # a learning player, by self-play
      boardai warmup                                 # compile the engines before a first game
    """


for _command in (play, gtp, engines, analyse, solve, book, bench, match, tournament, results,
                 compete, serve, tui, train, warmup):
    main.add_command(_command)

__all__ = ["CONTEXT", "GAME_CHOICE", "Fail", "game_option", "main"]
