"""Fuzzing ``records.loads``: whatever it is given, it returns a GameRecord or raises RecordError.

Four kinds of input: any text, any bytes, texts made of SGF's own tokens, and valid records
(random games written by ``dumps``, a HexGui file, records with variations and comments) that are
then truncated, have bits flipped, properties duplicated or inserted and pieces cut out.  A
record that loads must also write back and load to the same record; a RecordError must name the
source and a line that exists.

The inputs and the check are ``boardai/fuzz.py``'s (``boardai bench fuzz --target records`` runs
them on a seeded stream); here hypothesis draws them (the mutations from its shrinkable random).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardai.bench.fuzz import TOKENS, check_record, mutate_record, random_record_input, valid_records
from boardai.records import GameRecord, loads


# an answer is checked for arriving at all, not for how fast (conftest.py)
pytestmark = pytest.mark.usefixtures("fuzz_without_speed_bound")


FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

VALID = [text for texts in valid_records().values() for text in texts]

# a valid record with 1-5 truncations, bit flips, duplicated properties, insertions and cuts
mutated = st.builds(lambda text, rng: mutate_record(text.encode("utf-8"), rng),
                    st.sampled_from(VALID), st.randoms(use_true_random=False))
sgf_like = st.lists(st.sampled_from(TOKENS), max_size=40).map(lambda ts: "(;" + "".join(ts))


def check(data: str | bytes) -> None:
    """loads gives a GameRecord that writes back to itself, or a RecordError naming a line."""
    check_record(data)


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
@given(mutated)
def test_mutated_valid_records(data):
    check(data)


@settings(FUZZ, max_examples=50)
@given(st.randoms(use_true_random=False))
def test_the_bench_stream(rng):
    """The inputs ``bench fuzz`` draws (text, bytes, tokens, mutations) pass the same check."""
    for _ in range(20):
        check(random_record_input(rng))


def test_valid_records_load():
    """The seeds of the mutations are themselves records, of every game."""
    seeds = valid_records()
    assert set(seeds) == {"hex", "connect4", "tictactoe"}
    for text in VALID:
        assert isinstance(loads(text), GameRecord)
