"""The command-line fuzzer (boardai/bench/cli_fuzz.py): every subcommand and option of ``boardai``
with bad values, in this process.

The suite runs the whole deterministic list once (about 2,000 invocations: every command, every
option and argument, every bad value of its type); ``boardai bench fuzz --target cli --lines N``
runs it and then random pairs of bad values.  Each invocation must be refused with one error
line, exit status 2 for a usage error (1 for a corrupt file or an engine that cannot run), no
traceback, no hang (a 60 s guard), no file left behind; the long work of every command is a
tripwire, so an accepted value fails at once instead of running on.
"""

from __future__ import annotations

import click
import pytest

from boardai.bench import cli_fuzz as fc
from boardai.cli import main


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    return fc.Sandbox.create(tmp_path_factory.mktemp("cli-fuzz"), main)


@pytest.fixture(scope="module")
def items(box):
    return fc.invocations(box)


def test_every_command_and_parameter_is_fuzzed(items):
    covered = {(i.command, i.param) for i in items}
    for path, command in fc.commands(main).items():
        assert any(c == path for c, _ in covered), path
        for param in command.params:
            if getattr(param, "is_flag", False) or param.name == "help":
                continue
            assert (path, param.name) in covered, (path, param.name)
    assert len(items) >= 2000


# baselines that stop at a check of their own, before any tripwire: the message they stop with
BASELINE_FAILS = {"train export": "holds no training run", "train report": "holds no training run",
                  "train patterns": "no Hex moves to learn from"}


def test_every_baseline_is_accepted(box):
    """The oracle's ground: without the bad value, each command goes on to its work (or, for
    the three that need a training run or stored games, stops on that, not on a value)."""
    base = fc.baselines(box)
    with fc.tripwires():
        for path in fc.commands(main):
            inv = fc.Invocation(path, "-", "-", (*path.split(), *base[path]))
            out = fc.accepts(inv, box)
            if path in BASELINE_FAILS:
                assert out.exit_code == 1 and BASELINE_FAILS[path] in out.output, (path, out)
            else:
                assert out.exit_code == 0 or isinstance(out.exception, fc.ReachedWork), \
                    (path, out.exit_code, out.exception, out.output[-300:])


def test_a_tripwire_catches_an_accepted_value(box):
    """The checks can fail: a valid value is reported as accepted, a bad one is not."""
    bench = ("bench", "playouts")
    good = fc.Invocation("bench playouts", "seconds", "0.5", (*bench, "--seconds", "0.5"))
    with fc.tripwires():
        with pytest.raises(fc.FuzzFailure) as info:
            fc.check(good, box)
        assert info.value.kind == "accepted"
        fc.check(fc.Invocation("bench playouts", "seconds", "nan", (*bench, "--seconds", "nan"),
                               fc.USAGE), box)


def test_the_whole_generated_list_is_refused_cleanly(box, items):
    failures = []
    with fc.tripwires():
        for inv in items:
            try:
                fc.check(inv, box)
            except fc.FuzzFailure as failure:
                failures.append(str(failure)[:300])
    assert not failures, f"{len(failures)} of {len(items)}:\n" + "\n".join(failures[:20])


def test_random_pairs_are_refused_too(box, items):
    import random
    rng = random.Random(7)
    with fc.tripwires():
        for _ in range(100):
            fc.check(fc.combined(items, rng, box), box)


def test_bench_fuzz_cli_reports_the_count(monkeypatch):
    from click.testing import CliRunner
    import json
    result = CliRunner().invoke(main, ["bench", "fuzz", "--target", "cli", "--lines", "30",
                                       "--json"])
    assert result.exit_code == 0, result.output
    run = json.loads(result.output.splitlines()[-1])["runs"][0]
    assert run["target"] == "cli" and run["invocations"] == 30 and run["failures"] == 0


def test_commands_walks_groups():
    paths = fc.commands(main)
    assert {"book hex", "book connect4", "bench fuzz", "train run", "play"} <= set(paths)
    assert all(not isinstance(c, click.Group) for c in paths.values())
