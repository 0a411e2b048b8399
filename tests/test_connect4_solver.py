"""Connect Four exact solver: Pons' score convention, agreement with exhaustive search, the
``solve connect4`` command, the opening book and the ``solver`` engine."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.cli import main
from boardai.engines.registry import make_engine
from boardai.bench.solver import classify, moves_left, read_set
from boardai.games.connect4.board import Connect4Board
from boardai.solvers.connect4.book import (
    Book, build_book, build_lines, build_main_line, positions_at, shipped_book,
)
from boardai.solvers.connect4.solver import FULL_COLUMN, Solver

SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(w: int, h: int) -> Solver:
    if (w, h) not in SOLVERS:
        SOLVERS[(w, h)] = Solver(w, h, tt_bits=18)
    return SOLVERS[(w, h)]


# --- an independent exhaustive search: a grid, line scans, the winner's stones counted --------
def _four(grid, w, h, c, r) -> bool:
    me = grid[c][r]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sgn in (1, -1):
            x, y = c + sgn * dc, r + sgn * dr
            while 0 <= x < w and 0 <= y < h and grid[x][y] == me:
                run += 1
                x, y = x + sgn * dc, y + sgn * dr
        if run >= 4:
            return True
    return False


def exhaustive(board: Connect4Board) -> int:
    """Pons' score by plain negamax over every continuation (no pruning)."""
    w, h = board.width, board.height
    grid = [[board.cell(c, r) for r in range(h)] for c in range(w)]
    tops = [board.column_height(c) for c in range(w)]
    ceil = (w * h + 1) // 2

    def rec(colour: int, stones: int) -> int:
        if stones == w * h:
            return 0
        best = -10 ** 6
        for c in range(w):
            r = tops[c]
            if r == h:
                continue
            grid[c][r] = colour
            tops[c] += 1
            if _four(grid, w, h, c, r):
                mine = sum(col.count(colour) for col in grid)
                value = ceil + 1 - mine          # the convention itself: CEIL + 1 - winner's stones
            else:
                value = -rec(3 - colour, stones + 1)
            tops[c] -= 1
            grid[c][r] = 0
            best = max(best, value)
        return best

    return rec(1 + (board.ply & 1), board.ply)


def random_position(rng: random.Random, w: int, h: int, empties: int) -> Connect4Board | None:
    board = Connect4Board(w, h)
    while w * h - board.ply > empties:
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            return None
    return board


def positions(seed: int, w: int, h: int, empties: int, count: int) -> list[Connect4Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = random_position(rng, w, h, empties)
        if b is not None:
            out.append(b)
    return out


# --- the score convention ---------------------------------------------------------------------
def test_win_with_fourth_stone_scores_22_minus_4():
    board = Connect4Board.from_position("445566")     # X to move completes 4-5-6-7
    score = Solver(tt_bits=16).solve(board)
    assert score == 22 - 4


@pytest.mark.parametrize("w,h", [(4, 4), (5, 4), (4, 5)])
def test_win_with_the_last_stone_scores_1(w, h):
    """A position with one empty cell whose stone makes four: the win with the last stone is 1."""
    rng = random.Random(w * 100 + h)
    found = 0
    for _ in range(20_000):
        board = Connect4Board(w, h)
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if board.ply == w * h and board.outcome().winner is not None:
            board.pop()
            assert solver_for(w, h).solve(board) == 1 == exhaustive(board)
            found += 1
            if found == 3:
                break
    assert found, "no game won with the last stone found"


def test_score_of_a_loss_is_negative_and_counts_the_opponents_stones():
    # O to move, X threatens two cells at once on the bottom row: X wins with its 4th stone.
    board = Connect4Board.from_position("3344")          # X: c3 c4, O: above them; X to move
    board.push(4)                                        # X c5: _XXX_ open on both sides
    score = Solver(tt_bits=16).solve(board)
    assert score == -(22 - 4)


# --- agreement with exhaustive search ---------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 9), size=st.sampled_from([(7, 6), (5, 4), (4, 4), (6, 5)]))
def test_near_end_positions_match_exhaustive_search(seed, size):
    w, h = size
    board = positions(seed, w, h, empties=7, count=1)[0]
    expected = exhaustive(board)
    solver = solver_for(w, h)
    assert solver.solve(board) == expected
    assert solver.solve(board, weak=True) == (expected > 0) - (expected < 0)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10 ** 9))
