"""The ``boardai`` command: play, gtp, analyse, engines, bench.

Every subcommand turns bad input into a one-line error that says what is accepted (exit status 2
for usage errors, 1 for failures) instead of a traceback.
"""

from __future__ import annotations

import json
import sys

import click

from boardai import __version__

GAME_CHOICE = click.Choice(["hex", "connect4"], case_sensitive=False)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Fail(click.ClickException):
    """A clear error message and exit status 1."""


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
      boardai solve hex --size 4 --all-openings      # exact winner of every opening
    """


# --- play ---------------------------------------------------------------------------------
@main.command(context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="hex", show_default=True, help="Which game.")
@click.option("--size", help="Board size: N or WxH (Hex default 7 here, Connect Four 7x6).")
@click.option("--swap", is_flag=True, help="Hex: allow the swap rule (White may take Black's first stone).")
@click.option("--black", "black", metavar="SPEC", help="Black (first player): human or an engine spec.")
@click.option("--white", "white", metavar="SPEC", help="White: human or an engine spec.")
@click.option("--seed", type=int, help="Seed for engines that take one (reproducible games).")
@click.option("--save", type=click.Path(dir_okay=False), help="Record the game to this SGF file.")
@click.option("--load", type=click.Path(dir_okay=False), help="Resume the game recorded in this file.")
@click.option("--no-color", is_flag=True, help="Plain ASCII (also when NO_COLOR is set).")
def play(game, size, swap, black, white, seed, save, load, no_color) -> None:
    """Play a game in the terminal (human vs human, vs machine, or machine vs machine).

    With no --black/--white it asks the board size, the number of humans and your colour.
    A human types a move (c3, C3, '2 3' = row col from 0; a column number in Connect Four),
    or swap, undo, hint, save FILE, help, quit.  Every move is recorded (SGF) as it is played.

    \b
    Examples:
      boardai play
      boardai play --size 9 --swap --black human --white random
      boardai play --game connect4 --black random --white random --seed 1
      boardai play --load game.sgf
    """
    from boardai.records import RecordError
    from boardai.ui.setup import build_game
    from boardai.ui.terminal import use_color

    try:
        session = build_game(game.lower(), size, swap, black, white, seed, save, load,
                             use_color(no_color, sys.stdout))
    except RecordError as exc:
        raise Fail(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except EOFError:
        raise Fail("no answer on standard input") from None
    try:
        code = session.run()
    except KeyboardInterrupt:
        path = session.save()
        click.echo(f"\nInterrupted; record saved to {path}")
        code = 130
    sys.exit(code)


# --- gtp ----------------------------------------------------------------------------------
@main.command(context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="hex", show_default=True)
@click.option("--engine", "spec", default="random", show_default=True, metavar="SPEC",
              help="The engine to serve, e.g. random:seed=1.")
@click.option("--size", help="Initial board size (N or WxH); GTP boardsize changes it.")
@click.option("--swap", is_flag=True, help="Hex: allow swap-pieces as White's first move.")
def gtp(game, spec, size, swap) -> None:
    """Serve an engine over GTP/HTP on stdin/stdout (HexGui, referees, `gtp:` clients).

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
    from boardai.gtp.server import GtpServer

    try:
        engine = make_engine(spec)
        server = GtpServer(engine, game.lower(), size, swap)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        server.serve(sys.stdin, sys.stdout)
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        engine.close()


# --- engines ------------------------------------------------------------------------------
@main.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable list.")
def engines(as_json) -> None:
    """List every engine with its options, defaults and what it is."""
    from boardai.engines.registry import all_engines, engine_options

    table = []
    for name, cls in all_engines().items():
        opts = [{"name": o.name, "default": o.default, "help": o.help} for o in engine_options(cls)]
        table.append({"name": name, "summary": cls.summary, "options": opts})
    if as_json:
        click.echo(json.dumps(table))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    t = Table(title="boardai engines (spec: name[:key=value,...])")
    t.add_column("engine", style="bold")
    t.add_column("what it is")
    t.add_column("options (default)")
    for row in table:
        opts = "\n".join(f"{o['name']}={o['default'] if o['default'] is not None else '-'}  {o['help']}"
                         for o in row["options"]) or "-"
        t.add_row(escape(row["name"]), escape(row["summary"]), escape(opts))
    Console(width=110).print(t)


