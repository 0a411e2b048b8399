"""Fuzzing the programs' input surfaces: GTP command lines, SGF records, ``solve`` lines.

One implementation serves two users.  The test suite (``tests/test_gtp_fuzz.py``,
``tests/test_records_fuzz.py``) drives the checks below with hypothesis on a few hundred inputs;
``boardai bench fuzz`` drives them with a seeded random stream of hundreds of thousands and
reports lines per second and the failures with their reproducers.

What is fuzzed, and what must hold for every input:

- **GTP** (``GtpServer.handle``, in this process, or a real ``boardai gtp`` under a strict UTF-8
  locale with ``fuzz_gtp_process``): every line is bytes, any bytes.  A line with a command in it
  gets exactly one answer, ``=`` or ``?`` with the line's ASCII id, ending with the one blank
  line, and an empty or comment line none (*framing*); the answer comes within ``LIVENESS``
  seconds (*hang*); it is valid UTF-8 of printable characters and newlines (*utf8*); a ``?``
  changes nothing (*state*); the server never raises (*crash*) nor answers ``? internal error``
  (*internal*: an exception it caught); every time budget it gives its engine is finite and at
  most ``MAX_BUDGET`` (*budget*: the engine is a probe that records any other budget).
- **records** (``records.loads``): any text or bytes gives a GameRecord that writes back and loads
  to itself (*round trip*) or a RecordError naming the source and a line that exists (*message*);
  nothing else is raised (*crash*).
- **solve** (the lines of ``boardai solve connect4``, ``LineSolver.run``): every non-blank line
  gives one result, a score or a reason, valid UTF-8 (*framing*, *utf8*), and nothing is raised.

A failure is a ``FuzzFailure`` (an ``AssertionError``, so hypothesis shrinks it) carrying its kind
and the exact input; the ``fuzz_*`` runners collect them in a ``FuzzReport``.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from boardai.engines.base import Limit, MoveInfo
from boardai.engines.random_engine import RandomEngine
from boardai.games import all_games, get_game, make_board
from boardai.records import GameRecord, RecordError, dumps, loads
from boardai.ui.gtp_server import MAX_BUDGET, GtpServer

LIVENESS = 5.0          # seconds: far above any answer of the probe engine or loads on these inputs
INTERRUPT = 60.0        # seconds after which a call is interrupted (main thread only), so a run goes on
SESSION = 200           # GTP lines given to one server before a fresh one
MAX_EXAMPLES = 5        # reproducers kept per kind

KINDS = {
    "crash": "an exception escaped (or the process died)",
    "hang": f"no answer within {LIVENESS:g} s",
    "state": "a rejected line changed the state",
    "utf8": "an answer that is not valid UTF-8 of printable characters",
    "framing": "not exactly one well-formed answer",
    "internal": "answered '? internal error' (an exception the server caught)",
    "budget": f"a time budget not finite or above {MAX_BUDGET:g} s",
    "message": "a RecordError not naming the source or a line that exists",
    "round trip": "a record that does not write back to itself",
}


class FuzzFailure(AssertionError):
    """One input that broke a property: ``kind`` (a key of KINDS), the input, what happened."""

    def __init__(self, kind: str, data: bytes | str, message: str):
        super().__init__(f"{kind}: {data!r}: {message}")
        self.kind, self.data, self.message = kind, data, message


def _fail(kind: str, data, message: str) -> None:
    raise FuzzFailure(kind, data, message)


@dataclass
class FuzzReport:
    """What a run did: inputs done, seconds, failures counted by kind, the first few of each."""

    target: str
    game: str
    done: int = 0
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    examples: list[FuzzFailure] = field(default_factory=list)

    def add(self, failure: FuzzFailure) -> None:
        seen = self.counts.get(failure.kind, 0)
        self.counts[failure.kind] = seen + 1
        if seen < MAX_EXAMPLES:
            self.examples.append(failure)

    @property
    def failures(self) -> int:
        return sum(self.counts.values())

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    def json(self) -> dict:
        return {"target": self.target, "game": self.game, "inputs": self.done,
                "seconds": round(self.seconds, 3), "per_second": round(self.rate, 1),
                "failures": self.failures, "by_kind": dict(self.counts),
                "reproducers": [{"kind": f.kind, "input": repr(f.data), "message": f.message}
                                for f in self.examples]}


class _Budget:
    """When to stop a run: after ``count`` inputs or ``seconds`` (whichever is given)."""

    def __init__(self, count: int | None, seconds: float | None):
        if count is None and seconds is None:
            count = 10_000
        self.count, self.seconds = count, seconds
        self.started = time.perf_counter()

    def left(self, done: int) -> bool:
        if self.count is not None:
            return done < self.count
        return time.perf_counter() - self.started < self.seconds

    def chunk(self, done: int, size: int) -> int:
        return size if self.count is None else min(size, self.count - done)


def _run_inputs(report, count, seconds, chunk, make, check, progress):
    """Check inputs from ``make()`` with ``check`` until the budget is spent, counting them in
    ``report`` and keeping its failures; ``progress(done)`` after every ``chunk`` inputs."""
    budget = _Budget(count, seconds)
    while budget.left(report.done):
        for _ in range(budget.chunk(report.done, chunk)):
            data = make()
            report.done += 1
            try:
                check(data)
            except FuzzFailure as failure:
                report.add(failure)
        if progress:
            progress(report.done)
    report.seconds = time.perf_counter() - budget.started
    return report


class _Hang(BaseException):
    """Raised by the alarm in a call that outlived INTERRUPT (a BaseException, so the GTP
    server's catch-all does not turn it into an answer).  A call slower than LIVENESS is a
    failure already; the alarm only keeps an endless one from stopping the run."""


@contextlib.contextmanager
def _alarm_handler() -> Iterator[bool]:
    """Installs the SIGALRM handler for ``_deadline`` when this is the main thread (a hung call
    is then interrupted); elsewhere slowness is only measured afterwards."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield False
        return

    def ring(signum, frame):
        raise _Hang()

    old = signal.signal(signal.SIGALRM, ring)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _timed(call: Callable, armed: bool):
    """``call()`` and the seconds it took; raises _Hang past INTERRUPT when ``armed``."""
    if armed:
        signal.setitimer(signal.ITIMER_REAL, INTERRUPT)
    started = time.perf_counter()
    try:
        return call(), time.perf_counter() - started
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)


