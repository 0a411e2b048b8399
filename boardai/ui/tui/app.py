"""``boardai tui``: the full-screen game on Textual: board, live engine panel, move list, dialogs.

The game itself is ``boardai play``'s: ``ui/setup.build_game`` makes it from the same options
(a ``TerminalGame`` over the session core, ``boardai/session/core.py``: board, seats, move
list, undo, record) and its ``save`` writes the same record after every move.  Engines
search in a Textual thread worker, one search at a time: a search reports snapshots through
``Engine.on_info`` (shown live in the side panel) and ends early when ``Engine.stop`` is set
(undo, new game, load, quit).  Each search carries a token; an answer whose token is stale
(the position changed meanwhile) is dropped.

Solve (``e``) is the web page's Solve: the ``solver`` engine's ``analyse``, its solver loaded
(``warm_engine``: ``SolverPlayer.load``) before the clock runs.  Where the game's solver takes
the board and honours a stop (Connect Four), it searches until every move is settled or it is
stopped (``e`` again, a move, undo, new game), the settled scores drawn as they come; elsewhere
it has the page's few seconds and shows what it settled in them.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Input, Static

from boardai.engines.base import Engine, Limit, PlayResult
from boardai.engines.registry import make_engine
from boardai.games import DEFAULT_GAME, Color, MoveError, game_of
from boardai.records import RecordError
from boardai.ui.setup import DEFAULT_ENGINE, build_game
from boardai.ui.terminal import TerminalGame
from boardai.ui.tui.board_widget import BoardWidget
from boardai.ui.tui.screens import (
    ConfirmScreen, GameChoice, HelpScreen, NewGameScreen, PathScreen,
)

HINT_ENGINE = "mcts:sims=20000"        # the hint when no seat has an engine (seeded by --seed)
SOLVE_TIME = 5.0                        # a timed solve's seconds (Hex, boards without the line solver)


@dataclass
class Options:
    """What ``boardai tui`` was started with (the new-game dialog starts from it)."""

    game: str = DEFAULT_GAME
    size: str | None = None
    blocked: tuple[str, ...] = ()
    swap: bool = False
    black: str | None = None
    white: str | None = None
    seed: int | None = None
    save: str | None = None
    load: str | None = None
    move_time: float | None = None      # seconds per move of an engine whose spec gives none
    extra: dict = field(default_factory=dict)


def start_game(opts: Options) -> tuple[TerminalGame, str]:
    """The game ``opts`` describe and what ``play`` would have printed about it (a loaded
    record, a drawn board); ValueError or RecordError with a clear message."""
    out = io.StringIO()
    black = opts.black
    white = opts.white
    if not opts.load:
        black = black or "human"
        white = white or DEFAULT_ENGINE
    session = build_game(opts.game, opts.size, opts.swap, black, white, opts.seed, opts.save,
                         opts.load, False, input_fn=_no_questions, out=out, blocked=opts.blocked,
                         move_time=opts.move_time)
    return session, " ".join(out.getvalue().split())


def _no_questions(prompt: str) -> str:
    raise EOFError("boardai tui asks nothing on standard input")


class EngineInfo(Message):
    """A snapshot of a running search (from the engine's thread)."""

    def __init__(self, token: int, kind: str, result: PlayResult) -> None:
        self.token, self.kind, self.result = token, kind, result
        super().__init__()


class EngineDone(Message):
    """A search ended: its answer, or the error it raised."""

    def __init__(self, token: int, kind: str, result: PlayResult | None,
                 error: BaseException | None) -> None:
        self.token, self.kind, self.result, self.error = token, kind, result, error
        super().__init__()


class BoardApp(App):
    """The full-screen game."""

    TITLE = "boardai"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $panel; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #side { width: 34; border-left: vkey $panel; padding: 0 1; }
    #info { height: auto; }
    #moves-title { height: 1; text-style: bold; margin-top: 1; }
    #moves-box { height: 1fr; scrollbar-size-vertical: 1; }
    #status { height: 1; padding: 0 1; }
    #status.error { color: $error; text-style: bold; }
    #status.done { color: $success; text-style: bold; }
    #command { height: 1; border: none; padding: 0 1; }
    """

    BINDINGS = [
        Binding("u", "undo", "undo"),
        Binding("h", "hint", "hint"),
        Binding("e", "solve", "solve"),
        Binding("w", "swap", "swap"),
        Binding("n", "new", "new"),
        Binding("s", "save", "save"),
        Binding("l", "load", "load"),
        Binding("p", "pause", "pause", show=False),
        Binding("colon,slash", "type", "type", key_display=":"),
        Binding("question_mark", "help", "keys", key_display="?"),
        Binding("q,ctrl+q", "quit", "quit", priority=False),
    ]

    def __init__(self, session: TerminalGame, opts: Options | None = None, note: str = "",
                 ask: bool = False, mono: bool | None = None) -> None:
        super().__init__()
        self.session = session
        self.opts = opts or Options(game=game_of(session.board).name)
        self.note = note
        self.ask = ask                          # open the new-game dialog at the start
        self.mono = self.no_color if mono is None else mono
        self._token = 0
        self._stop: threading.Event | None = None
        self._engine_lock = threading.Lock()    # one search at a time over shared engines
        self.busy = False                       # a search (move or hint) is under way
        self.thinking: str | None = None        # what the panel says is searching
        self.paused = False
        self.info: PlayResult | None = None      # the latest snapshot or answer
        self.info_live = False
        self.info_who = ""
        self.hint_engine: Engine | None = None
        self.solve_engines: dict[bool, Engine] = {}   # until stopped (exact=1) / timed
        # the solve shown: {"moves", "scores": {name: score}, "unsettled": [name], "state":
        # thinking | exact | stopped | partial, "note"}; None when there is none
        self.solved: dict | None = None
        self.status_text = ""
        self.closed: list[Engine] = []

    # --- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            yield BoardWidget(self.session.board, mono=self.mono, id="board")
            with Vertical(id="side"):
                yield Static(id="info")
                yield Static("Moves", id="moves-title")
                with VerticalScroll(id="moves-box", can_focus=False):
                    yield Static(id="moves")
        yield Static(id="status")
        # no select-on-focus: keys the board hands over before the focus event lands stay put
        yield Input(placeholder="", id="command", compact=True, select_on_focus=False)
        yield Footer()

    @property
    def board(self):
        return self.session.board

    @property
    def board_widget(self) -> BoardWidget:
        return self.query_one("#board", BoardWidget)

    def on_mount(self) -> None:
        self.query_one("#moves-box").can_focus = False
        self.board_widget.start_typing = self.action_type
        if self.is_headless:
            self.query_one("#command", Input).cursor_blink = False
        self.board_widget.focus()
        self._new_session_shown(self.note)
        if self.ask:
            self.action_new()

    # --- what the screen shows ------------------------------------------------------------
    def refresh_all(self) -> None:
        game = game_of(self.board)
        seats = self.session.seats
        top = Text(no_wrap=True, overflow="ellipsis")
        top.append(f"{game.title} {self.board.size_text}", "bold")
        if self.board.setup:
            top.append(", blocked " + " ".join(game.blocked_text(self.board.setup)))
        top.append(f"   {seats[Color.BLACK].spec} vs {seats[Color.WHITE].spec}")
        self.query_one("#top", Static).update(top)
        self.query_one("#info", Static).update(self._info_text())
        self.query_one("#moves", Static).update(self._moves_text())
        self.query_one("#moves-box", VerticalScroll).scroll_end(animate=False)
        self.query_one("#command", Input).placeholder = \
            f"type a move ({game.hint(self.board)}) or a command; ? keys"
        self.board_widget.refresh()

    def _side(self, colour: Color) -> str:
        return game_of(self.board).side_name(colour)

    def _stone(self, colour: Color) -> Text:
        style = self.board_widget.palette.black if colour is Color.BLACK \
            else self.board_widget.palette.white
        return Text(self.board_widget.palette.glyph(int(colour) + 1), style)

    def _info_text(self) -> Text:
        t = self._engine_text()
        t.append_text(self._solve_text())
        return t

    def _engine_text(self) -> Text:
        t = Text()
        for colour in (Color.BLACK, Color.WHITE):
            t.append_text(self._stone(colour))
            t.append(f" {self._side(colour)}: ", "bold")
            t.append(self.session.seats[colour].spec + "\n")
        t.append("\n")
        outcome = self.board.outcome()
        if self.resigned is not None:
            t.append(f"{self.resigned.other} wins: {self.resigned} resigned\n", "bold green")
        elif outcome is not None:
            text = "Draw" if outcome.winner is None else f"{outcome.winner} wins"
            t.append(f"{text} after {outcome.plies} moves\n", "bold green")
        else:
            t.append(f"{self._side(self.board.turn)} to move", "bold")
            t.append(f"  (move {self.board.ply + 1})\n")
            if self.paused:
                t.append("engines paused (p resumes)\n", "yellow")
        t.append("\n")
        if self.info is None:
            t.append("Engine: ", "bold")
            t.append("no search yet\n" if self.thinking is None else f"{self.thinking}\n")
            return t
        r = self.info
        t.append(f"{self.info_who}\n", "bold")
        if self.info_live:
            t.append("thinking...", "italic")
            if r.time_s > 0:
                t.append(f" {r.time_s:.1f} s, {_count(r.nodes / r.time_s)} nodes/s")
            t.append("\n")
        winrate = r.info.get("winrate") if r.info else None
        if winrate is None and r.value is not None:
            winrate = (r.value + 1) / 2
        t.append("best ")
        t.append(f"{r.name:<6}", "bold")
        if winrate is not None:
            t.append(f" win {100 * winrate:5.1f}%")
        t.append("\n")
        visits = next((m.visits for m in r.moves if m.move == r.move and m.visits), None)
        line = []
        if visits:
            line.append(f"visits {_count(visits)}")
        line.append(f"nodes {_count(r.nodes)}")
        t.append("  ".join(line) + "\n")
        if r.depth:
            t.append(f"depth {r.depth}\n")
        if r.pv:
            t.append("pv ", "bold")
            t.append(" ".join(r.pv[:12]) + "\n")
        return t

    def _moves_text(self) -> Text:
        names = [self.board.move_name(m) for m in self.board.move_stack]
        t = Text(no_wrap=True)
        if not names:
            t.append("(none yet)", "dim")
            return t
        for i in range(0, len(names), 2):
            t.append(f"{i // 2 + 1:>3}. ", "dim")
            t.append(f"{names[i]:<6}")
            if i + 1 < len(names):
                t.append(names[i + 1])
            if i + 2 < len(names):
                t.append("\n")
        return t

    def say(self, text: str, kind: str = "") -> None:
        """One line in the status bar; ``kind`` "error" (red) or "done" (green)."""
        self.status_text = text
        status = self.query_one("#status", Static)
        status.update(Text(text, no_wrap=True, overflow="ellipsis"))
        status.set_classes(kind)

    def _prompt(self) -> None:
        """The status line when nothing else is to be said: whose turn and how to move."""
        if self._over():
            self._say_over()
            return
        seat = self.session.seats[self.board.turn]
        who = self._side(self.board.turn)
        if seat.human:
            self.say(f"{who} to move: arrows + Enter, a click, or type it after ':'  "
                     f"(? for keys)")
        elif self.paused:
            self.say(f"{who} [{seat.spec}] to move; engines paused: p resumes")
        else:
            self.say(f"{who} [{seat.spec}] is thinking...")

    def _say_over(self) -> None:
        if self.resigned is not None:
            text = f"{self.resigned.other} wins: {self.resigned} resigned"
        else:
            outcome = self.board.outcome()
            assert outcome is not None
            text = "Draw" if outcome.winner is None else f"{outcome.winner} wins"
            text += f" after {outcome.plies} moves"
        self.say(f"{text}.  Record: {self.session.record_path}  (n: new game, q: quit)", "done")

    @property
    def resigned(self) -> Color | None:
        return self.session.core.resigned

    def _over(self) -> bool:
        return self.session.core.over

    # --- the game -----------------------------------------------------------------------
    def _new_session_shown(self, note: str = "") -> None:
        self.solved = None
        self.board_widget.set_board(self.board)
        self.info = None
        self.info_live = False
        self.refresh_all()
        self._prompt()
        if note:
            self.say(note)
        self.advance()

    def advance(self) -> None:
        """Start the engine whose turn it is, if any (and nothing is searching already)."""
        self.refresh_all()
        self.refresh_bindings()
        if self._over() or self.paused:
            return
        seat = self.session.seats[self.board.turn]
        if seat.human or (self.busy and self.thinking is not None and
                          not self.thinking.startswith(("hint", "solve"))):
            return
        self._search(seat.engine, "move", f"{self._side(self.board.turn)} [{seat.spec}]")

    def _search(self, engine: Engine, kind: str, who: str, limit: Limit | None = None) -> None:
        self._cancel()
        token = self._token
        stop = threading.Event()
        self._stop = stop
        self.busy = True
        self.thinking = f"{kind}: {who}"
        if kind != "solve":
            self.info_who = who if kind == "move" else f"Hint ({who})"
        board = self.board.copy()
        if kind == "move":
            self._prompt()
        self.run_worker(lambda: self._think(token, kind, engine, board, stop, limit), thread=True,
                        group="engine", exit_on_error=False, name=f"{kind} {who}")

    def _think(self, token: int, kind: str, engine: Engine, board, stop: threading.Event,
               limit: Limit | None = None) -> None:
        """The worker: one search, reporting as it goes (runs off the UI thread)."""
        with self._engine_lock:
            if stop.is_set():
                self.post_message(EngineDone(token, kind, None, None))
                return
            engine.stop = stop
            engine.on_info = lambda snap: self.post_message(EngineInfo(token, kind, snap))
            try:
                if kind == "solve":         # the solver loaded before its clock, as the page's
                    from boardai.warmup import warm_engine
                    warm_engine(engine, board, out=io.StringIO(), analyse=True)
                    result = engine.analyse(board, limit)
                else:
                    result = engine.play(board, self.session.limit(engine))   # engines/budget.py
            except BaseException as exc:                       # shown, never a crash of the UI
                self.post_message(EngineDone(token, kind, None, exc))
                return
            finally:
                engine.on_info = None
                engine.stop = None
        self.post_message(EngineDone(token, kind, result, None))

    def searching(self) -> bool:
        """True while an engine's search is still running in its thread (a stopped search
        of an engine that cannot stop early finishes its move first)."""
        return self._engine_lock.locked()

    def _cancel(self) -> None:
        """Stop the running search (its answer, if any, will be dropped)."""
        if self.solved is not None and self.solved["state"] == "thinking":
            self.solved["state"] = "stopped"
        self._token += 1
        if self._stop is not None:
            self._stop.set()
            self._stop = None
        self.busy = False
        self.thinking = None
        self.info_live = False

    def on_engine_info(self, message: EngineInfo) -> None:
        if message.token != self._token:
            return
        if message.kind == "solve":
            self._take_solve(message.result, final=False)
            return
        self.info = message.result
        self.info_live = True
        self.query_one("#info", Static).update(self._info_text())

    def on_engine_done(self, message: EngineDone) -> None:
        if message.token != self._token:
            return
        self.busy = False
        self.thinking = None
        self._stop = None
        self.info_live = False
        if message.kind == "solve":
            if message.error is not None:
                self.solved = None
                self.refresh_all()
                self.say(f"Solve failed: {message.error}", "error")
            elif message.result is not None:
                self._take_solve(message.result, final=True)
            return
        if message.error is not None:
            path = self._save()
            self.info = None
            self.paused = True
            self.refresh_all()
            self.say(f"The engine failed: {message.error}; the game so far is saved to {path}; "
                     f"engines paused", "error")
            return
        result = message.result
        if result is None:
            return
        self.info = result
        if message.kind == "hint":
            spot = self.board.spot_of(result.move) if result.move >= 0 else None
            self.board_widget.hint = spot
            self.refresh_all()
            self.say(f"Hint ({self.info_who[6:-1]}): {result.name}"
                     + ("  (marked * on the board)" if spot else ""))
            return
        if result.resign:
            self.session.core.play_result(result)      # the session core: a resignation
            self._save()
            self.refresh_all()
            self._say_over()
            return
        self._play(result.move, result)

    def _play(self, move: int, result: PlayResult | None = None) -> None:
        """Play ``move`` (legal) for the side to move (``result``: the engine's answer that
        chose it) in the session core, record, go on."""
        self._clear_solve()
        if result is not None:
            self.session.core.play_result(result)
        else:
            self.session.core.play(move)
        self.board_widget.hint = None
        self._save()
        if self._over():
            self.refresh_all()
            self._say_over()
            return
        self._prompt()
        self.advance()

    def _save(self) -> Path | None:
        """The record, after every move; a failure is said, not raised."""
        try:
            return self.session.save()
        except OSError as exc:
            self.say(f"Cannot write the record {self.session.record_path}: "
                     f"{exc.strerror or exc}", "error")
            return None

    def _human_may_move(self) -> bool:
        if self._over():
            self.say("The game is over: n starts a new game, u takes a move back", "error")
            return False
        seat = self.session.seats[self.board.turn]
        if not seat.human:
            self.say(f"It is {self._side(self.board.turn)}'s turn [{seat.spec}]: wait for its "
                     f"move (p pauses the engines, u takes back)", "error")
            return False
        return True

    def human_move(self, text: str) -> bool:
        """A move typed by a person; a bad one is refused with a message, nothing changed."""
        if not self._human_may_move():
            return False
        try:
            move = self.board.parse_move(text)
            if not self.board.is_legal(move):
                self.board.push(move)          # raises IllegalMoveError with the reason
        except MoveError as exc:
            self.say(f"{exc}", "error")
            return False
        self._cancel_hint()
        self._play(move)
        return True

    def _cancel_hint(self) -> None:
        """Stop a hint or a solve (a human is about to move)."""
        if self.busy and self.thinking is not None and self.thinking.startswith("solve"):
            self._cancel()
        elif self.busy and self.thinking is not None and self.thinking.startswith("hint"):
            self._cancel()
            self.info = None

    def on_board_widget_spot_chosen(self, message: BoardWidget.SpotChosen) -> None:
        if not self._human_may_move():
            return
        x, y = message.spot
        move = self.board.move_at(x, y)
        if move is None:
            cols, rows = self.board.labels()
            value = self.board.spot(x, y)
            if self.board.drops:
                why = f"column {cols[x]} is full"
            elif value == 3:
                why = f"{cols[x]}{rows[y]} is blocked"
            elif value in (1, 2):
                why = f"{cols[x]}{rows[y]} is taken"
            else:
                why = f"{cols[x]}{rows[y]} is not a legal move here"
            self.say(f"{why}: choose an empty spot", "error")
            return
        self._cancel_hint()
        self._play(move)

    # --- the input line -------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            return
        text = event.value.strip().lstrip(":/").strip()    # ':' pressed again is no harm
        event.input.value = ""
        if not text:
            self.board_widget.focus()
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        commands = {"undo": self.action_undo, "hint": self.action_hint, "solve": self.action_solve,
                    "new": self.action_new,
                    "pause": self.action_pause, "help": self.action_help, "?": self.action_help,
                    "quit": self.action_quit, "q": self.action_quit, "exit": self.action_quit}
        if word == "save" and rest:
            self._save_as(rest)
        elif word == "load" and rest:
            self.board_widget.focus()
            self._load(rest)
        elif word == "save":
            self.action_save()
        elif word == "load":
            self.action_load()
        elif word in commands:
            self.board_widget.focus()
            commands[word]()
        else:
            if self.human_move(text):
                self.board_widget.focus()

    def on_key(self, event) -> None:
        if event.key == "escape" and self.focused is self.query_one("#command", Input):
            self.board_widget.focus()
            event.stop()

    # --- actions ------------------------------------------------------------------------
    def action_type(self) -> None:
        # at once, not scheduled: keys typed right after ':' (a paste, a fast typist) go in
        self.screen.set_focus(self.query_one("#command", Input))

    def action_undo(self) -> None:
        """Take back the last move; against an engine also its answer, so a human moves next."""
        if self.board.ply == 0:
            self.say("Nothing to undo", "error")
            return
        self._cancel()
        humans = self.session.core.humans
        taken = self.session.core.undo()      # back to a human's turn (the session core's rule)
        if not humans:
            self.paused = True                # machine against machine: stop to look
        self.board_widget.hint = None
        self._clear_solve()
        self.info = None
        self._save()
        self.refresh_all()
        self.say(f"Took back {taken} move{'s' if taken > 1 else ''}"
                 + ("; engines paused (p resumes)" if not humans else ""))
        self.advance()

    def action_hint(self) -> None:
        if self._over():
            self.say("The game is over: no hint", "error")
            return
        if not self.session.seats[self.board.turn].human:
            self.say("Hints are for a human's turn", "error")
            return
        engine, spec = None, ""
        for colour in (self.board.turn.other, self.board.turn):
            seat = self.session.seats[colour]
            if seat.engine is not None:
                engine, spec = seat.engine, seat.spec
                break
        if engine is None:
            if self.hint_engine is None:
                seed = self.opts.seed
                self.hint_engine = make_engine(HINT_ENGINE + ("" if seed is None
                                                              else f",seed={seed}"))
            engine, spec = self.hint_engine, self.hint_engine.spec
        self._search(engine, "hint", spec)
        self.refresh_all()
        self.say(f"Asking {spec} for a hint...")

    # --- solve ---------------------------------------------------------------------------
    def action_solve(self) -> None:
        """Every move's exact score from the game's solver, as the web page's Solve; pressed
        while it searches, it stops (what settled stays shown)."""
        from boardai.engines.solver import solvable, stoppable
        if self.busy and self.thinking is not None and self.thinking.startswith("solve"):
            self._cancel()
            self._show_solve()
            self.say("Solve stopped: the scores settled so far stay shown")
            return
        if self._over():
            self.say("The game is over: nothing to solve", "error")
            return
        ok, why = solvable(self.board)
        if not ok:
            self.say(f"Solve is not offered here: {why}", "error")
            return
        if not self.session.seats[self.board.turn].human and not self.paused:
            self.say("Solve is for a human's turn (p pauses the engines)", "error")
            return
        until_stopped = stoppable(self.board)
        engine = self.solve_engines.get(until_stopped)
        if engine is None:
            engine = make_engine("solver:exact=1" if until_stopped else "solver")
            self.solve_engines[until_stopped] = engine
        self._search(engine, "solve", engine.spec,
                     Limit() if until_stopped else Limit(time=SOLVE_TIME))
        self.solved = {"moves": tuple(self.board.move_stack), "scores": {},
                       "unsettled": [self.board.move_name(m) for m in self.board.legal_moves
                                     if self.board.spot_of(m) is not None],
                       "state": "thinking", "note": "",
                       "timed": not until_stopped}
        self._show_solve()
        self.say("Solving: thinking… the scores appear as they settle"
                 + (" (e stops)" if until_stopped else f" (at most {SOLVE_TIME:g} s)"))

    def _take_solve(self, result: PlayResult, final: bool) -> None:
        """A solve's snapshot (a move settled) or its answer."""
        solved = self.solved
        if solved is None or solved["moves"] != tuple(self.board.move_stack):
            return
        info = result.info or {}
        scores = {str(k): int(v) for k, v in (info.get("scores") or {}).items()}
        solved["scores"] = scores
        if "unsettled" in info:           # the moves drawn on a spot (not Hex's swap)
            solved["unsettled"] = [n for n in info["unsettled"]
                                   if self.board.spot_of(self.board.parse_move(n)) is not None]
        else:
            solved["unsettled"] = [n for n in solved["unsettled"] if n not in scores]
        if final:
            exact = bool(info.get("exact"))
            if exact:
                solved["unsettled"] = []
            solved["state"] = ("exact" if exact else "stopped" if info.get("stopped")
                               else "partial")
            solved["note"] = str(info.get("fallback") or "")
        self._show_solve()
        if final:
            n, left = len(scores), len(solved["unsettled"])
            if solved["state"] == "exact":
                self.say(f"Solved: {n} move{'s' if n != 1 else ''}, exact scores "
                         f"(+ wins, 0 draws, - loses)", "done")
            else:
                self.say(f"Solve: {n} of {n + left} moves settled; the rest (?) were still "
                         f"being searched when the {SOLVE_TIME:g} s ran out")

    def _show_solve(self) -> None:
        """The solve's marks on the board and its lines in the panel."""
        solved = self.solved
        widget = self.board_widget
        if solved is None:
            widget.solve = None
        else:
            spots = {}
            for name, score in solved["scores"].items():
                spot = self.board.spot_of(self.board.parse_move(name))
                if spot is not None:
                    spots[tuple(spot)] = score
            unsettled = []
            for name in solved["unsettled"]:
                spot = self.board.spot_of(self.board.parse_move(name))
                if spot is not None:
                    unsettled.append(tuple(spot))
            widget.solve = {"scores": spots, "unsettled": unsettled}
        widget.refresh()
        self.query_one("#info", Static).update(self._info_text())

    def _clear_solve(self) -> None:
        if self.solved is not None:
            self.solved = None
            self.board_widget.solve = None

    def _solve_text(self) -> Text:
        """The panel's lines of the solve shown."""
        from boardai.ui.tui.picture import score_text
        solved = self.solved
        t = Text()
        if solved is None:
            return t
        palette = self.board_widget.palette
        t.append("\nSolve", "bold")
        n, left = len(solved["scores"]), len(solved["unsettled"])
        state = solved["state"]
        if state == "thinking":
            t.append("  thinking…", "italic")
            t.append(f" {n} of {n + left} settled\n")
        elif state == "exact":
            t.append("  exact\n")
        else:
            t.append(f"  {'stopped' if state == 'stopped' else 'time ran out'}: "
                     f"{n} of {n + left} settled\n")
        order = [self.board.move_name(m) for m in self.board.legal_moves]
        names = [m for m in order if m in solved["scores"] or m in solved["unsettled"]]
        if self.board.drops:
            for i, name in enumerate(names):
                if i and i % 4 == 0:
                    t.append("\n")
                t.append(f"{name}:")
                if name in solved["scores"]:
                    score = solved["scores"][name]
                    t.append(f"{score_text(score):<4}", palette.score(score))
                else:
                    t.append("?   ", palette.unsettled)
            t.append("\n")
        else:
            won = [m for m in names if solved["scores"].get(m, 0) > 0]
            lost = sum(1 for m in names if solved["scores"].get(m, 0) < 0)
            t.append("wins ✓: ", palette.won)
            t.append((" ".join(won[:12]) + (" …" if len(won) > 12 else "")) or "none")
            t.append("\n")
            t.append("loses ✗: ", palette.lost)
            t.append(f"{lost} move{'s' if lost != 1 else ''}")
            if left:
                t.append(f", {left} not settled", palette.unsettled)
            t.append("\n")
        return t

    def action_swap(self) -> None:
        game = game_of(self.board)
        if not game.swap_spellings:
            self.say(f"{game.title} has no swap rule", "error")
            return
        word = game.swap_spellings[0]
        if word not in self.board.legal_moves:
            self.say("Swap is White's first move only, in a game started with the swap rule "
                     "(--swap)", "error")
            return
        self.human_move(word)

    def action_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            if self.busy and self.thinking and self.thinking.startswith("move"):
                self._cancel()
            self.refresh_all()
            self.say("Engines paused: p resumes")
        else:
            self._prompt()
            self.advance()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(escape(game_of(self.board).hint(self.board)),
                                    escape(str(self.session.record_path))))

    def _choice(self) -> GameChoice:
        seats = self.session.seats
        return GameChoice(game=game_of(self.board).name, size=self.opts.size,
                          blocked=tuple(self.opts.blocked), swap=self.opts.swap,
                          black=seats[Color.BLACK].spec, white=seats[Color.WHITE].spec)

    def action_new(self, choice: GameChoice | None = None, problem: str = "") -> None:
        def chosen(answer: GameChoice | None) -> None:
            if answer is None:
                return
            opts = Options(game=answer.game, size=answer.size, blocked=answer.blocked,
                           swap=answer.swap, black=answer.black, white=answer.white,
                           seed=self.opts.seed, move_time=self.opts.move_time)
            try:
                session, note = start_game(opts)
            except (ValueError, RecordError, EOFError) as exc:
                self.action_new(answer, str(exc))
                return
            self._replace(session, opts, note or f"New game; record: {session.record_path}")
        self.push_screen(NewGameScreen(choice or self._choice(), problem), chosen)

    def _replace(self, session: TerminalGame, opts: Options, note: str) -> None:
        self._cancel()
        self._close_engines()
        self.session = session
        self.opts = opts
        self.paused = False
        self._new_session_shown(note)

    def action_save(self) -> None:
        def chosen(name: str | None) -> None:
            if name:
                self._save_as(name)
        self.push_screen(PathScreen("Save the record as", str(self.session.record_path),
                                    "Records are also written after every move to "
                                    f"{self.session.record_path}."), chosen)

    def _save_as(self, name: str) -> None:
        try:
            path = self.session.save(Path(name).expanduser())
        except OSError as exc:
            self.say(f"Cannot save to {name}: {exc.strerror or exc}", "error")
            return
        self.say(f"Saved to {path}")

    def action_load(self) -> None:
        def chosen(name: str | None) -> None:
            if name:
                self._load(name)
        folder = Path(self.session.record_path).parent
        self.push_screen(PathScreen("Load a record", str(folder) + "/",
                                    "An SGF record written by boardai play/tui (or HexGui); "
                                    "the game goes on from its last move."), chosen)

    def _load(self, name: str) -> None:
        opts = Options(game=self.opts.game, seed=self.opts.seed, load=str(Path(name).expanduser()))
        try:
            session, note = start_game(opts)
        except FileNotFoundError:
            self.say(f"Cannot load {name}: no such file", "error")
            return
        except (ValueError, RecordError, OSError, EOFError) as exc:
            self.say(f"Cannot load {name}: {exc}", "error")
            return
        self._replace(session, opts, note)

    def action_quit(self) -> None:
        if self.board.ply == 0 or self._over():
            self._quit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._quit()
        self.push_screen(ConfirmScreen("Quit this game?",
                                       f"{self.board.ply} moves played; the record is kept in "
                                       f"{self.session.record_path}."), answered)

    def _quit(self) -> None:
        self._cancel()
        if self.board.ply:
            self._save()
        self.exit(0)

    def _close_engines(self) -> None:
        for seat in self.session.seats.values():
            if seat.engine is not None:
                seat.engine.stop = None
                self.closed.append(seat.engine)

    def close_engines(self) -> None:
        """Close every engine this app used (after it has stopped; engine processes end)."""
        self._close_engines()
        if self.hint_engine is not None:
            self.closed.append(self.hint_engine)
        self.closed.extend(self.solve_engines.values())
        self.solve_engines = {}
        for engine in self.closed:
            try:
                engine.close()
            except Exception:      # closing is best effort
                pass
        self.closed = []

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "solve":         # offered only where the solver settles the board
            from boardai.engines.solver import solvable
            return not self._over() and solvable(self.board)[0]
        if action == "swap":
            game = game_of(self.board)
            if not game.swap_spellings or game.swap_spellings[0] not in self.board.legal_moves:
                return False
        return True


def _count(n: float) -> str:
    """12345 -> 12.3k, for the narrow panel."""
    n = float(n)
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n:.0f}"


__all__ = ["BoardApp", "Options", "start_game"]
