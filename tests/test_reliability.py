"""Reliability: every engine option and every Limit has a checked range."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from boardai.engines.base import LIMIT_OPTIONS, MAX_TIME, Limit
from boardai.engines.registry import ENGINES, EngineSpecError, all_engines, engine_options, make_engine
from boardai.games import make_board


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


def test_limit_options_are_the_limit_fields():
    assert [o.name for o in LIMIT_OPTIONS] == ["time", "sims", "nodes", "depth"]
