"""Reliability: every engine option and every Limit has a checked range; bad input is a one-line
error (exit status 1 or 2), never a traceback or a command that never returns; an in-process
engine that never answers loses on time and cannot touch the games after it.

The generated part (``test_bad_value_is_a_clear_error``) builds several hundred bad command
lines from every option of every engine times bad values, over ``analyse``, ``play``, ``match``
and ``tournament``, and runs them in this process with click's CliRunner (about a millisecond
each).  The few tests that start processes (a command of its own, arena workers) end their
names in ``_process``: ``-k "not _process"`` leaves them out.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from boardai.arena.game import play_game
from boardai.cli import main
from boardai.engines.base import (
    LIMIT_OPTIONS, MAX_TIME, Engine, EngineUnavailable, Limit, PlayResult, parse_bool,
)
from boardai.engines.registry import ENGINES, EngineSpecError, all_engines, engine_options, make_engine, register
from boardai.games import make_board

HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_clear_error(res, *needles: str, codes=(1, 2)) -> str:
    """Exit status 1 or 2, no traceback (an exception other than click's exit), the needles."""
    out = res.output
    assert res.exit_code in codes, (res.exit_code, out)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in out
    for needle in needles:
        assert re.search(needle, out), (needle, out)
    if res.exit_code == 1:                      # a failure is one line (after the status
        lines = [ln for ln in out.strip().splitlines()   # line of a first, compiling run)
                 if not ln.startswith("preparing the engines, once")]
        assert len(lines) == 1, out
    return out


# --- 1. every option has a declared range -----------------------------------------------------
@pytest.mark.parametrize("spec,option", [
    ("mcts:time=-1", "time"), ("mcts:sims=-5", "sims"), ("mcts:sims=0", "sims"),
    ("mcts:resign=2", "resign"), ("mcts:resign=1", "resign"), ("mcts:threads=0", "threads"),
    ("mcts:memory_mb=0", "memory_mb"), ("mcts:memory_mb=-1", "memory_mb"), ("mcts:c=-1", "c"),
    ("mcts:expand=0", "expand"), ("alphabeta:depth=-1", "depth"), ("alphabeta:tt_mb=-5", "tt_mb"),
    ("minimax:depth=-3", "depth"), ("bruteforce:threads=0", "threads"),
    ("montecarlo:threads=0", "threads"), ("alphabeta:tt_mb=100000000000", "tt_mb"),
    ("solver:tt_bits=64", "tt_bits"), ("solver:tt_bits=-1", "tt_bits"),
    ("solver:tt_bits=40", "tt_bits"), ("mcts:rave_bias=-1", "rave_bias"),
    ("montecarlo:bf_below=-1", "bf_below"), ("bruteforce:max_fillins=0", "max_fillins"),
    ("random:seed=-1", "seed"), ("openspiel-mcts:rollouts=0", "rollouts"),
])
def test_out_of_range_options_are_refused_with_what_is_accepted(spec, option):
    with pytest.raises(EngineSpecError) as err:
        make_engine(spec)
    text = str(err.value)
    assert f"{option} must be" in text and re.search(r"from|>=|>|<=|<", text), text


def test_every_option_of_every_engine_declares_a_range():
    for name, cls in all_engines().items():
        for opt in engine_options(cls):
            if name == "gtp" and opt.name == "command":
                continue                         # a command line: any text
            assert opt.range_text(), f"{name}:{opt.name} has no declared range"
            if opt.numeric:
                assert opt.min is not None and opt.max is not None, f"{name}:{opt.name}"
            opt.check(opt.default)               # the default lies in the range


def test_an_engine_built_from_python_checks_its_options():
    with pytest.raises(ValueError, match="threads must be"):
        ENGINES["mcts"](threads=0)
    with pytest.raises(ValueError, match="tt_mb must be"):
        all_engines()["alphabeta"](tt_mb=10**11)
    with pytest.raises(EngineSpecError, match="seed must be"):      # overrides are checked too
        make_engine("random", seed=-5)


def test_engines_json_shows_the_ranges():
    import json

    data = {e["name"]: {o["name"]: o for o in e["options"]}
            for e in json.loads(invoke("engines", "--json").output)}
    assert data["mcts"]["resign"]["range"] == "[0, 1)"
    assert data["mcts"]["threads"]["range"] == "1..256"
    assert data["solver"]["tt_bits"]["range"] == "16..30"
    assert data["alphabeta"]["tt_mb"]["range"] == "1..4096"
    assert data["mcts"]["time"]["range"] == "(0, 1e+06]"


# --- 2. limits --------------------------------------------------------------------------------
@pytest.mark.parametrize("field,value", [
    ("time", -1), ("time", 0), ("time", math.nan), ("time", math.inf), ("time", 1e308),
    ("time", MAX_TIME * 2), ("time", "1"), ("time", True), ("sims", 0), ("sims", -1),
    ("sims", 2.5), ("sims", 10**13), ("sims", math.nan), ("nodes", 0), ("depth", 0),
    ("depth", 1001), ("depth", -3),
])
def test_a_bad_limit_is_refused_naming_the_field(field, value):
    with pytest.raises(ValueError, match=rf"Limit\.{field} must be"):
        Limit(**{field: value})


def test_good_limits_are_kept():
    assert Limit(time=MAX_TIME).time == MAX_TIME
    assert Limit(time=1).time == 1 and Limit(time=0.001).time == 0.001
    assert Limit(sims=np.int64(5)).sims == 5 and Limit(depth=1000).depth == 1000
    assert Limit().merged(Limit(time=2.0)) == Limit(time=2.0)


def test_an_engine_never_plays_under_a_bad_limit():
    board = make_board("hex", "3")
    engine = make_engine("mcts:seed=1")
    with pytest.raises(ValueError, match="Limit.sims"):
        engine.play(board, Limit(sims=-1))
    with pytest.raises(ValueError, match="Limit.time"):
        engine.play(board, Limit(time=math.nan))


@pytest.mark.parametrize("args,option", [
    (["--time", "nan"], "time"), (["--time", "inf"], "time"), (["--time", "1e308"], "time"),
    (["--time", "-1"], "time"), (["--sims", "-1"], "sims"), (["--sims", "0"], "sims"),
    (["--depth", "0"], "depth"), (["--engine", "mcts:time=nan"], "time"),
    (["--engine", "mcts:time=inf"], "time"), (["--engine", "mcts:time=1e308"], "time"),
])
def test_analyse_refuses_limits_that_never_end_or_do_nothing(args, option):
    res = invoke("analyse", "--size", "3", "--engine", "mcts", *args)
    assert_clear_error(res, rf"\b{option}\b", codes=(2,))


def test_analyse_time_nan_returns_at_once_process():
    """The real command, in a process of its own: it used to search forever (the 60 s guard
    turns a regression into a failure, not a hang)."""
    out = subprocess.run([sys.executable, "-m", "boardai", "analyse", "--size", "3",
                          "--engine", "mcts:time=nan"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "time must be" in out.stderr
    assert "Traceback" not in out.stderr


# --- 3. one-line errors, never a traceback ----------------------------------------------------
def test_analyse_human_is_a_usage_error_pointing_at_play():
    res = invoke("analyse", "--engine", "human")
    assert_clear_error(res, "boardai play", codes=(2,))


@pytest.mark.parametrize("command", ["analyse", "play", "match", "tournament"])
def test_human_only_at_play(command, tmp_path):
    args = {"analyse": ["analyse", "--engine", "human"],
            "play": ["play", "--black", "human:x=1", "--white", "random"],
            "match": ["match", "human", "random", "--store", str(tmp_path / "s.sqlite")],
            "tournament": ["tournament", "random", "human", "--store",
                           str(tmp_path / "s.sqlite")]}[command]
    assert_clear_error(invoke(*args), "human", codes=(2,))


@pytest.mark.skipif(HAVE_OPENSPIEL, reason="OpenSpiel is installed here")
@pytest.mark.parametrize("command", ["analyse", "play", "match", "tournament"])
def test_openspiel_without_openspiel_is_one_line_naming_the_extra(command, tmp_path):
    store = str(tmp_path / "s.sqlite")
    args = {"analyse": ["analyse", "--engine", "openspiel-mcts"],
            "play": ["play", "--black", "openspiel-mcts", "--white", "random"],
            "match": ["match", "openspiel-mcts", "random", "--store", store],
            "tournament": ["tournament", "random", "openspiel-mcts", "--store", store]}[command]
    assert_clear_error(invoke(*args), re.escape("pip install 'boardai[peers]'"), codes=(1,))
    with pytest.raises(EngineUnavailable):
        make_engine("openspiel-mcts")


def _refuse_memory(*_args, **_kwargs):
    raise MemoryError


def test_a_table_too_big_for_memory_is_one_line(monkeypatch):
    from boardai.engines.alphabeta import kernel as AK

    monkeypatch.setattr(AK, "new_tables", _refuse_memory)
    out = assert_clear_error(invoke("analyse", "--game", "tictactoe", "--engine", "alphabeta:tt_mb=64"),
                             "lower tt_mb", codes=(1,))
    assert "64 MiB" in out


def test_a_solver_table_too_big_for_memory_is_one_line(monkeypatch):
    from boardai.solvers.connect4 import solver as C4

    monkeypatch.setattr(C4, "new_table", _refuse_memory)
    assert_clear_error(invoke("analyse", "--game", "connect4", "--moves", "4444",
                              "--engine", "solver:tt_bits=30,book=0"), "lower tt_bits", codes=(1,))


def test_a_tree_too_big_for_memory_is_one_line(monkeypatch):
    from boardai.engines.mcts import kernel as MK

    real = MK.new_tree
    monkeypatch.setattr(MK, "new_tree", lambda n: _refuse_memory() if n > 64 else real(n))
    assert_clear_error(invoke("analyse", "--engine", "mcts:sims=10"), "lower memory_mb",
                       codes=(1,))


def test_a_position_too_big_for_bruteforce_is_one_line():
    res = invoke("analyse", "--size", "9", "--engine", "bruteforce:max_fillins=100")
    assert_clear_error(res, "max_fillins=100", codes=(1,))


# --- the generated set of bad command lines ---------------------------------------------------
CANDIDATES = ("-1", "0", "nan", "inf", "1e308", "abc", "")
# which candidates an option accepts (every other one must be refused); an option missing here
# fails test_the_bad_value_table_covers_every_option, so a new option gets its bad values
ACCEPTS_ZERO = {"seed", "bf_below", "c", "rave_bias", "resign", "c_puct", "fpu", "solver",
                "ahead", "patterns", "local", "mustplay", "prior_weight", "settle", "rule",
                "value_weight"}
COMMANDS = ("analyse", "play", "match", "tournament")


def _accepted(opt) -> set[str]:
    if opt.type is parse_bool or opt.name in ACCEPTS_ZERO:
        return {"0"}
    return set()


def _bad_specs() -> list[tuple[str, str, str]]:
    """(engine spec, option, value) for every option of every engine and every bad value."""
    out = []
    for name, cls in all_engines().items():
        if name in ("gtp", "human"):
            continue
        for opt in engine_options(cls):
            for value in CANDIDATES:
                if value not in _accepted(opt):
                    out.append((f"{name}:{opt.name}={value}", opt.name, value))
    return out


BAD_SPECS = _bad_specs()
CLI_OPTIONS = [("analyse", "--time", "time"), ("analyse", "--sims", "sims"),
               ("analyse", "--depth", "depth"), ("match", "--move-timeout", "move_timeout"),
               ("tournament", "--move-timeout", "move_timeout")]
BAD_CLI = [(c, flag, name, v) for c, flag, name in CLI_OPTIONS for v in CANDIDATES] + [
    ("play", "--seed", "seed", v) for v in CANDIDATES if v != "0"]


def test_the_bad_value_table_covers_every_option():
    assert len(BAD_SPECS) * len(COMMANDS) + len(BAD_CLI) >= 200
    for name, cls in all_engines().items():
        for opt in engine_options(cls):
            known = opt.type is parse_bool or opt.choices or opt.numeric or opt.what \
                or (name, opt.name) == ("gtp", "command")
            assert known, f"{name}:{opt.name}: say which of {CANDIDATES} it accepts"


def _command(command: str, store: str, spec: str) -> list[str]:
    return {"analyse": ["analyse", "--size", "3", "--engine", spec],
            "play": ["play", "--size", "3", "--black", spec, "--white", "random",
                     "--save", store + ".sgf"],
            "match": ["match", spec, "random", "--size", "3", "--games", "1", "--jobs", "1",
                      "--store", store],
            "tournament": ["tournament", "random", spec, "--size", "3", "--games-per-pair", "1",
                           "--jobs", "1", "--store", store]}[command]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return str(tmp_path_factory.mktemp("bad") / "bad.sqlite")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("spec,option,value", BAD_SPECS, ids=[s for s, _, _ in BAD_SPECS])
def test_bad_value_is_a_clear_error(command, spec, option, value, store):
    res = invoke(*_command(command, store, spec))
    assert_clear_error(res, rf"\b{re.escape(option)}\b")
    assert not os.path.exists(store + ".sgf")          # nothing was played


@pytest.mark.parametrize("command,flag,option,value", BAD_CLI,
                         ids=[f"{c}{f}={v}" for c, f, _, v in BAD_CLI])
def test_bad_command_line_value_is_a_clear_error(command, flag, option, value, store):
    args = _command(command, store, "random")
    res = invoke(*args, flag, value)
    assert_clear_error(res, rf"{flag}|\b{option}\b", codes=(2,))


# --- 4. an in-process engine that never answers -----------------------------------------------
RELEASE = threading.Event()           # lets the abandoned threads of this process end
PID_DIR: list[str] = []               # where Sleepy writes the pid of the process it runs in


class Sleepy(Engine):
    """A test-only engine that never answers in time (it sleeps; releases at the test's end)."""

    name = "sleepy"
    summary = "sleeps instead of moving (tests only)"

    def play(self, board, limit=None):
        if PID_DIR:
            path = os.path.join(PID_DIR[0], f"{os.getpid()}-{time.monotonic_ns()}")
            open(path, "w").close()
        RELEASE.wait(20)
        return PlayResult(board.legal_moves[0], "late")


@pytest.fixture
def sleepy(tmp_path):
    register(Sleepy)
    PID_DIR[:] = [str(tmp_path)]
    RELEASE.clear()
    yield tmp_path
    RELEASE.set()
    PID_DIR.clear()
    ENGINES.pop("sleepy", None)


def test_play_game_stops_waiting_at_the_move_timeout(sleepy):
    board = make_board("hex", "3")
    result = play_game(board, make_engine("random:seed=1"), Sleepy(), move_timeout=0.3)
    # the timeout fired: Sleepy never answers until released
    assert result.reason == "time forfeit" and str(result.loser) == "White"
    assert "0.3 s allowed per move" in result.detail and not RELEASE.is_set()
    assert len(board.move_stack) == 1 == len(result.moves)
    RELEASE.set()                       # the late answer changes nothing
    time.sleep(0.1)
    assert len(board.move_stack) == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_match_forfeits_a_hung_engine_and_the_next_game_runs_in_a_fresh_process(sleepy, jobs):
    res = CliRunner().invoke(main, ["match", "sleepy", "random", "--size", "3", "--games", "3",
                                    "--jobs", jobs, "--move-timeout", "0.5", "--store",
                                    str(sleepy / "m.sqlite"), "--json"])
    assert res.exit_code == 0, res.output
    import json

    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["reasons"] == {"time forfeit": 3} and data["wins_b"] == 3
    pids = {p.name.split("-")[0] for p in sleepy.iterdir() if "-" in p.name}
    assert len(pids) == 3 and str(os.getpid()) not in pids      # a fresh worker per game


class Dies(Engine):
    """A test-only engine that kills the worker process it plays in (a crash in native code)."""

    name = "dies"
    parent = os.getpid()

    def play(self, board, limit=None):
        if os.getpid() == Dies.parent:          # never in the test's own process
            raise RuntimeError("not in a worker")
        os._exit(9)


def test_a_worker_that_dies_is_a_one_line_error_process(tmp_path):
    register(Dies)
    try:
        res = invoke("match", "dies", "random", "--size", "3", "--games", "1", "--jobs", "1",
                     "--store", str(tmp_path / "d.sqlite"))
    finally:
        ENGINES.pop("dies", None)
    assert_clear_error(res, "worker process died", "exit code", codes=(1,))


def test_limit_options_are_the_limit_fields():
    assert [o.name for o in LIMIT_OPTIONS] == ["time", "sims", "nodes", "depth"]
