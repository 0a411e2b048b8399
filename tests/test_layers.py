"""The package's structure: no import circles, no import running back up a layer, no game named
outside its own folder (bar the places listed in docs/architecture.md), no silent dispatch.

The import graph is read from the source (``ast``), counting every import statement, also those
inside functions: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from boardai.games import all_games

PACKAGE = Path(__file__).resolve().parents[1] / "boardai"

# Layers, lowest first: a module may import from its own layer or lower ones only.
LAYERS = [
    ("boardai._version", "boardai._numba_cache", "boardai._files", "boardai._ray", "boardai"),
    ("boardai.gtp",),                             # the GTP wire protocol: imports nothing of ours
    ("boardai.games",),                           # rules, notation, pictures, kernels
    ("boardai.solvers", "boardai.records"),       # exact solvers and books; game records
    ("boardai.engines", "boardai.nn", "boardai.env"),   # players; the network; RL environments
    ("boardai.arena", "boardai.train", "boardai.session"),   # matches; self-play training;
                                                  # the game session every front-end drives
    ("boardai.ui", "boardai.bench", "boardai.warmup"),   # front-ends; measurements, fuzzers; warm-up
    ("boardai.cli", "boardai.bench.cli_fuzz", "boardai.__main__"),   # the command line (and its
                                                  # fuzzer, which knows the command line's types)
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The boardai modules ``name`` imports (``from pkg import sub`` counts as ``pkg.sub``)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("boardai"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            if not base.startswith("boardai"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return {m for m in out if m in known and m != name}


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


def _layer(module: str) -> int:
    best, rank = -1, None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    assert rank is not None, f"{module} is in no layer: add it to LAYERS"
    return rank


def test_the_import_graph_has_no_circle():
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:            # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []


def test_no_import_runs_back_up_a_layer():
    upward = [f"{a} (layer {_layer(a)}) imports {b} (layer {_layer(b)})"
              for a, deps in sorted(_graph().items()) for b in sorted(deps)
              if _layer(b) > _layer(a)]
    assert upward == []


def test_the_wire_protocol_imports_nothing_of_ours():
    graph = _graph()
    assert {d for m, deps in graph.items() if m.startswith("boardai.gtp") for d in deps
            if not d.startswith("boardai.gtp")} == set()


KERNEL_IDS = {n for n in dir(__import__("boardai.games.layout", fromlist=["x"]))
              if re.fullmatch(r"GAME_[A-Z0-9]+", n) and n != "GAME"}

# Outside a game's folder, a game may be named only here (module -> why); see architecture.md.
ALLOWED = {
    "boardai/games/catalog.py": "the list of games (names and where their descriptions are)",
    "boardai/games/kernel.py": "the jitted dispatch: one branch per game",
    "boardai/games/layout.py": "the kernel ids",
    "boardai/solvers/__init__.py": "which solver folder serves which game",
    "boardai/cli/solve.py": "the solver commands are named after the game they solve "
                            "(solve connect4, book hex)",
    "boardai/cli/bench.py": "bench alphabeta starts on Connect Four, where its figures were taken",
    "boardai/engines/registry.py": "the engines' own table of each game's default engine "
                                   "(STRONGEST): engine settings per game belong to the engines",
    "boardai/bench/cli_fuzz.py": "the command-line fuzzer's valid invocations, on a small Hex board",
    "boardai/engines/mcts/defaults.py": "mcts's own table of its defaults per game "
                                        "(MCTS_DEFAULTS), not the game descriptions'",
    "boardai/engines/openspiel_engine.py": "openspiel-mcts's own table of OpenSpiel's name "
                                           "for each game it plays (OPENSPIEL_GAMES)",
    "boardai/bench/speed.py": "the bench's own start positions per game (BENCH_POSITIONS)",
    "boardai/bench/course.py": "bench course measures on the course's board, a Connect Four board",
}


def test_no_module_outside_a_game_folder_branches_on_a_game():
    """Code (not prose) naming a game: a string literal equal to a game's name, or its kernel id."""
    names = {g.name for g in all_games().values()}
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        parts = path.relative_to(PACKAGE).parts
        if rel in ALLOWED or (len(parts) > 2 and parts[0] in ("games", "solvers")
                              and parts[1] in names):
            continue
        tree = ast.parse(path.read_text(), rel)
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef,
                                        ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)
                      and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lower() in names and id(node) not in docstrings:
                offenders.append(f"{rel}:{node.lineno} {node.value!r}")
            if isinstance(node, (ast.Name, ast.alias)) and \
                    (node.id if isinstance(node, ast.Name) else node.name) in KERNEL_IDS:
                offenders.append(f"{rel}:{getattr(node, 'lineno', '?')} kernel id")
    assert offenders == []


def kernel_functions() -> dict[str, str]:
    """{name: source} of every public function of games/kernel.py that reads the game id."""
    source = (PACKAGE / "games" / "kernel.py").read_text()
    return {node.name: ast.get_source_segment(source, node)
            for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
            and "[GAME]" in ast.get_source_segment(source, node)}


DISPATCHES = kernel_functions()
FILL_HOOKS = sorted(name for name, body in DISPATCHES.items() if "_not_fill_in()" in body)
GAME_DISPATCHES = sorted(set(DISPATCHES) - set(FILL_HOOKS))


def test_the_dispatch_list_is_read_from_the_kernel_and_complete():
    assert {"apply_move", "undo_move", "is_legal", "legal_moves", "playout", "playout_batch",
            "wins_if_played", "winning_moves", "playout_policy", "evaluate", "move_prior",
            "move_weights", "playout_quality", "free_cells", "position_symmetric",
            "symmetric_move", "fill_cells", "encode_planes"} <= set(GAME_DISPATCHES)
    assert FILL_HOOKS == ["fill_connects", "fill_length", "fill_load", "fill_rank", "fill_set"]


@pytest.mark.parametrize("function", GAME_DISPATCHES)
def test_every_dispatch_names_every_game_and_fails_loudly(function):
    body = DISPATCHES[function]
    assert len(KERNEL_IDS) == len(all_games())
    for game_id in KERNEL_IDS:
        assert game_id in body, f"{function} has no branch for {game_id}"
    assert "_unknown_game()" in body


def fill_in_games() -> set[str]:
    """The kernel ids whose ``fill_cells`` branch fills in (does not answer -1)."""
    branches = re.findall(r"if g == (GAME_\w+):\s*\n\s*return ([^\n#]+)", DISPATCHES["fill_cells"])
    assert {g for g, _ in branches} == KERNEL_IDS
    return {g for g, answer in branches if answer.strip() != "-1"}


@pytest.mark.parametrize("function", FILL_HOOKS)
def test_every_fill_hook_serves_every_fill_in_game_and_refuses_the_others(function):
    games = fill_in_games()
    assert games == {"GAME_HEX"}
    body = DISPATCHES[function]
    for game_id in games:
        assert game_id in body, f"{function} has no branch for the fill-in game {game_id}"
    assert "_not_fill_in()" in body


def test_an_unknown_game_id_raises_instead_of_playing_another_game():
    from boardai.games import kernel as K
    from boardai.games import make_board

    board = make_board("hex", 3)
    state = board.state.copy()
    state[0] = 99
    with pytest.raises(ValueError, match="not the id of a game"):
        K.apply_move(state, 0)
    with pytest.raises(ValueError, match="not the id of a game"):
        K.legal_moves(state, state.copy())