def test_small_board_from_few_stones_matches_exhaustive_search(seed):
    board = positions(seed, 4, 4, empties=10, count=1)[0]
    assert solver_for(4, 4).solve(board) == exhaustive(board)


def test_analyze_matches_exhaustive_search_per_column():
    for board in positions(11, 7, 6, empties=6, count=5):
        scores = solver_for(7, 6).analyze(board)
        for c in range(7):
            if not board.is_legal(c):
                assert scores[c] == FULL_COLUMN
                continue
            child = board.copy()
            child.push(c)
            if child.is_game_over():
                w = child.outcome().winner
                assert scores[c] == (0 if w is None else 22 - (board.ply // 2 + 1))
            else:
                assert scores[c] == -exhaustive(child)


def test_stopped_search_returns_none_and_leaves_the_table_correct():
    solver = Solver(tt_bits=16)
    assert solver.solve(Connect4Board.from_position("44"), max_nodes=2000) is None
    assert solver.solve(Connect4Board.from_position("4"), seconds=0.05) is None
    for board in positions(5, 7, 6, empties=7, count=3):
        assert solver.solve(board) == exhaustive(board)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 9), size=st.sampled_from([(7, 6), (5, 4), (4, 4)]),
       below=st.integers(0, 6), weak=st.booleans())
def test_a_known_floor_gives_the_same_score(seed, size, below, weak):
    """``at_least`` (any true lower bound, the exact score included) changes the work, not
    the answer; ``best_move`` with it keeps the score too."""
    w, h = size
    board = positions(seed, w, h, empties=8, count=1)[0]
    expected = exhaustive(board)
    solver = Solver(w, h, tt_bits=16)         # a fresh table: no bounds left by other calls
    floor = expected - below
    got = solver.solve(board, weak=weak, at_least=floor)
    assert got == ((expected > 0) - (expected < 0) if weak else expected)
    solver.reset()
    assert solver.best_move(board, at_least=floor)[0] == expected


def test_solve_takes_the_floor_from_the_book_position_before(tmp_path):
    """One move past the book, a position starts from minus the book's score of its parent
    (exact after a best move), and scores what a search without the book finds."""
    from boardai.solvers.connect4.lines import LineSolver

    book = build_book(2, tmp_path / "book.npz", width=5, height=4, tt_bits=16)
    lines = LineSolver(5, 4, tt_bits=16, early_tt_bits=16)
    lines.book = book
    plain = Solver(5, 4, tt_bits=16)
    assert lines.floor(Connect4Board(5, 4)) is None
    exact_floors = 0
    for board in positions_at(3, 5, 4):
        before = board.copy()
        before.pop()
        assert lines.floor(board) == -book.get(before)
        score, from_book = lines.score(board)
        assert not from_book and score == plain.solve(board)
        exact_floors += score == lines.floor(board)
    assert exact_floors > 0                      # some third stones are best moves


def test_solve_answers_every_shallow_position_and_the_engine_lines_from_the_book():
    """The shipped book holds every position of up to its depth and the engine's lines:
    ``solve`` answers them without a node of search."""
    from boardai.solvers.connect4.lines import LineSolver

    lines = LineSolver(tt_bits=16, early_tt_bits=16)
    book = lines.book
    assert book.depth >= 3 and book.lines_ply >= 9
    rng = random.Random(3)
    texts = ["".join(rng.choice("1234567") for _ in range(rng.randint(1, book.depth)))
             for _ in range(40)]
    board = Connect4Board(7, 6)                 # the engine's own line against itself
    while board.ply < book.lines_ply:
        board.push(book.best_move(board)[1])
        texts.append(board.position)
    for number, text in enumerate(texts, 1):
        result = lines.solve_line(number, text)
        assert result.error is None and result.from_book and result.nodes == 0, text


def test_moves_left_and_classes():
    board = Connect4Board.from_position("445566")
    assert moves_left(18, board.ply) == 1                 # X wins with the next stone
    assert moves_left(-18, 5) == 2                        # O to move; X wins with its 4th stone
    assert moves_left(0, 30) == 12
    assert classify(30, 12) == "end-easy" and classify(10, 30) == "begin-hard"


