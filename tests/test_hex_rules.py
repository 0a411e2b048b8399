"""Hex rules: random games, push/pop, Zobrist hashing, win detection, swap, notation, pictures.

Win checks are compared with an independent pure-Python flood fill written here, never with the
library's own helpers.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.games import Color, HexBoard, IllegalMoveError, InvalidMoveError, MoveError
from boardai.games import kernel as K
from boardai.games.hex.board import CONNECTION
from boardai.games.hex import kernel as HK
from boardai.games.layout import (
    GAME_HEX, HEADER, LAST_MOVE, PLY, POS_LEN, WINNER, new_rng, zobrist_key,
)

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

HEX_SIZES = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (11, 11),
             (3, 5), (5, 3), (1, 4), (4, 1), (2, 6), (6, 2), (9, 4)]
SQUARE = [1, 2, 3, 4, 5, 6, 7, 9, 11]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.sampled_from(HEX_SIZES)


# --- independent reference implementation -----------------------------------------------

NEIGHBOUR_STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1))


def nbrs(cell: int, w: int, h: int) -> list[int]:
    r, c = divmod(cell, w)
    return [(r + dr) * w + c + dc for dr, dc in NEIGHBOUR_STEPS
            if 0 <= r + dr < h and 0 <= c + dc < w]


def on_start_side(cell: int, w: int, colour: int) -> bool:
    """Black starts at the top row, White at the left column."""
    return cell // w == 0 if colour == 0 else cell % w == 0


def on_goal_side(cell: int, w: int, h: int, colour: int) -> bool:
    return cell // w == h - 1 if colour == 0 else cell % w == w - 1


def shortest_chain(cells, w: int, h: int, colour: int) -> int | None:
    """Cells in the shortest ``colour`` chain joining its two sides (BFS), None if no chain.

    ``cells``: 0 empty, 1 black, 2 white; ``colour``: 0 black, 1 white.
    """
    mine = colour + 1
    dist = {}
    queue = deque()
    for cell in range(w * h):
        if cells[cell] == mine and on_start_side(cell, w, colour):
            dist[cell] = 1
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        if on_goal_side(cell, w, h, colour):
            return dist[cell]
        for nb in nbrs(cell, w, h):
            if cells[nb] == mine and nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return None


def connects(cells, w: int, h: int, colour: int) -> bool:
    return shortest_chain(cells, w, h, colour) is not None


def uf_reference(cells, w: int, h: int) -> dict[int, int]:
    """Representative of each node 0..N+3 (cells, then TOP, BOTTOM, LEFT, RIGHT): groups of
    same-coloured stones, black ones joined to TOP/BOTTOM and white ones to LEFT/RIGHT."""
    n = w * h
    adj: dict[int, list[int]] = {x: [] for x in range(n + 4)}
    for cell in range(n):
        v = cells[cell]
        if not v:
            continue
        r, c = divmod(cell, w)
        adj[cell] += [nb for nb in nbrs(cell, w, h) if cells[nb] == v]
        edges = ((n, r == 0), (n + 1, r == h - 1)) if v == 1 else ((n + 2, c == 0),
                                                                    (n + 3, c == w - 1))
        for e, hit in edges:
            if hit:
                adj[cell].append(e)
                adj[e].append(cell)
    rep: dict[int, int] = {}
    for start in range(n + 4):
        if start in rep:
            continue
        rep[start] = start
        queue = deque([start])
        while queue:
            x = queue.popleft()
            for y in adj[x]:
                if y not in rep:
                    rep[y] = start
                    queue.append(y)
    return rep


def reference_hash(cells, w: int, h: int, ply: int) -> int:
    """Zobrist hash recomputed from scratch: stone keys xor the side key when White is to move."""
    value = 0
    for cell in range(w * h):
        if cells[cell]:
            value ^= int(zobrist_key(GAME_HEX, cell, int(cells[cell]) - 1))
    if ply & 1:
        value ^= int(zobrist_key(GAME_HEX, 0, 2))
    return value & ((1 << 64) - 1)


def mirror(cell: int, n: int) -> int:
    r, c = divmod(cell, n)
    return c * n + r


def cells_of(board: HexBoard) -> list[int]:
    return [int(v) for v in board.cells]


def snapshot(board: HexBoard):
    s = board.state
    return (s[:s[POS_LEN]].copy(), board.zobrist_hash(), int(s[WINNER]), int(s[PLY]),
            int(s[LAST_MOVE]), board.move_stack)


def assert_same_snapshot(a, b):
    assert np.array_equal(a[0], b[0])
    assert a[1:] == b[1:]


def pick_move(board: HexBoard, rng: random.Random, swap_bias: float = 0.5) -> int:
    moves = list(board.legal_moves)
    if board.swap_move in moves and rng.random() < swap_bias:
        return board.swap_move
    return rng.choice(moves)


def play_random(board: HexBoard, rng: random.Random, plies: int | None = None) -> None:
    while not board.is_game_over() and (plies is None or board.ply < plies):
        board.push(pick_move(board, rng))


def make(size, swap=False) -> HexBoard:
    w, h = size
    return HexBoard(w, h, swap=swap and w == h)


# --- random games --------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, swap=st.booleans(), seed=seeds)
def test_random_games_end_with_one_winner(size, swap, seed):
    board = make(size, swap)
    w, h = size
    n = w * h
    rng = random.Random(seed)
    swapped = False
    while not board.is_game_over():
        legal = list(board.legal_moves)
        empties = [i for i, v in enumerate(board.cells) if v == 0]
        expected = empties + ([n] if board.swap_allowed and board.ply == 1 else [])
        assert legal == expected
        for m in legal:
            assert board.is_legal(m)
        move = pick_move(board, rng)
        swapped |= move == n
        ply = board.ply
        assert board.push(move) == move
        assert board.ply == ply + 1
        assert board.peek() == move
        assert board.turn == Color(board.ply & 1)
    # Hex has no draws and a game never outlasts the board
    outcome = board.outcome()
    assert outcome is not None and outcome.winner in (Color.BLACK, Color.WHITE)
    assert outcome.termination is CONNECTION
    assert outcome.plies == board.ply <= n + swapped
    assert outcome.result() == f"{outcome.winner.letter}+"
    assert list(board.legal_moves) == []
    assert not any(board.is_legal(m) for m in range(n + 1))
    for m in range(n + 1):
        with pytest.raises(IllegalMoveError):
            board.push(m)


@pytest.mark.parametrize("size", [(19, 19), (26, 26), (26, 1), (1, 26), (26, 13)])
def test_random_games_on_big_and_thin_boards(size):
    for seed in range(3):
        board = make(size, swap=True)
        play_random(board, random.Random(seed))
        w, h = size
        winner = int(board.outcome().winner)
        assert connects(board.cells, w, h, winner)
        assert not connects(board.cells, w, h, 1 - winner)


def test_one_by_one_board():
    board = HexBoard(1, swap=True)
    assert list(board.legal_moves) == [0]          # no swap at ply 0
    board.push("a1")
    assert board.outcome().winner == Color.BLACK   # the stone touches top and bottom
    assert board.winning_chain() == [0]
    with pytest.raises(IllegalMoveError):
        board.push("swap")
    board.pop()
    assert board.outcome() is None and board.ply == 0


# --- push / pop ----------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, swap=st.booleans(), seed=seeds)
def test_push_pop_restores_exactly(size, swap, seed):
    board = make(size, swap)
    rng = random.Random(seed)
    snaps = [snapshot(board)]
    fresh = snaps[0]
    moves = []
    while not board.is_game_over():
        moves.append(board.push(pick_move(board, rng)))
        snaps.append(snapshot(board))
    while moves:
        assert_same_snapshot(snapshot(board), snaps[-1])
        assert board.pop() == moves.pop()
        snaps.pop()
        assert_same_snapshot(snapshot(board), snaps[-1])
    assert_same_snapshot(snapshot(board), fresh)
    assert np.array_equal(board.state[:board.state[POS_LEN]],
                          HK.new_hex_state(*size, board.swap_allowed)[:board.state[POS_LEN]])
    with pytest.raises(IndexError):
        board.pop()


@SETTINGS
@given(size=sizes, swap=st.booleans(), seed=seeds)
def test_union_find_agrees_with_flood_fill(size, swap, seed):
    """Random walk of pushes and pops; after each step the union-find partition, its edge nodes
    and the winner match a flood fill of the cells."""
    board = make(size, swap)
    w, h = size
    n = w * h
    parent = HEADER + n + 2 * h
    ufsize = parent + n + 4
    rng = random.Random(seed)

    def find(x):
        s = board.state
        while s[parent + x] != x:
            x = int(s[parent + x])
        return x

    for _ in range(3 * n + 4):
        if board.move_stack and (board.is_game_over() or rng.random() < 0.3):
            board.pop()
        else:
            board.push(pick_move(board, rng))
        cells = cells_of(board)
        s = board.state
        # union-find sets are the flood fill's groups, with each edge node joined to its stones
        comp = uf_reference(cells, w, h)
        assert len({find(x) for x in range(n + 4)}) == len(set(comp.values()))
        for x in range(n + 4):
            assert (find(x) == find(comp[x])), x
        for cell in range(n):
            if cells[cell] == 0:
                assert s[parent + cell] == cell and s[ufsize + cell] == 1
        # the winner is whoever connects, and only the last mover can
        black, white = connects(cells, w, h, 0), connects(cells, w, h, 1)
        assert not (black and white)
        outcome = board.outcome()
        if black or white:
            assert outcome is not None
            assert outcome.winner == (Color.BLACK if black else Color.WHITE)
            assert outcome.winner == board.turn.other
        else:
            assert outcome is None


# --- Zobrist -------------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, swap=st.booleans(), seed=seeds)
def test_hash_matches_reference_along_games(size, swap, seed):
    board = make(size, swap)
    w, h = size
    rng = random.Random(seed)
    assert board.zobrist_hash() == 0
    while not board.is_game_over():
        board.push(pick_move(board, rng))
        assert board.zobrist_hash() == reference_hash(board.cells, w, h, board.ply)


@SETTINGS
@given(size=sizes, seed=seeds, data=st.data())
def test_hash_depends_on_position_only(size, seed, data):
    """Permuting the order of each colour's moves reaches the same position and the same hash."""
    w, h = size
    rng = random.Random(seed)
    board = HexBoard(w, h)
    plies = data.draw(st.integers(0, w * h))
    play_random(board, rng, plies)
    if board.is_game_over():   # drop the winning move: a game in progress can be reordered
        board.pop()
    moves = board.move_stack
    blacks, whites = moves[0::2], moves[1::2]
    rng.shuffle(blacks)
    rng.shuffle(whites)
    order = [None] * len(moves)
    order[0::2], order[1::2] = blacks, whites
    other = HexBoard.from_moves(order, w, h)
    assert other.outcome() is None
    assert list(other.cells) == list(board.cells)
    assert other.zobrist_hash() == board.zobrist_hash()
    assert np.array_equal(other.state[HEADER:HEADER + w * h + 2 * h],
                          board.state[HEADER:HEADER + w * h + 2 * h])   # cells and row masks


