"""Supervised training on teacher data (``boardai train supervised``, ``train/supervised.py``):
a tiny run learns a planted move, its network plays in ``nn``, a stopped run resumes from its
checkpoint, and bad data is refused in one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from click.testing import CliRunner  # noqa: E402

from boardai.cli.train import train as train_cli  # noqa: E402
from boardai.train import supervised as sv  # noqa: E402

SIZE = 5
PLANTED = "c3"                  # the centre: the teacher of the planted data always plays it
TINY = dict(blocks=1, channels=8, batch=32, lr=0.01, holdout=0.25, seed=3)
SAMPLE = Path(__file__).resolve().parents[1] / "benchmarks/data/teacher/sample9.jsonl"


def planted_file(path: Path, games: int = 48, size: int = SIZE, seed: int = 1) -> Path:
    """Teacher data whose teacher always plays the centre, after 1..6 random stones elsewhere;
    Black wins every game."""
    from boardai.games.hex.board import HexBoard
    rng = random.Random(seed)
    board = HexBoard(size)
    cells = [board.move_name(c) for c in range(size * size) if board.move_name(c) != PLANTED]
    lines = [{"format": "boardai-teacher", "version": 1, "game": "hex", "size": size,
              "seed": seed, "teacher": "gtp:planted"}]
    for i in range(games):
        opening = rng.sample(cells, rng.randint(1, 6))
        lines.append({"i": i, "moves": opening + [PLANTED], "opening": len(opening),
                      "teacher": [{"m": PLANTED}], "winner": "b", "end": "connection"})
    path.write_text("".join(json.dumps(rec) + "\n" for rec in lines), encoding="utf-8")
    return path


def test_a_tiny_run_learns_the_planted_move_and_its_network_plays(tmp_path):
    data = planted_file(tmp_path / "planted.jsonl")
    metrics = sv.train(tmp_path / "run", [data], sv.Settings(**TINY), epochs=12)
    assert [m["epoch"] for m in metrics] == list(range(1, 13))
    last = metrics[-1]
    assert last["held_games"] > 0 and last["train_games"] > last["held_games"]
    assert last["top1"] >= 0.9, metrics           # chance is 1 in 19..24 legal cells
    assert last["top5"] >= last["top1"]
    assert last["held_policy_loss"] < metrics[0]["held_policy_loss"]

    # the exported network is the nn engine's, and its priors put the planted cell first
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games.hex.board import HexBoard
    from boardai.nn.model import load
    net = load(tmp_path / "run" / sv.NETWORK)
    assert net.about["held_out"]["epoch"] == 12
    best = load(tmp_path / "run" / sv.BEST).about["held_out"]
    assert best["held_policy_loss"] == min(m["held_policy_loss"] for m in metrics)
    board = HexBoard.from_moves(["a1", "e5"], SIZE)
    priors, _ = net.policy_value([board.state])
    assert board.move_name(int(np.argmax(priors[0]))) == PLANTED
    engine = make_engine(f"nn:model={tmp_path / 'run' / sv.NETWORK},sims=8")
    board = HexBoard(SIZE)
    while not board.is_game_over():
        move = engine.play(board, Limit()).move
        assert board.is_legal(move)
        board.push(move)
    engine.close()


def test_a_stopped_run_resumes_from_its_last_epoch(tmp_path):
    data = planted_file(tmp_path / "planted.jsonl", games=24)
    out = tmp_path / "run"
    settings = sv.Settings(**TINY)
    seen = []

    def stop_in_epoch_3(epoch, epochs, done, total):
        seen.append(epoch)
        if epoch == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sv.train(out, [data], settings, epochs=4, progress=stop_in_epoch_3)
    assert [m["epoch"] for m in sv.read_metrics(out)] == [1, 2]
    seen.clear()
    metrics = sv.train(out, [data], settings, epochs=4, progress=lambda e, *a: seen.append(e))
    assert sorted(set(seen)) == [3, 4]                 # epochs 1 and 2 are not trained again
    assert [m["epoch"] for m in metrics] == [1, 2, 3, 4]

    # the same four epochs without a stop give the same network: the checkpoint carries all
    whole = sv.train(tmp_path / "whole", [data], settings, epochs=4)
    assert whole[-1]["top1"] == metrics[-1]["top1"]
    assert whole[-1]["policy_loss"] == pytest.approx(metrics[-1]["policy_loss"], rel=1e-4)

    with pytest.raises(sv.SupervisedError, match="channels"):
        sv.train(out, [data], sv.Settings(**{**TINY, "channels": 16}), epochs=5)
    seven = planted_file(tmp_path / "seven.jsonl", games=24, size=7)
    with pytest.raises(sv.SupervisedError, match="not 5x5"):
        sv.train(out, [seven], settings, epochs=5)
    (out / sv.CHECKPOINT).write_bytes(b"PK\x03\x04 not a checkpoint")
    result = _cli(data, "--out", out, "--epochs", 5, "--blocks", 1, "--channels", 8,
                  "--batch", 32, "--lr", 0.01, "--holdout", 0.25, "--seed", 3, "-q")
    assert result.exit_code == 1 and "cannot be read" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def _cli(*args):
    return CliRunner().invoke(train_cli, ["supervised", *map(str, args)])


def test_bad_data_is_refused_in_one_line(tmp_path):
    good = planted_file(tmp_path / "good.jsonl", games=8)
    other = planted_file(tmp_path / "seven.jsonl", games=8, size=7)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n{\"i\": 1}\n", encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    header_only = tmp_path / "header.jsonl"
    header_only.write_text(good.read_text().splitlines()[0] + "\n", encoding="utf-8")
    illegal = tmp_path / "illegal.jsonl"
    lines = good.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["teacher"] = [{"m": rec["moves"][0]}]            # a stone already on the board
    rec["moves"] = rec["moves"][:-1] + [rec["moves"][0]]
    illegal.write_text("\n".join([lines[0], json.dumps(rec), *lines[2:]]) + "\n")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        ((good, other), "one board size"),
        ((junk,), "not a teacher data file"),
        ((empty,), "empty"),
        ((header_only,), "no finished games"),
        ((illegal,), ""),
    ]
    for files, words in cases:
        result = _cli(*files, "--out", tmp_path / "out", "--blocks", 1, "--channels", 4, "-q")
        assert result.exit_code == 1, (files, result.output)
        lines_out = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(lines_out) == 1 and words in lines_out[0], result.output
        assert "Traceback" not in result.output
    missing = _cli(tmp_path / "nope.jsonl", "--out", tmp_path / "out")
    assert missing.exit_code == 2 and "does not exist" in missing.output
    unwritable = _cli(good, "--out", blocker)
    assert unwritable.exit_code == 2 and "not a folder" in unwritable.output


def test_too_few_games_to_hold_any_out_is_refused():
    with pytest.raises(sv.SupervisedError, match="held out"):
        sv.load_data([SAMPLE], sv.Settings(holdout=1e-9))


def test_the_sample_of_real_teacher_games_trains_and_reports(tmp_path):
    out = tmp_path / "run"
    result = _cli(SAMPLE, "--out", out, "--epochs", 1, "--blocks", 1, "--channels", 4,
                  "--holdout", 0.3, "-q")
    assert result.exit_code == 0, result.output
    assert "top-1" in result.output and "value MSE" in result.output
    assert "baseline, the shipped move patterns" in result.output
    base = sv.baseline(out)
    assert base["positions"] > 0 and 0 < base["top1"] <= base["top5"] <= 1
    report = CliRunner().invoke(train_cli, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert (out / "report" / "curves.png").stat().st_size > 1000
    from boardai.games.hex.board import HexBoard
    from boardai.nn.model import load
    board = HexBoard.from_moves(["e5"], 9)
    priors, values = load(out / sv.NETWORK).policy_value([board.state])
    assert priors.shape == (1, 82) and priors[0, 40] == 0 and abs(priors.sum() - 1) < 1e-5
    data = sv.load_data([SAMPLE], sv.Settings(holdout=0.3))
    # the values kept by evaluate are the ones its value MSE was measured on
    from boardai.train.torch_net import TorchNet
    figures = sv.evaluate(TorchNet.from_network(load(out / sv.NETWORK)), data.held,
                          batch=7, keep_values=True)
    kept = figures["values"]
    assert kept.shape == (len(data.held["move"]),) and np.all(np.abs(kept) <= 1)
    assert np.isclose(((kept - data.held["result"]) ** 2).mean(), figures["value_mse"], atol=1e-5)
    assert "values" not in sv.evaluate(TorchNet.from_network(load(out / sv.NETWORK)), data.held)
    # the 180-degree turn of a position's planes and its policy still agree on legal moves
    from boardai.games.game import get_game
    planes, policy, mask = sv._augmented(data.train, np.arange(len(data.train["move"])),
                                         np.random.default_rng(0), get_game("hex"), data.size)
    assert np.all(policy[~mask] == 0)
    assert np.allclose(policy.sum(axis=1), 1.0)


def test_the_frame_the_target_and_the_schedule_are_settings_of_the_run(tmp_path):
    from boardai.nn.model import load
    data = planted_file(tmp_path / "planted.jsonl")
    board_frame = sv.Settings(**{**TINY, "transpose_white": False, "policy_target": "move",
                                 "schedule": "cosine", "lr": 0.02})
    metrics = sv.train(tmp_path / "plain", [data], board_frame, epochs=10)
    assert metrics[-1]["top1"] >= 0.6, metrics         # chance: 1 in 19..24
    assert not load(tmp_path / "plain" / sv.NETWORK).config.transpose_white
    assert sv.learning_rate(board_frame, 9, 10) < 0.05 * board_frame.lr
    assert sv.learning_rate(sv.Settings(**TINY), 9, 10) == TINY["lr"]
    # the mover's frame is fixed for a run: resuming with the other frame is refused
    with pytest.raises(sv.SupervisedError, match="transpose_white"):
        sv.train(tmp_path / "plain", [data], sv.Settings(**{**TINY, "lr": 0.02}), epochs=11)
    # in the mover's frame every teacher move (White's transposed) stays legal
    arrays = sv.load_data([SAMPLE], sv.Settings(holdout=0.3)).train
    white = arrays["frame_white"]
    assert white.any() and (~white).any()
    assert arrays["mask"][np.arange(len(white)), arrays["move"]].all()
    result = CliRunner().invoke(train_cli, ["supervised", str(data), "--out",
                                            str(tmp_path / "bad"), "--schedule", "warm"])
    assert result.exit_code == 2 and "warm" in result.output
    result = CliRunner().invoke(train_cli, [
        "supervised", str(data), "--out", str(tmp_path / "cli"), "--epochs", "1", "--blocks",
        "1", "--channels", "4", "--holdout", "0.25", "--value-weight", "0.5", "--weight-decay",
        "0.01", "--policy-target", "move", "--schedule", "cosine", "--board-frame", "-q"])
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "cli" / sv.CONFIG).read_text())["settings"]
    assert (saved["value_weight"], saved["weight_decay"], saved["policy_target"],
            saved["schedule"], saved["transpose_white"]) == (0.5, 0.01, "move", "cosine", False)
