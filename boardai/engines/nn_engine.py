"""``nn`` and ``policy``: engines driven by a network file (``boardai.nn``).

``nn:model=PATH`` is PUCT on the one MCTS tree (``mcts/guided.py``) with the network's priors
and values, in batches; ``policy:model=PATH`` plays the network's most likely move with no
search.  ``model`` is a file written by ``boardai.nn.model`` (``Network.save``); networks
trained by the project and shipped in the package will be named here too once they exist
(issue 17: training is the next step).  The network runs with one BLAS thread: on this kind of
small, busy machine that is several times faster than numpy's default for the small matmuls of
a batch (``benchmarks/nn_inference.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardai.engines.base import (
    Engine, EngineUnavailable, Limit, MoveInfo, Option, PlayResult, Stopwatch,
)
from boardai.engines.mcts.guided import GuidedMcts
from boardai.games.base import Board


def _model_path(text: str) -> str:
    path = Path(text).expanduser()
    if not path.is_file():
        raise ValueError(f"no network file {text!r}: give model=PATH to a .npz written by "
                         "boardai.nn (no trained network ships with boardai yet)")
    return str(path)


_model_path.__name__ = "a network file (.npz)"

MODEL_OPTION = Option("model", _model_path, None, "the network file (.npz from boardai.nn)",
                      what="a path to a network file")


def _load(path: str | None):
    if path is None:
        raise ValueError("this engine needs a network: model=PATH (a .npz written by "
                         "boardai.nn; no trained network ships with boardai yet)")
    from boardai.nn import model
    model.set_blas_threads(1)
    try:
        return model.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"model={path}: not a network file boardai reads ({exc})") from None


class _NetworkEvaluator:
    """The GuidedMcts evaluator protocol over a network."""

    def __init__(self, network):
        self.network = network

    def evaluate(self, states: np.ndarray):
        return self.network.policy_value(states)


class NnEngine(GuidedMcts):
    name = "nn"
    uses_local_files = True
    summary = "PUCT search guided by a network's priors and values (model=PATH)"
    options = (MODEL_OPTION,) + GuidedMcts.options

    def __init__(self, **opts: Any):
        network = _load(opts.get("model"))
        super().__init__(_NetworkEvaluator(network), **opts)
        self.network = network

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        self._check(board)
        return super().play(board, limit)

    def _check(self, board: Board) -> None:
        if board.game_name != self.network.config.game:
            raise EngineUnavailable(f"{self.name}: the network plays {self.network.config.game}, "
                                    f"not {board.game_name}")


class PolicyEngine(Engine):
    name = "policy"
    uses_local_files = True
    summary = "a network's most likely move, no search (model=PATH)"
    options = (MODEL_OPTION,)

    def __init__(self, **opts: Any):
        super().__init__(**opts)
        self.network = _load(opts.get("model"))

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        priors, values = self.network.policy_value(board.state[None, :])
        legal = list(board.legal_moves)
        best = max(legal, key=lambda m: priors[0, m])
        value = float(values[0])
        moves = [MoveInfo(m, board.move_name(m), prior=float(priors[0, m]))
                 for m in sorted(legal, key=lambda m: -priors[0, m])]
        return PlayResult(best, board.move_name(best), value=value, pv=[board.move_name(best)],
                          nodes=1, time_s=clock(), moves=moves,
                          info={"prior": float(priors[0, best])})


__all__ = ["NnEngine", "PolicyEngine"]
