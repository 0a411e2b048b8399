"""The PettingZoo AEC environments (``boardai/env.py``): PettingZoo's own API test on every game,
the observations, the rewards, the rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from boardai.env import AGENTS, env
from boardai.games import get_game
from boardai.games import kernel as K

SETUPS = {
    "hex-3x3": dict(game="hex", size=3),
    "hex-5x5": dict(game="hex", size=5),
    "hex-5x5-swap": dict(game="hex", size=5, swap=True),
    "connect4-7x6": dict(game="connect4", size="7x6"),
    "connect4-blocked": dict(game="connect4", size="5x4", blocked=[(2, 0), (4, 3)]),
    "connect4-wide-blocked": dict(game="connect4", size="12x10", blocked=[(0, 0)]),
    "tictactoe": dict(game="tictactoe"),
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_pettingzoo_api_test(setup):
    api_test(env(**SETUPS[setup]), num_cycles=300)


def play_first_legal(e) -> dict:
    """Play the first legal move every time until the end; returns the last rewards seen."""
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return final


def test_rewards_at_the_end_are_plus_and_minus_one():
    e = env(game="hex", size=3)
    e.reset(seed=0)
    final = play_first_legal(e)
    assert sorted(final.values()) == [-1, 1]


def test_a_drawn_game_rewards_nobody():
    e = env(game="tictactoe")
    e.reset(seed=0)
    for move in (0, 4, 8, 2, 6, 3, 5, 7, 1):          # a draw
        e.step(move)
    for agent in AGENTS:
        assert e.terminations[agent]
        assert e._cumulative_rewards[agent] == 0


def test_observation_is_the_planes_from_the_observer_and_the_mask_for_the_mover():
    e = env(game="connect4", size="7x6", blocked=[(3, 0)])
    e.reset(seed=0)
    e.step(2)                                           # Black plays column 3
    board = e.unwrapped.board
    planes = np.empty((K.PLANES, 6, 7), dtype=np.float32)
    K.encode_planes(board.state, planes)
    mover = e.observe("white")
    np.testing.assert_array_equal(mover["observation"], planes)
    assert mover["action_mask"].tolist() == [1] * 7
    other = e.observe("black")
    np.testing.assert_array_equal(other["observation"][0], planes[1])
    np.testing.assert_array_equal(other["observation"][1], planes[0])
    assert other["action_mask"].sum() == 0


def test_an_illegal_move_loses():
    e = env(game="tictactoe")
    e.reset(seed=0)
    e.step(4)
    e.step(4)                                           # White plays on Black's stone
    assert e.terminations["white"]
    assert e._cumulative_rewards["white"] == -1


def test_swap_mask_and_agents_keep_their_colours():
    e = env(game="hex", size=4, swap=True)
    e.reset(seed=0)
    e.step(1)
    obs = e.observe("white")
    assert obs["action_mask"][16] == 1 and obs["observation"][5].min() == 1.0
    e.step(16)                                          # the swap: Black moves next
    assert e.agent_selection == "black"


def test_render_ansi_is_the_board_picture():
    e = env(game="connect4", size="7x6", render_mode="ansi")
    e.reset(seed=0)
    e.step(3)
    expected = get_game("connect4").new_board((7, 6))
    expected.push(3)
    assert e.render() == expected.render()


def test_the_network_reads_observations_as_it_reads_states():
    from boardai.nn import random_init

    net = random_init({"game": "hex", "channels": 8, "blocks": 1}, seed=2)
    e = env(game="hex", size=4, swap=True)
    e.reset(seed=0)
    for move in (5, 16, 3):
        obs = e.observe(e.agent_selection)
        from_obs = net.predict(obs["observation"][None], obs["action_mask"][None])
        from_state = net.policy_value([e.unwrapped.board.state])
        for a, b in zip(from_obs, from_state):
            np.testing.assert_array_equal(a, b)
        e.step(move)
