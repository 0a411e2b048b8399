"""``montecarlo``: flat Monte Carlo: random playouts after every legal move.

Every legal move is played and followed by ``sims`` uniformly random playouts (the kernel's
``playout``, or ``playout_quality`` for the quality score); the move with the best score
is played.  Scores, from the mover's view:

* ``score=winrate``: wins / playouts, a draw counting 1/2;
* ``score=quality`` (short wins count more, quick losses weigh more): each playout gives +1/L
  if the mover wins and -1/L if it loses, L being the length of the win (Hex: cells of the
  winner's shortest chain on the filled board; Connect Four: moves from the position before
  the candidate to the end of the game); the estimated win probability is
  mean(q+) / (mean(q+) + mean(q-)).

``cut`` (on by default) stops spending playouts on moves that cannot be the best, by
statistics: playouts are played in ten rounds, and after each round a move whose 95% upper
confidence bound lies under the best move's lower bound gets no more playouts
(``kernel.score_bounds`` gives the bounds).  ``time=T`` plays rounds of playouts for every live
move until T seconds are up (``sims`` is then ignored; the cut still drops hopeless moves after
each round): the form to compare with ``mcts`` at equal time.  ``sims=auto`` is a bell curve
over the empty cells (``auto_sims``).  ``bf_below=K`` switches to the exact ``bruteforce``
computation when fewer than K cells are empty (if that refuses, flat Monte Carlo runs and
``info["bf_refused"]`` says why); ``info["method"]`` tells which one ran.

The playouts run in numba (``kernel.mc_round``) with the GIL released; ``threads``
splits the candidates between Python threads.  Each candidate has its own random stream drawn
from ``seed``, the position and the move, so a seed gives the same move whatever the threads.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from boardai.engines.rollout import kernel as RK
from boardai.engines.base import (
    Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool, seed_option, threads_option,
)
from boardai.engines.rollout.bruteforce import exact_scores, result_from_scores
from boardai.games import kernel as K
from boardai.games.base import Board
from boardai.games.layout import HASH

DEFAULT_SIMS = 1000
ROUNDS = 10              # with cut: the playouts of a move come in this many rounds
MIN_ROUND = 50           # ... of at least this many playouts each
TIMED_ROUND = 32         # with a time budget: playouts per live move between two looks at the clock
Z95 = 1.959963984540054  # two-sided 95% normal quantile
AUTO_FACTOR = 25         # sims=auto: playouts per cell of the board at the peak
AUTO_MIN = 100           # sims=auto: never fewer playouts per move
_M64 = (1 << 64) - 1
MAX_SIMS = 10**9         # playouts per candidate move
MAX_BF_BELOW = 1000      # more than any board's cells (26x26 Hex: 676)


def parse_sims(text) -> int | str:
    """``auto`` or a positive number of playouts per move."""
    t = str(text).strip().lower()
    if t == "auto":
        return "auto"
    n = int(t)
    if not 1 <= n <= MAX_SIMS:
        raise ValueError(f"sims must be auto or an integer from 1 to {MAX_SIMS}, not {n}")
    return n


parse_sims.__name__ = "int or auto"


def auto_sims(total_cells: int, free: int) -> int:
    """Playouts per move for ``sims=auto``: a bell curve over the number of empty cells.

    ``max(100, 25*T * exp(-(free - 7T/8)**2 / (2T)))`` with T the board's cells (``7T/8`` in
    integer arithmetic): the peak (25 playouts per cell of the board) comes
    after the first eighth of the board is filled, fewer at the very start (the search would be
    slow and the choice matters less) and towards the end, never under 100.  11x11 empty: 1050,
    peak 3025 at 105 empty cells; 9x9 empty: 959; Connect Four 7x6 empty: 684.
    """
    center = float(7 * total_cells // 8)
    runs = AUTO_FACTOR * total_cells * math.exp(-0.5 * (center - free) ** 2 / total_cells)
    return max(AUTO_MIN, int(runs))


def _stream_seed(base: int, position: int, move: int) -> int:
    """A candidate's own random stream: a mix of the engine seed, the position and the move."""
    return (base * 0x9E3779B97F4A7C15 + (position & _M64) * 0xD1B54A32D192ED03
            + (move + 1) * 0xBF58476D1CE4E5B9) & _M64


