"""PettingZoo AEC environments for every registered game (reinforcement learning).

    from boardai.env import env
    e = env(game="hex", size=5)                          # or "connect4", size="7x6", blocked=[(3, 0)]
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``"black"`` (moves first) and ``"white"``; they keep their colours (Hex's swap moves
the stone, not the players).  An observation is a dict: ``observation``, the network's input
planes ``[6, H, W]`` float32 (``games/kernel.py: encode_planes``; ``boardai.nn`` documents them)
from the observing agent's view, which for the agent about to act is the side to move's view
(plane 0 its stones, 1 the opponent's); and ``action_mask``, int8 over the kernel's moves (the
policy layout of ``boardai.nn``), all zeros for the agent not to move and once the game is over.
Rewards are +1 for the winner and -1 for the loser at the end, 0 for a draw and every move before.
An illegal action ends the game with -1 for whoever played it (PettingZoo's
``TerminateIllegalWrapper``, as in its classic games).  ``render_mode="ansi"`` makes ``render()``
return ``board.render()``; ``"human"`` prints it.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from boardai.games import DEFAULT_GAME, get_game
from boardai.games import kernel as K

AGENTS = ("black", "white")


def env(game: str = DEFAULT_GAME, size=None, blocked: Iterable[tuple[int, int]] = (),
        swap: bool = False, render_mode: str | None = None) -> AECEnv:
    """A wrapped environment (illegal moves lose, actions checked, call order enforced) for
    ``game`` on a board of ``size`` (``N`` or ``WxH``; the game's default) with ``blocked``
    cells (0-based ``(col, row)``, row 0 at the bottom) and the swap rule where it exists."""
    raw = raw_env(game=game, size=size, blocked=blocked, swap=swap, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """The environment itself, without PettingZoo's checking wrappers (``env`` adds them)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "boardai_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = DEFAULT_GAME, size=None,
                 blocked: Iterable[tuple[int, int]] = (), swap: bool = False,
                 render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        self.game = get_game(game)
        self.blocked = tuple(tuple(c) for c in blocked)
        self.swap = swap
        self.size = self.game.parse_size(size)
        self.board = self._new_board()
        self.metadata = {**self.metadata, "name": f"boardai_{self.game.name}_v0"}
        self.render_mode = render_mode
        w, h = self.board.width, self.board.height
        self.num_actions = self.board.num_actions
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in AGENTS}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(K.PLANES, h, w),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
        }) for a in AGENTS}
        self._selector = AgentSelector(self.agents)
        self._reset_bookkeeping()

    def _new_board(self):
        return self.game.new_board(self.size, swap=self.swap, blocked=self.blocked)

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()

    # --- the AEC API ----------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        board = self.board
        planes = np.empty((K.PLANES, board.height, board.width), dtype=np.float32)
        K.encode_planes(board.state, planes)
        if AGENTS.index(agent) != int(board.turn):
            planes[[0, 1]] = planes[[1, 0]]          # the observer's stones first
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not board.is_game_over():
            mask[np.asarray(board.legal_moves, dtype=np.int64)] = 1
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.board = self._new_board()
        self._reset_bookkeeping()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.board.push(int(action))
        outcome = self.board.outcome()
        if outcome is not None:
            if outcome.winner is not None:
                winner = AGENTS[int(outcome.winner)]
                loser = AGENTS[1 - int(outcome.winner)]
                self.rewards[winner] += 1
                self.rewards[loser] -= 1
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = AGENTS[int(self.board.turn)]
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.board.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
