"""``boardai tui``: the full-screen game driven by Textual's Pilot, SVG snapshots, and tmux.

Pilot tests play by keys, by mouse and by typing; check that a bad move changes nothing, undo,
a finished game, save and load, the dialogs, the live engine panel and that quitting stops a
search.  Snapshots (``tests/__snapshots__/test_tui/``, ``--snapshot-update`` rewrites them) use
seeded engines with ``sims=`` budgets and relative record paths, so they are the same on every
machine.  The tmux test starts the real command in a real terminal and plays as a person would.
No assertion reads a clock; waits are polls with generous limits.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")

from click.testing import CliRunner  # noqa: E402

from boardai import records  # noqa: E402
from boardai.cli import main  # noqa: E402
from boardai.engines.base import Engine, PlayResult  # noqa: E402
from boardai.games import Color  # noqa: E402
from boardai.ui.terminal import Seat  # noqa: E402
from boardai.ui.tui import BoardApp, Options, start_game  # noqa: E402
from boardai.ui.tui.screens import ConfirmScreen, HelpScreen, NewGameScreen, PathScreen  # noqa: E402

LIMIT = 300.0          # seconds a poll waits at most (a fresh checkout compiles the searches)
ROOT = Path(__file__).resolve().parent.parent


def make_app(game="hex", size="5", black="human", white="human", seed=1, save="game.sgf",
             **kw) -> BoardApp:
    opts = Options(game=game, size=size, black=black, white=white, seed=seed, save=save, **kw)
    session, note = start_game(opts)
    return BoardApp(session, opts, note=note)


def run(app: BoardApp, script, size=(80, 24)):
    """Run ``script(pilot, app)`` inside ``app.run_test``."""
    async def go():
        async with app.run_test(size=size) as pilot:
            await idle(pilot, app)
            await script(pilot, app)
    asyncio.run(go())


async def idle(pilot, app: BoardApp) -> None:
    """Wait until no search runs and the screen has caught up."""
    await pilot.pause()
    end = time.monotonic() + LIMIT
    while app.busy and time.monotonic() < end:
        await pilot.pause(0.02)
    assert not app.busy, "the engine did not answer"
    await pilot.pause()


async def type_line(pilot, app: BoardApp, text: str) -> None:
    """Type ``text`` on the input line, as a person does (``:`` first), and Enter."""
    await pilot.press("colon")
    await pilot.press(*list(text) if text else [])
    await pilot.press("enter")
    await idle(pilot, app)


def names(app: BoardApp) -> list[str]:
    return [app.board.move_name(m) for m in app.board.move_stack]


def recorded(path) -> list[str]:
    """The moves of the record at ``path``, as names."""
    return records.load(path).to_board().moves_text().split()


@pytest.fixture(autouse=True)
def _here(tmp_path, monkeypatch):
    """Records go to the test's folder (relative names keep the snapshots the same)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDAI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)


# --- moves ---------------------------------------------------------------------------------

def test_keys_move_the_cursor_and_enter_plays(tmp_path):
    async def script(pilot, app):
        assert app.board_widget.cursor == (2, 2)
        await pilot.press("right", "up", "enter")
        await idle(pilot, app)
        assert names(app) == ["d2"]
        await pilot.press("left", "left", "left", "left", "left", "down", "down", "down", "space")
        await idle(pilot, app)
        assert names(app) == ["d2", "a5"]          # the cursor stops at the edge
        assert app.board_widget.picture.layout == "links"
    app = make_app()
    run(app, script)
    assert recorded(tmp_path / "game.sgf") == ["d2", "a5"]   # saved after each move


def test_connect4_left_right_pick_a_column_and_the_stone_drops():
    async def script(pilot, app):
        await pilot.press("left", "enter")         # cursor starts in column 4 of 7
        await idle(pilot, app)
        assert names(app) == ["3"]
        assert app.board.spot(2, 5) == 1           # on the bottom row (y counts from the top)
        await pilot.press("up", "up", "enter")     # up/down do nothing when a column is a move
        await idle(pilot, app)
        assert app.board.spot(2, 4) == 2
    run(make_app("connect4", "7x6"), script)


def test_mouse_click_plays_where_clicked():
    async def script(pilot, app):
        where = app.board_widget.screen_offset_of((1, 3))
        assert await pilot.click("#board", offset=where)
        await idle(pilot, app)
        assert names(app) == ["b4"]
        assert app.board_widget.cursor == (1, 3)
    run(make_app("hex", "5"), script)


