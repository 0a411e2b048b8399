"""One default game and size across play, tui, serve and analyse; the strongest engine of the
game as the default of analyse and gtp, with GTP time_settings replacing its time."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner

from boardai.cli import main
from boardai.engines.registry import make_engine, strongest_spec
from boardai.games import DEFAULT_GAME, get_game
from boardai.ui.gtp_server import GtpServer


def test_play_tui_serve_and_analyse_share_the_default_size():
    # play/tui ask play_size_or_default, the page's form shows it, the server's new game and
    # analyse use default_size: one number for every game
    for name in ("hex", "connect4", "tictactoe"):
        g = get_game(name)
        assert g.play_size_or_default == g.default_size
    assert DEFAULT_GAME == "hex" and get_game("hex").default_size == (11, 11)


def test_analyse_defaults_to_the_games_strongest_engine():
    # 7x6 after 3 3: the opening book settles it, so the answer is exact however busy the
    # machine is (a searched position can run out of the engine's 2 s on a loaded machine)
    res = CliRunner().invoke(main, ["analyse", "--game", "connect4", "--size", "7x6",
                                    "--moves", "33", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["engine"].startswith("solver") and data["info"].get("exact") is True
    assert strongest_spec("hex") == "mcts:time=1"
    assert strongest_spec("connect4").startswith("solver")


def test_gtp_time_settings_replace_the_specs_time():
    engine = make_engine(strongest_spec("hex"))
    server = GtpServer(engine, "hex", "9")
    out = io.BytesIO()
    server.serve(io.BytesIO(b"time_settings 0 0.5 1\n"), out)
    assert out.getvalue().startswith(b"=")
    limit = server._limit(server.board.turn)
    assert limit is not None and 0.3 < limit.time < 0.5         # 0.9 * 0.5 - 0.05 = 0.4
    assert engine._limit(limit).time == limit.time             # not the spec's time=1
    assert engine._limit(None).time == 1.0
    engine.close()


def test_gtp_serves_the_strongest_engine_by_default():
    res = CliRunner().invoke(main, ["gtp", "--game", "connect4"], input="name\nshowboard\n")
    assert res.exit_code == 0
    assert "?" not in res.output.split("\n\n")[0]


def test_analyse_lines_lists_candidate_moves_with_rates_and_lines():
    res = CliRunner().invoke(main, ["analyse", "--game", "hex", "--size", "5", "--moves", "c3",
                                    "--engine", "mcts:sims=3000,seed=1", "--lines", "2",
                                    "--json"])
    assert res.exit_code == 0, res.output
    lines = json.loads(res.output.strip().splitlines()[-1])["lines"]
    assert len(lines) == 2
    for line in lines:
        assert 0 <= line["winrate"] <= 1 and line["pv"][0] == line["move"]
    # The solver stops as soon as every column is settled (0.4 s on a quiet machine); the long
    # limit only keeps a loaded machine from turning the exact answer into a fallback.
    text = CliRunner().invoke(main, ["analyse", "--game", "connect4", "--size", "5x4",
                                     "--moves", "33", "--lines", "3",
                                     "--engine", "solver:time=300"]).output
    assert "1. 3  exact +0  50%" in text and "line: " in text
    assert len([t for t in text.splitlines() if t[:3] in ("1. ", "2. ", "3. ")]) == 3
