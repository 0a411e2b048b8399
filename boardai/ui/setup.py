"""Turns ``boardai play`` options (or the answers to its questions) into a ready TerminalGame."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable, TextIO

from boardai import records
from boardai.engines.registry import parse_spec
from boardai.games import get_game
from boardai.games.setup import BoardSetup
from boardai.ui.terminal import Seat, TerminalGame, ask, default_record_path, make_seat
from boardai.warmup import DEFAULT_ENGINE   # noqa: F401  (mcts:time=1; also what `warmup` compiles)



def _check_count(text: str) -> int:
    if text not in ("0", "1", "2"):
        raise ValueError(f"{text!r}: enter 0, 1 or 2")
    return int(text)


def _check_colour(text: str) -> int:
    t = text.strip().lower()
    if t in ("0", "b", "black"):
        return 0
    if t in ("1", "w", "white"):
        return 1
    raise ValueError(f"{text!r}: enter 0 (or b) for Black, 1 (or w) for White")


def _seat_spec(spec: str) -> str:
    """``human`` however it is spelt (``Human``, ``human:``), or the engine spec as given."""
    name, raw = parse_spec(spec)
    if name == "human":
        if raw:
            raise ValueError(f"human takes no options, not {spec!r}")
        return "human"
    return spec


def build_game(game: str, size: str | None, swap: bool, black: str | None, white: str | None,
               seed: int | None, save: str | None, load: str | None, color: bool,
               input_fn: Callable[[str], str] = input, out: TextIO | None = None,
               blocked: tuple[str, ...] = (), move_time: float | None = None) -> TerminalGame:
    """Everything ``boardai play`` needs; raises ValueError/RecordError with a clear message.

    ``size`` may be ``random`` and ``blocked`` ``("random",)`` or ``COL:ROW`` texts (games with
    blocked cells); random draws are seeded by ``seed``.  ``move_time``: the seconds per move
    of an engine whose spec gives no time= (``engines/budget.py``).

    ``out`` defaults to ``sys.stdout`` as it is at the call (not at import: a test runner or a
    caller may have replaced it since)."""
    out = sys.stdout if out is None else out
    record_path = Path(save).expanduser() if save else None
    if load and blocked:
        raise ValueError("--blocked sets up a new board; a loaded record brings its own")
    if load:
        rec = records.load(load)
        board = rec.to_board()
        black = black or rec.black or "human"
        white = white or rec.white or DEFAULT_ENGINE
        seats = (make_seat(_seat_spec(black), seed, 0), make_seat(_seat_spec(white), seed, 1))
        cells = " ".join(get_game(rec.game).blocked_text(rec.blocked))
        out.write(f"Loaded {load}: {rec.game} {rec.width}x{rec.height}"
                  f"{', blocked ' + cells if cells else ''}, {len(rec.moves)} moves\n")
        record_path = record_path or Path(load)
        return TerminalGame(board, seats[0], seats[1], record_path, color, input_fn, out,
                            move_time)

    rules = get_game(game)
    if black is None and white is None:
        out.write("*** Welcome to boardai ***\n")
        default_size = rules.size_text(*rules.play_size_or_default)
        if size is None:
            size = ask(input_fn, out, f"Enter the board size (press enter for {default_size}): ",
                       default_size, lambda s: rules.setup_board(s, (), swap))
        humans = int(ask(input_fn, out, "Enter the number of human players (0, 1 or 2; "
                         "press enter for 0): ", "0", _check_count))
        if humans == 0:
            black = white = DEFAULT_ENGINE
        elif humans == 2:
            black = white = "human"
        else:
            mine = _check_colour(ask(input_fn, out, "Select your colour (Black starts): "
                                     "Black enter 0, White enter 1 (press enter for 0): ", "0",
                                     _check_colour))
            black, white = ("human", DEFAULT_ENGINE) if mine == 0 else (DEFAULT_ENGINE, "human")
    black = black or DEFAULT_ENGINE
    white = white or DEFAULT_ENGINE
    setup = BoardSetup.from_options(rules.name, rules.play_size_or_default if size is None
                                    else size, blocked, swap, random.Random(seed))
    board = setup.make_board()
    if board.setup or (isinstance(size, str) and size.strip().lower() == "random"):
        cells = " ".join(rules.blocked_text(board.setup))
        out.write(f"Board: {board.size_text}{', blocked ' + cells if cells else ''}\n")
    seats: tuple[Seat, Seat] = (make_seat(_seat_spec(black), seed, 0),
                                make_seat(_seat_spec(white), seed, 1))
    return TerminalGame(board, seats[0], seats[1], record_path or default_record_path(game),
                        color, input_fn, out, move_time)
