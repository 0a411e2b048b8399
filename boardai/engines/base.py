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

import math
import numbers
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from boardai._version import __version__

if TYPE_CHECKING:                      # annotations only: the engines protocol loads no game
    from boardai.games.base import Board


class EngineError(Exception):
    """An engine failed to give a move (the arena scores it as a crash)."""


class EngineTimeout(EngineError):
    """The engine did not answer within its hard time limit (a time forfeit)."""


class EngineMoveError(EngineError):
    """The engine answered with something that is not a move (an illegal move)."""


class EngineUnavailable(ValueError):
    """The engine cannot run on this machine (an optional package is missing); the message says
    what to install.  Raised when the engine is built, so a command fails before it starts."""


# The largest values any engine accepts (``boardai engines`` shows every option's range).
MAX_TIME = 1e6              # seconds per move (11.6 days): more is a typo, and nan/inf never end
MAX_COUNT = 10**12          # simulations or nodes per move
MAX_DEPTH = 1000            # plies: longer than any game (26x26 Hex has 676 cells)
MAX_THREADS = 256
MAX_SEED = 2**63 - 1        # seeds are 0 .. 2**63-1 (they go into 64-bit generators)


def _num(x: float | int) -> str:
    """A bound as people read it: 256, 0.5, 1e+06, 10**12, 2**63-1."""
    if not isinstance(x, int):
        return f"{x:g}"
    if x >= 10**7 and str(x).rstrip("0") == "1":
        return f"10**{len(str(x)) - 1}"
    if x >= 2**31 - 1 and (x + 1) & x == 0:
        return f"2**{x.bit_length()}-1"
    return str(x)


@dataclass(frozen=True)
class Option:
    """One engine option: ``name=value`` in a spec.

    ``type`` parses the text; a number (whatever parsed it) must then lie in the declared range:
    ``min``/``max`` (inclusive unless ``min_open``/``max_open``), and a float must be finite.
    ``convert`` (the registry) and ``check`` (an engine built from Python, ``Limit``) apply it,
    with a message naming the option and what it accepts.
    """

    name: str
    type: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    min: float | int | None = None
    max: float | int | None = None
    min_open: bool = False
    max_open: bool = False
    also: tuple[str, ...] = ()       # words accepted besides a number (``auto``)
    what: str | None = None          # what a non-numeric option accepts, in words

    @property
    def numeric(self) -> bool:
        return self.type in (int, float) or self.min is not None or self.max is not None

    def _int_range(self) -> bool:
        return self.type is not float and isinstance(self.min, int) \
            and isinstance(self.max, int) and not (self.min_open or self.max_open)

    def range_text(self) -> str | None:
        """What the option accepts, short: ``1..256``, ``(0, 1e+06]``, ``[0, 1)``, ``0/1``,
        ``winrate|quality``, ``1..10**9 or auto`` (None: any text, e.g. a command line)."""
        if self.choices is not None:
            return "|".join(self.choices)
        if self.type is parse_bool:
            return "0/1"
        if not self.numeric:
            return self.what
        if self._int_range():
            text = f"{_num(self.min)}..{_num(self.max)}"
        elif self.min is None and self.max is None:
            text = "any integer" if self.type is int else "finite"
        else:
            lo = "(-inf" if self.min is None else ("(" if self.min_open else "[") + _num(self.min)
            hi = "inf)" if self.max is None else _num(self.max) + (")" if self.max_open else "]")
            text = f"{lo}, {hi}"
        return text + "".join(f" or {word}" for word in self.also)

    def accepts(self) -> str:
        """What the option accepts, as words: ``an integer from 1 to 256``."""
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        if self.type is parse_bool:
            return "0 or 1 (also no/yes, false/true, off/on)"
        if not self.numeric:
            return self.what or getattr(self.type, "__name__", "a value")
        kind = {int: "an integer", float: "a finite number"}.get(self.type) or (
            "an integer" if self._int_range() else "a number")
        if self._int_range():
            kind = f"{kind} from {_num(self.min)} to {_num(self.max)}"
        else:
            if self.min is not None:
                kind += f" {'>' if self.min_open else '>='} {_num(self.min)}"
            if self.max is not None:
                kind += f"{' and' if self.min is not None else ''} " \
                        f"{'<' if self.max_open else '<='} {_num(self.max)}"
        return " or ".join((*self.also, kind))

    def check(self, value: Any, label: str | None = None) -> Any:
        """``value`` if it lies in the option's range, else ValueError naming the option
        (``label``, default the option's name)."""
        if value is None:
            return None
        number = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not number:
            if self.type in (int, float):
                self._fail(value, label)
            return value                 # a yes/no, a choice, ``auto``: its parser checked it
        if isinstance(value, numbers.Integral):
            value = int(value)
        elif self.type is int or not math.isfinite(float(value)):
            self._fail(value, label)
        if self.min is not None and (value < self.min or (self.min_open and value == self.min)):
            self._fail(value, label)
        if self.max is not None and (value > self.max or (self.max_open and value == self.max)):
            self._fail(value, label)
        return value

    def _fail(self, value: Any, label: str | None) -> None:
        raise ValueError(f"{label or self.name} must be {self.accepts()}, not {value!r}")

    def convert(self, text: str) -> Any:
        """The value of ``text`` (a spec's or the command line's), parsed and range-checked."""
        if self.choices is not None and text not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, not {text!r}")
        try:
            value = self.type(text)
        except (TypeError, ValueError, OverflowError) as exc:
            if self.type in (int, float):
                word = "integer" if self.type is int else "number"
                raise ValueError(f"{self.name}={text!r} is not a valid {word}: {self.name} must "
                                 f"be {self.accepts()}") from None
            if self.numeric:           # a parser of its own (``auto`` or a number)
                raise ValueError(f"{self.name} must be {self.accepts()}, not {text!r}") from None
            raise ValueError(f"{self.name}={text!r}: {exc}") from None   # the parser's own words
        try:
            return self.check(value)
        except ValueError:
            raise ValueError(f"{self.name} must be {self.accepts()}, not {text!r}") from None


