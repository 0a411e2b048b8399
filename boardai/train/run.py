"""A training run of ``boardai train``: self-play, training, gating and evaluation, generation by
generation, in one directory that survives kill -9.

Generation g (from 1; generation 0 is the random network):

1. **self-play**: the best network so far plays ``games_per_generation`` games against itself
   (``selfplay.py``), spread over the worker processes; each game is one file of the replay
   buffer, ``games/gNNNN/NNNNN.npz``;
2. **training**: the PyTorch twin (``torch_net.py``) takes ``samples_per_position`` x the new
   positions / ``batch_size`` steps of Adam on batches drawn from the last
   ``window_generations`` generations' games, each batch under a random symmetry of the game;
   a checkpoint (``train.pt``: weights, optimiser, steps) every ``checkpoint_steps`` steps and
   at the end; the result is exported as the numpy network ``nets/gNNNN.npz``, the candidate;
3. **gating**: the candidate plays ``gate_games`` games (colours alternating, the first
   ``gate_random_plies`` plies random) against the best; it becomes the best with a score of
   ``gate_threshold`` or more;
4. **evaluation**: the best plays ``eval_games`` against each fixed ``eval_opponents`` engine;
   its Elo difference against each is logged (``boardai train report`` plots it).

Every game's outcome is a file written atomically (``gate/gNNNN/NNNN.json``,
``eval/gNNNN/K-NNNN.json``) and the run's state (``state.json``: the generation, the best
network, the time used) is rewritten atomically at each phase's end, so a killed run loses at
most the games and training steps in flight: the same command resumes it.  ``metrics.jsonl``
logs one JSON object per event (losses every ``log_steps`` steps, each phase's figures).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import numpy as np

from boardai._files import write_atomic
from boardai.arena.backends import parse_backend
from boardai.arena.ratings import elo_from_score
from boardai.games.game import get_game
from boardai.nn import features
from boardai.nn.model import Config as NetConfig
from boardai.train.selfplay import Examples, SearchSettings, match_game, selfplay_game

FORMAT = 1
Window = dict     # the examples by board shape: (H, W) -> Examples (one shape unless drawn)


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run (``config.json``); fixed when the run starts."""

    game: str
    width: int
    height: int
    channels: int = 32
    blocks: int = 4
    search: SearchSettings = field(default_factory=SearchSettings)
    games_per_generation: int = 100
    window_generations: int = 10
    batch_size: int = 256
    samples_per_position: float = 4.0
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    checkpoint_steps: int = 200
    log_steps: int = 25
    gate_games: int = 20
    gate_sims: int = 100
    gate_threshold: float = 0.55
    gate_random_plies: int = 2
    eval_opponents: tuple[str, ...] = ("mcts:sims=250", "mcts:sims=2000")
    eval_games: int = 10
    eval_sims: int = 100
    seed: int = 0
    format: int = FORMAT
    init: str = ""                    # generation 0's network file ("": the trainer's random one)
    transpose_white: bool = False     # Hex: the network reads positions in the mover's frame
    random_board: bool = False        # every game on a board the game's random set-up draws
                                      # (--size random; width and height then 0)

    def net_config(self) -> NetConfig:
        return NetConfig(self.game, channels=self.channels, blocks=self.blocks,
                         transpose_white=self.transpose_white)

    def to_json(self) -> dict:
        out = asdict(self)
        out["eval_opponents"] = list(self.eval_opponents)
        return out

    @staticmethod
    def from_json(data: dict) -> "RunConfig":
        known = {f.name for f in fields(RunConfig)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown run settings {', '.join(sorted(unknown))}")
        data = dict(data)
        data["search"] = SearchSettings(**data.get("search", {}))
        data["eval_opponents"] = tuple(data.get("eval_opponents", ()))
        return RunConfig(**data)


@dataclass
class RunState:
    """Where a run is (``state.json``)."""

    generation: int = 1          # the generation being built
    best: int = 0                # the generation of the best network
    steps: int = 0               # training steps taken, in all
    elapsed_s: float = 0.0       # wall-clock seconds of every session of the run
    cpu_s: float = 0.0           # CPU seconds: the trainer's and every game's
    history: list = field(default_factory=list)   # one summary per finished generation


def task_seed(seed: int, *parts) -> int:
    digest = hashlib.sha1(json.dumps([seed, *parts]).encode()).digest()
    return int.from_bytes(digest[:4], "little")


# --- the worker tasks (top-level: they run in spawned processes or as Ray tasks) ---------------
# A task returns its file's bytes instead of writing them: the driver writes every file of the
# run, so a Ray worker on another machine needs no access to the run's directory.  Networks go
# out the same way (``NetRef``): a path where the workers share the driver's files (local
# processes), else the file's bytes, written once per worker machine under a temporary folder.
NetRef = "str | tuple[str, bytes]"


def _net_path(net) -> str:
    """A network file this worker can open, from a ``NetRef``."""
    if isinstance(net, str):
        return net
    if not isinstance(net, tuple):                # a Ray reference inside a task's argument
        import ray
        net = ray.get(net)
    digest, data = net
    folder = Path(tempfile.gettempdir()) / "boardai-nets"
    folder.mkdir(exist_ok=True)
    path = folder / f"{digest}.npz"
    if not path.exists():
        write_atomic(path, data)
    return str(path)


def _local_spec(spec: str, nets: dict) -> str:
    """``spec`` with each driver path of ``nets`` replaced by this worker's copy."""
    for driver_path, net in nets.items():
        spec = spec.replace(driver_path, _net_path(net))
    return spec


def _selfplay_task(path: str, net, game: str, width: int, height: int,
                   search: dict, seed: int, random_board: bool = False
                   ) -> tuple[str, bytes, int, float]:
    clock = time.process_time()
    ex, moves, black = selfplay_game(_net_path(net), game, width, height,
                                     SearchSettings(**search), seed, random_board)
    buf = io.BytesIO()
    np.savez_compressed(buf, planes=ex.planes, mask=ex.mask, policy=ex.policy, value=ex.value,
                        moves=np.array(moves, dtype=np.int16), result=np.float32(black))
    return path, buf.getvalue(), len(ex), time.process_time() - clock


def _match_task(path: str, spec_a: str, spec_b: str, nets: dict, a_is_black: bool, game: str,
                width: int, height: int, random_plies: int,
                seed: int, random_board: bool = False) -> tuple[str, bytes, float, float]:
    clock = time.process_time()
    score = match_game(_local_spec(spec_a, nets), _local_spec(spec_b, nets), a_is_black, game,
                       width, height, random_plies, seed, random_board)
    record = json.dumps({"a": spec_a, "b": spec_b, "a_is_black": a_is_black, "score": score})
    return path, record.encode(), score, time.process_time() - clock


def _call(fn, *args):
    return fn(*args)


class _Tasks:
    """Runs task functions inline (one worker), in a pool of spawned processes, or as Ray tasks
    (``backend`` ``ray``: a local Ray with ``workers`` CPUs; ``ray:ADDRESS``: a cluster).  Each
    result's file is written here, atomically, as it comes in."""

    def __init__(self, workers: int, backend: str = "local"):
        kind, self.address = parse_backend(backend)
        self.workers = workers
        self.ray = kind == "ray"
        self.pool = None
        self._own_ray = False
        self._refs: dict[str, object] = {}
        if self.ray:
            from boardai._ray import join
            self._own_ray = join(self.address, workers)
        elif workers > 1:
            self.pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))

    def net(self, path: str | os.PathLike):
        """How a task names the network file at ``path`` (see ``NetRef``)."""
        path = str(path)
        if not self.ray:
            return path
        if path not in self._refs:                # one copy in Ray's object store per file
            import ray
            data = Path(path).read_bytes()
            self._refs[path] = ray.put((hashlib.sha1(data).hexdigest(), data))
        return self._refs[path]

    def run(self, calls: list[tuple], done: Callable[[object], None]) -> None:
        def finish(result) -> None:
            path, data, *rest = result
            write_atomic(path, data)
            done(rest)

        if self.ray:
            from boardai._ray import ray_map
            for result in ray_map(_call, calls, self.address, self.workers):
                finish(result)
            return
        if self.pool is None:
            for fn, *args in calls:
                finish(fn(*args))
            return
        futures: list[Future] = [self.pool.submit(fn, *args) for fn, *args in calls]
        try:
            for f in futures:
                finish(f.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        if self._own_ray:
            import ray
            ray.shutdown()


class TrainRun:
    """A run's directory: ``TrainRun(dir, config)`` starts one (or opens it: the config must
    then be the stored one), ``TrainRun.open(dir)`` opens one; ``run()`` goes on with it."""

    def __init__(self, directory: str | os.PathLike, config: RunConfig | None = None):
        self.dir = Path(directory)
        stored = self.dir / "config.json"
        if stored.exists():
            try:
                have = RunConfig.from_json(json.loads(stored.read_text()))
            except (ValueError, TypeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{stored}: not a run configuration boardai reads ({exc})") \
                    from None
            if config is not None and config != have:
                diff = [k for k, v in config.to_json().items() if have.to_json().get(k) != v]
                raise ValueError(f"{self.dir} holds a run with other settings "
                                 f"({', '.join(diff)}): resume it with the same options or "
                                 "use a new directory")
            config = have
        elif config is None:
            raise ValueError(f"{self.dir} holds no training run (no config.json)")
        self.config = config
        self.game = get_game(config.game)
        self.state = self._load_state()
        self._examples: dict[int, Window] = {}

    @staticmethod
    def open(directory: str | os.PathLike) -> "TrainRun":
        return TrainRun(directory)

    # --- files --------------------------------------------------------------------------
    def net_path(self, gen: int) -> Path:
        return self.dir / "nets" / f"g{gen:04d}.npz"

    @property
    def best_path(self) -> Path:
        return self.net_path(self.state.best)

    def _load_state(self) -> RunState:
        path = self.dir / "state.json"
        if not path.exists():
            return RunState()
        return RunState(**json.loads(path.read_text()))

    def _save_state(self) -> None:
        write_atomic(self.dir / "state.json", json.dumps(asdict(self.state), indent=1).encode())

    def log(self, event: str, **data) -> None:
        line = json.dumps({"event": event, "generation": self.state.generation,
                           "steps": self.state.steps,
                           "hours": round(self.state.elapsed_s / 3600, 4),
                           "cpu_hours": round(self.state.cpu_s / 3600, 4), **data})
        with open(self.dir / "metrics.jsonl", "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        for sub in ("nets", "games", "gate", "eval"):
            (self.dir / sub).mkdir(exist_ok=True)
        config_path = self.dir / "config.json"
        if not config_path.exists():
            write_atomic(config_path, json.dumps(self.config.to_json(), indent=1).encode())
        if not self.net_path(0).exists():      # generation 0: the given network, or random
            from boardai.train.trainer import Trainer
            initial = initial_network(self.config) if self.config.init else None
            trainer = Trainer(self.config, self.dir / "train.pt", initial=initial)
            trainer.save()
            trainer.export(self.net_path(0))
            self._save_state()

    # --- the loop -----------------------------------------------------------------------
    def run(self, hours: float | None = None, generations: int | None = None, workers: int = 1,
            progress: Callable[[str, int, int], None] | None = None,
            backend: str = "local") -> RunState:
        """Go on until ``hours`` more wall-clock hours have passed (checked between phases) or
        the run has ``generations`` finished generations.  The games run on ``workers`` local
        processes, or as Ray tasks (``backend`` ``ray`` or ``ray:ADDRESS``)."""
        tasks = _Tasks(workers, backend)          # a bad backend fails before any work
        self._start()
        self._progress = progress or (lambda phase, done, total: None)
        self._session_start = time.perf_counter()
        self._session_base = self.state.elapsed_s
        self._workers = max(1, workers)
        try:
            while True:
                if generations is not None and self.state.generation > generations:
                    break
                if hours is not None and self._session_hours() >= hours:
                    break
                self._generation(tasks)
        finally:
            tasks.close()
            self._tick()
            self._save_state()
        return self.state

    def _session_hours(self) -> float:
        return (time.perf_counter() - self._session_start) / 3600

    def _tick(self) -> None:
        self.state.elapsed_s = self._session_base + time.perf_counter() - self._session_start

    def _generation(self, tasks: _Tasks) -> None:
        g = self.state.generation
        positions = self._selfplay(g, tasks)
        losses = self._train(g, positions)
        gate = self._gate(g, tasks)
        promoted = gate >= self.config.gate_threshold
        if promoted:
            self.state.best = g
        elo = self._evaluate(g, tasks)
        summary = {"generation": g, "positions": positions, "gate_score": gate,
                   "promoted": promoted, "best": self.state.best, "elo": elo, **losses}
        self._tick()
        summary.update(hours=round(self.state.elapsed_s / 3600, 4),
                       cpu_hours=round(self.state.cpu_s / 3600, 4), steps=self.state.steps)
        self.state.history.append(summary)
        self.log("generation", **summary)
        self.state.generation = g + 1
        self._save_state()

    def export(self, out: str | os.PathLike, generation: int | None = None) -> Path:
        """Write generation ``generation``'s network (default: the best) to ``out`` with an
        ``about`` record: the run's settings, the generation, games, positions and the hours
        and CPU-hours the run had used when it was made."""
        from boardai.nn.model import load
        gen = self.state.best if generation is None else generation
        path = self.net_path(gen)
        if not path.exists():
            raise ValueError(f"{self.dir} has no network of generation {gen} (its generations: "
                             f"0..{self.state.generation - 1}, best {self.state.best})")
        net = load(path)
        made = next((h for h in self.state.history if h["generation"] == gen), {})
        games = self.config.games_per_generation * max(gen, 0)
        positions = sum(h.get("positions", 0) for h in self.state.history
                        if h["generation"] <= gen)
        net.about = {"made_by": "boardai train", "run": self.config.to_json(),
                     "generation": gen, "selfplay_games": games,
                     "selfplay_positions": positions, "hours": made.get("hours"),
                     "cpu_hours": made.get("cpu_hours"), "elo": made.get("elo", {})}
        buf = io.BytesIO()
        net.save(buf)
        write_atomic(out, buf.getvalue())
        return Path(out)

    # --- 1. self-play -------------------------------------------------------------------
    def _games_dir(self, g: int) -> Path:
        return self.dir / "games" / f"g{g:04d}"

    def _selfplay(self, g: int, tasks: _Tasks) -> int:
        c = self.config
        out = self._games_dir(g)
        out.mkdir(parents=True, exist_ok=True)
        # the best network is the one of the state at the start of this generation's games
        net = str(self.best_path)
        todo = [i for i in range(c.games_per_generation)
                if not (out / f"{i:05d}.npz").exists()]
        done = [c.games_per_generation - len(todo)]
        self._progress(f"generation {g}: self-play", done[0], c.games_per_generation)
        clock = time.perf_counter()

        def finished(result) -> None:
            done[0] += 1
            self.state.cpu_s += result[1]
            self._progress(f"generation {g}: self-play", done[0], c.games_per_generation)

        tasks.run([(_selfplay_task, str(out / f"{i:05d}.npz"), tasks.net(net), c.game, c.width,
                    c.height,
                    asdict(c.search), task_seed(c.seed, "selfplay", g, i), c.random_board)
                   for i in todo],
                  finished)
        positions = _size(self._load_games(g))
        if todo:
            self.log("selfplay", games=c.games_per_generation, positions=positions,
                     seconds=round(time.perf_counter() - clock, 2),
                     mean_length=round(positions / c.games_per_generation, 2),
                     black_score=self._black_score(g))
        self._tick()
        self._save_state()
        return positions

    def _load_games(self, g: int) -> Window:
        """Generation ``g``'s self-play examples, by board shape (one shape unless the run
        draws its boards)."""
        if g not in self._examples:
            parts: dict[tuple[int, int], list[Examples]] = {}
            for path in sorted(self._games_dir(g).glob("*.npz")):
                try:
                    with np.load(path) as d:
                        ex = Examples(d["planes"], d["mask"], d["policy"], d["value"])
                    if self.config.transpose_white:
                        ex = _mover_frame(ex, self.config.width)
                    parts.setdefault(ex.planes.shape[2:], []).append(ex)
                except (OSError, ValueError, KeyError) as exc:
                    raise ValueError(f"{path}: a damaged game file ({exc}); delete it and "
                                     "resume: the game is played again") from None
            self._examples[g] = {shape: Examples.concat(p) for shape, p in parts.items()}
        return self._examples[g]

    def _black_score(self, g: int) -> float:
        scores = []
        for path in self._games_dir(g).glob("*.npz"):
            with np.load(path) as d:
                scores.append((float(d["result"]) + 1) / 2)
        return round(float(np.mean(scores)), 4) if scores else 0.5

    def window(self, g: int) -> Window:
        """The replay buffer as trained on in generation ``g``, by board shape (H, W)."""
        first = max(1, g - self.config.window_generations + 1)
        for old in [k for k in self._examples if k < first]:
            del self._examples[old]
        parts: dict[tuple[int, int], list[Examples]] = {}
        for k in range(first, g + 1):
            for shape, ex in self._load_games(k).items():
                parts.setdefault(shape, []).append(ex)
        return {shape: Examples.concat(p) for shape, p in sorted(parts.items())}

    # --- 2. training --------------------------------------------------------------------
    def _train(self, g: int, positions: int) -> dict:
        from boardai.train.trainer import Trainer
        c = self.config
        trainer = Trainer(c, self.dir / "train.pt", threads=self._workers)
        if self.net_path(g).exists():       # trained before a kill: its losses are kept
            return trainer.last_losses()
        target = max(20, math.ceil(c.samples_per_position * positions / c.batch_size))
        if trainer.generation != g:
            trainer.start_generation(g)
        window = self.window(g)
        shapes = list(window)
        share = np.array([len(window[s]) for s in shapes], dtype=np.float64)
        share /= share.sum()
        rng = np.random.default_rng(task_seed(c.seed, "train", g, trainer.gen_steps))
        clock = time.process_time()
        sums = np.zeros(2)
        count = 0
        while trainer.gen_steps < target:
            # a batch is of one board shape, drawn in proportion to the shape's positions
            h, w = shapes[int(rng.choice(len(shapes), p=share))]
            data = window[(h, w)]
            symmetries = ("identity",) + features.symmetries(self.game, w, h)
            idx = rng.integers(0, len(data), size=min(c.batch_size, len(data)))
            sym = symmetries[int(rng.integers(len(symmetries)))]
            pl, vl = trainer.step(_batch(data, idx, sym, self.game, w, h))
            self.state.steps += 1
            sums += (pl, vl)
            count += 1
            if trainer.gen_steps % c.log_steps == 0 or trainer.gen_steps == target:
                self.log("train", policy_loss=round(sums[0] / count, 5),
                         value_loss=round(sums[1] / count, 5), window=_size(window))
                sums[:] = 0
                count = 0
            if trainer.gen_steps % c.checkpoint_steps == 0:
                self.state.cpu_s += time.process_time() - clock
                clock = time.process_time()
                trainer.save()
                self._tick()
                self._save_state()
            self._progress(f"generation {g}: training", trainer.gen_steps, target)
        trainer.save()
        trainer.export(self.net_path(g))
        self.state.cpu_s += time.process_time() - clock
        self._tick()
        self._save_state()
        return trainer.last_losses()

    # --- 3. gating and 4. evaluation ------------------------------------------------------
    def nn_spec(self, gen: int, sims: int) -> str:
        return f"nn:model={self.net_path(gen)},sims={sims}"

    def _spec_nets(self, *specs: str) -> list[Path]:
        """The run's own network files the specs name (they travel to Ray workers)."""
        return [p for p in sorted((self.dir / "nets").glob("g*.npz"))
                if any(f"model={p}," in s or s.endswith(f"model={p}") for s in specs)]

    def _matches(self, label: str, out: Path, spec_a: str, spec_b: str, n: int,
                 random_plies: int, tasks: _Tasks, seed_parts: tuple) -> float:
        c = self.config
        out.mkdir(parents=True, exist_ok=True)
        todo = [i for i in range(n) if not (out / f"{i:04d}.json").exists()]
        done = [n - len(todo)]
        self._progress(label, done[0], n)

        def finished(result) -> None:
            done[0] += 1
            self.state.cpu_s += result[1]
            self._progress(label, done[0], n)

        nets = {str(p): tasks.net(p) for p in self._spec_nets(spec_a, spec_b)}
        tasks.run([(_match_task, str(out / f"{i:04d}.json"), spec_a, spec_b, nets, i % 2 == 0,
                    c.game, c.width, c.height, random_plies,
                    task_seed(c.seed, *seed_parts, i // 2), c.random_board)
                   for i in todo], finished)
        scores = [json.loads((out / f"{i:04d}.json").read_text())["score"] for i in range(n)]
        self._tick()
        self._save_state()
        return float(np.mean(scores)) if scores else 0.5

    def _gate(self, g: int, tasks: _Tasks) -> float:
        c = self.config
        score = self._matches(f"generation {g}: gating", self.dir / "gate" / f"g{g:04d}",
                              self.nn_spec(g, c.gate_sims), self.nn_spec(self.state.best,
                                                                         c.gate_sims),
                              c.gate_games, c.gate_random_plies, tasks, ("gate", g))
        self.log("gate", candidate=g, best=self.state.best, score=round(score, 4))
        return score

    def _evaluate(self, g: int, tasks: _Tasks) -> dict[str, float]:
        c = self.config
        out = {}
        for k, opponent in enumerate(c.eval_opponents):
            score = self._matches(f"generation {g}: against {opponent}",
                                  self.dir / "eval" / f"g{g:04d}" / f"{k}",
                                  self.nn_spec(self.state.best, c.eval_sims), opponent,
                                  c.eval_games, c.gate_random_plies, tasks, ("eval", g, k))
            clipped = min(max(score, 0.5 / c.eval_games), 1 - 0.5 / c.eval_games)
            out[opponent] = round(elo_from_score(clipped), 1)
            self.log("eval", opponent=opponent, best=self.state.best, score=round(score, 4),
                     elo=out[opponent])
        return out


def initial_network(config: RunConfig):
    """The network ``config.init`` names, checked to fit the run: its game, its shape (channels,
    blocks) and its frame must be the run's; ValueError naming the difference."""
    from boardai.nn.model import load
    try:
        net = load(config.init)
    except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:
        raise ValueError(f"--init {config.init}: not a network file boardai reads "
                         f"({type(exc).__name__}: {exc})") from None
    got, want = net.config, config.net_config().resolved()
    for name in ("game", "channels", "blocks", "transpose_white", "planes", "policy_channels",
                 "value_channels", "value_hidden"):
        if getattr(got, name) != getattr(want, name):
            raise ValueError(f"--init {config.init}: its {name} is {getattr(got, name)!r}, "
                             f"the run's {getattr(want, name)!r}")
    return net


def _size(window: Window) -> int:
    return sum(len(ex) for ex in window.values())


def _mover_frame(ex: Examples, size: int) -> Examples:
    """A self-play game's examples (in the order played: White to move at odd plies) in the
    mover's frame (``features.to_mover_frame``), as a ``transpose_white`` network reads them."""
    white = np.arange(len(ex)) % 2 == 1
    return Examples(features.to_mover_frame(ex.planes, white),
                    features.from_mover_frame(ex.mask, white, size),
                    features.from_mover_frame(ex.policy, white, size), ex.value)


def _batch(data: Examples, idx: np.ndarray, symmetry: str, game, width: int, height: int):
    planes = data.planes[idx].astype(np.float32)
    policy, mask = data.policy[idx], data.mask[idx]
    if symmetry != "identity":
        planes = features.symmetry_planes(planes, symmetry)
        policy = features.symmetry_policy(policy, symmetry, game, width, height)
        mask = features.symmetry_policy(mask, symmetry, game, width, height)
    return planes, policy, mask, data.value[idx]


__all__ = ["RunConfig", "RunState", "TrainRun", "task_seed"]
