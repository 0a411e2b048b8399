"""``boardai tui``: the full-screen game in the terminal (Textual), with ``play``'s options."""

from __future__ import annotations

import os
import sys

import click

from boardai.cli.common import CONTEXT, Fail, game_setup_options, setup_errors


@click.command(context_settings=CONTEXT)
@game_setup_options(no_color_help="No colour (also when NO_COLOR is set).")
def tui(game, size, blocked, swap, black, white, seed, move_time, save, load, no_color) -> None:
    """Play full screen: the board in colour, moves by arrow keys + Enter, mouse or typing.

    The side panel shows the engine thinking live (best move, win rate, visits, nodes/s,
    principal variation) and the moves.  Keys: u undo, h hint, n new game, s save, l load,
    : type a move or command, ? all keys, q quit.  Every move is recorded (SGF) as in play.
    With no --black/--white/--load it opens the new-game dialog first.

    \b
    Examples:
      boardai tui
      boardai tui --size 9 --black human --white mcts:time=2
      boardai tui --size 9 --black human --white mcts --time 5
      boardai tui --game connect4 --size random --blocked random --black human --white mcts
      boardai tui --load game.sgf
    """
    try:
        from boardai.ui.tui import BoardApp, Options, start_game
    except ImportError as exc:
        raise Fail(f"boardai tui needs Textual: pip install 'boardai[tui]' ({exc})") from None
    opts = Options(game=game.lower(), size=size, blocked=tuple(blocked), swap=swap, black=black,
                   white=white, seed=seed, save=save, load=load, move_time=move_time)
    with setup_errors():
        session, note = start_game(opts)
    if no_color:
        os.environ["NO_COLOR"] = "1"
    ask = black is None and white is None and load is None
    app = BoardApp(session, opts, note=note, ask=ask)
    try:
        app.run()
    finally:
        if app.searching():
            click.echo("Waiting for the engine to finish its move (it cannot stop early)...")
        app.close_engines()
    path = app.session.record_path
    if app.session.board.ply:
        click.echo(f"Game record: {path}")
    sys.exit(app.return_code or 0)
