"""``mcts``'s defaults per game: the engine's own table, read by the game's name.

A game's description (``games/<game>/game.py``) holds the game's facts only; how ``mcts`` plays
it by default is tuned here, so changing a default means editing this table alone.  A game not
listed plays with ``PLAIN``: no RAVE, no solver on the root, no tree knowledge, no priors, its
playout switches off (uniform playouts).  Each figure's measurement is in docs/experiments.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True)
class MctsDefaults:
    """The defaults of ``mcts``'s game-dependent options (each option's help says what it does).

    ``rave``: RAVE on.  ``solver``: the share of a timed move for the game's exact solver on the
    root, on boards of at most ``solver_cells`` cells (0: all).  ``mustplay``: the visits a node
    needs for the tree knowledge (0 off).  ``patterns``, ``local``: the weights of the learned
    move patterns' priors and of the playouts' local answers (0 off).  ``playouts``: the game's
    playout switches (its description's ``playout_switches``) that are on; the others are off.
    ``net``: the network whose priors guide the tree (``off``, ``auto``: the one shipped for
    the board's size, or a shipped network's name) on square boards of the sizes in
    ``net_sizes`` (empty: every size); ``net_visits``, ``prior_weight``: the visits at which a
    node asks the network, and the progressive-bias constant of its priors (``network.py``);
    ``value_weight``: the visits the network's value of an evaluated node counts as (0 off).
    ``settle``: a tree node with at most this many empty cells is searched exactly by the
    game's late-game search (``games/kernel.py: settle``), once, for up to ``settle_nodes``
    nodes, when it has ``settle_visits`` visits (0 off).
    """

    rave: bool = False
    solver: float = 0.0
    solver_cells: int = 0
    mustplay: int = 0
    patterns: float = 0.0
    local: float = 0.0
    playouts: frozenset[str] = field(default_factory=frozenset)
    net: str = "off"
    net_sizes: frozenset[int] = field(default_factory=frozenset)
    net_visits: int = 40
    prior_weight: float = 1.0
    value_weight: float = 0.0
    settle: int = 0
    settle_nodes: int = 2000
    settle_visits: int = 32


PLAIN = MctsDefaults()

MCTS_DEFAULTS: Mapping[str, MctsDefaults] = MappingProxyType({
    "hex": MctsDefaults(
        rave=True,
        solver=0.5,         # against MoHex on 7x7, 21.6 % -> 46.9 % (experiments)
        solver_cells=64,    # the solver takes up to 11x11; 9x9 solver=0.5, 0.3 s: 0.51 against off
        mustplay=500,       # against mcts without it at 0.3 s: 7x7 0.52, 9x9 0.66, 11x11 0.78;
                            # no gain seen against MoHex; mustplay=0: off
        patterns=0.0,       # off until measured
        local=0.0,          # 9x9: no gain measured, a playout ~5 times slower
        playouts=frozenset({"bridge",      # much stronger, slower per playout
                            "edge"}),      # 9x9 at 0.3 s: 0.71 against edge=0
        net="auto",         # 9x9: the shipped 6x48 hex-9x9-teacher against net=off at equal
        net_sizes=frozenset({9, 11, 13}),   # time: net_visits 100 at 0.5 s 0.825 (40
        net_visits=100,     # games), at 1 s ~0.6 (80); 150: 0.750, 0.600; 40 (~35 % of a
                            # move): 8/17 at 1 s.  The same 9x9 network on 11x11: 0.775 at
                            # 0.5 s, 0.725 at 1 s (40 each); on 13x13: 0.825 (40), 0.80 (20).
                            # 11x11 and 13x13 now take hex-11x11-teacher (net=auto: the
                            # nearest size), fine-tuned on 11x11 games, against the 9x9 one
                            # at 0.5 s: 11x11 0.588 (80), 13x13 0.55 (20)
        prior_weight=40.0,  # against 5: 9x9 0.65 at 0.5 s (40), 0.575 at 1 s (120); 11x11
                            # 0.575 at 0.5 s (40); 13x13 0.55 (20); 20: 0.60 at 0.5 s (80)
                            # and 1 s (40); against MoHex 9x9 at 1 s 12/40 (5: 15/40, 6/20)
    ),
    "connect4": MctsDefaults(
        playouts=frozenset({"tactics",     # playouts take wins and block threats
                            "safe",        # and keep off the cells under the opponent's
                                           # threats (boards past 64 cells, the course's):
                                           # against the C++ reference 0.467 against 0.133
                            "mix"}),       # half of them (drawn at random) tactical only:
                                           # against the C++ reference at a tenth of the
                                           # course's times 0.511 against 0.361 (safe alone,
                                           # 180 games each), plain UCT at equal time 0.88
                                           # against 0.76 (50 each)
    ),
    "tictactoe": PLAIN,
})


def defaults_for(game: str) -> MctsDefaults:
    """``mcts``'s defaults for the game called ``game`` (its canonical name); ``PLAIN`` for a
    game the table does not list."""
    return MCTS_DEFAULTS.get(game, PLAIN)


__all__ = ["MCTS_DEFAULTS", "MctsDefaults", "PLAIN", "defaults_for"]
