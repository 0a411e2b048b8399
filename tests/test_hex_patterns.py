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
from boardai.games.kernel import NO_FILL, NO_TABLE
from boardai.games.hex import patterns as hp
from boardai.games.hex import playouts as hk
from boardai.games.hex.kernel import new_hex_state
from boardai.games.layout import HEADER, PLY, new_rng
from boardai.train import patterns as tp

HEX = get_game("hex")


def position(w: int, h: int, cells: list[int], mover: int) -> np.ndarray:
    """A raw state with the given cell contents (0 empty, 1 Black, 2 White) and side to move
    (the pattern reads only the row masks, the size and the ply's parity)."""
    state = new_hex_state(w, h)
    state[HEADER:HEADER + w * h] = cells
    for i, v in enumerate(cells):
        if v:
            state[HEADER + w * h + (v - 1) * h + i // w] |= 1 << (i % w)
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
                       MK.new_tables(), table, np.zeros((1, 0), dtype=np.int64),
                       np.zeros(0, dtype=np.int32),
                       np.zeros((0, board.state.shape[0]), dtype=np.int64),
                       np.zeros(0, dtype=np.int64))
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


# --- the playouts' local answers (hex/playouts.py's hex_playout_local) -------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(0, 30), st.integers(0, 2**31))
def test_a_playout_keeps_every_cells_pattern_codes_up_to_date(size, stones, seed):
    """The local playout updates the pattern codes of the cells around each stone it places;
    at the end of the playout they equal codes read from scratch on the full board."""
    board = get_game("hex").new_board(size=size)
    rng = np.random.default_rng(seed)
    for _ in range(min(stones, size * size - 1)):
        if board.is_game_over():
            break
        board.push(int(rng.choice([int(m) for m in board.legal_moves if m < size * size])))
    if board.is_game_over():
        return
    n, h = size * size, size
    empty = [x for x in range(n) if board.state[HEADER + x] == 0]
    work = np.zeros(len(board.state) + 64, dtype=np.int64)
    owner = np.zeros(n, dtype=np.int64)
    table = np.exp(np.random.default_rng(seed + 1).normal(0, 2, hp.N_PATTERNS))
    winner = hk.hex_playout_local(board.state, new_rng(seed), work, owner, True, table, 3.0,
                                  NO_FILL)
    assert winner in (0, 1) and all(owner[x] in (0, 1) for x in empty)
    codes = n + 3 * h + 24                   # where the playout keeps them (its docstring)
    for x in empty:
        for mover in (0, 1):
            assert tuple(work[codes + 4 * x + 2 * mover: codes + 4 * x + 2 * mover + 2]) == \
                hp.pattern_codes(work, n, n + h, size, size, x // size, x % size, mover)


def test_local_answers_follow_the_weights():
    """A table that weighs one pattern heavily makes the playout answer there: after e5 on an
    empty 9x9 board, White takes d5 or f5 (the same pattern, turned) in nearly every playout,
    far more often than without the weights; scale 0 is the bridge playout, move for move."""
    board = get_game("hex").new_board(size=9)
    board.push(board.parse_move("e5"))
    work = np.zeros(len(board.state) + 64, dtype=np.int64)
    owner = np.zeros(81, dtype=np.int64)
    d5, f5 = board.parse_move("d5"), board.parse_move("f5")
    table = np.ones(hp.N_PATTERNS)
    table[hp.hex_pattern(board.state, d5)] = 1e6
    assert hp.hex_pattern(board.state, f5) == hp.hex_pattern(board.state, d5)
    share = {}
    for scale in (0.0, 1.0):
        got = 0
        for seed in range(300):
            hk.hex_playout_local(board.state, new_rng(seed), work, owner, True, table, scale,
                                 NO_FILL)
            got += owner[d5] == 1 or owner[f5] == 1
        share[scale] = got / 300
    assert share[1.0] > 0.97 and share[0.0] < 0.9, share

    def runs(playout):
        out = []
        for seed in range(20):
            out.append((playout(new_rng(seed)), tuple(owner)))
        return out
    assert runs(lambda rng: hk.hex_playout_local(board.state, rng, work, owner, True, table, 0.0,
                                                   NO_FILL)) \
        == runs(lambda rng: hk.hex_playout_bridge(board.state, rng, work, owner, True))


def test_the_playouts_start_with_the_filled_cells():
    """Cells given as ``fill`` are stones from the start of the playout, not moves: a filled
    Black column wins every playout for Black, and those cells have no playout owner."""
    board = get_game("hex").new_board(size=5)
    board.push(board.parse_move("c3"))
    work = np.zeros(len(board.state) + 64, dtype=np.int64)
    owner = np.zeros(25, dtype=np.int64)
    fill = np.zeros(25, dtype=np.int64)
    column = [board.parse_move(f"a{r}") for r in range(1, 6)]
    fill[column] = 1
    for seed in range(50):
        assert hk.hex_playout_local(board.state, new_rng(seed), work, owner, True, NO_TABLE,
                                    0.0, fill) == 0
        assert all(owner[c] == -1 for c in column)
        assert sorted(set(owner[c] for c in range(25) if c not in column)) in ([-1, 0, 1], [0, 1])
    fill[column] = 2                       # a White wall down column a blocks nothing of Black's
    assert {int(hk.hex_playout_local(board.state, new_rng(s), work, owner, True, NO_TABLE, 0.0,
                                     fill)) for s in range(200)} == {0, 1}


def test_mcts_keeps_the_fill_in_of_its_knowledge_nodes_for_the_playouts():
    """With the tree knowledge on, a node the knowledge looked at keeps its position's fill-in
    (a captured pair at the edge here, at the root) for the playouts below it; off by default
    and without ``mustplay``."""
    board = get_game("hex").new_board(size=9)
    for move in ("e2", "a9", "e8", "i1"):      # Black's second-row stones hold captured pairs
        board.push(board.parse_move(move))
    engine = make_engine("mcts:sims=2000,seed=1,fill=1")
    engine.play(board, None)
    tree = engine._trees[0]
    row = tree.fill_of[tree.root]
    assert row > 0 and tree.fill_count > 1
    filled = np.flatnonzero(tree.fills[row])
    assert len(filled) > 0 and all(board.state[HEADER + c] == 0 for c in filled)
    assert all(tree.fills[r].any() for r in range(1, tree.fill_count))
    for spec in ("mcts:sims=2000,seed=1", "mcts:sims=2000,seed=1,fill=1,mustplay=0"):
        other = make_engine(spec)
        other.play(board, None)
        assert other._trees[0].fill_of.shape[0] == 0
