"""``boardai match``, ``tournament`` and ``results``: engine against engine, and the stored results."""

from __future__ import annotations

import contextlib
import json
import os
import sys

import click

from boardai.arena import MOVE_TIMEOUT
from boardai.cli.analyse import OptionType
from boardai.cli.common import CONTEXT, MAX_ROUNDS, Fail, Int, OutPath, game_option
from boardai.engines.base import EngineUnavailable


BACKEND_HELP = ("Where games run: local (worker processes here), ray (a local Ray started for "
                "the command) or ray:ADDRESS (join that Ray cluster; ray:auto for the one `ray "
                "start` made here).  Results always go to the store here.")


def _checked_backend(ctx, param, value):
    """--backend read before any work (a store is opened only for a backend that exists)."""
    from boardai.arena.backends import parse_backend
    if value is not None:
        try:
            parse_backend(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return value


def backend_option(f):
    return click.option("--backend", default="local", show_default=True, metavar="BACKEND",
                        help=BACKEND_HELP, callback=_checked_backend)(f)


@contextlib.contextmanager
def runner_for(jobs, backend):
    """The runner of ``--jobs``/``--backend``: a bad backend is a usage error, a cluster that
    cannot be reached (or Ray not installed) a failure."""
    from boardai.arena.backends import parse_backend, runner_for_backend
    try:
        parse_backend(backend)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        runner = runner_for_backend(backend, jobs)
    except ValueError as exc:
        raise Fail(str(exc)) from None
    with runner:
        yield runner


def _arena_options(f):
    f = click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")(f)
    f = backend_option(f)
    f = click.option("--move-timeout", type=OptionType(MOVE_TIMEOUT), metavar="SECONDS",
                     help="Hard limit in seconds per move, in "
                          f"{MOVE_TIMEOUT.range_text()}; slower loses on time, whatever the "
                          "engine does (default: 30 s plus twice the largest time= in the "
                          "specs).")(f)
    f = click.option("--seed", type=Int(0, 2**63 - 2), default=1, show_default=True,
                     help="Match seed, 0..2**63-2; game i is seeded from it and i (reproducible, "
                          "resumable).")(f)
    f = click.option("--store", type=OutPath(),
                     help="Result store (SQLite); default $BOARDAI_HOME/arena.sqlite or "
                          "~/.local/share/boardai/arena.sqlite.")(f)
    f = click.option("--jobs", type=Int(1, 256),
                     help="Worker processes, 1..256 (default: the number of cores; 1 = this "
                          "process).")(f)
    f = click.option("--swap", is_flag=True,
                     help="Hex: play with the swap rule (White may take Black's first stone as "
                          "its first move); part of the match, so the store keeps it apart from "
                          "the same match without it.")(f)
    f = click.option("--size", help="Board size: N or WxH (default 11 for Hex, 7x6 for Connect Four).")(f)
    f = game_option()(f)
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


def _arena_setup(game, size, swap, store):
    """The board's set-up and the store's path (the store is opened once the specs are
    checked)."""
    from pathlib import Path

    from boardai.arena.match import default_store_path
    from boardai.games.setup import BoardSetup

    try:
        setup = BoardSetup.of(game.lower(), size, swap)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    return setup, Path(store) if store else default_store_path()


def _open_store(path):
    from boardai.arena.store import Store, StoreError

    try:
        return Store(path, writing=True)
    except StoreError as exc:
        raise Fail(str(exc)) from None


@contextlib.contextmanager
def _checked_input():
    """Bad specs, suites or tests are usage errors; an engine that cannot run here is a failure."""
    try:
        yield
    except EngineUnavailable as exc:
        raise Fail(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@contextlib.contextmanager
def _worker_failures():
    """A worker process that died (killed, out of memory) ends the command with one line."""
    from boardai.arena.runner import WorkerError

    try:
        yield
    except WorkerError as exc:
        raise Fail(str(exc)) from None


@click.command(context_settings=CONTEXT)
@click.argument("engine_a", metavar="A")
@click.argument("engine_b", metavar="B")
@click.option("--games", type=Int(1, MAX_ROUNDS), default=100, show_default=True,
              help=f"Games to play, 1..{MAX_ROUNDS}.")
@click.option("--openings", metavar="SUITE|FILE",
              help="hex-1stone, c4-random-4, or a file with one opening per line; each opening "
                   "is played twice with colours reversed.")
@click.option("--sprt", metavar="elo0=0,elo1=20,alpha=0.05,beta=0.05",
              help="Stop as soon as the sequential probability ratio test decides.")
@_arena_options
def match(engine_a, engine_b, games, openings, sprt, game, size, swap, jobs, store, seed,
          move_timeout, backend, as_json) -> None:
    """Play a match between engines A and B (specs, or gtp:COMMAND) with Elo and error bars.

    Colours alternate.  Every finished game is committed to the result store at once; running
    the same command again resumes (only missing games are played).

    \b
    Examples:
      boardai match random mcts:sims=200 --game hex --size 7 --games 20 --store a.sqlite
      boardai match mcts:time=0.05 random --game connect4 --openings c4-random-4 --games 50
      boardai match random "gtp:boardai gtp --engine random" --size 5 --games 10 --json
      boardai match mcts:sims=400 mcts:sims=100 --size 7 --games 400 --sprt elo0=0,elo1=50
      boardai match mcts:sims=400 mcts:sims=100 --size 7 --swap --games 40
    """
    from boardai.arena.match import make_plan, run_match
    from boardai.arena.ratings import SprtSpec
    from boardai.arena.report import ProgressBar, outcome_json, print_match, report_console

    setup, path = _arena_setup(game, size, swap, store)
    with _checked_input():
        spec = SprtSpec.parse(sprt) if sprt is not None else None
        plan = make_plan(engine_a, engine_b, setup, openings, seed, move_timeout, path)
    db = _open_store(path)
    with db, _interrupts(path), _worker_failures(), runner_for(jobs, backend) as runner, \
            ProgressBar(games, "match", enabled=sys.stderr.isatty()) as bar:
        out = run_match(plan, games, db, runner, spec, bar)
    if as_json:
        click.echo(json.dumps(outcome_json(out)))
    else:
        print_match(out, report_console())
        click.echo(f"store: {path}")


@click.command(context_settings=CONTEXT)
@click.argument("engines", metavar="E1 E2 [E3 ...]", nargs=-1, required=True)
@click.option("--games-per-pair", type=Int(1, MAX_ROUNDS), default=20, show_default=True,
              help=f"Games of each pair, 1..{MAX_ROUNDS}.")
@click.option("--openings", metavar="SUITE|FILE", help="As for match: hex-1stone, c4-random-4 or a file.")
@_arena_options
def tournament(engines, games_per_pair, openings, game, size, swap, jobs, store, seed,
               move_timeout, backend, as_json) -> None:
    """Round robin between engines: maximum-likelihood Elo ratings (the first at 0) with 95%
    intervals, and a cross-table.  Resumes from the store like match.

    \b
    Examples:
      boardai tournament random mcts:sims=50 mcts:sims=200 --size 5 --games-per-pair 10
      boardai tournament random mcts:time=0.01 --game connect4 --games-per-pair 20 --json
      boardai tournament mcts:sims=50 mcts:sims=200 alphabeta:depth=2 --size 5 --swap
    """
    from boardai.arena.match import make_plan, run_tournament
    from boardai.arena.report import ProgressBar, print_tournament, report_console

    if len(engines) < 2:
        raise click.UsageError("a tournament needs at least two engines")
    if len(set(e.strip() for e in engines)) != len(engines):
        raise click.UsageError("an engine is listed twice: give each spec once")
    setup, path = _arena_setup(game, size, swap, store)
    with _checked_input():
        plans = {(i, j): make_plan(engines[i], engines[j], setup, openings, seed, move_timeout,
                                   path)
                 for i in range(len(engines)) for j in range(i + 1, len(engines))}
    db = _open_store(path)
    total = games_per_pair * len(plans)
    with db, _interrupts(path), _worker_failures(), runner_for(jobs, backend) as runner, ProgressBar(
            total, "tournament", enabled=sys.stderr.isatty()) as bar:
        out = run_tournament(plans, [e.strip() for e in engines], games_per_pair, db, runner, bar)
    if as_json:
        click.echo(json.dumps(out.to_json()))
    else:
        print_tournament(out, report_console())
        click.echo(f"store: {path}")


@click.command(context_settings=CONTEXT)
@click.argument("store", type=click.Path(dir_okay=False))
@click.option("--export-sgf", "export", type=OutPath(directory=True), metavar="DIR",
              help="Write every stored game as a record file (SGF) into DIR.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def results(store, export, as_json) -> None:
    """Summaries of what a result store holds; game records out.

    \b
    Examples:
      boardai results arena.sqlite
      boardai results arena.sqlite --export-sgf games/ --json
    """
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
