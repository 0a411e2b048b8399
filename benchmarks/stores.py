"""Pack and unpack the result stores of the experiments in ``benchmarks/data``.

The repository keeps an experiment's SQLite store packed, ``NAME.sqlite.xz`` (xz, about a sixth
of the size): ``boardai results``, ``boardai train patterns``, the web page and the benchmark
scripts read a packed store as it is (``arena/store.py`` unpacks a temporary copy; the scripts
that query a store with SQL open it with ``connect`` here).  A store
being written, or unpacked to resume its run, is a plain ``NAME.sqlite``, which git ignores
under ``benchmarks/data``; pack it to keep it:

    python benchmarks/stores.py pack benchmarks/data/course/stronger.sqlite
    python benchmarks/stores.py pack                  # every .sqlite under benchmarks/data
    python benchmarks/stores.py unpack benchmarks/data/course/t3.sqlite.xz   # to resume its run
    python benchmarks/stores.py size                  # the tracked run data, in bytes

``pack`` folds the write-ahead log into the file, compacts it (``VACUUM``), writes
``NAME.sqlite.xz`` beside it and removes the plain store (and its ``-wal``/``-shm``); it checks
first that no other process holds the store (a run still writing it).  ``unpack`` writes
``NAME.sqlite`` beside the packed file and keeps the packed one.
"""

from __future__ import annotations

import argparse
import lzma
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"
LIMIT = 2_000_000                 # the repository's run data, bytes (tracked benchmarks/data)


def pack(path: Path) -> Path:
    """``path`` (a plain store) -> ``path.xz``; the plain store and its log files removed."""
    packed = path.with_name(path.name + ".xz")
    db = sqlite3.connect(str(path), timeout=1.0, isolation_level=None)
    try:
        db.execute("BEGIN EXCLUSIVE")           # fails if a run is writing the store
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("VACUUM")
    except sqlite3.OperationalError as exc:
        raise SystemExit(f"{path}: {exc} (is a run still writing it?)") from None
    finally:
        db.close()
    data = path.read_bytes()
    tmp = packed.with_name(packed.name + ".tmp")
    tmp.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    tmp.replace(packed)
    for extra in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        extra.unlink(missing_ok=True)
    return packed


def unpack(packed: Path) -> Path:
    """``NAME.sqlite.xz`` -> ``NAME.sqlite`` beside it (an existing one is refused)."""
    target = packed.with_suffix("")
    if target.exists():
        raise SystemExit(f"{target} exists already: move it away first")
    with lzma.open(packed) as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def connect(path) -> sqlite3.Connection:
    """An SQLite connection to the store ``path``, packed (read in memory) or plain; what the
    scripts here that read stores with SQL use."""
    path = Path(path)
    if path.suffix != ".xz":
        return sqlite3.connect(str(path))
    db = sqlite3.connect(":memory:")
    db.deserialize(lzma.decompress(path.read_bytes()))
    return db


def tracked_size() -> tuple[int, int]:
    """(bytes, files) of the tracked files under benchmarks/data, as they are on disk."""
    names = subprocess.run(["git", "ls-files", "-z", "benchmarks/data"], cwd=ROOT, check=True,
                           capture_output=True).stdout.split(b"\0")
    files = [ROOT / n.decode() for n in names if n]
    return sum(f.stat().st_size for f in files if f.exists()), len(files)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=["pack", "unpack", "size"])
    ap.add_argument("paths", nargs="*", type=Path,
                    help="stores (default for pack: every .sqlite under benchmarks/data)")
    opts = ap.parse_args()
    if opts.action == "size":
        size, count = tracked_size()
        print(f"tracked run data: {size:,} bytes in {count} files (limit {LIMIT:,})")
        sys.exit(0 if size <= LIMIT else 1)
    paths = opts.paths or (sorted(DATA.rglob("*.sqlite")) if opts.action == "pack" else [])
    if not paths:
        raise SystemExit("give the stores to unpack")
    for path in paths:
        before = path.stat().st_size
        out = pack(path) if opts.action == "pack" else unpack(path)
        print(f"{path} ({before:,} bytes) -> {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
