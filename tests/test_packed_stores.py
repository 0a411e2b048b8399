"""Packed result stores (``NAME.sqlite.xz``): read as they are, never written; the repository's
own stores of its experiments are packed, and its run data stays within its limit."""

from __future__ import annotations

import lzma
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardai.arena.store import APPLICATION_ID, MatchInfo, Store, StoredGame, StoreError
from boardai.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"


def _store_with_a_game(path: Path) -> StoredGame:
    game = StoredGame(match_key="m1", idx=0, black="random", white="mcts", a_is_black=True,
                      game="hex", width=3, height=3, opening=[], seed=7, moves=[4, 0, 1, 7],
                      winner=0, reason="connection", times=[0.01, 0.02, 0.01, 0.02])
    with Store(path) as store:
        store.ensure_match(MatchInfo("m1", "random", "mcts", "hex", 3, 3, "", 7, {}))
        assert store.add_game(game)
    return game


def _pack(path: Path) -> Path:
    packed = path.with_name(path.name + ".xz")
    packed.write_bytes(lzma.compress(path.read_bytes()))
    return packed


def test_a_packed_store_reads_as_the_plain_one_and_leaves_nothing_behind(tmp_path, monkeypatch):
    plain = tmp_path / "plain.sqlite"
    game = _store_with_a_game(plain)
    packed = _pack(plain)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)          # TMPDIR read again
    with Store(packed) as store:
        assert store.packed
        [got] = store.games()
        assert (got.moves, got.winner, got.black, got.white) == \
            (game.moves, game.winner, game.black, game.white)
        assert [m.match_key for m in store.matches()] == ["m1"]
        assert list((tmp_path / "tmp").iterdir())           # the unpacked copy, while open
    assert list((tmp_path / "tmp").iterdir()) == []         # removed on close
    assert packed.read_bytes() == lzma.compress(plain.read_bytes())     # untouched


def test_a_packed_store_refuses_to_be_written(tmp_path):
    plain = tmp_path / "plain.sqlite"
    game = _store_with_a_game(plain)
    packed = _pack(plain)
    with pytest.raises(StoreError, match=r"packed result store \(read-only\).*xz -dk"):
        Store(packed, writing=True)
    with Store(packed) as store, pytest.raises(StoreError, match="packed result store"):
        store.add_game(game)


def test_a_file_that_is_no_packed_store_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.sqlite.xz"
    bad.write_bytes(b"not xz at all")
    with pytest.raises(StoreError, match="is not a packed result store"):
        Store(bad)
    assert list(tmp_path.iterdir()) == [bad]


def test_results_and_match_on_a_packed_store(tmp_path):
    plain = tmp_path / "plain.sqlite"
    _store_with_a_game(plain)
    packed = _pack(plain)
    plain.unlink()
    done = CliRunner().invoke(main, ["results", str(packed), "--json"])
    assert done.exit_code == 0, done.output
    assert '"matches"' in done.output and "random" in done.output
    done = CliRunner().invoke(main, ["match", "random", "random", "--game", "hex", "--size", "3",
                                     "--games", "2", "--store", str(packed)])
    assert done.exit_code == 1
    assert "packed result store (read-only)" in done.output and "Traceback" not in done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.sqlite.xz"]


def _tracked(under: str) -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = subprocess.run(["git", "ls-files", "-z", under], cwd=ROOT, check=True,
                           capture_output=True).stdout.split(b"\0")
    return [ROOT / n.decode() for n in names if n]


def test_the_repository_keeps_its_stores_packed_and_readable():
    tracked = _tracked("benchmarks/data")
    assert not [p for p in tracked if p.name.endswith((".sqlite", ".sqlite-wal", ".sqlite-shm"))]
    packed = [p for p in tracked if p.name.endswith(".sqlite.xz") and p.exists()]
    assert len(packed) >= 50
    for path in packed:                   # each one a boardai store with games (read in memory)
        db = sqlite3.connect(":memory:")
        db.deserialize(lzma.decompress(path.read_bytes()))
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID, path
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] > 0, path
        db.close()
    with Store(packed[0]) as store:       # and as Store reads them
        assert store.games()


def test_the_repository_run_data_is_small_and_holds_no_generation_files():
    tracked = [p for p in _tracked("benchmarks/data") if p.exists()]
    assert sum(p.stat().st_size for p in tracked) <= 2_000_000
    # a training run keeps its report, curves, settings and summary, not its generations
    assert not [p for p in tracked if p.parent.name in ("nets", "games", "selfplay")
                or p.suffix in (".pt", ".npz") and "train" in p.parts]