def test_mouse_click_anywhere_in_a_column_drops_a_stone():
    async def script(pilot, app):
        where = app.board_widget.screen_offset_of((4, 0))      # the top spot of column 5
        await pilot.click("#board", offset=where)
        await idle(pilot, app)
        assert names(app) == ["5"]
        assert app.board.spot(4, 3) == 1
    run(make_app("connect4", "6x4"), script)


def test_typed_moves_and_illegal_input_change_nothing():
    async def script(pilot, app):
        await type_line(pilot, app, "c3")
        assert names(app) == ["c3"]
        before = app.board.copy()
        for text, words in (("c3", "already taken"), ("zz9", "a1..e5"), ("C9", "a1..e5")):
            await type_line(pilot, app, text)
            assert words in app.status_text, app.status_text
            assert app.query_one("#status").has_class("error")
            assert app.board == before
        where = app.board_widget.screen_offset_of((2, 2))      # click the stone on c3
        await pilot.click("#board", offset=where)
        await idle(pilot, app)
        assert "c3 is taken" in app.status_text
        assert app.board == before
        await type_line(pilot, app, "2 3")                      # row col from 0: d3
        assert names(app) == ["c3", "d3"]
    run(make_app("hex", "5"), script)


def test_a_full_column_is_refused_with_its_number():
    async def script(pilot, app):
        for _ in range(4):
            await pilot.press("enter")
            await idle(pilot, app)
        before = app.board.copy()
        await pilot.press("enter")
        await idle(pilot, app)
        assert "column 3 is full" in app.status_text
        assert app.board == before
        await type_line(pilot, app, "9")
        assert "column number 1-4" in app.status_text and app.board == before
    run(make_app("connect4", "4x4", blocked=("4:1",)), script)


def test_moves_are_refused_while_an_engine_is_to_move():
    async def script(pilot, app):
        await pilot.press("p")                     # engines paused: White (random) waits
        await pilot.press("enter")
        await idle(pilot, app)
        assert names(app) == ["c3"]
        await pilot.press("left", "enter")
        await idle(pilot, app)
        assert names(app) == ["c3"] and "White (W)'s turn" in app.status_text
        await pilot.press("p")                     # resumed: random answers
        await idle(pilot, app)
        assert len(names(app)) == 2
    run(make_app("hex", "5", white="random"), script)


def test_machine_against_machine_plays_to_the_end(tmp_path):
    async def script(pilot, app):
        end = time.monotonic() + LIMIT
        while not app.board.is_game_over() and time.monotonic() < end:
            await pilot.pause(0.05)
        await idle(pilot, app)
        assert app.board.is_game_over() and "wins after" in app.status_text
    run(make_app("hex", "5", black="random", white="mcts:sims=50"), script)
    assert len(recorded(tmp_path / "game.sgf")) >= 9


def test_swap_by_key_only_when_legal():
    async def script(pilot, app):
        assert app.check_action("swap", ()) is False
        await type_line(pilot, app, "a1")
        assert app.check_action("swap", ()) is True
        await pilot.press("w")
        await idle(pilot, app)
        assert names(app) == ["a1", "swap-pieces"] and app.board.spot(0, 0) == 2
        assert app.check_action("swap", ()) is False      # hidden, and the key does nothing
        before = app.board.copy()
        await pilot.press("w")
        await type_line(pilot, app, "swap")
        assert app.board == before and app.query_one("#status").has_class("error")
    run(make_app("hex", "3", swap=True), script)


def test_escape_leaves_the_input_line_and_typed_commands_work():
    async def script(pilot, app):
        await pilot.press("colon", "u")
        assert app.focused is app.query_one("#command")
        await pilot.press("escape")
        assert app.focused is app.board_widget
        await type_line(pilot, app, "b2")
        await type_line(pilot, app, "undo")
        assert names(app) == [] and app.focused is app.board_widget
        await type_line(pilot, app, "help")
        assert isinstance(app.screen, HelpScreen)
    run(make_app("hex", "3"), script)


