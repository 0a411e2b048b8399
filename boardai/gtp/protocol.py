"""GTP v2 framing shared by our server and our client.

A command line is ``[id] name args...``; an answer is ``=[id] text`` or ``?[id] reason`` followed by
one blank line.  ``GtpConnection`` is the client side over any pair of line streams: a real
subprocess (``GtpConnection.spawn``) or scripted streams in tests, as python-chess ships a mock
transport for its protocols.
"""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
from dataclasses import dataclass
from typing import IO


class GtpError(Exception):
    """The engine answered ``?`` (the reason is the message)."""


class GtpTimeout(GtpError):
    """The engine did not answer in time."""


class GtpDisconnected(GtpError):
    """The engine's output ended (it exited or crashed)."""


@dataclass
class Command:
    id: str | None
    name: str
    args: list[str]


def clean_line(line: str) -> str:
    """GTP preprocessing: drop comments and control characters, tabs become spaces."""
    line = line.split("#", 1)[0]
    line = line.replace("\t", " ")
    return "".join(ch for ch in line if ch >= " " and ch != "\x7f").strip()


def parse_command(line: str) -> Command | None:
    """A command from a raw line, or None for an empty/comment line."""
    text = clean_line(line)
    if not text:
        return None
    parts = text.split()
    cid = None
    if parts[0].isdigit():
        cid = parts.pop(0)
        if not parts:
            return Command(cid, "", [])
    return Command(cid, parts[0].lower(), parts[1:])


def format_response(cid: str | None, ok: bool, text: str) -> str:
    head = ("=" if ok else "?") + (cid or "")
    body = text.rstrip("\n")
    if body.startswith("\n"):
        return f"{head} {body}\n\n"
    return f"{head} {body}\n\n" if body else f"{head}\n\n"


class GtpConnection:
    """Talks GTP to an engine over two line streams."""

    def __init__(self, to_engine: IO[str], from_engine: IO[str], process=None):
        self._out = to_engine
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.process = process
        self._reader = threading.Thread(target=self._pump, args=(from_engine,), daemon=True)
        self._reader.start()

    @classmethod
    def spawn(cls, command: str | list[str], stderr: IO | int | None = subprocess.DEVNULL,
              env: dict[str, str] | None = None) -> "GtpConnection":
        """Start ``command`` (a shell-like string or argv list) and connect to it."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=stderr, text=True, bufsize=1,
                                    env=env if env is not None else os.environ.copy())
        except OSError as exc:
            raise GtpDisconnected(f"cannot start GTP engine {argv[0]!r}: {exc.strerror}") from None
        return cls(proc.stdin, proc.stdout, proc)

    def _pump(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_line(self, timeout: float | None) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise GtpTimeout(f"no answer within {timeout:.1f} s") from None
        if line is None:
            self._lines.put(None)    # stay disconnected for later reads
            raise GtpDisconnected("the engine closed its output (exited or crashed)")
        return line.rstrip("\r\n")

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command and return the answer text; raises GtpError on ``?``."""
        try:
            self._out.write(command.rstrip("\n") + "\n")
            self._out.flush()
        except (OSError, ValueError) as exc:
            raise GtpDisconnected(f"cannot write to the engine: {exc}") from None
        # skip stray lines until an answer starts
        while True:
            line = self._read_line(timeout)
            if line.startswith("=") or line.startswith("?"):
                break
        ok = line[0] == "="
        first = line[1:].lstrip("0123456789")
        body = [first[1:] if first.startswith(" ") else first]
        while True:
            line = self._read_line(timeout)
            if line.strip() == "":
                break
            body.append(line)
        text = "\n".join(body).strip("\n") if len(body) > 1 else body[0].strip()
        if not ok:
            raise GtpError(text.strip() or "engine error")
        return text

    def close(self, timeout: float = 2.0) -> None:
        try:
            self.send("quit", timeout=timeout)
        except GtpError:
            pass
        try:
            self._out.close()
        except OSError:
            pass
        if self.process is not None:
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
