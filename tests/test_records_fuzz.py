"""Fuzzing ``records.loads``: whatever it is given, it returns a GameRecord or raises RecordError.

Four kinds of input: any text, any bytes, texts made of SGF's own tokens, and valid records
(random games written by ``dumps``, a HexGui file, records with variations and comments) that are
then truncated, have bits flipped, properties duplicated or inserted and pieces cut out.  A
record that loads must also write back and load to the same record; a RecordError must name the
source and a line that exists.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.games import make_board
from boardai.records import GameRecord, RecordError, dumps, loads

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _random_record(game: str, size: tuple[int, int], swap: bool, seed: int) -> str:
    board = make_board(game, size, swap=swap)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 12)):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return dumps(GameRecord.from_board(board, black="a]b\\c", white="Ž ü"))


VALID = [
    "(;FF[4]GM[11]SZ[11];B[a1];W[swap-pieces];B[c3])",
    "\ufeff (;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[11]\r\n PB[Alice]PW[Bob]\r\n;B[e5];W[f6]\r\n"
    ";B[resign])",
    "(;FF[4]GM[connect4]SZ[7:6]PB[a\\]b]RE[B+]PO[4455667];B[4];W[4];B[5];W[5];B[6];W[6];B[7])",
    "(;FF[4]GM[11]SZ[3]RU[swap]GN[x]C[one\\\ntwo];B[b2](;W[swap];B[a1])(;W[a1]))(;GM[11])",
    "(;FF[4]GM[11]SZ[9:7]RE[W+Resign]DT[2024-01-01]EV[e][f];B[a1]C[a comment];W[b2])",
] + [_random_record(g, s, sw, seed) for seed, (g, s, sw) in enumerate(
    [("hex", (5, 5), True), ("hex", (11, 11), False), ("hex", (4, 6), False),
     ("connect4", (7, 6), False), ("connect4", (5, 4), False), ("tictactoe", (3, 3), False)])]

# pieces a mutation inserts: properties (known, duplicated, of another game, absurd), SGF tokens,
# bytes that are not UTF-8 or are special to the parser
PIECES = [b"FF[4]", b"FF[9]", b"GM[11]", b"GM[connect4]", b"GM[1]", b"SZ[11]", b"SZ[7:6]",
          b"SZ[99999999999]", b"SZ[0:0]", b"SZ[-3]", b"RU[swap]", b"RU[x]", b"RE[B+]",
          b"RE[W+R]", b"RE[?]", b"PO[44]", b"PO[]", b"PB[x]", b"GN[x]", b"AB[a1]", b"B[a1]",
          b"W[swap]", b"B[resign]", b";W[b2]", b";B[]", b"(;", b"(", b")", b";", b"[", b"]",
          b"\\", b"\r", b"\n", b" ", b"\xff", b"\xc3", b"\xe2\x80\xa8", b"\x00", b"\xf0\x9f\x98"]


@st.composite
def mutated(draw) -> bytes:
    """A valid record with a few truncations, bit flips, duplicated properties, insertions."""
    data = draw(st.sampled_from(VALID)).encode("utf-8")
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(["truncate", "flip", "duplicate", "insert", "cut"]))
        if op == "truncate":
            data = data[:draw(st.integers(0, len(data)))]
        elif op == "flip" and data:
            i = draw(st.integers(0, len(data) - 1))
            data = data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
        elif op == "duplicate" and b"]" in data:
            # repeat one property (NAME[value]) of the record right after itself
            ends = [i + 1 for i, b in enumerate(data) if b == ord("]")]
            end = draw(st.sampled_from(ends))
            start = data.rfind(b"[", 0, end)
            while start > 0 and chr(data[start - 1]).isalpha():
                start -= 1
            data = data[:end] + data[start:end] * draw(st.integers(1, 3)) + data[end:]
        elif op == "insert":
            i = draw(st.integers(0, len(data)))
            data = data[:i] + draw(st.sampled_from(PIECES)) + data[i:]
        elif op == "cut" and data:
            i = draw(st.integers(0, len(data) - 1))
            data = data[:i] + data[i + draw(st.integers(1, 8)):]
    return data


TOKENS = ["(", ")", ";", "(;", "[", "]", "\\", "\\]", "\r\n", "\n", " ", "B[a1]", "W[b2]",
          "GM[11]", "GM[connect4]", "SZ[5]", "GaMe[11]", "C[", "x", "é", "[x]"]
sgf_like = st.lists(st.sampled_from(TOKENS), max_size=40).map(lambda ts: "(;" + "".join(ts))


def check(data: str | bytes) -> None:
    """loads gives a GameRecord that writes back to itself, or a RecordError naming a line."""
    try:
        rec = loads(data, "fuzz.sgf")
    except RecordError as err:
        assert err.source == "fuzz.sgf"
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
        assert err.line is None or 1 <= err.line <= lines, (err, lines)
        return
    assert isinstance(rec, GameRecord)
    assert loads(dumps(rec)) == rec


@FUZZ
@given(st.text(max_size=200))
def test_any_text(text):
    check(text)


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes(data):
    check(data)


@FUZZ
@given(sgf_like)
def test_sgf_tokens(text):
    check(text)


@settings(FUZZ, max_examples=1500)
@given(mutated())
def test_mutated_valid_records(data):
    check(data)


def test_valid_records_load():
    """The seeds of the mutations are themselves records."""
    for text in VALID:
        assert isinstance(loads(text), GameRecord)