def test_keys_that_reach_the_board_before_the_input_takes_focus_are_kept():
    """A fast typist's ``:e5``: the board hands ``e`` to the input line before the line has
    handled its own focus event, and the focus must not then select the ``e`` for the ``5`` to
    overwrite (the race a real terminal showed)."""
    from textual import events

    async def script(pilot, app):
        await app.board_widget.on_key(events.Key("colon", ":"))
        await app.board_widget.on_key(events.Key("e", "e"))
        await pilot.pause()                      # now the input line handles its focus event
        await pilot.press("5", "enter")
        await idle(pilot, app)
        assert names(app) == ["e5"]
    run(make_app("hex", "5"), script)


def test_no_players_given_opens_the_new_game_dialog():
    opts = Options(game="hex")
    session, note = start_game(opts)
    app = BoardApp(session, opts, note=note, ask=True)

    async def script(pilot, app):
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#white").value == "mcts:time=1"
        app.screen.query_one("#white").value = "random"
        app.screen.query_one("#size").value = "4"
        await pilot.click("#start")
        await idle(pilot, app)
        assert app.board.size_text == "4x4" and app.session.seats[Color.WHITE].spec == "random"
    run(app, script)


# --- undo, hint, a finished game --------------------------------------------------------------

def test_undo_takes_back_the_move_and_the_engines_answer(tmp_path):
    async def script(pilot, app):
        await pilot.press("enter")
        await idle(pilot, app)
        assert len(app.board.move_stack) == 2       # c3 and random's answer
        await pilot.press("u")
        await idle(pilot, app)
        assert app.board.ply == 0 and app.board.turn is Color.BLACK
        assert "Took back 2 moves" in app.status_text
        assert recorded(tmp_path / "game.sgf") == []
        await pilot.press("u")
        assert "Nothing to undo" in app.status_text
    run(make_app("hex", "5", white="random"), script)


def test_hint_marks_the_engines_suggestion():
    async def script(pilot, app):
        await pilot.press("h")
        await idle(pilot, app)
        assert app.status_text.startswith("Hint")
        hint = app.board_widget.hint
        assert hint is not None and app.board.spot(*hint) == 0
        x, y = hint
        col, line = app.board_widget.picture.cells[hint]
        assert app.board_widget.picture.lines[line].plain[col] == "*"
        await pilot.press("enter")                 # a move clears it
        await idle(pilot, app)
        assert app.board_widget.hint is None
    run(make_app("hex", "4", white="mcts:sims=300"), script)


def _finish(game, size, keys):
    seen = {}

    async def script(pilot, app):
        while not app.board.is_game_over():
            assert len(app.board.move_stack) < app.board.width * app.board.height + 2
            move = app.board.legal_moves[0]
            if keys:
                x, _ = app.board.spot_of(move)
                while app.board_widget.cursor[0] > x:
                    await pilot.press("left")
                while app.board_widget.cursor[0] < x:
                    await pilot.press("right")
                await pilot.press("enter")
                await idle(pilot, app)
            else:
                await type_line(pilot, app, app.board.move_name(move))
        seen["status"] = app.status_text
        seen["view"] = app.board.view()
        seen["picture"] = app.board_widget.picture
        before = app.board.copy()
        await pilot.press("enter")                 # nothing more to play
        await idle(pilot, app)
        assert "game is over" in app.status_text and app.board == before
    app = make_app(game, size, white="random", seed=3)
    run(app, script)
    return app, seen


def test_a_finished_hex_game_says_who_won_and_shows_the_chain(tmp_path):
    app, seen = _finish("hex", "3", keys=False)
    outcome = app.board.outcome()
    assert outcome is not None and f"{outcome.winner} wins after" in seen["status"]
    wins = [tuple(s) for s in seen["view"]["win"]]
    assert wins
    for spot in wins:                              # drawn as the chain's glyph
        col, line = seen["picture"].cells[spot]
        assert seen["picture"].lines[line].plain[col] == "◆"
    rec = records.load(tmp_path / "game.sgf")
    assert rec.result == outcome.result() and rec.white == "random"


def test_a_finished_connect4_game_played_by_keys(tmp_path):
    app, seen = _finish("connect4", "4x4", keys=True)
    outcome = app.board.outcome()
    assert outcome is not None
    assert ("Draw" if outcome.winner is None else f"{outcome.winner} wins") in seen["status"]
    assert recorded(tmp_path / "game.sgf") == names(app)


# --- records ---------------------------------------------------------------------------------

