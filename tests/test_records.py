"""Game records (boardai.records): round trips, HexGui's SGF, Connect Four records, clear errors."""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai import records
from boardai._version import __version__
from boardai.games import Connect4Board, HexBoard, make_board
from boardai.records import GameRecord, RecordError, dumps, load, loads, save

HEXGUI_SAMPLE = "(;FF[4]GM[11]SZ[11];B[a1];W[swap-pieces];B[c3])"

# Text without surrogates (which no file can hold); includes SGF's special ']' and '\'.
names = st.one_of(st.none(), st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
                  st.sampled_from(["human", "mcts:sims=100", "a]b\\c", "Ž ü 漢"]))
extras = st.dictionaries(st.sampled_from(["GN", "EV", "C", "RO", "PC", "SO"]),
                         st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
                         max_size=3)


def random_game(game: str, width: int, height: int, swap: bool, seed: int, length: int):
    board = make_board(game, (width, height), swap=swap)
    rng = random.Random(seed)
    while len(board.move_stack) < length and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


@st.composite
def games(draw):
    game = draw(st.sampled_from(["hex", "connect4"]))
    if game == "hex":
        width = draw(st.integers(1, 13))
        height = draw(st.one_of(st.just(width), st.integers(1, 13)))
        swap = width == height and draw(st.booleans())
    else:
        width = draw(st.integers(1, 10))
        height = draw(st.integers(1, 64 // width - 1))
        swap = False
    board = random_game(game, width, height, swap, draw(st.integers(0, 2**32)),
                        draw(st.integers(0, width * height + 1)))
    return board


# --- round trips ------------------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(games(), names, names, extras, st.sampled_from([None, None, "B", "W"]))
def test_round_trip_random_games(board, black, white, extra, resigns):
    rec = GameRecord.from_board(board, black=black, white=white)
    rec.extra.update(extra)
    if not board.is_game_over() and resigns:
        rec.resigned = resigns
        rec.result = "W+" if resigns == "B" else "B+"
    text = dumps(rec)
    back = loads(text, "rt.sgf")
    assert back == rec
    assert back.to_board() == board
    assert dumps(back) == text
    if board.is_game_over():
        assert back.result == board.outcome().result()
        assert f"RE[{back.result}]" in text
    elif rec.resigned:
        assert f"RE[{rec.result}Resign]" in text and f";{rec.resigned}[resign])" in text
    else:
        assert back.result is None and "RE[" not in text


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games())
def test_round_trip_through_files(board):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.sgf"
        rec = GameRecord.from_board(board, black="human", white="random")
        save(rec, path)
        assert load(path) == rec
        assert os.listdir(tmp) == ["game.sgf"]


def test_hex_record_looks_like_hexgui():
    board = HexBoard.from_moves("a1 swap c3", 11, swap=True)
    rec = GameRecord.from_board(board, black="human", white="mcts")
    rec.date = "2024-05-01"
    text = dumps(rec)
    assert text.endswith(")\n") and all(len(line) <= 72 for line in text.splitlines())
    assert text.replace("\n", "") == (
        f"(;FF[4]GM[11]SZ[11]RU[swap]AP[boardai:{__version__}]DT[2024-05-01]PB[human]PW[mcts]"
        f";B[a1];W[swap-pieces];B[c3])")


def test_non_square_hex_size_is_written_w_colon_h():
    board = HexBoard.from_moves("a1 b2", 9, 7)
    text = dumps(GameRecord.from_board(board))
    assert "SZ[9:7]" in text and "RU[" not in text
    rec = loads(text)
    assert (rec.width, rec.height, rec.swap) == (9, 7, False)


def test_connect4_record_format():
    board = Connect4Board.from_position("4453")
    rec = GameRecord.from_board(board)
    rec.date = None
    assert dumps(rec) == (f"(;FF[4]GM[connect4]SZ[7:6]AP[boardai:{__version__}]PO[4453]\n"
                          f";B[4];W[4];B[5];W[3])\n")


def test_connect4_wide_board_position_uses_spaces():
    board = Connect4Board.from_moves([9, 0, 9], 10, 5)
    text = dumps(GameRecord.from_board(board))
    assert "PO[10 1 10]" in text and ";B[10];W[1];B[10]" in text
    assert loads(text).moves == [9, 0, 9]


# --- HexGui and hand-written files -------------------------------------------------------------
def test_hexgui_sample_loads_and_allows_swap_without_ru():
    rec = loads(HEXGUI_SAMPLE)
    assert (rec.game, rec.width, rec.height, rec.swap) == ("hex", 11, 11, True)
    board = rec.to_board()
    assert board.moves_text() == "a1 swap-pieces c3"
    assert board.swap_allowed


@pytest.mark.parametrize("spelling", ["swap", "swap-pieces", "swap-sides", "SWAP", " swap "])
def test_swap_spellings_read_as_swap_pieces(spelling):
    rec = loads(f"(;FF[4]GM[11]SZ[5];B[a2];W[{spelling}];B[c3])")
    assert rec.moves == [5, 25, 12] and rec.swap
    assert "W[swap-pieces]" in dumps(rec)


def test_hexgui_style_file_with_line_breaks_and_spaces():
    text = ("\ufeff  (;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[11]\r\n"
            "   PB[Alice]PW[Bob]\r\n"
            ";B[a1]\n ; W [swap-pieces]\n\n;B\n[c3]\n"
            "  ;W[ d4 ]C[a comment \\] in a node]\n)\n")
    rec = loads(text, "hg.sgf")
    assert rec.black == "Alice" and rec.white == "Bob"
    assert rec.to_board().moves_text() == "a1 swap-pieces c3 d4"
    assert rec.extra == {}  # AP names the writing program; boardai writes its own


def test_variations_follow_the_main_line():
    text = "(;FF[4]GM[11]SZ[5];B[a1](;W[b1];B[c1](;W[d1])(;W[e1]))(;W[c3];B[e5]))"
    assert loads(text).to_board().moves_text() == "a1 b1 c1 d1"


def test_unknown_root_properties_are_kept_and_escapes_read():
    text = "(;FF[4]GM[11]SZ[3]GN[final \\] round\\\\]C[line one\nline two]EV[x][y];B[b2])"
    rec = loads(text)
    assert rec.extra == {"GN": "final ] round\\", "C": "line one\nline two", "EV": "x y"}
    assert loads(dumps(rec)).extra == rec.extra


def test_non_ascii_names_write_charset():
    rec = GameRecord("hex", 3, 3, black="Žofie", white="白")
    text = dumps(rec)
    assert "CA[UTF-8]" in text
    assert loads(text) == rec


# --- results ------------------------------------------------------------------------------------
def test_finished_hex_game_result_written_and_read():
    board = HexBoard.from_moves("b2 a1 b1 c1 b3", 3)
    text = dumps(GameRecord.from_board(board))
    assert "RE[B+]" in text
    assert loads(text).result == "B+"
    # RE missing on a finished game: the moves decide it.
    assert loads("(;FF[4]GM[11]SZ[3];B[b2];W[a1];B[b1];W[c1];B[b3])").result == "B+"


def test_connect4_draw_result():
    board = Connect4Board.from_moves([0, 0, 1, 1, 2, 2], 3, 2)
    text = dumps(GameRecord.from_board(board))
    assert "RE[0]" in text and "PO[112233]" in text
    assert loads(text).result == "0"


def test_resignation_written_as_sgf_says():
    board = HexBoard.from_moves("a1 b2", 11)
    rec = GameRecord.from_board(board)
    rec.resigned = "B"
    text = dumps(rec)
    assert "RE[W+Resign]" in text and text.rstrip().endswith(";B[resign])")
    back = loads(text)
    assert (back.result, back.resigned) == ("W+", "B")
    assert back == GameRecord(**{**rec.__dict__, "result": "W+"})


@pytest.mark.parametrize("re_text, result, resigned", [
    ("B+", "B+", None), ("W+", "W+", None), ("B+R", "B+", "W"), ("W+Resign", "W+", "B"),
    ("b+resign", "B+", "W"), ("W+T", "W+T", None), ("B+Forfeit", "B+F", None), ("?", "?", None),
    ("Void", "Void", None), ("0", "0", None), ("Draw", "0", None)])
def test_result_spellings(re_text, result, resigned):
    rec = loads(f"(;FF[4]GM[11]SZ[11]RE[{re_text}];B[a1])")
    assert (rec.result, rec.resigned) == (result, resigned)
    assert loads(dumps(rec)).result == result


def test_hexgui_resign_node_ends_the_record():
    rec = loads("(;FF[4]GM[11]SZ[11];B[a1];W[b2];B[resign])")
    assert (rec.moves, rec.resigned, rec.result) == ([0, 12], "B", "W+")


# --- errors -------------------------------------------------------------------------------------
CORRUPT = [
    ("", 1, "empty"),
    ("\n\n   \n", 1, "empty"),
    ("hello world", 1, "not an SGF record: it must start with '(;'"),
    ("\n\n;B[a1])", 3, "must start with '(;'"),
    ("(;FF[4]GM[11]SZ[11];B[a1", 1, "never closed with ']'"),
    ("(;FF[4]GM[11]SZ[11]\n;B[a1]\n;W[b2]", 3, "')' is missing"),
    ("(;FF[4]GM[11]\nSZ[11]\n;B\n", 4, "truncated"),
    ("(;FF[4]GM[11]SZ[11]\n;B[a1]\n)garbage", 3, "after the end of the record"),
    ("(;FF[4]GM[11]\nSZ[eleven];B[a1])", 2, "SZ[eleven] is not a board size: use SZ[11]"),
    ("(;FF[4]GM[11]\nSZ[0];B[a1])", 2, "side must be 1..26"),
    ("(;FF[4]GM[11]SZ[30])", 1, "side must be 1..26"),
    ("(;FF[4]GM[connect4]\nSZ[33];B[1])", 2, "1x1 to 32x32"),
    ("(;FF[4]GM[connect4]SZ[7:6]\nNG[8:1];B[1])", 2, "off the 7x6 board"),
    ("(;FF[4]GM[connect4]SZ[7:6]\nNG[x];B[1])", 2, "write COL:ROW"),
    ("(;FF[4]GM[hex]SZ[5]\nNG[1:1];B[a1])", 2, "Hex has no blocked cells"),
    ("(;FF[4]GM[connect4]SZ[7:6]NG[4:1];B[4]\n;W[4]NG[1:1])", 2, "first node"),
    ("(;FF[4]\nGM[1]SZ[19];B[aa])", 2, "GM[1] is Go"),
    ("(;FF[4]\nGM[chess];B[e4])", 2, "use GM[11] (Hex) or GM[connect4]"),
    ("(;FF[4]SZ[11];B[a1])", 1, "no GM property"),
    ("(;FF[4]GM[11]SZ[11]\n;B[a1]\n;W[b2]\n;B[zz])", 4,
     "'B[zz]' is not a move on this 11x11 board: type a cell a1..k11"),
    ("(;FF[4]GM[11]SZ[11]\n;B[a1]\n;W[a1])", 3, "'W[a1]' cannot be played: a1 is already taken"),
    ("(;FF[4]GM[11]SZ[11]\n;B[a1]\n;B[b2])", 3, "'B[b2]' is out of turn"),
    ("(;FF[4]GM[11]SZ[11]\n;W[a1])", 2, "'W[a1]' is out of turn"),
    ("(;FF[4]GM[11]SZ[3];B[b2];W[a1]\n;B[b1];W[c1];B[b3]\n;W[c2])", 3,
     "comes after the game ended: Black wins"),
    ("(;FF[4]GM[11]SZ[11]RU[none];B[a1]\n;W[swap])", 2, "swap is not allowed"),
    ("(;FF[4]GM[11]SZ[11];B[a1];W[b1]\n;B[swap])", 2, "swap is only allowed as White's first"),
    ("(;FF[4]GM[11]SZ[9:7];B[a1]\n;W[swap])", 2, "'W[swap]': swap needs a square board"),
    ("(;FF[4]GM[11]SZ[9:7]\nRU[swap];B[a1])", 2, "RU[swap]: the swap rule needs a square board"),
    ("(;FF[4]GM[11]SZ[11]\nRU[japanese];B[a1])", 2, "RU[japanese] is not a rule"),
    ("(;FF[4]GM[connect4]SZ[7:6]\nPO[4454];B[4];W[4];B[5];W[3])", 2,
     "PO[4454] does not match the moves (4453)"),
    ("(;FF[4]GM[connect4]SZ[7:6]PO[44x];B[4];W[4])", 1, "PO[44x] is not a position"),
    ("(;FF[4]GM[connect4]SZ[7:6]\n;B[8])", 2, "'B[8]' is not a column of this 7x6 board"),
    ("(;FF[4]GM[connect4]SZ[7:2];B[1];W[1]\n;B[1])", 2, "column 1 is full"),
    ("(;FF[4]GM[connect4]SZ[7:6];B[1];W[2];B[1];W[2];B[1];W[2];B[1]\n;W[2])", 2,
     "after the game ended"),
    ("(;FF[4]GM[connect4]SZ[7:6]\nRU[swap];B[1])", 2, "the swap rule is a Hex rule"),
    ("(;FF[4]GM[connect4]SZ[7:6]\nRU[popout];B[1])", 2, "Connect Four has no rule variants"),
    ("(;FF[4]GM[11]SZ[11]\nPO[4453];B[a1])", 2, "PO is the position of a Connect Four record"),
    ("(;FF[4]GM[11]SZ[3]\nRE[W+];B[b2];W[a1];B[b1];W[c1];B[b3])", 2,
     "RE[W+] contradicts the moves"),
    ("(;FF[4]GM[11]SZ[11]\nRE[B+42];B[a1])", 2, "RE[B+42] is not a result"),
    ("(;FF[4]GM[11]SZ[11];B[a1]\n;W[resign]\n;B[c3])", 3, "comes after White resigned (line 2)"),
    ("(;FF[4]GM[11]SZ[11]\nRE[B+];B[a1];B[resign])", 2, "does not match B[resign]"),
    ("(;FF[4]GM[11]SZ[11]\nAB[a1][b2];W[c3])", 2, "setup stones"),
    ("(;FF[4]GM[11]SZ[11];B[a1]\n;W[b2]SZ[13])", 2, "belongs in the first node"),
    ("(;FF[4]GM[11]SZ[11];B[a1]\n;W[b2]B[c3])", 2, "a node holds one move"),
    ("(;FF[4]GM[11]SZ[11];B[a1]\n;W[b2][c3])", 2, "a node holds one move"),
    ("(;FF[4]GM[11]SZ[11]\n;B a1)", 2, "property B has no value"),
    ("(;FF[4]GM[11]SZ[11];B[a1](;W[b1]);B[c3])", 1, "a node ';' after a variation"),
    ("(;FF[9]GM[11])", 1, "FF[9] is not an SGF version"),
    ("(;FF[4]GM[11]SZ[11]GM[11])", 1, "GM appears twice"),
]


@pytest.mark.parametrize("text, line, words", CORRUPT)
def test_corrupt_records_raise_record_error_with_line(text, line, words):
    with pytest.raises(RecordError) as info:
        loads(text, "game.sgf")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.source == "game.sgf"
    assert err.line == line, str(err)
    assert str(err).startswith(f"game.sgf line {line}: ")
    assert words in str(err)


def test_non_utf8_bytes(tmp_path):
    path = tmp_path / "latin.sgf"
    path.write_bytes(b"(;FF[4]GM[11]SZ[11]\nPB[Ren\xe9];B[a1])")
    with pytest.raises(RecordError) as info:
        load(path)
    assert info.value.line == 2 and "not UTF-8" in str(info.value)
    assert str(info.value).startswith(f"{path} line 2: ")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(RecordError, match="does not exist") as info:
        load(tmp_path / "nope.sgf")
    assert info.value.line is None
    with pytest.raises(RecordError, match="folder"):
        load(tmp_path)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.sgf"
    path.write_bytes(b"")
    with pytest.raises(RecordError, match="empty"):
        load(path)


def test_to_board_and_dumps_refuse_illegal_records():
    bad = GameRecord("hex", 3, 3, moves=[4, 4])
    with pytest.raises(RecordError, match="move 2 .* already taken"):
        bad.to_board()
    with pytest.raises(RecordError):
        dumps(bad)
    with pytest.raises(RecordError, match="not a game"):
        GameRecord("chess", 8, 8).to_board()
    with pytest.raises(RecordError, match="contradicts"):
        dumps(GameRecord("hex", 3, 3, moves=[4], result="W+", resigned="W"))
    with pytest.raises(RecordError, match="extra property"):
        dumps(GameRecord("hex", 3, 3, extra={"SZ": "5"}))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mangled_records_never_crash(data):
    """Deleting, inserting or replacing characters gives a record or a RecordError, nothing else."""
    text = data.draw(st.sampled_from([
        HEXGUI_SAMPLE,
        "(;FF[4]GM[connect4]SZ[7:6]PB[a\\]b]RE[B+]PO[4455667];B[4];W[4];B[5];W[5];B[6];W[6];B[7])",
        "(;FF[4]GM[11]SZ[3]RU[swap];B[b2](;W[swap];B[a1])(;W[a1]))",
    ]))
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["del", "ins", "rep"]))
        ch = data.draw(st.sampled_from(list("()[];\\:\n BWa1z9") + ["GM", "SZ", "swap"]))
        if op == "del":
            text = text[:pos] + text[pos + 1:]
        elif op == "ins":
            text = text[:pos] + ch + text[pos:]
        else:
            text = text[:pos] + ch + text[pos + 1:]
    try:
        rec = loads(text, "m.sgf")
    except RecordError as err:
        assert err.source == "m.sgf" and (err.line is None or err.line >= 1)
    else:
        assert loads(dumps(rec)) == rec


