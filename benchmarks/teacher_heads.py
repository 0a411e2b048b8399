"""How well networks read held-out teacher games (issue 36): the policy's top-1 and top-5
agreement with the teacher's move, and the value head against the game's result, against the
teacher's own win rate (``2w - 1``, where it searched), and how often its sign names the
eventual winner, beside the same figures for the teacher's win rate itself.

    python benchmarks/teacher_heads.py hex9/games.jsonl boardai/data/networks/hex-9x9-teacher.npz \
        runs/v9mix/network.npz [--holdout 0.15 --seed 0]

The held-out games are those ``boardai train supervised`` holds out with the same ``--holdout``
and ``--seed`` (a stable hash of each game), so the figures line up with a run's metrics.
Needs the ``train`` extra (PyTorch).
"""

from __future__ import annotations

import argparse

import numpy as np


def value_figures(v: np.ndarray, result: np.ndarray, teacher: np.ndarray) -> dict:
    """MSE against the result and against the teacher's ``2w - 1`` (where known), and the share
    of positions whose sign agrees with the result."""
    known = ~np.isnan(teacher)
    return {"mse_result": float(((v - result) ** 2).mean()),
            "mse_teacher": float(((v[known] - (2 * teacher[known] - 1)) ** 2).mean())
            if known.any() else float("nan"),
            "sign_right": float(((v > 0) == (result > 0)).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="a teacher file (boardai train teacher)")
    ap.add_argument("networks", nargs="+", help=".npz networks or shipped names")
    ap.add_argument("--holdout", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    import torch
    from boardai.engines.nn_engine import network_path
    from boardai.nn.model import load
    from boardai.train import supervised
    from boardai.train.torch_net import TorchNet
    torch.set_num_threads(1)
    data = supervised.load_data([args.data], supervised.Settings(holdout=args.holdout,
                                                                  seed=args.seed))
    held = data.held
    print(f"held out: {data.games[1]} games, {len(held['move'])} positions")
    teacher = held["value"]
    known = ~np.isnan(teacher)
    own = value_figures(2 * teacher[known] - 1, held["result"][known], teacher[known])
    print(f"{'the teacher win rate itself':<44} value MSE/result {own['mse_result']:.3f}"
          f"  sign right {own['sign_right']:.1%}")
    for name in args.networks:
        net = TorchNet.from_network(load(network_path(name)))
        pol = supervised.evaluate(net, held, keep_values=True)
        val = value_figures(pol["values"], held["result"], teacher)
        print(f"{name:<44} top-1 {pol['top1']:.1%} top-5 {pol['top5']:.1%}"
              f"  value MSE/result {val['mse_result']:.3f} MSE/teacher {val['mse_teacher']:.3f}"
              f"  sign right {val['sign_right']:.1%}")


if __name__ == "__main__":
    main()