def test_save_as_and_load_through_the_dialogs(tmp_path):
    async def script(pilot, app):
        await type_line(pilot, app, "b2")
        await type_line(pilot, app, "c1")
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        app.screen.query_one("#path").value = "copy.sgf"
        await pilot.press("enter")
        await idle(pilot, app)
        assert "Saved to copy.sgf" in app.status_text
        await pilot.press("u")
        assert app.board.ply == 1
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#path").value = "nowhere.sgf"
        await pilot.press("enter")
        await idle(pilot, app)
        assert "Cannot load nowhere.sgf" in app.status_text and app.board.ply == 1
        await type_line(pilot, app, "load copy.sgf")
        assert names(app) == ["b2", "c1"]
        assert "Loaded copy.sgf" in app.status_text
        await type_line(pilot, app, "d4")          # the loaded game goes on, recorded there
    run(make_app("hex", "4"), script)
    assert recorded(tmp_path / "copy.sgf") == ["b2", "c1", "d4"]
    assert recorded(tmp_path / "game.sgf") == ["b2"]


def test_load_option_resumes_a_record(tmp_path):
    rec_path = tmp_path / "old.sgf"
    board = start_game(Options(game="connect4", size="5x4", black="human", white="human",
                               save=str(rec_path)))[0]
    board.board.push_many("3 3 2")
    board.save()
    app = make_app(load=str(rec_path), game="connect4", size=None, black=None, white=None,
                   save=None)

    async def script(pilot, app):
        assert names(app) == ["3", "3", "2"] and app.board.width == 5
        await pilot.press("enter")
        await idle(pilot, app)
    run(app, script)
    assert recorded(rec_path) == ["3", "3", "2", "3"]


# --- dialogs -----------------------------------------------------------------------------------

def test_new_game_dialog_starts_the_game_it_describes():
    async def script(pilot, app):
        await type_line(pilot, app, "a1")
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#game").value = "connect4"
        await pilot.pause()
        assert dialog.query_one("#swap").disabled
        dialog.query_one("#size").value = "99x2"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)            # refused, and says why
        assert "99" in str(app.screen.query_one("#problem").render())
        app.screen.query_one("#size").value = "5x4"
        app.screen.query_one("#blocked").value = "1:1"
        app.screen.query_one("#white").value = "random"
        await pilot.click("#start")
        await idle(pilot, app)
        assert app.board.width == 5 and app.board.height == 4 and app.board.ply == 0
        assert app.board.setup == ((0, 0),) and app.session.seats[Color.WHITE].spec == "random"
    run(make_app("hex", "3"), script)


def test_quit_asks_while_a_game_runs_and_stops_the_search():
    engine = SlowEngine()

    async def script(pilot, app):
        await pilot.press("q")                     # nothing played yet: no question
    app = make_app("hex", "4")
    run(app, script)
    assert app.return_code == 0

    async def script2(pilot, app):
        app.session.seats[Color.WHITE] = Seat("slow", engine)
        await pilot.press("enter")
        await pilot.pause()
        assert engine.started.wait(LIMIT)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.busy
        await pilot.press("q", "y")
    app = make_app("hex", "4")
    run(app, script2)
    assert engine.stopped.wait(LIMIT)               # quitting set engine.stop


def test_help_screen_lists_the_keys():
    async def script(pilot, app):
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("x")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
    run(make_app(), script)


# --- the engine panel --------------------------------------------------------------------------

class SlowEngine(Engine):
    """Reports one snapshot, then searches until told to stop (or a minute passes)."""

    name = "slow"

    def __init__(self):
        super().__init__()
        self.started = threading.Event()
        self.stopped = threading.Event()

    def play(self, board, limit=None):
        move = board.legal_moves[0]
        snap = PlayResult(move, board.move_name(move), value=0.5, pv=["a1", "b2"], nodes=12345,
                          time_s=0.5, info={"winrate": 0.75})
        self.started.set()
        if self.on_info is not None:
            self.on_info(snap)
        if self.stop is not None and self.stop.wait(60):
            self.stopped.set()
        return snap


