"""``boardai compete``: the course referee's rounds, result file, fault codes, store and resume.

The strategies are C++ files compiled with g++ (tests/course_strategies.py; skipped without it).
Boards are the course's own draws (9..12 rows and columns, one no-go cell).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from boardai.arena.compete import CompetePlan, longest_moves, ratios, result_code, result_text, think_time
from boardai.arena.store import SCHEMA_VERSION, Store, StoredGame
from boardai.cli import main
from boardai.games import Connect4Board
from boardai.games.connect4 import course
from course_strategies import build, build_unlinked

LINE = re.compile(r"^(\d)\t(\d+\.\d{3})\t(\d+\.\d{3})$")


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    return build(tmp_path_factory.mktemp("strategies"), "leftmost", "rightmost", "crash",
                 "hang", "wrongrow", "mangled", "slow", "slowright", slow_ms=60)


def compete(tmp_path, a, b, rounds, *extra, out="out.txt", db="c.sqlite"):
    args = ["compete", a, b, str(tmp_path / out), str(rounds), "--db", str(tmp_path / db),
            *extra]
    res = CliRunner().invoke(main, args)
    return res, tmp_path / out


def parse(text: str) -> tuple[list[list[int]], list[str]]:
    """([[code, code] per round], the ratio lines); checks the layout on the way."""
    rounds, tail = [], []
    lines = text.splitlines()
    i = 0
    while i < len(lines) and re.fullmatch(r"\d+:", lines[i]):
        assert lines[i] == f"{len(rounds) + 1}:"
        pair = [LINE.match(lines[i + 1]), LINE.match(lines[i + 2])]
        assert all(pair), lines[i:i + 3]
        rounds.append([int(m.group(1)) for m in pair])
        i += 3
    tail = lines[i:]
    return rounds, tail


def masked(text: str) -> str:
    return re.sub(r"\t\d+\.\d{3}", "\tT", text).rstrip("\n")


def test_leftmost_against_rightmost_matches_the_golden_file(libs, tmp_path, golden):
    res, out = compete(tmp_path, f"strategy:{libs['leftmost']}", f"strategy:{libs['rightmost']}",
                       2, "--seed", "1", "--move-time", "0.5")
    assert res.exit_code == 0, res.output
    golden("compete_leftmost_rightmost_seed1.txt", masked(out.read_text()))
    assert "Elo difference (A - B)" in res.output and "seed 1" in res.output
    with Store(tmp_path / "c.sqlite") as db:
        games = db.games()
    assert [g.idx for g in games] == [0, 1, 2, 3]
    draws = random.Random(1)
    for r in range(2):
        w, h, blocked = course.draw_board(draws)
        for g in games[2 * r:2 * r + 2]:
            assert (g.width, g.height, tuple(g.blocked)) == (w, h, blocked)
            assert 9 <= w <= 12 and 9 <= h <= 12 and len(blocked) == 1
            board = Connect4Board(w, h, blocked=blocked)     # the moves replay to the result
            board.push_many(g.moves)
            assert board.is_game_over() and int(board.outcome().winner) == g.winner
            assert g.black_version.startswith("strategy ")


def test_a_strategy_against_random(libs, tmp_path):
    res, out = compete(tmp_path, f"strategy:{libs['leftmost']}", "random", 2, "--seed", "1",
                       "--move-time", "0.5", "--quiet")
    assert res.exit_code == 0, res.output
    assert res.output == ""
    rounds, tail = parse(out.read_text())
    assert len(rounds) == 2 and all(c in (0, 1, 2) for pair in rounds for c in pair)
    codes = [c for pair in rounds for c in pair]
    a, b, d = ratios(codes)
    assert tail == [f"A wins: {a:.3f}", f"B wins: {b:.3f}", f"draws: {d:.3f}"]


def test_a_strategy_built_like_the_courses_own_plays_a_round(tmp_path):
    """The course's test strategies are not linked to the C++ runtime: alone they do not load
    (checked in a bare interpreter); the strategy's child process provides the runtime first."""
    lib = build_unlinked(tmp_path / "lib")
    bare = subprocess.run([sys.executable, "-I", "-S", "-c",
                           "import ctypes, sys; ctypes.CDLL(sys.argv[1])", str(lib)],
                          capture_output=True, text=True, timeout=60)
    assert bare.returncode != 0 and "undefined symbol" in bare.stderr, bare.stderr
    res, out = compete(tmp_path, f"strategy:{lib}", "random", 1, "--seed", "1",
                       "--move-time", "0.5", "--quiet")
    assert res.exit_code == 0, res.output
    rounds, tail = parse(out.read_text())
    assert len(rounds) == 1 and all(c in (0, 1, 2) for c in rounds[0]), rounds
    with Store(tmp_path / "c.sqlite") as db:
        games = db.games()
    assert len(games) == 2 and all(g.moves for g in games)


