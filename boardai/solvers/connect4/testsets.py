"""Pascal Pons' six classes of Connect Four 7x6 test positions: what sets a class (the stones
played and the moves left until the game ends with perfect play), and the sets themselves as
stored with the bench (``boardai/bench/connect4_tests/<class>.txt``, one ``moves score`` a line,
as Pons' files).  ``boardai bench solver`` times the solver on them; the solver-labelled
training data keeps its positions out of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "bench" / "connect4_tests"


@dataclass(frozen=True)
class PositionClass:
    name: str          # our file name
    pons: str          # Pons' test file
    played: tuple[int, int]
    left: tuple[int, int]
    pons_seconds: float
    count: int         # positions we keep


CLASSES = (
    PositionClass("end-easy", "Test_L3_R1", (29, 41), (1, 14), 31e-6, 200),
    PositionClass("middle-easy", "Test_L2_R1", (15, 28), (1, 14), 104e-6, 200),
    PositionClass("middle-medium", "Test_L2_R2", (15, 28), (15, 28), 7.4e-3, 100),
    PositionClass("begin-easy", "Test_L1_R1", (1, 14), (1, 14), 428e-6, 100),
    PositionClass("begin-medium", "Test_L1_R2", (1, 14), (15, 28), 121e-3, 30),
    PositionClass("begin-hard", "Test_L1_R3", (1, 14), (29, 42), 3.1, 8),
)
CLASS_NAMES = tuple(c.name for c in CLASSES)


def moves_left(score: int, played: int, width: int = 7, height: int = 6) -> int:
    """Moves until the game ends with perfect play, from the exact score of the side to move."""
    if score == 0:
        return width * height - played
    stones = (width * height + 1) // 2 + 1 - abs(score)       # the winner's stones at the end
    mover_first = played % 2 == 0
    winner_first = mover_first == (score > 0)
    end = 2 * stones - 1 if winner_first else 2 * stones       # total stones when the game ends
    return end - played


def classify(played: int, left: int) -> str | None:
    for c in CLASSES:
        if c.played[0] <= played <= c.played[1] and c.left[0] <= left <= c.left[1]:
            return c.name
    return None


def data_path(name: str, data_dir: Path = DATA_DIR) -> Path:
    return Path(data_dir) / f"{name}.txt"


def read_set(name: str, data_dir: Path = DATA_DIR) -> list[tuple[str, int]]:
    out = []
    for line in data_path(name, data_dir).read_text().splitlines():
        parts = line.split()
        if parts:
            out.append((parts[0], int(parts[1])))
    return out


__all__ = ["CLASSES", "CLASS_NAMES", "DATA_DIR", "PositionClass", "classify", "data_path",
           "moves_left", "read_set"]
