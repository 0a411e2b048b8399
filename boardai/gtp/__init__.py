"""The GTP wire protocol (``protocol.py``): the framing shared by the ``gtp:`` engine
(``engines/gtp_client.py``) and the ``boardai gtp`` server (``ui/gtp_server.py``)."""
