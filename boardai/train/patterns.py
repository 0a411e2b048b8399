"""Learn a game's move-pattern weights (``games/move_patterns.py``; Hex's are
``games/hex/patterns.py``) from the games in result stores.

Every move an engine chose in a stored game is one example: the pattern of the chosen cell
against the patterns of every legal cell of that position.  The weights are the generalized
Bradley-Terry model of Coulom ("Computing Elo ratings of move patterns in the game of Go",
2007) with one pattern per move: the chance of choosing move m among the legal ones is
gamma(m) / sum of gamma over the legal moves.  Minorization-maximization finds them: each
round sets

    gamma(p) = (wins(p) + 1) / (sum over positions of (cells with p) / (sum of gammas there)
                                 + 2 / (gamma(p) + 1))

where the ``+ 1`` and ``2 / (gamma + 1)`` are a prior of one win and one loss against a pattern
of weight 1 (so a pattern seen a few times stays near 1, the weight of a pattern never seen).

``boardai train patterns STORE... --out FILE`` runs it (``--player`` keeps only the moves of
engines whose spec starts so; by default every engine but ``gtp:`` programs, so an opponent
such as MoHex teaches nothing; a game's forced opening moves never count).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from boardai.arena.store import Store
from boardai.games.game import Game


@dataclass
class Examples:
    """Positions in flat arrays: the candidates of position j are ``cand[start[j]:start[j+1]]``
    (pattern numbers), its chosen move's pattern is ``chosen[j]``."""

    cand: np.ndarray
    start: np.ndarray
    chosen: np.ndarray
    game: np.ndarray              # the game each position comes from (0, 1, ...)

    @property
    def positions(self) -> int:
        return len(self.chosen)

    @property
    def games(self) -> int:
        return len(np.unique(self.game))

    def split(self, every: int) -> tuple["Examples", "Examples"]:
        """(the other games, every ``every``-th game): a test set of whole games."""
        test = self.game % every == 0
        return self._take(~test), self._take(test)

    def _take(self, keep: np.ndarray) -> "Examples":
        pos = np.flatnonzero(keep)
        lengths = np.diff(self.start)[pos]
        start = np.zeros(len(pos) + 1, dtype=np.int64)
        start[1:] = np.cumsum(lengths)
        idx = np.concatenate([np.arange(self.start[j], self.start[j + 1]) for j in pos]) \
            if len(pos) else np.zeros(0, dtype=np.int64)
        return Examples(self.cand[idx], start, self.chosen[pos], self.game[pos])


def _counts_player(spec: str, players: tuple[str, ...]) -> bool:
    if players:
        return any(spec.startswith(p) for p in players)
    return not spec.startswith("gtp:")


def examples_from_stores(game: Game, paths, players: tuple[str, ...] = (),
                         sizes=None) -> Examples:
    """The examples of every game of ``game`` in the stores at ``paths`` (``sizes``: keep only
    these board widths)."""
    number = game.move_patterns.number
    cand: list[np.ndarray] = []
    chosen: list[int] = []
    game_of: list[int] = []
    games = 0
    for path in paths:
        if not os.path.exists(path):
            raise ValueError(f"{path}: no such result store")
        with Store(path) as store:
            stored = [g for g in store.games() if g.game == game.name]
        for g in stored:
            if sizes and g.width not in sizes:
                continue
            board = game.board(g.width, g.height)
            forced = len(g.opening)
            used = False
            for ply, move in enumerate(g.moves):
                mover = g.black if ply % 2 == 0 else g.white
                if ply >= forced and move < g.width * g.height \
                        and _counts_player(mover, players) and not board.is_game_over():
                    legal = np.array([c for c in board.legal_moves if c < g.width * g.height],
                                     dtype=np.int64)
                    ids = np.array([number(board.state, int(c)) for c in legal], dtype=np.int64)
                    cand.append(ids)
                    chosen.append(int(ids[np.searchsorted(legal, move)]))
                    game_of.append(games)
                    used = True
                board.push(move)
            games += used
    if not chosen:
        raise ValueError(f"no {game.title} moves to learn from in " + ", ".join(map(str, paths))
                         + (f" (players {', '.join(players)})" if players else ""))
    start = np.zeros(len(cand) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(c) for c in cand])
    return Examples(np.concatenate(cand), start, np.array(chosen, dtype=np.int64),
                    np.array(game_of, dtype=np.int64))


def learn(ex: Examples, rounds: int = 30, progress=None) -> tuple[np.ndarray, np.ndarray, dict]:
    """Minorization-maximization on ``ex``: (pattern numbers, gammas, figures).  The figures
    give the mean log-likelihood of the chosen moves per round and how often the chosen move
    had the highest weight (ties split)."""
    ids, local = np.unique(np.concatenate([ex.cand, ex.chosen]), return_inverse=True)
    cand = local[:len(ex.cand)]
    chosen = local[len(ex.cand):]
    pos_of = np.repeat(np.arange(ex.positions), np.diff(ex.start))
    wins = np.bincount(chosen, minlength=len(ids)).astype(np.float64)
    gamma = np.ones(len(ids))
    history = []
    for r in range(rounds):
        total = np.bincount(pos_of, weights=gamma[cand], minlength=ex.positions)
        history.append(float(np.mean(np.log(gamma[chosen] / total))))
        seen = np.bincount(cand, weights=1.0 / total[pos_of], minlength=len(ids))
        gamma = (wins + 1.0) / (seen + 2.0 / (gamma + 1.0))
        if progress is not None:
            progress(r + 1, rounds)
    total = np.bincount(pos_of, weights=gamma[cand], minlength=ex.positions)
    history.append(float(np.mean(np.log(gamma[chosen] / total))))
    figures = {"positions": ex.positions, "games": ex.games, "patterns": int(len(ids)),
               "log_likelihood_rounds": history, **score(ex, _table(ids, gamma))}
    return ids, gamma, figures


def _table(ids: np.ndarray, gammas: np.ndarray) -> np.ndarray:
    """A table over the pattern numbers seen (weight 1 elsewhere), enough to score ``ex``."""
    table = np.ones(int(ids.max()) + 1 if len(ids) else 1)
    table[ids] = gammas
    return table


def score(ex: Examples, table: np.ndarray) -> dict:
    """How well ``table`` predicts the chosen moves of ``ex``: the mean log-likelihood (and
    that of a uniform choice), and how often the chosen move has the highest weight."""
    total = np.add.reduceat(table[ex.cand], ex.start[:-1])
    return {"log_likelihood": float(np.mean(np.log(table[ex.chosen] / total))),
            "uniform_log_likelihood": float(np.mean(-np.log(np.diff(ex.start)))),
            "top1": top1(ex, table)}


def top1(ex: Examples, table: np.ndarray) -> float:
    """How often the chosen move has the highest weight of its position (a tie of t moves
    counts 1/t)."""
    g = table[ex.cand]
    hits = 0.0
    for j in range(ex.positions):
        row = g[ex.start[j]:ex.start[j + 1]]
        best = row.max()
        if table[ex.chosen[j]] >= best:
            hits += 1.0 / np.count_nonzero(row >= best)
    return hits / ex.positions
