"""The board of ``boardai tui`` as a picture of terminal cells, drawn from ``Board.view()``.

``draw(view, ...)`` returns a ``Picture``: rich ``Text`` lines plus where every spot sits on them
(for marks) and which spot each character cell belongs to (for mouse clicks).  Nothing here knows
a game by name: ``view["shape"]`` says how the board is drawn (``hex``: a rhombus, each row
shifted half a cell; ``grid``: rows and columns) and ``view["drops"]`` that a column is one move.

Every shape has a few layouts, from roomy to tight; ``fit`` picks the roomiest that fits the
space the widget has (Hex 11x11 and Connect Four 12x12 fit in an 80x24 terminal), or None.

Black's stones are drawn dark on a light chip and White's light on a dark chip (readable on
light and dark terminals alike), as the side panel shows them.  Games whose sides are marks
(Connect Four, tic-tac-toe: ``Palette.marks`` = ``X``/``O``) draw those letters; Hex draws
stones.  Everything stays readable without colour (``NO_COLOR``): Black ``●``, White ``○`` (``●``
for both when colour tells them apart), ``X``/``O`` for marks, a winning chain ``◆``/``◇``
(marks: ``x``/``o``), the last move in parentheses (or underlined where there is no room), the
cursor on a dark yellow ground (reverse video without colour), the engine's hint ``*``, a
blocked cell ``#``.

A solve (``view["solve"]``: exact scores by spot, and the spots not settled yet) is drawn as
Pascal Pons' Connect Four page draws it where a column is the move: one number above each
column on a line of its own (``+2`` wins, ``0`` draws, ``-3`` loses: green, grey, red, the sign
telling them apart without colour; ``?`` not settled yet); elsewhere an empty cell shows ``✓``
(the move wins) or ``✗`` (it loses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from boardai.games.base import Board

EMPTY, BLACK, WHITE, BLOCKED = 0, 1, 2, 3
GRID = Board.shape          # rows and columns; the other shape (Hex's) is the shifted rhombus


def rhombus(view: dict) -> bool:
    """True when the board is drawn as a rhombus, each row shifted half a cell."""
    return view["shape"] != GRID


@dataclass(frozen=True)
class Layout:
    """One way to draw a shape: ``pitch`` columns from cell to cell, ``shift`` columns each row
    moves right (Hex), ``links``: a line of ``\\ /`` between rows (Hex) or a blank line (grid)."""

    name: str
    pitch: int
    shift: int = 0
    links: bool = False


HEX_LAYOUTS = (Layout("links", 4, 2, True), Layout("spaced", 4, 2), Layout("compact", 2, 1))
GRID_LAYOUTS = (Layout("tall", 4, 0, True), Layout("wide", 3), Layout("compact", 2))


@dataclass
class Palette:
    """Styles of the picture; ``mono`` swaps glyphs so nothing depends on colour."""

    mono: bool = False
    marks: tuple[str, str] | None = None       # the sides' letters (X, O), else stones
    black: str = "bold #101010 on #c4c4c4"     # a dark stone on a light chip
    white: str = "bold #ffffff on #4a4a4a"     # a light stone on a dark chip
    empty: str = "#7c7c7c"
    blocked: str = "#9a9a9a on #3a3a3a"
    link: str = "#5a5a5a"
    label: str = "bold"
    win: str = "on #2f6a1f"
    hint: str = "bold #d070ff"
    won: str = "bold #5fd75f"
    drawn: str = "bold #b0b0b0"
    lost: str = "bold #ff6060"
    unsettled: str = "#8a8a8a"
    cursor: str = "reverse"
    last: str = "bold underline"
    frame: str = "#8a8a8a"

    def __post_init__(self) -> None:
        # reverse video would show a Black stone light and a White one dark: in colour the
        # cursor is a ground of its own that keeps each stone's colour (reverse without colour)
        if not self.mono and self.cursor == "reverse":
            self.cursor = "on #b8860b"

    def glyph(self, value: int, win: bool = False) -> str:
        if self.marks is not None and value in (BLACK, WHITE):
            mark = self.marks[value - 1]
            return mark.lower() if win and self.mono else mark
        if value == BLACK:
            return "◆" if win else "●"
        if value == WHITE:
            return ("◇" if self.mono else "◆") if win else ("○" if self.mono else "●")
        if value == BLOCKED:
            return "#"
        return "·"

    def score(self, value: int) -> str:
        """The style of an exact score: won, drawn or lost for the side to move."""
        return self.won if value > 0 else self.lost if value < 0 else self.drawn

    def stone(self, value: int) -> str:
        return {BLACK: self.black, WHITE: self.white, BLOCKED: self.blocked}.get(value, self.empty)


@dataclass
class Picture:
    """A drawn board: ``lines`` of text, ``cells`` spot -> (col, line) of its glyph, ``hits``
    (col, line) -> spot for clicks."""

    lines: list[Text]
    cells: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    hits: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    layout: str = ""

    @property
    def width(self) -> int:
        return max((t.cell_len for t in self.lines), default=0)

    @property
    def height(self) -> int:
        return len(self.lines)

    def spot_at(self, col: int, line: int) -> tuple[int, int] | None:
        return self.hits.get((col, line))


class _Canvas:
    """A grid of characters with a style each, turned into Text lines at the end."""

    def __init__(self, width: int, height: int):
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, col: int, line: int, text: str, style: str | Style | None = None) -> None:
        for i, ch in enumerate(text):
            if 0 <= line < len(self.chars) and 0 <= col + i < len(self.chars[line]):
                self.chars[line][col + i] = ch
                if style is not None:
                    self.styles[line][col + i] = Style.parse(style) if isinstance(style, str) \
                        else style

    def restyle(self, col: int, line: int, style: str) -> None:
        if 0 <= line < len(self.chars) and 0 <= col < len(self.chars[line]):
            old = self.styles[line][col]
            new = Style.parse(style)
            self.styles[line][col] = new if old is None else old + new

    def lines(self) -> list[Text]:
        out = []
        for chars, styles in zip(self.chars, self.styles):
            end = len(chars)
            while end and chars[end - 1] == " " and styles[end - 1] is None:
                end -= 1
            text = Text(no_wrap=True, end="")
            for ch, st in zip(chars[:end], styles[:end]):
                text.append(ch, st)
            out.append(text)
        return out


def size_of(view: dict, layout: Layout) -> tuple[int, int] | None:
    """(columns, lines) ``layout`` needs for ``view``'s board (None: it cannot draw it: column
    labels too long for its pitch)."""
    w, h = view["width"], view["height"]
    lw = max(len(r) for r in view["row_labels"])
    if max(len(c) for c in view["col_labels"]) >= layout.pitch:
        return None
    body = 2 * h - 1 if layout.links else h
    if rhombus(view):
        return lw + 2 + layout.shift * (h - 1) + layout.pitch * (w - 1) + 2 + lw, body + 2
    return 2 * lw + 7 + layout.pitch * (w - 1), body + 3 + _score_lines(view)


def _score_lines(view: dict) -> int:
    """1 when a solve's scores go on a line above the columns (boards played by column)."""
    return 1 if view.get("solve") and view["drops"] else 0


