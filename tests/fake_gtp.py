"""A tiny GTP engine for the arena tests: plays the first free Hex cell, misbehaving on request.

    python fake_gtp.py MODE [AT]

MODE ``good`` plays well-formed legal moves; ``crash`` exits at its AT-th genmove (default 1),
``hang`` stops answering there, ``illegal`` answers an occupied cell there, ``garbage`` answers
text that is no move, ``badbytes`` writes a line of invalid UTF-8 before every genmove answer
(and has a name that is not UTF-8) but plays well, ``trickle`` writes a stray line every 0.1 s
forever there instead of answering.  Every mode writes a line to stderr per genmove (the arena
keeps it).  Output is bytes, whatever the locale.
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

    out = sys.stdout.buffer

    def answer(text: str | bytes = "") -> None:
        if isinstance(text, str):
            text = text.encode()
        out.write(b"= " + text + b"\n\n" if text else b"=\n\n")
        out.flush()

    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace")
        parts = line.split()
        if not parts:
            continue
        cmd, args = parts[0].lower(), parts[1:]
        if cmd == "quit":
            answer()
            return
        if cmd == "name":
            answer(b"fake-\xff" if mode == "badbytes" else f"fake-{mode}")
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
            if genmoves >= at and mode == "trickle":
                while True:
                    out.write(b"thinking...\n")
                    out.flush()
                    time.sleep(0.1)
            if mode == "badbytes":
                out.write(b"info \xff\xfe\xc3 not utf-8\n")
            free = next(f"{chr(97 + c)}{r + 1}" for r in range(size) for c in range(size)
                        if f"{chr(97 + c)}{r + 1}" not in taken)
            taken.append(free)
            answer(free)
        else:
            out.write(b"? unknown command\n\n")
            out.flush()


if __name__ == "__main__":
    main()
