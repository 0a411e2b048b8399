"""The web page of ``boardai serve`` in a real browser (Chromium driven by Playwright).

The server runs in this process (uvicorn on a free port in a thread, ``create_app()`` with a
small arena store made for the tests); each test opens the page, plays by clicking the SVG
board and checks what is drawn.  Engines get tiny budgets (``random``, short ``mcts``) and no
assertion reads the wall clock: waits are for events (the server started, a selector drawn),
Playwright's with generous timeouts that only guard against a hang.

Pages served from other origins (another port of 127.0.0.1, the name ``localhost``) try what a
hostile web site would -- a ``no-cors`` text/plain POST, a form post, a cross-origin fetch, a
websocket -- against a server that may start programs; the server sees each request and
refuses it: no game is created, no program runs, no socket opens.

``BOARDAI_WEB_SHOTS=docs/images`` also writes the screenshots of ``docs/web.md`` there.
Needs Debian's ``chromium`` (``make test`` installs it); without it every test here skips.
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from boardai import records  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 45_000                 # shared, busy machines: waits are generous, never asserted
SHOTS = os.environ.get("BOARDAI_WEB_SHOTS")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium: install Debian's chromium package (make test does it with apt)")


# ------------------------------------------------------------------------------ fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory) -> Path:
    """A folder with one arena store: a short random-vs-random Hex 3x3 match."""
    folder = tmp_path_factory.mktemp("stores")
    subprocess.run([sys.executable, "-m", "boardai", "match", "random", "random:seed=2",
                    "--game", "hex", "--size", "3", "--games", "4", "--jobs", "1",
                    "--store", str(folder / "arena.sqlite")],
                   check=True, capture_output=True, timeout=300)
    return folder


def _run_server(app, port: int):
    """uvicorn serving ``app`` on 127.0.0.1:port in a thread, once it has started."""
    from boardai.ui.web.app import WS_TRANSPORT_MAX
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws_max_size=WS_TRANSPORT_MAX)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, name="web-test-server", daemon=True)
    thread.start()
    while not srv.started:                  # it starts, or its thread ends with an error
        if not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    return srv, thread


@pytest.fixture(scope="module")
def server(store_dir):
    """The page's server on a free port; yields its base URL.  The solvers are compiled first
    (in this process, where the server runs): a fresh checkout compiles them on first use,
    which would eat the page's few seconds of solving."""
    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.ui.web.app import create_app
    for game, size in (("connect4", "4x4"), ("hex", "3")):
        make_engine("solver").analyse(get_game(game).new_board(size), Limit(time=600))
    port = _free_port()
    app = create_app(store=store_dir / "arena.sqlite")
    srv, thread = _run_server(app, port)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A fresh page on the server's front page, ready (its first game loaded); fails the test
    on any script error in the page."""
    context = browser.new_context(viewport={"width": 1280, "height": 860},
                                  accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console: {msg.text}")
          if msg.type == "error" and "Failed to load resource" not in msg.text else None)
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready]")
    pg.wait_for_selector("#board svg")
    yield pg
    context.close()
    assert not errors, errors


# ------------------------------------------------------------------------------ helpers
def new_game(page, game: str, size: str, black: str = "human", white: str = "random",
             blocked: str | None = None, seconds: float | None = None) -> str:
    """Start a game from the form; returns its id once the board shows it."""
    old = page.get_attribute("#board svg", "data-id")
    if not page.is_visible("#ng-game"):
        page.click("#btn-new")                  # the form folds away once a game starts
    page.select_option("#ng-game", game)
    page.fill("#ng-size", size)
    if blocked is not None:
        page.fill("#ng-blocked", blocked)
    for seat, spec in (("black", black), ("white", white)):
        name = spec.split(":", 1)[0]
        page.select_option(f"#ng-{seat}-kind", name)
        if spec != "human":
            page.fill(f"#ng-{seat}-spec", spec)
    if seconds is not None:
        page.fill("#ng-time", str(seconds))
    page.click("#btn-start")
    page.wait_for_function(
        "old => { const s = document.querySelector('#board svg');"
        " return s && s.dataset.id !== old; }", arg=old)
    return page.get_attribute("#board svg", "data-id")


def ply(page) -> int:
    return int(page.get_attribute("#board svg", "data-ply"))


def wait_for_human(page, at_least: int) -> None:
    """Until the live board is at ply >= at_least and a human is to move (or it is over)."""
    page.wait_for_function(
        """n => { const s = document.querySelector('#board svg');
                  if (!s || s.dataset.live !== '1' || Number(s.dataset.ply) < n) return false;
                  return s.dataset.over === '1'
                      || (s.dataset.toMove === 'human' && s.dataset.thinking === ''); }""",
        arg=at_least)


def over(page) -> bool:
    return page.get_attribute("#board svg", "data-over") == "1"


def stones(page) -> int:
    return page.locator("#board .stone").count()


def moves_listed(page) -> int:
    return page.locator("#movelist li").count()


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG (what Chromium writes): width, height, rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r[i:i + 3]) for r in rows for i in range(0, stride, bpp)]


def check_board_picture(page, path: Path) -> None:
    """The screenshot of #board is a real picture: many colours, dark stones among them."""
    data = page.locator("#board").screenshot(path=str(path))
    assert len(data) > 3000
    width, height, pixels = png_pixels(data)
    assert width > 200 and height > 200
    assert len(set(pixels[::7])) > 20                      # drawn, not a blank box
    dark = sum(1 for p in pixels if max(p) < 60)           # black stones (and Hex's edges)
    assert dark > 200


