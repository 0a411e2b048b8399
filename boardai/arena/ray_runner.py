"""Arena games on Ray: the same :class:`GameTask` and :func:`play_task` as the local runners,
each game a Ray task, on a local Ray started for the command or on a cluster it joins.

What crosses the network is small: a task (engine specs, colours, opening, seed, board) goes
out, a :class:`StoredGame` comes back; engines are built from their specs on the worker that
plays the game, so a ``gtp:`` engine's program starts there and the move timeout is enforced
there.  Only the driver (the ``boardai`` command) writes the result store.

Exactly once: a task that dies with its worker (the process killed, the node lost) is re-run
by Ray (``MAX_RETRIES`` times), with the same seed; a game that reaches the driver twice is
stored once (the store's key is match and game index); a driver killed with kill -9 resumes
from the store with the same command.  A worker that had to abandon an engine (one that never
answered within the move timeout) leaves after reporting its game, so the engine cannot keep a
core busy (Ray starts a fresh worker), as the local runner replaces its process.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from typing import Iterable, Iterator

from boardai.arena.runner import GameTask, Runner, WorkerError, play_task, warm_up
from boardai.arena.store import StoredGame

MAX_RETRIES = 5            # re-runs of a game whose worker died
RETIRE_AFTER_S = 0.5       # a worker with an abandoned engine exits this long after its game

_warm = False


def _play_on_worker(task: GameTask) -> StoredGame:
    """In a Ray worker: play one game; retire the worker if an engine had to be abandoned."""
    global _warm
    from boardai.arena.game import games_running
    if not _warm:
        warm_up()
        _warm = True
    game = play_task(task)
    if games_running() > 0:         # an engine thread still computing: leave once answered
        threading.Timer(RETIRE_AFTER_S, os._exit, args=(0,)).start()
    return game


class RayRunner(Runner):
    """Plays games as Ray tasks.  ``address`` None: a local Ray with ``jobs`` CPUs (default:
    every core) is started and shut down with the runner; otherwise the cluster at ``address``
    (``auto``: the one ``ray start`` made on this machine) is joined and left."""

    def __init__(self, address: str | None = None, jobs: int | None = None):
        from boardai._ray import import_ray, join
        ray = import_ray()
        self._ray = ray
        self._own = join(address, jobs)
        self.jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES,
                                  retry_exceptions=False)(_play_on_worker)
        self._queue: deque[GameTask] = deque()
        self._pending: dict = {}          # ObjectRef -> GameTask
        self._ready: deque[StoredGame] = deque()

    @property
    def window(self) -> int:
        """Games in flight at once: enough to keep every CPU busy, few enough to stop soon."""
        from boardai._ray import window
        return window(self.jobs)

    def _submit(self) -> None:
        while self._queue and len(self._pending) < self.window:
            task = self._queue.popleft()
            self._pending[self._remote.remote(task)] = task

    def _receive(self, timeout: float | None = None) -> None:
        ray = self._ray
        ready, _ = ray.wait(list(self._pending), num_returns=1, timeout=timeout)
        for ref in ready:
            task = self._pending.pop(ref)
            try:
                self._ready.append(ray.get(ref))
            except ray.exceptions.RayTaskError as exc:      # play_task raised: re-raise it
                raise exc.as_instanceof_cause() from None
            except ray.exceptions.RayError as exc:         # lost beyond the retries
                raise WorkerError(
                    f"game {task.idx} of match {task.match_key} ({task.engine_a} vs "
                    f"{task.engine_b}) was lost {MAX_RETRIES + 1} times with its worker: {exc}; "
                    "the games stored so far are kept: run the same command to resume") from None

    def play(self, tasks: Iterable[GameTask]) -> Iterator[StoredGame]:
        self._queue.extend(tasks)
        try:
            while True:
                self._submit()
                if self._ready:
                    yield self._ready.popleft()
                elif self._pending:
                    self._receive()
                else:
                    break
        finally:
            self._queue.clear()           # the games not started are abandoned

    def drain(self) -> list[StoredGame]:
        games = list(self._ready)
        self._ready.clear()
        self._queue.clear()
        while self._pending:
            self._receive()
            games.extend(self._ready)
            self._ready.clear()
        return games

    def close(self) -> None:
        self._queue.clear()
        for ref in list(self._pending):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:             # noqa: BLE001 -- already finished or gone
                pass
        self._pending.clear()
        if self._own and self._ray.is_initialized():
            self._ray.shutdown()
