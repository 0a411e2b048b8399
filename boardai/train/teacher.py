"""Teacher data: Hex self-play games of a stronger GTP program (MoHex 2.0), recorded position by
position for supervised training (``boardai train teacher``).

Each game starts from an opening of ours: game ``i`` puts Black's first stone on cell ``i mod
W*H`` (every one-stone opening in turn), and from the second cycle on adds 1..``random_stones``
random stones (seeded by the run's seed and ``i``), so cycles differ.  The teacher then plays
both sides to the end; for its first ``sample_plies`` moves the move played is drawn from the
teacher's root visit counts (the teacher's own choice is still recorded as the label).  Where
the teacher's GTP has ``reg_genmove`` and ``mohex-values`` (MoHex), each move is asked with
``reg_genmove`` and, when its log (stderr) shows that it searched, the root's children are read
with ``mohex-values`` (visits and win rate of each move searched; a move it knows by rule has
none); otherwise plain ``genmove`` and no statistics.  A resignation ends the
game: the resigning side lost.

The file is JSON lines, appended one finished game at a time (``TeacherFile``): a header line
``{"format": "boardai-teacher", "version": 1, "game": "hex", "size": N, "seed": S, ...}`` and
then one line per game::

    {"i": 17, "moves": ["b1", "e5", ...], "opening": 1,
     "teacher": [{"m": "e5", "w": 0.512, "c": {"e5": [1200, 0.512], "d6": [300, 0.47]}}, ...],
     "winner": "b", "end": "connection", "secs": 14.2}

``moves`` are every move played (cell names), the first ``opening`` of them ours; ``teacher``
has one entry per later move: ``m`` the teacher's choice, ``w`` its win rate for the side to
move (the chosen child's mean), ``c`` the searched children (visits, win rate for the side to
move; visits of a thousand or more are rounded by MoHex to thousands), or null when the teacher
gave no statistics (no search: a forced or proven move).  ``end`` is ``connection`` or
``resign``.  A run resumes by reading the game indices the file holds; a torn last line (an
interrupted write) is cut off with a note.  ``read_games`` and ``training_arrays`` turn a file
into arrays for training; ``solver_labels`` labels positions exactly with the Hex solver.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from boardai.games.hex.game import HEX

TEACHER_GAME = HEX.name        # the teacher programs (MoHex) play Hex only

FORMAT = "boardai-teacher"
VERSION = 1
MIN_SIZE, MAX_SIZE = 5, 19


class TeacherError(ValueError):
    """Bad settings or a file that cannot be used (the message says why, in one line)."""


@dataclass
class Settings:
    """What a run plays: the teacher's ``gtp:`` spec, board size, seconds a move, the seed of
    the openings, the random stones added from the second cycle on, and the teacher moves
    sampled from its visits at the start of each game."""

    teacher: str
    size: int = 9
    time: float = 0.3
    seed: int = 1
    random_stones: int = 1
    sample_plies: int = 2

    def header(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "game": TEACHER_GAME, "size": self.size,
                "seed": self.seed, "teacher": self.teacher, "time": self.time,
                "random_stones": self.random_stones, "sample_plies": self.sample_plies}


def mohex_config(path: Path, seconds: float, threads: int = 1,
                 playouts: int | None = None) -> Path:
    """A MoHex start-up file: its time per move, threads, no swap, no pondering, and with
    ``playouts`` a bound on its search's playouts (``max_games``).  MoHex 2.0 searches at least
    one second whatever ``max_time`` (``MoHexPlayer::GenMove`` raises the search's time to 1 s
    after its pre-search of 0.2 x max_time), so ``playouts`` is the way to shorter moves."""
    path.write_text(
        f"param_mohex max_time {seconds:g}\n"
        f"param_mohex num_threads {threads}\n"
        "param_mohex ponder 0\n"
        "param_game allow_swap 0\n"
        + (f"param_mohex max_games {playouts}\n" if playouts else ""), encoding="utf-8")
    return path


def check_teacher(spec: str) -> list[str]:
    """The argv of a ``gtp:CMD`` teacher; TeacherError when it is not one or its program is
    missing."""
    if not spec.startswith("gtp:"):
        raise TeacherError(f"--teacher must be a GTP program, gtp:COMMAND (e.g. "
                           f"\"gtp:/path/mohex --config mohex.htp\"), not {spec!r}")
    try:
        argv = shlex.split(spec[4:])
    except ValueError as exc:
        raise TeacherError(f"--teacher: cannot read the command {spec[4:]!r}: {exc}") from None
    if not argv:
        raise TeacherError("--teacher gtp: needs a command, e.g. gtp:/path/mohex")
    program = argv[0]
    found = shutil.which(program) if os.sep not in program else (
        program if os.path.isfile(program) and os.access(program, os.X_OK) else None)
    if found is None:
        raise TeacherError(f"the teacher program {program!r} is not an executable file")
    return argv


# --- openings ------------------------------------------------------------------------------
def opening(settings: Settings, index: int) -> list[int]:
    """The cells game ``index`` starts from: the one-stone opening ``index mod W*H`` and, from
    the second cycle on, 1..random_stones random stones (the same for the same seed and index)."""
    n = settings.size * settings.size
    cells = [index % n]
    if index >= n and settings.random_stones > 0:
        rng = random.Random(settings.seed * 1_000_003 + index)
        extra = rng.randint(1, settings.random_stones)
        free = [c for c in range(n) if c != cells[0]]
        cells += rng.sample(free, extra)
    return cells


# --- the teacher's statistics --------------------------------------------------------------
def parse_count(text: str) -> int:
    """MoHex's visit count: ``123``, ``12k`` (thousands), ``1.25m`` (millions)."""
    text = text.strip().lower()
    if text.endswith("k"):
        return int(float(text[:-1]) * 1000)
    if text.endswith("m"):
        return int(round(float(text[:-1]) * 1_000_000))
    return int(text)


