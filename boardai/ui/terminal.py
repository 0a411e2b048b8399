"""``boardai play``: a game in the terminal between humans and engines, recorded as it goes.

The loop asks humans for moves (``c3``, ``C3``, ``2 3``, ``4`` in Connect Four, ``swap``, ``undo``,
``hint``, ``save FILE``, ``help``, ``quit``), asks engines through the engine protocol, and writes
the game record after every move, so a crash or Ctrl-C never loses a game.  The game itself
(board, seats, move list, clocks, undo, record, a move's limit) is the session core every
front-end drives (``boardai/session/core.py``); this module asks and prints.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
from pathlib import Path
from typing import Callable, TextIO

from boardai.engines.base import Limit
from boardai.engines.registry import make_engine
from boardai.games import Board, Color, MoveError, game_of
from boardai.session.core import GameCore, Seat

HELP = """Commands:
  <move>       play a move: {example}
  swap         take over Black's first stone (swap rule, White's first move only)
  undo         take back your last move (and the machine's answer)
  hint         ask the opponent's engine (or mcts) for a suggestion
  save FILE    save the game record to FILE
  help         this list
  quit         stop (the game record is kept)"""


def use_color(no_color: bool, stream: TextIO) -> bool:
    """Colour only on a terminal, and never with --no-color or NO_COLOR set."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def default_record_path(game: str) -> Path:
    """Where games are recorded when no --save is given ($BOARDAI_HOME or ~/.local/share)."""
    home = os.environ.get("BOARDAI_HOME")
    if home:
        base = Path(home)
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "boardai"
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "games" / f"{stamp}-{game}.sgf"


def make_seat(spec: str, seed: int | None = None, colour: int = 0) -> Seat:
    """A seat from ``human`` or an engine spec; --seed goes to engines that take one."""
    spec = spec.strip()
    if spec.lower() == "human":
        return Seat("human", None)
    engine = make_engine(spec)
    if seed is not None and "seed" in engine.opts and engine.opts.get("seed") is None:
        engine = make_engine(spec, seed=seed + colour)
    return Seat(spec, engine)


class TerminalGame:
    """One game at the terminal.  ``input_fn``/``out`` are swappable for tests."""

    def __init__(self, board: Board, black: Seat, white: Seat, record_path: Path,
                 color: bool = False, input_fn: Callable[[str], str] = input,
                 out: TextIO = sys.stdout, move_time: float | None = None):
        # move_time: seconds per move of an engine whose spec gives none
        self.core = GameCore(board, black, white, record_path, move_time)
        self.color = color
        self.input_fn = input_fn
        self.out = out
        for seat in self.seats.values():
            if seat.engine is not None:
                seat.engine.new_game(board)

    @property
    def board(self) -> Board:
        return self.core.board

    @property
    def seats(self) -> dict[Color, Seat]:
        return self.core.seats

    @property
    def record_path(self) -> Path:
        return self.core.record_path

    @property
    def move_time(self) -> float | None:
        return self.core.move_time

    def limit(self, engine) -> Limit:
        """The limit of ``engine``'s next move, by the one rule (``engines/budget.py``)."""
        return self.core.limit(engine)

    # --- output -------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self) -> None:
        self.say(self.board.render(color=self.color))

    def side_name(self, colour: Color) -> str:
        return game_of(self.board).side_name(colour)

    # --- record -------------------------------------------------------------------------
    def save(self, path: Path | None = None) -> Path:
        return self.core.save(path)

    # --- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or a human quits; returns the exit status (0)."""
        self.show()
        self.warm_engines()
        while not self.board.is_game_over():
            seat = self.seats[self.board.turn]
            if seat.human:
                if not self.human_turn():
                    path = self.save()
                    self.say(f"Game stopped after {self.board.ply} moves; record saved to {path}")
                    return 0
            elif not self.machine_turn(seat):
                path = self.save()
                self.say(f"{self.board.turn.other} wins: {self.board.turn} resigned after "
                         f"{self.board.ply} moves")
                self.say(f"Game record: {path}")
                return 0
            self.save()
        outcome = self.board.outcome()
        assert outcome is not None
        self.show()
        if outcome.winner is None:
            self.say(f"Draw after {outcome.plies} moves")
        else:
            self.say(f"{outcome.winner} wins after {outcome.plies} moves")
        self.say(f"Game record: {self.save()}")
        return 0

    def warm_engines(self) -> None:
        """Load (on a cold cache: compile, saying so) each engine's search before the first
        move, so no move's time goes to the compiler."""
        from boardai.warmup import warm_engine
        if self.board.is_game_over():
            return
        for seat in self.seats.values():
            if seat.engine is not None:
                warm_engine(seat.engine, self.board)

    def machine_turn(self, seat: Seat) -> bool:
        """Ask the engine for a move and play it; False if it resigned."""
        colour = self.board.turn
        assert seat.engine is not None
        result = seat.engine.play(self.board.copy(), self.limit(seat.engine))
        if not self.core.play_result(result):
            self.say(f"{self.side_name(colour)} [{seat.spec}] resigns")
            return False
        self.say(f"{self.side_name(colour)} [{seat.spec}] plays {result.name}  "
                 f"({result.time_s:.2f} s)")
        self.show()
        return True

    def _example(self) -> str:
        return game_of(self.board).hint(self.board)

    def human_turn(self) -> bool:
        """Ask until a move is played; False when the human quits."""
        colour = self.board.turn
        prompt = f"{self.side_name(colour)} to move (help for commands): "
        while True:
            try:
                line = self.input_fn(prompt)
            except EOFError:
                self.say("")
                return False
            text = line.strip()
            word = text.lower().split(" ", 1)[0] if text else ""
            if not text:
                self.say(f"  Type a move ({self._example()}) or help.")
            elif word in ("quit", "exit", "q"):
                return False
            elif word in ("help", "?", "h"):
                self.say(HELP.format(example=self._example()))
            elif word == "undo":
                self.undo()
            elif word == "hint":
                self.hint()
            elif word == "save":
                self.save_as(text[4:].strip())
            else:
                try:
                    self.core.play(text)
                except MoveError as exc:
                    self.say(f"  {exc}")
                    continue
                self.show()
                return True

    def undo(self) -> None:
        me = self.board.turn
        other_is_machine = not self.seats[me.other].human
        steps = 2 if other_is_machine else 1
        if self.board.ply < steps:
            self.say("  Nothing to undo.")
            return
        taken = self.core.undo()          # back to this human's turn
        self.say(f"  Took back {taken} move{'s' if taken > 1 else ''}.")
        self.show()

    def hint(self) -> None:
        me = self.board.turn
        opponent = self.seats[me.other]
        engine = opponent.engine or make_engine("mcts:time=0.5")
        result = engine.play(self.board.copy(), self.limit(engine))
        self.say(f"  Hint ({engine.spec}): {result.name}")

    def save_as(self, name: str) -> None:
        if not name:
            self.say("  Give a file name: save FILE")
            return
        try:
            path = self.save(Path(name).expanduser())
        except OSError as exc:
            self.say(f"  Cannot save to {name}: {exc.strerror or exc}")
            return
        self.say(f"  Saved to {path}")


def ask(input_fn: Callable[[str], str], out: TextIO, question: str, default: str,
        check: Callable[[str], object]) -> str:
    """Ask until ``check`` accepts the answer (empty answer = default)."""
    while True:
        out.write(question)
        out.flush()
        answer = input_fn("").strip() or default
        try:
            check(answer)
            return answer
        except ValueError as exc:
            out.write(f"  {exc}\n")
