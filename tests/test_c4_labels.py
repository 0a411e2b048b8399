"""Connect Four positions labelled by the exact solver (``boardai/train/c4_labels.py``) and the
supervised training that reads them: the labels are the solver's scores, the solver test sets
never reach the training data, a stopped labelling run goes on to the same file, and a shipped
network is fine-tuned from exactly what it computes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardai.bench.solver import CLASS_NAMES, read_set
from boardai.games.connect4.board import Connect4Board
from boardai.train import c4_labels as L

MIDDLE = ((20, 30, 1.0),)           # positions the solver settles in milliseconds
SHIPPED = "boardai/data/networks/connect4-7x6.npz"


def test_position_key_is_one_for_transpositions_and_the_mirror():
    assert L.position_key("4453") == L.position_key("4354")          # other move order
    assert L.position_key("4453") == L.position_key("4435")          # the mirror: 4 4 3 5
    assert L.position_key("4453") != L.position_key("4454")
    assert L.position_key("12") != L.position_key("21")              # who owns which stone


def test_labels_are_the_solvers_scores(tmp_path):
    from boardai.solvers.connect4.solver import Solver
    path = tmp_path / "labels.jsonl"
    L.generate(path, 6, seed=3, seconds=60, log=lambda t: None, exclude=set(), bands=MIDDLE)
    header, records = L.read_labels(path)
    assert header["format"] == L.FORMAT and header["seed"] == 3
    labelled = [r for r in records if "scores" in r]
    assert len(labelled) >= 4
    solver = Solver()                   # the bare solver, no book, its own analysis
    for r in labelled:
        board = Connect4Board.from_position(r["moves"])
        assert 20 <= board.ply <= 30
        assert r["scores"] == solver.analyze(board)


def test_targets_are_the_best_columns_and_the_sign_of_the_best_score():
    records = [{"i": 0, "moves": "444", "scores": [-2, 1, 3, 3, -1000, 0, -5]},
               {"i": 1, "moves": "1", "scores": [-1, -2, -2, -1, -3, -3, -4]},
               {"i": 2, "skip": "time"}]
    a = L.training_arrays(records)
    assert a["planes"].shape == (2, 6, 6, 7)
    np.testing.assert_allclose(a["policy"][0], [0, 0, 0.5, 0.5, 0, 0, 0])
    np.testing.assert_allclose(a["policy"][1], [0.5, 0, 0, 0.5, 0, 0, 0])
    assert a["result"].tolist() == [1.0, -1.0]
    assert a["move"].tolist() == [2, 0]
    assert a["mask"][0].tolist() == [True] * 7          # "444": column 4 still has room


def test_no_test_set_position_is_kept(tmp_path, monkeypatch):
    """Positions drawn that are a test position, its mirror or another move order of it are
    skipped as "test set"; the default exclusion is every line of the six classes."""
    keys = L.test_set_keys()
    test_positions = [p for name in CLASS_NAMES for p, _ in read_set(name)]
    assert len(keys) >= len(set(test_positions)) * 0.95      # mirrors may coincide
    pos = next(p for p, _ in read_set("middle-easy"))
    mirror = "".join(str(8 - int(c)) for c in pos)
    late = "2252576253462244111563365343671351441"        # settled in a few nodes
    late_mirror = "".join(str(8 - int(c)) for c in late)
    drawn = {0: pos, 1: mirror, 2: late, 3: late_mirror, 4: None}
    monkeypatch.setattr(L, "random_position", lambda seed, i, bands=L.BANDS: drawn[i])
    path = tmp_path / "labels.jsonl"
    L.generate(path, 5, seed=1, seconds=60, log=lambda t: None)
    _, records = L.read_labels(path)
    assert [r.get("skip") for r in records] == ["test set", "test set", None, "repeat",
                                                "game over"]
    assert all(L.position_key(r["moves"]) not in keys for r in records if "moves" in r)


def test_a_stopped_run_goes_on_to_the_same_file(tmp_path):
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    quiet = {"seconds": 60, "log": lambda t: None, "exclude": set(), "bands": MIDDLE}
    L.generate(whole, 8, seed=5, **quiet)
    L.generate(parts, 3, seed=5, **quiet)
    with open(parts, "ab") as f:
        f.write(b'{"i": 3, "mov')                 # a line torn by a kill
    L.generate(parts, 8, seed=5, **quiet)
    assert parts.read_bytes() == whole.read_bytes()
    with pytest.raises(L.LabelError, match="seed 5, not 6"):
        L.generate(parts, 9, seed=6, **quiet)


def test_from_network_computes_what_the_network_computes():
    torch = pytest.importorskip("torch")
    from boardai.nn import features, load
    from boardai.train.torch_net import TorchNet
    net = load(SHIPPED)
    twin = TorchNet.from_network(net)
    twin.train()
    twin.freeze_batchnorm()             # training mode with frozen batch norms: the same
    states = [Connect4Board.from_position(p).state for p in ("", "4453", "1234567123")]
    logits, values = twin(torch.from_numpy(features.encode(states)), 7)
    priors, want = net.policy_value(states)
    np.testing.assert_allclose(torch.softmax(logits, 1).detach().numpy(), priors, atol=1e-5)
    np.testing.assert_allclose(values.detach().numpy(), want, atol=1e-5)
    back = twin.to_network()
    for k, w in net.weights.items():
        np.testing.assert_allclose(back.weights[k], w, atol=1e-6)


def test_supervised_fine_tunes_a_network_on_labels(tmp_path):
    pytest.importorskip("torch")
    from boardai.nn import load
    from boardai.train import supervised as sv
    data = tmp_path / "labels.jsonl"
    L.generate(data, 24, seed=7, seconds=60, log=lambda t: None, exclude=set(), bands=MIDDLE)
    out = tmp_path / "run"
    settings = sv.Settings(init=SHIPPED, holdout=0.3, batch=8, lr=1e-4, blocks=1, channels=4)
    metrics = sv.train(out, [str(data)], settings, 1)
    assert len(metrics) == 1 and "top1_best" in metrics[0]
    config = json.loads((out / sv.CONFIG).read_text())
    assert config["game"] == "connect4" and config["settings"]["transpose_white"] is False
    assert (config["settings"]["blocks"], config["settings"]["channels"]) == (4, 32)
    assert 0 <= config["init_baseline"]["top1_best"] <= 1
    net = load(out / sv.NETWORK)
    assert net.config.game == "connect4" and net.about["init"] == SHIPPED
    assert any(not np.allclose(net.weights[k], w) for k, w in load(SHIPPED).weights.items())


def test_supervised_refuses_a_network_of_another_game_and_mixed_files(tmp_path):
    pytest.importorskip("torch")
    from boardai.train import supervised as sv
    data = tmp_path / "labels.jsonl"
    L.generate(data, 12, seed=7, seconds=60, log=lambda t: None, exclude=set(), bands=MIDDLE)
    hex_net = "boardai/data/networks/hex-7x7.npz"
    with pytest.raises(sv.SupervisedError, match="is a hex network"):
        sv.train(tmp_path / "a", [str(data)], sv.Settings(init=hex_net, holdout=0.3), 1)
    with pytest.raises(sv.SupervisedError, match="not both"):
        sv.load_data([str(data), "benchmarks/data/teacher/sample9.jsonl"], sv.Settings())


def test_positions_of_played_games_are_labelled_and_the_test_sets_kept_out(tmp_path):
    from boardai.solvers.connect4.solver import Solver
    game = "2252576253462244111563365343671351441"
    test_pos = next(p for p, _ in read_set("end-easy"))
    path = tmp_path / "games.jsonl"
    L.generate_from_games(path, [game, test_pos + "1"], first=len(test_pos), seconds=60,
                          log=lambda t: None, exclude={L.position_key(test_pos)})
    header, records = L.read_labels(path)
    by_index = {r["i"]: r for r in records}
    assert by_index[64 + len(test_pos)]["skip"] == "test set"
    labelled = [r for r in records if "scores" in r]
    assert [r["moves"] for r in labelled] == [game[:k] for k in range(len(test_pos), len(game))]
    solver = Solver()
    for r in labelled:
        assert r["scores"] == solver.analyze(Connect4Board.from_position(r["moves"]))
    before = path.read_bytes()
    L.generate_from_games(path, [game], first=len(test_pos), log=lambda t: None, exclude=set())
    assert path.read_bytes() == before              # nothing left to do: nothing added
