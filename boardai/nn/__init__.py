"""The network side of the learning player: input planes, a numpy residual CNN, symmetries.

- ``features.py``: kernel states -> input planes ``[B, 6, H, W]`` (the kernel's
  ``encode_planes``), legal-move masks, the action layout, the symmetry maps for augmentation.
- ``model.py``: the network (fully convolutional, global pooling: one set of weights for every
  board size of its game), its forward pass in numpy (im2col + one float32 matmul per 3x3
  conv), ``.npz`` files, ``Network.policy_value(states)`` for the search.

Input planes, spots ``[y][x]`` as ``Board.view()`` draws them (y = 0 is the top row as drawn),
from the side to move's view: 0 its stones, 1 the opponent's, 2 empty playable cells, 3 blocked
cells, 4 ones, 5 ones while the swap is legal.

The policy is over the kernel's moves (``state[NUM_ACTIONS]`` of them), per game:

==============  ============================================================================
Hex W x H       ``W*H + 1`` actions: cell ``y*W + x`` (row y from the top, ``a1`` = 0, row-
                major), then the swap at index ``W*H`` (its logit from the pooled trunk; its
                prior is 0 unless the swap is legal).  Symmetry: 180-degree rotation, (x, y)
                -> (W-1-x, H-1-y); the swap is its own image.
Connect Four    ``W`` actions: column x (0-based, left to right); its logit is the logsumexp of
W x H           the column's spot logits.  Planes: y = H-1 is the bottom row; blocked cells in
                plane 3.  Symmetry: the left-right mirror, column x -> W-1-x.
Tic-tac-toe     ``W*H`` actions: cell ``y*W + x`` (row-major from the top left).  Symmetries:
W x H           mirror, flip, rot180, and on square boards the transposes and quarter turns.
==============  ============================================================================

This package imports ``games`` only (it sits beside the engines); the ``nn`` engine and the
PUCT search hook are built on ``Network.policy_value``.
"""

from boardai.nn.model import Config, Network, load, random_init, save

__all__ = ["Config", "Network", "load", "random_init", "save"]
