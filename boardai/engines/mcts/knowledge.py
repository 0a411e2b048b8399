"""The tree knowledge of ``mcts`` (``mustplay``, ``inferior``, ``reversible``, ``fill``): what the
game's solver player knows of a tree node's position without searching, written into the tree.

At the root before searching, and at every node that reaches ``mustplay`` visits, the engine asks
``SolverPlayer.knowledge`` (Hex: H-search with inferior cells; other games offer none and the
answer is None): a decided position proves the node, else only the moves worth trying stay its
children (``kernel.apply_knowledge``), and with ``fill`` the position's fill-in
(``SolverPlayer.filled``) is kept for the playouts below the node.  A position is asked only
while the deadline is further than the slowest answer seen on the board size, so a timed move
keeps its time.  The tree here is the engine's ``_Tree`` (its ``known``, ``fills``, ``fill_of``,
``fill_count`` and the move's ``knowledge_calls``/``knowledge_s``).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from boardai.engines.mcts import kernel as MK
from boardai.games.base import Board
from boardai.games.layout import NUM_ACTIONS
from boardai.solvers.base import SolverPlayer

FILL_ROWS = 2048             # positions whose fill-in a tree keeps (until it is compacted)
KNOWLEDGE_MARGIN_S = 0.02    # no tree knowledge (an H-search) this close to the deadline, nor
                             # closer than the slowest one seen on the board size (capped here)
KNOWLEDGE_MARGIN_MAX_S = 0.25
KNOWLEDGE_NODES = 4096       # busy nodes looked at per slice, at most
KNOWLEDGE_SLICE_SIMS = 256     # simulations between knowledge calls in a sims= search (fixed)


class TreeKnowledge:
    """One engine's tree knowledge: the sizes loaded, the slowest answer per size, and this
    move's root board and fill-in switch (``start_move``)."""

    def __init__(self, player_for: Callable[[Board], SolverPlayer | None], opts: dict):
        self.player_for = player_for       # board -> the game's solver player, or None
        self.opts = opts                   # the engine's options (inferior, reversible, fill)
        self.loaded: set[tuple] = set()
        self.slowest: dict[tuple[int, int], float] = {}   # board size -> seconds
        self.root_board: Board | None = None
        self.fill_on = False               # this move: the tree's fill-ins go to the playouts

    def load(self, board: Board) -> None:
        """Load (or compile) the H-search for this board size once, outside the move's time."""
        key = (board.game_name, board.width, board.height)
        if key not in self.loaded:
            player = self.player_for(board)
            if player is not None:
                player.knowledge(type(board)(board.width, board.height))
            self.loaded.add(key)

    def fills_wanted(self, board: Board, mustplay: int) -> bool:
        """Do the playouts start with the dead and captured cells the tree knowledge finds
        (the ``fill`` option, with ``mustplay`` and ``inferior``, where the game's solver player
        has knowledge)?"""
        if not (mustplay and self.opts.get("fill") and self.opts.get("inferior", True)):
            return False
        player = self.player_for(board)
        return player is not None and player.has_knowledge

    def has_time(self, board: Board, deadline: float | None) -> bool:
        """Is the deadline further than the slowest knowledge answer seen on this board size
        (and at least ``KNOWLEDGE_MARGIN_S``)?  Then one more position may be asked."""
        slowest = self.slowest.get((board.width, board.height), 0.0)
        return deadline is None or deadline - time.perf_counter() > max(KNOWLEDGE_MARGIN_S,
                                                                         slowest)

    def ask(self, board: Board):
        """The solver player's answer for ``board`` (``SolverPlayer.knowledge``: the result for
        the side to move and the moves worth trying), or None."""
        player = self.player_for(board)
        if player is None:
            return None
        return player.knowledge(board, inferior=bool(self.opts.get("inferior", True)),
                                reversible=bool(self.opts.get("reversible", True)))

    def timed(self, tree, board: Board):
        """``ask``, counted and timed in ``tree``'s figures for the move, and in the slowest
        answer seen on the board size."""
        clock = time.perf_counter()
        answer = self.ask(board)
        took = time.perf_counter() - clock
        tree.knowledge_calls += 1
        tree.knowledge_s += took
        size = (board.width, board.height)
        if took > self.slowest.get(size, 0.0):
            self.slowest[size] = min(took, KNOWLEDGE_MARGIN_MAX_S)
        return answer

    def grow(self, tree, visits: int, deadline: float | None) -> None:
        """The knowledge on the positions of the tree's nodes that reached ``visits`` (each
        once), while the move has the time (``has_time``)."""
        root = tree.root
        busy = np.empty(KNOWLEDGE_NODES, dtype=np.int64)
        for node in busy[:MK.busy_nodes(tree.ints, tree.flts, root, visits, busy)].tolist():
            if node in tree.known or tree.ints[node, MK.PROOF] != 0:
                continue
            if not self.has_time(self.root_board, deadline):
                return
            moves = []
            at = node
            while at != root:
                moves.append(int(tree.ints[at, MK.MOVE]))
                at = int(tree.ints[at, MK.PARENT])
            board = self.root_board.copy()
            for move in reversed(moves):
                board.push(move)
            self.prove(tree, node, board, self.timed(tree, board))

    def keep_fill(self, tree, node: int, board: Board) -> None:
        """Store the fill-in of ``node``'s position (``board``) for the playouts below it."""
        if not self.fill_on or tree.fill_count >= FILL_ROWS:
            return
        cells = self.player_for(board).filled(board)
        if cells is None or not cells.any():
            return
        actions = int(board.state[NUM_ACTIONS])
        if tree.fills.shape != (FILL_ROWS, actions):
            tree.fills = np.zeros((FILL_ROWS, actions), dtype=np.int64)
        if tree.fill_of.shape[0] != tree.ints.shape[0]:
            tree.fill_of = np.zeros(tree.ints.shape[0], dtype=np.int32)
        row = tree.fill_count
        tree.fills[row, :len(cells)] = cells
        tree.fills[row, len(cells):] = 0
        tree.fill_of[node] = row
        tree.fill_count += 1

    def prove(self, tree, node: int, board: Board, answer) -> None:
        """Write a ``knowledge`` answer for ``node`` (whose position is ``board``) into the
        tree: a decided position proves the node, else only the moves kept stay children (and
        the position's fill-in is kept for the playouts below, ``keep_fill``)."""
        tree.known.add(node)
        if answer is None:
            return
        result, moves = answer
        if result == 0:
            self.keep_fill(tree, node, board)
        keep = np.zeros(int(board.state[NUM_ACTIONS]), dtype=np.bool_)
        keep[list(moves)] = True
        sign = {-1: 1, 1: -1}.get(result, 0)        # the mover's loss proves the node's move won
        swaps = np.empty((max(1, len(keep)), 2), dtype=np.int64)
        for a, b in swaps[:MK.apply_knowledge(tree.ints, tree.flts, node, sign, keep, tree.root,
                                              swaps)].tolist():
            if (a in tree.known) != (b in tree.known):       # the rows traded places
                tree.known ^= {a, b}
            if tree.fill_of.shape[0]:
                tree.fill_of[a], tree.fill_of[b] = tree.fill_of[b], tree.fill_of[a]
            tree.swapped(a, b)                               # the network's queue (net=)


def play_on_when_lost(tree) -> bool:
    """When the knowledge has proven the root lost for the side to move, forget the proofs
    of the root and its children and say so (True): the search goes on, and its statistics
    pick the move that resists longest, which keeps chances against a fallible opponent
    (a virtual connection is a loss only if the opponent finds its answers)."""
    root = tree.root
    if tree.ints[root, MK.PROOF] != 1:
        return False
    tree.ints[root, MK.PROOF] = 0
    first, k = int(tree.ints[root, MK.CHILD]), int(tree.ints[root, MK.NCHILD])
    tree.ints[first:first + k, MK.PROOF] = 0
    return True


__all__ = ["KNOWLEDGE_SLICE_SIMS", "TreeKnowledge", "play_on_when_lost"]
