"""``boardai analyse`` and ``boardai engines``: ask an engine about a position; list the engines."""

from __future__ import annotations

import json

import click

from boardai.cli.common import (
    CONTEXT, Fail, Int, blocked_option, board_from_options, game_option, setup_text, size_option,
)
from boardai.engines.base import LIMIT_OPTIONS, EngineError, EngineUnavailable, Option


class OptionType(click.ParamType):
    """A command-line value checked by an engine ``Option``: the same parser, range and message
    as the option in a spec (``--time nan`` fails like ``mcts:time=nan``)."""

    def __init__(self, option: Option):
        self.option = option
        self.name = option.accepts()

    def convert(self, value, param, ctx):
        try:
            if isinstance(value, str):
                from boardai.engines.registry import convert_option
                return convert_option(self.option, value)
            return self.option.check(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


LIMIT_TYPES = {o.name: OptionType(o) for o in LIMIT_OPTIONS}


@click.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable list.")
def engines(as_json) -> None:
    """List every engine with its options, defaults and what it is."""
    from boardai.engines.registry import all_engines, engine_options

    table = []
    for name, cls in all_engines().items():
        opts = [{"name": o.name, "default": o.default, "help": o.help, "range": o.range_text()}
                for o in engine_options(cls)]
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
                         + (f"  (in {o['range']})" if o["range"] else "")
                         for o in row["options"]) or "-"
        t.add_row(escape(row["name"]), escape(row["summary"]), escape(opts))
    Console(width=110).print(t)


@click.command(context_settings=CONTEXT)
@game_option()
@size_option()
@blocked_option()
@click.option("--seed", type=Int(0, 2**63 - 2), help="Seed for --size/--blocked random.")
@click.option("--swap", is_flag=True, help="Hex: the swap rule is on.")
@click.option("--moves", default="", help='Moves from the empty board: "c3 d4" (Connect Four also "4453").')
@click.option("--engine", "spec", default=None, metavar="SPEC",
              help="The engine; default: the game's strongest at a sensible time (Connect Four "
                   "solver:time=2, Hex mcts:time=1, tic-tac-toe solver:time=1).")
@click.option("--time", "seconds", type=LIMIT_TYPES["time"], metavar="SECONDS",
              help=f"Seconds for the engine, in {LIMIT_TYPES['time'].option.range_text()}.")
@click.option("--sims", type=LIMIT_TYPES["sims"], metavar="N",
              help=f"Simulations for the engine, in {LIMIT_TYPES['sims'].option.range_text()}.")
@click.option("--depth", type=LIMIT_TYPES["depth"], metavar="PLIES",
              help=f"Depth for the engine, in {LIMIT_TYPES['depth'].option.range_text()}.")
@click.option("--lines", "n_lines", type=Int(1, 50), default=3, show_default=True, metavar="N",
              help="Candidate moves shown, each with its win rate and line (multi-PV).")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def analyse(game, size, blocked, seed, swap, moves, spec, seconds, sims, depth, n_lines,
            as_json) -> None:
    """Ask an engine about a position: its move, value, principal variation, statistics.

    \b
    Examples:
      boardai analyse --game hex --size 9 --moves "e5 d6" --engine random
      boardai analyse --game connect4 --moves 4453 --engine random --json
      boardai analyse --game connect4 --size 12x10 --blocked 4:1 --moves "4 4" --engine mcts
    """
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine, strongest_spec
    from boardai.games import game_of
    from boardai.warmup import warm_engine
    board = board_from_options(game.lower(), size, blocked, swap, seed)
    try:
        board.push_many(moves)
        engine = make_engine(strongest_spec(board.game_name) if spec is None else spec)
    except EngineUnavailable as exc:           # a missing optional package: not a usage error
        raise Fail(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if board.is_game_over():
        engine.close()
        raise click.UsageError(f"the game is already over: {board.outcome()}")
    try:
        warm_engine(engine, board, analyse=True)    # compiling is not thinking time
        result = engine.analyse(board, Limit(time=seconds, sims=sims, depth=depth))
    except (EngineError, MemoryError, ValueError) as exc:
        # an external engine that cannot start, dies or hangs; a table too big for memory; a
        # position too big for the engine (bruteforce)
        raise Fail(f"{engine.spec}: {exc}") from None
    finally:
        engine.close()
    payload = {"game": board.game_name, "size": board.size_text,
               "blocked": game_of(board).blocked_text(board.setup), "moves": board.moves_text(),
               "engine": engine.spec, **result.to_json()}
    payload["moves"] = [vars(m) for m in result.moves]
    payload["position"] = board.moves_text()
    payload["lines"] = candidate_lines(result, n_lines)
    if not as_json:
        if board.setup:
            click.echo(f"Board: {setup_text(board)}")
        click.echo(board.render())
        value = "-" if result.value is None else f"{result.value:+.3f}"
        click.echo(f"{board.turn} to move; {engine.spec} plays {result.name}  value {value}  "
                   f"nodes {result.nodes}  time {result.time_s:.3f} s")
        if result.pv:
            click.echo("pv: " + " ".join(result.pv))
        for i, line in enumerate(payload["lines"], 1):
            rate = "" if line["winrate"] is None else f"  {100 * line['winrate']:.0f}%"
            score = "" if line["score"] is None else f"  exact {line['score']:+d}"
            visits = "" if line["visits"] is None else f"  visits {line['visits']}"
            prior = "" if line["prior"] is None else f"  prior {100 * line['prior']:.1f}%"
            click.echo(f"{i}. {line['move']}{score}{rate}{visits}{prior}  "
                       f"line: {' '.join(line['pv'])}")
    else:
        click.echo(json.dumps(payload))


def candidate_lines(result, n: int) -> list[dict]:
    """The engine's best ``n`` moves as ``{move, winrate, visits, score, prior, pv}``: the win
    rate of the side to move (% shown), the solver's exact score where it gives one, the
    network's prior where the engine has one (``nn``, ``mcts:net=``), and the line the engine
    expects after the move (the principal variation for the best one)."""
    scores = result.info.get("scores") or {}
    out = []
    for info in result.moves[:n]:
        pv = info.pv or ([info.name] + result.pv[1:] if result.pv[:1] == [info.name]
                         else [info.name])
        score = scores.get(info.name)
        out.append({"move": info.name, "winrate": info.winrate, "visits": info.visits,
                    "score": None if score is None else int(score), "prior": info.prior,
                    "pv": list(pv)})
    if not out and result.pv:
        out.append({"move": result.name, "winrate": None if result.value is None
                    else (result.value + 1) / 2, "visits": None, "score": None,
                    "prior": None, "pv": list(result.pv)})
    return out
