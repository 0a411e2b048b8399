"""The exact Hex solver against a plain game-tree search, its engine hook and `boardai solve hex`."""

from __future__ import annotations

import json
import threading
import time

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings, strategies as st

from boardai.cli import main
from boardai.games.hex.board import HexBoard
from boardai.solvers.answer import Watch
from boardai.solvers.hex import book as hex_book
from boardai.solvers.hex import openings as hex_openings
from boardai.solvers.hex import player as hex_player
from boardai.solvers.hex import solver as hex_solver
from boardai.solvers.hex.openings import opening_table, solve_openings
from boardai.solvers.hex.player import engine_move
from boardai.solvers.hex.solver import solve

_MEMO: dict = {}


def _nbrs(size):
    out = []
    for r in range(size):
        for c in range(size):
            out.append([(r + dr) * size + c + dc for dr, dc in
                        ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1))
                        if 0 <= r + dr < size and 0 <= c + dc < size])
    return out


def _order(size):
    """Centre first: the cut-off comes sooner (the answer does not depend on it)."""
    return sorted(range(size * size), key=lambda i: abs(2 * (i // size) - size + 1)
                  + abs(2 * (i % size) - size + 1))


def _joined(stones, starts, goal, nbrs):
    todo = [c for c in starts if stones >> c & 1]
    seen = set(todo)
    while todo:
        c = todo.pop()
        if c in goal:
            return True
        for d in nbrs[c]:
            if stones >> d & 1 and d not in seen:
                seen.add(d)
                todo.append(d)
    return False


def _wins(size, own, opp, colour, nbrs, edges):
    """Minimax on bit masks: does ``colour`` (to move, stones ``own``) win?"""
    key = (size, own, opp, colour)
    if key not in _MEMO:
        a, b = edges[colour]
        win = False
        for c in _order(size):
            if not (own | opp) >> c & 1:
                mine = own | 1 << c
                if _joined(mine, a, b, nbrs) or not _wins(size, opp, mine, 1 - colour, nbrs, edges):
                    win = True
                    break
        _MEMO[key] = win
    return _MEMO[key]


def stone_bits(board: HexBoard) -> tuple[int, int]:
    """Black's and White's stones as bit masks (bit i = cell i)."""
    black = sum(1 << i for i, v in enumerate(board.cells) if v == 1)
    white = sum(1 << i for i, v in enumerate(board.cells) if v == 2)
    return black, white


def random_board(data, size: int, most: int | None = None) -> HexBoard:
    """A position reached by up to ``most`` random moves (default: all but two cells), never
    one already won."""
    board = HexBoard(size)
    for _ in range(data.draw(st.integers(0, size * size - 2 if most is None else most))):
        if board.is_game_over():
            break
        board.push(data.draw(st.sampled_from(list(board.legal_moves))))
    if board.is_game_over():
        board.pop()
    return board


def mover_wins(board: HexBoard) -> bool:
    """Ground truth: plain minimax over the whole game tree (no Hex knowledge, memo)."""
    if board.is_game_over():
        return False
    n = board.width
    nbrs = _nbrs(n)
    rows = [set(range(r * n, r * n + n)) for r in (0, n - 1)]
    cols = [set(range(c, n * n, n)) for c in (0, n - 1)]
    black, white = stone_bits(board)
    own, opp = (black, white) if int(board.turn) == 0 else (white, black)
    return _wins(n, own, opp, int(board.turn), nbrs, (rows, cols))


def winning_moves(board: HexBoard) -> list[str]:
    out = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_game_over() or not mover_wins(board):
            out.append(board.move_name(m))
        board.pop()
    return out


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_every_opening_agrees_with_minimax(size):
    openings = solve_openings(size)
    assert len(openings) == size * size
    for name, winner in openings.items():
        board = HexBoard.from_moves(name, size)
        assert winner == ("white" if mover_wins(board) else "black"), name


@settings(max_examples=60, deadline=None)
@given(size=st.integers(2, 4), data=st.data())
def test_random_positions_agree_with_minimax(size, data):
    board = random_board(data, size, size * size - 1)
    result = solve(board)
    expected = board.turn if mover_wins(board) else board.turn.other
    assert result.winner == str(expected).lower()
    assert result.to_move == str(board.turn).lower()
    assert sorted(result.winning_moves) == sorted(winning_moves(board))


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 5), data=st.data())
def test_the_two_word_search_agrees_with_minimax_on_small_boards(size, data):
    """The DFPN compiled for pairs of words (boards of 65-128 cells), run on a small board."""
    board = random_board(data, size, size * size - 1 if size < 5 else None)
    assume(size < 5 or board.ply >= 12)        # plain minimax on 5x5 wants a few stones
    s = hex_solver.Solver(size, size, tt_bits=12, words=2)
    assert s.words == 2
    mover = int(board.turn)
    result = s.run(s.position(board.cells, mover), mover, None)
    assert (result == hex_solver.WIN) == mover_wins(board)


