"""Test helper: controllable clocks, so that tests of time budgets and timeouts check what the
engine did by its own clock instead of bounding the wall-clock time (which a loaded machine
stretches)."""

from __future__ import annotations

import time
import types


def stepping_clock(monkeypatch, *modules, step: float = 0.01) -> list[float]:
    """Give ``modules`` (and the engines' stopwatch, ``boardai.engines.base``) a clock
    (``time.perf_counter`` and ``time.monotonic``) whose
    every reading is ``step`` seconds after the last: a time budget then ends after a known
    number of readings, however loaded the machine.  Returns the clock's cell ([now])."""
    from boardai.engines import base
    now = [1000.0]

    def perf_counter() -> float:
        now[0] += step
        return now[0]
    clock = types.SimpleNamespace(**{**vars(time), "perf_counter": perf_counter,
                                      "monotonic": perf_counter})
    for module in (base, *modules):
        monkeypatch.setattr(module, "time", clock)
    return now


def still_clock(monkeypatch, *modules) -> list[float]:
    """Like ``stepping_clock``, but the clock stands still until the test moves it (``now[0] +=
    seconds``)."""
    from boardai.engines import base
    now = [1000.0]
    clock = types.SimpleNamespace(**{**vars(time), "perf_counter": lambda: now[0],
                                      "monotonic": lambda: now[0]})
    for module in (base, *modules):
        monkeypatch.setattr(module, "time", clock)
    return now
