"""Play one game between two engines through the engine protocol, whatever the engines do.

An engine that fails loses the game instead of stopping the match: an illegal or unreadable
move is ``illegal move``, an exception or a vanished GTP process is ``crash``, a GTP engine
that does not answer in its hard timeout (or an in-process engine that took longer than it) is
``time forfeit``.  ``GameResult.detail`` says what happened and ``loser`` names the culprit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardai.engines.base import Engine, EngineMoveError, EngineTimeout, Limit
from boardai.games import Board, Color, MoveError, all_games

FAULTS = ("time forfeit", "illegal move", "crash")    # the loser did something wrong
# every way a game can end, as stored and reported: the games' own, then the arena's
END_REASONS = tuple(dict.fromkeys(r for g in all_games().values() for r in g.end_reasons)) \
    + ("resign",) + FAULTS


@dataclass
class GameResult:
    """How a game between engines ended: ``winner`` None for a draw."""

    winner: Color | None
    reason: str                      # one of END_REASONS
    moves: list[int]
    times: list[float] = field(default_factory=list)
    detail: str | None = None        # for a fault: what the losing engine did

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.other


def play_game(board: Board, black: Engine, white: Engine, limit: Limit | None = None,
              on_move=None, move_timeout: float | None = None) -> GameResult:
    """Play from ``board`` (changed in place) until the end; ``on_move(board, result)`` per move.

    ``move_timeout`` (seconds) forfeits an in-process engine whose move took longer; GTP engines
    enforce their own timeout while waiting for the answer.
    """
    engines = {Color.BLACK: black, Color.WHITE: white}
    times: list[float] = []

    def fault(colour: Color, reason: str, exc: BaseException | str) -> GameResult:
        detail = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        return GameResult(colour.other, reason, board.move_stack, times, f"{colour}: {detail}")

    for colour, e in engines.items():
        try:
            e.new_game(board.copy())
        except Exception as exc:      # noqa: BLE001 -- any failure of an engine loses its game
            return fault(colour, "crash", exc)
    while not board.is_game_over():
        colour = board.turn
        try:
            result = engines[colour].play(board.copy(), limit)
        except EngineTimeout as exc:
            return fault(colour, "time forfeit", exc)
        except EngineMoveError as exc:
            return fault(colour, "illegal move", exc)
        except Exception as exc:      # noqa: BLE001
            return fault(colour, "crash", exc)
        times.append(result.time_s)
        if move_timeout is not None and result.time_s > move_timeout:
            return fault(colour, "time forfeit", f"took {result.time_s:.2f} s, more than the "
                                                 f"{move_timeout:g} s allowed per move")
        if result.resign:
            return GameResult(colour.other, "resign", board.move_stack, times)
        try:
            board.push(result.move)
        except MoveError as exc:
            return fault(colour, "illegal move", exc)
        for side, e in engines.items():
            try:
                e.notify(board, result.move)
            except Exception as exc:  # noqa: BLE001
                return fault(side, "crash", exc)
        if on_move is not None:
            on_move(board, result)
    outcome = board.outcome()
    assert outcome is not None
    return GameResult(outcome.winner, outcome.termination.value, board.move_stack, times)
