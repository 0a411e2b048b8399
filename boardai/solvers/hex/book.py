"""The book of first replies for Hex: a winning move for every position of one or two stones
(and deeper, along the book's own lines) whose side to move wins, up to the 180-degree turn, for
the sizes of the opening table (``openings.py``).  ``boardai book hex --replies`` builds it
(``boardai/data/hex_replies.json.gz``, shipped, gzip-compressed JSON) with the DFPN of
``solver.py``; ``player.engine_move`` plays from it before searching.
"""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

from boardai.solvers.hex.openings import OPENINGS_PATH, opening_table
from boardai.solvers.hex.solver import WIN, best_move


# --- the book of first replies ---------------------------------------------------------------
#   For a size of the opening table, up to a depth of stones (2 unless built deeper): every
#   position the book's own lines lead to whose side to move wins, with a winning move.  Depth 1
#   and 2: one stone (White to move) or two (Black to move) after any opening and reply; deeper,
#   the positions after the book's own moves and any answer.  A position is its stones (the
#   order of the moves does not matter in Hex), written as moves: Black's cells and White's in
#   increasing order, alternating ("d4 c5 e4").  A position and its 180-degree turn share one
#   entry, kept under the smaller cell list; a position whose side to move loses maps to null.
REPLIES_PATH = OPENINGS_PATH.with_name("hex_replies.json.gz")     # gzip-compressed JSON
_REPLIES: dict[int, dict[tuple[int, ...], int | None]] | None = None


def _stones_key(cells: tuple[int, ...]) -> tuple[int, ...]:
    """Moves -> the position's key: Black's and White's cells sorted, alternating."""
    black, white = sorted(cells[0::2]), sorted(cells[1::2])
    out: list[int] = []
    for k in range(len(black)):
        out.append(black[k])
        if k < len(white):
            out.append(white[k])
    return tuple(out)


def _canonical(cells: tuple[int, ...], n: int) -> tuple[tuple[int, ...], bool]:
    key = _stones_key(cells)
    turned = _stones_key(tuple(n - 1 - c for c in cells))
    return (turned, True) if turned < key else (key, False)


def _book_positions(size: int, openings: dict[str, str], depth: int,
                    entries: dict[tuple[int, ...], int | None]) -> list[tuple[int, ...]]:
    """The positions of ``depth`` stones the book holds for ``size`` (each once up to the
    180-degree turn), from the entries of ``depth - 2`` stones for depth 3 and more."""
    from boardai.games.hex.board import HexBoard
    names = HexBoard(size)
    n = size * size
    out: set[tuple[int, ...]] = set()
    if depth == 1:       # the openings White wins (the table says Black's lose for White)
        return sorted({_canonical((c,), n)[0] for c in range(n)
                       if openings[names.move_name(c)] == "white"})
    if depth == 2:
        for c in range(n):
            if openings[names.move_name(c)] == "black":
                out.update(_canonical((c, r), n)[0] for r in range(n) if r != c)
        return sorted(out)
    for key, move in entries.items():
        if len(key) != depth - 2 or move is None:
            continue
        after = key + (move,)
        taken = set(after)
        for r in range(n):
            if r not in taken:
                out.add(_canonical(after + (r,), n)[0])
    return sorted(out)


def reply_book() -> dict[int, dict[tuple[int, ...], int | None]]:
    """The shipped book of first replies: size -> {cells: winning move or None}, read once."""
    global _REPLIES
    if _REPLIES is None:
        _REPLIES = {}
        if REPLIES_PATH.exists():
            _REPLIES = _read_replies(REPLIES_PATH)
    return _REPLIES


def _read_replies(path: Path) -> dict[int, dict[tuple[int, ...], int | None]]:
    from boardai.games.hex.board import HexBoard
    raw = Path(path).read_bytes()
    data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    out: dict[int, dict[tuple[int, ...], int | None]] = {}
    for size_text, positions in data["positions"].items():
        size = int(size_text)
        names = HexBoard(size)
        out[size] = {tuple(names.parse_move(m) for m in key.split()):
                     (None if move is None else names.parse_move(move))
                     for key, move in positions.items()}
        _BOOK_DEPTH[size] = max((len(k) for k in out[size]), default=0)
    return out


