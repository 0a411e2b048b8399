"""Fuzzing the GTP server as bytes: framing, liveness, valid UTF-8 answers, rejected lines change
nothing.  Plus real processes under a strict UTF-8 locale (`boardai gtp`, `boardai solve connect4`).

Every line the server reads is bytes (any bytes); the checks hold for each one:

- framing: a line with a command in it (anything left once the comment, control characters and
  blanks are dropped) gets exactly one answer, ``=`` or ``?`` (with the line's ASCII id), ending
  with the one blank line; an empty or comment line gets none;
- liveness: every answer comes within ``LIVENESS`` seconds;
- the answer is valid UTF-8 (strict) of printable characters and newlines;
- a ``?`` changes nothing: the moves, the board size, the game and the swap setting are as before;
- every time budget the server gives its engine is finite and at most ``MAX_BUDGET`` (the engine
  is a probe: a timed random player that records any other budget and answers at once).

The long mode runs a seeded random stream of lines (corpus entries, their mutations, commands
with random arguments, random bytes) and reports lines/s and failures::

    BOARDAI_FUZZ_LINES=200000 .venv/bin/python -m pytest -q -s tests/test_gtp_fuzz.py -k long
"""

from __future__ import annotations

import io
import math
import os
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.engines.base import Limit, MoveInfo
from boardai.engines.random_engine import RandomEngine
from boardai.ui.gtp_server import MAX_BUDGET, GtpServer

LIVENESS = 5.0          # seconds: far above any answer of the random engine on these boards

# the failures of the reliability issue, and their neighbours
CORPUS = [
    b"name", b"\xff", b"name\r", b"2 play b \xe9", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbfname",
    b"\xe2\x80\xa8", b"\xc2\x85name", "١ name".encode(), "٣ play b c3".encode(), "²3 name".encode(),
    b"undo 5", b"undo", b"known_command", b"known_command play genmove", b"quit now",
    b"protocol_version 2", b"clear_board 5", b"showboard x", b"final_score now",
    b"time_settings inf 0 0", b"time_settings nan 0 0", b"time_settings 1e400 0 0",
    b"time_settings 0 inf 1", b"time_left b inf 0", b"time_left w nan 0", b"time_left b 1e308 0",
    b"time_settings 1 0 0", b"time_left b 0.5 1", b"param_game", b"param_game allow_swap 1",
    b"param_game allow_swap 0", b"param_game allow_swap 2", b"param_game komi 1",
    b"hexgui-analyze_commands", b"boardai-analyse", b"boardai-analyse b", b"play b c3",
    b"play w d4", b"play b c3 d4", b"genmove b", b"genmove w", b"play w swap-pieces",
    b"game connect4", b"game hex", b"game tictactoe", b"boardsize 3", b"boardsize 7 6",
    b"boardsize 99999999999999999999", b"play b 4", b"1 2 3", b"\x00\x01play b a1\x02",
    b"play b " + b"a" * 300, b"# comment \xff", b"\t\t", b"=", b"?", b"12", b"7 name # \xff",
    b"list_commands", b"known_command boardai-analyse",
]
COMMANDS = ["protocol_version", "name", "version", "list_commands", "known_command", "boardsize",
            "clear_board", "game", "play", "genmove", "undo", "showboard", "final_score",
            "time_settings", "time_left", "param_game", "hexgui-analyze_commands",
            "boardai-analyse", "PLAY", "GenMove"]
ARGS = ["b", "w", "black", "white", "B", "c3", "a1", "e5", "z9", "4", "1", "0", "-1", "7", "5", "3",
        "swap-pieces", "swap", "allow_swap", "hex", "connect4", "inf", "nan", "1e400", "0.5",
        "10", "١", "é", "\u2028", "\ufffd", "x" * 40]


class BudgetProbe(RandomEngine):
    """A random player that takes time limits (so the server computes budgets for it), records
    any budget that is not finite or above MAX_BUDGET, and gives statistics (some odd) to
    analyse."""

    name = "budget-probe"
    limit_options = ("time",)

    def __init__(self, seed: int = 1):
        super().__init__(seed=seed)
        self.bad_budgets: list[float] = []

    def _check(self, limit: Limit | None) -> None:
        if limit is not None and limit.time is not None:
            if not (math.isfinite(limit.time) and 0 < limit.time <= MAX_BUDGET):
                self.bad_budgets.append(limit.time)

    def play(self, board, limit=None):
        self._check(limit)
        return super().play(board, limit)

    def analyse(self, board, limit=None):
        self._check(limit)
        result = super().play(board, limit)
        odd = [float("nan"), 2.0, -3.0, 0.5, None]
        result.moves = [MoveInfo(m, board.move_name(m), visits=i,
                                 value=odd[i % len(odd)], winrate=None if i % 2 else 0.25)
                        for i, m in enumerate(list(board.legal_moves)[:8])]
        result.pv = [result.name]
        return result


def command_text(raw: bytes) -> str:
    """What GTP preprocessing leaves of a line (the oracle of framing): the part before ``#``,
    without control characters and blanks.  Bad bytes count as characters."""
    head = raw.split(b"#", 1)[0].decode("utf-8", "replace").replace("\t", " ")
    return "".join(ch for ch in head if ch >= " " and ch != "\x7f").strip()