@pytest.mark.parametrize("a, b, codes", [
    ("crash", "hang", [3, 8]),          # A first: A crashes; B first: B hangs
    ("wrongrow", "crash", [4, 5]),
    ("hang", "wrongrow", [7, 6]),
])
def test_faults_lose_with_their_codes(libs, tmp_path, a, b, codes):
    res, out = compete(tmp_path, f"strategy:{libs[a]}", f"strategy:{libs[b]}", 1, "--seed", "5",
                       "--move-time", "0.3")
    assert res.exit_code == 0, res.output
    rounds, tail = parse(out.read_text())
    assert rounds == [codes]
    assert tail == ["A wins: 0.500", "B wins: 0.500", "draws: 0.000"]
    with Store(tmp_path / "c.sqlite") as db:
        details = [g.detail for g in db.games()]
    kinds = {3: "crashed", 5: "crashed", 4: "answered", 6: "answered", 7: "no answer",
             8: "no answer"}
    for code, detail in zip(codes, details):
        assert kinds[code] in detail


def test_a_longer_run_plays_only_the_new_rounds(libs, tmp_path):
    a, b = f"strategy:{libs['leftmost']}", f"strategy:{libs['rightmost']}"
    res, out = compete(tmp_path, a, b, 1, "--seed", "3", "--move-time", "0.5")
    assert res.exit_code == 0, res.output
    with Store(tmp_path / "c.sqlite") as db:
        first = {g.idx: g.finished for g in db.games()}
    assert sorted(first) == [0, 1]
    res, out = compete(tmp_path, a, b, 2, "--seed", "3", "--move-time", "0.5")
    assert res.exit_code == 0, res.output
    assert "resumed: 2 game(s)" in res.output
    with Store(tmp_path / "c.sqlite") as db:
        games = db.games()
    assert [g.idx for g in games] == [0, 1, 2, 3]
    assert {g.idx: g.finished for g in games if g.idx < 2} == first
    rounds, tail = parse(out.read_text())
    assert len(rounds) == 2 and rounds[0] == [1, 2] and len(tail) == 3
    res, out = compete(tmp_path, a, b, 1, "--seed", "3", "--move-time", "0.5", out="one.txt")
    assert parse(out.read_text()) == ([[1, 2]], ["A wins: 0.500", "B wins: 0.500",
                                                "draws: 0.000"])
    res, _ = compete(tmp_path, a, b, 1, "--seed", "4", "--move-time", "0.5", out="other.txt")
    assert "resumed" not in res.output        # another seed is another competition


