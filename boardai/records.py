"""Game records: Hex as HexGui writes SGF, Connect Four in an SGF-like form (``docs/formats.md``).

``dumps``/``loads`` turn a :class:`GameRecord` into text and back, ``save``/``load`` do the same
with files (``save`` is atomic).  Every problem in a record -- unreadable bytes, broken SGF, an
unknown game, a bad size, an illegal or out-of-turn move, a result that contradicts the moves --
raises :class:`RecordError`, which names the file and the line.  Moves are parsed and checked by
the game's ``Board`` (rules live in one place); this module only knows the file format.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from boardai._version import __version__
from boardai.games import make_board
from boardai.games.base import Board, IllegalMoveError, MoveError
from boardai.games.hex.notation import SWAP_SPELLINGS

HEX_GM = "11"                 # SGF's number for Hex
CONNECT4_GM = "connect4"      # our own tag: SGF has no number for Connect Four
RESIGN = "resign"
SWAP_RULE_WORDS = SWAP_SPELLINGS + ("pie",)          # RU[...] values meaning "swap rule on"
NO_SWAP_WORDS = ("", "none", "noswap", "no-swap", "no swap", "standard")
# Root properties with a meaning here; everything else in the root is kept in ``extra``.
KNOWN_ROOT = frozenset({"FF", "GM", "SZ", "RU", "AP", "DT", "PB", "PW", "RE", "PO", "CA"})
MOVE_KEYS = ("B", "W")
SETUP_KEYS = ("AB", "AW", "AE")
ROOT_ONLY = frozenset({"FF", "GM", "SZ", "RU", "AP", "CA", "PO"})
_OTHER_GAMES = {"1": "Go", "2": "Othello", "3": "chess", "4": "Gomoku/Renju", "7": "Chinese chess",
                "8": "Shogi", "9": "Lines of Action"}
_LINE_WIDTH = 72              # wrap written records like HexGui does


class RecordError(ValueError):
    """A record that cannot be read or written; ``str()`` names the file and line.

    ``source`` is the file name (or ``<string>``), ``line`` the 1-based line in the text or None,
    ``reason`` the message without the ``source line N:`` prefix.
    """

    def __init__(self, reason: str, source: str = "<string>", line: int | None = None):
        self.reason = reason
        self.source = source
        self.line = line
        where = source if line is None else f"{source} line {line}"
        super().__init__(f"{where}: {reason}")


@dataclass
class GameRecord:
    """A game as stored in a file: the rules in force, the moves (board ints), names and result.

    ``moves`` are the board's ints: Hex cells row-major (``row * width + col``) with
    ``width * height`` for swap; Connect Four 0-based columns.  ``result`` is ``B+``, ``W+``,
    ``0`` (draw), ``B+T``/``W+T`` (time), ``B+F``/``W+F`` (forfeit), ``?`` or ``Void``;
    ``resigned`` is ``B`` or ``W`` when that side resigned (``result`` is then the other's win).
    ``extra`` keeps other root properties (``GN``, ``EV``, ``C``, ...) so they survive a rewrite.
    """

    game: str
    width: int
    height: int
    swap: bool = False
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
                   swap=bool(getattr(board, "swap_allowed", False)), moves=board.move_stack,
                   black=black, white=white, result=outcome.result() if outcome else None,
                   date=_dt.date.today().isoformat())

    def to_board(self) -> Board:
        """A board with the moves replayed by ``push``; RecordError if one is illegal."""
        return _replay(self)[0]


def _replay(record: GameRecord) -> tuple[Board, list[str]]:
    """The record's board after its moves, and the move nodes (``;B[a1]``) to write."""
    board = _new_board(record.game, record.width, record.height, record.swap, "<record>", None)
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

    root = [("FF", "4")]
    if game == "hex":
        root.append(("GM", HEX_GM))
        size = str(board.width) if board.width == board.height else f"{board.width}:{board.height}"
        root.append(("SZ", size))
        if record.swap:
            root.append(("RU", "swap"))
    else:
        root.append(("GM", CONNECT4_GM))
        root.append(("SZ", f"{board.width}:{board.height}"))
    root.append(("AP", f"boardai:{__version__}"))
    for key, value in (("DT", record.date), ("PB", record.black), ("PW", record.white),
                       ("RE", result)):
        if value is not None:
            root.append((key, str(value)))
    if game == "connect4":
        root.append(("PO", board.position))  # type: ignore[attr-defined]
    for key, value in record.extra.items():
        if not isinstance(key, str) or not re.fullmatch(r"[A-Z]+", key) \
                or key in KNOWN_ROOT or key in MOVE_KEYS or key in SETUP_KEYS:
            raise RecordError(f"extra property {key!r} cannot be written: extra keys are SGF "
                              f"property names in capitals other than "
                              f"{', '.join(sorted(KNOWN_ROOT))}, B, W, AB, AW, AE", "<record>")
        root.append((key, str(value)))
    if any(not v.isascii() for _, v in root):
        root.insert(1, ("CA", "UTF-8"))

    tokens = [f"{key}[{_escape(value)}]" for key, value in root]
    tokens[0] = "(;" + tokens[0]
    out, line = [], ""
    for tok in tokens:
        if line and len(line) + len(tok) > _LINE_WIDTH:
            out.append(line)
            line = ""
        line += tok
    out.append(line)
    line = ""
    for tok in nodes:
        if line and len(line) + len(tok) > _LINE_WIDTH:
            out.append(line)
            line = ""
        line += tok
    if line:
        out.append(line)
    out[-1] += ")"
    return "\n".join(out) + "\n"


def save(record: GameRecord, path: str | os.PathLike) -> None:
    """Write the record to ``path`` atomically (a temp file in the same folder, then rename)."""
    source = os.fspath(path)
    data = dumps(record)
    try:
        raw = data.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError(f"cannot write the record: {exc.reason} in the text "
                          f"(names and comments must be valid Unicode)", source) from None
    target = Path(source)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
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
            data = fh.read()
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
        text = _decode(bytes(text), source)
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}", source)
    if text.startswith("\ufeff"):
        text = text[1:]
    nodes = _Parser(text, source).parse()
    return _interpret(nodes, source)


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be "
                          f"decoded): records are read as UTF-8; save the file as UTF-8",
                          source, line) from None


