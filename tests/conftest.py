"""Shared test helper: golden files for board pictures (``tests/golden/``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def golden():
    """``golden(name, text)``: compare ``text`` with ``tests/golden/name``.

    With ``BOARDAI_UPDATE_GOLDEN=1`` in the environment the file is (re)written instead.
    """
    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        data = text + "\n"
        if os.environ.get("BOARDAI_UPDATE_GOLDEN") == "1":
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(data)
        assert path.exists(), f"{path} is missing: run with BOARDAI_UPDATE_GOLDEN=1 to create it"
        with open(path, encoding="utf-8", newline="") as f:
            expected = f.read()
        assert data == expected, f"{name} changed; rerun with BOARDAI_UPDATE_GOLDEN=1 if intended"
    return check


@pytest.fixture(scope="module")
def fuzz_without_speed_bound():
    """For the fuzz tests: an answer is checked for arriving at all (the 60 s guard that tells a
    hang), not for how fast: a loaded machine may take seconds (``bench fuzz`` keeps its 5 s
    liveness)."""
    import boardai.bench.fuzz as fuzz
    saved = fuzz.LIVENESS
    fuzz.LIVENESS = fuzz.INTERRUPT
    yield
    fuzz.LIVENESS = saved
