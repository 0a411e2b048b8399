"""The contract every game fulfils: a python-chess-like ``Board`` over a numba kernel.

A game provides two layers:

* a **kernel**: jitted functions over one flat ``int64`` state array (``games/layout.py`` for the
  header, ``games/kernel.py`` for the game-agnostic entry points every search engine uses);
* a **Board** (this module's subclass per game): the mutable face people and the CLI touch.  Moves
  are small ints inside; strings only at the edges (``parse_move`` / ``move_name``).

Invalid text raises ``InvalidMoveError``, a well-formed but illegal move ``IllegalMoveError``;
both are ``ValueError`` subclasses, say what is accepted, and leave the board unchanged.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator, Sequence

import numpy as np

from boardai.games import kernel as K
from boardai.games.layout import BLACK, DRAW, HASH, NO_WINNER, NUM_ACTIONS, PLY, WHITE, WINNER


class MoveError(ValueError):
    """Base of the move errors; the board is unchanged when one is raised."""


class InvalidMoveError(MoveError):
    """The text is not a move in this game's notation."""


class IllegalMoveError(MoveError):
    """The move is well-formed but not allowed in this position."""


class Color(enum.IntEnum):
    """The two sides. Black (first player, ``X`` in Connect Four) moves first."""

    BLACK = BLACK
    WHITE = WHITE

    @property
    def other(self) -> "Color":
        return Color(1 - self)

    @property
    def letter(self) -> str:
        return "B" if self is Color.BLACK else "W"

    def __str__(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> "Color":
        """``b``, ``black``, ``w``, ``white`` in any case (GTP and the CLI)."""
        t = text.strip().lower()
        if t in ("b", "black", "x"):
            return cls.BLACK
        if t in ("w", "white", "o"):
            return cls.WHITE
        raise ValueError(f"unknown colour {text!r}: use b, black, w or white")


class Termination:
    """How a finished game ended, e.g. ``Termination("connection")``: one object per value.

    Each game makes its own win kinds in its folder (``hex.board.CONNECTION``);
    ``Termination.DRAW`` is shared.  ``value`` is the text stored and reported (``arena`` end reasons).
    """

    _made: ClassVar[dict[str, "Termination"]] = {}
    value: str

    def __new__(cls, value: str) -> "Termination":
        made = cls._made.get(value)
        if made is None:
            made = super().__new__(cls)
            made.value = value
            cls._made[value] = made
        return made

    def __repr__(self) -> str:
        return f"Termination({self.value!r})"


Termination.DRAW = Termination("draw")      # type: ignore[attr-defined]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winner`` is None for a draw."""

    winner: Color | None
    termination: Termination
    plies: int

    def result(self) -> str:
        """``B+``, ``W+`` or ``0`` (GTP's final_score, SGF's RE)."""
        return "0" if self.winner is None else f"{self.winner.letter}+"

    def __str__(self) -> str:
        if self.winner is None:
            return f"Draw after {self.plies} moves"
        return f"{self.winner} wins after {self.plies} moves ({self.termination.value})"


class LegalMoves(Sequence[int]):
    """The legal moves of a position, as ints (``in`` also accepts move text)."""

    def __init__(self, board: "Board", moves: np.ndarray):
        self._board = board
        self._moves = moves.tolist()          # python ints, quickly

    def __len__(self) -> int:
        return len(self._moves)

    def __getitem__(self, i):  # type: ignore[override]
        return self._moves[i]

    def __iter__(self) -> Iterator[int]:
        return iter(self._moves)

    def __contains__(self, move) -> bool:  # type: ignore[override]
        if isinstance(move, str):
            try:
                move = self._board.parse_move(move)
            except MoveError:
                return False
        return move in self._moves

    def count(self, value=None) -> int:  # type: ignore[override]
        return len(self._moves) if value is None else int(value in self)

    def names(self) -> list[str]:
        return [self._board.move_name(m) for m in self._moves]

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(self.names())}>"


