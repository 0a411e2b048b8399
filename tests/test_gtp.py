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
from boardai.gtp.protocol import GtpConnection, GtpError, GtpTimeout, parse_command
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
    "final_score", "boardsize 5", "boardsize 40 40", "boardsize 10 9", "block_cell 4 1",
    "block_cell 11 1", "block_cell 4", "play b 4", "block_cell 5 5", "showboard", "clear_board",
    "showboard", "boardsize 10 9", "showboard", "quit",
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


# --- the reliability issue: bytes, time, protocol edges, client timeouts, HexGui interop ----------
FAKE = Path(__file__).with_name("fake_gtp.py")


def hex_server(size: str = "5", **kw) -> GtpServer:
    return GtpServer(make_engine("random:seed=1"), "hex", size, **kw)


def test_server_reads_bytes_and_refuses_invalid_utf8():
    server = hex_server()
    assert server.handle(b"name\n") == "= boardai\n\n"
    answer = server.handle(b"5 play b \xff\n")
    assert answer.startswith("?5 ") and "UTF-8" in answer and "0xff" in answer
    assert server.board.move_stack == []
    assert server.handle(b"name # caf\xe9 in Latin-1\n") == "= boardai\n\n"   # a comment may be anything
    assert server.handle("play b c3".encode()) == "=\n\n"
    assert server.handle(b"\xff").startswith("? ")


def test_serve_bytes_in_utf8_out():
    server = hex_server()
    out = io.BytesIO()
    server.serve(io.BytesIO(b"name\n\xff\n\xe9\xe9 name\nfrobnicate \xc3\xa9\n3 name\n"), out)
    text = out.getvalue().decode("utf-8")            # strict: no raw invalid bytes
    answers = text.split("\n\n")[:-1]
    assert answers[0] == "= boardai" and answers[-1] == "=3 boardai"
    assert answers[1].startswith("? ") and answers[2].startswith("? ")
    assert answers[3] == "? unknown command: frobnicate"      # fine: the argument is valid UTF-8
    assert len(answers) == 5


def test_answers_never_carry_unencodable_text():
    """A str line with lone surrogates (what surrogateescape makes of bad bytes) or control
    characters is answered with them escaped: valid UTF-8, one line."""
    server = hex_server()
    for line in ["\udcff", "play b \udcff", "nam\u2028e", "\x85name\x85", "play b c\u2029"]:
        answer = server.handle(line)
        answer.encode("utf-8")
        assert answer.endswith("\n\n") and answer.count("\n") == 2
        assert "\u2028" not in answer and "\u2029" not in answer and "\x85" not in answer
    assert server.board.move_stack == []


def test_format_response_keeps_framing():
    from boardai.gtp.protocol import format_response
    assert format_response("1", True, "a\n\nb\n \nc") == "=1 a\nb\nc\n\n"
    assert format_response(None, True, "\npicture") == "= \npicture\n\n"
    assert format_response(None, False, "bad \udcff\x1b[31m") == "? bad \\udcff\\x1b[31m\n\n"


def test_client_decodes_engine_bytes_with_replacement():
    engine_out = io.BytesIO(b"\xff\xfe stray\n= a\xff1\n\n=\n\n")
    conn = GtpConnection(io.StringIO(), engine_out)
    assert conn.send("genmove b", timeout=5) == "a\ufffd1"
    assert conn.send("quit", timeout=5) == ""


def test_client_engine_writing_bad_bytes_is_no_crash():
    engine = make_engine(f"gtp:{sys.executable} {FAKE} badbytes")
    try:
        assert engine.describe() == "fake-\ufffd 1"
        board = make_board("hex", "4")
        for _ in range(3):
            board.push(engine.play(board).move)
        assert board.ply == 3
    finally:
        engine.close()


def test_client_timeout_bounds_the_whole_answer(monkeypatch):
    """Stray lines without end do not keep a 0.5 s timeout from expiring: on a clock that
    moves 0.1 s at each reading, the timeout fires after a handful of lines."""
    from boardai.gtp import protocol
    from clocks import stepping_clock

    def trickle():                 # far more lines than the timeout lets through, then the end
        for _ in range(10_000):
            yield "thinking\n"

    conn = GtpConnection(io.StringIO(), trickle())
    stepping_clock(monkeypatch, protocol, step=0.1)
    with pytest.raises(GtpTimeout, match="'genmove'"):
        conn.send("genmove b", timeout=0.5)


