"""What the network sees and what it answers in: input planes in batches, legal-move masks, the
policy's action layout, and the board symmetries used to augment training data.

Input: ``encode(states) -> [B, PLANES, H, W]`` float32, one kernel ``encode_planes`` call per
state (``games/kernel.py``; planes 0 side to move's stones, 1 opponent's, 2 empty playable, 3
blocked, 4 ones, 5 swap legal).  Spots are ``[y][x]`` as ``Board.view()`` draws them.

Policy layout (the network's action space is the kernel's moves, ``state[NUM_ACTIONS]`` of them):

- **cells** (games whose board class does not drop stones by column; Hex, tic-tac-toe): action
  ``y*W + x`` is spot (x, y), actions from ``W*H`` on have no spot (Hex's swap is ``W*H``);
- **columns** (games whose board has ``drops``; Connect Four): action ``x`` is column x.

Symmetries come from the game's description (``Game.nn_symmetries``), by name: ``mirror`` (x ->
W-1-x), ``flip`` (y -> H-1-y), ``rot180``, and on square boards ``transpose`` (x <-> y),
``antitranspose``, ``rot90``, ``rot270``.  ``symmetry_planes`` moves every spot to its image;
``symmetry_policy`` moves every action to its image (a move without a spot is its own image), so
the image of a position's move is the move of the position's image.

**The mover's frame** (Hex).  The planes say whose stones are whose (mine, theirs) but not which
pair of edges the side to move joins: Black joins top and bottom, White left and right.  Hex maps
to itself under transposing the board while swapping the colours, and the planes already swap
the colours' roles (mine, theirs), so transposing the planes of a position with White to move
gives a position in which the side to move joins top and bottom, as Black does
(``to_mover_frame``).  A network that reads every position so (``Config.transpose_white``)
learns one function for both colours, and its policy comes back to the board by the same
transpose (``from_mover_frame``).  The swap (a move without a spot) is its own image: it is only
ever White's first move, always the same move in that frame.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games import kernel as K
from boardai.games.game import Game, all_games
from boardai.games.layout import GAME, HEIGHT, NUM_ACTIONS, WIDTH

PLANES = K.PLANES
SQUARE_ONLY = ("transpose", "antitranspose", "rot90", "rot270")
ALL_SYMMETRIES = ("mirror", "flip", "rot180") + SQUARE_ONLY


# --- states --------------------------------------------------------------------------------
def game_of_state(state: np.ndarray) -> Game:
    """The description of the game a kernel state belongs to."""
    kernel_id = int(state[GAME])
    for game in all_games().values():
        if game.kernel_id == kernel_id:
            return game
    raise ValueError(f"state[GAME] = {kernel_id} is the kernel id of no registered game")


def stack_states(states) -> np.ndarray:
    """``states`` (kernel state arrays of one game and board size, or a 2-D array of them) as
    one ``[B, len]`` int64 array; ValueError when they differ in game or size."""
    if isinstance(states, np.ndarray) and states.ndim == 2:
        stack = np.ascontiguousarray(states, dtype=np.int64)
    else:
        states = list(states)
        if not states:
            raise ValueError("no states given")
        first = states[0]
        for s in states[1:]:
            if s.shape != first.shape or s[GAME] != first[GAME] or s[WIDTH] != first[WIDTH] \
                    or s[HEIGHT] != first[HEIGHT]:
                raise ValueError("states of one batch must be of one game and board size")
        stack = np.ascontiguousarray(np.stack(states), dtype=np.int64)
    if stack.shape[0] and (np.any(stack[:, GAME] != stack[0, GAME])
                           or np.any(stack[:, WIDTH] != stack[0, WIDTH])
                           or np.any(stack[:, HEIGHT] != stack[0, HEIGHT])):
        raise ValueError("states of one batch must be of one game and board size")
    return stack


@njit(cache=True, nogil=True)
def _encode_batch(stack, out):
    for i in range(stack.shape[0]):
        K.encode_planes(stack[i], out[i])


@njit(cache=True, nogil=True)
def _legal_batch(stack, mask):
    buf = np.empty(mask.shape[1], dtype=np.int64)
    for i in range(stack.shape[0]):
        n = K.legal_moves(stack[i], buf)
        for k in range(n):
            mask[i, buf[k]] = True


def encode(states, out: np.ndarray | None = None) -> np.ndarray:
    """Input planes ``[B, PLANES, H, W]`` (float32) of a batch of states."""
    stack = stack_states(states)
    h, w = int(stack[0, HEIGHT]), int(stack[0, WIDTH])
    if out is None:
        out = np.empty((stack.shape[0], PLANES, h, w), dtype=np.float32)
    _encode_batch(stack, out)
    return out


def legal_mask(states) -> np.ndarray:
    """``[B, num_actions]`` bool: the legal moves of each state (none once a game is over)."""
    stack = stack_states(states)
    mask = np.zeros((stack.shape[0], int(stack[0, NUM_ACTIONS])), dtype=np.bool_)
    _legal_batch(stack, mask)
    return mask


# --- the action layout ---------------------------------------------------------------------
def by_columns(game: Game) -> bool:
    """True when the game's moves are columns (its board drops stones), else cells first."""
    return bool(getattr(game.board, "drops", False))


