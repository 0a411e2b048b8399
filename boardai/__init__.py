"""boardai: Hex and Connect Four with fast AI engines.

``boardai.games`` holds the rules (``HexBoard``, ``Connect4Board``), ``boardai.engines`` the
players (``make_engine("mcts:time=1")``), ``boardai.gtp`` the GTP wire protocol (framing and
``GtpConnection``) shared by the ``gtp:`` engine (``boardai.engines.gtp_client``) and the
``boardai gtp`` server (``boardai.ui.gtp_server``).
"""

from boardai._numba_cache import ensure_fresh_cache
from boardai._version import __version__

ensure_fresh_cache()

__all__ = ["__version__"]
