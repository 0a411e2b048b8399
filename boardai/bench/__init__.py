"""The measurements behind ``boardai bench``, inside the package so that the command works from an
installed boardai: what ``cli/bench.py`` (options, checks, printing) calls.

- ``speed.py``: playouts, ``mcts`` simulations and alpha-beta nodes per second, and the timing
  loop (``run_timed``) that the scripts in ``benchmarks/`` time their references with;
- ``course.py`` + ``plain.py``: ``bench course``, our kernel and ``mcts`` against a plain
  array-board Connect Four and plain UCT (the baseline, measured in the same run);
- ``solver.py`` + ``connect4_tests/``: ``bench solver``, the Connect Four solver on Pascal
  Pons' six classes of positions (the sets are this package's data);
- ``fuzz.py``: the fuzzers of GTP lines, records and ``solve`` lines; ``cli_fuzz.py``: the
  fuzzer of the command line (``bench fuzz``; the tests run the same generators and checks).

Comparisons with other programs, experiments and their run data live in ``benchmarks/`` at the
repository's root (not installed), which imports from here.
"""
