"""GTP: framing, golden sessions per game, bad input, and real games through `gtp:` clients."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from boardai.arena.game import play_game
from boardai.engines.registry import make_engine
from boardai.games import Color, make_board
from boardai.gtp.protocol import GtpConnection, GtpError, parse_command
from boardai.ui.gtp_server import GtpServer

GOLDEN = Path(__file__).parent / "golden"
SERVER_CMD = f"{sys.executable} -m boardai gtp"


def transcript(server: GtpServer, lines: list[str]) -> str:
    out = []
    for line in lines:
        out.append(f"> {line}\n")
        answer = server.handle(line)
        out.append(answer if answer is not None else "")
    return "".join(out)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("BOARDAI_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with BOARDAI_UPDATE_GOLDEN=1 if intended"


HEX_SESSION = [
    "protocol_version", "name", "1 known_command genmove", "known_command frobnicate",
    "boardsize 5", "play black c3", "genmove white", "play b b2", "play b b2",
    "play w zz9", "play w", "showboard", "undo", "showboard", "genmove b", "genmove b",
    "frobnicate now", "7 final_score", "boardsize 3", "play b b1", "play w a2", "play b b2",
    "play w c1", "play b b3", "final_score", "genmove w", "play w a1", "showboard",
    "boardsize 4 3", "showboard", "boardsize x", "time_settings 10 0 0", "time_settings a b c",
    "time_left white 5 0", "game connect4", "game chess", "quit",
]

C4_SESSION = [
    "game connect4", "boardsize 7 6", "play b 4", "genmove w", "play b 4", "play w 9",
    "play w x", "showboard", "clear_board", "play b 1", "play w 2", "play b 1", "play w 2",
    "play b 1", "play w 2", "play b 1", "final_score", "showboard", "genmove w", "undo",
    "final_score", "boardsize 5", "boardsize 20 20", "quit",
]


def test_golden_hex_session():
    server = GtpServer(make_engine("random:seed=1"), "hex", "11")
    check_golden("gtp_hex_session.txt", transcript(server, HEX_SESSION))


def test_golden_connect4_session():
    server = GtpServer(make_engine("random:seed=1"), "connect4")
    check_golden("gtp_connect4_session.txt", transcript(server, C4_SESSION))


def test_framing_ids_and_blank_line():
    server = GtpServer(make_engine("random"), "hex", "5")
    assert server.handle("12 protocol_version") == "=12 2\n\n"
    assert server.handle("  # just a comment") is None
    assert server.handle("") is None
    assert server.handle("13 nonsense").startswith("?13 unknown command")
    assert server.handle("play\tblack\tc3") == "=\n\n"


@pytest.mark.parametrize("line", [
    "play", "play black", "play purple c3", "play black c3 extra", "genmove", "genmove purple",
    "boardsize", "boardsize 0", "boardsize 27", "boardsize -1", "boardsize 5 5 5", "time_left",
    "time_left black x 0", "known_command", "\x00\x01play b a1\x02", "undo", "play w a1",
    "game", "1 2 3", "é", "play b " + "a" * 1000,
])
def test_bad_lines_change_nothing(line):
    server = GtpServer(make_engine("random"), "hex", "5")
    before = server.board.move_stack
    answer = server.handle(line)
    assert answer is None or answer.endswith("\n\n")
    if answer is not None and answer.startswith("?"):
        assert server.board.move_stack == before
        assert server.board.width == 5


def test_play_and_genmove_respect_turn():
    server = GtpServer(make_engine("random"), "hex", "5")
    assert server.handle("play w a1").startswith("? it is Black's turn")
    assert server.handle("genmove w").startswith("? it is Black's turn")
    assert server.board.ply == 0


def test_swap_through_gtp():
    server = GtpServer(make_engine("random"), "hex", "5", swap=True)
    assert server.handle("play b b1") == "=\n\n"
    assert server.handle("play w swap-pieces") == "=\n\n"
    assert server.board.turn == Color.BLACK
    assert server.board.cell_color(1 * 5 + 0) == Color.WHITE  # b1 mirrored to a2
    no_swap = GtpServer(make_engine("random"), "hex", "5")
    no_swap.handle("play b b1")
    assert no_swap.handle("play w swap").startswith("? illegal move")


def test_parse_command():
    cmd = parse_command("3 play B c3 # comment")
    assert (cmd.id, cmd.name, cmd.args) == ("3", "play", ["B", "c3"])


def test_scripted_connection_reads_multiline_and_errors():
    engine_out = io.StringIO("= a\nb\n\n?2 bad thing\n\n= \n\n")
    conn = GtpConnection(io.StringIO(), engine_out)
    assert conn.send("showboard", timeout=5) == "a\nb"
    with pytest.raises(GtpError, match="bad thing"):
        conn.send("2 play x", timeout=5)
    assert conn.send("quit", timeout=5) == ""


@pytest.mark.parametrize("game,size", [("hex", "5"), ("connect4", "7x6")])
def test_gtp_client_against_our_server(game, size):
    """A whole game: our server (in a subprocess) through the gtp: client vs a built-in engine."""
    external = make_engine(f"gtp:{SERVER_CMD} --game {game} --engine random:seed=5")
    local = make_engine("random:seed=6")
    try:
        board = make_board(game, size)
        result = play_game(board, external, local)
        assert board.is_game_over()
        assert result.reason in ("connection", "four in a row", "draw")
        # the external engine's board agrees with ours
        shown = external.send("showboard")
        assert shown.strip() == board.render(mark_last=True).strip()
    finally:
        external.close()


def test_server_against_second_copy_of_itself():
    a = make_engine(f"gtp:{SERVER_CMD} --game hex --engine random:seed=1")
    b = make_engine(f"gtp:{SERVER_CMD} --game hex --engine random:seed=2")
    try:
        board = make_board("hex", "6")
        result = play_game(board, a, b)
        assert result.winner is not None and result.reason == "connection"
        a.sync(board)   # tell both engines the final move
        b.sync(board)
        assert a.send("final_score") == board.outcome().result()
        assert b.send("final_score") == board.outcome().result()
    finally:
        a.close()
        b.close()


def test_gtp_client_reports_dead_engine():
    engine = make_engine(f"gtp:{sys.executable} -c pass")
    with pytest.raises(GtpError):
        engine.play(make_board("hex", "3"))
    engine.close()


def test_gtp_client_missing_program():
    engine = make_engine("gtp:/nonexistent/engine-binary")
    with pytest.raises(GtpError, match="cannot start"):
        engine.play(make_board("hex", "3"))
