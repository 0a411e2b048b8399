"""The child process of the ``strategy:`` engine: loads one course strategy library with ctypes
and answers ``getPoint`` calls over two pipes.

Run as a script by path (``python -I -S strategy_child.py LIBRARY``), so it imports nothing but
the standard library (no numba, no boardai): it starts in a few tens of milliseconds.  Before
the library it loads the C++ runtime (``libstdc++``) with ``RTLD_GLOBAL``, as the course's
referee host does: the course's own strategy objects are built without linking the runtime
(``gcc -shared``), so on their own they fail with ``undefined symbol: _ZNSt8ios_base4InitD1Ev``
or the like.  Without a C++ runtime on the machine, objects that link it themselves still load,
and a failure to load says the runtime was missing.  The
parent's pipes are stdin/stdout at start; they are moved to fresh descriptors at once and
stdin/stdout pointed at /dev/null and stderr, so whatever the strategy prints (``printf``,
``cout``) goes to stderr and never into the protocol.

Protocol (native-endian int32s, both ways):

* hello (child -> parent), once the library is loaded: ``status, length`` then ``length`` bytes
  of UTF-8 text; status 0 ready (the text is empty), 1 cannot load, 2 no ``getPoint``,
  3 no ``clearPoint``.
* request (parent -> child): ``M, N, lastX, lastY, noX, noY``, then ``top[N]``, then
  ``board[M*N]``.
* answer (child -> parent): ``status, x, y`` and a float64: the seconds ``getPoint`` took;
  status 0 a point, 1 a null pointer.

A crash of the strategy (a segfault, ``abort``) ends this process: the parent reads the end of
the pipe.  The child also exits when its parent dies (a watchdog thread polls the parent's pid:
ctypes releases the GIL during ``getPoint``, so the thread runs while the strategy thinks).
"""

import ctypes
import os
import struct
import sys
import threading
import time

HEADER = struct.Struct("=6i")
ANSWER = struct.Struct("=iiid")
HELLO = struct.Struct("=ii")


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


def _read_exactly(fd, n):
    chunks = []
    while n:
        data = os.read(fd, n)
        if not data:
            raise EOFError
        chunks.append(data)
        n -= len(data)
    return b"".join(chunks)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _watch_parent(parent):
    while True:
        time.sleep(0.25)
        if os.getppid() != parent:
            os._exit(3)


CXX_RUNTIME = "libstdc++.so.6"


def load_cxx_runtime():
    """Load the C++ runtime with RTLD_GLOBAL, so that a strategy object not linked to it finds
    its symbols; '' when loaded, else why not (the caller goes on without it)."""
    try:
        ctypes.CDLL(CXX_RUNTIME, mode=ctypes.RTLD_GLOBAL)
        return ""
    except OSError as exc:
        first = str(exc)
    from ctypes import util         # runs ldconfig: only when the usual name fails
    name = util.find_library("stdc++")
    if name:
        try:
            ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
            return ""
        except OSError as exc:
            return str(exc)
    return first


def main():
    rfd, wfd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)                   # the strategy's stdout goes to stderr
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()

    def hello(status, text=""):
        data = text.encode("utf-8", "replace")
        _write_all(wfd, HELLO.pack(status, len(data)) + data)

    path = sys.argv[1]
    runtime_missing = load_cxx_runtime()
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        text = str(exc)
        if runtime_missing:
            text += f" (the C++ runtime could not be loaded first: {runtime_missing})"
        hello(1, text)
        return
    try:
        get_point = lib.getPoint
    except AttributeError:
        hello(2)
        return
    try:
        clear_point = lib.clearPoint
    except AttributeError:
        hello(3)
        return
    int_p = ctypes.POINTER(ctypes.c_int)
    get_point.restype = ctypes.POINTER(Point)
    get_point.argtypes = [ctypes.c_int, ctypes.c_int, int_p, int_p, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_int]
    clear_point.restype = None
    clear_point.argtypes = [ctypes.POINTER(Point)]
    hello(0)
    clock = time.perf_counter
    while True:
        try:
            m, n, last_x, last_y, no_x, no_y = HEADER.unpack(_read_exactly(rfd, HEADER.size))
            data = _read_exactly(rfd, 4 * (n + m * n))
        except EOFError:
            return
        top = (ctypes.c_int * n).from_buffer_copy(data, 0)
        board = (ctypes.c_int * (m * n)).from_buffer_copy(data, 4 * n)
        start = clock()
        p = get_point(m, n, top, board, last_x, last_y, no_x, no_y)
        took = clock() - start
        if not p:
            _write_all(wfd, ANSWER.pack(1, -1, -1, took))
            continue
        x, y = p.contents.x, p.contents.y
        clear_point(p)
        _write_all(wfd, ANSWER.pack(0, x, y, took))


if __name__ == "__main__":
    main()
