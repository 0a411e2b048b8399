"""Matches and round-robin tournaments: plan the games, resume from the store, keep score.

A match is identified by a key hashed from what decides its games (engine specs, the board's
set-up -- game, size, swap rule, blocked cells --, opening suite, seed); the number of games is not part of it, so running a longer match on the
same store extends the shorter one.  Game ``i`` has engine A as Black when ``i`` is even, the
opening ``i // 2`` of the suite, and a seed derived from the match seed and ``i``.  Results are
committed by this process the moment a runner hands them back.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from boardai.arena.openings import OpeningSuite, load_suite
from boardai.arena.ratings import (
    EloEstimate, Rating, SprtSpec, SprtState, bradley_terry, elo_estimate, sprt,
)
from boardai.arena.runner import GameTask, Runner, game_seed
from boardai.arena.store import MatchInfo, Store, StoredGame
from boardai.engines.base import Option
from boardai.engines.registry import make_engine, parse_spec
from boardai.games.setup import BoardSetup
from boardai.arena import MOVE_TIMEOUT    # noqa: F401  (defined where the CLI reads it cheaply)


def default_store_path() -> Path:
    """``$BOARDAI_HOME/arena.sqlite`` (or ``~/.local/share/boardai/arena.sqlite``)."""
    home = os.environ.get("BOARDAI_HOME")
    base = Path(home) if home else Path(
        os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "boardai"
    return base / "arena.sqlite"


def check_spec(spec: str) -> str:
    """Raise a clear ValueError for a bad engine spec (or a GTP command that is not there);
    return the spec stripped.  GTP engines are not started here."""
    name, raw = parse_spec(spec)
    if name == "gtp":
        argv = shlex.split(raw["command"])
        if not argv or shutil.which(argv[0]) is None:
            raise ValueError(f"cannot find the GTP engine program {argv[0] if argv else ''!r} "
                             f"of {spec!r}: give a command on PATH or a path to an executable")
    else:
        make_engine(spec).close()
    return spec.strip()


@dataclass(frozen=True)
class MatchPlan:
    """Everything that decides a match's games; ``key`` identifies it in the store."""

    engine_a: str
    engine_b: str
    setup: BoardSetup
    suite: OpeningSuite
    seed: int = 1
    move_timeout: float | None = None
    log_dir: str | None = None

    @property
    def game(self) -> str:
        return self.setup.game

    @property
    def width(self) -> int:
        return self.setup.width

    @property
    def height(self) -> int:
        return self.setup.height

    @property
    def key(self) -> str:
        """A hash of what decides the games; a board without the swap rule or blocked cells
        hashes as before they were part of a match (so older stores resume)."""
        s = self.setup
        ident = [self.engine_a, self.engine_b, s.game, s.width, s.height, self.suite.name,
                 self.seed]
        if s.swap:
            ident.append("swap")
        if s.blocked:
            ident.append([list(c) for c in s.blocked])
        return hashlib.sha1(json.dumps(ident).encode()).hexdigest()[:16]

    def info(self) -> MatchInfo:
        return MatchInfo(self.key, self.engine_a, self.engine_b, self.game, self.width,
                         self.height, self.suite.name, self.seed,
                         {"move_timeout": self.move_timeout, "board": self.setup.text})

    def task(self, idx: int) -> GameTask:
        return GameTask(self.key, idx, self.engine_a, self.engine_b, idx % 2 == 0, self.setup,
                        self.suite.for_game(idx), game_seed(self.seed, idx), self.move_timeout,
                        self.log_dir)


def default_move_timeout(*specs: str) -> float:
    """30 s plus twice the largest ``time=`` the specs give (a hard limit, not a budget)."""
    times = [0.0]
    for spec in specs:
        name, raw = parse_spec(spec)
        if name != "gtp" and "time" in raw:
            try:
                times.append(float(raw["time"]))
            except ValueError:
                pass            # make_engine reports it
    return 30.0 + 2.0 * max(times)


def make_plan(engine_a: str, engine_b: str, setup: BoardSetup, openings: str | None, seed: int,
              move_timeout: float | None, store_path: Path) -> MatchPlan:
    """Check the specs and suite for the board of ``setup`` (checked where it was made:
    ``BoardSetup.of``); ValueError (clear message) on bad input.  ``move_timeout`` None:
    :func:`default_move_timeout`."""
    engine_a, engine_b = check_spec(engine_a), check_spec(engine_b)
    if move_timeout is None:
        move_timeout = default_move_timeout(engine_a, engine_b)
    else:
        MOVE_TIMEOUT.check(move_timeout)
    suite = load_suite(openings, setup, seed)
    log_dir = str(store_path.with_name(store_path.name + ".logs"))
    return MatchPlan(engine_a, engine_b, setup, suite, seed, move_timeout, log_dir)


