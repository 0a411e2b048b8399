"""Inference speed of the numpy network (``boardai/nn``): positions per second, batched.

    python benchmarks/nn_inference.py                       # Hex 9x9, 32x4 and 64x6, both BLAS settings
    python benchmarks/nn_inference.py --nets 32x4 --seconds 2 --json out.json

For each network (channels x residual blocks, random weights: speed does not depend on them) and
batch size (1, 8, 32, 128) it times ``Network.policy_value`` on a batch of different Hex 9x9
positions (random plies from the empty board): planes from the kernel, the forward pass, the
legal-move masks and the softmax, all included.  Each setting runs in a fresh process:
``blas=default`` leaves numpy's OpenBLAS as it starts (as many threads as cores),
``blas=1`` sets one thread first (``OPENBLAS_NUM_THREADS=1``).  The issue's target is 5,000
positions/s batched for the 9x9 Hex network on this 2-core machine.  Prints one line per
setting and, with ``--json``, writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

BATCHES = (1, 8, 32, 128)


def measure(channels: int, blocks: int, seconds: float, size: int) -> dict[int, float]:
    """Positions/s of ``policy_value`` per batch size, in this process."""
    import random

    import numpy as np

    from boardai.games import make_board
    from boardai.nn import random_init

    net = random_init({"game": "hex", "channels": channels, "blocks": blocks}, seed=1)
    rng = random.Random(1)
    states = []
    for _ in range(max(BATCHES)):
        board = make_board("hex", size)
        for _ in range(rng.randrange(size * size // 2)):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                board.pop()
                break
        states.append(board.state.copy())
    stack = np.stack(states)
    out = {}
    for batch in BATCHES:
        part = stack[:batch]
        net.policy_value(part)                       # warm-up (compiled code, buffers)
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            net.policy_value(part)
            done += batch
        out[batch] = done / (time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nets", default="32x4,64x6", help="channels x blocks, comma separated")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=2.0, help="per batch size")
    parser.add_argument("--blas", default="default,1", help="BLAS threads: default and/or N")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        channels, blocks = (int(v) for v in args.child.split("x"))
        print(json.dumps(measure(channels, blocks, args.seconds, args.size)))
        return
    rows = []
    for net in args.nets.split(","):
        for blas in args.blas.split(","):
            env = dict(os.environ)
            if blas != "default":
                env["OPENBLAS_NUM_THREADS"] = blas
            else:
                env.pop("OPENBLAS_NUM_THREADS", None)
            done = subprocess.run([sys.executable, __file__, "--child", net, "--size",
                                   str(args.size), "--seconds", str(args.seconds)],
                                  env=env, capture_output=True, text=True, check=True)
            figures = {int(k): v for k, v in json.loads(done.stdout.splitlines()[-1]).items()}
            rows.append({"net": net, "size": args.size, "blas": blas,
                         "positions_per_s": figures, "cpus": os.cpu_count(),
                         "load": os.getloadavg()[0]})
            print(f"hex {args.size}x{args.size} net {net:>5} blas={blas:<7} " + "  ".join(
                f"batch {b:>3}: {v:7.0f}/s" for b, v in figures.items())
                + f"   (load {os.getloadavg()[0]:.1f})", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
