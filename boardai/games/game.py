"""``Game``: everything the rest of boardai knows about one game, in one description.

Each game's folder holds its description (``games/hex/game.py`` has ``HEX``),
``games/catalog.py`` lists them and the registry below loads them on its first use; front-ends
(CLI, GTP, terminal), records, the arena, the bench and the engines read a game's facts from
here instead of asking "is this Hex?".  What the jitted code needs is not here: it dispatches on
``kernel_id`` in ``games/kernel.py``.

A description is plain data plus a few small hooks (functions of the board or the size).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from boardai.games.base import Board, Color
from boardai.games.move_patterns import MovePatterns


@dataclass(frozen=True)
class PlayoutSwitch:
    """An on/off ``mcts`` option choosing between two of the game's playout policies.

    ``option`` is the spec key (``mcts:bridge=0``); on plays policy ``on``, off plays ``off``.
    Policy numbers are the game's own bits, read by its ``playout_policy`` kernel: the switches
    of a game are or-ed together.  Whether a switch is on by default is ``mcts``'s to say
    (``engines/mcts/defaults.py``).
    """

    option: str
    help: str
    on: int
    off: int = 0


@dataclass(frozen=True)
class Evaluator:
    """A static evaluator of the game for ``minimax``/``alphabeta``: its id in the kernel's
    ``evaluate`` hook and what it rewards (for help texts)."""

    name: str
    id: int
    what: str


@dataclass(frozen=True)
class RecordRules:
    """How the game's records are written and read (the generic SGF layer is ``records/``).

    ``gm``: the GM value written; ``gm_aliases``: other GM values read as this game.
    ``size_short``: a square board is written ``SZ[N]`` (else always ``SZ[W:H]``).
    ``blocked_prop``: the root property listing the blocked cells, one ``COL:ROW`` value each
    (1-based, row 1 at the bottom), for games with blocked cells.
    ``props``: root properties only this game has, each with what it holds ("the position"),
    written by ``write_props(board)`` and checked by ``check_prop(key, value, board)`` once the
    moves are read (returns the problem, where ``{prop}`` stands for the property as written, or
    None).
    """

    gm: str
    gm_aliases: tuple[str, ...] = ()
    blocked_prop: str = ""                     # root property of the blocked cells (COL:ROW each)
    size_short: bool = False
    size_example: str = "SZ[7:6] (7 wide, 6 high)"
    props: dict[str, str] = field(default_factory=dict)
    write_props: Callable[[Board], list[tuple[str, str]]] = lambda board: []
    check_prop: Callable[[str, str, Board], str | None] = lambda key, value, board: None


def _no_openings(width: int, height: int, seed: int) -> tuple[tuple[int, ...], ...]:
    return ()


@dataclass(frozen=True, eq=False)
class Game:
    """One game's facts and hooks.  See ``docs/adding_a_game.md`` for what each is used for."""

    name: str                                  # canonical name: --game, GTP 'game', records
    title: str                                 # for people: "Connect Four"
    kernel_id: int                             # state[GAME] (games/layout.py)
    board: Callable[..., Board]                # board class: board(width, height, **rules)
    default_size: tuple[int, int]              # programs (GTP, analyse, arena, bench)
    end_reasons: tuple[str, ...]               # Outcome.termination values, as stored
    records: RecordRules
    aliases: tuple[str, ...] = ()
    play_size: tuple[int, int] | None = None   # `boardai play` (default: default_size)
    square_sizes: bool = False                 # "N" means NxN (else sizes are always WxH)
    swap: bool = False                         # the swap rule exists (a --swap flag)
    swap_spellings: tuple[str, ...] = ()       # move texts that name the swap
    move_hint: str = ""                        # for people, "{width}"/"{height}" filled in
    move_example: str = ""                     # one move, for protocol error messages
    side_labels: tuple[str, str] = ("B", "W")  # as shown beside "Black"/"White"
    # what the engines can use (how each engine plays a game by default is the engine's own
    # table: engines/mcts/defaults.py, engines/registry.py's STRONGEST)
    playout_switches: tuple[PlayoutSwitch, ...] = ()   # the kernel's playout policies, by option
    # the game's learned move patterns (games/move_patterns.py; the kernel's ``move_weights``
    # reads their table): mcts's priors (patterns=) and its playouts' local answers (local=)
    move_patterns: MovePatterns | None = None
    evaluators: tuple[Evaluator, ...] = ()     # first is not the default: see default_evaluator
    default_evaluator: str = ""
    eval_aux: Callable[[int, int], np.ndarray] = lambda w, h: np.zeros((1, 1), dtype=np.int64)
    opening_suites: dict[str, Callable[[int, int, int], tuple[tuple[int, ...], ...]]] = \
        field(default_factory=dict)
    # the network (boardai/nn): the board's symmetries used to augment training data, by name:
    # "mirror" (x -> W-1-x), "flip" (y -> H-1-y), "rot180" (both), and on square boards only
    # "transpose" (x <-> y), "antitranspose", "rot90", "rot270"; a move without a spot (the
    # swap) is its own image
    nn_symmetries: tuple[str, ...] = ()
    # set-ups beyond the size: blocked cells (Connect Four's no-go cells) and random boards
    blocked_cells: bool = False                # cells may be blocked (--blocked COL:ROW)
    random_size: Callable[[random.Random], tuple[int, int]] | None = None       # --size random
    random_blocked: Callable[[random.Random, int, int], tuple[tuple[int, int], ...]] | None = None
    random_what: str = ""                      # what --size/--blocked random draw, for help
    is_random_size: Callable[[int, int], bool] | None = None  # is WxH a size random_size draws?

    # --- sizes --------------------------------------------------------------------------
    def parse_size(self, size: str | int | tuple[int, int] | None) -> tuple[int, int]:
        """``N`` (square games) or ``WxH``; None or "" gives ``default_size``."""
        if isinstance(size, tuple):
            return size
        if size is None or size == "":
            return self.default_size
        text = str(size).strip().lower().replace("×", "x")
        example = self.size_text(*self.default_size)
        try:
            parts = [p.strip() for p in text.split("x", 1)]
            if not all(p.isascii() and p.isdigit() for p in parts):   # not ``٣``, not ``1_0``
                raise ValueError(text)
            if "x" in text:
                w, h = (int(p) for p in parts)
            else:
                w = h = int(text)
        except ValueError:
            raise ValueError(f"bad board size {size!r}: give N or WxH, e.g. 11 or 7x6") from None
        if not self.square_sizes and "x" not in text:
            raise ValueError(f"bad {self.title} size {size!r}: give WxH, e.g. {example}")
        return w, h

    def size_text(self, width: int, height: int) -> str:
        """The size as people type it: ``7`` for a square board of a square game, else ``7x6``."""
        return str(width) if self.square_sizes and width == height else f"{width}x{height}"

    @property
    def play_size_or_default(self) -> tuple[int, int]:
        return self.play_size or self.default_size

    def new_board(self, size=None, swap: bool = False,
                  blocked: Iterable[tuple[int, int]] = ()) -> Board:
        """An empty board; ValueError naming what is accepted.  ``blocked``: 0-based (col, row)
        cells, row 0 at the bottom, for games with ``blocked_cells``."""
        w, h = self.parse_size(size)
        if swap and not self.swap:
            raise ValueError(f"the swap rule is a rule of {swap_games_text()}; "
                             f"{self.title} has none")
        blocked = tuple(blocked)
        if blocked:
            if not self.blocked_cells:
                raise ValueError(f"blocked cells are a rule of {blocked_games_text()}; "
                                 f"{self.title} has none")
            return self.board(w, h, blocked=blocked)
        return self.board(w, h, swap=True) if swap else self.board(w, h)

    # --- blocked cells and random set-ups (--size random, --blocked COL:ROW / random) -------
    def parse_blocked(self, texts: Iterable[str], width: int, height: int
                      ) -> tuple[tuple[int, int], ...]:
        """``COL:ROW`` texts (1-based, row 1 at the bottom, as people count) as 0-based cells;
        ValueError naming what is accepted."""
        texts = [t for t in texts]
        if texts and not self.blocked_cells:
            raise ValueError(f"blocked cells are a rule of {blocked_games_text()}; "
                             f"{self.title} has none: leave --blocked out")
        cells = []
        for text in texts:
            m = re.fullmatch(r"\s*(\d{1,3})\s*[:,]\s*(\d{1,3})\s*", str(text))
            if not m:
                raise ValueError(f"bad blocked cell {text!r}: write COL:ROW, column 1-{width} "
                                 f"and row 1-{height} counted from the bottom, e.g. 4:1")
            c, r = int(m.group(1)), int(m.group(2))
            if not (1 <= c <= width and 1 <= r <= height):
                raise ValueError(f"blocked cell {text.strip()} is off the "
                                 f"{self.size_text(width, height)} board: column 1-{width}, "
                                 f"row 1-{height} (1 = bottom)")
            cells.append((c - 1, r - 1))
        return tuple(cells)

    @staticmethod
    def blocked_text(cells: Iterable[tuple[int, int]]) -> list[str]:
        """0-based cells as people write them: ``COL:ROW``, 1-based."""
        return [f"{c + 1}:{r + 1}" for c, r in cells]

    def setup_board(self, size: str | int | tuple[int, int] | None = None,
                    blocked: Iterable[str] | str | None = (), swap: bool = False,
                    rng: random.Random | None = None) -> Board:
        """The board the options ``--size``, ``--blocked`` (repeatable) and ``--swap`` describe.

        ``--size random`` and ``--blocked random`` draw the board the game's ``random_size`` and
        ``random_blocked`` describe (Connect Four: the Tsinghua course's draw) from ``rng``;
        ValueError naming what is accepted for anything else.
        """
        rng = rng or random.Random()
        texts = [blocked] if isinstance(blocked, str) else list(blocked or ())
        if isinstance(size, str) and size.strip().lower() == "random":
            if self.random_size is None:
                raise ValueError(f"{self.title} has no random board size: give its size "
                                 f"(e.g. {self.size_text(*self.default_size)})")
            w, h = self.random_size(rng)
        else:
            w, h = self.parse_size(size)
        if any(t.strip().lower() == "random" for t in texts):
            if self.random_blocked is None:
                raise ValueError(f"blocked cells are a rule of {blocked_games_text()}; "
                                 f"{self.title} has none: leave --blocked out")
            if len(texts) > 1:
                raise ValueError("--blocked random draws the blocked cells itself: give it "
                                 "alone, or give every cell as COL:ROW")
            cells = self.random_blocked(rng, w, h)
        else:
            cells = self.parse_blocked(texts, w, h)
        return self.new_board((w, h), swap=swap, blocked=cells)

    # --- people -------------------------------------------------------------------------
    def hint(self, board: Board) -> str:
        """What a person may type for a move on ``board``."""
        return self.move_hint.format(width=board.width, height=board.height)

    def side_name(self, colour: Color) -> str:
        return f"{colour} ({self.side_labels[int(colour)]})"

    def is_swap_text(self, text: str) -> bool:
        return text.strip().lower() in self.swap_spellings

    # --- engines ------------------------------------------------------------------------
    def evaluator(self, name: str | None) -> Evaluator:
        """The evaluator called ``name`` (None: the default); ValueError naming the choices."""
        name = name or self.default_evaluator
        for ev in self.evaluators:
            if ev.name == name:
                return ev
        if not self.evaluators:
            raise ValueError(f"{self.name} has no static evaluator")
        raise ValueError(f"{self.name} has no evaluator {name!r}: choose from "
                         f"{', '.join(e.name for e in self.evaluators)}")

    def playout_policy(self, options: dict) -> int:
        """The kernel's playout policy number for these switches (``{option: on}``; a switch
        not given, or None, is off; 0: uniform)."""
        policy = 0
        for switch in self.playout_switches:
            policy |= switch.on if options.get(switch.option) else switch.off
        return policy


