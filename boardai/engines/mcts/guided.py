"""``GuidedMcts``: the MCTS engine with PUCT selection and an evaluator instead of playouts.

This is the search half of the learning player (issue 17): the tree, its reuse between moves,
the time and simulation budgets, ``stop``/``on_info``, the answer and the principal variation
are ``MctsEngine``'s; only the simulations differ (``puct.py``): leaves are collected in batches
and scored by an *evaluator*, any object with

    evaluate(states: np.ndarray [B, state_len] int64) -> (priors [B, num_actions], values [B])

(priors over the kernel's moves, need not be masked or normalised: the tree keeps the legal
children and renormalises; values in [-1, 1] for the side to move in each state).  The network
evaluator plugs in here; ``UniformEvaluator`` (uniform priors, value 0) and
``RolloutEvaluator`` (uniform priors, the value of one random playout) need nothing and serve
the tests and comparisons.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

import numpy as np

from boardai.engines.base import Option
from boardai.engines.mcts import kernel as MK
from boardai.engines.mcts import puct
from boardai.engines.mcts.engine import Budget, MctsEngine, _mark_lost, _Tree
from boardai.games import kernel as K
from boardai.games.base import Board
from boardai.games.layout import NUM_ACTIONS, PLY, new_rng


class Evaluator(Protocol):
    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class UniformEvaluator:
    """Every move equally likely, every position even: PUCT then spreads visits by the
    exploration term alone (what the tests check against counts worked out by hand)."""

    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = int(states[0, NUM_ACTIONS])
        return np.ones((states.shape[0], n)), np.zeros(states.shape[0])


class RolloutEvaluator:
    """Uniform priors and the result of one random playout from each leaf (the classic MCTS
    value inside the PUCT tree)."""

    def __init__(self, seed: int | None = None):
        self.rng = new_rng(seed)
        self.work: np.ndarray | None = None

    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = int(states[0, NUM_ACTIONS])
        values = np.empty(states.shape[0])
        for i in range(states.shape[0]):
            black, white, _ = K.playout_batch(states[i], self.rng, 1)   # one playout's result
            me = int(states[i, PLY]) & 1
            values[i] = (black - white) if me == 0 else (white - black)
        return np.ones((states.shape[0], n)), values


class GuidedMcts(MctsEngine):
    """MCTS with PUCT selection and leaf values from an evaluator, in batches."""

    name = "guided-mcts"
    summary = "MCTS with PUCT selection, priors and values from an evaluator (the nn engine's search)"
    options = tuple(o for o in MctsEngine.options
                    # the tree knowledge (mustplay, inferior) and the network's priors in the
                    # plain tree (net) run in the plain tree only
                    if o.name not in ("c", "rave", "rave_bias", "expand", "threads", "mustplay",
                                      "inferior", "reversible", "net", "net_visits",
                                      "prior_weight")) + (
        Option("c_puct", float, 1.5, "PUCT exploration constant", min=0, max=100),
        Option("fpu", float, 0.25, "first-play urgency: an unvisited move's value is its "
               "parent's minus this", min=0, max=1),
        Option("batch", int, 8, "leaves evaluated together (virtual loss keeps them apart)",
               min=1, max=4096),
    )

    def __init__(self, evaluator: Evaluator | None = None, **opts: Any):
        opts = {k: v for k, v in opts.items() if v is not None}
        super().__init__(**opts)
        self.threads = 1
        self.evaluator: Evaluator = evaluator or UniformEvaluator()
        # self-play's exploration (boardai.train): (alpha, epsilon) mixes Dirichlet(alpha) noise
        # into the root's priors at each search, P = (1 - epsilon) P + epsilon noise
        self.root_noise: tuple[float, float] | None = None
        self._noise_rng = np.random.default_rng(self._seed)
        self._refuted: set[int] = set()      # root moves the solver's table proves lost

    def _mix_root_noise(self, tree: _Tree) -> bool:
        """Mix ``root_noise`` into the root children's priors; False while the root has none."""
        root = tree.root
        first, k = int(tree.ints[root, MK.CHILD]), int(tree.ints[root, MK.NCHILD])
        if k == 0:
            return False
        alpha, eps = self.root_noise
        noise = self._noise_rng.dirichlet(np.full(k, alpha))
        priors = tree.flts[first:first + k, puct.PRIOR]
        priors[:] = (1.0 - eps) * priors + eps * noise
        return True

    def _mark_refuted(self, trees, state, params, moves) -> None:
        """The moves the root solver's table refutes are marked once the PUCT search has
        expanded the root with its priors (``_run_tree``), not by the plain expansion."""
        self._refuted = set(moves)

    def _apply_refuted(self, tree: _Tree) -> bool:
        """Mark the root children of ``_refuted`` as proven losses; False while the root has
        no children yet."""
        if not _mark_lost(tree, self._refuted):
            return False
        self._refuted = set()
        return True

    def _run_tree(self, tree: _Tree, state: np.ndarray, params: np.ndarray, sims: int | None,
                  deadline: float | None,
                  report: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        batch = int(self.opts.get("batch") or 8)
        qparams = np.array([float(self.opts.get("c_puct") or 1.5),
                            float(self.opts.get("fpu") if self.opts.get("fpu") is not None
                                  else 0.25)])
        work = puct.new_batch(state, batch)
        states, leaves, paths, depths, _, _ = work
        done = deepest = 0
        budget = Budget(sims, deadline, self.stop, report, self.INFO_EVERY)
        noised = self.root_noise is None or self._mix_root_noise(tree)
        marked = not self._refuted or self._apply_refuted(tree)
        while budget.more(done, deepest):
            want = batch if sims is None else min(batch, sims - done)
            n, walks = puct.descend_batch(tree.ints, tree.flts, tree.meta, state, want, states,
                                          leaves, paths, depths, qparams)
            if walks == 0:                     # the root is solved
                break
            if n:
                priors, values = self.evaluator.evaluate(states[:n])
                puct.apply_batch(tree.ints, tree.flts, tree.meta, states, leaves, paths, depths,
                                 n, np.asarray(priors, dtype=np.float64),
                                 np.asarray(values, dtype=np.float64), params)
                deepest = max(deepest, int(depths[:n].max()))
            done += walks
            if not noised:
                noised = self._mix_root_noise(tree)
            if not marked:
                marked = self._apply_refuted(tree)
        return done, deepest

    def _mustplay_visits(self, board: Board) -> int:
        """No tree knowledge: the PUCT tree grows its children from the evaluator's priors."""
        return 0

    def _net_default(self, board: Board) -> str:
        """No network priors in the plain tree's way: the evaluator gives them."""
        return "off"

    def _prior(self, tree: _Tree, child: int) -> float | None:
        return float(tree.flts[child, puct.PRIOR])

    def _params(self, board: Board) -> np.ndarray:
        """The kernel's params, for the expansion's one-move checks."""
        params = np.zeros(MK.N_PARAMS)
        params[MK.P_CHECKS] = 1.0 if self.opts.get("checks", True) else 0.0
        params[MK.P_FORKS] = 1.0 if self._forks(board) else 0.0
        params[MK.P_EXPAND] = 1.0
        return params


__all__ = ["GuidedMcts", "RolloutEvaluator", "UniformEvaluator"]
