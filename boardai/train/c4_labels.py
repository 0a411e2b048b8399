"""Connect Four 7x6 positions labelled by the exact solver, for supervised training of the
network (``boardai train supervised`` reads the file; ``benchmarks/c4_solver_labels.py`` writes
it).

- **Positions.** Position ``i`` of a file comes from a random game seeded by the file's seed and
  ``i`` alone (so a stopped run goes on where it stopped and makes the same positions): a band
  is drawn (begin 9-14 stones, middle 15-28, end 29-41, weighted as ``BANDS`` says), a number
  of stones uniformly within it, and that many uniformly random moves (drawn again while the
  game ends on the way), as the solver test sets of ``boardai/bench/connect4_tests`` are drawn
  (from 9 stones: fewer take the solver seconds).  A position already in the file (or its
  mirror) and any position of the test sets (or its mirror, by ``position_key``; also of an
  ``exclude`` set, e.g. a held-out file's) is not kept: the test sets stay out of the training
  data.
- **Labels.** Every column's exact score (``LineSolver.analyze_board``, with its book), within
  ``seconds`` a position; a position not settled in that time is written as skipped, so a
  resumed run does not try it again.
- **The file.** JSON lines: a header ``{"format": FORMAT, "width", "height", "seed",
  "seconds"}``, then one line a position index: ``{"i", "moves", "scores"}`` (``scores``: 7
  numbers, ``FULL_COLUMN`` for a full column) or ``{"i", "skip": reason}``.  A torn last line
  (a killed run) is cut off when the run goes on.
- **Targets** (``training_arrays``): the policy is uniform over the columns of the best score
  (what ``benchmarks/nn_connect4_solver.py`` counts as a best move), the value the sign of the
  best score for the side to move.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from boardai._files import write_atomic
from boardai.games.connect4.board import Connect4Board

FORMAT = "boardai-connect4-solver-labels"
WIDTH, HEIGHT = 7, 6
GAME = Connect4Board.game_name
FULL_COLUMN = -1000
# (first stones, last stones, weight): the three bands of the solver test classes
BANDS = ((9, 14, 0.3), (15, 28, 0.5), (29, 41, 0.2))


class LabelError(ValueError):
    """A labels file that cannot be used (the message says why, in one line)."""


def position_key(moves: str, width: int = WIDTH) -> str:
    """The position after ``moves`` (column digits) as its columns' stones from the bottom,
    "a" for the first player's and "b" for the second's, the smaller of it and its mirror's:
    equal for the same position reached by other move orders and for its left-right mirror."""
    cols = [[] for _ in range(width)]
    for k, ch in enumerate(moves):
        cols[int(ch) - 1].append("ab"[k % 2])
    text = ["".join(c) for c in cols]
    return min("/".join(text), "/".join(reversed(text)))


def _start_file(path: Path, header: dict, records: list[dict]) -> None:
    """Make ``path`` hold exactly ``header`` and ``records`` before appending (a torn last line
    of an interrupted run cut off), or start it with ``header`` alone."""
    if records or (path.exists() and path.stat().st_size > 0):
        good = b"".join(json.dumps(r).encode() + b"\n" for r in [header, *records])
        if path.read_bytes() != good:
            write_atomic(path, good)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n")


def test_set_keys(data_dir=None) -> set[str]:
    """The keys of every position of the solver test classes (all lines of all six)."""
    from boardai.solvers.connect4.testsets import CLASS_NAMES, DATA_DIR, read_set
    return {position_key(p) for name in CLASS_NAMES
            for p, _ in read_set(name, DATA_DIR if data_dir is None else data_dir)}


def random_position(seed: int, i: int, tries: int = 100, bands=BANDS) -> str | None:
    """The moves of position ``i`` of a file of ``seed``: a band, a number of stones in it and
    random moves, the moves drawn again while the game ends on the way (None after ``tries``)."""
    rng = random.Random(f"{seed}:{i}")
    r = rng.random() * sum(w for _, _, w in bands)
    for lo, hi, w in bands:
        if r < w:
            break
        r -= w
    played = rng.randint(lo, hi)
    for _ in range(tries):
        board = Connect4Board(WIDTH, HEIGHT)
        for _ in range(played):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                break
        else:
            return board.position
    return None


def best_columns(scores: list[int]) -> list[int]:
    best = max(scores)
    return [c for c, s in enumerate(scores) if s == best and s != FULL_COLUMN]


# --- the file ------------------------------------------------------------------------------
def read_labels(path, note: Callable[[str], None] | None = None) -> tuple[dict | None, list[dict]]:
    """A labels file's header (None for an empty file) and its records in file order."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LabelError(f"{path} cannot be read: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")
    header, records = None, []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            if n == len(lines):         # the last line, torn by a kill
                if note:
                    note(f"{path}: its last line is cut short (a stopped run): left out")
                break
            raise LabelError(f"{path} line {n} is not JSON: not a labels file") from None
        if header is None:
            if not isinstance(rec, dict) or rec.get("format") != FORMAT:
                raise LabelError(f"{path} is not a Connect Four labels file (no {FORMAT} header)")
            header = rec
            continue
        if not isinstance(rec, dict) or not isinstance(rec.get("i"), int):
            raise LabelError(f"{path} line {n}: a record without its index")
        records.append(rec)
    return header, records


