"""`boardai play` driven through a pseudo-terminal as a person would use it (pexpect)."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

from boardai import records

PROMPT = r"to move \(help for commands\): "


def spawn(args: str, tmp_path: Path) -> pexpect.spawn:
    child = pexpect.spawn(f"{sys.executable} -m boardai play {args}", encoding="utf-8",
                          timeout=60, env={"BOARDAI_HOME": str(tmp_path), "NO_COLOR": "1",
                                           "PATH": "/usr/bin:/bin"})
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_questions_then_bad_entry_undo_save_quit(tmp_path):
    child = spawn("", tmp_path)
    child.expect("board size")
    child.sendline("banana")                         # a bad size is asked again
    child.expect("bad board size")
    child.expect("board size")
    child.sendline("4")
    child.expect("number of human players")
    child.sendline("1")
    child.expect("Select your colour")
    child.sendline("")                               # default: Black
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("zz9")
    child.expect("'zz9' is not a move on this 4x4 board")
    child.expect("Black \\(B\\) " + PROMPT)          # same prompt again, nothing lost
    child.sendline("B2")
    child.expect(r"White \(W\) \[mcts:time=1\] plays (\w+)")
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("undo")
    child.expect("Took back 2 moves")
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("2 1")                            # row 2, column 1 from 0 = b3
    child.expect(r"\(B\)")
    child.expect("Black \\(B\\) " + PROMPT)
    saved = tmp_path / "mine.sgf"
    child.sendline(f"save {saved}")
    child.expect("Saved to")
    child.sendline("quit")
    child.expect("record saved to")
    assert finish(child) == 0
    rec = records.load(saved)
    assert rec.game == "hex" and rec.width == 4
    assert rec.moves[0] == 2 * 4 + 1 and len(rec.moves) == 2


def test_load_resumes_and_finishes_a_game(tmp_path):
    path = tmp_path / "g.sgf"
    path.write_text("(;FF[4]GM[11]SZ[3];B[b1];W[a1])")
    child = spawn(f"--load {path} --black human --white human", tmp_path)
    child.expect("Loaded")
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("b2")
    child.expect("White \\(W\\) " + PROMPT)
    child.sendline("swap")
    child.expect("swap is not allowed")
    child.sendline("c1")
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("b3")
    child.expect("Black wins after 5 moves")
    assert finish(child) == 0
    rec = records.load(path)
    assert rec.result == "B+" and len(rec.moves) == 5


def test_machine_game_prints_times_and_ends_cleanly(tmp_path):
    save = tmp_path / "auto.sgf"
    child = spawn(f"--game connect4 --black random --white random --seed 3 --save {save}", tmp_path)
    child.expect(r"Black \(X\) \[random\] plays \d  \(\d+\.\d\d s\)")
    child.expect(r"(Black|White) wins after \d+ moves|Draw after \d+ moves")
    assert finish(child) == 0
    rec = records.load(save)
    assert rec.game == "connect4" and rec.result in ("B+", "W+", "0")


def test_swap_game_with_two_humans(tmp_path):
    child = spawn("--size 5 --swap --black human --white human", tmp_path)
    child.expect("Black \\(B\\) " + PROMPT)
    child.sendline("b1")
    child.expect("White \\(W\\) " + PROMPT)
    child.sendline("swap")
    child.expect("Black \\(B\\) " + PROMPT)         # Black moves again after the swap
    child.sendline("quit")
    assert finish(child) == 0
    saved = sorted((tmp_path / "games").glob("*.sgf"))
    assert saved and "W[swap-pieces]" in saved[-1].read_text()


@pytest.mark.parametrize("content,needle", [
    ("(;FF[4]GM[11]SZ[3];B[b1];W[b1])", "line 1"),
    ("garbage", "not an SGF record"),
    ("(;FF[4]GM[11]SZ[3]\n;B[b1]\n;W[zz])", "line 3"),
])
def test_corrupt_load_is_a_clear_error(tmp_path, content, needle):
    path = tmp_path / "bad.sgf"
    path.write_text(content)
    child = spawn(f"--load {path}", tmp_path)
    out = child.read()
    child.close()
    assert child.exitstatus == 1
    assert needle in out and "Traceback" not in out
    assert path.read_text() == content               # the file is left as it was


def test_missing_load_file(tmp_path):
    child = spawn(f"--load {tmp_path / 'nope.sgf'}", tmp_path)
    out = child.read()
    child.close()
    assert child.exitstatus == 1 and "does not exist" in out


def test_bad_engine_spec_is_a_usage_error(tmp_path):
    child = spawn("--black nosuch --white random", tmp_path)
    out = child.read()
    child.close()
    assert child.exitstatus == 2 and "unknown engine 'nosuch'" in out
