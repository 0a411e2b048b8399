"""Game records: SGF for every game (Hex as HexGui writes it; ``docs/formats.md``).

``dumps``/``loads`` turn a :class:`GameRecord` into text and back, ``save``/``load`` do the same
with files (``save`` is atomic).  Every problem in a record -- unreadable bytes, broken SGF, an
unknown game, a bad size, an illegal or out-of-turn move, a result that contradicts the moves --
raises :class:`RecordError`, which names the file and the line.  Moves are parsed and checked by
the game's ``Board`` (rules live in one place).  The SGF syntax is ``records/sgf.py``; what differs
between games (the GM value, how SZ is written, the swap rule, properties of their own such as
Connect Four's PO) comes from each game's description (``Game.records``), so no game is named
here.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from dataclasses import dataclass, field

from boardai._files import write_atomic
from boardai._version import __version__
from boardai.games import Game, all_games, get_game
from boardai.games.base import Board, IllegalMoveError, MoveError
from boardai.games.game import swap_games_text
from boardai.games.setup import BoardSetup
from boardai.records.sgf import (MAX_BYTES, MAX_NODES, MAX_VALUES, Node, Prop, RecordError, clip,
                                 decode, escape, gc_paused, layout, parse)

RESIGN = "resign"
NO_SWAP_WORDS = ("", "none", "noswap", "no-swap", "no swap", "standard")
# the games' own root properties (Connect Four's PO): known, and root-only, like the common ones
GAME_PROPS = frozenset(k for g in all_games().values() for k in g.records.props)
# the blocked cells' properties (Connect Four's NG[4:1]): read before the moves, root-only
BLOCKED_PROPS = frozenset(g.records.blocked_prop for g in all_games().values()
                          if g.records.blocked_prop)
# Root properties with a meaning here; everything else in the root is kept in ``extra``.
KNOWN_ROOT = frozenset({"FF", "GM", "SZ", "RU", "AP", "DT", "PB", "PW", "RE", "CA"}) | GAME_PROPS \
    | BLOCKED_PROPS
MOVE_KEYS = ("B", "W")
SETUP_KEYS = ("AB", "AW", "AE")
ROOT_ONLY = frozenset({"FF", "GM", "SZ", "RU", "AP", "CA"}) | GAME_PROPS | BLOCKED_PROPS
_OTHER_GAMES = {"1": "Go", "2": "Othello", "3": "chess", "4": "Gomoku/Renju", "7": "Chinese chess",
                "8": "Shogi", "9": "Lines of Action"}


def _swap_rule_words(game: Game) -> tuple[str, ...]:
    """RU[...] values meaning "swap rule on" (the game's swap spellings and ``pie``)."""
    return game.swap_spellings + ("pie",)


@dataclass
class GameRecord:
    """A game as stored in a file: the rules in force, the moves (board ints), names and result.

    ``moves`` are the board's ints: Hex cells row-major (``row * width + col``) with
    ``width * height`` for swap; Connect Four 0-based columns.  ``result`` is ``B+``, ``W+``,
    ``0`` (draw), ``B+T``/``W+T`` (time), ``B+F``/``W+F`` (forfeit), ``?`` or ``Void``;
    ``resigned`` is ``B`` or ``W`` when that side resigned (``result`` is then the other's win).
    ``extra`` keeps other root properties (``GN``, ``EV``, ``C``, ...) so they survive a rewrite.
    ``blocked``: the board's blocked cells, 0-based (col, row) with row 0 at the bottom.
    """

    game: str
    width: int
    height: int
    swap: bool = False
    blocked: tuple[tuple[int, int], ...] = ()
    moves: list[int] = field(default_factory=list)
    black: str | None = None
    white: str | None = None
    result: str | None = None
    resigned: str | None = None
    date: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_board(cls, board: Board, black: str | None = None,
                   white: str | None = None) -> "GameRecord":
        """The record of ``board``'s game so far (dated today; result set when it is over)."""
        outcome = board.outcome()
        return cls(game=board.game_name, width=board.width, height=board.height,
                   swap=bool(getattr(board, "swap_allowed", False)), blocked=board.setup,
                   moves=board.move_stack,
                   black=black, white=white, result=outcome.result() if outcome else None,
                   date=_dt.date.today().isoformat())

    @property
    def setup(self) -> BoardSetup:
        """The board the game started from (game, size, swap rule, blocked cells)."""
        return BoardSetup(self.game, self.width, self.height, self.swap, self.blocked)

    def to_board(self) -> Board:
        """A board with the moves replayed by ``push``; RecordError if one is illegal."""
        return _replay(self)[0]


def _replay(record: GameRecord) -> tuple[Board, list[str]]:
    """The record's board after its moves, and the move nodes (``;B[a1]``) to write."""
    board = _new_board(record.game, record.width, record.height, record.swap, "<record>", None,
                       record.blocked)
    nodes = []
    for i, move in enumerate(record.moves):
        colour = board.turn.letter
        try:
            move = board.push(move if isinstance(move, str) else int(move))
        except (MoveError, TypeError, ValueError, OverflowError) as exc:
            raise RecordError(f"move {i + 1} ({move!r}) cannot be played: {_reason(exc, board)}",
                              "<record>") from None
        nodes.append(f";{colour}[{board.move_name(move)}]")
    return board, nodes


# ============================================================================================
# Writing
# ============================================================================================
def dumps(record: GameRecord) -> str:
    """The record as text (SGF for Hex, our SGF-like form for Connect Four), ending in a newline.

    The moves are replayed first, so a record that could not be read back is never written.
    """
    board, nodes = _replay(record)
    game = board.game_name
    result, resigned = record.result, record.resigned
    if result is not None:
        try:
            result, loser = _parse_result(result)
        except ValueError as exc:
            raise RecordError(f"result: {exc}", "<record>") from None
        resigned = resigned or loser
    problem = _result_problem(board, result, resigned)
    if problem:
        raise RecordError(problem, "<record>")
    if resigned:
        nodes.append(f";{resigned}[{RESIGN}]")
        result = f"{_other(resigned)}+Resign"
    elif result is None and board.is_game_over():
        result = board.outcome().result()  # type: ignore[union-attr]

    rules = get_game(game).records
    root = [("FF", "4"), ("GM", rules.gm)]
    square = rules.size_short and board.width == board.height
    root.append(("SZ", str(board.width) if square else f"{board.width}:{board.height}"))
    if record.swap:
        root.append(("RU", "swap"))
    if board.setup:
        root.append((rules.blocked_prop, get_game(game).blocked_text(board.setup)))
    root.append(("AP", f"boardai:{__version__}"))
    for key, value in (("DT", record.date), ("PB", record.black), ("PW", record.white),
                       ("RE", result)):
        if value is not None:
            root.append((key, str(value)))
    root.extend(rules.write_props(board))
    for key, value in record.extra.items():
        if not isinstance(key, str) or not re.fullmatch(r"[A-Z]+", key) \
                or key in KNOWN_ROOT or key in MOVE_KEYS or key in SETUP_KEYS:
            raise RecordError(f"extra property {key!r} cannot be written: extra keys are SGF "
                              f"property names in capitals other than "
                              f"{', '.join(sorted(KNOWN_ROOT))}, B, W, AB, AW, AE", "<record>")
        root.append((key, str(value)))
    if any(not str(v).isascii() for _, v in root):
        root.insert(1, ("CA", "UTF-8"))

    tokens = [key + "".join(f"[{escape(v)}]" for v in (value if isinstance(value, list)
                                                       else [value]))
              for key, value in root]
    tokens[0] = "(;" + tokens[0]
    return layout(tokens, nodes)


def save(record: GameRecord, path: str | os.PathLike) -> None:
    """Write the record to ``path`` atomically (a temp file in the same folder, then rename)."""
    source = os.fspath(path)
    data = dumps(record)
    try:
        raw = data.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError(f"cannot write the record: {exc.reason} in the text "
                          f"(names and comments must be valid Unicode)", source) from None
    try:
        write_atomic(source, raw)
    except OSError as exc:
        raise RecordError(f"cannot write the record: {exc.strerror or exc}", source) from None


# ============================================================================================
# Reading
# ============================================================================================
def load(path: str | os.PathLike) -> GameRecord:
    """Read a record file; RecordError (naming the file and line) for anything wrong with it."""
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_BYTES:
                raise RecordError(_too_big(f"the file is {size:,} bytes"), source)
            data = fh.read(MAX_BYTES + 1)       # not a regular file (a pipe) may still be long
    except FileNotFoundError:
        raise RecordError("the file does not exist", source) from None
    except IsADirectoryError:
        raise RecordError("this is a folder, not a record file", source) from None
    except PermissionError:
        raise RecordError("the file cannot be read: permission denied", source) from None
    except OSError as exc:
        raise RecordError(f"the file cannot be read: {exc.strerror or exc}", source) from None
    return loads(data, source)


def loads(text: str | bytes, source: str = "<string>") -> GameRecord:
    """Read a record from text (or UTF-8 bytes); ``source`` names it in error messages."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            raise RecordError(_too_big(f"the record is {len(text):,} bytes"), source)
        text = decode(bytes(text), source)
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}", source)
    if len(text) > MAX_BYTES:
        raise RecordError(_too_big(f"the record is {len(text):,} characters"), source)
    if text.startswith("\ufeff"):
        text = text[1:]
    with gc_paused():
        nodes = parse(text, source)
        return _interpret(nodes, source)


# --- meaning ---------------------------------------------------------------------------------
class _Root:
    """The first node's properties by key, with the error helper of one record."""

    def __init__(self, root: Node, source: str):
        self.source = source
        self.props: dict[str, Prop] = {}
        for prop in root:
            if prop.key in self.props and prop.key in KNOWN_ROOT:
                raise self.err(f"{prop.key} appears twice in the first node (also on line "
                               f"{self.props[prop.key].line}): give it once", prop.line)
            if prop.key in SETUP_KEYS:
                raise self.err(f"{prop.text()}: setup stones (AB/AW/AE) are not supported: a "
                               f"record must be the moves from the empty board", prop.line)
            self.props.setdefault(prop.key, prop)

    def err(self, reason: str, line: int | None) -> RecordError:
        return RecordError(reason, self.source, line)

    def line(self, key: str) -> int | None:
        return self.props[key].line if key in self.props else None

    def single(self, key: str) -> str | None:
        prop = self.props.get(key)
        if prop is None:
            return None
        if len(prop.values) != 1:
            raise self.err(f"{prop.text()}: {key} takes one value", prop.line)
        return prop.values[0]


def _interpret(nodes: list[Node], source: str) -> GameRecord:
    root = _Root(nodes[0], source)
    err = root.err
    ff = root.single("FF")
    if ff is not None and ff.strip() not in ("1", "2", "3", "4"):
        raise err(f"FF[{clip(ff)}] is not an SGF version: use FF[4] (1-4 are read)",
                  root.line("FF"))
    gm = root.single("GM")
    if gm is None:
        either = " or ".join(f"GM[{g.records.gm}] for {g.title}" for g in all_games().values())
        raise err(f"no GM property in the first node: write {either}", _root_line(nodes[0], nodes))
    game = _game_of(gm, source, root.line("GM"))
    width, height = _size(root, game)
    swap = _swap_rule(root, game)
    result, resigned, re_text = None, None, root.single("RE")
    if re_text is not None:
        try:
            result, resigned = _parse_result(re_text)
        except ValueError as exc:
            raise err(str(exc), root.line("RE")) from None
    # Other root properties ride along; several values, and repeats of a property, are joined by
    # a space (once, at the end: joining as they come copies the text so far every time).
    others: dict[str, list[str]] = {}
    for prop in nodes[0]:
        if prop.key not in KNOWN_ROOT and prop.key not in MOVE_KEYS:
            others.setdefault(prop.key, []).extend(prop.values)
    extra = {key: " ".join(values) for key, values in others.items()}

    moves = _move_nodes(nodes, err)
    if swap is None:  # HexGui writes no RU: a swap move in the record means the rule was on
        swap = game.swap and any(game.is_swap_text(v) for _, v, _ in moves)
    blocked = _blocked(root, game, width, height)
    board = _empty_board(root, game, width, height, swap, moves, blocked)
    resign_node = _play_moves(board, moves, err)

    if resign_node is not None:
        re_line = root.line("RE")
        if resigned is not None and resigned != resign_node[0]:
            raise err(f"RE[{clip(re_text)}] says {_name(resigned)} resigned but the record has "
                      f"{resign_node[0]}[resign] on line {resign_node[1]}", re_line)
        if result is not None and result != f"{_other(resign_node[0])}+":
            raise err(f"RE[{clip(re_text)}] does not match {resign_node[0]}[resign] on line "
                      f"{resign_node[1]}: the result must be {_other(resign_node[0])}+ or "
                      f"{_other(resign_node[0])}+Resign", re_line)
        resigned = resign_node[0]
    problem = _result_problem(board, result, resigned)
    if problem:
        raise err(problem, root.line("RE"))
    if resigned is not None and result is None:
        result = f"{_other(resigned)}+"
    if result is None and board.is_game_over():
        result = board.outcome().result()  # type: ignore[union-attr]

    _check_game_props(root, game, board)
    return GameRecord(game=game.name, width=width, height=height, swap=bool(swap),
                      blocked=board.setup, moves=board.move_stack, black=root.single("PB"), white=root.single("PW"),
                      result=result, resigned=resigned, date=root.single("DT"), extra=extra)


def _size(root: _Root, game: Game) -> tuple[int, int]:
    """SZ[N] or SZ[W:H]; the game's default size without SZ."""
    sz = root.single("SZ")
    if sz is None:
        return game.default_size
    m = re.fullmatch(r"\s*(\d{1,4})\s*(?::\s*(\d{1,4})\s*)?", sz)
    if not m:
        raise root.err(f"SZ[{clip(sz)}] is not a board size: use {game.records.size_example}",
                       root.line("SZ"))
    width = int(m.group(1))
    return width, int(m.group(2)) if m.group(2) else width


def _blocked(root: _Root, game: Game, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """The blocked cells (NG[4:1][7:3] in Connect Four); another game's property is refused."""
    for key in BLOCKED_PROPS:
        if key not in root.props:
            continue
        prop = root.props[key]
        if key != game.records.blocked_prop:
            raise root.err(f"{prop.text()}: {game.title} has no blocked cells: leave {key} out",
                           prop.line)
        try:
            return game.parse_blocked(prop.values, width, height)
        except ValueError as exc:
            raise root.err(f"{prop.text()}: {exc}", prop.line) from None
    return ()


def _swap_rule(root: _Root, game: Game) -> bool | None:
    """RU: True (swap rule on), False (off), None (no RU: decided by the moves)."""
    ru = root.single("RU")
    if ru is None:
        return None
    word = ru.strip().lower()
    if not game.swap:
        if word in NO_SWAP_WORDS:
            return None
        swap_words = {w for g in all_games().values() for w in _swap_rule_words(g) if g.swap}
        what = f"the swap rule is a {swap_games_text()} rule; {game.title} has none" \
            if word in swap_words else f"{game.title} has no rule variants"
        raise root.err(f"RU[{clip(ru)}]: {what}: leave RU out", root.line("RU"))
    if word in _swap_rule_words(game):
        return True
    if word in NO_SWAP_WORDS:
        return False
    raise root.err(f"RU[{clip(ru)}] is not a rule this program knows: use RU[swap] for the "
                   f"swap rule, or leave RU out", root.line("RU"))


def _move_nodes(nodes: list[Node], err) -> list[tuple[str, str, int]]:
    """The moves as (colour, value, line), checking that each node holds at most one."""
    moves: list[tuple[str, str, int]] = []
    for k, node in enumerate(nodes):
        found = [p for p in node if p.key in MOVE_KEYS]
        for p in node:
            if k and p.key in ROOT_ONLY:
                raise err(f"{p.text()} belongs in the first node of the record, not among the "
                          f"moves", p.line)
            if k and p.key in SETUP_KEYS:
                raise err(f"{p.text()}: setup stones (AB/AW/AE) are not supported: a record "
                          f"must be the moves from the empty board", p.line)
        if len(found) > 1 or (found and len(found[0].values) > 1):
            p = found[-1] if len(found) > 1 else found[0]
            raise err(f"{p.text()}: a node holds one move (';B[a1];W[b2]', not several in one "
                      f"node)", p.line)
        if found:
            moves.append((found[0].key, found[0].values[0], found[0].line))
    return moves


def _empty_board(root: _Root, game: Game, width: int, height: int, swap: bool,
                 moves: list[tuple[str, str, int]], blocked=()) -> Board:
    """The record's empty board; a bad size or a swap rule it cannot have is the record's error."""
    sz = root.single("SZ")
    try:
        return game.new_board((width, height), swap=swap, blocked=blocked)
    except ValueError as exc:
        if swap and width != height:
            if "RU" in root.props:
                raise root.err(f"{root.props['RU'].text()}: the swap rule needs a square board, "
                               f"and this one is {width}x{height} (SZ[{clip(sz)}])",
                               root.line("RU")) from None
            colour, value, line = next(m for m in moves if game.is_swap_text(m[1]))
            raise root.err(f"'{colour}[{clip(value)}]': swap needs a square board, and this one "
                           f"is {width}x{height} (SZ[{clip(sz)}])", line) from None
        raise root.err(f"SZ[{clip(sz)}]: {exc}" if sz is not None else str(exc),
                       root.line("SZ")) from None


def _play_moves(board: Board, moves: list[tuple[str, str, int]], err) -> tuple[str, int] | None:
    """Play the moves on ``board``; returns (colour, line) of a resignation, if any."""
    resign_node: tuple[str, int] | None = None
    for colour, value, line in moves:
        prop = f"{colour}[{clip(value)}]"
        if resign_node is not None:
            who = "Black" if resign_node[0] == "B" else "White"
            raise err(f"'{prop}' comes after {who} resigned (line {resign_node[1]}): a "
                      f"resignation ends the game", line)
        if board.is_game_over():
            raise err(f"'{prop}' comes after the game ended: {board.outcome()}", line)
        if value.strip().lower() == RESIGN:
            resign_node = (colour, line)
            continue
        if colour != board.turn.letter:
            raise err(f"'{prop}' is out of turn: move {board.ply + 1} is {board.turn}'s; moves "
                      f"alternate B, W, B, ... starting with B", line)
        try:
            board.push(board.parse_move(value))
        except MoveError as exc:
            if isinstance(exc, IllegalMoveError):
                raise err(f"'{prop}' cannot be played: {_reason(exc, board)}", line) from None
            msg = str(exc)
            quoted = repr(value.strip())
            msg = f"'{prop}'" + msg[len(quoted):] if msg.startswith(quoted) else f"'{prop}': {msg}"
            raise err(msg, line) from None
    return resign_node


def _check_game_props(root: _Root, game: Game, board: Board) -> None:
    """The game's own root properties must agree with the moves; another game's are refused."""
    for key in GAME_PROPS:
        if key not in root.props:
            continue
        prop = root.props[key]
        if key in game.records.props:
            value = root.single(key) or ""
            problem = game.records.check_prop(key, value, board)
            if problem:
                raise root.err(problem.replace("{prop}", f"{key}[{clip(value)}]"), prop.line)
        else:
            owner = next(g for g in all_games().values() if key in g.records.props)
            raise root.err(f"{prop.text()}: {key} is {owner.records.props[key]} of a "
                           f"{owner.title} record; a {game.title} record has none: leave it out",
                           prop.line)


def _too_big(what: str) -> str:
    return (f"{what}, more than the {MAX_BYTES:,} bytes ({MAX_BYTES // 2**20} MiB) a record may "
            f"be (MAX_BYTES; a record may also hold at most {MAX_NODES:,} nodes and {MAX_VALUES:,} "
            f"property values): is this a game record?")


def _root_line(root: Node, nodes: list[Node]) -> int | None:
    if root:
        return root[0].line
    for node in nodes:
        if node:
            return node[0].line
    return 1


def _game_of(gm: str, source: str, line: int | None) -> Game:
    word = str(gm).strip().lower()
    for game in all_games().values():
        if word in (game.records.gm, game.name, *game.records.gm_aliases):
            return game
    known = _OTHER_GAMES.get(word)
    what = f"GM[{clip(gm)}] is {known} in SGF, not a game this program plays" if known \
        else f"GM[{clip(gm)}] is not a game this program reads"
    either = " or ".join(f"GM[{g.records.gm}] ({g.title})" for g in all_games().values())
    raise RecordError(f"{what}: use {either}", source, line)


def _new_board(game: str, width, height, swap: bool, source: str, line: int | None,
               blocked=()) -> Board:
    try:
        rules = get_game(game)
    except ValueError:
        rules = _game_of(game, source, line)
    try:
        return rules.new_board((width, height), swap=bool(swap), blocked=blocked)
    except (ValueError, TypeError) as exc:
        raise RecordError(f"bad board: {exc}", source, line) from None


def _parse_result(text: str) -> tuple[str, str | None]:
    """``RE`` text -> (normalised result, who resigned or None); ValueError if not a result."""
    t = text.strip()
    low = t.lower()
    if low in ("0", "draw", "d"):
        return "0", None
    if low == "?":
        return "?", None
    if low == "void":
        return "Void", None
    m = re.fullmatch(r"([bw])(?:\+(.*))?", low)
    if m:
        winner = m.group(1).upper()
        reason = (m.group(2) or "").strip()
        if reason == "":
            return f"{winner}+", None
        if reason in ("r", "resign"):
            return f"{winner}+", _other(winner)
        if reason in ("t", "time"):
            return f"{winner}+T", None
        if reason in ("f", "forfeit"):
            return f"{winner}+F", None
    raise ValueError(f"RE[{clip(text)}] is not a result: use RE[B+] or RE[W+] (that side won), "
                     f"RE[0] (draw), RE[B+Resign]/RE[W+Resign] (the other side resigned), "
                     f"RE[B+T]/RE[B+F] (on time/forfeit), RE[?] or RE[Void]")


def _result_problem(board: Board, result: str | None, resigned: str | None) -> str | None:
    """Why ``result``/``resigned`` contradict the moves on ``board``, or None."""
    if resigned not in (None, "B", "W"):
        return f"resigned must be 'B' or 'W', not {resigned!r}"
    outcome = board.outcome()
    if resigned is not None:
        if outcome is not None:
            return f"{_name(resigned)} resigned after the game had ended: {outcome}"
        if result is not None and result != f"{_other(resigned)}+":
            return (f"the result {result} contradicts the resignation: {_name(resigned)} "
                    f"resigned, so the result is {_other(resigned)}+Resign")
    if outcome is not None and result is not None and result not in ("?", "Void"):
        if result[0] != outcome.result()[0]:
            shown = "RE[0]" if result == "0" else f"RE[{result}]"
            return (f"{shown} contradicts the moves: {outcome}, so the result is "
                    f"RE[{outcome.result()}]")
    return None


def _reason(exc: Exception, board: Board) -> str:
    msg = str(exc)
    if msg == "the game is over" and board.outcome() is not None:
        return f"the game is over ({board.outcome()})"
    return msg


def _other(letter: str) -> str:
    return "W" if letter == "B" else "B"


def _name(letter: str) -> str:
    return "Black" if letter == "B" else "White"


__all__ = ["MAX_BYTES", "MAX_NODES", "MAX_VALUES", "GameRecord", "RecordError", "dumps", "load",
           "loads", "save"]