# === GTP ========================================================================================

# the failures of the reliability issue (14), and their neighbours
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
    # only the space and the tab separate: Unicode spaces are characters of a token
    "quit \u00a0".encode(), "boardsize\u30005".encode(), "name\u2003".encode(),
    "play\u00a0b c3".encode(), "boardsize ٣".encode(), "boardsize ١٠".encode(),
    "undo\u2009".encode(), "\u3000quit".encode(), "genmove\u205fb".encode(), b"boardsize\t5",
]
SPACES = [" ", " ", " ", "\t", "\u00a0", "\u2003", "\u3000", "\u2009", "\u205f", "\u1680", "\u180e"]
COMMANDS = ["protocol_version", "name", "version", "list_commands", "known_command", "boardsize",
            "clear_board", "game", "play", "genmove", "undo", "showboard", "final_score",
            "time_settings", "time_left", "param_game", "hexgui-analyze_commands",
            "boardai-analyse", "PLAY", "GenMove"]
ARGS = ["b", "w", "black", "white", "B", "c3", "a1", "e5", "z9", "4", "1", "0", "-1", "7", "5", "3",
        "swap-pieces", "swap", "allow_swap", *sorted(all_games()), "inf", "nan", "1e400", "0.5",
        "10", "١", "é", "\u2028", "\ufffd", "x" * 40, "٣", "١٠", "७", "５", "\u00a0", "\u3000"]


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


def new_server(game: str, size: str | None = None) -> GtpServer:
    """A GTP server of ``game`` serving a BudgetProbe."""
    return GtpServer(BudgetProbe(), game, size)


def one_line(raw: bytes) -> bytes:
    """``raw`` as one protocol line (its newlines made blanks)."""
    return raw.replace(b"\n", b" ")


