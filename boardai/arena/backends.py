"""Where a command's games run (``--backend``): the local process pool or Ray.

``local`` is ``runner.make_runner`` (worker processes here); ``ray`` a local Ray started for
the command and ``ray:ADDRESS`` a Ray cluster (``ray_runner.RayRunner``).  Both play the same
``GameTask``s and yield the same ``StoredGame``s, so the commands do not know which ran.
"""

from __future__ import annotations

from boardai.arena.runner import Runner, make_runner


def parse_backend(text: str) -> tuple[str, str | None]:
    """``local``, ``ray`` or ``ray:ADDRESS`` -> (kind, address); ValueError naming them."""
    kind, _, address = (text or "local").strip().partition(":")
    kind = kind.lower()
    if kind not in ("local", "ray") or (kind == "local" and address):
        raise ValueError(f"--backend must be local, ray or ray:ADDRESS (e.g. ray:10.0.0.5:6379), "
                         f"not {text!r}")
    return kind, (address.strip() or None)


def runner_for_backend(backend: str, jobs: int | None, batch: int = 1) -> Runner:
    """The runner of ``backend`` with ``jobs`` workers (local processes, or a local Ray's CPUs);
    ValueError naming what is accepted or why the cluster cannot be used."""
    kind, address = parse_backend(backend)
    if kind == "ray":
        from boardai.arena.ray_runner import RayRunner
        return RayRunner(address, jobs)
    return make_runner(jobs, batch)
