"""Hex move patterns (``games/hex/patterns.py``), their learning (``train/patterns.py``,
``boardai train patterns``) and the MCTS priors they give (``mcts:patterns=``)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from boardai.arena.store import Store
from boardai.cli import main
from boardai.engines.mcts import kernel as MK
from boardai.engines.registry import make_engine
from boardai.games import get_game
from boardai.games.hex import patterns as hp
from boardai.games.hex.kernel import new_hex_state
from boardai.games.layout import HEADER, PLY, new_rng
from boardai.train import patterns as tp

HEX = get_game("hex")


def position(w: int, h: int, cells: list[int], mover: int) -> np.ndarray:
    """A raw state with the given cell contents (0 empty, 1 Black, 2 White) and side to move
    (the pattern reads only the cells, the size and the ply's parity)."""
    state = new_hex_state(w, h)
    state[HEADER:HEADER + w * h] = cells
    state[PLY] = mover
    return state


def digits_code(d: list[int]) -> int:
    turned = [0] * 12
    for i, s in enumerate(d):
        turned[(i + 3) % 6 if i < 6 else 6 + (i - 3) % 6] = s
    return min(sum(s * 3 ** i for i, s in enumerate(d)), sum(s * 3 ** i for i, s in enumerate(turned)))


boards = st.tuples(st.integers(1, 7), st.integers(1, 7)).flatmap(
    lambda wh: st.tuples(st.just(wh[0]), st.just(wh[1]),
                         st.lists(st.integers(0, 2), min_size=wh[0] * wh[1], max_size=wh[0] * wh[1]),
                         st.integers(0, 1), st.integers(0, wh[0] * wh[1] - 1)))


@settings(max_examples=300, deadline=None)
@given(boards)
def test_a_pattern_is_the_same_after_the_half_turn(case):
    w, h, cells, mover, cell = case
    turned = position(w, h, cells[::-1], mover)          # cell i -> n-1-i is the 180-degree turn
    assert hp.hex_pattern(position(w, h, cells, mover), cell) == \
        hp.hex_pattern(turned, w * h - 1 - cell)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_white_reads_the_transposed_board_with_colours_swapped(case):
    w, h, cells, mover, cell = case
    r, c = divmod(cell, w)
    swap = {0: 0, 1: 2, 2: 1}
    mirror = [swap[cells[rr * w + cc]] for cc in range(w) for rr in range(h)]   # H wide, W high
    assert hp.hex_pattern(position(w, h, cells, mover), cell) == \
        hp.hex_pattern(position(h, w, mirror, 1 - mover), c * h + r)


def test_the_digits_of_a_saved_bridge_and_of_a_corner():
    # Black's bridge e4-f5 ((row, col) (3, 4) and (4, 5)), White intruding on f4 (3, 5):
    # Black to move on e5 (4, 4) saves it
    cells = [0] * 81
    cells[3 * 9 + 4] = 1
    cells[4 * 9 + 5] = 1
    cells[3 * 9 + 5] = 2
    assert hp.hex_pattern(position(9, 9, cells, 0), 4 * 9 + 4) == digits_code(
        [1, 2, 1, 0, 0, 0] + [0] * 6)
    # a1 on an empty board, Black to move: rows above are Black's edge, the column to the left
    # White's (a row off the board wins the tie)
    assert hp.hex_pattern(position(9, 9, [0] * 81, 0), 0) == digits_code(
        [1, 1, 0, 0, 2, 2] + [1, 1, 0, 2, 2, 1])


def test_the_learner_recovers_known_weights():
    rng = np.random.default_rng(1)
    # every position offers pattern 5 once and pattern 9 twice; 5 is taken 70 % of the time,
    # so gamma(5) / gamma(9) = 0.7 / (0.3 / 2) = 4.67 by maximum likelihood
    n = 4000
    chosen = np.where(rng.random(n) < 0.7, 5, 9)
    ex = tp.Examples(np.tile([5, 9, 9], n), np.arange(n + 1) * 3, chosen, np.arange(n) // 40)
    ids, gammas, figures = tp.learn(ex, rounds=100)
    g = dict(zip(ids.tolist(), gammas))
    assert g[5] / g[9] == pytest.approx(0.7 / 0.15, rel=0.1)
    assert figures["log_likelihood"] > figures["uniform_log_likelihood"]
    assert figures["top1"] == pytest.approx(np.mean(chosen == 5), abs=1e-9)
    learnt, test = ex.split(5)
    assert learnt.positions + test.positions == n and set(test.game % 5) == {0}


def _small_store(tmp_path) -> str:
    path = str(tmp_path / "games.sqlite")
    result = CliRunner().invoke(main, ["match", "mcts:sims=40", "random", "--size", "4", "--games",
                                       "4", "--jobs", "1", "--store", path])
    assert result.exit_code == 0, result.output
    return path


def test_examples_from_a_store_count_the_chosen_moves_of_the_engines_asked(tmp_path):
    path = _small_store(tmp_path)
    with Store(path) as store:
        games = store.games()
    every = tp.examples_from_stores(HEX, [path])
    assert every.positions == sum(len(g.moves) for g in games) and every.games == 4
    only_mcts = tp.examples_from_stores(HEX, [path], players=("mcts",))
    assert only_mcts.positions == sum(
        sum(1 for ply in range(len(g.moves)) if (g.black if ply % 2 == 0 else g.white) == "mcts:sims=40")
        for g in games)
    for j in range(every.positions):
        assert every.chosen[j] in every.cand[every.start[j]:every.start[j + 1]]
    with pytest.raises(ValueError, match="no Hex moves"):
        tp.examples_from_stores(HEX, [path], players=("nosuch",))


def test_train_patterns_writes_a_file_mcts_reads(tmp_path):
    path = _small_store(tmp_path)
    out = tmp_path / "p.npz"
    result = CliRunner().invoke(main, ["train", "patterns", path, "--out", str(out),
                                       "--test-every", "2"])
    assert result.exit_code == 0, result.output
    assert "held_out: 2 games" in result.output and "wrote" in result.output
    table = hp.PATTERNS.load(out)
    assert table.shape == (hp.N_PATTERNS,) and (table > 0).all() and (table != 1).any()
    out.write_bytes(b"not a patterns file")
    with pytest.raises(ValueError, match="not a move-patterns file"):
        hp.PATTERNS.load(out)
    result = CliRunner().invoke(main, ["train", "patterns", path, "--out", str(out),
                                       "--player", "nosuch"])
    assert result.exit_code != 0 and "no Hex moves" in result.output
    result = CliRunner().invoke(main, ["train", "patterns", path, "--out", str(out),
                                       "--game", "connect4"])
    assert result.exit_code != 0 and "Connect Four has no move patterns (games with them: hex)" \
        in result.output


def test_priors_are_each_childs_share_of_the_weights():
    board = get_game("hex").new_board(5)
    board.push("c3")
    table = np.ones(hp.N_PATTERNS)
    favoured = hp.hex_pattern(board.state, board.parse_move("c2"))
    table[favoured] = 50.0
    params = make_engine("mcts:patterns=2.5")._params(board)
    assert params[MK.P_BIAS] == 2.5
    ints, flts, meta = MK.new_tree(1000)
    assert MK.expand_root(ints, flts, meta, board.state.copy(), params, table)
    first, k = ints[0, MK.CHILD], ints[0, MK.NCHILD]
    moves = list(ints[first:first + k, MK.MOVE])
    g = np.array([table[hp.hex_pattern(board.state, int(m))] for m in moves])
    prior = flts[first:first + k, MK.PRIOR]
    assert np.allclose(prior, g / g.sum()) and prior.sum() == pytest.approx(1.0)
    assert prior[moves.index(board.parse_move("c2"))] == prior.max()
    # with RAVE every child starts at an even AMAF value, so none is "unseen"
    assert np.allclose(flts[first:first + k, MK.AMAF_N], MK.PRIOR_AMAF_N)
    assert np.allclose(flts[first:first + k, MK.Q], 0.5)
    # the first simulation descends into the favoured move (every child unseen: the bias decides)
    MK.run_simulations(ints, flts, meta, board.state.copy(), 1, new_rng(1), params,
                       MK.new_tables(), table)
    visited = [int(ints[ch, MK.MOVE]) for ch in range(first, first + k) if flts[ch, MK.VISITS] > 0]
    assert visited == [board.parse_move("c2")]
    # off: no priors
    ints, flts, meta = MK.new_tree(1000)
    params[MK.P_BIAS] = 0.0
    MK.expand_root(ints, flts, meta, board.state.copy(), params, table)
    assert not flts[first:first + k, MK.PRIOR].any()


def test_games_without_patterns_never_get_priors():
    board = get_game("connect4").new_board("7x6")
    engine = make_engine("mcts:patterns=30")
    params = engine._params(board)
    assert params[MK.P_BIAS] == 0.0 and engine._pattern_table(board, params).size == 0
