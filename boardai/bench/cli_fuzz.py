"""Fuzzing the command line: every subcommand and option of ``boardai`` with bad values.

The invocations are generated from click's own command tree (``boardai.cli.main``), so a new
command or option is fuzzed without being listed here.  Each invocation is a valid baseline of its
command (``BASELINES``: the required arguments, a small board) with one parameter given a bad
value, chosen by the parameter's type:

- numbers (``Int``, ``Float``, click's ``INT``/``FLOAT``/ranges): ``nan``, ``inf``, ``1e400``,
  digits of other scripts (``٣``, ``١٠``, ``５``), ``1_000``, ``0x10``, empty, a 5000-character
  string, and below/above the declared range (``-1``, ``0``, ``99999999999999999999``);
- output paths (``OutPath``): ``/proc/nope``, a missing folder, an existing folder for a file (a
  file for a folder), a name too long for the file system, the empty string;
- input paths: a missing file, a folder, and corrupt files (random bytes named ``.npz``,
  ``.sgf``, ``.sqlite``, ``.txt``);
- choices: an unknown word, the empty string;
- engine specs: an unknown engine, a duplicate key (``mcts:time=1,time=2``), other-script digits
  (``mcts:sims=١٠``), ``time=nan``, out-of-range and absurd values, an empty spec;
- other text: ``nan``, other-script digits, control characters, 5000 characters.

Every invocation runs in this process with click's ``CliRunner`` (fast), in a sandbox folder
(the working folder and ``BOARDAI_HOME``).  The long work of each command (playing a match,
solving, training, serving, benchmarking) is replaced by a tripwire, ``ReachedWork``: an
invocation that gets there has accepted its bad value.  A SIGALRM guard (``GUARD`` seconds)
interrupts anything else that runs on.  What must hold for each invocation (``check``):

- *traceback*: no exception escapes but SystemExit (click's own exit);
- *hang*: it ends within ``GUARD`` seconds;
- *accepted*: the bad value is refused, exit status 2 (a usage error) or, for files that exist
  but are corrupt and for engines that cannot run, 1 (a failure); never 0, never the long work;
- *message*: the refusal is one ``Error:`` line (click's usage text may precede it);
- *written*: a refused invocation leaves no file behind in the sandbox.

``boardai bench fuzz --target cli`` runs the whole deterministic list and then random
combinations (two bad values at once) up to ``--lines``; ``tests/test_cli_fuzz.py`` runs a
deterministic subset and checks each baseline is accepted.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import click
from click.testing import CliRunner

GUARD = 60.0                 # seconds: an invocation still running then is a hang

KINDS = {
    "traceback": "an exception other than SystemExit escaped",
    "hang": f"still running after {GUARD:g} s",
    "accepted": "a bad value was accepted (exit 0, or the command's long work was reached)",
    "message": "the refusal is not one 'Error:' line",
    "written": "a refused invocation left a file behind",
    "status": "an exit status other than the refusal's (2 for a bad value of a typed option, "
              "1 or 2 for corrupt files, specs and text)",
}


class ReachedWork(Exception):
    """The tripwire in place of a command's long work: the invocation was accepted."""


# --- the values --------------------------------------------------------------------------------
OTHER_DIGITS = ["\u0663", "\u0661\u0660", "\uff15", "\u096d", "\u00b2"]
NOT_NUMBERS = ["nan", "NaN", "inf", "-inf", "1e400", "-1e400", "1_000", "0x10", "", " ", "1 2",
               "x" * 5000, "\x00", *OTHER_DIGITS]
HUGE = "99999999999999999999"
BAD_TEXT = ["nan", "\u0661\u0660", "x" * 5000, "\x1b[31m", "\x00", "-1"]
BAD_SPECS = ["nope", "", " ", "mcts:time=1,time=2", "random:seed=1,seed=2", "mcts:sims=\u0661\u0660",
             "mcts:sims=\uff15", "random:seed=\u0663", "mcts:time=nan", "mcts:time=inf",
             "mcts:time=-1", "mcts:sims=0", f"mcts:sims={HUGE}", "mcts:frobnicate=1",
             "mcts:sims", "mcts:=1", "random:seed=1_0", "gtp:", "strategy:", "x" * 5000,
             "human:seed=1", "nn:model=/nonexistent/m.npz"]
