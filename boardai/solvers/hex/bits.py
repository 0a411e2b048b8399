"""Sets of Hex cells as bits, in one 64-bit word or two: one jitted code for every board size.

A board of up to 64 cells keeps a set in one ``uint64`` (bit ``c`` = cell ``c``); a board of up to
128 cells (11x11 has 121) in a pair of them, a tuple ``(low, high)`` (cell ``c`` >= 64 is bit
``c - 64`` of ``high``).  The functions here are numba overloads: H-search and the inferior-cell
rules call ``b_and(x, y)``, ``has(x, c)``, ``count(x)`` and so on, and numba compiles each caller
once for words and once for pairs, so the one-word solver keeps its speed and the same source
serves 9x9 to 11x11.  Arrays of sets carry the words in a last axis of length 2 for pairs:
``at(arr, i)`` / ``put(arr, i, v)`` (and ``at3``/``put3`` for ``arr[x, y, i]``) read and write
either kind.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from boardai.games.layout import popcount

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = ~np.uint64(0)
MAX_CELLS = 128


def words_for(cells: int) -> int:
    """1 for boards of at most 64 cells, 2 up to 128; ValueError beyond."""
    if cells > MAX_CELLS:
        raise ValueError(f"Hex bit sets hold at most {MAX_CELLS} cells, not {cells}")
    return 1 if cells <= 64 else 2


def to_words(mask: int, words: int):
    """A Python int set as the jitted code's value: a uint64, or a (low, high) pair."""
    low = np.uint64(mask & 0xFFFF_FFFF_FFFF_FFFF)
    return low if words == 1 else (low, np.uint64(mask >> 64))


def from_words(value) -> int:
    """The Python int of a uint64 or a (low, high) pair."""
    if isinstance(value, tuple):
        return int(value[0]) | (int(value[1]) << 64)
    return int(value)


def array_of(masks: list[int], words: int) -> np.ndarray:
    """Sets as an array: ``[k]`` uint64 for one word, ``[k, 2]`` for pairs."""
    if words == 1:
        return np.array(masks, dtype=np.uint64).reshape(len(masks))
    return np.array([[m & 0xFFFF_FFFF_FFFF_FFFF, m >> 64] for m in masks],
                    dtype=np.uint64).reshape(len(masks), 2)


# --- the operations (Python stubs; numba uses the overloads below) ---------------------------

def b_and(a, b): raise NotImplementedError   # noqa: E704
def b_or(a, b): raise NotImplementedError   # noqa: E704
def b_andnot(a, b): raise NotImplementedError   # a & ~b  # noqa: E704
def b_not(a): raise NotImplementedError   # noqa: E704
def is_empty(a): raise NotImplementedError   # noqa: E704
def same(a, b): raise NotImplementedError   # noqa: E704
def count(a): raise NotImplementedError   # noqa: E704
def has(a, c): raise NotImplementedError   # noqa: E704
def single(c, like): raise NotImplementedError   # the set {c}, of like's kind  # noqa: E704
def none_like(like): raise NotImplementedError   # noqa: E704
def as_set(a): raise NotImplementedError   # any integer as a uint64; a pair as it is  # noqa: E704
def lowest(a): raise NotImplementedError   # the set of a's lowest cell  # noqa: E704
def first_cells(n, like): raise NotImplementedError   # cells 0..n-1  # noqa: E704
def at(arr, i): raise NotImplementedError   # noqa: E704
def put(arr, i, v): raise NotImplementedError   # noqa: E704
def at3(arr, x, y, i): raise NotImplementedError   # noqa: E704
def put3(arr, x, y, i, v): raise NotImplementedError   # noqa: E704


def _word(t) -> bool:
    return isinstance(t, types.Integer)


def _pair(t) -> bool:
    return isinstance(t, types.UniTuple) and t.count == 2


@overload(b_and, inline="always")
def _b_and(a, b):
    if _word(a):
        return lambda a, b: a & b
    if _pair(a):
        return lambda a, b: (a[0] & b[0], a[1] & b[1])


@overload(b_or, inline="always")
def _b_or(a, b):
    if _word(a):
        return lambda a, b: a | b
    if _pair(a):
        return lambda a, b: (a[0] | b[0], a[1] | b[1])


