"""Connect Four on boards too big for one 64-bit word (W*(H+1) > 64, up to 32×32): line words.

Every line of the board (row, column, diagonal, anti-diagonal) is one small word whose bits are
the line's cells in order, kept per colour (and once for the blocked cells).  Dropping a stone sets
one bit in each of the four lines through its cell, and the move wins exactly when one of those
four words holds four bits in a row -- four shifts and ands per line, no loop over the board and
no word boundaries to cross.  Blocked cells are in no colour's words, so they break every line
through them.  ``boardai bench c4wide`` compares this with a plain array board.

Line words of a W×H board (``lines(w, h)`` of them per colour), for the cell (col c, row r)::

    row r            word r                     bit c
    column c         word H + c                 bit r
    diagonal  (/)    word H + W + (c - r + H - 1)       bit r
    anti-diag (\\)    word H + W + (W + H - 1) + (c + r)  bit r

State (after the common header of ``games/layout.py``)::

    [HEADER, +L)          Black's line words          (L = lines(w, h))
    [HEADER+L, +L)        White's line words
    [HEADER+2L, +L)       the blocked cells' line words (constant)
    [HEADER+3L, +W)       per column, the row its next stone lands on (H when full)
    [HEADER+3L+W, +W)     per column, its blocked rows as bits (constant)
    [HEADER+3L+2W]        the number of playable cells (constant)
    --- POS_LEN ---
    [HIST, +W*H)          column played at each ply
    [HIST+W*H, +W*H)      the last move before each ply (restored by undo)

Hashes use the one-word layout's cell numbering (``col*(H+1)+row``), so both layouts hash alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardai.games.connect4.parity import UNKNOWN, free_cells_of, zugzwang_rule
from boardai.games.layout import (
    DRAW, FLAG_C4_LINES, GAME_CONNECT4, HASH, HEADER, HEIGHT, HIST, LAST_MOVE, NO_WINNER, PLY,
    WIDTH, WINNER, new_state_array, rng_next, zobrist_key,
)

MAX_SIDE = 32
PARITY_FREE = 24      # the parity playouts' zugzwang rule: at most this many free cells
LATE_EMPTY = 50       # the "late" switch: playouts from at most this many empty cells are
                      # tactical only (docs/experiments.md, "The safe playouts in the late game")


def lines(w: int, h: int) -> int:
    """Line words per colour on a W×H board."""
    return h + w + 2 * (w + h - 1)


def tops_slot(w: int, h: int) -> int:
    """Slot of column 0's landing row."""
    return HEADER + 3 * lines(w, h)


def wide_state_size(w: int, h: int) -> int:
    return HEADER + 3 * lines(w, h) + 2 * w + 1 + 2 * w * h


def new_wide_state(w: int, h: int, blocked=()) -> np.ndarray:
    """A fresh empty position in the line-word layout (blocked cells set, hash includes them)."""
    from boardai.games.connect4.kernel import blocked_key, first_free_rows

    blocked = set(blocked)
    n = lines(w, h)
    pos_len = HEADER + 3 * n + 2 * w + 1
    state = new_state_array(wide_state_size(w, h), GAME_CONNECT4, w, h, num_actions=w,
                            pos_len=pos_len, flags=FLAG_C4_LINES)
    key = 0
    for c, r in blocked:
        _set_cell(state, HEADER + 2 * n, w, h, c, r)
        state[HEADER + 3 * n + w + c] |= 1 << r
        key ^= blocked_key(c * (h + 1) + r)
    state[HEADER + 3 * n:HEADER + 3 * n + w] = first_free_rows(w, h, blocked)
    state[HEADER + 3 * n + 2 * w] = w * h - len(blocked)
    state[HASH] = key
    if w * h == len(blocked):
        state[WINNER] = DRAW
    return state


# --- offsets ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _nlines(state):
    return lines_jit(state[WIDTH], state[HEIGHT])


@njit(cache=True, nogil=True)
def lines_jit(w, h):
    return h + w + 2 * (w + h - 1)


@njit(cache=True, nogil=True)
def tops_at(state):
    """Slot of column 0's landing row."""
    return HEADER + 3 * _nlines(state)


@njit(cache=True, nogil=True)
def cells_at(state):
    return HEADER + 3 * _nlines(state) + 2 * state[WIDTH]


@njit(cache=True, nogil=True)
def _four(m):
    x = m & (m >> 1)
    return (x & (x >> 2)) != 0