def test_the_panel_shows_the_search_live_and_the_screen_stays_responsive():
    engine = SlowEngine()

    async def script(pilot, app):
        app.session.seats[Color.WHITE] = Seat("slow", engine)
        await pilot.press("enter")
        assert engine.started.wait(LIMIT)
        end = time.monotonic() + LIMIT
        while app.info is None and time.monotonic() < end:
            await pilot.pause(0.02)
        text = app._info_text().plain
        assert "thinking... 0.5 s, 24.7k nodes/s" in text and "75.0%" in text
        assert "pv a1 b2" in text
        cursor = app.board_widget.cursor
        await pilot.press("left")                  # the screen answers while it searches
        assert app.board_widget.cursor != cursor and app.busy
        await pilot.press("u")                     # undo stops the search
        await idle(pilot, app)
        assert engine.stopped.is_set() and app.board.ply == 0
    run(make_app("hex", "4"), script)


def test_an_engine_that_fails_is_reported_and_the_game_kept(tmp_path):
    class Broken(Engine):
        name = "broken"

        def play(self, board, limit=None):
            raise RuntimeError("out of cheese")

    async def script(pilot, app):
        app.session.seats[Color.WHITE] = Seat("broken", Broken())
        await pilot.press("enter")
        await idle(pilot, app)
        assert "out of cheese" in app.status_text and app.paused
    run(make_app("hex", "4"), script)
    assert recorded(tmp_path / "game.sgf") == ["c3"]


