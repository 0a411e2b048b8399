"""Hex's input planes for the networks (``games/kernel.py: encode_planes``, read by ``nn/``)."""

from __future__ import annotations

from numba import njit

from boardai.games.layout import HEIGHT, WIDTH, encode_cell_planes
from boardai.games.hex.kernel import hex_is_legal


@njit(cache=True, nogil=True)
def hex_encode_planes(state, out):
    """The network's input planes (``games/kernel.py: encode_planes``): ``out[p, y, x]`` for the
    cell of row y (top row first) and column x: 0 the side to move's stones, 1 the opponent's,
    2 empty cells, 3 blocked cells (none in Hex), 4 ones, 5 ones while the swap is legal."""
    w = state[WIDTH]
    h = state[HEIGHT]
    encode_cell_planes(state, out)
    if hex_is_legal(state, w * h):
        out[5, :h, :w] = 1.0