def test_hash_differs_for_side_to_move_and_colour():
    a = HexBoard.from_moves("a1", 3)
    b = HexBoard.from_moves("b2 a1", 3)
    c = HexBoard.from_moves("b2 a1 b3", 3)
    assert len({HexBoard(3).zobrist_hash(), a.zobrist_hash(), b.zobrist_hash(),
                c.zobrist_hash()}) == 4


# --- full boards ---------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, seed=seeds, data=st.data())
def test_playout_fill_has_exactly_one_winner(size, seed, data):
    """Reconstruct the playout's full board from ``owner`` and check it with the flood fill."""
    w, h = size
    n = w * h
    rng = random.Random(seed)
    board = HexBoard(w, h)
    play_random(board, rng, data.draw(st.integers(0, n)))
    state = board.state
    before = state.copy()
    owner = np.empty(n, dtype=np.int64)
    work = np.empty(len(state), dtype=np.int64)
    result = int(K.playout(state, new_rng(seed), work, owner))
    assert np.array_equal(state, before)
    if board.is_game_over():
        assert result == int(state[WINNER])
        return
    full = cells_of(board)
    empties = 0
    for i in range(n):
        if full[i]:
            assert owner[i] == -1
        else:
            assert owner[i] in (0, 1)
            full[i] = int(owner[i]) + 1
            empties += 1
    mover = board.ply & 1
    given_to_mover = sum(1 for i in range(n) if owner[i] == mover)
    assert given_to_mover == (empties + 1) // 2
    black, white = connects(full, w, h, 0), connects(full, w, h, 1)
    assert black != white, "a full Hex board has exactly one winner"
    assert result == (0 if black else 1)


