"""The network side of the learning player (``boardai/nn``): input planes from the kernel, the
symmetry maps used for augmentation, and the numpy network's outputs and files."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.games import all_games, get_game
from boardai.games import kernel as K
from boardai.games.layout import FLAG_SWAP, FLAGS
from boardai.nn import features, model
from boardai.nn.model import Config, fold_batchnorm, load, random_init

GAMES = sorted(all_games())
SLOW = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- positions -------------------------------------------------------------------------------
def random_board(game_name: str, seed: int, size: tuple[int, int] | None = None,
                 plies: int | None = None, blocked=None, swap: bool | None = None):
    """A board of ``game_name`` after random legal moves (sizes, blocked cells and the swap rule
    drawn from ``seed`` unless given)."""
    rng = random.Random(seed)
    game = get_game(game_name)
    if size is None:
        if game.blocked_cells:                                # one-word and line-word layouts
            size = rng.choice([(7, 6), (4, 4), (5, 3), (8, 7), (9, 9), (12, 10), (3, 12)])
        elif game.swap:
            n = rng.randint(2, 9)
            size = rng.choice([(n, n), (n, rng.randint(2, 9))])
        else:
            size = rng.choice([(3, 3), (4, 4), (5, 3), (3, 5)])
    w, h = size
    if blocked is None:
        blocked = ()
        if game.blocked_cells and rng.random() < 0.6:
            blocked = tuple({(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randint(1, 3))})
    if swap is None:
        swap = game.swap and w == h and rng.random() < 0.5
    board = game.new_board(size, swap=swap, blocked=blocked)
    if plies is None:
        plies = rng.randrange(w * h + 1)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        if board.ply == 1 and board.num_actions - 1 in moves and not game.board.drops \
                and rng.random() < 0.5:
            board.push(board.num_actions - 1)                # the swap, where legal
        else:
            board.push(rng.choice(moves))
    return board


def naive_planes(board) -> np.ndarray:
    """The input planes built in plain Python from ``Board.view()``."""
    view = board.view()
    spots = np.asarray(view["spots"])
    mine, theirs = (1, 2) if int(board.turn) == 0 else (2, 1)
    planes = np.zeros((features.PLANES,) + spots.shape, dtype=np.float32)
    planes[0] = spots == mine
    planes[1] = spots == theirs
    planes[2] = spots == 0
    planes[3] = spots == 3
    planes[4] = 1.0
    planes[5] = any(board.spot_of(m) is None for m in board.legal_moves)   # the swap
    return planes


# --- planes ----------------------------------------------------------------------------------
@SLOW
@given(game_name=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_planes_equal_a_naive_encoding_of_the_view(game_name, seed):
    board = random_board(game_name, seed)
    planes = features.encode([board.state])[0]
    assert planes.shape == (features.PLANES, board.height, board.width)
    np.testing.assert_array_equal(planes, naive_planes(board))


def test_swap_plane_is_on_exactly_while_the_swap_is_legal():
    board = get_game("hex").new_board(4, swap=True)
    assert features.encode([board.state])[0, 5].sum() == 0
    board.push(5)
    assert features.encode([board.state])[0, 5].min() == 1.0
    board.push(board.num_actions - 1)
    assert features.encode([board.state])[0, 5].sum() == 0


def test_connect4_bottom_row_is_the_last_row_and_blocked_cells_are_plane_3():
    board = get_game("connect4").new_board((7, 6), blocked=[(0, 0), (6, 5)])
    board.push(3)
    planes = features.encode([board.state])[0]
    assert planes[1, 5, 3] == 1.0                   # Black's stone, seen by White to move
    assert planes[3, 5, 0] == 1.0 and planes[3, 0, 6] == 1.0 and planes[3].sum() == 2
    assert (planes[0] + planes[1] + planes[2] + planes[3] == planes[4]).all()


def test_encode_planes_dispatch_names_every_game_and_fails_loudly():
    import inspect

    source = inspect.getsource(K.encode_planes.py_func)
    for name in dir(__import__("boardai.games.layout", fromlist=["x"])):
        if name.startswith("GAME_"):
            assert name in source
    state = get_game(GAMES[0]).new_board().state.copy()
    state[0] = 99
    with pytest.raises(ValueError, match="not the id of a game"):
        K.encode_planes(state, np.zeros((6, int(state[2]), int(state[1])), np.float32))


# --- symmetries ------------------------------------------------------------------------------
def inverse(src: np.ndarray) -> np.ndarray:
    image = np.empty_like(src)
    image[src] = np.arange(len(src))
    return image


def image_board(board, name: str):
    """The position reached by playing the images of ``board``'s moves on the image board."""
    game = get_game(board.game_name)
    w, h = board.width, board.height
    blocked = [features.image_spot(name, c, h - 1 - r, w, h) for c, r in board.setup] \
        if game.blocked_cells else []
    blocked = [(x, h - 1 - y) for x, y in blocked]          # spots back to (col, row from bottom)
    swap = game.swap and bool(int(board.state[FLAGS]) & FLAG_SWAP)
    image = game.new_board((w, h), swap=swap, blocked=blocked)
    moves = inverse(features.action_permutation(game, name, w, h, board.num_actions))
    for m in board.move_stack:
        image.push(int(moves[m]))
    return image