def parse_values(text: str, board) -> dict[str, list]:
    """``mohex-values``'s answer (``cell .512@1.2k`` per child; ``W@n`` a proven win for the
    side to move, ``L@n`` a proven loss, ``0`` unvisited) -> {cell: [visits, win rate]} of the
    visited children, win rates for the side to move.  Cells that are not cells of ``board`` are
    left out (MoHex names the swap and edges differently)."""
    tokens = text.split()
    out: dict[str, list] = {}
    for cell, value in zip(tokens[::2], tokens[1::2]):
        try:
            name = board.move_name(board.parse_move(cell))
        except ValueError:
            continue
        if value == "0":
            continue
        try:
            if value[0] in "WL" and value[1:2] == "@":
                visits, rate = parse_count(value[2:]), 1.0 if value[0] == "W" else 0.0
            else:
                mean, _, count = value.partition("@")
                visits, rate = parse_count(count), round(float(mean), 3)
        except (ValueError, IndexError):
            continue
        if visits > 0:
            out[name] = [visits, rate]
    return out


# --- one game ------------------------------------------------------------------------------
_ENGINES: dict = {}
SEARCH_MARK = b"StartSearch()"      # MoHex's log line of a search (none when it answers by rule)


def _engine(spec: str):
    """This process's engine for ``spec`` (started once, kept between games) and the file its
    stderr goes to: nameless (gone with the process), appended to, emptied before each move."""
    import fcntl
    import tempfile
    from boardai.engines.gtp_client import GtpEngine
    pair = _ENGINES.get(spec)
    if pair is None:
        log = tempfile.TemporaryFile(prefix="boardai-teacher-")
        flags = fcntl.fcntl(log.fileno(), fcntl.F_GETFL)
        fcntl.fcntl(log.fileno(), fcntl.F_SETFL, flags | os.O_APPEND)
        pair = _ENGINES[spec] = (GtpEngine(spec[4:], stderr=log), log)
    return pair


def _searched(log) -> bool:
    """Whether the engine's log since it was last emptied shows a search."""
    fd = log.fileno()
    return SEARCH_MARK in os.pread(fd, os.fstat(fd).st_size, 0)


