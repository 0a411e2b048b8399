"""Tic-tac-toe, the worked example of adding a game (``docs/adding_a_game.md``).

Its rules against a plain-Python oracle, the kernel contract of ``games/kernel.py`` on it, and
everything the game gets for free once it is registered: every engine, the arena, GTP, records,
``boardai play`` and numba's on-disk cache.
"""

from __future__ import annotations

import doctest
import itertools
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardai.games.tictactoe.board
from boardai import records
from boardai.arena.game import play_game
from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import (
    Color, IllegalMoveError, InvalidMoveError, Termination, get_game, make_board,
)
from boardai.games import kernel as K
from boardai.games.layout import (
    BLACK, DRAW, GAME_TICTACTOE, HASH, HEADER, LAST_MOVE, NO_WINNER, NUM_ACTIONS, POS_LEN,
    WHITE, WINNER, new_rng,
)
from boardai.games.tictactoe.board import THREE_IN_A_ROW, TicTacToeBoard
from boardai.ui.gtp_server import GtpServer

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SIZES = [(3, 3), (3, 3), (3, 3), (4, 4), (4, 3), (3, 5), (1, 1), (2, 2), (1, 5), (6, 2)]
sizes = st.sampled_from(SIZES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# --- a plain-Python oracle -----------------------------------------------------------------

def lines(w: int, h: int) -> list[tuple[int, ...]]:
    """Every line of three cells on a W×H board (across, down, both diagonals)."""
    out = []
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(3)]
                if all(0 <= y < h and 0 <= x < w for y, x in cells):
                    out.append(tuple(y * w + x for y, x in cells))
    return out


def has_line(cells, w: int, h: int, v: int) -> bool:
    return any(all(cells[i] == v for i in line) for line in lines(w, h))


def random_game(board, rng: random.Random, plies: int = 99):
    while not board.is_game_over() and board.ply < plies:
        board.push(rng.choice(list(board.legal_moves)))
    return board


def snapshot(board):
    return board.state[:board.state[POS_LEN]].copy(), board.move_stack


# --- rules ---------------------------------------------------------------------------------

def game_filling(line: tuple[int, ...], winner: int, w: int = 3, h: int = 3) -> list[int]:
    """Moves in which ``winner`` fills ``line`` last and the other side never makes a line."""
    others = [i for i in range(w * h) if i not in line]
    need = 2 if winner == BLACK else 3
    for spare in itertools.combinations(others, need):
        if not any(set(x) <= set(spare) for x in lines(w, h)):
            break
    if winner == BLACK:
        return [line[0], spare[0], line[1], spare[1], line[2]]
    return [spare[0], line[0], spare[1], line[1], spare[2], line[2]]


@pytest.mark.parametrize("w,h", [(3, 3), (4, 4), (5, 3)])
def test_every_line_wins_for_either_side(w, h):
    all_lines = lines(w, h)
    assert len(all_lines) == {(3, 3): 8, (4, 4): 24, (5, 3): 20}[(w, h)]
    for line in all_lines:
        for winner in (BLACK, WHITE):
            board = make_board("tictactoe", (w, h))
            moves = game_filling(line, winner, w, h)
            board.push_many(moves[:-1])
            assert board.outcome() is None
            board.push(moves[-1])
            outcome = board.outcome()
            assert outcome.winner == Color(winner) and outcome.plies == len(moves)
            assert outcome.termination is THREE_IN_A_ROW
            assert outcome.termination.value == "three in a row"
            assert board.winning_cells() == sorted(line)
            assert board.legal_moves.count() == 0


def test_rows_columns_and_diagonals_by_name():
    for moves, winner in [("a1 a2 b1 b2 c1", BLACK),          # top row
                          ("a1 b1 a2 b2 a3", BLACK),          # column a
                          ("a1 b1 b2 c1 c3", BLACK),          # main diagonal
                          ("a1 c1 a2 b2 c2 a3", WHITE),       # anti-diagonal
                          ("a1 b1 c3 b2 c1 b3", WHITE)]:      # column b
        board = TicTacToeBoard.from_moves(moves)
        assert board.outcome().winner == Color(winner), moves
        assert str(board.outcome()).endswith("(three in a row)")