# --- the registry --------------------------------------------------------------------------
_GAMES: dict[str, Game] = {}
_BY_ALIAS: dict[str, Game] = {}
_BY_KERNEL: dict[int, Game] = {}
_LOADED = False


def _load() -> None:
    """Register the games ``games/catalog.py`` lists, once, on the registry's first use."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from boardai.games.catalog import load_descriptions
    for game in load_descriptions():
        if _GAMES.get(game.name) is not game:
            register_game(game)


def register_game(game: Game) -> Game:
    """Make ``game`` known by its name, aliases and kernel id (each must be new)."""
    for key in (game.name, *game.aliases):
        if key in _BY_ALIAS:
            raise ValueError(f"game name {key!r} is taken by {_BY_ALIAS[key].name}")
    if game.kernel_id in _BY_KERNEL:
        raise ValueError(f"kernel id {game.kernel_id} is taken by {_BY_KERNEL[game.kernel_id].name}")
    _GAMES[game.name] = game
    _BY_KERNEL[game.kernel_id] = game
    for key in (game.name, *game.aliases):
        _BY_ALIAS[key] = game
    return game


def all_games() -> dict[str, Game]:
    """Every registered game by canonical name, in registration order."""
    _load()
    return dict(_GAMES)


def get_game(name: str | Game) -> Game:
    """The game called ``name`` (canonical name or alias, any case); ValueError naming them."""
    if isinstance(name, Game):
        return name
    _load()
    game = _BY_ALIAS.get(str(name).strip().lower())
    if game is None:
        raise ValueError(f"unknown game {name!r}: use {' or '.join(_GAMES)}")
    return game


def game_of(board: Board) -> Game:
    """The description of ``board``'s game."""
    _load()
    return _BY_KERNEL[board.game_id]


def blocked_games_text() -> str:
    """The games with blocked cells, for messages ("Connect Four")."""
    _load()
    return " and ".join(g.title for g in _GAMES.values() if g.blocked_cells) or "no game here"


def swap_games_text() -> str:
    """The games with the swap rule, for messages ("Hex")."""
    _load()
    return " and ".join(g.title for g in _GAMES.values() if g.swap) or "no game here"
