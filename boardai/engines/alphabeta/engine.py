"""``minimax`` and ``alphabeta``: depth-bounded game-tree search with a static evaluator.

* ``minimax:depth=D,eval=NAME,seed=S`` is bounded minimax (in negamax form): every
  node searched, the root's equal best moves broken at random (seeded).
* ``alphabeta:depth=D|time=T,eval=NAME`` gives the same value at the same depth with far fewer
  nodes: alpha-beta cut-offs, iterative deepening (each iteration orders the root moves by the
  previous one's scores: a shallow exploratory search, repeated), a transposition table
  keyed by the kernel's Zobrist hash, killer and history heuristics.  Under ``time=T`` it deepens
  until the time is up (a timer abandons the running iteration; the last finished one answers:
  an adaptive depth with a hard budget).

Both run the jitted negamax of ``kernel.py`` beside this module and the evaluators of the game
being played (``boardai engines`` lists them; ``eval`` defaults to the game's best).
"""

from __future__ import annotations

import math
import random
import threading

import numpy as np

from boardai.engines.alphabeta import kernel as AK
from boardai.engines.base import (
    Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool, seed_option,
)
from boardai.games import all_games, game_of, get_game
from boardai.games import kernel as K
from boardai.games.base import Board
from boardai.games.layout import HASH, NUM_ACTIONS

DEFAULT_TIME = 1.0
MAX_TT_MB = 4096          # the table is touched when made (pages faulted in before the clock)


def evaluator_id(game: str, name: str | None) -> int:
    """The evaluator number of ``name`` for ``game`` (None: the game's default)."""
    return get_game(game).evaluator(name).id


def _eval_help() -> str:
    """The ``eval`` option's help: every evaluator of every game with what it rewards."""
    parts = []
    for game in all_games().values():
        if game.evaluators:
            names = "; ".join(f"{e.name}{' (default)' if e.name == game.default_evaluator else ''}"
                              f": {e.what}" for e in game.evaluators)
            parts.append(f"{game.name} -- {names}")
    return "static evaluator. " + ". ".join(parts)


def _eval_names() -> str:
    """Every game's evaluator names, for the ``eval`` option's range."""
    return "|".join(sorted({e.name for g in all_games().values() for e in g.evaluators}))


def _check_eval(text: str) -> str:
    name = text.strip().lower()
    known = sorted({e.name for g in all_games().values() for e in g.evaluators})
    if name not in known:
        raise ValueError(f"unknown evaluator {text!r}: choose from {', '.join(known)}")
    return name


def value_of(score: float) -> float:
    """A search score as the protocol's value in [-1, 1] (proven results are +-1)."""
    if abs(score) >= AK.WIN - 10_000:
        return 1.0 if score > 0 else -1.0
    return math.tanh(score / 100.0) + 0.0        # + 0.0: a draw is 0.0, never -0.0


class _Search:
    """The arrays of one search (kept between moves: the table and history stay useful)."""

    def __init__(self, board: Board, tt_entries: int):
        self.key = (board.game_name, board.width, board.height)
        self.tables = AK.new_tables(board.state[NUM_ACTIONS], tt_entries)
        self.aux = game_of(board).eval_aux(board.width, board.height)
        self.ctx = np.zeros(AK.CTX_LEN, dtype=np.int64)

    def root(self, state, depth, moves, vals) -> int:
        tt, ttv, killers, history, mv, sc = self.tables
        return AK.search_root(state, depth, moves, vals, self.ctx, self.aux, tt, ttv, killers,
                              history, mv, sc)


