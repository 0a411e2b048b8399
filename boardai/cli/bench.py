"""``boardai bench``: the command-line front of the measurements in ``boardai/bench/`` (playouts,
MCTS, alpha-beta, the Connect Four solver, the course board) and ``bench fuzz``, the fuzzing of the
input surfaces (``bench/fuzz.py``, ``bench/cli_fuzz.py``) with its lines/s: options, checks and
printing here, the measuring there."""

from __future__ import annotations

import json
import os
import sys

import click

import boardai.games
from boardai.cli.common import (
    CONTEXT, Fail, Float, Int, blocked_option, board_from_options, game_option, size_option,
)


MAX_BENCH_SECONDS = 86_400     # a day: longer is a typo (nan and inf never end)
MAX_FUZZ_LINES = 10**8


@click.group(context_settings=CONTEXT)
def bench() -> None:
    """Speed measurements (see benchmarks/ for the comparisons with reference code)."""


@bench.command("playouts", context_settings=CONTEXT)
@game_option()
@size_option()
@blocked_option()
@click.option("--seconds", type=Float(0, MAX_BENCH_SECONDS, min_open=True), default=2.0, show_default=True,
              help=f"Seconds to measure, in (0, {MAX_BENCH_SECONDS}].")
@click.option("--threads", type=Int(1, 64), default=1, show_default=True)
@click.option("--seed", type=Int(0, 2**63 - 2), default=0, show_default=True,
              help="Seed of the playouts, 0..2**63-2.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_playouts_cmd(game, size, blocked, seconds, threads, seed, as_json) -> None:
    """Random playouts per second from the empty board.

    \b
    Example:
      boardai bench playouts --game hex --size 11 --seconds 3 --threads 2 --json
    """
    from boardai.bench.speed import bench_playouts, format_playouts

    w, h, cells = _bench_size(game, size, seconds, blocked)
    result = bench_playouts(game.lower(), w, h, seconds, threads, seed, cells)
    click.echo(json.dumps(result) if as_json else format_playouts(result))


@bench.command("mcts", context_settings=CONTEXT)
@game_option()
@size_option()
@blocked_option()
@click.option("--seconds", type=Float(0, MAX_BENCH_SECONDS, min_open=True), default=3.0, show_default=True,
              help=f"Seconds to measure, in (0, {MAX_BENCH_SECONDS}].")
@click.option("--threads", type=Int(1, 64), default=1, show_default=True,
              help="Root-parallel threads; >1 also measures one thread for the scaling.")
@click.option("--options", default="", metavar="K=V,...", help="Extra mcts options, e.g. rave=0.")
@click.option("--peer", is_flag=True, help="Also measure OpenSpiel's C++ MCTSBot (needs open_spiel).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_mcts_cmd(game, size, blocked, seconds, threads, options, peer, as_json) -> None:
    """MCTS simulations per second from the empty board.

    \b
    Examples:
      boardai bench mcts --game hex --size 11 --seconds 3 --threads 2 --json
      boardai bench mcts --game connect4 --peer      # ratio against OpenSpiel's MCTSBot
    """
    from boardai.bench.speed import bench_mcts, format_mcts
    from boardai.engines.registry import EngineSpecError, make_engine

    w, h, cells = _bench_size(game, size, seconds, blocked)
    try:
        make_engine("mcts:" + options if options else "mcts")
        if peer:
            make_engine("openspiel-mcts")
    except (EngineSpecError, ValueError, ImportError) as exc:
        raise click.UsageError(str(exc)) from None
    result = bench_mcts(game.lower(), w, h, seconds, threads, options, peer, cells)
    click.echo(json.dumps(result) if as_json else format_mcts(result))


@bench.command("alphabeta", context_settings=CONTEXT)
@game_option(default="connect4")
@size_option()
@click.option("--eval", "evaluator", help="Evaluator (default: the game's; see boardai engines).")
@click.option("--moves", default=None, help='Position to search from (default: Connect Four "4453", '
              "Hex the empty board).")
@click.option("--seconds", type=Float(0, MAX_BENCH_SECONDS, min_open=True), default=3.0, show_default=True,
              help=f"Seconds to measure, in (0, {MAX_BENCH_SECONDS}].")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
@blocked_option()
def bench_alphabeta_cmd(game, size, evaluator, moves, seconds, as_json, blocked) -> None:
    """Alpha-beta nodes per second (one thread, iterative deepening for SECONDS).

    \b
    Examples:
      boardai bench alphabeta --game connect4 --eval lines --json
      boardai bench alphabeta --game hex --size 9 --eval resistance --seconds 2
    """
    from boardai.bench.speed import bench_alphabeta, format_alphabeta
    from boardai.engines.alphabeta import evaluator_id

    w, h, cells = _bench_size(game, size, seconds, blocked)
    try:
        evaluator_id(game.lower(), evaluator)
        if moves is not None:               # checked before the long work
            board_from_options(game.lower(), size, blocked, seed=0).push_many(moves)
        result = bench_alphabeta(game.lower(), w, h, seconds, evaluator, moves, cells)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(json.dumps(result) if as_json else format_alphabeta(result))


@bench.command("solver", context_settings=CONTEXT)
@click.option("--classes", default=None, help="Comma-separated classes (default: all six).")
@click.option("--limit", type=Int(1, 1_000_000), help="At most this many positions per class "
              "(1..1000000).")
@click.option("--tt-bits", type=Int(16, 30), default=20, show_default=True,
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
    from boardai.bench.solver import CLASS_NAMES, data_path, format_bench, run_bench

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


@bench.command("course", context_settings=CONTEXT)
@click.option("--seconds", type=Float(0.1, 600), default=2.0, show_default=True,
              help="Seconds for each measurement (six of them).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_course_cmd(seconds, as_json) -> None:
    """A Tsinghua course board: our kernel and mcts against a plain array-board playout and UCT.

    The plain references (boardai/bench/plain.py) are what a first numba program on an
    array board does; the ratios are measured in the same run.

    \b
    Example:
      boardai bench course --seconds 3
    """
    from boardai.bench.course import bench_course, format_course

    result = bench_course(seconds)
    click.echo(format_course(result))
    if as_json:
        click.echo(json.dumps(result))


def _bench_size(game: str, size: str | None, seconds: float, blocked=()):
    """(width, height, blocked cells) a bench command was given, checked (a usage error names
    what is accepted; ``random`` draws are seeded with 0, so a bench is repeatable)."""
    board = board_from_options(game.lower(), size, blocked, seed=0)
    if seconds <= 0:
        raise click.UsageError("--seconds must be > 0")
    return board.width, board.height, board.setup


# --- bench fuzz -----------------------------------------------------------------------------------
FUZZ_TARGETS = ("gtp", "records", "solve")
SOLVE_GAME = "connect4"          # `solve connect4` is the only solve command


def _fuzz_runs(target: str, game: str, process: bool) -> list[tuple[str, str]]:
    """(target, game) pairs to run, in order; a usage error for a solve of another game."""
    if target == "cli":
        return [("cli", "-")]
    games = sorted(boardai.games.all_games()) if game == "all" else [boardai.games.get_game(game).name]
    targets = FUZZ_TARGETS if target == "all" else (target,)
    if target == "solve" and SOLVE_GAME not in games:
        raise click.UsageError(f"--target solve fuzzes the lines of `solve {SOLVE_GAME}`: "
                               f"use --game {SOLVE_GAME} or --game all")
    runs = []
    for t in targets:
        for g in games:
            if t == "solve" and g != SOLVE_GAME:
                continue
            runs.append((t, g))
            if t == "gtp" and process:
                runs.append(("gtp-process", g))
    return runs


def _fuzz_one(target: str, game: str, lines, seconds, seed, progress):
    from boardai.bench import fuzz

    if target == "cli":
        from boardai.bench.cli_fuzz import fuzz_cli
        return fuzz_cli(click.get_current_context().find_root().command, lines, seconds, seed,
                        progress=progress)
    if target == "gtp":
        return fuzz.fuzz_gtp(game, lines, seconds, seed, progress)
    if target == "gtp-process":
        return fuzz.fuzz_gtp_process(game, lines, seconds, seed, progress)
    if target == "records":
        return fuzz.fuzz_records(game, lines, seconds, seed, progress)
    from boardai.solvers.connect4.lines import LineSolver
    return fuzz.fuzz_solve(LineSolver(), lines, seconds, seed, progress, game=game)


def format_fuzz(reports: list, seed: int) -> str:
    """The table of a fuzz run, then every failure kind with its first reproducers."""
    from boardai.bench.cli_fuzz import KINDS as CLI_KINDS
    from boardai.bench.fuzz import KINDS
    KINDS = {**KINDS, **CLI_KINDS}

    out = [f"{'target':<12} {'game':<10} {'inputs':>9} {'seconds':>8} {'per s':>8} {'failures':>9}"]
    for r in reports:
        out.append(f"{r.target:<12} {r.game:<10} {r.done:>9,} {r.seconds:>8.1f} {r.rate:>8,.0f} "
                   f"{r.failures:>9,}")
    failed = [r for r in reports if r.failures]
    if not failed:
        out.append(f"no failures (seed {seed})")
    for r in failed:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(r.counts.items()))
        out.append(f"\nFAILED {r.target} {r.game}: {kinds}")
        for kind in sorted(r.counts):
            out.append(f"  {kind}: {KINDS.get(kind, kind)}")
            for f in (f for f in r.examples if f.kind == kind):
                message = f.message if len(f.message) <= 300 else f.message[:300] + "..."
                out.append(f"    {f.data!r}\n      {message}")
    return "\n".join(out)


@bench.command("fuzz", context_settings=CONTEXT)
@click.option("--target", type=click.Choice([*FUZZ_TARGETS, "all", "cli"]), default="all",
              show_default=True, help="gtp: the GTP server; records: records.loads (SGF); solve: "
              "the lines of `solve connect4` (Connect Four only); all: these three; cli: the "
              "boardai command itself, every subcommand and option with bad values (--game "
              "plays no part; --lines counts invocations, default the generated list once).")
@click.option("--game", type=click.Choice([*boardai.games.GAME_NAMES, "all"], case_sensitive=False),
              default="all", show_default=True, help="The game of the servers and records.")
@click.option("--lines", type=Int(1, MAX_FUZZ_LINES), default=None,
              help=f"Inputs per target and game, 1..{MAX_FUZZ_LINES} (default 10000).")
@click.option("--seconds", type=Float(0, MAX_BENCH_SECONDS, min_open=True), default=None,
              help=f"Fuzz each target and game for this long instead of --lines, in "
                   f"(0, {MAX_BENCH_SECONDS}].")
@click.option("--seed", type=Int(0, 2**63 - 2), default=0, show_default=True,
              help="Seed of the random inputs, 0..2**63-2 (the same seed, the same inputs).")
@click.option("--process", is_flag=True,
              help="GTP also through a real `boardai gtp` process under LC_ALL=C.UTF-8.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def bench_fuzz_cmd(target, game, lines, seconds, seed, process, as_json) -> None:
    """Fuzz the input surfaces and report inputs/s and failures (exit 1 on any failure).

    GTP lines of any bytes (a corpus of known-bad inputs, their mutations, commands with odd
    arguments, random bytes) go to the GTP server in this process; every line must get exactly
    one well-formed answer within 5 s, valid printable UTF-8, and a rejected line must change
    nothing.  Records: any text or bytes to records.loads (a record or a RecordError naming a
    line).  Solve: lines for `solve connect4`.  Each failure kind (crash, hang, state, utf8,
    framing, internal, budget, message, round trip) is listed with its first reproducers, the
    exact input, repr'd.  The same checks run in tests/test_gtp_fuzz.py and
    tests/test_records_fuzz.py.

    CLI (--target cli): every subcommand and option of boardai, walked from the command tree,
    with bad values (nan, inf, other scripts' digits, out of range, unwritable, missing and
    corrupt paths, bad engine specs), in this process; each must be refused with one error
    line, exit 2 (1 for a corrupt file), no traceback, no hang, no file left behind
    (boardai/bench/cli_fuzz.py; tests/test_cli_fuzz.py).

    \b
    Examples:
      boardai bench fuzz --target gtp --game all --lines 100000
      boardai bench fuzz --target gtp --game hex --seconds 60 --process
      boardai bench fuzz --target records --lines 20000 --seed 7 --json
      boardai bench fuzz --target solve --lines 5000
      boardai bench fuzz --target cli --lines 3000
    """
    if lines is not None and seconds is not None:
        raise click.UsageError("give --lines or --seconds, not both")
    runs = _fuzz_runs(target, game.lower(), process)
    reports = []
    show = sys.stderr.isatty()
    for t, g in runs:
        if show:
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(f"fuzz {t} {g}", total=lines if seconds is None else None)
                report = _fuzz_one(t, g, lines, seconds, seed,
                                   lambda done: bar.update(task, completed=done))
        else:
            report = _fuzz_one(t, g, lines, seconds, seed, None)
        reports.append(report)
    failures = sum(r.failures for r in reports)
    if as_json:
        click.echo(json.dumps({"seed": seed, "failures": failures,
                               "runs": [r.json() for r in reports]}))
    else:
        click.echo(format_fuzz(reports, seed))
    if failures:
        click.get_current_context().exit(1)
