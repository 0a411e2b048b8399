"""``boardai train report``: a run's ``metrics.jsonl`` as PNG plots (matplotlib, no PyTorch) and
a table of its generations.

- ``losses.png``: the policy and value losses against training steps;
- ``elo.png``: the best network's Elo difference against each fixed evaluation opponent, per
  generation, against the CPU-hours the run had used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Metrics:
    directory: Path
    config: dict
    train: list[dict]           # the "train" events, in order
    generations: list[dict]     # one summary per finished generation (the last one logged)

    def opponents(self) -> list[str]:
        """The evaluation opponents, in the run's order."""
        seen = {o for g in self.generations for o in g.get("elo", {})}
        order = [o for o in self.config.get("eval_opponents", []) if o in seen]
        return order + sorted(seen - set(order))


def load_metrics(directory) -> Metrics:
    directory = Path(directory)
    path = directory / "metrics.jsonl"
    config_path = directory / "config.json"
    if not config_path.exists():
        raise ValueError(f"{directory} holds no training run (no config.json)")
    config = json.loads(config_path.read_text())
    train, gens = [], {}
    if path.exists():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue        # a line cut short by a kill: the events before it stand
            if event.get("event") == "train":
                train.append(event)
            elif event.get("event") == "generation":
                gens[event["generation"]] = event
    return Metrics(directory, config, train, [gens[g] for g in sorted(gens)])


def plot_run(metrics: Metrics, out: Path) -> list[Path]:
    """Write ``losses.png`` and ``elo.png`` into ``out``; their paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    c = metrics.config
    title = f"{c['game']} {c['width']}x{c['height']}, {c['channels']}x{c['blocks']} network"
    paths = []

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [e["steps"] for e in metrics.train]
    ax.plot(steps, [e["policy_loss"] for e in metrics.train], label="policy (cross-entropy)")
    ax.plot(steps, [e["value_loss"] for e in metrics.train], label="value (squared error)")
    ax.set_xlabel("training steps")
    ax.set_ylabel("loss")
    ax.set_title(f"Losses: {title}")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    paths.append(out / "losses.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    opponents = metrics.opponents()
    for opp in opponents:
        pts = [(g["cpu_hours"], g["elo"][opp]) for g in metrics.generations
               if opp in g.get("elo", {})]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"vs {opp}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("CPU-hours")
    ax.set_ylabel("Elo difference of the best network")
    ax.set_title(f"Strength: {title}")
    ax.grid(alpha=0.3)
    if opponents:
        ax.legend()
    fig.tight_layout()
    paths.append(out / "elo.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)
    return paths


def generations_table(metrics: Metrics):
    from rich.table import Table

    opponents = metrics.opponents()
    table = Table(title=f"{metrics.directory}: {len(metrics.generations)} generation(s)")
    for col in ("gen", "positions", "policy loss", "value loss", "gate", "best", "hours",
                "CPU-h", *(f"Elo vs {o}" for o in opponents)):
        table.add_column(col, justify="right")
    for g in metrics.generations:
        table.add_row(str(g["generation"]), str(g.get("positions", "")),
                      f"{g.get('policy_loss', float('nan')):.3f}",
                      f"{g.get('value_loss', float('nan')):.3f}",
                      f"{g.get('gate_score', 0):.2f}" + (" +" if g.get("promoted") else ""),
                      f"g{g.get('best', 0):04d}", f"{g.get('hours', 0):.2f}",
                      f"{g.get('cpu_hours', 0):.2f}",
                      *(f"{g.get('elo', {}).get(o, float('nan')):+.0f}" for o in opponents))
    return table


__all__ = ["Metrics", "generations_table", "load_metrics", "plot_run"]