# --- time control
@pytest.mark.parametrize("line", [
    "time_settings inf 0 0", "time_settings nan 0 0", "time_settings 0 inf 1", "time_settings 1e400 0 0",
    "time_settings 10000000 0 0", "time_settings -1 0 0", "time_settings 10 0 -1", "time_settings 10 0 1.5",
    "time_settings ١٠ 0 0", "time_settings 1_000 0 0", "time_settings 10 0 0 0", "time_left b inf 0",
    "time_left b nan 0", "time_left w 1e308 0", "time_left b 5 99999999", "time_left b -0.5 0",
])
def test_time_commands_refuse_non_finite_and_absurd_values(line):
    server = GtpServer(make_engine("mcts:sims=50"), "hex", "5")
    answer = server.handle(line)
    assert answer.startswith("?") and "finite" in answer
    assert not server.clock.active


def test_time_budget_is_capped_and_accepts_decimals():
    from boardai.ui.gtp_server import MAX_BUDGET
    server = GtpServer(make_engine("mcts:sims=50"), "hex", "5")
    assert server.handle("time_settings 1000000 0 0") == "=\n\n"
    assert server.clock.budget(Color.BLACK, 25) == MAX_BUDGET
    assert server.handle("time_left b 0.5 1") == "=\n\n"
    assert 0.01 <= server.clock.budget(Color.BLACK, 25) < 0.5
    server.clock.main = float("inf")          # whatever gets in, the budget stays finite
    assert server.clock.budget(Color.WHITE, 25) == MAX_BUDGET


def test_genmove_answers_under_a_short_time_control():
    """The time control reaches the engine as its move limit (no wall-clock assertion: a fresh
    checkout compiles the search on its first move)."""
    engine = make_engine("mcts")
    limits = []
    play = engine.play
    engine.play = lambda board, limit=None: limits.append(limit) or play(board, limit)
    server = GtpServer(engine, "hex", "5")
    assert server.handle("time_settings 0.5 0 0") == "=\n\n"
    assert server.handle("genmove b").startswith("= ")
    # the last search is the move's (a warm-up search loads the engine first, outside the clock)
    assert limits and limits[-1].time is not None and 0 < limits[-1].time <= 0.5


# --- protocol edges
def test_non_ascii_digits_are_no_id():
    server = hex_server()
    assert server.handle("١ name") == "? unknown command: ١\n\n"
    assert server.handle("٣ play b c3").startswith("? unknown command")
    assert server.handle("42 name") == "=42 boardai\n\n"
    assert parse_command("²3 name").id is None


@pytest.mark.parametrize("line", [
    "protocol_version 2", "name x", "version x", "list_commands x", "known_command",
    "known_command play genmove", "clear_board 5", "undo 5", "showboard x", "final_score now",
    "hexgui-analyze_commands x", "quit now", "param_game allow_swap", "param_game a b c",
    "boardai-analyse b", "game hex connect4", "genmove b w", "boardsize 5 5 5", "play b c3 d4",
    "time_settings 1 1", "time_left b 5",
])
def test_extra_or_missing_arguments_are_refused(line):
    server = hex_server()
    server.handle("play b c3")
    server.handle("play w d4")
    before = list(server.board.move_stack)
    answer = server.handle(line)
    assert answer.startswith("? "), answer
    assert server.board.move_stack == before and server.board.width == 5 and not server.done


def test_every_command_checks_its_argument_count():
    """Each command either declares the argument counts it takes or checks them itself."""
    server = hex_server()
    for name, (_, counts, _) in server.table.items():
        if counts is None:
            continue
        too_many = max(counts) + 1
        answer = server.handle(" ".join([name] + ["x"] * too_many))
        assert answer.startswith("? "), (name, answer)
        assert f"(got {too_many})" in answer


def test_solve_connect4_reads_bytes_and_tells_of_ignored_tokens():
    from click.testing import CliRunner
    from boardai.cli import main

    res = CliRunner().invoke(main, ["solve", "connect4"], input=b"4\n\xff\n44\n")
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == ["4", "44"]
    assert "line 2:" in res.stderr and "UTF-8" in res.stderr
    res = CliRunner().invoke(main, ["solve", "connect4"], input="4 abc\n44 7 x\n")
    assert res.exit_code == 0
    assert [line.split()[0] for line in res.stdout.splitlines()] == ["4", "44"]
    assert res.stderr.count("ignored") == 1 and "line 1:" in res.stderr


