"""Playout benchmarks: the plain references agree with our kernels; the bench functions run.

Correctness only: no assertion here is about speed.
"""

from __future__ import annotations

import doctest
import importlib
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import boardai.bench.speed
from boardai.bench.speed import bench_mcts, bench_playouts, format_mcts, format_playouts
from boardai.games import make_board
from boardai.games.kernel import playout_batch
from boardai.games.layout import HEADER, new_rng

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
plain = importlib.import_module("plain_playouts")

N = 40_000        # playouts per side in the statistical checks


def ours(board, count, seed):
    return playout_batch(board.state.copy(), new_rng(seed), count) / count


def assert_same_rate(p1, p2, n, what):
    """Two rates from n playouts each agree within 5 standard errors (a loose, fixed-seed test)."""
    p = (p1 + p2) / 2
    se = math.sqrt(max(p * (1 - p), 1e-4) * 2 / n)
    assert abs(p1 - p2) < 5 * se, f"{what}: plain {p1:.4f} vs ours {p2:.4f} (se {se:.4f})"


def plain_hex(board, count, seed):
    w, h = board.width, board.height
    cells = board.state[HEADER:HEADER + w * h].copy()
    plain.plain_seed(seed)
    return plain.plain_hex_batch(cells, w, h, board.ply & 1, count) / count


def test_hex_11_from_the_empty_board_agrees():
    board = make_board("hex", "11")
    a, b = plain_hex(board, N, 1), ours(board, N, 2)
    assert a[2] == 0 and b[2] == 0                      # Hex has no draws
    assert 0.49 < a[0] < 0.56 and 0.49 < b[0] < 0.56    # ~0.523: Black gets 61 of 121 cells
    assert_same_rate(a[0], b[0], N, "hex 11x11 black wins")


@pytest.mark.parametrize("moves", ["c3 b4 d2", "a1 e5 b2 d4 c3 c2"])
def test_hex_from_a_position_agrees(moves):
    # an odd number of stones puts White to move: checks who gets the first empty cell
    board = make_board("hex", "5")
    board.push_many(moves.split())
    a, b = plain_hex(board, N, 3), ours(board, N, 4)
    assert 0.02 < b[0] < 0.98
    assert_same_rate(a[0], b[0], N, f"hex 5x5 after {moves}")


def test_connect4_7x6_agrees():
    board = make_board("connect4", "7x6")
    plain.plain_seed(5)
    a = plain.plain_c4_batch(7, 6, N) / N
    b = ours(board, N, 6)
    for rates in (a, b):
        assert 0.54 < rates[0] < 0.575      # first player ~0.556
        assert 0.0005 < rates[2] < 0.008    # draws ~0.3%
    assert_same_rate(a[0], b[0], N, "connect4 black wins")
    assert_same_rate(a[2], b[2], N, "connect4 draws")


def test_plain_hex_flood_fill_on_full_boards():
    # 3x3, row-major; Black (1) joins top to bottom through the 6-neighbour rule
    zigzag = np.array([2, 1, 2,
                       1, 2, 2,          # (0,1) -> (1,0) is the (r+1, c-1) neighbour
                       1, 1, 2], dtype=np.int64)
    assert plain.plain_hex_playout(zigzag, 3, 3, 0) == plain.BLACK
    blocked = np.array([1, 2, 2,
                        2, 1, 1,         # (0,0) -> (1,1) is not a neighbour
                        1, 1, 2], dtype=np.int64)
    assert plain.plain_hex_playout(blocked, 3, 3, 0) == plain.WHITE


