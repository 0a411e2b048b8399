"""Teacher data (``boardai train teacher``, boardai/train/teacher.py): games of a stand-in GTP
teacher on small boards written, read back into training arrays, resumed, and bad input refused;
the committed sample of real MoHex 2.0 games read and replayed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardai.cli import main as cli
from boardai.games.hex.board import HexBoard
from boardai.train import teacher as tt

FAKE = Path(__file__).with_name("fake_mohex.py")
FAKE_GTP = Path(__file__).with_name("fake_gtp.py")
SAMPLE = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "teacher" / "sample9.jsonl"


def fake(*args) -> str:
    return f"gtp:{sys.executable} {FAKE} " + " ".join(str(a) for a in args)


def settings(size=4, teacher=None, **kw) -> tt.Settings:
    return tt.Settings(teacher=teacher or fake(), size=size, **kw)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def replay(game: dict, size: int) -> HexBoard:
    board = HexBoard(size)
    for m in game["moves"]:
        board.push(m)
    return board


def test_round_trip_arrays(tmp_path):
    out = tmp_path / "g.jsonl"
    figures = tt.run(settings(), out, 6)
    assert figures["played"] == 6 and figures["failed"] == 0
    header, games = tt.read_games(out)
    assert header["size"] == 4 and header["format"] == tt.FORMAT
    assert sorted(g["i"] for g in games) == list(range(6))
    total = 0
    for g in games:
        board = replay(g, 4)
        # the fake plays to the end: the board shows the recorded winner
        assert board.is_game_over() and g["end"] == "connection"
        assert "bw"[int(board.outcome().winner)] == g["winner"]
        assert len(g["teacher"]) == len(g["moves"]) - g["opening"]
        total += len(g["teacher"])
    assert figures["positions"] == total
    arrays = tt.training_arrays(games, 4)
    n = total
    assert arrays["planes"].shape[0] == n and arrays["cells"].shape == (n, 16)
    assert np.allclose(arrays["policy"].sum(axis=1), 1.0)
    # the label is the teacher's choice, on an empty cell, and the policy's largest entry
    assert np.all(arrays["cells"][np.arange(n), arrays["move"]] == 0)
    assert np.all(arrays["policy"].argmax(axis=1) == arrays["move"])
    # the last moves are "by rule" (no search): no statistics, not the stale ones
    late = arrays["cells"].astype(bool).sum(axis=1) >= 16 - 5
    assert np.isnan(arrays["value"][late]).all() and late.any()
    assert np.allclose(arrays["value"][~late], 0.6)
    assert np.all(arrays["policy"][late].max(axis=1) == 1.0)
    for k in range(n):
        game = next(g for g in games if g["i"] == arrays["game"][k])
        mover_won = "bw"[arrays["turn"][k]] == game["winner"]
        assert arrays["result"][k] == (1.0 if mover_won else -1.0)


def test_sampled_moves_keep_the_teachers_label(tmp_path):
    """With sampling on, the first teacher moves are drawn from the visits; the label stays the
    teacher's choice (the fake's first free cell)."""
    out = tmp_path / "g.jsonl"
    tt.run(settings(sample_plies=4, seed=3), out, 16)
    _, games = tt.read_games(out)
    differ = 0
    for g in games:
        for k, entry in enumerate(g["teacher"]):
            played = g["moves"][g["opening"] + k]
            if k >= 4:
                assert played == entry["m"]
            else:
                assert played in entry["c"]
                differ += played != entry["m"]
    assert differ > 0


def test_openings_cycle_every_cell_then_add_random_stones():
    s = settings(size=5, random_stones=2, seed=7)
    first = [tt.opening(s, i) for i in range(25)]
    assert [o[0] for o in first] == list(range(25)) and all(len(o) == 1 for o in first)
    later = [tt.opening(s, i) for i in range(25, 100)]
    assert all(2 <= len(o) <= 3 and len(set(o)) == len(o) for o in later)
    assert tt.opening(s, 60) == tt.opening(settings(size=5, random_stones=2, seed=7), 60)
    assert len({tuple(o) for o in later}) > 60


def test_parse_values():
    board = HexBoard(9)
    got = tt.parse_values(" a1 .512@1.2k b2 W@5 c3 0 d4 L@7 e5 .25@2.50m zz .5@3", board)
    assert got == {"a1": [1200, 0.512], "b2": [5, 1.0], "d4": [7, 0.0], "e5": [2_500_000, 0.25]}


def test_resume_keeps_counts_and_doubles_nothing(tmp_path):
    out = tmp_path / "g.jsonl"
    tt.run(settings(), out, 3)
    before = out.read_bytes()
    figures = tt.run(settings(), out, 7)
    assert figures["played"] == 4 and figures["games"] == 7
    assert out.read_bytes().startswith(before)
    _, games = tt.read_games(out)
    assert sorted(g["i"] for g in games) == list(range(7))
    assert len(lines(out)) == 8                 # the header once, seven games
    assert tt.run(settings(), out, 7)["played"] == 0


def test_torn_last_line_is_cut_and_replayed(tmp_path):
    out = tmp_path / "g.jsonl"
    tt.run(settings(), out, 4)
    good = lines(out)
    torn = good[-1][: len(good[-1]) // 2]
    out.write_text("\n".join(good[:-1]) + "\n" + torn, encoding="utf-8")  # game 3 cut mid-write
    contents = tt.read_file(out)
    assert len(contents.games) == 3 and any("cut off" in n for n in contents.notes)
    notes = []
    figures = tt.run(settings(), out, 4, note=notes.append)
    assert figures["played"] == 1 and any("cut off" in n for n in notes)
    assert tt.read_file(out).notes == []
    _, games = tt.read_games(out)
    assert sorted(g["i"] for g in games) == [0, 1, 2, 3]


def test_corrupt_middle_line_skipped_with_a_note(tmp_path):
    out = tmp_path / "g.jsonl"
    tt.run(settings(), out, 3)
    text = lines(out)
    text.insert(2, '{"i": "not a game"}')
    out.write_text("\n".join(text) + "\n", encoding="utf-8")
    notes = []
    _, games = tt.read_games(out, note=notes.append)
    assert len(games) == 3 and len(notes) == 1 and "line 3" in notes[0]


def test_resignation_counts_for_the_other_side(tmp_path):
    out = tmp_path / "g.jsonl"
    tt.run(settings(size=5, teacher=fake(6)), out, 4)
    _, games = tt.read_games(out)
    for g in games:
        board = replay(g, 5)
        assert g["end"] == "resign" and not board.is_game_over() and board.ply == 6
        assert g["winner"] == "bw"[1 - int(board.turn)]        # the side to move resigned


def test_plain_gtp_teacher_without_statistics(tmp_path):
    out = tmp_path / "g.jsonl"
    tt.run(settings(size=4, teacher=f"gtp:{sys.executable} {FAKE_GTP} good"), out, 3)
    _, games = tt.read_games(out)
    assert len(games) == 3
    for g in games:
        assert all(set(e) == {"m"} for e in g["teacher"])
        assert g["moves"][g["opening"]:] == [e["m"] for e in g["teacher"]]
    arrays = tt.training_arrays(games, 4, planes=False)
    assert np.isnan(arrays["value"]).all() and "planes" not in arrays


def test_two_local_workers_give_the_same_games(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    tt.run(settings(), one, 5, jobs=1)
    tt.run(settings(), two, 5, jobs=2)

    def games(path):
        return {g["i"]: {k: v for k, v in g.items() if k != "secs"}
                for g in tt.read_games(path)[1]}
    assert games(one) == games(two)


def test_a_teacher_that_always_crashes_fails_the_run(tmp_path):
    with pytest.raises(tt.TeacherError, match="failed 5 games"):
        tt.run(settings(teacher=fake("-", 1)), tmp_path / "g.jsonl", 10)


def test_a_crash_loses_only_its_game(tmp_path):
    out = tmp_path / "g.jsonl"
    notes = []
    figures = tt.run(settings(teacher=fake("-", 20)), out, 5, note=notes.append)
    assert figures["failed"] >= 1 and figures["played"] == 5 - figures["failed"]
    assert any("teacher failed" in n for n in notes)
    again = tt.run(settings(), out, 5)                   # resumed with a teacher that holds
    assert again["played"] == figures["failed"] and again["games"] == 5


@pytest.mark.parametrize("args, code, words", [
    (["--size", "2"], 2, "range 3..19"),
    (["--size", "nine"], 2, "--size"),
    (["--teacher", "gtp:/no/such/mohex"], 2, "not an executable file"),
    (["--mohex", "/no/such/mohex"], 2, "not an executable file"),
    (["--teacher", "mcts"], 2, "gtp:COMMAND"),
    (["--backend", "slurm"], 2, "--backend must be"),
    (["--out", "/proc/no/such/dir/g.jsonl"], 1, "cannot write"),
])
def test_bad_arguments_refused(tmp_path, args, code, words):
    base = {"--teacher": fake(), "--out": str(tmp_path / "g.jsonl"), "--size": "4",
            "--games": "2"}
    given = dict(zip(args[::2], args[1::2]))
    if "--mohex" in given:
        base.pop("--teacher")
    base.update(given)
    argv = ["train", "teacher", "-q"] + [x for kv in base.items() for x in kv]
    r = CliRunner().invoke(cli, argv)
    assert r.exit_code == code, r.output
    assert words in r.output and "Traceback" not in r.output
    assert len([ln for ln in r.output.splitlines() if ln.strip()]) <= 3    # usage line + error


def test_cli_refuses_a_run_of_another_size_and_a_foreign_file(tmp_path):
    out = tmp_path / "g.jsonl"
    runner = CliRunner()
    base = ["train", "teacher", "-q", "--teacher", fake(), "--out", str(out), "--games", "2"]
    r = runner.invoke(cli, base + ["--size", "4"])
    assert r.exit_code == 0 and "2 games" in r.output
    r = runner.invoke(cli, base + ["--size", "5"])
    assert r.exit_code == 1 and "size 4" in r.output
    other = tmp_path / "notes.txt"
    other.write_text("hello\n", encoding="utf-8")
    r = runner.invoke(cli, ["train", "teacher", "-q", "--teacher", fake(), "--out", str(other)])
    assert r.exit_code == 1 and "not a teacher data file" in r.output


def test_committed_mohex_sample_reads_and_replays():
    header, games = tt.read_games(SAMPLE)
    size = header["size"]
    assert size == 9 and "mohex" in header["teacher"] and len(games) >= 3
    arrays = tt.training_arrays(games, size)
    assert arrays["planes"].shape[0] == sum(len(g["teacher"]) for g in games) > 50
    with_visits = [e for g in games for e in g["teacher"] if e.get("c")]
    assert len(with_visits) > 30
    for g in games:
        board = replay(g, size)
        if g["end"] == "connection":
            assert "bw"[int(board.outcome().winner)] == g["winner"]
        else:
            assert not board.is_game_over() and g["winner"] == "bw"[1 - int(board.turn)]
    # MoHex's visits favour the move it chose
    top = [max(e["c"], key=lambda c: e["c"][c][0]) == e["m"] for e in with_visits]
    assert sum(top) > 0.8 * len(top)


def test_solver_labels_small_boards():
    board = HexBoard(3)
    labels = list(tt.solver_labels([board], seconds=None))
    assert labels[0]["winner"] == "b" and labels[0]["to_move"] == "b"
    assert "b2" in labels[0]["winning"]
    lost = HexBoard.from_moves(["a1", "b2"], 3)          # Black wasted a move; White's centre
    label = next(tt.solver_labels([lost], seconds=None))
    assert label["to_move"] == "b" and label["winner"] == "w" and label["winning"] == []


def test_solver_labels_of_openings_and_late_positions_to_arrays(tmp_path):
    labels = list(tt.solver_labels(tt.opening_positions(3), seconds=None))
    assert len(labels) == 9
    arrays = tt.label_arrays(labels, 3)
    # on 3x3 Black's centre stone wins; a corner stone a1 loses to White's answers
    by_cell = {lab["moves"][0]: k for k, lab in enumerate(labels)}
    assert arrays["result"][by_cell["b2"]] == -1.0          # White to move loses
    assert not arrays["winning"][by_cell["b2"]].any()
    for k, lab in enumerate(labels):
        assert arrays["turn"][k] == 1
        won = arrays["result"][k] == 1.0
        assert arrays["winning"][k].any() == won
        assert not (arrays["winning"][k][:9] & (arrays["cells"][k] != 0)).any()
    # the late positions of teacher games, every one labelled
    out = tmp_path / "g.jsonl"
    tt.run(settings(), out, 2)
    _, games = tt.read_games(out)
    late = list(tt.late_positions(games, 4, empty_at_most=4))
    assert late and all(16 - b.ply <= 4 for b in late)
    labelled = list(tt.solver_labels(late, seconds=None))
    assert len(labelled) == len(late)
    with pytest.raises(tt.TeacherError, match="3x3"):
        tt.label_arrays(labels, 4)