def test_longer_lines_win_on_larger_boards():
    # Black's fourth stone in a row (a1 b1 _ d1 then c1) completes a line of four
    board = TicTacToeBoard.from_moves("a1 a3 b1 b3 d1 d3 c1", 4, 3)
    assert board.outcome().winner == Color.BLACK
    assert board.winning_cells() == [0, 1, 2, 3]


def test_draw_on_a_full_board():
    board = TicTacToeBoard.from_moves("b2 a1 c1 a3 a2 c2 b1 b3 c3")
    outcome = board.outcome()
    assert outcome.winner is None and outcome.termination is Termination.DRAW
    assert outcome.plies == 9 and outcome.result() == "0"
    assert list(board.legal_moves) == [] and board.winning_cells() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push(0)


def test_a_win_on_the_last_cell_is_a_win_not_a_draw():
    board = TicTacToeBoard.from_moves("a1 b1 c1 b2 b3 a2 c2 a3")
    assert board.outcome() is None
    board.push("c3")                       # fills the board and column c
    assert board.outcome().winner == Color.BLACK


def test_notation():
    board = TicTacToeBoard()
    assert [board.move_name(i) for i in range(9)] == \
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    for i in range(9):
        assert board.parse_move(board.move_name(i)) == i
        assert board.parse_move(board.move_name(i).upper()) == i
        assert board.parse_move(str(i + 1)) == i
        assert board.parse_move(f"  {i + 1} ") == i
    assert board.split_moves("519") == ["5", "1", "9"]
    assert board.split_moves("b2, a1 c3") == ["b2", "a1", "c3"]
    big = TicTacToeBoard(4)                # 16 cells: digits would be ambiguous, so only names
    assert big.parse_move("d4") == 15
    with pytest.raises(InvalidMoveError, match=r"a1\.\.d4"):
        big.parse_move("5")


@pytest.mark.parametrize("move,error,message", [
    ("z9", InvalidMoveError, r"'z9' is not a cell of this 3x3 board: type a cell a1\.\.c3 "
                             r"\(column a-c, then row 1-3 from the top, e.g\. b2\) or a digit 1-9"),
    ("d1", InvalidMoveError, r"'d1' is not a cell"),
    ("a4", InvalidMoveError, r"'a4' is not a cell"),
    ("0", InvalidMoveError, r"a digit 1-9"),
    ("10", InvalidMoveError, r"a digit 1-9"),
    ("", InvalidMoveError, r"'' is not a cell"),
    ("pass", InvalidMoveError, r"'pass' is not a cell"),
    ("b2", IllegalMoveError, r"^b2 is already taken$"),
    ("5", IllegalMoveError, r"^b2 is already taken$"),
    (4, IllegalMoveError, r"^b2 is already taken$"),
    (9, IllegalMoveError, r"9 is not a cell of this 3x3 board: moves are the cells 0-8"),
    (-1, IllegalMoveError, r"-1 is not a cell"),
    (2.0, InvalidMoveError, r"a move is an int or text"),
])
def test_bad_moves_leave_the_board_unchanged(move, error, message):
    board = TicTacToeBoard.from_moves("b2 a1")
    before = snapshot(board)
    with pytest.raises(error, match=message):
        board.push(move)
    after = snapshot(board)
    assert np.array_equal(after[0], before[0]) and after[1] == before[1]
    assert board.state[WINNER] == NO_WINNER


def test_push_many_is_all_or_nothing():
    board = TicTacToeBoard.from_moves("b2")
    before = snapshot(board)
    with pytest.raises(IllegalMoveError):
        board.push_many("a1 c3 a1")
    assert np.array_equal(snapshot(board)[0], before[0]) and board.move_stack == [4]


def test_bad_sizes():
    game = get_game("ttt")
    assert game is get_game("Tic-Tac-Toe") is get_game("noughts-and-crosses")
    assert game.parse_size("4") == (4, 4) and game.parse_size(None) == (3, 3)
    assert make_board("tictactoe", "5x3").size_text == "5x3"
    for size in ("0", "27", "3x0"):
        with pytest.raises(ValueError, match="1..26"):
            make_board("tictactoe", size)
    with pytest.raises(ValueError, match="Tic-tac-toe has none"):
        make_board("tictactoe", "3", swap=True)