# --- save is atomic -------------------------------------------------------------------------------
def test_save_replaces_atomically_and_leaves_no_temp_files(tmp_path):
    path = tmp_path / "game.sgf"
    first = GameRecord.from_board(HexBoard.from_moves("a1", 5))
    save(first, path)
    second = GameRecord.from_board(HexBoard.from_moves("a1 b2 c3", 5))
    save(second, str(path))
    assert load(path) == second
    assert sorted(os.listdir(tmp_path)) == ["game.sgf"]


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "game.sgf"
    good = GameRecord.from_board(HexBoard.from_moves("a1", 5))
    save(good, path)
    before = path.read_bytes()

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(records.os, "replace", crash)
    with pytest.raises(RecordError, match="cannot write"):
        save(GameRecord.from_board(HexBoard.from_moves("a1 b2", 5)), path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["game.sgf"]
    # An invalid record is refused before anything touches the disk.
    with pytest.raises(RecordError):
        save(GameRecord("hex", 5, 5, moves=[0, 0]), path)
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["game.sgf"]


def test_save_into_missing_folder_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="cannot write"):
        save(GameRecord("hex", 5, 5), tmp_path / "no" / "such" / "game.sgf")


def test_examples_in_docs_load():
    """Every record shown in docs/formats.md is one boardai reads (and writes back the same)."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "formats.md"
    blocks = [b.strip("\n") for b in doc.read_text(encoding="utf-8").split("```")[1::2]]
    examples = [b + "\n" for b in blocks if b.startswith("(;")]
    assert len(examples) >= 5
    for text in examples:
        rec = loads(text, "formats.md")
        if "AP[boardai:" in text:
            assert dumps(rec) == text.replace("boardai:0.1.0", f"boardai:{__version__}")


# --- size: linear work, and the limits of a record ------------------------------------------------
ROOT = "(;FF[4]GM[11]SZ[11]"


def test_repeated_root_properties_are_joined_in_order():
    """150,000 repeats of GN (once quadratic: each repeat copied the joined text so far)."""
    text = ROOT + "GN[a]EV[e1]" + "GN[x]" * 150_000 + "GN[y][z]EV[e2];B[a1])"
    rec = loads(text)
    assert rec.extra == {"GN": "a " + "x " * 150_000 + "y z", "EV": "e1 e2"}
    assert rec.moves == [0]


def _work(text: str) -> int:
    """Python steps taken in boardai/records to load ``text`` (lines, calls and returns traced):
    a measure of the work that does not depend on the machine's speed."""
    folder = os.path.dirname(records.__file__)
    steps = 0

    def local(frame, event, arg):
        nonlocal steps
        steps += 1
        return local

    def calls(frame, event, arg):
        if frame.f_code.co_filename.startswith(folder):
            return local(frame, event, arg)
        return None

    sys.settrace(calls)
    try:
        loads(text)
    except RecordError:
        pass
    finally:
        sys.settrace(None)
    return steps


