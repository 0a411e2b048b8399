"""``boardai train``: the PyTorch twin equals the numpy network, self-play examples, root noise,
a tiny end-to-end run on 4x4 Connect Four, killed with -9 and resumed, and the report."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

torch = pytest.importorskip("torch")

from boardai.cli import main  # noqa: E402
from boardai.engines.base import Limit  # noqa: E402
from boardai.engines.mcts import kernel as MK  # noqa: E402
from boardai.engines.mcts import puct  # noqa: E402
from boardai.engines.mcts.guided import GuidedMcts, UniformEvaluator  # noqa: E402
from boardai.games import Connect4Board, HexBoard  # noqa: E402
from boardai.games.game import get_game  # noqa: E402
from boardai.nn import features  # noqa: E402
from boardai.nn.model import Config, load  # noqa: E402
from boardai.train.run import RunConfig, TrainRun, _batch  # noqa: E402
from boardai.train.selfplay import (  # noqa: E402
    Examples, SearchSettings, new_board, selfplay_game,
)
from boardai.train.torch_net import TorchNet  # noqa: E402

TINY = ["--game", "connect4", "--size", "4x4", "--channels", "8", "--blocks", "1", "--sims",
        "16", "--games", "4", "--gate-games", "2", "--eval-games", "2", "--eval-opponent",
        "mcts:sims=30", "--batch-size", "16"]


@pytest.mark.parametrize("game, board", [("hex", HexBoard(5)), ("connect4", Connect4Board(7, 6)),
                                         ("connect4", Connect4Board(9, 10))])
def test_the_exported_numpy_network_computes_what_the_torch_module_does(game, board, tmp_path):
    torch.manual_seed(3)
    net = TorchNet(Config(game, channels=8, blocks=2))
    rng = np.random.default_rng(1)
    x = torch.tensor(rng.random((12, 6, board.height, board.width)) > 0.5, dtype=torch.float32)
    net.train()
    for _ in range(3):                  # batch norm statistics away from their start
        net(x * 2 + 1, board.num_actions)
    net.eval()
    with torch.no_grad():
        logits, values = net(x, board.num_actions)
    net.to_network().save(tmp_path / "n.npz")
    np_logits, np_values = load(tmp_path / "n.npz").forward(x.numpy(), board.num_actions)
    assert np_logits.shape == (12, board.num_actions)
    np.testing.assert_allclose(np_logits, logits.numpy(), atol=2e-5)
    np.testing.assert_allclose(np_values, values.numpy(), atol=2e-5)


def _net_file(tmp_path, game="connect4") -> str:
    torch.manual_seed(0)
    path = tmp_path / f"{game}.npz"
    TorchNet(Config(game, channels=8, blocks=1)).eval().to_network().save(path)
    return str(path)


@pytest.mark.parametrize("game, width, height", [("connect4", 5, 4), ("hex", 4, 4)])
def test_selfplay_examples_are_consistent(tmp_path, game, width, height):
    ex, moves, black = selfplay_game(_net_file(tmp_path, game), game, width, height,
                                     SearchSettings(sims=24), seed=5)
    assert len(ex) == len(moves) and black in (-1.0, 0.0, 1.0)
    assert ex.planes.shape == (len(moves), features.PLANES, height, width)
    np.testing.assert_allclose(ex.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert not (ex.policy[~ex.mask] > 0).any()           # visits only on legal moves
    assert set(np.abs(ex.value)) <= {abs(black)}
    if black:                                            # the winner's positions say +1
        assert ex.value[0] == black and ex.value[1] == -black
    board = get_game(game).new_board((width, height))
    for i, m in enumerate(moves):                        # the planes are the game's positions
        np.testing.assert_array_equal(ex.planes[i], features.encode([board.state])[0])
        board.push(m)
    assert board.is_game_over()


def test_root_noise_mixes_into_the_root_priors_only():
    board = Connect4Board(7, 6)
    quiet = GuidedMcts(UniformEvaluator(), sims=64, seed=1)
    quiet.play(board, Limit(sims=64))
    noisy = GuidedMcts(UniformEvaluator(), sims=64, seed=1)
    noisy.root_noise = (0.3, 0.25)
    noisy.play(board, Limit(sims=64))

    def root_priors(engine):
        tree = engine._trees[0]
        first, k = int(tree.ints[tree.root, MK.CHILD]), int(tree.ints[tree.root, MK.NCHILD])
        return tree.flts[first:first + k, puct.PRIOR].copy()

    plain, mixed = root_priors(quiet), root_priors(noisy)
    np.testing.assert_allclose(plain, 1 / 7)
    assert abs(mixed.sum() - 1.0) < 1e-9 and not np.allclose(mixed, plain)
    assert mixed.min() >= 0.75 / 7 - 1e-12              # (1 - eps) of the prior stays


def test_a_batch_under_a_symmetry_keeps_policy_and_mask_together(tmp_path):
    ex, _, _ = selfplay_game(_net_file(tmp_path), "connect4", 5, 4, SearchSettings(sims=16), 2)
    game = get_game("connect4")
    idx = np.arange(len(ex))
    planes, policy, mask, value = _batch(ex, idx, "mirror", game, 5, 4)
    np.testing.assert_array_equal(planes, ex.planes[:, :, :, ::-1])
    np.testing.assert_array_equal(policy, ex.policy[:, ::-1])
    np.testing.assert_array_equal(mask, ex.mask[:, ::-1])
    assert not (policy[~mask] > 0).any()


def _files(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): hashlib.sha1(p.read_bytes()).hexdigest()
            for sub in ("games", "gate", "eval", "nets") for p in (directory / sub).rglob("*")
            if p.is_file()}


def _train(args, **kw):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "boardai", "train", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)


def test_a_tiny_run_killed_with_9_resumes_and_loses_nothing(tmp_path):
    run_dir = tmp_path / "run"
    proc = _train([*TINY, "--generations", "3", str(run_dir)])
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        if list((run_dir / "games" / "g0002").glob("*.npz")):
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _files(run_dir)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["generation"] == 2 and len(state["history"]) == 1
    assert len([k for k in before if k.startswith("games/g0001/")]) == 4

    again = _train([str(run_dir), "--generations", "3"])     # the stored settings go on
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert "resuming connect4 4x4" in err
    after = _files(run_dir)
    assert all(after.get(k) == v for k, v in before.items())   # nothing redone or lost
    state = json.loads((run_dir / "state.json").read_text())
    assert state["generation"] == 4
    assert [h["generation"] for h in state["history"]] == [1, 2, 3]
    assert all(h["policy_loss"] > 0 and h["value_loss"] >= 0 for h in state["history"])
    for g in (1, 2, 3):
        assert len(list((run_dir / "games" / f"g{g:04d}").glob("*.npz"))) == 4
        assert len(list((run_dir / "gate" / f"g{g:04d}").glob("*.json"))) == 2
        assert (run_dir / "nets" / f"g{g:04d}.npz").exists()
    best = Path(run_dir / "nets" / f"g{state['best']:04d}.npz")
    assert str(best) in out

    result = CliRunner().invoke(main, ["train", "report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    gens = json.loads(result.output)
    assert [g["generation"] for g in gens] == [1, 2, 3]
    assert all("mcts:sims=30" in g["elo"] for g in gens)
    result = CliRunner().invoke(main, ["train", "report", str(run_dir)])
    assert result.exit_code == 0, result.output
    for name in ("losses.png", "elo.png"):
        data = (run_dir / "report" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000

    result = CliRunner().invoke(main, ["train", "export", str(run_dir), str(tmp_path / "x.npz")])
    assert result.exit_code == 0, result.output
    exported = load(tmp_path / "x.npz")
    assert exported.about["generation"] == state["best"]
    assert exported.about["run"]["games_per_generation"] == 4
    assert exported.about["selfplay_games"] == 4 * state["best"]
    np.testing.assert_array_equal(exported.weights["stem.w"], load(best).weights["stem.w"])
    result = CliRunner().invoke(main, ["train", "export", str(run_dir), str(tmp_path / "y.npz"),
                                       "--generation", "9"])
    assert result.exit_code == 1 and "no network of generation 9" in result.output

    # the trained network plays through the nn engine
    result = CliRunner().invoke(main, ["analyse", "--game", "connect4", "--size", "4x4",
                                       "--engine", f"nn:model={best},sims=20", "--json"])
    assert result.exit_code == 0, result.output


def test_a_run_refuses_other_settings_and_bad_input(tmp_path):
    run = TrainRun(tmp_path / "r", RunConfig("connect4", 4, 4, channels=8, blocks=1))
    run._start()
    runner = CliRunner()
    result = runner.invoke(main, ["train", "--channels", "16", str(tmp_path / "r")])
    assert result.exit_code == 1 and "other settings (channels)" in result.output
    result = runner.invoke(main, ["train", "--game", "hex", "--size", "99", str(tmp_path / "x")])
    assert result.exit_code == 1 and "board side must be 1..26" in result.output
    assert not (tmp_path / "x" / "config.json").exists()
    result = runner.invoke(main, ["train", "--eval-opponent", "nosuch", str(tmp_path / "y")])
    assert result.exit_code == 2 and "nosuch" in result.output
    result = runner.invoke(main, ["train", "report", str(tmp_path)])
    assert result.exit_code == 1 and "no training run" in result.output
    assert "Traceback" not in result.output


def _tiny_hex(**kw) -> RunConfig:
    return RunConfig("hex", 5, 5, channels=8, blocks=1, transpose_white=True,
                     search=SearchSettings(sims=16), games_per_generation=2, gate_games=2,
                     eval_games=2, eval_opponents=("mcts:sims=30",), batch_size=16, **kw)


def test_a_run_started_from_a_network_begins_with_it_and_reads_games_in_its_frame(tmp_path):
    """``--init``: generation 0 is the given network (what it computes, kept through the torch
    twin), and a mover's-frame network trains on its games read in that frame: the move played
    at each position keeps its visits once the position is transposed for White."""
    source = TrainRun(tmp_path / "source", _tiny_hex())
    source._start()
    init = source.net_path(0)
    run = TrainRun(tmp_path / "run", _tiny_hex(init=str(init)))
    run.run(generations=1)
    start, given = load(run.net_path(0)), load(init)
    assert start.config.transpose_white
    board = HexBoard(5)
    states = []
    for move in (12, 7, 13):
        states.append(board.state.copy())
        board.push(move)
    states = np.stack(states)
    for a, b in zip(start.policy_value(states), given.policy_value(states)):
        np.testing.assert_allclose(a, b, atol=1e-4)
    assert run.state.generation == 2 and run.net_path(1).exists()
    assert load(run.net_path(1)).config.transpose_white

    ex = run._load_games(1)[(5, 5)]
    offset = 0
    for path in sorted((tmp_path / "run" / "games" / "g0001").glob("*.npz")):
        with np.load(path) as d:
            moves = d["moves"]
        for ply, move in enumerate(moves):
            white = ply % 2 == 1
            seen = features.transpose_move(int(move), 5, 5) if white else int(move)
            assert ex.mask[offset + ply, seen] and ex.policy[offset + ply, seen] > 0
        offset += len(moves)
    assert offset == len(ex)


def test_init_refuses_a_network_that_does_not_fit(tmp_path):
    source = TrainRun(tmp_path / "source", _tiny_hex())
    source._start()
    init = str(source.net_path(0))
    runner = CliRunner()
    result = runner.invoke(main, ["train", "--init", "nosuch", str(tmp_path / "a")])
    assert result.exit_code == 1 and "no network 'nosuch'" in result.output
    result = runner.invoke(main, ["train", "--init", init, "--game", "connect4",
                                  str(tmp_path / "b")])
    assert result.exit_code == 1 and "is a hex network, not connect4" in result.output
    result = runner.invoke(main, ["train", "--init", init, "--size", "5", "--channels", "16",
                                  str(tmp_path / "c")])
    assert result.exit_code == 1 and "its channels is 8, the run's 16" in result.output
    (tmp_path / "d.npz").write_bytes(b"not a network")
    result = runner.invoke(main, ["train", "--init", str(tmp_path / "d.npz"), str(tmp_path / "e")])
    assert result.exit_code == 1 and "not a network file" in result.output
    for name in "abce":
        assert not (tmp_path / name / "config.json").exists()


# --- runs on drawn boards (--size random: Connect Four's course boards) ---------------------

def _tiny_course(**kw) -> RunConfig:
    return RunConfig("connect4", 0, 0, channels=8, blocks=1, random_board=True,
                     search=SearchSettings(sims=8), games_per_generation=3, gate_games=2,
                     gate_sims=8, eval_games=2, eval_sims=8, eval_opponents=("mcts:sims=30",),
                     batch_size=16, **kw)


def test_a_drawn_board_is_a_course_board_and_the_same_for_the_same_seed():
    shapes = set()
    for seed in range(40):
        board = new_board("connect4", 0, 0, True, seed)
        again = new_board("connect4", 0, 0, True, seed)
        assert (board.width, board.height, board.blocked) == \
            (again.width, again.height, again.blocked)
        assert 9 <= board.width <= 12 and 9 <= board.height <= 12
        (col, row), = board.blocked
        assert 0 <= col < board.width and 0 <= row < board.height
        shapes.add((board.width, board.height))
    assert len(shapes) > 5


def test_a_run_on_drawn_boards_trains_on_every_shape_with_the_no_go_cell_in_its_plane(tmp_path):
    run = TrainRun(tmp_path / "run", _tiny_course())
    run.run(generations=1)
    assert run.state.generation == 2 and run.net_path(1).exists()
    window = run.window(1)
    games = sorted((tmp_path / "run" / "games" / "g0001").glob("*.npz"))
    assert sum(len(ex) for ex in window.values()) == run.state.history[0]["positions"]
    for i, path in enumerate(games):
        board = new_board("connect4", 0, 0, True, _selfplay_seed(run, 1, i))
        with np.load(path) as d:
            planes, moves = d["planes"], d["moves"]
        assert planes.shape[2:] == (board.height, board.width)
        (col, row), = board.blocked
        blocked = np.zeros((board.height, board.width), dtype=planes.dtype)
        blocked[board.height - 1 - row, col] = 1
        for k, move in enumerate(moves):             # plane 3: the no-go cell, at every ply
            np.testing.assert_array_equal(planes[k, 3], blocked)
            np.testing.assert_array_equal(planes[k], features.encode([board.state])[0])
            board.push(int(move))
        assert (board.height, board.width) in window
    # the trained network plays every shape of the window
    net = load(run.net_path(1))
    for (h, w), ex in window.items():
        priors, values = net.predict(ex.planes[:2].astype(np.float32), ex.mask[:2])
        assert priors.shape == (2, w) and np.isfinite(values).all()


def _selfplay_seed(run: TrainRun, g: int, i: int) -> int:
    from boardai.train.run import task_seed
    return task_seed(run.config.seed, "selfplay", g, i)


def test_the_mirror_of_a_course_position_keeps_the_no_go_cells_mirror(tmp_path):
    """Training's left-right mirror of a position on a board with a no-go cell is the position
    of the mirrored game on the board whose no-go cell is mirrored too."""
    board = Connect4Board(10, 9, blocked=[(2, 3)])
    states, policies = [], []
    for move in (2, 2, 2, 2, 5, 0, 9, 2):             # column 2 climbs past its no-go cell
        states.append(board.state.copy())
        policy = np.zeros(10, dtype=np.float32)
        policy[move] = 1.0
        policies.append(policy)
        board.push(move)
    stack = np.stack(states)
    ex = Examples(features.encode(stack).astype(np.uint8), features.legal_mask(stack),
                  np.stack(policies), np.zeros(len(states), dtype=np.float32))
    planes, policy, mask, _ = _batch(ex, np.arange(len(ex)), "mirror", get_game("connect4"),
                                     10, 9)
    replay = Connect4Board(10, 9, blocked=[(7, 3)])
    for k, move in enumerate((2, 2, 2, 2, 5, 0, 9, 2)):
        np.testing.assert_array_equal(planes[k], features.encode([replay.state])[0])
        np.testing.assert_array_equal(mask[k], features.legal_mask([replay.state])[0])
        assert policy[k, 9 - move] == 1.0
        replay.push(9 - move)


def test_random_size_is_refused_for_a_game_without_random_boards(tmp_path):
    result = CliRunner().invoke(main, ["train", "--game", "hex", "--size", "random",
                                       str(tmp_path / "h")])
    assert result.exit_code == 1 and "no random board size" in result.output
    assert not (tmp_path / "h" / "config.json").exists()


def test_the_self_play_temperature_is_a_setting_of_the_run(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["train", *TINY, "--temperature-plies", "3", "--hours",
                                  "0.000001", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert config["search"]["temperature_plies"] == 3 and config["search"]["sims"] == 16
    result = runner.invoke(main, ["train", "--temperature-plies", "4", str(tmp_path / "r")])
    assert result.exit_code == 1 and "other settings (search)" in result.output
    result = runner.invoke(main, ["train", "--temperature-plies", "-1", str(tmp_path / "s")])
    assert result.exit_code == 2 and "temperature" in result.output.lower()
