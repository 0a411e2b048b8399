"""The table of solved Hex openings: the winner of every one-stone opening by Black on the
empty board (White to move, no swap), solved by the DFPN of ``solver.py``; ``boardai book hex``
builds it (``boardai/data/hex_openings.json``, shipped) and ``boardai solve hex
--all-openings`` prints it.  The ``solver`` engine swaps by it and opens with the winning
opening nearest the centre (``player.engine_move``).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from boardai.solvers.hex.solver import UNKNOWN, WIN, Solver, solver_for


def solve_openings(size: int, time_limit: float | None = None, progress=None,
                   threads: int = 1, fixed_slice: int | None = None) -> dict[str, str | None]:
    """Winner of every one-stone opening by Black on the empty size×size board (White to move);
    None for an opening not solved within ``time_limit`` seconds each.

    An opening and its 180° image have the same winner, so only one of each pair is searched.
    ``threads`` > 1 solves openings side by side, each thread with its own table (the search
    runs without the GIL).  ``progress(name, winner, nodes, seconds)`` is called after each
    opening searched.  ``fixed_slice``: see ``Solver.run`` (the same nodes every run on one
    thread).
    """
    from boardai.games.hex.board import HexBoard
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    n = size * size
    # the slowest openings first, so that threads finish together: Black's stones on or near
    # White's edges (far from the centre column, near the centre row) are the hard ones
    todo = sorted({min(c, n - 1 - c) for c in range(n)},
                  key=lambda c: (-abs(2 * (c % size) - size + 1), abs(2 * (c // size) - size + 1), c))
    found: dict[int, str | None] = {}
    lock = threading.Lock()

    def work(s: Solver) -> None:
        while True:
            with lock:
                if not todo:
                    return
                c = todo.pop(0)
            board = HexBoard(size)
            board.push(c)
            t0 = time.perf_counter()
            n0 = int(s.stats[0])
            deadline = None if time_limit is None else t0 + time_limit
            r = s.run(s.position(board.cells, 1), 1, deadline, fixed_slice=fixed_slice)
            winner = None if r == UNKNOWN else ("white" if r == WIN else "black")
            with lock:
                found[c] = winner
                if progress is not None:
                    progress(board.move_name(c), winner, int(s.stats[0]) - n0,
                             time.perf_counter() - t0)

    solvers = [solver_for(size, size)] + [Solver(size, size) for _ in range(threads - 1)]
    if threads == 1:
        work(solvers[0])
    else:
        pool = [threading.Thread(target=work, args=(s,), daemon=True) for s in solvers]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    names = HexBoard(size)
    return {names.move_name(c): found[min(c, n - 1 - c)] for c in range(n)}


OPENINGS_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "hex_openings.json"
_OPENINGS: dict[int, dict[str, str]] | None = None


def opening_table() -> dict[int, dict[str, str]]:
    """The shipped table size -> {opening cell: winner} (``boardai book hex``), read once;
    empty if the package has none."""
    global _OPENINGS
    if _OPENINGS is None:
        _OPENINGS = {}
        if OPENINGS_PATH.exists():
            data = json.loads(OPENINGS_PATH.read_text(encoding="utf-8"))
            _OPENINGS = {int(k): v for k, v in data["openings"].items()}
    return _OPENINGS


def build_opening_table(sizes, out=OPENINGS_PATH, time_limit: float | None = None,
                        progress=None, threads: int = 1) -> dict[int, dict[str, str]]:
    """Solve every one-stone opening of each size and write the table to ``out`` (JSON).  A
    size with an opening left unsolved within ``time_limit`` seconds is left out whole."""
    table: dict[int, dict[str, str]] = {}
    seconds: dict[int, float] = {}
    solve_openings(2)                  # load the compiled search before the clock starts
    for size in sizes:
        t0 = time.perf_counter()
        openings = solve_openings(size, time_limit, progress, threads)
        seconds[size] = round(time.perf_counter() - t0, 2)
        if all(v is not None for v in openings.values()):
            table[size] = openings
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"about": "winner of each one-stone opening by Black, White to "
                               "move, no swap; built by `boardai book hex`",
                               "seconds": {str(k): v for k, v in seconds.items()},
                               "openings": {str(k): v for k, v in table.items()}}, indent=1)
                   + "\n", encoding="utf-8")
    global _OPENINGS
    _OPENINGS = None
    return table
