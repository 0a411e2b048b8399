"""The web page's server: a Starlette (ASGI) app over ``sessions.py``, the arena stores and the
static page in ``static/``.  ``create_app()`` builds it; ``boardai serve`` runs it on uvicorn.

Every route answers JSON; a refused request is HTTP 4xx with ``{"error": ...}`` naming what is
accepted and changes nothing (unknown addresses, wrong methods and refused hosts included).
Bodies and websocket messages are size-limited; no route takes a file path (stores are chosen by
name inside the store folder).  ``Guard`` stands in front of every route: requests must name this
machine in their Host header (a web page elsewhere cannot reach the server through DNS tricks),
and every API call and websocket must carry the server's token (``X-Boardai-Token``; the page
gets it inside ``index.html``, which other web sites cannot read), come from the server's own
origin when it names one (``Origin``, ``Sec-Fetch-Site``) and send JSON bodies as
``application/json`` -- so no other web page, not even one on another port of this machine,
can create games, start programs or read a game.  The API is listed in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from boardai import __version__
from boardai.arena.store import Store, StoreError
from boardai.engines.registry import all_engines, engine_options, strongest_spec
from boardai.games import all_games
from boardai.ui.web.sessions import Full, NotFound, Sessions, WebError

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
MAX_SGF_BODY = 1024 * 1024
MAX_WS_MESSAGE = 16 * 1024
WS_TRANSPORT_MAX = 1024 * 1024    # uvicorn's frame limit: far above MAX_WS_MESSAGE, answered below
TOKEN_HEADER = "x-boardai-token"
TOKEN_PROTOCOL = "boardai-token."  # websocket subprotocol carrying the token (browsers set no headers)
WS_PROTOCOL = "boardai"
TOKEN_TEXT = re.compile(r"^[A-Za-z0-9_-]{16,200}$")
LOCAL_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]", "testserver"]
JSON_TYPES = ("application/json",)
SGF_TYPES = ("application/json", "application/x-go-sgf")
STORE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
STORE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,120}$")


class TooLarge(WebError):
    """A body or message over its limit (HTTP 413)."""


def _error(exc: Exception) -> JSONResponse:
    status = 404 if isinstance(exc, NotFound) else 413 if isinstance(exc, TooLarge) else \
        409 if isinstance(exc, Full) else 400
    return JSONResponse({"error": str(exc)}, status_code=status)


def _host_name(host_header: str) -> str:
    """The name in a Host header without its port (``[::1]:8000`` -> ``[::1]``)."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.split(":", 1)[0]


class Guard:
    """ASGI middleware in front of every route (see the module's docstring): the Host header,
    then for the API and its websockets the origin, the token and the body's type.  A refused
    HTTP request is answered ``{"error": ...}`` (400 bad Host, 403 other origin or no token, 415
    not JSON); a refused websocket is turned down before it is accepted, with the same JSON
    answer as its HTTP response."""

    def __init__(self, app, hosts: list[str], token: str):
        self.app = app
        self.hosts = hosts
        self.token = token

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope, Headers(scope=scope))
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, text = refusal
        response = JSONResponse({"error": text}, status_code=status)
        if scope["type"] == "http":
            await response(scope, receive, send)
            return
        await receive()                                 # the websocket.connect message
        if "websocket.http.response" in scope.get("extensions", {}):
            await response(scope, receive, send)
        else:
            await send({"type": "websocket.close", "code": 4403, "reason": text[:120]})

    def _token_of(self, scope, headers: Headers) -> str | None:
        given = headers.get(TOKEN_HEADER)
        if given is None and scope["type"] == "websocket":
            for proto in scope.get("subprotocols") or ():
                if proto.startswith(TOKEN_PROTOCOL):
                    given = proto[len(TOKEN_PROTOCOL):]
            if given is None:
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                given = (query.get("token") or [None])[0]
        return given

    def refusal(self, scope, headers: Headers) -> tuple[int, str] | None:
        host_header = headers.get("host", "")
        if "*" not in self.hosts and _host_name(host_header) not in self.hosts:
            return 400, (f"this server answers requests for {', '.join(self.hosts[:3])} only, "
                         f"not {host_header[:80]!r}")
        path = scope.get("path", "")
        if scope["type"] == "http" and not (path == "/api" or path.startswith("/api/")):
            return None                     # the page and its files: public, read-only
        site = headers.get("sec-fetch-site")
        if site in ("cross-site", "same-site"):
            return 403, ("requests from other web sites are refused: use this server's own page "
                         "or call the API from a script with the token")
        origin = headers.get("origin")
        if origin is not None:
            scheme = {"https": "https", "wss": "https"}.get(scope.get("scheme", "http"), "http")
            own = f"{scheme}://{host_header}".lower()
            if origin.lower() != own:
                return 403, (f"requests from another origin ({origin[:80]}) are refused: only "
                             f"this server's own page ({own}) may call the API")
        given = self._token_of(scope, headers)
        if given is None or not secrets.compare_digest(given.encode("utf-8", "replace"),
                                                       self.token.encode()):
            return 403, ("the API needs this server's token in the X-Boardai-Token header "
                         "(boardai serve prints it at start-up; see docs/web.md)")
        if scope["type"] == "http" and scope.get("method") in ("POST", "PUT", "PATCH", "DELETE"):
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            has_body = headers.get("content-length", "0").strip() not in ("", "0") \
                or "transfer-encoding" in headers
            accepted = SGF_TYPES if path == "/api/sgf" else JSON_TYPES
            if (has_body or kind) and kind not in accepted:
                return 415, (f"send the body as {' or '.join(accepted)} (Content-Type), not "
                             f"{kind or 'without a type'}")
        return None


