"""The dialogs of ``boardai tui``: a new game, a file to save to or load, quit?, and the keys.

Each is a modal screen that hands its answer back with ``dismiss``; the app checks the answer
(building a game can fail with a message) and the dialog shows the problem and stays open.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from boardai.games import all_games, get_game


class Tick(Checkbox):
    """A checkbox whose box is empty when off and shows X when on (Textual's own draws X in
    both states, told apart by colour alone: off looked ticked, and NO_COLOR lost it)."""

    @property
    def _button(self):
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button


@dataclass
class GameChoice:
    """What the new-game dialog asks: the same as ``boardai tui``'s options."""

    game: str
    size: str | None = None
    blocked: tuple[str, ...] = ()
    swap: bool = False
    black: str = "human"
    white: str = "mcts:time=1"


DIALOG_CSS = """
.dialog {
    width: 64; max-width: 100%; height: auto; max-height: 100%;
    border: round $accent; background: $surface; padding: 0 1;
}
.dialog .title { text-style: bold; width: 1fr; content-align: center middle; }
.dialog .problem { color: $error; height: auto; }
.dialog .note { color: $text-muted; height: auto; }
.dialog Input { width: 1fr; }
.dialog .buttons { height: auto; align: center middle; margin-top: 1; }
.dialog Button { margin: 0 1; }
"""


def _steady_cursors(screen: ModalScreen) -> None:
    """No blinking input cursors when the app runs headless (tests, snapshots)."""
    if screen.app.is_headless:
        for box in screen.query(Input):
            box.cursor_blink = False


class NewGameScreen(ModalScreen[GameChoice | None]):
    """Game, size, blocked cells, swap, and who plays each side."""

    DEFAULT_CSS = DIALOG_CSS + """
    NewGameScreen { align: center middle; }
    #form { grid-size: 2; grid-columns: 10 1fr; height: auto; grid-gutter: 0 1; }
    #form Label { height: 1; padding-top: 0; }
    """
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, choice: GameChoice, problem: str = "") -> None:
        super().__init__()
        self.choice = choice
        self.problem = problem

    def compose(self) -> ComposeResult:
        games = all_games()
        c = self.choice
        with Vertical(classes="dialog", id="new-game"):
            yield Label("New game", classes="title")
            with Grid(id="form"):
                yield Label("Game")
                yield Select([(g.title, name) for name, g in games.items()], value=c.game,
                             allow_blank=False, compact=True, id="game")
                yield Label("Size")
                yield Input(c.size or "", placeholder=self._size_hint(c.game), compact=True,
                            id="size")
                yield Label("Blocked")
                yield Input(" ".join(c.blocked), placeholder=self._blocked_hint(c.game),
                            compact=True, id="blocked")
                yield Label("Swap")
                yield Tick("swap rule", c.swap, compact=True, id="swap")
                yield Label("Black")
                yield Input(c.black, placeholder="human or an engine spec", compact=True,
                            id="black")
                yield Label("White")
                yield Input(c.white, placeholder="human or an engine spec", compact=True,
                            id="white")
            yield Static("Players: human, or an engine spec such as mcts:time=1, "
                         "alphabeta:time=2, random (boardai engines lists them).", classes="note")
            yield Static(self.problem, classes="problem", id="problem")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    @staticmethod
    def _size_hint(name: str) -> str:
        g = get_game(name)
        text = f"default {g.size_text(*g.play_size_or_default)}"
        return text + (", or random" if g.random_size is not None else "")

    @staticmethod
    def _blocked_hint(name: str) -> str:
        g = get_game(name)
        if not g.blocked_cells:
            return f"{g.title} has none"
        return "COL:ROW ... (1 = bottom) or random"

    def on_mount(self) -> None:
        _steady_cursors(self)
        self._game_changed(self.choice.game)
        self.query_one("#size", Input).focus()

    def _game_changed(self, name: str) -> None:
        g = get_game(name)
        self.query_one("#size", Input).placeholder = self._size_hint(name)
        blocked = self.query_one("#blocked", Input)
        blocked.placeholder = self._blocked_hint(name)
        blocked.disabled = not g.blocked_cells
        swap = self.query_one("#swap", Tick)
        swap.disabled = not g.swap
        if not g.swap:
            swap.value = False

    def on_select_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self._game_changed(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        game = self.query_one("#game", Select).value
        blocked = self.query_one("#blocked", Input)
        self.dismiss(GameChoice(
            game=str(game),
            size=self.query_one("#size", Input).value.strip() or None,
            blocked=tuple(blocked.value.split()) if not blocked.disabled else (),
            swap=self.query_one("#swap", Tick).value,
            black=self.query_one("#black", Input).value.strip() or "human",
            white=self.query_one("#white", Input).value.strip() or "human"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathScreen(ModalScreen[str | None]):
    """One file name: where to save the record, or which record to load."""

    DEFAULT_CSS = DIALOG_CSS + "PathScreen { align: center middle; }"
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, value: str, note: str, problem: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.note = note
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="title")
            yield Input(self.value, placeholder="a file name", compact=True, id="path")
            yield Static(self.note, classes="note")
            yield Static(self.problem, classes="problem")
            with Horizontal(classes="buttons"):
                yield Button("OK", variant="primary", id="ok", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        _steady_cursors(self)
        self.query_one("#path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self.dismiss(self.query_one("#path", Input).value.strip() or None)
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (quit while a game is running)."""

    DEFAULT_CSS = DIALOG_CSS + "ConfirmScreen { align: center middle; }"
    BINDINGS = [Binding("y", "answer(True)", "yes"), Binding("n,escape", "answer(False)", "no")]

    def __init__(self, question: str, note: str = "") -> None:
        super().__init__()
        self.question = question
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="title")
            yield Static(self.note, classes="note")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", variant="error", id="yes", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


KEYS = """\
[b]Moves[/b]
  arrows        move the cursor (left/right: the column, where a
                column is the move)
  Enter, space  play at the cursor; a mouse click plays there too
  : or /        type a move or a command (undo, hint, solve, swap,
                new, save FILE, load FILE, pause, help, quit)
  Esc           back from the input line to the board
  A move is {hint}.

[b]Game[/b]
  u  undo your move (and the engine's answer)   h  hint (marked *)
  w  swap (White's first move, swap rule on)    p  pause engines
  e  solve: every move's exact score (again: stop; where the solver works)
  n  new game       s  save the record as...    l  load a record
  ?  these keys     q  quit (asks while a game runs)

The record is written after every move to {record}."""


class HelpScreen(ModalScreen[None]):
    """The keys; any key closes it."""

    DEFAULT_CSS = DIALOG_CSS + """
    HelpScreen { align: center middle; }
    HelpScreen .dialog { width: 80; }
    """

    def __init__(self, hint: str, record: str) -> None:
        super().__init__()
        self.hint = hint
        self.record = record

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("boardai tui: keys", classes="title")
            yield Static(KEYS.format(hint=self.hint, record=self.record))
            yield Static("Any key closes this.", classes="note")

    def on_key(self, event) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


__all__ = ["ConfirmScreen", "GameChoice", "HelpScreen", "NewGameScreen", "PathScreen"]
