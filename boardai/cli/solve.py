"""``boardai solve`` and ``boardai book``: exact solutions and the opening books built from them."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time

import click

from boardai.cli.common import CONTEXT, Float, Int, OutPath

MAX_SOLVE_SECONDS = 1e6      # as an engine's time=: 11.6 days
MAX_UNTIMED_HEX = 8          # past 8x8, `solve hex` needs --time (an empty 9x9 is not solved in days)


# --- solve --------------------------------------------------------------------------------
@click.group(context_settings=CONTEXT)
def solve() -> None:
    """Solve positions exactly (Connect Four completely; Hex on small boards)."""


@solve.command("connect4", context_settings=CONTEXT)
@click.argument("file", default="-", type=click.File("rb"))
@click.option("--analyze", is_flag=True, help="Print the score of every column (-1000: full).")
@click.option("--weak", is_flag=True, help="Only the sign: 1 win, 0 draw, -1 loss.")
@click.option("--size", default="7x6", show_default=True, help="WxH (width at most 9).")
@click.option("--no-book", is_flag=True, help="Search every position (no opening book).")
@click.option("--time", "seconds", type=Float(0, MAX_SOLVE_SECONDS, min_open=True),
              help="Seconds per position; what is not settled by then prints as ?.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def solve_connect4_cmd(file, analyze, weak, size, no_book, seconds, as_json) -> None:
    """Solve Connect Four positions, one a line (moves as column digits, as Pons' solver).

    Prints `moves score nodes microseconds` (or `moves s1 ... s7` with --analyze).  Scores
    follow Pascal Pons: 0 draw, > 0 the side to move wins, |score| = 22 - the winner's stones
    at the end on 7x6.  Input is UTF-8 whatever the locale; only the first token of a line
    is read.  Bad lines go to stderr with their number; exit status 1 if any.  With --time,
    a position not solved in time prints ? (--analyze: ? for each column not settled, the
    settled ones with their scores) and stderr says which.

    \b
    Examples:
      echo 4453 | boardai solve connect4
      boardai solve connect4 positions.txt --analyze
      echo 444435 | boardai solve connect4 --analyze --time 2
      printf '445566\\n2252576253462244111563365343\\n' | boardai solve connect4 --weak --json
    """
    from boardai.games import parse_size
    from boardai.solvers.connect4.lines import LineSolver

    try:
        w, h = parse_size("connect4", size)
        if w > 9:
            raise ValueError(f"positions are column digits, so --size allows widths up to 9, not {w}")
        solver = LineSolver(w, h, weak=weak, analyze=analyze, use_book=not no_book,
                            seconds=seconds)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    live = _LiveLine(w) if analyze and sys.stderr.isatty() else None
    results, bad, told_extra = [], 0, False
    for res in solver.run(file, None if live is None else live.watch):
        if live is not None:
            live.clear()
        if res.extra is not None and not told_extra:
            told_extra = True
            click.echo(f"line {res.line}: only the first token of a line is read; "
                       f"{res.extra!r} and the like are ignored", err=True)
        if res.error is not None:
            bad += 1
            click.echo(f"line {res.line}: {res.error}: {res.moves!r}", err=True)
        elif as_json:
            results.append(res.json())
        else:
            click.echo(res.text())
        if res.error is None and not res.settled:
            what = "not solved" if res.scores is None else "columns " + " ".join(
                str(c + 1) for c, s in enumerate(res.scores) if s is None) + " not settled"
            click.echo(f"line {res.line}: {what} in {seconds:g} s (printed ?)", err=True)
    if as_json:
        click.echo(json.dumps({"size": f"{w}x{h}", "results": results, "bad_lines": bad}))
    sys.exit(1 if bad else 0)


class _LiveLine:
    """On a terminal, the position being analysed and its columns as they settle, on one
    stderr line (``thinking…``), cleared before the position's answer is printed."""

    def __init__(self, width: int):
        self.width = width
        self.shown = False

    def watch(self, number: int, text: str):
        from boardai.solvers.answer import Watch

        moves = text.split()[0] if text.split() else ""
        scores: dict[int, int] = {}

        def on_score(col: int, score: int) -> None:
            scores[col] = score
            cells = " ".join(f"{c + 1}:{scores[c]:+d}" if c in scores else f"{c + 1}:?"
                             for c in range(self.width))
            sys.stderr.write(f"\r\x1b[K{moves} thinking… {cells}")
            sys.stderr.flush()
            self.shown = True
        sys.stderr.write(f"\r\x1b[K{moves} thinking…")
        sys.stderr.flush()
        self.shown = True
        return Watch(on_score=on_score)

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


@solve.command("hex", context_settings=CONTEXT)
@click.option("--size", type=Int(1, 11), required=True,
              help=f"Board side N: 1..{MAX_UNTIMED_HEX}, or up to 11 with --time.")
@click.option("--moves", default="", help='Moves from the empty board: "c3 d4" (no swap).')
@click.option("--all-openings", is_flag=True, help="Solve every one-stone opening by Black.")
@click.option("--time", "seconds", type=Float(0, MAX_SOLVE_SECONDS, min_open=True),
              help="Seconds per position, in (0, 1e6] (default: no limit; needed past "
                   f"{MAX_UNTIMED_HEX}x{MAX_UNTIMED_HEX}).")
@click.option("--threads", type=Int(1, 64), default=1, show_default=True,
              help="--all-openings: openings solved side by side.")
@click.option("--json", "as_json", is_flag=True, help="Last line: one JSON object.")
def solve_hex_cmd(size, moves, all_openings, seconds, threads, as_json) -> None:
    """Solve a Hex position (DFPN with virtual connections): winner and winning moves.

    \b
    Examples:
      boardai solve hex --size 5 --moves "c3"
      boardai solve hex --size 6 --all-openings --json   # {"openings": {"a1": "white", ...}}
      boardai solve hex --size 7 --all-openings --threads 2 --time 120
      boardai solve hex --size 7 --moves "d4" --time 60
      boardai solve hex --size 9 --time 60 --moves "d4 d3 f3 f4 h2 e4 g4 f6 e6 f5 e3 d6 d5 d7 h5 g7"
    """
    try:
        if size > MAX_UNTIMED_HEX and seconds is None:
            raise ValueError(f"--size {size} needs --time SECONDS: boards past "
                             f"{MAX_UNTIMED_HEX}x{MAX_UNTIMED_HEX} are not solved in any "
                             "reasonable time without a limit (sizes 1..11 with --time)")
        if all_openings:
            if moves.strip():
                raise ValueError("--all-openings solves the empty board's openings: give no --moves")
            _solve_hex_openings(size, seconds, threads, as_json)
        else:
            _solve_hex_position(size, moves, seconds, as_json)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _solve_hex_openings(size: int, seconds: float | None, threads: int, as_json: bool) -> None:
    """Every one-stone opening of the empty board: progress to stderr, then the map (or JSON)."""
    from boardai.games.hex.board import HexBoard
    from boardai.solvers.hex.openings import solve_openings

    t0 = time.perf_counter()

    def progress(name, winner, nodes, secs):
        click.echo(f"{name}: {winner or 'unsolved'}  ({nodes} nodes, {secs:.2f} s)", err=True)

    openings = solve_openings(size, seconds, progress, threads)
    total = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps({"size": size, "openings": openings, "seconds": round(total, 3)}))
        return
    board = HexBoard(size)
    for r in range(size):
        names = [board.move_name(r * size + c) for c in range(size)]
        click.echo(" " * r + " ".join({"black": "B", "white": "W"}.get(openings[x] or "", "?")
                                      for x in names))
    wins = [x for x, v in openings.items() if v == "black"]
    click.echo(f"Black's winning openings ({len(wins)}): {' '.join(wins)}  [{total:.2f} s]")