def command_text(raw: bytes) -> str:
    """What GTP preprocessing leaves of a line (the oracle of framing): the part before ``#``,
    without control characters and blanks.  Bad bytes count as characters."""
    head = raw.split(b"#", 1)[0].decode("utf-8", "replace").replace("\t", " ")
    return "".join(ch for ch in head if ch >= " " and ch != "\x7f").strip(" ")


def tokens_of(text: str) -> list[str]:
    """The GTP tokens of a cleaned line: only the space separates (a tab is a space by then);
    Unicode spaces are characters of a token."""
    return [token for token in text.split(" ") if token]


def is_quit(raw: bytes) -> bool:
    """A line the server takes as ``[id] quit`` (valid UTF-8, no arguments)."""
    try:
        raw.split(b"#", 1)[0].decode("utf-8")
    except UnicodeDecodeError:
        return False
    tokens = tokens_of(command_text(raw))
    if tokens and tokens[0].isascii() and tokens[0].isdigit():
        tokens = tokens[1:]
    return [t.lower() for t in tokens] == ["quit"]


def server_state(server: GtpServer) -> tuple:
    """Everything a rejected line must leave alone."""
    board = server.board
    return (list(board.move_stack), board.width, board.height, server.game.name, server.swap,
            server.clock.main, server.clock.byo, server.clock.stones, dict(server.clock.left))


def check_answer(raw: bytes, answer: str | None) -> None:
    """The checks on an answer text alone (in this process or from a real server): framing,
    printable UTF-8, the id echoed."""
    text = command_text(raw)
    if not text:
        if answer is not None:
            _fail("framing", raw, f"an answer to a line without a command: {answer!r}")
        return
    if answer is None:
        _fail("framing", raw, "no answer")
    try:
        answer.encode("utf-8")                        # strict: no lone surrogates
    except UnicodeEncodeError as exc:
        _fail("utf8", raw, f"{exc}: {answer!r}")
    if not answer.replace("\n", "").isprintable():
        _fail("utf8", raw, f"unprintable characters: {answer!r}")
    if not (answer[:1] in ("=", "?") and answer.endswith("\n\n")):
        _fail("framing", raw, f"not '=' or '?' ending in a blank line: {answer!r}")
    if "\n\n" in answer[:-2]:
        _fail("framing", raw, f"a blank line inside the answer: {answer!r}")
    first = tokens_of(text)[0]
    if first.isascii() and first.isdigit() and not answer[1:].startswith(first):
        _fail("framing", raw, f"the id {first} not echoed: {answer!r}")
    if answer.startswith("?") and "internal error" in answer.split("\n", 1)[0]:
        _fail("internal", raw, answer.strip())


def check_line(server: GtpServer, raw: bytes, armed: bool = False) -> str | None:
    """Feed one line to ``server``; raise FuzzFailure unless every GTP property holds; return
    the answer.  ``armed``: a SIGALRM handler is installed (``_alarm_handler``), so a hung line is
    interrupted."""
    before = server_state(server)
    try:
        answer, took = _timed(lambda: server.handle(raw), armed)
    except _Hang:
        _fail("hang", raw, f"interrupted after {INTERRUPT:g} s")
    except Exception as exc:       # handle() must never raise
        _fail("crash", raw, f"{type(exc).__name__}: {exc}")
    if took > LIVENESS:
        _fail("hang", raw, f"answered after {took:.1f} s")
    check_answer(raw, answer)
    if answer is not None and answer[0] == "?" and server_state(server) != before:
        _fail("state", raw, f"rejected ({answer.strip()!r}) yet the state changed")
    if server.engine.bad_budgets:
        budgets = list(server.engine.bad_budgets)
        server.engine.bad_budgets.clear()
        _fail("budget", raw, f"budgets {budgets}")
    return answer


def random_line(rng: random.Random) -> bytes:
    """One line of the long stream: a corpus entry, a mutated one, a command with random
    arguments, or random bytes."""
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
        if rng.random() < 0.25:         # a Unicode space (or a tab) between some of the words
            return "".join(w + rng.choice(SPACES) for w in words).rstrip(" ").encode()
        return " ".join(words).encode()
    return one_line(bytes(rng.randrange(256) for _ in range(rng.randint(0, 30))))


