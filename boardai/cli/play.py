"""``boardai play``: a game in the terminal."""

from __future__ import annotations

import sys

import click

from boardai.cli.common import CONTEXT, Fail, game_setup_options, setup_errors
from boardai.engines.base import EngineError


@click.command(context_settings=CONTEXT)
@game_setup_options(no_color_help="Plain ASCII (also when NO_COLOR is set).")
def play(game, size, blocked, swap, black, white, seed, move_time, save, load, no_color) -> None:
    """Play a game in the terminal (human vs human, vs machine, or machine vs machine).

    With no --black/--white it asks the board size, the number of humans and your colour.
    A human types a move (c3, C3, '2 3' = row col from 0; a column number in Connect Four),
    or swap, undo, hint, save FILE, help, quit.  Every move is recorded (SGF) as it is played.

    \b
    Examples:
      boardai play
      boardai play --size 9 --swap --black human --white random
      boardai play --size 9 --black human --white mcts --time 3
      boardai play --game connect4 --black random --white random --seed 1
      boardai play --game connect4 --size random --blocked random   # a course board
      boardai play --game connect4 --size 10x9 --blocked 4:1 --black human
      boardai play --load game.sgf
    """
    from boardai.ui.setup import build_game
    from boardai.ui.terminal import use_color

    try:
        with setup_errors():
            session = build_game(game.lower(), size, swap, black, white, seed, save, load,
                                 use_color(no_color, sys.stdout), blocked=blocked,
                                 move_time=move_time)
    except EOFError:
        raise Fail("no answer on standard input") from None
    try:
        code = session.run()
    except KeyboardInterrupt:
        path = session.save()
        click.echo(f"\nInterrupted; record saved to {path}")
        code = 130
    except (EngineError, MemoryError, ValueError) as exc:
        # an engine that fails mid-game (an external one dies, a table too big for memory, a
        # position too big for bruteforce): one line, and the game so far is kept
        path = session.save()
        raise Fail(f"an engine failed: {exc}; the game so far is saved to {path}") from None
    finally:
        for seat in session.seats.values():
            if seat.engine is not None:
                seat.engine.close()
    sys.exit(code)
