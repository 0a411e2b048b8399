"""The Hex board picture: a rhombus of cells joined by ``-`` and ``\\ /`` links.

Row r is indented by 2r spaces; cell (r, c) sits at column 3 + 2r + 4c, so the ``\\`` under it
leads to (r+1, c) and the ``/`` to (r+1, c-1)::

       a   b   c
     1 . - . - . 1
        \\ / \\ / \\
       2 . - B - . 2
          \\ / \\ / \\
         3 . -(W)- . 3
             a   b   c

``B``/``W`` are stones, ``(W)`` marks the last move, and the stones of a winning chain are shown
in lower case.  With ``color=True`` Black's stones and sides (the letters, top and bottom) are
blue, White's (the row numbers, left and right) red, as ANSI escapes.
"""

from __future__ import annotations

from boardai.games.hex.notation import column_letters

_BLUE = "\x1b[1;34m"
_RED = "\x1b[1;31m"
_DIM = "\x1b[2m"
_REVERSE = "\x1b[7m"
_RESET = "\x1b[0m"


def render_hex(width: int, height: int, cells, last: int | None = None,
               chain: set[int] | frozenset[int] = frozenset(), color: bool = False) -> str:
    """``cells[i]``: 0 empty, 1 black, 2 white (row-major, a1 first)."""
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    lines = []
    letters = "".join(f"{column_letters(c):<4}" for c in range(width)).rstrip()
    lines.append(" " * 3 + paint(letters, _BLUE))
    for r in range(height):
        label = f"{r + 1:>2}"
        chars = []
        for c in range(width):
            i = r * width + c
            v = int(cells[i])
            ch = "." if v == 0 else ("B" if v == 1 else "W")
            if i in chain:
                ch = ch.lower()
            chars.append(ch)
        # build plain text first, then mark the last move and add colour
        plain = [" "] + [x for c in range(width) for x in ((chars[c], " - ") if c < width - 1 else (chars[c], " "))]
        pieces = list(plain)
        # positions: pieces[0] is the space before the first cell; cell c is at pieces[1 + 2c]
        if last is not None and last // width == r:
            c = last % width
            before = 2 * c            # " " or " - " before the cell
            after = 2 + 2 * c         # " - " or " " after the cell
            pieces[before] = pieces[before][:-1] + "("
            pieces[after] = ")" + (pieces[after][1:] or " ")   # keep a space before the label
        if color:
            for c in range(width):
                v = int(cells[r * width + c])
                if v:
                    code = _BLUE if v == 1 else _RED
                    if r * width + c in chain:
                        code += _REVERSE
                    pieces[1 + 2 * c] = paint(pieces[1 + 2 * c], code)
        row_text = "".join(pieces)
        lines.append(" " * (2 * r) + paint(label, _RED) + row_text + paint(f"{r + 1}", _RED))
        if r < height - 1:
            lines.append(" " * (2 * r + 4) + " ".join(["\\ /"] * (width - 1) + ["\\"]) if width > 1
                         else " " * (2 * r + 4) + "\\")
    lines.append(" " * (2 * (height - 1) + 3) + paint(letters, _BLUE))
    return "\n".join(line.rstrip() for line in lines)
