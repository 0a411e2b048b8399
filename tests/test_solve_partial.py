"""Connect Four analysis that cannot finish in its time says what it settled.

``LineSolver.analyze_columns`` scores the columns one by one (those known without a search
first) and tells a ``Watch`` as each settles; the untimed analysis is the same search as the
one jitted ``Solver.analyze`` (same scores, same nodes).  The ``solver`` engine keeps the
settled columns when the time runs out or it is stopped (``info["scores"]``,
``info["unsettled"]``), and ``solve connect4 --time`` prints ``?`` for the others.
No test reads a clock: the time limits used are too short for any search to finish.
"""

from __future__ import annotations

import json
import threading

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.cli import main
from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games.connect4.board import Connect4Board
from boardai.solvers.answer import Watch
from boardai.solvers.connect4.lines import LineSolver
from boardai.solvers.connect4.solver import FULL_COLUMN, Solver

# X (to move) wins at once in column 3 or 7 (index 2, 6); the other columns need a search
THREAT = "445566"
WIN_NOW = 18                                   # a win with the 4th stone on 7x6


def _board(moves: str) -> Connect4Board:
    return Connect4Board.from_position(moves)


@st.composite
def positions(draw, lo=14, hi=26):
    """A 7x6 position of lo..hi stones, the game not over."""
    board = Connect4Board(7, 6)
    for _ in range(draw(st.integers(lo, hi))):
        legal = [c for c in range(7) if board.is_legal(c)]
        col = draw(st.sampled_from(legal))
        child = board.copy()
        child.push(col)
        if child.is_game_over():
            break
        board = child
    return board


@settings(max_examples=15, deadline=None)
@given(positions())
def test_column_by_column_is_the_jitted_analysis_node_for_node(board):
    lines = LineSolver(use_book=False, tt_bits=18, early_tt_bits=18)
    seen: dict[int, int] = {}
    scores = lines.analyze_columns(board, watch=Watch(on_score=seen.__setitem__))
    ref = Solver(7, 6, 18)
    assert scores == ref.analyze(board)
    assert lines.solver.nodes == ref.nodes
    assert seen == {c: s for c, s in enumerate(scores) if s != FULL_COLUMN}


def test_a_stop_set_before_leaves_only_what_needs_no_search():
    stop = threading.Event()
    stop.set()
    watch = Watch(stop=stop)
    scores = LineSolver(use_book=False, tt_bits=18).analyze_columns(_board(THREAT), watch=watch)
    assert scores == [None, None, WIN_NOW, None, None, None, WIN_NOW]
    assert watch.settled == {2: WIN_NOW, 6: WIN_NOW}


def test_time_running_out_keeps_the_settled_columns():
    lines = LineSolver(use_book=False, tt_bits=18)
    scores = lines.analyze_columns(_board(THREAT), seconds=1e-9)
    assert scores == [None, None, WIN_NOW, None, None, None, WIN_NOW]
    assert lines.analyze_board(_board(THREAT), seconds=1e-9) is None
    full = lines.analyze_columns(_board(THREAT))
    assert None not in full and full[2] == full[6] == WIN_NOW


def test_a_stop_from_another_thread_ends_a_running_search():
    """Four stones off the book take seconds to minutes a column; a stop set from another
    thread while the search runs ends it, and what settled before is kept."""
    stop = threading.Event()
    watch = Watch(stop=stop)
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        scores = LineSolver(use_book=False, tt_bits=20).analyze_columns(_board("4444"),
                                                                       watch=watch)
    finally:
        timer.cancel()
    assert None in scores
    assert {c: s for c, s in enumerate(scores) if s is not None} == watch.settled


def test_the_solver_engine_keeps_the_settled_moves_when_its_time_runs_out():
    engine = make_engine("solver:book=0,tt_bits=18,seed=1")
    snaps = []
    engine.on_info = snaps.append
    try:
        result = engine.analyse(_board(THREAT), Limit(time=1e-6))
    finally:
        engine.close()
    assert result.info["exact"] is False
    assert result.info["scores"] == {"3": WIN_NOW, "7": WIN_NOW}
    assert result.info["unsettled"] == ["1", "2", "4", "5", "6"]
    assert snaps and snaps[0].info["solving"] and snaps[-1].info["scores"] == {"3": 18, "7": 18}


def test_without_fallback_the_answer_is_what_the_solver_settled_not_an_mcts_move():
    """``fallback=0`` (the web page's Solve): where the time runs out the answer holds the
    settled moves and says why; no mcts searches in the rest of the time."""
    engine = make_engine("solver:book=0,tt_bits=18,fallback=0")
    try:
        result = engine.analyse(_board(THREAT), Limit(time=1e-6))
    finally:
        engine.close()
    assert result.info["exact"] is False and "fallback" not in result.info
    assert "not solved in" in result.info["why"] and not result.info.get("stopped")
    assert result.info["scores"] == {"3": WIN_NOW, "7": WIN_NOW}
    assert result.info["unsettled"] == ["1", "2", "4", "5", "6"]
    assert result.name in ("3", "7") and result.nodes == 0
    assert engine._mcts is None                   # the fallback engine was never made


def test_the_solver_engine_stopped_answers_with_what_it_settled():
    engine = make_engine("solver:book=0,exact=1,tt_bits=18")
    engine.stop = threading.Event()
    engine.stop.set()
    try:
        result = engine.analyse(_board(THREAT), Limit(time=60))
    finally:
        engine.close()
    assert result.info["stopped"] and not result.info["exact"]
    assert result.info["scores"] == {"3": WIN_NOW, "7": WIN_NOW}
    assert result.name in ("3", "7")


def test_solve_cli_prints_question_marks_for_what_the_time_did_not_settle():
    run = CliRunner().invoke(main, ["solve", "connect4", "--analyze", "--no-book", "--time",
                                    "0.000001"], input=THREAT + "\n")
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines() == [f"{THREAT} ? ? 18 ? ? ? 18"]
    assert "line 1: columns 1 2 4 5 6 not settled in 1e-06 s" in run.stderr
    run = CliRunner().invoke(main, ["solve", "connect4", "--analyze", "--no-book", "--time",
                                    "0.000001", "--json"], input=THREAT + "\n")
    out = json.loads(run.stdout.splitlines()[-1])["results"][0]
    assert out["scores"] == [None, None, 18, None, None, None, 18] and out["settled"] is False
    run = CliRunner().invoke(main, ["solve", "connect4", "--no-book", "--time", "0.000001"],
                             input="4444\n")
    assert run.stdout.split()[:2] == ["4444", "?"] and "line 1: not solved" in run.stderr


def test_solve_cli_time_refuses_nonsense():
    run = CliRunner().invoke(main, ["solve", "connect4", "--time", "0"], input="4\n")
    assert run.exit_code == 2 and "--time" in run.output
