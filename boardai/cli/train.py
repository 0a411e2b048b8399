"""``boardai train``: AlphaZero-style training runs (self-play, training, gating, evaluation) and
``boardai train report``: their curves as PNG plots and a table (``boardai/train``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from boardai.cli.common import CONTEXT, GAME_CHOICE, Fail, Float, Int, OutPath

MAX_HOURS = 10_000          # a year and a bit: longer is a typo (nan and inf never end)
MAX_GENERATIONS = 100_000
from boardai.games import DEFAULT_GAME


class _TrainGroup(click.Group):
    """``boardai train [OPTIONS] DIR`` runs; ``boardai train report DIR`` reports."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def _need_torch() -> None:
    try:
        import torch  # noqa: F401
    except ImportError:
        raise Fail("boardai train needs PyTorch: pip install 'boardai[train]' (the CPU build: "
                   "pip install torch==2.13.0)") from None


@click.group(cls=_TrainGroup, context_settings=CONTEXT)
def train() -> None:
    """Train a network by self-play (AlphaZero on the CPU) and report on a run.

    \b
    boardai train [OPTIONS] DIR     start a run in DIR, or go on with the run DIR holds
    boardai train report DIR        draw its curves (PNG) and print its generations
    boardai train export DIR OUT    write its best network (with its provenance) to OUT
    boardai train patterns STORE... --out FILE   learn Hex move patterns from stored games
    boardai train teacher --mohex PATH --out FILE   record a stronger program's games
    boardai train supervised DATA... --out DIR      learn the teacher's moves and results

    \b
    Examples:
      boardai train --game connect4 --size 7x6 --hours 3 --workers 2 runs/c4
      boardai train --game connect4 --size random --init connect4-7x6 --hours 3 runs/course
      boardai train runs/c4 --hours 1          # resume (after Ctrl-C or kill -9) for an hour
      boardai train runs/c4 --hours 1 --backend ray:10.0.0.5:6379   # its games on a Ray cluster
      boardai train report runs/c4
      boardai play --black human --white nn:model=runs/c4/nets/g0012.npz
    """


def _run_size(g, size: str) -> tuple[int, int, bool]:
    """(width, height, drawn) of a run's ``--size``: a size the game has, or ``random`` (each
    game on a board the game's own random set-up draws; width and height then 0)."""
    if size.strip().lower() == "random":
        g.setup_board("random")                # ValueError naming the sizes if the game has none
        return 0, 0, True
    w, h = g.parse_size(size)
    g.new_board((w, h))                        # the size is one the game has
    return w, h, False


@train.command("run", context_settings=CONTEXT)
@click.argument("directory", metavar="DIR", type=OutPath(directory=True))
@click.option("--game", type=GAME_CHOICE, help=f"The game (a new run; default {DEFAULT_GAME}).")
@click.option("--size", help="Board size, N or WxH, or random: every game on a board the game "
              "draws (Connect Four: the course's, 9-12 x 9-12 with a no-go cell) (a new run; "
              "default: the game's).")
@click.option("--hours", type=Float(0, MAX_HOURS, min_open=True),
              help=f"Stop after this many hours, in (0, {MAX_HOURS}] (wall clock; checked "
                   "between phases).")
@click.option("--generations", type=Int(1, MAX_GENERATIONS),
              help=f"Stop once the run has this many generations (1..{MAX_GENERATIONS}).")
@click.option("--workers", type=Int(1, 64), default=1, show_default=True,
              help="Processes playing the games (and threads training).")
@click.option("--channels", type=Int(1, 512), help="Network width, 1..512 (default 32).")
@click.option("--blocks", type=Int(0, 40), help="Residual blocks, 0..40 (default 4).")
@click.option("--temperature-plies", "temperature_plies", type=Int(0, 1_000_000),
              help="Self-play plies whose move is drawn in proportion to the visits (then the "
                   "most visited), 0..1000000 (default: a quarter of the board's cells).")
@click.option("--sims", type=Int(1, 1_000_000), help="Self-play simulations per move, "
              "1..1000000 (default 160).")
@click.option("--games", "games_per_generation", type=Int(1, 1_000_000),
              help="Self-play games per generation, 1..1000000 (default 100).")
@click.option("--window", "window_generations", type=Int(1, MAX_GENERATIONS),
              help="Generations of games trained on, 1..100000 (default 10).")
@click.option("--batch-size", type=Int(1, 65_536), help="Training batch, 1..65536 (default "
              "256).")
