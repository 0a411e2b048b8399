"""Self-play, gating and evaluation games of ``boardai train``, one game per call, as run by the
worker processes (no PyTorch here: games are played by the numpy network).

A self-play game is the ``nn`` engine's search (PUCT on the one MCTS tree, tree reuse) playing
both sides, with Dirichlet noise mixed into the root's priors and, for the first
``temperature_plies`` plies, the move drawn in proportion to the root's visits (then the most
visited).  Every position becomes a training example: the input planes, the legal moves, the
visit distribution (one-hot on a proven win) and the game's result for the side to move.

Gating and evaluation games are ordinary engine games (``boardai.arena.game.play_game``) whose
first plies are drawn the same way, so that repeated games between the same players differ.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from boardai.engines.base import Limit
from boardai.engines.mcts.guided import GuidedMcts
from boardai.engines.nn_engine import NetworkEvaluator, load_network
from boardai.games.base import Board
from boardai.games.game import get_game
from boardai.nn import features
from boardai.nn.model import Network


@dataclass(frozen=True)
class SearchSettings:
    """How the self-play search runs (``boardai train`` options, stored in the run's config)."""

    sims: int = 160
    batch: int = 8
    c_puct: float = 1.5
    fpu: float = 0.25
    noise_alpha: float = 0.0       # 0: 10 / the number of moves of the empty board
    noise_eps: float = 0.25
    temperature_plies: int = -1    # -1: a quarter of the board's cells

    def resolved(self, board: Board) -> "SearchSettings":
        n = board.num_actions
        alpha = self.noise_alpha or round(10.0 / max(n, 1), 4)
        plies = self.temperature_plies if self.temperature_plies >= 0 else \
            max(1, board.width * board.height // 4)
        return SearchSettings(**{**asdict(self), "noise_alpha": alpha,
                                 "temperature_plies": plies})


@dataclass
class Examples:
    """Training examples of one or more games, as stored in the replay buffer."""

    planes: np.ndarray        # [N, PLANES, H, W] uint8
    mask: np.ndarray          # [N, A] bool: legal moves
    policy: np.ndarray        # [N, A] float32: the search's visit distribution
    value: np.ndarray         # [N] float32: the game's result for the side to move

    def __len__(self) -> int:
        return len(self.value)

    @staticmethod
    def concat(parts: list["Examples"]) -> "Examples":
        return Examples(*(np.concatenate([getattr(p, f) for p in parts])
                          for f in ("planes", "mask", "policy", "value")))


@lru_cache(maxsize=4)
def cached_network(path: str) -> Network:
    """A worker loads each network file once (files are never rewritten under one name)."""
    return load_network(path)


def new_board(game: str, width: int, height: int, random_board: bool = False,
              seed: int = 0) -> Board:
    """The board of a game: ``width`` x ``height``, or with ``random_board`` one the game's own
    random set-up draws from ``seed`` (``--size random``, and its random blocked cells where the
    game has them: Connect Four's course boards, 9-12 x 9-12 with one no-go cell)."""
    g = get_game(game)
    if random_board:
        return g.setup_board("random", "random" if g.random_blocked else (),
                             rng=random.Random(seed))
    return g.new_board((width, height))


def _visit_policy(board: Board, result) -> np.ndarray:
    """The root's visits as a distribution over the actions (one-hot on a proven win)."""
    out = np.zeros(board.num_actions, dtype=np.float32)
    if result.info.get("proven") == 1:
        out[result.move] = 1.0
        return out
    for info in result.moves:
        out[info.move] = info.visits or 0
    total = out.sum()
    if total <= 0:
        out[result.move] = 1.0
        return out
    return out / total


def sampled_move(rng: np.random.Generator, result) -> int:
    """A move drawn in proportion to the root's visits (the best one when none has visits)."""
    moves = [(i.move, i.visits or 0) for i in result.moves]
    total = sum(v for _, v in moves)
    if result.info.get("proven") == 1 or total <= 0:
        return result.move
    p = np.array([v for _, v in moves], dtype=np.float64) / total
    return int(moves[int(rng.choice(len(moves), p=p))][0])


def selfplay_game(network_path: str, game: str, width: int, height: int,
                  settings: SearchSettings, seed: int,
                  random_board: bool = False) -> tuple[Examples, list[int], float]:
    """One self-play game: (its examples, its moves, its result for Black: 1, 0 or -1); with
    ``random_board`` on a board drawn from ``seed`` (``new_board``)."""
    network = cached_network(network_path)
    board = new_board(game, width, height, random_board, seed)
    s = settings.resolved(board)
    engine = GuidedMcts(NetworkEvaluator(network), sims=s.sims, batch=s.batch, c_puct=s.c_puct,
                        fpu=s.fpu, seed=seed, reuse=True)
    engine.root_noise = (s.noise_alpha, s.noise_eps)
    rng = np.random.default_rng(seed)
    states, policies = [], []
    engine.new_game(board)
    while not board.is_game_over():
        result = engine.play(board, Limit(sims=s.sims))
        states.append(board.state.copy())
        policies.append(_visit_policy(board, result))
        move = sampled_move(rng, result) if board.ply < s.temperature_plies else result.move
        board.push(move)
    engine.close()
    outcome = board.outcome()
    black = 0.0 if outcome.winner is None else (1.0 if outcome.winner == 0 else -1.0)
    stack = np.stack(states)
    planes = features.encode(stack).astype(np.uint8)
    mask = features.legal_mask(stack)
    plies = np.arange(len(states))
    value = np.where(plies % 2 == 0, black, -black).astype(np.float32)
    return (Examples(planes, mask, np.stack(policies), value), list(board.move_stack), black)


def match_game(spec_a: str, spec_b: str, a_is_black: bool, game: str, width: int, height: int,
               random_plies: int, seed: int, random_board: bool = False) -> float:
    """One game between two engine specs, its first ``random_plies`` plies played at random
    (legal moves, uniform); A's score: 1 win, 0.5 draw, 0 loss.  With ``random_board`` on a
    board drawn from ``seed`` (the two games of a pair share it)."""
    from boardai.arena.game import play_game
    from boardai.arena.runner import build_engine

    rng = np.random.default_rng(seed)
    board = new_board(game, width, height, random_board, seed)
    for _ in range(random_plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(int(moves[int(rng.integers(len(moves)))]))
    if board.is_game_over():            # a random opening that ended the game: call it even
        return 0.5
    a = build_engine(spec_a, seed * 2 + 1, None)
    b = build_engine(spec_b, seed * 2 + 2, None)
    try:
        black, white = (a, b) if a_is_black else (b, a)
        result = play_game(board, black, white)
    finally:
        a.close()
        b.close()
    winner = result.winner
    if winner is None:
        return 0.5
    return 1.0 if (winner == 0) == a_is_black else 0.0


__all__ = ["Examples", "SearchSettings", "match_game", "sampled_move", "selfplay_game"]
