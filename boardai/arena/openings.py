"""Opening suites: the positions a match starts its games from.

* ``hex-1stone``: every first move of Hex, one opening per cell.  Each is played twice with the
  colours reversed, so both engines play both sides of every opening: the balanced way to compare
  Hex engines without the swap rule.
* ``c4-random-4``: random legal 4-ply Connect Four openings (distinct positions, none where the
  side to move wins at once), in an order fixed by the match seed.
* a file: one opening per line, moves in the game's notation (``c3 d4``, or ``4453`` in Connect
  Four); ``#`` starts a comment.

An opening is a tuple of move ints; the empty tuple is the empty board.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boardai.games import MoveError, make_board
from boardai.games import kernel as K

SUITES = ("hex-1stone", "c4-random-4")


class OpeningError(ValueError):
    """An unknown suite, a suite for the other game, or a bad opening file."""


@dataclass(frozen=True)
class OpeningSuite:
    name: str                         # suite name, or "file:<path>#<digest>"
    openings: tuple[tuple[int, ...], ...]

    def for_game(self, index: int) -> tuple[int, ...]:
        """The opening of game ``index``: each opening twice (colours reversed), cycling."""
        if not self.openings:
            return ()
        return self.openings[(index // 2) % len(self.openings)]


NO_OPENINGS = OpeningSuite("none", ())


def load_suite(spec: str | None, game: str, width: int, height: int, seed: int) -> OpeningSuite:
    """The suite ``spec`` names (a suite name or a file) for this game and board."""
    if spec is None or spec == "" or spec == "none":
        return NO_OPENINGS
    if spec == "hex-1stone":
        if game != "hex":
            raise OpeningError("the hex-1stone suite is for Hex; Connect Four has c4-random-4")
        return OpeningSuite(spec, tuple((c,) for c in range(width * height)))
    if spec == "c4-random-4":
        if game != "connect4":
            raise OpeningError("the c4-random-4 suite is for Connect Four; Hex has hex-1stone")
        return OpeningSuite(spec, _c4_random(width, height, 4, seed))
    path = Path(spec)
    if not path.is_file():
        raise OpeningError(f"unknown opening suite {spec!r}: use {' or '.join(SUITES)}, "
                           "or the name of a file with one opening per line")
    return _from_file(path, game, width, height)


def _c4_random(width: int, height: int, plies: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct ``plies``-move position without an immediate win, shuffled by ``seed``."""
    board = make_board("connect4", (width, height))
    found: dict[int, tuple[int, ...]] = {}
    out = np.empty(board.num_actions, dtype=np.int64)

    def walk(line: list[int]) -> None:
        if board.is_game_over():
            return
        if len(line) == plies:
            if K.winning_moves(board.state, int(board.turn), out) == 0:
                found.setdefault(board.zobrist_hash(), tuple(line))
            return
        for m in list(board.legal_moves):
            board.push(m)
            line.append(m)
            walk(line)
            line.pop()
            board.pop()

    walk([])
    openings = sorted(found.values())
    random.Random(seed).shuffle(openings)
    return tuple(openings)


def _from_file(path: Path, game: str, width: int, height: int) -> OpeningSuite:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise OpeningError(f"{path}: not a text file (UTF-8): one opening per line") from None
    openings = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        board = make_board(game, (width, height))
        try:
            board.push_many(line)
        except MoveError as exc:
            raise OpeningError(f"{path} line {n}: {exc}") from None
        if board.is_game_over():
            raise OpeningError(f"{path} line {n}: the game is already over after {line!r}")
        openings.append(tuple(board.move_stack))
    if not openings:
        raise OpeningError(f"{path}: no openings (write one per line, e.g. 'c3 d4')")
    digest = hashlib.sha1(data).hexdigest()[:12]
    return OpeningSuite(f"file:{path.name}#{digest}", tuple(openings))
