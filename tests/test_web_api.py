"""The web page's server through Starlette's test client: new games, moves by name and by spot,
engines replying, undo, resign, the analysis stream, solving, SGF both ways, the arena stores,
bad input of every kind refused with a clear JSON message and nothing changed, requests from
other origins or without the server's token refused, and games recorded as they are played
and played on after the server is killed (``boardai serve`` in a subprocess).  No assertion
reads the wall clock: waits follow the websocket's state messages."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from boardai import records  # noqa: E402
from boardai.cli import main  # noqa: E402
from boardai.ui.web.app import create_app  # noqa: E402

JSON = {"content-type": "application/json"}
SGF = {"content-type": "application/x-go-sgf"}


@pytest.fixture()
def client(tmp_path):
    app = create_app(store=tmp_path / "arena.sqlite", max_games=8)
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as c:
        yield c


def new_game(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def wait_state(client, gid, done):
    """The game's state once ``done(state)``: the websocket's state messages are read until
    one is (the first is the state now); no deadline, the engines' own budgets end their
    moves."""
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        while True:
            msg = ws.receive_json()
            if msg["type"] == "state" and done(msg["state"]):
                return msg["state"]


def refused(response, status=400, *words):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    for word in words:
        assert word in error, error
    return error


def test_meta_lists_games_engines_and_stores(client):
    meta = client.get("/api/meta").json()
    names = {g["name"] for g in meta["games"]}
    assert {"hex", "connect4", "tictactoe"} <= names
    engines = {e["name"]: e for e in meta["engines"]}
    assert "mcts" in engines and "human" not in engines
    assert not engines["gtp"]["allowed"] and engines["gtp"]["starts_program"]
    assert any(o["name"] == "time" for o in engines["mcts"]["options"])
    assert meta["allow_programs"] is False


def test_page_and_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert "http://" not in page.text and "https://" not in page.text     # nothing from a CDN


def test_hex_moves_by_name_and_spot_undo_and_a_finished_game(client):
    s = new_game(client, game="hex", size="3", black="human", white="human")
    gid = s["id"]
    assert s["view"]["shape"] == "hex" and s["edges"] == {"black": "top-bottom",
                                                          "white": "left-right"}
    assert len(s["legal"]) == 9
    s = client.post(f"/api/games/{gid}/move", json={"move": "b1"}).json()
    assert s["view"]["spots"][0][1] == 1 and s["view"]["last"] == [1, 0]
    s = client.post(f"/api/games/{gid}/move", json={"x": 0, "y": 0}).json()
    assert s["view"]["spots"][0][0] == 2 and [m["name"] for m in s["moves"]] == ["b1", "a1"]
    s = client.post(f"/api/games/{gid}/undo").json()
    assert [m["name"] for m in s["moves"]] == ["b1"]
    for move in ("a1", "b2", "c1", "b3"):
        s = client.post(f"/api/games/{gid}/move", json={"move": move}).json()
    assert s["view"]["over"] and s["view"]["winner"] == "black"
    assert s["view"]["win"] == [[1, 0], [1, 1], [1, 2]]
    assert s["legal"] == {} and s["clocks"]["running"] is None
    refused(client.post(f"/api/games/{gid}/move", json={"move": "c3"}), 400, "over")
    view = client.get(f"/api/games/{gid}/view?ply=1").json()
    assert sum(v != 0 for row in view["spots"] for v in row) == 1


def test_illegal_and_malformed_moves_change_nothing(client):
    s = new_game(client, game="hex", size="5", black="human", white="human")
    gid = s["id"]
    client.post(f"/api/games/{gid}/move", json={"move": "c3"})
    before = client.get(f"/api/games/{gid}").json()
    refused(client.post(f"/api/games/{gid}/move", json={"move": "c3"}), 400, "taken")
    refused(client.post(f"/api/games/{gid}/move", json={"move": "z99"}), 400, "a1")
    refused(client.post(f"/api/games/{gid}/move", json={"x": 9, "y": 0}), 400, "off the")
    refused(client.post(f"/api/games/{gid}/move", json={"x": "a", "y": 0}), 400)
    refused(client.post(f"/api/games/{gid}/move", json={"move": 3}), 400)
    refused(client.post(f"/api/games/{gid}/move", json={"move": "c3", "pass": 1}), 400, "unknown")
    refused(client.post(f"/api/games/{gid}/move", json={"move": "c3", "x": 0, "y": 0}), 400,
            "one way")
    refused(client.post(f"/api/games/{gid}/move", json={"move": "b2", "x": 1}), 400, "one way")
    refused(client.post(f"/api/games/{gid}/move", content=b"{not json", headers=JSON), 400,
            "JSON")
    refused(client.post(f"/api/games/{gid}/move", content=b"[1, 2]", headers=JSON), 400,
            "object")
    refused(client.post(f"/api/games/{gid}/move", content=b"x" * 70_000, headers=JSON), 413,
            "KiB")
    refused(client.post(f"/api/games/{gid}/move", content=b'{"move": "b2"}'), 415,
            "application/json")
    refused(client.get(f"/api/games/{gid}/view?ply=7"), 400, "0..1")
    refused(client.get(f"/api/games/{gid}/view?ply=-1"), 400)
    refused(client.post("/api/games/g999/move", json={"move": "a1"}), 404, "no game")
    after = client.get(f"/api/games/{gid}").json()
    for key in ("view", "moves", "legal"):
        assert after[key] == before[key]


@pytest.mark.parametrize("body,words", [
    ({"game": "chess"}, ("hex", "connect4")),
    ({"game": "hex", "size": "0"}, ("side",)),
    ({"game": "hex", "size": "abc"}, ("size",)),
    ({"game": "connect4", "size": "7"}, ("WxH",)),
    ({"game": "connect4", "size": "40x40"}, ("32x32",)),
    ({"game": "connect4", "blocked": ["9:1"]}, ("off",)),
    ({"game": "connect4", "blocked": ["x"]}, ("COL:ROW",)),
    ({"game": "connect4", "blocked": 5}, ("COL:ROW",)),
    ({"game": "hex", "blocked": ["1:1"]}, ("blocked",)),
    ({"game": "hex", "size": "random"}, ("random",)),
    ({"game": "hex", "black": "nosuchengine"}, ("unknown engine",)),
    ({"game": "hex", "black": "mcts:sims=-5"}, ("sims",)),
    ({"game": "hex", "black": "mcts:time=nan"}, ("time",)),
    ({"game": "hex", "black": "gtp:echo hi"}, ("--allow-programs",)),
    ({"game": "hex", "black": "strategy:/tmp/x.so"}, ("--allow-programs",)),
    ({"game": "hex", "black": "nn:model=/etc/passwd"}, ("--allow-programs",)),
    ({"game": "hex", "black": "policy:model=../../x.npz"}, ("--allow-programs",)),
    ({"game": "hex", "black": ""}, ("engine spec",)),
    ({"game": "hex", "black": 7}, ("engine spec",)),
    ({"game": "hex", "time": -1}, ("time",)),
    ({"game": "hex", "time": 1e9}, ("time",)),
    ({"game": "hex", "time": "1"}, ("time",)),
    ({"game": "hex", "swap": "yes"}, ("swap",)),
    ({"game": "hex", "seed": -3}, ("seed",)),
    ({"game": "hex", "colour": "red"}, ("unknown field",)),
])
def test_bad_new_games_are_refused_with_what_is_accepted(client, body, words):
    before = len(client.get("/api/games").json())
    refused(client.post("/api/games", json=body), 400, *words)
    assert len(client.get("/api/games").json()) == before


def test_connect4_course_board_and_engine_reply(client):
    s = new_game(client, game="connect4", size="random", blocked="random", seed=5,
                 black="human", white="random:seed=1")
    gid = s["id"]
    assert len(s["blocked"]) == 1 and 9 <= s["view"]["width"] <= 12
    assert sum(v == 3 for row in s["view"]["spots"] for v in row) == 1
    col = next(iter(s["legal"]))
    s = client.post(f"/api/games/{gid}/move", json={"move": col}).json()
    s = wait_state(client, gid, lambda st: len(st["moves"]) == 2)
    assert len(s["moves"]) == 2 and s["moves"][1]["color"] == "white"
    assert s["view"]["turn"] == "black"
    # undo takes back the engine's reply and the human's move
    s = client.post(f"/api/games/{gid}/undo").json()
    assert s["moves"] == [] and s["view"]["turn"] == "black"


def test_no_human_move_while_the_engine_thinks(client):
    s = new_game(client, game="hex", size="7", black="mcts:time=60,solver=0", white="human")
    gid = s["id"]
    assert s["thinking"] == "black"
    refused(client.post(f"/api/games/{gid}/move", json={"move": "a1"}), 400, "wait for the engine")
    search = client.app.state.sessions.get(gid).search
    client.delete(f"/api/games/{gid}")
    assert search.stop.is_set()


def test_engines_play_each_other_to_the_end_and_the_record_downloads(client):
    s = new_game(client, game="connect4", size="5x4", black="random:seed=2",
                 white="random:seed=3")
    gid = s["id"]
    s = wait_state(client, gid, lambda st: st["view"]["over"])
    assert s["view"]["over"] and s["thinking"] is None
    sgf = client.get(f"/api/games/{gid}/sgf")
    assert sgf.status_code == 200 and "attachment" in sgf.headers["content-disposition"]
    rec = records.loads(sgf.text)
    assert len(rec.moves) == len(s["moves"]) and (rec.width, rec.height) == (5, 4)
    # ... and uploads back into a new game at its end
    up = client.post("/api/sgf", content=sgf.text.encode(), headers=SGF)
    assert up.status_code == 201
    t = up.json()
    assert [m["name"] for m in t["moves"]] == [m["name"] for m in s["moves"]]
    assert t["players"] == {"black": "human", "white": "human"}


def test_sgf_upload_refuses_garbage(client):
    refused(client.post("/api/sgf", content=b"(;GM[99])", headers=SGF), 400, "record")
    refused(client.post("/api/sgf", content=b"\xff\xfe", headers=SGF), 400, "UTF-8")
    refused(client.post("/api/sgf", content=b'{"sgf": 5}', headers=JSON), 400, "sgf")
    refused(client.post("/api/sgf", content=b"(" * (2 * 1024 * 1024), headers=SGF), 413)
    refused(client.post("/api/sgf", content=b"(;GM[11]SZ[3])",
                        headers={"content-type": "text/plain"}), 415, "application/x-go-sgf")
    assert client.get("/api/games").json() == []


def test_resign_ends_the_game_and_the_record_says_so(client):
    s = new_game(client, game="hex", size="4", black="human", white="human")
    gid = s["id"]
    client.post(f"/api/games/{gid}/move", json={"move": "b2"})
    s = client.post(f"/api/games/{gid}/resign").json()
    assert s["view"]["over"] and s["view"]["winner"] == "black" and "resigns" in s["view"]["result"]
    rec = records.loads(client.get(f"/api/games/{gid}/sgf").text)
    assert rec.resigned == "W" and rec.result == "B+"
    refused(client.post(f"/api/games/{gid}/resign"), 400, "over")
    s = client.post(f"/api/games/{gid}/undo").json()      # undo brings the game back
    assert not s["view"]["over"] and s["moves"] == []


def test_analysis_streams_heat_map_and_pv_over_the_websocket(client):
    s = new_game(client, game="hex", size="5", black="human", white="human")
    gid = s["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["state"]["id"] == gid
        r = client.post(f"/api/games/{gid}/analyse", json={"engine": "mcts", "time": 1.5})
        assert r.json() == {"ok": True}
        seen = []
        while True:
            msg = ws.receive_json()
            if msg["type"] == "analysis":
                seen.append(msg)
                if msg["done"]:
                    break
        final = seen[-1]
        assert final["source"] == "analysis" and final["moves"] and final["pv"]
        best = final["moves"][0]
        assert best["spot"] is not None and best["visits"] > 0 and 0 <= best["winrate"] <= 1
        assert final["pv"][0]["move"] == final["best"]
        state = client.get(f"/api/games/{gid}").json()
        assert state["analysing"] is False and state["start_black_winrate"] is not None


def test_closing_a_game_cancels_its_search(client):
    s = new_game(client, game="hex", size="9", black="human", white="human")
    gid = s["id"]
    sessions = client.app.state.sessions
    session = sessions.get(gid)
    client.post(f"/api/games/{gid}/analyse", json={"engine": "mcts", "time": 600})
    search = session.search
    assert search is not None and search.kind == "analysis"
    assert client.delete(f"/api/games/{gid}").json() == {"ok": True}
    assert search.stop.is_set()
    refused(client.get(f"/api/games/{gid}"), 404)


def test_websocket_ops_and_bad_messages(client):
    s = new_game(client, game="hex", size="4", black="human", white="human")
    gid = s["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"op": "move", "move": "b2"}))
        msg = ws.receive_json()
        assert msg["type"] == "state" and msg["state"]["moves"][0]["name"] == "b2"
        for bad, word in (("not json", "JSON"), ('{"op": 5}', "op"), ('{"op": "fly"}', "unknown op"),
                          ('{"op": "move", "move": "b2"}', "taken"), ("x" * 20000, "KiB")):
            ws.send_text(bad)
            msg = ws.receive_json()
            assert msg["type"] == "error" and word in msg["error"], msg
        ws.send_text(json.dumps({"op": "state"}))
        msg = ws.receive_json()
        assert msg["type"] == "state" and len(msg["state"]["moves"]) == 1


def test_websocket_to_an_unknown_game(client):
    with client.websocket_connect("/api/games/nope/ws") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and "no game" in msg["error"]


@pytest.fixture(scope="module")
def warm_solvers():
    """Compile the solvers before a solve is asked for: a fresh checkout compiles them on first
    use, which would eat the page's few seconds of solving."""
    from boardai.engines.registry import make_engine
    from boardai.engines.base import Limit
    from boardai.games import get_game
    for game, size, moves in (("connect4", "7x6", "44444433333322"), ("hex", "3", "")):
        board = get_game(game).new_board(size)
        board.push_many(moves)
        make_engine("solver").analyse(board, Limit(time=600))


