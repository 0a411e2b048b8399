"""``openspiel-mcts``: OpenSpiel's C++ ``MCTSBot`` as an engine, the reference we measure against.

Only a benchmark opponent: it needs the ``peers`` extra (``pip install 'boardai[peers]'``).  It is
UCT with random rollouts (one per leaf by default) and OpenSpiel's MCTS-solver, no tree reuse.
Both games map one to one: a Hex action is row * W + col (Black, ``x``, joins top and bottom, as
ours), a Connect Four action is the 0-based column (7x6 only; OpenSpiel's board is fixed).
"""

from __future__ import annotations

from boardai.engines.base import (
    Engine, EngineUnavailable, Limit, Option, PlayResult, Stopwatch, parse_bool, seed_option,
)
from typing import Callable

from boardai.games import game_of
from boardai.games.base import Board

DEFAULT_TIME = 1.0
MAX_ROLLOUTS = 1000
MAX_MEMORY_MB = 65536


def _hex(board: Board) -> str:
    if board.swap_move in board.move_stack:
        raise ValueError("openspiel-mcts does not know the swap rule")
    return f"hex(num_cols={board.width},num_rows={board.height})"


def _connect_four(board: Board) -> str:
    if (board.width, board.height) != (7, 6):
        raise ValueError("openspiel-mcts plays Connect Four on 7x6 only")
    return "connect_four"


# the engine's own table: OpenSpiel's name for a board of each game it plays (ValueError when
# OpenSpiel lacks the variant); a game not listed is not played
OPENSPIEL_GAMES: dict[str, Callable[[Board], str]] = {
    "hex": _hex,
    "connect4": _connect_four,
}


def _pyspiel():
    """OpenSpiel's module, or EngineUnavailable saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise EngineUnavailable("openspiel-mcts needs OpenSpiel, which is not installed: "
                                "pip install 'boardai[peers]' (the open_spiel package)") from None
    return pyspiel


class OpenSpielMctsEngine(Engine):
    name = "openspiel-mcts"
    summary = "OpenSpiel's C++ MCTSBot (UCT + random rollouts + solver); needs boardai[peers]"
    limit_options = ("time", "sims")
    options = (
        Option("c", float, 1.4, "UCT exploration constant", min=0, max=100),
        Option("rollouts", int, 1, "random rollouts per leaf", min=1, max=MAX_ROLLOUTS),
        Option("solve", parse_bool, True, "MCTS-solver (proven wins and losses)"),
        Option("memory_mb", int, 1000, "tree memory cap (MiB)", min=1, max=MAX_MEMORY_MB),
        seed_option("random seed", 0),
    )

    def __init__(self, **opts):
        super().__init__(**opts)
        _pyspiel()                  # not installed: say so now, before a command starts
        self._games: dict[tuple, object] = {}

    def _game(self, board: Board):
        """OpenSpiel's game for ``board`` (``OPENSPIEL_GAMES`` names it)."""
        pyspiel = _pyspiel()
        name = OPENSPIEL_GAMES.get(board.game_name)
        if name is None:
            raise ValueError(f"openspiel-mcts does not play {game_of(board).title}")
        spec = name(board)                      # ValueError when OpenSpiel lacks this variant
        if spec not in self._games:
            self._games[spec] = pyspiel.load_game(spec)
        return self._games[spec]

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        clock = Stopwatch()
        pyspiel = _pyspiel()
        if board.is_game_over():
            return PlayResult(-1, "resign", resign=True)
        limit = self._limit(limit)
        game = self._game(board)
        state = game.new_initial_state()
        for move in board.move_stack:
            state.apply_action(int(move))
        seed = (int(self.opts.get("seed") or 0) + board.ply) % (1 << 31)   # pyspiel takes a C int
        evaluator = pyspiel.RandomRolloutEvaluator(int(self.opts.get("rollouts") or 1), seed)
        if limit.sims is not None:
            sims, seconds = int(limit.sims), -1.0
        else:
            sims, seconds = 10**9, float(limit.time if limit.time is not None else DEFAULT_TIME)
        bot = pyspiel.MCTSBot(game, evaluator, float(self.opts["c"] if self.opts.get("c") is not None else 1.4), sims,
                              int(self.opts.get("memory_mb") or 1000),
                              bool(self.opts.get("solve", True)), seed, False,
                              pyspiel.ChildSelectionPolicy.UCT, seconds)
        action = int(bot.step(state))
        return PlayResult(action, board.move_name(action), time_s=clock())