def extra_actions(game: Game) -> int:
    """Actions of a cell game that have no spot (Hex: 1, the swap); 0 for column games."""
    if by_columns(game):
        return 0
    board = game.new_board()
    return board.num_actions - board.width * board.height


# --- symmetries ----------------------------------------------------------------------------
def symmetries(game: Game, width: int, height: int) -> tuple[str, ...]:
    """The game's symmetries that exist on a ``width`` x ``height`` board (identity excluded)."""
    return tuple(s for s in game.nn_symmetries if width == height or s not in SQUARE_ONLY)


def image_spot(name: str, x: int, y: int, width: int, height: int) -> tuple[int, int]:
    """Where symmetry ``name`` takes spot (x, y)."""
    if name in SQUARE_ONLY and width != height:
        raise ValueError(f"{name} needs a square board, not {width}x{height}")
    if name == "mirror":
        return width - 1 - x, y
    if name == "flip":
        return x, height - 1 - y
    if name == "rot180":
        return width - 1 - x, height - 1 - y
    if name == "transpose":
        return y, x
    if name == "antitranspose":
        return width - 1 - y, height - 1 - x
    if name == "rot90":
        return width - 1 - y, x
    if name == "rot270":
        return y, height - 1 - x
    raise ValueError(f"unknown symmetry {name!r}: use one of {', '.join(ALL_SYMMETRIES)}")


def spot_permutation(name: str, width: int, height: int) -> np.ndarray:
    """``src[j]``: the spot (``y*W + x``) whose image is spot j, so ``flat[..., src]`` is the
    image of a row-major board ``flat``."""
    src = np.empty(width * height, dtype=np.int64)
    for y in range(height):
        for x in range(width):
            ix, iy = image_spot(name, x, y, width, height)
            src[iy * width + ix] = y * width + x
    return src


def action_permutation(game: Game, name: str, width: int, height: int,
                       num_actions: int) -> np.ndarray:
    """``src[j]``: the action whose image is action j (moves without a spot map to themselves);
    ValueError for a symmetry that does not keep a column game's columns whole."""
    src = np.arange(num_actions, dtype=np.int64)
    if by_columns(game):
        images = [image_spot(name, x, 0, width, height) for x in range(width)]
        if any(image_spot(name, x, y, width, height)[0] != ix
               for x, (ix, _) in enumerate(images) for y in range(height)):
            raise ValueError(f"{name} does not keep the columns of {game.title} whole")
        for x, (ix, _) in enumerate(images):
            src[ix] = x
    else:
        src[:width * height] = spot_permutation(name, width, height)
    return src


