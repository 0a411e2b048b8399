"""The one rule for a move's time (engines/budget.py): what it decides, and that the arena, the GTP
server, the web page, the terminal game and the full-screen terminal all give an engine the limit
it decides for the same spec and settings.  Engines here answer at once (their ``play`` is
replaced by a recorder of the limit it was given), so nothing depends on the machine's speed."""

from __future__ import annotations

import asyncio
import io
import time

import pytest

from boardai.arena.compete import think_time
from boardai.arena.runner import GameTask, play_task
from boardai.engines.base import Limit, PlayResult
from boardai.engines.budget import TimeControl, move_limit
from boardai.engines.registry import make_engine
from boardai.games import Color
from boardai.games.setup import BoardSetup
from boardai.ui.gtp_server import GtpServer
from boardai.ui.setup import build_game

SPECS = ("mcts", "mcts:time=2", "mcts:sims=500", "mcts:time=2,sims=300", "alphabeta:depth=3",
         "random")


def test_the_rule_clock_then_spec_then_the_callers_time():
    eng = make_engine
    # the caller's time per move is the time of an engine whose spec gives none ...
    assert move_limit(eng("mcts"), per_move=0.7).time == 0.7
    # ... a spec's own time= stays ...
    assert move_limit(eng("mcts:time=2"), per_move=0.7).time == 2.0
    # ... and a spec's sims=/depth= bound the search beside it
    assert move_limit(eng("mcts:sims=500"), per_move=0.7) == Limit(time=0.7, sims=500)
    assert move_limit(eng("alphabeta:depth=3"), per_move=0.7) == Limit(time=0.7, depth=3)
    # a clock replaces the spec's time=, and keeps its sims=
    assert move_limit(eng("mcts:time=2,sims=300"), per_move=0.7, clock=0.4) == \
        Limit(time=0.4, sims=300)
    assert move_limit(eng("mcts:time=2"), clock=5.0).time == 5.0
    # nothing given: the spec's own limit; an engine without a clock of its own takes no time
    assert move_limit(eng("mcts:time=2")) == Limit(time=2.0)
    assert move_limit(eng("random"), per_move=0.7, clock=0.4) == eng("random").default_limit
    # the limit is complete: the engine searches with exactly it
    for spec in SPECS:
        e = eng(spec)
        for per_move, clock in ((None, None), (0.7, None), (0.7, 0.4)):
            limit = move_limit(e, per_move, clock)
            assert e._limit(limit) == limit


def test_a_time_control_shares_its_time_over_the_moves():
    clock = TimeControl()
    assert clock.budget(Color.BLACK, 25) is None
    clock.byo, clock.stones = 0.5, 1
    assert clock.budget(Color.BLACK, 25) == pytest.approx(0.475)  # a hard limit: 0.5 - 5 %
    clock.byo, clock.stones = 1.0, 1                                # time_settings 0 1 1
    assert clock.budget(Color.BLACK, 25) == pytest.approx(0.95)
    clock.byo, clock.stones = 30.0, 10                              # 3 s a stone: 2.9 s
    assert clock.budget(Color.BLACK, 25) == pytest.approx(2.9)
    assert clock.budget(Color.BLACK, 25) == pytest.approx(think_time(3.0))   # one margin
    clock.left[Color.BLACK] = (10.0, 0)
    clock.spend(Color.BLACK, 2.0)
    assert clock.left[Color.BLACK] == (8.0, 0)
    assert clock.budget(Color.BLACK, 40) == pytest.approx(0.9 * 8.0 / 20 - 0.05)


@pytest.fixture()
def seen(monkeypatch):
    """The limits the engines of ``SPECS`` are asked to move with (warm-up searches left out);
    each answers its first legal move at once."""
    limits: list = []
    for cls in {type(make_engine(spec)) for spec in SPECS}:
        def play(self, board, limit=None, _cls=cls):
            if limit is not type(self).warm_limit:
                limits.append(limit)
            move = board.legal_moves[0]
            return PlayResult(move, board.move_name(move))
        monkeypatch.setattr(cls, "play", play)
        monkeypatch.setattr(cls, "analyse", play)
    return limits


def _arena(spec: str, per_move: float | None) -> GameTask:
    task = GameTask("k", 0, spec, spec, True, BoardSetup("hex", 5, 5), (), 1,
                    move_time=per_move)
    return task


def _terminal(spec: str, per_move: float | None):
    return build_game("hex", "5", False, spec, spec, 1, None, None, False,
                      out=io.StringIO(), move_time=per_move)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("per_move", (None, 0.7))
def test_arena_gtp_and_the_terminal_give_the_rules_limit(spec, per_move, seen, tmp_path,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    expected = move_limit(make_engine(spec), per_move=per_move)
    game = play_task(_arena(spec, per_move))                  # the arena: both engines, every move
    assert game.moves and seen and set(seen) == {expected}
    seen.clear()
    session = _terminal(spec, per_move)                       # play (and the tui's session)
    session.machine_turn(session.seats[Color.BLACK])
    session.machine_turn(session.seats[Color.WHITE])
    assert seen == [expected, expected]
    if per_move is None:                                      # GTP has no time per move: its
        seen.clear()                                          # time is a clock (below)
        server = GtpServer(make_engine(spec), "hex", "5")
        assert server.handle("genmove b").startswith("= ")
        assert seen == [expected]


@pytest.mark.parametrize("spec", SPECS)
def test_gtp_time_settings_are_the_clock_of_the_rule(spec, seen):
    engine = make_engine(spec)
    server = GtpServer(engine, "hex", "5")
    assert server.handle("time_settings 0 0.5 1") == "=\n\n"
    assert server.handle("genmove b").startswith("= ")
    assert seen == [move_limit(engine, clock=server.clock.budget(Color.BLACK, 25))]
    if engine.timed:
        assert seen[0].time == pytest.approx(0.475)           # not the spec's time=


@pytest.mark.parametrize("spec", ("mcts", "mcts:time=2", "mcts:sims=500", "alphabeta:depth=3"))
def test_the_web_page_gives_the_rules_limit(spec, seen, tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from boardai.ui.web.app import create_app

    app = create_app(store=tmp_path / "arena.sqlite", max_games=2)
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as client:
        r = client.post("/api/games", json={"game": "hex", "size": "5", "black": spec,
                                            "white": "human", "time": 0.7})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["state"]["moves"]:
                    break
    assert seen == [move_limit(make_engine(spec), per_move=0.7)]


@pytest.mark.parametrize("spec", ("mcts", "mcts:time=2", "mcts:sims=500"))
def test_the_full_screen_terminal_gives_the_rules_limit(spec, seen, tmp_path, monkeypatch):
    pytest.importorskip("textual")
    from boardai.ui.tui import BoardApp, Options, start_game

    monkeypatch.chdir(tmp_path)
    opts = Options(game="hex", size="5", black=spec, white="human", seed=1, save="g.sgf",
                   move_time=0.7)
    session, note = start_game(opts)
    app = BoardApp(session, opts, note=note)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            end = time.monotonic() + 300          # a deadline for a stuck app, not a timing
            while not (app.board.ply and not app.busy) and time.monotonic() < end:
                await pilot.pause(0.02)
    asyncio.run(go())
    assert app.board.ply == 1
    assert seen == [move_limit(make_engine(spec), per_move=0.7)]