def close_engines() -> None:
    for eng, log in _ENGINES.values():
        try:
            eng.close()
        except Exception:
            eng.kill()
        log.close()
    _ENGINES.clear()


def play_game(settings: Settings, index: int) -> dict:
    """Play game ``index`` of a run with the teacher on both sides; its record (a dict as the
    file holds it), or ``{"i": index, "error": "..."}`` when the teacher failed (it is restarted
    for the next game)."""
    from boardai.engines.base import EngineError
    from boardai.engines.gtp_client import genmove_margin
    from boardai.games.hex.board import HexBoard

    started = time.perf_counter()
    board = HexBoard(settings.size)
    eng, log = _engine(settings.teacher)
    rng = random.Random(settings.seed * 7_919 + index * 104_729 + 1)
    first = opening(settings, index)
    for cell in first:
        board.push(cell)
    teacher: list = []
    end = "connection"
    # MoHex searches at least 1 s and overruns its time on a loaded machine: generous, as the
    # MoHex benchmark's move timeout is
    wait = 30.0 + 4 * settings.time + genmove_margin(settings.time)
    try:
        eng.sync(board)
        stats = "reg_genmove" in eng._commands and "mohex-values" in eng._commands
        if not stats and "time_settings" in eng._commands:
            eng.send(f"time_settings 0 {settings.time:g} 1")
        while not board.is_game_over():
            eng.sync(board)
            colour = "b" if board.turn == 0 else "w"
            if stats:
                os.ftruncate(log.fileno(), 0)
            answer = eng.send(f"{'reg_genmove' if stats else 'genmove'} {colour}",
                              timeout=wait).strip().lower()
            if answer == "resign":
                end = "resign"
                break
            move = board.parse_move(answer)
            if not board.is_legal(move):
                raise EngineError(f"the teacher played {answer!r}, an illegal move")
            entry = None
            if stats:
                # without a search of this position (a move MoHex knows by rule) its tree is
                # an earlier search's: its values would be stale, so none are recorded
                try:
                    children = (parse_values(eng.send("mohex-values"), board)
                                if _searched(log) else {})
                except EngineError:
                    children = {}
                name = board.move_name(move)
                if children:
                    entry = {"m": name, "w": children.get(name, [0, None])[1], "c": children}
                else:
                    entry = {"m": name}
            else:
                entry = {"m": board.move_name(move)}
                eng._known = board.move_stack + [move]
            played = move
            if len(teacher) < settings.sample_plies and entry.get("c"):
                names = list(entry["c"])
                weights = [entry["c"][k][0] for k in names]
                played = board.parse_move(rng.choices(names, weights)[0])
            teacher.append(entry)
            board.push(played)
    except (EngineError, ValueError) as exc:
        eng.kill()
        return {"i": index, "error": str(exc).splitlines()[0] if str(exc) else repr(exc)}
    if end == "resign":
        winner = "w" if board.turn == 0 else "b"
    else:
        winner = "b" if int(board.outcome().winner) == 0 else "w"
    return {"i": index, "moves": [board.move_name(m) for m in board.move_stack],
            "opening": len(first), "teacher": teacher, "winner": winner, "end": end,
            "secs": round(time.perf_counter() - started, 2)}


def _play_on_worker(settings: Settings, index: int) -> dict:
    """A worker's game: the worker process keeps its teacher between games."""
    try:
        return play_game(settings, index)
    except Exception as exc:        # never lose the pool to one game
        close_engines()
        return {"i": index, "error": f"{type(exc).__name__}: {exc}"}


# --- the file ------------------------------------------------------------------------------
@dataclass
class Contents:
    """What a teacher file holds: its header, its games, and notes on lines skipped."""

    header: dict | None
    games: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    torn_at: int | None = None      # byte offset of a torn last line (no newline), if any


def _valid_game(rec) -> bool:
    return (isinstance(rec, dict) and isinstance(rec.get("i"), int) and isinstance(
        rec.get("moves"), list) and rec.get("winner") in ("b", "w")
        and isinstance(rec.get("teacher"), list) and isinstance(rec.get("opening"), int))


