"""The logs of external engines are capped: per engine and game (head and tail kept, a note of
what was dropped between) and per store (once the folder is full, a log keeps only its note).

The end-to-end case is the hardening probe's: a course strategy writing 100 MB to stdout in
each game of a ``compete`` leaves at most 1 MB of logs per game (it used to leave 100 MB).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardai.arena.logs import GAME_LOG_CAP, STORE_LOG_CAP, CappedLog, folder_bytes, store_room
from boardai.cli import main
from course_strategies import build

MB = 1_000_000


def write_through(log: CappedLog, code: str) -> None:
    """Run ``code`` in a Python process whose stderr is ``log``; close the log."""
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=log)
    assert proc.wait(timeout=120) == 0
    log.close()


def test_a_flood_keeps_its_head_its_tail_and_a_note(tmp_path):
    path = tmp_path / "engine.stderr"
    code = ("import sys\nsys.stderr.write('FIRST\\n')\n"
            "for i in range(1600): sys.stderr.write('y' * 65535 + '\\n')\n"
            "sys.stderr.write('LAST WORDS\\n')")
    log = CappedLog(path, cap=64 * 1024)
    write_through(log, code)
    data = path.read_bytes()
    total = len("FIRST\n") + 1600 * 65536 + len("LAST WORDS\n")
    assert log.seen == total
    assert data.startswith(b"FIRST\n") and data.endswith(b"LAST WORDS\n")
    note = re.search(rb"\[boardai: ([0-9,]+) bytes dropped here: a log keeps its first and "
                     rb"last 32 KiB\]", data)
    assert note is not None
    dropped = int(note.group(1).replace(b",", b""))
    assert dropped == total - 64 * 1024
    assert len(data) == 64 * 1024 + len(log.note())


def test_a_short_log_is_kept_whole_without_a_note(tmp_path):
    path = tmp_path / "engine.stderr"
    write_through(CappedLog(path, cap=1024), "import sys; sys.stderr.write('a note\\n' * 10)")
    assert path.read_bytes() == b"a note\n" * 10


def test_a_full_store_keeps_only_the_note(tmp_path):
    (tmp_path / "old.stderr").write_bytes(b"z" * 5000)
    assert folder_bytes(tmp_path) == 5000
    assert store_room(tmp_path, cap=4096) == 0
    assert store_room(tmp_path, cap=6000) == 1000
    path = tmp_path / "new.stderr"
    write_through(CappedLog(path, cap=store_room(tmp_path, cap=4096)),
                  "import sys; sys.stderr.write('x' * 3000)")
    assert path.read_text() == "\n[boardai: 3,000 bytes dropped here: the logs of this store " \
                               "are full]\n"


def test_the_caps_hold_a_game_under_one_megabyte():
    assert 2 * GAME_LOG_CAP + 400 <= MB          # two logged engines and their notes
    assert STORE_LOG_CAP >= 100 * GAME_LOG_CAP


@pytest.mark.parametrize("flood_mb", [100])
def test_a_strategy_writing_100_mb_leaves_at_most_1_mb_of_logs_per_game(tmp_path, flood_mb):
    libs = build(tmp_path / "libs", "flood", "leftmost", flood_mb=flood_mb)
    store = tmp_path / "c.sqlite"
    result = CliRunner().invoke(main, [
        "compete", f"strategy:{libs['flood']}", f"strategy:{libs['leftmost']}",
        str(tmp_path / "r.txt"), "2", "--seed", "1", "--move-time", "30", "--store", str(store),
        "--jobs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    logs = sorted((tmp_path / "c.sqlite.logs").iterdir())
    per_game: dict[str, int] = {}
    for path in logs:
        game = path.name.rsplit("-", 1)[0]
        per_game[game] = per_game.get(game, 0) + path.stat().st_size
    assert len(per_game) == 4                    # 2 rounds of 2 games, each flooded
    assert all(size <= MB for size in per_game.values()), per_game
    flooded = [p.read_bytes() for p in logs]
    dropped = sum(int(m.group(1).replace(b",", b""))
                  for data in flooded for m in re.finditer(rb"\[boardai: ([0-9,]+) bytes dropped", data))
    assert dropped >= 4 * (flood_mb * 2**20 - GAME_LOG_CAP)
    assert folder_bytes(tmp_path / "c.sqlite.logs") <= 4 * MB