async def _body(request: Request, limit: int = MAX_BODY) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the request body is over {limit // 1024} KiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the request body is over {limit // 1024} KiB")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> dict:
    raw = await _body(request)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise WebError("the body is not JSON: send an object such as {\"move\": \"c3\"}") from None
    if not isinstance(data, dict):
        raise WebError("the body must be a JSON object")
    return data


def _meta_games() -> list[dict]:
    out = []
    for name, g in sorted(all_games().items()):
        out.append({"name": name, "title": g.title,
                    "default_size": g.size_text(*g.play_size_or_default),
                    "square_sizes": g.square_sizes, "swap": g.swap,
                    "blocked_cells": g.blocked_cells, "random_size": g.random_size is not None,
                    "random_what": g.random_what, "move_hint": g.move_hint,
                    "engine": strongest_spec(name)})
    return out


def _meta_engines(allow_programs: bool) -> list[dict]:
    out = []
    for name, cls in sorted(all_engines().items()):
        if cls.interactive:
            continue
        out.append({"name": name, "summary": cls.summary,
                    "starts_program": cls.uses_local_files,
                    "allowed": allow_programs or not cls.reads_local_files({}),
                    "options": [{"name": o.name, "default": o.default, "help": o.help,
                                 "range": o.range_text()} for o in engine_options(cls)]})
    return out


class StoreFolder:
    """The arena stores the page may open: result files in one folder, chosen by name."""

    def __init__(self, folder: Path, default: Path | None = None):
        self.folder = folder.resolve()
        self.default = default

    def _usable(self, name: str) -> Path | None:
        """The file a store name stands for, if the page may open it: a well-formed name of a
        regular file that is (after links are followed) in the store folder itself.  The one
        rule for listing and for opening, so every listed store opens."""
        if not STORE_NAME.match(name) or not name.endswith(STORE_SUFFIXES):
            return None
        try:
            path = (self.folder / name).resolve()
            if path.parent != self.folder or not path.is_file():
                return None
        except OSError:
            return None
        return path

    def names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if self._usable(p.name) is not None)

    def path(self, name: str) -> Path:
        if not STORE_NAME.match(name) or not name.endswith(STORE_SUFFIXES):
            raise WebError(f"a store is a file name ending in {', '.join(STORE_SUFFIXES)} from "
                           "/api/stores, not a path")
        path = self._usable(name)
        if path is None:
            raise NotFound(f"no store {name!r} in the store folder (see /api/stores)")
        return path

    def open(self, name: str) -> Store:
        try:
            return Store(self.path(name))
        except StoreError as exc:
            raise WebError(f"{name}: {exc}") from None