CORRUPT_SUFFIXES = (".npz", ".sgf", ".sqlite", ".txt")
SPEC_PARAMS = {"spec", "engine", "black", "white", "engine_a", "engine_b", "engines",
               "eval_opponents", "teacher", "opponent"}


@dataclass
class Sandbox:
    """The folder the invocations run in, with the files the baselines and values name."""

    root: Path
    cli: click.Group                     # the command tree fuzzed (``boardai.cli.main``)
    corrupt: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def create(cls, root: Path, cli: click.Group, seed: int = 0) -> "Sandbox":
        rng = random.Random(seed)
        box = cls(root, cli)
        (root / "work").mkdir(parents=True, exist_ok=True)
        data = root / "data"
        data.mkdir(exist_ok=True)
        for suffix in CORRUPT_SUFFIXES:
            path = data / f"corrupt{suffix}"
            head = b"PK\x03\x04" if suffix == ".npz" else b"SQLite format 3\x00" \
                if suffix == ".sqlite" else b"(;"
            path.write_bytes(head + bytes(rng.randrange(256) for _ in range(4096)))
            box.corrupt[suffix] = path
        (data / "folder").mkdir(exist_ok=True)
        (data / "empty.sqlite").write_bytes(b"")
        from boardai.arena.store import Store
        with Store(data / "store.sqlite"):
            pass
        (data / "run").mkdir(exist_ok=True)
        _teacher_file(data / "teacher.jsonl")
        return box

    @property
    def corrupt_texts(self) -> set[str]:
        return {str(p) for p in self.corrupt.values()} | {str(self.data / "empty.sqlite")}

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def work(self) -> Path:
        return self.root / "work"

    def files(self) -> dict[str, tuple[int, float]]:
        """Every file under the sandbox: size and modification time."""
        out = {}
        for folder, _, names in os.walk(self.root):
            for name in names:
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError):
                    st = os.lstat(path)
                    out[path] = (st.st_size, st.st_mtime)
        return out


