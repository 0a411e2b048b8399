"""The command line: version, help, engines list, analyse, and numba's cache across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardai import __version__
from boardai.cli import main


def run_cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version_and_module_entry_point():
    assert run_cli("--version").output.strip() == f"boardai, version {__version__}"
    out = subprocess.run([sys.executable, "-m", "boardai", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"boardai, version {__version__}"


def test_help_lists_commands():
    out = run_cli("--help").output
    for cmd in ("play", "gtp", "analyse", "engines", "bench"):
        assert cmd in out


def test_engines_json_lists_options():
    data = json.loads(run_cli("engines", "--json").output)
    names = {e["name"]: e for e in data}
    assert {"random", "human", "gtp"} <= set(names)
    assert any(o["name"] == "seed" for o in names["random"]["options"])


@pytest.mark.parametrize("args", [
    ["--game", "hex", "--size", "9", "--moves", "e5 d6"],
    ["--game", "connect4", "--moves", "4453"],
    ["--game", "connect4", "--moves", "4 4 5 3"],
])
def test_analyse_json_last_line(args):
    res = run_cli("analyse", *args, "--engine", "random:seed=1", "--json")
    assert res.exit_code == 0
    data = json.loads(res.output.strip().splitlines()[-1])
    for key in ("move", "value", "pv", "nodes", "time_s", "moves"):
        assert key in data
    assert data["value"] is None


@pytest.mark.parametrize("args,message", [
    (["--moves", "zz"], "not a move"),
    (["--moves", "a1 a1"], "already taken"),
    (["--engine", "nosuch"], "unknown engine"),
    (["--engine", "random:speed=3"], "no option 'speed'"),
    (["--engine", "random:seed=x"], "not a valid"),
    (["--game", "connect4", "--moves", "4444444"], "column 4 is full"),
    (["--game", "connect4", "--size", "33x9"], "1x1 to 32x32"),
    (["--game", "connect4", "--blocked", "8:1"], "off the 7x6 board"),
    (["--game", "connect4", "--blocked", "4:1", "--blocked", "random"], "give it alone"),
    (["--game", "hex", "--blocked", "1:1"], "Hex has none"),
    (["--game", "hex", "--size", "random"], "no random board size"),
    (["--size", "0"], "1..26"),
])
def test_analyse_bad_input_is_a_clear_usage_error(args, message):
    res = CliRunner().invoke(main, ["analyse", *args])
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_second_process_compiles_nothing(tmp_path):
    """numba's on-disk cache: a second run of the same work loads everything from the cache."""
    code = ("from boardai.games import make_board; from boardai.games import kernel as K;"
            "from boardai.games.layout import new_rng;"
            "b = make_board('hex', '5'); b.push('c3'); b.pop(); K.playout_batch(b.state, new_rng(1), 5);"
            "c = make_board('connect4'); c.push('4'); c.pop(); K.playout_batch(c.state, new_rng(1), 5);"
            "t = make_board('tictactoe'); K.playout_batch(t.state, new_rng(1), 5);"
            "from boardai.solvers.connect4.solver import Solver; s = Solver(tt_bits=16);"
            "c.push_many('2252576253462244111563365343'); s.solve(c); s.analyze(c, weak=True);"
            # the recursive alpha-beta search loaded from the cache (a known numba hazard)
            "from boardai.engines.registry import make_engine; from boardai.engines.base import Limit;"
            "[make_engine(e).play(x, Limit(depth=3)) for e in ('alphabeta', 'minimax')"
            " for x in (make_board('hex', '4'), make_board('connect4'), t)];"
            "[make_engine('mcts:sims=200,seed=1').play(x) for x in (make_board('hex', '4'), c, t)]")
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True)
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            check=True)
    saved = [line for line in second.stdout.splitlines() if "data saved" in line]
    assert saved == [], "recompiled in a fresh process:\n" + "\n".join(saved[:10])
    assert "data loaded" in second.stdout