@SETTINGS
@given(size=sizes, seed=seeds)
def test_any_full_fill_has_exactly_one_winner(size, seed):
    """Any colouring of a full board (whatever the split) has one winner, and the kernel's
    row-mask flood fill agrees with the reference; partial fills agree too."""
    w, h = size
    rng = random.Random(seed)
    reach = np.zeros(h, dtype=np.int64)
    for _ in range(10):
        cells = [rng.choice((1, 2)) for _ in range(w * h)]
        black, white = connects(cells, w, h, 0), connects(cells, w, h, 1)
        assert black != white
        rows = np.array([sum(1 << c for c in range(w) if cells[r * w + c] == 1) for r in range(h)],
                        dtype=np.int64)
        assert bool(HK.black_connects(rows, 0, h, reach)) == black
        # transposing the board and exchanging the colours exchanges the winner
        swapped = [3 - cells[mirror_rect(i, w, h)] for i in range(w * h)]
        assert connects(swapped, h, w, 0) == white
        partial = [v if rng.random() < 0.6 else 0 for v in cells]
        rows = np.array([sum(1 << c for c in range(w) if partial[r * w + c] == 1)
                         for r in range(h)], dtype=np.int64)
        assert bool(HK.black_connects(rows, 0, h, reach)) == connects(partial, w, h, 0)