@SLOW
@given(game_name=st.sampled_from(GAMES), seed=st.integers(0, 10**6), pick=st.integers(0, 99))
def test_encoding_an_image_position_is_the_image_of_the_encoding(game_name, seed, pick):
    board = random_board(game_name, seed)
    game = get_game(game_name)
    names = features.symmetries(game, board.width, board.height)
    assert names, f"{game_name} has no symmetry on {board.width}x{board.height}"
    name = names[pick % len(names)]
    image = image_board(board, name)
    planes = features.encode([board.state])
    np.testing.assert_array_equal(features.encode([image.state]),
                                  features.symmetry_planes(planes, name))
    # a move's image is the image's move: the legal moves map onto the image's legal moves
    mask = features.legal_mask([board.state]).astype(np.float32)
    np.testing.assert_array_equal(
        features.symmetry_policy(mask, name, game, board.width, board.height),
        features.legal_mask([image.state]).astype(np.float32))


def test_symmetries_come_from_the_descriptions():
    for game in all_games().values():
        assert game.nn_symmetries, f"{game.name} declares no symmetry"
        for name in game.nn_symmetries:
            assert name in features.ALL_SYMMETRIES
    hexgame = get_game("hex")
    assert features.symmetries(hexgame, 5, 5) == ("rot180",)
    assert features.image_spot("rot180", 0, 1, 5, 3) == (4, 1)
    src = features.action_permutation(hexgame, "rot180", 3, 3, 10)
    assert src[9] == 9 and src[0] == 8                      # the swap is its own image


def test_augment_gives_every_image_and_keeps_the_policy_a_distribution():
    game = get_game("tictactoe")
    board = random_board("tictactoe", 3, size=(3, 3), plies=3)
    planes = features.encode([board.state])
    policy = np.random.default_rng(0).random((1, 9)).astype(np.float32)
    policy /= policy.sum()
    images = features.augment(planes, policy, game)
    assert [n for n, _, _ in images] == ["identity", *game.nn_symmetries]
    seen = {p.tobytes() for _, p, _ in images}
    assert len(seen) >= 2
    for _, _, pol in images:
        assert pol.sum() == pytest.approx(1.0)


