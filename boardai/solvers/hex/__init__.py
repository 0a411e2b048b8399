"""The Hex solver: proof-number search over virtual connections (``solver.py``, ``vc.py``,
``inferior.py``, ``bits.py``) and its face for the engines (``player.py``)."""
