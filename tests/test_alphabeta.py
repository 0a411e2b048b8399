"""minimax and alphabeta: same values, fewer nodes, exact results at full depth, time budgets;
the static evaluators against plain recomputations."""

from __future__ import annotations

import functools
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.engines.alphabeta import value_of
from boardai.engines.alphabeta.kernel import WIN
from boardai.engines.base import Limit
from boardai.engines.registry import EngineSpecError, make_engine
from boardai.games import make_board
from boardai.games.connect4 import eval as CE
from boardai.games.hex import eval as HE

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def random_position(game: str, size, plies: int, seed: int):
    """A position ``plies`` random moves from the start that is not over yet (or None)."""
    rng = random.Random(seed)
    board = make_board(game, size)
    for _ in range(plies):
        if board.is_game_over():
            return None
        board.push(rng.choice(list(board.legal_moves)))
    return None if board.is_game_over() else board


def score(spec: str, board, depth: int):
    result = make_engine(spec).analyse(board, Limit(depth=depth))
    return result.info["score"], result.nodes, result


POSITIONS = st.one_of(
    st.tuples(st.just("hex"), st.sampled_from(["3", "4"]), st.integers(0, 6), st.integers(0, 10**6)),
    st.tuples(st.just("connect4"), st.sampled_from(["4x4", "5x4"]), st.integers(6, 12),
              st.integers(0, 10**6)),
)


@SETTINGS
@given(POSITIONS, st.integers(1, 3))
def test_alphabeta_value_equals_minimax_with_fewer_nodes(pos, depth):
    game, size, plies, seed = pos
    board = random_position(game, size, plies, seed)
    if board is None:
        return
    for ev in (("connected", "twodistance", "resistance") if game == "hex" else ("lines", "threats")):
        mm, mm_nodes, _ = score(f"minimax:eval={ev}", board, depth)
        ab, ab_nodes, _ = score(f"alphabeta:eval={ev},tt=0,id=0", board, depth)
        assert ab == pytest.approx(mm, abs=1e-9)
        assert ab_nodes <= mm_nodes
        # the table cuts only at equal depth, so it never changes a fixed-depth value
        tt, _, _ = score(f"alphabeta:eval={ev},id=0", board, depth)
        assert tt == pytest.approx(mm, abs=1e-9)
        idv, _, _ = score(f"alphabeta:eval={ev}", board, depth)
        assert idv == pytest.approx(mm, abs=1e-9)


@functools.lru_cache(maxsize=None)
def _solve(game: str, size: str, moves: tuple) -> int:
    """Exhaustive game value for the side to move: +1 win, 0 draw, -1 loss (plain Python)."""
    board = make_board(game, size)
    board.push_many(list(moves))
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else -1       # the player who just moved won
    return max(-_solve(game, size, moves + (m,)) for m in board.legal_moves)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([("hex", "3", 0, 4), ("connect4", "4x4", 8, 12)]), st.integers(0, 10**6))
def test_full_depth_finds_the_game_theoretic_result(case, seed):
    game, size, lo, hi = case
    board = random_position(game, size, random.Random(seed).randint(lo, hi), seed)
    if board is None:
        return
    truth = _solve(game, size, tuple(board.move_stack))
    depth = board.width * board.height - board.ply
    value, _, result = score("alphabeta", board, depth)
    got = 0 if value == 0 else (1 if value > 0 else -1)
    if abs(value) < WIN - 10_000:
        got = None                                       # a draw (C4) scores exactly 0
    assert (got if got is not None else 0) == truth
    assert board.is_legal(result.move)
    if truth == 1:                                       # the chosen move keeps the win
        child = board.copy()
        child.push(result.move)
        assert _solve(game, size, tuple(child.move_stack)) == -1


def test_iterative_deepening_answers_when_time_runs_out_mid_iteration():
    board = make_board("hex", "11")
    engine = make_engine("alphabeta:eval=resistance")
    engine.play(board, Limit(depth=1))
    result = engine.play(board, Limit(time=0.15))
    assert board.is_legal(result.move)
    assert result.depth is not None and result.depth < 121      # it did not finish the game tree
    assert result.time_s < 2.0


def test_win_in_one_and_must_block():
    c4 = make_board("connect4", None)
    c4.push_many(list("445566"))                          # Black to move: 3 or 7 wins
    result = make_engine("alphabeta").play(c4, Limit(depth=3))
    assert result.name in ("3", "7") and result.value == 1.0
    c4.pop()                                              # now White... rebuild: White must block
    block = make_board("connect4", None)
    block.push_many(list("4455661"))                      # White to move, Black threatens 3 and 7
    result = make_engine("alphabeta").play(block, Limit(depth=2))
    assert result.value == -1.0                           # two threats: lost, and it knows


def test_minimax_breaks_ties_at_random_but_reproducibly():
    board = make_board("hex", "5")
    picks = {make_engine(f"minimax:eval=connected,seed={s}").play(board, Limit(depth=1)).name
             for s in range(12)}
    assert len(picks) > 3                                 # every move scores 0: many choices
    again = {make_engine("minimax:eval=connected,seed=3").play(board, Limit(depth=1)).name
             for _ in range(3)}
    assert len(again) == 1


