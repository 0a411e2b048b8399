"""Hex's description: the game's facts that front-ends, records, the arena and the engines read."""

from __future__ import annotations

from boardai.games.game import Evaluator, Game, PlayoutSwitch, RecordRules
from boardai.games.hex import eval as hex_eval
from boardai.games.hex import patterns as hex_patterns
from boardai.games.hex.board import CONNECTION, HexBoard
from boardai.games.hex.notation import SWAP_SPELLINGS
from boardai.games.layout import GAME_HEX


def _one_stone(width: int, height: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """``hex-1stone``: every first move, one opening per cell (each played with both colours)."""
    return tuple((c,) for c in range(width * height))


HEX = Game(
    name="hex",
    title="Hex",
    kernel_id=GAME_HEX,
    board=HexBoard,
    default_size=(11, 11),
    square_sizes=True,
    end_reasons=(CONNECTION.value,),
    records=RecordRules(gm="11", size_short=True,
                        size_example="SZ[11] (11x11) or SZ[9:7] (9 wide, 7 high)"),
    swap=True,
    swap_spellings=SWAP_SPELLINGS,
    move_hint="c3, C3 or '2 3' (row col from 0)",
    move_example="c3",
    playout_switches=(PlayoutSwitch("bridge", "Hex playouts answer bridge intrusions (slower per "
                                    "playout, much stronger: docs/experiments.md)", on=1),
                      PlayoutSwitch("edge", "with bridge: Hex playouts also answer intrusions "
                                    "into a second-row stone's link to its edge (9x9 at 0.3 s: "
                                    "0.71 against edge=0, docs/experiments.md)", on=2)),
    move_patterns=hex_patterns.PATTERNS,
    evaluators=tuple(Evaluator(name, ev, what) for name, (ev, what) in hex_eval.EVALUATORS.items()),
    default_evaluator=hex_eval.DEFAULT,
    eval_aux=hex_eval.neighbours,
    opening_suites={"hex-1stone": _one_stone},
    nn_symmetries=("rot180",),          # the 180-degree turn keeps each side's edges
)
