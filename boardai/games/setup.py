"""BoardSetup: everything that decides an empty board besides its moves -- one value to pass around.

A set-up is the game, the size, the swap rule and the blocked cells.  The command line builds one
from ``--game/--size/--swap/--blocked`` (:meth:`BoardSetup.from_options`), the arena carries one in
every match plan and game task (and the store keeps its parts), GTP's ``boardsize``,
``clear_board``, ``block_cell`` and ``game`` make a new one, the full-screen terminal and the web
page start their games from one, and a record's root says one.  It is immutable and hashable, so a
store or a cache can key on it, and :meth:`make_board` is the one place a board is built from it.

Its text form, for people and for files, is the game's name, the size as the game writes it, then
``swap`` when the swap rule is on and ``blocked`` with the cells as ``COL:ROW`` (1-based, row 1 at
the bottom) when there are any::

    hex 11            hex 7 swap            connect4 7x6            connect4 12x10 blocked 4:1

:meth:`BoardSetup.parse` reads it back (any case, the game by name or alias).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

Cells = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class BoardSetup:
    """A game's empty board: ``game`` (canonical name), ``width`` x ``height``, ``swap`` (the swap
    rule is on) and ``blocked`` (0-based ``(col, row)`` cells, row 0 at the bottom, sorted).

    Build one with :meth:`of` (checked: ValueError naming what is accepted), :meth:`from_options`,
    :meth:`parse` or :meth:`of_board`; the plain constructor only normalises."""

    game: str
    width: int
    height: int
    swap: bool = False
    blocked: Cells = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", int(self.width))
        object.__setattr__(self, "height", int(self.height))
        object.__setattr__(self, "swap", bool(self.swap))
        object.__setattr__(self, "blocked",
                           tuple(sorted((int(c), int(r)) for c, r in self.blocked)))

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def of(cls, game: str, size: str | int | tuple[int, int] | None = None, swap: bool = False,
           blocked: Iterable[tuple[int, int]] = ()) -> "BoardSetup":
        """The set-up of ``game`` (a name or alias) at ``size`` (None: the game's default),
        checked by the game's own rules (a size it takes, the swap rule and blocked cells only
        where it has them); ValueError naming what is accepted."""
        from boardai.games.game import get_game
        rules = get_game(game)
        w, h = rules.parse_size(size)
        setup = cls(rules.name, w, h, swap, tuple(blocked))
        setup.make_board()              # the game's own checks (sizes, cells, swap on a square)
        return setup

    @classmethod
    def from_options(cls, game: str, size: str | int | tuple[int, int] | None = None,
                     blocked: Iterable[str] | str | None = (), swap: bool = False,
                     rng: random.Random | None = None) -> "BoardSetup":
        """The set-up the command-line options ``--size`` (N, WxH or ``random``), ``--blocked``
        (``COL:ROW`` texts or ``random``) and ``--swap`` describe; random draws from ``rng``.
        ValueError naming what is accepted."""
        from boardai.games.game import get_game
        return cls.of_board(get_game(game).setup_board(size, blocked, swap, rng))

    @classmethod
    def of_board(cls, board) -> "BoardSetup":
        """The set-up ``board`` was started from (its moves left out)."""
        from boardai.games.game import game_of
        return cls(game_of(board).name, board.width, board.height,
                   bool(getattr(board, "swap_allowed", False)), tuple(board.setup))

    @classmethod
    def parse(cls, text: str) -> "BoardSetup":
        """Read the text form (``hex 7 swap``, ``connect4 12x10 blocked 4:1 7:3``); ValueError
        naming what is accepted."""
        from boardai.games.game import get_game
        words = str(text).replace(",", " ").split()
        usage = ("write a board as GAME SIZE [swap] [blocked COL:ROW ...], e.g. 'hex 11 swap' or "
                 "'connect4 12x10 blocked 4:1'")
        if len(words) < 2:
            raise ValueError(f"bad board {text!r}: {usage}")
        rules = get_game(words[0])
        w, h = rules.parse_size(words[1])
        rest = [word.lower() for word in words[2:]]
        swap = False
        if rest and rest[0] == "swap":
            swap = True
            rest = rest[1:]
        cells: Cells = ()
        if rest:
            if rest[0] != "blocked" or len(rest) < 2:
                raise ValueError(f"bad board {text!r}: {usage}")
            cells = rules.parse_blocked(rest[1:], w, h)
        return cls.of(rules.name, (w, h), swap, cells)

    # --- using ------------------------------------------------------------------------------
    def make_board(self):
        """A new empty board of this set-up (the game's rules check it: ValueError)."""
        from boardai.games.game import get_game
        return get_game(self.game).new_board((self.width, self.height), swap=self.swap,
                                             blocked=self.blocked)

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def size_text(self) -> str:
        """The size as the game writes it (``11``, ``7x6``)."""
        from boardai.games.game import get_game
        return get_game(self.game).size_text(self.width, self.height)

    def blocked_text(self) -> list[str]:
        """The blocked cells as people write them (``4:1``: 1-based, row 1 at the bottom)."""
        return [f"{c + 1}:{r + 1}" for c, r in self.blocked]

    @property
    def text(self) -> str:
        """The text form (:meth:`parse` reads it back)."""
        words = [self.game, self.size_text]
        if self.swap:
            words.append("swap")
        if self.blocked:
            words += ["blocked", *self.blocked_text()]
        return " ".join(words)

    def __str__(self) -> str:
        return self.text

    def replace(self, **changes) -> "BoardSetup":
        """This set-up with some fields changed (not checked: :meth:`of` checks)."""
        fields = {"game": self.game, "width": self.width, "height": self.height,
                  "swap": self.swap, "blocked": self.blocked, **changes}
        return BoardSetup(**fields)

    def to_json(self) -> dict:
        return {"game": self.game, "width": self.width, "height": self.height,
                "swap": self.swap, "blocked": [list(c) for c in self.blocked]}

    @classmethod
    def from_json(cls, data: dict) -> "BoardSetup":
        return cls(data["game"], data["width"], data["height"], data.get("swap", False),
                   tuple(tuple(c) for c in data.get("blocked") or ()))
