"""The ``strategy:`` engine: course strategy libraries (getPoint/clearPoint) in a child process.

The strategies are small C++ files compiled with g++ (tests/course_strategies.py); without g++
these tests are skipped.  Faults must lose, never kill the program: a crash, a hang past the move
time and an illegal answer each raise their own fault type, and the next move works again.
"""

from __future__ import annotations

import os

import pytest

from boardai.engines.base import EngineError, EngineMoveError, EngineTimeout, Limit
from boardai.engines.registry import EngineSpecError, make_engine, parse_spec
from boardai.engines.strategy import (
    StrategyCrash, StrategyEngine, StrategyIllegalMove, StrategyLoadError, StrategyTimeout,
)
from boardai.games import Connect4Board, make_board
from course_strategies import build

FAST = Limit(time=0.3)


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strategies")
    return build(folder, "leftmost", "dump", "crash", "abort", "null", "hang", "wrongrow",
                 "column0", "moody", "mangled", "noclear", "loadcrash")


def engine(path, **kw) -> StrategyEngine:
    return make_engine(f"strategy:{path}", **kw)


def dumped(path):
    lines = path.read_text().splitlines()
    path.unlink()
    out = []
    for line in lines:
        fields = dict(part.split("=", 1) for part in line.split())
        out.append({"M": int(fields["M"]), "N": int(fields["N"]),
                    "last": tuple(int(v) for v in fields["last"].split(",")),
                    "no": tuple(int(v) for v in fields["no"].split(",")),
                    "top": [int(v) for v in fields["top"].split(",")],
                    "board": [int(c) for c in fields["board"]]})
    return out


# --- specs and loading -------------------------------------------------------------------------
def test_the_spec_keeps_everything_after_the_colon_as_the_path():
    assert parse_spec("strategy:/a b/c,d=e:f.so") == ("strategy", {"path": "/a b/c,d=e:f.so"})
    with pytest.raises(EngineSpecError, match="needs a library path"):
        parse_spec("strategy:")


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        make_engine(f"strategy:{tmp_path / 'nope.so'}")
    with pytest.raises(ValueError, match="is not a file"):
        make_engine(f"strategy:{tmp_path}")


def test_a_file_that_is_no_library_is_a_clear_error(tmp_path):
    junk = tmp_path / "junk.so"
    junk.write_text("not a library")
    with pytest.raises(StrategyLoadError, match="cannot load strategy library"):
        make_engine(f"strategy:{junk}")


def test_the_child_loads_the_cxx_runtime_and_says_why_when_it_cannot(monkeypatch):
    from ctypes import util
    from boardai.engines import strategy_child
    assert strategy_child.load_cxx_runtime() == ""          # this machine has libstdc++
    monkeypatch.setattr(strategy_child, "CXX_RUNTIME", "libno-such-runtime.so.0")
    monkeypatch.setattr(util, "find_library", lambda name: None)
    assert "libno-such-runtime.so.0" in strategy_child.load_cxx_runtime()


def test_a_library_without_the_interface_is_refused(libs):
    with pytest.raises(StrategyLoadError, match=r'does not export getPoint: .*extern "C"'):
        engine(libs["mangled"])
    with pytest.raises(StrategyLoadError, match="does not export clearPoint"):
        engine(libs["noclear"])
    with pytest.raises(StrategyLoadError, match="crashed while loading .*SIGSEGV"):
        engine(libs["loadcrash"])


def test_other_games_are_refused(libs):
    with engine(libs["leftmost"]) as e:
        for game in ("hex", "tictactoe"):
            with pytest.raises(EngineError, match="Connect Four only"):
                e.play(make_board(game))
        assert e.describe().startswith("strategy leftmost.so sha256:")
        assert e.spec == f"strategy:{libs['leftmost']}"


# --- the interface -----------------------------------------------------------------------------
def test_the_strategy_sees_the_course_arrays_and_its_answer_maps_back(libs):
    """10 columns x 9 rows, no-go cell at (col 2, row 1) = (x 7, y 2)."""
    dump = libs["dump"].parent / "dump.txt"
    board = Connect4Board(10, 9, blocked=[(2, 1)])
    with engine(libs["dump"]) as e:
        result = e.play(board, FAST)             # Black, the first move
        assert result.move == 0 and result.info["point"] == [8, 0]
        (seen,) = dumped(dump)
        assert (seen["M"], seen["N"], seen["last"], seen["no"]) == (9, 10, (-1, -1), (7, 2))
        assert seen["top"] == [9] * 10 and seen["board"] == [0] * 90
        board.push(2)                          # Black's stone under the no-go cell
        result = e.play(board, FAST)             # White: top[2] drops by two
        (seen,) = dumped(dump)
        assert seen["last"] == (8, 2) and seen["no"] == (7, 2)
        assert seen["top"] == [9, 9, 7] + [9] * 7
        expected = [0] * 90
        expected[8 * 10 + 2] = 1                  # the opponent's stone; the no-go cell reads 0
        assert seen["board"] == expected
        board.push(result.move)                  # White's stone: (x 8, y 0)
        board.push(2)                            # Black passes over the no-go cell: row 2
        assert board.cell(2, 2) == 1
        e.play(board, FAST)
        (seen,) = dumped(dump)
        assert seen["last"] == (6, 2) and seen["top"][2] == 6 and seen["top"][0] == 8
        assert seen["board"][8 * 10 + 0] == 2    # its own stone
        assert seen["board"][6 * 10 + 2] == 1 and seen["board"][7 * 10 + 2] == 0


