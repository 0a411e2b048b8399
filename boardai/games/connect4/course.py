"""The Tsinghua course's gravity Connect Four: its referee's board draw and C coordinates.

The course plays Connect Four on M rows x N columns, M and N drawn uniformly from 9..12, with one
no-go cell drawn uniformly over the board.  Its strategies see the board *from the top*:

* row ``x`` counts from the top (0..M-1), column ``y`` from the left (0..N-1);
* ``board[x*N + y]``: 0 empty (the no-go cell reads 0 too), 1 the opponent's stone, 2 the
  strategy's own stone;
* ``top[y]``: rows still open in column y counted from the top: the next stone lands on row
  ``top[y] - 1``, already past the no-go cell (0 when the column is full).

boardai's own coordinates are (col, row) with row 0 at the bottom; this module converts.
"""

from __future__ import annotations

import random

SIZES = range(9, 13)        # M and N are drawn from 9..12


def draw_size(rng: random.Random) -> tuple[int, int]:
    """(width, height): M rows, then N columns, each uniform in 9..12."""
    rows = rng.choice(SIZES)
    cols = rng.choice(SIZES)
    return cols, rows


def is_drawn_size(width: int, height: int) -> bool:
    """Whether a ``width`` x ``height`` board is one of the sizes the course draws."""
    return width in SIZES and height in SIZES


def draw_no_go(rng: random.Random, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """One no-go cell uniform over the board: its row from the top, then its column."""
    no_x = rng.randrange(height)          # from the top
    no_y = rng.randrange(width)
    return ((no_y, height - 1 - no_x),)


def draw_board(rng: random.Random) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """(width, height, blocked) of one board as the course's referee draws it: M rows and N
    columns uniform in 9..12, then one no-go cell uniform over the M*N cells."""
    cols, rows = draw_size(rng)
    return cols, rows, draw_no_go(rng, cols, rows)


def to_course(board, me: int) -> tuple[int, int, list[int], list[int]]:
    """(M, N, top, cells) of a Connect Four board as the strategy playing colour ``me`` (0 Black,
    1 White) sees it."""
    m, n = board.height, board.width
    top = [m - board.landing_row(y) for y in range(n)]
    cells = [0] * (m * n)
    for y in range(n):
        for r in range(board.landing_row(y)):
            v = board.cell(y, r)
            if v in (1, 2):
                cells[(m - 1 - r) * n + y] = 2 if v - 1 == me else 1
    return m, n, top, cells


def course_point(col: int, row: int, height: int) -> tuple[int, int]:
    """(x, y) of boardai's (col, row): x from the top."""
    return height - 1 - row, col


def from_course_point(x: int, y: int, height: int) -> tuple[int, int]:
    """boardai's (col, row) of the course's (x, y)."""
    return y, height - 1 - x


# --- what the strategy engine (``strategy:PATH``) and the referee (``boardai compete``) add -----
BOARDS = "course-boards"    # the name of this board draw in the arena's store (its "openings")


def no_go_point(board, height: int | None = None) -> tuple[int, int]:
    """(noX, noY) of the board's no-go cell; (-1, -1) on a board without one (the course always
    has one; a strategy asked to play on another board is told -1, -1)."""
    blocked = tuple(getattr(board, "blocked", ()))
    if not blocked:
        return -1, -1
    if len(blocked) > 1:
        raise ValueError(f"the course's interface has one no-go cell; this board has "
                         f"{len(blocked)}")
    col, row = blocked[0]
    return course_point(col, row, board.height if height is None else height)


def last_point(board) -> tuple[int, int]:
    """(lastX, lastY) of the last stone played (-1, -1 on an empty board): the highest stone of
    the last move's column, under the row the next stone would land on."""
    moves = board.move_stack
    if not moves:
        return -1, -1
    col = moves[-1]
    row = board.landing_row(col) - 1
    while row >= 0 and board.cell(col, row) not in (1, 2):   # skip the no-go cell
        row -= 1
    return course_point(col, row, board.height)


def answer_problem(top: list[int], x: int, y: int) -> str | None:
    """None if (x, y) is a legal answer for ``top``, else what is wrong with it (the course's
    rule: 0 <= y < N, top[y] > 0 and x == top[y] - 1)."""
    n = len(top)
    if not 0 <= y < n:
        return f"column y={y} is not a column of this board (0..{n - 1})"
    if top[y] <= 0:
        return f"column y={y} is full (top[{y}] = 0)"
    if x != top[y] - 1:
        return (f"a stone in column y={y} lands on row x={top[y] - 1} (top[{y}] - 1), "
                f"not x={x}")
    return None