def test_solve_connect4_file_with_bad_bytes(tmp_path):
    from click.testing import CliRunner
    from boardai.cli import main

    path = tmp_path / "positions.txt"
    path.write_bytes(b"\xef\xbb\xbf4\n\xe9\n44\n")
    res = CliRunner().invoke(main, ["solve", "connect4", str(path)])
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == ["4", "44"]
    assert "line 2:" in res.stderr


# --- client timeouts and clear errors
def test_gtp_client_has_default_timeouts(monkeypatch):
    from boardai.engines import gtp_client
    from boardai.engines.base import Limit

    engine = make_engine("gtp:cat")
    assert engine.genmove_timeout(Limit()) == gtp_client.GENMOVE_TIMEOUT
    assert engine.genmove_timeout(Limit(time=5)) == 5 + gtp_client.genmove_margin(5) >= 15
    spec = make_engine("gtp:timeout=2.5,cat")
    assert spec.timeout == 2.5 and spec.command == "cat" and spec.spec == "gtp:timeout=2.5,cat"
    assert spec.genmove_timeout(Limit(time=100)) == 2.5
    monkeypatch.setattr(gtp_client, "COMMAND_TIMEOUT", 0.5)
    with pytest.raises(gtp_client.GtpEngineTimeout, match="list_commands"):   # it fired
        engine.play(make_board("hex", "3"))     # cat echoes: never an answer
    engine.close()


@pytest.mark.parametrize("spec", ["gtp:timeout=0,cat", "gtp:timeout=inf,cat", "gtp:timeout=x,cat",
                                  "gtp:'unclosed", "gtp:timeout=5,"])
def test_gtp_client_bad_specs(spec):
    with pytest.raises(ValueError):
        make_engine(spec)


def test_gtp_client_genmove_timeout_with_time_limit():
    """A hung genmove times out after the move's time limit plus the margin."""
    from boardai.engines import gtp_client
    from boardai.engines.base import Limit

    engine = make_engine(f"gtp:{sys.executable} {FAKE} trickle")
    engine.genmove_timeout = lambda limit: limit.time + 0.5      # the margin, shortened
    try:
        with pytest.raises(gtp_client.GtpEngineTimeout, match="genmove"):   # it fired
            engine.play(make_board("hex", "3"), Limit(time=0.2))
    finally:
        engine.kill()


@pytest.mark.parametrize("spec,words", [
    ("gtp:/nonexistent/engine-binary", "cannot start"), ("gtp:false", "exit status 1"),
    ("gtp:timeout=0.5,cat", "no answer to 'list_commands'"),
])
def test_analyse_reports_a_bad_external_engine_in_one_line(spec, words):
    from click.testing import CliRunner
    from boardai.cli import main

    res = CliRunner().invoke(main, ["analyse", "--size", "3", "--engine", spec])
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0]


# --- HexGui / Benzene interop
def test_param_game_allow_swap():
    server = hex_server()
    assert server.handle("param_game") == "= [bool] allow_swap 0\n\n"
    assert server.handle("param_game allow_swap 1") == "=\n\n"
    assert server.handle("param_game") == "= [bool] allow_swap 1\n\n"
    server.handle("play b b1")
    assert server.handle("play w swap-pieces").startswith("? illegal move")   # this board: no swap
    assert server.handle("clear_board") == "=\n\n"                            # the next one: swap
    server.handle("play b b1")
    assert server.handle("play w swap-pieces") == "=\n\n"
    assert server.handle("param_game allow_swap 0") == "=\n\n"
    server.handle("boardsize 5")
    server.handle("play b b1")
    assert server.handle("play w swap-pieces").startswith("? illegal move")
    for bad in ("param_game allow_swap 2", "param_game komi 1"):
        assert server.handle(bad).startswith("? ")
    assert server.handle("param_game") == "= [bool] allow_swap 0\n\n"
    c4 = GtpServer(make_engine("random"), "connect4")
    assert c4.handle("param_game") == "=\n\n"
    assert c4.handle("param_game allow_swap 1").startswith("? allow_swap: Connect Four has no swap")
    assert not c4.swap


