"""``boardai compete``: the Tsinghua course's Connect Four referee (drawn boards, a no-go cell)."""

from __future__ import annotations

import secrets
import sys

import click

from boardai.cli.analyse import LIMIT_TYPES
from boardai.cli.arena import (
    _checked_input, _interrupts, _open_store, _worker_failures, backend_option, runner_for,
)
from boardai.cli.common import CONTEXT, MAX_ROUNDS, Int, OutPath
from boardai.engines.base import MAX_SEED

DEFAULT_MOVE_TIME = 3.0     # the course's seconds per move


@click.command(context_settings=CONTEXT)
@click.argument("engine_a", metavar="A")
@click.argument("engine_b", metavar="B")
@click.argument("result_file", metavar="RESULT_FILE", type=OutPath())
@click.argument("rounds", metavar="ROUNDS", type=Int(1, MAX_ROUNDS, "a number of rounds"))
@click.option("--move-time", type=LIMIT_TYPES["time"], default=DEFAULT_MOVE_TIME,
              show_default=True, metavar="SECONDS",
              help="Time per move: every engine is told SECONDS less 5 % (at most 0.1 s less) as "
                   "its time limit, so that no move passes SECONDS (a spec's own time= stays); "
                   "a move that takes more than SECONDS + 0.1 s loses on time, and a course "
                   "strategy (it cannot be told a time) one that takes more than its limit + "
                   "0.1 s (3.0 s at the default).")
@click.option("--seed", type=Int(0, MAX_SEED), metavar="N",
              help="Seed of the board draws and the engines' seeds (default: drawn at random "
                   "and printed; give it again to resume).")
@click.option("--db", "--store", "store", type=OutPath(), metavar="FILE",
              help="Result store (SQLite), as for match: default $BOARDAI_HOME/arena.sqlite or "
                   "~/.local/share/boardai/arena.sqlite.")
@click.option("--jobs", type=Int(1, 256), default=1, show_default=True,
              help="Worker processes playing games at once (1: one game at a time, so the "
                   "engines' thinking time is not shared).")
@backend_option
@click.option("--swap", is_flag=True,
              help="Refused: the course's game, Connect Four, has no swap rule (match and "
                   "tournament take --swap for Hex).")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar and no summary (a seed drawn at random is still printed).")
def compete(engine_a, engine_b, result_file, rounds, move_time, seed, store, jobs, backend,
            swap, quiet) -> None:
    """The course's referee: A against B for ROUNDS rounds of Connect Four, each on a board
    drawn as the course draws it (M rows and N columns uniform in 9..12, one no-go cell), A
    moving first in the round's first game and B in its second.  A crash, an illegal move or a
    move over the time loses the game.

    A and B are engine specs: strategy:PATH (a course strategy library exporting getPoint and
    clearPoint, run in a child process), mcts:time=1, random, gtp:COMMAND, ...

    RESULT_FILE gets, for each round i, a line "i:" and one line per game
    "CODE<TAB>TIME_A<TAB>TIME_B" (the seconds each side thought in that game, 3 decimals),
    then "A wins: 0.550", "B wins: 0.450" and "draws: 0.000" (fractions of the 2*ROUNDS
    games; a fault counts as a win of the other side).  CODE: 0 draw, 1 A wins, 2 B wins,
    3 A crashed, 4 A illegal move, 5 B crashed, 6 B illegal move, 7 A timeout, 8 B timeout.
    The file is rewritten after every game (atomically); a round appears once both its
    games are done, the ratios once all rounds are.

    Every game also goes to the result store, so running the same command again (same specs,
    seed and move time) plays only the games missing: after Ctrl-C or kill -9, or with more
    ROUNDS to extend a run (ROUNDS is 1..100000).  The summary shows the Elo difference with
    its 95% interval.

    \b
    Examples:
      boardai compete strategy:./Strategy.so strategy:./Rival.so result.txt 50
      boardai compete strategy:./Strategy.so mcts:time=1 result.txt 10 --seed 7
      boardai compete strategy:./Strategy.so random result.txt 2 --seed 1 --move-time 0.5
      boardai compete mcts:time=0.5 alphabeta:time=0.5 r.txt 5 --db c.sqlite --jobs 2
    """
    from pathlib import Path

    from boardai.arena.compete import CompetePlan, run_compete
    from boardai.arena.match import check_spec, default_store_path
    from boardai.arena.report import ProgressBar
    from boardai.engines.registry import convert_option, parse_spec
    from boardai.engines.strategy import TIME_GRACE
    from boardai.games import Connect4Board, get_game
    from boardai.games.connect4 import course

    if swap:
        title = get_game(Connect4Board.game_name).title
        raise click.UsageError(f"--swap: the course's game, {title}, has no swap rule (match and "
                               "tournament take --swap for Hex); leave --swap out")
    if seed is None:
        seed = secrets.randbelow(2**31)
        click.echo(f"seed {seed} (give --seed {seed} to resume or repeat this run)", err=True)
    path = Path(store) if store else default_store_path()
    with _checked_input():
        specs = []
        for spec in (engine_a, engine_b):
            name, raw = parse_spec(spec)
            if name not in ("gtp", "strategy") and "time" in raw:
                own = convert_option(LIMIT_TYPES["time"].option, raw["time"])
                if own > move_time:
                    raise ValueError(f"{spec} thinks {own:g} s per move, more than the "
                                     f"--move-time of {move_time:g} s: it would lose on time")
            specs.append(check_spec(spec))
    plan = CompetePlan(specs[0], specs[1], Connect4Board.game_name, course.BOARDS,
                       course.draw_board, seed, move_time, TIME_GRACE,
                       str(path.with_name(path.name + ".logs")))
    db = _open_store(path)
    with db, _interrupts(path), _worker_failures(), runner_for(jobs, backend) as runner, ProgressBar(
            2 * rounds, "compete", enabled=sys.stderr.isatty() and not quiet) as bar:
        out = run_compete(plan, rounds, db, runner, result_file, bar)
    if not quiet:
        print_compete(out, result_file, path)


def print_compete(out, result_file, store_path) -> None:
    from collections import Counter

    from rich.markup import escape

    from boardai.arena.compete import CODES, longest_moves, ratios
    from boardai.arena.report import print_score, report_console

    console = report_console()
    plan, s = out.plan, out.score
    console.print(f"A = {escape(plan.engine_a)}   B = {escape(plan.engine_b)}   "
                  f"{plan.game} on {plan.boards}   move time {plan.move_time:g} s   "
                  f"seed {plan.seed}")
    print_score(console, s, f"{out.rounds} round(s), {s.games} games", out.resumed)
    codes = out.codes
    a, b, d = ratios(codes)
    console.print(f"A wins {a:.3f}   B wins {b:.3f}   draws {d:.3f}")
    long_a, long_b = longest_moves(out.games.values())
    console.print(f"longest move: A {long_a:.3f} s   B {long_b:.3f} s   "
                  f"(move time {plan.move_time:g} s)")
    counts = Counter(codes)
    console.print("codes: " + ", ".join(f"{c} {CODES[c]} x{counts[c]}" for c in sorted(counts)))
    console.print(f"result file: {escape(str(result_file))}")
    console.print(f"store: {escape(str(store_path))}")