@njit(cache=True, nogil=True)
def _set_cell(words, base, w, h, c, r):
    """Set (col c, row r) in the line words starting at ``words[base]``; True if that makes four."""
    bit_c = np.int64(1) << c
    bit_r = np.int64(1) << r
    i = base + r
    words[i] |= bit_c
    win = _four(words[i])
    i = base + h + c
    words[i] |= bit_r
    win |= _four(words[i])
    i = base + h + w + c - r + h - 1
    words[i] |= bit_r
    win |= _four(words[i])
    i = base + h + w + w + h - 1 + c + r
    words[i] |= bit_r
    win |= _four(words[i])
    return win


@njit(cache=True, nogil=True)
def _put_cell(words, base, w, h, c, r):
    """Set (col c, row r) in the line words starting at ``words[base]`` (no test for four)."""
    bit_c = np.int64(1) << c
    bit_r = np.int64(1) << r
    words[base + r] |= bit_c
    words[base + h + c] |= bit_r
    words[base + h + w + c - r + h - 1] |= bit_r
    words[base + h + w + w + h - 1 + c + r] |= bit_r


@njit(cache=True, nogil=True)
def _would_four(words, base, w, h, c, r):
    """True if a stone on (c, r) added to the line words at ``base`` would make four."""
    bit_c = np.int64(1) << c
    bit_r = np.int64(1) << r
    if _four(words[base + r] | bit_c):
        return True
    if _four(words[base + h + c] | bit_r):
        return True
    if _four(words[base + h + w + c - r + h - 1] | bit_r):
        return True
    return _four(words[base + h + w + w + h - 1 + c + r] | bit_r)


@njit(cache=True, nogil=True)
def _clear_cell(words, base, w, h, c, r):
    bit_c = ~(np.int64(1) << c)
    bit_r = ~(np.int64(1) << r)
    words[base + r] &= bit_c
    words[base + h + c] &= bit_r
    words[base + h + w + c - r + h - 1] &= bit_r
    words[base + h + w + w + h - 1 + c + r] &= bit_r


@njit(cache=True, nogil=True)
def _next_row(state, blocked_at, c, row, h):
    """The first row at or above ``row`` in column c that is not blocked (h if none)."""
    rows = state[blocked_at + c]
    while row < h and (rows >> row) & 1:
        row += 1
    return row


# --- the kernel contract ----------------------------------------------------------------------


@njit(cache=True, nogil=True)
def wide_cell(state, col, row):
    """0 empty, 1 Black, 2 White, 3 blocked."""
    n = _nlines(state)
    for k in range(3):
        if (state[HEADER + k * n + row] >> col) & 1:
            return k + 1
    return 0


@njit(cache=True, nogil=True)
def wide_is_legal(state, move):
    if state[WINNER] != NO_WINNER or move < 0 or move >= state[WIDTH]:
        return False
    return state[tops_at(state) + move] < state[HEIGHT]


@njit(cache=True, nogil=True)
def wide_legal_moves(state, out):
    if state[WINNER] != NO_WINNER:
        return 0
    tops = tops_at(state)
    h = state[HEIGHT]
    k = 0
    for c in range(state[WIDTH]):
        if state[tops + c] < h:
            out[k] = c
            k += 1
    return k


@njit(cache=True, nogil=True)
def wide_apply(state, move):
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    ply = state[PLY]
    colour = ply & 1
    r = state[tops + move]
    win = _set_cell(state, HEADER + colour * n, w, h, move, r)
    state[tops + move] = _next_row(state, tops + w, move, r + 1, h)
    slot = move * (h + 1) + r
    state[HASH] ^= zobrist_key(GAME_CONNECT4, slot, colour) ^ zobrist_key(GAME_CONNECT4, 0, 2)
    if win:
        state[WINNER] = colour
    elif ply + 1 == state[tops + 2 * w]:
        state[WINNER] = DRAW
    state[state[HIST] + ply] = move
    state[state[HIST] + w * h + ply] = state[LAST_MOVE]
    state[PLY] = ply + 1
    state[LAST_MOVE] = move


@njit(cache=True, nogil=True)
def wide_undo(state):
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    ply = state[PLY] - 1
    colour = ply & 1
    move = state[state[HIST] + ply]
    r = state[tops + move] - 1
    while (state[tops + w + move] >> r) & 1:
        r -= 1
    state[tops + move] = r
    _clear_cell(state, HEADER + colour * n, w, h, move, r)
    slot = move * (h + 1) + r
    state[HASH] ^= zobrist_key(GAME_CONNECT4, slot, colour) ^ zobrist_key(GAME_CONNECT4, 0, 2)
    state[WINNER] = NO_WINNER
    state[PLY] = ply
    state[LAST_MOVE] = state[state[HIST] + w * h + ply]
    return move


