"""Writing files so a reader never sees half of one: a temporary file beside it, then a rename."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Replace ``path`` by ``data`` in one step: the file is always the old or the new bytes,
    whatever happens (a crash, kill -9, a full disk).  An existing file keeps its permissions.
    OSError passes through; the temporary file is removed."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o666
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
