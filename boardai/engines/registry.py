"""Engine specs (``name[:key=value,...]``) and the registry that turns them into engines.

``random:seed=3`` and ``mcts:time=1,threads=2`` are specs; ``gtp:CMD`` runs ``CMD`` as an external
GTP/HTP engine (everything after ``gtp:`` is the command line, commas and colons included);
``strategy:PATH`` loads a course strategy library (everything after ``strategy:`` is the path).
Unknown names or keys fail with the list of what exists.

The built-in engines are listed here (imported on first use); engine modules never import the
registry, so there is no import circle.  ``register`` adds an engine of your own.
"""

from __future__ import annotations

import re
from typing import Any

from boardai.engines.base import Engine, Option

# how a number is written, on the command line and in a spec: ASCII digits, an optional sign,
# point and exponent; no other script's digits (``١٠``), no ``nan``/``inf``, no ``1_000``
INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")
NUMBER_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

ENGINES: dict[str, type[Engine]] = {}


class EngineSpecError(ValueError):
    """A spec names an unknown engine or option, or gives a bad value."""


def register(cls: type[Engine]) -> type[Engine]:
    """Make an engine class of your own available by its ``name`` (usable as a decorator)."""
    _load_builtin_engines()
    ENGINES[cls.name] = cls
    return cls


def engine_options(cls: type[Engine]) -> tuple[Option, ...]:
    """Every option of ``cls``: the limit options it honours, then its own."""
    return cls.all_options()


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:k=v,k2=v2`` into the name and raw option texts (``gtp:`` keeps its command,
    ``strategy:`` its library path)."""
    spec = spec.strip()
    if not spec:
        raise EngineSpecError("empty engine spec: give a name such as random or random:seed=1")
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name == "gtp":
        if not rest.strip():
            raise EngineSpecError("gtp: needs a command, e.g. gtp:'boardai gtp --engine random'")
        return name, {"command": rest.strip()}
    if name == "strategy":
        if not rest.strip():
            raise EngineSpecError("strategy: needs a library path, e.g. strategy:./Strategy.so")
        return name, {"path": rest.strip()}
    opts: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise EngineSpecError(f"bad option {part!r} in {spec!r}: write key=value")
            key = key.strip().lower()
            if key in opts:
                raise EngineSpecError(f"option {key!r} given twice in {spec!r}: give each "
                                      "option once")
            opts[key] = value.strip()
    return name, opts


def is_number_text(text: str, integer: bool = False) -> bool:
    """Whether ``text`` is a number written in ASCII (``INTEGER_TEXT``/``NUMBER_TEXT``)."""
    return bool((INTEGER_TEXT if integer else NUMBER_TEXT).fullmatch(text))


def convert_option(opt: Option, text: str) -> Any:
    """``opt.convert(text)``, after checking that a number is written in ASCII digits (Python's
    ``int``/``float`` read ``١٠`` as 10 and ``nan`` as a float): ValueError naming what the
    option accepts."""
    value = opt.convert(text)
    if opt.numeric and text.strip().lower() not in opt.also \
            and not is_number_text(text.strip(), integer=opt.type is int):
        raise ValueError(f"{opt.name} must be {opt.accepts()} written in ASCII digits, "
                         f"not {text!r}")
    return value


def make_engine(spec: str, **overrides: Any) -> Engine:
    """Build the engine a spec names, with its options converted and checked.

    Every option's text goes through ``Option.convert`` (its parser, then its declared range);
    ``overrides`` (typed values from code: a match's seed, a GTP timeout) through
    ``Option.check``.  An interactive engine (``human``) is refused: only ``boardai play`` seats
    one, without the registry.  ``EngineUnavailable`` (a missing optional package) passes through.
    """
    _load_builtin_engines()
    name, raw = parse_spec(spec)
    cls = ENGINES.get(name)
    if cls is None:
        raise EngineSpecError(f"unknown engine {name!r}: choose from {', '.join(sorted(ENGINES))}"
                              " (see `boardai engines`)")
    if cls.interactive:
        raise EngineSpecError(f"{name!r} is not an engine: a {name} player can only be seated by "
                              f"`boardai play` (--black {name} or --white {name})")
    options = {o.name: o for o in engine_options(cls)}
    values: dict[str, Any] = {o.name: o.default for o in options.values()}
    for key, text in raw.items():
        opt = options.get(key)
        if opt is None:
            known = ", ".join(options) or "none"
            raise EngineSpecError(f"engine {name!r} has no option {key!r}: its options are {known}")
        try:
            values[key] = convert_option(opt, text)
        except ValueError as exc:
            raise EngineSpecError(f"engine {name!r}: {exc}") from None
    for key, value in overrides.items():
        if key in options:
            try:
                options[key].check(value)
            except ValueError as exc:
                raise EngineSpecError(f"engine {name!r}: {exc}") from None
    values.update(overrides)
    return cls(**values)


def _load_builtin_engines() -> None:
    """Import the built-in engines (on first use: they load numba code)."""
    if "random" in ENGINES:
        return
    from boardai.engines import (
        alphabeta, gtp_client, human, mcts, nn_engine, openspiel_engine, random_engine, solver,
        strategy,
    )
    from boardai.engines.rollout import bruteforce, montecarlo

    for cls in (mcts.MctsEngine, alphabeta.AlphaBetaEngine, alphabeta.MinimaxEngine,
                montecarlo.MonteCarloEngine, bruteforce.BruteForceEngine, random_engine.RandomEngine,
                solver.SolverEngine, gtp_client.GtpEngine, strategy.StrategyEngine,
                openspiel_engine.OpenSpielMctsEngine, nn_engine.NnEngine, nn_engine.PolicyEngine,
                human.HumanEngine):
        ENGINES.setdefault(cls.name, cls)


def all_engines() -> dict[str, type[Engine]]:
    _load_builtin_engines()
    return dict(sorted(ENGINES.items()))


# The strongest built-in engine of each game at a sensible time: what ``boardai analyse`` and
# ``boardai gtp`` use when no --engine is given.  Connect Four and tic-tac-toe: ``solver`` (exact
# where its search finishes in its time; otherwise mcts in the rest of it, marked not exact);
# Hex: ``mcts`` (the Hex solver settles only small boards, so it would spend most of the time
# on a proof it does not find).
STRONGEST = {"connect4": "solver:time=2", "tictactoe": "solver:time=1", "hex": "mcts:time=1"}


def strongest_spec(game: str) -> str:
    """The default engine spec of ``game`` (``mcts:time=1`` for games not in ``STRONGEST``)."""
    return STRONGEST.get(game.lower(), "mcts:time=1")