def symmetry_planes(planes: np.ndarray, name: str) -> np.ndarray:
    """The image of planes ``[..., H, W]`` under symmetry ``name`` (a new array)."""
    h, w = planes.shape[-2:]
    flat = planes.reshape(planes.shape[:-2] + (h * w,))
    src = spot_permutation(name, w, h)
    iw, ih = (h, w) if name in SQUARE_ONLY else (w, h)
    return np.ascontiguousarray(flat[..., src]).reshape(planes.shape[:-2] + (ih, iw))


def symmetry_policy(policy: np.ndarray, name: str, game: Game, width: int,
                    height: int) -> np.ndarray:
    """The image of a policy ``[..., num_actions]`` (priors, visit counts, logits) under
    symmetry ``name``: the image position's action j gets what action ``src[j]`` had."""
    src = action_permutation(game, name, width, height, policy.shape[-1])
    return np.ascontiguousarray(policy[..., src])


def augment(planes: np.ndarray, policy: np.ndarray, game: Game
            ) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every image of a batch of training examples, the identity first: ``(name, planes,
    policy)`` for ``planes [B, PLANES, H, W]`` and ``policy [B, num_actions]``."""
    h, w = planes.shape[-2:]
    out = [("identity", planes, policy)]
    for name in symmetries(game, w, h):
        out.append((name, symmetry_planes(planes, name),
                    symmetry_policy(policy, name, game, w, h)))
    return out


# --- the mover's frame (Hex) --------------------------------------------------------------
def transpose_policy(policy: np.ndarray, width: int, height: int) -> np.ndarray:
    """A policy ``[..., actions]`` of a ``width`` x ``height`` cell board as the policy of the
    transposed board (``height`` x ``width``): spot (x, y) goes to (y, x), moves without a spot
    stay (a new array).  Applying it with (height, width) takes it back."""
    n = width * height
    out = np.array(policy, copy=True)
    cells = policy[..., :n].reshape(policy.shape[:-1] + (height, width))
    out[..., :n] = np.swapaxes(cells, -1, -2).reshape(policy.shape[:-1] + (n,))
    return out


def transpose_move(move, width: int, height: int):
    """An action (int or int array) of a ``width`` x ``height`` board as the action of the
    transposed board; moves without a spot (>= width*height) stay."""
    move = np.asarray(move)
    x, y = move % width, move // width
    out = np.where(move < width * height, x * height + y, move)
    return out if out.ndim else int(out)


def to_mover_frame(planes: np.ndarray, white) -> np.ndarray:
    """Planes ``[B, PLANES, H, W]`` with the positions where ``white`` (``[B]`` bool: White to
    move) transposed, on a square board (a new array): in every position the side to move then
    joins the top and the bottom edges."""
    planes = np.array(planes, copy=True)
    white = np.asarray(white, dtype=np.bool_)
    if white.any():
        if planes.shape[-1] != planes.shape[-2]:
            raise ValueError("the mover's frame of a batch needs a square board")
        planes[white] = np.swapaxes(planes[white], -1, -2)
    return planes


def from_mover_frame(policy: np.ndarray, white, size: int) -> np.ndarray:
    """Policies ``[B, actions]`` read in the mover's frame (``to_mover_frame``) of a ``size`` x
    ``size`` board, back on the board (the same transpose; a new array)."""
    policy = np.array(policy, copy=True)
    white = np.asarray(white, dtype=np.bool_)
    if white.any():
        policy[white] = transpose_policy(policy[white], size, size)
    return policy


def white_to_move(states) -> np.ndarray:
    """``[B]`` bool: the states (kernel arrays) where the second player (White) is to move."""
    from boardai.games.layout import PLY
    stack = stack_states(states)
    return (stack[:, PLY] & 1) == 1


__all__ = [
    "ALL_SYMMETRIES", "PLANES", "action_permutation", "augment", "by_columns", "encode",
    "extra_actions", "from_mover_frame", "game_of_state", "image_spot", "legal_mask",
    "spot_permutation", "stack_states", "symmetries", "symmetry_planes", "symmetry_policy",
    "to_mover_frame", "transpose_move", "transpose_policy", "white_to_move",
]
