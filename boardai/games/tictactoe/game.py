"""Tic-tac-toe's description: what front-ends, records, the arena and the engines know of it.

The smallest filled-in ``Game`` (``games/game.py``), the worked example of
``docs/adding_a_game.md``: no swap rule, no playout policies, no opening suites, one evaluator.
"""

from __future__ import annotations

from boardai.games.base import Termination
from boardai.games.game import Evaluator, Game, RecordRules
from boardai.games.layout import GAME_TICTACTOE
from boardai.games.tictactoe import eval as ttt_eval
from boardai.games.tictactoe.board import THREE_IN_A_ROW, TicTacToeBoard

TICTACTOE = Game(
    name="tictactoe",
    title="Tic-tac-toe",
    kernel_id=GAME_TICTACTOE,
    board=TicTacToeBoard,
    aliases=("tic-tac-toe", "ttt", "noughts-and-crosses"),
    default_size=(3, 3),
    square_sizes=True,
    end_reasons=(THREE_IN_A_ROW.value, Termination.DRAW.value),
    records=RecordRules(gm="tictactoe", gm_aliases=("tic-tac-toe", "ttt"), size_short=True,
                        size_example="SZ[3] (3x3) or SZ[4:3] (4 wide, 3 high)"),
    move_hint="a cell like b2 (column letter, then row 1-{height} from the top), or on 3x3 "
              "a digit 1-9 (row by row from the top left)",
    move_example="b2",
    side_labels=("X", "O"),
    evaluators=tuple(Evaluator(name, ev, what) for name, (ev, what) in ttt_eval.EVALUATORS.items()),
    default_evaluator=ttt_eval.DEFAULT,
    nn_symmetries=("mirror", "flip", "rot180", "transpose", "antitranspose", "rot90",
                   "rot270"),          # the square's 8 (the last four on square boards only)
)
