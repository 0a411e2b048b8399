"""``mcts``: the Monte Carlo tree search engine (Python face of ``kernel.py`` beside it).

One tree per thread (root parallelism; numba releases the GIL), each kept between moves: when
the board's history extends the history the tree was built for, the matching subtree becomes
the root and the rest is dropped when memory runs short.  A time budget is spent in short jitted
slices with the clock checked between them, so ``time=T`` answers within T plus a few
milliseconds; ``sims=N`` with a ``seed`` gives the same move every run.

With ``solver=S`` (a timed search on a board the game's exact solver takes, ``solvers.for_game``)
the solver works on the root too: on one thread first, for the share S of the move time; with two
threads or more on one of them, beside the trees, for the whole move.  A proven win is played at
once (the trees stop); otherwise the trees' move stands (``root_solver.py``).  With ``mustplay``
the game's solver player's knowledge of a node's position prunes and proves the tree
(``knowledge.py``).  Both talk to the solver through ``solvers.base.SolverPlayer``.  With
``net`` a network's policy becomes the priors of the nodes that reach ``net_visits`` visits,
evaluated in batches between slices, and with ``value_weight`` its value counts as that many
visits of each node it evaluates (``network.py``).
"""

from __future__ import annotations

import sys
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from boardai import solvers
from boardai.engines.mcts import kernel as MK
from boardai.engines.mcts.defaults import defaults_for
from boardai.engines.mcts.knowledge import KNOWLEDGE_SLICE_SIMS, TreeKnowledge, play_on_when_lost
from boardai.engines.mcts.network import NetPriors, parse_net, shipped_path
from boardai.engines.mcts.root_solver import RootSolver, root_solver
from boardai.engines.base import (
    Engine, Limit, MoveInfo, Option, PlayResult, Stopwatch, parse_bool, seed_option, threads_option,
)
from boardai.games import all_games, game_of
from boardai.games.base import Board
from boardai.games.layout import FLAGS, new_rng
from boardai.solvers.base import SolverPlayer

DEFAULT_TIME = 1.0
SLICE_S = 0.005          # target length of one jitted slice between clock checks
MAX_C = 100.0            # option ranges (see `boardai engines`)
MAX_EXPAND = 1_000_000
MAX_CELLS = 26 * 26      # the largest board's cells (settle's empty cells)
MAX_SETTLE_NODES = 10**9
MAX_MEMORY_MB = 65536    # 64 GiB; node indices are int32, so at most 2**31 nodes in any case
NO_KNOWLEDGE = np.empty(0, dtype=np.float64)
NO_FILLS = np.zeros((1, 0), dtype=np.int64)       # run_simulations without fills
NO_FILL_OF = np.zeros(0, dtype=np.int32)
NO_QUEUE = np.zeros(0, dtype=np.int64)             # run_simulations without a network
NET_BATCH = 8            # net=: positions worth a network call in a timed search, or
NET_HOLD = 16            # the slices after which the queue is evaluated whatever it holds


@dataclass
class _Tree:
    ints: np.ndarray
    flts: np.ndarray
    meta: np.ndarray
    rng: np.ndarray
    key: tuple | None = None
    history: list[int] | None = None
    known: set = field(default_factory=set)    # nodes the knowledge has seen (mustplay=)
    knowledge_calls: int = 0                   # this move's knowledge: positions asked
    knowledge_s: float = 0.0                   # and the seconds it took
    fills: np.ndarray = field(default_factory=lambda: NO_FILLS)   # fill=: cells filled in at
    fill_of: np.ndarray = field(default_factory=lambda: NO_FILL_OF)  # nodes (row 0 unused), and
                                                                     # each node's row (0: none)
    fill_count: int = 1
    queue_states: np.ndarray = field(default_factory=lambda: NO_FILLS)   # net=: positions
    queue_nodes: np.ndarray = field(default_factory=lambda: NO_QUEUE)    # waiting, their nodes

    def swapped(self, a: int, b: int) -> None:
        """Rows ``a`` and ``b`` traded places (the tree knowledge): so do their queue entries."""
        NetPriors.swapped(self, a, b)

    def forget_fills(self) -> None:
        """The node numbers change (a new or compacted tree): the fill-ins go."""
        self.fill_of = NO_FILL_OF
        self.fill_count = 1

    @property
    def root(self) -> int:
        return int(self.meta[MK.ROOT])