# --- the SGF syntax -------------------------------------------------------------------------
@dataclass
class _Prop:
    key: str
    values: list[str]
    line: int

    def text(self) -> str:
        return _clip(self.key + "".join(f"[{v}]" for v in self.values), 60)


_Node = list[_Prop]  # one SGF node: its properties in order


class _Parser:
    """SGF syntax: ``(`` ``;`` ``KEY[value][value]`` ``)``; returns the main line's nodes.

    Iterative (no recursion, so deep variation nesting cannot overflow the stack).  Variations
    other than the first child, and further games of a collection, are checked for syntax only.
    """

    def __init__(self, text: str, source: str):
        self.t = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.source = source

    def error(self, reason: str, line: int | None = None) -> RecordError:
        return RecordError(reason, self.source, self.line if line is None else line)

    def _advance(self) -> str:
        ch = self.t[self.i]
        self.i += 1
        if ch == "\n" or (ch == "\r" and (self.i >= self.n or self.t[self.i] != "\n")):
            self.line += 1
        return ch

    def _skip_ws(self) -> None:
        while self.i < self.n and self.t[self.i].isspace():
            self._advance()

    def parse(self) -> list[_Node]:
        self._skip_ws()
        if self.i >= self.n:
            raise self.error("the file is empty: an SGF record starts with '(;', e.g. "
                             "(;FF[4]GM[11]SZ[11];B[a1])", 1)
        if not self.t.startswith("(", self.i) or not self._next_is_node(self.i + 1):
            raise self.error("not an SGF record: it must start with '(;', e.g. "
                             "(;FF[4]GM[11]SZ[11];B[a1])")
        main: list[_Node] = []
        self._tree(main)
        while True:
            self._skip_ws()
            if self.i >= self.n:
                return main
            if self.t[self.i] != "(":
                raise self.error(f"unexpected {self.t[self.i]!r} after the end of the record "
                                 f"(the last ')'): only more game trees '(;...)' may follow")
            self._tree(None)

    def _next_is_node(self, j: int) -> bool:
        while j < self.n and self.t[j].isspace():
            j += 1
        return j < self.n and self.t[j] == ";"

    def _tree(self, main: list[_Node] | None) -> None:
        # One frame per open '(': [collects-into-main, has-a-child-been-seen, has-a-node]
        frames: list[list] = []
        while True:
            self._skip_ws()
            if self.i >= self.n:
                raise self.error("the record ends too early: a ')' is missing (is the file "
                                 "truncated?)")
            ch = self.t[self.i]
            if ch == "(":
                if frames and not frames[-1][2]:
                    raise self.error("a variation '(' must follow a node ';'")
                on_main = main is not None and (not frames or (frames[-1][0] and not frames[-1][1]))
                if frames:
                    frames[-1][1] = True
                self._advance()
                self._skip_ws()
                if self.i >= self.n or self.t[self.i] != ";":
                    if self.i >= self.n:
                        raise self.error("the record ends too early after '(' (is the file "
                                         "truncated?)")
                    raise self.error(f"expected ';' after '(', found {self.t[self.i]!r}: a game "
                                     f"tree is '(' then nodes ';B[a1]' then ')'")
                frames.append([on_main, False, False])
            elif ch == ";":
                frame = frames[-1]
                if frame[1]:
                    raise self.error("a node ';' after a variation: nodes must come before the "
                                     "variations '(...)' of a game tree")
                self._advance()
                frame[2] = True
                node = self._node()
                if frame[0] and main is not None:
                    main.append(node)
            elif ch == ")":
                self._advance()
                frames.pop()
                if not frames:
                    return
            else:
                raise self.error(f"unexpected {ch!r}: expected a property like B[a1], or ';', "
                                 f"'(' or ')'")

    def _node(self) -> _Node:
        props: _Node = []
        while True:
            self._skip_ws()
            if self.i >= self.n or not self.t[self.i].isalpha():
                return props
            start, line = self.i, self.line
            while self.i < self.n and self.t[self.i].isalpha() and self.t[self.i].isascii():
                self.i += 1
            raw = self.t[start:self.i]
            if self.i < self.n and self.t[self.i].isalpha():
                raise self.error(f"{self.t[start:self.i + 1]!r} is not a property name: SGF "
                                 f"names are letters A-Z")
            upper = "".join(c for c in raw if c.isupper())
            key = upper or raw.upper()  # FF[3] style 'GaMe' -> 'GM'; sloppy lower case -> upper
            values = []
            while True:
                self._skip_ws()
                if self.i >= self.n or self.t[self.i] != "[":
                    break
                values.append(self._value(key))
            if not values:
                if self.i >= self.n:
                    raise self.error(f"the record ends after {raw!r} (is the file truncated?)")
                raise self.error(f"property {raw} has no value: write it as {raw}[...]", line)
            props.append(_Prop(key, values, line))

    def _value(self, key: str) -> str:
        open_line = self.line
        self._advance()  # '['
        out = []
        while True:
            if self.i >= self.n:
                raise self.error(f"the value of {key} opened with '[' is never closed with ']' "
                                 f"(is the file truncated?)", open_line)
            ch = self._advance()
            if ch == "]":
                return "".join(out)
            if ch == "\\":
                if self.i >= self.n:
                    continue
                nxt = self._advance()
                if nxt == "\r" and self.i < self.n and self.t[self.i] == "\n":
                    self._advance()
                    continue
                if nxt in "\r\n":
                    continue  # soft line break
                out.append(nxt)
            else:
                out.append(ch)


