"""The training steps of a run: the PyTorch twin of the network, Adam, and the checkpoint
(``train.pt``) that carries them across generations and across a kill -9.

The checkpoint holds the weights, the optimiser's state, the generation being trained and the
steps taken in it; it is written atomically, so a killed run resumes from the last one and
repeats at most ``checkpoint_steps`` steps.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import torch

from boardai._files import write_atomic
from boardai.train.torch_net import TorchNet, losses


class Trainer:
    def __init__(self, config, path: Path, threads: int = 1, initial=None):
        torch.set_num_threads(max(1, threads))
        self.config = config
        self.path = Path(path)
        torch.manual_seed(config.seed)
        self.net = TorchNet(config.net_config())
        if initial is not None:           # a numpy network to start from (``--init``)
            self.net.load_state_dict(TorchNet.from_network(initial).state_dict())
        # a network made from a numpy one has its batch norms folded: train it with them frozen
        self.frozen_batchnorm = bool(getattr(config, "init", ""))
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=config.learning_rate,
                                           weight_decay=config.weight_decay)
        self.generation = 0
        self.gen_steps = 0
        self.recent = np.zeros(2)          # moving averages of the policy and value losses
        if self.path.exists():
            state = torch.load(self.path, map_location="cpu", weights_only=True)
            self.net.load_state_dict(state["model"])
            self.optimizer.load_state_dict(state["optimizer"])
            self.generation = int(state["generation"])
            self.gen_steps = int(state["gen_steps"])
            self.recent = np.array(state.get("recent", [0.0, 0.0]), dtype=np.float64)

    def start_generation(self, g: int) -> None:
        self.generation = g
        self.gen_steps = 0

    def step(self, batch) -> tuple[float, float]:
        planes, policy, mask, value = (torch.from_numpy(np.ascontiguousarray(a))
                                       for a in batch)
        self.net.train()
        if self.frozen_batchnorm:
            self.net.freeze_batchnorm()
        policy_loss, value_loss = losses(self.net, planes, policy, mask, value)
        loss = policy_loss + value_loss
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.gen_steps += 1
        out = np.array([policy_loss.item(), value_loss.item()])
        self.recent = out if not self.recent.any() else 0.95 * self.recent + 0.05 * out
        return float(out[0]), float(out[1])

    def save(self) -> None:
        buf = io.BytesIO()
        torch.save({"model": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "generation": self.generation, "gen_steps": self.gen_steps,
                    "recent": self.recent.tolist()}, buf)
        write_atomic(self.path, buf.getvalue())

    def export(self, path: Path) -> None:
        self.net.eval()
        buf = io.BytesIO()
        self.net.to_network().save(buf)
        write_atomic(path, buf.getvalue())

    def last_losses(self) -> dict:
        """The moving averages of the policy and value losses (as last checkpointed)."""
        return {"policy_loss": round(float(self.recent[0]), 5),
                "value_loss": round(float(self.recent[1]), 5)}


__all__ = ["Trainer"]
