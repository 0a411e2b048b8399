"""Where a live game's searches run (boardai/session/searches.py): a search in a worker process
answers what the same search answers in this process; a worker that dies fails its search with
WorkerLost, is replaced, and the web game it served goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from boardai.engines.registry import make_engine
from boardai.engines.budget import move_limit
from boardai.games.setup import BoardSetup
from boardai.session.searches import (
    Job, ProcessSearches, ThreadSearches, WorkerLost,
)

SPEC = "mcts:sims=400,seed=7"


def _board(text: str = "hex 5", moves: tuple[str, ...] = ("c3", "b4")):
    board = BoardSetup.parse(text).make_board()
    for m in moves:
        board.push(m)
    return board


async def _search(searches, job: Job):
    """(answer, error, live messages) of one search."""
    loop = asyncio.get_running_loop()
    searches.bind(loop)
    messages: list[dict] = []
    done: asyncio.Future = loop.create_future()
    searches.submit(job, messages.append,
                    lambda result, error: done.done() or done.set_result((result, error)))
    result, error = await asyncio.wait_for(done, 300)      # a deadline for a stuck worker
    return result, error, messages


@pytest.fixture(scope="module")
def workers():
    pool = ProcessSearches(1, warm=False)
    assert pool.ping(300)
    yield pool
    pool.close()


@pytest.mark.parametrize("text,moves", [("hex 5", ("c3", "b4")), ("connect4 7x6", ("4", "4"))])
def test_a_search_in_a_worker_plays_the_move_of_the_same_search_here(workers, text, moves):
    board = _board(text, moves)
    here = make_engine(SPEC).play(board.copy(), move_limit(make_engine(SPEC)))
    (result, final), error, _ = asyncio.run(
        _search(workers, Job("move", board, SPEC, key=(text, int(board.turn)))))
    assert error is None
    assert result.name == here.name and result.nodes == here.nodes
    assert final["type"] == "analysis" and final["done"] and final["best"] == here.name
    (again, _), error, _ = asyncio.run(
        _search(ThreadSearches(2), Job("move", board, SPEC, key=("g1", int(board.turn)))))
    assert error is None and again.name == here.name


def test_an_analysis_streams_and_a_stop_ends_it(workers):
    async def go():
        loop = asyncio.get_running_loop()
        workers.bind(loop)
        messages: list[dict] = []
        done: asyncio.Future = loop.create_future()
        ticket = workers.submit(Job("analyse", _board(), "mcts", seconds=None,
                                    source="analysis"),
                                messages.append, lambda r, e: done.set_result((r, e)))
        while not messages:                       # the first live snapshot
            await asyncio.sleep(0.05)
        ticket.stop()
        return await asyncio.wait_for(done, 300), messages
    ((result, final), error), messages = asyncio.run(go())
    assert error is None and messages[0]["type"] == "analysis" and not messages[0]["done"]
    assert final["done"] and result.time_s < 60      # stopped, not run for its hour


@pytest.mark.parametrize("stop", [False, True])
def test_a_solve_in_a_worker_streams_its_columns_and_a_stop_keeps_them(workers, stop):
    """A solve in a worker process sends each column as it settles, then its answer: exact,
    or (stopped once a first column settled; the position takes the solver seconds more) the
    columns settled with the rest named unsettled."""
    board = _board("connect4 7x6", tuple("4444333" if not stop else "12345671"))

    async def go():
        loop = asyncio.get_running_loop()
        workers.bind(loop)
        messages: list[dict] = []
        done: asyncio.Future = loop.create_future()
        ticket = workers.submit(Job("solve", board, "solver"), messages.append,
                                lambda r, e: done.set_result((r, e)))
        if stop:
            while not messages and not done.done():     # the first settled column
                await asyncio.sleep(0.02)
            ticket.stop()
        return await asyncio.wait_for(done, 300), messages
    (final, error), messages = asyncio.run(go())
    assert error is None and messages and all(m["solving"] for m in messages)
    for before, after in zip(messages, messages[1:]):
        assert before["scores"].items() <= after["scores"].items()
    assert messages[-1]["scores"].items() <= final["scores"].items()
    assert not final["solving"] and final["exact"] != stop and final["stopped"] == stop
    assert set(final["scores"]) | set(final["unsettled"]) == set("1234567")
    assert bool(final["unsettled"]) == stop


def test_an_engine_error_comes_back_as_an_error(workers):
    board = _board("hex 5", ())
    result, error, _ = asyncio.run(_search(workers, Job("move", board, "nosuch",
                                                        key=("g2", 0))))
    assert result is None and "nosuch" in str(error)
    result, error, _ = asyncio.run(_search(workers, Job("fly", board, SPEC)))
    assert result is None and "unknown search kind" in str(error)


def test_a_killed_worker_fails_its_search_and_is_replaced():
    pool = ProcessSearches(1, warm=False)
    try:
        assert pool.ping(300)

        async def go():
            loop = asyncio.get_running_loop()
            pool.bind(loop)
            done: asyncio.Future = loop.create_future()
            pool.submit(Job("analyse", _board("hex 9", ()), "mcts", seconds=600,
                            source="analysis"),
                        lambda m: None, lambda r, e: done.set_result((r, e)))
            await asyncio.sleep(0.5)
            os.kill(pool.workers[0].process.pid, signal.SIGKILL)
            return await asyncio.wait_for(done, 300)
        old = pool.workers[0].process
        result, error = asyncio.run(go())
        assert result is None and isinstance(error, WorkerLost)
        assert "stopped" in str(error) and "replaced" in str(error)
        assert pool.workers[0].process is not old and pool.restarts == 1
        assert pool.ping(300)                        # the new worker answers
        board = _board()
        (result, _), error, _ = asyncio.run(
            _search(pool, Job("move", board, SPEC, key=("g1", int(board.turn)))))
        assert error is None and board.is_legal(result.move)
    finally:
        pool.close()


def test_a_web_game_goes_on_after_its_worker_is_killed(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from boardai.ui.web.app import create_app

    app = create_app(store=tmp_path / "arena.sqlite", games_dir=tmp_path / "games",
                     search_workers=1, warm_workers=False)
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as client:
        pool = app.state.sessions.searches
        assert isinstance(pool, ProcessSearches) and pool.ping(300)
        s = client.post("/api/games", json={"game": "hex", "size": "5", "black": "human",
                                            "white": "mcts:time=3,solver=0"}).json()
        gid = s["id"]
        s = client.post(f"/api/games/{gid}/move", json={"move": "c3"}).json()
        assert s["thinking"] == "white"
        time.sleep(0.5)
        os.kill(pool.workers[0].process.pid, signal.SIGKILL)
        end = time.monotonic() + 300                 # a deadline for a stuck server
        while time.monotonic() < end:
            s = client.get(f"/api/games/{gid}").json()
            if s["message"] and "thinks again" in s["message"]:
                break
            time.sleep(0.05)
        assert "stopped" in s["message"] and not s["view"]["over"]
        assert [m["name"] for m in s["moves"]] == ["c3"] and s["thinking"] == "white"
        while time.monotonic() < end and len(s["moves"]) < 2:    # the new worker answers
            time.sleep(0.1)
            s = client.get(f"/api/games/{gid}").json()
        assert len(s["moves"]) == 2 and s["moves"][1]["color"] == "white"
        assert not s["view"]["over"] and s["view"]["turn"] == "black"
        client.delete(f"/api/games/{gid}")


def test_records_are_written_off_the_loop_before_the_answer_and_a_failure_is_said(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from boardai import records
    from boardai.ui.web.app import create_app

    app = create_app(store=tmp_path / "arena.sqlite", games_dir=tmp_path / "games")
    with TestClient(app, headers={"X-Boardai-Token": app.state.token}) as client:
        sessions = app.state.sessions
        gid = client.post("/api/games", json={"game": "hex", "size": "4", "black": "human",
                                              "white": "human"}).json()["id"]
        path = sessions.get(gid).record_path
        for n, move in enumerate(("b2", "c3", "a1"), 1):
            client.post(f"/api/games/{gid}/move", json={"move": move})
            # the answer came once the record was written: it holds the move
            assert len(records.load(path).moves) == n
        # a record that can no longer be written: said on the page, the game goes on
        blocked = path.parent / "in-the-way"
        blocked.write_text("a file where a folder should be")
        sessions.get(gid).record_path = blocked / "g.sgf"
        client.post(f"/api/games/{gid}/move", json={"move": "d4"})
        s = client.get(f"/api/games/{gid}").json()
        assert "no longer recorded" in s["message"] and len(s["moves"]) == 4
        assert sessions.get(gid).record_path is None


@pytest.mark.parametrize("text, spec", [
    ("hex 9", "mcts:sims=300,seed=1"), ("hex 9", "mcts:sims=300,seed=1,mustplay=50"),
    ("connect4 7x6", "mcts:sims=300,seed=1"), ("connect4 7x6", "solver:time=0.2"),
    ("hex 5", "solver"), ("hex 7", "nn:sims=20"), ("connect4 7x6", "alphabeta:depth=4"),
])
def test_a_released_engine_is_freed_at_once_not_by_the_garbage_collector(text, spec):
    """A worker plays hundreds of games: a seat's engine, once released, must be freed by its
    reference count.  An engine in a reference cycle kept its trees (hundreds of MB) until a
    collection of the oldest generation, and the workers' memory grew by gigabytes."""
    import gc
    import weakref

    from boardai.session.searches import Engines
    board = _board(text, ())
    engines = Engines()
    engine, _ = engines.get(("g", "black"), spec)
    for _ in range(2):
        board.push(engine.play(board, move_limit(engine, per_move=0.2)).move)
    gone = weakref.ref(engine)
    del engine
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()                   # what was garbage before the release does not count
        engines.release("g")
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()
