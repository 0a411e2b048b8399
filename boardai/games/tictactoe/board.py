"""``TicTacToeBoard``: the python-chess-like face of tic-tac-toe (rules live in ``kernel.py``).

Cells are named like Hex's: a column letter then a 1-based row counted from the top (``a1`` is
the top-left corner, ``b2`` the centre of 3×3).  A board of at most nine cells also takes a digit
``1``-``9``, the cells counted row by row from the top left (``5`` is ``b2``), and a string of
such digits as a list of moves (``"519"``).  Moves are 0-based cell ints inside.
"""

from __future__ import annotations

import re
from typing import Iterable

from boardai.games.base import Board, Color, IllegalMoveError, InvalidMoveError, Termination
from boardai.games.layout import GAME_TICTACTOE, HEADER, WINNER
from boardai.games.tictactoe import kernel as TK
from boardai.games.tictactoe.render import render_tictactoe

DEFAULT_SIZE = 3
THREE_IN_A_ROW = Termination("three in a row")

_CELL = re.compile(r"^([a-z])(\d+)$", re.ASCII)


class TicTacToeBoard(Board):
    """Tic-tac-toe on W×H (default 3×3; any size 1..26 a side, three in a row wins).

    >>> b = TicTacToeBoard()
    >>> b.push_many("b2 a1 c1 a3 a2 c2 b1 b3 c3")
    >>> b.outcome()
    Outcome(winner=None, termination=Termination('draw'), plies=9)
    >>> b = TicTacToeBoard.from_moves("5 1 9 4 2 7")
    >>> b.moves_text(), b.outcome().winner, b.winning_cells()
    ('b2 a1 c3 a2 b1 a3', <Color.WHITE: 1>, [0, 3, 6])
    """

    game_name = "tictactoe"
    game_id = GAME_TICTACTOE
    win_termination = THREE_IN_A_ROW

    def __init__(self, width: int = DEFAULT_SIZE, height: int | None = None):
        height = width if height is None else height
        for side in (width, height):
            if not isinstance(side, int) or isinstance(side, bool) \
                    or not 1 <= side <= TK.MAX_SIDE:
                raise ValueError(f"a tic-tac-toe board side must be 1..{TK.MAX_SIDE}, "
                                 f"not {side!r}")
        super().__init__(width, height, TK.new_ttt_state(width, height))

    @classmethod
    def from_moves(cls, moves: Iterable[int | str] | str, width: int = DEFAULT_SIZE,
                   height: int | None = None) -> "TicTacToeBoard":
        """A board after ``moves``: ints (0-based cells), names, or one string of them."""
        board = cls(width, height)
        board.push_many(moves)
        return board

    @property
    def cells(self):
        """Per cell (row-major): 0 empty, 1 black (X), 2 white (O) (a read-only view)."""
        view = self._state[HEADER:HEADER + self.width * self.height].view()
        view.flags.writeable = False
        return view

    def cell_color(self, cell: int) -> Color | None:
        v = int(self._state[HEADER + cell])
        return None if v == 0 else Color(v - 1)

    # --- notation -----------------------------------------------------------------------
    @property
    def _digits(self) -> bool:
        """Single digits name cells on boards of at most nine cells."""
        return self.width * self.height <= 9

    def accepted_text(self) -> str:
        """What a person may type, for error messages."""
        last = chr(ord("a") + self.width - 1)
        centre = self.move_name((self.height // 2) * self.width + self.width // 2)
        text = (f"a cell a1..{last}{self.height} (column a-{last}, then row 1-{self.height} "
                f"from the top, e.g. {centre})")
        if self._digits:
            n = self.width * self.height
            text += f" or a digit 1-{n} (cells counted row by row from the top left)"
        return text

    def split_moves(self, text: str) -> list[str]:
        """Move names in ``text``: "b2 a1", or on a board of at most nine cells "519"."""
        text = text.strip()
        if self._digits and text.isascii() and text.isdigit():
            return list(text)
        return super().split_moves(text)

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if self._digits and t.isascii() and t.isdigit() and 1 <= int(t) <= self.width * self.height:
            return int(t) - 1
        m = _CELL.match(t)
        if m:
            col = ord(m.group(1)) - ord("a")
            row = int(m.group(2)) - 1
            if 0 <= col < self.width and 0 <= row < self.height:
                return row * self.width + col
        raise InvalidMoveError(f"{text.strip()!r} is not a cell of this {self.size_text} board: "
                               f"type {self.accepted_text()}")

    def move_name(self, move: int) -> str:
        row, col = divmod(move, self.width)
        return f"{chr(ord('a') + col)}{row + 1}"

    def _illegal_reason(self, move: int) -> str:
        if self.is_game_over():
            return "the game is over"
        if 0 <= move < self.width * self.height:
            return f"{self.move_name(move)} is already taken"
        last = self.width * self.height - 1
        return (f"{move} is not a cell of this {self.size_text} board: moves are the cells "
                f"0-{last} as ints (a1..{self.move_name(last)} as text)")

    # --- analysis for display -----------------------------------------------------------
    def winning_spots(self) -> list[tuple[int, int]]:
        return [(c % self.width, c // self.width) for c in self.winning_cells()]

    def winning_cells(self) -> list[int]:
        """Every stone on a winning line of three (or more); [] if nobody has won."""
        winner = int(self._state[WINNER])
        if winner not in (0, 1):
            return []
        mine = winner + 1
        w, h = self.width, self.height
        cells = self.cells
        out: set[int] = set()
        for r in range(h):
            for c in range(w):
                for dr, dc in TK.DIRECTIONS:
                    line = [(r + k * dr, c + k * dc) for k in range(TK.IN_A_ROW)]
                    if all(0 <= y < h and 0 <= x < w and cells[y * w + x] == mine for y, x in line):
                        out.update(y * w + x for y, x in line)
        return sorted(out)

    def render(self, color: bool = False, mark_last: bool = True) -> str:
        last = self.peek() if mark_last else None
        return render_tictactoe(self.width, self.height, self.cells, last,
                                frozenset(self.winning_cells()), color)


__all__ = ["IllegalMoveError", "InvalidMoveError", "THREE_IN_A_ROW", "TicTacToeBoard"]
