"""SGF, the file format alone: syntax, escaping, line layout and the error every reader raises.

Nothing here knows a game: ``parse`` turns text into the main line's nodes (each a list of
properties with their line numbers), ``layout`` writes property tokens back as wrapped lines.
``records/__init__.py`` gives the nodes their meaning, with each game's rules from its
description.
"""

from __future__ import annotations

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

    def parse(self) -> list[Node]:
        self._skip_ws()
        if self.i >= self.n:
            raise self.error("the file is empty: an SGF record starts with '(;', e.g. "
                             "(;FF[4]GM[11]SZ[11];B[a1])", 1)
        if not self.t.startswith("(", self.i) or not self._next_is_node(self.i + 1):
            raise self.error("not an SGF record: it must start with '(;', e.g. "
                             "(;FF[4]GM[11]SZ[11];B[a1])")
        main: list[Node] = []
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

    def _tree(self, main: list[Node] | None) -> None:
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

    def _node(self) -> Node:
        props: Node = []
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
            props.append(Prop(key, values, line))

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


def parse(text: str, source: str) -> list[Node]:
    """The main line's nodes of an SGF text (RecordError, with the line, when it is broken)."""
    return Parser(text, source).parse()


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