@click.option("--gate-games", type=Int(2, 100_000), help="Games of a candidate against the "
              "best, 2..100000 (default 20).")
@click.option("--eval-games", type=Int(2, 100_000), help="Games against each evaluation "
              "opponent per generation, 2..100000 (default 10).")
@click.option("--eval-opponent", "eval_opponents", multiple=True, metavar="SPEC",
              help="A fixed opponent the best network is measured against each generation "
                   "(repeatable; default mcts:sims=250 and mcts:sims=2000).")
@click.option("--seed", type=Int(0, 2**63 - 2), help="Seed of the run, 0..2**63-2 (default 0).")
@click.option("--init", "init", metavar="NETWORK",
              help="A new run starts from this network (a shipped one's name, e.g. "
                   "hex-9x9-teacher, or a .npz file) instead of a random one: its shape and "
                   "frame become the run's.  Self-play then improves on it (expert iteration).")
@click.option("--backend", default="local", show_default=True,
              help="Where the games run: local (--workers processes), ray (a local Ray with "
                   "--workers CPUs) or ray:ADDRESS (a Ray cluster; `ray start --head` makes one).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def run_cmd(directory, game, size, hours, generations, workers, backend, quiet,
            **settings) -> None:
    """Start or resume a training run in DIR (see boardai train --help)."""
    _need_torch()
    from boardai.arena.backends import parse_backend
    from boardai.games.game import get_game
    from boardai.train.run import RunConfig, TrainRun, initial_network

    try:
        parse_backend(backend)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    from boardai.train.selfplay import SearchSettings

    given = {k: v for k, v in settings.items() if v not in (None, ())}
    if "eval_opponents" in given:
        given["eval_opponents"] = tuple(given["eval_opponents"])
        _check_specs(given["eval_opponents"])
    search_given = {k: given.pop(k) for k in ("sims", "temperature_plies") if k in given}
    exists = (Path(directory) / "config.json").exists()
    try:
        if exists:
            run = TrainRun(directory)
            c = run.config
            asked = dict(given)
            if "init" in asked and _init_settings(asked["init"], None)["init"] == c.init:
                del asked["init"]                  # the same network, named again
            if game is not None:
                asked["game"] = get_game(game).name
            if size is not None:
                asked["width"], asked["height"], asked["random_board"] = \
                    _run_size(get_game(c.game), size)
            if search_given:
                asked["search"] = SearchSettings(**{**c.search.__dict__, **search_given})
            TrainRun(directory, RunConfig(**{**c.__dict__, **asked}))
        else:
            if "init" in given:
                fixed = _init_settings(given["init"], game)
                game = game or fixed.pop("game")
                given.update(init=fixed["init"], transpose_white=fixed["transpose_white"])
                given.setdefault("channels", fixed["channels"])   # given: must be the network's
                given.setdefault("blocks", fixed["blocks"])
            g = get_game(game or DEFAULT_GAME)
            w, h, drawn = _run_size(g, size) if size else (*g.default_size, False)
            search = SearchSettings(**search_given)
            config = RunConfig(g.name, w, h, search=search, random_board=drawn, **given)
            if config.init:
                initial_network(config)            # fits the run, before anything is written
            run = TrainRun(directory, config)
    except ValueError as exc:
        raise Fail(str(exc)) from None
    c = run.config
    state = run.state
    boards = "random boards" if c.random_board else f"{c.width}x{c.height}"
    click.echo(f"{'resuming' if exists else 'starting'} {c.game} {boards} in "
               f"{directory}: generation {state.generation}, best g{state.best:04d}, "
               f"{state.elapsed_s / 3600:.2f} h so far", err=True)
    try:
        with _Progress(enabled=sys.stderr.isatty() and not quiet) as progress:
            state = run.run(hours=hours, generations=generations, workers=workers,
                            progress=progress, backend=backend)
    except ValueError as exc:                 # Ray missing or its cluster not reachable
        raise Fail(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"stopped: run the same command to go on from generation "
                   f"{run.state.generation}", err=True)
        sys.exit(130)
    click.echo(f"generation {state.generation - 1} done; best network: "
               f"{run.net_path(state.best)} ({state.elapsed_s / 3600:.2f} h, "
               f"{state.cpu_s / 3600:.2f} CPU-h in all)")


