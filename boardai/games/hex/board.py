"""``HexBoard``: the python-chess-like face of Hex (rules live in ``kernel.py``)."""

from __future__ import annotations

from collections import deque
from typing import Iterable

from boardai.games.base import Board, Color, IllegalMoveError, InvalidMoveError, Termination
from boardai.games.hex import kernel as HK
from boardai.games.hex.notation import (
    SWAP_NAME, SWAP_SPELLINGS, accepted_text, cell_name, parse_cell,
)
from boardai.games.hex.render import render_hex
from boardai.games.layout import FLAGS, FLAG_SWAP, GAME_HEX, HEADER, WINNER

DEFAULT_SIZE = 11
CONNECTION = Termination("connection")   # a chain joins the player's two sides


class HexBoard(Board):
    """Hex on a W×H board (1..26 each side). Black joins top and bottom, White left and right.

    >>> b = HexBoard(3)
    >>> b.push("b2"); b.push("a1"); b.push("b1"); b.push("c1"); b.push("b3")
    4
    0
    1
    2
    7
    >>> b.outcome().winner
    <Color.BLACK: 0>
    >>> [b.move_name(c) for c in b.winning_chain()]
    ['b1', 'b2', 'b3']
    """

    game_name = "hex"
    game_id = GAME_HEX
    win_termination = CONNECTION
    shape = "hex"
    edges = {"black": "top-bottom", "white": "left-right"}

    def __init__(self, width: int = DEFAULT_SIZE, height: int | None = None, swap: bool = False):
        height = width if height is None else height
        for side in (width, height):
            if not isinstance(side, int) or not 1 <= side <= HK.MAX_SIDE:
                raise ValueError(f"a Hex board side must be 1..{HK.MAX_SIDE}, not {side!r}")
        if swap and width != height:
            raise ValueError("the swap rule needs a square board (it mirrors across the diagonal)")
        super().__init__(width, height, HK.new_hex_state(width, height, swap))

    @classmethod
    def from_moves(cls, moves: Iterable[int | str] | str, width: int = DEFAULT_SIZE,
                   height: int | None = None, swap: bool = False) -> "HexBoard":
        """A board after ``moves`` (ints, names, or one string of names split by spaces)."""
        board = cls(width, height, swap)
        board.push_many(moves)
        return board

    @property
    def swap_allowed(self) -> bool:
        """True when the swap rule is on for this game."""
        return bool(int(self._state[FLAGS]) & FLAG_SWAP)

    @property
    def swap_move(self) -> int:
        return self.width * self.height

    @property
    def cells(self):
        """Per cell (row-major): 0 empty, 1 black, 2 white (a read-only view)."""
        view = self._state[HEADER:HEADER + self.width * self.height]
        view = view.view()
        view.flags.writeable = False
        return view

    def cell_color(self, cell: int) -> Color | None:
        v = int(self._state[HEADER + cell])
        return None if v == 0 else Color(v - 1)

    # --- notation -----------------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if t in SWAP_SPELLINGS:
            return self.swap_move
        cell = parse_cell(t, self.width, self.height)
        if cell is None:
            raise InvalidMoveError(f"{text.strip()!r} is not a move on this {self.size_text} board: "
                                   f"type {accepted_text(self.width, self.height)}"
                                   + (", or swap" if self.swap_allowed else ""))
        return cell

    def move_name(self, move: int) -> str:
        if move == self.swap_move:
            return SWAP_NAME
        return cell_name(move, self.width)

    def _illegal_reason(self, move: int) -> str:
        if self.is_game_over():
            return "the game is over"
        if move == self.swap_move:
            if not self.swap_allowed:
                return "swap is not allowed: the swap rule is off in this game"
            return "swap is only allowed as White's first move"
        if 0 <= move < self.swap_move:
            return f"{self.move_name(move)} is already taken"
        return f"{move} is not a cell of this {self.size_text} board"

    # --- analysis for display -----------------------------------------------------------
    def winning_chain(self) -> list[int]:
        """The winner's shortest chain between its two sides (cells, start side first); [] if none."""
        winner = int(self._state[WINNER])
        if winner not in (0, 1):
            return []
        w, h = self.width, self.height
        mine = winner + 1
        cells = self._state[HEADER:HEADER + w * h]
        if winner == 0:
            starts = [c for c in range(w) if cells[c] == mine]
            is_goal = lambda cell: cell // w == h - 1  # noqa: E731
        else:
            starts = [r * w for r in range(h) if cells[r * w] == mine]
            is_goal = lambda cell: cell % w == w - 1  # noqa: E731
        prev = {s: -1 for s in starts}
        queue = deque(starts)
        while queue:
            cell = queue.popleft()
            if is_goal(cell):
                path = []
                while cell != -1:
                    path.append(cell)
                    cell = prev[cell]
                return path[::-1]
            for nb in self.neighbours(cell):
                if cells[nb] == mine and nb not in prev:
                    prev[nb] = cell
                    queue.append(nb)
        return []

    def winning_spots(self) -> list[tuple[int, int]]:
        return [(c % self.width, c // self.width) for c in self.winning_chain()]

    def neighbours(self, cell: int) -> list[int]:
        return [int(j) for j in HK.neighbour_table(self.width, self.height)[cell] if j >= 0]

    def render(self, color: bool = False, mark_last: bool = True) -> str:
        last = self.peek() if mark_last else None
        if last == self.swap_move:
            first = self._moves[0]
            r, c = divmod(first, self.width)
            last = c * self.width + r
        return render_hex(self.width, self.height, self.cells, last,
                          frozenset(self.winning_chain()), color)

    def copy(self) -> "HexBoard":
        return super().copy()  # type: ignore[return-value]




__all__ = ["CONNECTION", "DEFAULT_SIZE", "HexBoard", "IllegalMoveError", "InvalidMoveError"]
