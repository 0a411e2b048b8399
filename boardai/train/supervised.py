"""Supervised training of the residual network on teacher data (``boardai train supervised``):
move prediction and game value learnt from a stronger player's recorded games
(``train/teacher.py``), measured on held-out games.

- **Data.** One or more teacher files of one board size.  Each game is held out or trained on
  by a hash of the file's seed, the game's index and the run's seed, so a game keeps its side
  while a live file grows; ``holdout`` is the fraction held out.
- **Frame.** With ``transpose_white`` (the default) every position is read in the mover's
  frame (``nn/features.py``: White-to-move positions transposed, so the side to move joins top
  and bottom) and the exported network says so in its config.
- **Targets.** Policy: the teacher's root visit distribution where it gave one, else its move
  (one-hot); ``policy_target="move"`` trains on its move everywhere (held out: still the
  visits).  Value: the game's result for the side to move (+1 won, -1 lost), mixed with the
  teacher's win rate (as ``2w - 1``) by ``value_mix`` where it gave one; its loss weighted by
  ``value_weight``.  AdamW at ``lr``, constant or (``schedule="cosine"``) down to 0 over the
  run's epochs.
- **Augmentation.** Each training example is shown under a random symmetry of the game in the
  frame (Hex: the 180-degree turn).
- **Measures** per epoch: the training losses, and on the held-out positions the policy's top-1
  and top-5 agreement with the teacher's move (legal moves only; top-1 also on the positions
  the teacher searched, the rest being moves it played by proof), the policy cross-entropy, and
  the value's squared error against the result.  The baseline, the same agreement of the
  shipped move-pattern table (``mcts``'s priors), is measured once a session on the same
  held-out positions and kept in ``supervised.json``.
- **Files** in the run's folder: ``supervised.json`` (settings and data), ``checkpoint.pt``
  (weights, optimiser, epochs done, random states; written atomically after every epoch, so a
  stopped run resumes at the epoch it was in), ``metrics.jsonl`` (one line an epoch),
  ``network.npz`` (the latest epoch's network as ``boardai.nn.model`` reads it: ``nn:model=``),
  ``best.npz`` (the network of the epoch with the lowest held-out policy cross-entropy so far:
  on little data the network soon learns the training games by heart), and ``report/``
  (``boardai train report DIR``).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from boardai.train import c4_labels
from boardai.train.teacher import TEACHER_GAME, TeacherError, read_games, training_arrays

CONFIG = "supervised.json"
CHECKPOINT = "checkpoint.pt"
METRICS = "metrics.jsonl"
NETWORK = "network.npz"
BEST = "best.npz"


class SupervisedError(ValueError):
    """Bad data, settings or run folder (the message says why, in one line)."""


@dataclass
class Settings:
    """A supervised run: the network's shape, the optimiser's, and the data's split."""

    blocks: int = 4
    channels: int = 32
    batch: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    seed: int = 0
    holdout: float = 0.1
    value_mix: float = 0.0
    transpose_white: bool = True        # positions read in the mover's frame (features.py)
    policy_target: str = "visits"       # "visits" (the teacher's, where given) or "move"
    schedule: str = "constant"          # the learning rate: "constant", or "cosine" to 0
    value_weight: float = 1.0           # the value loss's weight beside the policy's
    init: str = ""                      # a network file (.npz) to start from ("": random)
    balance: float = 0.0                # labels: repeat rarer classes' positions, at most x this

    # what must match to resume a run (the rest may change between sessions)
    FIXED = ("blocks", "channels", "seed", "holdout", "transpose_white")
    TARGETS = ("visits", "move")
    SCHEDULES = ("constant", "cosine")


@dataclass
class Data:
    """Training and held-out arrays of one board size."""

    size: int                               # Hex: the side; Connect Four: the width
    train: dict
    held: dict
    games: tuple[int, int]                  # (training games, held-out games)
    notes: list[str] = field(default_factory=list)
    held_games: list[dict] = field(default_factory=list)
    game: str = TEACHER_GAME
    height: int | None = None               # Connect Four's (Hex: ``size``)