SHAPES = {
    "root properties": lambda n: ROOT + "GN[x]" * n + ";B[a1])",
    "values": lambda n: ROOT + "GN" + "[x]" * n + ";B[a1])",
    "nodes": lambda n: ROOT + ";C[x]" * n + ")",
    "variations": lambda n: ROOT + ";B[a1]" + "(;C[x])" * n + ")",
    "nesting": lambda n: ROOT + "(;C[x]" * n + ")" * n + ")",
    "escapes": lambda n: ROOT + "C[" + "a\\]b\\\r\n" * n + "];B[a1])",
    "lines": lambda n: ROOT + "\r\n PB[x]" * n + ";B[a1])",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_loading_work_grows_linearly(shape):
    """Ten times the input costs at most twelve times the steps (counted, not timed)."""
    small, large = _work(SHAPES[shape](2_000)), _work(SHAPES[shape](20_000))
    assert large <= 12 * small, (small, large)


def test_too_many_property_values_is_a_record_error():
    """The issue's 400,000 repeated root properties are refused at the limit, with its line."""
    with pytest.raises(RecordError, match=r"more than 200,000 property values \(MAX_VAL") as info:
        loads(ROOT + "\nGN[x]" * 400_000 + ";B[a1])", "big.sgf")
    assert info.value.line == 200_001 - 3 + 1     # the 200,001st value (3 are FF, GM, SZ)
    with pytest.raises(RecordError, match="MAX_VALUES"):
        loads(ROOT + "GN" + "[x]" * 300_000 + ")")
    with pytest.raises(RecordError, match="MAX_VALUES"):      # variations count too
        loads(ROOT + ";B[a1]" + "(;C[x][y][z])" * 70_000 + ")")
    assert len(loads(ROOT + "GN" + "[x]" * (200_000 - 4) + ";B[a1])").extra["GN"]) > 300_000


def test_too_many_nodes_is_a_record_error():
    with pytest.raises(RecordError, match=r"more than 100,000 nodes \(MAX_NODES"):
        loads(ROOT + ";C[x]" * 100_000 + ")")
    with pytest.raises(RecordError, match="MAX_NODES"):       # variations and other games count
        loads(ROOT + ";B[a1])" + "(;C[x])" * 100_000)
    with pytest.raises(RecordError, match="MAX_NODES"):
        loads(ROOT + "(;" * 100_001 + ")" * 100_001 + ")")
    assert loads(ROOT + ";B[a1]" + ";C[x]" * (100_000 - 2) + ")").moves == [0]


def test_too_big_a_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.sgf"
    with open(path, "wb") as fh:          # 16 MiB and one byte, all but its start a hole
        fh.write(ROOT.encode())
        fh.truncate(16 * 2**20 + 1)
    with pytest.raises(RecordError, match=r"16,777,217 bytes, more than the 16,777,216 bytes "
                                          r"\(16 MiB\) a record may be \(MAX_BYTES") as info:
        load(path)
    assert info.value.source == str(path) and info.value.line is None
    with pytest.raises(RecordError, match="MAX_BYTES"):
        loads(b" " * (16 * 2**20 + 1))
    with pytest.raises(RecordError, match="MAX_BYTES"):
        loads(" " * (16 * 2**20 + 1))
    # a long record within the limit loads: 15 MiB of comment
    assert len(loads(ROOT + "C[" + "x" * 15 * 2**20 + "];B[a1])").extra["C"]) == 15 * 2**20


def test_a_value_dense_with_escapes():
    """Escaped ']' and '\\', soft line breaks (LF, CR LF, CR), a million of them: read exactly."""
    piece = "a\\]\\\\\\\nb\\\r\n\\\\\\\rc"      # a\] \\ \<LF> b \<CR LF> \\ \<CR> c
    rec = loads(ROOT + "C[" + piece * 200_000 + "]\n;B[a1])")
    assert rec.extra["C"] == "a]\\b\\c" * 200_000