@dataclass(frozen=True)
class Limit:
    """How much work an engine may do for one move (None = the engine's default).

    Every field is checked here, so no engine sees a bad one: ``time`` is a finite number of
    seconds in (0, MAX_TIME], ``sims`` and ``nodes`` integers in 1..MAX_COUNT, ``depth`` an
    integer in 1..MAX_DEPTH (``LIMIT_OPTIONS`` declares the ranges); anything else raises
    ValueError naming the field.
    """

    time: float | None = None
    sims: int | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for opt in LIMIT_OPTIONS:
            value = getattr(self, opt.name)
            if value is not None:
                object.__setattr__(self, opt.name, opt.check(value, f"Limit.{opt.name}"))

    def merged(self, defaults: "Limit") -> "Limit":
        """This limit with unset fields taken from ``defaults``."""
        return Limit(*(a if a is not None else b for a, b in
                       zip((self.time, self.sims, self.nodes, self.depth),
                           (defaults.time, defaults.sims, defaults.nodes, defaults.depth))))


def plain(value: Any) -> Any:
    """``value`` with numpy scalars made Python numbers (``np.float64(0.53)`` -> ``0.53``), inside
    dicts and lists too (changed in place, so references to them stay good) and tuples."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind.__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    if kind is dict:
        for key, item in value.items():
            new = plain(item)
            if new is not item:
                value[key] = new
    elif kind is list:
        for i, item in enumerate(value):
            new = plain(item)
            if new is not item:
                value[i] = new
    elif kind is tuple:
        return tuple(plain(item) for item in value)
    return value


_PLAIN = frozenset((int, float, str, bool, type(None)))


class _PlainFields:
    """Dataclass mix-in: every field set (at construction or later) holds Python values."""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, plain(value))


@dataclass
class MoveInfo(_PlainFields):
    """What an engine knows about one candidate move (Python numbers, never numpy scalars)."""

    move: int
    name: str
    visits: int | None = None
    value: float | None = None
    winrate: float | None = None
    prior: float | None = None       # a network's probability of the move (nn, policy)
    pv: list[str] | None = field(default=None, repr=False)   # the line expected after the move


@dataclass
class PlayResult(_PlainFields):
    """An engine's answer: the move plus what it learned on the way.  Fields hold Python values:
    numpy scalars given to it (also inside ``info`` and ``moves``) become ints and floats."""

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
        d = plain(asdict(self))
        d["move"] = self.name
        d["move_index"] = self.move
        del d["name"]
        return d


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
    Option("time", float, None, "seconds per move", min=0, min_open=True, max=MAX_TIME),
    Option("sims", int, None, "simulations (playouts) per move", min=1, max=MAX_COUNT),
    Option("nodes", int, None, "nodes per move", min=1, max=MAX_COUNT),
    Option("depth", int, None, "search depth in plies", min=1, max=MAX_DEPTH),
)


def seed_option(help: str, default: int | None = None) -> Option:
    """The ``seed`` option (0 .. MAX_SEED) every seeded engine shares."""
    return Option("seed", int, default, help, min=0, max=MAX_SEED)


def threads_option(default: int, help: str) -> Option:
    """A ``threads`` option (1 .. MAX_THREADS)."""
    return Option("threads", int, default, help, min=1, max=MAX_THREADS)


class Engine:
    """Base class of every engine. Subclasses set ``name``, ``summary``, ``options`` and ``play``."""

    name: ClassVar[str] = "engine"
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    limit_options: ClassVar[tuple[str, ...]] = ()   # which LIMIT_OPTIONS apply
    interactive: ClassVar[bool] = False
    # True for engines whose spec names something on this machine to run or read (a program,
    # a library, a network file): a server refuses them from its page unless told otherwise
    uses_local_files: ClassVar[bool] = False

    @classmethod
    def reads_local_files(cls, options: dict[str, str]) -> bool:
        """True when this engine with these options (the spec's raw ``key=value`` texts) runs
        or reads a file of this machine; by default ``uses_local_files``."""
        return cls.uses_local_files

    # Live searches (the web page, the full-screen terminal) set these on an engine before
    # ``play``/``analyse``; engines that cannot report or stop early simply ignore them.
    # ``on_info(snapshot)`` is called from the searching thread a few times a second with a
    # PlayResult of the search so far; once ``stop`` is set the search ends within a few
    # milliseconds and answers with what it has.
    on_info: Callable[[PlayResult], None] | None = None
    stop: threading.Event | None = None
    INFO_EVERY: ClassVar[float] = 0.2                # seconds between snapshots

    def __init__(self, **opts: Any):
        declared = {o.name: o for o in self.all_options()}
        for key, value in opts.items():       # the registry converted them; Python callers too
            if key in declared:
                try:
                    declared[key].check(value)
                except ValueError as exc:
                    raise ValueError(f"{self.name}: {exc}") from None
        self.opts = opts
        self.default_limit = Limit(**{o.name: opts.get(o.name) for o in LIMIT_OPTIONS
                                      if o.name in self.limit_options})

    @classmethod
    def all_options(cls) -> tuple[Option, ...]:
        """Every option of the engine: the limit options it honours, then its own."""
        return tuple(o for o in LIMIT_OPTIONS if o.name in cls.limit_options) + tuple(cls.options)

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

    warm_limit: ClassVar[Limit | None] = None      # a tiny search that loads compiled code

    def warm_up(self, board: Board, analyse: bool = False) -> None:
        """Load the engine's compiled search for ``board``'s game and layout before a clock
        runs (numba code loads from its cache on first use: up to a second).  Engines with a
        jitted search set ``warm_limit``; a tiny search on a copy of ``board`` does the rest.
        ``analyse``: only what ``analyse`` uses (an mcts analysis needs no solver)."""
        if self.warm_limit is None or board.is_game_over():
            return
        (self.analyse if analyse else self.play)(board.copy(), self.warm_limit)
        self.new_game(board)

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
