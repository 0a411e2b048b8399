"""``boardai gtp``: serve an engine over GTP/HTP (the server is ``boardai.ui.gtp_server``)."""

from __future__ import annotations

import sys

import click

from boardai.cli.common import CONTEXT, game_option


@click.command(context_settings=CONTEXT)
@game_option()
@click.option("--engine", "spec", default="random", show_default=True, metavar="SPEC",
              help="The engine to serve, e.g. random:seed=1.")
@click.option("--size", help="Initial board size (N or WxH); GTP boardsize changes it.")
@click.option("--swap", is_flag=True, help="Hex: allow swap-pieces as White's first move.")
def gtp(game, spec, size, swap) -> None:
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
    """
    from boardai.engines.registry import make_engine
    from boardai.ui.gtp_server import GtpServer

    try:
        engine = make_engine(spec)
        server = GtpServer(engine, game.lower(), size, swap)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        server.serve(sys.stdin.buffer, sys.stdout.buffer)   # bytes: UTF-8 whatever the locale
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        engine.close()