def store_report(store: Store) -> dict:
    """Matches with score and Elo, and the cross-table of every engine that played."""
    from boardai.arena.report import store_summary
    rows = store_summary(store)
    engines: list[str] = []
    for r in rows:
        for e in (r["engine_a"], r["engine_b"]):
            if e not in engines:
                engines.append(e)
    cross = [[None if i == j else {"points": 0.0, "games": 0} for j in range(len(engines))]
             for i in range(len(engines))]
    for r in rows:
        a, b = engines.index(r["engine_a"]), engines.index(r["engine_b"])
        if a == b:
            continue
        pa = r["wins_a"] + r["draws"] / 2
        pb = r["wins_b"] + r["draws"] / 2
        cross[a][b]["points"] += pa
        cross[a][b]["games"] += r["games"]
        cross[b][a]["points"] += pb
        cross[b][a]["games"] += r["games"]
    return {"matches": rows, "engines": engines, "cross": cross}


def _stored_games(store: Store, match: str | None) -> list[dict]:
    out = []
    for g in store.games(match):
        out.append({"match_key": g.match_key, "idx": g.idx, "game": g.game,
                    "size": f"{g.width}x{g.height}", "black": g.black, "white": g.white,
                    "winner": None if g.winner is None else ("black", "white")[g.winner],
                    "reason": g.reason, "moves": len(g.moves)})
    return out