Progress = Callable[[int], None]        # told how many inputs are done so far


def warm_gtp(game: str, lines: int = 1000) -> None:
    """Every corpus line and ``lines`` random ones on fresh servers, unchecked and untimed:
    numba loads (or compiles) the kernels here, not in the measured lines.  What goes wrong
    here is left to the measured lines to find and report."""
    rng = random.Random(-1)
    server = new_server(game)
    for i, raw in enumerate(CORPUS + [random_line(rng) for _ in range(lines)]):
        if i % SESSION == 0:
            server = new_server(game)
        with contextlib.suppress(Exception):
            server.handle(raw)


def fuzz_gtp(game: str, count: int | None = None, seconds: float | None = None, seed: int = 0,
             progress: Progress | None = None) -> FuzzReport:
    """``count`` random lines (or as many as fit in ``seconds``) to GtpServer in this process, in
    sessions of SESSION lines on fresh servers of ``game`` (a fresh one also after a failure)."""
    name = get_game(game).name
    report = FuzzReport("gtp", name)
    rng = random.Random(seed)
    warm_gtp(name)
    budget = _Budget(count, seconds)
    with _alarm_handler() as armed:
        while budget.left(report.done):
            server = new_server(name)
            for _ in range(budget.chunk(report.done, SESSION)):
                raw = random_line(rng)
                report.done += 1
                try:
                    check_line(server, raw, armed)
                except FuzzFailure as failure:
                    report.add(failure)
                    if failure.kind in ("crash", "hang"):
                        break
            if progress:
                progress(report.done)
    report.seconds = time.perf_counter() - budget.started
    return report