class Board:
    """A mutable game position with history: ``push``/``pop``, ``legal_moves``, ``outcome()``.

    Subclasses set ``game_name``, ``game_id``, ``win_termination`` and implement notation and
    rendering; the game's description (``games/<game>/game.py``) tells the rest of boardai the
    rest.
    """

    game_name: ClassVar[str]
    game_id: ClassVar[int]
    win_termination: ClassVar[Termination]

    def __init__(self, width: int, height: int, state: np.ndarray):
        self.width = width
        self.height = height
        self._state = state
        self._moves: list[int] = []
        self._buf = np.empty(int(state[NUM_ACTIONS]), dtype=np.int64)

    # --- facts --------------------------------------------------------------------------
    @property
    def state(self) -> np.ndarray:
        """The kernel state array (read it, don't write it: use push/pop)."""
        return self._state

    @property
    def turn(self) -> Color:
        return Color(int(self._state[PLY]) & 1)

    @property
    def ply(self) -> int:
        return int(self._state[PLY])

    @property
    def move_stack(self) -> list[int]:
        """The moves played so far, oldest first (a copy)."""
        return list(self._moves)

    @property
    def num_actions(self) -> int:
        return int(self._state[NUM_ACTIONS])

    @property
    def size_text(self) -> str:
        return f"{self.width}x{self.height}"

    def zobrist_hash(self) -> int:
        return int(self._state[HASH]) & ((1 << 64) - 1)

    def peek(self) -> int | None:
        return self._moves[-1] if self._moves else None

    @property
    def legal_moves(self) -> LegalMoves:
        n = K.legal_moves(self._state, self._buf)
        return LegalMoves(self, self._buf[:n])

    def is_legal(self, move: int) -> bool:
        return bool(K.is_legal(self._state, int(move)))

    def is_game_over(self) -> bool:
        return int(self._state[WINNER]) != NO_WINNER

    def outcome(self) -> Outcome | None:
        """None while the game goes on; otherwise the winner and how."""
        w = int(self._state[WINNER])
        if w == NO_WINNER:
            return None
        if w == DRAW:
            return Outcome(None, Termination.DRAW, self.ply)
        return Outcome(Color(w), self.win_termination, self.ply)

    # --- changing the position ----------------------------------------------------------
    def push(self, move: int | str) -> int:
        """Play a move (an int or its text) for the side to move; returns the move as int."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif isinstance(move, (bool,)) or not isinstance(move, (int, np.integer)):
            raise InvalidMoveError(f"a move is an int or text, not {type(move).__name__}")
        move = int(move)
        if not K.is_legal(self._state, move):
            raise IllegalMoveError(self._illegal_reason(move))
        K.apply_move(self._state, move)
        self._moves.append(move)
        return move

    def pop(self) -> int:
        """Take back the last move and return it."""
        if not self._moves:
            raise IndexError("pop from an empty board: no move to take back")
        K.undo_move(self._state)
        return self._moves.pop()

    def split_moves(self, text: str) -> list[str]:
        """The move names in ``text``: separated by spaces or commas ("c3 d4")."""
        return text.replace(",", " ").split()

    def push_many(self, moves: Iterable[int | str] | str) -> None:
        """Play several moves (ints, names, or one text read by ``split_moves``); on an error
        the board is left as it was before the call."""
        if isinstance(moves, str):
            moves = self.split_moves(moves)
        done = 0
        try:
            for m in moves:
                self.push(m)
                done += 1
        except MoveError:
            for _ in range(done):
                self.pop()
            raise

    def copy(self) -> "Board":
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._state = self._state.copy()
        other._moves = list(self._moves)
        other._buf = np.empty_like(self._buf)
        return other

    # --- notation -----------------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        raise NotImplementedError

    def move_name(self, move: int) -> str:
        raise NotImplementedError

    def moves_text(self) -> str:
        """The history in notation, space separated."""
        return " ".join(self.move_name(m) for m in self._moves)

    def _illegal_reason(self, move: int) -> str:
        if self.is_game_over():
            return "the game is over"
        return f"{self.move_name(move)} is not legal here"

    # --- pictures -----------------------------------------------------------------------
    def render(self, color: bool = False, mark_last: bool = True) -> str:
        raise NotImplementedError

    # --- the board as drawn (web page, full-screen terminal) ------------------------------
    # Spots are (x, y) on the picture: x the column from the left, y the row from the TOP as
    # drawn (Connect Four's bottom row is y = height-1).  Games with row-major cells drawn top
    # row first (Hex, tic-tac-toe) need nothing more; Connect Four overrides the four methods.
    shape: ClassVar[str] = "grid"      # "hex": the rhombus, each row shifted half a cell
    drops: ClassVar[bool] = False      # a click anywhere in a column plays that column
    edges: ClassVar[dict[str, str] | None] = None   # Hex: which sides each colour joins

    def spot(self, x: int, y: int) -> int:
        """0 empty, 1 Black, 2 White, 3 blocked (no stone may stand there).  The default reads
        ``self.cells``, row-major from the top left."""
        return int(self.cells[y * self.width + x])  # type: ignore[attr-defined]

    def spots(self) -> list[list[int]]:
        """Every spot, ``[y][x]`` (the default reshapes ``self.cells`` at once)."""
        cells = getattr(self, "cells", None)
        if cells is None or type(self).spot is not Board.spot:
            return [[self.spot(x, y) for x in range(self.width)] for y in range(self.height)]
        return np.asarray(cells).reshape(self.height, self.width).tolist()

    def move_at(self, x: int, y: int) -> int | None:
        """The legal move a click on spot (x, y) makes, or None."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        move = y * self.width + x
        return move if self.is_legal(move) else None

    def spot_of(self, move: int) -> tuple[int, int] | None:
        """Where ``move``'s stone stands (or would stand); None for a move with no spot (swap)."""
        if 0 <= move < self.width * self.height:
            y, x = divmod(move, self.width)
            return x, y
        return None

    def last_spot(self) -> tuple[int, int] | None:
        """The spot of the last move played (None: no move yet, or a swap)."""
        last = self.peek()
        return None if last is None else self.spot_of(last)

    def winning_spots(self) -> list[tuple[int, int]]:
        """The spots of the winner's chain or line; [] while nobody has won."""
        return []

    def labels(self) -> tuple[list[str], list[str]]:
        """Coordinates as drawn: one label per column (left to right) and per row (top down)."""
        return ([chr(ord("a") + x) for x in range(self.width)],
                [str(y + 1) for y in range(self.height)])

    def view(self) -> dict:
        """Everything a picture of the board needs, JSON-ready (lists, ints, strings)."""
        last = self.last_spot()
        outcome = self.outcome()
        cols, rows = self.labels()
        return {
            "shape": self.shape, "drops": self.drops, "edges": self.edges,
            "width": self.width, "height": self.height,
            "spots": self.spots(),
            "col_labels": cols, "row_labels": rows,
            "last": None if last is None else list(last),
            "win": [list(s) for s in self.winning_spots()],
            "turn": self.turn.name.lower(), "ply": self.ply,
            "over": outcome is not None,
            "winner": None if outcome is None or outcome.winner is None
            else outcome.winner.name.lower(),
            "result": None if outcome is None else str(outcome),
        }

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.size_text}, moves={self.moves_text()!r})"

    @property
    def setup(self) -> tuple:
        """What the board was set up with besides its size (Connect Four: its blocked cells)."""
        return ()

    def __eq__(self, other) -> bool:
        return (type(self) is type(other) and self.width == other.width
                and self.height == other.height and self.setup == other.setup
                and self._moves == other._moves)

    __hash__ = None  # type: ignore[assignment]
