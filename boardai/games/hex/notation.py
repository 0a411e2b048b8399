"""Hex cell names: column letters then a 1-based row (``a1`` top-left; ``aa`` follows ``z``).

Input also takes upper case (``C3``) and a zero-based ``row col`` pair (``2 3`` is ``d3``).
``swap``, ``swap-pieces`` and ``swap-sides`` all name the swap move: on a board whose colours
stay with their sides, the position after swap-sides (the second player takes over the
first stone) is the same as after swap-pieces (the stone mirrored and recoloured), so all three are
recorded as ``swap-pieces``, as HexGui writes it.
"""

from __future__ import annotations

import re

SWAP_NAME = "swap-pieces"
SWAP_SPELLINGS = ("swap", "swap-pieces", "swap-sides")

_CELL = re.compile(r"^([a-z]+)(\d+)$", re.ASCII)
_PAIR = re.compile(r"^(\d+)[\s,]+(\d+)$", re.ASCII)


def column_letters(col: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa' (spreadsheet style)."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


def column_index(letters: str) -> int:
    """Inverse of column_letters."""
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("a") + 1)
    return value - 1


def cell_name(cell: int, width: int) -> str:
    row, col = divmod(cell, width)
    return f"{column_letters(col)}{row + 1}"


def parse_cell(text: str, width: int, height: int) -> int | None:
    """The cell index named by ``text``, or None when it is not a cell name of this board."""
    t = text.strip().lower()
    m = _CELL.match(t)
    if m:
        col = column_index(m.group(1))
        row = int(m.group(2)) - 1
    else:
        m = _PAIR.match(t)
        if not m:
            return None
        row, col = int(m.group(1)), int(m.group(2))
    if 0 <= row < height and 0 <= col < width:
        return row * width + col
    return None


def accepted_text(width: int, height: int) -> str:
    """What a person may type, for error messages."""
    last = column_letters(width - 1)
    return (f"a cell a1..{last}{height} (column a-{last}, row 1-{height}, e.g. "
            f"{column_letters(min(2, width - 1))}{min(3, height)}), or 'row col' counting from 0 "
            f"(e.g. {min(2, height - 1)} {min(3, width - 1)})")
