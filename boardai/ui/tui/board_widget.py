"""The board widget of ``boardai tui``: draws ``Board.view()`` to fit its space, moves a cursor
with the arrow keys and turns Enter or a mouse click into a ``SpotChosen`` message.

The widget knows no game: the view's ``shape`` and ``drops`` (a click anywhere in a column plays
that column) decide how it draws and how the cursor moves, and the board's own ``move_at``
decides what a spot means.  When no layout fits it says how much room the board needs.
"""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from boardai.games import game_of
from boardai.games.base import Board
from boardai.ui.tui import picture as P


class BoardWidget(Widget, can_focus=True):
    """The board, centred in the widget's space."""

    DEFAULT_CSS = """
    BoardWidget { width: 1fr; height: 1fr; }
    """

    BINDINGS = [
        Binding("left", "cursor(-1, 0)", "left", show=False),
        Binding("right", "cursor(1, 0)", "right", show=False),
        Binding("up", "cursor(0, -1)", "up", show=False),
        Binding("down", "cursor(0, 1)", "down", show=False),
        Binding("enter,space", "choose", "play", show=True, key_display="⏎"),
    ]

    class SpotChosen(Message):
        """Enter or a click on spot ``(x, y)`` of the picture (``by`` says which)."""

        def __init__(self, spot: tuple[int, int], by: str) -> None:
            self.spot = spot
            self.by = by
            super().__init__()

    def __init__(self, board: Board, mono: bool = False, **kw) -> None:
        super().__init__(**kw)
        self.board = board
        self.palette = P.Palette(mono=mono, marks=_marks(board))
        self.cursor = (board.width // 2, board.height // 2)
        self.hint: tuple[int, int] | None = None
        # a solve's marks: {"scores": {spot: exact score}, "unsettled": [spot, ...]} or None
        self.solve: dict | None = None
        self.picture: P.Picture | None = None
        self.origin = (0, 0)                # where the picture's top left sits in the widget
        self.too_small: str | None = None
        self.start_typing: Callable[[], None] | None = None   # ':' and '/' call it

    # --- state --------------------------------------------------------------------------
    def set_board(self, board: Board) -> None:
        """Show another board (a new game, a loaded one); the cursor goes to the middle."""
        self.board = board
        self.palette.marks = _marks(board)
        self.cursor = (board.width // 2, board.height // 2)
        self.hint = None
        self.solve = None
        self.refresh()

    def view(self) -> dict:
        """The board's view plus, for drops, where a stone lands in each column."""
        view = self.board.view()
        if view["drops"]:
            landing = []
            for x in range(self.board.width):
                move = self.board.move_at(x, 0)
                spot = None if move is None else self.board.spot_of(move)
                landing.append(None if spot is None else list(spot))
            view["landing"] = landing
        if self.solve:
            view["solve"] = self.solve
        return view

    # --- drawing ------------------------------------------------------------------------
    def render(self) -> Text:
        view = self.view()
        width, height = self.size.width, self.size.height
        layout = P.fit(view, width, height)
        if layout is None:
            need = P.smallest(view)
            screen = self.screen.size if self.is_attached else self.size
            extra_w, extra_h = screen.width - width, screen.height - height
            self.picture = None
            self.too_small = (f"The terminal is too small for this {self.board.size_text} "
                              f"board: it needs at least {need[0] + extra_w}x"
                              f"{need[1] + extra_h} (columns x lines); this one is "
                              f"{screen.width}x{screen.height}.  Enlarge the window, or start "
                              f"a smaller board (n).")
            return Text(self.too_small, style="bold", justify="center")
        self.too_small = None
        pic = P.draw(view, layout, self.palette, cursor=self.cursor, hint=self.hint,
                     show_cursor=self.has_focus)
        self.picture = pic
        ox = max(0, (width - pic.width) // 2)
        oy = max(0, (height - pic.height) // 2)
        self.origin = (ox, oy)
        out = Text(no_wrap=True, end="")
        out.append("\n" * oy)
        for i, line in enumerate(pic.lines):
            if i:
                out.append("\n")
            out.append(" " * ox)
            out.append_text(line)
        return out

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.refresh()

    # --- input --------------------------------------------------------------------------
    async def on_key(self, event: events.Key) -> None:
        """``:`` or ``/`` move to the input line at once (``start_typing``), and keys that
        reach the board after that (typed fast, or pasted) go there in order, not lost: a
        binding would act only after the keys queued behind it."""
        if event.key in ("colon", "slash") and self.start_typing is not None:
            self.start_typing()
            event.stop()
            event.prevent_default()
            return
        box = self.app.focused
        if not isinstance(box, Input):
            return
        if event.key == "enter":
            await box.action_submit()
        elif event.key == "backspace":
            box.action_delete_left()
        elif event.is_printable and event.character:
            box.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    def action_cursor(self, dx: int, dy: int) -> None:
        x, y = self.cursor
        if self.board.drops:
            dy = 0
        self.cursor = (min(max(x + dx, 0), self.board.width - 1),
                       min(max(y + dy, 0), self.board.height - 1))
        self.refresh()

    def action_choose(self) -> None:
        self.post_message(self.SpotChosen(self.cursor, "key"))

    def spot_at(self, col: int, line: int) -> tuple[int, int] | None:
        """The spot under widget cell (col, line), or None."""
        if self.picture is None:
            return None
        return self.picture.spot_at(col - self.origin[0], line - self.origin[1])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        spot = self.spot_at(offset.x, offset.y)
        if spot is None:
            return
        event.stop()
        self.cursor = spot
        self.refresh()
        self.post_message(self.SpotChosen(spot, "click"))

    def screen_offset_of(self, spot: tuple[int, int]) -> tuple[int, int] | None:
        """Where ``spot``'s glyph is, in widget cells (tests click there)."""
        if self.picture is None or spot not in self.picture.cells:
            return None
        col, line = self.picture.cells[spot]
        return col + self.origin[0], line + self.origin[1]


__all__ = ["BoardWidget"]


def _marks(board: Board) -> tuple[str, str] | None:
    """The sides' letters where the game draws marks on a grid (Connect Four, tic-tac-toe: X
    and O, as the side panel names them); None for stones (Hex)."""
    if board.view()["shape"] != Board.shape:
        return None
    labels = tuple(game_of(board).side_labels)
    return (labels[0], labels[1]) if all(len(t) == 1 for t in labels[:2]) else None