# --- the network -----------------------------------------------------------------------------
def reference_conv3x3(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A plain zero-padded 3x3 convolution, NHWC, weight rows ordered (dy, dx, cin)."""
    b, h, w, cin = x.shape
    k = weight.reshape(3, 3, cin, -1)
    padded = np.zeros((b, h + 2, w + 2, cin), dtype=np.float64)
    padded[:, 1:-1, 1:-1] = x
    out = np.zeros((b, h, w, k.shape[-1])) + bias
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("bhwc,co->bhwo", padded[:, dy:dy + h, dx:dx + w], k[dy, dx])
    return out


def test_im2col_conv_equals_a_plain_convolution():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5, 4, 6)).astype(np.float32)
    weight = rng.standard_normal((54, 7)).astype(np.float32)
    bias = rng.standard_normal(7).astype(np.float32)
    got = model._Scratch(3, 5, 4).conv3x3(x, weight, bias)
    np.testing.assert_allclose(got, reference_conv3x3(x, weight, bias), rtol=1e-4, atol=1e-4)


def test_fold_batchnorm_equals_conv_then_batchnorm():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((10, 12)).astype(np.float32)
    w, b = rng.standard_normal((12, 4)).astype(np.float32), rng.standard_normal(4)
    gamma, beta = rng.random(4) + 0.5, rng.standard_normal(4)
    mean, var = rng.standard_normal(4), rng.random(4) + 0.1
    wf, bf = fold_batchnorm(w, b, gamma, beta, mean, var)
    expected = ((x @ w + b) - mean) / np.sqrt(var + 1e-5) * gamma + beta
    np.testing.assert_allclose(x @ wf + bf, expected, rtol=1e-4, atol=1e-4)


NETS = {name: random_init(Config(game=name, channels=8, blocks=2), seed=3) for name in GAMES}
SIZES = {"hex": [(3, 3), (5, 5), (9, 9), (4, 7)], "connect4": [(7, 6), (4, 4), (12, 10)],
         "tictactoe": [(3, 3), (4, 4), (5, 3)]}


@pytest.mark.parametrize("game_name", GAMES)
def test_one_set_of_weights_serves_every_board_size(game_name):
    net = NETS[game_name]
    for size in SIZES.get(game_name, [get_game(game_name).default_size]):
        boards = [random_board(game_name, s, size=size, plies=s % 4, blocked=(), swap=False)
                  for s in range(5)]
        priors, values = net.policy_value([b.state for b in boards])
        assert priors.shape == (5, boards[0].num_actions) and priors.dtype == np.float32
        assert values.shape == (5,)
        assert np.all(np.abs(values) <= 1.0)


@SLOW
@given(game_name=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_priors_are_a_distribution_over_the_legal_moves(game_name, seed):
    board = random_board(game_name, seed)
    priors, values = NETS[game_name].policy_value([board.state])
    legal = features.legal_mask([board.state])[0]
    assert np.all(priors[0][~legal] == 0.0)
    if legal.any():
        assert priors[0].sum() == pytest.approx(1.0, abs=1e-5)
        assert np.all(priors[0][legal] > 0.0)
    else:
        assert priors[0].sum() == 0.0                        # a finished game
    assert -1.0 <= values[0] <= 1.0


def test_the_swap_gets_a_prior_only_where_it_is_legal():
    net = NETS["hex"]
    board = get_game("hex").new_board(5, swap=True)
    board.push(7)
    priors, _ = net.policy_value([board.state])
    assert priors[0, 25] > 0.0
    plain = get_game("hex").new_board(5)
    plain.push(7)
    priors, _ = net.policy_value([plain.state])
    assert priors[0, 25] == 0.0


@pytest.mark.parametrize("game_name", GAMES)
def test_save_and_load_give_identical_outputs(game_name, tmp_path):
    net = random_init({"game": game_name, "channels": 8, "blocks": 1}, seed=7)
    path = tmp_path / "net.npz"
    net.save(path)
    again = load(path)
    assert again.config == net.config
    states = [random_board(game_name, s).state for s in range(1)]
    for a, b in zip(net.policy_value(states), again.policy_value(states)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_batch_equals_single_calls(game_name):
    net = NETS[game_name]
    size = SIZES[game_name][0]
    states = [random_board(game_name, s, size=size, blocked=()).state for s in range(40)]
    priors, values = net.policy_value(states)          # 40 > CHUNK: two chunks
    for i, state in enumerate(states):
        p, v = net.policy_value([state])
        np.testing.assert_allclose(p[0], priors[i], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(v[0], values[i], rtol=1e-4, atol=1e-6)


def test_a_batch_mixing_board_sizes_or_games_is_refused():
    a = get_game("hex").new_board(3).state
    b = get_game("hex").new_board(4).state
    with pytest.raises(ValueError, match="one game and board size"):
        NETS["hex"].policy_value([a, b])
    with pytest.raises(ValueError, match="plays Hex"):
        NETS["hex"].policy_value([get_game("tictactoe").new_board().state])


def test_files_know_their_shapes():
    shapes = model.weight_shapes(Config(game="hex", channels=16, blocks=3))
    assert shapes["stem.w"] == (9 * features.PLANES, 16)
    assert shapes["policy.extra.w"] == (32, 1)                # the swap
    assert sum(1 for k in shapes if k.startswith("block")) == 3 * 4


def test_weights_of_the_wrong_shape_are_refused():
    net = random_init({"game": "hex", "channels": 8, "blocks": 1}, seed=0)
    weights = dict(net.weights)
    weights["stem.w"] = weights["stem.w"][:, :4]
    with pytest.raises(ValueError, match="wrong shape"):
        model.Network(net.config, weights)


@pytest.mark.parametrize("game_name", GAMES)
def test_only_the_position_prefix_is_read(game_name):
    """A search hands over scratch copies (``copy_position``): the undo area is not the game's."""
    boards = [random_board(game_name, s, size=SIZES[game_name][0], blocked=()) for s in range(6)]
    stack = np.stack([b.state for b in boards])
    scratch = np.full_like(stack, -7)
    for i, b in enumerate(boards):
        K.copy_position(b.state, scratch[i])
    for a, b in zip(NETS[game_name].policy_value(stack), NETS[game_name].policy_value(scratch)):
        np.testing.assert_array_equal(a, b)


def test_the_shipped_hex_7x7_network_opens_with_a_winning_move():
    """The raw policy of the shipped Hex 7x7 network, on the empty board without swap, plays
    one of the opening table's winning first moves (issue 17's 7x7 target)."""
    from boardai.engines.base import Limit
    from boardai.engines.nn_engine import shipped_networks
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    from boardai.solvers.hex.openings import opening_table

    assert "hex-7x7" in shipped_networks()
    board = get_game("hex").new_board(7)
    move = make_engine("policy").play(board, Limit()).name
    assert opening_table()[7][move] == "black"


def test_the_shipped_hex_9x9_network_is_the_one_9x9_boards_get():
    """Hex 9x9 boards (and 10x10, nearer to it than to 7x7) get the shipped 9x9 network, a
    32x2 one (the shape that meets the inference target on one core); its priors cover only
    legal moves."""
    import numpy as np

    from boardai.engines.nn_engine import load_network, network_for, shipped_networks
    from boardai.games import get_game

    assert network_for("hex", 9, 9) == shipped_networks()["hex-9x9"]
    assert network_for("hex", 10, 10) == shipped_networks()["hex-9x9"]
    net = load_network(shipped_networks()["hex-9x9"])
    assert (net.config.channels, net.config.blocks) == (32, 2)
    board = get_game("hex").new_board(9)
    board.push("e5")
    priors, values = net.policy_value([board.state])
    assert priors.shape == (1, 82) and np.isclose(priors.sum(), 1.0)
    assert priors[0, board.parse_move("e5")] == 0.0 and -1.0 <= values[0] <= 1.0