def state(server: GtpServer) -> tuple:
    board = server.board
    return (list(board.move_stack), board.width, board.height, server.game.name, server.swap,
            server.clock.main, server.clock.byo, server.clock.stones, dict(server.clock.left))


def check_line(server: GtpServer, raw: bytes) -> str | None:
    """Feed one line; assert every property above; return the answer."""
    before = state(server)
    started = time.perf_counter()
    answer = server.handle(raw)
    assert time.perf_counter() - started < LIVENESS, f"slow answer to {raw!r}"
    text = command_text(raw)
    if not text:
        assert answer is None, (raw, answer)
        return None
    assert answer is not None, raw
    answer.encode("utf-8")                        # strict: no lone surrogates
    assert answer[0] in "=?" and answer.endswith("\n\n"), (raw, answer)
    assert "\n\n" not in answer[:-2], (raw, answer)                  # exactly one answer
    assert all(ch.isprintable() or ch == "\n" for ch in answer), (raw, answer)
    first = text.split()[0]
    if first.isascii() and first.isdigit():
        assert answer[1:].startswith(first), (raw, answer)
    if answer[0] == "?":
        assert state(server) == before, (raw, answer)
    assert not server.engine.bad_budgets, (raw, server.engine.bad_budgets)
    return answer


def is_quit(raw: bytes) -> bool:
    """A line the server takes as ``[id] quit`` (valid UTF-8, no arguments)."""
    try:
        raw.split(b"#", 1)[0].decode("utf-8")
    except UnicodeDecodeError:
        return False
    tokens = command_text(raw).split()
    if tokens and tokens[0].isascii() and tokens[0].isdigit():
        tokens = tokens[1:]
    return [t.lower() for t in tokens] == ["quit"]


def new_server(game: str = "hex", size: str | None = "5") -> GtpServer:
    return GtpServer(BudgetProbe(), game, size)


# --- hypothesis: lines of any bytes, corpus entries, commands with odd arguments ---------------
def one_line(raw: bytes) -> bytes:
    return raw.replace(b"\n", b" ")


commands = st.builds(lambda name, args, cid: (cid + " " if cid else "") + " ".join([name, *args]),
                     st.sampled_from(COMMANDS), st.lists(st.sampled_from(ARGS), max_size=4),
                     st.sampled_from(["", "", "1", "42", "007"])).map(str.encode)
lines = st.one_of(st.binary(max_size=40).map(one_line), st.sampled_from(CORPUS), commands,
                  st.text(max_size=20).map(lambda t: one_line(t.encode("utf-8", "surrogatepass"))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hex", "connect4", "tictactoe"]), st.lists(lines, min_size=1, max_size=12))
def test_fuzz_lines(game, raws):
    server = new_server(game, None)
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
    new_server().serve(io.BytesIO(stream), out)
    answers = out.getvalue().decode("utf-8").split("\n\n")
    assert answers[-1] == ""
    assert len(answers) - 1 == expected
    assert all(a[:1] in ("=", "?") for a in answers[:-1])


def test_corpus_each_line_alone():
    for raw in CORPUS:
        check_line(new_server(), raw)
        check_line(new_server("connect4", None), raw)


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
def random_line(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.3:
        return rng.choice(CORPUS)
    if kind < 0.55:                       # a corpus line mutated
        data = bytearray(rng.choice(CORPUS))
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(data))
            op = rng.random()
            if op < 0.4 and data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
            elif op < 0.7:
                data[at:at] = bytes([rng.randrange(256)])
            elif data:
                del data[min(at, len(data) - 1)]
        return one_line(bytes(data))
    if kind < 0.85:                       # a command with random arguments
        words = [rng.choice(COMMANDS)] + [rng.choice(ARGS) for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.2:
            words.insert(0, str(rng.randint(0, 999)))
        return " ".join(words).encode()
    return one_line(bytes(rng.randrange(256) for _ in range(rng.randint(0, 30))))


def run_stream(count: int, seed: int = 0) -> tuple[int, float, list[tuple[bytes, str]]]:
    """``count`` random lines in sessions of 200 on fresh servers of each game: (lines, seconds,
    failures as (line, message))."""
    rng = random.Random(seed)
    failures: list[tuple[bytes, str]] = []
    games = ["hex", "connect4", "tictactoe"]
    done = 0
    started = time.perf_counter()
    while done < count:
        server = new_server(games[(done // 200) % 3], None)
        for _ in range(min(200, count - done)):
            raw = random_line(rng)
            try:
                check_line(server, raw)
            except AssertionError as exc:
                failures.append((raw, str(exc)[:200]))
            done += 1
    return done, time.perf_counter() - started, failures


def test_random_stream_smoke():
    done, _, failures = run_stream(600, seed=1)
    assert done == 600 and failures == []


@pytest.mark.skipif(not os.environ.get("BOARDAI_FUZZ_LINES"),
                    reason="long fuzz: set BOARDAI_FUZZ_LINES=N")
def test_long_fuzz(capsys):
    count = int(os.environ["BOARDAI_FUZZ_LINES"])
    seed = int(os.environ.get("BOARDAI_FUZZ_SEED", "0"))
    done, seconds, failures = run_stream(count, seed)
    with capsys.disabled():
        print(f"\nGTP fuzz: {done} lines in {seconds:.1f} s ({done / seconds:.0f} lines/s), "
              f"seed {seed}, {len(failures)} failures")
        for raw, message in failures[:10]:
            print(f"  {raw!r}: {message}")
    assert not failures
