"""Brute force: exact random-play values checked against plain Python counts done another way.

Hex: every fill-in listed with ``itertools.combinations`` and judged by a Python breadth-first
search; Connect Four: Python recursion over ``Board.push``/``pop`` with exact fractions.  Also:
the symmetric shortcut changes no number, threads change no number, random play equals random
fill-in on Hex (the fact brute force rests on), and the refusal names the work it would take.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.engines.rollout import kernel as RK
from boardai.engines.rollout.bruteforce import exact_scores, fillin_work, position_bound
from boardai.engines.registry import all_engines, make_engine
from boardai.games import make_board
from boardai.games import kernel as K

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- plain Python references ------------------------------------------------------------------

def _neighbours(r, c, w, h):
    for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            yield r + dr, c + dc


def py_chain(cells, w, h, colour):
    """Cells of ``colour``'s shortest chain joining its sides (0 if none): plain BFS."""
    start = [(r, c) for r in range(h) for c in range(w)
             if cells[r * w + c] == colour and (r == 0 if colour == 0 else c == 0)]
    dist = {s: 1 for s in start}
    queue = deque(start)
    while queue:
        r, c = queue.popleft()
        if (colour == 0 and r == h - 1) or (colour == 1 and c == w - 1):
            return dist[(r, c)]
        for nb in _neighbours(r, c, w, h):
            if cells[nb[0] * w + nb[1]] == colour and nb not in dist:
                dist[nb] = dist[(r, c)] + 1
                queue.append(nb)
    return 0


