"""``boardai gtp``: serve an engine over GTP/HTP (the server is ``boardai.ui.gtp_server``)."""

from __future__ import annotations

import sys

import click

from boardai.cli.common import CONTEXT, Int, blocked_option, game_option, size_option


@click.command(context_settings=CONTEXT)
@game_option()
@click.option("--engine", "spec", default=None, metavar="SPEC",
              help="The engine to serve, e.g. random:seed=1; default: the game's strongest at a "
                   "sensible time (Connect Four solver:time=2, Hex mcts:time=1; a GTP "
                   "time_settings replaces its time).")
@size_option("; GTP boardsize changes it")
@blocked_option()
@click.option("--seed", type=Int(0, 2**63 - 2), help="Seed for --size/--blocked random.")
@click.option("--swap", is_flag=True, help="Hex: allow swap-pieces as White's first move.")
def gtp(game, spec, size, blocked, seed, swap) -> None:
    """Serve an engine over GTP/HTP on stdin/stdout (HexGui, referees, `gtp:` clients).

    The protocol is UTF-8 whatever the locale; a line that is not UTF-8 is answered `?`.

    \b
    Example session:
      $ boardai gtp --engine random:seed=1
      boardsize 5
      =
      play black c3
      =
      genmove white
      = b4

    Connect Four's blocked cells: `block_cell 4 1` on an empty board (column 4, bottom row).
    """
    from boardai.engines.registry import make_engine, strongest_spec
    from boardai.ui.gtp_server import GtpServer

    spec = strongest_spec(game) if spec is None else spec
    try:
        engine = make_engine(spec)
        server = GtpServer(engine, game.lower(), size, swap, blocked=blocked, seed=seed)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        server.serve(sys.stdin.buffer, sys.stdout.buffer)   # bytes: UTF-8 whatever the locale
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        engine.close()