def test_solve_gives_every_column_score_on_connect4(client, warm_solvers):
    s = new_game(client, game="connect4", black="human", white="human")
    gid = s["id"]
    for col in "44444433333322":
        client.post(f"/api/games/{gid}/move", json={"move": col})
    answer = client.post(f"/api/games/{gid}/solve").json()
    assert answer["exact"] and set(answer["scores"]) == {"1", "2", "5", "6", "7"}   # 3, 4 full
    assert answer["spots"]["2"] == [1, 3]
    assert max(answer["scores"].values()) == answer["scores"][answer["best"]]


@pytest.mark.parametrize("moves", ["", "4", "43", "44444433333322", "2252576253462244111563"])
def test_solve_gives_the_scores_of_solve_analyze(client, warm_solvers, moves):
    """The page's Solve and `boardai solve connect4 --analyze` give each column the same exact
    score (from the book, one move past it, and searched)."""
    from boardai.games.connect4.board import Connect4Board
    from boardai.solvers.connect4.lines import LineSolver
    s = new_game(client, game="connect4", black="human", white="human")
    for col in moves:
        client.post(f"/api/games/{s['id']}/move", json={"move": col})
    answer = client.post(f"/api/games/{s['id']}/solve").json()
    expected = LineSolver(analyze=True).analyze_board(Connect4Board.from_position(moves))
    assert answer["exact"]
    assert answer["scores"] == {str(c + 1): v for c, v in enumerate(expected) if v != -1000}