@njit(cache=True, nogil=True)
def wide_wins_if_played(state, move, colour):
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    r = state[HEADER + 3 * n + move]
    if r >= h:
        return False
    return _would_four(state, HEADER + colour * n, w, h, move, r)


@njit(cache=True, nogil=True)
def wide_winning_moves(state, colour, out):
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    base = HEADER + colour * n
    k = 0
    for c in range(w):
        r = state[tops + c]
        if r < h and _would_four(state, base, w, h, c, r):
            out[k] = c
            k += 1
    return k


@njit(cache=True, nogil=True)
def wide_free_cells(state):
    return state[cells_at(state)] - state[PLY]


@njit(cache=True, nogil=True)
def wide_symmetric(state):
    """The position (stones and blocked cells) is its own left-right mirror image."""
    w = state[WIDTH]
    n = _nlines(state)
    for k in range(3):
        for r in range(state[HEIGHT]):
            row = state[HEADER + k * n + r]
            for c in range(w // 2):
                if ((row >> c) & 1) != ((row >> (w - 1 - c)) & 1):
                    return False
    return True


@njit(cache=True, nogil=True)
def _refresh(work, n, w, h, tops, masks, c, colour, safe):
    """Refresh bit c of ``colour``'s one-move-win mask (``work[masks + colour]``: its stone on
    column c's landing cell makes four); with ``safe`` also of its mask of the cells above
    (``work[masks + 2 + colour]``: it would make four on the next playable cell of column c,
    past a blocked one).  A full column has neither."""
    bit = np.int64(1) << c
    base = HEADER + colour * n
    r = work[tops + c]
    if r < h and _would_four(work, base, w, h, c, r):
        work[masks + colour] |= bit
    else:
        work[masks + colour] &= ~bit
    if safe:
        up = _next_row(work, tops + w, c, r + 1, h) if r < h else h
        if up < h and _would_four(work, base, w, h, c, up):
            work[masks + 2 + colour] |= bit
        else:
            work[masks + 2 + colour] &= ~bit


@njit(cache=True, nogil=True)
def _near_threat(m, s):
    """True if line word ``m`` has a bit within three of bit ``s`` that would complete four
    bits in a row with three of ``m``'s (set or not, on the board or past its edge)."""
    t = ((m << 1) & (m << 2) & (m << 3)) | ((m >> 1) & (m >> 2) & (m >> 3)) \
        | ((m << 1) & (m << 2) & (m >> 1)) | ((m << 1) & (m >> 1) & (m >> 2))
    return (t & ((np.int64(0x7F) << s) >> 3)) != 0


@njit(cache=True, nogil=True)
def _bits(m):
    """The number of set bits of ``m`` (a column mask: at most 32 bits)."""
    m = m - ((m >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F
    return ((m * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, nogil=True)
def wide_threat_under(state, colour, out):
    """The open columns whose stone would let ``colour`` make four on the cell right above it
    (the next playable cell of that column, past a blocked one): playing there hands
    ``colour`` an immediate win.  Written to ``out``; returns how many."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    base = HEADER + colour * n
    k = 0
    for c in range(w):
        r = state[tops + c]
        if r >= h:
            continue
        up = _next_row(state, tops + w, c, r + 1, h)
        if up < h and _would_four(state, base, w, h, c, up):
            out[k] = c
            k += 1
    return k


@njit(cache=True, nogil=True)
def threat_rows(state, colour, rows):
    """Per column ``c``, the rows of ``colour``'s threats as bits in ``rows[c]`` (the empty,
    unblocked cells at or above the landing cell where a stone of ``colour`` makes four).
    Returns how many threats there are."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    base = HEADER + colour * n
    k = 0
    for c in range(w):
        bits = np.int64(0)
        r = state[tops + c]
        while r < h:
            if _would_four(state, base, w, h, c, r):
                bits |= np.int64(1) << r
                k += 1
            r = _next_row(state, tops + w, c, r + 1, h)
        rows[c] = bits
    return k


@njit(cache=True, nogil=True)
def quiet(state):
    """Neither side makes four with its next stone (no landing cell is a threat)."""
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    for c in range(w):
        r = state[tops + c]
        if r < h and (_would_four(state, HEADER, w, h, c, r)
                      or _would_four(state, HEADER + n, w, h, c, r)):
            return False
    return True


@njit(cache=True, nogil=True)
def zugzwang(state, max_free):
    """Who wins a quiet position by zugzwang (``DRAW`` for a draw), or ``UNKNOWN`` when the
    position is not quiet or has more than ``max_free`` free cells: ``parity.zugzwang_rule``
    on its threats (``threats.py`` says what the rule assumes)."""
    if state[WINNER] != NO_WINNER:
        return state[WINNER]
    if not quiet(state):
        return UNKNOWN
    w = state[WIDTH]
    h = state[HEIGHT]
    top, t0, t1, blocked = rule_inputs(state)
    if free_cells_of(top, t0, t1, blocked, w, h) > max_free:
        return UNKNOWN
    return zugzwang_rule(top, t0, t1, blocked, w, h, state[PLY] & 1)


@njit(cache=True, nogil=True)
def rule_inputs(state):
    """What the zugzwang rule (``parity.py``) reads of a position: each column's next free row,
    each side's threat rows (``threat_rows``) and each column's no-go row."""
    w = state[WIDTH]
    h = state[HEIGHT]
    tops = HEADER + 3 * lines_jit(w, h)
    t0 = np.empty(w, dtype=np.int64)
    t1 = np.empty(w, dtype=np.int64)
    threat_rows(state, 0, t0)
    threat_rows(state, 1, t1)
    top = np.empty(w, dtype=np.int64)
    blocked = np.empty(w, dtype=np.int64)
    for c in range(w):
        top[c] = state[tops + c]
        blocked[c] = state[tops + w + c]
    return top, t0, t1, blocked


@njit(cache=True, nogil=True)
def _wide_playout(state, rng, work, owner, tactics, safe=0, parity=0):
    """The playout loop on a copy of the position in ``work``: returns (winner, length) with
    ``length`` = 1 + the moves it played (as the one-word layout's ``_c4_playout``).

    With ``tactics`` each colour has a mask of the open columns where its stone would make
    four ("Black / White wins by playing here"); a stone can only set the mover's bits, only
    in the columns within three of it whose landing cell is within three rows of it, and
    changes the other side's only in the column played, so only those are checked again
    after a move (the other side's new landing bit there is its old bit of the cell above).  With
    ``safe`` too (Allis's first rule of threats) a side neither winning nor blocking picks at
    random among the columns that do not put its stone right under a cell where the opponent
    would make four (a move that hands the opponent the win), and among all open columns only
    when every one does; two more masks say so, kept as the first two.  ``safe`` = 2 also
    keeps off the cells right under its own threats (a stone there lets the opponent take the
    threat's cell), where it can.  The open columns are also kept as a list (a full column
    swapped out for the last one): the random draw picks the j-th column of the list among
    those allowed.  With ``parity`` > 0 (and ``tactics``) the playout asks the zugzwang rule
    (``threats.zugzwang``) at its start and every 8 moves: once the position is quiet with at
    most ``parity`` free cells, the rule's answer ends it."""
    played = np.int64(1)
    if state[WINNER] != NO_WINNER:
        return state[WINNER], played
    w = state[WIDTH]
    h = state[HEIGHT]
    n = lines_jit(w, h)
    tops = HEADER + 3 * n
    end = tops + 2 * w                      # work[end, end+W): the open columns
    masks = end + w                         # work[masks, +5): wins, cells above, open columns
    for i in range(end):
        work[i] = state[i]
    track = owner.shape[0] >= w
    if track:
        for c in range(w):
            owner[c] = -1
    for i in range(5):
        work[masks + i] = 0
    k = 0
    for c in range(w):
        if work[tops + c] < h:
            work[end + k] = c
            work[masks + 4] |= np.int64(1) << c
            k += 1
        if tactics:
            _refresh(work, n, w, h, tops, masks, c, 0, safe > 0)
            _refresh(work, n, w, h, tops, masks, c, 1, safe > 0)
    left = state[tops + 2 * w] - state[PLY]
    mover = state[PLY] & 1
    bits = np.uint64(0)
    have = 0
    while True:
        idx = -1
        if parity > 0 and (played & 7) == 1:
            work[PLY] = state[PLY] + played - 1
            verdict = zugzwang(work, parity)
            if verdict >= 0:
                return verdict, played
        if tactics:
            if work[masks + mover]:
                return mover, played + 1                # takes the win
            threats = work[masks + 1 - mover]
            if threats:
                if threats & (threats - 1):
                    return 1 - mover, played + 2        # two threats: lost
                idx = 0                                 # the block
                while not (threats >> work[end + idx]) & 1:
                    idx += 1
        if idx < 0:
            if have == 0:
                bits = rng_next(rng)
                have = 2
            good = k
            allowed = work[masks + 4]
            if safe:
                allowed &= ~work[masks + 3 - mover]     # off the opponent's cells above
                if safe > 1 and allowed & ~work[masks + 2 + mover]:
                    allowed &= ~work[masks + 2 + mover]     # and off its own where it can
                good = _bits(allowed)
                if good == 0:
                    good = k
                    allowed = work[masks + 4]
            j = np.int64(((bits & np.uint64(0xFFFFFFFF)) * np.uint64(good)) >> np.uint64(32))
            bits >>= np.uint64(32)
            have -= 1
            if good == k:
                idx = j
            else:
                idx = 0
                while True:
                    if (allowed >> work[end + idx]) & 1:
                        if j == 0:
                            break
                        j -= 1
                    idx += 1
        c = work[end + idx]
        r = work[tops + c]
        played += 1
        if track and owner[c] < 0:
            owner[c] = mover
        if not tactics:
            if _set_cell(work, HEADER + mover * n, w, h, c, r):
                return mover, played
        else:
            _put_cell(work, HEADER + mover * n, w, h, c, r)
        left -= 1
        if left == 0:
            return DRAW, played
        top = _next_row(work, tops + w, c, r + 1, h)
        work[tops + c] = top
        if top >= h:
            k -= 1
            work[end + idx] = work[end + k]
            work[masks + 4] &= ~(np.int64(1) << c)
        if tactics:
            _refresh(work, n, w, h, tops, masks, c, mover, safe > 0)
            bit = np.int64(1) << c
            if safe:
                # the other side's words did not change, and its cell above was the new
                # landing cell: that bit is its new win bit
                if top < h and work[masks + 3 - mover] & bit:
                    work[masks + 1 - mover] |= bit
                else:
                    work[masks + 1 - mover] &= ~bit
                up = _next_row(work, tops + w, c, top + 1, h) if top < h else h
                if up < h and _would_four(work, HEADER + (1 - mover) * n, w, h, c, up):
                    work[masks + 3 - mover] |= bit
                else:
                    work[masks + 3 - mover] &= ~bit
            else:
                _refresh(work, n, w, h, tops, masks, c, 1 - mover, safe > 0)
            # the mover's stone only adds to its own lines: a bit already set stays set, and
            # a bit of another column can only be set where the stone's row or diagonals
            # hold three of four around an empty cell near it
            base = HEADER + mover * n
            if _near_threat(work[base + r], c) \
                    or _near_threat(work[base + h + w + c - r + h - 1], r) \
                    or _near_threat(work[base + h + w + w + h - 1 + c + r], r):
                wins = work[masks + mover]
                cells_above = work[masks + 2 + mover]
                for cc in range(max(0, c - 3), min(w, c + 4)):
                    t = work[tops + cc]
                    if cc == c or t >= h:
                        continue
                    bit = np.int64(1) << cc
                    if not wins & bit and r - 3 <= t <= r + 3 \
                            and _would_four(work, base, w, h, cc, t):
                        wins |= bit
                    if safe and not cells_above & bit:
                        up = _next_row(work, tops + w, cc, t + 1, h)
                        if up < h and r - 3 <= up <= r + 3 \
                                and _would_four(work, base, w, h, cc, up):
                            cells_above |= bit
                work[masks + mover] = wins
                work[masks + 2 + mover] = cells_above
        mover = 1 - mover


@njit(cache=True, nogil=True)
def wide_playout(state, rng, work, owner):
    """Uniformly random moves to the end; returns the winner, ``state`` unchanged."""
    return _wide_playout(state, rng, work, owner, False)[0]


@njit(cache=True, nogil=True)
def wide_playout_tactical(state, rng, work, owner):
    """Random playout that takes wins and blocks a single threat (two threats: lost)."""
    return _wide_playout(state, rng, work, owner, True)[0]


@njit(cache=True, nogil=True)
def wide_playout_safe(state, rng, work, owner):
    """Tactical playout that also keeps off the cells right under the opponent's threats."""
    return _wide_playout(state, rng, work, owner, True, 1)[0]


@njit(cache=True, nogil=True)
def wide_playout_safer(state, rng, work, owner):
    """Safe playout that also keeps off the cells right under its own threats where it can."""
    return _wide_playout(state, rng, work, owner, True, 2)[0]


@njit(cache=True, nogil=True)
def wide_playout_parity(state, rng, work, owner):
    """Safe playout that ends, once quiet with few free cells, by the zugzwang rule."""
    return _wide_playout(state, rng, work, owner, True, 1, PARITY_FREE)[0]


@njit(cache=True, nogil=True)
def wide_playout_quality(state, rng, work):
    return _wide_playout(state, rng, work, work[:0], False)