def _teacher_file(path: Path) -> None:
    """A small teacher data file (``boardai train teacher``'s format): 5x5, twenty games of
    one teacher move each after a stone of Black's."""
    lines = [{"format": "boardai-teacher", "version": 1, "game": "hex", "size": 5, "seed": 1}]
    for i in range(20):
        first = "abde"[i % 4] + str(1 + i // 4)
        lines.append({"i": i, "moves": [first, "c3"], "opening": 1, "teacher": [{"m": "c3"}],
                      "winner": "b", "end": "connection"})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def baselines(box: Sandbox) -> dict[str, list[str]]:
    """A valid invocation of each command (the path of words after ``boardai``), cheap up to its
    long work: the fuzzed parameter replaces or joins these words."""
    d, w = box.data, box.work
    return {
        "play": ["--game", "hex", "--size", "3", "--black", "random", "--white", "random"],
        "tui": ["--game", "hex", "--size", "3", "--black", "random", "--white", "random"],
        "gtp": ["--game", "hex", "--engine", "random"],
        "engines": [],
        "analyse": ["--game", "hex", "--size", "3", "--engine", "random"],
        "solve connect4": [],
        "solve hex": ["--size", "3"],
        "book connect4": ["--depth", "1", "--out", str(w / "book.npz")],
        "book hex": ["--sizes", "1", "--out", str(w / "open.json")],
        "bench playouts": ["--seconds", "0.1"],
        "bench mcts": ["--seconds", "0.1"],
        "bench alphabeta": ["--seconds", "0.1"],
        "bench solver": ["--limit", "1"],
        "bench course": ["--seconds", "0.1"],
        "bench fuzz": ["--target", "records", "--game", "hex", "--lines", "1"],
        "match": ["random", "random:seed=2", "--size", "3", "--games", "1", "--jobs", "1",
                  "--store", str(w / "m.sqlite")],
        "tournament": ["random", "random:seed=2", "--size", "3", "--games-per-pair", "1",
                       "--jobs", "1", "--store", str(w / "t.sqlite")],
        "results": [str(d / "store.sqlite")],
        "compete": ["random", "random:seed=2", str(w / "r.txt"), "1", "--seed", "1", "--jobs",
                    "1", "--quiet", "--store", str(w / "c.sqlite")],
        "serve": ["--port", "0", "--store", str(w / "web.sqlite")],
        "train run": [str(w / "run"), "--generations", "1"],
        "train export": [str(d / "run"), str(w / "net.npz")],
        "train report": [str(d / "run"), "--out", str(w / "report")],
        "train patterns": [str(d / "store.sqlite"), "--out", str(w / "p.npz")],
        "train teacher": ["--out", str(w / "games.jsonl"), "--teacher", "gtp:true"],
        "train supervised": [str(d / "teacher.jsonl"), "--out", str(w / "sup"), "--holdout",
                             "0.5"],
        "warmup": [],
    }


# the long work of each command, replaced by the tripwire (module, attribute); AFTER: the
# function still runs (it checks its input) and the tripwire fires when it returns
AFTER = {("boardai.ui.setup", "build_game")}
TRIPWIRES = [
    ("boardai.ui.setup", "build_game"), ("boardai.ui.tui", "BoardApp.run"),
    ("uvicorn", "Server.serve"),
    ("boardai.solvers.connect4.book", "build_book"), ("boardai.solvers.connect4.book", "build_lines"),
    ("boardai.solvers.hex.openings", "build_opening_table"),
    ("boardai.solvers.hex.book", "build_reply_book"), ("boardai.solvers.hex.solver", "solve"),
    ("boardai.solvers.hex.openings", "solve_openings"),
    ("boardai.bench.speed", "bench_playouts"), ("boardai.bench.speed", "bench_mcts"),
    ("boardai.bench.speed", "bench_alphabeta"), ("boardai.bench.course", "bench_course"),
    ("boardai.bench.solver", "run_bench"),
    ("boardai.bench.fuzz", "fuzz_gtp"), ("boardai.bench.fuzz", "fuzz_gtp_process"),
    ("boardai.bench.fuzz", "fuzz_records"), ("boardai.bench.fuzz", "fuzz_solve"),
    ("boardai.arena.match", "run_match"), ("boardai.arena.match", "run_tournament"),
    ("boardai.arena.compete", "run_compete"),
    ("boardai.train.run", "TrainRun.run"), ("boardai.train.patterns", "learn"),
    ("boardai.train.teacher", "_local_games"), ("boardai.train.teacher", "_ray_games"),
    ("boardai.train.supervised", "_fit"),
    ("boardai.warmup", "warm_defaults"),
]


@contextlib.contextmanager
def tripwires() -> Iterator[None]:
    """Every entry of TRIPWIRES raises ReachedWork while this is active (modules that cannot
    be imported here, an optional package missing, are left out)."""
    import importlib

    def trip(*args, **kwargs):
        raise ReachedWork()

    def after(function):
        def checked_then_trip(*args, **kwargs):
            built = function(*args, **kwargs)
            for seat in getattr(built, "seats", {}).values():
                if getattr(seat, "engine", None) is not None:
                    seat.engine.close()
            raise ReachedWork()
        return checked_then_trip

    saved = []
    for module_name, attr in TRIPWIRES:
        try:
            owner = importlib.import_module(module_name)
        except Exception:                  # noqa: BLE001 -- an optional package: not fuzzed
            continue
        *outer, name = attr.split(".")
        for part in outer:
            owner = getattr(owner, part, None)
        if owner is None or not hasattr(owner, name):
            continue
        original = owner.__dict__.get(name, getattr(owner, name))
        saved.append((owner, name, original))
        setattr(owner, name, after(original) if (module_name, attr) in AFTER else trip)
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)


# --- the invocations ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Invocation:
    """``boardai`` + ``args``: ``command`` (its path) with ``param`` set to ``value``."""

    command: str
    param: str
    value: str
    args: tuple[str, ...]
    expect: frozenset = frozenset({1, 2})
    stdin: str = ""

    def text(self) -> str:
        return "boardai " + " ".join(_shown(a) for a in self.args)


def _shown(word: str) -> str:
    shown = word if len(word) <= 60 else f"{word[:20]}...({len(word)} chars)"
    return repr(shown) if not shown or not shown.isprintable() or " " in shown else shown


def commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    """Every leaf command under ``group`` (``boardai.cli.main``) by its path ("book hex")."""
    out: dict[str, click.Command] = {}
    for name, command in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        if isinstance(command, click.Group):
            out.update(commands(command, path + " "))
        else:
            out[path] = command
    return out


def _range(kind: click.ParamType) -> tuple:
    return getattr(kind, "min", None), getattr(kind, "max", None), getattr(kind, "min_open", False)


USAGE = frozenset({2})              # a bad value of a typed parameter: a usage error
REFUSED = frozenset({1, 2})         # a corrupt file, a spec or a text: refused either way


def bad_values(param: click.Parameter, box: Sandbox) -> list[tuple[str, frozenset]]:
    """Values ``param`` must refuse, each with the exit statuses that refuse it."""
    return [(v, REFUSED if v in box.corrupt_texts or _free(param) else USAGE)
            for v in _bad_values(param, box)]


def _free(param: click.Parameter) -> bool:
    """A parameter of free text or engine specs (its command reads it, not click)."""
    kind = param.type
    return param.name in SPEC_PARAMS or kind is click.STRING or type(kind) is click.types.StringParamType


def _bad_values(param: click.Parameter, box: Sandbox) -> list[str]:
    kind = param.type
    name = param.name or ""
    if name in SPEC_PARAMS:
        return list(BAD_SPECS)
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        values = list(NOT_NUMBERS)
        if isinstance(kind, click.types.IntParamType):
            values += ["1.5", "1e3"]
        low, high, low_open = _range(kind)
        if low is None or low > -1:
            values.append("-1")
        if low is not None and (low > 0 or low_open):
            values.append("0")
        if high is None or high < 10**20:
            values.append(HUGE)
        if high is not None and high < 10**6:
            values.append(str(int(high) + 1))
        return values
    from boardai.cli.common import OutPath
    if isinstance(kind, OutPath):
        values = ["", "/proc/nope", "/proc/nope/deeper", "/nonexistent/d/out",
                  str(box.work / ("x" * 300)), "\x00"]
        values.append(str(box.corrupt[".txt"]) if kind.directory else str(box.data / "folder"))
        return values
    if isinstance(kind, click.File):
        return [str(box.data / "missing.txt"), str(box.data / "folder"),
                *(str(p) for p in box.corrupt.values())]
    if isinstance(kind, click.Path):
        values = [""]
        if kind.exists:
            values.append(str(box.data / "missing.sqlite"))
        if not kind.dir_okay:
            values.append(str(box.data / "folder"))
        if kind.file_okay:
            values += [str(p) for p in box.corrupt.values()]
        return values
    if isinstance(kind, click.Choice):
        return ["nope", "", "\u0661"]
    if kind is click.BOOL or getattr(param, "is_flag", False):
        return []
    return list(BAD_TEXT)


# what a parameter takes on purpose (the command, the parameter): the values, with the reason
ACCEPTED: dict[tuple[str, str], set[str]] = {
    # a host name: asked of the resolver when the server binds (past the tripwire here; an
    # unknown name then fails with one line, exit 1)
    ("serve", "host"): {"nan", "-1"},
}


def _replace(args: list[str], param: click.Parameter, value: str) -> list[str]:
    """``args`` with ``param`` given ``value`` (an option replaced or added, an argument set)."""
    args = list(args)
    if isinstance(param, click.Option):
        flags = set(param.opts) | set(param.secondary_opts)
        out, skip = [], False
        for word in args:
            if skip:
                skip = False
                continue
            if word in flags:
                skip = not param.is_flag
                continue
            out.append(word)
        return out + [param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0], value]
    return args


