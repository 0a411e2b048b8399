"""``Connect4Board``: the python-chess-like face of Connect Four (rules live in ``kernel.py``).

Moves are 1-based column numbers in text (``4``) and 0-based ints inside.  A position can be
written as the digits of the columns played from the empty board (``"4453"``, Pascal Pons'
convention), which ``from_position`` reads and ``position`` writes.
"""

from __future__ import annotations

from typing import Iterable

from boardai.games.base import Board, IllegalMoveError, InvalidMoveError, Termination
from boardai.games.connect4 import kernel as CK
from boardai.games.connect4.render import render_connect4
from boardai.games.layout import GAME_CONNECT4, WINNER

DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 6
FOUR_IN_A_ROW = Termination("four in a row")


class Connect4Board(Board):
    """Connect Four on W×H (default 7×6, any size with W*(H+1) <= 64).

    >>> b = Connect4Board.from_position("4455667")
    >>> b.outcome().winner, b.position
    (<Color.BLACK: 0>, '4455667')
    """

    game_name = "connect4"
    game_id = GAME_CONNECT4
    win_termination = FOUR_IN_A_ROW

    def __init__(self, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT):
        if not isinstance(width, int) or not isinstance(height, int) or width < 1 or height < 1 \
                or width * (height + 1) > 64:
            raise ValueError(f"a Connect Four board needs W,H >= 1 and W*(H+1) <= 64 "
                             f"(one 64-bit word with a pad row), not {width}x{height}")
        super().__init__(width, height, CK.new_c4_state(width, height))

    def split_moves(self, text: str) -> list[str]:
        """Column names in ``text``: "4 4 5", or up to 9 columns wide also one digit string "445"."""
        text = text.strip()
        if text.isascii() and text.isdigit() and self.width <= 9:
            return list(text)
        return super().split_moves(text)

    @classmethod
    def from_moves(cls, moves: Iterable[int | str] | str, width: int = DEFAULT_WIDTH,
                   height: int = DEFAULT_HEIGHT) -> "Connect4Board":
        """A board after ``moves``: ints (0-based), column texts, or one string of them."""
        board = cls(width, height)
        board.push_many(moves)
        return board

    @classmethod
    def from_position(cls, position: str, width: int = DEFAULT_WIDTH,
                      height: int = DEFAULT_HEIGHT) -> "Connect4Board":
        """Read Pons' column-digit string (``"4453"``)."""
        text = position.strip()
        if width > 9:      # columns 10 and up: the position is written with spaces
            return cls.from_moves(text.split(), width, height)
        if text and not (text.isascii() and text.isdigit()):
            raise InvalidMoveError(f"{position!r} is not a position: give column digits 1-{width}")
        return cls.from_moves(list(text), width, height)

    @property
    def position(self) -> str:
        """The moves as column digits from the empty board (width <= 9)."""
        sep = "" if self.width <= 9 else " "
        return sep.join(str(m + 1) for m in self._moves)

    def column_height(self, col: int) -> int:
        return int(self._state[CK.HEIGHTS + col])

    def cell(self, col: int, row: int) -> int:
        """0 empty, 1 black (X), 2 white (O); row 0 is the bottom."""
        bit = 1 << (col * (self.height + 1) + row)
        if int(self._state[CK.STONES]) & bit:
            return 1
        if int(self._state[CK.STONES + 1]) & bit:
            return 2
        return 0

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if t.isascii() and t.isdigit() and 1 <= int(t) <= self.width:
            return int(t) - 1
        raise InvalidMoveError(f"{t!r} is not a column of this {self.size_text} board: "
                               f"type a column number 1-{self.width}")

    def move_name(self, move: int) -> str:
        return str(move + 1)

    def _illegal_reason(self, move: int) -> str:
        if self.is_game_over():
            return "the game is over"
        if 0 <= move < self.width:
            return f"column {move + 1} is full"
        return f"{move + 1} is not a column of this {self.size_text} board (1-{self.width})"

    def winning_cells(self) -> list[tuple[int, int]]:
        """(col, row) of every stone in a winning line of four or more; [] if none."""
        winner = int(self._state[WINNER])
        if winner not in (0, 1):
            return []
        mine = winner + 1
        out: set[tuple[int, int]] = set()
        for c in range(self.width):
            for r in range(self.height):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    line = [(c + k * dc, r + k * dr) for k in range(4)]
                    if all(0 <= x < self.width and 0 <= y < self.height and self.cell(x, y) == mine
                           for x, y in line):
                        out.update(line)
        return sorted(out)

    def render(self, color: bool = False, mark_last: bool = True) -> str:
        grid = [[self.cell(c, r) for c in range(self.width)] for r in range(self.height)]
        last = None
        if mark_last and self._moves:
            col = self._moves[-1]
            last = (col, self.column_height(col) - 1)
        return render_connect4(grid, last, set(self.winning_cells()), color)


__all__ = ["Connect4Board", "FOUR_IN_A_ROW", "IllegalMoveError", "InvalidMoveError"]