def test_benchmark_sets_have_correct_scores_and_classes():
    rng = random.Random(3)
    lines = rng.sample(read_set("end-easy"), 5) + rng.sample(read_set("middle-easy"), 5)
    for moves, score in lines:
        board = Connect4Board.from_position(moves)
        assert solver_for(7, 6).solve(board) == score
        assert classify(board.ply, moves_left(score, board.ply)) in ("end-easy", "middle-easy")
    for moves, score in rng.sample(read_set("end-easy"), 3):
        board = Connect4Board.from_position(moves)
        if 42 - board.ply <= 9:
            assert exhaustive(board) == score


# --- the command ------------------------------------------------------------------------------
def test_solve_command_scores_analyze_and_bad_lines():
    good = [m for m, _ in read_set("middle-easy")[:4]]
    text = "\n".join([good[0], "12a", good[1] + " 7 extra", "8", "1111111", "4455667", "", good[2]]) + "\n"
    res = CliRunner().invoke(main, ["solve", "connect4", "--no-book"], input=text)
    assert res.exit_code == 1
    out = [line.split() for line in res.stdout.splitlines()]
    assert [o[0] for o in out] == [good[0], good[1], good[2]]
    for o in out:
        assert int(o[1]) == solver_for(7, 6).solve(Connect4Board.from_position(o[0]))
    err = res.stderr
    for number, word in ((2, "not a position"), (4, "off the board"), (5, "full"), (6, "already won")):
        assert f"line {number}:" in err and word in err
    an = CliRunner().invoke(main, ["solve", "connect4", "--analyze", "--no-book"],
                            input="\n".join(good) + "\n")
    assert an.exit_code == 0
    for line in an.stdout.splitlines():
        moves, *scores = line.split()
        scores = [int(s) for s in scores]
        assert len(scores) == 7
        best = max(s for s in scores if s != FULL_COLUMN)
        assert best == solver_for(7, 6).solve(Connect4Board.from_position(moves))


def test_solve_command_weak_json():
    text = "445566\n" + read_set("end-easy")[0][0] + "\n"
    res = CliRunner().invoke(main, ["solve", "connect4", "--weak", "--json"], input=text)
    assert res.exit_code == 0
    payload = json.loads(res.stdout.splitlines()[-1])
    assert [r["score"] for r in payload["results"]][0] == 1
    assert all(r["score"] in (-1, 0, 1) for r in payload["results"])


# --- the book ---------------------------------------------------------------------------------
def test_small_book_agrees_with_search(tmp_path):
    out = tmp_path / "new-dir" / "book.npz"            # the directory is created
    book = build_book(3, out, width=5, height=4, tt_bits=16)
    again = Book.load(out)
    solver = Solver(5, 4, tt_bits=16)
    rng = random.Random(1)
    for depth in range(4):
        sample = positions_at(depth, 5, 4)
        for board in rng.sample(sample, min(6, len(sample))):
            assert again.get(board) == book.get(board) == solver.solve(board)
    assert not (tmp_path / "new-dir" / "book.npz.partial").exists()


def _same_book(a: Book, b: Book) -> bool:
    return (a.keys.tolist() == b.keys.tolist() and a.scores.tolist() == b.scores.tolist()
            and a.moves.tolist() == b.moves.tolist() and (a.width, a.height, a.depth, a.lines_ply)
            == (b.width, b.height, b.depth, b.lines_ply))


def test_interrupted_book_build_resumes_to_the_same_book(tmp_path):
    """A build stopped part-way keeps what it solved in <out>.partial; run again (here with two
    worker processes) it solves only the rest and writes the book an uninterrupted build
    writes, which also survives a save and load unchanged."""
    whole = build_book(3, tmp_path / "whole.npz", width=5, height=4, tt_bits=16)
    out = tmp_path / "book.npz"
    seen = []

    def stop_after_ten(done, total):
        seen.append(done)
        if done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_book(3, out, width=5, height=4, tt_bits=16, progress=stop_after_ten)
    partial = tmp_path / "book.npz.partial"
    assert partial.exists() and not out.exists()
    with np.load(partial) as z:
        assert len(z["keys"]) == 10
    resumed_from = []
    book = build_book(3, out, width=5, height=4, tt_bits=16, jobs=2,
                      progress=lambda done, total: resumed_from.append(done))
    assert resumed_from[0] == 10 and resumed_from[-1] == len(positions_at(3, 5, 4))
    assert _same_book(book, whole) and _same_book(Book.load(out), whole)
    assert not partial.exists()