def test_solve_marks_hex_cells(client, warm_solvers):
    s = new_game(client, game="hex", size="3", black="human", white="human")
    answer = client.post(f"/api/games/{s['id']}/solve").json()
    assert answer["exact"] and answer["scores"]["b2"] == 1
    assert set(answer["scores"].values()) <= {1, -1}


def solve_streamed(client, gid, stop=False):
    """(the solve messages the websocket brought, the answer of ``POST .../solve``) for one
    Solve, read until the final message (``solving`` false); with ``stop``, the solve is
    stopped (``{"search": "solve"}``) once a first move has settled."""
    answer: dict = {}
    messages = []
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        asking = threading.Thread(target=lambda: answer.update(
            client.post(f"/api/games/{gid}/solve").json()))
        asking.start()
        while True:
            msg = ws.receive_json()
            if msg["type"] != "solve":
                continue
            messages.append(msg)
            if not msg["solving"]:
                break
            if stop and msg["scores"]:
                assert client.post(f"/api/games/{gid}/stop",
                                   json={"search": "solve"}).json() == {"ok": True}
                stop = False
        asking.join()
    return messages, answer


@pytest.mark.parametrize("game,size,moves", [("connect4", "7x6", "4444333"), ("hex", "4", "")])
def test_a_solve_streams_each_settled_move_then_the_exact_answer(client, warm_solvers, game,
                                                                 size, moves):
    """While the solver searches, each move's exact score is sent as it settles (the settled
    set only grows, each score as final); then the final exact answer, also the HTTP one."""
    s = new_game(client, game=game, size=size, black="human", white="human")
    for move in moves:
        client.post(f"/api/games/{s['id']}/move", json={"move": move})
    messages, answer = solve_streamed(client, s["id"])
    *running, final = messages
    assert running and all(m["solving"] and not m["exact"] and m["ply"] == len(moves)
                           for m in running)
    for before, after in zip(running, running[1:]):
        assert before["scores"].items() <= after["scores"].items()
    assert len(running[0]["scores"]) < len(final["scores"])
    assert final == answer and final["exact"] and not final["stopped"] and not final["unsettled"]
    assert running[-1]["scores"].items() <= final["scores"].items()
    for m in running:       # every legal move is either settled or named unsettled
        assert set(m["scores"]) | set(m["unsettled"]) == set(final["scores"])
        assert not set(m["scores"]) & set(m["unsettled"])
    if game == "connect4":
        from boardai.games.connect4.board import Connect4Board
        from boardai.solvers.connect4.lines import LineSolver
        expected = LineSolver(analyze=True).analyze_board(Connect4Board.from_position(moves))
        assert final["scores"] == {str(c + 1): v for c, v in enumerate(expected) if v != -1000}