def read_file(path: str | Path) -> Contents:
    """Read a teacher file; a corrupt line is skipped with a note (a torn last line, from an
    interrupted write, is expected).  TeacherError when it is not a teacher file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TeacherError(f"cannot read {path}: {exc.strerror or exc}") from None
    out = Contents(None)
    offset = 0
    lines = data.split(b"\n")
    for k, raw in enumerate(lines):
        start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        last = k == len(lines) - 1          # no newline after it: an interrupted write
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            rec = None
        if out.header is None:
            if not (isinstance(rec, dict) and rec.get("format") == FORMAT):
                raise TeacherError(f"{path} is not a teacher data file (its first line is no "
                                   f"{FORMAT} header)")
            if rec.get("version") != VERSION:
                raise TeacherError(f"{path} is a teacher file of version {rec.get('version')}; "
                                   f"this boardai reads version {VERSION}")
            out.header = rec
            continue
        if _valid_game(rec) and not last:
            out.games.append(rec)
        elif last:
            out.torn_at = start
            out.notes.append(f"{path}: the last line is cut off (an interrupted write): skipped")
        else:
            out.notes.append(f"{path}: line {k + 1} is not a game record: skipped")
    return out


class TeacherFile:
    """An append-only teacher file: opened for a run (header written or checked), games added
    one line each, flushed to disk at once."""

    def __init__(self, path: str | Path, settings: Settings):
        self.path = Path(path)
        self.notes: list[str] = []
        if self.path.is_dir():
            raise TeacherError(f"--out {self.path} is a directory; give a file, e.g. "
                               f"{self.path / 'games.jsonl'}")
        if self.path.exists() and self.path.stat().st_size > 0:
            contents = read_file(self.path)
            head = contents.header
            for key in ("game", "size", "seed"):
                if head.get(key) != settings.header()[key]:
                    raise TeacherError(
                        f"{self.path} holds a run with {key} {head.get(key)!r}, not "
                        f"{settings.header()[key]!r}: give the same --{key} to resume it, or "
                        "another --out")
            self.notes += contents.notes
            self.done = {g["i"] for g in contents.games}
            self.positions = sum(len(g["teacher"]) for g in contents.games)
            try:
                if contents.torn_at is not None:
                    with open(self.path, "r+b") as f:
                        f.truncate(contents.torn_at)
                self._f = open(self.path, "a", encoding="utf-8")
            except OSError as exc:
                raise TeacherError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        else:
            self.done, self.positions = set(), 0
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._f = open(self.path, "w", encoding="utf-8")
            except OSError as exc:
                raise TeacherError(f"cannot write {self.path}: {exc.strerror or exc}") from None
            self._write(settings.header())

    def _write(self, rec: dict) -> None:
        self._f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())

    def add(self, game: dict) -> None:
        self._write(game)
        self.done.add(game["i"])
        self.positions += len(game["teacher"])

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "TeacherFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- running -------------------------------------------------------------------------------
def _local_games(settings: Settings, todo: list[int], jobs: int) -> Iterator[dict]:
    if jobs <= 1:
        try:
            for i in todo:
                yield _play_on_worker(settings, i)
        finally:
            close_engines()
        return
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_star_play, [(settings, i) for i in todo])


def _star_play(args) -> dict:
    return _play_on_worker(*args)


def _ray_games(settings: Settings, todo: list[int], address: str | None,
               jobs: int | None) -> Iterator[dict]:
    from boardai._ray import ray_map
    try:
        yield from ray_map(_play_on_worker, [(settings, i) for i in todo], address, jobs)
    except ValueError as exc:            # Ray missing, or no cluster to start or reach
        raise TeacherError(str(exc)) from None


def run(settings: Settings, out: str | Path, games: int, jobs: int = 1, backend: str = "local",
        progress: Callable[[int, int, int], None] | None = None,
        note: Callable[[str], None] | None = None, max_failures: int = 5) -> dict:
    """Play games 0..games-1 of a run into ``out`` (those it already holds are kept, not played
    again); ``progress(games done, positions, games this session)`` after each game, ``note``
    for what was skipped or failed.  Returns the figures of the session."""
    from boardai.arena.backends import parse_backend
    kind, address = parse_backend(backend)
    check_teacher(settings.teacher)
    note = note or (lambda text: None)
    with TeacherFile(out, settings) as tf:
        for text in tf.notes:
            note(text)
        todo = [i for i in range(games) if i not in tf.done]
        stream = (_local_games(settings, todo, jobs) if kind == "local"
                  else _ray_games(settings, todo, address, jobs))
        played = failures = 0
        started = time.perf_counter()
        if progress:
            progress(len(tf.done), tf.positions, 0)
        for rec in stream:
            if "error" in rec:
                failures += 1
                note(f"game {rec['i']}: the teacher failed ({rec['error']}); not recorded")
                if failures >= max_failures and played == 0:
                    raise TeacherError(f"the teacher failed {failures} games and played none: "
                                       f"{rec['error']}")
                continue
            tf.add(rec)
            played += 1
            if progress:
                progress(len(tf.done), tf.positions, played)
        return {"games": len(tf.done), "positions": tf.positions, "played": played,
                "failed": failures, "seconds": time.perf_counter() - started}


# --- reading for training ------------------------------------------------------------------
def read_games(path: str | Path, note: Callable[[str], None] | None = None) -> tuple[dict, list]:
    """The header and the game records of a teacher file (bad lines skipped, each noted)."""
    contents = read_file(path)
    for text in contents.notes:
        (note or (lambda t: None))(text)
    return contents.header, contents.games


def positions(game: dict, size: int) -> Iterator[tuple]:
    """(board before the move, teacher record, ply) for each teacher move of a game record."""
    from boardai.games.hex.board import HexBoard
    board = HexBoard(size)
    moves = game["moves"]
    for m in moves[:game["opening"]]:
        board.push(m)
    for k, entry in enumerate(game["teacher"]):
        yield board, entry, game["opening"] + k
        board.push(moves[game["opening"] + k])


def training_arrays(games: Iterable[dict], size: int, planes: bool = True) -> dict:
    """Arrays of every teacher position of ``games`` (records of one board size):

    - ``planes`` [N, PLANES, H, W] float32, the network's input (``boardai.nn.features``);
      ``cells`` [N, W*H] int8 (0 empty, 1 Black, 2 White) and ``turn`` [N] int8 (0 Black);
    - ``move`` [N] int64, the teacher's choice (action ``y*W + x``);
    - ``policy`` [N, actions] float32, the teacher's root visits normalized (one-hot on its
      choice when it gave none);
    - ``value`` [N] float32, the teacher's win rate for the side to move (NaN if not given);
    - ``result`` [N] float32, +1 when the side to move won the game, -1 when it lost;
    - ``game`` [N] int64 (the record's index, to hold games out) and ``ply`` [N] int64."""
    from boardai.games.hex.board import HexBoard
    from boardai.nn.features import encode
    actions = HexBoard(size).num_actions
    cells, turn, move, policy, value, result, gidx, ply, states = ([] for _ in range(9))
    for game in games:
        winner = 0 if game["winner"] == "b" else 1
        for board, entry, k in positions(game, size):
            chosen = board.parse_move(entry["m"])
            p = np.zeros(actions, dtype=np.float32)
            children = entry.get("c") or {}
            total = sum(v[0] for v in children.values())
            if total > 0:
                for name, (visits, _) in children.items():
                    p[board.parse_move(name)] = visits / total
            else:
                p[chosen] = 1.0
            cells.append(np.asarray(board.cells, dtype=np.int8).copy())
            turn.append(int(board.turn))
            move.append(chosen)
            policy.append(p)
            w = entry.get("w")
            value.append(np.nan if w is None else float(w))
            result.append(1.0 if int(board.turn) == winner else -1.0)
            gidx.append(game["i"])
            ply.append(k)
            if planes:
                states.append(board.state.copy())
    n = len(move)
    out = {
        "cells": np.array(cells, dtype=np.int8).reshape(n, size * size),
        "turn": np.array(turn, dtype=np.int8), "move": np.array(move, dtype=np.int64),
        "policy": np.array(policy, dtype=np.float32).reshape(n, actions),
        "value": np.array(value, dtype=np.float32), "result": np.array(result, dtype=np.float32),
        "game": np.array(gidx, dtype=np.int64), "ply": np.array(ply, dtype=np.int64)}
    if planes:
        from boardai.nn.features import PLANES
        out["planes"] = (encode(states) if states
                         else np.zeros((0, PLANES, size, size), dtype=np.float32))
    return out


# --- exact labels by the solver ------------------------------------------------------------
def solver_labels(boards: Iterable, seconds: float | None = 1.0) -> Iterator[dict]:
    """Label positions exactly with the Hex solver: for each board solved within ``seconds``,
    ``{"moves": [...], "size": N, "to_move": "b"/"w", "winner": "b"/"w", "winning": [cells]}``
    (the side to move's winning moves, empty when it loses); unsolved boards are left out
    (``seconds`` None: no limit)."""
    from boardai.solvers.hex.solver import solve
    for board in boards:
        if board.is_game_over():
            continue
        r = solve(board, seconds)
        if r.winner is None:
            continue
        yield {"moves": [board.move_name(m) for m in board.move_stack], "size": board.width,
               "to_move": r.to_move[0], "winner": r.winner[0], "winning": r.winning_moves}


def late_positions(games: Iterable[dict], size: int, empty_at_most: int) -> Iterator:
    """The positions of teacher games with at most ``empty_at_most`` empty cells (copies), for
    ``solver_labels``: late positions the solver settles quickly."""
    for game in games:
        for board, _, _ in positions(game, size):
            if size * size - board.ply <= empty_at_most:
                yield board.copy()


def opening_positions(size: int) -> list:
    """Every one-stone opening of ``size`` (Black's stone, White to move), for ``solver_labels``:
    on 7x7 and 8x8 the solver settles them (the shipped opening table has their winners)."""
    from boardai.games.hex.board import HexBoard
    return [HexBoard.from_moves([c], size) for c in range(size * size)]


def label_arrays(labels: Iterable[dict], size: int, planes: bool = True) -> dict:
    """Arrays of solver labels (``solver_labels``' dicts, of one size): ``cells``, ``turn`` and
    ``planes`` as ``training_arrays``; ``winning`` [N, actions] bool, the side to move's
    winning moves (none when it loses); ``result`` [N] float32, +1 when the side to move wins
    with perfect play, -1 when it loses."""
    from boardai.games.hex.board import HexBoard
    from boardai.nn.features import PLANES, encode
    actions = HexBoard(size).num_actions
    cells, turn, winning, result, states = [], [], [], [], []
    for label in labels:
        if label["size"] != size:
            raise TeacherError(f"a label of a {label['size']}x{label['size']} board among "
                               f"{size}x{size} ones")
        board = HexBoard.from_moves(label["moves"], size)
        mask = np.zeros(actions, dtype=np.bool_)
        for name in label["winning"]:
            mask[board.parse_move(name)] = True
        cells.append(np.asarray(board.cells, dtype=np.int8).copy())
        turn.append(int(board.turn))
        winning.append(mask)
        result.append(1.0 if label["winner"] == label["to_move"] else -1.0)
        if planes:
            states.append(board.state.copy())
    n = len(result)
    out = {"cells": np.array(cells, dtype=np.int8).reshape(n, size * size),
           "turn": np.array(turn, dtype=np.int8),
           "winning": np.array(winning, dtype=np.bool_).reshape(n, actions),
           "result": np.array(result, dtype=np.float32)}
    if planes:
        out["planes"] = (encode(states) if states
                         else np.zeros((0, PLANES, size, size), dtype=np.float32))
    return out
