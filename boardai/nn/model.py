"""A small residual CNN with a policy and a value head, forward pass in numpy (no framework).

Fully convolutional with global pooling (as KataGo and Polygames), so one set of weights plays
every board size of its game::

    planes [B, 6, H, W]
      -> stem: conv 3x3 (6 -> C), ReLU
      -> R residual blocks: conv 3x3, ReLU, conv 3x3, + skip, ReLU   (batch norm folded in)
      -> policy head: conv 1x1 (C -> 2), ReLU, then
            cell logits   = a 1x1 conv of those 2 channels (one logit per spot)
            extra logits  = dense(mean and max of the trunk over the board)   (Hex's swap)
            column games  : column x's logit = logsumexp of its spots' logits
      -> value head: conv 1x1 (C -> Cv), ReLU, mean and max over the board (2 Cv), dense
         (-> hidden), ReLU, dense (-> 1), tanh: the value for the side to move in [-1, 1]

The action layout (``features.py``): cell games take action ``y*W + x`` for spot (x, y) and the
extra actions after the cells; column games one action per column.

Activations are kept channels-last (``[B, H, W, C]``) and every 3x3 convolution is im2col (nine
shifted copies into one ``[B*H*W, 9*C]`` matrix) and one float32 matmul.  A 3x3 weight is stored
as ``[9*Cin, Cout]``, rows ordered (dy, dx, cin); from a framework's OIHW tensor that is
``w.transpose(2, 3, 1, 0).reshape(9*Cin, Cout)``.  ``fold_batchnorm`` folds a trained batch norm
into the conv before it.

A network is one ``.npz``: its arrays plus ``config``, a JSON text (game, planes, channels,
blocks, head sizes), and optionally ``about``, a JSON text saying where it comes from (the
training run's settings, generation, games and CPU-hours: ``boardai train export``).  ``random_init(config, seed)``, ``Network.save(path)``, ``load(path)``;
``Network.policy_value(states)`` is what a search calls.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numba import njit

from boardai.games.game import get_game
from boardai.games.layout import GAME, HEIGHT, NUM_ACTIONS, WIDTH
from boardai.nn import features

FORMAT = 1
CHUNK = 32          # positions per pass through the network (benchmarks/nn_inference.py)


@dataclass(frozen=True)
class Config:
    """The shape of a network.  ``extra_actions``: actions without a spot (from the game).
    ``transpose_white`` (Hex): the network reads every position in the mover's frame
    (``features.to_mover_frame``: White-to-move positions transposed, so the side to move
    always joins top and bottom) and its policy is turned back onto the board."""

    game: str
    channels: int = 32
    blocks: int = 4
    planes: int = features.PLANES
    policy_channels: int = 2
    value_channels: int = 8
    value_hidden: int = 32
    extra_actions: int = -1            # -1: the game's (features.extra_actions)
    format: int = FORMAT
    transpose_white: bool = False      # Hex: reads White-to-move positions transposed

    def resolved(self) -> "Config":
        game = get_game(self.game)
        extra = features.extra_actions(game) if self.extra_actions < 0 else self.extra_actions
        if self.transpose_white and features.by_columns(game):
            raise ValueError(f"transpose_white is for cell games (Hex), not {game.title}")
        return Config(**{**asdict(self), "game": game.name, "extra_actions": extra})


def fold_batchnorm(w: np.ndarray, b: np.ndarray | None, gamma: np.ndarray, beta: np.ndarray,
                   mean: np.ndarray, var: np.ndarray, eps: float = 1e-5
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A conv (weight ``[..., Cout]``, bias or None) followed by batch norm in inference mode, as
    one conv: ``(w * s, (b - mean) * s + beta)`` with ``s = gamma / sqrt(var + eps)``."""
    scale = gamma / np.sqrt(var + eps)
    bias = np.zeros_like(mean) if b is None else b
    return ((w * scale).astype(np.float32),
            ((bias - mean) * scale + beta).astype(np.float32))


