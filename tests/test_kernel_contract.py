"""The game-agnostic kernel contract (``boardai/games/kernel.py``) on every registered game.

copy_position + forward play, undo on a copy, legal_moves vs is_legal, playout purity and
determinism, playout_batch, and statistical properties of random playouts.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.games import HexBoard, all_games, make_board
from boardai.games import kernel as K
from boardai.games.layout import (
    BLACK, DRAW, GAME, GAME_CONNECT4, GAME_HEX, HASH, HEADER, HEIGHT, LAST_MOVE, NO_WINNER,
    NUM_ACTIONS, PLY, POS_LEN, WHITE, WIDTH, WINNER, new_rng,
)

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

GAMES = ([("hex", w, h, False) for w, h in [(1, 1), (2, 2), (3, 3), (5, 5), (7, 7), (11, 11),
                                             (3, 5), (5, 3), (1, 4), (9, 4)]]
         + [("hex", n, n, True) for n in (2, 3, 4, 5, 7)]
         + [("connect4", w, h, False) for w, h in [(7, 6), (4, 4), (5, 4), (8, 7), (1, 1), (2, 2),
                                                   (4, 15), (32, 1), (6, 7), (9, 7), (12, 12),
                                                   (16, 16), (12, 9)]]
         + [("tictactoe", w, h, False) for w, h in [(3, 3), (4, 4), (5, 3), (1, 1), (2, 2), (1, 7)]])

specs = st.sampled_from(GAMES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
GARBAGE = -7    # fills the undo area of copies: nothing may read it in forward play


def make(spec):
    game, w, h, swap = spec
    return make_board(game, (w, h), swap=swap)


def test_every_registered_game_is_in_the_contract_tests():
    assert {g for g, *_ in GAMES} == set(all_games())


def pick(board, rng: random.Random, allow_swap: bool = True) -> int:
    moves = list(board.legal_moves)
    if board.game_name == "hex":
        swap = board.swap_move
        if swap in moves:
            if not allow_swap:
                moves.remove(swap)
            elif rng.random() < 0.5:
                return swap
    return rng.choice(moves)


def position(spec, seed: int, plies: int):
    board = make(spec)
    rng = random.Random(seed)
    while not board.is_game_over() and board.ply < plies:
        board.push(pick(board, rng))
    return board, rng


def prefix(state) -> np.ndarray:
    return state[:state[POS_LEN]].copy()


def forward_copy(state) -> np.ndarray:
    dst = np.full(len(state), GARBAGE, dtype=np.int64)
    K.copy_position(state, dst)
    return dst


# --- copy_position -------------------------------------------------------------------------

@SETTINGS
@given(spec=specs, seed=seeds, plies=st.integers(0, 130))
def test_copy_position_then_forward_play_matches_the_original(spec, seed, plies):
    board, rng = position(spec, seed, plies)
    orig = board.state.copy()
    dst = forward_copy(orig)
    assert np.array_equal(prefix(dst), prefix(orig))
    assert np.all(dst[orig[POS_LEN]:] == GARBAGE)          # only the prefix is copied
    first = True
    while orig[WINNER] == NO_WINNER:
        # swap right after a copy made at ply 1 is test_swap_on_a_copy_made_after_the_first_move
        move = pick(board, rng, allow_swap=not first or int(orig[PLY]) != 1)
        board.push(move)
        K.apply_move(orig, move)
        K.apply_move(dst, move)
        assert np.array_equal(prefix(dst), prefix(orig))
        first = False


def differing_slots(a, b) -> list[int]:
    return np.nonzero(prefix(a) != prefix(b))[0].tolist()


def test_swap_on_a_copy_made_after_the_first_move():
    """A copy holds only the position, so the swap must not read the first move from the copy's
    history (the header's LAST_MOVE has it); this is what MCTS does at a ply-1 root."""
    for n in (2, 3, 5, 7):
        for first in range(1, n * n):
            board = HexBoard(n, swap=True)
            board.push(first)
            dst = np.zeros_like(board.state)       # zeros: a wrong read stays inside the array
            K.copy_position(board.state, dst)
            K.apply_move(dst, board.swap_move)
            board.push("swap")
            assert differing_slots(dst, board.state) == [], \
                f"{n}x{n}: swap after {board.move_name(first)} on a copy: cells " \
                f"{dst[HEADER:HEADER + n * n].tolist()} instead of {board.cells.tolist()}"


@SETTINGS
@given(spec=specs, seed=seeds, plies=st.integers(0, 130), extra=st.integers(1, 20))
def test_undo_on_a_copy_restores_the_copied_position(spec, seed, plies, extra):
    """Moves applied after a copy can be taken back on the copy, header included."""
    board, rng = position(spec, seed, plies)
    orig = board.state.copy()
    dst = forward_copy(orig)
    moves = []
    n = int(orig[NUM_ACTIONS])
    out = np.empty(n, dtype=np.int64)
    while dst[WINNER] == NO_WINNER and len(moves) < extra:
        k = K.legal_moves(dst, out)
        legal = [int(m) for m in out[:k]]
        if int(dst[PLY]) == 1 and len(legal) > 1 and dst[GAME] == GAME_HEX:
            legal = [m for m in legal if m != n - 1]        # no swap: see the test above
        moves.append(rng.choice(legal))
        K.apply_move(dst, moves[-1])
    while moves:
        assert K.undo_move(dst) == moves.pop()
    expected, got = prefix(orig), prefix(dst)
    mask = np.ones(len(expected), dtype=bool)
    mask[LAST_MOVE] = False
    assert np.array_equal(got[mask], expected[mask])
    assert got[LAST_MOVE] == expected[LAST_MOVE], "LAST_MOVE after undo on a copy"


@SETTINGS
@given(spec=specs, seed=seeds)
def test_apply_and_undo_keep_the_header_consistent(spec, seed):
    board = make(spec)
    state = board.state.copy()
    fixed = [GAME, WIDTH, HEIGHT, NUM_ACTIONS, POS_LEN]
    header = state[fixed].copy()
    rng = random.Random(seed)
    out = np.empty(int(state[NUM_ACTIONS]), dtype=np.int64)
    played = []
    snaps = [prefix(state)]
    while state[WINNER] == NO_WINNER:
        k = K.legal_moves(state, out)
        move = int(out[rng.randrange(k)])
        K.apply_move(state, move)
        played.append(move)
        snaps.append(prefix(state))
        assert state[PLY] == len(played)
        assert state[LAST_MOVE] == move
        assert np.array_equal(state[fixed], header)
    assert state[WINNER] in (BLACK, WHITE, DRAW)
    if spec[0] == "hex":
        assert state[WINNER] != DRAW
    while played:
        assert np.array_equal(prefix(state), snaps.pop())
        assert K.undo_move(state) == played.pop()
    assert np.array_equal(prefix(state), snaps.pop())
    assert state[LAST_MOVE] == -1 and state[PLY] == 0 and state[HASH] == 0


# --- legality ------------------------------------------------------------------------------

@SETTINGS
@given(spec=specs, seed=seeds)
def test_legal_moves_is_the_list_of_legal_actions(spec, seed):
    board = make(spec)
    state = board.state
    n = int(state[NUM_ACTIONS])
    out = np.full(n, -99, dtype=np.int64)
    rng = random.Random(seed)
    while True:
        k = int(K.legal_moves(state, out))
        expected = [m for m in range(n) if K.is_legal(state, m)]
        assert out[:k].tolist() == expected
        for bad in (-1, -100, n, n + 1, 10**6):
            assert not K.is_legal(state, bad)
        if state[WINNER] != NO_WINNER:
            assert k == 0
            break
        board.push(pick(board, rng))


def test_num_actions():
    assert K.new_state(GAME_HEX, 5, 3)[NUM_ACTIONS] == 16         # cells + the swap action
    assert K.new_state(GAME_CONNECT4, 7, 6)[NUM_ACTIONS] == 7
    with pytest.raises(ValueError):
        K.new_state(5, 3, 3)


# --- playouts ------------------------------------------------------------------------------

@SETTINGS
@given(spec=specs, seed=seeds, plies=st.integers(0, 130))
def test_playout_leaves_state_unchanged_and_is_deterministic(spec, seed, plies):
    board, _ = position(spec, seed, plies)
    state = board.state
    before = state.copy()
    n = int(state[NUM_ACTIONS])
    results = []
    for owner_len in (0, n):
        runs = []
        for _ in range(2):
            rng = new_rng(seed)
            owner = np.full(owner_len, -99, dtype=np.int64)
            work = np.empty(len(state), dtype=np.int64)
            result = int(K.playout(state, rng, work, owner))
            assert np.array_equal(state, before)
            runs.append((result, owner.tolist(), int(rng[0])))
        assert runs[0] == runs[1]
        results.append(runs[0][0])
        result, owner = runs[0][0], runs[0][1]
        assert result in (BLACK, WHITE, DRAW)
        if state[WINNER] != NO_WINNER:
            assert result == state[WINNER]
            continue
        if spec[0] == "hex":
            assert result != DRAW
            if owner_len:
                cells = board.cells
                for i in range(len(cells)):
                    assert (owner[i] == -1) == (cells[i] != 0)
        elif owner_len and spec[0] == "connect4":
            for c in range(board.width):
                assert owner[c] in (-1, 0, 1)
                if board.column_height(c) == board.height:
                    assert owner[c] == -1
        elif owner_len:                  # cell games: taken cells are nobody's in the playout
            for i, taken in enumerate(board.cells):
                assert owner[i] in (-1, 0, 1)
                if taken:
                    assert owner[i] == -1
    # the owner array is optional and does not change the game played
    assert results[0] == results[1]


@SETTINGS
@given(spec=specs, seed=seeds, plies=st.integers(0, 130), count=st.integers(0, 300))
def test_playout_batch_counts(spec, seed, plies, count):
    board, _ = position(spec, seed, plies)
    state = board.state
    before = state.copy()
    totals = K.playout_batch(state, new_rng(seed), count)
    assert np.array_equal(state, before)
    assert totals.shape == (3,) and totals.sum() == count and (totals >= 0).all()
    # the same stream of playouts one by one
    rng = new_rng(seed)
    work = np.empty(len(state), dtype=np.int64)
    manual = np.zeros(3, dtype=np.int64)
    for _ in range(count):
        manual[K.playout(state, rng, work, np.empty(0, dtype=np.int64))] += 1
    assert manual.tolist() == totals.tolist()
    if spec[0] == "hex":
        assert totals[DRAW] == 0
    if state[WINNER] != NO_WINNER:
        assert totals[int(state[WINNER])] == count


def test_connect4_first_player_wins_about_55_percent_of_random_games():
    state = K.new_state(GAME_CONNECT4, 7, 6)
    totals = K.playout_batch(state, new_rng(20240601), 20000)
    share = totals[BLACK] / 20000
    assert 0.50 <= share <= 0.61, totals
    assert totals[WHITE] > 0.35 * 20000 and totals[DRAW] < 0.02 * 20000


def black_wins_full_fill(cells, w, h) -> bool:
    """Flood fill from the top row through black cells (1); True if it reaches the bottom."""
    seen = {c for c in range(w) if cells[c] == 1}
    queue = deque(seen)
    while queue:
        cell = queue.popleft()
        r, c = divmod(cell, w)
        if r == h - 1:
            return True
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and cells[rr * w + cc] == 1 \
                    and rr * w + cc not in seen:
                seen.add(rr * w + cc)
                queue.append(rr * w + cc)
    return False


@pytest.mark.parametrize("w,h,moves", [(3, 3, []), (4, 2, []), (3, 3, ["b2"]),
                                       (4, 3, ["a1", "b2"]), (3, 4, ["c1", "a2", "b3"])])
def test_hex_playouts_are_uniform_random_fills(w, h, moves):
    """The Black win rate of random playouts matches the exact share of winning fills, counted
    by enumerating every way to give the side to move ceil(k/2) of the k empty cells."""
    board = HexBoard.from_moves(moves, w, h)
    cells = [int(v) for v in board.cells]
    empty = [i for i, v in enumerate(cells) if v == 0]
    mover = board.ply & 1
    take = (len(empty) + 1) // 2
    wins = total = 0
    for subset in itertools.combinations(empty, take):
        fill = list(cells)
        for i in empty:
            fill[i] = (mover + 1) if i in subset else (2 - mover)
        wins += black_wins_full_fill(fill, w, h)
        total += 1
    exact = wins / total
    count = 20000
    totals = K.playout_batch(board.state, new_rng(7), count)
    sd = (exact * (1 - exact) / count) ** 0.5
    assert abs(totals[BLACK] / count - exact) <= 5 * sd + 1e-9, (totals, exact)


# --- one-move wins (and on boards at the edge of the 64-bit layout) ----------------------------

@pytest.mark.parametrize("game,w,h", [("hex", 26, 2), ("hex", 1, 26), ("hex", 26, 1),
                                     ("connect4", 4, 15), ("connect4", 3, 19),
                                     ("connect4", 3, 20), ("connect4", 2, 29),
                                     ("connect4", 1, 40), ("tictactoe", 3, 3),
                                     ("tictactoe", 4, 4), ("tictactoe", 5, 3),
                                     ("tictactoe", 2, 6)])
def test_winning_moves_agree_with_playing_the_move(game, w, h):
    out = np.empty(w * h + 1, dtype=np.int64)
    for seed in range(2):
        board = make((game, w, h, False))
        rng = random.Random(seed)
        while not board.is_game_over():
            for colour in (BLACK, WHITE):
                k = K.winning_moves(board.state, colour, out)
                expected = [m for m in board.legal_moves
                            if K.wins_if_played(board.state, m, colour)]
                assert sorted(out[:k].tolist()) == expected, (board.moves_text(), colour)
            mover = int(board.turn)
            for m in board.legal_moves:
                wins = bool(K.wins_if_played(board.state, m, mover))
                board.push(m)
                assert wins == (board.outcome() is not None
                                and board.outcome().winner == mover), board.moves_text()
                board.pop()
            board.push(rng.choice(board.legal_moves))