def test_the_legal_strategy_plays_a_whole_game_of_legal_moves_past_the_no_go_cell(libs):
    board = Connect4Board(9, 12, blocked=[(0, 3)])
    with engine(libs["leftmost"]) as black, engine(libs["leftmost"]) as white:
        while not board.is_game_over():
            player = black if board.turn == 0 else white
            result = player.play(board.copy(), FAST)
            expected = next(c for c in range(board.width) if board.landing_row(c) < board.height)
            assert result.move == expected and result.move in board.legal_moves
            x, y = result.info["point"]
            assert (y, board.height - 1 - x) == (expected, board.landing_row(expected))
            board.push(result.move)
        assert board.cell(0, 3) == 3 and board.landing_row(0) == board.height


# --- faults --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, signal_name", [("crash", "SIGSEGV"), ("abort", "SIGABRT")])
def test_a_crash_is_a_crash_and_the_next_move_restarts_the_child(libs, name, signal_name):
    board = Connect4Board(10, 9, blocked=[(3, 0)])
    with engine(libs[name]) as e:
        for starts in (1, 2):
            with pytest.raises(StrategyCrash, match=signal_name) as info:
                e.play(board, FAST)
            assert e.starts == starts
            assert info.value.kind == "crash" and isinstance(info.value, EngineError)
            assert not isinstance(info.value, (EngineTimeout, EngineMoveError))


def test_a_null_point_is_a_crash(libs):
    with engine(libs["null"]) as e, pytest.raises(StrategyCrash, match="null pointer"):
        e.play(Connect4Board(10, 9, blocked=[(3, 0)]), FAST)


def test_a_hang_is_a_timeout_within_the_move_time(libs):
    with engine(libs["hang"]) as e:
        pid = e._proc.pid
        # the timeout fired (its message names the move's time), however long the machine took
        with pytest.raises(StrategyTimeout, match=r"no answer within 0.3 s") as info:
            e.play(Connect4Board(10, 9, blocked=[(3, 0)]), FAST)
        assert info.value.kind == "timeout" and isinstance(info.value, EngineTimeout)
        with pytest.raises(ProcessLookupError):      # the hung child was killed and reaped
            os.kill(pid, 0)


def test_illegal_answers_are_illegal_moves(libs):
    board = Connect4Board(10, 9, blocked=[(3, 0)])
    with engine(libs["wrongrow"]) as e:
        with pytest.raises(StrategyIllegalMove, match=r"answered \(x=9, y=0\): a stone in "
                                                      r"column y=0 lands on row x=8") as info:
            e.play(board, FAST)
        assert info.value.kind == "illegal" and isinstance(info.value, EngineMoveError)
    for _ in range(9):                           # column 0 full
        board.push(0)
    with engine(libs["column0"]) as e:
        with pytest.raises(StrategyIllegalMove, match=r"column y=0 is full"):
            e.play(board, FAST)
        assert e.starts == 1                     # an illegal answer keeps the child


def test_one_engine_survives_crash_hang_and_illegal_answer_in_turn(libs):
    """moody: crashes on an empty board, hangs with one stone, answers a wrong row with two."""
    board = Connect4Board(11, 10, blocked=[(5, 5)])
    with engine(libs["moody"]) as e:
        with pytest.raises(StrategyCrash):
            e.play(board, FAST)
        board.push(4)
        with pytest.raises(StrategyTimeout):
            e.play(board, FAST)
        board.push(4)
        with pytest.raises(StrategyIllegalMove):
            e.play(board, FAST)
        assert e.starts == 3
        board.push(4)
        assert e.play(board, FAST).move == 0
        assert e.starts == 3


def test_what_the_strategy_prints_goes_to_its_stderr_not_the_protocol(libs, tmp_path):
    log = tmp_path / "strategy.log"
    with open(log, "w") as fh, engine(libs["dump"], stderr=fh) as e:
        board = Connect4Board(9, 9, blocked=[(0, 0)])
        for _ in range(3):
            board.push(e.play(board, FAST).move)
    text = log.read_text()
    assert text.count("thinking hard") == 3 and text.count("still thinking") == 3
    assert text.count("a note on stderr") == 3


def test_close_ends_the_child(libs):
    e = engine(libs["leftmost"])
    pid = e._proc.pid
    e.play(Connect4Board(9, 9, blocked=[(0, 0)]), FAST)
    e.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert e.play(Connect4Board(9, 9, blocked=[(0, 0)]), FAST).move == 0   # starts again
    e.close()
