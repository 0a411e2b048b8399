"""Bad input on the command line, case by case: every traceback, hang and accepted nonsense the
hardening probe found has its own test here (the generated invocations are test_cli_fuzz.py's).

Each invocation must end with one line of error, exit status 2 for a usage error (a bad option
value, an unwritable output path) and 1 for a failure (a corrupt input file), without a
traceback and before any long work.  Commands that would run on (a hang, if the check were
missing) are run as a process with a 60 s guard, so a regression fails instead of hanging; the
guard is a backstop, the test checks the exit status and the message, never how fast.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardai.cli import main

GUARD = 60          # seconds: a command past this is a hang


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh folder as the working folder and BOARDAI_HOME (default stores land here)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDAI_HOME", str(tmp_path))
    return tmp_path


def invoke(*args: str):
    """The command in this process; an uncaught exception (a traceback) fails the test."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback for {args}: {result.exception!r}\n{result.output}")
    return result


def run(*args: str, cwd: Path):
    """The command as a process (``python -m boardai``), killed after GUARD seconds."""
    env = {**os.environ, "BOARDAI_HOME": str(cwd)}
    try:
        proc = subprocess.run([sys.executable, "-m", "boardai", *args], capture_output=True,
                              text=True, cwd=cwd, env=env, timeout=GUARD, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"boardai {' '.join(args)} still running after {GUARD} s") from None
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def refused(result, code: int, *words: str) -> None:
    """Exit status ``code`` and one error line holding every word."""
    output = getattr(result, "output", None) or (result.stdout + result.stderr)
    status = getattr(result, "exit_code", None)
    status = result.returncode if status is None else status
    assert status == code, output
    errors = [line for line in output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, output
    for word in words:
        assert word in errors[0], output


def corrupt_npz(path: Path) -> Path:
    """A file that starts as a zip archive and is not one."""
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    return path


# --- the 11 tracebacks ---------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ["nn", "policy"])
def test_corrupt_network_file_is_a_failure(home, engine):
    path = corrupt_npz(home / "corrupt.npz")
    refused(invoke("analyse", "--engine", f"{engine}:model={path}"), 1, "not a network file")


def test_play_save_to_an_unwritable_path(home):
    refused(invoke("play", "--black", "random", "--white", "random", "--save", "/proc/nope.sgf"),
            2, "--save", "/proc/nope.sgf")


@pytest.mark.parametrize("path, words", [
    ("/proc/nope.txt", ["cannot be written"]),
    ("/nonexistent/d/r.txt", ["does not exist"]),
    ("", ["empty"]),
])
def test_compete_result_file_checked_first(home, path, words):
    refused(invoke("compete", "random", "random:seed=2", path, "1"), 2, "RESULT_FILE", *words)
    assert list(home.iterdir()) == []          # no store was opened, no game played


def test_results_export_to_an_unwritable_folder(home):
    invoke("match", "random", "random:seed=2", "--size", "3", "--games", "1", "--jobs", "1",
           "--store", str(home / "m.sqlite"))
    refused(invoke("results", str(home / "m.sqlite"), "--export-sgf", "/proc/nope"), 2,
            "--export-sgf")


def test_book_hex_out_unwritable(home):
    refused(invoke("book", "hex", "--sizes", "1", "--out", "/proc/nope"), 2, "--out")


def test_train_run_in_an_unwritable_folder(home):
    refused(invoke("train", "run", "/proc/nope"), 2, "DIR", "cannot be written")


def test_train_patterns_on_a_text_file(home):
    (home / "text.txt").write_text("hello\n")
    refused(invoke("train", "patterns", "--out", "p.npz", "text.txt"), 1, "text.txt")
    assert not (home / "p.npz").exists()


def test_bench_mcts_seconds_nan(home):
    refused(run("bench", "mcts", "--seconds", "nan", cwd=home), 2, "--seconds", "finite")


# --- the 4 hangs (and one more: a count of rounds nobody meant) ------------------------------------
def test_bench_playouts_seconds_nan_is_refused(home):
    refused(run("bench", "playouts", "--seconds", "nan", cwd=home), 2, "--seconds", "finite")


def test_train_run_hours_nan_is_refused(home):
    refused(run("train", "run", str(home / "run"), "--hours", "nan", cwd=home), 2, "--hours")
    assert not (home / "run").exists()


def test_compete_rounds_bounded(home):
    refused(run("compete", "random", "random", "r.txt", "99999999999999999999", cwd=home), 2,
            "ROUNDS", "100000")
    assert not (home / "r.txt").exists()


def test_book_connect4_checks_out_before_solving(home):
    refused(run("book", "connect4", "--depth", "0", "--out", "/proc/nope", cwd=home), 2, "--out")


def test_solve_hex_size_past_its_untimed_range(home):
    refused(run("solve", "hex", "--size", "9", cwd=home), 2, "--time")
    refused(invoke("solve", "hex", "--size", "12", "--time", "1"), 2, "--size", "1..11")
    text = invoke("solve", "hex", "--help").output
    assert "1..8, or up to 11 with --time" in " ".join(text.split())


# --- nonsense accepted -----------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["solve", "hex", "--size", "3", "--time", "nan"],
    ["book", "hex", "--sizes", "1", "--time", "nan", "--out", "o.json"],
    ["book", "hex", "--sizes", "1", "--time", "inf", "--out", "o.json"],
])
def test_time_nan_refused(home, args):
    refused(run(*args, cwd=home), 2, "--time", "finite")
    assert not (home / "o.json").exists()


@pytest.mark.parametrize("args, words", [
    (["solve", "hex", "--size", "\u0663"], ["--size", "ASCII"]),
    (["analyse", "--size", "\u0663"], ["size"]),
    (["analyse", "--engine", "mcts:sims=\u0661\u0660"], ["sims", "ASCII"]),
    (["analyse", "--engine", "random:seed=\u0663"], ["seed", "ASCII"]),
    (["analyse", "--time", "\u0661"], ["time", "ASCII"]),
    (["match", "random", "random", "--games", "\u0663"], ["--games", "ASCII"]),
    (["book", "hex", "--sizes", "\u0663", "--out", "o.json"], ["--sizes"]),
])
def test_other_script_digits_refused(home, args, words):
    refused(invoke(*args), 2, *words)


def test_duplicate_spec_keys_refused(home):
    refused(invoke("analyse", "--engine", "mcts:time=1,time=2"), 2, "'time' given twice")
    refused(invoke("match", "random:seed=1,seed=2", "random", "--games", "1"), 2, "twice")


def test_plain_ascii_numbers_still_accepted(home):
    result = invoke("analyse", "--game", "hex", "--size", "3", "--engine", "random:seed=3",
                    "--json")
    assert result.exit_code == 0, result.output
    result = invoke("analyse", "--game", "hex", "--size", "3", "--engine", "mcts:sims=+10",
                    "--time", "1e-1", "--json")
    assert result.exit_code == 0, result.output
