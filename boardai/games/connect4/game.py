"""Connect Four's description: what front-ends, records, the arena and the engines know of it."""

from __future__ import annotations

import random
import re

import numpy as np

from boardai.games import kernel as K
from boardai.games.connect4 import course, eval as c4_eval
from boardai.games.connect4.board import FOUR_IN_A_ROW, Connect4Board
from boardai.games.base import Termination
from boardai.games.game import Evaluator, Game, PlayoutSwitch, RecordRules
from boardai.games.layout import GAME_CONNECT4


def random_openings(width: int, height: int, seed: int, plies: int = 4) -> tuple[tuple[int, ...], ...]:
    """``c4-random-4``: every distinct ``plies``-move position without an immediate win,
    shuffled by ``seed``."""
    board = Connect4Board(width, height)
    found: dict[int, tuple[int, ...]] = {}
    out = np.empty(board.num_actions, dtype=np.int64)

    def walk(line: list[int]) -> None:
        if board.is_game_over():
            return
        if len(line) == plies:
            if K.winning_moves(board.state, int(board.turn), out) == 0:
                found.setdefault(board.zobrist_hash(), tuple(line))
            return
        for m in list(board.legal_moves):
            board.push(m)
            line.append(m)
            walk(line)
            line.pop()
            board.pop()

    walk([])
    openings = sorted(found.values())
    random.Random(seed).shuffle(openings)
    return tuple(openings)


# --- records: PO[...] holds the position string (Pons' column digits) -----------------------
def _write_props(board: Connect4Board) -> list[tuple[str, str]]:
    return [("PO", board.position)]


def _check_prop(key: str, value: str, board: Connect4Board) -> str | None:
    """PO must be the moves' columns in order (``{prop}`` is the property as written)."""
    text = value.strip()
    if re.search(r"[\s,]", text):
        tokens = text.replace(",", " ").split()
    elif board.width <= 9:
        tokens = list(text)
    else:
        tokens = [text] if text else []
    if not all(t.isdigit() and 1 <= int(t) <= board.width for t in tokens):
        return ("{prop} is not a position: it is the column numbers 1-" f"{board.width} of "
                f"the moves from the empty board, e.g. PO[4453]")
    played = [str(m + 1) for m in board.move_stack]
    if [str(int(t)) for t in tokens] != played:
        expected = board.position
        return ("{prop} " f"does not match the moves ({expected or 'none'}): PO must list "
                f"the moves' columns in order (PO[{expected}]), or leave PO out")
    return None


CONNECT4 = Game(
    name="connect4",
    title="Connect Four",
    kernel_id=GAME_CONNECT4,
    board=Connect4Board,
    aliases=("connect-four", "c4", "connectfour"),
    default_size=(7, 6),
    end_reasons=(FOUR_IN_A_ROW.value, Termination.DRAW.value),
    records=RecordRules(gm="connect4", gm_aliases=("connect-four", "connectfour", "c4"),
                        blocked_prop="NG",
                        size_example="SZ[7:6] (7 columns, 6 rows)", props={"PO": "the position"},
                        write_props=_write_props, check_prop=_check_prop),
    move_hint="a column 1-{width}",
    move_example="4",
    side_labels=("X", "O"),
    playout_switches=(PlayoutSwitch("tactics", "Connect Four playouts take wins and block "
                                    "threats", on=1),
                      PlayoutSwitch("safe", "with tactics, Connect Four playouts keep off the "
                                    "cells right under the opponent's threats unless every "
                                    "column is one (boards past 64 cells, such as the course's)",
                                    on=2),
                      PlayoutSwitch("own", "with tactics, Connect Four playouts also keep off "
                                    "the cells right under their own threats where they can "
                                    "(boards past 64 cells)", on=4),
                      PlayoutSwitch("parity", "with tactics, Connect Four playouts on boards past "
                                    "64 cells end by the zugzwang rule (threat parity) once the "
                                    "position is quiet with few free cells", on=8),
                      PlayoutSwitch("late", "with tactics, Connect Four playouts from at most 50 "
                                    "empty cells only take wins and block threats, whatever "
                                    "else is on (boards past 64 cells: in the late game the "
                                    "safe rule hides forced wins)", on=16),
                      PlayoutSwitch("mix", "with tactics, half the Connect Four playouts (drawn "
                                    "at random) only take wins and block threats, whatever else "
                                    "is on (boards past 64 cells)", on=32)),
    evaluators=tuple(Evaluator(name, ev, what) for name, (ev, what) in c4_eval.EVALUATORS.items()),
    default_evaluator=c4_eval.DEFAULT,
    opening_suites={"c4-random-4": random_openings},
    nn_symmetries=("mirror",),          # left-right: gravity rules out the others
    blocked_cells=True,
    random_size=course.draw_size,
    random_blocked=course.draw_no_go,
    is_random_size=course.is_drawn_size,
    random_what="the Tsinghua course's draw: M rows and N columns uniform in 9..12, one no-go cell "
                "uniform over the board",
)
