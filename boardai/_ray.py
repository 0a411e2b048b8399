"""Ray, started or joined once the same way by every command that farms work out to it: the
arena's games (``arena/ray_runner.py``), the teacher's games (``train/teacher.py``) and the
Connect Four book's positions (``solvers/connect4/book.py``).

``join(address, jobs)`` starts a local Ray with ``jobs`` CPUs (``address`` None) or joins the
cluster at ``address`` (``auto``: the one ``ray start`` made here; HOST:PORT is checked to
answer first, since Ray itself retries a wrong address for minutes) and says whether this
process owns it (then it shuts it down).  ``ray_map(func, args, address, jobs)`` runs
``func(*a)`` for each tuple of ``args`` as Ray tasks, a window of them in flight, and yields
the results as they finish.  Problems are ``ValueError`` with a one-line message.
"""

from __future__ import annotations

import os
import socket
from typing import Any, Callable, Iterable, Iterator

OPTIONS = {"log_to_driver": False, "include_dashboard": False, "configure_logging": False}


def import_ray():
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'boardai[dist]'") from None
    return ray


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """ValueError unless something listens at ``address`` (HOST:PORT of a Ray head)."""
    host, _, port = address.replace("ray://", "").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT (the head's GCS port, 6379 by default) or "
                         f"auto, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"no Ray cluster answers at {address}: {exc.strerror or exc} (start one "
                         "with `ray start --head`)") from None


def join(address: str | None, jobs: int | None) -> bool:
    """Start or join Ray (see the module's text); True when this call started it."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    if address is not None and address != "auto":
        check_reachable(address)
    try:
        if address is None:
            ray.init(num_cpus=jobs or os.cpu_count() or 1, **OPTIONS)
        else:
            ray.init(address=address, **OPTIONS)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        raise ValueError(f"cannot reach a Ray cluster at {address}: {exc}"
                         if address else f"cannot start a local Ray: {exc}") from None
    return True


def window(cpus: int) -> int:
    """Tasks in flight at once: enough to keep every CPU busy, few enough to stop soon."""
    return cpus + max(1, cpus // 2)


def ray_map(func: Callable[..., Any], args: Iterable[tuple], address: str | None,
            jobs: int | None, retries: int = 3) -> Iterator[Any]:
    """``func(*a)`` for each ``a`` of ``args`` as Ray tasks; the results as they finish."""
    ray = import_ray()
    own = join(address, jobs)
    try:
        remote = ray.remote(num_cpus=1, max_retries=retries)(func)
        size = window(max(1, int(ray.cluster_resources().get("CPU", 1))))
        queue, pending = list(args), []
        queue.reverse()                          # popped from the end: first given, first sent
        while queue or pending:
            while queue and len(pending) < size:
                pending.append(remote.remote(*queue.pop()))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if own:
            ray.shutdown()


__all__ = ["check_reachable", "join", "ray_map", "window", "import_ray"]