def create_app(store: str | Path | None = None, store_dir: str | Path | None = None,
               allow_programs: bool = False, host: str = "127.0.0.1",
               max_games: int = 64, token: str | None = None,
               games_dir: str | Path | None = None, search_workers: int = 0,
               warm_workers: bool = True) -> Starlette:
    """The ASGI app.  ``store``: the default arena store (its folder is the store folder unless
    ``store_dir`` is given); ``allow_programs``: seat ``gtp:``/``strategy:`` engines;
    ``token``: what API calls must carry (default: a new random one, ``app.state.token``);
    ``games_dir``: where games are recorded after every move and restored from at start-up
    (None: not recorded); ``search_workers``: the worker processes engines search in, started
    with the server (0: threads of this process, as tests and scripts use), each loading the
    common engines' compiled searches at its start unless ``warm_workers`` is False."""
    from boardai.arena.match import default_store_path
    default = Path(store).expanduser() if store else default_store_path()
    folder = StoreFolder(Path(store_dir).expanduser() if store_dir else default.parent, default)
    if token is None:
        token = secrets.token_urlsafe(32)
    elif not TOKEN_TEXT.match(token):
        raise ValueError("a token is 16 to 200 letters, digits, '-' or '_'")
    sessions = Sessions(allow_programs=allow_programs, max_games=max_games,
                        games_dir=Path(games_dir).expanduser() if games_dir else None)
    page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{BOARDAI_TOKEN}}", token)

    def api(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except WebError as exc:
                return _error(exc)
            finally:            # an answer comes once the records it changed are written
                await sessions.writer.flush()
        return endpoint

    async def meta(request: Request) -> Response:
        default_name = folder.default.name if folder.default and folder.default.parent.resolve() \
            == folder.folder else None
        return JSONResponse({"version": __version__, "games": _meta_games(),
                             "engines": _meta_engines(allow_programs),
                             "allow_programs": allow_programs, "stores": folder.names(),
                             "default_store": default_name})

    async def new_game(request: Request) -> Response:
        session = sessions.new_game(await _json(request))
        return JSONResponse(session.state(), status_code=201)

    async def list_games(request: Request) -> Response:
        return JSONResponse([s.summary() for s in sessions.games.values()])

    async def game_state(request: Request) -> Response:
        return JSONResponse(sessions.get(request.path_params["gid"]).state())

    async def close_game(request: Request) -> Response:
        sessions.close(request.path_params["gid"])
        return JSONResponse({"ok": True})

    async def view_at(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        text = request.query_params.get("ply", "")
        if not text.isdigit():
            raise WebError(f"ply must be a whole number 0..{session.board.ply}, not {text!r}")
        return JSONResponse(session.view_at(int(text)))

    async def move(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        body = await _json(request)
        unknown = sorted(set(body) - {"move", "x", "y"})
        if unknown:
            raise WebError(f"unknown field(s) {', '.join(unknown)}: a move is "
                           '{"move": "c3"} or {"x": 2, "y": 0}')
        session.human_move(*_move_args(body))
        return JSONResponse(session.state())

    async def undo(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        session.undo()
        return JSONResponse(session.state())

    async def resign(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        session.resign()
        return JSONResponse(session.state())

    async def analyse(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        body = await _json(request)
        session.start_analysis(body.get("engine"), body.get("time"))
        return JSONResponse({"ok": True})

    async def stop(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        session.stop_analysis((await _json(request)).get("search"))
        return JSONResponse({"ok": True})

    async def review(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        body = await _json(request)
        session.start_review(body.get("engine"), body.get("time"))
        return JSONResponse({"ok": True})

    async def solve(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        return JSONResponse(await session.solve())

    async def sgf(request: Request) -> Response:
        session = sessions.get(request.path_params["gid"])
        name = f"boardai-{session.board.game_name}-{session.id}.sgf"
        return Response(session.sgf(), media_type="application/x-go-sgf",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def upload(request: Request) -> Response:
        raw = await _body(request, MAX_SGF_BODY)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError("a record is UTF-8 text (docs/formats.md)") from None
        if text.lstrip().startswith("{"):          # a JSON wrapper: {"sgf": "..."}
            try:
                text = json.loads(text)["sgf"]
            except (ValueError, KeyError, TypeError):
                raise WebError('send the record as the body, or {"sgf": "(;GM[...]...)"}') \
                    from None
            if not isinstance(text, str):
                raise WebError('"sgf" must be the record\'s text')
        session = sessions.from_record(text)
        return JSONResponse(session.state(), status_code=201)

    async def stores(request: Request) -> Response:
        return JSONResponse({"folder": str(folder.folder), "stores": folder.names()})

    async def store_view(request: Request) -> Response:
        with folder.open(request.path_params["name"]) as db:
            return JSONResponse({"name": request.path_params["name"], **store_report(db)})

    async def store_games(request: Request) -> Response:
        match = request.query_params.get("match") or None
        with folder.open(request.path_params["name"]) as db:
            return JSONResponse(_stored_games(db, match))

    async def open_stored(request: Request) -> Response:
        from boardai.arena.report import stored_record
        text = request.path_params["idx"]
        match = request.query_params.get("match") or None
        if not text.isdigit():
            raise WebError(f"a stored game is named by its number, not {text!r}")
        with folder.open(request.path_params["name"]) as db:
            found = [g for g in db.games(match) if g.idx == int(text)]
        if not found:
            raise NotFound(f"no game {text} in that store"
                           + (f" for match {match}" if match else ""))
        if len(found) > 1:
            raise WebError(f"game {text} is in {len(found)} matches: add ?match=KEY")
        try:
            board = stored_record(found[0]).to_board()
        except ValueError as exc:
            raise WebError(f"the stored game cannot be replayed: {exc}") from None
        session = sessions.from_board(board)
        session.seats[0].spec, session.seats[1].spec = "human", "human"
        session.message = (f"{found[0].black} (Black) - {found[0].white} (White): "
                           f"{found[0].reason}")
        return JSONResponse(session.state(), status_code=201)

    async def index(request: Request) -> Response:
        # the page carries the token; other sites can neither read it nor frame the page
        return Response(page, media_type="text/html", headers={
            "Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Content-Security-Policy": "frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer"})

    async def socket(ws: WebSocket) -> None:
        gid = ws.path_params["gid"]
        offered = list(ws.scope.get("subprotocols") or ())
        chosen = WS_PROTOCOL if WS_PROTOCOL in offered else (offered[0] if offered else None)
        await ws.accept(subprotocol=chosen)
        session = sessions.games.get(gid)
        if session is None:
            await ws.send_json({"type": "error", "error": f"no game {gid!r}"})
            await ws.close(code=4404)
            return
        queue: asyncio.Queue = asyncio.Queue()
        session.listeners.add(queue)
        await ws.send_json({"type": "state", "state": session.state()})

        async def send() -> None:
            while True:
                message = await queue.get()
                await ws.send_json(message)
                if message.get("type") == "closed":
                    await ws.close()
                    return

        sender = asyncio.create_task(send())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    reply: dict | None = {"type": "error", "error": "a message is JSON text "
                                          'such as {"op": "move", "move": "c3"}, not bytes'}
                else:
                    reply = await _ws_op(session, text)
                if reply is not None:
                    queue.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        except RuntimeError:         # the socket closed while we were reading
            pass
        finally:
            session.listeners.discard(queue)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if search_workers > 0:
            from boardai.session.searches import ProcessSearches
            sessions.searches = ProcessSearches(search_workers, warm=warm_workers)
        sessions.bind(asyncio.get_running_loop())
        sessions.restore()
        try:
            yield
        finally:
            sessions.shutdown()

    routes = [
        Route("/", index),
        Route("/api/meta", api(meta)),
        Route("/api/games", api(new_game), methods=["POST"]),
        Route("/api/games", api(list_games), methods=["GET"]),
        Route("/api/games/{gid}", api(game_state), methods=["GET"]),
        Route("/api/games/{gid}", api(close_game), methods=["DELETE"]),
        Route("/api/games/{gid}/view", api(view_at)),
        Route("/api/games/{gid}/move", api(move), methods=["POST"]),
        Route("/api/games/{gid}/undo", api(undo), methods=["POST"]),
        Route("/api/games/{gid}/resign", api(resign), methods=["POST"]),
        Route("/api/games/{gid}/analyse", api(analyse), methods=["POST"]),
        Route("/api/games/{gid}/stop", api(stop), methods=["POST"]),
        Route("/api/games/{gid}/review", api(review), methods=["POST"]),
        Route("/api/games/{gid}/solve", api(solve), methods=["POST"]),
        Route("/api/games/{gid}/sgf", api(sgf)),
        Route("/api/sgf", api(upload), methods=["POST"]),
        Route("/api/stores", api(stores)),
        Route("/api/stores/{name}", api(store_view)),
        Route("/api/stores/{name}/games", api(store_games)),
        Route("/api/stores/{name}/games/{idx}/open", api(open_stored), methods=["POST"]),
        WebSocketRoute("/api/games/{gid}/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = list(LOCAL_NAMES)
    if host not in ("127.0.0.1", "localhost", "::1"):
        hosts = ["*"]          # listening elsewhere on purpose: any name may reach it
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts, token=token)],
                    exception_handlers={HTTPException: _http_error, Exception: _server_error})
    app.state.sessions = sessions
    app.state.stores = folder
    app.state.token = token
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) as our JSON."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        text = f"no such address: {request.url.path[:200]} (the API is listed in docs/web.md)"
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        text = f"{request.method[:20]} is not accepted here" + (f": use {allowed}" if allowed
                                                               else "")
    else:
        text = str(exc.detail)
    return JSONResponse({"error": text}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"the server failed: {type(exc).__name__}: {exc}"[:500]},
                        status_code=500)


def _move_args(data: dict) -> tuple[Any, Any, Any]:
    """A move's name or spot from a request; both at once is refused (which one counts?)."""
    if "move" in data and ("x" in data or "y" in data):
        raise WebError('a move is named one way: {"move": "c3"} or {"x": 2, "y": 0}, not both')
    return data.get("move"), data.get("x"), data.get("y")


async def _ws_op(session, text: str) -> dict | None:
    """Carry out one websocket message; an error message to send back, or None."""
    if len(text) > MAX_WS_MESSAGE:
        return {"type": "error", "error": f"a message is at most {MAX_WS_MESSAGE // 1024} KiB"}
    try:
        data: Any = json.loads(text)
    except ValueError:
        return {"type": "error", "error": 'a message is JSON such as {"op": "move", "move": "c3"}'}
    if not isinstance(data, dict) or not isinstance(data.get("op"), str):
        return {"type": "error", "error": 'a message is {"op": ...}: op is one of move, undo, '
                                          'resign, analyse, stop, state'}
    op = data["op"]
    try:
        if op == "move":
            session.human_move(*_move_args(data))
        elif op == "undo":
            session.undo()
        elif op == "resign":
            session.resign()
        elif op == "analyse":
            session.start_analysis(data.get("engine"), data.get("time"))
        elif op == "stop":
            session.stop_analysis(data.get("search"))
        elif op == "state":
            return {"type": "state", "state": session.state()}
        else:
            return {"type": "error", "error": f"unknown op {op[:40]!r}: use move, undo, resign, "
                                              "analyse, stop or state"}
    except WebError as exc:
        return {"type": "error", "error": str(exc), "op": op}
    return None
