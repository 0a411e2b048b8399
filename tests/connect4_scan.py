"""A plain scan of a Connect Four board for the threat tests: would a stone make four?"""

from __future__ import annotations

from boardai.games import Connect4Board


def fours(board: Connect4Board, colour: int, col: int, row: int) -> bool:
    """Would a stone of ``colour`` on (col, row) make four?  (A scan of the board's cells.)"""
    def own(c, r):
        return (c, r) == (col, row) or (0 <= c < board.width and 0 <= r < board.height
                                        and board.cell(c, r) == colour + 1)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            k = 1
            while own(col + sign * k * dc, row + sign * k * dr):
                run += 1
                k += 1
        if run >= 4:
            return True
    return False