def test_hexgui_analyze_commands_and_gfx_analysis():
    server = GtpServer(make_engine("mcts:sims=300,seed=1"), "hex", "5")
    listed = server.handle("hexgui-analyze_commands")[2:].strip().splitlines()
    for entry in listed:
        kind, label, command = entry.split("/")
        assert kind in ("param", "gfx", "string") and label
        assert server.handle(f"known_command {command.split()[0]}") == "= true\n\n"
    assert "gfx/Engine Analysis/boardai-analyse" in listed
    server.handle("play b c3")
    answer = server.handle("boardai-analyse")
    assert answer.startswith("= VAR w ")
    lines = answer[2:].strip().splitlines()
    assert [line.split()[0] for line in lines] == ["VAR", "INFLUENCE", "TEXT"]
    var = lines[0].split()[1:]
    assert var[0::2] == ["wb"[i % 2] for i in range(len(var) // 2)]   # colours alternate
    influence = lines[1].split()[1:]
    cells = influence[0::2]
    assert "c3" not in cells and len(cells) == 24
    assert all(0.0 <= float(v) <= 1.0 for v in influence[1::2])   # HexGui colours by [0, 1]
    assert server.board.ply == 1                                    # analysis plays nothing
    random_server = hex_server()
    assert random_server.handle("boardai-analyse").startswith("= VAR b ")   # no statistics: no INFLUENCE
    random_server.handle("boardsize 1")
    random_server.handle("play b a1")
    assert random_server.handle("boardai-analyse").startswith("? the game is over")


@pytest.mark.parametrize("tail", [b"", b"\n"])
def test_an_overlong_line_is_refused_and_the_server_goes_on(tail):
    """A line of 5 MB (with or without its end) is skipped with one answer; memory holds at
    most MAX_LINE of it at a time, and the next command is answered as usual."""
    from boardai.ui.gtp_server import MAX_LINE
    server = GtpServer(make_engine("random"), "hex", "5")
    huge = b"play black " + b"a" * (5 * 1024 * 1024) + tail
    inp = io.BytesIO(b"1 name\n" + huge + (b"" if tail else b"\n") + b"2 boardsize 7\n3 name\n")
    out = io.BytesIO()
    server.serve(inp, out)
    answers = out.getvalue().decode().split("\n\n")
    assert answers[0] == "=1 boardai"
    assert answers[1].startswith("? line too long") and str(MAX_LINE // 1024) in answers[1]
    assert answers[2] == "=2" and answers[3] == "=3 boardai"
    assert server.board.width == 7


# --- separators: the space and the tab only
def test_unicode_spaces_do_not_separate():
    """``quit \\u00a0`` is quit with one argument (refused), not quit; ``boardsize\\u30005`` is one
    unknown command; a tab separates like a space."""
    server = hex_server()
    answer = server.handle("quit \u00a0".encode())
    assert answer.startswith("? ") and not server.done
    assert server.handle("boardsize\u30005") == "? unknown command: boardsize\\u30005\n\n"
    assert server.board.width == 5
    assert server.handle("play\u00a0b c3").startswith("? unknown command")
    assert server.handle("name\u2003").startswith("? unknown command")
    assert server.board.move_stack == []
    assert server.handle("boardsize\t7") == "=\n\n" and server.board.width == 7
    assert parse_command("\u3000quit").name == "\u3000quit"
    assert parse_command("1\tplay  b\tc3").args == ["b", "c3"]


def test_quit_with_a_unicode_space_keeps_the_process_serving():
    out = io.BytesIO()
    hex_server().serve(io.BytesIO(b"quit \xc2\xa0\nname\n"), out)
    answers = out.getvalue().decode("utf-8").split("\n\n")[:-1]
    assert answers[0].startswith("? ") and answers[1] == "= boardai"


@pytest.mark.parametrize("line", ["boardsize \u0663", "boardsize \u0661\u0660", "boardsize \uff15",
                                  "time_left b \u0661 0", "play b c\u0663"])
def test_other_script_digits_are_refused(line):
    server = hex_server()
    assert server.handle(line).startswith("? ")
    assert server.board.width == 5 and server.board.move_stack == []
