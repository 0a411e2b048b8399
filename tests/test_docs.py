"""The docs hold: README and docstring doctests run, the product speaks in its own words (no
reference to the documents it was first written from), links stay in the repository, and the
statements a test can check (tree widths, the solvers' interface, module names, the server's
default address, compete's time rule) match the code."""

from __future__ import annotations

import doctest
import re
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


# --- the product in its own words ---------------------------------------------------------------
# The documents the project was first written from are not the product's: its text describes
# every behaviour in its own right and names real programs and courses by their names.  The
# random seed (``--seed``, ``seed=1``) is another word and stays.
ORIGIN = re.compile(r"(?<![a-z])seeds?[ _-]?0\d\d(?!\d)|\bseed's\b|\bseeds'(?!\w)|\bthe seeds\b"
                    r"|\borigin(?:al)? documents?\b|\bshared/seeds\b", re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".txt", ".js", ".html", ".css", ".json", ".toml"}


def product_text_files() -> list[Path]:
    package = [p for p in sorted((ROOT / "boardai").rglob("*"))
               if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts]
    return package + [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("text, found", [
    ("`boardai play` asks what seed 000's program asks", True),
    ("Seed 002's course game", True),
    ("the engine of seeds 000, 001 and 004", True),
    ("result file mcts_vs_seed002_t3.txt", True),
    ("SEED002_MCTS = ...", True),
    ("or the seeds' zero-based row col pair", True),
    ("as the origin documents describe", True),
    ("boardai play --seed 1", False),
    ("random:seed=5", False),
    ("no failures (seed 0)", False),
    ("quality with seed 1 as Black against winrate with seed 1001", False),
    ("Seed of the board draws and the engines' seeds", False),
    ("seeds = st.integers(min_value=0)", False),
])
def test_the_origin_pattern_tells_the_documents_from_the_random_seed(text, found):
    assert bool(ORIGIN.search(text)) is found


def test_the_package_readme_and_docs_never_refer_to_the_origin_documents():
    files = product_text_files()
    assert len(files) > 100 and ROOT / "docs" / "architecture.md" in files
    hits = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)!r}"
            for p in files
            for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            for m in ORIGIN.finditer(line)]
    assert hits == []


def test_doc_links_stay_inside_the_repository():
    for path in product_text_files():      # design notes outside the repository are not named
        text = path.read_text(encoding="utf-8", errors="replace")
        assert "../shared" not in text and "DESIGN.md" not in text, path
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = (path.parent / target.split("#")[0]).resolve()
            assert file.exists() and ROOT in file.parents, f"{path.name}: {target}"


# --- statements a test can hold ------------------------------------------------------------------
def test_the_mcts_tree_widths_in_the_docs_are_the_kernels():
    from boardai.engines.mcts import kernel
    ints, flts, meta = kernel.new_tree(4)
    for text in ((ROOT / "docs" / "architecture.md").read_text(), kernel.__doc__):
        assert [int(n) for n in re.findall(r"ints\[M, (\d+)\]", text)] == [ints.shape[1]]
        assert [int(n) for n in re.findall(r"flts\[M, (\d+)\]", text)] == [flts.shape[1]]
    assert flts.shape[1] == kernel.NF == 8
    assert f"meta[{meta.shape[0]}]" in kernel.__doc__


def test_the_solvers_package_describes_the_interface_it_has():
    import inspect

    import boardai.solvers as solvers
    from boardai.solvers.hex.bits import MAX_CELLS

    doc = solvers.__doc__
    assert "engine_play" not in doc and "8x8" not in doc
    signature = re.search(r"``Player\.move\((.*?)\)``", doc).group(1).split(", ")
    assert "``Player.supports(board)``" in doc
    for name in ("hex", "connect4"):
        player = solvers.for_game(name).Player
        assert list(inspect.signature(player.supports).parameters) == ["board"]
        assert list(inspect.signature(player.move).parameters) == ["self", *signature]
    assert solvers.for_game("tictactoe") is None
    assert f"up to {MAX_CELLS} cells" in doc and "``hex.bits.MAX_CELLS``" in doc


def test_the_package_docstring_names_modules_that_exist():
    import importlib.util

    import boardai
    names = re.findall(r"``(boardai(?:\.\w+)+)``", boardai.__doc__)
    assert "boardai.gtp" in names and "boardai.ui.gtp_server" in names
    for name in names:
        assert importlib.util.find_spec(name) is not None, name
    assert "GTP server and client" not in boardai.__doc__


def test_the_readme_says_where_the_server_binds_by_default():
    from boardai.cli.serve import serve
    host = next(p for p in serve.params if p.name == "host").default
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"the server binds to {host} by default (`--host` sets another address" in readme
    assert "listens on 127.0.0.1 only" not in readme


def test_arena_doc_and_compete_help_give_the_same_time_rule():
    from click.testing import CliRunner

    from boardai.arena.compete import think_time
    from boardai.cli import main
    from boardai.cli.compete import DEFAULT_MOVE_TIME
    from boardai.engines.strategy import TIME_GRACE

    for s in (0.1, 0.5, 2.0, 3.0, 10.0):
        assert think_time(s) == pytest.approx(s - min(0.1, 0.05 * s))
    told, stopped = think_time(DEFAULT_MOVE_TIME), think_time(DEFAULT_MOVE_TIME) + TIME_GRACE
    arena = " ".join((ROOT / "docs" / "arena.md").read_text().split())
    assert "told T = S − min(0.1 s, 5 % of S)" in arena
    assert f"{told:.1f} s at the default S = {DEFAULT_MOVE_TIME:g}" in arena
    assert f"more than S + {TIME_GRACE:g} s loses on time" in arena
    assert f"within T + {TIME_GRACE:g} s ({stopped:.1f} s at the default" in arena
    result = CliRunner().invoke(main, ["compete", "--help"])
    assert result.exit_code == 0
    help_text = " ".join(result.output.split())
    assert "told SECONDS less 5 % (at most 0.1 s less) as its time limit" in help_text
    assert f"more than SECONDS + {TIME_GRACE:g} s loses on time" in help_text
    assert f"its limit + {TIME_GRACE:g} s ({stopped:.1f} s at the default)" in help_text