class MonteCarloEngine(Engine):
    name = "montecarlo"
    summary = ("flat Monte Carlo: random playouts after every move, best "
               "win ratio or quality; statistical early cut of hopeless moves")
    limit_options = ("time",)  # Limit.sims, when a caller gives one, is playouts per move
    warm_limit = Limit(sims=2)
    options = (
        Option("sims", parse_sims, DEFAULT_SIMS, "playouts per candidate move, or auto (a "
               "bell curve: most in the early middle game, at least 100)", min=1,
               max=MAX_SIMS, also=("auto",)),
        Option("score", str, "winrate", "winrate (win ratio) or quality (+-1/length of the win)",
               choices=("winrate", "quality")),
        Option("cut", parse_bool, True, "play in rounds; drop a move whose 95% upper bound is "
               "under the best move's lower bound"),
        Option("bf_below", int, 0, "exact bruteforce when fewer than this many cells are "
               "empty (0 = never)", min=0, max=MAX_BF_BELOW),
        threads_option(1, "threads sharing the candidate moves"),
        seed_option("random seed (same seed and sims, same move)"),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        sims = opts.get("sims", DEFAULT_SIMS)
        self.sims = parse_sims(sims if sims is not None else DEFAULT_SIMS)
        self.default_limit = Limit(time=opts.get("time"))   # its own sims option is not a Limit
        self.score = opts.get("score") or "winrate"
        if self.score not in ("winrate", "quality"):
            raise ValueError(f"score must be winrate or quality, not {self.score!r}")
        self.mode = RK.WINRATE if self.score == "winrate" else RK.QUALITY
        self.cut = bool(opts.get("cut", True))
        self.bf_below = int(opts.get("bf_below") or 0)
        self.threads = int(opts.get("threads") or 1)
        seed = opts.get("seed")
        self._seed = int(seed) if seed is not None else None
        self._pool: ThreadPoolExecutor | None = None
        self.last_stats: dict = {}

    def _get_pool(self) -> ThreadPoolExecutor | None:
        if self.threads > 1 and self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.threads)
        return self._pool

    def sims_for(self, board: Board, limit: Limit | None = None) -> int:
        """Playouts per candidate for this position (a caller's Limit.sims wins)."""
        if limit is not None and limit.sims is not None:
            return max(1, int(limit.sims))
        if self.sims == "auto":
            return auto_sims(board.width * board.height, int(K.free_cells(board.state)))
        return int(self.sims)

    # --- search -------------------------------------------------------------------------
    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        refused = None
        if self.bf_below > 0 and int(K.free_cells(board.state)) < self.bf_below:
            try:
                scores, info = exact_scores(board, self.score, self.threads, None, True,
                                            self._get_pool())
            except ValueError as exc:
                refused = str(exc)
            else:
                nodes = info.get("fillins_counted", info.get("positions_expanded", 0))
                result = result_from_scores(board, scores, info, clock, nodes)
                self.last_stats = result.info
                return result
        limit = self._limit(limit)
        if limit.time is not None and limit.sims is None:
            # a time budget: rounds of playouts for every live move until the time is up
            result = self._monte_carlo(board, 1 << 62, clock, clock.start + limit.time - 0.002)
        else:
            result = self._monte_carlo(board, self.sims_for(board, limit), clock)
        if refused is not None:
            result.info["bf_refused"] = refused
        self.last_stats = result.info
        return result

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        return self.analyse(board, limit)

    def _monte_carlo(self, board: Board, sims: int, clock: Stopwatch,
                     deadline: float | None = None) -> PlayResult:
        state = board.state.copy()
        cands = np.array(list(board.legal_moves), dtype=np.int64)
        nc = len(cands)
        if self._seed is not None:
            base = self._seed
        else:
            base = int(np.random.SeedSequence().entropy) & _M64
        position = int(state[HASH])
        rngs = np.array([_stream_seed(base, position, int(m)) for m in cands], dtype=np.uint64)
        stats = np.zeros((nc, RK.NSTATS))
        bounds = np.zeros((nc, 3))
        alive = np.ones(nc, dtype=bool)
        if deadline is not None:
            step = TIMED_ROUND                # short rounds, the clock checked between them
        else:
            step = max(MIN_ROUND, -(-sims // ROUNDS)) if self.cut else sims
        done = rounds = 0
        pool = self._get_pool()
        while done < sims and (deadline is None or rounds == 0 or time.perf_counter() < deadline):
            count = min(step, sims - done)
            which = np.flatnonzero(alive).astype(np.int64)
            if pool is not None and len(which) > 1:
                parts = [which[t::self.threads] for t in range(self.threads)]
                futures = [pool.submit(RK.mc_round, state, cands, p, count, rngs, stats, self.mode)
                           for p in parts if len(p)]
                for f in futures:
                    f.result()
            else:
                RK.mc_round(state, cands, which, count, rngs, stats, self.mode)
            done += count
            rounds += 1
            RK.score_bounds(stats, Z95, bounds)
            if self.cut and done < sims:
                live = np.flatnonzero(alive)
                best = live[np.argmax(bounds[live, 0])]
                alive &= bounds[:, 2] >= bounds[best, 1]
                alive[best] = True
                if alive.sum() == 1:
                    break
        live = np.flatnonzero(alive)
        best = int(live[np.argmax(bounds[live, 0])])
        playouts = int(stats[:, RK.N].sum())
        infos = []
        for i in np.argsort(-bounds[:, 0], kind="stable"):
            m = int(cands[i])
            wr = float(bounds[i, 0])
            infos.append(MoveInfo(m, board.move_name(m), int(stats[i, RK.N]), 2 * wr - 1, wr))
        score = float(bounds[best, 0])
        elapsed = clock()
        move = int(cands[best])
        info = {"method": "montecarlo", "score": self.score, "sims": done, "playouts": playouts,
                "rounds": rounds, "moves_cut": int(nc - alive.sum()), "threads": self.threads,
                "winrate": float(stats[best, RK.SW] / max(stats[best, RK.N], 1)),
                "ci95": [float(bounds[best, 1]), float(bounds[best, 2])],
                "playouts_per_s": playouts / max(elapsed, 1e-9)}
        return PlayResult(move, board.move_name(move), value=2 * score - 1,
                          pv=[board.move_name(move)], nodes=playouts, time_s=elapsed,
                          moves=infos, info=info)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


__all__ = ["MonteCarloEngine", "auto_sims", "parse_sims"]
