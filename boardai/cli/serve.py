"""``boardai serve``: the web page to play and analyse on (the app is ``boardai.ui.web``)."""

from __future__ import annotations

import ipaddress
import os
import re
import sys

import click

from boardai.cli.common import CONTEXT, Fail, Int

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
HOST_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")
TOKEN_TEXT = re.compile(r"^[A-Za-z0-9_-]{16,200}$")


def check_host(ctx, param, value: str) -> str:
    """--host: an IPv4 or IPv6 address or a host name (letters, digits, '-' and dots)."""
    try:
        ipaddress.ip_address(value)
        return value
    except ValueError:
        pass
    if not HOST_NAME.match(value) or value.replace(".", "").isdigit():
        raise click.BadParameter(f"{value[:60]!r} is not an address: give an IP address "
                                 "(127.0.0.1, ::1, 0.0.0.0) or a host name (localhost)")
    return value


def check_token(ctx, param, value: str | None) -> str | None:
    if value is not None and not TOKEN_TEXT.match(value):
        raise click.BadParameter("a token is 16 to 200 letters, digits, '-' or '_'")
    return value


def _checked_store(ctx, param, value):
    """--store: not empty; a file that exists must be a result store (opened and closed here,
    before the server starts: a corrupt one fails with one line, exit 1)."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("the path is empty: give a result store (SQLite file)", ctx,
                                 param)
    import os
    if os.path.exists(value):
        from boardai.arena.store import Store, StoreError
        try:
            Store(value).close()
        except StoreError as exc:
            raise Fail(str(exc)) from None
    return value


def default_workers() -> int:
    """The search worker processes ``serve`` starts: 2, or 4 with 4 cores or more."""
    return 4 if (os.cpu_count() or 1) >= 4 else 2


@click.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, callback=check_host,
              help="Address to listen on; anything but this machine's loopback is warned about.")
@click.option("--port", type=Int(0, 65535), default=8000, show_default=True,
              help="Port to listen on, 0..65535 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--store", type=click.Path(dir_okay=False), callback=_checked_store,
              help="The arena store shown first (default $BOARDAI_HOME/arena.sqlite); the page "
                   "may open the other stores in its folder.")
@click.option("--store-dir", type=click.Path(file_okay=False, exists=True),
              help="The folder whose stores the page may open (default: --store's folder).")
@click.option("--allow-programs", is_flag=True,
              help="Let the page seat engines that run or read files of this machine "
                   "(gtp:CMD, strategy:PATH, nn:model=PATH, policy:model=PATH).")
@click.option("--token", callback=check_token, metavar="TEXT",
              help="The token API calls must carry in X-Boardai-Token (16..200 letters, digits, "
                   "'-', '_'); default: a new random one, printed at start-up.")
@click.option("--search-workers", type=Int(0, 16), default=None,
              help="Worker processes the engines search in (0: threads of the server's "
                   "process); default 2, or 4 on a machine of 4 cores or more.")
def serve(host, port, open_browser, store, store_dir, allow_programs, token,
          search_workers) -> None:
    """Serve the web page: play Hex, Connect Four and the other games against any engine,
    watch engines think (heat map, principal variation, win-rate graph), solve positions,
    browse arena results.  Everything is local: the page needs no network.

    Games are recorded after every move in $BOARDAI_HOME/games (as play records them); the
    games the server was playing when it stopped are played on at the next start.  Scripts
    call the API with the token printed at start-up (docs/web.md).

    \b
    Examples:
      boardai serve                       # then open http://127.0.0.1:8000/
      boardai serve --open --port 8080
      boardai serve --store results.sqlite
    """
    try:
        import uvicorn

        from boardai.ui.web.app import create_app
    except ImportError as exc:
        raise Fail(f"the web page needs the serve extra: pip install 'boardai[serve]' ({exc})") \
            from None
    if host not in LOCAL_HOSTS:
        click.echo(f"warning: listening on {host}: other machines can reach this server and its "
                   "engines; use the default 127.0.0.1 unless you mean it", err=True)
    from boardai.ui.terminal import default_record_path
    from boardai.ui.web.app import WS_TRANSPORT_MAX
    sys.setswitchinterval(0.001)    # the event loop waits less for the GIL (threads: 0 workers)
    app = create_app(store=store, store_dir=store_dir, allow_programs=allow_programs, host=host,
                     token=token, games_dir=default_record_path("x").parent,
                     search_workers=default_workers() if search_workers is None
                     else search_workers)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=WS_TRANSPORT_MAX)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host

    async def announce() -> None:
        while not server.started:
            import asyncio
            await asyncio.sleep(0.05)
        bound = port
        for s in server.servers:
            for sock in s.sockets:
                bound = sock.getsockname()[1]
        url = f"http://{shown}:{bound}/"
        click.echo(f"boardai serves {url}  (Ctrl-C stops)")
        click.echo(f"token for scripts (X-Boardai-Token): {app.state.token}")
        if open_browser:
            import webbrowser
            webbrowser.open(url)

    import asyncio

    async def main() -> None:
        task = asyncio.create_task(announce())
        try:
            await server.serve()
        finally:
            task.cancel()
    try:
        asyncio.run(main())
    except OSError as exc:
        raise Fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        pass
