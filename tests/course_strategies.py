"""Test helper: small C++ strategies with the course's interface, compiled with g++ on demand.

``build(folder, *names)`` compiles the named strategies into ``folder`` (in parallel) and returns
their paths; without ``g++`` the calling test is skipped.  ``build_unlinked(folder)`` builds one
the way the course builds its own test strategies: ``gcc -shared -fPIC`` on C++ that uses
``std::cout``, so the object is not linked to the C++ runtime (the loader must provide it).  Every
strategy is deterministic.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HEAD = r"""
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
struct Point { int x; int y; Point(int x, int y): x(x), y(y) {} };
static int stones(int M, int N, const int* board) {
    int n = 0;
    for (int i = 0; i < M * N; i++) n += board[i] != 0;
    return n;
}
static Point* leftmost(int N, const int* top) {
    for (int y = 0; y < N; y++) if (top[y] > 0) return new Point(top[y] - 1, y);
    return 0;
}
#define GET extern "C" Point* getPoint(const int M, const int N, const int* top, \
    const int* board, const int lastX, const int lastY, const int noX, const int noY)
#define CLEAR extern "C" void clearPoint(Point* p) { delete p; }
"""

SOURCES = {
    # plays the leftmost open column, on the row its stone lands on
    "leftmost": "GET { return leftmost(N, top); } CLEAR",
    "rightmost": "GET { for (int y = N - 1; y >= 0; y--) if (top[y] > 0) "
                 "return new Point(top[y] - 1, y); return 0; } CLEAR",
    # leftmost, but first appends what it was given to DUMP (one line per call) and prints
    # to stdout and stderr (which must not disturb the protocol)
    "dump": r"""#include <iostream>
    GET {
        FILE* f = fopen(DUMP, "a");
        fprintf(f, "M=%d N=%d last=%d,%d no=%d,%d top=", M, N, lastX, lastY, noX, noY);
        for (int y = 0; y < N; y++) fprintf(f, "%s%d", y ? "," : "", top[y]);
        fprintf(f, " board=");
        for (int i = 0; i < M * N; i++) fprintf(f, "%d", board[i]);
        fprintf(f, "\n");
        fclose(f);
        printf("thinking hard\n");
        std::cout << "still thinking" << std::endl;
        fprintf(stderr, "a note on stderr\n");
        return leftmost(N, top);
    } CLEAR""",
    "crash": "GET { volatile int* volatile p = 0; *p = 1; return leftmost(N, top); } CLEAR",
    "abort": "GET { abort(); } CLEAR",
    "null": "GET { return 0; } CLEAR",
    "hang": "GET { volatile unsigned long i = 0; for (;;) i++; } CLEAR",
    # the leftmost open column, one row too low (where a stone already is, or off the board)
    "wrongrow": "GET { Point* p = leftmost(N, top); p->x += 1; return p; } CLEAR",
    # always column 0: illegal once it is full
    "column0": "GET { return new Point(top[0] - 1, 0); } CLEAR",
    # by the stones on the board: 0 crash, 1 hang, 2 wrong row, more: leftmost
    "moody": r"""GET {
        int n = stones(M, N, board);
        if (n == 0) { volatile int* volatile p = 0; *p = 1; }
        if (n == 1) { volatile unsigned long i = 0; for (;;) i++; }
        Point* p = leftmost(N, top);
        if (n == 2) p->x -= 1;
        return p;
    } CLEAR""",
    # leftmost after SLOW milliseconds
    "slow": "GET { usleep(SLOW * 1000); return leftmost(N, top); } CLEAR",
    "slowright": "GET { usleep(SLOW * 1000); for (int y = N - 1; y >= 0; y--) if (top[y] > 0) "
                 "return new Point(top[y] - 1, y); return 0; } CLEAR",
    # leftmost, but on its first move of a game writes FLOOD megabytes to stdout
    "flood": r"""GET {
        if (stones(M, N, board) < 2) {
            static char line[1 << 16];
            for (unsigned i = 0; i < sizeof line; i++) line[i] = i % 64 == 63 ? '\n' : 'x';
            for (long i = 0; i < FLOOD * 16L; i++) fwrite(line, 1, sizeof line, stdout);
            fflush(stdout);
        }
        return leftmost(N, top);
    } CLEAR""",
    # the interface's mistakes
    "mangled": "Point* getPoint(int M, int N, const int* top, const int* board, int lastX, "
               "int lastY, int noX, int noY) { return leftmost(N, top); } CLEAR",
    "noclear": "GET { return leftmost(N, top); }",
    "loadcrash": "__attribute__((constructor)) static void boom() { volatile int* volatile p = 0; "
                 "*p = 1; } GET { return leftmost(N, top); } CLEAR",
}


def build(folder: Path, *names: str, dump: Path | None = None, slow_ms: int = 100,
          flood_mb: int = 100) -> dict[str, Path]:
    """Compile the strategies ``names`` into ``folder`` as ``NAME.so``; {name: path}."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is missing: the course strategy tests compile C++ strategies")
    folder.mkdir(parents=True, exist_ok=True)
    procs = {}
    for name in names:
        src = folder / f"{name}.cpp"
        src.write_text(HEAD + SOURCES[name] + "\n")
        defines = [f"-DDUMP=\"{dump or folder / 'dump.txt'}\"", f"-DSLOW={slow_ms}",
                   f"-DFLOOD={flood_mb}"]
        procs[name] = subprocess.Popen(
            [gxx, "-shared", "-fPIC", "-O1", *defines, "-o", str(folder / f"{name}.tmp.so"),
             str(src)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = {}
    for name, proc in procs.items():
        text, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, f"g++ failed on {name}:\n{text}"
        out[name] = folder / f"{name}.so"
        os.replace(folder / f"{name}.tmp.so", out[name])
    return out


UNLINKED = r"""
#include <iostream>
struct Point { int x; int y; Point(int x, int y): x(x), y(y) {} };
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    std::cout << "column search" << std::endl;
    for (int y = 0; y < N; y++) if (top[y] > 0) return new Point(top[y] - 1, y);
    return 0;
}
extern "C" void clearPoint(Point* p) { delete p; }
"""


def build_unlinked(folder: Path) -> Path:
    """``gcc -shared -fPIC`` (not g++: no libstdc++ linked) on a leftmost-column strategy that
    includes <iostream> and writes to std::cout; the path of the object."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is missing: this test builds a strategy the way the course builds its own")
    folder.mkdir(parents=True, exist_ok=True)
    src, lib = folder / "unlinked.cpp", folder / "unlinked.so"
    src.write_text(UNLINKED)
    proc = subprocess.run([gcc, "-shared", "-fPIC", "-O1", "-o", str(lib), str(src)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert proc.returncode == 0, f"gcc failed:\n{proc.stdout}"
    return lib
