"""``bruteforce``: the exact expected result of uniformly random play after every move.

For each legal move it computes what flat Monte Carlo (``montecarlo``) only estimates: the
result of uniformly random play from the position after the move, as the mover's win ratio
(``score=winrate``, a draw counting 1/2) or as the quality ratio (``score=quality``: +1/L for a
win and -1/L for a loss, L the length of the win, summed separately; the score is
sum(q+) / (sum(q+) + sum(q-))).

* **Fill-in games (Hex).**  Random play is a random split of the k empty cells, the side to
  move after the candidate (the opponent) receiving ceil(k/2); so the exact value is a count over
  all C(k, ceil(k/2)) fill-ins.  ``kernel.fillin_task`` enumerates them depth-first and
  closes a subtree as soon as one side connects (every completion is then its win: one binomial
  coefficient).  Work is split into tasks (candidate x the colours of its first two cells) run
  on ``threads`` threads; on a position that is its own 180-degree rotation, a move and its
  rotated image are computed once (``symmetry``).
* **Other games (Connect Four).**  Gravity makes the order matter, so the value is computed by
  recursion over the kernel contract (``kernel.random_play_value``: mean of the
  children, transposition table on the Zobrist hash), candidates split over threads, a
  left-right symmetric position computing mirrored columns once.

A position too big is refused with a ``ValueError`` that names the work it would take and the
limit (``max_fillins``): fill-ins for Hex (default 5e9), positions for Connect Four (an upper
bound; default 1e7).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from boardai.engines.rollout import kernel as RK
from boardai.engines.base import (
    Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool, threads_option,
)
from boardai.games import kernel as K
from boardai.games.base import Board

DEFAULT_MAX_FILLINS = 5e9        # Hex: fill-ins over all candidates (the empty 5x5 needs 6.8e7)
DEFAULT_MAX_POSITIONS = 1e7      # Connect Four: bound on the positions the recursion may visit
MAX_MAX_FILLINS = 1e18           # the work bound's own ceiling (far beyond any finishing run)
TABLE_BITS = (10, 21)            # transposition table: 2**10 .. 2**21 entries per thread
_BINOM = np.array([[math.comb(n, k) for k in range(64)] for n in range(64)], dtype=np.int64)


@dataclass
class ExactScore:
    """The exact statistics of one candidate move (mover's view)."""

    move: int
    score: float           # what the engine maximises: win ratio or quality ratio
    winrate: float         # exact win ratio (a draw counts 1/2)
    fillins: int | None    # Hex: fill-ins counted; None for the recursive computation
    wins: float = 0.0      # Hex: winning fill-ins; otherwise the win probability
    quality_win: float = 0.0
    quality_loss: float = 0.0


def _score_mode(score: str) -> int:
    if score not in ("winrate", "quality"):
        raise ValueError(f"score must be winrate or quality, not {score!r}")
    return RK.WINRATE if score == "winrate" else RK.QUALITY


def _after(board: Board, move: int) -> np.ndarray:
    b = board.copy()
    b.push(move)
    return b.state


def fillin_work(board: Board) -> tuple[int, list[tuple[int, int]]] | None:
    """For a fill-in game: (total fill-ins over all candidates, [(move, k free cells after)]);
    None if the game is not a fill-in game."""
    out = np.empty(board.num_actions, dtype=np.int64)
    if K.fill_cells(board.state, out) < 0:
        return None
    per = []
    for m in board.legal_moves:
        st = _after(board, m)
        per.append((m, int(K.fill_cells(st, out))))
    total = sum(math.comb(k, k // 2) for _, k in per)
    return total, per


def position_bound(board: Board) -> int:
    """Upper bound on the positions random play can reach from ``board`` (recursive method).

    With column heights (Connect Four): sum over d of (ways to add d stones to the columns) x
    C(d, ceil(d/2)) colourings.  Otherwise the same count without gravity, over the free cells.
    """
    free = int(K.free_cells(board.state))
    if hasattr(board, "column_height"):
        poly = [1]
        for c in range(board.width):
            cap = board.height - board.column_height(c)
            new = [0] * (len(poly) + cap)
            for i, a in enumerate(poly):
                for j in range(cap + 1):
                    new[i + j] += a
            poly = new
    else:
        poly = [math.comb(free, d) for d in range(free + 1)]
    return sum(poly[d] * math.comb(d, (d + 1) // 2) for d in range(1, len(poly)))


def _unique_moves(board: Board, moves: list[int], symmetry: bool) -> tuple[list[int], dict[int, int], bool]:
    """Representatives to compute and the map move -> representative."""
    sym = bool(symmetry) and bool(K.position_symmetric(board.state))
    rep: dict[int, int] = {}
    unique: list[int] = []
    legal = set(moves)
    for m in moves:
        r = m
        if sym:
            img = int(K.symmetric_move(board.state, m))
            if img in legal:
                r = min(m, img)
        rep[m] = r
        if r == m:
            unique.append(m)
    return unique, rep, sym


def exact_scores(board: Board, score: str = "winrate", threads: int = 2,
                 max_fillins: float | None = None, symmetry: bool = True,
                 pool: ThreadPoolExecutor | None = None) -> tuple[list[ExactScore], dict]:
    """Exact random-play statistics of every legal move of ``board`` (see the module doc).

    Raises ValueError when the work exceeds ``max_fillins`` (fill-ins for Hex, positions for
    the recursive method).  Returns the per-move scores (legal-move order) and facts for
    ``PlayResult.info``.
    """
    mode = _score_mode(score)
    threads = max(1, int(threads))
    moves = list(board.legal_moves)
    if not moves:
        raise ValueError("bruteforce: the game is over, there is no move to score")
    unique, rep, sym = _unique_moves(board, moves, symmetry)
    work = fillin_work(board)
    own_pool = pool is None and threads > 1
    if own_pool:
        pool = ThreadPoolExecutor(max_workers=threads)
    try:
        if work is not None:
            scores, info = _fillin_scores(board, mode, threads, max_fillins, work, unique, pool)
        else:
            scores, info = _recursive_scores(board, mode, threads, max_fillins, unique, pool)
    finally:
        if own_pool:
            pool.shutdown(wait=True)
    info.update({"method": "bruteforce", "score": score, "symmetric": sym,
                 "computed_moves": len(unique), "threads": threads})
    out = []
    for m in moves:
        s = scores[rep[m]]
        out.append(ExactScore(m, s.score, s.winrate, s.fillins, s.wins, s.quality_win,
                              s.quality_loss))
    return out, info


def _fillin_scores(board, mode, threads, max_fillins, work, unique, pool):
    total, per = work
    limit = DEFAULT_MAX_FILLINS if max_fillins is None else float(max_fillins)
    if total > limit:
        ks = sorted({k for _, k in per})
        shape = f"C({ks[0]},{ks[0] // 2})" if len(ks) == 1 else "C(k, k/2)"
        raise ValueError(
            f"bruteforce: this position needs {total:.3g} fill-ins ({len(per)} moves x {shape}), "
            f"over the limit max_fillins={limit:.3g}; use it on a smaller board or later in the "
            f"game (or raise max_fillins)")
    kfree = dict(per)
    state = board.state.copy()
    rank = np.empty(board.num_actions, dtype=np.int64)
    K.fill_rank(state, rank)
    # tasks: (move, prefix length, prefix bits); two prefix cells give four tasks per move
    depth = 0 if threads == 1 else 2
    tasks = []
    for m in unique:
        d = min(depth, kfree[m])
        for bits in range(1 << d):
            tasks.append((m, d, bits))

    def run(task):
        m, d, bits = task
        counts = np.zeros(3, dtype=np.int64)
        sums = np.zeros(2)
        RK.fillin_task(state, m, rank, d, bits, mode, _BINOM, counts, sums)
        return counts, sums

    results = list(pool.map(run, tasks)) if pool is not None and threads > 1 else [run(t) for t in tasks]
    acc: dict[int, list] = {m: [0, 0, 0.0, 0.0] for m in unique}
    visited = 0
    for (m, _, _), (counts, sums) in zip(tasks, results):
        visited += int(counts[2])
        a = acc[m]
        a[0] += int(counts[0])
        a[1] += int(counts[1])
        a[2] += float(sums[0])
        a[3] += float(sums[1])
    scores = {}
    for m, (wins, losses, qw, ql) in acc.items():
        n = wins + losses
        winrate = wins / n
        if mode == RK.WINRATE:
            sc = winrate
        else:
            sc = qw / (qw + ql) if qw + ql > 0 else 0.5
        scores[m] = ExactScore(m, sc, winrate, n, wins, qw, ql)
    counted = sum(math.comb(kfree[m], kfree[m] // 2) for m in unique)
    return scores, {"fillins": total, "fillins_counted": counted, "nodes_visited": visited}


def _recursive_scores(board, mode, threads, max_fillins, unique, pool):
    bound = position_bound(board)
    limit = DEFAULT_MAX_POSITIONS if max_fillins is None else float(max_fillins)
    if bound > limit:
        raise ValueError(
            f"bruteforce: random play from this position may reach up to {bound:.3g} positions "
            f"({int(K.free_cells(board.state))} empty cells), over the limit "
            f"max_fillins={limit:.3g}; use it later in the game (or raise max_fillins)")
    bits = min(max(TABLE_BITS[0], (2 * bound).bit_length()), TABLE_BITS[1])
    root_ply = board.ply
    mover = int(board.turn)
    groups = [unique[i::threads] for i in range(threads)]
    groups = [g for g in groups if g]

    def run(group):
        keys = np.zeros(1 << bits, dtype=np.int64)
        used = np.zeros(1 << bits, dtype=np.bool_)
        vals = np.zeros((1 << bits, 4))
        counter = np.zeros(1, dtype=np.int64)
        res = []
        for m in group:
            out = np.zeros(4)
            RK.random_play_value(_after(board, m), root_ply, keys, used, vals, counter, out)
            res.append((m, out))
        return res, int(counter[0])

    outs = list(pool.map(run, groups)) if pool is not None and len(groups) > 1 else [run(g) for g in groups]
    scores = {}
    expanded = 0
    for res, cnt in outs:
        expanded += cnt
        for m, out in res:
            winrate = float(out[mover])
            qw, ql = float(out[2 + mover]), float(out[3 - mover])
            if mode == RK.WINRATE:
                sc = winrate
            else:
                sc = qw / (qw + ql) if qw + ql > 0 else 0.5
            scores[m] = ExactScore(m, sc, winrate, None, winrate, qw, ql)
    return scores, {"positions_bound": bound, "positions_expanded": expanded}


def result_from_scores(board: Board, scores: list[ExactScore], info: dict, clock: Stopwatch,
                       nodes: int) -> PlayResult:
    """The PlayResult of a scored move list: the best score wins, ties to the first move."""
    best = max(scores, key=lambda s: s.score)
    infos = [MoveInfo(s.move, board.move_name(s.move), s.fillins, 2 * s.score - 1, s.score)
             for s in sorted(scores, key=lambda s: -s.score)]
    info = dict(info)
    info["winrate"] = best.winrate          # exact win ratio of the chosen move (any score)
    return PlayResult(best.move, board.move_name(best.move), value=2 * best.score - 1,
                      pv=[board.move_name(best.move)], nodes=nodes, time_s=clock(),
                      moves=infos, info=info)


class BruteForceEngine(Engine):
    name = "bruteforce"
    summary = ("exact expected result of uniformly random play after each move (every "
               "fill-in on Hex); small boards and endgames only")
    options = (
        Option("score", str, "winrate", "winrate (win ratio) or quality (+-1/length of the win)",
               choices=("winrate", "quality")),
        threads_option(2, "threads sharing the enumeration"),
        Option("max_fillins", float, None, "refuse above this much work: fill-ins on Hex "
               f"(default {DEFAULT_MAX_FILLINS:.0e}), positions on Connect Four "
               f"(default {DEFAULT_MAX_POSITIONS:.0e})", min=1, max=MAX_MAX_FILLINS),
        Option("symmetry", parse_bool, True, "on a symmetric position (Hex: 180-degree rotation, "
               "Connect Four: mirror) compute a move and its image once"),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        self.threads = int(opts.get("threads") or 2)
        self._pool: ThreadPoolExecutor | None = None
        self.last_stats: dict = {}

    def _get_pool(self) -> ThreadPoolExecutor | None:
        if self.threads > 1 and self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.threads)
        return self._pool

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        scores, info = exact_scores(board, self.opts.get("score") or "winrate", self.threads,
                                    self.opts.get("max_fillins"), self.opts.get("symmetry", True),
                                    self._get_pool())
        nodes = info.get("fillins_counted", info.get("positions_expanded", 0))
        result = result_from_scores(board, scores, info, clock, nodes)
        result.info["seconds"] = result.time_s
        self.last_stats = result.info
        return result

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        return self.analyse(board, limit)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


__all__ = ["BruteForceEngine", "ExactScore", "exact_scores", "fillin_work", "position_bound"]