STRICT_ENV = {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


class GtpProcess:
    """A real ``boardai gtp`` (random engine) under a strict UTF-8 locale, fed one line at a time;
    ``send(raw)`` returns its answer (None when the line has no command and none came)."""

    def __init__(self, game: str):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardai", "gtp", "--game", game, "--engine", "random"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
            env={**os.environ, **STRICT_ENV})
        self.buffer = b""
        # numba's caches load with the first moves: before any line is timed
        warm = [b"genmove b", b"boardai-analyse", b"clear_board"]
        self.proc.stdin.write(b"\n".join(warm) + b"\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + INTERRUPT
        for raw in warm:
            if self._read_answer(deadline) is None:
                raise RuntimeError(f"boardai gtp does not answer {raw!r}: {self.stderr_tail()}")

    def _read_answer(self, deadline: float) -> bytes | None:
        """Bytes up to the first blank line, or None when none came before ``deadline``."""
        fd = self.proc.stdout.fileno()
        while b"\n\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        answer, self.buffer = self.buffer.split(b"\n\n", 1)
        return answer + b"\n\n"

    def stderr_tail(self) -> str:
        self.err.seek(0)
        return self.err.read()[-600:].decode("utf-8", "replace")

    def send(self, raw: bytes) -> str | None:
        try:
            self.proc.stdin.write(raw + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            _fail("crash", raw, f"the process had exited ({self.proc.poll()}): {self.stderr_tail()}")
        if not command_text(raw):
            return None            # none expected: an answer that came anyway shows on the next line
        data = self._read_answer(time.monotonic() + LIVENESS)
        if data is None:
            code = self.proc.poll()
            if code is not None:
                _fail("crash", raw, f"the process exited ({code}): {self.stderr_tail()}")
            _fail("hang", raw, f"no answer within {LIVENESS:g} s")
        try:
            answer = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            _fail("utf8", raw, f"{exc}: {data!r}")
        if self.buffer:
            _fail("framing", raw, f"more than one answer: {answer!r} then {self.buffer!r}")
        return answer

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.err.close()


def fuzz_gtp_process(game: str, count: int | None = None, seconds: float | None = None,
                     seed: int = 0, progress: Progress | None = None) -> FuzzReport:
    """The same stream as ``fuzz_gtp`` (same seed, same lines) to one real ``boardai gtp``
    process under a strict UTF-8 locale (a new one after a crash, a hang or a quit).  Framing,
    liveness, UTF-8 and crashes are checked; the state is checked in-process only."""
    name = get_game(game).name
    report = FuzzReport("gtp-process", name)
    rng = random.Random(seed)
    budget = _Budget(count, seconds)
    proc = GtpProcess(name)
    try:
        while budget.left(report.done):
            for _ in range(budget.chunk(report.done, SESSION)):
                raw = random_line(rng)
                report.done += 1
                try:
                    check_answer(raw, proc.send(raw))
                except FuzzFailure as failure:
                    report.add(failure)
                    if failure.kind in ("crash", "hang", "framing"):
                        proc.close()
                        proc = GtpProcess(name)
                    continue
                if is_quit(raw):
                    proc.close()
                    proc = GtpProcess(name)
            if progress:
                progress(report.done)
    finally:
        proc.close()
    report.seconds = time.perf_counter() - budget.started
    return report


# === records ====================================================================================

# hand-written records (HexGui's layout, variations, comments, escapes, a second game tree)
VALID_TEXTS = [
    "(;FF[4]GM[11]SZ[11];B[a1];W[swap-pieces];B[c3])",
    "\ufeff (;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[11]\r\n PB[Alice]PW[Bob]\r\n;B[e5];W[f6]\r\n"
    ";B[resign])",
    "(;FF[4]GM[connect4]SZ[7:6]PB[a\\]b]RE[B+]PO[4455667];B[4];W[4];B[5];W[5];B[6];W[6];B[7])",
    "(;FF[4]GM[11]SZ[3]RU[swap]GN[x]C[one\\\ntwo];B[b2](;W[swap];B[a1])(;W[a1]))(;GM[11])",
    "(;FF[4]GM[11]SZ[9:7]RE[W+Resign]DT[2024-01-01]EV[e][f];B[a1]C[a comment];W[b2])",
]

# pieces a mutation inserts: properties (known, duplicated, of another game, absurd), SGF tokens,
# bytes that are not UTF-8 or are special to the parser
PIECES = [b"FF[4]", b"FF[9]", b"GM[11]", b"GM[connect4]", b"GM[1]", b"SZ[11]", b"SZ[7:6]",
          b"SZ[99999999999]", b"SZ[0:0]", b"SZ[-3]", b"RU[swap]", b"RU[x]", b"RE[B+]",
          b"RE[W+R]", b"RE[?]", b"PO[44]", b"PO[]", b"PB[x]", b"GN[x]", b"AB[a1]", b"B[a1]",
          b"W[swap]", b"B[resign]", b";W[b2]", b";B[]", b"(;", b"(", b")", b";", b"[", b"]",
          b"\\", b"\r", b"\n", b" ", b"\xff", b"\xc3", b"\xe2\x80\xa8", b"\x00", b"\xf0\x9f\x98"]

TOKENS = ["(", ")", ";", "(;", "[", "]", "\\", "\\]", "\r\n", "\n", " ", "B[a1]", "W[b2]",
          "GM[11]", "GM[connect4]", "SZ[5]", "GaMe[11]", "C[", "x", "é", "[x]"]


def random_record(game: str, size: tuple[int, int], swap: bool, seed: int) -> str:
    """A record of up to 11 random moves of ``game`` on ``size``, written by ``dumps`` (player
    names with SGF's special characters and non-ASCII letters)."""
    board = make_board(game, size, swap=swap)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 12)):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return dumps(GameRecord.from_board(board, black="a]b\\c", white="Ž ü"))


_VALID: dict[str, list[str]] = {}


def valid_records() -> dict[str, list[str]]:
    """The records the mutations start from, by game: the hand-written records and random ones
    of every game on a few sizes (its default, smaller, non-square; with the swap rule where it
    has it)."""
    if _VALID:
        return _VALID
    for text in VALID_TEXTS:
        _VALID.setdefault(loads(text).game, []).append(text)
    seed = 0
    for name, game in sorted(all_games().items()):
        w, h = game.default_size
        for i, size in enumerate([(w, h), (w - 2, h - 2), (w - 1, h + 1)]):
            try:
                text = random_record(name, size, game.swap and i == 0, seed)
            except ValueError:            # a size the game does not have
                continue
            _VALID.setdefault(name, []).append(text)
            seed += 1
    return _VALID


