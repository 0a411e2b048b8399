"""The Connect Four picture: a grid with column numbers, ``X`` for Black (first), ``O`` for White.

::

       1 2 3 4 5 6 7
     | . . . . . . . |
     | . . . . . . . |
     | . . . O . . . |
     | . . .(X)X . . |
     +---------------+
       1 2 3 4 5 6 7

``(X)`` marks the last move; a winning line is shown in lower case; ``#`` is a blocked cell
(a no-go cell), where no stone may stand.
"""

from __future__ import annotations

_YELLOW = "\x1b[1;33m"
_RED = "\x1b[1;31m"
_REVERSE = "\x1b[7m"
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"


def render_connect4(grid, last: tuple[int, int] | None = None,
                    winning: set[tuple[int, int]] | frozenset = frozenset(),
                    color: bool = False) -> str:
    """``grid[row][col]`` with row 0 at the bottom: 0 empty, 1 black (X), 2 white (O), 3 blocked."""
    height = len(grid)
    width = len(grid[0]) if height else 0
    cw = 2 if width <= 9 else 3          # cell pitch: room for two-digit column numbers
    labels = "".join(f"{c + 1:>{cw}}" for c in range(width))
    lines = [" " + labels]
    for r in range(height - 1, -1, -1):
        pieces = []
        for c in range(width):
            v = grid[r][c]
            ch = ".XO#"[v]
            if (c, r) in winning:
                ch = ch.lower()
            if color and v == 3:
                ch = f"{_DIM}{ch}{_RESET}"
            elif color and v:
                code = (_YELLOW if v == 1 else _RED) + (_REVERSE if (c, r) in winning else "")
                ch = f"{code}{ch}{_RESET}"
            pieces.append(ch)
        text = [" " * (cw - 1)] + [x for c in range(width) for x in (pieces[c], " " * (cw - 1))]
        # text[2c] is the gap before column c, text[2c+1] the cell, text[2c+2] the gap after
        if last is not None and last[1] == r:
            c = last[0]
            text[2 * c] = text[2 * c][:-1] + "("
            text[2 * c + 2] = ")" + text[2 * c + 2][1:]
        lines.append("|" + "".join(text) + "|")
    lines.append("+" + "-" * (cw * width + cw - 1) + "+")
    lines.append(" " + labels)
    return "\n".join(lines)