def test_render():
    board = TicTacToeBoard.from_moves("a1 b2 c1 a3")
    assert board.render() == "\n".join([
        "    a   b   c",
        " 1  X | . | X",
        "   ---+---+---",
        " 2  . | O | .",
        "   ---+---+---",
        " 3 (O)| . | .",
    ])
    board.push("b1")                        # the winning line in lower case
    assert board.render(mark_last=False).splitlines()[1] == " 1  x | x | x"
    assert "\x1b[" in board.render(color=True)


def test_docstring_examples():
    failures, tried = doctest.testmod(boardai.games.tictactoe.board)
    assert tried > 0 and failures == 0


@SETTINGS
@given(size=sizes, seed=seeds)
def test_random_games_follow_the_rules(size, seed):
    """Along a random game: legal moves are the empty cells, the game ends at the first line
    (won by the side that made it) or on a full board (a draw), and pop takes everything back."""
    w, h = size
    board = make_board("tictactoe", size)
    rng = random.Random(seed)
    history = [(snapshot(board), board.zobrist_hash())]
    while True:
        cells = [int(v) for v in board.cells]
        assert list(board.legal_moves) == ([] if board.is_game_over() else
                                           [i for i in range(w * h) if cells[i] == 0])
        black, white = has_line(cells, w, h, 1), has_line(cells, w, h, 2)
        outcome = board.outcome()
        if black or white:
            assert not (black and white)
            assert outcome.winner == (Color.BLACK if black else Color.WHITE)
            assert outcome.winner == Color((board.ply - 1) & 1)     # the last mover
            break
        if board.ply == w * h:
            assert outcome.winner is None and outcome.termination is Termination.DRAW
            break
        assert outcome is None
        board.push(rng.choice(list(board.legal_moves)))
        history.append((snapshot(board), board.zobrist_hash()))
    while history:
        (prefix, moves), key = history.pop()
        assert np.array_equal(snapshot(board)[0], prefix) and board.move_stack == moves
        assert board.zobrist_hash() == key
        if history:
            board.pop()
    assert board.zobrist_hash() == 0 and board.state[LAST_MOVE] == -1
    with pytest.raises(IndexError):
        board.pop()


def test_hash_is_a_function_of_the_position():
    a = TicTacToeBoard.from_moves("b2 a1 c3 c1")
    b = TicTacToeBoard.from_moves("c3 c1 b2 a1")
    c = TicTacToeBoard.from_moves("a1 b2 c1 c3")             # same cells, other colours
    assert a.zobrist_hash() == b.zobrist_hash() != c.zobrist_hash()
    d = TicTacToeBoard.from_moves("b2 a1 c3")
    assert a.zobrist_hash() != d.zobrist_hash()
    hexes = make_board("hex", "3")
    hexes.push_many("b2 a1 c3 c1")                          # same cells in another game
    assert hexes.zobrist_hash() != a.zobrist_hash()


# --- the kernel contract (games/kernel.py) on tic-tac-toe ----------------------------------

def position(size, seed: int, plies: int):
    board = make_board("tictactoe", size)
    return random_game(board, random.Random(seed), plies)


def test_new_state_and_header():
    state = K.new_state(GAME_TICTACTOE, 3, 3)
    assert state[NUM_ACTIONS] == 9 and state[WINNER] == NO_WINNER and state[HASH] == 0
    assert state[POS_LEN] == HEADER + 9 and len(state) == HEADER + 27
    assert np.array_equal(state, TicTacToeBoard().state)


@lru_cache(maxsize=None)
def exact_random_result(cells: tuple[int, ...], mover: int) -> tuple[float, float, float]:
    """P(Black wins), P(White wins), P(draw) when both sides play uniformly at random (3x3)."""
    free = [i for i, v in enumerate(cells) if v == 0]
    total = np.zeros(3)
    for i in free:
        nxt = list(cells)
        nxt[i] = mover + 1
        if has_line(nxt, 3, 3, mover + 1):
            total[mover] += 1
        elif len(free) == 1:
            total[DRAW] += 1
        else:
            total += exact_random_result(tuple(nxt), 1 - mover)
    return tuple(total / len(free))