class Budget:
    """When a search in slices stops: ``sims`` done, the ``deadline`` passed or ``stop`` set;
    ``report(done, depth)`` is called every ``every`` seconds on the way (``on_info``)."""

    def __init__(self, sims: int | None, deadline: float | None, stop, report, every: float):
        self.sims, self.deadline, self.stop, self.report, self.every = \
            sims, deadline, stop, report, every
        self.next_report = time.perf_counter() + every

    def more(self, done: int, deepest: int) -> bool:
        if self.sims is not None and done >= self.sims:
            return False
        now = time.perf_counter()
        if (self.deadline is not None and now >= self.deadline) or \
                (self.stop is not None and self.stop.is_set()):
            return False
        if self.report is not None and now >= self.next_report:
            self.report(done, deepest)
            self.next_report = now + self.every
        return True


MULTI_PV = 5          # candidate moves that get their own line in an answer


def _child(tree: _Tree, node: int, move: int) -> int:
    """The child of ``node`` reached by ``move``, or -1."""
    first, k = int(tree.ints[node, MK.CHILD]), int(tree.ints[node, MK.NCHILD])
    for ch in range(first, first + k):
        if tree.ints[ch, MK.MOVE] == move:
            return ch
    return -1


class MctsEngine(Engine):
    name = "mcts"
    summary = ("Monte Carlo tree search: UCT with RAVE, MCTS-solver, one-move win/block checks, "
               "tree reuse, root-parallel threads")
    limit_options = ("time", "sims")
    warm_limit = Limit(sims=16)
    options = (
        Option("c", float, None, "UCT exploration constant (default 0.35 with RAVE, 0.7 without)",
               min=0, max=MAX_C),
        Option("rave", parse_bool, None, "RAVE/AMAF statistics (default: the game's; "
               + ", ".join(f"{g.name} {'on' if defaults_for(g.name).rave else 'off'}"
                           for g in all_games().values()) + ")"),
        Option("rave_bias", float, 0.0005, "RAVE bias b: how fast AMAF gives way to real visits",
               min=0, max=1),
        Option("expand", int, 2, "visits a leaf needs before it is expanded", min=1,
               max=MAX_EXPAND),
        Option("checks", parse_bool, True, "look for one-move wins and must-blocks when expanding"),
        Option("forks", parse_bool, False, "with checks: a move that makes two winning threats "
               "and leaves the opponent none is the only child (sound in every game, costs a "
               "winning-move scan per legal move at each expansion; no measured gain yet: "
               "docs/experiments.md)"),
        Option("settle", int, None, "a tree node with at most this many empty cells goes once "
               "to the game's exact late-game search (Connect Four past 64 cells: pruned by the "
               "threat rules), whose win or loss proves it (default: the game's; 0 off)", min=0,
               max=MAX_CELLS),
        Option("settle_nodes", int, None, "with settle: the search's nodes for one tree node "
               "(default: the game's)", min=1, max=MAX_SETTLE_NODES),
        Option("settle_visits", int, None, "with settle: the visits at which a node is searched "
               "(default: the game's)", min=1, max=MAX_EXPAND),
        Option("rule", float, 0.0, "when a tree node grows its children, the game's static rule "
               "on its position (Connect Four past 64 cells: the zugzwang rule of threat "
               "parity on a quiet position) counts as this many visits at its result (0 off)",
               min=0, max=MAX_EXPAND),
        # each game's playout switches (Hex: bridge, Connect Four: tactics), from its description
        *(Option(sw.option, parse_bool, None, sw.help + " (default: "
                 + ("on" if sw.option in defaults_for(g.name).playouts else "off") + ")")
          for g in all_games().values() for sw in g.playout_switches),
        Option("solver", float, None, "share of a timed move for the game's exact solver on the "
               "root, on boards it takes (1 thread: first, for this share of the time; 2+ threads: "
               "beside the search on one thread, for the whole move); a proven win is played at "
               "once; 0 off (default: the game's, "
               + ", ".join(f"{g.name} {defaults_for(g.name).solver:g}"
                           + (f" up to {defaults_for(g.name).solver_cells} cells"
                              if defaults_for(g.name).solver_cells else "")
                           for g in all_games().values()) + ")",
               min=0, max=0.9),
        Option("ahead", float, 0.0, "after a proven move (the solver's or its book's), go on "
               "solving the position it leaves until this share of the move's time has passed, "
               "so that the proof of the next move starts from a warm table; 0 off (moves then "
               "return as soon as they are proven)", min=0, max=1),
        Option("patterns", float, None, "progressive-bias constant of the game's learned move "
               "patterns (priors set when a node grows its children, a bonus of patterns * prior "
               "/ sqrt(visits + 1) in selection, as MoHex 2.0); 0 off (default: the game's, "
               + ", ".join(
                   f"{g.name} {defaults_for(g.name).patterns:g}"
                   for g in all_games().values()) + ")",
               min=0, max=1e6),
        Option("local", float, None, "playouts answer the last move by the game's learned move "
               "patterns (Hex, with bridge: each empty cell of the 12 around the last move weighs "
               "local * its pattern's weight against 1 for every empty cell, as MoHex 2.0's local "
               "moves; 9x9: no gain measured, a playout ~5 times slower); 0 off (default: the "
               "game's, " + ", ".join(
                   f"{g.name} {defaults_for(g.name).local:g}"
                   for g in all_games().values()) + ")",
               min=0, max=1e6),
        Option("net", parse_net, None, "a network's policy as the priors of the tree's busy "
               "nodes (as MoHex-CNN): auto (the network learnt from a teacher's games shipped for "
               "the board's game and size, NAME-WxH-teacher, else the game's of the nearest square "
               "size; none: plain search, the info says so), off, a shipped network's name or a .npz "
               "file; each node is evaluated once, when it reaches net_visits visits, in batches "
               "between slices (default: the game's, " + ", ".join(
                   f"{g.name} {defaults_for(g.name).net}" + (
                       " on " + "/".join(f"{n}x{n}" for n in sorted(defaults_for(g.name).net_sizes))
                       if defaults_for(g.name).net != "off" and defaults_for(g.name).net_sizes
                       else "")
                   for g in all_games().values()) + ")", what="auto, off, a network name or file"),
        Option("net_visits", int, None, "with net: the visits at which a node's position is "
               "evaluated (at least expand + 1; default: the game's, " + ", ".join(
                   f"{g.name} {defaults_for(g.name).net_visits}"
                   for g in all_games().values()) + ")", min=1, max=10**9),
        Option("prior_weight", float, None, "with net: the progressive-bias constant of the "
               "network's priors (prior_weight * prior / sqrt(visits + 1) in selection; the "
               "patterns' priors, if on, serve until the network's arrive; default: the game's, "
               + ", ".join(f"{g.name} {defaults_for(g.name).prior_weight:g}"
                           for g in all_games().values()) + ")", min=0, max=1e6),
        Option("value_weight", float, None, "with net: the network's value of a node it "
               "evaluates (same call as the priors) counts as this many visits of the node at "
               "the network's win chance, mixed with its playouts' results (as MoHex-3HNN); 0 "
               "off (default: the game's, " + ", ".join(
                   f"{g.name} {defaults_for(g.name).value_weight:g}"
                   for g in all_games().values()) + ")", min=0, max=MAX_EXPAND),
        Option("mustplay", int, None, "H-search knowledge in the tree, where the game's solver "
               "module offers it (Hex, boards up to 128 cells): at the root before searching "
               "and at every node that reaches this many visits, the moves outside the "
               "mustplay (the cells common to the opponent's virtual semi connections) are "
               "dropped and a virtual win proves the node; 0 off (default: the game's, "
               + ", ".join(f"{g.name} {defaults_for(g.name).mustplay}"
                           for g in all_games().values()) + ")",
               min=0, max=10**9),
        Option("inferior", parse_bool, True, "with mustplay: fill in dead cells and captured "
               "pairs before the H-search, and drop them and capture-dominated moves from the "
               "children (as the exact solver does)"),
        Option("reversible", parse_bool, True, "with mustplay and inferior: also drop the "
               "captured-reversible moves (an opponent answer leaves a pair it has captured, "
               "and the move's cell dead), as the exact solver does"),
        Option("fill", parse_bool, False, "with mustplay and inferior: the playouts start with "
               "the dead cells and captured pairs the tree knowledge found at the deepest node "
               "of their path (where the tree's moves left them empty), as MoHex fills them in "
               "at its knowledge nodes (off: 9x9 at 0.3 s, 0.44 against fill=0, 100 games)"),
        threads_option(1, "root-parallel search threads"),
        Option("memory_mb", int, 512, "memory cap for all trees together (MiB; pages are taken "
               "as the trees grow)", min=1, max=MAX_MEMORY_MB),
        Option("reuse", parse_bool, True, "keep the matching subtree between moves"),
        seed_option("random seed (with sims=N: same seed, same move)"),
        Option("resign", float, 0.0, "resign below this win rate (0 = never)", min=0, max=1,
               max_open=True),
        Option("verbose", parse_bool, False, "print a search summary on stderr"),
    )

    @classmethod
    def reads_local_files(cls, options: dict[str, str]) -> bool:
        """``net=`` given as a path reads a file of this machine (a shipped name does not)."""
        text = options.get("net")
        return text is not None and text not in ("auto", "off") and shipped_path(text) is None

    def __init__(self, **opts):
        super().__init__(**opts)
        self.threads = int(opts.get("threads") or 1)
        mem = int(opts.get("memory_mb") or 512)
        self.capacity = max(1024, mem * 1024 * 1024 // (MK.NODE_BYTES * self.threads))
        seed = opts.get("seed")
        self._seed = int(seed) if seed is not None else None
        self._trees: list[_Tree] = []
        self._tables = MK.new_tables()
        self._pool: ThreadPoolExecutor | None = None
        self._solvers: dict[str, SolverPlayer | None] = {}
        self._analysing = False
        self._prior_table = NO_KNOWLEDGE
        # the knowledge reaches the solver player through a weak reference: a bound method
        # would tie the engine into a cycle, and its trees (hundreds of MB) would wait for the
        # garbage collector after the engine is dropped
        self._knowledge = TreeKnowledge(_weak_call(self._solver_player), self.opts)   # mustplay=
        self._mustplay = 0                     # this move's knowledge threshold (0: off)
        self._net = NetPriors(opts.get("net"))   # net= (network.py)
        self._use_patterns = False             # this move: the pattern priors are on
        self.last_stats: dict = {}

    # --- trees --------------------------------------------------------------------------
    def _tree(self, i: int) -> _Tree:
        while len(self._trees) <= i:
            j = len(self._trees)
            try:
                ints, flts, meta = MK.new_tree(self.capacity)
            except MemoryError:
                raise MemoryError(f"mcts: cannot allocate {self.capacity * MK.NODE_BYTES >> 20} "
                                  "MiB for a search tree: lower memory_mb") from None
            seed = None if self._seed is None else self._seed * 7919 + j
            self._trees.append(_Tree(ints, flts, meta, new_rng(seed)))
        return self._trees[i]

    def _prepare(self, tree: _Tree, board: Board) -> None:
        """Move the tree's root to ``board`` if it holds it, else start afresh."""
        key = (board.game_name, board.width, board.height, int(board.state[FLAGS]))
        hist = board.move_stack
        reused = False
        if self.opts.get("reuse", True) and tree.key == key and tree.history is not None \
                and hist[:len(tree.history)] == tree.history:
            root = tree.root
            ok = True
            for move in hist[len(tree.history):]:
                root = _child(tree, root, move)
                if root < 0:
                    ok = False
                    break
            if ok:
                tree.meta[MK.ROOT] = root
                reused = True
        if not reused:
            MK.reset_tree(tree.ints, tree.flts, tree.meta)
            tree.known = set()
            tree.forget_fills()
        elif tree.meta[MK.USED] > tree.ints.shape[0] // 2 and tree.root != 0:
            tree.known = set()
            tree.forget_fills()
            ints, flts, meta = MK.new_tree(tree.ints.shape[0])
            MK.compact_tree(tree.ints, tree.flts, tree.meta, ints, flts)
            meta[:] = tree.meta
            tree.ints, tree.flts, tree.meta = ints, flts, meta
        tree.key = key
        tree.history = hist

    def _params(self, board: Board) -> np.ndarray:
        game = game_of(board)
        defaults = defaults_for(game.name)
        rave = self.opts.get("rave")
        if rave is None:
            rave = defaults.rave
        c = self.opts.get("c")
        if c is None:
            c = 0.35 if rave else 0.7
        patterns = self.opts.get("patterns")
        if patterns is None:
            patterns = defaults.patterns
        local = self.opts.get("local")
        if local is None:
            local = defaults.local
        self._use_patterns = patterns > 0 and game.move_patterns is not None
        net_visits = value_weight = 0.0
        if self._net.network is not None:
            value = self.opts.get("value_weight")
            value_weight = float(defaults.value_weight if value is None else value)
            weight = self.opts.get("prior_weight")
            patterns = defaults.prior_weight if weight is None else weight
            visits = self.opts.get("net_visits")
            net_visits = float(max(defaults.net_visits if visits is None else visits,
                                   int(self.opts.get("expand") or 2) + 1))
        switches = {sw.option: sw.option in defaults.playouts if self.opts.get(sw.option) is None
                    else self.opts[sw.option] for sw in game.playout_switches}
        return np.array([c, 1.0 if rave else 0.0, float(self.opts.get("rave_bias") or 0.0),
                         float(int(self.opts.get("expand") or 2)),
                         1.0 if self.opts.get("checks", True) else 0.0,
                         float(game.playout_policy(switches)),
                         1.0 if self._forks(board) else 0.0,
                         float(patterns) if game.move_patterns is not None or net_visits
                         else 0.0,
                         float(local) if game.move_patterns is not None else 0.0,
                         net_visits,
                         float(defaults.settle if self.opts.get("settle") is None
                               else self.opts["settle"]),
                         float(defaults.settle_nodes if self.opts.get("settle_nodes") is None
                               else self.opts["settle_nodes"]),
                         float(defaults.settle_visits if self.opts.get("settle_visits") is None
                               else self.opts["settle_visits"]),
                         float(self.opts.get("rule") or 0.0),
                         value_weight])

    def _mustplay_visits(self, board: Board) -> int:
        """Visits a node needs for the tree knowledge (``mustplay``; the game's default), 0 off.
        Off in an analysis, which wants every move's visits (the knowledge drops moves)."""
        if self._analysing:
            return 0
        visits = self.opts.get("mustplay")
        return int(defaults_for(board.game_name).mustplay if visits is None else visits)

    def _pattern_table(self, board: Board, params: np.ndarray) -> np.ndarray:
        """The game's learned move weights when the priors or the local playouts are on (else
        an empty table)."""
        game = game_of(board)
        if (self._use_patterns or params[MK.P_LOCAL] > 0.0) and game.move_patterns is not None:
            return game.move_patterns.table()
        return NO_KNOWLEDGE

    def _net_default(self, board: Board) -> str:
        """The game's default network for this board (``off`` outside its ``net_sizes``)."""
        defaults = defaults_for(board.game_name)
        if defaults.net_sizes and not (board.width == board.height
                                       and board.width in defaults.net_sizes):
            return "off"
        return defaults.net

    def _net_root(self, tree: _Tree, state: np.ndarray, params: np.ndarray,
                  deadline: float | None) -> None:
        """The root's network priors, before the first slice (once per node)."""
        if not MK.expand_root(tree.ints, tree.flts, tree.meta, state, params, self._prior_table):
            return
        root = tree.root
        if tree.flts[root, MK.NET] == 0.0 and tree.ints[root, MK.NCHILD] > 1 \
                and tree.meta[MK.QUEUED] < tree.queue_nodes.shape[0]:
            q = int(tree.meta[MK.QUEUED])
            tree.queue_states[q, :] = state
            tree.queue_nodes[q] = root
            tree.flts[root, MK.NET] = 1.0
            tree.meta[MK.QUEUED] = q + 1
        self._net.flush(tree, deadline, params)

    def _forks(self, board: Board) -> bool:
        """Fork checks at expansion: the ``forks`` option (never without ``checks``)."""
        return bool(self.opts.get("forks")) and bool(self.opts.get("checks", True))

    # --- search -------------------------------------------------------------------------
    def _run_tree(self, tree: _Tree, state: np.ndarray, params: np.ndarray, sims: int | None,
                  deadline: float | None,
                  report: Callable[[int, int], None] | None = None,
                  stop=None) -> tuple[int, int]:
        """Run simulations until ``sims`` are done or ``deadline`` passes (or ``stop``, by
        default ``self.stop``, is set), in short jitted slices; ``report(done, depth)`` every
        ``INFO_EVERY`` seconds."""
        stop = self.stop if stop is None else stop
        mustplay_visits = self._mustplay
        net = self._net.network is not None
        if deadline is None and report is None and stop is None and not mustplay_visits \
                and not net:
            return MK.run_simulations(tree.ints, tree.flts, tree.meta, state, sims, tree.rng, params,
                                      self._tables, self._prior_table, tree.fills,
                                      tree.fill_of, tree.queue_states, tree.queue_nodes)
        done = deepest = 0
        batch = 16
        held = 0                 # slices since the network's queue was last evaluated
        budget = Budget(sims, deadline, stop, report, self.INFO_EVERY)
        while budget.more(done, deepest):
            now = time.perf_counter()
            if sims is not None:
                batch = min(batch, sims - done)
            n, d = MK.run_simulations(tree.ints, tree.flts, tree.meta, state, batch, tree.rng, params,
                                      self._tables, self._prior_table, tree.fills,
                                      tree.fill_of, tree.queue_states, tree.queue_nodes)
            done += n
            deepest = max(deepest, d)
            if n < batch:        # root solved
                if mustplay_visits and play_on_when_lost(tree):
                    mustplay_visits = 0          # no more knowledge for this move
                    continue
                break
            took = max(time.perf_counter() - now, 1e-6)
            if net:
                held += 1
                # a timed search waits for a batch worth the call (NET_BATCH positions, or
                # NET_HOLD slices); a sims= search evaluates after every (fixed) slice
                if deadline is None or held >= NET_HOLD or tree.meta[MK.QUEUED] >= NET_BATCH:
                    self._net.flush(tree, deadline, params)
                    held = 0
            if mustplay_visits:
                self._knowledge.grow(tree, mustplay_visits, deadline)
            if deadline is None and (mustplay_visits or net):
                # the knowledge is asked between slices: slices of a fixed size keep a sims=
                # search reproducible (a size from the clock would move the knowledge's calls)
                batch = min(batch * 4, KNOWLEDGE_SLICE_SIMS)
            else:
                left = SLICE_S if deadline is None else \
                    max(0.0, deadline - time.perf_counter()) * 0.5
                batch = int(max(1, min(batch * 4, min(SLICE_S, left) / (took / n))))
        if net:
            self._net.forget(tree)
        return done, deepest

    def search(self, board: Board, limit: Limit | None = None) -> PlayResult:
        _load_kernels(board)      # once per process, before the clock: time=T is for searching
        limit = self._limit(limit)
        solver = self._root_solver(board, limit.time)       # loaded before the clock too
        self._mustplay = self._mustplay_visits(board)
        if self._mustplay:
            self._knowledge.load(board)                       # and the H-search
        self._net.choose(board, self._net_default(board))     # and the network
        clock = Stopwatch()
        sims = limit.sims            # both may be set: whichever runs out first ends the search
        seconds = limit.time if limit.time is not None else (None if sims else DEFAULT_TIME)
        deadline = clock.start + seconds - 0.002 if seconds is not None else None
        trees = [self._tree(i) for i in range(self.threads)]
        for tree in trees:
            self._prepare(tree, board)
            tree.knowledge_calls, tree.knowledge_s = 0, 0.0
            if tree.queue_nodes.shape[0] != self._net.queue_size() \
                    or tree.queue_states.shape[1] != board.state.shape[0]:
                tree.queue_states, tree.queue_nodes = self._net.queue(board.state)
        state = board.state.copy()
        params = self._params(board)
        self._prior_table = self._pattern_table(board, params)     # read by the trees' threads
        self._knowledge.fill_on = self._knowledge.fills_wanted(board, self._mustplay)
        report = None
        if self.on_info is not None:
            on_info = self.on_info
            report = lambda done, depth: on_info(   # noqa: E731
                self._answer(board, trees, [(done * self.threads, depth)], clock, final=False))
        self._knowledge.root_board = board
        if self._mustplay and self._knowledge.has_time(board, deadline):
            # the root's knowledge, once, before searching (if the move has the time)
            answer = self._knowledge.timed(trees[0], board)
            for tree in trees:
                if MK.expand_root(tree.ints, tree.flts, tree.meta, state, params,
                                  self._prior_table):
                    self._knowledge.prove(tree, tree.root, board, answer)
        if self._net.network is not None:
            for tree in trees:
                self._net_root(tree, state, params, deadline)
        beside = solver if self.threads > 1 else None      # the solver's own thread
        if solver is not None and beside is None:
            proof = solver.run(board, clock.start + seconds * solver.share)
            if proof is not None:
                return self._proved(board, solver, proof, clock, seconds)
            self._mark_refuted(trees, state, params, solver.refuted(board))
        stop = self.stop
        if beside is not None:
            trees = trees[:self.threads - 1]      # one thread goes to the solver
            stop = beside.stop_also(self.stop)
        if len(trees) == 1 and beside is None:
            results = [self._run_tree(trees[0], state, params, sims, deadline, report)]
        else:
            if self._pool is None:       # one worker a thread: the trees, or the trees and the solver
                self._pool = ThreadPoolExecutor(max_workers=self.threads)
            proving = None if beside is None else self._pool.submit(beside.run, board, deadline)
            shares = [None] * len(trees) if sims is None else \
                [sims // len(trees) + (1 if i < sims % len(trees) else 0) for i in range(len(trees))]
            futures = [self._pool.submit(self._run_tree, t, state, params, s, deadline,
                                         report if i == 0 else None, stop)
                       for i, (t, s) in enumerate(zip(trees, shares))]
            results = [f.result() for f in futures]
            if proving is not None:
                proof = proving.result()
                if proof is not None:
                    return self._proved(board, solver, proof, clock, seconds)
        result = self._answer(board, trees, results, clock)
        if solver is not None:
            result.info["solver"] = solver.outcome
        return result

    def _mark_refuted(self, trees: list[_Tree], state: np.ndarray, params: np.ndarray,
                      moves: set[int]) -> None:
        """Mark the root children of ``moves`` as proven losses for the side to move (what the
        solver refuted on the way without settling the root), so the trees never play them."""
        if not moves:
            return
        for tree in trees:
            if MK.expand_root(tree.ints, tree.flts, tree.meta, state, params, self._prior_table):
                _mark_lost(tree, moves)

    def _proved(self, board: Board, solver: RootSolver, answer, clock: Stopwatch,
                seconds: float) -> PlayResult:
        result = solver.result(board, answer, clock)
        ahead = float(self.opts.get("ahead") or 0.0)
        if ahead > 0:           # the rest of the move's share: solve the opponent's replies
            solver.think_ahead(board, answer.move, clock.start + seconds * ahead - 0.002)
            result.time_s = clock()             # the move's time includes the thinking ahead
        self.last_stats = result.info
        if self.opts.get("verbose"):
            print(f"mcts: the solver proved {result.name} wins ({answer.nodes} nodes, "
                  f"{result.time_s:.3f} s)", file=sys.stderr)
        return result

    def _solver_player(self, board: Board) -> SolverPlayer | None:
        """The game's solver player (made once per game), or None."""
        name = board.game_name
        if name not in self._solvers:
            module = solvers.for_game(name)
            self._solvers[name] = None if module is None else module.Player()
        return self._solvers[name]

    def _root_solver(self, board: Board, seconds: float | None) -> RootSolver | None:
        """The exact solver for this move's root (``solver`` option; ``root_solver.py``)."""
        return root_solver(self._solver_player(board), board, self.opts.get("solver"), seconds,
                           self._analysing)

    def _answer(self, board: Board, trees: list[_Tree], results, clock: Stopwatch,
                final: bool = True) -> PlayResult:
        """The search's answer from the trees' root statistics (``final=False``: a snapshot of a
        running search, with no side effects)."""
        stats: dict[int, list[float]] = {}     # move -> [visits, wins, proof]
        priors: dict[int, float] = {}
        for tree in trees:
            root = tree.root
            first, k = int(tree.ints[root, MK.CHILD]), int(tree.ints[root, MK.NCHILD])
            for ch in range(first, first + k):
                m = int(tree.ints[ch, MK.MOVE])
                prior = self._prior(tree, ch)
                if prior is not None:
                    priors[m] = prior
                s = stats.setdefault(m, [0.0, 0.0, 0.0])
                s[0] += tree.flts[ch, MK.VISITS]
                s[1] += tree.flts[ch, MK.WINS]
                pr = int(tree.ints[ch, MK.PROOF])
                if pr == 1 or (pr == -1 and s[2] != 1):
                    s[2] = pr
        sims = sum(r[0] for r in results)
        depth = max((r[1] for r in results), default=0)
        if not stats:      # nothing searched (e.g. zero budget): any legal move
            moves = list(board.legal_moves)
            if not moves:
                return PlayResult(-1, "resign", resign=True, time_s=clock())
            m = moves[0]
            return PlayResult(m, board.move_name(m), time_s=clock(), nodes=sims)
        winners = [m for m, s in stats.items() if s[2] == 1]
        alive = [m for m, s in stats.items() if s[2] != -1]
        pool = winners or alive or list(stats)
        best = max(pool, key=lambda m: (stats[m][0], stats[m][1]))
        b = stats[best]
        if b[2] == 1:
            winrate = 1.0
        elif b[2] == -1:
            winrate = 0.0
        else:
            winrate = b[1] / b[0] if b[0] else 0.5
        infos = []
        for m, s in sorted(stats.items(), key=lambda kv: -kv[1][0]):
            wr = 1.0 if s[2] == 1 else 0.0 if s[2] == -1 else (s[1] / s[0] if s[0] else None)
            infos.append(MoveInfo(m, board.move_name(m), int(s[0]),
                                  None if wr is None else 2 * wr - 1, wr, priors.get(m)))
        pv = self._pv(trees[0], board, best)
        for info in infos[:MULTI_PV]:       # the best few moves' own lines (multi-PV)
            info.pv = pv if info.move == best else self._pv(trees[0], board, info.move)
        elapsed = clock()
        resign = bool(self.opts.get("resign")) and winrate < float(self.opts["resign"])
        result = PlayResult(best, board.move_name(best), value=2 * winrate - 1, pv=pv,
                            nodes=int(sims), depth=depth, time_s=elapsed, moves=infos,
                            resign=resign,
                            info={"sims": int(sims), "sims_per_s": sims / max(elapsed, 1e-9),
                                  "winrate": winrate, "proven": int(b[2]),
                                  "tree_nodes": int(sum(t.meta[MK.USED] for t in trees)),
                                  "tree_full": bool(any(t.meta[MK.FULL] for t in trees))})
        if self._mustplay:       # the tree knowledge's share of the move
            result.info["knowledge_calls"] = sum(t.knowledge_calls for t in trees)
            result.info["knowledge_s"] = round(sum(t.knowledge_s for t in trees), 4)
        if self._net.note:       # the network's: which one (or why none), its share of the move
            result.info["net"] = self._net.note
            if self._net.network is not None:
                result.info["net_evals"] = self._net.evals
                result.info["net_s"] = round(self._net.seconds, 4)
        if not final:
            return result
        if resign:
            result.move, result.name = -1, "resign"
        self.last_stats = result.info
        if self.opts.get("verbose"):
            print(f"mcts: {sims} sims in {elapsed:.3f} s ({result.info['sims_per_s']:.0f}/s), "
                  f"best {result.name} winrate {winrate:.3f} visits {int(b[0])}, depth {depth}, "
                  f"nodes {result.info['tree_nodes']}, pv {' '.join(pv)}"
                  + (f", knowledge {result.info['knowledge_calls']} positions in "
                     f"{result.info['knowledge_s']:.3f} s" if "knowledge_s" in result.info
                     else "")
                  + (f", net {result.info['net']}" if "net" in result.info else "")
                  + (f" ({result.info['net_evals']} positions in {result.info['net_s']:.3f} s)"
                     if "net_evals" in result.info else ""), file=sys.stderr)
        return result

    def _prior(self, tree: _Tree, child: int) -> float | None:
        """A root child's prior probability: the network's once the root has it (``net``),
        else None."""
        if tree.flts[tree.root, MK.NET] == 2.0:
            return float(tree.flts[child, MK.PRIOR])
        return None

    def _pv(self, tree: _Tree, board: Board, best: int) -> list[str]:
        replay = board.copy()
        names = []
        node = tree.root
        move = best
        while True:
            nxt = _child(tree, node, move)
            if nxt < 0 or not replay.is_legal(move):
                break
            names.append(replay.move_name(move))
            replay.push(move)
            node = nxt
            first, k = int(tree.ints[node, MK.CHILD]), int(tree.ints[node, MK.NCHILD])
            if k == 0 or tree.flts[node, MK.VISITS] < 2:
                break
            ch = max(range(first, first + k),
                     key=lambda c: (tree.flts[c, MK.VISITS], tree.flts[c, MK.WINS]))
            if tree.flts[ch, MK.VISITS] < 2:    # one playout says nothing: the line ends
                break
            move = int(tree.ints[ch, MK.MOVE])
        return names

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        return self.search(board, limit)

    def analyse(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """As ``play``, but every move gets the trees' statistics: the root solver, whose
        proof would end the search with one move and no visits, stays out, and so does the
        tree knowledge (``mustplay``), which drops moves."""
        self._analysing = True
        try:
            return self.play(board, limit)
        finally:
            self._analysing = False

    def new_game(self, board: Board) -> None:
        for tree in self._trees:
            tree.history = None

    def close(self) -> None:
        """Stop the tree threads and free the trees (the next search starts afresh)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._trees = []


def _weak_call(method: Callable) -> Callable:
    """``method`` (bound) called through a weak reference to its object."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        if bound is None:
            raise ReferenceError("the engine was dropped")
        return bound(*args, **kwargs)
    return call


def _mark_lost(tree: _Tree, moves: set[int]) -> bool:
    """Mark the root children of ``moves`` as proven losses for the side to move; False (and
    nothing marked) while the root has no children."""
    root = tree.root
    first, k = int(tree.ints[root, MK.CHILD]), int(tree.ints[root, MK.NCHILD])
    for ch in range(first, first + k):
        if int(tree.ints[ch, MK.MOVE]) in moves:
            tree.ints[ch, MK.PROOF] = -1
    return k > 0


__all__ = ["MctsEngine"]


_KERNELS_LOADED = False


def _load_kernels(board: Board) -> None:
    """Load (or compile) the jitted search once, so the first move's budget goes to searching.

    Loading numba's cached machine code takes a few tenths of a second in a new process; were it
    inside the clock, a short first move (``time=0.2``) would end before one simulation ran.
    """
    global _KERNELS_LOADED
    if _KERNELS_LOADED:
        return
    ints, flts, meta = MK.new_tree(64)
    state = board.state.copy()
    params = np.zeros(MK.N_PARAMS)
    params[:5] = [0.7, 0.0, 0.0, 2.0, 1.0]
    MK.run_simulations(ints, flts, meta, state, 0, new_rng(0), params, MK.new_tables(),
                       NO_KNOWLEDGE, NO_FILLS, NO_FILL_OF, np.zeros((0, state.shape[0]),
                                                                   dtype=np.int64), NO_QUEUE)
    MK.write_priors(ints, flts, NO_QUEUE, 0, np.zeros((1, int(board.num_actions))))
    MK.add_values(flts, NO_QUEUE, 0, np.zeros(1), params)
    MK.expand_root(ints, flts, meta, state, params, NO_KNOWLEDGE)
    MK.compact_tree(ints, flts, meta, *MK.new_tree(64)[:2])
    _KERNELS_LOADED = True