def mutate_record(data: bytes, rng: random.Random) -> bytes:
    """``data`` with 1-5 truncations, bit flips, duplicated properties, insertions and cuts."""
    for _ in range(rng.randint(1, 5)):
        op = rng.choice(["truncate", "flip", "duplicate", "insert", "cut"])
        if op == "truncate":
            data = data[:rng.randint(0, len(data))]
        elif op == "flip" and data:
            i = rng.randint(0, len(data) - 1)
            data = data[:i] + bytes([data[i] ^ (1 << rng.randint(0, 7))]) + data[i + 1:]
        elif op == "duplicate" and b"]" in data:
            # repeat one property (NAME[value]) of the record right after itself
            ends = [i + 1 for i, b in enumerate(data) if b == ord("]")]
            end = rng.choice(ends)
            start = data.rfind(b"[", 0, end)
            while start > 0 and chr(data[start - 1]).isalpha():
                start -= 1
            data = data[:end] + data[start:end] * rng.randint(1, 3) + data[end:]
        elif op == "insert":
            i = rng.randint(0, len(data))
            data = data[:i] + rng.choice(PIECES) + data[i:]
        elif op == "cut" and data:
            i = rng.randint(0, len(data) - 1)
            data = data[:i] + data[i + rng.randint(1, 8):]
    return data


def random_record_input(rng: random.Random, game: str | None = None) -> bytes | str:
    """Any text, any bytes, SGF's tokens, or (most often) a mutated valid record (of ``game``
    when given)."""
    kind = rng.random()
    if kind < 0.1:
        codes = (rng.choice([rng.randrange(32, 127), rng.randrange(0x110000)])
                 for _ in range(rng.randint(0, 200)))
        return "".join(chr(c) for c in codes if not 0xD800 <= c < 0xE000)    # no lone surrogates
    if kind < 0.2:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    if kind < 0.3:
        return "(;" + "".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 40)))
    seeds = valid_records()
    pool = seeds[game] if game else [t for texts in seeds.values() for t in texts]
    return mutate_record(rng.choice(pool).encode("utf-8"), rng)


def check_record(data: bytes | str, armed: bool = False) -> None:
    """``loads`` gives a GameRecord that writes back to itself, or a RecordError naming the
    source and a line that exists; FuzzFailure otherwise."""
    try:
        record, took = _timed(lambda: loads(data, "fuzz.sgf"), armed)
    except RecordError as err:
        if err.source != "fuzz.sgf":
            _fail("message", data, f"source {err.source!r}: {err}")
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
        if not (err.line is None or 1 <= err.line <= lines):
            _fail("message", data, f"line {err.line} of {lines}: {err}")
        return
    except _Hang:
        _fail("hang", data, f"loads interrupted after {INTERRUPT:g} s")
    except Exception as exc:
        _fail("crash", data, f"{type(exc).__name__}: {exc}")
    if took > LIVENESS:
        _fail("hang", data, f"loads took {took:.1f} s")
    if not isinstance(record, GameRecord):
        _fail("crash", data, f"loads returned {type(record).__name__}")
    try:
        again = loads(dumps(record))
    except Exception as exc:
        _fail("round trip", data, f"{type(exc).__name__}: {exc}")
    if again != record:
        _fail("round trip", data, f"{record} != {again}")


def fuzz_records(game: str, count: int | None = None, seconds: float | None = None,
                 seed: int = 0, progress: Progress | None = None) -> FuzzReport:
    """``count`` random inputs (or ``seconds`` of them) to ``records.loads``, the mutated ones
    from ``game``'s records."""
    name = get_game(game).name
    report = FuzzReport("records", name)
    rng = random.Random(seed)
    for text in valid_records()[name]:
        with contextlib.suppress(Exception):       # the record rules' first use, untimed
            loads(dumps(loads(text)))
    with _alarm_handler() as armed:
        return _run_inputs(report, count, seconds, 100, lambda: random_record_input(rng, name),
                           lambda data: check_record(data, armed), progress)