# --- the forward pass ----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def im2col3x3(x, cols):
    """``cols[b, y, x, k, c]`` = ``x[b, y+dy, x+dx, c]`` for the nine taps ``k = (dy+1)*3 +
    (dx+1)``, zero off the board (padding 1); twice as fast as nine numpy slice copies."""
    nb, h, w, nc = x.shape
    for b in range(nb):
        for y in range(h):
            for xx in range(w):
                k = 0
                for dy in range(-1, 2):
                    for dx in range(-1, 2):
                        yy = y + dy
                        xs = xx + dx
                        if 0 <= yy < h and 0 <= xs < w:
                            for c in range(nc):
                                cols[b, y, xx, k, c] = x[b, yy, xs, c]
                        else:
                            for c in range(nc):
                                cols[b, y, xx, k, c] = 0.0
                        k += 1


class _Scratch:
    """The im2col buffers of one batch shape, reused by every 3x3 conv of a forward pass."""

    def __init__(self, b: int, h: int, w: int):
        self.shape = (b, h, w)
        self.cols: dict[int, np.ndarray] = {}

    def conv3x3(self, x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """``x [B, H, W, Cin]`` -> ``[B, H, W, Cout]``: zero padding 1, im2col, one matmul."""
        b, h, w = self.shape
        cin = x.shape[-1]
        cols = self.cols.get(cin)
        if cols is None:
            cols = self.cols[cin] = np.empty((b, h, w, 9, cin), dtype=np.float32)
        im2col3x3(x, cols)
        out = cols.reshape(b * h * w, 9 * cin) @ weight
        out += bias
        return out.reshape(b, h, w, -1)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


def _pool(x: np.ndarray) -> np.ndarray:
    """``[B, H, W, C]`` -> ``[B, 2C]``: the mean and the max of every channel over the board."""
    return np.concatenate([x.mean(axis=(1, 2)), x.max(axis=(1, 2))], axis=1)


class Network:
    """A network's config and weights (float32 arrays by name); see the module docstring."""

    def __init__(self, config: Config, weights: dict[str, np.ndarray], about: dict | None = None):
        self.config = config.resolved()
        self.about = dict(about or {})     # where the weights come from (boardai train export)
        self.game = get_game(self.config.game)
        self.weights = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items()}
        shapes = weight_shapes(self.config)
        missing = set(shapes) - set(self.weights)
        if missing:
            raise ValueError(f"the network lacks {', '.join(sorted(missing))}")
        wrong = [f"{k} {self.weights[k].shape} (config: {shape})" for k, shape in shapes.items()
                 if self.weights[k].shape != shape]
        if wrong:
            raise ValueError(f"weights of the wrong shape: {'; '.join(wrong)}")

    # --- raw outputs --------------------------------------------------------------------
    def forward(self, planes: np.ndarray, num_actions: int,
                chunk: int = CHUNK) -> tuple[np.ndarray, np.ndarray]:
        """``planes [B, PLANES, H, W]`` -> (logits ``[B, num_actions]``, values ``[B]``), run
        ``chunk`` positions at a time (the buffers of a chunk stay in cache)."""
        b = planes.shape[0]
        if b <= chunk:
            return self._forward(planes, num_actions)
        parts = [self._forward(planes[i:i + chunk], num_actions) for i in range(0, b, chunk)]
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))

    def _forward(self, planes: np.ndarray, num_actions: int) -> tuple[np.ndarray, np.ndarray]:
        wt = self.weights
        b, _, h, w = planes.shape
        scratch = _Scratch(b, h, w)
        x = _relu(scratch.conv3x3(np.ascontiguousarray(planes.transpose(0, 2, 3, 1)),
                                  wt["stem.w"], wt["stem.b"]))
        for i in range(self.config.blocks):
            y = _relu(scratch.conv3x3(x, wt[f"block{i}.conv1.w"], wt[f"block{i}.conv1.b"]))
            y = scratch.conv3x3(y, wt[f"block{i}.conv2.w"], wt[f"block{i}.conv2.b"])
            y += x
            x = _relu(y)
        trunk = x.reshape(b * h * w, -1)
        # policy head
        p = _relu(trunk @ wt["policy.conv.w"] + wt["policy.conv.b"])
        cell = (p @ wt["policy.cell.w"] + wt["policy.cell.b"]).reshape(b, h, w)
        logits = np.empty((b, num_actions), dtype=np.float32)
        if features.by_columns(self.game):
            top = cell.max(axis=1, keepdims=True)
            logits[:] = (np.log(np.exp(cell - top).sum(axis=1)) + top[:, 0, :])[:, :num_actions]
        else:
            logits[:, :h * w] = cell.reshape(b, h * w)
            extra = num_actions - h * w
            if extra:
                pooled = _pool(x)
                logits[:, h * w:] = (pooled @ wt["policy.extra.w"] + wt["policy.extra.b"])[:, :extra]
        # value head
        v = _relu(trunk @ wt["value.conv.w"] + wt["value.conv.b"]).reshape(b, h, w, -1)
        hidden = _relu(_pool(v) @ wt["value.fc1.w"] + wt["value.fc1.b"])
        values = np.tanh(hidden @ wt["value.fc2.w"] + wt["value.fc2.b"])[:, 0]
        return logits, values

    # --- what a search calls ------------------------------------------------------------
    def policy_value(self, states) -> tuple[np.ndarray, np.ndarray]:
        """Priors ``[B, num_actions]`` (softmax over the legal moves, 0 on illegal ones; all 0
        once a game is over) and values ``[B]`` in [-1, 1] for the side to move, of kernel
        states of one board size of the network's game."""
        stack = features.stack_states(states)
        if int(stack[0, GAME]) != self.game.kernel_id:
            raise ValueError(f"this network plays {self.game.title}, not "
                             f"{features.game_of_state(stack[0]).title}")
        num_actions = int(stack[0, NUM_ACTIONS])
        w, h = int(stack[0, WIDTH]), int(stack[0, HEIGHT])
        if not features.by_columns(self.game) and num_actions - w * h > self.config.extra_actions:
            raise ValueError(f"the network has {self.config.extra_actions} logits for moves "
                             f"without a spot, the position {num_actions - w * h}")
        white = features.white_to_move(stack) if self.config.transpose_white else None
        return self.predict(features.encode(stack), features.legal_mask(stack), white)

    def predict(self, planes: np.ndarray, mask: np.ndarray,
                white=None) -> tuple[np.ndarray, np.ndarray]:
        """``policy_value`` from input planes ``[B, PLANES, H, W]`` and legal-move masks ``[B,
        num_actions]`` (what ``boardai.env`` observes: ``observation`` and ``action_mask``);
        a ``transpose_white`` network also needs ``white`` (``[B]`` bool: White to move)."""
        planes = np.asarray(planes, dtype=np.float32)
        mask = np.asarray(mask).astype(np.bool_)
        if self.config.transpose_white:
            if white is None:
                raise ValueError("this network reads positions in the mover's frame: give "
                                 "white, which positions have White to move")
            white = np.asarray(white, dtype=np.bool_).reshape(-1)
            logits, values = self._forward_mover_frame(planes, mask.shape[-1], white)
        else:
            logits, values = self.forward(planes, mask.shape[-1])
        logits = np.where(mask, logits, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0
        priors = np.exp(logits - top)
        total = priors.sum(axis=1, keepdims=True)
        np.divide(priors, total, out=priors, where=total > 0)
        return priors.astype(np.float32), values.astype(np.float32)

    def _forward_mover_frame(self, planes: np.ndarray, num_actions: int,
                             white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``forward`` with White-to-move positions transposed in and their logits back."""
        h, w = planes.shape[-2:]
        if not white.any():
            return self.forward(planes, num_actions)
        if h == w:
            logits, values = self.forward(features.to_mover_frame(planes, white), num_actions)
            return features.from_mover_frame(logits, white, w), values
        # a non-square board: the transposed positions have another shape, a pass of their own
        logits = np.empty((planes.shape[0], num_actions), dtype=np.float32)
        values = np.empty(planes.shape[0], dtype=np.float32)
        black = ~white
        if black.any():
            logits[black], values[black] = self.forward(planes[black], num_actions)
        lw, values[white] = self.forward(
            np.ascontiguousarray(np.swapaxes(planes[white], -1, -2)), num_actions)
        logits[white] = features.transpose_policy(lw, h, w)
        return logits, values

    # --- files --------------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the network to one ``.npz`` (weights + the config as JSON): a path or a binary
        file object."""
        arrays = {"config": np.array(json.dumps(asdict(self.config))), **self.weights}
        if self.about:
            arrays["about"] = np.array(json.dumps(self.about))
        if hasattr(path, "write"):
            np.savez(path, **arrays)
            return
        with open(Path(path), "wb") as f:
            np.savez(f, **arrays)

    def __repr__(self) -> str:
        c = self.config
        return f"Network({c.game}, {c.channels}x{c.blocks}, {self.parameters()} parameters)"

    def parameters(self) -> int:
        return int(sum(v.size for v in self.weights.values()))


def load(path: str | Path) -> Network:
    """A network saved by ``Network.save``."""
    with np.load(Path(path), allow_pickle=False) as data:
        config = json.loads(str(data["config"]))
        if config.get("format", FORMAT) > FORMAT:
            raise ValueError(f"{path}: network format {config['format']} is newer than this "
                             f"boardai reads ({FORMAT})")
        about = json.loads(str(data["about"])) if "about" in data.files else {}
        weights = {k: data[k] for k in data.files if k not in ("config", "about")}
    return Network(Config(**config), weights, about)


def save(network: Network, path: str | Path) -> None:
    """``network.save(path)``."""
    network.save(path)


def weight_shapes(config: Config) -> dict[str, tuple[int, ...]]:
    """Every weight's name and shape."""
    c = config.resolved()
    ch, pc, vc = c.channels, c.policy_channels, c.value_channels
    shapes: dict[str, tuple[int, ...]] = {"stem.w": (9 * c.planes, ch), "stem.b": (ch,)}
    for i in range(c.blocks):
        for j in (1, 2):
            shapes[f"block{i}.conv{j}.w"] = (9 * ch, ch)
            shapes[f"block{i}.conv{j}.b"] = (ch,)
    shapes.update({
        "policy.conv.w": (ch, pc), "policy.conv.b": (pc,),
        "policy.cell.w": (pc, 1), "policy.cell.b": (1,),
        "policy.extra.w": (2 * ch, max(c.extra_actions, 1)),
        "policy.extra.b": (max(c.extra_actions, 1),),
        "value.conv.w": (ch, vc), "value.conv.b": (vc,),
        "value.fc1.w": (2 * vc, c.value_hidden), "value.fc1.b": (c.value_hidden,),
        "value.fc2.w": (c.value_hidden, 1), "value.fc2.b": (1,),
    })
    return shapes


def random_init(config: Config | dict, seed: int = 0) -> Network:
    """A network with He-normal weights and zero biases (the second conv of each residual block
    scaled down so a deep random network stays tame)."""
    if isinstance(config, dict):
        config = Config(**config)
    config = config.resolved()
    rng = np.random.default_rng(seed)
    weights = {}
    for name, shape in weight_shapes(config).items():
        if name.endswith(".b"):
            weights[name] = np.zeros(shape, dtype=np.float32)
            continue
        scale = np.sqrt(2.0 / shape[0])
        if name.endswith("conv2.w"):
            scale *= 0.25
        weights[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    return Network(config, weights)


def set_blas_threads(n: int) -> bool:
    """Ask numpy's bundled OpenBLAS to use ``n`` threads for every matmul from now on (a
    process-wide setting, like ``OPENBLAS_NUM_THREADS=n`` before start); False when that BLAS is
    not found.  On a machine busy with other work, one thread is several times faster for the
    small matmuls of a batch (``benchmarks/nn_inference.py``)."""
    import ctypes
    import glob
    import os

    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
        lib = ctypes.CDLL(path)
        for symbol in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",
                       "openblas_set_num_threads"):
            setter = getattr(lib, symbol, None)
            if setter is not None:
                setter(ctypes.c_int(n))
                return True
    return False