def docs_shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        box = page.locator("main:visible").bounding_box()          # the page without the blank
        height = min(page.viewport_size["height"], box["y"] + box["height"] + 8)
        page.screenshot(path=str(Path(SHOTS) / name),
                        clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": height})


# ------------------------------------------------------------------------------ tests
def test_page_loads_with_no_network_but_localhost(browser, server):
    context = browser.new_context()
    outside: list[str] = []
    failed: list[str] = []

    def only_local(route):
        if urlparse(route.request.url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    pg = context.new_page()
    pg.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    pg.on("requestfailed", lambda r: failed.append(r.url))
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)
    pg.wait_for_selector("#board svg .spot", timeout=TIMEOUT_MS)
    sync_api.expect(pg.locator("#connection")).to_have_text("live", timeout=TIMEOUT_MS)
    assert pg.locator("#ng-game option").count() >= 2
    context.close()
    assert outside == [], f"the page asked the network for {outside}"
    assert failed == []


def test_hex_game_by_clicks_to_the_end_highlights_the_winning_chain(page, tmp_path):
    new_game(page, "hex", "4", white="random")
    wanted = ["b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "a1", "a2", "a3", "a4",
              "d1", "d2", "d3", "d4"]
    played = 0
    while not over(page):
        target = next(page.locator(f'#board .spot[data-move="{m}"]') for m in wanted
                      if page.locator(f'#board .spot[data-move="{m}"]').count())
        before = ply(page)
        target.click()
        played += 1
        wait_for_human(page, before + 1)
        assert played <= 8
    assert page.locator("#board .spot.win").count() >= 4        # a chain across 4 rows
    assert page.locator("#board .win-mark").count() == page.locator("#board .spot.win").count()
    sync_api.expect(page.locator("#result")).to_contain_text("wins")
    assert stones(page) == moves_listed(page) == ply(page)
    assert page.locator("#board .edge.black").count() == 2
    assert page.locator("#board .edge.white").count() == 2
    assert page.locator("#board .spot[data-move]").count() == 0    # over: nothing to click
    check_board_picture(page, tmp_path / "hex.png")
    docs_shot(page, "web-hex.png")


def test_connect4_game_with_a_blocked_cell_by_clicks_to_the_end(page, tmp_path):
    new_game(page, "connect4", "5x4", white="random:seed=3", blocked="3:1")
    assert page.locator("#board .spot.blocked .blocked-cell").count() == 1
    blocked = page.locator("#board .spot.blocked")
    assert (blocked.get_attribute("data-x"), blocked.get_attribute("data-y")) == ("2", "3")
    while not over(page):
        # a click anywhere in the column plays there: always the top cell of the first open one
        column = next(x for x in range(5)
                      if page.locator(f'#board .spot[data-x="{x}"][data-move]').count())
        before = ply(page)
        page.locator(f'#board .spot[data-x="{column}"][data-y="0"]').click()
        wait_for_human(page, before + 1)
    sync_api.expect(page.locator("#result")).not_to_be_empty()
    assert stones(page) == moves_listed(page) == ply(page)
    if page.get_attribute("#board svg", "data-over") == "1" and \
            "Draw" not in page.inner_text("#result"):
        assert page.locator("#board .spot.win").count() >= 4
    check_board_picture(page, tmp_path / "c4.png")
    docs_shot(page, "web-connect4.png")


def test_illegal_click_shows_the_servers_message_and_changes_nothing(page):
    new_game(page, "hex", "3", white="human")
    page.locator('#board .spot[data-move="b2"]').click()
    wait_for_human(page, 1)
    assert stones(page) == 1
    page.locator('#board .spot[data-x="1"][data-y="1"]').click()      # taken
    sync_api.expect(page.locator("#message")).to_have_class("error")
    assert "b2" in page.inner_text("#message")
    assert stones(page) == 1 and moves_listed(page) == 1 and ply(page) == 1
    # a full Connect Four column is refused the same way
    new_game(page, "connect4", "4x4", white="human")
    for n in range(4):
        page.locator('#board .spot[data-x="0"][data-y="3"]').click()
        wait_for_human(page, n + 1)
    page.locator('#board .spot[data-x="0"][data-y="2"]').click()
    sync_api.expect(page.locator("#message")).to_contain_text("full")
    assert stones(page) == 4 and ply(page) == 4


def test_undo_takes_back_to_the_humans_last_move(page):
    new_game(page, "hex", "4", white="random")
    page.locator('#board .spot[data-move="b2"]').click()
    wait_for_human(page, 2)
    assert stones(page) == 2
    page.click("#btn-undo")
    page.wait_for_function("() => document.querySelector('#board svg').dataset.ply === '0'")
    assert stones(page) == 0 and moves_listed(page) == 0
    assert page.locator('#board .spot[data-move="b2"]').count() == 1


def test_stepping_through_the_moves_with_keys_and_the_list(page):
    new_game(page, "tictactoe", "3", white="human")
    for n, move in enumerate(["b2", "a1", "c1", "a3"]):
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    page.locator("#board").click(position={"x": 3, "y": 3})           # focus on the page
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board svg[data-ply="3"][data-live="0"]')
    assert stones(page) == 3
    page.keyboard.press("Home")
    page.wait_for_selector('#board svg[data-ply="0"]')
    assert stones(page) == 0
    page.locator('#movelist li[data-ply="2"]').click()
    page.wait_for_selector('#board svg[data-ply="2"]')
    assert stones(page) == 2
    assert page.locator("#movelist li.current").get_attribute("data-ply") == "2"
    page.locator('#board .spot[data-x="2"][data-y="2"]').click()      # a look back: no move
    sync_api.expect(page.locator("#message")).to_contain_text("looking at move 2")
    page.keyboard.press("End")
    page.wait_for_selector('#board svg[data-ply="4"][data-live="1"]')
    assert stones(page) == 4


def test_analysis_draws_a_live_heat_map_and_the_principal_variation(page, tmp_path):
    new_game(page, "hex", "7", white="human")
    for n, move in enumerate(["d4", "c5", "e3"]):
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    page.fill("#analyse-engine", "mcts")
    page.fill("#analyse-time", "2")
    page.check("#analyse-toggle")
    page.wait_for_selector("#board .heat", timeout=90_000)      # a cold jit cache compiles first
    assert page.locator("#board .heat").count() >= 3
    sync_api.expect(page.locator("#an-nodes")).not_to_have_text("–")
    sync_api.expect(page.locator("#an-source")).to_contain_text("done", timeout=60_000)
    assert page.locator("#board .heat-label").count() >= 1
    assert page.locator("#board .ghost").count() >= 1
    best = page.inner_text("#an-best")
    assert page.locator(f'#board .spot[data-move="{best}"]').count() == 1
    assert page.locator("#graph .point").count() >= 1                 # the live win-rate
    docs_shot(page, "web-analysis.png")


def test_heat_map_while_the_engine_thinks_about_its_move(page):
    new_game(page, "hex", "5", white="mcts:time=2")
    page.locator('#board .spot[data-move="c3"]').click()
    page.wait_for_selector("#board .heat", timeout=90_000)
    sync_api.expect(page.locator("#an-source")).to_contain_text("thinking")
    wait_for_human(page, 2)
    assert stones(page) == 2
    sync_api.expect(page.locator("#clock-white")).not_to_have_text("0:00.0")


def test_review_fills_the_graph_and_solve_scores_the_columns(page):
    new_game(page, "connect4", "4x4", white="human")
    for n in range(3):
        page.locator(f'#board .spot[data-x="{n % 2}"][data-y="0"]').click()
        wait_for_human(page, n + 1)
    page.click("#btn-solve")
    sync_api.expect(page.locator("#solve-info")).to_contain_text("exact")
    assert page.locator("#board .solve-score").count() == 4
    assert page.locator("#board .solve-score.unsettled").count() == 0
    page.fill("#analyse-engine", "mcts:sims=50")
    page.click("#btn-review")
    sync_api.expect(page.locator("#review-progress")).to_contain_text("done", timeout=60_000)
    page.wait_for_function("() => document.querySelectorAll('#graph .point').length === 4")


def test_sgf_download_parses_and_uploads_again(page, tmp_path):
    game_id = new_game(page, "hex", "5", white="human")
    for n, move in enumerate(["c3", "b4", "d2"]):
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    with page.expect_download() as info:
        page.click("#sgf-download")
    path = tmp_path / "game.sgf"
    info.value.save_as(path)
    rec = records.loads(path.read_text(encoding="utf-8"))
    assert rec.game == "hex" and (rec.width, rec.height) == (5, 5)
    assert len(rec.moves) == 3
    page.set_input_files("#sgf-upload", str(path))
    page.wait_for_function("old => document.querySelector('#board svg').dataset.id !== old",
                           arg=game_id)
    assert ply(page) == 3 and stones(page) == 3 and moves_listed(page) == 3


def test_arena_tab_lists_matches_and_replays_a_stored_game(page):
    page.click("#tab-arena")
    page.wait_for_selector("#store-matches table")
    assert "random" in page.inner_text("#store-matches")
    assert page.locator("#store-crosstable table").count() == 1
    page.locator("#store-matches button[data-match]").first.click()
    page.wait_for_selector("#store-games table")
    assert page.locator("#store-games button[data-open]").count() == 4
    docs_shot(page, "web-arena.png")
    old = page.get_attribute("#board svg", "data-id")
    page.locator("#store-games button[data-open]").first.click()
    page.wait_for_function("old => document.querySelector('#board svg').dataset.id !== old",
                           arg=old)
    assert page.is_visible("#play") and not page.is_visible("#arena")
    assert over(page) and stones(page) == ply(page) == moves_listed(page) > 0
    page.keyboard.press("Home")
    page.wait_for_selector('#board svg[data-ply="0"]')


def test_solve_marks_hex_cells_won_or_lost(page):
    new_game(page, "hex", "4", white="human")
    page.click("#btn-solve")
    # the cells stream in as they settle; then the final answer
    sync_api.expect(page.locator("#solve-info")).to_contain_text("exact")
    assert page.locator("#board .solve.won").count() == 4        # 4x4: the short diagonal wins
    assert page.locator("#board .solve.lost").count() == 12
    won = {page.locator("#board .solve.won").nth(i).get_attribute("data-move") for i in range(4)}
    assert won == {"a4", "b3", "c2", "d1"}


def test_review_marks_a_missed_block_as_a_mistake(page):
    new_game(page, "tictactoe", "3", white="human")
    for n, move in enumerate(["a1", "b2", "a2", "c3", "a3"]):        # O does not block a3
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    sync_api.expect(page.locator("#result")).to_contain_text("wins")
    page.fill("#analyse-engine", "solver")
    page.fill("#analyse-time", "1")
    page.click("#btn-review")
    sync_api.expect(page.locator("#review-progress")).to_contain_text("done", timeout=90_000)
    page.wait_for_selector("#graph .mistake")
    sync_api.expect(page.locator("#mistakes li").first).to_contain_text("4. c3")
    assert "mistake" in page.get_attribute('#movelist li[data-ply="4"]', "class")
    assert page.locator("#graph .point").count() == 6


def test_engines_play_each_other_while_the_page_watches(page):
    new_game(page, "hex", "5", black="random", white="random")
    page.wait_for_selector('#board svg[data-over="1"]')
    assert stones(page) == moves_listed(page) == ply(page) >= 5
    assert page.locator("#board .spot.win").count() >= 5
    sync_api.expect(page.locator("#result")).to_contain_text("wins")


def test_the_swap_rule_has_a_button(page):
    page.click("#btn-new")
    page.select_option("#ng-game", "hex")
    page.check("#ng-swap")
    new_game(page, "hex", "4", white="human")
    assert "swap" in page.inner_text("#game-title")
    assert page.locator("#extra-moves button").count() == 0
    page.locator('#board .spot[data-move="b2"]').click()
    page.locator("#extra-moves button").click()                   # White takes the swap
    page.wait_for_selector('#board svg[data-ply="2"]')
    assert page.locator("#board .stone.white").count() == 1
    assert page.locator("#board .stone.black").count() == 0
    assert page.locator("#extra-moves button").count() == 0


# ------------------------------------------------------------------------------ other origins
HOSTILE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>another site</title></head><body>
<iframe name="sink" id="sink"></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink">
  <input id="field" type="hidden"></form>
<script>
window.results = {};
window.done = false;
function socket(url, protocols) {
  return new Promise(resolve => {
    const events = [];
    const ws = new WebSocket(url, protocols);
    ws.onopen = () => events.push("open");
    ws.onmessage = () => events.push("message");
    ws.onerror = () => events.push("error");
    ws.onclose = () => { events.push("close"); resolve(events.join(",")); };
  });
}
async function attack(target, gid, token, proof) {
  const body = JSON.stringify({game: "hex", size: 5, black: "gtp:touch " + proof, white: "human"});
  const r = window.results;
  try {                    // the issue's proof: a simple request, no preflight
    await fetch(target + "/api/games", {method: "POST", mode: "no-cors",
      headers: {"Content-Type": "text/plain"}, body});
    r.nocors = "sent";
  } catch (e) { r.nocors = "failed " + e; }
  try {                    // even with the token (had it leaked): the preflight is refused
    const resp = await fetch(target + "/api/games", {method: "POST",
      headers: {"Content-Type": "application/json", "X-Boardai-Token": token}, body});
    r.cors = "status " + resp.status;
  } catch (e) { r.cors = "blocked"; }
  try {                    // reading a game
    const resp = await fetch(target + "/api/games/" + gid);
    r.read = "read " + (await resp.text());
  } catch (e) { r.read = "blocked"; }
  const ws = target.replace("http:", "ws:") + "/api/games/" + gid + "/ws";
  r.ws = await socket(ws, ["boardai"]);
  r.wsToken = await socket(ws, ["boardai", "boardai-token." + token]);
  r.wsQuery = await socket(ws + "?token=" + token, []);
  await new Promise(resolve => {      // a form post whose text/plain body is the JSON
    const sink = document.getElementById("sink");
    sink.onload = () => resolve();
    const form = document.getElementById("form");
    form.action = target + "/api/games";
    const field = document.getElementById("field");
    field.name = body.slice(0, -2) + " x";       // ... "gtp:touch PROOF x" + "=" + "y\"}"
    field.value = 'y"}';
    form.submit();
  });
  r.form = "submitted";
  window.done = true;
}
</script></body></html>
"""


@pytest.fixture(scope="module")
def open_server(tmp_path_factory):
    """A server that may start programs (the worst case) and notes every request it is sent:
    yields (base URL, app, the requests seen)."""
    from starlette.datastructures import Headers

    from boardai.ui.web.app import create_app
    app = create_app(store=tmp_path_factory.mktemp("open") / "arena.sqlite",
                     allow_programs=True)
    seen: list[tuple[str, str, str, str | None]] = []

    async def noting(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            seen.append((scope["type"], scope.get("method", "GET"), scope["path"],
                         Headers(scope=scope).get("origin")))
        await app(scope, receive, send)

    port = _free_port()
    srv, thread = _run_server(noting, port)
    yield f"http://127.0.0.1:{port}", app, seen
    srv.should_exit = True
    thread.join()


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """Another web site: a plain HTTP server on another port of this machine serving
    HOSTILE_PAGE; yields its port."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "index.html").write_text(HOSTILE_PAGE, encoding="utf-8")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0),
                                functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    thread.join()


@pytest.mark.parametrize("site_host", ["127.0.0.1", "localhost"])
def test_pages_of_other_origins_cannot_drive_the_server(browser, open_server, hostile_site,
                                                        site_host, tmp_path):
    target, app, seen = open_server
    sessions = app.state.sessions
    game = sessions.new_game({"game": "hex", "size": "3", "black": "human", "white": "human"})
    before = set(sessions.games)
    proof = tmp_path / "PROOF"
    site = f"http://{site_host}:{hostile_site}"
    seen.clear()
    context = browser.new_context()
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.goto(site + "/index.html")
    pg.evaluate("([t, g, k, p]) => { attack(t, g, k, p); }",
                [target, game.id, app.state.token, str(proof)])
    pg.wait_for_function("() => window.done")
    results = pg.evaluate("() => window.results")
    context.close()
    # the browser sent them: the server saw the posts and the sockets from the other origin
    posts = [s for s in seen if s[1] == "POST" and s[2] == "/api/games"]
    assert len(posts) >= 2 and all(s[3] == site for s in posts), seen
    sockets = [s for s in seen if s[0] == "websocket"]
    assert len(sockets) == 3 and all(s[3] == site for s in sockets), seen
    # ... and refused every one
    assert results["nocors"] == "sent" and results["form"] == "submitted"
    assert results["cors"] == "blocked" and results["read"] == "blocked", results
    for key in ("ws", "wsToken", "wsQuery"):
        events = results[key].split(",")
        assert "close" in events and "open" not in events and "message" not in events, results
    assert set(sessions.games) == before
    assert not proof.exists()
    # the server's own page, from its own origin, works with the same server
    pg = browser.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.goto(target + "/")
    pg.wait_for_selector("body[data-ready]")
    sync_api.expect(pg.locator("#connection")).to_have_text("live")
    pg.close()


# ------------------------------------------------------------------------------ analysis views
def test_exact_scores_above_the_columns_with_legend_and_evaluation_bar(page, tmp_path):
    # 7x6 after 4 (Black) and 3 (White): Pascal Pons' solver gives, for Black to move,
    # 1: -3, 2: -3, 3: 0, 4: 0, 5: -2, 6: +2, 7: +1
    new_game(page, "connect4", "7x6", white="human")
    for n, column in enumerate((3, 2)):
        page.locator(f'#board .spot[data-x="{column}"][data-y="0"]').click()
        wait_for_human(page, n + 1)
    assert page.locator("#legend").is_hidden()
    page.click("#btn-solve")
    sync_api.expect(page.locator("#solve-info")).to_contain_text("exact")   # the final answer
    labels = page.locator("#board text.solve-score")
    assert labels.count() == 7
    scores = {labels.nth(i).get_attribute("data-move"): (labels.nth(i).text_content(),
                                                          labels.nth(i).get_attribute("class"))
              for i in range(7)}
    assert scores == {"1": ("−3", "solve-score lost"), "2": ("−3", "solve-score lost"),
                      "3": ("0", "solve-score draw"), "4": ("0", "solve-score draw"),
                      "5": ("−2", "solve-score lost"), "6": ("+2", "solve-score won"),
                      "7": ("+1", "solve-score won")}
    # one number above each column: over the top row of holes, in the column's middle
    top_hole = page.locator('#board .spot[data-x="5"][data-y="0"]').bounding_box()
    six = page.locator('#board text.solve-score[data-move="6"]').bounding_box()
    assert six["y"] + six["height"] <= top_hole["y"] + 2
    assert top_hole["x"] < six["x"] + six["width"] / 2 < top_hole["x"] + top_hole["width"]
    # the legend names exactly what is drawn: the exact scores, no heat map
    sync_api.expect(page.locator("#legend .key-score")).to_be_visible()
    sync_api.expect(page.locator("#legend .key-score")).to_contain_text("exact score")
    assert page.locator("#legend .key-heat").is_hidden()
    # the evaluation bar: Black (to move) wins, so the bar is all Black's, marked exact
    page.wait_for_selector('#eval-bar[data-black="1.000"]')
    assert "exact" in page.get_attribute("#eval-bar", "title")
    assert page.locator("#eval-black").bounding_box()["height"] > 0.9 * \
        page.locator("#eval-bar").bounding_box()["height"]
    docs_shot(page, "web-connect4-scores.png")


def test_a_partial_solve_shows_the_settled_columns_and_marks_the_rest(page):
    """A solve whose time ran out (a hard position, a board bigger than the book) keeps the
    columns it settled and puts a grey ? over the others; while it still searches the line
    under the buttons says thinking.  The answer is the server's solve message."""
    new_game(page, "connect4", "7x6", white="human")
    for n, column in enumerate((3, 2)):
        page.locator(f'#board .spot[data-x="{column}"][data-y="0"]').click()
        wait_for_human(page, n + 1)
    page.evaluate("""takeSolve({type: "solve", ply: 2, exact: false, solving: true,
                                scores: {"6": 2}, unsettled: ["1", "2", "3", "4", "5", "7"]})""")
    sync_api.expect(page.locator("#solve-info")).to_contain_text("thinking… 1 of 7 columns")
    page.evaluate("""takeSolve({type: "solve", ply: 2, exact: false, scores: {"6": 2, "3": 0},
                                note: "mcts (not solved in 3.5 s)"})""")
    labels = page.locator("#board text.solve-score")
    assert labels.count() == 7
    shown = {labels.nth(i).get_attribute("data-move"): (labels.nth(i).text_content(),
                                                         labels.nth(i).get_attribute("class"))
             for i in range(7)}
    assert shown["6"] == ("+2", "solve-score won") and shown["3"] == ("0", "solve-score draw")
    assert all(shown[m] == ("?", "solve-score unsettled") for m in "12457")
    info = page.locator("#solve-info").text_content()
    assert "2 of 7 columns settled" in info and "still being searched" in info
    sync_api.expect(page.locator("#legend .key-unsettled")).to_be_visible()
    sync_api.expect(page.locator("#legend .key-score")).to_be_visible()
    # a "still solving" message arriving after the answer does not bring back "thinking"
    page.evaluate("""takeSolve({type: "solve", ply: 2, exact: false, solving: true,
                                scores: {"6": 2}, unsettled: ["1", "2", "3", "4", "5", "7"]})""")
    assert "2 of 7 columns settled" in page.locator("#solve-info").text_content()
    # one settled column wins for Black (to move): the evaluation bar knows that much exactly
    page.wait_for_selector('#eval-bar[data-black="1.000"]')
    page.evaluate("""takeSolve({type: "solve", ply: 2, exact: false, scores: {"3": 0},
                                note: "mcts (not solved in 3.5 s)"})""")
    page.wait_for_selector('#eval-bar[data-black=""]', state="attached")


def test_solve_thinks_shows_each_column_as_it_settles_and_stop_keeps_them(page):
    """Solve on a hard 7x6 position (the solver needs seconds after its first column): the
    page says thinking at once with a ? over every column, each column's score appears as the
    server's solve messages bring it, and Stop ends the solve keeping the settled scores."""
    new_game(page, "connect4", "7x6", white="human")
    for n, column in enumerate("12345671"):
        page.locator(f'#board .spot[data-x="{int(column) - 1}"][data-y="0"]').click()
        wait_for_human(page, n + 1)
    page.click("#btn-solve")
    sync_api.expect(page.locator("#solve-info")).to_contain_text("thinking…")
    sync_api.expect(page.locator("#btn-solve")).to_have_text("Stop")
    sync_api.expect(page.locator("#legend .key-unsettled")).to_be_visible()
    settled = "#board text.solve-score:not(.unsettled)"
    page.wait_for_selector(settled)                     # a first column's score streamed in
    assert "settled so far" in page.locator("#solve-info").text_content()
    page.click("#btn-solve")                            # Stop
    sync_api.expect(page.locator("#solve-info")).to_contain_text("stopped")
    sync_api.expect(page.locator("#btn-solve")).to_have_text("Solve")
    labels = page.locator("#board text.solve-score")
    assert labels.count() == 7
    shown = {labels.nth(i).get_attribute("data-move"): labels.nth(i).text_content()
             for i in range(7)}
    kept = [m for m, text in shown.items() if text != "?"]
    assert kept and len(kept) < 7                       # the settled ones stay, ? over the rest
    assert f"{len(kept)} of 7 columns settled" in page.locator("#solve-info").text_content()
    sync_api.expect(page.locator("#btn-solve")).to_be_enabled()
    docs_shot(page, "web-solve-stopped.png")


def test_analysis_runs_until_unticked_with_three_lines_and_is_cleared(page):
    new_game(page, "hex", "7", white="human")
    for n, move in enumerate(["d4", "c5"]):
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    page.fill("#analyse-engine", "mcts")
    page.fill("#analyse-time", "")                      # empty: until unticked
    page.check("#analyse-toggle")
    page.wait_for_selector("#board .heat", timeout=90_000)
    # it goes on past its first slice (2 s): the analysis is still drawn and growing
    page.wait_for_function("() => app.analysis && app.analysis.time_s > 2.1 && !app.analysis.done",
                           timeout=90_000)
    sync_api.expect(page.locator("#an-source")).to_contain_text("until unticked")
    page.wait_for_function("() => document.querySelectorAll('#an-lines li').length === 3")
    for i in range(3):
        line = page.locator("#an-lines li").nth(i)
        assert line.locator(".rate").text_content().endswith("%")
        assert line.locator(".pv-move").count() >= 1
    # win-rates carry a % sign; ghost stones carry letters, never numbers
    rates = page.locator("#board text.heat-label").all_text_contents()
    assert rates and all(t.endswith("%") for t in rates)
    ghosts = page.locator("#board text.ghost-label").all_text_contents()
    assert all(t.isalpha() and t.islower() for t in ghosts)
    sync_api.expect(page.locator("#legend .key-pv")).to_be_visible()
    sync_api.expect(page.locator("#legend .key-rate")).to_contain_text("%")
    assert page.get_attribute("#eval-bar", "data-black") != ""
    page.uncheck("#analyse-toggle")
    # cleared at once, and nothing comes back from the search's last messages
    for selector in ("#board .heat", "#board .heat-label", "#board .ghost", "#board .best-ring",
                     "#an-lines li"):
        assert page.locator(selector).count() == 0, selector
    assert page.inner_text("#an-best") == "–" and page.inner_text("#an-winrate") == "–"
    assert page.locator("#legend").is_hidden()
    page.wait_for_function("() => document.querySelector('#board svg') && !app.state.analysing")
    page.wait_for_timeout(600)
    assert page.locator("#board .heat").count() == 0 and page.locator("#an-lines li").count() == 0


# ------------------------------------------------------------------------------ navigation
def test_three_quick_left_presses_step_three_plies_and_the_status_line_follows(page):
    new_game(page, "hex", "5", white="human")
    for n, move in enumerate(["c3", "b3", "d2", "c2", "e1"]):
        page.locator(f'#board .spot[data-move="{move}"]').click()
        wait_for_human(page, n + 1)
    sync_api.expect(page.locator("#turn")).to_contain_text("White to move")
    # three presses in one go, before the first view can come back: none is dropped
    page.evaluate("""() => { for (let i = 0; i < 3; i++)
        document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true})); }""")
    page.wait_for_selector('#board svg[data-ply="2"][data-live="0"]')
    page.wait_for_function("() => !app.stepping")
    assert ply(page) == 2 and stones(page) == 2
    # the status line speaks of the position shown, not of the live turn
    turn = page.inner_text("#turn")
    assert "move 2 of 5" in turn and "Black to move here" in turn and "White" not in turn
    docs_shot(page, "web-stepped.png")
    # real key presses, quick: one ply each
    page.locator("#board").click(position={"x": 3, "y": 3})
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board svg[data-live="1"][data-ply="5"]')
    sync_api.expect(page.locator("#turn")).to_have_text("White to move")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board svg[data-ply="3"][data-live="0"]')
    page.wait_for_function("() => !app.stepping")
    assert ply(page) == 3
    sync_api.expect(page.locator("#turn")).to_contain_text("move 3 of 5 — White to move here")
    page.keyboard.press("Home")
    page.wait_for_selector('#board svg[data-ply="0"]')
    sync_api.expect(page.locator("#turn")).to_contain_text("the start")


# ------------------------------------------------------------------------------ phone width
def test_the_page_fits_390_px_without_sideways_scroll(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready]")
    pg.wait_for_selector("#board svg")
    width = "() => document.documentElement.scrollWidth"
    assert pg.evaluate(width) <= 390
    line = pg.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#topbar h1')).lineHeight)"
                       " || 24")
    # the course's board: long title, a blocked cell, and Solve is off with its reason
    new_game(pg, "connect4", "12x12", white="human", blocked="4:2")
    assert pg.evaluate(width) <= 390
    for selector in ("#topbar h1", "#game-title"):
        assert pg.locator(selector).bounding_box()["height"] <= 2.2 * line, selector
    assert pg.locator("#btn-solve").is_disabled()
    sync_api.expect(pg.locator("#solve-why")).to_contain_text("blocked cells")
    assert "blocked cells" in pg.get_attribute("#btn-solve", "title")
    board = pg.locator("#board svg").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390
    new_game(pg, "hex", "11", white="human")
    assert pg.evaluate(width) <= 390
    assert pg.locator("#btn-solve").is_enabled()
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.evaluate("() => window.scrollTo(0, 0)")
        pg.screenshot(path=str(Path(SHOTS) / "web-phone.png"), clip={"x": 0, "y": 0, "width": 390,
                                                                     "height": 640})
    pg.click("#tab-arena")
    assert pg.evaluate(width) <= 390
    context.close()
    assert not errors, errors