@overload(b_andnot, inline="always")
def _b_andnot(a, b):
    if _word(a):
        return lambda a, b: a & ~b
    if _pair(a):
        return lambda a, b: (a[0] & ~b[0], a[1] & ~b[1])


@overload(b_not, inline="always")
def _b_not(a):
    if _word(a):
        return lambda a: ~a
    if _pair(a):
        return lambda a: (~a[0], ~a[1])


@overload(is_empty, inline="always")
def _is_empty(a):
    if _word(a):
        return lambda a: a == ZERO
    if _pair(a):
        return lambda a: (a[0] | a[1]) == ZERO


@overload(same, inline="always")
def _same(a, b):
    if _word(a):
        return lambda a, b: a == b
    if _pair(a):
        return lambda a, b: ((a[0] ^ b[0]) | (a[1] ^ b[1])) == ZERO


@overload(count, inline="always")
def _count(a):
    if _word(a):
        return lambda a: popcount(a)
    if _pair(a):
        return lambda a: popcount(a[0]) + popcount(a[1])


@overload(has, inline="always")
def _has(a, c):
    if _word(a):
        return lambda a, c: (a >> np.uint64(c)) & ONE != ZERO
    if _pair(a):
        def two(a, c):
            low = np.uint64(c < 64)          # branch-free: 1 for the low word, else 0
            word = (a[0] * low) | (a[1] * (ONE - low))
            return (word >> np.uint64(c & 63)) & ONE != ZERO
        return two


@overload(single, inline="always")
def _single(c, like):
    if _word(like):
        return lambda c, like: ONE << np.uint64(c)
    if _pair(like):
        def two(c, like):
            b = ONE << np.uint64(c & 63)
            low = np.uint64(c < 64)
            return (b * low, b * (ONE - low))
        return two


@overload(none_like, inline="always")
def _none_like(like):
    if _word(like):
        return lambda like: ZERO
    if _pair(like):
        return lambda like: (ZERO, ZERO)


@overload(as_set, inline="always")
def _as_set(a):
    if _word(a):
        return lambda a: np.uint64(a)
    if _pair(a):
        return lambda a: a


@overload(lowest, inline="always")
def _lowest(a):
    if _word(a):
        return lambda a: a & (~a + ONE)
    if _pair(a):
        def two(a):
            high = np.uint64(a[0] == ZERO)    # the lowest cell is in the high word
            return (a[0] & (~a[0] + ONE), (a[1] & (~a[1] + ONE)) * high)
        return two


@overload(first_cells, inline="always")
def _first_cells(n, like):
    if _word(like):
        return lambda n, like: ALL if n >= 64 else (ONE << np.uint64(n)) - ONE
    if _pair(like):
        def two(n, like):
            if n < 64:
                return ((ONE << np.uint64(n)) - ONE, ZERO)
            if n >= 128:
                return (ALL, ALL)
            return (ALL, (ONE << np.uint64(n - 64)) - ONE)
        return two


@overload(at, inline="always")
def _at(arr, i):
    if arr.ndim == 1:
        return lambda arr, i: arr[i]
    if arr.ndim == 2:
        return lambda arr, i: (arr[i, 0], arr[i, 1])


@overload(put, inline="always")
def _put(arr, i, v):
    if arr.ndim == 1:
        def one(arr, i, v):
            arr[i] = v
        return one
    if arr.ndim == 2:
        def two(arr, i, v):
            arr[i, 0] = v[0]
            arr[i, 1] = v[1]
        return two


@overload(at3, inline="always")
def _at3(arr, x, y, i):
    if arr.ndim == 3:
        return lambda arr, x, y, i: arr[x, y, i]
    if arr.ndim == 4:
        return lambda arr, x, y, i: (arr[x, y, i, 0], arr[x, y, i, 1])


@overload(put3, inline="always")
def _put3(arr, x, y, i, v):
    if arr.ndim == 3:
        def one(arr, x, y, i, v):
            arr[x, y, i] = v
        return one
    if arr.ndim == 4:
        def two(arr, x, y, i, v):
            arr[x, y, i, 0] = v[0]
            arr[x, y, i, 1] = v[1]
        return two
