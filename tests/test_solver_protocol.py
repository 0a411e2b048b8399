"""Every game's solver player is a ``SolverPlayer`` and answers each of its methods directly."""

from __future__ import annotations

import numpy as np
import pytest

from boardai import solvers
from boardai.games import all_games, get_game
from boardai.solvers.answer import Answer
from boardai.solvers.base import SolverPlayer

# a small position of each game with a solver: (game, size, moves)
POSITIONS = {
    "hex": [(4, ["b2", "c3"]), (5, ["c3", "b4", "d2"])],
    "connect4": [((7, 6), ["4", "4", "3", "5"])],
}


def board_of(game: str, size, moves):
    board = get_game(game).new_board(size)
    for move in moves:
        board.push(board.parse_move(move))
    return board


def cases():
    return [(g, size, moves) for g, positions in POSITIONS.items() for size, moves in positions]


def test_every_game_with_a_solver_has_a_solver_player_and_the_others_none():
    for name in all_games():
        module = solvers.for_game(name)
        if name in POSITIONS:
            assert issubclass(module.Player, SolverPlayer), name
            assert isinstance(module.Player(book=True, tt_bits=None), SolverPlayer)
        else:
            assert module is None, f"{name} has a solver: add a position of it to POSITIONS"


def test_a_player_without_the_two_required_methods_cannot_be_made():
    class Half(SolverPlayer):
        def supports(self, board) -> bool:
            return True

    with pytest.raises(TypeError):
        Half()


@pytest.mark.parametrize("game,size,moves", cases())
def test_the_solver_player_answers_every_protocol_method(game, size, moves):
    board = board_of(game, size, moves)
    player = solvers.for_game(game).Player()
    assert player.supports(board) is True
    player.load(board)
    answer = player.move(board, None, False)
    assert isinstance(answer, Answer) and board.is_legal(answer.move)
    assert answer.value in (-1.0, 0.0, 1.0)
    known = player.known_outcomes(board)
    assert isinstance(known, dict)
    assert all(board.is_legal(m) and v in (-1, 1) for m, v in known.items())
    player.think(board, 0.05)                        # no answer, and the board is untouched
    assert board.move_stack == board_of(game, size, moves).move_stack
    knowledge = player.knowledge(board)
    filled = player.filled(board)
    if player.has_knowledge:
        result, keep = knowledge
        assert result in (-1, 0, 1) and all(board.is_legal(m) for m in keep)
        n = board.width * board.height
        assert isinstance(filled, np.ndarray) and filled.shape == (n,)
        assert set(filled.tolist()) <= {0, 1, 2}
    else:
        assert knowledge is None and filled is None


def test_the_defaults_mean_not_offered():
    """Connect Four's player keeps the defaults beyond supports and move: no table to ask, no
    knowledge, nothing to fill in."""
    board = board_of("connect4", (7, 6), ["4"])
    player = solvers.for_game("connect4").Player()
    assert not player.has_knowledge
    assert player.known_outcomes(board) == {}
    assert player.knowledge(board) is None and player.filled(board) is None
    assert player.think(board, 1.0) is None and player.load(board) is None


def test_hex_knowledge_agrees_with_the_solver_on_a_won_position():
    """Hex's knowledge and move on 4x4 after b2 c3 (White to move): a proven win for the
    side to move by the solver never has the knowledge call it lost."""
    board = board_of("hex", 4, ["b2", "c3"])
    player = solvers.for_game("hex").Player()
    answer = player.move(board, None, False)
    result, _ = player.knowledge(board)
    if answer.value > 0:
        assert result != -1
    else:
        assert result != 1


def test_no_solver_player_is_probed_for_attributes():
    """The MCTS driver and the solver engine call the protocol's methods, never probe them."""
    import inspect

    from boardai.engines import solver as solver_engine
    from boardai.engines.mcts import engine, knowledge, root_solver

    for module in (engine, knowledge, root_solver, solver_engine):
        text = inspect.getsource(module)
        assert "hasattr(" not in text and "getattr(" not in text, module.__name__
