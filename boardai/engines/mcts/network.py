"""The network's priors in ``mcts`` (``net``, ``net_visits``, ``prior_weight``), as MoHex-CNN,
and its value mixed into the evaluated nodes' statistics (``value_weight``), as MoHex-3HNN.

The plain tree keeps its playouts, RAVE, tree knowledge and solver; a network adds what it knows
of a position to the children's ``PRIOR`` column, the one the learned move patterns fill and the
progressive bias reads (``kernel.py``).  A node is evaluated once, when it reaches ``net_visits``
visits: the jitted simulations copy its position into the tree's queue and go on, and between
slices the engine evaluates the queue in one batch (``NetPriors.flush``) and writes the priors
(``kernel.write_priors``).  The root is evaluated before the first slice.  With
``value_weight`` the value of the same call counts as that many visits of the node at the
network's win chance (``kernel.add_values``; the network's value is for the side to move, the
node's wins for the player who moved into it).

``net`` is ``auto`` (the network trained from a teacher's games shipped for the board's game and
exact size, ``boardai/data/networks/<game>-<W>x<H>-teacher.npz``, else on a square board the
game's square one of the nearest size; none shipped: the search runs without and its info says
so), ``off``, a shipped network's name (``hex-9x9``: the ``nn``
engine's self-play network) or a ``.npz`` written by ``boardai.nn.model``.  A file that is no network, or one of another game
or input planes, is refused with one line (``EngineUnavailable``).  The network runs with one
BLAS thread (several times faster for small batches on a busy machine).

A timed move keeps its time: a batch is evaluated only as far as the measured cost per position
fits before the deadline; what is left waiting when the move ends is forgotten (its nodes may
join again in a later move).
"""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path

import numpy as np

from boardai.engines.base import EngineUnavailable
from boardai.engines.mcts import kernel as MK
from boardai.games.base import Board

NETWORKS_DIR = Path(__file__).resolve().parents[2] / "data" / "networks"
QUEUE = 256               # positions a tree's queue holds
EVAL_MARGIN_S = 0.010     # a batch must end this far before the deadline,
EVAL_SAFETY = 1.5         # at this many times its measured cost a position
FIRST_COST_S = 0.002      # a position's evaluation before one has been timed


def shipped_path(name: str) -> Path | None:
    """The shipped network called ``name`` (``hex-9x9-teacher``), or None."""
    path = NETWORKS_DIR / f"{name}.npz"
    return path if path.is_file() else None


def auto_path(board: Board) -> Path | None:
    """``net=auto``: the teacher-trained network shipped for the board's game and exact size
    (``<game>-<W>x<H>-teacher``); on a square board without one, the game's square teacher
    network of the nearest size (the networks are fully convolutional: the 9x9 one guides
    11x11 searches too, docs/experiments.md); else None."""
    exact = shipped_path(f"{board.game_name}-{board.width}x{board.height}-teacher")
    if exact is not None or board.width != board.height:
        return exact
    square = re.compile(rf"{re.escape(board.game_name)}-(\d+)x\1-teacher")
    sizes = [(abs(int(m[1]) - board.width), -int(m[1]), path)      # ties: the larger
             for path in NETWORKS_DIR.glob(f"{board.game_name}-*-teacher.npz")
             if (m := square.fullmatch(path.stem))]
    return min(sizes)[2] if sizes else None


def parse_net(text: str) -> str:
    """``net=``: ``auto``, ``off``, a shipped network's name or an existing file."""
    if text in ("auto", "off"):
        return text
    if shipped_path(text) is not None:
        return text
    path = Path(text).expanduser()
    if not path.is_file():
        raise ValueError(f"no network {text!r}: give auto, off, a shipped network's name or "
                         "a .npz file written by boardai.nn")
    return str(path)


parse_net.__name__ = "auto, off, a network name or file"


