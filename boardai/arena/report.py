"""What the arena commands show: the progress bar, match and tournament reports, store summaries,
and their JSON forms (``--json``), plus SGF export of stored games."""

from __future__ import annotations

import math
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from boardai.arena.match import MatchOutcome, MatchScore, TournamentOutcome, score_games
from boardai.arena.ratings import elo_from_score, finite_or_none
from boardai.arena.store import Store, StoredGame
from boardai.records import GameRecord, save


def report_console() -> Console:
    """Standard output for reports: the terminal's width, or 120 columns when piped."""
    console = Console()
    return console if console.is_terminal else Console(width=120)


def sweep_bound(games: int) -> float:
    """The Elo difference a side that won all of ``games`` games is at least, at 95% (the
    exact binomial bound: the score p with p**games = 2.5%)."""
    return elo_from_score(0.025 ** (1.0 / games))


def elo_text(score: MatchScore) -> str:
    """``+35.2 ± 41.0``; ``+416.6 [+215, +inf]`` when the interval is unbounded on one side;
    ``not finite (A won every game; at least +140)`` when one side scored everything (the
    bound is the 95% one)."""
    e = score.elo()
    if not math.isfinite(e.elo):
        bound = sweep_bound(e.games)
        if e.elo > 0:
            return f"not finite (A won every game; at least {bound:+.0f})"
        return f"not finite (B won every game; at most {-bound:+.0f})"
    if not math.isfinite(e.ci95):          # the interval reaches a 0% or 100% score
        low = "-inf" if not math.isfinite(e.elo_low) else f"{e.elo_low:+.0f}"
        high = "+inf" if not math.isfinite(e.elo_high) else f"{e.elo_high:+.0f}"
        return f"{e.elo:+.1f} [{low}, {high}]"
    return f"{e.elo:+.1f} ± {e.ci95:.1f}"


class ProgressBar:
    """A rich progress bar on stderr: games played, running score and Elo of the last match."""

    def __init__(self, total: int, label: str, enabled: bool = True):
        self.console = Console(stderr=True)
        self.enabled = enabled
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn("{task.fields[status]}"),
                                 TimeElapsedColumn(), console=self.console, transient=False)
        self.task = self.progress.add_task(label, total=total, status="")

    def __enter__(self) -> "ProgressBar":
        if self.enabled:
            self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.progress.stop()

    def __call__(self, score: MatchScore | None, done: int) -> None:
        status = ""
        if score is not None and score.games:
            pts = score.wins + 0.5 * score.draws
            name = score.engine_a if len(score.engine_a) <= 24 else score.engine_a[:23] + "…"
            status = (f"{escape(name)} {pts:g}/{score.games} "
                      f"({100 * pts / score.games:.1f}%)  Elo {elo_text(score)}")
        self.progress.update(self.task, completed=done, status=status)


# --- matches ------------------------------------------------------------------------------
def match_json(score: MatchScore) -> dict:
    e = score.elo()
    a_avg, b_avg = score.avg_time(0), score.avg_time(1)
    return {"engine_a": score.engine_a, "engine_b": score.engine_b, "games": score.games,
            "wins_a": score.wins, "wins_b": score.losses, "draws": score.draws,
            "score": round(e.score, 4), "elo_diff": finite_or_none(e.elo),
            "elo_ci95": finite_or_none(e.ci95), "los": round(e.los, 4),
            "by_colour": {side: dict(zip(("wins_a", "wins_b", "draws"), v))
                          for side, v in score.by_colour.items()},
            "avg_move_time_a": None if a_avg is None else round(a_avg, 6),
            "avg_move_time_b": None if b_avg is None else round(b_avg, 6),
            "reasons": dict(sorted(score.reasons.items()))}


def outcome_json(out: MatchOutcome) -> dict:
    d = {"match_key": out.plan.key, "game": out.plan.game,
         "size": f"{out.plan.width}x{out.plan.height}", "swap": out.plan.setup.swap,
         "openings": out.plan.suite.name, "seed": out.plan.seed, "requested": out.requested,
         "resumed": out.resumed,
         **match_json(out.score)}
    if out.sprt is not None:
        d["sprt"] = out.sprt.to_json()
    return d


def match_table(score: MatchScore, title: str) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("A plays")
    for col in ("A wins", "B wins", "draws", "A score"):
        t.add_column(col, justify="right")
    for side, (w, lo, d) in score.by_colour.items():
        n = w + lo + d
        t.add_row(side, str(w), str(lo), str(d), f"{(w + d / 2) / n:.3f}" if n else "-")
    n = score.games
    t.add_row("[bold]total", str(score.wins), str(score.losses), str(score.draws),
              f"{(score.wins + score.draws / 2) / n:.3f}" if n else "-")
    return t


def print_score(console: Console, score: MatchScore, title: str, resumed: int) -> None:
    """What every match-like report prints after its heading: games already stored, the
    colour table, the score with the Elo difference and LOS."""
    if resumed:
        console.print(f"resumed: {resumed} game(s) were already in the store")
    console.print(match_table(score, title))
    e = score.elo()
    colon = "" if math.isfinite(e.elo) else ":"
    console.print(f"score {e.score:.3f}   Elo difference (A - B){colon} {elo_text(score)} (95%)   "
                  f"LOS {100 * e.los:.1f}%")