def _solve_hex_position(size: int, moves: str, seconds: float | None, as_json: bool) -> None:
    """The position after ``moves``: progress to stderr, then the board and its winner (or JSON)."""
    from boardai.games.hex.board import HexBoard
    from boardai.solvers.hex.player import load
    from boardai.solvers.hex.solver import solve as solve_hex

    board = HexBoard.from_moves(moves, size)
    load(board.width, board.height)            # compiled before the clock starts

    def report(nodes, secs, phi, delta):
        click.echo(f"{secs:6.0f} s  {nodes} nodes  (proof number {phi}, disproof number {delta})",
                   err=True)

    result = solve_hex(board, seconds, report)
    if as_json:
        click.echo(json.dumps({"size": size, "moves": board.moves_text(), **result.to_json()}))
        return
    click.echo(board.render())
    if result.winner is None:
        click.echo(f"not solved within {seconds} s ({result.nodes} nodes)")
    else:
        line = f"{result.winner} wins ({result.to_move} to move)"
        if result.winning_moves:
            line += "; winning moves: " + " ".join(result.winning_moves)
        click.echo(f"{line}  [{result.nodes} nodes, {result.seconds:.2f} s]")


# --- book ---------------------------------------------------------------------------------
@click.group(context_settings=CONTEXT)
def book() -> None:
    """Build opening books with the project's own solvers."""


