"""The arena: matches store exactly their games, resume after kill -9, survive bad engines."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardai.arena.match import make_plan, run_match
from boardai.arena.openings import OpeningError, load_suite
from boardai.arena.ratings import SprtSpec
from boardai.arena.runner import ProcessRunner, SerialRunner
from boardai.arena.store import SCHEMA_VERSION, Store, StoreError
from boardai.games.setup import BoardSetup
from boardai.cli import main
from boardai.games import make_board
from boardai.games import kernel as K
from boardai.records import load

FAKE = Path(__file__).with_name("fake_gtp.py")


def fake(mode: str, at: int = 1) -> str:
    return f"gtp:{sys.executable} {FAKE} {mode} {at}"


def plan_for(tmp_path, a="random", b="random", game="hex", size=(5, 5), openings=None, seed=1,
             move_timeout=None):
    return make_plan(a, b, BoardSetup.of(game, size), openings, seed, move_timeout,
                     tmp_path / "arena.sqlite")


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT match_key, idx FROM games").fetchall()


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- storing and resuming -----------------------------------------------------------------
def test_a_match_of_n_games_stores_exactly_n_and_resumes_or_extends(tmp_path):
    plan = plan_for(tmp_path)
    with Store(tmp_path / "arena.sqlite") as store, ProcessRunner(2) as runner:
        out = run_match(plan, 30, store, runner)
        assert out.score.games == 30 and out.resumed == 0
        again = run_match(plan, 30, store, runner)            # nothing left to play
        assert again.resumed == 30 and again.score.games == 30
        longer = run_match(plan, 36, store, runner)
        assert longer.resumed == 30 and longer.score.games == 36
        games = store.games(plan.key)
    assert sorted(g.idx for g in games) == list(range(36))
    assert len(rows(tmp_path / "arena.sqlite")) == 36
    for g in games:                                  # colours alternate; each game replays
        assert g.a_is_black == (g.idx % 2 == 0)
        board = make_board("hex", (5, 5))
        board.push_many(g.moves)
        assert board.outcome().winner == g.winner and g.reason == "connection"
        assert len(g.times) == len(g.moves)


def test_same_seed_same_games_in_another_store(tmp_path):
    first = plan_for(tmp_path, a="random", b="mcts:sims=20")
    other = tmp_path / "other"
    other.mkdir()
    second = plan_for(other, a="random", b="mcts:sims=20")
    moves = []
    for plan, folder in ((first, tmp_path), (second, other)):
        with Store(folder / "arena.sqlite") as store:
            run_match(plan, 4, store, SerialRunner())
            moves.append([g.moves for g in store.games(plan.key)])
    assert moves[0] == moves[1]
    assert len({tuple(m) for m in moves[0]}) > 1            # games differ from each other


def test_kill_9_mid_match_then_rerun_ends_with_exactly_n_distinct_games(tmp_path):
    store = tmp_path / "kill.sqlite"
    n = 800
    cmd = [sys.executable, "-m", "boardai", "match", "random", "random", "--size", "11",
           "--games", str(n), "--jobs", "2", "--store", str(store), "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 40 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        if store.exists():
            try:
                stored = len(rows(store))
            except sqlite3.OperationalError:      # the store is still being created
                stored = 0
    assert proc.poll() is None, "the match ended before it could be killed: raise n"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = len(rows(store))
    assert 40 <= killed_at < n
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["games"] == n and report["resumed"] >= killed_at
    keys = rows(store)
    assert len(keys) == n and sorted(i for _, i in keys) == list(range(n))


def test_two_writers_on_one_store_do_not_collide(tmp_path):
    path = tmp_path / "shared.sqlite"
    Store(path).close()
    plans = [plan_for(tmp_path, seed=s) for s in (1, 2)]
    games = []
    with Store(path) as store:
        for plan in plans:
            run_match(plan, 3, store, SerialRunner())
            games += store.games(plan.key)

    def write(gs):
        with Store(path) as s:
            for g in gs:
                s.add_game(g)          # the same games again: ignored, not doubled

    threads = [threading.Thread(target=write, args=(games,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(rows(path)) == 6


# --- bad stores -----------------------------------------------------------------------------
def test_corrupt_store_gives_a_clear_error(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all\x00" * 200)
    res = CliRunner().invoke(main, ["results", str(junk)])
    assert res.exit_code == 1 and "not a usable boardai result store" in res.output
    assert "Traceback" not in res.output
    res = CliRunner().invoke(main, ["match", "random", "random", "--store", str(junk)])
    assert res.exit_code == 1 and "not a usable boardai result store" in res.output


def test_damaged_store_pages_give_a_clear_error(tmp_path):
    path = tmp_path / "damaged.sqlite"
    with Store(path) as store:
        run_match(plan_for(tmp_path), 20, store, SerialRunner())
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    data[page:3 * page] = b"\xa5" * (2 * page)      # scribble over table pages
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged|not a usable"):
        Store(path)


def test_foreign_and_newer_stores_are_refused(tmp_path):
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StoreError, match="another program"):
        Store(foreign)
    newer = tmp_path / "newer.sqlite"
    Store(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer boardai"):
        Store(newer)


# --- GTP participants ---------------------------------------------------------------------
@pytest.mark.parametrize("mode,reason", [
    ("crash", "crash"), ("hang", "time forfeit"), ("illegal", "illegal move"),
    ("garbage", "illegal move"),
])
def test_a_failing_gtp_engine_loses_and_the_match_goes_on(tmp_path, mode, reason):
    at = 2                                  # misbehave at its second move of each game
    plan = plan_for(tmp_path, a="random", b=fake(mode, at), size=(4, 4), move_timeout=1.0)
    with Store(tmp_path / "arena.sqlite") as store:
        out = run_match(plan, 2, store, SerialRunner())
        games = store.games(plan.key)
    assert out.score.games == 2 and out.score.wins == 2      # random won both: B failed
    for g in games:
        assert g.reason == reason
        assert g.detail and ("White" if g.a_is_black else "Black") in g.detail
        log = [Path(p) for p in g.logs]
        assert len(log) == 1 and f"({mode})" in log[0].read_text()
    assert {g.white_version if g.a_is_black else g.black_version for g in games} == {
        f"fake-{mode} 1"}


def test_a_well_behaved_gtp_engine_plays_whole_games(tmp_path):
    plan = plan_for(tmp_path, a="random", b=fake("good"), size=(4, 4), move_timeout=5.0)
    with Store(tmp_path / "arena.sqlite") as store:
        out = run_match(plan, 2, store, SerialRunner())
        games = store.games(plan.key)
    assert out.score.games == 2 and set(out.score.reasons) == {"connection"}
    assert {g.white_version if g.a_is_black else g.black_version for g in games} == {"fake-good 1"}


# --- SPRT, openings, tournaments, results ---------------------------------------------------
def test_sprt_stops_a_lopsided_match_early(tmp_path):
    plan = plan_for(tmp_path, a="mcts:sims=300", b="random")
    with Store(tmp_path / "arena.sqlite") as store:
        out = run_match(plan, 200, store, SerialRunner(), SprtSpec(elo0=0, elo1=100))
    assert out.sprt.verdict == "H1"
    assert out.score.games < 200
    assert out.sprt.llr >= out.sprt.upper


def test_hex_1stone_plays_every_first_move_with_both_colours(tmp_path):
    plan = plan_for(tmp_path, size=(3, 3), openings="hex-1stone")
    tasks = [plan.task(i) for i in range(18)]
    assert sorted(t.opening for t in tasks) == sorted([(c,) for c in range(9)] * 2)
    for first, second in zip(tasks[::2], tasks[1::2]):
        assert first.opening == second.opening and first.a_is_black != second.a_is_black


def test_c4_random_4_openings_are_distinct_legal_and_not_winning_at_once():
    suite = load_suite("c4-random-4", BoardSetup("connect4", 7, 6), seed=5)
    c4 = BoardSetup("connect4", 7, 6)
    assert suite.openings == load_suite("c4-random-4", c4, seed=5).openings
    assert suite.openings != load_suite("c4-random-4", c4, seed=6).openings
    seen = set()
    for opening in suite.openings[:200]:
        board = make_board("connect4")
        board.push_many(list(opening))
        assert len(opening) == 4 and not board.is_game_over()
        out = np.empty(board.num_actions, dtype=np.int64)
        assert K.winning_moves(board.state, int(board.turn), out) == 0
        seen.add(board.zobrist_hash())
    assert len(seen) == min(200, len(suite.openings))


def test_opening_file_and_its_errors(tmp_path):
    good = tmp_path / "openings.txt"
    good.write_text("# two openings\nc3\nb2 c2   # a comment\n")
    suite = load_suite(str(good), BoardSetup("hex", 5, 5), seed=1)
    assert len(suite.openings) == 2 and suite.for_game(2) == suite.openings[1]
    bad = tmp_path / "bad.txt"
    bad.write_text("c3\nc3 c3\n")
    with pytest.raises(OpeningError, match="line 2"):
        load_suite(str(bad), BoardSetup("hex", 5, 5), seed=1)
    with pytest.raises(OpeningError, match="hex-1stone or c4-random-4"):
        load_suite("nosuch-suite", BoardSetup("hex", 5, 5), seed=1)
    with pytest.raises(OpeningError, match="for Hex"):
        load_suite("hex-1stone", BoardSetup("connect4", 7, 6), seed=1)


def test_match_json_with_openings_and_sprt_on_connect_four(tmp_path):
    store = tmp_path / "c4.sqlite"
    res = cli("match", "random", "random", "--game", "connect4", "--games", "6", "--jobs", "1",
              "--openings", "c4-random-4", "--sprt", "elo0=0,elo1=20", "--store", str(store),
              "--json")
    data = json.loads(res.output.strip().splitlines()[-1])
    for key in ("games", "wins_a", "wins_b", "draws", "score", "elo_diff", "elo_ci95", "los",
                "sprt"):
        assert key in data
    assert data["games"] == 6 == data["wins_a"] + data["wins_b"] + data["draws"]
    assert set(data["reasons"]) <= {"four in a row", "draw"}
    assert data["sprt"]["verdict"] is None


def test_match_bad_input_is_a_usage_error(tmp_path):
    for args, message in ((["nosuch", "random"], "unknown engine"),
                          (["random", "random", "--sprt", "elo1=-5"], "elo1 > elo0"),
                          (["random", "random", "--openings", "c4-random-4"], "for Connect Four"),
                          (["random", "gtp:no-such-engine-here --x"], "cannot find the GTP")):
        res = CliRunner().invoke(main, ["match", *args, "--store", str(tmp_path / "s.sqlite")])
        assert res.exit_code == 2 and message in res.output


def test_tournament_json_ratings_and_crosstable(tmp_path):
    store = tmp_path / "t.sqlite"
    res = cli("tournament", "random", "mcts:sims=30", "mcts:sims=150", "--size", "4",
              "--games-per-pair", "4", "--jobs", "1", "--store", str(store), "--json")
    data = json.loads(res.output.strip().splitlines()[-1])
    assert {r["engine"] for r in data["ratings"]} == {"random", "mcts:sims=30", "mcts:sims=150"}
    anchor = next(r for r in data["ratings"] if r["engine"] == "random")
    assert anchor["elo"] == 0.0
    assert all(r["games"] == 8 for r in data["ratings"])
    table = {row["engine"]: row["vs"] for row in data["crosstable"]}
    for a, vs in table.items():
        for b, cell in vs.items():
            assert cell["games"] == 4
            assert cell["points"] + table[b][a]["points"] == 4
    assert len(rows(store)) == 12


def test_results_summarises_and_exports_records(tmp_path):
    store = tmp_path / "r.sqlite"
    cli("match", "random", "random", "--size", "5", "--games", "4", "--jobs", "1",
        "--store", str(store))
    cli("match", "random", fake("crash", 2), "--size", "4", "--games", "2", "--jobs", "1",
        "--store", str(store), "--move-timeout", "5")
    res = cli("results", str(store), "--export-sgf", str(tmp_path / "sgf"), "--json")
    data = json.loads(res.output.strip().splitlines()[-1])
    assert [m["games"] for m in data["matches"]] == [4, 2] and data["exported"] == 6
    records = [load(p) for p in sorted((tmp_path / "sgf").glob("*.sgf"))]
    assert len(records) == 6
    assert sum(r.result.endswith("+F") for r in records) == 2
    text = cli("results", str(store)).output
    assert "crash 2" in text and "connection 4" in text
    missing = CliRunner().invoke(main, ["results", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 1 and "no such result store" in missing.output


def test_an_in_process_engine_slower_than_the_hard_limit_loses_on_time(tmp_path):
    plan = plan_for(tmp_path, move_timeout=1e-9)          # no move is that fast
    with Store(tmp_path / "arena.sqlite") as store:
        run_match(plan, 2, store, SerialRunner())
        games = store.games(plan.key)
    for g in games:
        assert g.reason == "time forfeit" and g.winner == 1 and len(g.moves) == 0
        assert "Black" in g.detail and "allowed per move" in g.detail


@pytest.mark.parametrize("command", ["match", "tournament", "results"])
def test_arena_help_has_examples(command):
    out = cli(command, "--help").output
    assert "Examples:" in out and f"boardai {command} " in out


def test_sprt_with_workers_keeps_the_games_under_way_when_it_decides(tmp_path):
    plan = plan_for(tmp_path, a="mcts:sims=300", b="random")
    with Store(tmp_path / "arena.sqlite") as store, ProcessRunner(2) as runner:
        out = run_match(plan, 200, store, runner, SprtSpec(elo0=0, elo1=100))
        stored = store.games(plan.key)
    assert out.sprt.verdict == "H1" and out.score.games == len(stored) < 200


# --- the swap rule ---------------------------------------------------------------------------
def test_a_match_with_the_swap_rule_swaps_records_and_replays(tmp_path):
    """mcts takes Black's winning first stones on 3x3 Hex by the swap: the stored games carry
    the rule and the swap move, the match is another than the one without the rule, and every
    exported record replays to the stored moves and winner."""
    setup = BoardSetup.of("hex", 3, swap=True)
    plan = make_plan("mcts:sims=300", "random", setup, None, 1, None, tmp_path / "s.sqlite")
    assert plan.key != plan_for(tmp_path, "mcts:sims=300", size=(3, 3)).key
    with Store(tmp_path / "s.sqlite") as store, SerialRunner() as runner:
        run_match(plan, 8, store, runner)
        games = store.games(plan.key)
    swap_move = 3 * 3
    assert len(games) == 8 and all(g.swap and g.setup == setup for g in games)
    swapped = [g for g in games if len(g.moves) > 1 and g.moves[1] == swap_move]
    assert swapped, [g.moves for g in games]
    res = cli("results", str(tmp_path / "s.sqlite"), "--export-sgf", str(tmp_path / "sgf"),
              "--json")
    assert json.loads(res.output.strip().splitlines()[-1])["matches"][0]["swap"] is True
    by_name = {p.name: load(p) for p in (tmp_path / "sgf").glob("*.sgf")}
    for g in games:
        rec = by_name[f"{g.match_key[:8]}-{g.idx:05d}.sgf"]
        assert rec.setup == setup and rec.moves == g.moves
        board = rec.to_board()
        assert board.move_stack == g.moves and int(board.outcome().winner) == g.winner


def test_match_and_tournament_take_swap_and_compete_refuses_it(tmp_path):
    store = str(tmp_path / "c.sqlite")
    res = cli("match", "mcts:sims=200", "random", "--size", "3", "--swap", "--games", "4",
              "--jobs", "1", "--store", store, "--json")
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["swap"] is True and data["games"] == 4
    res = cli("tournament", "random", "mcts:sims=50", "--size", "3", "--swap",
              "--games-per-pair", "2", "--jobs", "1", "--store", store, "--json")
    assert all(r["games"] == 2 for r in json.loads(res.output.strip().splitlines()[-1])["ratings"])
    with Store(store) as db:
        assert {g.swap for g in db.games()} == {True} and len(db.games()) == 6
    for args, words in ((["match", "random", "random", "--game", "connect4", "--swap"],
                         "Connect Four has none"),
                        (["match", "random", "random", "--size", "4x5", "--swap"], "square"),
                        (["compete", "random", "random", str(tmp_path / "r.txt"), "1", "--swap"],
                         "has no swap rule")):
        bad = CliRunner().invoke(main, [*args, "--store", store])
        assert bad.exit_code == 2 and words in bad.output, bad.output
        assert "Traceback" not in bad.output