def _init_settings(text: str, game: str | None) -> dict:
    """The run settings a ``--init`` network fixes: its file (absolute), game, shape, frame."""
    from boardai.engines.nn_engine import network_path
    from boardai.nn.model import load
    try:
        path = network_path(text)
    except ValueError as exc:
        raise Fail(f"--init: {exc}") from None
    try:
        c = load(path).config
    except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:
        raise Fail(f"--init {text}: not a network file boardai reads ({exc})") from None
    from boardai.games.game import get_game
    if game is not None and get_game(game).name != c.game:
        raise Fail(f"--init {text} is a {c.game} network, not {get_game(game).name}")
    return {"init": str(Path(path).resolve()), "game": c.game, "channels": c.channels,
            "blocks": c.blocks, "transpose_white": c.transpose_white}


def _check_specs(specs) -> None:
    from boardai.arena.match import check_spec
    for spec in specs:
        try:
            check_spec(spec)
        except ValueError as exc:
            raise click.UsageError(f"--eval-opponent {spec}: {exc}") from None


class _Bar:
    """A rich progress bar on stderr (none when disabled), with notes printed above it; the
    subclasses choose its columns and what a call updates."""

    first_description = ""

    def __init__(self, enabled: bool, total: int = 1):
        self.enabled, self.total = enabled, total
        self.progress = None

    def columns(self, rich_progress) -> tuple:
        return (rich_progress.TextColumn("[bold]{task.description}"), rich_progress.BarColumn(),
                rich_progress.MofNCompleteColumn(), rich_progress.TimeElapsedColumn())

    def __enter__(self):
        if self.enabled:
            import rich.progress as rich_progress
            from rich.console import Console
            self.progress = rich_progress.Progress(*self.columns(rich_progress),
                                                   console=Console(stderr=True))
            self.task = self.progress.add_task(self.first_description, total=self.total)
            self.progress.start()
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.stop()

    def note(self, text: str) -> None:
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False)
        else:
            click.echo(text, err=True)


class _Progress(_Bar):
    """One rich progress bar whose description follows the run's phases."""

    first_description = "starting"

    def __call__(self, phase: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=phase, completed=done, total=total)


@train.command("export", context_settings=CONTEXT)
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False, exists=True))
@click.argument("out", metavar="OUT", type=OutPath())
@click.option("--generation", type=Int(0, MAX_GENERATIONS), help="Which generation (default: "
              "the best).")
def export_cmd(directory, out, generation) -> None:
    """Write a run's best network (or --generation's) to OUT with a record of where it comes
    from (settings, generation, games, CPU-hours), ready for nn:model=OUT.

    \b
    Examples:
      boardai train export runs/c4 c4.npz
      boardai train export runs/c4 boardai/data/networks/connect4-7x6.npz   # ship it
    """
    from boardai.train.run import TrainRun

    try:
        path = TrainRun(directory).export(out, generation)
    except (ValueError, OSError) as exc:
        raise Fail(str(exc)) from None
    click.echo(f"wrote {path}")


@train.command("report", context_settings=CONTEXT)
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False, exists=True))
@click.option("--out", type=OutPath(directory=True),
              help="Where the PNG plots go (default DIR/report).")
@click.option("--json", "as_json", is_flag=True, help="Print the generations as JSON.")
def report_cmd(directory, out, as_json) -> None:
    """Plot a run's losses and Elo (PNG) and print its generations.

    \b
    Examples:
      boardai train report runs/c4
      boardai train report runs/c4 --json
    """
    from boardai.train import supervised as sv
    from boardai.train.report import generations_table, load_metrics, plot_run

    if sv.is_run(directory):
        try:
            metrics = sv.read_metrics(directory)
            if as_json:
                import json
                click.echo(json.dumps(metrics, indent=1))
                return
            paths = sv.plot(directory, Path(out) if out else Path(directory) / "report")
        except (ValueError, KeyError, OSError) as exc:
            raise Fail(f"{directory}: cannot report on the run: {exc}") from None
        from rich.console import Console
        console = Console()
        if not console.is_terminal:
            console = Console(width=140)
        console.print(sv.table(directory))
        base = sv.baseline(directory)
        if base:
            click.echo(f"baseline, the shipped move patterns on the same held-out positions: "
                       f"top-1 {100 * base['top1']:.1f} % (searched positions "
                       f"{100 * base['top1_searched']:.1f} %), top-5 {100 * base['top5']:.1f} %")
        for p in paths:
            click.echo(f"plot: {p}")
        return
    try:
        metrics = load_metrics(directory)
    except ValueError as exc:
        raise Fail(str(exc)) from None
    if as_json:
        import json
        click.echo(json.dumps(metrics.generations, indent=1))
        return
    paths = plot_run(metrics, Path(out) if out else Path(directory) / "report")
    from rich.console import Console
    console = Console()
    if not console.is_terminal:
        console = Console(width=140)
    console.print(generations_table(metrics))
    for p in paths:
        click.echo(f"plot: {p}")