def _nine_by_nine_endgame(data, empty: int) -> HexBoard:
    """A 9x9 position with ``empty`` empty cells and no winner yet, White or Black to move."""
    cells = data.draw(st.permutations(range(81)))
    black, white = list(cells[:41]), list(cells[41:])
    gone_b = (empty + 1) // 2
    keep_b, keep_w = black[gone_b:], white[empty - gone_b:]
    board = HexBoard(9)
    for i in range(len(keep_w)):
        board.push(keep_b[i])
        board.push(keep_w[i])
    if len(keep_b) > len(keep_w):
        board.push(keep_b[-1])
    return board


@settings(max_examples=15, deadline=None)
@given(data=st.data(), empty=st.integers(4, 9))
def test_nine_by_nine_endgames_agree_with_minimax(data, empty):
    """9x9 (two words) positions a few moves before the end: winner and every winning move."""
    try:
        board = _nine_by_nine_endgame(data, empty)
    except ValueError:               # the stones already join one side's edges
        board = None
    assume(board is not None and not board.is_game_over())
    result = solve(board, time_limit=60)
    expected = board.turn if mover_wins(board) else board.turn.other
    assert result.winner == str(expected).lower()
    assert sorted(result.winning_moves) == sorted(winning_moves(board))


@settings(max_examples=25, deadline=None)
@given(size=st.integers(2, 4), data=st.data())
def test_engine_move_plays_a_winning_move_when_there_is_one(size, data):
    board = random_board(data, size)
    answer = engine_move(board, None)
    assert answer is not None
    move, info = answer
    assert board.is_legal(move)
    good = winning_moves(board)
    if good:
        assert board.move_name(move) in good
        assert info["winner"] == str(board.turn).lower()
    else:
        assert info["winner"] == str(board.turn.other).lower()


@pytest.mark.parametrize("table", [True, False], ids=["opening-table", "solved-on-the-spot"])
@pytest.mark.parametrize("size", [2, 3, 4])
def test_engine_swaps_exactly_when_the_opening_wins(size, table, monkeypatch):
    if not table:
        monkeypatch.setattr(hex_openings, "_OPENINGS", {})
    assert bool(hex_openings.opening_table()) == table
    for cell in range(size * size):
        board = HexBoard(size, swap=True)
        board.push(cell)
        move, info = engine_move(board, None)
        opening_wins = not mover_wins(HexBoard.from_moves([cell], size))
        assert (move == board.swap_move) == opening_wins
        assert info["swap"] == opening_wins
        assert info.get("from_table", False) == (table and opening_wins)


def test_shipped_opening_table_matches_the_solver():
    shipped = opening_table()
    assert set(shipped) >= {1, 2, 3, 4, 5, 6}
    assert all(len(shipped[n]) == n * n for n in shipped)
    assert shipped[5] == solve_openings(5)
    # 6x6: Black wins with 24 of 36 openings (all but a1-e1, a2 and their 180-degree images)
    assert sum(v == "black" for v in shipped[6].values()) == 24


