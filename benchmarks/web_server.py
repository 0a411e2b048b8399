"""What the web benchmarks share: ``boardai serve`` in its own process on a free port, warmed
up, and small helpers (JSON requests with the server's token, percentiles, the server's
memory).  The server records its games in a temporary $BOARDAI_HOME, not the user's."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = secrets.token_urlsafe(24)        # given to the server with --token; every call sends it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json",
                                          "X-Boardai-Token": TOKEN})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); nan for no values."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children_rss_mb(pid: int) -> float:
    """The memory of ``pid``'s child processes (the server's search workers), in all."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            try:
                total += rss_mb(int(kid))
            except (OSError, ValueError):
                pass
    return total


@contextlib.contextmanager
def served(game: str, size: str, engine: str, extra: tuple[str, ...] = ()):
    """``(base URL, server process)`` of a running ``boardai serve`` (``extra``: more of its
    options) whose engine's compiled search is loaded (one engine-against-engine game of two
    moves), stopped on exit."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    home = tempfile.TemporaryDirectory(prefix="boardai-bench-")
    server = subprocess.Popen([sys.executable, "-m", "boardai", "serve", "--port", str(port),
                               "--token", TOKEN, *extra],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env=dict(os.environ, BOARDAI_HOME=home.name))
    try:
        server.stdout.readline()                     # "boardai serves ..."
        warm = request(base, "POST", "/api/games", {"game": game, "size": size,
                                                    "black": engine, "white": engine})
        end = time.monotonic() + 300
        while time.monotonic() < end and \
                len(request(base, "GET", f"/api/games/{warm['id']}")["moves"]) < 2:
            time.sleep(0.2)
        request(base, "DELETE", f"/api/games/{warm['id']}")
        yield base, server
    finally:
        server.terminate()
        server.wait(10)
        home.cleanup()
