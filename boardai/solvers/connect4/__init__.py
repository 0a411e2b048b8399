"""The Connect Four solver (``solver.py``), its opening book (``book.py``), the line-by-line
solving of ``boardai solve connect4`` (``lines.py``), its benchmark (``bench.py``) and its face for
the engines (``player.py``)."""
