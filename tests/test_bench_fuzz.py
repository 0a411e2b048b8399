"""``boardai bench fuzz``: a short run of every target is clean (exit 0, one JSON object), and a
server broken on purpose (a crash, an invalid UTF-8 answer, a rejected line that changed the
board) is reported by kind with the exact line that did it, and exit 1."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from boardai.cli import main
from boardai.ui.gtp_server import CommandError, GtpServer


# an answer is checked for arriving at all, not for how fast (conftest.py)
pytestmark = pytest.mark.usefixtures("fuzz_without_speed_bound")


def fuzz(*args: str):
    return CliRunner().invoke(main, ["bench", "fuzz", *args])


def test_every_target_short_run_is_clean_json():
    res = fuzz("--lines", "300", "--seed", "3", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["seed"] == 3 and out["failures"] == 0
    runs = {(r["target"], r["game"]) for r in out["runs"]}
    assert runs == {("gtp", g) for g in ("hex", "connect4", "tictactoe")} | \
        {("records", g) for g in ("hex", "connect4", "tictactoe")} | {("solve", "connect4")}
    for r in out["runs"]:
        assert r["inputs"] == 300 and r["by_kind"] == {} and r["reproducers"] == []
        assert r["per_second"] > 0


def test_text_table_and_the_real_process():
    res = fuzz("--target", "gtp", "--game", "tictactoe", "--lines", "200", "--process")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split() == ["target", "game", "inputs", "seconds", "per", "s", "failures"]
    assert [line.split()[:3] for line in lines[1:3]] == [["gtp", "tictactoe", "200"],
                                                         ["gtp-process", "tictactoe", "200"]]
    assert "no failures" in lines[-1]


def test_a_crash_and_an_invalid_utf8_answer_are_reported_with_their_lines(monkeypatch):
    handle = GtpServer.handle

    def broken(self, line):
        if b"showboard" in line:
            raise RuntimeError("broken on purpose")
        if line == b"name":
            return "= \udcff\n\n"                 # a lone surrogate: not UTF-8
        return handle(self, line)

    monkeypatch.setattr(GtpServer, "handle", broken)
    res = fuzz("--target", "gtp", "--game", "hex", "--lines", "2000", "--json")
    assert res.exit_code == 1
    out = json.loads(res.output)
    (run,) = out["runs"]
    assert run["by_kind"]["crash"] >= 1 and run["by_kind"]["utf8"] >= 1
    assert set(run["by_kind"]) == {"crash", "utf8"}
    crashes = [r for r in run["reproducers"] if r["kind"] == "crash"]
    assert all("showboard" in r["input"] and "broken on purpose" in r["message"] for r in crashes)
    assert {"kind": "utf8", "input": "b'name'"} in \
        [{k: r[k] for k in ("kind", "input")} for r in run["reproducers"]]

    text = fuzz("--target", "gtp", "--game", "hex", "--lines", "2000")
    assert text.exit_code == 1
    assert "FAILED gtp hex: crash" in text.output and "    b'name'" in text.output


def test_a_rejected_line_that_changes_the_board_is_a_state_failure(monkeypatch):
    play = GtpServer.cmd_play

    def leaky(self, args):
        answer = play(self, args)
        if self.board.move_stack:
            raise CommandError("refused after playing")   # the move stays on the board
        return answer

    monkeypatch.setattr(GtpServer, "cmd_play", leaky)
    res = fuzz("--target", "gtp", "--game", "connect4", "--lines", "1000")
    assert res.exit_code == 1
    assert "state: a rejected line changed the state" in res.output
    first = res.output.split("state:", 1)[1].splitlines()[1].strip()      # the reproducer, repr'd
    assert first.startswith("b'") and b"play" in eval(first).lower()


def test_bad_options_are_one_line_errors():
    for args, message in [(["--lines", "5", "--seconds", "1"], "not both"),
                          (["--target", "solve", "--game", "hex"], "--game connect4"),
                          (["--lines", "0"], "--lines"),
                          (["--game", "go"], "--game")]:
        res = fuzz(*args)
        assert res.exit_code == 2 and message in res.output, (args, res.output)
        assert "Traceback" not in res.output
