"""The game session core every front-end drives (boardai/session/core.py): any sequence of moves,
engine answers, resignations and undos keeps the move list, the record and the board in step;
undo goes back to the last position a human was to move; the record reads back as the game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardai import records
from boardai.engines.base import PlayResult
from boardai.games import Color
from boardai.games.setup import BoardSetup
from boardai.session.core import GameCore, Seat

SETUPS = ("hex 4", "hex 3 swap", "connect4 5x4", "connect4 4x4 blocked 2:1", "tictactoe 3")
SEATS = (("human", "human"), ("human", "mcts"), ("mcts", "human"), ("mcts", "mcts"))


def _core(setup: str, seats: tuple[str, str], tmp_path=None) -> GameCore:
    return GameCore(BoardSetup.parse(setup).make_board(), Seat(seats[0]), Seat(seats[1]),
                    record_path=None if tmp_path is None else tmp_path / "g.sgf",
                    move_time=0.5)


def _in_step(core: GameCore) -> None:
    board = core.board
    assert [m["name"] for m in core.moves] == [board.move_name(m) for m in board.move_stack]
    assert [m["ply"] for m in core.moves] == list(range(1, board.ply + 1))
    assert [m["color"] for m in core.moves] == \
        [("black", "white")[i % 2] for i in range(board.ply)]
    rec = core.record()
    replay = records.loads(records.dumps(rec)).to_board()
    assert replay.move_stack == board.move_stack
    assert (rec.resigned is not None) == (core.resigned is not None and not board.is_game_over())


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seats=st.sampled_from(SEATS),
       steps=st.lists(st.tuples(st.sampled_from(("move", "engine", "undo", "resign")),
                                st.integers(0, 10**6), st.floats(-1, 1)), max_size=30))
def test_moves_undos_and_resignations_keep_record_and_board_in_step(setup, seats, steps):
    core = _core(setup, seats)
    for what, pick, value in steps:
        board = core.board
        if what == "undo":
            before = board.ply
            taken = core.undo()
            assert board.ply == before - taken and core.resigned is None
            if before and core.humans:        # back to a human's turn, or to the start
                assert core.seat_to_move().human or board.ply == 0
            if before and not core.humans:
                assert taken == 1
        elif core.over:
            continue
        elif what == "resign":
            core.resign()
            assert core.over and core.result_text().startswith(str(board.turn))
        else:
            moves = board.legal_moves
            move = moves[pick % len(moves)]
            mover = board.turn
            if what == "move":
                core.play(board.move_name(move))
            else:
                assert core.play_result(PlayResult(move, board.move_name(move), value=value))
                rate = core.moves[-1]["black_winrate"]
                assert 0 <= rate <= 1
                assert abs(rate - ((value + 1) / 2 if mover == Color.BLACK
                                   else (1 - value) / 2)) < 1e-3
        _in_step(core)


def test_undo_goes_back_to_the_humans_turn():
    core = _core("hex 4", ("human", "mcts"))
    core.play("b2")
    core.play("c3")
    core.play("a1")
    assert core.undo() == 1 and core.board.ply == 2      # the human takes back a move
    core.play("a1")
    core.play("d4")                                      # the engine's answer
    assert core.undo() == 2 and core.board.ply == 2 and core.seat_to_move().human
    machines = _core("hex 4", ("mcts", "mcts"))
    machines.play("b2")
    machines.play("c3")
    assert machines.undo() == 1 and machines.board.ply == 1
    assert _core("hex 4", ("human", "human")).undo() == 0


def test_an_engine_that_resigns_and_its_record(tmp_path):
    core = _core("hex 4", ("human", "mcts"), tmp_path)
    core.play("b2")
    assert not core.play_result(PlayResult(-1, "resign", resign=True))
    assert core.over and core.resigned == Color.WHITE
    path = core.save(extra={"WEB": "over"})
    rec = records.load(path)
    assert rec.result == "B+" and rec.resigned == "W" and rec.extra["WEB"] == "over"
    assert rec.black == "human" and rec.white == "mcts" and [m for m in rec.moves]
    core.undo()                                          # taking back undoes the resignation
    assert not core.over and core.board.ply == 0


def test_the_clocks_run_for_the_side_to_move_and_stop_at_the_end():
    core = _core("hex 3", ("human", "human"))
    core.play("b2", time_s=1.5)
    assert core.moves[0]["time_s"] == 1.5
    clocks = core.clocks_now()
    assert clocks[0] >= core.clocks[0] and clocks[1] >= 0.0
    core.resign()
    assert core.clocks_now() == core.clocks              # over: nothing runs


def test_a_loaded_board_brings_its_moves():
    board = BoardSetup.parse("connect4 5x4").make_board()
    for m in ("3", "3", "2"):
        board.push(m)
    core = GameCore(board, Seat("human"), Seat("human"))
    assert [m["name"] for m in core.moves] == ["3", "3", "2"]
    assert core.moves[2] == {"ply": 3, "name": "2", "color": "black", "time_s": None,
                             "black_winrate": None}
