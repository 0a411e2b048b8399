"""BoardSetup (games/setup.py): one value for a game's empty board -- its text form round-trips,
it keys dictionaries, it is what the command line, GTP, records and the store say of a board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai import records
from boardai.engines.registry import make_engine
from boardai.games import BoardSetup, game_of
from boardai.ui.gtp_server import GtpServer


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_text_form_round_trips_and_builds_the_board(data):
    game = data.draw(st.sampled_from(["hex", "connect4"]))
    if game == "hex":
        n = data.draw(st.integers(2, 13))
        setup = BoardSetup.of("hex", n, data.draw(st.booleans()))
    else:
        w, h = data.draw(st.integers(4, 12)), data.draw(st.integers(4, 12))
        cells = data.draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)),
                                  max_size=3))
        setup = BoardSetup.of("connect4", (w, h), False, cells)
    again = BoardSetup.parse(setup.text)
    assert again == setup and hash(again) == hash(setup) and {setup: 1}[again] == 1
    assert BoardSetup.from_json(setup.to_json()) == setup
    board = setup.make_board()
    assert BoardSetup.of_board(board) == setup and game_of(board).name == setup.game
    assert (board.width, board.height, tuple(sorted(board.setup))) == \
        (setup.width, setup.height, setup.blocked)


def test_text_form_examples_and_errors():
    assert str(BoardSetup.of("hex", 7, True)) == "hex 7 swap"
    assert str(BoardSetup.of("c4")) == "connect4 7x6"
    assert BoardSetup.parse("Connect4 12x10 blocked 7:3, 4:1").blocked == ((3, 0), (6, 2))
    for bad, words in (("hex", "GAME SIZE"), ("hex 7 sideways", "GAME SIZE"),
                       ("chess 8", "unknown game"), ("connect4 7x6 swap", "has none"),
                       ("hex 4x5 swap", "square"), ("connect4 7x6 blocked 9:1", "off the")):
        with pytest.raises(ValueError, match=words):
            BoardSetup.parse(bad)


def test_options_draw_the_same_board_for_the_same_seed():
    a = BoardSetup.from_options("connect4", "random", "random", rng=random.Random(3))
    b = BoardSetup.from_options("connect4", "random", ["random"], rng=random.Random(3))
    assert a == b and len(a.blocked) == 1 and 9 <= a.width <= 12


def test_gtp_boardsize_clear_board_and_block_cell_make_the_servers_setup():
    server = GtpServer(make_engine("random"), "hex", "5", swap=True)
    assert server.setup == BoardSetup.of("hex", 5, True)
    assert server.handle("boardsize 7") == "=\n\n"
    assert server.setup == BoardSetup.of("hex", 7, True)
    assert server.handle("param_game allow_swap 0") == "=\n\n"
    assert server.handle("play b d4") == "=\n\n" and server.handle("clear_board") == "=\n\n"
    assert server.setup == BoardSetup.of("hex", 7) and not server.board.ply
    assert server.handle("game connect4") == "=\n\n" and server.setup == BoardSetup.of("connect4")
    assert server.handle("block_cell 4 1") == "=\n\n"
    assert server.handle("clear_board") == "=\n\n"
    assert server.setup == BoardSetup.of("connect4", None, False, [(3, 0)])
    assert BoardSetup.of_board(server.board) == server.setup


def test_a_record_says_its_setup():
    board = BoardSetup.of("hex", 5, True).make_board()
    board.push_many("c3 swap")
    rec = records.loads(records.dumps(records.GameRecord.from_board(board)))
    assert rec.setup == BoardSetup.of("hex", 5, True)
    assert rec.to_board().move_stack == board.move_stack
