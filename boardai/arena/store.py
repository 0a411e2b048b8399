"""The arena's result store: one SQLite database (WAL mode) holding every finished game.

Each game is one row written in its own transaction the moment it ends, keyed by
``(match_key, idx)``: a match is the set of games sharing a key (engines, game, size, openings,
seed), and a game's index fixes its colours, opening and seeds.  Running the same command
again reads which indexes are stored and plays only the others, so a crash or ``kill -9`` loses
at most the games being played, and a unique key means no game is ever stored twice, even with
two commands writing to one store at once.

The file carries ``PRAGMA application_id`` (ours) and ``PRAGMA user_version`` (the schema
version).  A file that is not SQLite, fails SQLite's integrity check, belongs to another program
or was written by a newer schema gives a :class:`StoreError` saying which.

A store kept packed, ``NAME.sqlite.xz`` (xz-compressed: how the repository keeps the stores of
its experiments, ``benchmarks/stores.py``), is read as it is: ``Store`` unpacks it into a
temporary copy, removed on close, and refuses to write to it (``writing=True``, ``add_game``);
to add games, unpack it (``xz -dk NAME.sqlite.xz``) and give the ``.sqlite`` file.
"""

from __future__ import annotations

import json
import lzma
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from boardai.games.setup import BoardSetup

APPLICATION_ID = 0x62616931          # "bai1"
SCHEMA_VERSION = 3                   # 2: games.blocked, 3: games.swap (older stores are
                                     # upgraded on open)
# What an engine said is kept up to this many characters (its start and end, the middle cut with
# a marker saying how much): an engine's answer can be any size (a 20 MB illegal move is stored
# in the game's ``detail``, twice: quoted and in the parser's message).
MAX_DETAIL = 2_000                   # a game's detail (what went wrong)
MAX_VERSION = 200                    # an engine's name and version

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_key   TEXT PRIMARY KEY,
    engine_a    TEXT NOT NULL,
    engine_b    TEXT NOT NULL,
    game        TEXT NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    openings    TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    config      TEXT NOT NULL,           -- JSON: everything else the match was run with
    created     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    match_key   TEXT NOT NULL REFERENCES matches(match_key),
    idx         INTEGER NOT NULL,        -- index in the match: colours, opening and seeds
    black       TEXT NOT NULL,           -- engine specs
    white       TEXT NOT NULL,
    a_is_black  INTEGER NOT NULL,
    black_version TEXT,
    white_version TEXT,
    game        TEXT NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    opening     TEXT NOT NULL,           -- JSON list of move ints played before the engines
    seed        INTEGER NOT NULL,
    moves       TEXT NOT NULL,           -- JSON list of every move int, opening included
    winner      INTEGER,                 -- 0 Black, 1 White, NULL draw
    reason      TEXT NOT NULL,
    times       TEXT NOT NULL,           -- JSON list of seconds per engine move
    detail      TEXT,                    -- what went wrong (crash, illegal move, ...)
    logs        TEXT,                    -- JSON list of stderr log files of GTP participants
    finished    REAL NOT NULL,
    blocked     TEXT,                    -- JSON list of [col, row] blocked cells (NULL: none)
    swap        INTEGER,                 -- 1: played with the swap rule (NULL or 0: without)
    PRIMARY KEY (match_key, idx)
);
"""


# the games table's columns by name (an upgraded store added the newer ones at its end, in the
# order it met them)
GAME_COLUMNS = ("match_key, idx, black, white, a_is_black, black_version, white_version, game, "
                "width, height, opening, seed, moves, winner, reason, times, detail, logs, "
                "finished, blocked, swap")


class StoreError(Exception):
    """The store cannot be used (not SQLite, damaged, foreign or newer schema, unwritable)."""


@dataclass
class StoredGame:
    """One finished game as the store holds it."""

    match_key: str
    idx: int
    black: str
    white: str
    a_is_black: bool
    game: str
    width: int
    height: int
    opening: list[int]
    seed: int
    moves: list[int]
    winner: int | None
    reason: str
    times: list[float]
    black_version: str | None = None
    white_version: str | None = None
    detail: str | None = None
    logs: list[str] = field(default_factory=list)
    finished: float = 0.0
    blocked: list[tuple[int, int]] = field(default_factory=list)   # cells no stone may take
    swap: bool = False                                              # the swap rule was on

    @property
    def setup(self) -> BoardSetup:
        """The board the game was played on."""
        return BoardSetup(self.game, self.width, self.height, self.swap, tuple(self.blocked))

    @property
    def score_a(self) -> float:
        """The first engine's points: 1, 1/2 or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == 0) == self.a_is_black else 0.0


def cut(text: str | None, limit: int) -> str | None:
    """``text`` if it has at most ``limit`` characters, else its start and end (three quarters
    and a quarter of ``limit``) around a marker saying how many characters were cut."""
    if text is None or len(text) <= limit:
        return text
    head = limit * 3 // 4
    tail = limit - head
    return (f"{text[:head]} [... {len(text) - limit:,} characters cut by the result store ...] "
            f"{text[len(text) - tail:]}")


@dataclass(frozen=True)
class MatchInfo:
    match_key: str
    engine_a: str
    engine_b: str
    game: str
    width: int
    height: int
    openings: str
    seed: int
    config: dict


PACKED_SUFFIX = ".xz"                 # a packed store: NAME.sqlite.xz, read-only


