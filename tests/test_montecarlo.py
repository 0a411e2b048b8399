"""Flat Monte Carlo: estimates agree with brute force, it beats random, options do what they say.

Correctness only (no timing): the estimate of every move lies in its own confidence interval
around the exact brute-force value (seeded, so the check is reproducible), the quality hooks
measure what they claim, ``bf_below`` switches method, ``cut`` keeps the best move, a seed
fixes the move whatever the threads.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.arena.game import play_game
from boardai.engines.rollout import kernel as RK
from boardai.engines.base import Limit
from boardai.engines.rollout.bruteforce import exact_scores
from boardai.engines.rollout.montecarlo import auto_sims
from clocks import stepping_clock
from boardai.engines.registry import EngineSpecError, all_engines, make_engine
from boardai.games import Color, make_board
from boardai.games import kernel as K
from boardai.games.hex import fill as HF
from boardai.games.hex import kernel as HK
from boardai.games.layout import new_rng


def _position(game, size, seed, plies):
    rng = random.Random(seed)
    while True:
        board = make_board(game, size)
        while board.ply < plies and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            return board
        plies -= 1


POSITIONS = [("hex", "4", 1, 3), ("hex", "4", 2, 5), ("hex", "5", 3, 9), ("hex", "3", 4, 2),
             ("connect4", "4x4", 5, 7), ("connect4", "5x4", 6, 10), ("connect4", "5x4", 7, 12)]


@pytest.mark.parametrize("score", ["winrate", "quality"])
def test_estimates_fall_in_their_confidence_interval_of_the_exact_value(score):
    """Each move's estimate from 2000 playouts and its own 99% interval (``score_bounds``,
    z = 2.576) must hold the brute-force value for at least 95% of the moves (1% misses are
    expected), and its 99.99% interval (z = 3.891) for all of them."""
    mode = RK.WINRATE if score == "winrate" else RK.QUALITY
    checked = missed = 0
    for game, size, seed, plies in POSITIONS:
        board = _position(game, size, seed, plies)
        exact = exact_scores(board, score, threads=1)[0]
        cands = np.array([s.move for s in exact], dtype=np.int64)
        stats = np.zeros((len(cands), RK.NSTATS))
        rngs = np.arange(1, len(cands) + 1, dtype=np.uint64) * np.uint64(seed * 7919 + 1)
        RK.mc_round(board.state, cands, np.arange(len(cands)), 2000, rngs, stats, mode)
        b99 = np.zeros((len(cands), 3))
        b9999 = np.zeros((len(cands), 3))
        RK.score_bounds(stats, 2.576, b99)
        RK.score_bounds(stats, 3.891, b9999)
        for i, s in enumerate(exact):
            checked += 1
            missed += not (b99[i, 1] - 1e-12 <= s.score <= b99[i, 2] + 1e-12)
            assert b9999[i, 1] - 1e-12 <= s.score <= b9999[i, 2] + 1e-12, \
                (game, size, board.move_name(s.move), b9999[i], s.score)
        # the engine reports the same kind of estimate for the same position
        result = make_engine(f"montecarlo:sims=2000,cut=0,seed={seed},score={score}").analyse(board)
        assert result.info["method"] == "montecarlo"
        assert all(m.visits == 2000 for m in result.moves)
        by_move = {s.move: s.score for s in exact}
        assert all(abs(m.winrate - by_move[m.move]) < 0.1 for m in result.moves)
    assert checked > 40 and missed <= 0.05 * checked


def test_score_bounds_are_a_confidence_interval():
    stats = np.zeros((2, RK.NSTATS))
    rng = np.random.default_rng(1)
    x = (rng.random(400) < 0.3).astype(float)
    stats[0, RK.N] = 400
    stats[0, RK.SX] = x.sum()
    stats[0, RK.SY] = (1 - x).sum()
    stats[0, RK.SXX] = (x * x).sum()
    stats[0, RK.SYY] = ((1 - x) ** 2).sum()
    stats[0, RK.SXY] = (x * (1 - x)).sum()
    stats[1, RK.N] = 100
    stats[1, RK.SX] = stats[1, RK.SXX] = 100         # all wins: never a zero-width interval
    out = np.zeros((2, 3))
    RK.score_bounds(stats, 1.96, out)
    p = x.mean()
    half = 1.96 * (p * (1 - p) / 400) ** 0.5
    assert out[0] == pytest.approx([p, p - half, p + half], rel=0.05)
    assert out[1, 0] == 1.0 and out[1, 1] < 0.99


# --- the quality hooks --------------------------------------------------------------------

def _py_chain(rows, w, h, colour):
    cells = {(r, c) for r in range(h) for c in range(w) if (rows[r] >> c) & 1}
    start = [(r, c) for (r, c) in cells if (r == 0 if colour == 0 else c == 0)]
    dist = {s: 1 for s in start}
    queue = deque(start)
    while queue:
        r, c = queue.popleft()
        if (colour == 0 and r == h - 1) or (colour == 1 and c == w - 1):
            return dist[(r, c)]
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)):
            nb = (r + dr, c + dc)
            if nb in cells and nb not in dist:
                dist[nb] = dist[(r, c)] + 1
                queue.append(nb)
    return 0


@settings(max_examples=60, deadline=None)
@given(w=st.integers(1, 9), h=st.integers(1, 9), seed=st.integers(0, 2**32), density=st.floats(0.3, 0.8))
def test_chain_length_is_the_shortest_chain(w, h, seed, density):
    rng = random.Random(seed)
    rows = np.array([sum(1 << c for c in range(w) if rng.random() < density) for _ in range(h)],
                    dtype=np.int64)
    scratch = np.zeros(2 * h, dtype=np.int64)
    for colour in (0, 1):
        assert HF.hex_chain_length(rows, 0, colour, w, h, scratch) == _py_chain(rows, w, h, colour)
    assert HK.hex_white_connects(rows, 0, w, h, scratch) == (_py_chain(rows, w, h, 1) > 0)


def test_hex_quality_playout_agrees_with_the_plain_playout():
    """Same law as ``playout``: the black win rate of both on 5x5 after c3 agrees."""
    board = make_board("hex", "5")
    board.push("c3")
    work = np.empty(len(board.state), dtype=np.int64)
    rng = new_rng(3)
    n = 20000
    wins = lengths = 0
    for _ in range(n):
        winner, length = K.playout_quality(board.state, rng, work)
        wins += winner == 0
        lengths += length
        assert 5 <= length <= 25          # a chain joins two opposite sides of a 5x5 board
    exact = exact_scores(make_board("hex", "5"), "winrate", threads=2)[0]
    p = next(s.winrate for s in exact if s.move == board.parse_move("c3"))
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_connect4_quality_length_counts_moves_from_before_the_candidate():
    board = make_board("connect4", "4x4")
    board.push_many([0, 1, 0, 1, 0])               # X has three in column "1" (index 0)
    board.push(3)                                  # O plays elsewhere
    work = np.empty(len(board.state), dtype=np.int64)
    board.push(0)                                  # the candidate: X wins at once
    assert tuple(K.playout_quality(board.state, new_rng(1), work)) == (0, 1)
    board.pop()
    board.push(2)                                  # a quiet candidate
    winner, length = K.playout_quality(board.state, new_rng(2), work)
    assert 2 <= length <= 16 - board.ply + 1


# --- strength, options --------------------------------------------------------------------

@pytest.mark.parametrize("game,size", [("hex", "5"), ("connect4", "7x6")])
def test_beats_random(game, size):
    for i in range(4):
        mc = make_engine(f"montecarlo:sims=1000,seed={i}")
        rnd = make_engine(f"random:seed={i}")
        black, white = (mc, rnd) if i % 2 == 0 else (rnd, mc)
        result = play_game(make_board(game, size), black, white)
        assert result.winner == (Color.BLACK if i % 2 == 0 else Color.WHITE), result


def test_bf_below_switches_to_brute_force():
    board = _position("hex", "5", 8, 12)
    free = int(K.free_cells(board.state))
    exact = make_engine(f"montecarlo:bf_below={free + 1},seed=1").analyse(board)
    assert exact.info["method"] == "bruteforce"
    assert exact.move == make_engine("bruteforce").play(board).move
    sampled = make_engine(f"montecarlo:bf_below={free},seed=1").analyse(board)
    assert sampled.info["method"] == "montecarlo"
    c4 = _position("connect4", "4x4", 9, 9)
    free = int(K.free_cells(c4.state))
    assert make_engine(f"montecarlo:bf_below={free + 1}").analyse(c4).info["method"] == "bruteforce"
    big = make_board("hex", "11")
    refused = make_engine("montecarlo:bf_below=200,sims=50").analyse(big)
    assert refused.info["method"] == "montecarlo" and "fill-ins" in refused.info["bf_refused"]


def test_same_seed_same_move_whatever_the_threads():
    board = _position("hex", "7", 10, 6)
    runs = [make_engine(spec).analyse(board) for spec in
            ("montecarlo:sims=300,seed=5", "montecarlo:sims=300,seed=5",
             "montecarlo:sims=300,seed=5,threads=2")]
    first = [(m.move, m.visits, m.winrate) for m in runs[0].moves]
    for r in runs[1:]:
        assert r.move == runs[0].move
        assert [(m.move, m.visits, m.winrate) for m in r.moves] == first
    other = make_engine("montecarlo:sims=300,seed=6").analyse(board)
    assert [(m.move, m.winrate) for m in other.moves] != [(m, w) for m, _, w in first]


def test_cut_keeps_the_winning_move_and_spends_less():
    board = make_board("hex", "5")
    board.push_many("b1 a1 b2 a2 b3 a3 b4 a4".split())        # b5 or a5 wins for Black
    full = make_engine("montecarlo:cut=0,seed=2").analyse(board)
    cut = make_engine("montecarlo:seed=2").analyse(board)
    assert cut.name in ("a5", "b5") and full.name in ("a5", "b5")
    assert cut.info["moves_cut"] > 0 and cut.nodes < full.nodes
    assert all(m.visits <= 1000 for m in cut.moves) and cut.value == 1.0


def test_sims_auto_and_limit():
    assert auto_sims(121, 121) == 1050 and auto_sims(121, 5) == 100
    assert max(auto_sims(121, f) for f in range(122)) == 25 * 121
    board = make_board("hex", "5")
    r = make_engine("montecarlo:sims=auto,seed=1,cut=0").analyse(board)
    assert r.info["sims"] == auto_sims(25, 25) and r.moves[0].visits == auto_sims(25, 25)
    r = make_engine("montecarlo:seed=1,cut=0").analyse(board, Limit(sims=64))
    assert r.info["sims"] == 64 and r.nodes == 64 * 25


def test_options_are_checked_and_documented():
    with pytest.raises(EngineSpecError):
        make_engine("montecarlo:score=best")
    with pytest.raises(EngineSpecError):
        make_engine("montecarlo:sims=lots")
    cls = all_engines()["montecarlo"]
    names = {o.name for o in cls.options}
    assert names >= {"sims", "score", "cut", "bf_below", "threads", "seed"}
    assert cls.summary and all(o.help for o in cls.options)
    assert make_engine("montecarlo:sims=auto,score=quality").spec == "montecarlo:sims=auto,score=quality"


@pytest.mark.parametrize("game, size", [("hex", "7"), ("connect4", None)])
def test_time_budget_plays_rounds_until_the_time_is_up(game, size, monkeypatch):
    from boardai.engines.rollout import montecarlo
    board = make_board(game, size)
    engine = make_engine("montecarlo:time=0.2,seed=3")
    engine.play(board, Limit(sims=10))                 # load the compiled code first
    with monkeypatch.context() as patch:
        stepping_clock(patch, montecarlo)              # the engine's clock, not the wall's
        result = engine.play(board)
    # rounds until the deadline, as the engine's clock reads it
    assert 0.2 - 0.002 <= result.time_s <= 0.2 + 0.1
    assert board.is_legal(result.move)
    assert result.info["playouts"] >= result.info["rounds"] > 0
    # a caller's simulation count still wins over the time option
    capped = engine.play(board, Limit(sims=64))
    assert capped.info["sims"] == 64