# --- data ----------------------------------------------------------------------------------
def held_out(file_seed, index: int, seed: int, fraction: float) -> bool:
    """Whether game ``index`` of a file of seed ``file_seed`` is held out (a stable hash)."""
    digest = hashlib.sha256(f"{file_seed}:{index}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < fraction


def load_data(paths, settings: Settings, size: int | None = None) -> Data:
    """Read teacher files (of one board size, ``size`` if given) and split their games, or
    Connect Four files of solver-labelled positions (``c4_labels``), split by position."""
    if not paths:
        raise SupervisedError("give one or more teacher data files (boardai train teacher)")
    labels = [c4_labels.is_labels_file(p) for p in paths]
    if any(labels):
        if not all(labels):
            raise SupervisedError("the data files of one run are all teacher files (Hex) or "
                                  "all Connect Four labels files, not both")
        return load_labels(paths, settings)
    notes: list[str] = []
    train_games: list[dict] = []
    held_games: list[dict] = []
    for path in paths:
        try:
            header, games = read_games(path, notes.append)
        except TeacherError as exc:
            raise SupervisedError(str(exc)) from None
        if header is None:
            raise SupervisedError(f"{path} is empty: not a teacher data file")
        if header.get("game") != TEACHER_GAME or not isinstance(header.get("size"), int):
            raise SupervisedError(f"{path}: a teacher file of Hex with a board size is needed")
        n = header["size"]
        if size is None:
            size = n
        elif n != size:
            raise SupervisedError(f"{path} holds {n}x{n} games, not {size}x{size}: the data of "
                                  "one run is of one board size")
        if not games:
            raise SupervisedError(f"{path} holds no finished games")
        for g in games:
            (held_games if held_out(header.get("seed"), g["i"], settings.seed, settings.holdout)
             else train_games).append(g)
    if not train_games or not held_games:
        raise SupervisedError(
            f"{len(train_games) + len(held_games)} games split into {len(train_games)} to train "
            f"on and {len(held_games)} held out: both need games (more data, or another "
            "--holdout)")
    try:
        train = training_arrays(train_games, size)
        held = training_arrays(held_games, size)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise SupervisedError(f"a game record cannot be replayed on {size}x{size}: "
                              f"{exc}") from None
    if settings.policy_target not in Settings.TARGETS:
        raise SupervisedError(f"policy target {settings.policy_target!r}: use one of "
                              f"{', '.join(Settings.TARGETS)}")
    for arrays in (train, held):
        if settings.transpose_white:
            mover_frame(arrays, size)
        if settings.policy_target == "move" and arrays is train:    # held out: visits still
            arrays["policy"] = np.eye(arrays["policy"].shape[1], dtype=np.float32)[
                arrays["move"]]
        arrays["mask"] = legal_mask(arrays["planes"], arrays["policy"].shape[1])
        arrays["target"] = value_target(arrays, settings.value_mix)
        bad = ~arrays["mask"][np.arange(len(arrays["move"])), arrays["move"]]
        if bad.any():
            raise SupervisedError("a recorded teacher move is illegal in its position: the "
                                  "data is corrupt")
    return Data(size, train, held, (len(train_games), len(held_games)), notes, held_games)


def load_labels(paths, settings: Settings) -> Data:
    """Connect Four positions labelled by the exact solver (``c4_labels``): each position is
    held out or trained on by the hash of its file's seed, its index and ``settings.seed``.
    The policy target is uniform over the best columns, the value the sign of the best score;
    positions are read as the board shows them (the mover's frame is Hex's: ``train`` sets
    ``transpose_white`` False for such files)."""
    notes: list[str] = []
    train_recs: list[dict] = []
    held_recs: list[dict] = []
    for path in paths:
        try:
            header, records = c4_labels.read_labels(path, notes.append)
        except c4_labels.LabelError as exc:
            raise SupervisedError(str(exc)) from None
        for r in records:
            if "scores" in r:
                (held_recs if held_out(header.get("seed"), r["i"], settings.seed,
                                       settings.holdout) else train_recs).append(r)
    if settings.balance > 1:
        train_recs = balanced(train_recs, settings.balance)
    if not train_recs or not held_recs:
        raise SupervisedError(
            f"{len(train_recs) + len(held_recs)} labelled positions split into "
            f"{len(train_recs)} to train on and {len(held_recs)} held out: both need positions "
            "(more data, or another --holdout)")
    try:
        train = c4_labels.training_arrays(train_recs)
        held = c4_labels.training_arrays(held_recs)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise SupervisedError(f"a labelled position cannot be replayed on 7x6: {exc}") from None
    for arrays in (train, held):
        arrays["target"] = arrays["result"].copy()
        arrays["exact"] = True
    return Data(c4_labels.WIDTH, train, held, (len(train_recs), len(held_recs)), notes,
                game=c4_labels.GAME, height=c4_labels.HEIGHT)


def balanced(records: list[dict], most: float) -> list[dict]:
    """``records`` with each solver test class's positions (``solvers.connect4.testsets``'s
    ``classify``: stones played and moves left with perfect play) repeated towards the largest class's count, each
    at most ``most`` times: random positions are mostly soon decided (middle-easy), the
    positions of long games (middle-medium, begin-hard) rarer."""
    from boardai.solvers.connect4.testsets import classify, moves_left
    groups: dict[str | None, list[dict]] = {}
    for r in records:
        n = len(r["moves"])
        top = max(r["scores"])
        groups.setdefault(classify(n, moves_left(top, n)), []).append(r)
    largest = max(len(g) for g in groups.values())
    out: list[dict] = []
    for g in groups.values():
        out.extend(g * max(1, min(int(most), round(largest / len(g)))))
    return sorted(out, key=lambda r: r["i"])


def mover_frame(arrays: dict, size: int) -> None:
    """Put ``training_arrays``' positions with White to move in the mover's frame, in place:
    their planes, teacher's move and visit distribution transposed (``features.to_mover_frame``),
    so that the side to move joins top and bottom in every example."""
    from boardai.nn import features
    white = arrays["turn"] == 1
    arrays["planes"] = features.to_mover_frame(arrays["planes"], white)
    arrays["policy"] = features.from_mover_frame(arrays["policy"], white, size)
    arrays["move"] = np.where(white, features.transpose_move(arrays["move"], size, size),
                              arrays["move"])
    arrays["frame_white"] = white


def pattern_agreement(games: list[dict], size: int) -> dict:
    """The baseline of the held-out games: how often the teacher's move has the top weight
    (top-1) or one of the five top weights (top-5) of the shipped Hex move-pattern table, the
    priors ``mcts`` plays with (a tie of t cells counts its share)."""
    from boardai.games.game import get_game
    from boardai.train.teacher import positions
    patterns = get_game(TEACHER_GAME).move_patterns
    table = patterns.table()
    hits = np.zeros(3)
    count = searched = 0
    for game in games:
        for board, entry, _ in positions(game, size):
            chosen = board.parse_move(entry["m"])
            legal = [c for c in board.legal_moves if c < size * size]
            weights = np.array([table[patterns.number(board.state, int(c))] for c in legal])
            mine = weights[legal.index(chosen)]
            above, tied = np.count_nonzero(weights > mine), np.count_nonzero(weights == mine)
            for j, k in enumerate((1, 5)):
                hits[j] += min(1.0, max(0.0, (k - above) / tied))
            if entry.get("c"):
                searched += 1
                hits[2] += min(1.0, max(0.0, (1 - above) / tied))
            count += 1
    return {"positions": count, "top1": hits[0] / max(count, 1),
            "top5": hits[1] / max(count, 1), "top1_searched": hits[2] / max(searched, 1)}


def legal_mask(planes: np.ndarray, actions: int) -> np.ndarray:
    """``[N, actions]`` bool from input planes: the empty playable cells (plane 2) and, after
    them, the swap where it is legal (plane 5)."""
    n, _, h, w = planes.shape
    mask = np.zeros((n, actions), dtype=np.bool_)
    mask[:, :h * w] = planes[:, 2].reshape(n, h * w) > 0.5
    if actions > h * w:
        mask[:, h * w] = planes[:, 5, 0, 0] > 0.5
    return mask


def value_target(arrays: dict, mix: float) -> np.ndarray:
    """The result for the side to move, mixed with the teacher's win rate where it gave one."""
    target = arrays["result"].astype(np.float32).copy()
    if mix > 0:
        w = arrays["value"]
        known = ~np.isnan(w)
        target[known] = (1 - mix) * target[known] + mix * (2 * w[known] - 1)
    return target


# --- the run folder ------------------------------------------------------------------------
def open_run(directory, data_paths, settings: Settings) -> tuple[Settings, int | None]:
    """Create the run folder or check it against ``settings`` (the fixed ones must match a
    run it holds); the settings to use and the run's board size (None for a new run)."""
    directory = Path(directory)
    config = directory / CONFIG
    if directory.exists() and not directory.is_dir():
        raise SupervisedError(f"--out {directory} is a file, not a folder")
    if config.exists():
        try:
            saved = json.loads(config.read_text(encoding="utf-8"))
            # a run written before the mover's frame read positions as the board shows them
            old = Settings(**{"transpose_white": False, **saved["settings"]})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SupervisedError(f"{config} cannot be read: {exc}") from None
        for key in Settings.FIXED:
            if getattr(old, key) != getattr(settings, key):
                raise SupervisedError(
                    f"{directory} holds a run with {key} {getattr(old, key)!r}, not "
                    f"{getattr(settings, key)!r}: give the same to resume it, or another --out")
        return settings, int(saved["size"])
    if directory.exists() and any(directory.iterdir()):
        raise SupervisedError(f"--out {directory} is a folder with other files in it and no "
                              "supervised run: give an empty or new folder")
    return settings, None


def write_config(directory: Path, data_paths, settings: Settings, data: Data) -> None:
    from boardai._files import write_atomic
    directory.mkdir(parents=True, exist_ok=True)
    record = {"game": data.game, "size": data.size, "data": [str(p) for p in data_paths],
              "settings": asdict(settings), "games": list(data.games)}
    if data.game == TEACHER_GAME:
        record["patterns_baseline"] = {k: v if isinstance(v, int) else round(float(v), 5)
                                       for k, v in pattern_agreement(data.held_games,
                                                                     data.size).items()}
    else:
        record["height"] = data.height
    if settings.init:
        old = json.loads((directory / CONFIG).read_text()) if (directory / CONFIG).exists() \
            else {}
        record["init_baseline"] = old.get("init_baseline") or {
            k: round(float(v), 5) for k, v in evaluate(_start_net(settings, data), data.held
                                                       ).items()}
    write_atomic(directory / CONFIG, json.dumps(record, indent=1).encode())


def read_metrics(directory) -> list[dict]:
    path = Path(directory) / METRICS
    if not path.exists():
        return []
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue                    # a line cut short by a kill
        if isinstance(rec, dict) and isinstance(rec.get("epoch"), int):
            out[rec["epoch"]] = rec
    return [out[k] for k in sorted(out)]


def baseline(directory, key: str = "patterns_baseline") -> dict:
    """The pattern table's held-out figures a run's folder keeps (empty if none);
    ``key="init_baseline"``: those of the network the run started from."""
    try:
        config = json.loads((Path(directory) / CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return config.get(key) or {}


def is_run(directory) -> bool:
    return (Path(directory) / CONFIG).exists()


# --- training ------------------------------------------------------------------------------
def train(directory, data_paths, settings: Settings, epochs: int, threads: int = 1,
          progress: Callable[[int, int, int, int], None] | None = None,
          note: Callable[[str], None] | None = None) -> list[dict]:
    """Train until the run has ``epochs`` epochs (resuming from its checkpoint), export its
    network after each; the metrics of every epoch of the run.  ``progress(epoch, epochs,
    batches done, batches)``."""
    from dataclasses import replace
    directory = Path(directory)
    if data_paths and all(c4_labels.is_labels_file(p) for p in data_paths):
        settings = replace(settings, transpose_white=False)     # the mover's frame is Hex's
    if settings.init:                   # the network's shape is the file's
        from boardai.nn.model import load
        try:
            config = load(settings.init).config
        except Exception as exc:
            raise SupervisedError(f"--init {settings.init}: not a network file ({exc})") from None
        settings = replace(settings, blocks=config.blocks, channels=config.channels)
    settings, size = open_run(directory, data_paths, settings)
    data = load_data(data_paths, settings, size)
    for text in data.notes:
        (note or (lambda t: None))(text)
    try:
        write_config(directory, data_paths, settings, data)
    except OSError as exc:
        raise SupervisedError(f"cannot write {directory}: {exc.strerror or exc}") from None
    return _fit(directory, data_paths, data, settings, epochs, threads, progress)


def _fit(directory: Path, data_paths, data: Data, settings: Settings, epochs: int,
         threads: int, progress) -> list[dict]:
    """The epochs of ``train`` once its data is read and its folder checked."""
    import torch

    from boardai._files import write_atomic
    from boardai.nn.model import Config
    from boardai.train.torch_net import TorchNet

    torch.set_num_threads(max(1, threads))
    torch.manual_seed(settings.seed)
    init_about = None
    if settings.init:
        net = _start_net(settings, data)
        init_about = _init_about(settings.init)
    else:
        net = TorchNet(Config(data.game, channels=settings.channels, blocks=settings.blocks,
                              transpose_white=settings.transpose_white))
    opt = torch.optim.AdamW(net.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    rng = np.random.default_rng(settings.seed)
    done = 0
    ckpt = directory / CHECKPOINT
    if ckpt.exists():
        try:
            state = torch.load(ckpt, map_location="cpu", weights_only=True)
            net.load_state_dict(state["model"])
            opt.load_state_dict(state["optimizer"])
            done = int(state["epoch"])
            rng.bit_generator.state = state["rng"]
            torch.set_rng_state(state["torch_rng"])
        except Exception as exc:            # a damaged checkpoint: say so, do not guess
            raise SupervisedError(f"{ckpt} cannot be read ({type(exc).__name__}): remove it "
                                  "to start the run again") from None
    if settings.schedule not in Settings.SCHEDULES:
        raise SupervisedError(f"schedule {settings.schedule!r}: use one of "
                              f"{', '.join(Settings.SCHEDULES)}")
    from boardai.games.game import get_game
    game = get_game(data.game)

    train_arrays, held = data.train, data.held
    n = len(train_arrays["move"])
    batches = max(1, math.ceil(n / settings.batch))
    for epoch in range(done, epochs):
        started = time.perf_counter()
        for group in opt.param_groups:      # a resumed run takes this session's rate
            group["lr"] = learning_rate(settings, epoch, epochs)
        net.train()
        if settings.init:               # a shipped network has its batch norms folded
            net.freeze_batchnorm()
        order = rng.permutation(n)
        sums = np.zeros(2)
        for b in range(batches):
            idx = np.sort(order[b * settings.batch:(b + 1) * settings.batch])
            planes, policy, mask = _augmented(train_arrays, idx, rng, game, data.size,
                                              data.height)
            target = train_arrays["target"][idx]
            pl, vl = _losses(net, torch.from_numpy(planes), torch.from_numpy(policy),
                             torch.from_numpy(mask), torch.from_numpy(target))
            opt.zero_grad(set_to_none=True)
            (pl + settings.value_weight * vl).backward()
            opt.step()
            sums += [pl.item() * len(idx), vl.item() * len(idx)]
            if progress:
                progress(epoch + 1, epochs, b + 1, batches)
        figures = evaluate(net, held)
        record = {"epoch": epoch + 1, "train_positions": n,
                  "held_positions": len(held["move"]), "train_games": data.games[0],
                  "held_games": data.games[1],
                  "policy_loss": round(float(sums[0] / n), 5),
                  "value_loss": round(float(sums[1] / n), 5),
                  **{k: round(v, 5) for k, v in figures.items()},
                  "seconds": round(time.perf_counter() - started, 2)}
        net.eval()
        network = net.to_network()
        network.about = {"trained": "supervised on teacher data" if data.game == TEACHER_GAME
                         else "supervised on positions labelled by the exact solver",
                         "init": settings.init or None, "init_about": init_about, "data": [
            str(p) for p in data_paths], "settings": asdict(settings), "held_out": record}
        buf = io.BytesIO()
        network.save(buf)
        buf_ck = io.BytesIO()
        torch.save({"model": net.state_dict(), "optimizer": opt.state_dict(),
                    "epoch": epoch + 1, "rng": rng.bit_generator.state,
                    "torch_rng": torch.get_rng_state()}, buf_ck)
        earlier = [m["held_policy_loss"] for m in read_metrics(directory)
                   if m["epoch"] <= epoch]
        try:
            write_atomic(directory / NETWORK, buf.getvalue())
            if not earlier or record["held_policy_loss"] < min(earlier):
                write_atomic(directory / BEST, buf.getvalue())
            with open(directory / METRICS, "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")     # a rerun epoch's line replaces it
            write_atomic(ckpt, buf_ck.getvalue())
        except OSError as exc:
            raise SupervisedError(f"cannot write {directory}: {exc.strerror or exc}") from None
    return read_metrics(directory)


def learning_rate(settings: Settings, epoch: int, epochs: int) -> float:
    """The rate of epoch ``epoch`` (from 0) of ``epochs``: constant, or a cosine from ``lr``
    down to zero over the run's epochs (the middle of the epoch's span)."""
    if settings.schedule == "cosine":
        return settings.lr * 0.5 * (1 + math.cos(math.pi * (epoch + 0.5) / epochs))
    return settings.lr


def _start_net(settings: Settings, data: Data):
    """The PyTorch twin of the network file ``settings.init`` (refused in one line when it
    cannot be read or is of another game)."""
    from boardai.nn.model import load
    from boardai.train.torch_net import TorchNet
    try:
        network = load(settings.init)
    except Exception as exc:            # missing, corrupt or of an unknown format
        raise SupervisedError(f"--init {settings.init}: not a network file ({exc})") from None
    if network.config.game != data.game:
        raise SupervisedError(f"--init {settings.init} is a {network.config.game} network; "
                              f"the data is {data.game}")
    if network.config.transpose_white != settings.transpose_white:
        raise SupervisedError(f"--init {settings.init} reads positions "
                              f"{'in the mover' if network.config.transpose_white else 'as the board'}"
                              f"'s frame: train it the same way")
    return TorchNet.from_network(network)


def _init_about(path: str) -> dict | None:
    """The ``about`` record of the network a run started from (where it came from)."""
    from boardai.nn.model import load
    return load(path).about or None


def _augmented(arrays: dict, idx: np.ndarray, rng, game, size: int,
               height: int | None = None):
    """A batch with each example under a random symmetry of the game (identity included)."""
    from boardai.nn import features
    height = size if height is None else height
    planes = arrays["planes"][idx].copy()
    policy = arrays["policy"][idx].copy()
    mask = arrays["mask"][idx].copy()
    names = features.symmetries(game, size, height)
    pick = rng.integers(0, len(names) + 1, size=len(idx))
    for k, name in enumerate(names, 1):
        sel = pick == k
        if sel.any():
            planes[sel] = features.symmetry_planes(planes[sel], name)
            policy[sel] = features.symmetry_policy(policy[sel], name, game, size, height)
            mask[sel] = features.symmetry_policy(mask[sel], name, game, size, height)
    return planes, policy, mask


def _losses(net, planes, policy, mask, target):
    import torch
    logits, v = net(planes, policy.shape[1])
    logp = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=1)
    logp = torch.where(mask, logp, torch.zeros_like(logp))
    return -(policy * logp).sum(dim=1).mean(), ((v - target) ** 2).mean()


def evaluate(net, held: dict, batch: int = 512, keep_values: bool = False) -> dict:
    """Held-out figures: top-1 and top-5 agreement with the teacher's move (and top-1 on the
    positions the teacher searched, those with its visits), policy cross-entropy against its
    visits, the value's squared error against the result.  Exactly labelled data (Connect
    Four's) adds ``top1_best``: how often the policy's top legal move is one of the best.
    ``keep_values`` adds ``values``, the value head's output of every position (an array)."""
    import torch
    net.eval()
    n = len(held["move"])
    top1 = top5 = top1_searched = best_hits = 0
    ce = se = 0.0
    kept = []
    searched = ~np.isnan(held["value"])       # positions where the teacher gave its visits
    with torch.no_grad():
        for s in range(0, n, batch):
            sl = slice(s, s + batch)
            mask = torch.from_numpy(held["mask"][sl])
            logits, v = net(torch.from_numpy(held["planes"][sl]), mask.shape[1])
            logits = logits.masked_fill(~mask, float("-inf"))
            move = torch.from_numpy(held["move"][sl])
            best = logits.topk(min(5, logits.shape[1]), dim=1).indices
            top1 += int((best[:, 0] == move).sum())
            target = torch.from_numpy(held["policy"][sl])
            best_hits += int((target.gather(1, best[:, :1])[:, 0] > 0).sum())
            top1_searched += int(((best[:, 0] == move) & torch.from_numpy(searched[sl])).sum())
            top5 += int((best == move[:, None]).any(dim=1).sum())
            logp = torch.where(mask, torch.log_softmax(logits, dim=1), torch.zeros_like(logits))
            ce += float(-(torch.from_numpy(held["policy"][sl]) * logp).sum())
            se += float(((v - torch.from_numpy(held["result"][sl])) ** 2).sum())
            if keep_values:
                kept.append(v.numpy())
    out = {"top1": top1 / n, "top5": top5 / n, "held_policy_loss": ce / n,
           "value_mse": se / n, "top1_searched": top1_searched / max(int(searched.sum()), 1)}
    if held.get("exact"):
        out["top1_best"] = best_hits / n
    if keep_values:
        out["values"] = np.concatenate(kept) if kept else np.zeros(0, dtype=np.float32)
    return out


# --- the report ----------------------------------------------------------------------------
def plot(directory, out: Path) -> list[Path]:
    """``curves.png`` in ``out``: losses and held-out agreement per epoch."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = read_metrics(directory)
    config = json.loads((Path(directory) / CONFIG).read_text(encoding="utf-8"))
    s = config["settings"]
    out.mkdir(parents=True, exist_ok=True)
    ep = [m["epoch"] for m in metrics]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.plot(ep, [m["policy_loss"] for m in metrics], label="policy, training")
    a.plot(ep, [m["held_policy_loss"] for m in metrics], label="policy, held out")
    a.plot(ep, [m["value_loss"] for m in metrics], label="value, training")
    a.plot(ep, [m["value_mse"] for m in metrics], label="value MSE, held out")
    a.set_xlabel("epoch")
    a.set_ylabel("loss")
    a.grid(alpha=0.3)
    a.legend(fontsize=8)
    b.plot(ep, [100 * m["top1"] for m in metrics], marker="o", label="top-1")
    b.plot(ep, [100 * m["top5"] for m in metrics], marker="o", label="top-5")
    if metrics and all("top1_best" in m for m in metrics):      # exact labels (Connect Four)
        b.plot(ep, [100 * m["top1_best"] for m in metrics], marker=".",
               label="top move a best one (solver)")
    elif all("top1_searched" in m for m in metrics):
        b.plot(ep, [100 * m["top1_searched"] for m in metrics], marker=".",
               label="top-1, searched positions")
    base = config.get("patterns_baseline") or {}
    for key, name in (("top1", "top-1"), ("top5", "top-5")):
        if key in base:
            b.axhline(100 * base[key], color="grey", ls="--", lw=0.8)
            b.text(ep[0] if ep else 1, 100 * base[key] + 1, f"patterns {name}", fontsize=7,
                   color="grey")
    b.set_xlabel("epoch")
    b.set_ylabel("% of held-out positions")
    b.set_ylim(0, 100)
    b.grid(alpha=0.3)
    b.legend(fontsize=8)
    game = config.get("game", TEACHER_GAME)
    fig.suptitle(f"{game} {config['size']}x{config.get('height') or config['size']}, "
                 f"{s['channels']}x{s['blocks']} network, "
                 f"{'teacher' if game == TEACHER_GAME else 'solver'}'s moves")
    fig.tight_layout()
    path = out / "curves.png"
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return [path]


def table(directory):
    from rich.table import Table
    metrics = read_metrics(directory)
    t = Table(title=f"{directory}: {len(metrics)} epoch(s), supervised")
    for col in ("epoch", "positions", "policy loss", "value loss", "held top-1",
                "top-1 searched", "held top-5", "held policy loss", "held value MSE", "seconds"):
        t.add_column(col, justify="right")
    for m in metrics:
        t.add_row(str(m["epoch"]), str(m["train_positions"]), f"{m['policy_loss']:.3f}",
                  f"{m['value_loss']:.3f}", f"{100 * m['top1']:.1f} %",
                  f"{100 * m.get('top1_searched', float('nan')):.1f} %",
                  f"{100 * m['top5']:.1f} %", f"{m['held_policy_loss']:.3f}",
                  f"{m['value_mse']:.3f}", f"{m['seconds']:.0f}")
    return t


__all__ = ["Settings", "SupervisedError", "evaluate", "is_run", "load_data", "plot",
           "read_metrics", "table", "train"]
