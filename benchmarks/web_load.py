"""Load on the web server: many games at once, each driven by a scripted websocket client.

    python benchmarks/web_load.py                        # 20 games for 120 s
    python benchmarks/web_load.py --games 5 --seconds 20 --engine mcts:time=0.1

``boardai serve`` runs in its own process on a free port.  Each client opens a game (a human
seat it plays itself against ``--engine``) on its own websocket, then plays random legal moves
as fast as the game allows, starting a new game when one ends, until the time is up.  For every
move it measures

- **human move**: from sending ``{"op": "move"}`` to the state with that move arriving;
- **engine reply**: from that state to the state with the engine's move, minus the engine's own
  search time (``time_s`` of that move): what the server adds around the engine (queueing for a
  worker thread, building the message, the socket).

It checks that no move is lost (every move sent comes back in the game's move list, in order)
and that no error arrives, closes each game when it ends (``DELETE``, as the page does when it
starts the next: the server keeps at most 64 live games and refuses one more), and reads the
server's memory (VmRSS) at the start, after the load, and after the games closed.
``--search-workers`` is passed to ``boardai serve`` (0: searches in threads of the server's
process; default: serve's own, worker processes).

Targets (issue #15): no error, no lost move, p99 added latency < 100 ms, memory flat after the
games close.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time

import websockets
from web_server import TOKEN, children_rss_mb, pct, request, rss_mb, served






class Client:
    def __init__(self, base: str, ws_base: str, args, seed: int):
        self.base, self.ws_base, self.args = base, ws_base, args
        self.rng = random.Random(seed)
        self.human_ms: list[float] = []
        self.added_ms: list[float] = []
        self.errors: list[str] = []
        self.lost = 0
        self.moves = 0
        self.games = 0
        self.ids: list[str] = []

    async def run(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            await self.play_one(deadline)

    async def play_one(self, deadline: float) -> None:
        state = await asyncio.to_thread(request, self.base, "POST", "/api/games",
                                        {"game": self.args.game, "size": self.args.size,
                                         "black": "human", "white": self.args.engine})
        gid = state["id"]
        self.ids.append(gid)
        self.games += 1
        sent: list[str] = []
        async with websockets.connect(f"{self.ws_base}/api/games/{gid}/ws?token={TOKEN}",
                                      max_size=2**22) as ws:
            state = await self.next_state(ws)
            while not state["view"]["over"] and time.monotonic() < deadline:
                move = self.rng.choice(list(state["legal"]))
                t0 = time.perf_counter()
                await ws.send(json.dumps({"op": "move", "move": move}))
                sent.append(move)
                state = await self.next_state(ws, lambda s: len(s["moves"]) >= len(sent))
                t1 = time.perf_counter()
                self.human_ms.append((t1 - t0) * 1000)
                self.moves += 1
                if state["view"]["over"]:
                    break
                state = await self.next_state(ws, lambda s: len(s["moves"]) > len(sent)
                                              or s["view"]["over"])
                t2 = time.perf_counter()
                if len(state["moves"]) > len(sent):
                    reply = state["moves"][len(sent)]
                    sent.append(reply["name"])
                    self.added_ms.append(((t2 - t1) - (reply["time_s"] or 0.0)) * 1000)
            names = [m["name"] for m in state["moves"]]
            if names != sent:
                self.lost += 1
                self.errors.append(f"{gid}: sent {sent} got {names}")
        if time.monotonic() < deadline:            # ended: closed as the page does
            await asyncio.to_thread(request, self.base, "DELETE", f"/api/games/{gid}")
            self.ids.remove(gid)

    async def next_state(self, ws, done=lambda s: True) -> dict:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                self.errors.append(message["error"])
                raise RuntimeError(message["error"])
            if message["type"] == "state" and done(message["state"]):
                return message["state"]


async def drive(args, base: str, ws_base: str) -> list[Client]:
    clients = [Client(base, ws_base, args, seed) for seed in range(args.games)]
    deadline = time.monotonic() + args.seconds
    results = await asyncio.gather(*(c.run(deadline) for c in clients), return_exceptions=True)
    for c, r in zip(clients, results):
        if isinstance(r, BaseException):
            c.errors.append(repr(r))
    return clients


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--game", default="hex")
    ap.add_argument("--size", default="9")
    ap.add_argument("--engine", default="mcts:time=0.1")
    ap.add_argument("--search-workers", type=int, default=None,
                    help="boardai serve --search-workers (0: threads of the server's process)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="load rounds (the time is split between them); memory is read after "
                         "each round's games close, to tell a leak from memory kept for reuse")
    args = ap.parse_args()

    extra = () if args.search_workers is None else ("--search-workers",
                                                    str(args.search_workers))
    with served(args.game, args.size, args.engine, extra) as (base, server):
        ws_base = base.replace("http://", "ws://")
        rss0 = rss_mb(server.pid)
        kids0 = children_rss_mb(server.pid)
        clients: list[Client] = []
        rss_load, rss_after, kids_load, kids_after = [], [], [], []
        took = 0.0
        for _ in range(args.rounds):
            t0 = time.monotonic()
            round_args = argparse.Namespace(**{**vars(args),
                                               "seconds": args.seconds / args.rounds})
            batch = asyncio.run(drive(round_args, base, ws_base))
            took += time.monotonic() - t0
            clients += batch
            rss_load.append(rss_mb(server.pid))
            kids_load.append(children_rss_mb(server.pid))
            for c in batch:
                for gid in c.ids:
                    try:
                        request(base, "DELETE", f"/api/games/{gid}")
                    except Exception:                   # noqa: BLE001 - closed by the LRU already
                        pass
            time.sleep(2)
            rss_after.append(rss_mb(server.pid))
            kids_after.append(children_rss_mb(server.pid))
        live = request(base, "GET", "/api/games")

    human = [x for c in clients for x in c.human_ms]
    added = [x for c in clients for x in c.added_ms]
    errors = [e for c in clients for e in c.errors]
    lost = sum(c.lost for c in clients)
    workers = "serve's default" if args.search_workers is None else args.search_workers
    print(f"web load: {args.games} clients, {args.game} {args.size} human vs {args.engine}, "
          f"{took:.0f} s, {os.cpu_count()} cores, search workers: {workers}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  games {sum(c.games for c in clients)}, human moves {len(human)}, "
          f"engine replies {len(added)}")
    print(f"  errors {len(errors)}, lost moves {lost}" + (f": {errors[:3]}" if errors else ""))
    print(f"  human move to its state:       p50 {pct(human, 50):6.1f} ms  p99 "
          f"{pct(human, 99):6.1f} ms  max {max(human, default=float('nan')):6.1f} ms")
    print(f"  engine reply beyond its search: p50 {pct(added, 50):6.1f} ms  p99 "
          f"{pct(added, 99):6.1f} ms  max {max(added, default=float('nan')):6.1f} ms"
          f"  (mean {statistics.fmean(added) if added else float('nan'):.1f})")
    for i, (load, after) in enumerate(zip(rss_load, rss_after), 1):
        print(f"  server memory, round {i}: {load:.0f} MB under load, {after:.0f} MB after its "
              f"games closed (before any: {rss0:.0f} MB)")
        if kids0 or kids_load[i - 1]:
            print(f"  search workers' memory, round {i}: {kids_load[i - 1]:.0f} MB under load, "
                  f"{kids_after[i - 1]:.0f} MB after (before any: {kids0:.0f} MB)")
    print(f"  games left open: {len(live)}")
    ok = not errors and not lost and pct(added, 99) < 100 and pct(human, 99) < 100
    print(f"  target (no error, no lost move, p99 added < 100 ms): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
