"""``boardai bench``: speed measurements (playouts, MCTS, alpha-beta, the Connect Four solver)."""

from __future__ import annotations

import json
import os

import click

from boardai.cli.common import (
    CONTEXT, Fail, blocked_option, board_from_options, game_option, size_option,
)


@click.group(context_settings=CONTEXT)
def bench() -> None:
    """Speed measurements (see benchmarks/ for the comparisons with reference code)."""


@bench.command("playouts", context_settings=CONTEXT)
@game_option()
@size_option()
@blocked_option()
@click.option("--seconds", type=float, default=2.0, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def bench_playouts_cmd(game, size, blocked, seconds, threads, seed, as_json) -> None:
    """Random playouts per second from the empty board.

    \b
    Example:
      boardai bench playouts --game hex --size 11 --seconds 3 --threads 2 --json
    """
    from boardai.bench import bench_playouts, format_playouts

    w, h, cells = _bench_size(game, size, seconds, blocked)
    result = bench_playouts(game.lower(), w, h, seconds, threads, seed, cells)
    click.echo(json.dumps(result) if as_json else format_playouts(result))


@bench.command("mcts", context_settings=CONTEXT)
@game_option()
@size_option()
@blocked_option()
@click.option("--seconds", type=float, default=3.0, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
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
    from boardai.bench import bench_mcts, format_mcts
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
@click.option("--seconds", type=float, default=3.0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
@blocked_option()
def bench_alphabeta_cmd(game, size, evaluator, moves, seconds, as_json, blocked) -> None:
    """Alpha-beta nodes per second (one thread, iterative deepening for SECONDS).

    \b
    Examples:
      boardai bench alphabeta --game connect4 --eval lines --json
      boardai bench alphabeta --game hex --size 9 --eval resistance --seconds 2
    """
    from boardai.bench import bench_alphabeta, format_alphabeta
    from boardai.engines.alphabeta import evaluator_id

    w, h, cells = _bench_size(game, size, seconds, blocked)
    try:
        evaluator_id(game.lower(), evaluator)
        result = bench_alphabeta(game.lower(), w, h, seconds, evaluator, moves, cells)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(json.dumps(result) if as_json else format_alphabeta(result))


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


def _bench_size(game: str, size: str | None, seconds: float, blocked=()):
    """(width, height, blocked cells) a bench command was given, checked (a usage error names
    what is accepted; ``random`` draws are seeded with 0, so a bench is repeatable)."""
    board = board_from_options(game.lower(), size, blocked, seed=0)
    if seconds <= 0:
        raise click.UsageError("--seconds must be > 0")
    return board.width, board.height, board.setup
