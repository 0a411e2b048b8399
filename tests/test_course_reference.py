"""The course game's C++ reference opponent (benchmarks/course_uct/uct.cpp, built and played by
benchmarks/course_reference.py): it builds, answers through the course's interface with legal
moves, takes an immediate win, blocks an immediate loss, keeps its tree from one move to the
next, and plays a short ``compete`` round; its self-play build (for tuning) plays games.

Compiled with g++ at a think time of a few milliseconds (``-DTHINK_MS``); skipped without g++.
"""

from __future__ import annotations

import ctypes
import importlib
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardai.arena.compete import result_code
from boardai.arena.store import Store
from boardai.cli import main
from boardai.games import Connect4Board
from boardai.games.connect4 import course

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
reference = importlib.import_module("course_reference")


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


@pytest.fixture(scope="module")
def lib_path(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ is missing: the C++ reference is compiled on demand")
    return reference.build_reference(10, tmp_path_factory.mktemp("course_uct"))


@pytest.fixture(scope="module")
def lib(lib_path):
    so = ctypes.CDLL(str(lib_path))
    so.getPoint.restype = ctypes.POINTER(Point)
    so.clearPoint.argtypes = [ctypes.POINTER(Point)]
    return so


def ask(lib, board: Connect4Board) -> tuple[int, int, list[int]]:
    """(x, y, top) of the reference's answer for the side to move on ``board``."""
    m, n, top, cells = course.to_course(board, len(board.move_stack) % 2)
    last_x, last_y = course.last_point(board)
    no_x, no_y = course.no_go_point(board)
    p = lib.getPoint(m, n, (ctypes.c_int * n)(*top), (ctypes.c_int * (m * n))(*cells),
                     last_x, last_y, no_x, no_y)
    assert p, "getPoint returned a null pointer"
    x, y = p.contents.x, p.contents.y
    lib.clearPoint(p)
    return x, y, top


def test_the_object_is_named_by_source_and_think_time(lib_path):
    assert lib_path.name.startswith("uct_10ms_") and lib_path.suffix == ".so"
    assert reference.build_reference(10, lib_path.parent) == lib_path     # built once


def test_answers_are_legal_on_random_positions_of_course_boards(lib):
    rng = random.Random(5)
    for _ in range(25):
        w, h, blocked = course.draw_board(rng)
        board = Connect4Board(w, h, blocked=blocked)
        for _ in range(rng.randrange(0, w * h // 2)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        x, y, top = ask(lib, board)
        assert course.answer_problem(top, x, y) is None, (w, h, blocked, board.move_stack)


@pytest.mark.parametrize("own_three", [True, False])
def test_it_takes_a_win_and_blocks_a_loss(lib, own_three):
    # 10 wide, 9 high, the no-go cell in the top row; three stones of one side in column 2, the
    # other side's stones scattered (no three of theirs): column 2 wins, or must be blocked
    board = Connect4Board(10, 9, blocked=((9, 8),))
    board.push_many([2, 5, 2, 7, 2, 5] if own_three else [0, 2, 5, 2, 7, 2])
    assert not board.is_game_over()
    x, y, top = ask(lib, board)
    assert (x, y) == (top[2] - 1, 2)
    board.push(2)
    assert board.is_game_over() == own_three


def test_the_tree_is_kept_when_the_board_is_the_last_answer_plus_one_stone(lib):
    lib.uctLastReused.restype = ctypes.c_longlong
    board = Connect4Board(11, 9, blocked=((4, 2),))
    x, y, _ = ask(lib, board)
    board.push(y)
    board.push(4)                                  # the opponent answers
    x, y, top = ask(lib, board)
    assert course.answer_problem(top, x, y) is None
    assert lib.uctLastReused() > 0                 # the grandchild's visits were kept
    other = Connect4Board(11, 9, blocked=((4, 2),))
    other.push_many([0, 1])                        # not what it left: a fresh tree
    ask(lib, other)
    assert lib.uctLastReused() == 0


def test_the_self_play_build_plays_both_colours_on_drawn_boards(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("g++ is missing")
    exe = tmp_path / "selfplay"
    subprocess.run(["g++", "-O2", "-DSELFPLAY", "-o", str(exe), str(reference.SOURCE)],
                   check=True)
    out = subprocess.run([str(exe), "0.5", "1.0", "5", "1", "3"], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"A wins (\d+) losses (\d+) draws (\d+)", out)
    assert m and sum(int(v) for v in m.groups()) == 2, out


def test_a_short_compete_round(lib_path, tmp_path):
    spec = reference.strategy_spec(lib_path)
    out, db = tmp_path / "r.txt", tmp_path / "c.sqlite"
    res = CliRunner().invoke(main, ["compete", spec, "random", str(out), "1", "--seed", "3",
                                    "--move-time", "0.5", "--db", str(db), "--quiet"])
    assert res.exit_code == 0, res.output
    with Store(db) as store:
        games = store.games()
    assert len(games) == 2
    for g in games:
        assert result_code(g) == 1, (g.reason, g.detail)      # the reference beat random
        board = Connect4Board(g.width, g.height, blocked=g.blocked)
        board.push_many(g.moves)                                # every move was legal
        assert board.is_game_over()