# --- meaning ---------------------------------------------------------------------------------
def _interpret(nodes: list[_Node], source: str) -> GameRecord:
    root = nodes[0]
    def err(reason: str, line: int | None) -> RecordError:
        return RecordError(reason, source, line)

    props: dict[str, _Prop] = {}
    for prop in root:
        if prop.key in props and prop.key in KNOWN_ROOT:
            raise err(f"{prop.key} appears twice in the first node (also on line "
                      f"{props[prop.key].line}): give it once", prop.line)
        if prop.key in SETUP_KEYS:
            raise err(f"{prop.text()}: setup stones (AB/AW/AE) are not supported: a record must be "
                      f"the moves from the empty board", prop.line)
        props.setdefault(prop.key, prop)

    def single(key: str) -> str | None:
        prop = props.get(key)
        if prop is None:
            return None
        if len(prop.values) != 1:
            raise err(f"{prop.text()}: {key} takes one value", prop.line)
        return prop.values[0]

    # FF
    ff = single("FF")
    if ff is not None and ff.strip() not in ("1", "2", "3", "4"):
        raise err(f"FF[{_clip(ff)}] is not an SGF version: use FF[4] (1-4 are read)",
                  props["FF"].line)
    # GM
    gm = single("GM")
    if gm is None:
        raise err(f"no GM property in the first node: write GM[{HEX_GM}] for Hex or "
                  f"GM[{CONNECT4_GM}] for Connect Four", _root_line(root, nodes))
    game = _game_of(gm, source, props["GM"].line)
    # SZ
    sz = single("SZ")
    if sz is None:
        width, height = (11, 11) if game == "hex" else (7, 6)
        sz_line = None
    else:
        sz_line = props["SZ"].line
        m = re.fullmatch(r"\s*(\d{1,4})\s*(?::\s*(\d{1,4})\s*)?", sz)
        if not m:
            example = "SZ[11] (11x11) or SZ[9:7] (9 wide, 7 high)" if game == "hex" \
                else "SZ[7:6] (7 columns, 6 rows)"
            raise err(f"SZ[{_clip(sz)}] is not a board size: use {example}", sz_line)
        width = int(m.group(1))
        height = int(m.group(2)) if m.group(2) else width
    # RU (swap rule)
    swap: bool | None = None
    ru = single("RU")
    if ru is not None:
        word = ru.strip().lower()
        if game == "connect4":
            if word not in NO_SWAP_WORDS:
                what = "the swap rule is a Hex rule; Connect Four has none" \
                    if word in SWAP_RULE_WORDS else "Connect Four has no rule variants"
                raise err(f"RU[{_clip(ru)}]: {what}: leave RU out", props["RU"].line)
        elif word in SWAP_RULE_WORDS:
            swap = True
        elif word in NO_SWAP_WORDS:
            swap = False
        else:
            raise err(f"RU[{_clip(ru)}] is not a rule this program knows: use RU[swap] for the "
                      f"swap rule, or leave RU out", props["RU"].line)
    # texts
    date = single("DT")
    black = single("PB")
    white = single("PW")
    result: str | None = None
    resigned: str | None = None
    re_line = props["RE"].line if "RE" in props else None
    re_text = single("RE")
    if re_text is not None:
        try:
            result, resigned = _parse_result(re_text)
        except ValueError as exc:
            raise err(str(exc), re_line) from None
    extra: dict[str, str] = {}
    for prop in root:  # other root properties ride along; several values are joined by a space
        if prop.key not in KNOWN_ROOT and prop.key not in MOVE_KEYS:
            value = " ".join(prop.values)
            extra[prop.key] = f"{extra[prop.key]} {value}" if prop.key in extra else value

    # Moves: collect them (with colour and line), checking node shapes.
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
            p = found[0]
            moves.append((p.key, p.values[0], p.line))

    if swap is None:  # HexGui writes no RU: a swap move in the record means the rule was on
        swap = game == "hex" and any(v.strip().lower() in SWAP_SPELLINGS for _, v, _ in moves)
    try:
        board = make_board(game, (width, height), swap=swap)
    except ValueError as exc:
        if swap and width != height:
            if "RU" in props:
                raise err(f"{props['RU'].text()}: the swap rule needs a square board, and this "
                          f"one is {width}x{height} (SZ[{_clip(sz)}])", props["RU"].line) from None
            colour, value, line = next(m for m in moves if m[1].strip().lower() in SWAP_SPELLINGS)
            raise err(f"'{colour}[{_clip(value)}]': swap needs a square board, and this one is "
                      f"{width}x{height} (SZ[{_clip(sz)}])", line) from None
        raise err(f"SZ[{_clip(sz)}]: {exc}" if sz is not None else str(exc), sz_line) from None

    resign_node: tuple[str, int] | None = None
    for colour, value, line in moves:
        prop = f"{colour}[{_clip(value)}]"
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
            move = board.parse_move(value)
            board.push(move)
        except MoveError as exc:
            if isinstance(exc, IllegalMoveError):
                raise err(f"'{prop}' cannot be played: {_reason(exc, board)}", line) from None
            msg = str(exc)
            quoted = repr(value.strip())
            msg = f"'{prop}'" + msg[len(quoted):] if msg.startswith(quoted) else f"'{prop}': {msg}"
            raise err(msg, line) from None

    if resign_node is not None:
        if resigned is not None and resigned != resign_node[0]:
            raise err(f"RE[{_clip(re_text)}] says {_name(resigned)} resigned but the record has "
                      f"{resign_node[0]}[resign] on line {resign_node[1]}", re_line)
        if result is not None and result != f"{_other(resign_node[0])}+":
            raise err(f"RE[{_clip(re_text)}] does not match {resign_node[0]}[resign] on line "
                      f"{resign_node[1]}: the result must be {_other(resign_node[0])}+ or "
                      f"{_other(resign_node[0])}+Resign", re_line)
        resigned = resign_node[0]
    problem = _result_problem(board, result, resigned)
    if problem:
        raise err(problem, re_line)
    if resigned is not None and result is None:
        result = f"{_other(resigned)}+"
    if result is None and board.is_game_over():
        result = board.outcome().result()  # type: ignore[union-attr]

    # PO must agree with the moves (Connect Four).
    if game == "connect4" and "PO" in props:
        po = single("PO") or ""
        _check_position(po, board, source, props["PO"].line)
    elif "PO" in props:
        raise err(f"{props['PO'].text()}: PO is the position of a Connect Four record; a Hex "
                  f"record has none: leave it out", props["PO"].line)

    return GameRecord(game=game, width=width, height=height, swap=bool(swap),
                      moves=board.move_stack, black=black, white=white, result=result,
                      resigned=resigned, date=date, extra=extra)


