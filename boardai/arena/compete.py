"""A course referee's competition (``boardai compete``): rounds on drawn boards, both colours per
round, a result file in the referee's layout, every game in the arena's store.

Round ``i`` (1-based) is played on the ``i``-th board the game's draw gives from
``random.Random(seed)`` (width, height, blocked cells); its games are the store's indexes
``2(i-1)`` (A moves first, A is Black) and ``2(i-1)+1`` (B first).  A competition is one match
of the store: its key is hashed from the specs, the game, the draw, the seed and the move time
(not the number of rounds, so a longer run extends a shorter one), so running the same command
again plays only the games the store lacks.  Engines are told the move time less a margin
(``think_time``: 5 % of it, at most 0.1 s) as their time per move, so that a search's own
overshoot of a few milliseconds never takes a move past the move time (a spec's own ``time=``
stays); a move that takes longer than the move time plus ``grace`` loses on time.

The result file (rewritten whole, atomically, after every game)::

    1:
    1<TAB>0.004<TAB>0.003       code, A's and B's thinking seconds in the game (A first)
    2<TAB>0.003<TAB>0.004       (B first)
    2:
    ...
    A wins: 0.500               ratios over all 2*ROUNDS games, once every round is done
    B wins: 0.500
    draws: 0.000

Codes (``CODES``): 0 draw, 1 A wins, 2 B wins, 3 A crashed, 4 A illegal move, 5 B crashed,
6 B illegal move, 7 A timeout, 8 B timeout.  A round is listed once both its games are done.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass, field
from typing import Callable

from boardai._files import write_atomic
from boardai.arena.match import MatchScore, ProgressFn, score_games
from boardai.arena.runner import GameTask, Runner, game_seed
from boardai.arena.store import MatchInfo, Store, StoredGame
from boardai.engines.budget import margin
from boardai.games.setup import BoardSetup

Draw = Callable[[random.Random], tuple[int, int, tuple[tuple[int, int], ...]]]

CODES = {0: "draw", 1: "A wins", 2: "B wins", 3: "A crashed", 4: "A illegal move",
         5: "B crashed", 6: "B illegal move", 7: "A timeout", 8: "B timeout"}
FAULT_CODES = {"crash": (3, 5), "illegal move": (4, 6), "time forfeit": (7, 8)}  # (A, B) faulted
A_WINS = (1, 5, 6, 8)
B_WINS = (2, 3, 4, 7)


def think_time(move_time: float) -> float:
    """The time per move engines are told: the move time less its margin (``budget.margin``:
    5 % of it, at most 0.1 s)."""
    return move_time - margin(move_time)


@dataclass
class CompetePlan:
    """Everything that decides a competition's games; ``key`` identifies it in the store."""

    engine_a: str
    engine_b: str
    game: str
    boards: str                 # the draw's name (stored as the match's "openings")
    draw: Draw
    seed: int
    move_time: float
    grace: float
    log_dir: str | None = None
    _drawn: list = field(default_factory=list, repr=False)

    @property
    def key(self) -> str:
        ident = ["compete", self.engine_a, self.engine_b, self.game, self.boards, self.seed,
                 self.move_time]
        return hashlib.sha1(json.dumps(ident).encode()).hexdigest()[:16]

    def info(self) -> MatchInfo:
        """The store's match row: size 0x0 (each round has its own board)."""
        return MatchInfo(self.key, self.engine_a, self.engine_b, self.game, 0, 0, self.boards,
                         self.seed, {"kind": "compete", "move_time": self.move_time,
                                     "grace": self.grace})

    def board(self, round_no: int) -> BoardSetup:
        """The board of round ``round_no`` (1-based): the ``round_no``-th draw."""
        if not self._drawn:
            self._drawn.append(random.Random(self.seed))
        rng = self._drawn[0]
        while len(self._drawn) <= round_no:
            w, h, blocked = self.draw(rng)
            self._drawn.append(BoardSetup(self.game, w, h, False, tuple(map(tuple, blocked))))
        return self._drawn[round_no]

    def task(self, idx: int) -> GameTask:
        return GameTask(self.key, idx, self.engine_a, self.engine_b, idx % 2 == 0,
                        self.board(idx // 2 + 1), (), game_seed(self.seed, idx),
                        self.move_time + self.grace, self.log_dir,
                        move_time=think_time(self.move_time))


# --- the result file ------------------------------------------------------------------------
def result_code(g: StoredGame) -> int:
    """The referee's code of a stored game (``CODES``)."""
    if g.winner is None:
        return 0
    a_won = (g.winner == 0) == g.a_is_black
    if g.reason in FAULT_CODES:
        return FAULT_CODES[g.reason][1 if a_won else 0]
    return 1 if a_won else 2


def side_moves(g: StoredGame):
    """(side, seconds) of every move a game's engines made: side 0 is A, 1 is B (a move that
    faulted is not counted)."""
    a_colour = 0 if g.a_is_black else 1
    for j, t in enumerate(g.times):
        yield (0 if (len(g.opening) + j) % 2 == a_colour else 1), t


def side_times(g: StoredGame) -> tuple[float, float]:
    """Total thinking seconds of A and of B in a game."""
    out = [0.0, 0.0]
    for side, t in side_moves(g):
        out[side] += t
    return out[0], out[1]


def longest_moves(games) -> tuple[float, float]:
    """A's and B's longest move over ``games`` (seconds)."""
    out = [0.0, 0.0]
    for g in games:
        for side, t in side_moves(g):
            out[side] = max(out[side], t)
    return out[0], out[1]


def ratios(codes: list[int]) -> tuple[float, float, float]:
    """(A wins, B wins, draws) as fractions of the games (faults count for the other side)."""
    n = len(codes) or 1
    return (sum(c in A_WINS for c in codes) / n, sum(c in B_WINS for c in codes) / n,
            sum(c == 0 for c in codes) / n)


def result_text(games: dict[int, StoredGame], rounds: int) -> str:
    """The result file: every round both of whose games are stored, in order; the ratio lines
    once all ``rounds`` are."""
    lines = []
    codes = []
    done = 0
    for r in range(1, rounds + 1):
        pair = [games.get(2 * (r - 1)), games.get(2 * (r - 1) + 1)]
        if None in pair:
            continue
        done += 1
        lines.append(f"{r}:")
        for g in pair:
            a, b = side_times(g)
            codes.append(result_code(g))
            lines.append(f"{codes[-1]}\t{a:.3f}\t{b:.3f}")
    if done == rounds:
        a, b, d = ratios(codes)
        lines += [f"A wins: {a:.3f}", f"B wins: {b:.3f}", f"draws: {d:.3f}"]
    return "".join(line + "\n" for line in lines)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Replace ``path`` by ``text`` in one step (``_files.write_atomic``): the result file is
    always either the old or the new text."""
    write_atomic(path, text.encode("utf-8"))


# --- running --------------------------------------------------------------------------------
@dataclass
class CompeteOutcome:
    plan: CompetePlan
    rounds: int
    score: MatchScore
    games: dict[int, StoredGame]
    resumed: int                 # games found in the store at the start

    @property
    def codes(self) -> list[int]:
        return [result_code(self.games[i]) for i in sorted(self.games)]


def run_compete(plan: CompetePlan, rounds: int, store: Store, runner: Runner,
                result_file: str | os.PathLike, progress: ProgressFn | None = None,
                ) -> CompeteOutcome:
    """Play the games of rounds 1..``rounds`` the store lacks; the result file is rewritten
    after every game (and at the start, from what the store holds)."""
    store.ensure_match(plan.info())
    total = 2 * rounds
    games = {g.idx: g for g in store.games(plan.key) if g.idx < total}
    resumed = len(games)
    score = score_games(plan.engine_a, plan.engine_b, list(games.values()))
    write_text_atomic(result_file, result_text(games, rounds))
    if progress:
        progress(score, len(games))
    todo = [plan.task(i) for i in range(total) if i not in games]
    for g in runner.play(todo):
        if not store.add_game(g):       # another command stored it first: take theirs
            g = next(s for s in store.games(plan.key) if s.idx == g.idx)
        games[g.idx] = g
        score.add(g)
        write_text_atomic(result_file, result_text(games, rounds))
        if progress:
            progress(score, len(games))
    return CompeteOutcome(plan, rounds, score, games, resumed)