def mirror_rect(cell: int, w: int, h: int) -> int:
    """Cell of a W×H board that lands on ``cell`` of the transposed H×W board."""
    r, c = divmod(cell, h)     # (r, c) on the H-wide transposed board
    return c * w + r


# --- winning chain -------------------------------------------------------------------------

@SETTINGS
@given(size=sizes, swap=st.booleans(), seed=seeds)
def test_winning_chain_is_a_shortest_connecting_chain(size, swap, seed):
    board = make(size, swap)
    w, h = size
    rng = random.Random(seed)
    while not board.is_game_over():
        assert board.winning_chain() == []
        board.push(pick_move(board, rng))
    winner = int(board.outcome().winner)
    chain = board.winning_chain()
    cells = cells_of(board)
    assert len(set(chain)) == len(chain)
    assert all(cells[x] == winner + 1 for x in chain)
    assert on_start_side(chain[0], w, winner)
    assert on_goal_side(chain[-1], w, h, winner)
    for a, b in zip(chain, chain[1:]):
        assert b in nbrs(a, w, h)
    assert len(chain) == shortest_chain(cells, w, h, winner)


def test_winning_chain_examples():
    board = HexBoard.from_moves("b2 a1 b1 c1 b3", 3)
    assert [board.move_name(c) for c in board.winning_chain()] == ["b1", "b2", "b3"]
    # White across a 4x2 board along the second row, left to right
    board = HexBoard.from_moves("a1 a2 b1 b2 d1 c2 c1 d2", 4, 2)
    assert board.outcome().winner == Color.WHITE
    assert [board.move_name(c) for c in board.winning_chain()] == ["a2", "b2", "c2", "d2"]


def test_win_needs_both_sides_and_diagonal_links():
    # a1-b1-c1 touch only the top: no win for Black on 3x3
    board = HexBoard.from_moves("a1 a2 b1 b2 c1", 3)
    assert board.outcome() is None
    # c1 b2 a3 is a chain along the short diagonal (neighbours (r+1, c-1)): Black wins
    board = HexBoard.from_moves("c1 a1 b2 b1 a3", 3)
    assert board.outcome().winner == Color.BLACK
    # a1 b2 c3 are not neighbours (long diagonal): no win
    board = HexBoard.from_moves("a1 a2 b2 a3 c3", 3)
    assert board.outcome() is None


# --- notation ------------------------------------------------------------------------------