def is_labels_file(path) -> bool:
    """Whether ``path`` starts with a labels file's header."""
    try:
        with open(path, "rb") as f:
            first = f.readline()
        return json.loads(first).get("format") == FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def generate(path, positions: int, seed: int = 1, seconds: float = 3.0,
             log: Callable[[str], None] = print, solver=None,
             exclude: set[str] | None = None, bands=BANDS) -> dict:
    """Label position indices until the file holds ``positions`` of them (labelled or
    skipped), going on from what it holds; returns the counts of this call and the file's."""
    from boardai.solvers.connect4.lines import LineSolver
    path = Path(path)
    header = {"format": FORMAT, "width": WIDTH, "height": HEIGHT, "seed": seed,
              "seconds": seconds}
    records: list[dict] = []
    if path.exists() and path.stat().st_size > 0:
        old, records = read_labels(path, log)
        if old is None:
            raise LabelError(f"{path} is empty of records and header: remove it")
        if old.get("seed") != seed:
            raise LabelError(f"{path} was made with seed {old.get('seed')}, not {seed}: give "
                             "the same seed to go on, or another file")
        header = old
    _start_file(path, header, records)
    exclude = test_set_keys() if exclude is None else exclude
    seen = {position_key(r["moves"]) for r in records if "moves" in r}
    done = {r["i"] for r in records}
    solver = solver or LineSolver()
    counts = {"labelled": 0, "skipped": 0, "seconds": 0.0}
    start = time.perf_counter()
    i = max(done, default=-1) + 1
    with open(path, "a", encoding="utf-8") as f:
        while len(done) < positions:
            moves = random_position(seed, i, bands=bands)
            rec: dict = {"i": i}
            if moves is None:
                rec["skip"] = "game over"
            elif position_key(moves) in exclude:
                rec["skip"] = "test set"
            elif position_key(moves) in seen:
                rec["skip"] = "repeat"
            else:
                board = Connect4Board.from_position(moves, WIDTH, HEIGHT)
                scores = solver.analyze_board(board, seconds)
                if scores is None:
                    rec["skip"] = "time"
                else:
                    rec.update(moves=moves, scores=[int(s) for s in scores])
                    seen.add(position_key(moves))
            f.write(json.dumps(rec) + "\n")
            f.flush()
            done.add(i)
            counts["labelled" if "scores" in rec else "skipped"] += 1
            i += 1
            if len(done) % 500 == 0:
                log(f"{path}: {len(done)}/{positions} indices, {len(seen)} positions labelled "
                    f"({time.perf_counter() - start:.0f} s this run)")
    counts["seconds"] = round(time.perf_counter() - start, 1)
    counts["file_positions"] = len(seen)
    return counts


def read_games_csv(path) -> list[str]:
    """The games of a self-play run's ``games.csv`` (``boardai train``'s table of games: a
    ``moves`` column of space-separated columns) as column-digit strings."""
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        return ["".join(row["moves"].split()) for row in csv.DictReader(f)]