def invocations(box: Sandbox) -> list[Invocation]:
    """The deterministic list: every command, every parameter, every bad value of it."""
    base = baselines(box)
    out = []
    for path, command in commands(box.cli).items():
        words = base.get(path)
        if words is None:
            raise KeyError(f"no baseline for `boardai {path}`: add one to boardai.bench.cli_fuzz.baselines")
        # an option it does not have, and a word too many (or a variadic argument's bad one)
        out.append(Invocation(path, "(unknown option)", "--frobnicate",
                              (*path.split(), *words, "--frobnicate", "1"), USAGE))
        out.append(Invocation(path, "(extra argument)", "extra",
                              (*path.split(), *words, "--", "extra"), REFUSED))
        for param in command.params:
            if getattr(param, "is_flag", False) or param.name in ("help", "version"):
                continue
            for value, expect in bad_values(param, box):
                if value in ACCEPTED.get((path, param.name), ()):
                    continue
                args = _with_value(command, words, param, value)
                if (path, param.name) in CHECKED_BY_COMMAND:
                    expect = REFUSED
                out.append(Invocation(path, param.name, value, (*path.split(), *args), expect))
    return out


def _with_value(command: click.Command, words: list[str], param: click.Parameter,
                value: str) -> list[str]:
    """The baseline ``words`` of ``command`` with ``param`` set to ``value``."""
    if isinstance(param, click.Option):
        return _replace(words, param, value)
    # arguments: the baseline's positional words in order, this one replaced (a variadic one
    # gets the value added)
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    positional, options = _split(command, words)
    index = arguments.index(param)
    if param.nargs == -1:
        positional = positional + [value]
    elif index < len(positional):
        positional[index] = value
    else:
        positional = positional + [value]
    return positional + options


def _split(command: click.Command, words: list[str]) -> tuple[list[str], list[str]]:
    """The positional words and the option words of a baseline."""
    takes_value = {opt for p in command.params if isinstance(p, click.Option) and not p.is_flag
                   for opt in p.opts}
    positional, options, i = [], [], 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and len(word) > 1:
            options.append(word)
            if word in takes_value and i + 1 < len(words):
                options.append(words[i + 1])
                i += 1
        else:
            positional.append(word)
        i += 1
    return positional, options


def combined(items: list[Invocation], rng: random.Random, box: Sandbox) -> Invocation:
    """Two bad values of one command at once (both must still be refused)."""
    items = [i for i in items if not i.param.startswith("(")]
    first = rng.choice(items)
    same = [i for i in items if i.command == first.command and i.param != first.param]
    if not same:
        return first
    second = rng.choice(same)
    command = commands(box.cli)[first.command]
    params = {p.name: p for p in command.params}
    base = list(first.args[len(first.command.split()):])
    args = _with_value(command, base, params[second.param], second.value)
    return Invocation(first.command, f"{first.param}+{second.param}",
                      f"{first.value!r} {second.value!r}", (*first.command.split(), *args),
                      first.expect | second.expect)


# --- running and checking ------------------------------------------------------------------------
class FuzzFailure(AssertionError):
    """One invocation that broke a property: ``kind`` (a key of KINDS), the invocation, what
    happened."""

    def __init__(self, kind: str, inv: Invocation, message: str):
        super().__init__(f"{kind}: {inv.text()}: {message}")
        self.kind, self.inv, self.message = kind, inv, message
        self.data = inv.text()


class _Hang(Exception):
    pass


