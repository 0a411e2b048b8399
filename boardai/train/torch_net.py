"""The training twin of ``boardai.nn.model``: the same residual CNN as a PyTorch module, with
batch norm while training, and its export to the numpy network the engines play with.

Only ``boardai train`` needs PyTorch (extra ``train``); playing needs nothing but numpy.  The
module computes exactly what ``Network.forward`` computes once its batch norms are folded into
the convolutions (``to_network``; ``tests/test_train.py`` checks both outputs agree)::

    stem       conv 3x3 (no bias) + BN + ReLU
    block i    conv 3x3 + BN + ReLU, conv 3x3 + BN, + skip, ReLU
    policy     conv 1x1 (bias) + ReLU, conv 1x1 -> one logit per spot; column games take the
               logsumexp of a column's spots; cell games' extra actions (Hex's swap) come from
               a dense layer over the trunk's mean and max
    value      conv 1x1 (bias) + ReLU, mean and max over the board, dense + ReLU, dense, tanh

A 3x3 weight ``[Cout, Cin, 3, 3]`` becomes numpy's ``[9*Cin, Cout]`` by
``w.permute(2, 3, 1, 0).reshape(9*Cin, Cout)``; a 1x1 or dense weight is transposed.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from boardai.nn import features
from boardai.nn.model import Config, Network, fold_batchnorm


class _ConvBN(nn.Module):
    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return self.bn(self.conv(x))

    def folded(self) -> tuple[np.ndarray, np.ndarray]:
        w = self.conv.weight.detach().cpu().numpy()
        cout, cin = w.shape[:2]
        w = w.transpose(2, 3, 1, 0).reshape(9 * cin, cout)
        bn = self.bn
        return fold_batchnorm(w, None, bn.weight.detach().cpu().numpy(),
                              bn.bias.detach().cpu().numpy(), bn.running_mean.cpu().numpy(),
                              bn.running_var.cpu().numpy(), bn.eps)


def _pool(x):
    """``[B, C, H, W]`` -> ``[B, 2C]``: the mean and the max of every channel."""
    return torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)


class TorchNet(nn.Module):
    """The network of ``config`` (a ``boardai.nn.model.Config``) in PyTorch."""

    def __init__(self, config: Config):
        super().__init__()
        self.config = config = config.resolved()
        self.columns = features.by_columns(_game(config))
        ch = config.channels
        self.stem = _ConvBN(config.planes, ch)
        self.blocks = nn.ModuleList(
            nn.ModuleList([_ConvBN(ch, ch), _ConvBN(ch, ch)]) for _ in range(config.blocks))
        self.policy_conv = nn.Conv2d(ch, config.policy_channels, 1)
        self.policy_cell = nn.Conv2d(config.policy_channels, 1, 1)
        self.policy_extra = nn.Linear(2 * ch, max(config.extra_actions, 1))
        self.value_conv = nn.Conv2d(ch, config.value_channels, 1)
        self.value_fc1 = nn.Linear(2 * config.value_channels, config.value_hidden)
        self.value_fc2 = nn.Linear(config.value_hidden, 1)
        for a, b in self.blocks:        # a residual block starts close to the identity
            nn.init.constant_(b.bn.weight, 0.25)

    def forward(self, planes, num_actions: int):
        """``planes [B, PLANES, H, W]`` -> (logits ``[B, num_actions]``, values ``[B]``)."""
        x = torch.relu(self.stem(planes))
        for a, b in self.blocks:
            x = torch.relu(b(torch.relu(a(x))) + x)
        cell = self.policy_cell(torch.relu(self.policy_conv(x)))[:, 0]       # [B, H, W]
        bsz, h, w = cell.shape
        if self.columns:
            logits = torch.logsumexp(cell, dim=1)[:, :num_actions]
        else:
            parts = [cell.reshape(bsz, h * w)]
            extra = num_actions - h * w
            if extra > 0:
                parts.append(self.policy_extra(_pool(x))[:, :extra])
            logits = torch.cat(parts, dim=1)
        v = torch.relu(self.value_conv(x))
        values = torch.tanh(self.value_fc2(torch.relu(self.value_fc1(_pool(v)))))[:, 0]
        return logits, values

    @classmethod
    def from_network(cls, network: Network) -> "TorchNet":
        """A module computing what the numpy ``network`` computes, to train further: its folded
        convolutions as the weights, each batch norm the identity with the folded bias as its
        shift (running mean 0, variance 1 - eps).  Train it with its batch norms in eval mode
        (``freeze_batchnorm``): batch statistics would change what the network computes."""
        net = cls(network.config)
        wt = network.weights

        def conv(layer: _ConvBN, w: np.ndarray, b: np.ndarray) -> None:
            cout = w.shape[1]
            cin = w.shape[0] // 9
            layer.conv.weight.data = torch.from_numpy(
                w.reshape(3, 3, cin, cout).transpose(3, 2, 0, 1).copy())
            bn = layer.bn
            bn.weight.data.fill_(1.0)
            bn.bias.data = torch.from_numpy(b.copy())
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)

        def dense(module, w: np.ndarray, b: np.ndarray, one_by_one: bool) -> None:
            t = torch.from_numpy(w.T.copy())
            module.weight.data = t[:, :, None, None] if one_by_one else t
            module.bias.data = torch.from_numpy(b.copy())

        conv(net.stem, wt["stem.w"], wt["stem.b"])
        for i, (a, b) in enumerate(net.blocks):
            conv(a, wt[f"block{i}.conv1.w"], wt[f"block{i}.conv1.b"])
            conv(b, wt[f"block{i}.conv2.w"], wt[f"block{i}.conv2.b"])
        dense(net.policy_conv, wt["policy.conv.w"], wt["policy.conv.b"], True)
        dense(net.policy_cell, wt["policy.cell.w"], wt["policy.cell.b"], True)
        dense(net.policy_extra, wt["policy.extra.w"], wt["policy.extra.b"], False)
        dense(net.value_conv, wt["value.conv.w"], wt["value.conv.b"], True)
        dense(net.value_fc1, wt["value.fc1.w"], wt["value.fc1.b"], False)
        dense(net.value_fc2, wt["value.fc2.w"], wt["value.fc2.b"], False)
        return net

    def freeze_batchnorm(self) -> None:
        """Put every batch norm in eval mode (its running statistics used and kept), the rest
        as it is: call after ``train()`` when fine-tuning a network made by ``from_network``."""
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()

    def to_network(self) -> Network:
        """The numpy network with this module's weights (batch norms folded in, as in eval
        mode)."""
        def t(p) -> np.ndarray:
            return p.detach().cpu().numpy()

        weights: dict[str, np.ndarray] = {}
        weights["stem.w"], weights["stem.b"] = self.stem.folded()
        for i, (a, b) in enumerate(self.blocks):
            weights[f"block{i}.conv1.w"], weights[f"block{i}.conv1.b"] = a.folded()
            weights[f"block{i}.conv2.w"], weights[f"block{i}.conv2.b"] = b.folded()
        weights["policy.conv.w"] = t(self.policy_conv.weight)[:, :, 0, 0].T
        weights["policy.conv.b"] = t(self.policy_conv.bias)
        weights["policy.cell.w"] = t(self.policy_cell.weight)[:, :, 0, 0].T
        weights["policy.cell.b"] = t(self.policy_cell.bias)
        weights["policy.extra.w"] = t(self.policy_extra.weight).T
        weights["policy.extra.b"] = t(self.policy_extra.bias)
        weights["value.conv.w"] = t(self.value_conv.weight)[:, :, 0, 0].T
        weights["value.conv.b"] = t(self.value_conv.bias)
        weights["value.fc1.w"] = t(self.value_fc1.weight).T
        weights["value.fc1.b"] = t(self.value_fc1.bias)
        weights["value.fc2.w"] = t(self.value_fc2.weight).T
        weights["value.fc2.b"] = t(self.value_fc2.bias)
        return Network(self.config, weights)


def _game(config: Config):
    from boardai.games.game import get_game
    return get_game(config.game)


def losses(net: TorchNet, planes, policy, mask, value):
    """(policy loss, value loss) of a batch: the cross-entropy of the search's visit
    distribution ``policy`` against the legal moves' softmax, and the squared error of the value
    against the game's result ``value`` (for the side to move)."""
    logits, v = net(planes, policy.shape[1])
    logits = logits.masked_fill(~mask, float("-inf"))
    logp = torch.log_softmax(logits, dim=1)
    logp = torch.where(mask, logp, torch.zeros_like(logp))
    policy_loss = -(policy * logp).sum(dim=1).mean()
    value_loss = ((v - value) ** 2).mean()
    return policy_loss, value_loss


__all__ = ["TorchNet", "losses"]
