"""The board as drawn (``Board.view`` and its spot methods), which the web page and the
full-screen terminal draw from: every game, every size, blocked cells, a property over random
games that where a move says its stone will land is where it stands after it is played."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from boardai.games import all_games, get_game
from boardai.games.connect4.board import Connect4Board
from boardai.games.hex.board import HexBoard


def _random_board(game: str, seed: int):
    rng = random.Random(seed)
    rules = get_game(game)
    if game == "connect4":
        w, h = rng.randint(4, 12), rng.randint(4, 12)
        blocked = [(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randint(0, 2))]
        board = Connect4Board(w, h, blocked=blocked)
    elif game == "hex":
        board = HexBoard(rng.randint(2, 9))
    else:
        board = rules.new_board()
    return board, rng


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(all_games())), seed=st.integers(0, 10**6))
def test_a_move_lands_where_its_spot_says(game, seed):
    board, rng = _random_board(game, seed)
    while not board.is_game_over():
        moves = [m for m in board.legal_moves if board.spot_of(m) is not None]
        if not moves:
            break
        move = rng.choice(moves)
        x, y = board.spot_of(move)
        assert board.spot(x, y) == 0
        assert board.move_at(x, y) == move
        colour = 1 + int(board.turn)
        board.push(move)
        assert board.last_spot() == (x, y)
        assert board.spot(x, y) == colour
        assert board.move_at(x, y) in (None, move if board.drops else None)
    view = json.loads(json.dumps(board.view()))
    assert view["over"] == board.is_game_over()
    for x, y in view["win"]:
        assert view["spots"][y][x] == 1 + ["black", "white"].index(view["winner"])
    stones = sum(v in (1, 2) for row in view["spots"] for v in row)
    assert stones == board.ply


def test_connect4_spots_count_rows_from_the_top_and_show_blocked_cells():
    board = Connect4Board(7, 6, blocked=[(3, 1)])
    board.push_many("4 4 4")
    view = board.view()
    column = [view["spots"][y][3] for y in range(6)]
    assert column == [0, 0, 1, 2, 3, 1]          # top to bottom: the stone above the no-go cell
    assert view["row_labels"] == ["6", "5", "4", "3", "2", "1"]
    assert view["col_labels"] == [str(c) for c in range(1, 8)]
    assert view["last"] == [3, 2] and view["drops"] and view["shape"] == "grid"
    assert board.move_at(3, 0) == 3 and board.spot_of(3) == (3, 1)


def test_hex_view_marks_the_winning_chain():
    board = HexBoard.from_moves("b1 a1 b2 c1 b3", 3)
    view = board.view()
    assert view["shape"] == "hex" and view["winner"] == "black" and view["over"]
    assert view["win"] == [[1, 0], [1, 1], [1, 2]]
    assert view["col_labels"] == ["a", "b", "c"] and view["row_labels"] == ["1", "2", "3"]
    assert board.move_at(0, 0) is None            # taken


def test_hex_swap_has_no_spot():
    board = HexBoard(5, swap=True)
    board.push("c3")
    assert board.spot_of(board.swap_move) is None
    board.push("swap")
    assert board.last_spot() is None
    assert sum(v != 0 for row in board.view()["spots"] for v in row) == 1


@pytest.mark.parametrize("x,y", [(-1, 0), (0, -1), (99, 0), (0, 99)])
def test_clicks_off_the_board_make_no_move(x, y):
    for board in (HexBoard(5), Connect4Board(), get_game("tictactoe").new_board()):
        assert board.move_at(x, y) is None
