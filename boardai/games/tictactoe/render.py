"""The tic-tac-toe picture: a grid with column letters and row numbers, ``X`` for Black (first),
``O`` for White.

::

        a   b   c
     1  X | . | O
       ---+---+---
     2  . |(X)| .
       ---+---+---
     3  O | . | .

``(X)`` marks the last move; a winning line is shown in lower case.
"""

from __future__ import annotations

_YELLOW = "\x1b[1;33m"
_RED = "\x1b[1;31m"
_REVERSE = "\x1b[7m"
_RESET = "\x1b[0m"


def render_tictactoe(width: int, height: int, cells, last: int | None = None,
                     winning: set[int] | frozenset = frozenset(), color: bool = False) -> str:
    """``cells[row * width + col]`` (row 0 at the top): 0 empty, 1 black (X), 2 white (O)."""
    lines = ["   " + "".join(f" {chr(ord('a') + c)}  " for c in range(width)).rstrip()]
    for r in range(height):
        pieces = []
        for c in range(width):
            i = r * width + c
            v = int(cells[i])
            ch = "." if v == 0 else ("X" if v == 1 else "O")
            if i in winning:
                ch = ch.lower()
            if color and v:
                ch = (_YELLOW if v == 1 else _RED) + (_REVERSE if i in winning else "") \
                    + ch + _RESET
            pieces.append(f"({ch})" if i == last else f" {ch} ")
        lines.append(f"{r + 1:>2} " + "|".join(pieces).rstrip())
        if r < height - 1:
            lines.append("   " + "+".join(["---"] * width))
    return "\n".join(lines)