def test_bad_evaluator_names_are_refused_with_the_choices():
    with pytest.raises(EngineSpecError, match="resistance"):
        make_engine("alphabeta:eval=nonsense")
    with pytest.raises(ValueError, match="lines, threats"):
        make_engine("alphabeta:eval=resistance").play(make_board("connect4", None), Limit(depth=1))


def test_analyse_reports_depth_nodes_pv_and_values():
    board = make_board("connect4", None)
    board.push_many(list("4453"))
    result = make_engine("alphabeta").analyse(board, Limit(depth=6))
    assert result.depth == 6 and result.nodes > 0 and result.info["nps"] > 0
    assert result.pv[0] == result.name and -1 <= result.value <= 1
    replay = board.copy()
    for name in result.pv:
        replay.push(name)
    assert {m.name for m in result.moves} == set(board.legal_moves.names())


# --- evaluators --------------------------------------------------------------------------

def _windows(w, h):
    for c in range(w):
        for r in range(h):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < w and 0 <= y < h for x, y in cells):
                    yield cells


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30))
def test_connect4_links_match_a_window_count(seed, plies):
    board = random_position("connect4", None, plies, seed)
    if board is None:
        return
    w, h = board.width, board.height
    state = board.state
    me = board.ply & 1
    stones = [int(state[CE.STONES]) & (2**64 - 1), int(state[CE.STONES + 1]) & (2**64 - 1)]

    def has(p, c, r):
        return (stones[p] >> (c * (h + 1) + r)) & 1

    def lines(p):
        threes = twos = 0
        for cells in _windows(w, h):
            if any(has(1 - p, c, r) for c, r in cells):
                continue
            k = sum(has(p, c, r) for c, r in cells)
            threes += k == 3
            twos += k == 2
        return CE.W_THREE * threes + CE.W_TWO * twos

    centre = sum(has(me, w // 2, r) for r in range(h)) - sum(has(1 - me, w // 2, r) for r in range(h))
    expected = lines(me) - lines(1 - me) + CE.W_CENTRE * centre
    assert CE.c4_evaluate(state, CE.LINES) == pytest.approx(expected)


def _plain_shortest(board, colour):
    """Empty cells ``colour`` needs (Dijkstra over the Board API, plain Python)."""
    import heapq

    w, h = board.width, board.height
    cells = board.state[16:16 + w * h]
    me, enemy = colour + 1, 2 - colour
    start = [(0, c) for c in range(w)] if colour == 0 else [(r, 0) for r in range(h)]
    dist = {}
    heap = []
    for r, c in start:
        if cells[r * w + c] != enemy:
            heapq.heappush(heap, (0 if cells[r * w + c] == me else 1, r, c))
    while heap:
        d, r, c = heapq.heappop(heap)
        if (r, c) in dist:
            continue
        dist[(r, c)] = d
        if (colour == 0 and r == h - 1) or (colour == 1 and c == w - 1):
            return d
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in dist and cells[rr * w + cc] != enemy:
                heapq.heappush(heap, (d + (0 if cells[rr * w + cc] == me else 1), rr, cc))
    return HE.INF


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10**6), st.integers(0, 30))
def test_hex_shortest_path_matches_dijkstra(n, seed, plies):
    board = random_position("hex", str(n), min(plies, n * n - 1), seed)
    if board is None:
        return
    nb = HE.neighbours(n, n)
    for colour in (0, 1):
        assert HE.shortest_path(board.state, nb, colour) == _plain_shortest(board, colour)


def test_resistance_is_symmetric_and_falls_with_own_stones():
    board = make_board("hex", "7")
    nb = HE.neighbours(7, 7)
    rb, rw = HE.resistance(board.state, nb, 0), HE.resistance(board.state, nb, 1)
    assert rb == pytest.approx(rw, rel=1e-6) and math.isfinite(rb)
    board.push("d4")
    assert HE.resistance(board.state, nb, 0) < rb < HE.resistance(board.state, nb, 1)
    # a side whose edges are walled off has infinite resistance
    wall = make_board("hex", "3")
    wall.push_many(["b2", "a1", "b1", "a2", "b3"])       # Black b1-b2-b3 joins top and bottom
    assert wall.is_game_over()
    assert HE.resistance(wall.state, HE.neighbours(3, 3), 1) == math.inf


def test_value_scale():
    assert value_of(WIN - 20) == 1.0 and value_of(-(WIN - 20)) == -1.0
    assert -1 < value_of(50.0) < 1 and value_of(0.0) == 0.0


def test_a_set_stop_ends_the_search_and_depths_are_reported():
    """``Engine.stop`` abandons the search (a minute's budget ends at once); ``on_info`` gets
    each finished depth."""
    import threading

    from boardai.engines.base import Limit
    from boardai.engines.registry import make_engine
    from boardai.games import get_game
    board = get_game("connect4").new_board("9x9")
    engine = make_engine("alphabeta")
    seen = []
    engine.on_info = lambda r: seen.append(r.depth)
    result = engine.analyse(board, Limit(depth=3))
    assert seen == [1, 2, 3] and result.depth == 3
    engine.stop = threading.Event()
    engine.stop.set()
    result = engine.analyse(board, Limit(time=60))
    assert board.is_legal(result.move) and (result.depth or 0) <= 1
