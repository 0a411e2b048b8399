"""The one engine protocol shared by built-in and external (GTP) engines.

``engine.play(board, limit) -> PlayResult`` picks a move for the side to move; ``analyse`` returns
the same result with per-move statistics where the engine has them (a UI draws them as a heat
map).  ``Limit`` bounds the work (time in seconds, simulations, nodes, depth); an engine uses the
fields it understands and its own defaults for the rest.  Engines take the board as it is at each
call, so they work from any position; ``new_game``/``notify`` are hints that let tree-keeping
engines reuse work between moves.

Values are from the side to move's view, in [-1, 1] (1 = certain win); ``winrate`` in [0, 1].

An engine that fails raises one of the fault types below (or any exception: a crash), so the
arena can tell a time forfeit from an illegal move without knowing what kind of engine it ran.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, ClassVar

from boardai._version import __version__
from boardai.games.base import Board


class EngineError(Exception):
    """An engine failed to give a move (the arena scores it as a crash)."""


class EngineTimeout(EngineError):
    """The engine did not answer within its hard time limit (a time forfeit)."""


class EngineMoveError(EngineError):
    """The engine answered with something that is not a move (an illegal move)."""


@dataclass(frozen=True)
class Limit:
    """How much work an engine may do for one move (None = the engine's default)."""

    time: float | None = None
    sims: int | None = None
    nodes: int | None = None
    depth: int | None = None

    def merged(self, defaults: "Limit") -> "Limit":
        """This limit with unset fields taken from ``defaults``."""
        return Limit(*(a if a is not None else b for a, b in
                       zip((self.time, self.sims, self.nodes, self.depth),
                           (defaults.time, defaults.sims, defaults.nodes, defaults.depth))))


@dataclass
class MoveInfo:
    """What an engine knows about one candidate move."""

    move: int
    name: str
    visits: int | None = None
    value: float | None = None
    winrate: float | None = None


@dataclass
class PlayResult:
    """An engine's answer: the move plus what it learned on the way."""

    move: int
    name: str
    value: float | None = None
    pv: list[str] = field(default_factory=list)
    nodes: int = 0
    depth: int | None = None
    time_s: float = 0.0
    moves: list[MoveInfo] = field(default_factory=list)
    resign: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["move"] = self.name
        d["move_index"] = self.move
        del d["name"]
        return d


@dataclass(frozen=True)
class Option:
    """One engine option: ``name=value`` in a spec."""

    name: str
    type: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[str, ...] | None = None

    def convert(self, text: str) -> Any:
        if self.choices is not None and text not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, not {text!r}")
        try:
            return self.type(text)
        except (TypeError, ValueError) as exc:
            if self.type in (int, float):
                raise ValueError(f"{self.name}={text!r} is not a valid {self.type.__name__}") from None
            raise ValueError(f"{self.name}={text!r}: {exc}") from None   # the parser's own words


def parse_bool(text: str) -> bool:
    t = str(text).strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a yes/no value: {text!r}")


parse_bool.__name__ = "bool (0/1)"

# options every engine understands: they set the engine's default Limit
LIMIT_OPTIONS = (
    Option("time", float, None, "seconds per move"),
    Option("sims", int, None, "simulations (playouts) per move"),
    Option("nodes", int, None, "nodes per move"),
    Option("depth", int, None, "search depth in plies"),
)


class Engine:
    """Base class of every engine. Subclasses set ``name``, ``summary``, ``options`` and ``play``."""

    name: ClassVar[str] = "engine"
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    limit_options: ClassVar[tuple[str, ...]] = ()   # which LIMIT_OPTIONS apply
    interactive: ClassVar[bool] = False

    def __init__(self, **opts: Any):
        self.opts = opts
        self.default_limit = Limit(**{k: opts.get(k) for k in ("time", "sims", "nodes", "depth")})

    @property
    def spec(self) -> str:
        """The spec that rebuilds this engine: its name and the options that differ from defaults."""
        defaults = {o.name: o.default for o in (*LIMIT_OPTIONS, *self.options)}
        shown = [f"{k}={v}" for k, v in self.opts.items()
                 if v is not None and (k not in defaults or v != defaults[k])]
        return self.name + (":" + ",".join(shown) if shown else "")

    @property
    def timed(self) -> bool:
        """True if this engine honours ``Limit.time`` (GTP time control is then passed on)."""
        return "time" in self.limit_options

    def new_game(self, board: Board) -> None:
        """A new game starts from ``board``."""

    def notify(self, board: Board, move: int) -> None:
        """``move`` was just played on ``board`` (already pushed)."""

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        raise NotImplementedError

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        return self.play(board, limit)

    def close(self) -> None:
        """Release processes or threads the engine holds."""

    def kill(self) -> None:
        """Stop at once after a fault (a hang, a crash); the next use starts afresh."""
        self.close()

    def describe(self) -> str | None:
        """What the engine is, for result stores: a built-in engine is this boardai; an
        external one reports its name and version (None when it cannot say)."""
        return f"boardai {__version__}"

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _limit(self, limit: Limit | None) -> Limit:
        return (limit or Limit()).merged(self.default_limit)


class Stopwatch:
    """Wall-clock time since creation, for PlayResult.time_s."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.start
