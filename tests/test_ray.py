"""The arena on Ray (a local Ray with two worker CPUs): the same games as the local backend for
the same seeds and budgets, no game lost or doubled when a worker process is killed mid-match,
and a driver killed with kill -9 resumed by the same command to exactly its plan."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from boardai.arena.match import make_plan, run_match  # noqa: E402
from boardai.games.setup import BoardSetup  # noqa: E402
from boardai.arena.backends import parse_backend  # noqa: E402
from boardai.arena.ray_runner import RayRunner  # noqa: E402
from boardai.arena.runner import SerialRunner  # noqa: E402
from boardai.arena.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def runner():
    r = RayRunner(None, 2)
    yield r
    r.close()


def _games(store: Store, key: str) -> dict[int, tuple]:
    return {g.idx: (tuple(g.moves), g.winner, g.reason, g.black, g.white)
            for g in store.games(key)}


def _ray_workers() -> list[int]:
    """Pids of the Ray worker processes playing a game right now."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"ray::_play_on_worker" in title:
            pids.append(int(entry.name))
    return pids


def test_parse_backend():
    assert parse_backend("local") == ("local", None)
    assert parse_backend("ray") == ("ray", None)
    assert parse_backend("ray:10.0.0.5:6379") == ("ray", "10.0.0.5:6379")
    for bad in ("rey", "local:x", "spark"):
        with pytest.raises(ValueError, match="local, ray or ray:ADDRESS"):
            parse_backend(bad)


def test_same_games_as_the_local_backend(runner, tmp_path):
    plan = make_plan("mcts:sims=60", "random", BoardSetup("hex", 5, 5), None, 7, None,
                     tmp_path / "a.sqlite")
    with Store(tmp_path / "local.sqlite") as local, SerialRunner() as serial:
        run_match(plan, 6, local, serial)
        expected = _games(local, plan.key)
    with Store(tmp_path / "ray.sqlite") as remote:
        out = run_match(plan, 6, remote, runner)
        got = _games(remote, plan.key)
    assert out.score.games == 6
    assert got == expected


def test_a_killed_worker_loses_no_game_and_doubles_none(runner, tmp_path):
    """Two workers are killed (kill -9) while they play; Ray re-runs their games with the same
    seeds: every game of the plan is stored once, and they are the games the plan gives."""
    plan = make_plan("mcts:sims=4000", "mcts:sims=4000", BoardSetup("hex", 7, 7), None, 3, None,
                     tmp_path / "a.sqlite")
    games = 8
    kills = 0
    with Store(tmp_path / "ray.sqlite") as store:
        store.ensure_match(plan.info())
        stored = 0
        for g in runner.play(plan.task(i) for i in range(games)):
            stored += store.add_game(g)
            if kills < 2:
                for _ in range(200):                 # wait for a worker in the middle of a game
                    pids = _ray_workers()
                    if pids:
                        os.kill(pids[0], signal.SIGKILL)
                        kills += 1
                        break
                    time.sleep(0.02)
        got = _games(store, plan.key)
    assert kills == 2
    assert stored == games and sorted(got) == list(range(games))
    with Store(tmp_path / "check.sqlite") as check:
        # the same plan replayed without kills gives the very same games
        run_match(plan, games, check, runner)
        assert _games(check, plan.key) == got


def test_a_driver_killed_with_kill_9_resumes_to_exactly_its_plan(tmp_path):
    store = tmp_path / "arena.sqlite"
    command = [sys.executable, "-m", "boardai", "match", "mcts:sims=3000", "random", "--game",
               "hex", "--size", "7", "--games", "10", "--store", str(store), "--backend", "ray",
               "--jobs", "2", "--seed", "5"]
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if store.exists():
                with Store(store) as s:
                    if len(s.games()) >= 3:
                        break
            if first.poll() is not None:
                break
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)
        first.wait(30)
    finally:
        if first.poll() is None:
            first.kill()
        # what the dead driver's local Ray leaves behind (its agents) goes with its session
        try:
            os.killpg(first.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    with Store(store) as s:
        before = len(s.games())
    assert 3 <= before <= 10
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with Store(store) as s:
        games = s.games()
    assert sorted(g.idx for g in games) == list(range(10))


def test_ray_map_and_a_book_built_on_ray_match_the_local_ones(runner, tmp_path):
    """The one Ray helper (``boardai._ray``) that the book and the teacher farm work out with:
    every result comes back once, and a 4x4 book built on Ray equals the local build."""
    from boardai._ray import ray_map
    from boardai.solvers.connect4.book import build_book

    paths = sorted(ray_map(os.path.join, [("a", str(n)) for n in range(10)], None, 2))
    assert paths == sorted(os.path.join("a", str(n)) for n in range(10))
    assert ray.is_initialized()                 # joined the fixture's Ray, did not shut it down
    local = build_book(3, tmp_path / "local.npz", width=4, height=4, tt_bits=16)
    remote = build_book(3, tmp_path / "ray.npz", width=4, height=4, tt_bits=16, backend="ray")
    assert len(local) > 0
    assert dict(zip(local.keys.tolist(), local.scores.tolist())) == \
        dict(zip(remote.keys.tolist(), remote.scores.tolist()))


def test_a_training_run_on_ray_plays_the_games_the_local_workers_play(runner, tmp_path):
    """``boardai train --backend ray``: the self-play games of a generation are the local
    backend's, move for move (the network travels as bytes, each file is written by the driver),
    and the gating and evaluation games name the driver's network files."""
    pytest.importorskip("torch")
    import json

    import numpy as np

    from boardai.train.run import RunConfig, TrainRun
    from boardai.train.selfplay import SearchSettings

    config = RunConfig("connect4", 4, 4, channels=8, blocks=1, search=SearchSettings(sims=16),
                       games_per_generation=4, gate_games=2, eval_games=2,
                       eval_opponents=("mcts:sims=30",), batch_size=16)
    local = TrainRun(tmp_path / "local", config)
    local.run(generations=1, workers=1)
    remote = TrainRun(tmp_path / "ray", config)
    remote.run(generations=1, workers=2, backend="ray")
    assert ray.is_initialized()                 # joined the fixture's Ray, did not shut it down
    for i in range(4):
        with np.load(tmp_path / "local" / "games" / "g0001" / f"{i:05d}.npz") as a, \
                np.load(tmp_path / "ray" / "games" / "g0001" / f"{i:05d}.npz") as b:
            np.testing.assert_array_equal(a["moves"], b["moves"])
            assert float(a["result"]) == float(b["result"])
            np.testing.assert_array_equal(a["policy"], b["policy"])
    gates = sorted((tmp_path / "ray" / "gate" / "g0001").glob("*.json"))
    assert len(gates) == 2
    for path in gates:
        record = json.loads(path.read_text())
        assert record["score"] in (0, 0.5, 1)
        assert str(tmp_path / "ray" / "nets") in record["a"]      # the driver's own paths
    assert remote.state.generation == 2 and len(remote.state.history) == 1
    assert "mcts:sims=30" in remote.state.history[0]["elo"]


def test_a_training_run_refuses_a_bad_backend(tmp_path):
    from click.testing import CliRunner

    from boardai.cli import main

    result = CliRunner().invoke(main, ["train", "--backend", "slurm", str(tmp_path / "r")])
    assert result.exit_code == 2 and "local, ray or ray:ADDRESS" in result.output
    assert not (tmp_path / "r").exists()
