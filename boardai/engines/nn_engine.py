"""``nn`` and ``policy``: engines driven by a network (``boardai.nn``).

``nn`` is PUCT on the one MCTS tree (``mcts/guided.py``) with the network's priors and values,
in batches; ``policy`` plays the network's most likely move with no search.  ``model`` is the
name of a network shipped in the package (``boardai/data/networks/NAME.npz``, trained by the
project's ``boardai train``: ``docs/learning.md``) or a path to a ``.npz`` written by
``boardai.nn.model``; without it the engine takes the shipped network of the board's game and
size (or, the networks being fully convolutional, the game's network nearest in size).  The
network runs with one BLAS thread: on this kind of small, busy machine that is several times
faster than numpy's default for the small matmuls of a batch (``benchmarks/nn_inference.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardai.engines.base import (
    Engine, EngineUnavailable, Limit, MoveInfo, Option, PlayResult, Stopwatch,
)
from boardai.engines.mcts.guided import GuidedMcts
from boardai.games import get_game
from boardai.games.base import Board

NETWORKS_DIR = Path(__file__).resolve().parents[1] / "data" / "networks"


def shipped_networks() -> dict[str, Path]:
    """The networks shipped in the package, by name (``connect4-7x6``, ``hex-9x9``, ...)."""
    if not NETWORKS_DIR.is_dir():
        return {}
    return {p.stem: p for p in sorted(NETWORKS_DIR.glob("*.npz"))}


def _shipped_text() -> str:
    names = ", ".join(shipped_networks()) or "none yet"
    return f"a shipped network ({names}) or a path to a .npz written by boardai.nn"


def network_path(text: str) -> str:
    """A shipped network's name or an existing file, as the file's path; ValueError naming what
    is accepted (``model=``, ``train --init``)."""
    shipped = shipped_networks()
    if text in shipped:
        return str(shipped[text])
    try:
        found = bool(text) and Path(text).expanduser().is_file()
    except (OSError, ValueError):              # a name too long for a path, a NUL byte
        found = False
    if not found:
        raise ValueError(f"no network {text[:80]!r}: give {_shipped_text()}")
    return str(Path(text).expanduser())


def _model(text: str) -> str:
    """``model=``: a shipped network's name or an existing file; the path as text."""
    return network_path(text)


_model.__name__ = "a network name or file"

MODEL_OPTION = Option("model", _model, None, "the network: a shipped one's name or a .npz file "
                      "(default: the shipped network of the board's game and size)",
                      what="a network name or file")


def network_for(game: str, width: int, height: int) -> Path | None:
    """The shipped network for a board: ``GAME-WxH`` if it exists; on a board of a size the
    game's random set-up draws (Connect Four: the course's 9-12 x 9-12), ``GAME-random``, the
    network trained on those drawn boards (``train --size random``), if it exists; else the
    game's network nearest in size (None when the game has none)."""
    shipped = shipped_networks()
    exact = shipped.get(f"{game}-{width}x{height}")
    if exact is not None:
        return exact
    drawn = get_game(game).is_random_size
    if f"{game}-random" in shipped and drawn is not None and drawn(width, height):
        return shipped[f"{game}-random"]
    sized = []
    for name, path in shipped.items():
        g, _, size = name.rpartition("-")
        if g == game and "x" in size:
            w, h = (int(v) for v in size.split("x", 1))
            sized.append((abs(w * h - width * height), name, path))
    return min(sized)[2] if sized else None


class BadNetworkFile(EngineUnavailable):
    """A ``model=`` file that exists but is no network boardai reads (corrupt, truncated, another
    format): the command fails (exit status 1) with this one line, as for any unusable engine."""


def load_network(path: str | Path):
    """A network file with one BLAS thread set; BadNetworkFile (a ValueError) naming the file
    when it is not one."""
    import zipfile

    from boardai.nn import model
    model.set_blas_threads(1)
    try:
        return model.load(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        raise BadNetworkFile(f"model={path}: not a network file boardai reads "
                             f"({type(exc).__name__}: {exc})") from None


class _Networks:
    """An engine's network: the one ``model=`` names, or the shipped one of each board's game
    and size, loaded when first needed."""

    def __init__(self, path: str | None):
        self.fixed = load_network(path) if path is not None else None
        self.loaded: dict[str, object] = {}

    def __call__(self, board: Board):
        net = self.fixed
        if net is None:
            path = network_for(board.game_name, board.width, board.height)
            if path is None:
                raise EngineUnavailable(
                    f"no network ships for {board.game_name} yet: give "
                    f"model=PATH (a network trained by boardai train)")
            net = self.loaded.get(str(path))
            if net is None:
                net = self.loaded[str(path)] = load_network(path)
        if board.game_name != net.config.game:
            raise EngineUnavailable(f"the network plays {net.config.game}, "
                                    f"not {board.game_name}")
        return net


def _reads_local_files(options: dict[str, str]) -> bool:
    """Only a model given as a path reads a file of this machine (a shipped name does not)."""
    text = options.get("model")
    return text is not None and text not in shipped_networks()


class NetworkEvaluator:
    """The GuidedMcts evaluator protocol over a network (the nn engine sets the network of the
    board being searched before each search)."""

    def __init__(self, network=None):
        self.network = network

    def evaluate(self, states: np.ndarray):
        return self.network.policy_value(states)


class NnEngine(GuidedMcts):
    name = "nn"
    uses_local_files = True
    summary = "PUCT search guided by a network's priors and values (a shipped one or model=PATH)"
    options = (MODEL_OPTION,) + GuidedMcts.options

    reads_local_files = staticmethod(_reads_local_files)

    def __init__(self, **opts: Any):
        self.networks = _Networks(opts.get("model"))
        super().__init__(NetworkEvaluator(), **opts)

    def search(self, board: Board, limit: Limit | None = None) -> PlayResult:
        self.evaluator.network = self.networks(board)
        return super().search(board, limit)


class PolicyEngine(Engine):
    name = "policy"
    uses_local_files = True
    summary = "a network's most likely move, no search (a shipped one or model=PATH)"
    options = (MODEL_OPTION,)

    reads_local_files = staticmethod(_reads_local_files)

    def __init__(self, **opts: Any):
        super().__init__(**opts)
        self.networks = _Networks(opts.get("model"))

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        priors, values = self.networks(board).policy_value(board.state[None, :])
        legal = list(board.legal_moves)
        best = max(legal, key=lambda m: priors[0, m])
        value = float(values[0])
        moves = [MoveInfo(m, board.move_name(m), prior=float(priors[0, m]))
                 for m in sorted(legal, key=lambda m: -priors[0, m])]
        return PlayResult(best, board.move_name(best), value=value, pv=[board.move_name(best)],
                          nodes=1, time_s=clock(), moves=moves,
                          info={"prior": float(priors[0, best])})


__all__ = ["load_network", "network_for", "network_path", "NetworkEvaluator", "NnEngine",
           "PolicyEngine", "shipped_networks"]