@pytest.mark.parametrize("moves", ["", "b2", "a1 b2", "b2 a1 c3"])
def test_playouts_are_uniformly_random_games(moves):
    board = TicTacToeBoard.from_moves(moves)
    exact = exact_random_result(tuple(int(v) for v in board.cells), board.ply & 1)
    if moves == "":
        assert abs(exact[BLACK] - 737 / 1260) < 1e-12 and abs(exact[DRAW] - 8 / 63) < 1e-12
    count = 20000
    totals = K.playout_batch(board.state, new_rng(11), count)
    for result in (BLACK, WHITE, DRAW):
        p = exact[result]
        sd = (p * (1 - p) / count) ** 0.5
        assert abs(totals[result] / count - p) <= 5 * sd + 1e-9, (moves, totals, exact)


@SETTINGS
@given(size=sizes, seed=seeds, plies=st.integers(0, 30))
def test_playout_quality(size, seed, plies):
    board = position(size, seed, plies)
    state = board.state
    before = state.copy()
    work = np.empty(len(state) + 64, dtype=np.int64)
    winner, length = K.playout_quality(state, new_rng(seed), work)
    assert np.array_equal(state, before)
    if board.is_game_over():
        assert (winner, length) == (int(state[WINNER]), 1)
    else:
        assert winner in (BLACK, WHITE, DRAW)
        assert 2 <= length <= int(K.free_cells(state)) + 1
        if winner == DRAW:
            assert length == int(K.free_cells(state)) + 1
        # the same law and the same stream as playout
        assert winner == K.playout(state, new_rng(seed), work, np.empty(0, np.int64))


@pytest.mark.parametrize("size", [(3, 3), (4, 4), (5, 3), (2, 6)])
def test_winning_moves_agree_with_a_plain_python_oracle(size):
    """(Agreement with playing the move is in test_kernel_contract.py, for every game.)"""
    out = np.empty(size[0] * size[1], dtype=np.int64)
    for seed in range(8):
        board = make_board("tictactoe", size)
        rng = random.Random(seed)
        while not board.is_game_over():
            for colour in (BLACK, WHITE):          # either colour, whoever is to move
                k = K.winning_moves(board.state, colour, out)
                expected = [m for m in board.legal_moves
                            if K.wins_if_played(board.state, m, colour)]
                assert sorted(out[:k].tolist()) == expected
                cells = [int(v) for v in board.cells]
                oracle = [m for m in board.legal_moves
                          if has_line(cells[:m] + [colour + 1] + cells[m + 1:], *size, colour + 1)]
                assert expected == oracle, (board.moves_text(), colour)
            board.push(rng.choice(list(board.legal_moves)))


