"""The web page's server through Starlette's test client: new games, moves by name and by spot,
engines replying, undo, resign, the analysis stream, solving, SGF both ways, the arena stores,
and bad input of every kind refused with a clear message and nothing changed."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from boardai import records  # noqa: E402
from boardai.cli import main  # noqa: E402
from boardai.ui.web.app import create_app  # noqa: E402

WAIT = 120.0           # a fresh checkout compiles the searches on their first use


@pytest.fixture()
def client(tmp_path):
    app = create_app(store=tmp_path / "arena.sqlite", max_games=8)
    with TestClient(app) as c:
        yield c


def new_game(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def wait_state(client, gid, done, timeout=WAIT):
    """Poll the game until ``done(state)``."""
    end = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/games/{gid}").json()
        if done(state) or time.monotonic() > end:
            return state
        time.sleep(0.05)


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
    refused(client.post(f"/api/games/{gid}/move", content=b"{not json"), 400, "JSON")
    refused(client.post(f"/api/games/{gid}/move", content=b"[1, 2]"), 400, "object")
    refused(client.post(f"/api/games/{gid}/move", content=b"x" * 70_000), 413, "KiB")
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
    up = client.post("/api/sgf", content=sgf.text.encode())
    assert up.status_code == 201
    t = up.json()
    assert [m["name"] for m in t["moves"]] == [m["name"] for m in s["moves"]]
    assert t["players"] == {"black": "human", "white": "human"}


def test_sgf_upload_refuses_garbage(client):
    refused(client.post("/api/sgf", content=b"(;GM[99])"), 400, "record")
    refused(client.post("/api/sgf", content=b"\xff\xfe"), 400, "UTF-8")
    refused(client.post("/api/sgf", content=b'{"sgf": 5}'), 400, "sgf")
    refused(client.post("/api/sgf", content=b"(" * (2 * 1024 * 1024)), 413)


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


def test_solve_marks_hex_cells(client, warm_solvers):
    s = new_game(client, game="hex", size="3", black="human", white="human")
    answer = client.post(f"/api/games/{s['id']}/solve").json()
    assert answer["exact"] and answer["scores"]["b2"] == 1
    assert set(answer["scores"].values()) <= {1, -1}


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


def test_live_games_are_bounded(client):
    ids = [new_game(client, game="hex", size="3", black="human", white="human")["id"]
           for _ in range(10)]
    live = {g["id"] for g in client.get("/api/games").json()}
    assert len(live) == 8 and set(ids[-8:]) == live


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
    if r.headers.get("content-type", "").startswith("application/json"):
        assert "store" in r.json()["error"]


def test_requests_naming_another_host_are_refused(client):
    r = client.get("/api/meta", headers={"host": "evil.example"})
    assert r.status_code == 400


def test_engines_that_start_programs_need_the_flag(tmp_path):
    app = create_app(store=tmp_path / "a.sqlite", allow_programs=True)
    with TestClient(app) as c:
        meta = c.get("/api/meta").json()
        assert meta["allow_programs"] and all(e["allowed"] for e in meta["engines"])