def _unpack(path: Path) -> Path:
    """A temporary unpacked copy of the packed store ``path`` (in a folder of its own)."""
    folder = Path(tempfile.mkdtemp(prefix="boardai-store-"))
    target = folder / path.with_suffix("").name
    try:
        with lzma.open(path) as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
    except (OSError, lzma.LZMAError, EOFError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise StoreError(f"{path} is not a packed result store: {exc}") from None
    return target


class Store:
    """A result store file; ``Store(path)`` opens (creating it if needed) and checks it.
    ``writing``: the caller will add games (a packed store is refused at once)."""

    def __init__(self, path: str | os.PathLike, writing: bool = False):
        self.path = Path(path)
        self.packed = self.path.suffix == PACKED_SUFFIX
        self._unpacked: Path | None = None
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder: give a file name for the result store")
        if self.packed:
            if writing:
                self._refuse_writing()
            self._unpacked = _unpack(self.path)
        elif self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self._unpacked or self.path), timeout=30.0,
                                       isolation_level=None)
        except sqlite3.Error as exc:
            self._remove_unpacked()
            raise StoreError(f"cannot open result store {self.path}: {exc}") from None
        try:
            self._check_and_init()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path} is not a usable boardai result store: {exc} "
                             "(a damaged file or not an SQLite database; move it away or give "
                             "another --store)") from None

    # --- opening ------------------------------------------------------------------------
    def _check_and_init(self) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 30000")
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app not in (0, APPLICATION_ID) or (app == 0 and tables):
            raise StoreError(f"{self.path} is an SQLite database of another program "
                             f"(application id {app:#x}, tables {', '.join(sorted(tables)) or '-'}); "
                             "give a new file or a boardai result store")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer boardai (store schema {version}; "
                             f"this version reads schema {SCHEMA_VERSION} and older): upgrade boardai")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"{self.path} is damaged (SQLite integrity check: {check}); "
                             "move it away or give another --store")
        if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
            raise StoreError(f"{self.path}: cannot switch the store to WAL mode")
        db.execute("PRAGMA synchronous = NORMAL")   # with WAL: a committed game survives kill -9
        if app == APPLICATION_ID and version < SCHEMA_VERSION:
            self._upgrade()
        if app == 0:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("PRAGMA application_id").fetchone()[0] == 0:
                    for stmt in SCHEMA.split(";"):
                        if stmt.strip():
                            db.execute(stmt)
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _upgrade(self) -> None:
        """Schema 1 -> 2: add ``games.blocked``; 2 -> 3: add ``games.swap`` (once, whoever opens
        the store first)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
                if "blocked" not in columns:
                    db.execute("ALTER TABLE games ADD COLUMN blocked TEXT")
                if "swap" not in columns:
                    db.execute("ALTER TABLE games ADD COLUMN swap INTEGER")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._db.close()
        self._remove_unpacked()

    def _remove_unpacked(self) -> None:
        if self._unpacked is not None:
            shutil.rmtree(self._unpacked.parent, ignore_errors=True)
            self._unpacked = None

    def _refuse_writing(self) -> None:
        raise StoreError(f"{self.path} is a packed result store (read-only): unpack it with "
                         f"`xz -dk {self.path}` and give the .sqlite file to add games")

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------
    def ensure_match(self, info: MatchInfo) -> None:
        """Record a match's description (kept as first written)."""
        if self.packed:
            self._refuse_writing()
        self._db.execute(
            "INSERT OR IGNORE INTO matches VALUES (?,?,?,?,?,?,?,?,?,?)",
            (info.match_key, info.engine_a, info.engine_b, info.game, info.width, info.height,
             info.openings, info.seed, json.dumps(info.config, sort_keys=True), time.time()))

    def add_game(self, g: StoredGame) -> bool:
        """Commit one finished game; False if that index was already stored (nothing changes).

        The engines' own words are cut to size here, the one place games are written: the
        detail to ``MAX_DETAIL`` characters, the versions to ``MAX_VERSION`` (``cut``).
        """
        if self.packed:
            self._refuse_writing()
        cur = self._db.execute(
            f"INSERT OR IGNORE INTO games ({GAME_COLUMNS}) VALUES "
            "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (g.match_key, g.idx, g.black, g.white, int(g.a_is_black),
             cut(g.black_version, MAX_VERSION), cut(g.white_version, MAX_VERSION), g.game,
             g.width, g.height, json.dumps(g.opening), g.seed, json.dumps(g.moves), g.winner,
             g.reason, json.dumps([round(t, 6) for t in g.times]), cut(g.detail, MAX_DETAIL),
             json.dumps(g.logs), g.finished or time.time(),
             json.dumps([list(c) for c in g.blocked]) if g.blocked else None,
             1 if g.swap else None))
        return cur.rowcount == 1

    # --- reading ------------------------------------------------------------------------
    def done_indexes(self, match_key: str) -> set[int]:
        return {r[0] for r in self._db.execute("SELECT idx FROM games WHERE match_key = ?",
                                               (match_key,))}

    def games(self, match_key: str | None = None) -> list[StoredGame]:
        sql = ("SELECT match_key, idx, black, white, a_is_black, game, width, height, opening, seed,"
               " moves, winner, reason, times, black_version, white_version, detail, logs, finished,"
               " blocked, swap FROM games")
        args: tuple = ()
        if match_key is not None:
            sql += " WHERE match_key = ?"
            args = (match_key,)
        out = []
        for r in self._db.execute(sql + " ORDER BY match_key, idx", args):
            out.append(StoredGame(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7],
                                  json.loads(r[8]), r[9], json.loads(r[10]), r[11], r[12],
                                  json.loads(r[13]), r[14], r[15], r[16], json.loads(r[17] or "[]"),
                                  r[18], [tuple(c) for c in json.loads(r[19] or "[]")],
                                  bool(r[20])))
        return out

    def matches(self) -> list[MatchInfo]:
        rows = self._db.execute("SELECT match_key, engine_a, engine_b, game, width, height, "
                                "openings, seed, config FROM matches ORDER BY created, match_key")
        return [MatchInfo(*r[:8], json.loads(r[8])) for r in rows]