def mirror(board) -> list[int]:
    w = board.width
    cells = [int(v) for v in board.cells]
    return [cells[(i // w) * w + (w - 1 - i % w)] for i in range(len(cells))]


@SETTINGS
@given(size=sizes, seed=seeds, plies=st.integers(0, 30))
def test_symmetry_hooks(size, seed, plies):
    board = position(size, seed, plies)
    state = board.state
    cells = [int(v) for v in board.cells]
    assert bool(K.position_symmetric(state)) == (cells == mirror(board))
    images = [int(K.symmetric_move(state, m)) for m in range(board.num_actions)]
    assert sorted(images) == list(range(board.num_actions))
    assert all(images[images[m]] == m for m in range(board.num_actions))
    # playing the mirrored moves gives the mirrored position
    image = make_board("tictactoe", size)
    image.push_many([images[m] for m in board.move_stack])
    assert [int(v) for v in image.cells] == mirror(board)
    assert image.state[WINNER] == state[WINNER]


def test_symmetric_positions():
    assert K.position_symmetric(TicTacToeBoard().state)
    assert K.position_symmetric(TicTacToeBoard.from_moves("b2 b1").state)
    assert not K.position_symmetric(TicTacToeBoard.from_moves("a1").state)
    assert not K.position_symmetric(TicTacToeBoard.from_moves("a1 c1").state)   # colours
    assert K.symmetric_move(TicTacToeBoard().state, 0) == 2
    assert K.symmetric_move(TicTacToeBoard().state, 4) == 4


def test_not_a_fill_in_game():
    state = TicTacToeBoard.from_moves("b2").state
    out = np.empty(9, dtype=np.int64)
    assert K.fill_cells(state, out) == -1
    fill = np.empty(len(state), dtype=np.int64)
    with pytest.raises(ValueError, match="fill-in"):
        K.fill_load(state, fill)


def test_evaluator_and_move_prior():
    game = get_game("tictactoe")
    assert [e.name for e in game.evaluators] == ["lines"] and game.default_evaluator == "lines"
    aux = game.eval_aux(3, 3)
    empty = TicTacToeBoard()
    assert K.evaluate(empty.state, 0, aux) == 0.0
    centre = TicTacToeBoard.from_moves("b2")        # White to move, Black holds the centre
    assert K.evaluate(centre.state, 0, aux) < 0
    # White's 4 open windows are worth 1 each; Black's 8: 4 empty (1) and 4 with b2 (2)
    assert K.evaluate(centre.state, 0, aux) == 4 * 1 - (4 * 1 + 4 * 2)
    prior = [int(K.move_prior(empty.state, m)) for m in range(9)]
    assert prior == [3, 2, 3, 2, 4, 2, 3, 2, 3]     # centre, then corners, then edges


def test_an_unknown_game_id_raises():
    state = TicTacToeBoard().state.copy()
    state[0] = 9
    with pytest.raises(ValueError, match="not the id of a game"):
        K.legal_moves(state, np.empty(9, dtype=np.int64))


# --- engines: everything a registered game gets for free -----------------------------------

def test_alphabeta_proves_the_empty_board_a_draw():
    result = make_engine("alphabeta:depth=9").play(TicTacToeBoard(), Limit(depth=9))
    assert result.value == 0 and result.depth == 9
    assert "proven" not in result.info and result.info["score"] == 0
    assert len(result.pv) == 9                        # a whole drawn game
    line = TicTacToeBoard.from_moves(result.pv)
    assert line.outcome().winner is None


def test_minimax_proves_every_first_move_a_draw():
    result = make_engine("minimax:seed=1").play(TicTacToeBoard(), Limit(depth=9))
    assert result.value == 0
    assert sorted(m.name for m in result.moves) == sorted(TicTacToeBoard().legal_moves.names())
    assert all(m.value == 0 for m in result.moves)  # no pruning: every value exact


def test_alphabeta_sees_wins_and_losses():
    # Black to move: a1 b2 would win on c3; proven win in one
    board = TicTacToeBoard.from_moves("a1 b1 b2 c1")
    result = make_engine("alphabeta:depth=9").play(board, Limit(depth=9))
    assert result.name == "c3" and result.value == 1 and result.info["proven"] == "win"
    # White to move facing two threats (Black's b1 and c2): lost whatever it does
    board = TicTacToeBoard.from_moves("a1 b2 c3 a3 c1")
    result = make_engine("alphabeta:depth=9").play(board, Limit(depth=9))
    assert result.value == -1 and result.info["proven"] == "loss"


@pytest.mark.parametrize("black,white", [("random:seed=1", "mcts:sims=2000,seed=1"),
                                         ("mcts:sims=2000,seed=1", "random:seed=2"),
                                         ("alphabeta", "montecarlo:seed=1"),
                                         ("minimax:seed=3", "bruteforce"),
                                         ("solver", "random:seed=3")])
def test_engines_play_legal_games_to_the_end(black, white):
    board = TicTacToeBoard()
    result = play_game(board, make_engine(black), make_engine(white), Limit(time=0.2))
    assert result.detail is None, result.detail
    assert result.reason in ("three in a row", "draw")
    assert board.is_game_over()
    replay = TicTacToeBoard.from_moves(result.moves)
    assert replay.outcome().winner == result.winner


def test_mcts_never_loses_to_random():
    for game in range(10):
        for mcts_colour in (Color.BLACK, Color.WHITE):
            mcts = make_engine(f"mcts:sims=2000,seed={game}")
            rand = make_engine(f"random:seed={game}")
            black, white = (mcts, rand) if mcts_colour is Color.BLACK else (rand, mcts)
            board = TicTacToeBoard()
            result = play_game(board, black, white)
            assert result.detail is None
            assert result.winner in (None, mcts_colour), (game, mcts_colour, board.moves_text())


@pytest.mark.parametrize("seed", range(4))
def test_mcts_blocks_an_immediate_threat_and_takes_a_win(seed):
    board = TicTacToeBoard.from_moves("a1 c3 b1")       # Black threatens c1; White to move
    assert make_engine(f"mcts:sims=2000,seed={seed}").play(board).name == "c1"
    board = TicTacToeBoard.from_moves("a1 c3 b1 a3 b2")   # White: b3 wins, c1 only blocks
    assert make_engine(f"mcts:sims=2000,seed={seed}").play(board).name == "b3"


def test_gtp_server_plays_tictactoe():
    server = GtpServer(make_engine("random:seed=1"), "tictactoe")
    assert server.handle("boardsize 3\n") == "=\n\n"
    assert server.handle("play b b2\n") == "=\n\n"
    answer = server.handle("play w z9\n")
    assert answer.startswith("? invalid move: 'z9' is not a cell") and "a1..c3" in answer
    assert server.handle("play w b2\n").startswith("? illegal move: b2 is already taken")
    moves = ["b2"]
    colour = "w"
    while not server.board.is_game_over():
        answer = server.handle(f"genmove {colour}\n")
        assert answer.startswith("= ") and answer.endswith("\n\n")
        moves.append(answer[2:].strip())
        colour = "b" if colour == "w" else "w"
    assert TicTacToeBoard.from_moves(moves).move_stack == server.board.move_stack
    assert server.handle("final_score\n") == f"= {server.board.outcome().result()}\n\n"
    assert server.handle("genmove b\n") == "= resign\n\n"
    assert "  a   b   c" in server.handle("showboard\n")
    assert "game tictactoe" in server.handle("game\n")
    assert server.handle("game ttt\n") == "=\n\n" and server.board.ply == 0


@pytest.mark.parametrize("moves", ["", "b2 a1", "a1 a2 b1 b2 c1", "b2 a1 c1 a3 a2 c2 b1 b3 c3"])
def test_records_round_trip(moves, tmp_path):
    board = TicTacToeBoard.from_moves(moves)
    rec = records.GameRecord.from_board(board, black="mcts", white="random")
    text = records.dumps(rec)
    assert "GM[tictactoe]" in text and "SZ[3]" in text
    back = records.loads(text)
    assert back.game == "tictactoe" and (back.width, back.height) == (3, 3)
    assert back.to_board() == board and back.result == rec.result
    assert back.black == "mcts" and back.white == "random"
    path = tmp_path / "game.sgf"
    records.save(rec, path)
    assert records.load(path).to_board().moves_text() == board.moves_text()
    wide = TicTacToeBoard.from_moves("a1 d3", 4, 3)
    assert "SZ[4:3]" in records.dumps(records.GameRecord.from_board(wide))


def test_records_reject_bad_tictactoe_moves():
    with pytest.raises(records.RecordError, match="already taken"):
        records.loads("(;FF[4]GM[tictactoe]SZ[3];B[b2];W[b2])")
    with pytest.raises(records.RecordError, match="a1..c3"):
        records.loads("(;FF[4]GM[tictactoe]SZ[3];B[z9])")


def test_boardai_play_tictactoe(tmp_path):
    from click.testing import CliRunner

    from boardai.cli import main

    res = CliRunner().invoke(main, ["play", "--game", "tictactoe", "--black", "random",
                                    "--white", "random", "--seed", "1"],
                             env={"BOARDAI_HOME": str(tmp_path), "NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    assert "Black (X) [random] plays" in res.output and "White (O) [random] plays" in res.output
    assert "wins after" in res.output or "Draw after" in res.output
    saved = list((tmp_path / "games").glob("*-tictactoe.sgf"))
    assert len(saved) == 1
    board = records.load(saved[0]).to_board()
    assert board.is_game_over() and board.game_name == "tictactoe"


def test_the_guide_examples_run():
    failures, tried = doctest.testfile(str(ROOT / "docs" / "adding_a_game.md"),
                                       module_relative=False)
    assert tried > 0 and failures == 0
