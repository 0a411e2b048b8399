"""The kernel's Connect Four playouts play exactly the games of a plain playout written from
their rules: on random positions of random boards 4-12 x 4-12, with and without a no-go cell,
in both layouts (one word, line words), for each playout kind, the same random stream gives
the same winner, length, first stone per column and random draws used.

The plain playout here scans the cells for every check (would this stone make four?), keeps
the open columns in a list that loses a full column by swapping in the last one, and draws
the random numbers as the kernel does (32 bits a move, two moves a 64-bit draw): the
kernel's bookkeeping (masks, flags refreshed near the stone only, threat cells of one side a
move) must change nothing of that."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from boardai.games import kernel as K
from boardai.games.connect4.kernel import fits_one_word, new_c4_state
from boardai.games.connect4.wide import LATE_EMPTY, new_wide_state
from boardai.games.layout import DRAW, new_rng, rng_next

# the kernel's playout policies: (policy number, tactics, safe level on line-word boards; -1:
# "late", safe from more than LATE_EMPTY empty cells and tactical from fewer)
POLICIES = ((0, False, 0), (1, True, 0), (3, True, 1), (5, True, 2), (19, True, -1),
            (35, True, -2))       # -2: "mix", one random bit: tactical if set, else safe


class Grid:
    """A Connect Four position as plain cells: 0 empty, 1 Black, 2 White, 3 blocked."""

    def __init__(self, w, h, blocked, moves):
        self.w, self.h = w, h
        self.cells = [[0] * h for _ in range(w)]
        for c, r in blocked:
            self.cells[c][r] = 3
        self.top = [self.free_from(c, 0) for c in range(w)]
        self.ply = 0
        self.winner = None
        for m in moves:
            self.drop(m)

    def free_from(self, c, r):
        while r < self.h and self.cells[c][r] == 3:
            r += 1
        return r

    def fours(self, colour, c, r):
        """Would a stone of ``colour`` on (c, r) make four?"""
        cells, w, h = self.cells, self.w, self.h
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while True:
                    x, y = c + sign * k * dc, r + sign * k * dr
                    if not (0 <= x < w and 0 <= y < h and cells[x][y] == colour + 1):
                        break
                    run += 1
                    k += 1
            if run >= 4:
                return True
        return False

    def drop(self, c):
        colour = self.ply & 1
        r = self.top[c]
        if self.fours(colour, c, r):
            self.winner = colour
        self.cells[c][r] = colour + 1
        self.top[c] = self.free_from(c, r + 1)
        self.ply += 1
        return r

    def free(self):
        return sum(row.count(0) for row in self.cells)


def plain_playout(grid, rng, tactics, safe, owner):
    """The playout's rules on ``grid`` (changed): returns (winner, length) as the kernel's."""
    played = 1
    w, h = grid.w, grid.h
    mover = grid.ply & 1
    cols = [c for c in range(w) if grid.top[c] < h]
    for c in range(w):
        owner[c] = -1
    left = grid.free()
    bits = have = 0

    def above(colour, c):          # colour makes four on the next playable cell above the landing one
        up = grid.free_from(c, grid.top[c] + 1)
        return up < h and grid.fours(colour, c, up)

    while True:
        idx = None
        if tactics:
            if any(grid.fours(mover, c, grid.top[c]) for c in cols):
                return mover, played + 1
            threats = [i for i, c in enumerate(cols) if grid.fours(1 - mover, c, grid.top[c])]
            if len(threats) > 1:
                return 1 - mover, played + 2
            if threats:
                idx = threats[0]
        if idx is None:
            if have == 0:
                bits = int(rng_next(rng))
                have = 2
            level = safe
            good = []
            while level > 0:
                good = [i for i, c in enumerate(cols)
                        if not above(1 - mover, c) and (level < 2 or not above(mover, c))]
                if good:
                    break
                level -= 1
            if level == 0:
                good = list(range(len(cols)))
            j = ((bits & 0xFFFFFFFF) * len(good)) >> 32
            bits >>= 32
            have -= 1
            idx = good[j]
        c = cols[idx]
        r = grid.top[c]
        win = grid.fours(mover, c, r)
        grid.cells[c][r] = mover + 1
        played += 1
        if owner[c] < 0:
            owner[c] = mover
        if win and not tactics:
            return mover, played
        left -= 1
        if left == 0:
            return DRAW, played
        grid.top[c] = grid.free_from(c, r + 1)
        if grid.top[c] >= h:
            cols[idx] = cols[-1]
            cols.pop()
        mover = 1 - mover


def kernel_state(w, h, blocked, moves, force_wide):
    """The position in the kernel (line words when forced or past one word), its layout, and
    a playout's work array."""
    wide = force_wide or not fits_one_word(w, h)
    state = new_wide_state(w, h, blocked) if wide else new_c4_state(w, h, blocked)
    for m in moves:
        K.apply_move(state, m)
    return state, wide, np.zeros(len(state) + 64, dtype=np.int64)


@st.composite
def positions(draw):
    """A board 4-12 x 4-12 (at most one no-go cell) and a position on it that is not over."""
    w = draw(st.integers(4, 12))
    h = draw(st.integers(4, 12))
    blocked = ()
    if draw(st.booleans()):
        blocked = ((draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))),)
    grid = Grid(w, h, blocked, ())
    moves = []
    for _ in range(draw(st.integers(0, w * h))):
        open_cols = [c for c in range(w) if grid.top[c] < h]
        if not open_cols:
            break
        c = draw(st.sampled_from(open_cols))
        grid.drop(c)
        if grid.winner is not None or grid.free() == 0:
            break
        moves.append(c)
    return w, h, blocked, moves


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 2**32), st.booleans())
def test_kernel_playouts_play_the_plain_playouts_games(pos, seed, force_wide):
    w, h, blocked, moves = pos
    state, wide, work = kernel_state(w, h, blocked, moves, force_wide)
    before = state.copy()
    empty = w * h - len(blocked) - len(moves)
    for policy, tactics, safe in POLICIES:
        if safe == -1:
            safe = 1 if empty > LATE_EMPTY else 0
        for k in range(3):
            rng = new_rng(seed + k)
            owner = np.zeros(w, dtype=np.int64)
            got = K.playout_policy(state, rng, work, owner, policy, K.NO_TABLE, 0.0, K.NO_FILL)
            plain_rng = new_rng(seed + k)
            plain_owner = [0] * w
            level = safe
            if safe == -2:
                level = 1
                if wide and rng_next(plain_rng) & np.uint64(1):
                    level = 0
            winner, _ = plain_playout(Grid(w, h, blocked, moves), plain_rng, tactics,
                                      level if wide else 0, plain_owner)
            assert got == winner, (w, h, blocked, moves, policy, wide)
            assert owner.tolist() == plain_owner, (w, h, blocked, moves, policy, wide)
            assert rng[0] == plain_rng[0], (w, h, blocked, moves, policy, wide)
            assert np.array_equal(state, before)


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32), st.booleans())
def test_playout_lengths_are_the_plain_playouts(pos, seed, force_wide):
    """The quality playouts' lengths (uniform: the engines' flat Monte Carlo) too."""
    w, h, blocked, moves = pos
    state, _, work = kernel_state(w, h, blocked, moves, force_wide)
    rng = new_rng(seed)
    got = K.playout_quality(state, rng, work)
    plain_rng = new_rng(seed)
    expected = plain_playout(Grid(w, h, blocked, moves), plain_rng, False, 0, [0] * w)
    assert tuple(got) == expected
    assert rng[0] == plain_rng[0]