_BOOK_DEPTH: dict[int, int] = {}     # size -> most stones of a position in the book read


def book_reply(board) -> int | None:
    """A winning move for the side to move from the reply book, or None (not in the book, a
    lost position, or a game where the swap rule is on)."""
    if board.width != board.height or board.swap_allowed:
        return None
    stack = list(board.move_stack)
    entries = reply_book().get(board.width)
    if not entries or not 1 <= len(stack) <= _BOOK_DEPTH.get(board.width, 0):
        return None
    n = board.width * board.height
    key, turned = _canonical(tuple(stack), n)
    move = entries.get(key)
    if move is None:
        return None
    return n - 1 - move if turned else move


def build_reply_book(sizes, out=REPLIES_PATH, time_limit: float | None = None,
                     progress=None, checkpoint_every: int = 20, depth: int = 2) -> dict[int, int]:
    """Solve every position of the reply book up to ``depth`` stones for each size (which must
    be in the opening table) and write it to ``out`` (JSON), every ``checkpoint_every``
    positions as it goes: run again, it goes on from what the file holds.  A position not
    solved within ``time_limit`` seconds is left out.  ``progress(done, total, key, move,
    seconds)`` after each position.  Returns size -> positions left unsolved."""
    from boardai.games.hex.board import HexBoard
    out = Path(out)
    table = opening_table()
    found: dict[int, dict[tuple[int, ...], int | None]] = \
        _read_replies(out) if out.exists() else {}
    unsolved: dict[int, int] = {}

    def save() -> None:
        text = json.dumps({
            "about": "winning move of every position of one stone (White to move) or two stones "
                     "(Black to move) whose side to move wins, and deeper of the positions after "
                     "the book's own moves and any answer; null where the side to move loses; a "
                     "position is its stones (Black's and White's cells in increasing order, "
                     "alternating) and shares its entry with its 180-degree turn; built by "
                     "`boardai book hex --replies`",
            "positions": {str(size): _named_entries(HexBoard(size), entries)
                          for size, entries in sorted(found.items())}}, indent=0)
        tmp = out.with_name(out.name + ".tmp")
        data = (text + "\n").encode("utf-8")
        tmp.write_bytes(gzip.compress(data, mtime=0) if out.suffix == ".gz" else data)
        tmp.replace(out)

    for size in sizes:
        if size not in table:
            raise ValueError(f"no solved openings for {size}x{size}: run `boardai book hex "
                             f"--sizes {size}` first")
        entries = found.setdefault(size, {})
        unsolved[size] = 0
        for stones in range(1, depth + 1):
            todo = [p for p in _book_positions(size, table[size], stones, entries)
                    if p not in entries]
            unsolved[size] += _solve_book_positions(size, todo, entries, time_limit, progress,
                                                    checkpoint_every, save)
        save()
    global _REPLIES
    _REPLIES = None
    return unsolved


def _named_entries(names, entries: dict[tuple[int, ...], int | None]) -> dict[str, str | None]:
    """Book entries with cells written as move names (one board names them all)."""
    return {" ".join(names.move_name(c) for c in key):
            (None if mv is None else names.move_name(mv)) for key, mv in sorted(entries.items())}


def _solve_book_positions(size, todo, entries, time_limit, progress, checkpoint_every,
                          save) -> int:
    """Solve ``todo`` into ``entries``; the number left unsolved."""
    from boardai.games.hex.board import HexBoard
    total = len(todo) + len(entries)
    unsolved = 0
    for i, cells in enumerate(todo):
        board = HexBoard.from_moves(list(cells), size)
        t0 = time.perf_counter()
        answer = best_move(board, None if time_limit is None else t0 + float(time_limit))
        seconds = time.perf_counter() - t0
        if answer is None:
            unsolved += 1
            move = "unsolved"
        else:
            move_cell, result = answer
            wins = result == WIN
            entries[cells] = move_cell if wins else None
            move = board.move_name(move_cell) if wins else None
        if progress is not None:
            progress(len(entries), total, " ".join(board.move_name(c) for c in cells), move,
                     seconds)
        if (i + 1) % checkpoint_every == 0:
            save()
    return unsolved