def py_fillins(board, move):
    """(wins, losses, sum 1/L over wins, over losses) for the mover over every fill-in."""
    w, h = board.width, board.height
    mover = int(board.turn)
    after = board.copy()
    after.push(move)
    cells = [int(v) - 1 for v in after.cells]        # -1 empty, 0 black, 1 white
    free = [i for i, v in enumerate(cells) if v < 0]
    wins = losses = 0
    qw = ql = 0.0
    for mine in itertools.combinations(free, len(free) // 2):
        filled = list(cells)
        for i in free:
            filled[i] = 1 - mover
        for i in mine:
            filled[i] = mover
        length = py_chain(filled, w, h, mover)
        if length:
            wins += 1
            qw += 1 / length
        else:
            length = py_chain(filled, w, h, 1 - mover)
            assert length > 0                  # a full Hex board has exactly one winner
            losses += 1
            ql += 1 / length
    return wins, losses, qw, ql


def py_random_play(board, root_ply, memo):
    """Exact (Black win, White win, Black quality, White quality) of uniformly random play,
    by recursion over push/pop (a draw is 1/2 each; quality 1/L, L = moves since root)."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return (Fraction(1, 2), Fraction(1, 2), Fraction(0), Fraction(0))
        v = [Fraction(0)] * 4
        v[int(outcome.winner)] = Fraction(1)
        v[2 + int(outcome.winner)] = Fraction(1, board.ply - root_ply)
        return tuple(v)
    key = tuple(board.move_stack[root_ply:]) if board.game_name == "hex" else board.position
    if board.game_name == "connect4" and key in memo:
        return memo[key]
    moves = list(board.legal_moves)
    total = [Fraction(0)] * 4
    for m in moves:
        board.push(m)
        child = py_random_play(board, root_ply, memo)
        board.pop()
        for j in range(4):
            total[j] += child[j] / len(moves)
    memo[key] = tuple(total)
    return memo[key]


def random_position(game, size, seed, min_ply, max_free):
    """A non-final position from random play with at most ``max_free`` empty cells left."""
    rng = random.Random(seed)
    while True:
        board = make_board(game, size)
        target = rng.randrange(min_ply, board.width * board.height)
        while board.ply < target and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        free = board.width * board.height - board.ply
        if not board.is_game_over() and free <= max_free:
            return board


# --- Hex: fill-in counts ------------------------------------------------------------------------

@FAST
@given(seed=st.integers(0, 10**9), n=st.sampled_from([2, 3, 3, 4, 4]))
def test_hex_fillin_counts_match_python(seed, n):
    board = random_position("hex", str(n), seed, min_ply=0 if n < 4 else 4, max_free=12)
    for score in ("winrate", "quality"):
        scores, info = exact_scores(board, score, threads=1, symmetry=False)
        for s in scores:
            wins, losses, qw, ql = py_fillins(board, s.move)
            assert (s.wins, s.fillins) == (wins, wins + losses)
            assert s.winrate == pytest.approx(wins / (wins + losses), abs=1e-12)
            if score == "quality":
                assert s.quality_win == pytest.approx(qw, abs=1e-9)
                assert s.quality_loss == pytest.approx(ql, abs=1e-9)
                assert s.score == pytest.approx(qw / (qw + ql), abs=1e-12)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_random_play_equals_random_fillin_on_hex(seed):
    """The identity brute force rests on: sequential uniformly random play on Hex (stopping at
    the win) has the same win probability as a uniformly random fill-in."""
    board = random_position("hex", "3", seed, min_ply=0, max_free=9)
    scores, _ = exact_scores(board, "winrate", threads=1, symmetry=False)
    mover = int(board.turn)
    for s in scores:
        after = board.copy()
        after.push(s.move)
        keys = np.zeros(1 << 12, dtype=np.int64)
        used = np.zeros(1 << 12, dtype=np.bool_)
        vals = np.zeros((1 << 12, 4))
        out = np.zeros(4)
        RK.random_play_value(after.state.copy(), board.ply, keys, used, vals,
                             np.zeros(1, dtype=np.int64), out)
        assert out[mover] == pytest.approx(s.winrate, abs=1e-12)


def test_empty_4x4_known_numbers_and_symmetry():
    board = make_board("hex", "4")
    plain, info_plain = exact_scores(board, "winrate", threads=1, symmetry=False)
    fast, info_fast = exact_scores(board, "winrate", threads=2, symmetry=True)
    assert info_fast["symmetric"] and not info_plain["symmetric"]
    assert info_fast["computed_moves"] == 8 and info_plain["computed_moves"] == 16
    assert [(s.move, s.wins, s.fillins) for s in plain] == [(s.move, s.wins, s.fillins) for s in fast]
    assert all(s.fillins == math.comb(15, 7) for s in plain)
    # c2 and its rotation b3 are the best first moves under random play
    best = max(plain, key=lambda s: s.score)
    assert board.move_name(best.move) in ("c2", "b3")


def _symmetric_hex(n, pairs, seed):
    """A Hex position that is its own 180-degree rotation: moves come in rotated pairs."""
    rng = random.Random(seed)
    board = make_board("hex", str(n))
    cells = n * n
    for _ in range(pairs):
        free = [c for c in board.legal_moves if c != cells - 1 - c and board.is_legal(cells - 1 - c)]
        if len(free) < 2:
            break
        b = rng.choice(free)
        free = [c for c in free if c not in (b, cells - 1 - b)]
        wcell = rng.choice(free)
        for move in (b, wcell, cells - 1 - b, cells - 1 - wcell):
            if board.is_game_over():
                return None
            board.push(move)
    return None if board.is_game_over() else board


@pytest.mark.parametrize("n,pairs,seed", [(3, 1, 1), (4, 1, 2), (4, 2, 3), (5, 3, 4), (5, 2, 5)])
def test_symmetric_shortcut_changes_nothing_on_hex(n, pairs, seed):
    board = _symmetric_hex(n, pairs, seed)
    assert board is not None and K.position_symmetric(board.state)
    for score in ("winrate", "quality"):
        a, ia = exact_scores(board, score, threads=1, symmetry=False)
        b, ib = exact_scores(board, score, threads=1, symmetry=True)
        assert ib["symmetric"] and ib["computed_moves"] < ia["computed_moves"]
        for x, y in zip(a, b):
            assert (x.move, x.wins, x.fillins) == (y.move, y.wins, y.fillins)
            assert x.score == pytest.approx(y.score, abs=1e-12)


def test_threads_change_no_number():
    board = random_position("hex", "5", 11, min_ply=8, max_free=15)
    for score in ("winrate", "quality"):
        one, _ = exact_scores(board, score, threads=1)
        two, _ = exact_scores(board, score, threads=2)
        assert [(s.move, s.wins) for s in one] == [(s.move, s.wins) for s in two]
        assert [s.score for s in one] == pytest.approx([s.score for s in two], abs=1e-12)


def test_immediate_win_is_certain():
    board = make_board("hex", "4")
    board.push_many("b1 a1 b2 a2 b3 a3".split())       # b4 or a4 wins for Black at once
    scores, _ = exact_scores(board, "winrate", threads=1)
    by_name = {board.move_name(s.move): s for s in scores}
    assert by_name["b4"].winrate == 1.0 and by_name["a4"].winrate == 1.0
    result = make_engine("bruteforce:threads=1").play(board)
    assert result.name in ("a4", "b4") and result.value == 1.0


# --- Connect Four: recursion --------------------------------------------------------------------

@FAST
@given(seed=st.integers(0, 10**9), size=st.sampled_from(["4x4", "5x4"]))
def test_connect4_values_match_python_recursion(seed, size):
    board = random_position("connect4", size, seed, min_ply=8, max_free=9)
    mover = int(board.turn)
    for score in ("winrate", "quality"):
        scores, info = exact_scores(board, score, threads=2)
        assert info["method"] == "bruteforce" and "positions_expanded" in info
        for s in scores:
            after = board.copy()
            after.push(s.move)
            v = py_random_play(after, board.ply, {})
            assert s.winrate == pytest.approx(float(v[mover]), abs=1e-12)
            qw, ql = v[2 + mover], v[3 - mover]
            expected = float(qw / (qw + ql)) if qw + ql else 0.5
            if score == "quality":
                assert s.score == pytest.approx(expected, abs=1e-12)


def test_connect4_mirror_symmetry_changes_nothing():
    board = make_board("connect4", "5x4")
    board.push_many([2, 2, 0, 1, 4, 3, 1, 0, 3, 4])     # mirror-symmetric stones
    assert K.position_symmetric(board.state)
    a, ia = exact_scores(board, "winrate", threads=1, symmetry=False)
    b, ib = exact_scores(board, "winrate", threads=1, symmetry=True)
    assert ib["symmetric"] and ib["computed_moves"] == 3 and ia["computed_moves"] == 5
    assert [s.score for s in a] == pytest.approx([s.score for s in b], abs=1e-12)


def test_connect4_win_in_one():
    board = make_board("connect4", "5x4")
    board.push_many([0, 1, 0, 1, 0, 1])                  # X to move wins in column 1
    result = make_engine("bruteforce").play(board)
    assert result.name == "1" and result.value == 1.0


# --- refusal, registry --------------------------------------------------------------------------

def test_refusal_names_the_number_of_fillins():
    board = make_board("hex", "11")
    total, per = fillin_work(board)
    assert total == 121 * math.comb(120, 60)
    with pytest.raises(ValueError) as err:
        make_engine("bruteforce").play(board)
    text = str(err.value)
    assert f"{total:.3g} fill-ins" in text and "max_fillins=5e+09" in text


def test_refusal_on_connect4_names_positions():
    board = make_board("connect4")
    bound = position_bound(board)
    with pytest.raises(ValueError) as err:
        make_engine("bruteforce").play(board)
    assert f"{bound:.3g} positions" in str(err.value)
    with pytest.raises(ValueError, match="max_fillins=100"):
        make_engine("bruteforce:max_fillins=100").play(random_position("connect4", "5x4", 3, 8, 12))


def test_registered_with_documented_options():
    cls = all_engines()["bruteforce"]
    assert cls.summary and {o.name for o in cls.options} >= {"score", "threads", "max_fillins"}
    assert all(o.help for o in cls.options)