def test_a_stopped_solve_keeps_the_settled_columns(client, warm_solvers):
    """Stop (``{"search": "solve"}``) ends a solve with the columns it settled; the rest are
    named unsettled.  (The position takes the solver seconds after its first column.)"""
    s = new_game(client, game="connect4", black="human", white="human")
    for col in "12345671":
        client.post(f"/api/games/{s['id']}/move", json={"move": col})
    messages, answer = solve_streamed(client, s["id"], stop=True)
    *running, final = messages
    assert running and final == answer
    assert final["stopped"] and not final["exact"] and not final["solving"]
    assert final["unsettled"] and not set(final["unsettled"]) & set(final["scores"])
    assert running[-1]["scores"].items() <= final["scores"].items()
    assert set(final["scores"]) | set(final["unsettled"]) == set("1234567")
    state = client.get(f"/api/games/{s['id']}").json()
    assert not state["analysing"] and not state["thinking"]
    refused(client.post(f"/api/games/{s['id']}/stop", json={"search": "everything"}), 400,
            '"solve"')


def test_review_fills_the_win_rate_of_every_ply(client):
    s = new_game(client, game="connect4", size="5x4", black="human", white="human")
    gid = s["id"]
    for col in "3322":
        client.post(f"/api/games/{gid}/move", json={"move": col})
    client.post(f"/api/games/{gid}/review", json={"engine": "mcts:sims=200", "time": 1})
    s = wait_state(client, gid, lambda st: all(m["black_winrate"] is not None
                                               for m in st["moves"]))
    assert all(0 <= m["black_winrate"] <= 1 for m in s["moves"])
    assert s["start_black_winrate"] is not None
    refused(client.post(f"/api/games/{gid}/review", json={"time": 100}), 400, "time")


