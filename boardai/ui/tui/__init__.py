"""``boardai tui``: Hex and Connect Four full screen in the terminal, on Textual.

``app.py`` is the application (the game, the engine worker, the side panel, the keys),
``board_widget.py`` the board you move on with the cursor keys or the mouse, ``picture.py``
the drawing of ``Board.view()`` in terminal cells, ``screens.py`` the dialogs.  Textual is
imported only here, so the rest of boardai runs without it.
"""

from __future__ import annotations

from boardai.ui.tui.app import BoardApp, Options, start_game

__all__ = ["BoardApp", "Options", "start_game"]