def load_file(text: str):
    """The network ``text`` names (a shipped name or a file); one-line ``EngineUnavailable``
    when it is no network boardai reads."""
    from boardai.nn import model

    path = shipped_path(text) or Path(text)
    model.set_blas_threads(1)
    try:
        return model.load(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        raise EngineUnavailable(f"net={text}: not a network file boardai reads "
                                f"({type(exc).__name__}: {exc})") from None


def check(net, board: Board, text: str) -> None:
    """Refuse (one line) a network that cannot guide a search of ``board``."""
    from boardai.nn import features

    cfg = net.config
    if cfg.game != board.game_name:
        raise EngineUnavailable(f"net={text}: the network plays {cfg.game}, not "
                                f"{board.game_name}")
    if cfg.planes != features.PLANES:
        raise EngineUnavailable(f"net={text}: the network reads {cfg.planes} input planes, "
                                f"boardai gives {features.PLANES}")
    extra = board.num_actions - board.width * board.height
    if not features.by_columns(net.game) and extra > cfg.extra_actions:
        raise EngineUnavailable(f"net={text}: the network has {cfg.extra_actions} logits for "
                                f"moves without a cell, a {board.width}x{board.height} board "
                                f"{extra}")
    size = net.about.get("size")
    if size is not None and int(size) != board.width:
        raise EngineUnavailable(f"net={text}: the network is for {size}x{size} boards, not "
                                f"{board.width}x{board.height}")


class NetPriors:
    """One engine's network priors: the networks loaded, this move's network, the cost of a
    position's evaluation, and the move's figures (positions, seconds)."""

    def __init__(self, spec: str | None):
        self.spec = spec                       # the net option (None: the game's default)
        self.loaded: dict[str, object] = {}    # networks by name or file, read once
        if spec is not None and spec not in ("auto", "off"):
            self.loaded[spec] = load_file(spec)     # a bad file is refused before any game
        self.warm: set[tuple] = set()
        self.network = None                    # this move's, or None
        self.note = ""                         # this move's: which network, or why none
        self.cost = FIRST_COST_S               # seconds a position, measured
        self.evals = 0
        self.seconds = 0.0

    def choose(self, board: Board, default: str) -> None:
        """Pick this move's network for ``board`` (loaded once per file and board size)."""
        spec = default if self.spec is None else self.spec
        self.network, self.evals, self.seconds = None, 0, 0.0
        if not spec or spec == "off":
            self.note = ""
            return
        text = spec
        if spec == "auto":
            path = auto_path(board)
            if path is None:
                self.note = (f"none shipped for {board.game_name} {board.width}x"
                             f"{board.height}: playing without")
                self.cost = FIRST_COST_S
                return
            text = path.stem
        if text not in self.loaded:
            self.loaded[text] = load_file(text)
        net = self.loaded[text]
        check(net, board, text)
        key = (text, board.game_name, board.width, board.height)
        if key not in self.warm:               # compile and time it, off the clock
            batch = np.repeat(board.state[None, :], 8, axis=0)
            net.policy_value(batch)
            clock = time.perf_counter()
            net.policy_value(batch)
            self.cost = (time.perf_counter() - clock) / 8
            self.warm.add(key)
        self.network = net
        self.note = Path(text).stem if spec == "auto" or shipped_path(text) else text

    def queue_size(self) -> int:
        """The positions a tree's queue holds this move (0 without a network)."""
        return QUEUE if self.network is not None else 0

    def queue(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """An empty queue for a tree (positions of ``state``'s length, node numbers)."""
        n = self.queue_size()
        return (np.zeros((n, state.shape[0]), dtype=np.int64), np.zeros(n, dtype=np.int64))

    def flush(self, tree, deadline: float | None, params: np.ndarray | None = None) -> None:
        """Evaluate the positions waiting in ``tree``'s queue (as many as fit before
        ``deadline``) and write their priors, and their values as ``params``' VALUE visits
        (``kernel.add_values``; none without ``params``); the rest wait."""
        waiting = int(tree.meta[MK.QUEUED])
        if waiting == 0 or self.network is None:
            return
        n = waiting
        if deadline is not None:
            left = deadline - time.perf_counter() - EVAL_MARGIN_S
            n = min(n, int(left / (EVAL_SAFETY * self.cost)))
            if n <= 0:
                return
        states, nodes = tree.queue_states, tree.queue_nodes
        clock = time.perf_counter()
        priors, values = self.network.policy_value(states[:n])
        MK.write_priors(tree.ints, tree.flts, nodes, n, np.asarray(priors, dtype=np.float64))
        if params is not None and params[MK.P_VALUE] > 0.0:
            MK.add_values(tree.flts, nodes, n, np.asarray(values, dtype=np.float64), params)
        took = time.perf_counter() - clock
        self.cost = 0.7 * self.cost + 0.3 * (took / n)
        self.evals += n
        self.seconds += took
        if n < waiting:                         # the rest move to the front
            states[:waiting - n] = states[n:waiting].copy()
            nodes[:waiting - n] = nodes[n:waiting].copy()
        tree.meta[MK.QUEUED] = waiting - n

    @staticmethod
    def forget(tree) -> None:
        """The move ends: the positions still waiting are dropped (their nodes may join again)."""
        waiting = int(tree.meta[MK.QUEUED])
        if waiting:
            tree.flts[tree.queue_nodes[:waiting], MK.NET] = 0.0
            tree.meta[MK.QUEUED] = 0

    @staticmethod
    def swapped(tree, a: int, b: int) -> None:
        """Tree rows ``a`` and ``b`` traded places (the tree knowledge): so do their queue
        entries."""
        waiting = int(tree.meta[MK.QUEUED])
        if waiting:
            nodes = tree.queue_nodes[:waiting]
            at_a, at_b = nodes == a, nodes == b
            nodes[at_a], nodes[at_b] = b, a


__all__ = ["NetPriors", "auto_path", "check", "load_file", "parse_net", "shipped_path"]
