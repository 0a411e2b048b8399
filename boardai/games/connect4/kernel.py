"""Connect Four rules as numba functions over the flat state array (see ``games/layout.py``).

This is the *one-word* layout, used whenever W*(H+1) <= 64 (the standard 7×6 included); bigger
boards use the line-word layout of ``wide.py``.  Both take blocked cells (no-go cells):
a blocked cell belongs to nobody, so it breaks every line through it, and a column's next stone
lands on the lowest free cell above the stones and blocked cells under it.

Bitboard layout for a W×H board (here the standard 7×6): one bit per cell, column-major, each
column H+1 bits long so the top bit of every column is an always-empty pad that stops lines from
wrapping into the next column::

      col:  1   2   3   4   5   6   7
            6  13  20  27  34  41  48     <- pad row, always 0
            5  12  19  26  33  40  47     <- top row
            4  11  18  25  32  39  46
            3  10  17  24  31  38  45
            2   9  16  23  30  37  44
            1   8  15  22  29  36  43
            0   7  14  21  28  35  42     <- bottom row

Connect Four data in the state array::

    [HEADER+0]       Black's stones (int64 view of the uint64 bitboard)
    [HEADER+1]       White's stones
    [HEADER+2]       occupied cells (Black | White | blocked)
    [HEADER+3]       constant: the bottom cell of every column
    [HEADER+4]       constant: every playable cell of the board (pads and blocked cells excluded)
    [HEADER+5]       constant: the blocked cells
    [HEADER+6]       constant: the number of playable cells (W*H minus the blocked cells)
    [HEADER+7, +W)   per column, the row its next stone lands on (H when the column is full)
    --- POS_LEN ---
    [HIST, +W*H)     column played at each ply
    [HIST+W*H, +W*H) the last move before each ply (restored by undo)

Because the occupied cells include the blocked ones and the board mask excludes them,
``(occupied + bottom) & board`` is still exactly the cells playable now (the carry runs through
the stones and any blocked cell right above them, and a blocked cell higher up is masked off).

A move is a 0-based column inside (1-based in notation).  Four in a row in any direction wins; a
board without a playable cell left and without four is a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.layout import (
    put_spot,
    new_state_array,
    DRAW, FLAG_C4_LINES, FLAGS, GAME_CONNECT4, HASH, HEADER, HEIGHT, HIST, LAST_MOVE,
    NO_WINNER, PLY, WIDTH, WINNER, rng_next, zobrist_key,
)

STONES = HEADER          # + colour
OCCUPIED = HEADER + 2
BOTTOM = HEADER + 3
BOARD = HEADER + 4
BLOCKED = HEADER + 5
CELLS = HEADER + 6
HEIGHTS = HEADER + 7
BLOCKED_KEY = 100_000      # Zobrist slot offset of a blocked cell (see blocked_key)


def fits_one_word(w: int, h: int) -> bool:
    """True if a W×H board fits this layout (one 64-bit word with a pad row)."""
    return w * (h + 1) <= 64


def c4_state_size(w: int, h: int) -> int:
    return HEIGHTS + w + 2 * w * h


def blocked_key(slot: int) -> int:
    """The Zobrist key of a blocked cell at bit ``slot`` (= col*(H+1)+row in both layouts), so
    two boards that differ only in their blocked cells never share a hash."""
    return int(zobrist_key(GAME_CONNECT4, BLOCKED_KEY + slot, 0))


def first_free_rows(w: int, h: int, blocked) -> list[int]:
    """Per column, the lowest row that is not blocked (H if the whole column is)."""
    rows = []
    for c in range(w):
        r = 0
        while r < h and (c, r) in blocked:
            r += 1
        rows.append(r)
    return rows


def new_c4_state(w: int, h: int, blocked=()) -> np.ndarray:
    """A fresh empty Connect Four position; ``blocked``: (col, row) cells nobody may play."""
    blocked = set(blocked)
    state = new_state_array(c4_state_size(w, h), GAME_CONNECT4, w, h, num_actions=w,
                            pos_len=HEIGHTS + w)
    bottom = sum(1 << (c * (h + 1)) for c in range(w))
    blocked_bits = sum(1 << (c * (h + 1) + r) for c, r in blocked)
    board = (bottom * ((1 << h) - 1)) & ~blocked_bits
    state[BOTTOM], state[BOARD], state[BLOCKED], state[OCCUPIED] = np.array(
        [bottom, board, blocked_bits, blocked_bits], dtype=np.uint64).view(np.int64)
    state[CELLS] = w * h - len(blocked)
    state[HEIGHTS:HEIGHTS + w] = first_free_rows(w, h, blocked)
    key = 0
    for c, r in blocked:
        key ^= blocked_key(c * (h + 1) + r)
    state[HASH] = key
    if state[CELLS] == 0:
        state[WINNER] = DRAW
    return state


@njit(cache=True, nogil=True)
def c4_cell(state, col, row):
    """0 empty, 1 Black, 2 White, 3 blocked."""
    bit = np.uint64(1) << np.uint64(col * (state[HEIGHT] + 1) + row)
    if np.uint64(state[STONES]) & bit:
        return 1
    if np.uint64(state[STONES + 1]) & bit:
        return 2
    if np.uint64(state[BLOCKED]) & bit:
        return 3
    return 0


@njit(cache=True, nogil=True)
def has_four(b, h, w):
    """True if bitboard ``b`` (uint64) holds four in a row on a board ``w`` wide, ``h`` high.

    Lines across columns need w >= 4, which also keeps every shift under 64 (w*(h+1) <= 64
    gives h <= 15); tall narrow boards only have vertical lines.
    """
    one = np.uint64(1)
    m = b & (b >> one)
    if m & (m >> np.uint64(2)):
        return True
    if w < 4:
        return False
    for s in (np.uint64(h), np.uint64(h) + one, np.uint64(h) + np.uint64(2)):
        m = b & (b >> s)
        if m & (m >> (s + s)):
            return True
    return False


@njit(cache=True, nogil=True)
def c4_is_legal(state, move):
    if state[WINNER] != NO_WINNER:
        return False
    if move < 0 or move >= state[WIDTH]:
        return False
    return state[HEIGHTS + move] < state[HEIGHT]


@njit(cache=True, nogil=True)
def c4_legal_moves(state, out):
    """Write the legal columns into ``out`` and return how many."""
    if state[WINNER] != NO_WINNER:
        return 0
    k = 0
    h = state[HEIGHT]
    for c in range(state[WIDTH]):
        if state[HEIGHTS + c] < h:
            out[k] = c
            k += 1
    return k


@njit(cache=True, nogil=True)
def c4_wins_if_played(state, move, colour):
    """True if a ``colour`` stone dropped in column ``move`` now would make four in a row."""
    h = state[HEIGHT]
    height = state[HEIGHTS + move]
    if height >= h:
        return False
    bit = np.uint64(1) << np.uint64(move * (h + 1) + height)
    return has_four(np.uint64(state[STONES + colour]) | bit, h, state[WIDTH])


@njit(cache=True, nogil=True)
def _threat_cells(p, h, w):
    """Cells (empty or not) that would complete a line of four for the stones ``p`` (uint64).

    Bit-parallel, as in Pascal Pons' solver; lines across columns only when w >= 4 (see has_four).
    """
    one = np.uint64(1)
    r = (p << one) & (p << np.uint64(2)) & (p << np.uint64(3))
    if w < 4:
        return r
    stride = np.uint64(h + 1)
    for s in (stride, stride - one, stride + one):
        s2 = s + s
        s3 = s2 + s
        pair = (p << s) & (p << s2)
        r |= pair & (p << s3)
        r |= pair & (p >> s)
        pair = (p >> s) & (p >> s2)
        r |= pair & (p << s)
        r |= pair & (p >> s3)
    return r


@njit(cache=True, nogil=True)
def c4_winning_moves(state, colour, out):
    """Columns where a ``colour`` stone dropped now makes four; written to ``out``, counted.

    Bit-parallel (as in Pascal Pons' solver): the cells that would complete a line of the
    colour's stones, intersected with the cells playable now.
    """
    w = state[WIDTH]
    h = state[HEIGHT]
    p = np.uint64(state[STONES + colour])
    occupied = np.uint64(state[OCCUPIED])
    one = np.uint64(1)
    stride = np.uint64(h + 1)
    col_bits = (one << np.uint64(h)) - one
    bottom = np.uint64(state[BOTTOM])
    board = np.uint64(state[BOARD])
    r = _threat_cells(p, h, w)
    playable = (occupied + bottom) & board
    wins = r & playable
    k = 0
    if wins == 0:
        return 0
    for c in range(w):
        if wins & (col_bits << (np.uint64(c) * stride)):
            out[k] = c
            k += 1
    return k


@njit(cache=True, nogil=True)
def c4_apply(state, move):
    """Drop a stone of the side to move in column ``move`` (assumed legal)."""
    h = state[HEIGHT]
    ply = state[PLY]
    colour = ply & 1
    slot = move * (h + 1) + state[HEIGHTS + move]
    bit = np.uint64(1) << np.uint64(slot)
    mine = np.uint64(state[STONES + colour]) | bit
    state[STONES + colour] = np.int64(mine)
    state[OCCUPIED] = np.int64(np.uint64(state[OCCUPIED]) | bit)
    row = state[HEIGHTS + move] + 1
    blocked = np.uint64(state[BLOCKED])
    if blocked:
        base = move * (h + 1)
        while row < h and (blocked >> np.uint64(base + row)) & np.uint64(1):
            row += 1
    state[HEIGHTS + move] = row
    state[HASH] ^= zobrist_key(GAME_CONNECT4, slot, colour) ^ zobrist_key(GAME_CONNECT4, 0, 2)
    if has_four(mine, h, state[WIDTH]):
        state[WINNER] = colour
    elif ply + 1 == state[CELLS]:
        state[WINNER] = DRAW
    state[state[HIST] + ply] = move
    state[state[HIST] + state[WIDTH] * h + ply] = state[LAST_MOVE]
    state[PLY] = ply + 1
    state[LAST_MOVE] = move


@njit(cache=True, nogil=True)
def c4_undo(state):
    """Take back the last move; returns its column."""
    h = state[HEIGHT]
    ply = state[PLY] - 1
    colour = ply & 1
    move = state[state[HIST] + ply]
    row = state[HEIGHTS + move] - 1
    blocked = np.uint64(state[BLOCKED])
    if blocked:
        while (blocked >> np.uint64(move * (h + 1) + row)) & np.uint64(1):
            row -= 1
    state[HEIGHTS + move] = row
    slot = move * (h + 1) + row
    bit = np.uint64(1) << np.uint64(slot)
    state[STONES + colour] = np.int64(np.uint64(state[STONES + colour]) & ~bit)
    state[OCCUPIED] = np.int64(np.uint64(state[OCCUPIED]) & ~bit)
    state[HASH] ^= zobrist_key(GAME_CONNECT4, slot, colour) ^ zobrist_key(GAME_CONNECT4, 0, 2)
    state[WINNER] = NO_WINNER
    state[PLY] = ply
    state[LAST_MOVE] = state[state[HIST] + state[WIDTH] * h + ply]
    return move


@njit(cache=True, nogil=True)
def c4_playout(state, rng, work, owner):
    """Uniformly random moves until the game ends; returns the winner, ``state`` unchanged.

    Works on local bitboards: the open columns are kept in a small list (a full column is
    swapped out), a new stone's bit is ``(occupied + bottom) & column``, and one 64-bit random
    draw serves two moves.  If ``owner`` has length W it receives, per column, the colour of the
    first stone the playout dropped there (-1 if none): the AMAF statistic for a column game.
    """
    return _c4_playout(state, rng, work, owner, False)[0]


@njit(cache=True, nogil=True)
def c4_playout_tactical(state, rng, work, owner):
    """Random playout with tactics: a side that can make four does, and a side facing one threat
    blocks it (two threats: it has lost).  Same contract as ``c4_playout``.  Slower per move,
    but its results look much more like real play, which is what MCTS needs in this game.
    """
    return _c4_playout(state, rng, work, owner, True)[0]


@njit(cache=True, nogil=True)
def _c4_playout(state, rng, work, owner, tactics):
    """The one playout loop: returns (winner, length), ``length`` = 1 + the moves it played."""
    played = np.int64(1)
    if state[WINNER] != NO_WINNER:
        return state[WINNER], played
    w = state[WIDTH]
    h = state[HEIGHT]
    stride = np.uint64(h + 1)
    one = np.uint64(1)
    col_bits = (one << np.uint64(h)) - one
    bottom = np.uint64(state[BOTTOM])
    board = np.uint64(state[BOARD])
    mover = state[PLY] & 1
    mine = np.uint64(state[STONES + mover])
    theirs = np.uint64(state[STONES + 1 - mover])
    occupied = np.uint64(state[OCCUPIED])
    track = owner.shape[0] >= w
    if track:
        for c in range(w):
            owner[c] = -1
    k = 0
    for c in range(w):
        if state[HEIGHTS + c] < h:
            work[k] = c
            k += 1
    left = state[CELLS] - state[PLY]
    bits = np.uint64(0)
    have = 0
    mine_cells = theirs_cells = np.uint64(0)      # with tactics: the cells where each makes four
    if tactics:
        mine_cells = _threat_cells(mine, h, w)
        theirs_cells = _threat_cells(theirs, h, w)
    while True:
        idx = -1
        if tactics:
            playable = (occupied + bottom) & board
            if mine_cells & playable:
                return mover, played + 1              # takes the win
            forced = theirs_cells & playable
            if forced:
                if forced & (forced - one):
                    return 1 - mover, played + 2      # two threats: lost
                c = 0
                while not (forced & (col_bits << (np.uint64(c) * stride))):
                    c += 1
                idx = 0
                while work[idx] != c:
                    idx += 1
        if idx < 0:
            if have == 0:
                bits = rng_next(rng)
                have = 2
            idx = np.int64(((bits & np.uint64(0xFFFFFFFF)) * np.uint64(k)) >> np.uint64(32))
            bits >>= np.uint64(32)
            have -= 1
        c = work[idx]
        shift = np.uint64(c) * stride
        column = col_bits << shift
        bit = (occupied + (one << shift)) & column & board
        mine |= bit
        occupied |= bit
        played += 1
        if track and owner[c] < 0:
            owner[c] = mover
        if not tactics and has_four(mine, h, w):
            return mover, played
        left -= 1
        if left == 0:
            return DRAW, played
        if (occupied & column) == column:
            k -= 1
            work[idx] = work[k]
        if tactics:                                   # only the mover's cells changed
            mine_cells, theirs_cells = theirs_cells, _threat_cells(mine, h, w)
        mine, theirs = theirs, mine
        mover = 1 - mover


# --- hooks for flat Monte Carlo and brute force (engines/rollout/kernel.py) -------------------


@njit(cache=True, nogil=True)
def c4_playout_quality(state, rng, work):
    """Random playout scored for the quality score: returns (winner, length).

    ``length`` counts the moves from the position *before* ``state`` to the end of the game:
    1 + the moves this playout plays (the engines call it right after playing a candidate, so
    a candidate that wins at once has length 1 and quality 1/1).  Same law as ``c4_playout``.
    """
    return _c4_playout(state, rng, work, work[:0], False)


@njit(cache=True, nogil=True)
def c4_free_cells(state):
    """Number of empty playable cells (the most moves the game can still last)."""
    return state[CELLS] - state[PLY]


@njit(cache=True, nogil=True)
def c4_symmetric(state):
    """True if the position is its own left-right mirror image (column c <-> W-1-c)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    mask = (np.uint64(1) << np.uint64(h)) - np.uint64(1)
    for colour in range(3):
        b = np.uint64(state[STONES + colour]) if colour < 2 else np.uint64(state[BLOCKED])
        for c in range(w // 2):
            lo = (b >> np.uint64(c * (h + 1))) & mask
            hi = (b >> np.uint64((w - 1 - c) * (h + 1))) & mask
            if lo != hi:
                return False
    return True


@njit(cache=True, nogil=True)
def c4_symmetric_move(state, move):
    """Image of column ``move`` under the left-right mirror."""
    return state[WIDTH] - 1 - move


@njit(cache=True, nogil=True)
def c4_encode_planes(state, out):
    """The network's input planes (``games/kernel.py: encode_planes``) for both layouts:
    ``out[p, y, x]`` for column x and y = H-1-row (the top row as drawn first): 0 the side to
    move's stones, 1 the opponent's, 2 empty cells that are not blocked, 3 blocked cells, 4 ones,
    5 swap (none).

    The line-word layout (``wide.py``, flag FLAG_C4_LINES) is read straight from its row words:
    row r of colour k (0 Black, 1 White, 2 blocked) is word ``HEADER + k*L + r``, bit c, with
    ``L = H + W + 2*(W+H-1)`` line words per colour (``wide.lines``); importing ``wide.py``
    here would close an import circle."""
    w = state[WIDTH]
    h = state[HEIGHT]
    mine = (state[PLY] & 1) + 1
    wide = (state[FLAGS] & FLAG_C4_LINES) != 0
    n_lines = h + w + 2 * (w + h - 1)
    out[:] = 0.0
    for x in range(w):
        for row in range(h):
            y = h - 1 - row
            if wide:
                v = 0
                for k in range(3):
                    if (state[HEADER + k * n_lines + row] >> x) & 1:
                        v = k + 1
                        break
            else:
                v = c4_cell(state, x, row)
            put_spot(out, y, x, v, mine)