def test_deeper_book_keeps_the_engine_lines_of_the_book_before(tmp_path):
    out = tmp_path / "book.npz"
    build_book(1, out, width=4, height=4, tt_bits=16)
    lines = build_lines(4, out, tt_bits=16)
    deeper = build_book(2, out, width=4, height=4, tt_bits=16, base=lines)
    assert deeper.depth == 2 and deeper.lines_ply == 4
    for board in positions_at(2, 4, 4):
        assert lines.get(board) in (None, deeper.get(board))
    stored = [k for k, m in zip(lines.keys.tolist(), lines.moves.tolist()) if m >= 0]
    assert stored and all(deeper.moves[np.searchsorted(deeper.keys, np.uint64(k))] >= 0
                          for k in stored)


def test_main_line_is_stored_whole_with_best_moves(tmp_path):
    """The line of perfect play from the empty board (the engine against itself) is kept move
    by move: each position's stored move keeps its exact score, to the end of the game."""
    out = tmp_path / "book.npz"
    build_book(2, out, width=4, height=4, tt_bits=16)
    book, line = build_main_line(20, out, tt_bits=16)
    assert Book.load(out).best_move(Connect4Board(4, 4)) == book.best_move(Connect4Board(4, 4))
    solver = Solver(4, 4, tt_bits=16)
    board = Connect4Board(4, 4)
    for col in line:
        score, stored = book.best_move(board)
        scores = solver.analyze(board)
        assert stored == col and score == max(scores) == scores[col]
        board.push(col)
    assert board.is_game_over() or board.ply > 20