def _root_line(root: _Node, nodes: list[_Node]) -> int | None:
    if root:
        return root[0].line
    for node in nodes:
        if node:
            return node[0].line
    return 1


def _check_position(po: str, board: Board, source: str, line: int) -> None:
    text = po.strip()
    if re.search(r"[\s,]", text):
        tokens = text.replace(",", " ").split()
    elif board.width <= 9:
        tokens = list(text)
    else:
        tokens = [text] if text else []
    if not all(t.isdigit() and 1 <= int(t) <= board.width for t in tokens):
        raise RecordError(f"PO[{_clip(po)}] is not a position: it is the column numbers "
                          f"1-{board.width} of the moves from the empty board, e.g. PO[4453]",
                          source, line)
    played = [str(m + 1) for m in board.move_stack]
    if [str(int(t)) for t in tokens] != played:
        expected = board.position  # type: ignore[attr-defined]
        raise RecordError(f"PO[{_clip(po)}] does not match the moves ({expected or 'none'}): "
                          f"PO must list the moves' columns in order (PO[{expected}]), or leave "
                          f"PO out", source, line)


# --- shared helpers --------------------------------------------------------------------------
def _game_of(gm: str, source: str, line: int | None) -> str:
    word = str(gm).strip().lower()
    if word in (HEX_GM, "hex"):
        return "hex"
    if word in (CONNECT4_GM, "connect-four", "connectfour", "c4"):
        return "connect4"
    known = _OTHER_GAMES.get(word)
    what = f"GM[{_clip(gm)}] is {known} in SGF, not a game this program plays" if known \
        else f"GM[{_clip(gm)}] is not a game this program reads"
    raise RecordError(f"{what}: use GM[{HEX_GM}] (Hex) or GM[{CONNECT4_GM}] (Connect Four)",
                      source, line)


def _new_board(game: str, width, height, swap: bool, source: str, line: int | None) -> Board:
    game = _game_of(game, source, line) if game not in ("hex", "connect4") else game
    try:
        return make_board(game, (width, height), swap=bool(swap))
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
    raise ValueError(f"RE[{_clip(text)}] is not a result: use RE[B+] or RE[W+] (that side won), "
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


def _clip(value: str, limit: int = 40) -> str:
    """A value as shown in an error message: one line, not too long."""
    text = str(value).replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _other(letter: str) -> str:
    return "W" if letter == "B" else "B"


def _name(letter: str) -> str:
    return "Black" if letter == "B" else "White"


__all__ = ["GameRecord", "RecordError", "dumps", "load", "loads", "save"]