# --- scores -------------------------------------------------------------------------------
@dataclass
class MatchScore:
    """Running totals of a match from engine A's view."""

    engine_a: str
    engine_b: str
    by_colour: dict[str, list[int]] = field(
        default_factory=lambda: {"black": [0, 0, 0], "white": [0, 0, 0]})   # A's W, L, D
    reasons: Counter = field(default_factory=Counter)
    time_sum: list[float] = field(default_factory=lambda: [0.0, 0.0])       # A, B
    time_moves: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, g: StoredGame) -> None:
        side = "black" if g.a_is_black else "white"
        s = g.score_a
        self.by_colour[side][0 if s == 1.0 else 1 if s == 0.0 else 2] += 1
        self.reasons[g.reason] += 1
        a_colour = 0 if g.a_is_black else 1
        for j, t in enumerate(g.times):
            who = 0 if (len(g.opening) + j) % 2 == a_colour else 1
            self.time_sum[who] += t
            self.time_moves[who] += 1

    @property
    def wins(self) -> int:
        return sum(v[0] for v in self.by_colour.values())

    @property
    def losses(self) -> int:
        return sum(v[1] for v in self.by_colour.values())

    @property
    def draws(self) -> int:
        return sum(v[2] for v in self.by_colour.values())

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def elo(self) -> EloEstimate:
        return elo_estimate(self.wins, self.losses, self.draws)

    def sprt(self, spec: SprtSpec) -> SprtState:
        return sprt(self.wins, self.losses, self.draws, spec)

    def avg_time(self, who: int) -> float | None:
        return self.time_sum[who] / self.time_moves[who] if self.time_moves[who] else None


def score_games(engine_a: str, engine_b: str, games: list[StoredGame]) -> MatchScore:
    score = MatchScore(engine_a, engine_b)
    for g in games:
        score.add(g)
    return score


# --- running ------------------------------------------------------------------------------
ProgressFn = Callable[[MatchScore | None, int], None]     # (score of the game's match, done)


@dataclass
class MatchOutcome:
    plan: MatchPlan
    score: MatchScore
    requested: int
    resumed: int                     # games found in the store at the start
    sprt: SprtState | None = None


def run_match(plan: MatchPlan, games: int, store: Store, runner: Runner,
              sprt_spec: SprtSpec | None = None, progress: ProgressFn | None = None,
              ) -> MatchOutcome:
    """Play the games of ``plan`` the store lacks (indexes below ``games``), stopping early when
    the SPRT decides; returns the totals over every stored game of the match."""
    store.ensure_match(plan.info())
    stored = store.games(plan.key)
    score = score_games(plan.engine_a, plan.engine_b, stored)
    done = {g.idx for g in stored}
    outcome = MatchOutcome(plan, score, games, len(stored))
    if progress:
        progress(score, score.games)
    decided = sprt_spec is not None and score.sprt(sprt_spec).verdict is not None
    todo = [] if decided else [plan.task(i) for i in range(games) if i not in done]
    if todo:
        for g in runner.play(todo):
            if store.add_game(g):
                score.add(g)
            if progress:
                progress(score, score.games)
            if sprt_spec is not None and score.sprt(sprt_spec).verdict is not None:
                break
        for g in runner.drain():         # games already under way when the SPRT decided
            if store.add_game(g):
                score.add(g)
    if sprt_spec is not None:
        outcome.sprt = score.sprt(sprt_spec)
    return outcome


@dataclass
class TournamentOutcome:
    engines: list[str]
    matches: dict[tuple[int, int], MatchOutcome]
    ratings: list[Rating]
    points: np.ndarray               # points[i, j]: what i scored against j
    played: np.ndarray               # games between i and j

    def to_json(self) -> dict:
        return {"engines": self.engines,
                "ratings": [r.to_json() for r in sorted(self.ratings, key=lambda r: -r.elo)],
                "crosstable": [{"engine": e,
                                "vs": {self.engines[j]: {"points": float(self.points[i, j]),
                                                         "games": int(self.played[i, j])}
                                       for j in range(len(self.engines)) if j != i}}
                               for i, e in enumerate(self.engines)]}


def run_tournament(plans: dict[tuple[int, int], MatchPlan], engines: list[str], games: int,
                   store: Store, runner: Runner, progress: ProgressFn | None = None,
                   ) -> TournamentOutcome:
    """A round robin: ``plans[i, j]`` is the match of engines ``i < j``; all pairs' games are
    interleaved in one runner so every pair advances together."""
    by_key = {}
    todo: list[GameTask] = []
    done_total = 0
    for pair, plan in plans.items():
        store.ensure_match(plan.info())
        stored = store.games(plan.key)
        by_key[plan.key] = MatchOutcome(plan, score_games(plan.engine_a, plan.engine_b, stored),
                                        games, len(stored))
        done_total += len(stored)
        have = {g.idx for g in stored}
        todo.extend(plan.task(i) for i in range(games) if i not in have)
    todo.sort(key=lambda t: t.idx)            # round by round across the pairs
    if progress:
        progress(None, done_total)
    if todo:
        for g in runner.play(todo):
            m = by_key[g.match_key]
            if store.add_game(g):
                m.score.add(g)
                done_total += 1
            if progress:
                progress(None, done_total)
    k = len(engines)
    points, played = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), plan in plans.items():
        s = by_key[plan.key].score
        points[i, j] += s.wins + 0.5 * s.draws
        points[j, i] += s.losses + 0.5 * s.draws
        played[i, j] += s.games
        played[j, i] += s.games
    ratings = bradley_terry(engines, points, played)
    return TournamentOutcome(engines, {pair: by_key[p.key] for pair, p in plans.items()},
                             ratings, points, played)