def test_kill_9_then_the_same_command_resumes(libs, tmp_path):
    """slow and slowright think 60 ms a move; kill the referee once two games are stored."""
    db, out = tmp_path / "k.sqlite", tmp_path / "k.txt"
    cmd = [sys.executable, "-m", "boardai", "compete", f"strategy:{libs['slow']}",
           f"strategy:{libs['slowright']}", str(out), "3", "--seed", "2", "--move-time", "0.5",
           "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    stored = []
    while len(stored) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        try:
            with sqlite3.connect(db) as con:
                stored = con.execute("SELECT idx, finished FROM games").fetchall()
        except sqlite3.Error:
            stored = []
    assert proc.poll() is None, "the competition ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as con:
        before = dict(con.execute("SELECT idx, finished FROM games").fetchall())
    assert 2 <= len(before) < 6
    partial = out.read_text()
    assert parse(partial)[1] == []            # no ratio lines before every round is done
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"resumed: {len(before)} game(s)" in done.stdout
    with sqlite3.connect(db) as con:
        after = dict(con.execute("SELECT idx, finished FROM games").fetchall())
    assert sorted(after) == list(range(6))
    assert {i: after[i] for i in before} == before       # not played again
    rounds, tail = parse(out.read_text())
    assert rounds == [[1, 2]] * 3 and tail == ["A wins: 0.500", "B wins: 0.500",
                                               "draws: 0.000"]


def test_bad_input_is_a_one_line_error(libs, tmp_path):
    res, _ = compete(tmp_path, f"strategy:{tmp_path / 'nope.so'}", "random", 1)
    assert res.exit_code == 2 and "does not exist" in res.output
    res, _ = compete(tmp_path, f"strategy:{libs['mangled']}", "random", 1)
    assert res.exit_code == 2 and "does not export getPoint" in res.output
    res, _ = compete(tmp_path, "mcts:time=2", "random", 1, "--move-time", "1")
    assert res.exit_code == 2 and "more than the --move-time" in res.output
    res, _ = compete(tmp_path, "random", "random", 0)
    assert res.exit_code == 2
    assert not (tmp_path / "c.sqlite").exists()


def test_without_a_seed_one_is_drawn_and_printed(tmp_path):
    res, _ = compete(tmp_path, "random", "random", 1, "--quiet")
    assert res.exit_code == 0, res.output
    seed = re.search(r"seed (\d+) \(give --seed \1 to resume", res.stderr).group(1)
    with Store(tmp_path / "c.sqlite") as db:
        (match,) = db.matches()
    assert match.seed == int(seed) and match.openings == course.BOARDS


# --- the pieces -----------------------------------------------------------------------------
def _game(idx, a_is_black, winner, reason, times=(0.5, 0.25, 0.125)):
    return StoredGame("k", idx, "a", "b", a_is_black, "connect4", 9, 9, [], 1, [0] * len(times),
                      winner, reason, list(times))


@pytest.mark.parametrize("a_is_black, winner, reason, code", [
    (True, None, "draw", 0), (True, 0, "four in a row", 1), (False, 0, "four in a row", 2),
    (True, 1, "crash", 3), (False, 0, "illegal move", 4), (True, 0, "crash", 5),
    (False, 1, "illegal move", 6), (True, 1, "time forfeit", 7), (False, 1, "time forfeit", 8),
    (True, 1, "resign", 2),
])
def test_codes(a_is_black, winner, reason, code):
    assert result_code(_game(0, a_is_black, winner, reason)) == code


@pytest.mark.parametrize("move_time, told", [(3.0, 2.9), (1.0, 0.95), (0.3, 0.285)])
def test_engines_are_told_the_move_time_less_a_margin(move_time, told):
    plan = CompetePlan("mcts", "random", "connect4", "course", course.draw_board, 7, move_time,
                       grace=0.5)
    task = plan.task(0)
    assert think_time(move_time) == pytest.approx(told)
    assert task.move_time == pytest.approx(told)
    assert task.move_timeout == pytest.approx(move_time + 0.5)


def test_longest_moves_are_told_per_side():
    games = [_game(0, True, 0, "four in a row", times=(0.5, 0.25, 0.125)),
             _game(1, False, 0, "four in a row", times=(0.75, 0.0625))]
    assert longest_moves(games) == (0.5, 0.75)


def test_the_result_file_lists_finished_rounds_and_ratios_at_the_end():
    games = {0: _game(0, True, 0, "four in a row"), 1: _game(1, False, 0, "crash"),
             3: _game(3, False, None, "draw")}
    assert result_text(games, 2) == "1:\n1\t0.625\t0.250\n3\t0.250\t0.625\n"
    games[2] = _game(2, True, 1, "time forfeit")
    assert result_text(games, 2).splitlines()[4:] == [
        "7\t0.625\t0.250", "0\t0.250\t0.625", "A wins: 0.250", "B wins: 0.500",
        "draws: 0.250"]


def test_a_schema_1_store_is_upgraded_and_keeps_blocked_cells(tmp_path):
    path = tmp_path / "old.sqlite"
    with Store(path) as db:                      # make it look like schema 1
        db._db.execute("ALTER TABLE games DROP COLUMN blocked")
        db._db.execute("PRAGMA user_version = 1")
    assert SCHEMA_VERSION == 3
    with Store(path) as db:
        g = _game(0, True, 0, "four in a row")
        g.blocked = [(3, 0)]
        db.add_game(g)
        db.add_game(_game(1, True, 0, "four in a row"))
        assert [x.blocked for x in db.games()] == [[(3, 0)], []]
        assert db._db.execute("PRAGMA user_version").fetchone()[0] == 3
    assert json.loads(sqlite3.connect(path).execute(
        "SELECT blocked FROM games WHERE idx = 0").fetchone()[0]) == [[3, 0]]