# --- analyse ------------------------------------------------------------------------------
@main.command(context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="hex", show_default=True)
@click.option("--size", help="Board size: N or WxH (default 11 for Hex, 7x6 for Connect Four).")
@click.option("--swap", is_flag=True, help="Hex: the swap rule is on.")
@click.option("--moves", default="", help='Moves from the empty board: "c3 d4" (Connect Four also "4453").')
@click.option("--engine", "spec", default="random", show_default=True, metavar="SPEC")
@click.option("--time", "seconds", type=float, help="Seconds for the engine.")
@click.option("--sims", type=int, help="Simulations for the engine.")
@click.option("--depth", type=int, help="Depth for the engine.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def analyse(game, size, swap, moves, spec, seconds, sims, depth, as_json) -> None:
    """Ask an engine about a position: its move, value, principal variation, statistics.

    \b
    Examples:
      boardai analyse --game hex --size 9 --moves "e5 d6" --engine random
      boardai analyse --game connect4 --moves 4453 --engine random --json
    """
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import make_board

    try:
        board = make_board(game.lower(), size, swap=swap)
        text = moves.strip()
        if board.game_name == "connect4" and text.isascii() and text.isdigit() and board.width <= 9:
            board.push_many(list(text))
        else:
            board.push_many(text.replace(",", " ").split())
        engine = make_engine(spec)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if board.is_game_over():
        raise click.UsageError(f"the game is already over: {board.outcome()}")
    try:
        result = engine.analyse(board, Limit(time=seconds, sims=sims, depth=depth))
    finally:
        engine.close()
    payload = {"game": board.game_name, "size": board.size_text, "moves": board.moves_text(),
               "engine": engine.spec, **result.to_json()}
    payload["moves"] = [vars(m) for m in result.moves]
    payload["position"] = board.moves_text()
    if not as_json:
        click.echo(board.render())
        value = "-" if result.value is None else f"{result.value:+.3f}"
        click.echo(f"{board.turn} to move; {engine.spec} plays {result.name}  value {value}  "
                   f"nodes {result.nodes}  time {result.time_s:.3f} s")
        if result.pv:
            click.echo("pv: " + " ".join(result.pv))
    else:
        click.echo(json.dumps(payload))


# --- bench --------------------------------------------------------------------------------
@main.group(context_settings=CONTEXT)
def bench() -> None:
    """Speed measurements (see benchmarks/ for the comparisons with reference code)."""


@bench.command("playouts", context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="hex", show_default=True)
@click.option("--size", help="N or WxH (default 11 for Hex, 7x6 for Connect Four).")
@click.option("--seconds", type=float, default=2.0, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_playouts_cmd(game, size, seconds, threads, seed, as_json) -> None:
    """Random playouts per second from the empty board.

    \b
    Example:
      boardai bench playouts --game hex --size 11 --seconds 3 --threads 2 --json
    """
    from boardai.bench import bench_playouts, format_playouts
    from boardai.games import parse_size

    try:
        w, h = parse_size(game.lower(), size)
        from boardai.games import make_board
        make_board(game.lower(), (w, h))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if seconds <= 0:
        raise click.UsageError("--seconds must be > 0")
    result = bench_playouts(game.lower(), w, h, seconds, threads, seed)
    click.echo(json.dumps(result) if as_json else format_playouts(result))


# --- solve --------------------------------------------------------------------------------
@main.group(context_settings=CONTEXT)
def solve() -> None:
    """Exact solvers: the winner of a position with perfect play."""


@solve.command("hex", context_settings=CONTEXT)
@click.option("--size", type=int, required=True, help="Board side N (1..8).")
@click.option("--moves", default="", help='Moves from the empty board: "c3 d4" (no swap).')
@click.option("--all-openings", is_flag=True, help="Solve every one-stone opening by Black.")
@click.option("--time", "seconds", type=float, help="Seconds per position (default: no limit).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def solve_hex_cmd(size, moves, all_openings, seconds, as_json) -> None:
    """Solve a Hex position (DFPN with virtual connections): winner and winning moves.

    \b
    Examples:
      boardai solve hex --size 5 --moves "c3"
      boardai solve hex --size 6 --all-openings --json   # {"openings": {"a1": "white", ...}}
      boardai solve hex --size 7 --moves "d4" --time 60
    """
    from boardai.games.hex.solver import run_solve_command

    try:
        run_solve_command(size, moves, all_openings, seconds, as_json, click.echo,
                          lambda line: click.echo(line, err=True))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


if __name__ == "__main__":
    main()