class _DepthSearchEngine(Engine):
    """What minimax and alphabeta share: evaluator choice, tables, result building."""

    prune = True

    def __init__(self, **opts):
        super().__init__(**opts)
        self._search: _Search | None = None
        self.last_stats: dict = {}

    def _tables(self, board: Board) -> _Search:
        key = (board.game_name, board.width, board.height)
        if self._search is None or self._search.key != key:
            # minimax never reads the table: the smallest one (new_tables' floor) will do
            mb = int(self.opts.get("tt_mb") or 16) if self.prune else 0
            try:
                self._search = _Search(board, mb * 1024 * 1024 // 32)
            except MemoryError:
                raise MemoryError(f"{self.name}: cannot allocate a transposition table of {mb} "
                                  "MiB: lower tt_mb") from None
        _load_kernels(self._search, board)
        return self._search

    def _ctx(self, search: _Search, board: Board, tt: bool, order: bool) -> None:
        ctx = search.ctx
        ctx[:] = 0
        ctx[AK.PRUNE] = int(self.prune)
        ctx[AK.TT_ON] = int(tt)
        ctx[AK.ORDER] = int(order)
        ctx[AK.EVAL] = evaluator_id(board.game_name, self.opts.get("eval"))

    def _result(self, board, moves, vals, best_i, depth, nodes, clock, pv_from_tt=None):
        elapsed = clock()
        score = float(vals[best_i])
        best = int(moves[best_i])
        infos = [MoveInfo(int(m), board.move_name(int(m)), None, value_of(float(v)), None)
                 for m, v in sorted(zip(moves, vals), key=lambda mv: -mv[1])]
        pv = pv_from_tt or [board.move_name(best)]
        info = {"score": score, "nps": nodes / max(elapsed, 1e-9),
                "eval": self.opts.get("eval") or game_of(board).default_evaluator}
        if abs(score) >= AK.WIN - 10_000:
            info["proven"] = "win" if score > 0 else "loss"
            info["game_ends_at_ply"] = int(AK.WIN - abs(score))
        result = PlayResult(best, board.move_name(best), value=value_of(score), pv=pv,
                            nodes=int(nodes), depth=depth, time_s=elapsed, moves=infos, info=info)
        self.last_stats = info
        return result

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        return self.analyse(board, limit)


class MinimaxEngine(_DepthSearchEngine):
    name = "minimax"
    summary = ("bounded minimax: every node to a fixed depth, a static evaluator at "
               "the leaves, equal best moves broken at random")
    limit_options = ("depth",)
    warm_limit = Limit(depth=1)
    prune = False
    options = (
        Option("eval", _check_eval, None, _eval_help(), what=_eval_names()),
        seed_option("random seed for the choice among equal best moves"),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        seed = opts.get("seed")
        self._rng = random.Random(seed)

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        search = self._tables(board)
        clock = Stopwatch()
        limit = self._limit(limit)
        depth = int(limit.depth or 2)
        self._ctx(search, board, tt=False, order=False)
        moves = np.array(list(board.legal_moves), dtype=np.int64)
        vals = np.zeros(len(moves))
        search.root(board.state.copy(), depth, moves, vals)
        top = vals.max()
        ties = [i for i in range(len(moves)) if vals[i] == top]
        best_i = self._rng.choice(ties)
        return self._result(board, moves, vals, best_i, depth, int(search.ctx[AK.NODES]), clock)


class AlphaBetaEngine(_DepthSearchEngine):
    name = "alphabeta"
    summary = ("alpha-beta negamax with iterative deepening under a time budget, transposition "
               "table, killer/history move ordering and the game's static evaluator")
    limit_options = ("time", "depth")
    warm_limit = Limit(depth=1)
    options = (
        Option("eval", _check_eval, None, _eval_help(), what=_eval_names()),
        Option("tt_mb", int, 16, "transposition table size in MiB (32 bytes an entry; rounded "
               "up to a power of two)", min=1, max=MAX_TT_MB),
        Option("tt", parse_bool, True, "use the transposition table"),
        Option("order", parse_bool, True, "move ordering (TT move, killers, history, centre)"),
        Option("id", parse_bool, True, "iterative deepening (with depth=D: depths 1..D)"),
    )

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        search = self._tables(board)
        clock = Stopwatch()                            # after loading: the budget is for search
        limit = self._limit(limit)
        seconds = limit.time if limit.time is not None else (None if limit.depth else DEFAULT_TIME)
        free = int(K.free_cells(board.state))          # no search is deeper than the game
        # deeper than the game changes nothing (+1: a swap move fills no cell)
        max_depth = min(int(limit.depth), free + 1) if limit.depth else max(1, free)
        self._ctx(search, board, tt=bool(self.opts.get("tt", True)),
                  order=bool(self.opts.get("order", True)))
        search.tables[2][:] = -1                       # killers belong to one search
        search.tables[3][:] //= 8                      # history fades between moves
        moves = np.array(list(board.legal_moves), dtype=np.int64)
        if self.opts.get("order", True):
            prior = [K.move_prior(board.state, int(m)) for m in moves]
            moves = moves[np.argsort(prior, kind="stable")[::-1]]
        vals = np.zeros(len(moves))
        timer = None
        if seconds is not None:
            timer = threading.Timer(max(0.0, seconds - 0.005), self._stop, args=(search,))
            timer.daemon = True
            timer.start()
        depths = range(1, max_depth + 1) if self.opts.get("id", True) else [max_depth]
        done_depth, best_i, best_vals = 0, 0, None
        state = board.state.copy()
        finished = threading.Event()
        if self.stop is not None:                      # a live front-end may stop us early
            stop = self.stop
            threading.Thread(target=self._stop_on, args=(stop, finished, search),
                             daemon=True).start()
        on_info = self.on_info
        try:
            for d in depths:
                i = search.root(state, d, moves, vals)
                if i < 0:                              # abandoned: keep the last finished one
                    state = board.state.copy()         # its moves were not all undone
                    break
                done_depth, best_vals = d, vals.copy()
                order = np.argsort(-vals, kind="stable")   # best first for the next iteration
                moves, vals = moves[order], vals[order]
                best_i = 0
                if abs(best_vals[i]) >= AK.WIN - 10_000:   # proven: deeper changes nothing
                    break
                if on_info is not None:                # each finished depth is a snapshot
                    on_info(self._result(board, moves, np.sort(best_vals)[::-1], 0, d,
                                         int(search.ctx[AK.NODES]), clock,
                                         self._pv(board, search, int(moves[0]), d)))
        finally:
            finished.set()
            if timer is not None:
                timer.cancel()
        if best_vals is None:                          # not even depth 1 finished
            best_vals = np.zeros(len(moves))
            done_depth = 0
        else:
            best_vals = np.sort(best_vals)[::-1]
        pv = self._pv(board, search, int(moves[best_i]), done_depth)
        return self._result(board, moves, best_vals, best_i, done_depth,
                            int(search.ctx[AK.NODES]), clock, pv)

    @staticmethod
    def _stop(search: _Search) -> None:
        search.ctx[AK.STOP] = 1

    @classmethod
    def _stop_on(cls, stop: threading.Event, finished: threading.Event, search: _Search) -> None:
        """Abandon the search once ``stop`` is set (checked every 10 ms until it finishes)."""
        while not finished.is_set():
            if stop.wait(0.01):
                cls._stop(search)
                return

    def _pv(self, board: Board, search: _Search, best: int, depth: int) -> list[str]:
        """The principal variation: the best move, then the table's moves."""
        replay = board.copy()
        names = [board.move_name(best)]
        replay.push(best)
        tt = search.tables[0]
        for _ in range(max(0, depth - 1)):
            if replay.is_game_over():
                break
            key = int(replay.state[HASH])
            slot = key & (tt.shape[0] - 1)
            if tt[slot, 2] == 0 or tt[slot, 0] != key:
                break
            m = int(tt[slot, 2] >> 10) - 1
            if m < 0 or not replay.is_legal(m):
                break
            names.append(replay.move_name(m))
            replay.push(m)
        return names


_LOADED: set[str] = set()


def _load_kernels(search: _Search, board: Board) -> None:
    """Load (or compile) the jitted search and the game's evaluators once per process.

    Loading numba's cache takes a moment in a new process, compiling it (first run after an
    install) much longer; neither belongs inside a move's time budget.
    """
    if board.game_name in _LOADED:
        return
    state = board.state.copy()
    moves = np.array(list(board.legal_moves)[:1], dtype=np.int64)
    if len(moves):
        search.ctx[:] = 0
        search.root(state, 1, moves, np.zeros(1))
        for ev in game_of(board).evaluators:
            K.evaluate(state, ev.id, search.aux)
    _LOADED.add(board.game_name)


__all__ = ["AlphaBetaEngine", "MinimaxEngine", "evaluator_id", "value_of"]
