"""``Connect4Board``: the python-chess-like face of Connect Four (rules live in ``kernel.py``).

Moves are 1-based column numbers in text (``4``) and 0-based ints inside.  A position can be
written as the digits of the columns played from the empty board (``"4453"``, Pascal Pons'
convention), which ``from_position`` reads and ``position`` writes.

Any W×H from 1×1 to 32×32 works, with any set of blocked cells (no-go cells): boards
with W*(H+1) <= 64 use the one-word bitboard of ``kernel.py`` (tall narrow ones up to 1×63 too),
bigger ones the line words of ``wide.py``.
"""

from __future__ import annotations

from typing import Iterable

from boardai.games.base import Board, IllegalMoveError, InvalidMoveError, Termination
from boardai.games.connect4 import kernel as CK
from boardai.games.connect4.render import render_connect4
from boardai.games.connect4.wide import MAX_SIDE, new_wide_state, tops_slot, wide_cell
from boardai.games.layout import FLAG_C4_LINES, FLAGS, GAME_CONNECT4, WINNER

DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 6
FOUR_IN_A_ROW = Termination("four in a row")


class Connect4Board(Board):
    """Connect Four on W×H (default 7×6; up to 32×32) with optional blocked cells.

    ``blocked``: (col, row) cells no stone may stand on, 0-based, row 0 at the bottom; a stone
    dropped into that column passes over a blocked cell and lands above it.

    >>> b = Connect4Board.from_position("4455667")
    >>> b.outcome().winner, b.position
    (<Color.BLACK: 0>, '4455667')
    >>> Connect4Board(10, 9, blocked=[(3, 0)]).landing_row(3)
    1
    """

    game_name = "connect4"
    game_id = GAME_CONNECT4
    win_termination = FOUR_IN_A_ROW
    drops = True

    def __init__(self, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT,
                 blocked: Iterable[tuple[int, int]] = ()):
        if not isinstance(width, int) or not isinstance(height, int) or width < 1 or height < 1 \
                or not (CK.fits_one_word(width, height) or max(width, height) <= MAX_SIDE):
            raise ValueError(f"a Connect Four board is 1x1 to {MAX_SIDE}x{MAX_SIDE} "
                             f"(or up to 1x63 when narrow), not {width}x{height}")
        cells = []
        for cell in blocked:
            try:
                c, r = (int(x) for x in cell)
            except (TypeError, ValueError):
                raise ValueError(f"a blocked cell is (col, row), not {cell!r}") from None
            if not (0 <= c < width and 0 <= r < height):
                raise ValueError(f"blocked cell (col {c}, row {r}) is off the {width}x{height} "
                                 f"board: col 0-{width - 1}, row 0-{height - 1} (0 = bottom)")
            if (c, r) not in cells:
                cells.append((c, r))
        self._blocked = tuple(sorted(cells))
        if CK.fits_one_word(width, height):
            state = CK.new_c4_state(width, height, self._blocked)
        else:
            state = new_wide_state(width, height, self._blocked)
        super().__init__(width, height, state)

    @property
    def blocked(self) -> tuple[tuple[int, int], ...]:
        """The blocked cells as sorted (col, row) pairs, 0-based, row 0 at the bottom."""
        return self._blocked

    @property
    def setup(self) -> tuple:
        return self._blocked

    def split_moves(self, text: str) -> list[str]:
        """Column names in ``text``: "4 4 5", or up to 9 columns wide also one digit string "445"."""
        text = text.strip()
        if text.isascii() and text.isdigit() and self.width <= 9:
            return list(text)
        return super().split_moves(text)

    @classmethod
    def from_moves(cls, moves: Iterable[int | str] | str, width: int = DEFAULT_WIDTH,
                   height: int = DEFAULT_HEIGHT,
                   blocked: Iterable[tuple[int, int]] = ()) -> "Connect4Board":
        """A board after ``moves``: ints (0-based), column texts, or one string of them."""
        board = cls(width, height, blocked)
        board.push_many(moves)
        return board

    @classmethod
    def from_position(cls, position: str, width: int = DEFAULT_WIDTH,
                      height: int = DEFAULT_HEIGHT,
                      blocked: Iterable[tuple[int, int]] = ()) -> "Connect4Board":
        """Read Pons' column-digit string (``"4453"``; with spaces from 10 columns up)."""
        text = position.strip()
        if width > 9:      # columns 10 and up: the position is written with spaces
            return cls.from_moves(text.split(), width, height, blocked)
        if text and not (text.isascii() and text.isdigit()):
            raise InvalidMoveError(f"{position!r} is not a position: give column digits 1-{width}")
        return cls.from_moves(list(text), width, height, blocked)

    @property
    def position(self) -> str:
        """The moves as column digits from the empty board (width <= 9)."""
        sep = "" if self.width <= 9 else " "
        return sep.join(str(m + 1) for m in self._moves)

    def landing_row(self, col: int) -> int:
        """The row (0 = bottom) the next stone in ``col`` lands on, past blocked cells; the
        height when the column is full."""
        if int(self._state[FLAGS]) & FLAG_C4_LINES:
            return int(self._state[tops_slot(self.width, self.height) + col])
        return int(self._state[CK.HEIGHTS + col])

    column_height = landing_row

    def cell(self, col: int, row: int) -> int:
        """0 empty, 1 black (X), 2 white (O), 3 blocked; row 0 is the bottom."""
        if int(self._state[FLAGS]) & FLAG_C4_LINES:
            return int(wide_cell(self._state, col, row))
        return int(CK.c4_cell(self._state, col, row))

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

    # --- the board as drawn: y counts rows from the top, so row r is spot y = height-1-r ---
    def spot(self, x: int, y: int) -> int:
        return self.cell(x, self.height - 1 - y)

    def move_at(self, x: int, y: int) -> int | None:
        """A click anywhere in a column drops a stone there (None when the column is full)."""
        inside = 0 <= x < self.width and 0 <= y < self.height
        return x if inside and self.is_legal(x) else None

    def spot_of(self, move: int) -> tuple[int, int] | None:
        """Where a stone dropped in column ``move`` lands now (None: a full column)."""
        if not 0 <= move < self.width:
            return None
        row = self.landing_row(move)
        return None if row >= self.height else (move, self.height - 1 - row)

    def last_spot(self) -> tuple[int, int] | None:
        if not self._moves:
            return None
        col = self._moves[-1]
        row = self.landing_row(col) - 1
        while row > 0 and self.cell(col, row) == 3:      # the stone sits under a blocked cell?
            row -= 1                                     # no: landing skips up, so step down
        return col, self.height - 1 - row

    def winning_spots(self) -> list[tuple[int, int]]:
        return [(c, self.height - 1 - r) for c, r in self.winning_cells()]

    def labels(self) -> tuple[list[str], list[str]]:
        return ([str(x + 1) for x in range(self.width)],
                [str(self.height - y) for y in range(self.height)])

    def render(self, color: bool = False, mark_last: bool = True) -> str:
        grid = [[self.cell(c, r) for c in range(self.width)] for r in range(self.height)]
        last = None
        if mark_last and self._moves:
            col = self._moves[-1]
            row = self.landing_row(col) - 1
            while row > 0 and grid[row][col] == 3:
                row -= 1
            last = (col, row)
        return render_connect4(grid, last, set(self.winning_cells()), color)


__all__ = ["Connect4Board", "FOUR_IN_A_ROW", "IllegalMoveError", "InvalidMoveError"]
