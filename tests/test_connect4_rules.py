"""Connect Four rules: random games, push/pop, win detection against a naive scan, notation,
positions and pictures."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.games import Color, Connect4Board, IllegalMoveError, InvalidMoveError, make_board
from boardai.games.base import Termination
from boardai.games.connect4.board import FOUR_IN_A_ROW
from boardai.games.connect4 import kernel as CK
from boardai.games.layout import GAME_CONNECT4, LAST_MOVE, PLY, POS_LEN, WINNER, zobrist_key

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# 8x7 fills all 64 bits (W*(H+1) = 64), as do 4x15 and 32x1 (1x63 and 2x31: see below)
C4_SIZES = [(7, 6), (4, 4), (5, 4), (8, 7), (1, 1), (2, 2), (3, 3), (6, 7), (9, 5), (10, 5),
            (4, 15), (3, 19), (2, 29), (32, 1), (5, 1)]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.sampled_from(C4_SIZES)


# --- independent reference -----------------------------------------------------------------

def grid(board: Connect4Board) -> list[list[int]]:
    """grid[col][row], row 0 at the bottom: 0 empty, 1 X (Black), 2 O (White)."""
    return [[board.cell(c, r) for r in range(board.height)] for c in range(board.width)]


def fours(g, w: int, h: int, v: int) -> list[list[tuple[int, int]]]:
    """Every line of four cells holding ``v`` (naive scan, all four directions)."""
    out = []
    for c in range(w):
        for r in range(h):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                line = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < w and 0 <= y < h and g[x][y] == v for x, y in line):
                    out.append(line)
    return out


def reference_hash(board: Connect4Board) -> int:
    h = board.height
    value = 0
    for c in range(board.width):
        for r in range(h):
            v = board.cell(c, r)
            if v:
                value ^= int(zobrist_key(GAME_CONNECT4, c * (h + 1) + r, v - 1))
    if board.ply & 1:
        value ^= int(zobrist_key(GAME_CONNECT4, 0, 2))
    return value & ((1 << 64) - 1)


def snapshot(board: Connect4Board):
    s = board.state
    return (s[:s[POS_LEN]].copy().tolist(), board.zobrist_hash(), int(s[WINNER]), int(s[PLY]),
            int(s[LAST_MOVE]), board.move_stack)


def play_random(board: Connect4Board, rng: random.Random, plies: int | None = None) -> None:
    while not board.is_game_over() and (plies is None or board.ply < plies):
        board.push(rng.choice(board.legal_moves))


# --- random games --------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, seed=seeds)
def test_random_games_agree_with_naive_scan(size, seed):
    w, h = size
    board = Connect4Board(w, h)
    rng = random.Random(seed)
    heights = [0] * w
    while not board.is_game_over():
        legal = list(board.legal_moves)
        assert legal == [c for c in range(w) if heights[c] < h]
        assert all(board.is_legal(c) for c in legal)
        col = rng.choice(legal)
        mover = board.turn
        board.push(col)
        heights[col] += 1
        assert board.cell(col, heights[col] - 1) == int(mover) + 1
        assert [board.column_height(c) for c in range(w)] == heights
        assert board.state[LAST_MOVE] == col
        g = grid(board)
        assert sum(v != 0 for column in g for v in column) == board.ply
        mine, theirs = fours(g, w, h, int(mover) + 1), fours(g, w, h, 2 - int(mover))
        assert theirs == []
        outcome = board.outcome()
        if mine:
            assert outcome.winner == mover
            assert outcome.termination is FOUR_IN_A_ROW
            assert outcome.result() == f"{mover.letter}+"
            cells = sorted({cell for line in mine for cell in line})
            assert board.winning_cells() == cells
        elif board.ply == w * h:
            assert outcome.winner is None and outcome.termination is Termination.DRAW
            assert outcome.result() == "0" and outcome.plies == w * h
            assert board.winning_cells() == []
        else:
            assert outcome is None
            assert board.winning_cells() == []
        assert board.zobrist_hash() == reference_hash(board)
    assert list(board.legal_moves) == []
    for c in range(w):
        with pytest.raises(IllegalMoveError, match="over"):
            board.push(c)


@SETTINGS
@given(size=sizes, seed=seeds)
def test_push_pop_restores_exactly(size, seed):
    board = Connect4Board(*size)
    rng = random.Random(seed)
    snaps = [snapshot(board)]
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
        snaps.append(snapshot(board))
    moves = board.move_stack
    while moves:
        assert snapshot(board) == snaps[-1]
        assert board.pop() == moves.pop()
        snaps.pop()
        assert snapshot(board) == snaps[-1]
    assert board.zobrist_hash() == 0 and board.ply == 0
    fresh = CK.new_c4_state(*size)
    assert np.array_equal(board.state[:fresh[POS_LEN]], fresh[:fresh[POS_LEN]])
    with pytest.raises(IndexError):
        board.pop()


@SETTINGS
@given(seed=seeds, data=st.data())
def test_hash_depends_on_position_only(seed, data):
    """Swapping two same-coloured moves in different columns gives the same position and hash."""
    rng = random.Random(seed)
    board = Connect4Board()
    play_random(board, rng, data.draw(st.integers(2, 30)))
    if board.is_game_over():
        board.pop()
    moves = board.move_stack
    if len(moves) < 3:
        return
    i = rng.randrange(len(moves) - 2)
    j = rng.randrange(i + 2, len(moves), 2)
    if moves[i] == moves[j]:
        return
    order = list(moves)
    order[i], order[j] = order[j], order[i]
    try:
        other = Connect4Board.from_moves(order)
    except IllegalMoveError:
        return            # a column filled up in between or a four was made earlier
    if other.is_game_over():
        return
    same = grid(other) == grid(board)
    assert (other.zobrist_hash() == board.zobrist_hash()) == same


def test_transposition_has_the_same_hash():
    a, b = Connect4Board.from_position("1234"), Connect4Board.from_position("3214")
    assert grid(a) == grid(b) and a.zobrist_hash() == b.zobrist_hash()
    c = Connect4Board.from_position("2134")
    assert grid(a) != grid(c) and a.zobrist_hash() != c.zobrist_hash()


def test_known_results():
    assert Connect4Board.from_position("4455667").outcome().winner == Color.BLACK   # row
    assert Connect4Board.from_position("1212121").outcome().winner == Color.BLACK   # column
    assert Connect4Board.from_position("71212121").outcome().winner == Color.WHITE
    # diagonal /: X at (1,0) (2,1) (3,2) (4,3)
    board = Connect4Board.from_position("1223343447")
    assert board.outcome() is None
    board.push("4")
    assert board.outcome().winner == Color.BLACK
    assert board.winning_cells() == [(0, 0), (1, 1), (2, 2), (3, 3)]
    # diagonal \ for X: (4,0) (3,1) (2,2) (1,3)
    diag = Connect4Board.from_position("4332212116")
    assert diag.outcome() is None
    diag.push("1")
    assert diag.outcome().winner == Color.BLACK
    assert diag.winning_cells() == [(0, 3), (1, 2), (2, 1), (3, 0)]


def test_no_wrap_between_columns():
    # X on column 1 rows 4-6 and column 2 row 1: consecutive bits but for the pad row
    board = Connect4Board.from_position("211115171")
    assert [board.cell(0, r) for r in range(6)] == [2, 1, 2, 1, 1, 1]
    assert board.cell(1, 0) == 1
    assert board.outcome() is None
    # the same across the last columns of the full 64-bit 8x7 board
    board = Connect4Board.from_position("87717772747", 8, 7)
    assert board.outcome() is None
    assert [board.cell(6, r) for r in range(7)] == [2, 1, 1, 2, 1, 1, 1]
    assert board.cell(7, 0) == 1


def test_all_64_bits_board_wins_in_the_top_right_corner():
    # 8x7: columns 5-8 filled to height 6 in 2x2 blocks (no four), then Black takes the top row
    # of columns 5-8, the highest cells of the 64-bit word (bits 38 .. 62)
    board = Connect4Board.from_position("565575565868667687877878", 8, 7)
    assert board.outcome() is None
    assert all(board.column_height(c) == 6 for c in range(4, 8))
    board.push_many(list("516273"))
    assert board.outcome() is None
    board.push("8")
    assert board.outcome().winner == Color.BLACK
    assert board.winning_cells() == [(4, 6), (5, 6), (6, 6), (7, 6)]


@pytest.mark.parametrize("size", [(1, 29), (1, 30), (2, 29), (1, 62), (1, 63), (2, 30), (2, 31)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_tall_narrow_boards_have_no_false_wins(size):
    """Boards up to W*(H+1) = 64 are accepted, so 1x63 and 2x31 are legal sizes; their games must
    agree with the naive scan too (has_four's shifts by 2*(H+2) reach 64 bits when H >= 30)."""
    w, h = size
    for seed in range(5):
        board = Connect4Board(w, h)
        rng = random.Random(seed)
        while not board.is_game_over():
            mover = int(board.turn)
            board.push(rng.choice(board.legal_moves))
            found = fours(grid(board), w, h, mover + 1) != []
            assert board.is_game_over() == (found or board.ply == w * h), \
                f"{w}x{h} after {board.position!r}: outcome {board.outcome()}, naive four {found}"


def test_small_boards_always_draw():
    for size in ((1, 1), (2, 2), (3, 3), (3, 2)):
        for seed in range(10):
            board = Connect4Board(*size)
            play_random(board, random.Random(seed))
            assert board.outcome().winner is None
            assert board.outcome().termination is Termination.DRAW
            assert board.ply == size[0] * size[1]


def test_full_board_without_four_is_a_draw():
    # a known 7x6 draw: columns filled in pairs so no line of four appears
    board = Connect4Board()
    order = "121212" "343434" "565656" "212121" "434343" "656565" "777777"
    for i, col in enumerate(order):
        assert board.outcome() is None, (i, board.render())
        board.push(col)
    assert fours(grid(board), 7, 6, 1) == [] and fours(grid(board), 7, 6, 2) == []
    outcome = board.outcome()
    assert outcome.winner is None and outcome.termination is Termination.DRAW
    assert str(outcome) == "Draw after 42 moves"


# --- notation and errors -------------------------------------------------------------------

@pytest.mark.parametrize("size", C4_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_notation_round_trips(size):
    w, h = size
    board = Connect4Board(w, h)
    for col in range(w):
        assert board.move_name(col) == str(col + 1)
        assert board.parse_move(str(col + 1)) == col
        assert board.parse_move(f" {col + 1} ") == col
    for bad in ("0", str(w + 1), "x", "", " ", "-1", "1.0", "+1", "1 2", "a", "4a", "1e1"):
        with pytest.raises(InvalidMoveError):
            board.parse_move(bad)


def test_unicode_superscript_is_an_invalid_move_not_a_crash():
    """'²'.isdigit() is True but int('²') fails: the error must still be InvalidMoveError."""
    board = Connect4Board()
    for text in ("\u00b2", "\u2460"):          # superscript two, circled one
        with pytest.raises(InvalidMoveError):
            board.push(text)
        assert text not in board.legal_moves
    with pytest.raises(InvalidMoveError):
        Connect4Board.from_position("4\u00b2")


@pytest.mark.parametrize("text", ["0", "8", "x", "", "77", "-3", "four"])
def test_bad_text_raises_invalid_move_and_leaves_board(text):
    board = Connect4Board.from_position("4453")
    before = board.state.copy()
    with pytest.raises(InvalidMoveError) as info:
        board.push(text)
    assert isinstance(info.value, ValueError)
    assert "1-7" in str(info.value)
    assert np.array_equal(board.state, before) and board.position == "4453"


def test_full_column_and_finished_game_raise_illegal():
    board = Connect4Board.from_position("444444")
    before = board.state.copy()
    with pytest.raises(IllegalMoveError, match="full"):
        board.push("4")
    with pytest.raises(IllegalMoveError):
        board.push(3)
    for bad in (-1, 7, 100):
        with pytest.raises(IllegalMoveError):
            board.push(bad)
    assert np.array_equal(board.state, before) and board.position == "444444"
    assert 3 not in board.legal_moves and "4" not in board.legal_moves
    won = Connect4Board.from_position("1212121")
    before = won.state.copy()
    for col in range(7):
        with pytest.raises(IllegalMoveError, match="over"):
            won.push(col)
        with pytest.raises(IllegalMoveError):
            won.push(str(col + 1))
    assert np.array_equal(won.state, before)
    with pytest.raises(InvalidMoveError):
        won.push(True)


def test_positions():
    assert Connect4Board.from_position("4453").position == "4453"
    assert Connect4Board.from_position("").position == ""
    assert Connect4Board.from_moves("4 4 5 3").position == "4453"
    assert Connect4Board.from_moves([3, 3, 4, 2]).position == "4453"
    assert Connect4Board.from_position("4453").move_stack == [3, 3, 4, 2]
    with pytest.raises(InvalidMoveError):
        Connect4Board.from_position("44x3")
    with pytest.raises(InvalidMoveError):
        Connect4Board.from_position("4480")
    with pytest.raises(IllegalMoveError):
        Connect4Board.from_position("1111111")
    # wide boards write space-separated columns, which from_moves reads back
    wide = Connect4Board.from_moves([9, 0, 9], 10, 5)
    assert wide.position == "10 1 10"
    assert Connect4Board.from_moves(wide.position, 10, 5).move_stack == [9, 0, 9]


@SETTINGS
@given(size=sizes, seed=seeds, data=st.data())
def test_position_round_trips(size, seed, data):
    w, h = size
    board = Connect4Board(w, h)
    play_random(board, random.Random(seed), data.draw(st.integers(0, w * h)))
    again = Connect4Board.from_moves(board.position, w, h)
    assert again == board
    assert again.zobrist_hash() == board.zobrist_hash()
    if w <= 9:
        assert Connect4Board.from_position(board.position, w, h) == board


def test_bad_sizes():
    for w, h in ((0, 6), (7, 0), (33, 7), (64, 1), (1, 64), (2, 33)):
        with pytest.raises(ValueError):
            Connect4Board(w, h)
    assert Connect4Board(9, 7).size_text == "9x7"          # line-word layout since round 2
    assert Connect4Board(1, 63).size_text == "1x63"        # still one word
    with pytest.raises(ValueError):
        make_board("connect4", "7x6", swap=True)
    assert make_board("c4", "8x7").size_text == "8x7"


# --- pictures ------------------------------------------------------------------------------

def test_picture_midgame(golden):
    board = Connect4Board.from_position("44536")
    text = board.render()
    assert "(X)" in text
    golden("connect4_7x6_midgame.txt", text)
    assert "(" not in board.render(mark_last=False)


def test_picture_won(golden):
    board = Connect4Board.from_position("4455667")
    text = board.render()
    assert "(x)" in text and text.count("x") == 4
    golden("connect4_7x6_won.txt", text)


def test_picture_won_color(golden):
    board = Connect4Board.from_position("4455667")
    text = board.render(color=True)
    assert "\x1b[" in text
    golden("connect4_7x6_won_color.txt", text)


def test_picture_wide_board(golden):
    golden("connect4_10x5.txt", Connect4Board.from_moves([9, 0, 9], 10, 5).render())
