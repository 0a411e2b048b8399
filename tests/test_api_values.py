"""Values at the API edge are Python's: every engine's PlayResult and MoveInfo hold ints, floats,
strings and lists, never numpy scalars, so they print as ``value=0.53``, not
``value=np.float64(0.53)``, and go to JSON as they are.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from boardai.engines.base import Limit, MoveInfo, PlayResult, plain
from boardai.engines.registry import make_engine
from boardai.games import make_board

PLAIN = (int, float, str, bool, type(None))

# engine specs that run here without anything installed beyond the test extras; strategy:
# (a compiled library) is covered in test_strategy.py's fixture-built libraries below
SPECS = ["random", "minimax:depth=2", "alphabeta:depth=3", "montecarlo:sims=200",
         "mcts:sims=200", "solver", "nn:sims=16", "policy",
         f"gtp:{sys.executable} -m boardai gtp --engine mcts:sims=50"]


def numpy_values(value, path="result"):
    """The paths of every value inside ``value`` that is not a plain Python value."""
    if isinstance(value, (PlayResult, MoveInfo)):
        return [p for name in value.__dataclass_fields__
                for p in numpy_values(getattr(value, name), f"{path}.{name}")]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in numpy_values(k, f"{path}[{k!r} key]")
                + numpy_values(v, f"{path}[{k!r}]")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in numpy_values(v, f"{path}[{i}]")]
    return [] if type(value) in PLAIN else [f"{path}: {type(value).__module__}.{type(value).__name__}"]


def boards(game):
    if game == "hex":
        yield make_board("hex", 5)
    else:
        board = make_board("connect4")
        board.push_many([3, 3, 2, 4])
        yield board


@pytest.mark.parametrize("game", ["hex", "connect4"])
@pytest.mark.parametrize("spec", SPECS)
def test_every_engine_answers_in_python_values(spec, game):
    board = next(boards(game))
    engine = make_engine(spec)
    try:
        for call in (engine.play, engine.analyse):
            result = call(board.copy(), Limit(time=0.3))
            assert numpy_values(result) == []
            assert "np." not in repr(result) and "numpy" not in repr(result)
            json.dumps(result.to_json())
    finally:
        engine.close()


def test_bruteforce_on_a_small_connect4_board_too():
    board = make_board("connect4", "4x4")
    board.push_many([0, 1, 2, 3, 0, 1])
    engine = make_engine("bruteforce")
    result = engine.analyse(board, Limit(time=1))
    assert result.moves and numpy_values(result) == []
    hex_result = engine.analyse(make_board("hex", 3), Limit(time=1))
    assert hex_result.moves and numpy_values(hex_result) == []


def test_numpy_scalars_become_python_at_construction_and_assignment():
    info = {"winrate": np.float64(0.765), "ci95": [np.float32(0.5), 0.75], "n": np.int64(7),
            "flag": np.bool_(True)}
    move = MoveInfo(np.int64(3), "d1", np.int32(10), np.float64(0.53), np.float64(0.765))
    result = PlayResult(np.int64(3), "d1", value=np.float64(0.53), moves=[move], info=info,
                        time_s=np.float64(0.25), nodes=np.int64(99))
    assert repr(move) == "MoveInfo(move=3, name='d1', visits=10, value=0.53, winrate=0.765, prior=None)"
    assert "value=0.53," in repr(result) and "np." not in repr(result)
    assert result.info is info and info == {"winrate": 0.765, "ci95": [0.5, 0.75], "n": 7,
                                            "flag": True}
    assert type(info["flag"]) is bool and type(info["n"]) is int
    result.value = np.float32(-0.25)
    assert type(result.value) is float and result.value == -0.25
    assert numpy_values(result) == []


def test_plain_leaves_python_values_and_arrays_alone():
    values = [1, 2.5, "x", None, True]
    assert plain(values) is values and values == [1, 2.5, "x", None, True]
    array = np.arange(3)
    assert plain(array) is array
    assert plain((np.int64(1), 2)) == (1, 2) and type(plain((np.int64(1), 2))[0]) is int


def test_a_course_strategy_answers_in_python_values(tmp_path):
    from course_strategies import build
    lib = build(tmp_path, "leftmost")["leftmost"]
    engine = make_engine(f"strategy:{lib}")
    try:
        result = engine.play(next(boards("connect4")), Limit(time=1))
        assert numpy_values(result) == [] and "np." not in repr(result)
    finally:
        engine.close()