def print_match(out: MatchOutcome, console: Console) -> None:
    s = out.score
    plan = out.plan
    console.print(f"A = {escape(plan.engine_a)}   B = {escape(plan.engine_b)}   "
                  f"{plan.game} {plan.width}x{plan.height}{' swap' if plan.setup.swap else ''}   "
                  f"openings {escape(plan.suite.name)}   "
                  f"seed {plan.seed}")
    print_score(console, s, f"{s.games} games", out.resumed)
    times = [s.avg_time(0), s.avg_time(1)]
    console.print("average move time: " + "   ".join(
        f"{who} {'-' if t is None else f'{1000 * t:.2f} ms'}" for who, t in zip("AB", times)))
    console.print("end reasons: " + (", ".join(f"{r} {c}" for r, c in sorted(s.reasons.items()))
                                     or "-"))
    if out.sprt is not None:
        v = out.sprt
        verdict = {"H1": "H1 accepted (A is stronger by elo1 or more)",
                   "H0": "H0 accepted (A is not stronger by elo1)", None: "no decision yet"}
        console.print(f"SPRT: LLR {v.llr:.2f} in [{v.lower:.2f}, {v.upper:.2f}]: "
                      f"{verdict[v.verdict]}")


# --- tournaments --------------------------------------------------------------------------
def print_tournament(out: TournamentOutcome, console: Console) -> None:
    order = sorted(range(len(out.engines)), key=lambda i: -out.ratings[i].elo)
    t = Table(title="ratings (maximum likelihood, first engine anchored at 0)",
              title_justify="left")
    for col, j in (("#", "right"), ("engine", "left"), ("Elo", "right"), ("± 95%", "right"),
                   ("games", "right"), ("score", "right")):
        t.add_column(col, justify=j)
    for rank, i in enumerate(order, 1):
        r = out.ratings[i]
        t.add_row(str(rank), escape(r.engine), f"{r.elo:+.1f}", f"{r.ci95:.1f}", str(r.games),
                  f"{100 * r.score:.1f}%")
    console.print(t)
    x = Table(title="cross-table (points of the row engine against the column engine)",
              title_justify="left")
    x.add_column("engine")
    for n, i in enumerate(order, 1):
        x.add_column(str(n), justify="right")
    for n, i in enumerate(order, 1):
        cells = ["-" if i == j else f"{out.points[i, j]:g}/{int(out.played[i, j])}" for j in order]
        x.add_row(f"{n} {escape(out.engines[i])}", *cells)
    console.print(x)


# --- stores -------------------------------------------------------------------------------
def store_summary(store: Store) -> list[dict]:
    """One summary per match in the store (the same fields as ``match --json``)."""
    out = []
    for m in store.matches():
        games = store.games(m.match_key)
        size = f"{m.width}x{m.height}" if m.width else "per game"   # compete: drawn per round
        swap = any(g.swap for g in games) or " swap" in m.config.get("board", "")
        out.append({"match_key": m.match_key, "game": m.game, "size": size, "swap": swap,
                    "openings": m.openings, "seed": m.seed,
                    **match_json(score_games(m.engine_a, m.engine_b, games))})
    return out


def print_store(path: str, rows: list[dict], console: Console) -> None:
    t = Table(title=f"{path}: {len(rows)} match(es), {sum(r['games'] for r in rows)} game(s)",
              title_justify="left")
    for col, j in (("match", "left"), ("A", "left"), ("B", "left"), ("game", "left"),
                   ("games", "right"), ("A-B-draws", "right"), ("score", "right"),
                   ("Elo A-B", "right"), ("end reasons", "left")):
        t.add_column(col, justify=j)
    for r in rows:
        elo = "-" if r["elo_diff"] is None else (
            f"{r['elo_diff']:+.1f}" + ("" if r["elo_ci95"] is None else f" ± {r['elo_ci95']:.1f}"))
        t.add_row(r["match_key"][:8], escape(r["engine_a"]), escape(r["engine_b"]),
                  f"{r['game']} {r['size']}{' swap' if r['swap'] else ''}", str(r["games"]),
                  f"{r['wins_a']}-{r['wins_b']}-{r['draws']}", f"{r['score']:.3f}", elo,
                  ", ".join(f"{k} {v}" for k, v in r["reasons"].items()))
    console.print(t)


def sgf_result(g: StoredGame) -> tuple[str, str | None]:
    """SGF ``RE`` (and the side that resigned) for a stored game."""
    if g.winner is None:
        return "0", None
    w = "B" if g.winner == 0 else "W"
    if g.reason == "time forfeit":
        return f"{w}+T", None
    if g.reason in ("illegal move", "crash"):
        return f"{w}+F", None
    if g.reason == "resign":
        return f"{w}+", "W" if w == "B" else "B"
    return f"{w}+", None


def stored_record(g: StoredGame) -> GameRecord:
    """The record of a stored game (what ``results --export`` writes and the web page opens)."""
    result, resigned = sgf_result(g)
    extra = {"GN": f"{g.match_key} game {g.idx}", "EV": f"boardai arena, {g.reason}"}
    return GameRecord(game=g.game, width=g.width, height=g.height, moves=g.moves,
                      black=g.black, white=g.white, result=result, resigned=resigned,
                      extra=extra, swap=g.swap, blocked=tuple(tuple(c) for c in g.blocked))


def export_sgf(store: Store, folder: str | Path) -> int:
    """Write every stored game as a record file in ``folder``; returns how many."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for g in store.games():
        save(stored_record(g), folder / f"{g.match_key[:8]}-{g.idx:05d}.sgf")
        n += 1
    return n
