"""The examples people read are the examples that run: README and docstring doctests."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import boardai.games.connect4.board
import boardai.games.hex.board

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples():
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("module", [boardai.games.hex.board, boardai.games.connect4.board])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0


def test_readme_starts_with_the_two_setup_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()][1:]
    assert commands[:2] == ["make play", "make test"]