def test_live_games_are_bounded_and_the_next_is_refused_not_an_old_one_closed(client):
    ids = [new_game(client, game="hex", size="3", black="human", white="human")["id"]
           for _ in range(8)]
    refused(client.post("/api/games", json={"game": "hex", "size": "3", "black": "human",
                                            "white": "human"}), 409, "at most 8 live games")
    refused(client.post("/api/sgf", json={"sgf": "(;FF[4]GM[11]SZ[3];B[a1])"}), 409, "at most 8")
    assert [g["id"] for g in client.get("/api/games").json()] == ids
    client.delete(f"/api/games/{ids[0]}")
    new_game(client, game="hex", size="3", black="human", white="human")


def test_the_65th_game_is_refused_by_default(tmp_path):
    app = create_app(store=tmp_path / "arena.sqlite")
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as c:
        for _ in range(64):
            new_game(c, game="tictactoe", black="human", white="human")
        refused(c.post("/api/games", json={"game": "tictactoe", "black": "human",
                                           "white": "human"}), 409, "at most 64 live games")
        assert len(c.get("/api/games").json()) == 64


def test_arena_stores_games_and_replay(client, tmp_path):
    store = tmp_path / "arena.sqlite"
    result = CliRunner().invoke(main, ["match", "random:seed=1", "random:seed=2", "--game", "hex",
                                       "--size", "3", "--games", "4", "--store", str(store),
                                       "--jobs", "1"])
    assert result.exit_code == 0, result.output
    (tmp_path / "notes.txt").write_text("not a store")
    listing = client.get("/api/stores").json()
    assert listing["stores"] == ["arena.sqlite"]
    report = client.get("/api/stores/arena.sqlite").json()
    assert len(report["matches"]) == 1 and report["matches"][0]["games"] == 4
    assert report["engines"] == ["random:seed=1", "random:seed=2"]
    cross = report["cross"]
    assert cross[0][1]["games"] == 4 and cross[0][1]["points"] + cross[1][0]["points"] == 4
    games = client.get("/api/stores/arena.sqlite/games").json()
    assert len(games) == 4
    opened = client.post(f"/api/stores/arena.sqlite/games/{games[0]['idx']}/open")
    assert opened.status_code == 201
    assert len(opened.json()["moves"]) == games[0]["moves"]


@pytest.mark.parametrize("name", ["../arena.sqlite", "..%2farena.sqlite", "%2e%2e%2fetc%2fpasswd",
                                  "notes.txt", "missing.sqlite", ".hidden.sqlite",
                                  "%2fetc%2fpasswd", "arena.sqlite%00.txt"])
def test_store_paths_cannot_leave_the_store_folder(client, tmp_path, name):
    (tmp_path / "notes.txt").write_text("not a store")
    r = client.get(f"/api/stores/{name}")
    assert r.status_code in (400, 404)
    error = r.json()["error"]             # every refusal is JSON, a route not found included
    assert "store" in error or "no such address" in error


def test_requests_naming_another_host_are_refused(client):
    refused(client.get("/api/meta", headers={"host": "evil.example"}), 400, "127.0.0.1")
    refused(client.get("/", headers={"host": "evil.example:8000"}), 400, "evil.example")
    assert client.get("/api/meta", headers={"host": "localhost:8000"}).status_code == 200
    assert client.get("/api/meta", headers={"host": "[::1]:8000"}).status_code == 200


def test_unknown_addresses_and_methods_answer_json(client):
    refused(client.get("/api/nothing"), 404, "no such address")
    refused(client.get("/nothing/at/all"), 404, "no such address")
    refused(client.get("/static/missing.js"), 404)
    refused(client.put("/api/games"), 405, "PUT", "POST")
    refused(client.patch("/api/games/g1"), 405, "PATCH")