@pytest.mark.parametrize("cells, expected", [
    ([(0, 0), (0, 1), (0, 2), (0, 3)], True),                # vertical
    ([(0, 0), (1, 0), (2, 0), (3, 0)], True),                # horizontal
    ([(0, 0), (1, 1), (2, 2), (3, 3)], True),                # diagonal /
    ([(0, 3), (1, 2), (2, 1), (3, 0)], True),                # diagonal \
    ([(0, 3), (0, 4), (0, 5), (1, 0)], False),               # would wrap without the pad bit
    ([(0, 0), (1, 0), (2, 0), (4, 0)], False),
])
def test_plain_four(cells, expected):
    h = 6
    b = np.uint64(sum(1 << (c * (h + 1) + r) for c, r in cells))
    assert plain.plain_four(b, h) is expected


KEYS = {"game", "size", "threads", "seconds", "playouts", "playouts_per_s", "black_win_rate"}


@pytest.mark.parametrize("game, size", [("hex", (11, 11)), ("connect4", (7, 6))])
@pytest.mark.parametrize("threads", [1, 2])
def test_bench_playouts_short_run(game, size, threads):
    r = bench_playouts(game, *size, seconds=0.2, threads=threads, seed=3)
    assert KEYS <= set(r)
    assert r["game"] == game and r["size"] == f"{size[0]}x{size[1]}" and r["threads"] == threads
    assert r["seconds"] >= 0.2          # it ran its time (a loaded machine only lengthens it)
    assert r["playouts"] > 100 and r["playouts"] % r["chunk"] == 0   # whole jitted batches only
    assert r["playouts_per_s"] == pytest.approx(r["playouts"] / r["seconds"])
    assert 0.3 < r["black_win_rate"] < 0.7
    assert r["black_win_rate"] + r["white_win_rate"] + r["draw_rate"] == pytest.approx(1)
    line = format_playouts(r)
    assert line.startswith(f"{game} {r['size']}, {threads} thread") and "playouts/s" in line


def test_bench_plain_playouts_short_run():
    r = plain.bench_plain_playouts("c4", 7, 6, seconds=0.2)
    assert KEYS <= set(r) and r["game"] == "connect4" and r["impl"] == "plain"
    assert 0.5 < r["black_win_rate"] < 0.62


def test_bench_rejects_bad_arguments():
    with pytest.raises(ValueError):
        bench_playouts("chess", 8, 8, seconds=0.1)
    with pytest.raises(ValueError):
        bench_playouts("hex", 5, 5, seconds=0.1, threads=0)


def test_bench_docstring_examples():
    failures, tried = doctest.testmod(boardai.bench.speed)
    assert tried > 0 and failures == 0


def test_run_all_prints_a_table_and_json_last(capsys):
    run_all = importlib.import_module("run_all")
    assert run_all.main(["--seconds", "0.03", "--json"]) == 0
    out = capsys.readouterr().out.rstrip("\n").splitlines()
    data = json.loads(out[-1])
    sizes = [(r["game"], r["size"]) for r in data["rows"]]
    assert sizes[:2] == [("hex", "11x11"), ("connect4", "7x6")]
    assert all(r["ratio_vs_plain"] > 0 and r["thread_scaling"] > 0 for r in data["rows"])
    assert any("ours/plain" in line for line in out[:-1])


@pytest.mark.parametrize("game, size, threads", [("connect4", (7, 6), 2), ("hex", (5, 5), 1)])
def test_bench_mcts_short_run(game, size, threads):
    r = bench_mcts(game, *size, seconds=0.2, threads=threads, options="rave=0")
    assert r["engine"] == ("mcts:threads=2,rave=0" if threads == 2 else "mcts:rave=0")
    assert r["sims_per_s"] > 0 and r["size"] == f"{size[0]}x{size[1]}"
    assert ("thread_scaling" in r) == (threads > 1)
    assert format_mcts(r).startswith(r["engine"] + " on " + game)


def test_bench_mcts_cli_rejects_bad_options():
    from click.testing import CliRunner

    from boardai.cli import main

    out = CliRunner().invoke(main, ["bench", "mcts", "--options", "colour=3", "--seconds", "0.1"])
    assert out.exit_code == 2 and "no option 'colour'" in out.output
