"""Play one game between two engines through the engine protocol, whatever the engines do.

An engine that fails loses the game instead of stopping the match: an illegal or unreadable
move is ``illegal move``, an exception or a vanished GTP process is ``crash``, an engine that
does not answer within the move timeout is ``time forfeit``: a GTP engine by its own hard
timeout, an in-process one because the game runs in a thread of its own and the caller stops
waiting at the timeout (an engine that never returns cannot hold up a match).
``GameResult.detail`` says what happened and ``loser`` names the culprit.
"""

from __future__ import annotations

import threading
import time
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
    abandoned: Color | None = None   # an engine whose call outlived the move timeout (still running)

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.other


NOTICE_TIMEOUT = 5.0     # least time allowed for new_game/notify (hints, not moves)
OWN_TIMEOUT_GRACE = 1.0  # an engine with its own hard timeout (gtp:) gets this long to report it


class _Abandoned(BaseException):
    """Unwinds a game thread whose game was already decided by the referee."""


class _Referee:
    """Times every engine call of a game run in a thread of its own (``move_timeout``).

    The game thread brackets each call with ``begin``/``end``; the caller of ``play_game``
    waits in ``watch`` and, when a call outlives its limit, decides the game (a time forfeit)
    and stops waiting.  The lock makes the decision and the call's end exclusive: once a game is
    decided, its thread touches nothing again (``end`` raises ``_Abandoned``), so a late answer
    changes neither the board nor the result.
    """

    def __init__(self, move_timeout: float, engines: dict[Color, Engine]):
        self.move_timeout = move_timeout
        self.limits = {}
        for colour, engine in engines.items():
            own = getattr(engine, "timeout", None)      # a gtp: engine enforces its own limit
            self.limits[colour] = move_timeout + (OWN_TIMEOUT_GRACE if own else 0.0)
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.call: tuple[Color, str, float, float] | None = None   # who, what, started, limit
        self.decided = False
        self.result: GameResult | None = None
        self.error: BaseException | None = None

    def begin(self, colour: Color, what: str) -> None:
        limit = self.limits[colour]
        if what != "play":
            limit = max(limit, NOTICE_TIMEOUT)
        with self.lock:
            if self.decided:
                raise _Abandoned
            self.call = (colour, what, time.perf_counter(), limit)

    def end(self) -> None:
        with self.lock:
            self.call = None
            if self.decided:
                raise _Abandoned

    def watch(self, forfeit) -> GameResult:
        """Wait for the game's end, or decide it when an engine call outlives its limit."""
        wait = self.move_timeout
        while not self.done.wait(max(wait, 0.001)):
            with self.lock:
                if self.call is None:
                    wait = self.move_timeout
                    continue
                colour, what, started, limit = self.call
                over = time.perf_counter() - started
                if over < limit:
                    wait = limit - over
                    continue
                self.decided = True
            allowed = (f"the {self.move_timeout:g} s allowed per move" if what == "play" else
                       f"{limit:g} s")
            return forfeit(colour, "time forfeit",
                           f"no answer to {what} within {allowed}; the engine was abandoned")
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


def play_game(board: Board, black: Engine, white: Engine,
              limit: Limit | dict[Color, Limit] | None = None, on_move=None,
              move_timeout: float | None = None) -> GameResult:
    """Play from ``board`` (changed in place) until the end; ``on_move(board, result)`` per move.

    ``limit``: every move's limit, one for both engines or one per colour (the arena gives each
    engine the limit ``engines/budget.py``'s rule decides); None: each engine's own.

    ``move_timeout`` (seconds) is a hard limit on every engine call: the game is then played in
    a thread of its own (``on_move`` is called there) and this one stops waiting when a move
    takes longer, scoring a time forfeit (``GameResult.abandoned`` names the engine left
    running: call nothing of it again but ``kill``, from a thread that may block).  A move that
    returns but took longer by the engine's own clock is a time forfeit too.  GTP engines also
    enforce their own timeout while waiting for the answer, and get a grace second to do so.
    """
    engines = {Color.BLACK: black, Color.WHITE: white}
    if move_timeout is None:
        return _play(board, engines, limit, on_move, None, None)
    referee = _Referee(move_timeout, engines)
    times: list[float] = []

    def forfeit(colour: Color, reason: str, detail: str) -> GameResult:
        return GameResult(colour.other, reason, board.move_stack, list(times), f"{colour}: {detail}",
                          abandoned=colour)

    def run() -> None:
        try:
            referee.result = _play(board, engines, limit, on_move, move_timeout, referee, times)
        except _Abandoned:
            return
        except BaseException as exc:   # noqa: BLE001 -- handed to the waiting caller
            referee.error = exc
        referee.done.set()

    thread = threading.Thread(target=run, name="boardai-game", daemon=True)
    thread.start()
    result = referee.watch(forfeit)
    if result.abandoned is None:
        thread.join()               # it has finished: only its last instruction is left
    return result


def _is_default_hint(method) -> bool:
    """True for the protocol's own ``new_game``/``notify`` (they do nothing: no need to time)."""
    return getattr(method, "__func__", None) in (Engine.new_game, Engine.notify)


def games_running() -> int:
    """Game threads still alive in this process (an abandoned engine may keep one busy)."""
    return sum(t.name == "boardai-game" and t.is_alive() for t in threading.enumerate())


def _play(board: Board, engines: dict[Color, Engine], limit, on_move,
          move_timeout: float | None, referee: _Referee | None,
          times: list[float] | None = None) -> GameResult:
    """The game loop; with a referee every engine call is timed by it."""
    times = [] if times is None else times
    limits = limit if isinstance(limit, dict) else {colour: limit for colour in engines}

    def call(colour: Color, what: str, fn, *args):
        if referee is None or (what != "play" and _is_default_hint(fn)):
            return fn(*args)
        referee.begin(colour, what)
        try:
            out = fn(*args)
        except BaseException:
            referee.end()
            raise
        referee.end()
        return out

    def fault(colour: Color, reason: str, exc: BaseException | str) -> GameResult:
        detail = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        return GameResult(colour.other, reason, board.move_stack, times, f"{colour}: {detail}")

    for colour, e in engines.items():
        try:
            call(colour, "new_game", e.new_game, board.copy())
        except _Abandoned:
            raise
        except Exception as exc:      # noqa: BLE001 -- any failure of an engine loses its game
            return fault(colour, "crash", exc)
    while not board.is_game_over():
        colour = board.turn
        try:
            result = call(colour, "play", engines[colour].play, board.copy(), limits[colour])
        except _Abandoned:
            raise
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
                call(side, "notify", e.notify, board, result.move)
            except _Abandoned:
                raise
            except Exception as exc:  # noqa: BLE001
                return fault(side, "crash", exc)
        if on_move is not None:
            on_move(board, result)
    outcome = board.outcome()
    assert outcome is not None
    return GameResult(outcome.winner, outcome.termination.value, board.move_stack, times)
