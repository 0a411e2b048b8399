"""The ``boardai`` command: play, gtp, analyse, engines, solve, book, bench.

Every subcommand turns bad input into a one-line error that says what is accepted (exit status 2
for usage errors, 1 for failures) instead of a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
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
      boardai match random mcts:sims=200 --game hex --size 7 --games 20
      boardai tournament random mcts:sims=50 mcts:sims=200 --size 5 --games-per-pair 10
      boardai results ~/.local/share/boardai/arena.sqlite
      echo 4453 | boardai solve connect4 --analyze   # exact scores of every column
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
    from boardai.ui.gtp_server import GtpServer

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
        board.push_many(moves)
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


# --- solve --------------------------------------------------------------------------------
@main.group(context_settings=CONTEXT)
def solve() -> None:
    """Solve positions exactly (Connect Four completely; Hex on small boards)."""


@solve.command("connect4", context_settings=CONTEXT)
@click.argument("file", default="-", type=click.File("r"))
@click.option("--analyze", is_flag=True, help="Print the score of every column (-1000: full).")
@click.option("--weak", is_flag=True, help="Only the sign: 1 win, 0 draw, -1 loss.")
@click.option("--size", default="7x6", show_default=True, help="WxH (width at most 9).")
@click.option("--no-book", is_flag=True, help="Search every position (no opening book).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def solve_connect4_cmd(file, analyze, weak, size, no_book, as_json) -> None:
    """Solve Connect Four positions, one a line (moves as column digits, as Pons' solver).

    Prints `moves score nodes microseconds` (or `moves s1 ... s7` with --analyze).  Scores
    follow Pascal Pons: 0 draw, > 0 the side to move wins, |score| = 22 - the winner's stones
    at the end on 7x6.  Bad lines go to stderr with their number; exit status 1 if any.

    \b
    Examples:
      echo 4453 | boardai solve connect4
      boardai solve connect4 positions.txt --analyze
      printf '445566\\n2252576253462244111563365343\\n' | boardai solve connect4 --weak --json
    """
    from boardai.games import parse_size
    from boardai.solvers.connect4.lines import LineSolver

    try:
        w, h = parse_size("connect4", size)
        if w > 9:
            raise ValueError(f"positions are column digits, so --size allows widths up to 9, not {w}")
        solver = LineSolver(w, h, weak=weak, analyze=analyze, use_book=not no_book)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    results, bad = [], 0
    for res in solver.run(file):
        if res.error is not None:
            bad += 1
            click.echo(f"line {res.line}: {res.error}: {res.moves!r}", err=True)
        elif as_json:
            results.append(res.json())
        else:
            click.echo(res.text())
    if as_json:
        click.echo(json.dumps({"size": f"{w}x{h}", "results": results, "bad_lines": bad}))
    sys.exit(1 if bad else 0)


# --- book ---------------------------------------------------------------------------------
@main.group(context_settings=CONTEXT)
def book() -> None:
    """Build opening books with the project's own solvers."""


@book.command("connect4", context_settings=CONTEXT)
@click.option("--depth", type=click.IntRange(0, 20), required=True,
              help="Solve every position with this many stones; shallower ones follow.")
@click.option("--lines", type=click.IntRange(0, 41),
              help="Then add the solver engine's own lines (its best move, any reply) up to "
                   "this many stones.")
@click.option("--out", type=click.Path(dir_okay=False), help="Where to write (default: the package's book).")
def book_connect4_cmd(depth, lines, out) -> None:
    """Build the Connect Four opening book (resumable: run it again after an interruption).

    Every position of up to --depth stones gets its exact score.  A book of that depth already
    at --out is kept, so --lines can extend it: each position the solver engine can meet on
    its lines up to --lines stones gets its best move too.

    \b
    Examples:
      boardai book connect4 --depth 2
      boardai book connect4 --depth 2 --lines 5
    """
    from rich.progress import Progress

    from boardai.solvers.connect4.book import BOOK_PATH, Book, build_book, build_lines

    target = out or BOOK_PATH
    try:
        existing = Book.load(target).depth if os.path.exists(target) else None
    except (OSError, ValueError, KeyError) as exc:
        raise click.UsageError(f"{target} is not a book: {exc}") from None
    with Progress() as bar:
        if existing != depth:
            task = bar.add_task(f"solving {depth}-stone positions", total=None)
            built = build_book(depth, target,
                               progress=lambda done, total: bar.update(task, completed=done,
                                                                       total=total))
        else:
            built = Book.load(target)
        if lines is not None:
            tasks: dict[int, int] = {}

            def step(ply, done, total):
                if ply not in tasks:
                    tasks[ply] = bar.add_task(f"engine lines, {ply} stones", total=total)
                bar.update(tasks[ply], completed=done, total=total)

            built = build_lines(lines, target, progress=step)
    click.echo(f"{len(built)} positions (every one up to {depth} stones"
               + (f", the engine's lines up to {lines}" if lines is not None else "")
               + f") written to {target}")


@book.command("hex", context_settings=CONTEXT)
@click.option("--sizes", default="1-6", show_default=True,
              help="Board sizes: N, N-M or a comma list (the solver handles up to 8).")
@click.option("--time", "seconds", type=float, help="Seconds per opening (default: no limit).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Openings solved side by side.")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Where to write (default: the package's table).")
def book_hex_cmd(sizes, seconds, threads, out) -> None:
    """Solve every one-stone opening of each size: the table the solver engine swaps by.

    A size with an opening not solved within --time is left out of the table.

    \b
    Example:
      boardai book hex --sizes 1-6
    """
    from boardai.solvers.hex.solver import OPENINGS_PATH, build_opening_table

    try:
        wanted = _size_list(sizes)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sizes") from None
    if seconds is not None and seconds <= 0:
        raise click.BadParameter("must be > 0 seconds", param_hint="--time")

    def progress(name, winner, nodes, secs):
        click.echo(f"  {name}: {winner or 'unsolved'} ({nodes} nodes, {secs:.2f} s)", err=True)

    table = build_opening_table(wanted, out or OPENINGS_PATH, seconds, progress, threads)
    for size in wanted:
        if size in table:
            wins = sorted(k for k, v in table[size].items() if v == "black")
            click.echo(f"{size}x{size}: Black wins with {len(wins)} of {size * size} openings")
        else:
            click.echo(f"{size}x{size}: not every opening solved in time; left out")
    click.echo(f"written to {out or OPENINGS_PATH}")


def _size_list(text: str) -> list[int]:
    """"5", "1-6" or "4,6" -> sizes 1..8 (the Hex solver's range)."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise ValueError(f"{text!r}: give sizes as N, N-M or a comma list, e.g. 1-6")
        a, b = int(lo), int(hi or lo)
        if not 1 <= a <= b <= 8:
            raise ValueError(f"{part!r}: sizes go from 1 to 8 for the Hex solver")
        out.extend(range(a, b + 1))
    return sorted(set(out))


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

    w, h = _bench_size(game, size, seconds)
    result = bench_playouts(game.lower(), w, h, seconds, threads, seed)
    click.echo(json.dumps(result) if as_json else format_playouts(result))


@bench.command("mcts", context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="hex", show_default=True)
@click.option("--size", help="N or WxH (default 11 for Hex, 7x6 for Connect Four).")
@click.option("--seconds", type=float, default=3.0, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Root-parallel threads; >1 also measures one thread for the scaling.")
@click.option("--options", default="", metavar="K=V,...", help="Extra mcts options, e.g. rave=0.")
@click.option("--peer", is_flag=True, help="Also measure OpenSpiel's C++ MCTSBot (needs open_spiel).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_mcts_cmd(game, size, seconds, threads, options, peer, as_json) -> None:
    """MCTS simulations per second from the empty board.

    \b
    Examples:
      boardai bench mcts --game hex --size 11 --seconds 3 --threads 2 --json
      boardai bench mcts --game connect4 --peer      # ratio against OpenSpiel's MCTSBot
    """
    from boardai.bench import bench_mcts, format_mcts
    from boardai.engines.registry import EngineSpecError, make_engine

    w, h = _bench_size(game, size, seconds)
    try:
        make_engine("mcts:" + options if options else "mcts")
        if peer:
            make_engine("openspiel-mcts")
    except (EngineSpecError, ValueError, ImportError) as exc:
        raise click.UsageError(str(exc)) from None
    result = bench_mcts(game.lower(), w, h, seconds, threads, options, peer)
    click.echo(json.dumps(result) if as_json else format_mcts(result))


@bench.command("alphabeta", context_settings=CONTEXT)
@click.option("--game", type=GAME_CHOICE, default="connect4", show_default=True)
@click.option("--size", help="N or WxH (default 11 for Hex, 7x6 for Connect Four).")
@click.option("--eval", "evaluator", help="Evaluator (default: the game's; see boardai engines).")
@click.option("--moves", default=None, help='Position to search from (default: Connect Four "4453", '
              "Hex the empty board).")
@click.option("--seconds", type=float, default=3.0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_alphabeta_cmd(game, size, evaluator, moves, seconds, as_json) -> None:
    """Alpha-beta nodes per second (one thread, iterative deepening for SECONDS).

    \b
    Examples:
      boardai bench alphabeta --game connect4 --eval lines --json
      boardai bench alphabeta --game hex --size 9 --eval resistance --seconds 2
    """
    from boardai.bench import bench_alphabeta, format_alphabeta
    from boardai.engines.alphabeta import evaluator_id

    w, h = _bench_size(game, size, seconds)
    try:
        evaluator_id(game.lower(), evaluator)
        result = bench_alphabeta(game.lower(), w, h, seconds, evaluator, moves)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(json.dumps(result) if as_json else format_alphabeta(result))


def _bench_size(game: str, size: str | None, seconds: float) -> tuple[int, int]:
    """The board size a bench command was given, checked (a usage error names what is accepted)."""
    from boardai.games import make_board, parse_size

    try:
        w, h = parse_size(game.lower(), size)
        make_board(game.lower(), (w, h))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if seconds <= 0:
        raise click.UsageError("--seconds must be > 0")
    return w, h


# --- arena: match, tournament, results -----------------------------------------------------
def _arena_options(f):
    f = click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")(f)
    f = click.option("--move-timeout", type=click.FloatRange(min=0, min_open=True),
                     help="Hard limit in seconds per move; slower loses on time (default: 30 s "
                          "plus twice the largest time= in the specs).")(f)
    f = click.option("--seed", type=int, default=1, show_default=True,
                     help="Match seed; game i is seeded from it and i (reproducible, resumable).")(f)
    f = click.option("--store", type=click.Path(dir_okay=False),
                     help="Result store (SQLite); default $BOARDAI_HOME/arena.sqlite or "
                          "~/.local/share/boardai/arena.sqlite.")(f)
    f = click.option("--jobs", type=click.IntRange(1, 256),
                     help="Worker processes (default: the number of cores; 1 = this process).")(f)
    f = click.option("--size", help="Board size: N or WxH (default 11 for Hex, 7x6 for Connect Four).")(f)
    f = click.option("--game", type=GAME_CHOICE, default="hex", show_default=True)(f)
    return f


@contextlib.contextmanager
def _interrupts(path):
    """Ctrl-C stops a match cleanly: what is stored stays stored; the same command resumes."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted; finished games are in {path}: run the same command to resume",
                   err=True)
        sys.exit(130)


def _arena_setup(game, size, store):
    from pathlib import Path

    from boardai.arena.match import default_store_path
    from boardai.arena.store import Store, StoreError
    from boardai.games import parse_size

    try:
        w, h = parse_size(game.lower(), size)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    path = Path(store) if store else default_store_path()
    try:
        return w, h, path, Store(path)
    except StoreError as exc:
        raise Fail(str(exc)) from None


@main.command(context_settings=CONTEXT)
@click.argument("engine_a", metavar="A")
@click.argument("engine_b", metavar="B")
@click.option("--games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--openings", metavar="SUITE|FILE",
              help="hex-1stone, c4-random-4, or a file with one opening per line; each opening "
                   "is played twice with colours reversed.")
@click.option("--sprt", metavar="elo0=0,elo1=20,alpha=0.05,beta=0.05",
              help="Stop as soon as the sequential probability ratio test decides.")
@_arena_options
def match(engine_a, engine_b, games, openings, sprt, game, size, jobs, store, seed, move_timeout,
          as_json) -> None:
    """Play a match between engines A and B (specs, or gtp:COMMAND) with Elo and error bars.

    Colours alternate.  Every finished game is committed to the result store at once; running
    the same command again resumes (only missing games are played).

    \b
    Examples:
      boardai match random mcts:sims=200 --game hex --size 7 --games 20 --store a.sqlite
      boardai match mcts:time=0.05 random --game connect4 --openings c4-random-4 --games 50
      boardai match random "gtp:boardai gtp --engine random" --size 5 --games 10 --json
      boardai match mcts:sims=400 mcts:sims=100 --size 7 --games 400 --sprt elo0=0,elo1=50
    """
    from boardai.arena.match import make_plan, run_match
    from boardai.arena.ratings import SprtSpec
    from boardai.arena.report import ProgressBar, outcome_json, print_match, report_console
    from boardai.arena.runner import make_runner

    w, h, path, db = _arena_setup(game, size, store)
    try:
        spec = SprtSpec.parse(sprt) if sprt is not None else None
        plan = make_plan(engine_a, engine_b, game.lower(), w, h, openings, seed, move_timeout, path)
    except ValueError as exc:
        db.close()
        raise click.UsageError(str(exc)) from None
    with db, _interrupts(path), make_runner(jobs) as runner, ProgressBar(
            games, "match", enabled=sys.stderr.isatty()) as bar:
        out = run_match(plan, games, db, runner, spec, bar)
    if as_json:
        click.echo(json.dumps(outcome_json(out)))
    else:
        print_match(out, report_console())
        click.echo(f"store: {path}")


@main.command(context_settings=CONTEXT)
@click.argument("engines", metavar="E1 E2 [E3 ...]", nargs=-1, required=True)
@click.option("--games-per-pair", type=click.IntRange(1), default=20, show_default=True)
@click.option("--openings", metavar="SUITE|FILE", help="As for match: hex-1stone, c4-random-4 or a file.")
@_arena_options
def tournament(engines, games_per_pair, openings, game, size, jobs, store, seed, move_timeout,
               as_json) -> None:
    """Round robin between engines: maximum-likelihood Elo ratings (the first at 0) with 95%
    intervals, and a cross-table.  Resumes from the store like match.

    \b
    Examples:
      boardai tournament random mcts:sims=50 mcts:sims=200 --size 5 --games-per-pair 10
      boardai tournament random mcts:time=0.01 --game connect4 --games-per-pair 20 --json
    """
    from boardai.arena.match import make_plan, run_tournament
    from boardai.arena.report import ProgressBar, print_tournament, report_console
    from boardai.arena.runner import make_runner

    if len(engines) < 2:
        raise click.UsageError("a tournament needs at least two engines")
    if len(set(e.strip() for e in engines)) != len(engines):
        raise click.UsageError("an engine is listed twice: give each spec once")
    w, h, path, db = _arena_setup(game, size, store)
    try:
        plans = {(i, j): make_plan(engines[i], engines[j], game.lower(), w, h, openings, seed,
                                   move_timeout, path)
                 for i in range(len(engines)) for j in range(i + 1, len(engines))}
    except ValueError as exc:
        db.close()
        raise click.UsageError(str(exc)) from None
    total = games_per_pair * len(plans)
    with db, _interrupts(path), make_runner(jobs) as runner, ProgressBar(
            total, "tournament", enabled=sys.stderr.isatty()) as bar:
        out = run_tournament(plans, [e.strip() for e in engines], games_per_pair, db, runner, bar)
    if as_json:
        click.echo(json.dumps(out.to_json()))
    else:
        print_tournament(out, report_console())
        click.echo(f"store: {path}")


@main.command(context_settings=CONTEXT)
@click.argument("store", type=click.Path(dir_okay=False))
@click.option("--export-sgf", "export", type=click.Path(file_okay=False), metavar="DIR",
              help="Write every stored game as a record file (SGF) into DIR.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def results(store, export, as_json) -> None:
    """Summaries of what a result store holds; game records out.

    \b
    Examples:
      boardai results arena.sqlite
      boardai results arena.sqlite --export-sgf games/ --json
    """
    import os

    from boardai.arena.report import export_sgf, print_store, report_console, store_summary
    from boardai.arena.store import Store, StoreError
    from boardai.records import RecordError

    if not os.path.exists(store):
        raise Fail(f"{store}: no such result store (give the file a match or tournament wrote)")
    try:
        db = Store(store)
    except StoreError as exc:
        raise Fail(str(exc)) from None
    with db:
        rows = store_summary(db)
        try:
            exported = export_sgf(db, export) if export else None
        except RecordError as exc:
            raise Fail(str(exc)) from None
    if as_json:
        payload = {"store": store, "matches": rows}
        if exported is not None:
            payload["exported"] = exported
        click.echo(json.dumps(payload))
        return
    print_store(store, rows, report_console())
    if exported is not None:
        click.echo(f"{exported} game record(s) written to {export}")


@bench.command("solver", context_settings=CONTEXT)
@click.option("--classes", default=None, help="Comma-separated classes (default: all six).")
@click.option("--limit", type=click.IntRange(1), help="At most this many positions per class.")
@click.option("--tt-bits", type=click.IntRange(16, 30), default=20, show_default=True,
              help="Transposition table of 2**N entries (8 bytes each).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_solver_cmd(classes, limit, tt_bits, as_json) -> None:
    """Connect Four solver: mean time per position on Pons' six classes, vs his C++ solver.

    \b
    Examples:
      boardai bench solver
      boardai bench solver --classes end-easy,middle-easy --limit 50 --json
      boardai bench solver --classes middle-medium --tt-bits 18
    """
    import os

    from boardai.solvers.connect4.bench import CLASS_NAMES, data_path, format_bench, run_bench

    names = CLASS_NAMES if not classes else tuple(c.strip() for c in classes.split(",") if c.strip())
    for n in names:
        if n not in CLASS_NAMES:
            raise click.UsageError(f"unknown class {n!r}: choose from {', '.join(CLASS_NAMES)}")
        if not data_path(n).exists():
            raise Fail(f"no test set {data_path(n)}: run benchmarks/connect4_solver.py --generate")
    rows = run_bench(names, limit, tt_bits=tt_bits)
    load = os.getloadavg()[0]
    click.echo(format_bench(rows) + f"\nload average (1 min) at the end: {load:.2f}")
    if as_json:
        click.echo(json.dumps({"rows": rows, "load1": load}))


# --- solve hex ----------------------------------------------------------------------------
@solve.command("hex", context_settings=CONTEXT)
@click.option("--size", type=int, required=True, help="Board side N (1..8).")
@click.option("--moves", default="", help='Moves from the empty board: "c3 d4" (no swap).')
@click.option("--all-openings", is_flag=True, help="Solve every one-stone opening by Black.")
@click.option("--time", "seconds", type=float, help="Seconds per position (default: no limit).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="--all-openings: openings solved side by side.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def solve_hex_cmd(size, moves, all_openings, seconds, threads, as_json) -> None:
    """Solve a Hex position (DFPN with virtual connections): winner and winning moves.

    \b
    Examples:
      boardai solve hex --size 5 --moves "c3"
      boardai solve hex --size 6 --all-openings --json   # {"openings": {"a1": "white", ...}}
      boardai solve hex --size 7 --all-openings --threads 2 --time 120
      boardai solve hex --size 7 --moves "d4" --time 60
    """
    from boardai.solvers.hex.solver import run_solve_command

    try:
        run_solve_command(size, moves, all_openings, seconds, as_json, click.echo,
                          lambda line: click.echo(line, err=True), threads)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


if __name__ == "__main__":
    main()
