"""SGF, the file format alone: syntax, escaping, line layout and the error every reader raises.

Nothing here knows a game: ``parse`` turns text into the main line's nodes (each a list of
properties with their line numbers), ``layout`` writes property tokens back as wrapped lines.
``records/__init__.py`` gives the nodes their meaning, with each game's rules from its
description.
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from dataclasses import dataclass

LINE_WIDTH = 72              # wrap written records like HexGui does


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


def decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be "
                          f"decoded): records are read as UTF-8; save the file as UTF-8",
                          source, line) from None


# --- the SGF syntax -------------------------------------------------------------------------
# Limits on what one record file may hold, variations and further games included.  Real
# records are far below them (the largest board, Hex 26x26, has 677 cells); they bound the
# memory and time a broken or hostile file can cost (a second or so at most).
MAX_BYTES = 16 * 1024 * 1024     # the file (or text) itself
MAX_NODES = 100_000              # nodes ';'
MAX_VALUES = 200_000             # property values '[...]'

_WS = re.compile(r"\s*")                 # \s and str.isspace() are the same characters
_NAME = re.compile(r"[A-Za-z]+")         # ASCII letters: isalpha() and isascii()
# a value '[...]' ('\x' is an escape) and the white space after it; a name and its first value
# (possessive '*+': nothing to backtrack to, so no memory kept per escape of a long value)
_VALUE = re.compile(r"\[([^\]\\]*+(?:\\.[^\]\\]*+)*+)\]\s*", re.DOTALL)
_PROP = re.compile(r"([A-Za-z]++)\s*\[([^\]\\]*+(?:\\.[^\]\\]*+)*+)\]\s*", re.DOTALL)


@dataclass
class Prop:
    key: str
    values: list[str]
    line: int

    def text(self) -> str:
        return clip(self.key + "".join(f"[{v}]" for v in self.values), 60)


Node = list[Prop]  # one SGF node: its properties in order


class Parser:
    """SGF syntax: ``(`` ``;`` ``KEY[value][value]`` ``)``; returns the main line's nodes.

    Iterative (no recursion, so deep variation nesting cannot overflow the stack).  Variations
    other than the first child, and further games of a collection, are checked for syntax only.
    Linear in the text: every token is one regular-expression match from the current position,
    and line numbers are counted only where one is needed (a property, an error), each count
    going on from the last.
    """

    def __init__(self, text: str, source: str):
        self.t = text
        self.n = len(text)
        self.source = source
        self.has_cr = "\r" in text
        self.nodes = 0                      # nodes and property values read so far
        self.values = 0
        self._pos, self._line = 0, 1        # the last position whose line was counted

    def line_at(self, pos: int) -> int:
        """The 1-based line of position ``pos`` (a line ends at CR LF, LF or a lone CR)."""
        t = self.t
        start, line = self._pos, self._line
        if pos < start:
            start, line = 0, 1
        line += t.count("\n", start, pos)
        if self.has_cr:
            line += t.count("\r", start, pos) - t.count("\r\n", start, pos)
            if start < pos < self.n and t[pos - 1] == "\r" and t[pos] == "\n":
                line -= 1      # a CR LF split here: its LF ends the line
        self._pos, self._line = pos, line
        return line

    def error(self, reason: str, pos: int) -> RecordError:
        return RecordError(reason, self.source, self.line_at(pos))

    def parse(self) -> list[Node]:
        t, n = self.t, self.n
        i = _WS.match(t).end()
        if i >= n:
            raise RecordError("the file is empty: an SGF record starts with '(;', e.g. "
                              "(;FF[4]GM[11]SZ[11];B[a1])", self.source, 1)
        j = _WS.match(t, i + 1).end()
        if t[i] != "(" or j >= n or t[j] != ";":
            raise self.error("not an SGF record: it must start with '(;', e.g. "
                             "(;FF[4]GM[11]SZ[11];B[a1])", i)
        main: list[Node] = []
        i = self._tree(i, main)
        while True:
            i = _WS.match(t, i).end()
            if i >= n:
                return main
            if t[i] != "(":
                raise self.error(f"unexpected {t[i]!r} after the end of the record (the last "
                                 f"')'): only more game trees '(;...)' may follow", i)
            i = self._tree(i, None)

    def _tree(self, i: int, main: list[Node] | None) -> int:
        """Read the game tree whose '(' is at ``i``; returns the position after its ')'."""
        t, n, ws = self.t, self.n, _WS.match
        # One frame per open '(': [collects-into-main, has-a-child-been-seen, has-a-node]
        frames: list[list] = []
        while True:
            i = ws(t, i).end()
            if i >= n:
                raise self.error("the record ends too early: a ')' is missing (is the file "
                                 "truncated?)", i)
            ch = t[i]
            if ch == ";":
                frame = frames[-1]
                if frame[1]:
                    raise self.error("a node ';' after a variation: nodes must come before the "
                                     "variations '(...)' of a game tree", i)
                frame[2] = True
                self.nodes += 1
                if self.nodes > MAX_NODES:
                    raise self.error(f"the record has more than {MAX_NODES:,} nodes (MAX_NODES, "
                                     f"a limit of record files; a game has at most a few "
                                     f"hundred moves)", i)
                i = self._node(i + 1, main if frame[0] else None)
            elif ch == "(":
                if frames and not frames[-1][2]:
                    raise self.error("a variation '(' must follow a node ';'", i)
                on_main = main is not None and (not frames or (frames[-1][0] and not frames[-1][1]))
                if frames:
                    frames[-1][1] = True
                i = ws(t, i + 1).end()
                if i >= n:
                    raise self.error("the record ends too early after '(' (is the file "
                                     "truncated?)", i)
                if t[i] != ";":
                    raise self.error(f"expected ';' after '(', found {t[i]!r}: a game tree is "
                                     f"'(' then nodes ';B[a1]' then ')'", i)
                frames.append([on_main, False, False])
            elif ch == ")":
                i += 1
                frames.pop()
                if not frames:
                    return i
            else:
                raise self.error(f"unexpected {ch!r}: expected a property like B[a1], or ';', "
                                 f"'(' or ')'", i)

    def _node(self, i: int, main: list[Node] | None) -> int:
        """Read a node's properties from ``i`` (after its ';'), appending the node to ``main``
        unless that is None; returns the position after them."""
        t, n, prop, value = self.t, self.n, _PROP.match, _VALUE.match
        props: Node = []
        count = self.values
        i = _WS.match(t, i).end()
        while i < n and t[i].isalpha():
            m = prop(t, i)                  # a name and its first value
            if m is None:
                raise self._bad_property(i)
            raw, text = m.group(1, 2)
            # FF[3] style 'GaMe' -> 'GM'; sloppy lower case -> upper
            key = raw if raw.isupper() else "".join(c for c in raw if c.isupper()) or raw.upper()
            values = [_unescape(text) if "\\" in text else text]
            start, i = i, m.end()
            while True:
                count += 1
                if count > MAX_VALUES:
                    raise self.error(f"the record has more than {MAX_VALUES:,} property values "
                                     f"(MAX_VALUES, a limit of record files)", start)
                if i >= n or t[i] != "[":
                    break
                m = value(t, i)
                if m is None:
                    raise self.error(f"the value of {key} opened with '[' is never closed with "
                                     f"']' (is the file truncated?)", i)
                text = m.group(1)
                values.append(_unescape(text) if "\\" in text else text)
                i = m.end()
            if main is not None:              # a variation's node is checked, not kept
                props.append(Prop(key, values, self.line_at(start)))
        self.values = count
        if main is not None:
            main.append(props)
        return i

    def _bad_property(self, i: int) -> RecordError:
        """The error of a property at ``i`` that is not NAME[value]."""
        t, n = self.t, self.n
        m = _NAME.match(t, i)
        end = m.end() if m else i
        if end < n and t[end].isalpha():
            return self.error(f"{t[i:end + 1]!r} is not a property name: SGF names are letters "
                              f"A-Z", end)
        raw = t[i:end]
        j = _WS.match(t, end).end()
        if j >= n:
            return self.error(f"the record ends after {raw!r} (is the file truncated?)", j)
        if t[j] != "[":
            return self.error(f"property {raw} has no value: write it as {raw}[...]", i)
        key = "".join(c for c in raw if c.isupper()) or raw.upper()
        return self.error(f"the value of {key} opened with '[' is never closed with ']' (is the "
                          f"file truncated?)", j)


def _unescape(text: str) -> str:
    """A value's text with its escapes resolved: '\\x' is 'x', a backslash before a line break
    joins the lines.  String replacements: a Python step per escaped backslash at most."""
    if "\\\\" not in text:
        return _unescape_part(text)
    # an escaped backslash: split there (left to right, as escapes pair), join with one
    return "\\".join([_unescape_part(p) if "\\" in p else p for p in text.split("\\\\")])


def _unescape_part(text: str) -> str:
    """``_unescape`` of a text where every backslash escapes a character that is not one."""
    return (text.replace("\\\r\n", "").replace("\\\n", "").replace("\\\r", "")
            .replace("\\", ""))


def parse(text: str, source: str) -> list[Node]:
    """The main line's nodes of an SGF text (RecordError, with the line, when it is broken)."""
    with gc_paused():
        return Parser(text, source).parse()


@contextmanager
def gc_paused():
    """Pause Python's cycle collector (if it runs) while a record is read.

    A record's nodes and properties hold no cycles, and the collector's passes over every object
    in the process, triggered by the many new ones, made each property of a long record cost
    more the more there were (10x the properties took 13-15x the time).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def layout(root: list[str], moves: list[str]) -> str:
    """Root property tokens, then move nodes, as wrapped lines ending in ``)`` and a newline."""
    out, line = [], ""
    for group in (root, moves):
        for tok in group:
            if line and len(line) + len(tok) > LINE_WIDTH:
                out.append(line)
                line = ""
            line += tok
        if group is root:
            out.append(line)
            line = ""
    if line:
        out.append(line)
    out[-1] += ")"
    return "\n".join(out) + "\n"


def clip(value: str, limit: int = 40) -> str:
    """A value as shown in an error message: one line, not too long."""
    text = str(value).replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")