@train.command("patterns", context_settings=CONTEXT)
@click.argument("stores", metavar="STORE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, exists=True))
@click.option("--game", type=GAME_CHOICE, default=DEFAULT_GAME, show_default=True,
              help="The game whose moves are learnt (one with move patterns).")
@click.option("--out", type=OutPath(), required=True,
              help="The patterns file to write (mcts reads the game's shipped one, e.g. "
                   "boardai/data/hex_patterns.npz).")
@click.option("--player", "players", multiple=True, metavar="PREFIX",
              help="Learn only the moves of engines whose spec starts so (repeatable; default: "
                   "every engine but gtp: programs).")
@click.option("--size", "sizes", multiple=True, type=Int(1, 26),
              help="Only games of this board width, 1..26 (repeatable; default every size).")
@click.option("--rounds", type=Int(1, 10_000), default=30, show_default=True,
              help="Minorization-maximization rounds.")
@click.option("--test-every", type=Int(2, 1000), default=5, show_default=True,
              help="Measure on every N-th game, learnt without it, before learning on all.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def patterns_cmd(stores, game, out, players, sizes, rounds, test_every, as_json) -> None:
    """Learn a game's move-pattern weights (mcts's priors, patterns=) from the moves of stored
    games: Hex numbers the shape of the 12 cells around each move; Bradley-Terry weights are
    fitted by minorization-maximization (boardai/train/patterns.py).

    \b
    Examples:
      boardai match mcts:sims=4000 mcts:sims=4000,seed=7 --size 9 --openings hex-1stone \\
          --store selfplay9.sqlite
      boardai train patterns selfplay9.sqlite --out boardai/data/hex_patterns.npz
      boardai play --white mcts:patterns=20
    """
    from boardai.arena.store import StoreError
    from boardai.games import all_games, get_game
    from boardai.train import patterns as tp

    described = get_game(game)
    patterns = described.move_patterns
    if patterns is None:
        raise Fail(f"{described.title} has no move patterns (games with them: " + ", ".join(
            g.name for g in all_games().values() if g.move_patterns is not None) + ")")
    try:
        examples = tp.examples_from_stores(described, stores, tuple(players), set(sizes) or None)
    except (ValueError, OSError, StoreError) as exc:
        raise Fail(str(exc)) from None
    learnt, test = examples.split(test_every)
    figures: dict = {"stores": list(stores), "players": list(players) or ["all but gtp:"],
                     "sizes": sorted(sizes) or "all", "rounds": rounds}
    if learnt.positions and test.positions:
        ids, gammas, _ = tp.learn(learnt, rounds)
        figures["held_out"] = {"games": test.games, "positions": test.positions,
                               **tp.score(test, patterns.dense(ids, gammas))}
    ids, gammas, fit = tp.learn(examples, rounds)
    figures["all"] = {k: v for k, v in fit.items() if k != "log_likelihood_rounds"}
    patterns.save(out, ids, gammas, **figures)
    if as_json:
        import json
        click.echo(json.dumps(figures, indent=1, default=float))
        return
    for name in ("held_out", "all"):
        if name in figures:
            f = figures[name]
            click.echo(f"{name:>8}: {f['games']} games, {f['positions']} positions: the chosen move "
                       f"has the top weight {100 * f['top1']:.1f} %; log-likelihood "
                       f"{f['log_likelihood']:.3f} a move (uniform {f['uniform_log_likelihood']:.3f})")
    click.echo(f"wrote {out}: {len(ids)} patterns")


@train.command("teacher", context_settings=CONTEXT)
@click.option("--out", required=True, type=click.Path(),
              help="The games file (JSON lines), created or resumed.")
@click.option("--teacher", metavar="gtp:COMMAND",
              help="The teacher, a GTP program (e.g. \"gtp:/path/mohex --config m.htp\").")
@click.option("--mohex", type=click.Path(dir_okay=False),
              help="Benzene's mohex (default $MOHEX): the teacher with a start-up file written "
                   "beside --out (max_time from --time, one thread, no pondering, no swap).")
@click.option("--playouts", type=Int(1, 10**9), help="With --mohex: at most this many "
              "playouts a move (max_games; MoHex searches at least 1 s whatever --time).")
@click.option("--size", type=Int(3, 19), default=9, show_default=True,
              help="Hex board size N, 3..19 (teacher data is meant for 9..13).")
@click.option("--time", "seconds", type=Float(0, 600, min_open=True), default=0.3,
              show_default=True, help="The teacher's seconds a move.")
@click.option("--games", type=Int(1, 10**9), default=1000, show_default=True,
              help="Games the file holds when done (a resumed run plays the missing ones).")
@click.option("--jobs", type=Int(1, 256), default=1, show_default=True,
              help="Games played at once (local worker processes, or a local Ray's CPUs).")
@click.option("--backend", default="local", show_default=True,
              help="local, ray (a local Ray) or ray:ADDRESS (a Ray cluster).")
@click.option("--seed", type=Int(0, 2**62), default=1, show_default=True,
              help="Seed of the openings' random stones and the sampled moves.")
@click.option("--random-stones", type=Int(0, 10), default=1, show_default=True,
              help="At most this many random stones added to the opening from the second cycle "
                   "of openings on.")
@click.option("--sample-plies", type=Int(0, 400), default=2, show_default=True,
              help="The teacher's first moves of a game drawn from its visit counts.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar: a line on stderr every ten games (for a log file).")
def teacher_cmd(out, teacher, mohex, playouts, size, seconds, games, jobs, backend, seed, random_stones,
                sample_plies, quiet) -> None:
    """Record Hex self-play games of a stronger GTP program (MoHex 2.0) for supervised
    training: every position's move, the teacher's root visits and win rate where its GTP gives
    them (MoHex: reg_genmove and mohex-values), and the result (boardai/train/teacher.py).

    \b
    Game i opens with Black's stone on cell i mod N*N (every one-stone opening in turn; from
    the second cycle on 1..--random-stones random stones are added) and the teacher plays both
    sides; its first --sample-plies moves are drawn from its visits.  One JSON line per
    finished game: run the same command again to resume, with a larger --games to go on.

    \b
    Examples:
      boardai train teacher --mohex /path/to/mohex --size 9 --games 5000 --out hex9/games.jsonl
      nice -n 19 boardai train teacher --mohex $MOHEX --jobs 2 --out hex9/games.jsonl -q
    """
    from boardai.arena.backends import parse_backend
    from boardai.train import teacher as tt

    try:
        parse_backend(backend)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if teacher is None and mohex is None:
        mohex = os.environ.get("MOHEX") or None
    if playouts is not None and mohex is None:
        raise click.UsageError("--playouts goes with --mohex (give a --teacher its own settings)")
    if (teacher is None) == (mohex is None):
        raise click.UsageError("give the teacher: --teacher gtp:COMMAND or --mohex PATH "
                               "(one of them)")
    out_path = Path(out)
    if mohex is not None:
        try:
            tt.check_teacher("gtp:" + mohex)
        except tt.TeacherError as exc:
            raise click.UsageError(f"--mohex: {exc}") from None
        if out_path.is_dir():
            raise Fail(f"--out {out} is a directory; give a file, e.g. {out_path / 'games.jsonl'}")
        try:
            out_path.parent.mkdir(parents=True, exist_ok=True)
            config = tt.mohex_config(out_path.with_suffix(".mohex.htp"), seconds,
                                     playouts=playouts)
        except OSError as exc:
            raise Fail(f"cannot write beside --out {out}: {exc.strerror or exc}") from None
        import shlex
        teacher = (f"gtp:{shlex.quote(os.path.abspath(mohex))} "
                   f"--config {shlex.quote(str(config.resolve()))}")
    else:
        try:
            tt.check_teacher(teacher)
        except tt.TeacherError as exc:
            raise click.UsageError(str(exc)) from None
    settings = tt.Settings(teacher=teacher, size=size, time=seconds, seed=seed,
                           random_stones=random_stones, sample_plies=sample_plies)
    bar = _TeacherProgress(not quiet, games)
    try:
        with bar:
            figures = tt.run(settings, out_path, games, jobs, backend, progress=bar,
                             note=bar.note)
    except tt.TeacherError as exc:
        raise Fail(str(exc)) from None
    rate = 3600 * figures["played"] / figures["seconds"] if figures["seconds"] > 0 else 0.0
    click.echo(f"{out}: {figures['games']} games, {figures['positions']} positions; this session "
               f"{figures['played']} games in {figures['seconds']:.0f} s ({rate:.0f} games/hour)"
               + (f", {figures['failed']} failed" if figures["failed"] else ""))


@train.command("supervised", context_settings=CONTEXT)
@click.argument("data", metavar="DATA...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, exists=True))
@click.option("--out", "directory", required=True, type=OutPath(directory=True),
              help="The run's folder (checkpoint, metrics, network.npz), created or resumed.")
@click.option("--epochs", type=Int(1, 100_000), default=10, show_default=True,
              help="Epochs the run has when done (a resumed run trains the missing ones).")
@click.option("--blocks", type=Int(0, 40), default=4, show_default=True,
              help="Residual blocks, 0..40.")
@click.option("--channels", type=Int(1, 512), default=32, show_default=True,
              help="Network width, 1..512.")
@click.option("--batch", type=Int(1, 65_536), default=128, show_default=True,
              help="Positions a training step, 1..65536.")
@click.option("--lr", type=Float(0, 10, min_open=True), default=1e-3, show_default=True,
              help="AdamW's learning rate.")
@click.option("--weight-decay", type=Float(0, 1), default=1e-4, show_default=True,
              help="AdamW's weight decay, 0..1.")
@click.option("--schedule", type=click.Choice(["constant", "cosine"]), default="constant",
              show_default=True, help="The learning rate over the run's epochs: constant, or "
                                      "a cosine from --lr down to 0 at --epochs.")
@click.option("--value-mix", type=Float(0, 1), default=0.0, show_default=True,
              help="The value target's share of the teacher's win rate (the rest: the game's "
                   "result), 0..1.")
@click.option("--value-weight", type=Float(0, 100), default=1.0, show_default=True,
              help="The value loss's weight beside the policy loss's (a game's positions share "
                   "one result: on few games the value head learns them by heart).")
@click.option("--policy-target", type=click.Choice(["visits", "move"]), default="visits",
              show_default=True, help="What the policy learns: the teacher's visit "
                                      "distribution (its move where it gave none), or its move.")
@click.option("--board-frame", is_flag=True,
              help="Read positions as the board shows them (a network that must tell the "
                   "colours apart by itself) instead of in the mover's frame (White-to-move "
                   "positions transposed: the side to move always joins top and bottom).")
@click.option("--holdout", type=Float(0, 1, min_open=True, max_open=True), default=0.1,
              show_default=True, help="Fraction of the games held out to measure on.")
@click.option("--seed", type=Int(0, 2**62), default=0, show_default=True,
              help="Seed of the split, the initial weights and the batches.")
@click.option("--threads", type=Int(1, 256), default=1, show_default=True,
              help="PyTorch threads.")
@click.option("--init", "init", metavar="NETWORK",
              help="Start from this network (a shipped one's name, e.g. connect4-7x6, or a "
                   ".npz file) instead of random weights: its shape replaces --blocks and "
                   "--channels.")
@click.option("--balance", type=Float(1, 100), default=1.0, show_default=True,
              help="Connect Four labels: repeat the positions of the rarer solver test classes "
                   "(stones played, moves left) towards the largest class's count, at most "
                   "this many times each (1: as drawn).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def supervised_cmd(data, directory, epochs, blocks, channels, batch, lr, weight_decay, schedule,
                   value_mix, value_weight, policy_target, board_frame, holdout, seed, threads,
                   init, balance, quiet) -> None:
    """Train the residual network (policy and value heads) on teacher data (boardai train
    teacher): the policy learns the teacher's visit distribution (its move where it gave
    none), the value the game's result for the side to move.  Games are held out by a seeded
    hash (--holdout) and measured every epoch: top-1 and top-5 move agreement, value MSE.
    Connect Four positions labelled by the exact solver (benchmarks/c4_solver_labels.py) are
    read too: the policy learns the best columns, the value the sign of the best score.

    Each epoch is checkpointed in DIR: the same command resumes, a larger --epochs goes on.
    DIR/network.npz is the latest network, for nn:model=DIR/network.npz; DIR/best.npz the
    one of the epoch with the lowest held-out policy loss.

    \b
    Examples:
      boardai train supervised hex9/games.jsonl --out runs/sup9 --epochs 20 --blocks 6 --channels 48
      boardai train supervised c4/labels.jsonl --out runs/c4sup --init boardai/data/networks/connect4-7x6.npz
      boardai train report runs/sup9
      boardai play --size 9 --white nn:model=runs/sup9/network.npz
    """
    _need_torch()
    from boardai.train import supervised as sv

    if init is not None:
        from boardai.engines.nn_engine import network_path
        try:
            init = network_path(init)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--init") from None
    settings = sv.Settings(blocks=blocks, channels=channels, batch=batch, lr=lr,
                           weight_decay=weight_decay, schedule=schedule, seed=seed,
                           holdout=holdout, value_mix=value_mix, value_weight=value_weight,
                           policy_target=policy_target,
                           transpose_white=not board_frame, init=init or "",
                           balance=balance)
    bar = _EpochProgress(sys.stderr.isatty() and not quiet)
    try:
        with bar:
            metrics = sv.train(directory, list(data), settings, epochs, threads,
                               progress=bar, note=bar.note)
    except sv.SupervisedError as exc:
        raise Fail(str(exc)) from None
    except KeyboardInterrupt:
        click.echo("stopped: run the same command to go on from the last finished epoch",
                   err=True)
        sys.exit(130)
    for m in metrics:
        best = f", a best column {100 * m['top1_best']:.1f} %" if "top1_best" in m else ""
        click.echo(f"epoch {m['epoch']}: loss {m['policy_loss']:.3f} + {m['value_loss']:.3f}; "
                   f"held out ({m['held_games']} games, {m['held_positions']} positions): "
                   f"top-1 {100 * m['top1']:.1f} %, top-5 {100 * m['top5']:.1f} %{best}, "
                   f"value MSE {m['value_mse']:.3f} ({m['seconds']:.0f} s)")
    base = sv.baseline(directory)
    if base:
        click.echo(f"baseline, the shipped move patterns on the same held-out positions: top-1 "
                   f"{100 * base['top1']:.1f} %, top-5 {100 * base['top5']:.1f} %")
    start = sv.baseline(directory, "init_baseline")
    if start:
        best = (f", a best column {100 * start['top1_best']:.1f} %" if "top1_best" in start
                else "")
        click.echo(f"the --init network on the same held-out positions: top-1 "
                   f"{100 * start['top1']:.1f} %{best}, policy loss "
                   f"{start['held_policy_loss']:.3f}, value MSE {start['value_mse']:.3f}")
    click.echo(f"network: {Path(directory) / sv.NETWORK}; the epoch with the lowest held-out "
               f"policy loss: {Path(directory) / sv.BEST}")


class _EpochProgress(_Bar):
    """A rich progress bar of one epoch's batches; notes go above it (or to stderr)."""

    first_description = "loading"

    def __call__(self, epoch: int, epochs: int, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=f"epoch {epoch}/{epochs}",
                                 completed=done, total=total)


class _TeacherProgress(_Bar):
    """A rich progress bar of games, with positions and games an hour; notes go above it.
    Without the bar (-q), a log line every ten games."""

    def __init__(self, enabled: bool, total: int):
        super().__init__(enabled, total)
        self.started = None
        self.every = 10                 # games between log lines without a progress bar
        self.first_positions = None     # positions the file held at the start

    def columns(self, rich_progress) -> tuple:
        return (rich_progress.TextColumn("games"), rich_progress.BarColumn(),
                rich_progress.MofNCompleteColumn(), rich_progress.TextColumn("{task.description}"),
                rich_progress.TimeElapsedColumn())

    def __enter__(self):
        import time
        self.started = time.perf_counter()
        return super().__enter__()

    def __call__(self, done: int, positions: int, played: int) -> None:
        import time
        hours = (time.perf_counter() - self.started) / 3600
        rate = f"{played / hours:.0f}" if played and hours > 0 else "-"
        if self.progress is not None:
            self.progress.update(self.task, completed=done,
                                 description=f"{positions} positions, {rate} games/hour")
        elif played and played % self.every == 0:       # a log line now and then (-q, nohup)
            new = positions - (self.first_positions or 0)
            prate = f"{new / hours:.0f}" if hours > 0 else "-"
            click.echo(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {done}/{self.total} games, "
                       f"{positions} positions; this session {played} games, {rate} games/hour, "
                       f"{prate} positions/hour", err=True)
        if self.first_positions is None:
            self.first_positions = positions


__all__ = ["train"]
