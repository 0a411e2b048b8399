"""The mover's frame of Hex (``nn/features.py``, ``Config.transpose_white``): White-to-move
positions are read transposed, so that the side to move always joins top and bottom.  The frame
must keep the game: a move wins in the frame exactly when it wins on the board, moves and planes
map together (the swap to itself), and a network reading the frame answers on the board."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.games.hex.board import HexBoard
from boardai.games.layout import WINNER
from boardai.nn import features
from boardai.nn.model import Config, Network, random_init


@st.composite
def positions(draw, square=True):
    """A Hex position not yet over: a size, a random order of cells, a prefix of it played
    (the swap as White's first move sometimes, where the rule is on)."""
    w = draw(st.integers(3, 7))
    h = w if square else draw(st.integers(3, 7))
    swap = square and draw(st.booleans())
    order = draw(st.permutations(range(w * h)))
    k = draw(st.integers(0, w * h - 1))
    board = HexBoard(w, h, swap=swap)
    for i, cell in enumerate(order[:k]):
        if board.is_game_over():
            break
        if i == 1 and swap and draw(st.booleans()):
            board.push(board.swap_move)
            continue
        if board.is_legal(cell):
            board.push(cell)
    if board.is_game_over():
        board.pop()
    return board


def joins_top_and_bottom(stones: np.ndarray, board: HexBoard) -> bool:
    """Whether ``stones`` ([H, W] bool of a square board) hold a chain from row 0 to the last
    row, by the board's own neighbours."""
    n = stones.shape[0]
    flat = stones.reshape(-1)
    seen = {c for c in range(n) if flat[c]}
    todo = list(seen)
    while todo:
        cell = todo.pop()
        if cell // n == n - 1:
            return True
        for nb in board.neighbours(cell):
            if flat[nb] and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return False


@settings(max_examples=60, deadline=None)
@given(positions())
def test_in_the_mover_frame_a_move_wins_by_joining_top_and_bottom(board):
    white = features.white_to_move([board.state])
    assert bool(white[0]) == (int(board.turn) == 1)
    frame = features.to_mover_frame(features.encode([board.state]), white)[0]
    for move in board.legal_moves:
        if move >= board.width * board.height:
            continue                                   # the swap wins nothing at once
        m = features.transpose_move(move, board.width, board.height) if white[0] else move
        y, x = divmod(m, board.width)
        assert frame[2, y, x] == 1.0                   # the image of a legal move is empty
        mine = frame[0] > 0.5
        mine[y, x] = True
        after = board.copy()
        after.push(move)
        assert joins_top_and_bottom(mine, board) == (int(after.state[WINNER]) == int(board.turn)), (
            board.move_stack, move)


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**31))
def test_the_frame_maps_moves_policies_and_masks_together(board, seed):
    n = board.width
    states = [board.state]
    white = features.white_to_move(states)
    mask = features.legal_mask(states)
    frame_mask = features.from_mover_frame(mask, white, n)   # the transpose is its own inverse
    planes = features.to_mover_frame(features.encode(states), white)
    # the frame's empty cells (and swap plane) are the frame's legal moves
    assert np.array_equal(frame_mask[0, :n * n], planes[0, 2].reshape(-1) > 0.5)
    assert frame_mask[0, -1] == mask[0, -1] == (planes[0, 5, 0, 0] > 0.5)
    policy = np.random.default_rng(seed).random((1, board.num_actions)).astype(np.float32)
    there = features.from_mover_frame(policy, white, n)
    assert np.array_equal(features.from_mover_frame(there, white, n), policy)
    assert there[0, -1] == policy[0, -1]                      # the swap is its own image
    for move in range(board.num_actions):
        image = features.transpose_move(move, n, n) if white[0] else move
        assert there[0, image] == policy[0, move]
        assert frame_mask[0, image] == mask[0, move]


@settings(max_examples=25, deadline=None)
@given(st.lists(positions(square=False), min_size=1, max_size=1),
       st.lists(positions(), min_size=2, max_size=5))
def test_a_network_in_the_mover_frame_answers_on_the_board(odd, boards):
    net = random_init(Config(game="hex", channels=8, blocks=1, transpose_white=True), seed=4)
    plain = Network(dataclasses.replace(net.config, transpose_white=False), net.weights)
    for group in (odd, [b for b in boards if b.size_text == boards[0].size_text]):
        states = [b.state for b in group]
        priors, values = net.policy_value(states)
        for k, board in enumerate(group):
            w, h = board.width, board.height
            planes = features.encode([board.state])
            mask = features.legal_mask([board.state])
            if board.turn == 1:                        # by hand: transpose, play, turn back
                planes = np.ascontiguousarray(np.swapaxes(planes, -1, -2))
                mask = features.transpose_policy(mask, w, h)
            p, v = plain.predict(planes, mask)
            if board.turn == 1:
                p = features.transpose_policy(p, h, w)
            np.testing.assert_allclose(priors[k], p[0], atol=1e-6)
            np.testing.assert_allclose(values[k], v[0], atol=1e-6)
            assert np.all(priors[k][~features.legal_mask([board.state])[0]] == 0)


def test_a_frame_network_needs_the_side_to_move_from_planes_and_refuses_column_games():
    import pytest
    net = random_init(Config(game="hex", channels=4, blocks=0, transpose_white=True))
    board = HexBoard.from_moves(["c3"], 5)
    with pytest.raises(ValueError, match="White to move"):
        net.predict(features.encode([board.state]), features.legal_mask([board.state]))
    p, _ = net.predict(features.encode([board.state]), features.legal_mask([board.state]),
                       white=[True])
    assert np.allclose(p, net.policy_value([board.state])[0])
    with pytest.raises(ValueError, match="cell games"):
        Config(game="connect4", transpose_white=True).resolved()


def test_a_saved_frame_network_loads_with_its_frame(tmp_path):
    from boardai.nn.model import load
    net = random_init(Config(game="hex", channels=4, blocks=1, transpose_white=True), seed=2)
    net.save(tmp_path / "n.npz")
    again = load(tmp_path / "n.npz")
    assert again.config.transpose_white
    board = HexBoard.from_moves(["b2", "d4", "a5"], 5)
    for a, b in zip(net.policy_value([board.state]), again.policy_value([board.state])):
        assert np.array_equal(a, b)