def test_symlinked_stores_outside_the_folder_are_neither_listed_nor_opened(client, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = CliRunner().invoke(main, ["match", "random", "random:seed=2", "--game", "hex",
                                       "--size", "3", "--games", "2", "--jobs", "1",
                                       "--store", str(outside / "far.sqlite")])
    assert result.exit_code == 0, result.output
    (tmp_path / "far.sqlite").symlink_to(outside / "far.sqlite")
    (tmp_path / "near.sqlite").symlink_to(tmp_path / "arena.sqlite")   # inside: fine
    (tmp_path / "dangling.sqlite").symlink_to(tmp_path / "no-such.sqlite")
    CliRunner().invoke(main, ["match", "random", "random:seed=2", "--game", "hex", "--size", "3",
                              "--games", "2", "--jobs", "1", "--store",
                              str(tmp_path / "arena.sqlite")])
    listed = client.get("/api/stores").json()["stores"]
    assert listed == ["arena.sqlite", "near.sqlite"]
    for name in listed:
        assert client.get(f"/api/stores/{name}").status_code == 200
    refused(client.get("/api/stores/far.sqlite"), 404, "store")
    refused(client.get("/api/stores/dangling.sqlite"), 404, "store")


# ---------------------------------------------------------------- other origins, the token
PROOF_GAME = b'{"game":"hex","size":5,"black":"gtp:touch PROOF","white":"human"}'


@pytest.fixture()
def open_server(tmp_path, monkeypatch):
    """A server that may start programs (the worst case), run from a folder where a started
    ``touch PROOF`` would leave its file; no default token header."""
    monkeypatch.chdir(tmp_path)
    app = create_app(store=tmp_path / "arena.sqlite", allow_programs=True)
    with TestClient(app) as c:
        yield c, app.state.token, tmp_path


def test_the_csrf_proof_is_refused(open_server):
    c, token, folder = open_server
    # the issue's proof: another site's text/plain POST (no preflight), with and without token
    for headers in ({"Origin": "http://evil.example", "Content-Type": "text/plain"},
                    {"Origin": "http://evil.example", "Content-Type": "text/plain",
                     "X-Boardai-Token": token},
                    {"Origin": "http://evil.example", "Content-Type": "application/json",
                     "X-Boardai-Token": token},
                    {"Origin": "http://127.0.0.1:9999", "Content-Type": "application/json"},
                    {"Origin": "http://localhost", "Content-Type": "text/plain"},
                    {"Origin": "null", "Content-Type": "text/plain"},
                    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},
                    {"Sec-Fetch-Site": "same-site", "Content-Type": "application/json",
                     "X-Boardai-Token": token},
                    {"Content-Type": "application/x-www-form-urlencoded",
                     "X-Boardai-Token": token},
                    {"Content-Type": "text/plain", "X-Boardai-Token": token},
                    {"Content-Type": "application/json"},
                    {"Content-Type": "application/json", "X-Boardai-Token": token[:-1] + "x"}):
        r = c.post("/api/games", content=PROOF_GAME, headers=headers)
        assert r.status_code in (403, 415), (headers, r.text)
        assert r.headers["content-type"] == "application/json" and r.json()["error"]
        assert "access-control-allow-origin" not in r.headers
    assert c.get("/api/games", headers={"X-Boardai-Token": token}).json() == []
    assert not (folder / "PROOF").exists()
    # the same request from a script with the token (no Origin) is what the API is for: the
    # program starts (so the refusals above are what kept it from starting)
    r = c.post("/api/games", content=PROOF_GAME,
               headers={"Content-Type": "application/json", "X-Boardai-Token": token})
    assert r.status_code == 201, r.text
    while not (folder / "PROOF").exists():      # touch runs in its own process
        time.sleep(0.01)
    # ... and the page's own origin may call it
    r = c.get("/api/games", headers={"X-Boardai-Token": token,
                                     "Origin": "http://testserver",
                                     "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200 and len(r.json()) == 1


def test_reading_games_needs_the_token(open_server):
    c, token, _ = open_server
    gid = c.post("/api/games", json={"game": "hex", "size": 3, "black": "human",
                                     "white": "human"},
                 headers={"X-Boardai-Token": token}).json()["id"]
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/sgf", "/api/meta",
                 "/api/stores"):
        refused(c.get(path), 403, "token")
        refused(c.get(path, headers={"Origin": "http://evil.example",
                                     "X-Boardai-Token": token}), 403, "origin")
        assert c.get(path, headers={"X-Boardai-Token": token}).status_code == 200
    # the page itself carries the token; nobody may frame it
    page = c.get("/")
    assert token in page.text and page.headers["x-frame-options"] == "DENY"
    assert "access-control-allow-origin" not in page.headers


def test_websockets_from_other_origins_or_without_the_token_are_turned_down(open_server):
    from starlette.testclient import WebSocketDenialResponse
    c, token, _ = open_server
    gid = c.post("/api/games", json={"game": "hex", "size": 3, "black": "human",
                                     "white": "human"},
                 headers={"X-Boardai-Token": token}).json()["id"]
    url = f"/api/games/{gid}/ws"
    for kwargs in ({"headers": {"origin": "http://evil.example"},
                    "subprotocols": ["boardai", "boardai-token." + token]},
                   {"headers": {"origin": "http://127.0.0.1:9999"},
                    "subprotocols": ["boardai", "boardai-token." + token]},
                   {"subprotocols": ["boardai"]},
                   {"subprotocols": ["boardai", "boardai-token.wrong-token-1234567"]},
                   {}):
        with pytest.raises(WebSocketDenialResponse) as denied:
            with c.websocket_connect(url, **kwargs) as ws:
                ws.receive_json()
        assert denied.value.status_code == 403 and denied.value.json()["error"]
    # the page's way (a subprotocol), a script's ways (the header, ?token=)
    for url_, kwargs in ((url, {"subprotocols": ["boardai", "boardai-token." + token],
                                "headers": {"origin": "http://testserver"}}),
                         (url, {"headers": {"X-Boardai-Token": token}}),
                         (f"{url}?token={token}", {})):
        with c.websocket_connect(url_, **kwargs) as ws:
            assert ws.receive_json()["type"] == "state"


# ---------------------------------------------------------------- games survive the server
def _start_server(home: Path, port: int = 0) -> tuple[subprocess.Popen, str, str]:
    env = dict(os.environ, BOARDAI_HOME=str(home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "boardai", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    url = token = None
    while url is None or token is None:
        line = proc.stdout.readline()
        assert line, f"the server stopped: {proc.stderr.read()}"
        if m := re.search(r"serves (http://\S+)/", line):
            url = m.group(1)
        if m := re.search(r"X-Boardai-Token\): (\S+)", line):
            token = m.group(1)
    return proc, url, token


def test_a_web_game_survives_kill_9_of_the_server(tmp_path):
    httpx = pytest.importorskip("httpx2")
    proc, url, token = _start_server(tmp_path)
    try:
        with httpx.Client(base_url=url, headers={"X-Boardai-Token": token}) as http:
            gid = http.post("/api/games", json={"game": "hex", "size": "5", "black": "human",
                                                "white": "human", "time": 3}).json()["id"]
            other = http.post("/api/games", json={"game": "connect4", "black": "human",
                                                  "white": "human"}).json()["id"]
            for move in ("c3", "b4", "d2", "a1"):
                assert http.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 200
            http.post(f"/api/games/{other}/move", json={"move": "4"})
            assert http.delete(f"/api/games/{other}").status_code == 200   # closed: not back
        records_dir = tmp_path / "games"
        assert len(list(records_dir.glob("*-hex-web-*.sgf"))) == 1
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, url, token2 = _start_server(tmp_path)
    try:
        assert token2 != token
        with httpx.Client(base_url=url, headers={"X-Boardai-Token": token2}) as http:
            games = http.get("/api/games").json()
            assert [(g["id"], g["game"], g["ply"]) for g in games] == [(gid, "hex", 4)]
            state = http.get(f"/api/games/{gid}").json()
            assert [m["name"] for m in state["moves"]] == ["c3", "b4", "d2", "a1"]
            assert state["players"] == {"black": "human", "white": "human"}
            assert state["time"] == 3 and "restarted" in state["message"]
            # ... and it goes on, in the same record
            http.post(f"/api/games/{gid}/move", json={"move": "e1"})
        rec = records.load(next((tmp_path / "games").glob("*-hex-web-*.sgf")))
        assert len(rec.moves) == 5 and rec.extra["WEB"] == "live"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_the_running_server_refuses_the_csrf_proof_and_answers_errors_as_json(tmp_path):
    """``boardai serve`` itself (uvicorn's settings included), as curl would call it."""
    httpx = pytest.importorskip("httpx2")
    ws_client = pytest.importorskip("websockets.sync.client")
    proc, url, token = _start_server(tmp_path)
    try:
        with httpx.Client(base_url=url) as http:
            r = http.post("/api/games", content=PROOF_GAME,
                          headers={"Origin": "http://evil.example", "Content-Type": "text/plain"})
            assert r.status_code == 403 and "origin" in r.json()["error"]
            r = http.post("/api/games", content=PROOF_GAME, headers={"Content-Type": "text/plain"})
            assert r.status_code == 403 and "token" in r.json()["error"]
            assert http.get("/api/games", headers={"X-Boardai-Token": token}).json() == []
            r = http.get("/nowhere", headers={"X-Boardai-Token": token})
            assert r.status_code == 404 and "no such address" in r.json()["error"]
            r = http.get("/api/meta", headers={"Host": "evil.example"})
            assert r.status_code == 400 and "evil.example" in r.json()["error"]
            gid = http.post("/api/games", json={"game": "hex", "size": "3", "black": "human",
                                                "white": "human"},
                            headers={"X-Boardai-Token": token}).json()["id"]
        ws_url = url.replace("http:", "ws:") + f"/api/games/{gid}/ws?token={token}"
        with ws_client.connect(ws_url) as ws:
            assert json.loads(ws.recv())["type"] == "state"
            ws.send("x" * 100_000)                  # over the 16 KiB limit: answered
            msg = json.loads(ws.recv())
            assert msg["type"] == "error" and "16 KiB" in msg["error"]
            ws.send(json.dumps({"op": "move", "move": "b2"}))
            assert json.loads(ws.recv())["state"]["moves"][0]["name"] == "b2"
        with pytest.raises(Exception) as refused_ws:        # another origin: not opened
            with ws_client.connect(ws_url, origin="http://evil.example") as ws:
                ws.recv()
        assert "403" in str(refused_ws.value)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_finished_and_closed_games_are_not_played_on(tmp_path):
    games = tmp_path / "games"
    app = create_app(store=tmp_path / "arena.sqlite", games_dir=games)
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as c:
        won = new_game(c, game="hex", size="2", black="human", white="human")["id"]
        for move in ("a1", "b1", "a2"):
            c.post(f"/api/games/{won}/move", json={"move": move})
        resigned = new_game(c, game="hex", size="3", black="human", white="human")["id"]
        c.post(f"/api/games/{resigned}/resign")
        closed = new_game(c, game="hex", size="3", black="human", white="human")["id"]
        c.delete(f"/api/games/{closed}")
        live = new_game(c, game="connect4", size="5x4", black="human", white="human")["id"]
        c.post(f"/api/games/{live}/move", json={"move": "3"})
    status = {records.load(p).extra["WID"]: records.load(p).extra["WEB"]
              for p in games.glob("*.sgf")}
    assert status == {won: "over", resigned: "over", closed: "closed", live: "live"}
    (games / "20000101-000000-hex-web-g9.sgf").write_text("(;GM[99] broken")
    path = next(games.glob(f"*-web-{live}.sgf"))     # as if played by a gtp: program
    path.write_text(path.read_text().replace("PW[human]", "PW[gtp:some-program]"))
    app = create_app(store=tmp_path / "arena.sqlite", games_dir=games)   # no --allow-programs
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as c:
        listed = c.get("/api/games").json()
        assert [g["id"] for g in listed] == [live]
        state = c.get(f"/api/games/{live}").json()
        assert state["players"]["white"] == "human" and "a human plays it" in state["message"]


def test_a_game_is_played_on_by_one_server_at_a_time(tmp_path):
    games = tmp_path / "games"

    def client():
        app = create_app(store=tmp_path / "arena.sqlite", games_dir=games)
        return TestClient(app, headers={"X-Boardai-Token": app.state.token})

    with client() as first:
        gid = new_game(first, game="hex", size="4", black="human", white="human")["id"]
        first.post(f"/api/games/{gid}/move", json={"move": "b2"})
        with client() as second:                  # the first still plays it
            assert second.get("/api/games").json() == []
    with client() as third:                       # the first stopped: its game comes back
        assert [(g["id"], g["ply"]) for g in third.get("/api/games").json()] == [(gid, 1)]


def test_serve_refuses_a_bad_host_before_starting():
    for bad in ("bad host", "", "-x", "a..b", "1.2.3.999"):
        result = CliRunner().invoke(main, ["serve", "--host", bad])
        assert result.exit_code == 2, (bad, result.output)
        assert "not an address" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["serve", "--token", "short"])
    assert result.exit_code == 2 and "16 to 200" in result.output


def test_engines_that_start_programs_need_the_flag(tmp_path):
    app = create_app(store=tmp_path / "a.sqlite", allow_programs=True)
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as c:
        meta = c.get("/api/meta").json()
        assert meta["allow_programs"] and all(e["allowed"] for e in meta["engines"])


def test_analysis_without_time_runs_until_stopped_with_three_lines(client):
    s = new_game(client, game="hex", size="9", black="human", white="human")
    gid = s["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        r = client.post(f"/api/games/{gid}/analyse", json={"engine": "mcts"})   # no time
        assert r.json() == {"ok": True}
        seen = []
        while True:
            msg = ws.receive_json()
            if msg["type"] != "analysis":
                continue
            assert not msg["done"]              # a slice's end is not the analysis's end
            seen.append(msg)
            if len(seen) > 1 and msg["time_s"] < seen[-2]["time_s"]:
                break                           # the next slice has started
        before, after = seen[-2], seen[-1]
        # the tree is kept from slice to slice: the best move's visits go on growing
        assert max(m["visits"] for m in after["moves"]) >= max(m["visits"] for m in before["moves"]) // 2
        assert client.get(f"/api/games/{gid}").json()["analysing"] is True
        lines = before["lines"]
        assert len(lines) == 3 and lines[0]["move"] == before["best"]
        for line in lines:
            assert 0 <= line["winrate"] <= 1 and line["pv"][0]["move"] == line["move"]
        assert any(len(line["pv"]) > 1 for line in lines)
        assert client.post(f"/api/games/{gid}/stop").json() is not None
        state = client.get(f"/api/games/{gid}").json()
        assert state["analysing"] is False and state["analysis"] is None


def test_solve_is_offered_only_where_it_settles_the_board(client):
    course = new_game(client, game="connect4", size="12x12", blocked=["4:2"], black="human",
                      white="human")
    assert course["solvable"]["ok"] is False
    assert "blocked cells" in course["solvable"]["why"] and "empty" in course["solvable"]["why"]
    assert new_game(client, game="connect4", black="human", white="human")["solvable"] == \
        {"ok": True, "why": None}
    small = new_game(client, game="connect4", size="5x4", blocked=["1:1"], black="human",
                     white="human")
    assert small["solvable"]["ok"] is True          # 19 empty cells: searched to the end