def test_book_command_keeps_a_deeper_book_and_its_main_line(tmp_path):
    """Asking for a shallower depth than the book at --out has keeps that book (its depth and
    every entry); --main-line on the shipped book finds its main line stored."""
    import shutil
    from boardai.solvers.connect4.book import BOOK_PATH
    out = tmp_path / "book.npz"
    shutil.copy(BOOK_PATH, out)
    before = Book.load(out)
    res = CliRunner().invoke(main, ["book", "connect4", "--depth", "1", "--main-line", "41",
                                    "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert f"up to {before.depth} stones" in res.output
    assert _same_book(Book.load(out), before)


def test_book_command_interrupted_says_how_to_resume(tmp_path, monkeypatch):
    import boardai.solvers.connect4.book as book_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(book_module, "build_book", interrupted)
    out = tmp_path / "book.npz"
    res = CliRunner().invoke(main, ["book", "connect4", "--depth", "4", "--out", str(out), "-q"])
    assert res.exit_code == 130 and "run the same command to resume" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("content", [b"", b"not a book at all", b"PK\x03\x04 truncated zip"])
def test_corrupt_book_is_refused(tmp_path, content):
    path = tmp_path / "book.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="not a Connect Four book"):
        Book.load(path)
    res = CliRunner().invoke(main, ["book", "connect4", "--depth", "1", "--out", str(path)])
    assert res.exit_code == 2 and "is not a book" in res.output and "Traceback" not in res.output


def test_book_with_arrays_that_disagree_is_refused(tmp_path):
    path = tmp_path / "book.npz"
    np.savez(path, keys=np.arange(3, dtype=np.uint64), scores=np.zeros(2, dtype=np.int8),
             width=7, height=6, depth=1)
    with pytest.raises(ValueError, match="not a Connect Four book"):
        Book.load(path)
    np.savez(path, keys=np.arange(2, dtype=np.uint64), scores=np.array([1, 99], dtype=np.int8),
             width=7, height=6, depth=1)
    with pytest.raises(ValueError, match="impossible scores"):
        Book.load(path)


def test_engine_lines_hold_a_best_move_for_every_position_the_engine_meets(tmp_path):
    out = tmp_path / "book.npz"
    build_book(2, out, width=5, height=4, tt_bits=16)
    book = build_lines(6, out, tt_bits=16)
    assert Book.load(out).lines_ply == 6 and not (tmp_path / "book.npz.lines.partial").exists()
    solver = Solver(5, 4, tt_bits=16)
    rng = random.Random(5)
    for game in range(16):                      # the engine plays Black, then White
        board = Connect4Board(5, 4)
        while not board.is_game_over() and board.ply <= 6:
            if board.ply % 2 == game % 2:
                score, column = book.best_move(board)
                scores = solver.analyze(board)
                assert score == max(scores) == scores[column] == book.get(board)
                board.push(column)
            else:
                board.push(rng.choice(list(board.legal_moves)))


def test_shipped_book_is_consistent_with_its_children():
    book = shipped_book()
    assert book is not None, "the package ships boardai/data/connect4_book.npz"
    for depth in range(book.depth):
        for board in positions_at(depth)[:5]:
            children = []
            for c in board.legal_moves:
                child = board.copy()
                child.push(c)
                won = child.is_game_over()
                children.append(22 - (depth // 2 + 1) if won else -book.get(child))
            assert book.get(board) == max(children)


def test_shipped_book_knows_the_solution_of_connect_four():
    """The published solution (Allis, Allen; Pons' solver prints the same scores): the first
    player wins by starting in the centre, draws next to it, loses elsewhere."""
    book = shipped_book()
    empty = Connect4Board()
    assert book.get(empty) == 1
    scores = []
    for c in range(7):
        child = empty.copy()
        child.push(c)
        scores.append(-book.get(child))
    assert scores == [-2, -1, 0, 1, 0, -1, -2]


# --- the engine -------------------------------------------------------------------------------
def test_solver_engine_plays_a_best_scoring_move():
    engine = make_engine("solver:book=0,tt_bits=18")
    for board in positions(21, 7, 6, empties=14, count=4):
        result = engine.analyse(board)
        scores = solver_for(7, 6).analyze(board)
        assert result.info["exact"] is True
        assert scores[result.move] == max(scores)
        assert result.info["scores"] == {str(c + 1): s for c, s in enumerate(scores) if s != FULL_COLUMN}


@pytest.mark.parametrize("seed", [31, 32])
def test_best_move_keeps_the_exact_score(seed):
    solver = solver_for(7, 6)
    for board in positions(seed, 7, 6, empties=16, count=6):
        score, column = solver.best_move(board)
        scores = solver.analyze(board)
        assert score == solver.solve(board) == max(scores)
        assert scores[column] == score
        # centre first among the columns that keep the score
        order = [c for c in solver.order.tolist() if scores[c] == score]
        assert column == order[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 9), size=st.sampled_from([(7, 6), (5, 4), (4, 4)]))
def test_best_move_matches_exhaustive_search(seed, size):
    w, h = size
    board = positions(seed, w, h, empties=8, count=1)[0]
    score, column = solver_for(w, h).best_move(board)
    assert score == exhaustive(board)
    child = board.copy()
    child.push(column)
    if child.is_game_over():
        won = child.outcome().winner is not None
        assert score == (solver_for(w, h).win_score(board.ply) if won else 0)
    else:
        assert -exhaustive(child) == score


def test_solver_engine_plays_from_the_search_past_the_book():
    engine = make_engine("solver:book=0,tt_bits=18")
    for board in positions(22, 7, 6, empties=14, count=3):
        result = engine.play(board)
        scores = solver_for(7, 6).analyze(board)
        assert result.info["exact"] is True and scores[result.move] == max(scores)
        assert result.info["score"] == max(scores)


def test_solver_engine_takes_the_fastest_win():
    board = Connect4Board.from_position("445566")            # 3 and 7 both win at once
    move = make_engine("solver:tt_bits=16").play(board).move
    board.push(move)
    assert board.outcome().winner is not None


def test_solver_engine_on_hex_answers_a_legal_move():
    from boardai.games import make_board

    board = make_board("hex", 3)
    result = make_engine("solver:time=0.3,seed=1").play(board)
    assert board.is_legal(result.move)
    assert "exact" in result.info



def test_solver_engine_falls_back_to_mcts_when_the_search_runs_out_of_time():
    board = Connect4Board.from_position("44")
    result = make_engine("solver:book=0,tt_bits=16,time=0.3,seed=2").play(board)
    assert board.is_legal(result.move)
    assert result.info["exact"] is False and "mcts" in result.info["fallback"]
