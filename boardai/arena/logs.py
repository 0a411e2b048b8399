"""Capped log files for the output of external engines (``gtp:`` programs, course strategies).

An arena game gives each such engine a log file in ``STORE.logs/``.  A program may print
anything, as much as it likes: a strategy writing 100 MB to stdout must not leave 100 MB on disk
per game.  So the engine's process writes into a pipe, not the file: a thread of this process
drains the pipe (the engine never blocks on a full pipe), keeps the first ``cap // 2`` bytes and
the last ``cap // 2`` in the file, counts what lies between, and on ``close`` writes the tail
after a one-line note::

    [boardai: 99,475,456 bytes dropped here: a log keeps its first and last 128 KiB]

Limits: ``GAME_LOG_CAP`` bytes kept per engine and game (two logged engines: at most twice that,
plus the notes, per game) and ``STORE_LOG_CAP`` bytes in all in one store's log folder: once the
folder holds that much, a new log keeps only its note (``store_room`` gives what is left).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

GAME_LOG_CAP = 256 * 1024          # bytes kept of one engine's output in one game
STORE_LOG_CAP = 64 * 1024 * 1024   # bytes in all in one store's log folder
CHUNK = 65536


def folder_bytes(folder: Path) -> int:
    """The bytes of the files directly in ``folder`` (0 if it does not exist)."""
    total = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.is_file(follow_symlinks=False):
                        total += entry.stat(follow_symlinks=False).st_size
                except OSError:
                    pass
    except OSError:
        return 0
    return total


def store_room(folder: Path, cap: int = STORE_LOG_CAP) -> int:
    """Bytes a new log in ``folder`` may still keep under the store's cap."""
    return max(0, cap - folder_bytes(folder))


class CappedLog:
    """A log file an engine's process writes through a pipe: ``fileno()`` is the pipe's write
    end (give the object as ``stderr=`` to ``subprocess.Popen``); at most ``cap`` bytes of the
    output reach ``path`` (its head and its tail) plus a note of what was dropped."""

    def __init__(self, path: str | Path, cap: int = GAME_LOG_CAP):
        self.path = Path(path)
        self.cap = max(0, int(cap))
        self.head_cap = self.cap // 2
        self.tail_cap = self.cap - self.head_cap
        self.written = 0            # head bytes in the file
        self.tail = bytearray()     # the last bytes seen past the head
        self.dropped = 0            # bytes seen neither in the head nor in the tail
        self.seen = 0
        self._lock = threading.Lock()
        self._file = open(self.path, "wb")
        self._rfd, self._wfd = os.pipe()
        self._reader = threading.Thread(target=self._drain, name=f"log {self.path.name}",
                                        daemon=True)
        self._reader.start()
        self._closed = False

    def fileno(self) -> int:
        """The write end of the pipe (for the engine's process)."""
        if self._wfd < 0:
            raise ValueError("the log is closed")
        return self._wfd

    def write(self, data: str | bytes) -> int:
        """Write text or bytes from this process (same cap)."""
        raw = data.encode("utf-8", "replace") if isinstance(data, str) else bytes(data)
        self._take(raw)
        return len(data)

    def flush(self) -> None:
        pass

    def _take(self, chunk: bytes) -> None:
        with self._lock:
            self._keep(chunk)

    def _keep(self, chunk: bytes) -> None:
        if self._file.closed:
            self.dropped += len(chunk)
            return
        self.seen += len(chunk)
        room = self.head_cap - self.written
        if room > 0:
            head, chunk = chunk[:room], chunk[room:]
            self._file.write(head)
            self.written += len(head)
        if not chunk:
            return
        self.tail += chunk
        extra = len(self.tail) - self.tail_cap
        if extra > 0:
            del self.tail[:extra]
            self.dropped += extra

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self._rfd, CHUNK)
            except OSError:
                break
            if not chunk:
                break
            self._take(chunk)

    def close(self, wait: float = 2.0) -> None:
        """Close the write end, read what is left (``wait`` seconds at most: a process that
        still holds the pipe is not waited for), then write the note and the tail."""
        if self._closed:
            return
        self._closed = True
        if self._wfd >= 0:
            os.close(self._wfd)
            self._wfd = -1
        self._reader.join(wait)
        if not self._reader.is_alive():
            os.close(self._rfd)
        with self._lock:
            if self.dropped:
                self._file.write(self.note().encode())
            self._file.write(bytes(self.tail))
            self._file.close()

    def note(self) -> str:
        """The line that stands where bytes were dropped."""
        if self.cap == 0:
            why = "the logs of this store are full"
        else:
            why = f"a log keeps its first and last {self.cap // 2 // 1024} KiB"
        return f"\n[boardai: {self.dropped:,} bytes dropped here: {why}]\n"

    def __enter__(self) -> "CappedLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
