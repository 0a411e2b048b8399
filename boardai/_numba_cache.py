"""Keep numba's on-disk cache honest across edits of the kernels.

numba checks a cached function against its own source file only: when ``games/kernel.py`` is
unchanged but a kernel it calls (``hex/kernel.py``) changed, the stale machine code would be
loaded.  So at import we hash every module that uses numba and, when the hash differs from the
one stored beside the cache, delete boardai's cache files before anything is loaded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _cache_roots() -> list[Path]:
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return [Path(custom)]
    return [p for p in _PACKAGE.rglob("__pycache__") if p.is_dir()]


def ensure_fresh_cache() -> None:
    try:
        digest = hashlib.sha1()
        for path in sorted(_PACKAGE.rglob("*.py")):
            text = path.read_bytes()
            if b"njit" in text:
                digest.update(str(path.relative_to(_PACKAGE)).encode())
                digest.update(text)
        stamp_dir = _PACKAGE / "__pycache__"
        stamp = stamp_dir / "numba-sources.sha1"
        value = digest.hexdigest()
        if stamp.exists() and stamp.read_text() == value:
            return
        for root in _cache_roots():
            for pattern in ("*.nbi", "*.nbc"):
                for f in root.rglob(pattern):
                    if os.environ.get("NUMBA_CACHE_DIR") or _PACKAGE in f.resolve().parents:
                        f.unlink(missing_ok=True)
        stamp_dir.mkdir(exist_ok=True)
        tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(value)
        os.replace(tmp, stamp)
    except OSError:
        pass   # a read-only install: its cache was built from its own sources
