"""GTP v2 framing shared by our server and our client.

A command line is ``[id] name args...``; an answer is ``=[id] text`` or ``?[id] reason`` followed by
one blank line.  ``GtpConnection`` is the client side over any pair of line streams: a real
subprocess (``GtpConnection.spawn``) or scripted streams in tests, as python-chess ships a mock
transport for its protocols.

The wire is bytes, UTF-8, whatever the locale: both sides decode each line themselves.  A
command line that is not valid UTF-8 is reported by ``decode_command`` (the server answers it
``?``); an engine's output is decoded with replacement characters (a stray byte in an answer
is not a crash).  Answers are always valid UTF-8 of printable characters (``format_response``
escapes anything else), so an answer never echoes raw bytes nor breaks the framing.
"""

from __future__ import annotations

import io
import os
import queue
import shlex
import subprocess
import threading
import time
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
    """GTP preprocessing: drop comments and control characters, tabs become spaces.  Only the
    space and the tab separate: a no-break space (U+00A0) or an ideographic space (U+3000) is a
    character of the token it stands in."""
    line = line.split("#", 1)[0]
    line = line.replace("\t", " ")
    return "".join(ch for ch in line if ch >= " " and ch != "\x7f").strip(" ")


def split_tokens(text: str) -> list[str]:
    """The tokens of a cleaned line: split on spaces only (``str.split()`` would also split on
    Unicode spaces, which GTP does not know)."""
    return [token for token in text.split(" ") if token]


def is_id(token: str) -> bool:
    """A command id: ASCII digits only (``١`` is a digit to Python, not an id to GTP)."""
    return token.isascii() and token.isdigit()


def parse_command(line: str) -> Command | None:
    """A command from a raw line, or None for an empty/comment line."""
    text = clean_line(line)
    if not text:
        return None
    parts = split_tokens(text)
    cid = None
    if is_id(parts[0]):
        cid = parts.pop(0)
        if not parts:
            return Command(cid, "", [])
    return Command(cid, parts[0].lower(), parts[1:])


def decode_command(raw: bytes) -> tuple[str, str | None]:
    """A command line's bytes as text, and what is wrong with them (None: valid UTF-8).

    Only the part before ``#`` matters (a comment may be in any encoding; ``#`` is one byte in
    UTF-8, never part of another character).  Invalid bytes become U+FFFD in the text, so the
    line can still be parsed for its id."""
    raw = raw.split(b"#", 1)[0]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        bad = raw[exc.start:exc.end]
        shown = ("byte " if len(bad) == 1 else "bytes ") + " ".join(f"0x{b:02x}" for b in bad)
        problem = (f"the command is not valid UTF-8 ({shown} at position {exc.start + 1}); "
                   "commands are UTF-8 text, nothing was done")
        return raw.decode("utf-8", "replace"), problem


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, lone surrogates from
    undecodable input, line separators) written as a Python escape, newlines kept."""
    if text.isprintable():
        return text
    return "\n".join("".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                            for ch in line) for line in text.split("\n"))


def format_response(cid: str | None, ok: bool, text: str) -> str:
    """One framed answer: valid Unicode of printable characters, no blank line inside."""
    head = ("=" if ok else "?") + (cid or "")
    lines = printable(text.rstrip("\n")).split("\n")
    # an empty first line is kept (a picture starts on the next line); a blank line anywhere
    # else would end the answer early, so it is dropped
    body = "\n".join(lines[:1] + [line for line in lines[1:] if line.strip()])
    if body.startswith("\n"):
        return f"{head} {body}\n\n"
    return f"{head} {body}\n\n" if body.strip() else f"{head}\n\n"


class GtpConnection:
    """Talks GTP to an engine over two line streams (the engine's output as text or bytes)."""

    def __init__(self, to_engine: IO[str], from_engine: IO[str] | IO[bytes], process=None):
        self._out = to_engine
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.process = process
        self._reader = threading.Thread(target=self._pump, args=(from_engine,), daemon=True)
        self._reader.start()

    @classmethod
    def spawn(cls, command: str | list[str], stderr: IO | int | None = subprocess.DEVNULL,
              env: dict[str, str] | None = None) -> "GtpConnection":
        """Start ``command`` (a shell-like string or argv list) and connect to it.

        The pipes are bytes: commands are written as UTF-8 and the engine's lines decoded as
        UTF-8 with replacement characters, whatever the locale."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise GtpDisconnected("no GTP engine command given")
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=stderr,
                                    env=env if env is not None else os.environ.copy())
        except OSError as exc:
            raise GtpDisconnected(f"cannot start GTP engine {argv[0]!r}: "
                                  f"{exc.strerror or exc}") from None
        to_engine = io.TextIOWrapper(proc.stdin, encoding="utf-8", errors="backslashreplace",
                                     newline="\n", write_through=True)
        return cls(to_engine, proc.stdout, proc)

    def _pump(self, stream: IO) -> None:
        """Queue the engine's lines as text (bytes decoded as UTF-8, bad bytes replaced)."""
        try:
            for line in stream:
                if isinstance(line, bytes):
                    line = line.decode("utf-8", "replace")
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_line(self, deadline: float | None) -> str:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:     # lines that keep coming do not extend it
            raise GtpTimeout("no answer in time")
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            raise GtpTimeout("no answer in time") from None
        if line is None:
            self._lines.put(None)    # stay disconnected for later reads
            raise GtpDisconnected("the engine closed its output (exited or crashed)")
        return line.rstrip("\r\n")

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command and return the answer text; raises GtpError on ``?``.

        ``timeout`` bounds the whole answer (stray lines before it included), not each line."""
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            self._out.write(command.rstrip("\n") + "\n")
            self._out.flush()
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            raise GtpDisconnected(f"the engine has exited or closed its input ({reason})") from None
        try:
            # skip stray lines until an answer starts
            while True:
                line = self._read_line(deadline)
                if line.startswith("=") or line.startswith("?"):
                    break
            ok = line[0] == "="
            first = line[1:].lstrip("0123456789")
            body = [first[1:] if first.startswith(" ") else first]
            while True:
                line = self._read_line(deadline)
                if line.strip() == "":
                    break
                body.append(line)
        except GtpTimeout:
            name = (command.split() or ["(empty)"])[0]
            raise GtpTimeout(f"no answer to {name!r} within {timeout:g} s") from None
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
