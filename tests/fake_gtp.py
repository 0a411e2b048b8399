"""A tiny GTP engine for the arena tests: plays the first free Hex cell, misbehaving on request.

    python fake_gtp.py MODE [AT]

MODE ``good`` plays well-formed legal moves; ``crash`` exits at its AT-th genmove (default 1),
``hang`` stops answering there, ``illegal`` answers an occupied cell there, ``garbage`` answers
text that is no move.  Every mode writes a line to stderr per genmove (the arena keeps it).
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    size = 11
    taken: list[str] = []
    genmoves = 0

    def answer(text: str = "") -> None:
        sys.stdout.write(f"= {text}\n\n" if text else "=\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cmd, args = parts[0].lower(), parts[1:]
        if cmd == "quit":
            answer()
            return
        if cmd == "name":
            answer(f"fake-{mode}")
        elif cmd == "version":
            answer("1")
        elif cmd == "list_commands":
            answer("\n".join(["name", "version", "boardsize", "clear_board", "play", "genmove",
                              "quit"]))
        elif cmd == "boardsize":
            size = int(args[0])
            taken = []
            answer()
        elif cmd == "clear_board":
            taken = []
            answer()
        elif cmd == "play":
            taken.append(args[1].lower())
            answer()
        elif cmd == "genmove":
            genmoves += 1
            print(f"genmove {genmoves} ({mode})", file=sys.stderr, flush=True)
            if genmoves >= at and mode == "crash":
                sys.exit(3)
            if genmoves >= at and mode == "hang":
                time.sleep(3600)
            if genmoves >= at and mode == "illegal" and taken:
                answer(taken[0])
                continue
            if genmoves >= at and mode == "garbage":
                answer("pass-the-salt")
                continue
            free = next(f"{chr(97 + c)}{r + 1}" for r in range(size) for c in range(size)
                        if f"{chr(97 + c)}{r + 1}" not in taken)
            taken.append(free)
            answer(free)
        else:
            sys.stdout.write("? unknown command\n\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
