"""Fuzzing the GTP server as bytes: framing, liveness, valid UTF-8 answers, rejected lines change
nothing.  Plus real processes under a strict UTF-8 locale (`boardai gtp`, `boardai solve connect4`).

Every line the server reads is bytes (any bytes); the checks hold for each one:

- framing: a line with a command in it (anything left once the comment, control characters and
  blanks are dropped) gets exactly one answer, ``=`` or ``?`` (with the line's ASCII id), ending
  with the one blank line; an empty or comment line gets none;
- liveness: every answer comes (within the 60 s guard; `bench fuzz` asks for 5 s);
- the answer is valid UTF-8 (strict) of printable characters and newlines;
- a ``?`` changes nothing: the moves, the board size, the game and the swap setting are as before;
- every time budget the server gives its engine is finite and at most ``MAX_BUDGET`` (the engine
  is a probe: a timed random player that records any other budget and answers at once).

The generators and the checks are ``boardai/fuzz.py``'s, the ones ``boardai bench fuzz`` runs.
The long mode runs its seeded random stream of lines (corpus entries, their mutations, commands
with random arguments, random bytes) for each game and reports lines/s and failures::

    BOARDAI_FUZZ_LINES=200000 .venv/bin/python -m pytest -q -s tests/test_gtp_fuzz.py -k long
    .venv/bin/boardai bench fuzz --target gtp --lines 200000        # the same, as a command
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.bench.fuzz import (
    ARGS, COMMANDS, CORPUS, check_line, command_text, fuzz_gtp, is_quit, new_server, one_line,
)


# an answer is checked for arriving at all, not for how fast (conftest.py)
pytestmark = pytest.mark.usefixtures("fuzz_without_speed_bound")


def hex_server():
    """The server most tests use: Hex 5x5."""
    return new_server("hex", "5")


# --- hypothesis: lines of any bytes, corpus entries, commands with odd arguments ---------------
commands = st.builds(lambda name, args, cid: (cid + " " if cid else "") + " ".join([name, *args]),
                     st.sampled_from(COMMANDS), st.lists(st.sampled_from(ARGS), max_size=4),
                     st.sampled_from(["", "", "1", "42", "007"])).map(str.encode)
lines = st.one_of(st.binary(max_size=40).map(one_line), st.sampled_from(CORPUS), commands,
                  st.text(max_size=20).map(lambda t: one_line(t.encode("utf-8", "surrogatepass"))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hex", "connect4", "tictactoe"]), st.lists(lines, min_size=1, max_size=12))
def test_fuzz_lines(game, raws):
    server = new_server(game)
    for raw in raws:
        check_line(server, raw)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, min_size=1, max_size=12))
def test_fuzz_serve_stream(raws):
    """The whole stream through ``serve`` as bytes: one answer per command line up to the first
    accepted ``quit``, the output strictly UTF-8."""
    stream = b"\n".join(raws) + b"\n"
    expected = 0
    for raw in stream.split(b"\n"):
        if command_text(raw):
            expected += 1
            if is_quit(raw):
                break
    out = io.BytesIO()
    hex_server().serve(io.BytesIO(stream), out)
    answers = out.getvalue().decode("utf-8").split("\n\n")
    assert answers[-1] == ""
    assert len(answers) - 1 == expected
    assert all(a[:1] in ("=", "?") for a in answers[:-1])


def test_corpus_each_line_alone():
    for raw in CORPUS:
        check_line(hex_server(), raw)
        check_line(new_server("connect4"), raw)


# --- real processes under a strict UTF-8 locale ------------------------------------------------
STRICT = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


def test_gtp_process_strict_utf8_locale():
    done = subprocess.run([sys.executable, "-m", "boardai", "gtp"], input=b"name\n\xff\n3 name\n",
                          capture_output=True, env=STRICT, timeout=60)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    answers = done.stdout.decode("utf-8").split("\n\n")
    assert answers[0] == "= boardai" and answers[2] == "=3 boardai" and answers[3] == ""
    assert answers[1].startswith("? ") and "UTF-8" in answers[1]
    assert b"Traceback" not in done.stderr


def test_solve_connect4_process_strict_utf8_locale():
    done = subprocess.run([sys.executable, "-m", "boardai", "solve", "connect4"],
                          input=b"4\n\xff\n44 and more\n", capture_output=True, env=STRICT,
                          timeout=60)
    assert done.returncode == 1
    out = done.stdout.decode("utf-8").splitlines()
    assert [line.split()[0] for line in out] == ["4", "44"]
    err = done.stderr.decode("utf-8")
    assert "line 2:" in err and "Traceback" not in err and err.count("ignored") == 1


# --- the long mode --------------------------------------------------------------------------
GAMES = ["hex", "connect4", "tictactoe"]


def test_random_stream_smoke():
    for game in GAMES:
        report = fuzz_gtp(game, 200, seed=1)
        assert report.done == 200 and report.failures == 0, report.json()


@pytest.mark.skipif(not os.environ.get("BOARDAI_FUZZ_LINES"),
                    reason="long fuzz: set BOARDAI_FUZZ_LINES=N")
def test_long_fuzz(capsys):
    count = int(os.environ["BOARDAI_FUZZ_LINES"])
    seed = int(os.environ.get("BOARDAI_FUZZ_SEED", "0"))
    reports = [fuzz_gtp(game, count, seed=seed) for game in GAMES]
    with capsys.disabled():
        for r in reports:
            print(f"\nGTP fuzz {r.game}: {r.done} lines in {r.seconds:.1f} s ({r.rate:.0f} lines/s), "
                  f"seed {seed}, {r.failures} failures")
            for f in r.examples[:10]:
                print(f"  {f.data!r}: {f.kind}: {f.message}")
    assert all(r.failures == 0 for r in reports)