@book.command("connect4", context_settings=CONTEXT)
@click.option("--depth", type=Int(0, 20), required=True,
              help="Solve every position with this many stones (0..20); shallower ones follow.")
@click.option("--lines", type=Int(0, 41),
              help="Then add the solver engine's own lines (its best move, any reply) up to "
                   "this many stones (0..41).")
@click.option("--main-line", type=Int(0, 41),
              help="Then add the line of perfect play from the empty board (the solver "
                   "engine against itself) up to this many stones (0..41).")
@click.option("--out", type=OutPath(), help="Where to write (default: the package's book).")
@click.option("--jobs", type=Int(1, 256), default=1, show_default=True,
              help="Positions solved at once (local worker processes, or a local Ray's CPUs).")
@click.option("--backend", default="local", show_default=True,
              help="local, ray (a local Ray) or ray:ADDRESS (a Ray cluster).")
@click.option("--tt-bits", type=Int(16, 28), default=24, show_default=True,
              help="Each worker's transposition table: 2**N entries of 8 bytes.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar: a line on stderr every minute (for a log file).")
def book_connect4_cmd(depth, lines, main_line, out, jobs, backend, tt_bits, quiet) -> None:
    """Build the Connect Four opening book (resumable: run it again after an interruption).

    Every position of up to --depth stones gets its exact score; progress is kept in
    <out>.partial.  A book at --out that is already that deep is kept as it is.  The entries of the book already at --out (else the package's: the solver
    engine's lines and their best moves) are kept, so a deeper book keeps the lines, and --lines
    extends them: each position the solver engine can meet on its lines up to --lines stones
    gets its best move.

    \b
    Examples:
      boardai book connect4 --depth 2
      boardai book connect4 --depth 2 --lines 5
      boardai book connect4 --depth 3 --main-line 24
      nice -n 10 boardai book connect4 --depth 6 --jobs 2 --out build/book6.npz -q
    """
    from boardai.solvers.connect4.book import BOOK_PATH, Book

    kind, _, address = backend.partition(":")
    if kind not in ("local", "ray") or (kind == "local" and address):
        raise click.UsageError(f"--backend must be local, ray or ray:ADDRESS, not {backend!r}")
    target = out or BOOK_PATH
    try:
        base = Book.load(target) if os.path.exists(target) else None
    except (OSError, ValueError) as exc:
        raise click.UsageError(f"{target} is not a book: {exc}") from None
    done_already = base is not None and base.depth >= depth     # a deeper book is kept
    if base is None and os.path.exists(BOOK_PATH):
        try:
            base = Book.load(BOOK_PATH)
        except (OSError, ValueError):
            base = None
    # kill (SIGTERM) stops the build as Ctrl-C does: saved once the running position ends
    previous = (signal.signal(signal.SIGTERM, _interrupt)
                if threading.current_thread() is threading.main_thread() else None)
    try:
        _book_connect4(depth, lines, main_line, target, jobs, backend, tt_bits, quiet, base,
                       done_already)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _book_connect4(depth, lines, main_line, target, jobs, backend, tt_bits, quiet, base,
                   done_already) -> None:
    from rich.progress import Progress

    from boardai.solvers.connect4.book import build_book, build_lines, build_main_line

    started = time.monotonic()
    last = [0.0]

    def quiet_note(done, total):
        if time.monotonic() - last[0] >= 60 or done == total:
            last[0] = time.monotonic()
            click.echo(f"{depth}-stone positions: {done}/{total} "
                       f"({time.monotonic() - started:.0f} s)", err=True)

    with Progress(disable=quiet) as bar:
        if not done_already:
            task = bar.add_task(f"solving {depth}-stone positions", total=None)
            try:
                built = build_book(
                    depth, target, tt_bits=tt_bits, jobs=jobs, backend=backend, base=base,
                    progress=quiet_note if quiet else
                    (lambda done, total: bar.update(task, completed=done, total=total)))
            except ValueError as exc:
                raise click.ClickException(str(exc)) from None
            except KeyboardInterrupt:
                bar.stop()
                click.echo(f"Interrupted; the positions solved are in {target}.partial: run "
                           "the same command to resume", err=True)
                sys.exit(130)
        else:
            built = base
        if lines is not None:
            tasks: dict[int, int] = {}

            def step(ply, done, total):
                if ply not in tasks:
                    tasks[ply] = bar.add_task(f"engine lines, {ply} stones", total=total)
                bar.update(tasks[ply], completed=done, total=total)

            built = build_lines(lines, target, progress=step)
        if main_line is not None:
            built, _ = build_main_line(main_line, target, tt_bits=tt_bits)
    click.echo(f"{len(built)} positions (every one up to {built.depth} stones"
               + (f", the engine's lines up to {lines}" if lines is not None else "")
               + (f", the main line up to {main_line}" if main_line is not None else "")
               + f") written to {target} in {time.monotonic() - started:.0f} s")


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