# === solve lines ================================================================================

JUNK = [b"", b" abc", b" 7 x", b"\t#", b" \xff", b"\r", b" \xe2\x80\xa8", b" \x00"]


def random_solve_line(rng: random.Random, width: int, height: int, shallow: int) -> bytes:
    """One line for a column-digit position reader: a deep position (at least 20 moves, so any
    solver answers at once) or one of at most ``shallow`` moves (the book's), sometimes with
    trailing tokens, mutated, or random bytes, a blank line, a byte-order mark."""
    kind = rng.random()
    if kind < 0.1:
        return one_line(bytes(rng.randrange(256) for _ in range(rng.randint(0, 20))))
    if kind < 0.15:
        return rng.choice([b"", b"   ", b"\t", b"\xef\xbb\xbf", b"\xef\xbb\xbf4", b"\xff"])
    heights = [0] * width
    moves = []
    target = rng.randint(0, shallow) if kind < 0.3 else rng.randint(20, width * height)
    while len(moves) < target:
        open_cols = [c for c in range(width) if heights[c] < height]
        if not open_cols:
            break
        col = rng.choice(open_cols)
        heights[col] += 1
        moves.append(col + 1)
    data = bytearray("".join(map(str, moves)).encode())
    if kind > 0.75 and len(data) > shallow:     # mutated, staying one deep token (no blank)
        for _ in range(rng.randint(1, 2)):
            at = rng.randrange(len(data))
            if rng.random() < 0.5:
                data[at] = rng.choice(b"0123456789\xffx")
            else:
                data[at:at] = bytes([rng.choice(b"0123456789\xff\xc3")])
    return one_line(bytes(data) + rng.choice(JUNK))


def check_solve_line(solver, raw: bytes) -> None:
    """One line through ``solver.run`` (a ``LineSolver``): exactly one result for a line with
    anything in it (none for a blank one), a score or a reason, its text valid UTF-8."""
    try:
        text = raw.decode("utf-8")
        shown = text.removeprefix("\ufeff")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", "replace")
    expected = 1 if shown.strip() else 0
    try:
        results, took = _timed(lambda: list(solver.run([raw])), False)
    except Exception as exc:
        _fail("crash", raw, f"{type(exc).__name__}: {exc}")
    if took > LIVENESS:
        _fail("hang", raw, f"answered after {took:.1f} s")
    if len(results) != expected:
        _fail("framing", raw, f"{len(results)} results, {expected} expected: {results}")
    for res in results:
        out = res.error if res.error is not None else res.text()
        try:
            out.encode("utf-8")
        except UnicodeEncodeError as exc:
            _fail("utf8", raw, f"{exc}: {out!r}")
        if res.error is None:
            token = shown.split()[0]
            limit = (solver.width * solver.height) // 2
            if res.moves != token or res.score is None or abs(res.score) > limit:
                _fail("framing", raw, f"answered {out!r} for {token!r}")


def fuzz_solve(solver, count: int | None = None, seconds: float | None = None, seed: int = 0,
               progress: Progress | None = None, game: str = "") -> FuzzReport:
    """``count`` random lines (or ``seconds`` of them) to ``solver.run``, one at a time
    (``solver``: a ``LineSolver``; its book's depth bounds the shallow positions)."""
    report = FuzzReport("solve", game)
    rng = random.Random(seed)
    shallow = solver.book.depth if solver.book is not None else 0
    warm = random.Random(seed)
    for _ in range(1000):       # one deep position solved untimed: numba loads the solver here
        raw = random_solve_line(warm, solver.width, solver.height, shallow)
        with contextlib.suppress(Exception):
            if len(raw) > 2 * shallow + 10 and any(r.error is None for r in solver.run([raw])):
                break
    return _run_inputs(report, count, seconds, 50,
                       lambda: random_solve_line(rng, solver.width, solver.height, shallow),
                       lambda raw: check_solve_line(solver, raw), progress)
