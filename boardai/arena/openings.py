"""Opening suites: the positions a match starts its games from.

* a suite of the game's own (its description's ``opening_suites``): ``hex-1stone``, every first
  move of Hex, one opening per cell, the balanced way to compare Hex engines without the swap
  rule; ``c4-random-4``, random legal 4-ply Connect Four openings (distinct positions, none where
  the side to move wins at once), in an order fixed by the match seed.  Each opening is played
  twice with the colours reversed, so both engines play both sides of it.
* a file: one opening per line, moves in the game's notation (``c3 d4``, or ``4453`` in Connect
  Four); ``#`` starts a comment.

An opening is a tuple of move ints; the empty tuple is the empty board.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from boardai.games import MoveError, all_games, get_game
from boardai.games.setup import BoardSetup

SUITES = tuple(name for g in all_games().values() for name in g.opening_suites)


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


def load_suite(spec: str | None, setup: BoardSetup, seed: int) -> OpeningSuite:
    """The suite ``spec`` names (a suite name or a file) for the board of ``setup``."""
    if spec is None or spec == "" or spec == "none":
        return NO_OPENINGS
    rules = get_game(setup.game)
    if spec in rules.opening_suites:
        return OpeningSuite(spec, rules.opening_suites[spec](setup.width, setup.height, seed))
    for other in all_games().values():
        if spec in other.opening_suites:
            own = " or ".join(rules.opening_suites) or "no suite of its own"
            raise OpeningError(f"the {spec} suite is for {other.title}; {rules.title} has {own}")
    path = Path(spec)
    try:
        is_file = path.is_file()
    except OSError:                 # a name too long for the file system, ...
        is_file = False
    if not is_file:
        raise OpeningError(f"unknown opening suite {spec!r}: use {' or '.join(SUITES)}, "
                           "or the name of a file with one opening per line")
    return _from_file(path, setup)


def _from_file(path: Path, setup: BoardSetup) -> OpeningSuite:
    """Each line's moves played on the set-up's board (its swap rule and blocked cells too)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OpeningError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise OpeningError(f"{path}: not a text file (UTF-8): one opening per line") from None
    openings = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        board = setup.make_board()
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