@book.command("hex", context_settings=CONTEXT)
@click.option("--sizes", default="1-6", show_default=True,
              help="Board sizes: N, N-M or a comma list (the solver handles up to 8).")
@click.option("--time", "seconds", type=Float(0, MAX_SOLVE_SECONDS, min_open=True),
              help="Seconds per opening, in (0, 1e6] (default: no limit).")
@click.option("--threads", type=Int(1, 64), default=1, show_default=True,
              help="Openings solved side by side.")
@click.option("--out", type=OutPath(),
              help="Where to write (default: the package's table, or its reply book).")
@click.option("--replies", is_flag=True,
              help="Build the book of first replies instead: a winning move for every position "
                   "of one stone (White to move) or two (Black to move) whose side to move wins "
                   "(sizes in the opening table; resumable: run again to go on).")
@click.option("--depth", type=Int(1, 8), default=2, show_default=True,
              help="With --replies: stones of the deepest positions (1..8) (past 2, the positions "
                   "after the book's own moves and any answer).")
def book_hex_cmd(sizes, seconds, threads, out, replies, depth) -> None:
    """Solve every one-stone opening of each size: the table the solver engine swaps by.

    A size with an opening not solved within --time is left out of the table.  With --replies,
    the first replies: where the side to move wins after one or two stones, a winning move
    (what `solver` and `mcts` play there at once); a position not solved within --time is left
    out, and the file is written every 20 positions.

    \b
    Examples:
      boardai book hex --sizes 1-6
      boardai book hex --replies --sizes 7 --time 300
      boardai book hex --replies --sizes 7 --depth 4     # deeper along the book's lines
    """
    from boardai.solvers.hex.book import REPLIES_PATH
    from boardai.solvers.hex.openings import OPENINGS_PATH, build_opening_table

    try:
        wanted = _size_list(sizes)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sizes") from None
    if replies:
        _book_hex_replies(wanted, seconds, out or REPLIES_PATH, depth)
        return

    def progress(name, winner, nodes, secs):
        click.echo(f"  {name}: {winner or 'unsolved'} ({nodes} nodes, {secs:.2f} s)", err=True)

    table = build_opening_table(wanted, out or OPENINGS_PATH, seconds, progress, threads)
    for size in wanted:
        if size in table:
            wins = sorted(k for k, v in table[size].items() if v == "black")
            click.echo(f"{size}x{size}: Black wins with {len(wins)} of {size * size} openings")
        else:
            click.echo(f"{size}x{size}: not every opening solved in time; left out")
    click.echo(f"written to {out or OPENINGS_PATH}")


def _book_hex_replies(sizes: list[int], seconds: float | None, out, depth: int) -> None:
    from rich.progress import Progress

    from boardai.solvers.hex.book import build_reply_book

    with Progress(disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("first replies", total=None)

        def progress(done, total, key, move, secs):
            bar.update(task, completed=done, total=total,
                       description=f"first replies ({key}: {move or 'loses'}, {secs:.2f} s)")
        try:
            unsolved = build_reply_book(sizes, out, seconds, progress, depth=depth)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sizes") from None
    for size in sizes:
        left = unsolved.get(size, 0)
        click.echo(f"{size}x{size}: " + (f"{left} positions not solved in time; left out"
                                        if left else "every position solved"))
    click.echo(f"written to {out}")


def _size_list(text: str) -> list[int]:
    """"5", "1-6" or "4,6" -> sizes 1..8 (the Hex solver's range)."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, _, hi = part.partition("-")
        if not (lo.isascii() and lo.isdigit()) or (hi and not (hi.isascii() and hi.isdigit())):
            raise ValueError(f"{text!r}: give sizes as N, N-M or a comma list, e.g. 1-6")
        a, b = int(lo), int(hi or lo)
        if not 1 <= a <= b <= 8:
            raise ValueError(f"{part!r}: sizes go from 1 to 8 for the Hex solver")
        out.extend(range(a, b + 1))
    return sorted(set(out))
