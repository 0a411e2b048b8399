"""Keep numba's on-disk cache honest across edits of the kernels, touching only boardai's files.

numba checks a cached function against its own source file only: when ``games/kernel.py`` is
unchanged but a kernel it calls (``hex/kernel.py``) changed, the stale machine code would be
loaded.  So at import we hash every module that uses numba and, when the hash differs from the
one stored in the cache, delete boardai's cache files before anything is loaded.

"boardai's files" are exact: numba keeps a module's cache in ``__pycache__`` beside it, or, under
``NUMBA_CACHE_DIR``, in ``<dir name>_<sha1 of the directory's path>`` (numba's
``get_suitable_cache_subpath``); only those folders of boardai's own directories are looked at,
and in them only the files named after one of boardai's modules (``kernel.apply_move-91.py311.nbi``
belongs to ``kernel.py``).  A shared ``NUMBA_CACHE_DIR`` keeps every other program's files.

Each cache root has its own stamp (the sources' hash), so switching ``NUMBA_CACHE_DIR`` checks the
new root too.  A cheap key (the package's file names, sizes and times) lets a process skip hashing
the sources when nothing changed: importing boardai stays a few milliseconds.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_THIS = Path(__file__).resolve()
_PACKAGE = _THIS.parent
SOURCES_STAMP = "boardai-numba-sources"     # in the cache root: "<sources hash> <cheap key>"
_digest: str | None = None


def cache_root() -> Path:
    """Where this process's numba cache of boardai is: ``NUMBA_CACHE_DIR`` or, by default,
    the package's own ``__pycache__`` (whose stamps stand for every module's ``__pycache__``)."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return Path(custom) if custom else _PACKAGE / "__pycache__"


def _source_dirs() -> list[Path]:
    return sorted({p.parent for p in _PACKAGE.rglob("*.py") if "__pycache__" not in p.parts})


def cache_dirs() -> list[tuple[Path, Path]]:
    """(source directory, the folder numba caches its modules in) for every package directory."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    out = []
    for d in _source_dirs():
        if custom:
            sub = f"{d.name}_{hashlib.sha1(str(d).encode()).hexdigest()}"
            out.append((d, Path(custom) / sub))
        else:
            out.append((d, d / "__pycache__"))
    return out


def is_boardai_cache_file(path: Path, source_dir: Path) -> bool:
    """Is ``path`` (.nbi/.nbc) numba's cache of a module in ``source_dir``?"""
    if path.suffix not in (".nbi", ".nbc"):
        return False
    module = path.name.split(".", 1)[0]
    return bool(module) and (source_dir / f"{module}.py").is_file()


def remove_cache_files() -> int:
    """Delete boardai's numba cache files in this process's cache root; returns how many."""
    removed = 0
    for source_dir, folder in cache_dirs():
        if not folder.is_dir():
            continue
        for f in folder.iterdir():
            if is_boardai_cache_file(f, source_dir):
                f.unlink(missing_ok=True)
                removed += 1
    return removed


def _cheap_key() -> str:
    h = hashlib.sha1()
    for path in sorted(_PACKAGE.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(_PACKAGE)} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _content_digest() -> str:
    digest = hashlib.sha1()
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if b"njit" in text and path != _THIS:
            digest.update(str(path.relative_to(_PACKAGE)).encode())
            digest.update(text)
    return digest.hexdigest()


def sources_digest() -> str:
    """The hash of boardai's numba sources (as of this process's first look)."""
    global _digest
    if _digest is None:
        _digest = _content_digest()
    return _digest


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def ensure_fresh_cache() -> None:
    global _digest
    try:
        stamp = cache_root() / SOURCES_STAMP
        key = _cheap_key()
        stored = stamp.read_text().split() if stamp.exists() else []
        old = _PACKAGE / "__pycache__" / "numba-sources.sha1"     # the stamp of earlier versions
        if not stored and not os.environ.get("NUMBA_CACHE_DIR") and old.exists():
            stored = [old.read_text().strip(), ""]
        if len(stored) == 2 and stored[1] == key:
            _digest = stored[0]
            return
        value = sources_digest()
        if not stored or stored[0] != value:
            remove_cache_files()
        _write(stamp, f"{value} {key}")
    except OSError:
        pass   # a read-only install: its cache was built from its own sources
