"""First contact: the command line loads without the kernels, the game list without the games,
numba's cache is cleaned of boardai's stale files only, and a cold cache is announced."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardai
import boardai.games
from boardai import _numba_cache, warmup
from boardai.cli import main
from boardai.engines.base import Engine, Limit, PlayResult
from boardai.games import make_board

PACKAGE = Path(boardai.__file__).resolve().parent


def _run(code: str, env: dict | None = None) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_command_line_loads_neither_numba_nor_numpy():
    out = _run("import sys, boardai.cli\n"
               "print(' '.join(m for m in ('numba', 'numpy', 'boardai.games.game',\n"
               "                           'boardai.games.kernel') if m in sys.modules))")
    assert out.strip() == ""


def test_the_game_list_names_every_registered_game_in_order():
    registered = boardai.games.all_games()
    assert list(registered) == list(boardai.games.GAME_NAMES)
    assert boardai.games.DEFAULT_GAME in registered
    for name, game in registered.items():
        assert game.name == name
        assert boardai.games.get_game(name) is game


def test_the_registry_loads_its_games_on_first_use_in_a_new_process():
    out = _run("from boardai.games.game import get_game, all_games\n"
               "print(get_game('c4').name, len(all_games()))")
    assert out.split() == ["connect4", str(len(boardai.games.GAME_NAMES))]


def _cache_dir_of(root: Path, source_dir: Path) -> Path:
    return root / f"{source_dir.name}_{hashlib.sha1(str(source_dir).encode()).hexdigest()}"


def test_a_shared_numba_cache_keeps_other_programs_files(tmp_path):
    games_dir = _cache_dir_of(tmp_path, PACKAGE / "games")
    games_dir.mkdir()
    stale = [games_dir / "kernel.apply_move-91.py311.nbi",
             games_dir / "kernel.apply_move-91.py311.1.nbc"]
    other_dir = tmp_path / "games_0123456789abcdef0123456789abcdef01234567"   # a folder "games"
    other_dir.mkdir()                                                        # of another program
    foreign = [other_dir / "kernel.apply_move-91.py311.nbi",
               other_dir / "kernel.apply_move-91.py311.1.nbc",
               games_dir / "notours.f-3.py311.nbi",          # no module of boardai is called so
               tmp_path / "kernel.apply_move-91.py311.nbi"]
    for f in stale + foreign:
        f.write_bytes(b"cache")
    (tmp_path / _numba_cache.SOURCES_STAMP).write_text("0" * 40 + " stale")
    _run("import boardai", env={"NUMBA_CACHE_DIR": str(tmp_path)})
    assert [f for f in stale if f.exists()] == []
    assert [f for f in foreign if not f.exists()] == []
    stamp = (tmp_path / _numba_cache.SOURCES_STAMP).read_text().split()
    assert stamp[0] == _numba_cache.sources_digest()

    # the sources unchanged: the next process deletes nothing
    for f in stale:
        f.write_bytes(b"cache")
    _run("import boardai", env={"NUMBA_CACHE_DIR": str(tmp_path)})
    assert all(f.exists() for f in stale + foreign)


def test_cache_files_belong_to_boardai_by_their_module():
    games = PACKAGE / "games"
    assert _numba_cache.is_boardai_cache_file(Path("kernel.apply_move-91.py311.nbi"), games)
    assert _numba_cache.is_boardai_cache_file(Path("layout.zobrist_key-66.py311.3.nbc"), games)
    assert not _numba_cache.is_boardai_cache_file(Path("mymodule.f-1.py311.nbi"), games)
    assert not _numba_cache.is_boardai_cache_file(Path("kernel.py"), games)


class _Compiling(Engine):
    """An engine with a 'jitted' search: its warm-up is counted."""
    name = "compiling"
    warm_limit = Limit(sims=1)
    warmed = 0

    def play(self, board, limit=None):
        if limit is self.warm_limit:
            type(self).warmed += 1
        return PlayResult(next(iter(board.legal_moves)), "x")


def test_a_cold_cache_is_announced_once_and_the_warm_up_runs_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    board = make_board("tictactoe")
    engine = _Compiling()
    assert warmup.warm_keys() == set()
    out = io.StringIO()
    warmup.warm_engine(engine, board, out)
    assert out.getvalue().startswith("preparing the engines, once: about ")
    assert out.getvalue().count("\n") == 1
    assert warmup.warm_keys() == {"compiling:tictactoe:64"}
    again = io.StringIO()
    warmup.warm_engine(engine, board, again)
    assert again.getvalue() == ""
    assert _Compiling.warmed == 2
    # a stamp of other kernel sources is cold again
    stamp = tmp_path / warmup.WARM_STAMP
    stamp.write_text("f" * 40 + "\ncompiling:tictactoe:64\n")
    assert warmup.warm_keys() == set()


def test_engines_with_nothing_to_compile_are_not_announced(tmp_path, monkeypatch):
    from boardai.engines.registry import make_engine
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    out = io.StringIO()
    warmup.warm_engine(make_engine("random"), make_board("hex", 5), out)
    assert out.getvalue() == ""


def test_warmup_refuses_an_unknown_game():
    result = CliRunner().invoke(main, ["warmup", "--game", "chess"])
    assert result.exit_code == 2
    assert "hex" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("game", ["tictactoe"])
def test_warmup_compiles_and_then_says_ready(game):
    runner = CliRunner()
    first = runner.invoke(main, ["warmup", "--game", game])
    assert first.exit_code == 0, first.output
    second = runner.invoke(main, ["warmup", "--game", game])
    assert second.exit_code == 0
    assert "ready" in second.output.splitlines()[1]


@pytest.mark.parametrize("args, missing, extra", [
    (["tui"], "textual", "tui"),
    (["serve"], "uvicorn", "serve"),
    (["train", "RUNDIR"], "torch", "train"),
    (["match", "random", "random", "--games", "1", "--backend", "ray", "--store", "STORE"],
     "ray", "dist"),
])
def test_a_missing_extra_is_named_in_one_line(args, missing, extra, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, missing, None)      # import fails as if not installed
    for name in list(sys.modules):     # as in a fresh process: nothing that needs it is loaded
        if name.startswith((missing + ".", "boardai.ui.tui", "boardai.ui.web")):
            monkeypatch.delitem(sys.modules, name)
    args = [str(tmp_path / "x") if a in ("RUNDIR", "STORE") else a for a in args]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert f"pip install 'boardai[{extra}]'" in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