def test_book_hex_command_writes_a_table(tmp_path):
    out = tmp_path / "openings.json"
    res = CliRunner().invoke(main, ["book", "hex", "--sizes", "2-3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "3x3: Black wins with" in res.stdout
    data = json.loads(out.read_text())
    assert data["openings"]["2"] == solve_openings(2)
    assert data["openings"]["3"] == solve_openings(3)
    bad = CliRunner().invoke(main, ["book", "hex", "--sizes", "2-9"])
    assert bad.exit_code == 2 and "1 to 8" in bad.stderr


def test_a_stopped_search_leaves_nothing_wrong_for_the_rotated_position():
    """Regression: a table entry shared by a position and its 180-degree image once kept its
    move list in the orientation of whichever stored it, so a stopped search of 6x6 a3 made
    f4 (its image) look lost."""
    s = hex_solver.Solver(6, 6, 18)
    a3 = HexBoard.from_moves("a3", 6)
    r = s.run(s.position(a3.cells, 1), 1, time.perf_counter() + 0.05)   # a slice, then stop
    assert r == hex_solver.UNKNOWN and s.stats[0] > 0
    f4 = HexBoard.from_moves("f4", 6)
    assert s.run(s.position(f4.cells, 1), 1, None) == hex_solver.LOSS    # Black's f4 wins
    assert opening_table()[6]["f4"] == opening_table()[6]["a3"] == "black"


def test_unsolved_in_time_gives_none():
    board = HexBoard(8)
    assert engine_move(board, 1e-9) is None
    assert solve(board, time_limit=1e-9).winner is None


def test_bad_boards_are_refused():
    with pytest.raises(ValueError, match="at most 128 cells"):
        solve(HexBoard(12))
    with pytest.raises(ValueError, match="already over"):
        solve(HexBoard.from_moves("a1 b1 a2", 2))


def run_cli(*args):
    return CliRunner().invoke(main, ["solve", "hex", *args])


def test_cli_all_openings_json():
    res = run_cli("--size", "3", "--all-openings", "--json")
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout.strip().splitlines()[-1])
    assert set(payload["openings"]) == {f"{c}{r}" for c in "abc" for r in (1, 2, 3)}
    for name, winner in payload["openings"].items():
        assert winner == ("white" if mover_wins(HexBoard.from_moves(name, 3)) else "black")
    assert "a1:" in res.stderr                      # progress lines


def test_cli_position_json_and_text():
    res = run_cli("--size", "3", "--moves", "a1", "--json")
    payload = json.loads(res.stdout.strip().splitlines()[-1])
    board = HexBoard.from_moves("a1", 3)
    assert payload["winner"] == ("white" if mover_wins(board) else "black")
    assert sorted(payload["winning_moves"]) == sorted(winning_moves(board))
    text = run_cli("--size", "3", "--moves", "a1").stdout
    assert "wins (white to move)" in text


def test_cli_reports_progress_on_a_long_solve(monkeypatch):
    monkeypatch.setattr(hex_solver, "PROGRESS_EVERY", 0.0)      # every slice
    res = run_cli("--size", "5", "--moves", "a1")
    assert res.exit_code == 0, res.output
    assert "nodes  (proof number" in res.stderr
    assert "wins (white to move)" in res.stdout


@pytest.mark.parametrize("args, message", [
    (("--size", "12"), "1..11"),
    (("--size", "3", "--moves", "zz"), "a1..c3"),
    (("--size", "3", "--moves", "a1", "--all-openings"), "no --moves"),
    (("--size", "3", "--time", "0"), "> 0"),
    (("--size", "2", "--moves", "a1 b1 a2"), "already over"),
])
def test_cli_bad_input(args, message):
    res = run_cli(*args)
    assert res.exit_code == 2
    assert message in res.stderr


@pytest.mark.parametrize("size", [3, 4])
def test_first_move_on_an_empty_board_is_a_winning_opening(size):
    """From the shipped table: a first stone after which White to move loses (checked by brute
    force); with the swap rule on, the table does not choose the first move."""
    move, info = engine_move(HexBoard(size), None)
    assert info["from_table"] and info["winner"] == "black"
    assert not mover_wins(HexBoard.from_moves([move], size))
    assert not engine_move(HexBoard(size, swap=True), None)[1].get("from_table")


@pytest.fixture(scope="module")
def reply_book_4(tmp_path_factory):
    """The 4x4 book of first replies, built from scratch into a temporary file."""
    path = tmp_path_factory.mktemp("replies") / "hex_replies.json"
    assert hex_book.build_reply_book([4], path, checkpoint_every=7) == {4: 0}
    assert hex_book.build_reply_book([4], path, depth=4) == {4: 0}      # deeper, resumed
    return path


def test_reply_book_agrees_with_minimax(reply_book_4):
    """Every entry of the 4x4 book (4 stones deep), checked by brute force: a winning move
    where the side to move wins, null exactly where it loses; every position after 1 or 2
    stones is covered, and every answer to a book move of 1 or 2 stones."""
    entries = hex_book._read_replies(reply_book_4)[4]
    assert {len(k) for k in entries} == {1, 2, 3, 4}
    for key, move in entries.items():
        if len(key) <= 2 and move is not None:
            after = key + (move,)
            for r in range(16):
                if r not in after:
                    assert hex_book._canonical(after + (r,), 16)[0] in entries
    table = opening_table()[4]
    for key, move in entries.items():
        board = HexBoard.from_moves(list(key), 4)
        assert mover_wins(board) == (move is not None), key
        if move is not None:
            board.push(move)
            assert not mover_wins(board), key
    for c in range(16):
        opening = HexBoard(4).move_name(c)
        turned = 15 - c
        if table[opening] == "white":
            assert (c,) in entries or (turned,) in entries
        else:
            assert all((c, r) in entries or (turned, 15 - r) in entries
                       for r in range(16) if r != c)


def test_engine_plays_the_reply_book_in_both_orientations(reply_book_4, monkeypatch):
    """Each won position of the book, and its 180-degree turn, gets a winning move from it."""
    entries = hex_book._read_replies(reply_book_4)[4]
    monkeypatch.setattr(hex_book, "_REPLIES", {4: entries})
    played = 0
    for key, move in entries.items():
        for cells in (list(key), [15 - c for c in key]):
            board = HexBoard.from_moves(cells, 4)
            answer = engine_move(board, None)
            assert bool(answer[1].get("from_book")) == (move is not None)
            if move is not None:
                board.push(answer[0])
                assert not mover_wins(board)
                played += 1
    assert played > 50
    swap = HexBoard(4, swap=True)
    swap.push(5)
    assert hex_book.book_reply(swap) is None


def test_book_hex_replies_command(tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(main, ["book", "hex", "--replies", "--sizes", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "3x3: every position solved" in res.output
    assert json.loads(out.read_text())["positions"]["3"]
    bad = CliRunner().invoke(main, ["book", "hex", "--replies", "--sizes", "8", "--out",
                                    str(tmp_path / "8.json")])
    assert bad.exit_code == 2 and "boardai book hex --sizes 8" in bad.output
    assert not (tmp_path / "8.json").exists()


def test_shipped_reply_book_matches_the_solver():
    """Every shipped entry of 3x3..5x5 is a winning move by the solver; 6x6 and 7x7 are there
    with a move for each of their positions (7x7 to 5 stones, a few of the deepest checked by
    the solver too)."""
    book = hex_book.reply_book()
    for size in (3, 4, 5):
        for key, move in book[size].items():
            board = HexBoard.from_moves(list(key), size)
            assert move is not None
            board.push(move)
            assert solve(board).winner == ("white" if board.turn == 0 else "black"), key
    assert sum(len(k) <= 2 for k in book[7]) == 659 and all(m is not None for m in book[7].values())
    assert max(len(k) for k in book[7]) == 5
    deepest = sorted(k for k in book[7] if len(k) == 5)
    for key in deepest[::len(deepest) // 3][:3]:
        board = HexBoard.from_moves(list(key), 7)
        board.push(book[7][key])
        assert solve(board).winner == ("white" if board.turn == 0 else "black"), key
    assert len(book[6]) > 0


def test_think_settles_positions_as_solve_does():
    """solver.think (the mcts engine's ahead=) solves within its time: its answer agrees with
    solve's (random 4x4 positions, either side to move)."""
    import random
    rng = random.Random(31)
    checked = 0
    for _ in range(6):
        board = HexBoard(4)
        for _ in range(rng.randrange(1, 6)):
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        outcome = hex_solver.think(board, 10.0)
        expected = solve(board)
        mover_wins = expected.winner == ("black" if int(board.turn) == 0 else "white")
        assert outcome == (hex_solver.WIN if mover_wins else hex_solver.LOSS)
        checked += 1
    assert checked >= 3


def test_fixed_slices_make_the_node_count_the_same_every_run():
    """``fixed_slice``: two fresh solvers take exactly the same nodes on the same positions (the
    clock-sized slices of a normal run need not), and reach the same results."""
    boards = [HexBoard.from_moves(m, 6) for m in ("c3", "a2", "a1")]
    counts = []
    for _ in range(2):
        s = hex_solver.Solver(6, 6, tt_bits=16)
        runs = []
        for board in boards:
            n0 = int(s.stats[0])
            r = s.run(s.position(board.cells, int(board.turn)), int(board.turn), None,
                      fixed_slice=7)
            runs.append((r, int(s.stats[0]) - n0))
        counts.append(runs)
    assert counts[0] == counts[1]
    assert all(nodes > 7 for _, nodes in counts[0][:2])      # more than one slice each


def test_solver_engine_warm_up_loads_the_search_for_the_board_kind():
    """The solver engine's warm-up compiles (or loads) the DFPN for the board's kind of set
    (a pair of words on 9x9) and its mcts fallback, so a timed first move spends its time
    searching; the board is left as it was."""
    from boardai.engines.registry import make_engine

    board = HexBoard(9)
    engine = make_engine("solver")
    engine.warm_up(board)
    assert 2 in hex_player._LOADED
    assert engine._mcts is not None
    assert board.ply == 0


def test_move_outcomes_tells_a_watch_each_cell_and_a_stop_ends_the_cells():
    board = HexBoard(4)
    told: dict[int, int] = {}
    out = hex_solver.move_outcomes(board, None, Watch(on_score=told.__setitem__))
    assert told == out and len(out) == 16 and set(out.values()) == {1, -1}
    stop = threading.Event()
    stop.set()
    assert hex_solver.move_outcomes(board, None, Watch(stop=stop)) == {}
