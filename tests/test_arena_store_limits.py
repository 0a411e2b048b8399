"""The result store keeps what an engine said only up to a size: a 20 MB answer is not stored.

An engine that answers ``genmove`` with 20 MB of text loses by an illegal move, and the game's
``detail`` quotes the answer (twice: as the answer and in the parser's message); an engine's name
and version are its own words too.  ``Store.add_game`` cuts them to ``MAX_DETAIL`` and
``MAX_VERSION`` characters, keeping the start and the end around a marker.
"""

from __future__ import annotations

import sys

from boardai.arena.match import make_plan, run_match
from boardai.arena.runner import SerialRunner
from boardai.arena.store import MAX_DETAIL, MAX_VERSION, Store, StoredGame, cut
from boardai.games.setup import BoardSetup

# A GTP engine whose moves are 20 MB of text and whose name is 1 MB.
HUGE_ENGINE = r'''
import sys
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("=\n", flush=True)
        break
    if words[0] == "genmove":
        print("= " + "z" * 20_000_000 + "\n", flush=True)
    elif words[0] == "name":
        print("= " + "n" * 1_000_000 + "\n", flush=True)
    elif words[0] == "version":
        print("= 1.0\n", flush=True)
    elif words[0] == "list_commands":
        print("= protocol_version\nname\nversion\nboardsize\nclear_board\nplay\ngenmove\nquit\n",
              flush=True)
    else:
        print("= \n", flush=True)
'''


def game(idx: int, detail: str | None, version: str | None = "v1") -> StoredGame:
    return StoredGame("key", idx, "random", "random", True, "hex", 5, 5, [], 1, [0, 1], 0,
                      "illegal move", [0.1], black_version=version, white_version="boardai",
                      detail=detail)


def test_cut_keeps_start_and_end_and_says_how_much():
    text = "Black: GtpBadMove: engine answered '" + "z" * 50_000 + "', which is not a move: end"
    kept = cut(text, 2_000)
    assert kept.startswith("Black: GtpBadMove: engine answered 'zzz")
    assert kept.endswith("', which is not a move: end")
    assert f"[... {len(text) - 2_000:,} characters cut by the result store ...]" in kept
    assert len(kept) < 2_100
    assert cut("short", 2_000) == "short" and cut(None, 2_000) is None
    assert cut("x" * 2_000, 2_000) == "x" * 2_000


def test_a_huge_detail_and_version_are_stored_cut(tmp_path):
    path = tmp_path / "arena.sqlite"
    with Store(path) as store:
        for i in range(4):     # the issue: four such games made a 153 MB store
            assert store.add_game(game(i, f"White: answered '{'z' * 20_000_000}' {i}",
                                       version="n" * 1_000_000))
        store.add_game(game(4, "Black: GtpTimeout: no answer within 1.0 s"))
        store.add_game(game(5, None, version=None))
        games = store.games("key")
    assert sum(f.stat().st_size for f in tmp_path.iterdir()) < 1_000_000
    for g in games[:4]:
        assert len(g.detail) <= MAX_DETAIL + 80 and "characters cut by the result store" in g.detail
        assert g.detail.startswith("White: answered 'zzz") and g.detail.endswith(f"' {g.idx}")
        assert len(g.black_version) <= MAX_VERSION + 80
    assert games[4].detail == "Black: GtpTimeout: no answer within 1.0 s"
    assert games[4].black_version == "v1"
    assert games[5].detail is None and games[5].black_version is None


def test_an_engine_answering_20_mb_leaves_a_small_store(tmp_path):
    script = tmp_path / "huge_engine.py"
    script.write_text(HUGE_ENGINE)
    store_path = tmp_path / "arena.sqlite"
    plan = make_plan("random", f"gtp:{sys.executable} {script}", BoardSetup("hex", 5, 5), None, 1,
                     None, store_path)
    with Store(store_path) as store:
        run_match(plan, 4, store, SerialRunner())
        games = store.games(plan.key)
    assert len(games) == 4
    assert all(g.reason == "illegal move" and g.detail for g in games)
    for g in games:
        assert len(g.detail) <= MAX_DETAIL + 80, len(g.detail)
        assert "characters cut by the result store" in g.detail
        version = g.white_version if g.a_is_black else g.black_version
        assert version is None or len(version) <= MAX_VERSION + 80
    size = sum(f.stat().st_size for f in tmp_path.iterdir() if f.name.startswith("arena"))
    assert size < 1_000_000, size