def letters(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[rem] + out
    return out


NOTATION_SIZES = [(n, n) for n in range(1, 27)] + [(3, 5), (5, 3), (1, 26), (26, 1), (26, 7),
                                                  (7, 26), (2, 19)]


@pytest.mark.parametrize("size", NOTATION_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_notation_round_trips_every_cell(size):
    w, h = size
    board = HexBoard(w, h)
    for m in range(w * h):
        r, c = divmod(m, w)
        name = board.move_name(m)
        assert name == f"{letters(c)}{r + 1}"
        assert board.parse_move(name) == m
        assert board.parse_move(name.upper()) == m
        assert board.parse_move(f"  {name} ") == m
        assert board.parse_move(f"{r} {c}") == m
        assert board.parse_move(f"{r},{c}") == m
    assert board.parse_move("swap") == board.swap_move
    assert board.parse_move(board.move_name(board.swap_move)) == board.swap_move


def test_notation_examples():
    board = HexBoard(5)
    assert board.parse_move("C3") == board.parse_move("c3") == 2 * 5 + 2
    assert board.parse_move("2 3") == board.parse_move("d3") == 2 * 5 + 3
    assert board.move_name(board.parse_move("2 3")) == "d3"
    big = HexBoard(26)
    assert big.move_name(25) == "z1" and big.move_name(26 * 26 - 1) == "z26"
    assert big.parse_move("Z26") == 26 * 26 - 1
    for text in ("swap", "SWAP", "swap-pieces", "swap-sides"):
        assert board.parse_move(text) == board.swap_move


BAD_TEXT = ["", " ", "a", "1", "a0", "f1", "a6", "A6", "a1a", "1a", "a 1", "a-1", "-1 2", "2 -1",
            "5 0", "0 5", "1 2 3", "a1 b2", "aa1", "zz9", "pass", "resign", "swapx", "c3!",
            "\u00e91", "a\u00b2"]


@pytest.mark.parametrize("text", BAD_TEXT)
def test_bad_text_raises_invalid_move_and_leaves_board(text):
    board = HexBoard.from_moves("c3 b2", 5)
    before = board.state.copy()
    with pytest.raises(InvalidMoveError) as info:
        board.push(text)
    assert isinstance(info.value, ValueError)
    assert "a1..e5" in str(info.value)
    assert np.array_equal(board.state, before)
    assert board.move_stack == [12, 6]
    assert text not in board.legal_moves


def test_wrong_types_raise_invalid_move():
    board = HexBoard(3)
    for bad in (True, 1.0, None, [1]):
        with pytest.raises(InvalidMoveError):
            board.push(bad)
    assert board.ply == 0
    assert board.push(np.int64(4)) == 4


def test_illegal_moves_raise_and_leave_board_unchanged():
    board = HexBoard.from_moves("c3 b2", 5)
    before = board.state.copy()
    for move in ("c3", "B2", "1 1", 12, 6, -1, 26, 25):   # 25 is the swap action, off here
        with pytest.raises(IllegalMoveError) as info:
            board.push(move)
        assert isinstance(info.value, ValueError) and isinstance(info.value, MoveError)
        assert np.array_equal(board.state, before)
        assert board.move_stack == [12, 6]
    with pytest.raises(IllegalMoveError, match="swap"):
        board.push("swap")
    # push_many is all or nothing (the undo area past POS_LEN is scratch and may differ)
    pos = int(before[POS_LEN])
    with pytest.raises(IllegalMoveError):
        board.push_many(["a1", "a2", "a1"])
    assert np.array_equal(board.state[:pos], before[:pos]) and board.move_stack == [12, 6]
    with pytest.raises(InvalidMoveError):
        board.push_many(["a1", "zz"])
    assert np.array_equal(board.state[:pos], before[:pos]) and board.move_stack == [12, 6]


def test_swap_only_as_second_move_of_a_swap_game():
    board = HexBoard(4, swap=True)
    assert board.swap_allowed and not HexBoard(4).swap_allowed
    with pytest.raises(IllegalMoveError):
        board.push("swap")                    # no stone to swap yet
    board.push("b3")
    assert board.swap_move in board.legal_moves and "swap" in board.legal_moves
    board.push("c1")
    before = board.state.copy()
    with pytest.raises(IllegalMoveError):
        board.push("swap")                    # too late
    assert np.array_equal(board.state, before)
    board = HexBoard.from_moves("b3 swap", 4, swap=True)
    with pytest.raises(IllegalMoveError):
        board.push("swap")                    # only once
    assert board.swap_move not in board.legal_moves


def test_bad_board_sizes():
    for args in ((0,), (27,), (3, 0), (3, 27), (2.0,)):
        with pytest.raises(ValueError):
            HexBoard(*args)
    with pytest.raises(ValueError):
        HexBoard(3, 5, swap=True)


# --- swap ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 11])
def test_swap_mirrors_the_first_stone(n):
    for first in range(n * n):
        board = HexBoard(n, swap=True)
        board.push(first)
        before = snapshot(board)
        board.push("swap")
        r, c = divmod(first, n)
        expected = [0] * (n * n)
        expected[c * n + r] = 2
        assert cells_of(board) == expected
        assert board.turn == Color.BLACK and board.ply == 2
        assert board.outcome() is None
        assert board.state[LAST_MOVE] == board.swap_move
        assert board.zobrist_hash() == reference_hash(expected, n, n, 2)
        assert board.moves_text() == f"{board.move_name(first)} swap-pieces"
        assert [m for m in board.legal_moves] == [i for i in range(n * n) if i != c * n + r]
        assert board.pop() == board.swap_move
        assert_same_snapshot(snapshot(board), before)


@SETTINGS
@given(n=st.sampled_from(SQUARE[1:]), seed=seeds)
def test_swapped_game_is_the_mirror_image(n, seed):
    """After swap, every continuation mirrors a plain game with the colours exchanged: the
    mirrored game (Black's first stone kept, later moves transposed) is won by the other side."""
    rng = random.Random(seed)
    board = HexBoard(n, swap=True)
    first = rng.randrange(n * n)
    board.push(first)
    board.push("swap")
    play_random(board, rng)
    moves = board.move_stack
    mirrored = HexBoard(n)
    mirrored.push(first)                      # Black's stone = the swapped White stone, mirrored
    for m in moves[2:]:
        mirrored.push(mirror(m, n))
    assert mirrored.outcome().winner == board.outcome().winner.other
    assert mirrored.ply == board.ply - 1
    cells, mcells = cells_of(board), cells_of(mirrored)
    for i in range(n * n):
        v = cells[mirror(i, n)]
        assert mcells[i] == (0 if v == 0 else 3 - v)
    assert len(mirrored.winning_chain()) == len(board.winning_chain())
    # undoing everything restores the swapped position, then the first stone
    while board.ply > 2:
        board.pop()
    board.pop()
    assert cells_of(board) == [1 if i == first else 0 for i in range(n * n)]
    assert board.turn == Color.WHITE


# --- pictures ------------------------------------------------------------------------------

def test_picture_5x5_empty(golden):
    golden("hex_5x5_empty.txt", HexBoard(5).render())


def test_picture_4x4_midgame(golden):
    board = HexBoard.from_moves("b2 c3 a4 d1 c2", 4)
    text = board.render()
    assert "(B)" in text
    golden("hex_4x4_midgame.txt", text)
    assert "(" not in board.render(mark_last=False)


def test_picture_3x3_won(golden):
    board = HexBoard.from_moves("b2 a1 b1 c1 b3", 3)
    text = board.render()
    golden("hex_3x3_won.txt", text)
    assert "(b)" in text and "W" in text


def test_picture_7x7_after_swap(golden):
    board = HexBoard.from_moves("c2 swap", 7, swap=True)
    text = board.render()
    assert "(W)" in text and "B" not in text      # the mark sits on the mirrored stone, b3
    golden("hex_7x7_swap.txt", text)


def test_picture_3x5(golden):
    board = HexBoard.from_moves("b1 a3 b2 c5", 3, 5)
    golden("hex_3x5.txt", board.render())


def test_picture_3x3_won_color(golden):
    board = HexBoard.from_moves("b2 a1 b1 c1 b3", 3)
    text = board.render(color=True)
    assert "\x1b[" in text
    golden("hex_3x3_won_color.txt", text)


def test_str_is_the_plain_picture():
    board = HexBoard.from_moves("a1", 2)
    assert str(board) == board.render() and "\x1b" not in str(board)