def score_text(value: int) -> str:
    """An exact score as drawn: ``+2``, ``0``, ``-3``."""
    return f"{value:+d}" if value else "0"


def _solve_marks(canvas: "_Canvas", palette: Palette, view: dict, cells: dict,
                 line: int | None) -> None:
    """The solve's marks: over each column on ``line`` (drops), else on the empty cells."""
    solve = view.get("solve")
    if not solve:
        return
    for spot, value in solve["scores"].items():
        spot = tuple(spot)
        if spot not in cells:
            continue
        col, at = cells[spot]
        if line is not None:
            text = score_text(value)
            canvas.put(col - len(text) // 2, line, text, palette.score(value))
        elif view["spots"][spot[1]][spot[0]] == EMPTY:
            canvas.put(col, at, "✓" if value > 0 else "✗" if value < 0 else "=",
                       palette.score(value))
    if line is not None:
        for spot in solve.get("unsettled", ()):
            spot = tuple(spot)
            if spot in cells:
                canvas.put(cells[spot][0], line, "?", palette.unsettled)


def layouts(view: dict) -> tuple[Layout, ...]:
    return HEX_LAYOUTS if rhombus(view) else GRID_LAYOUTS


def fit(view: dict, columns: int, lines: int) -> Layout | None:
    """The roomiest layout of ``view``'s shape that fits in ``columns`` x ``lines``."""
    for layout in layouts(view):
        need = size_of(view, layout)
        if need is not None and need[0] <= columns and need[1] <= lines:
            return layout
    return None


def smallest(view: dict) -> tuple[int, int]:
    """The space the tightest layout needs (for the "too small" message)."""
    sizes = [s for s in (size_of(view, lay) for lay in layouts(view)) if s is not None]
    return min(sizes, key=lambda s: (s[0] * s[1], s))


def draw(view: dict, layout: Layout, palette: Palette | None = None,
         cursor: tuple[int, int] | None = None, hint: tuple[int, int] | None = None,
         show_cursor: bool = True) -> Picture:
    """``view``'s board in ``layout``.  ``cursor`` is a spot (with ``drops``, its column is what
    counts: the spot a stone would land on is marked); ``hint`` a spot to mark."""
    palette = palette or Palette()
    if rhombus(view):
        return _draw_hex(view, layout, palette, cursor if show_cursor else None, hint)
    return _draw_grid(view, layout, palette, cursor if show_cursor else None, hint)


def _mark_spot(canvas: _Canvas, palette: Palette, view: dict, spot: tuple[int, int],
               where: tuple[int, int], hint: tuple[int, int] | None, room: bool) -> None:
    """Last move, cursor, hint on one spot drawn at ``where`` (``room``: spaces either side)."""
    col, line = where
    x, y = spot
    last = view["last"]
    if last is not None and tuple(last) == spot:
        if room:
            canvas.put(col - 1, line, "(", palette.label)
            canvas.put(col + 1, line, ")", palette.label)
        else:
            canvas.restyle(col, line, palette.last)
    if hint is not None and tuple(hint) == spot and view["spots"][y][x] == EMPTY:
        canvas.put(col, line, "*", palette.hint)


def _stone(canvas: _Canvas, palette: Palette, view: dict, x: int, y: int, col: int, line: int,
           wins: set) -> None:
    value = view["spots"][y][x]
    win = (x, y) in wins
    style = palette.stone(value)
    if win:
        style = f"{style} {palette.win}"
    canvas.put(col, line, palette.glyph(value, win), style)


def _begin(view: dict, layout: Layout):
    """What both drawings start from: the board's size, labels, an empty canvas of the
    layout's size, the picture to fill, the winning spots, the lines per row."""
    size = size_of(view, layout)
    assert size is not None
    return (view["width"], view["height"], view["col_labels"], view["row_labels"],
            max(len(r) for r in view["row_labels"]), size, _Canvas(*size),
            Picture([], layout=layout.name), {tuple(s) for s in view["win"]},
            2 if layout.links else 1)


def _draw_hex(view: dict, layout: Layout, palette: Palette, cursor, hint) -> Picture:
    w, h, cols, rows, lw, size, canvas, pic, wins, step = _begin(view, layout)
    x0 = lw + 2                                   # the first cell of the top row

    def at(x: int, y: int) -> tuple[int, int]:
        return x0 + layout.shift * y + layout.pitch * x, 1 + step * y

    # Black joins the top and bottom rows (its colour on the letters), White the sides.
    for x in range(w):
        col, _ = at(x, 0)
        canvas.put(col - len(cols[x]) + 1, 0, cols[x], palette.black)
        col, _ = at(x, h - 1)
        canvas.put(col - len(cols[x]) + 1, size[1] - 1, cols[x], palette.black)
    for y in range(h):
        col, line = at(0, y)
        canvas.put(col - 2 - len(rows[y]), line, rows[y], palette.white)
        col, _ = at(w - 1, y)
        canvas.put(col + 2, line, rows[y], palette.white)
        for x in range(w):
            col, line = at(x, y)
            if layout.links and x < w - 1:
                canvas.put(col + 1, line, " - ", palette.link)
            _stone(canvas, palette, view, x, y, col, line, wins)
            pic.cells[(x, y)] = (col, line)
            wide = 1 if layout.pitch >= 4 else 0
            for c in range(col - wide, col + layout.pitch // 2 + wide):
                pic.hits[(c, line)] = (x, y)
        if layout.links and y < h - 1:
            col, line = at(0, y)
            for x in range(w):
                canvas.put(col + 1 + layout.pitch * x, line + 1, "\\", palette.link)
                if x < w - 1:
                    canvas.put(col + 3 + layout.pitch * x, line + 1, "/", palette.link)
    room = layout.pitch >= 4
    for (x, y), where in pic.cells.items():
        _mark_spot(canvas, palette, view, (x, y), where, hint, room)
    _solve_marks(canvas, palette, view, pic.cells, None)
    if cursor is not None and tuple(cursor) in pic.cells:
        col, line = pic.cells[tuple(cursor)]
        canvas.restyle(col, line, palette.cursor)
    pic.lines = canvas.lines()
    return pic


def _draw_grid(view: dict, layout: Layout, palette: Palette, cursor, hint) -> Picture:
    w, h, cols, rows, lw, size, canvas, pic, wins, step = _begin(view, layout)
    left = lw + 1                                 # the frame's left side
    top = _score_lines(view)                      # the solve's line above the column labels
    bottom = top + 1 + step * (h - 1) + 1         # the frame's bottom line
    drops = view["drops"]

    def at(x: int, y: int) -> tuple[int, int]:
        return left + 2 + layout.pitch * x, top + 1 + step * y

    right = left + 2 + layout.pitch * (w - 1) + 2   # the frame's right side
    for y in range(top + 1, bottom):
        canvas.put(left, y, "│", palette.frame)
        canvas.put(right, y, "│", palette.frame)
    canvas.put(left, bottom, "└" + "─" * (right - left - 1) + "┘", palette.frame)
    cursor_col = None
    if cursor is not None:
        cursor_col = cursor[0]
    for x in range(w):
        col, _ = at(x, 0)
        for line in (top, bottom + 1):
            style = palette.label
            if drops and cursor_col == x:
                style = f"{style} {palette.cursor}"
            canvas.put(col - len(cols[x]) + 1, line, cols[x], style)
    for y in range(h):
        _, line = at(0, y)
        canvas.put(left - 1 - len(rows[y]), line, rows[y], palette.label)
        canvas.put(right + 2, line, rows[y], palette.label)
        for x in range(w):
            col, line = at(x, y)
            _stone(canvas, palette, view, x, y, col, line, wins)
            pic.cells[(x, y)] = (col, line)
            for c in range(col - 1, col - 1 + layout.pitch):
                pic.hits[(c, line)] = (x, y)
                if layout.links and y < h - 1:
                    pic.hits[(c, line + 1)] = (x, y)
    if drops:                                     # a click on a column's labels drops there too
        for x in range(w):
            col, _ = at(x, 0)
            for c in range(col - 1, col - 1 + layout.pitch):
                for line in range(top + 1):
                    pic.hits[(c, line)] = (x, 0)
                pic.hits[(c, bottom + 1)] = (x, h - 1)
    room = layout.pitch >= 3
    for spot, where in pic.cells.items():
        _mark_spot(canvas, palette, view, spot, where, hint, room)
    _solve_marks(canvas, palette, view, pic.cells, 0 if top else None)
    if cursor is not None:
        spot = tuple(cursor)
        if drops:
            spot = _landing(view, cursor[0])
        if spot is not None and spot in pic.cells:
            col, line = pic.cells[spot]
            canvas.restyle(col, line, palette.cursor)
    pic.lines = canvas.lines()
    return pic


def _landing(view: dict, x: int) -> tuple[int, int] | None:
    """Where a stone dropped in column ``x`` lands: ``view["landing"][x]`` (the widget adds it
    from ``Board.spot_of``; None: the column is full)."""
    landing = view.get("landing")
    if landing is None or landing[x] is None:
        return None
    return tuple(landing[x])


__all__ = ["Layout", "Palette", "Picture", "draw", "fit", "smallest", "size_of", "score_text",
           "HEX_LAYOUTS", "GRID_LAYOUTS"]
