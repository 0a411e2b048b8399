"""The web page (`boardai serve`): ``app.py`` (the ASGI app and its routes), ``sessions.py``
(the games being played, their searches), ``static/`` (the page itself: HTML, JS, CSS)."""
