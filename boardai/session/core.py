"""One game in progress, as every front-end plays it: ``GameCore``.

The terminal game (``boardai play``), the full-screen terminal (``boardai tui``) and the web page
(``boardai serve``) each drive one: it holds the board, who sits on each side (``human`` or an
engine spec, and the engine where the front-end searches in its own process), the move list
with what is known of each move (its time, Black's win-rate after it), the clocks, a
resignation or an engine's fault, the rule of undo, the limit of an engine's move (the one rule,
``engines/budget.py``) and the game's record (written after every change where the game has a
file).  The front-ends keep only what is theirs: how they ask a human and where their
searches run (``session/searches.py`` for the web page; a thread for the full-screen terminal;
the loop itself for ``play``).

The move list and the board stay in step: ``moves[i]`` is the entry of ``board.move_stack[i]``,
whatever sequence of moves, undos and resignations a game goes through
(``tests/test_session_core.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from boardai import records
from boardai.engines.base import Engine, Limit, PlayResult
from boardai.engines.budget import move_limit
from boardai.games.base import Board, Color

HUMAN = "human"


@dataclass
class Seat:
    """A side of the game: a human (``spec`` ``human``) or an engine spec, with its engine where
    the front-end searches in its own process (None where the searches run elsewhere)."""

    spec: str
    engine: Engine | None = None

    @property
    def human(self) -> bool:
        return self.spec == HUMAN


def colour_name(colour: Color) -> str:
    return colour.name.lower()


def move_entry(board: Board, move: int, time_s: float | None = None) -> dict:
    """The move list's entry for ``move`` about to be played on ``board``: ``ply``, ``name``,
    ``color``, ``time_s`` (seconds its side took), ``black_winrate`` (Black's chance after it,
    None: not known)."""
    return {"ply": board.ply + 1, "name": board.move_name(move),
            "color": colour_name(board.turn), "time_s": time_s, "black_winrate": None}


def black_rate(result: PlayResult, mover: Color) -> float | None:
    """Black's win-rate from an engine's answer for ``mover`` (None: the engine gives none)."""
    if result.value is None:
        return None
    mine = (result.value + 1) / 2
    return round(mine if mover == Color.BLACK else 1 - mine, 4)


class GameCore:
    """One game in progress (see the module's docstring).  ``record_path``: where the record is
    written by ``save`` (None: nowhere until a path is given); ``move_time``: the caller's
    seconds per move of an engine whose spec gives none."""

    def __init__(self, board: Board, black: Seat, white: Seat,
                 record_path: Path | None = None, move_time: float | None = None):
        self.board = board
        self.seats = {Color.BLACK: black, Color.WHITE: white}
        self.record_path = None if record_path is None else Path(record_path)
        self.move_time = move_time
        self.moves: list[dict] = []
        replay = board.copy()
        for _ in board.move_stack:
            replay.pop()
        for move in board.move_stack:
            self.moves.append(move_entry(replay, move))
            replay.push(move)
        self.start_rate: float | None = None     # Black's win-rate before any move
        self.clocks = [0.0, 0.0]                 # seconds used by Black, White
        self.turn_started = time.monotonic()
        self.resigned: Color | None = None
        self.fault: str | None = None            # an engine that failed ends the game

    # --- facts ----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.board.is_game_over() or self.resigned is not None or self.fault is not None

    def seat_to_move(self) -> Seat:
        return self.seats[self.board.turn]

    @property
    def humans(self) -> bool:
        return any(s.human for s in self.seats.values())

    def limit(self, engine: Engine) -> Limit:
        """The limit of ``engine``'s next move, by the one rule (``engines/budget.py``)."""
        return move_limit(engine, per_move=self.move_time)

    def clocks_now(self) -> list[float]:
        """Seconds used by each side, the running clock included."""
        clocks = list(self.clocks)
        if not self.over:
            clocks[int(self.board.turn)] += time.monotonic() - self.turn_started
        return clocks

    def result_text(self) -> str | None:
        """How the game ended (None while it goes on)."""
        if self.resigned is not None:
            return f"{self.resigned} resigns; {self.resigned.other} wins"
        if self.fault is not None:
            return self.fault
        outcome = self.board.outcome()
        if outcome is None:
            return None
        return (f"Draw after {outcome.plies} moves" if outcome.winner is None else
                f"{outcome.winner} wins after {outcome.plies} moves")

    # --- changes --------------------------------------------------------------------------
    def _spend_clock(self) -> float:
        return self._spend_clock_of(self.board.turn)

    def play(self, move: int | str, time_s: float | None = None,
             black_winrate: float | None = None) -> int:
        """Play ``move`` (an index or its text) for the side to move; the side's clock stops
        (``time_s``: the seconds to enter, default the clock's).  MoveError, and nothing
        changed, for a bad move."""
        board = self.board
        if isinstance(move, str):
            move = board.parse_move(move)
        if not board.is_legal(move):
            board.push(move)                      # raises MoveError with the reason
        entry = move_entry(board, move)
        board.push(move)
        spent = self._spend_clock_of(board.turn.other)
        entry["time_s"] = round(spent if time_s is None else time_s, 3)
        entry["black_winrate"] = black_winrate
        self.moves.append(entry)
        for seat in self.seats.values():
            if seat.engine is not None:
                seat.engine.notify(board, move)
        return move

    def _spend_clock_of(self, colour: Color) -> float:
        now = time.monotonic()
        spent = now - self.turn_started
        self.clocks[int(colour)] += spent
        self.turn_started = now
        return spent

    def play_result(self, result: PlayResult) -> bool:
        """Apply an engine's answer for the side to move: its move (with its time and Black's
        win-rate), or its resignation; False if it resigned."""
        mover = self.board.turn
        if result.resign or result.move < 0:
            self._spend_clock()
            self.resigned = mover
            return False
        self.play(result.move, black_winrate=black_rate(result, mover))
        return True

    def resign(self) -> None:
        """The side to move resigns."""
        self._spend_clock()
        self.resigned = self.board.turn

    def undo(self) -> int:
        """Back to the last position where a human was to move (one move when no human sits):
        the moves taken back (0: none was played).  A resignation or fault is taken back too."""
        self.resigned = None
        self.fault = None
        taken = 0
        while self.board.move_stack:
            self.board.pop()
            self.moves.pop()
            taken += 1
            if not self.humans or self.seat_to_move().human:
                break
        self.turn_started = time.monotonic()
        return taken

    def set_rate(self, ply: int, rate: float | None) -> None:
        """Black's win-rate after ``ply`` moves (0: before the first), from an analysis."""
        if rate is None or not 0 <= ply <= len(self.moves):
            return
        if ply == 0:
            self.start_rate = rate
        else:
            self.moves[ply - 1]["black_winrate"] = rate

    # --- the record -----------------------------------------------------------------------
    def record(self) -> records.GameRecord:
        """The game's record (a resignation as the result)."""
        rec = records.GameRecord.from_board(self.board, black=self.seats[Color.BLACK].spec,
                                            white=self.seats[Color.WHITE].spec)
        if self.resigned is not None and not self.board.is_game_over():
            rec.result = f"{self.resigned.other.letter}+"
            rec.resigned = self.resigned.letter
        return rec

    def save(self, path: Path | str | None = None, extra: dict | None = None) -> Path:
        """Write the record (atomically) to ``path`` or the game's own file; OSError or
        RecordError when it cannot be written.  ``extra``: root properties of the caller's."""
        path = Path(path or self.record_path)
        rec = self.record()
        if extra:
            rec.extra.update(extra)
        path.parent.mkdir(parents=True, exist_ok=True)
        records.save(rec, path)
        return path

    def close(self) -> None:
        """Close the engines this game holds."""
        for seat in self.seats.values():
            if seat.engine is not None:
                seat.engine.on_info = None
                seat.engine.stop = None
                seat.engine.close()
                seat.engine = None