def generate_from_games(path, games: list[str], first: int = 9, seconds: float = 2.0,
                        log: Callable[[str], None] = print, solver=None,
                        exclude: set[str] | None = None, limit: int | None = None) -> dict:
    """Label the positions of played games (from ``first`` stones to the last before the
    end), as ``generate`` labels random ones: position ``i`` is game ``i // 64`` after ``i %
    64`` moves.  Goes on from what the file holds; stops after ``limit`` new indices."""
    from boardai.solvers.connect4.lines import LineSolver
    path = Path(path)
    header = {"format": FORMAT, "width": WIDTH, "height": HEIGHT, "seed": "games",
              "seconds": seconds}
    records: list[dict] = []
    if path.exists() and path.stat().st_size > 0:
        header, records = read_labels(path, log)
        if header.get("seed") != "games":
            raise LabelError(f"{path} holds random positions, not positions of games")
    _start_file(path, header, records)
    exclude = test_set_keys() if exclude is None else exclude
    seen = {position_key(r["moves"]) for r in records if "moves" in r}
    done = {r["i"] for r in records}
    solver = solver or LineSolver()
    counts = {"labelled": 0, "skipped": 0}
    start = time.perf_counter()
    with open(path, "a", encoding="utf-8") as f:
        for g, game in enumerate(games):
            for ply in range(first, len(game)):
                i = 64 * g + ply
                if i in done:
                    continue
                if limit is not None and counts["labelled"] + counts["skipped"] >= limit:
                    return counts
                moves = game[:ply]
                key = position_key(moves)
                rec: dict = {"i": i}
                if key in exclude:
                    rec["skip"] = "test set"
                elif key in seen:
                    rec["skip"] = "repeat"
                else:
                    board = Connect4Board.from_position(moves, WIDTH, HEIGHT)
                    if board.is_game_over():
                        rec["skip"] = "game over"
                    else:
                        scores = solver.analyze_board(board, seconds)
                        if scores is None:
                            rec["skip"] = "time"
                        else:
                            rec.update(moves=moves, scores=[int(s) for s in scores])
                            seen.add(key)
                f.write(json.dumps(rec) + "\n")
                f.flush()
                done.add(i)
                counts["labelled" if "scores" in rec else "skipped"] += 1
            if g % 20 == 19:
                log(f"{path}: {g + 1}/{len(games)} games, {len(seen)} positions labelled "
                    f"({time.perf_counter() - start:.0f} s this run)")
    return counts


# --- training arrays -----------------------------------------------------------------------
def training_arrays(records: Iterable[dict]) -> dict:
    """Input planes, legal masks (``mask``) and targets of the labelled records: ``policy`` uniform over
    the best columns, ``move`` the first of them, ``result`` the sign of the best score for
    the side to move, ``value`` NaN (no win rate), ``turn`` the side to move."""
    from boardai.nn import features
    states, policy, move, result, turn, index = [], [], [], [], [], []
    for r in records:
        if "scores" not in r:
            continue
        board = Connect4Board.from_position(r["moves"], WIDTH, HEIGHT)
        best = best_columns(r["scores"])
        if not best:
            continue
        p = np.zeros(WIDTH, dtype=np.float32)
        p[best] = 1.0 / len(best)
        states.append(board.state.copy())
        policy.append(p)
        move.append(best[0])
        top = max(r["scores"])
        result.append(float((top > 0) - (top < 0)))
        turn.append(board.ply % 2)
        index.append(r["i"])
    n = len(states)
    planes = features.encode(states) if n else np.zeros((0, 6, HEIGHT, WIDTH), np.float32)
    mask = features.legal_mask(states) if n else np.zeros((0, WIDTH), np.bool_)
    return {"planes": planes, "mask": mask.astype(np.bool_),
            "policy": np.array(policy, dtype=np.float32).reshape(n, WIDTH),
            "move": np.array(move, dtype=np.int64), "result": np.array(result, np.float32),
            "value": np.full(n, np.nan, np.float32), "turn": np.array(turn, np.int64),
            "index": np.array(index, np.int64)}


__all__ = ["FORMAT", "LabelError", "best_columns", "generate", "is_labels_file",
           "position_key", "random_position", "read_labels", "test_set_keys", "training_arrays"]
