"""A tiny stand-in for MoHex's GTP in the teacher-data tests: ``reg_genmove`` (a move, not
played) and ``mohex-values`` (root children as ``cell .mean@count``), playing the first free cell.

    python fake_mohex.py [RESIGN_AT] [CRASH_AT]

With RESIGN_AT, ``reg_genmove``/``genmove`` answer ``resign`` once the board holds that many
stones; with CRASH_AT the program exits at its CRASH_AT-th move request (over its whole life).
Like MoHex, it names cells a1..; it logs ``StartSearch()`` on stderr for each search, but with
five free cells or fewer it answers without one (as MoHex does a move it knows by rule) and
``mohex-values`` still shows the last search's children; before any search it fails with ``?``.
"""

from __future__ import annotations

import sys


def main() -> None:
    resign_at = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else None
    crash_at = int(sys.argv[2]) if len(sys.argv) > 2 else None
    size = 11
    taken: list[str] = []
    searched: list[str] | None = None     # the free cells at the last search
    requests = 0
    out = sys.stdout

    def answer(text: str = "") -> None:
        out.write(f"= {text}\n\n" if text else "=\n\n")
        out.flush()

    def free() -> list[str]:
        return [f"{chr(97 + c)}{r + 1}" for r in range(size) for c in range(size)
                if f"{chr(97 + c)}{r + 1}" not in taken]

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cmd, args = parts[0].lower(), parts[1:]
        if cmd == "quit":
            answer()
            return
        if cmd == "name":
            answer("fake-mohex")
        elif cmd == "version":
            answer("2.0")
        elif cmd == "list_commands":
            answer("\n".join(["name", "version", "boardsize", "clear_board", "play", "genmove",
                              "reg_genmove", "mohex-values", "quit"]))
        elif cmd == "boardsize":
            size = int(args[0])
            taken = []
            searched = None
            answer()
        elif cmd == "clear_board":
            taken = []
            searched = None
            answer()
        elif cmd == "play":
            taken.append(args[1].lower())
            answer()
        elif cmd in ("genmove", "reg_genmove"):
            requests += 1
            if crash_at is not None and requests >= crash_at:
                sys.exit(3)
            if resign_at is not None and len(taken) >= resign_at:
                answer("resign")
                continue
            cells = free()
            if len(cells) > 5:          # a search (its log line, as MoHex writes it)
                searched = cells
                print("info: StartSearch()[0]", file=sys.stderr, flush=True)
            # else a move "by rule": no search, the values stay the last search's (stale)
            move = cells[0]
            if cmd == "genmove":
                taken.append(move)
            answer(move)
        elif cmd == "mohex-values":
            if searched is None:
                out.write("? No previous search\n\n")
                out.flush()
                continue
            counts = ["1.2k", "300", "W@5", "0"]
            means = [".600", ".450", "", ""]
            words = []
            for k, cell in enumerate(searched[:4]):
                c = counts[k]
                words.append(f"{cell} {means[k]}@{c}" if means[k] else f"{cell} {c}")
            answer(" ".join(words))
        else:
            out.write("? unknown command\n\n")
            out.flush()


if __name__ == "__main__":
    main()
