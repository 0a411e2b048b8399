"""Games: rules only (no search, no I/O beyond notation).

``make_board("hex", "9")`` / ``make_board("connect4", "7x6")`` build a fresh board from the names
the CLI and the protocols use.
"""

from __future__ import annotations

from boardai.games.base import (
    Board, Color, IllegalMoveError, InvalidMoveError, LegalMoves, MoveError, Outcome, Termination,
)
from boardai.games.connect4.board import Connect4Board
from boardai.games.hex.board import HexBoard

GAMES = {"hex": HexBoard, "connect4": Connect4Board}
GAME_ALIASES = {"hex": "hex", "connect4": "connect4", "connect-four": "connect4", "c4": "connect4",
                "connectfour": "connect4"}


def game_name(text: str) -> str:
    """Canonical game name for ``text`` (``hex``, ``connect4`` and a few aliases)."""
    name = GAME_ALIASES.get(text.strip().lower())
    if name is None:
        raise ValueError(f"unknown game {text!r}: use hex or connect4")
    return name


def parse_size(game: str, size: str | int | None) -> tuple[int, int]:
    """Board size from ``N`` or ``WxH``; None gives the game's default (Hex 11, Connect Four 7x6)."""
    game = game_name(game)
    if size is None or size == "":
        return (11, 11) if game == "hex" else (7, 6)
    text = str(size).strip().lower().replace("×", "x")
    try:
        if "x" in text:
            w, h = (int(p) for p in text.split("x", 1))
        else:
            w = h = int(text)
    except ValueError:
        raise ValueError(f"bad board size {size!r}: give N or WxH, e.g. 11 or 7x6") from None
    if game == "connect4" and "x" not in text:
        raise ValueError(f"bad Connect Four size {size!r}: give WxH, e.g. 7x6")
    return w, h


def make_board(game: str, size: str | int | tuple[int, int] | None = None,
               swap: bool = False) -> Board:
    """A new empty board of ``game``; raises ValueError naming what is accepted."""
    game = game_name(game)
    w, h = size if isinstance(size, tuple) else parse_size(game, size)
    if game == "hex":
        return HexBoard(w, h, swap=swap)
    if swap:
        raise ValueError("the swap rule is a Hex rule; Connect Four has none")
    return Connect4Board(w, h)


__all__ = [
    "Board", "Color", "Connect4Board", "GAMES", "HexBoard", "IllegalMoveError", "InvalidMoveError",
    "LegalMoves", "MoveError", "Outcome", "Termination", "game_name", "make_board", "parse_size",
]