@contextlib.contextmanager
def guard(seconds: float) -> Iterator[None]:
    """SIGALRM after ``seconds`` raises _Hang (main thread only; elsewhere no guard)."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum, frame):
        raise _Hang()
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    exit_code: int | None
    output: str
    exception: BaseException | None


def run(inv: Invocation, box: Sandbox, seconds: float = GUARD) -> Outcome:
    """Invoke ``inv`` in this process, in the sandbox (tripwires are the caller's)."""
    runner = CliRunner()
    env = {"BOARDAI_HOME": str(box.work), "HOME": str(box.work), "MOHEX": "", "COLUMNS": "100"}
    cwd = os.getcwd()
    os.chdir(box.work)
    try:
        with guard(seconds):
            result = runner.invoke(box.cli, list(inv.args), input=inv.stdin, env=env,
                                   catch_exceptions=True)
    except _Hang:
        return Outcome(None, "", _Hang())
    finally:
        os.chdir(cwd)
    exc = result.exception
    if isinstance(exc, SystemExit):
        exc = None
    return Outcome(result.exit_code, result.output, exc)


def check(inv: Invocation, box: Sandbox, seconds: float = GUARD) -> Outcome:
    """Run ``inv`` and raise FuzzFailure unless every property holds."""
    before = box.files()
    out = run(inv, box, seconds)
    if isinstance(out.exception, _Hang):
        raise FuzzFailure("hang", inv, f"interrupted after {seconds:g} s")
    if isinstance(out.exception, ReachedWork):
        raise FuzzFailure("accepted", inv, "the command went on to its long work")
    if out.exception is not None:
        raise FuzzFailure("traceback", inv, f"{type(out.exception).__name__}: {out.exception}")
    if out.exit_code == 0:
        raise FuzzFailure("accepted", inv, f"exit 0: {out.output[-300:]!r}")
    if out.exit_code not in inv.expect:
        raise FuzzFailure("status", inv, f"exit {out.exit_code}, not {sorted(inv.expect)}: "
                                         f"{out.output[-300:]!r}")
    if inv.command in PER_LINE and out.exit_code == 1 and "Traceback" not in out.output \
            and re.search(r"^line [0-9]+: ", out.output, re.M):
        return out                   # one line for each bad line of the input
    errors = [line for line in out.output.splitlines() if line.startswith("Error:")]
    if len(errors) != 1 or "Traceback" in out.output:
        raise FuzzFailure("message", inv, repr(out.output[-400:]))
    after = box.files()
    new = sorted(set(after) - set(before))
    if new:
        for path in new:                       # clean up, so the next invocation starts clean
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise FuzzFailure("written", inv, f"left {new[:3]}")
    return out


# parameters whose command checks them itself and fails (exit 1) on a bad one
CHECKED_BY_COMMAND = {
    ("train teacher", "out"),     # an empty or folder --out: "--out . is a directory", exit 1
    ("results", "store"),         # a missing store: "no such result store", exit 1
}

# commands that read many lines and report each bad one on a line of its own ("line 3: ...")
PER_LINE = {"solve connect4"}


def accepts(inv: Invocation, box: Sandbox) -> Outcome:
    """Run a baseline: it must be accepted (exit 0 or the long work reached)."""
    return run(inv, box)


@dataclass
class Report:
    """What a run did: invocations, seconds, failures by kind, the first few of each, the
    commands covered."""

    done: int = 0
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    examples: list[FuzzFailure] = field(default_factory=list)
    commands: set[str] = field(default_factory=set)
    target: str = "cli"
    game: str = "-"

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    def add(self, failure: FuzzFailure) -> None:
        seen = self.counts.get(failure.kind, 0)
        self.counts[failure.kind] = seen + 1
        if seen < 5:
            self.examples.append(failure)

    @property
    def failures(self) -> int:
        return sum(self.counts.values())

    def json(self) -> dict:
        return {"target": "cli", "invocations": self.done, "commands": len(self.commands),
                "seconds": round(self.seconds, 3),
                "per_second": round(self.done / self.seconds, 1) if self.seconds else 0.0,
                "failures": self.failures, "by_kind": dict(self.counts),
                "reproducers": [{"kind": f.kind, "input": f.inv.text(), "message": f.message}
                                for f in self.examples]}


def fuzz_cli(cli: click.Group, count: int | None = None, seconds: float | None = None, seed: int = 0,
             root: Path | None = None, progress: Callable[[int], None] | None = None) -> Report:
    """The deterministic list of ``cli``'s invocations (``boardai.cli.main``; the caller passes
    it, as this module is part of it), then random pairs of bad values: ``count`` in all,
    or as many as fit in ``seconds`` (default: the list once).  Runs in a temporary sandbox
    unless ``root`` is given."""
    report = Report()
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if root is None:
            root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boardai-fuzz-")))
        box = Sandbox.create(root, cli, seed)
        items = invocations(box)
        rng = random.Random(seed)
        stack.enter_context(tripwires())
        total = len(items) if count is None and seconds is None else count
        i = 0
        while (total is None or i < total) and (
                seconds is None or time.perf_counter() - started < seconds):
            inv = items[i] if i < len(items) else combined(items, rng, box)
            i += 1
            report.done += 1
            report.commands.add(inv.command)
            try:
                check(inv, box)
            except FuzzFailure as failure:
                report.add(failure)
            if progress and report.done % 10 == 0:
                progress(report.done)
    report.seconds = time.perf_counter() - started
    return report
