"""``mcts``: Monte Carlo tree search, its Python face (``engine.py``) over a jitted tree (``kernel.py``)."""

from boardai.engines.mcts.engine import MctsEngine

__all__ = ["MctsEngine"]