def test_no_color_keeps_the_stones_apart(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")

    async def script(pilot, app):
        assert app.mono
        await type_line(pilot, app, "a1")
        await type_line(pilot, app, "b1")
        plain = "\n".join(line.plain for line in app.board_widget.picture.lines)
        assert "●" in plain and "○" in plain and "(○)" in plain
    run(make_app("hex", "3"), script)


def test_connect4_draws_the_x_and_o_its_panel_names_with_and_without_colour(monkeypatch):
    from rich.color import Color as RichColor

    def brightness(colour) -> float:
        r, g, b = colour.get_truecolor()
        return (r + g + b) / 3

    for mono in (False, True):
        if mono:
            monkeypatch.setenv("NO_COLOR", "1")

        async def script(pilot, app):
            await type_line(pilot, app, "4")
            await type_line(pilot, app, "3")
            plain = "\n".join(line.plain for line in app.board_widget.picture.lines)
            assert "X" in plain and "O" in plain and "●" not in plain
            panel = str(app.query_one("#info").render())
            assert "X Black (X)" in panel and "O White (O)" in panel
            palette = app.board_widget.palette
            black, white = RichColor.parse(palette.black.split()[1]), \
                RichColor.parse(palette.white.split()[1])
            assert brightness(black) < 64 < 192 < brightness(white)    # dark Black, light White
        run(make_app("connect4", "7x6"), script)


def test_the_swap_box_is_empty_when_off_and_marked_when_on():
    from boardai.ui.tui.screens import Tick

    async def script(pilot, app):
        await pilot.press("n")
        await pilot.pause()
        box = app.screen.query_one("#swap", Tick)
        assert box.value is False and box._button.plain == "▐ ▌"
        box.value = True
        assert box._button.plain == "▐X▌"
    run(make_app("hex", "3"), script)


def test_too_small_a_terminal_says_so():
    async def script(pilot, app):
        assert app.board_widget.too_small is not None
        assert "too small" in app.board_widget.too_small and "11x11" in app.board_widget.too_small
    run(make_app("hex", "11"), script, size=(50, 14))


def test_cli_refuses_bad_options_before_the_screen_starts():
    result = CliRunner().invoke(main, ["tui", "--game", "hex", "--size", "zz", "--black", "human"])
    assert result.exit_code == 2 and "bad board size" in result.output
    result = CliRunner().invoke(main, ["tui", "--white", "nosuchengine"])
    assert result.exit_code == 2 and "nosuchengine" in result.output


# --- solve -------------------------------------------------------------------------------------

def _solve_in_tui(moves: str, game="connect4", size="7x6", mono=None, keys=("e",)):
    """The TUI's solve of the position after ``moves`` (column digits, or Hex cells split by
    spaces): the app once the solve has ended, and the board's picture and palette then."""
    opts = Options(game=game, size=size, black="human", white="human", seed=1, save="game.sgf")
    session, note = start_game(opts)
    session.board.push_many(moves)
    app = BoardApp(session, opts, note=note, mono=mono)

    async def script(pilot, app):
        for key in keys:
            await pilot.press(key)
        await idle(pilot, app)
        seen.update(picture=app.board_widget.picture, palette=app.board_widget.palette)
    seen: dict = {}
    run(app, script)
    return app, seen["picture"], seen["palette"]


@pytest.mark.parametrize("moves", ["43", "44444433333322", "2252576253462244111563"])
def test_solve_gives_the_scores_of_the_web_page_and_of_solve_analyze(moves):
    """Pressing e scores every column exactly: the same scores as the page's Solve (through
    the server's API) and as `boardai solve connect4 --analyze`: from the book, one move past
    it, and searched."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from boardai.ui.web.app import create_app

    app, picture, _ = _solve_in_tui(moves)
    assert app.solved["state"] == "exact" and app.solved["unsettled"] == []
    tui = app.solved["scores"]
    cli = CliRunner().invoke(main, ["solve", "connect4", "--analyze"], input=moves + "\n")
    columns = cli.stdout.split()[1:]
    assert {str(c + 1): int(v) for c, v in enumerate(columns) if v != "-1000"} == tui
    web_app = create_app(max_games=2)
    with TestClient(web_app, headers={"X-Boardai-Token": web_app.state.token}) as client:
        gid = client.post("/api/games", json={"game": "connect4", "black": "human",
                                               "white": "human"}).json()["id"]
        for col in moves:
            client.post(f"/api/games/{gid}/move", json={"move": col})
        web = client.post(f"/api/games/{gid}/solve").json()
    assert web["exact"] and web["scores"] == tui
    # drawn above the columns, in the order of the columns, readable without colour
    top = picture.lines[0].plain.split()
    assert top == [("+%d" % v if v > 0 else str(v)) for c, v in
                   sorted((int(k), v) for k, v in tui.items())]


def test_solve_scores_are_coloured_by_sign_and_readable_without_colour():
    _, picture, palette = _solve_in_tui("43")
    line = picture.lines[0]
    style = {i: str(span.style) for span in line.spans for i in range(span.start, span.end)}
    text = line.plain
    for word, want in (("+2", palette.won), ("-2", palette.lost), (" 0 ", palette.drawn)):
        at = text.index(word) + (1 if word.startswith(" ") else 0)
        assert {style[i] for i in range(at, at + len(word.strip()))} == {want}
    _, picture, _ = _solve_in_tui("43", mono=True)
    assert picture.lines[0].plain.split() == \
        ["-3", "-3", "0", "0", "-2", "+2", "+1"]


def test_solve_on_hex_marks_the_won_and_lost_cells():
    app, picture, _ = _solve_in_tui("", game="hex", size="3")
    assert app.solved["state"] == "exact" and app.solved["scores"]["b2"] == 1
    x, y = app.board.spot_of(app.board.parse_move("b2"))
    col, line = picture.cells[(x, y)]
    assert picture.lines[line].plain[col] == "✓"
    assert "✗" in "".join(t.plain for t in picture.lines)


def test_solve_is_offered_only_where_the_solver_settles_the_board():
    course = make_app("connect4", "12x12", blocked=("6:1",), white="human")

    async def script(pilot, app):
        assert app.check_action("solve", ()) is False       # not in the footer, e does nothing
        await type_line(pilot, app, "solve")
        assert "Solve is not offered here" in app.status_text
        assert "does not take 12x12 with blocked cells" in app.status_text
        assert app.solved is None and not app.busy
    run(course, script)
    assert make_app("connect4", "7x6").check_action("solve", ()) is True


def test_solve_searches_until_stopped_and_a_move_clears_it():
    """8x7 has no book: the solve thinks on (settled columns shown as they come) until e is
    pressed again, then stops at once; a move clears the marks and stops a running solve."""
    app = make_app("connect4", "8x7")

    async def script(pilot, app):
        await pilot.press("e")
        await pilot.pause()
        assert app.busy and app.solved["state"] == "thinking"
        assert "thinking" in str(app._info_text())
        assert app.board_widget.picture.lines[0].plain.count("?") >= 1
        end = time.monotonic() + LIMIT
        while not app.searching() and time.monotonic() < end:      # the worker has started
            await pilot.pause(0.02)
        await pilot.press("e")
        await pilot.pause()
        assert not app.busy and app.solved["state"] == "stopped"
        assert "Solve stopped" in app.status_text
        end = time.monotonic() + LIMIT
        while app.searching() and time.monotonic() < end:          # the search ended too
            await pilot.pause(0.02)
        assert not app.searching()
        await pilot.press("e")                                     # again, then a move
        await pilot.pause()
        assert app.busy and app.solved["state"] == "thinking"
        await pilot.press("enter")
        await idle(pilot, app)
        assert app.board.ply == 1 and app.solved is None and app.board_widget.solve is None
        end = time.monotonic() + LIMIT
        while app.searching() and time.monotonic() < end:
            await pilot.pause(0.02)
        assert not app.searching()
    run(app, script)


# --- snapshots ---------------------------------------------------------------------------------

def _snap(pilot_keys=(), typed=()):
    async def before(pilot):
        app = pilot.app
        await idle(pilot, app)
        for text in typed:
            await type_line(pilot, app, text)
        for key in pilot_keys:
            await pilot.press(key)
            await idle(pilot, app)
        await idle(pilot, app)
    return before


def test_snapshot_hex_against_mcts(snap_compare):
    app = make_app("hex", "7", white="mcts:sims=400", seed=1)
    assert snap_compare(app, run_before=_snap(("enter", "left", "up", "enter")))


def test_snapshot_hex_11_fits_80x24(snap_compare):
    app = make_app("hex", "11", white="mcts:sims=200", seed=2)
    assert snap_compare(app, run_before=_snap(typed=("f6", "e7")))


def test_snapshot_connect4_12x12_with_a_blocked_cell(snap_compare):
    app = make_app("connect4", "12x12", blocked=("6:1",), white="mcts:sims=300", seed=1)
    assert snap_compare(app, run_before=_snap(("left", "enter", "right", "enter")))


def test_snapshot_connect4_won(snap_compare):
    app = make_app("connect4", "7x6", white="human")
    assert snap_compare(app, run_before=_snap(typed=("4", "5", "3", "5", "2", "5", "1")))


def test_snapshot_connect4_solved(snap_compare):
    app = make_app("connect4", "7x6", white="human")
    assert snap_compare(app, run_before=_snap(("e",), typed=("4", "3")))


def test_snapshot_new_game_dialog(snap_compare):
    app = make_app("hex", "7", white="mcts:sims=400")
    assert snap_compare(app, run_before=_snap(("n",)))


def test_snapshot_help(snap_compare):
    assert snap_compare(make_app("hex", "5"), run_before=_snap(("question_mark",)))


def test_snapshot_too_small(snap_compare):
    assert snap_compare(make_app("hex", "11"), terminal_size=(60, 16))


# --- a real terminal ---------------------------------------------------------------------------

def _tmux(*args, check=True) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=check,
                          timeout=60).stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt install tmux)")
def test_tmux_a_person_plays_by_keys_and_quits(tmp_path):
    exe = Path(sys.executable).parent / "boardai"
    if not exe.exists():
        pytest.skip(f"{exe} is missing: install boardai in the venv (make venv)")
    session = f"boardai-tui-test-{os.getpid()}"
    record = tmp_path / "tmux.sgf"
    cmd = (f"cd {tmp_path} && TERM=xterm-256color {exe} tui --game hex --size 5 --black human "
           f"--white random --seed 4 --save {record}; echo EXITED $?; sleep 30")
    _tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", cmd)

    def screen() -> str:
        return _tmux("capture-pane", "-p", "-t", session)

    def wait_for(what, limit=LIMIT) -> str:
        end = time.monotonic() + limit
        text = screen()
        while not what(text) and time.monotonic() < end:
            time.sleep(0.2)
            text = screen()
        assert what(text), text
        return text

    try:
        wait_for(lambda s: "Black (B) to move" in s)
        _tmux("send-keys", "-t", session, "Enter")               # c3
        wait_for(lambda s: s.count("●") >= 4 and "Black (B) to move" in s)
        _tmux("send-keys", "-t", session, "Left", "Up", "Enter")  # b2
        wait_for(lambda s: s.count("●") >= 6 and "(move 5)" in s)
        _tmux("send-keys", "-t", session, ":", "e", "5", "Enter")
        text = wait_for(lambda s: "(move 7)" in s or "wins" in s)
        assert "c3" in text and "b2" in text and "e5" in text          # the move list
        _tmux("send-keys", "-t", session, "q")
        wait_for(lambda s: "Quit this game?" in s)
        _tmux("send-keys", "-t", session, "y")
        text = wait_for(lambda s: "EXITED 0" in s)
        assert "Game record:" in text
        assert recorded(record)[:5:2] == ["c3", "b2", "e5"]
    finally:
        _tmux("kill-session", "-t", session, check=False)
