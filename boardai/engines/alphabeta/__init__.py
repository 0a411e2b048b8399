"""``minimax`` and ``alphabeta``: depth-bounded search (``engine.py``) over one jitted negamax
(``kernel.py``) and the game's static evaluators."""

from boardai.engines.alphabeta.engine import AlphaBetaEngine, MinimaxEngine, evaluator_id, value_of

__all__ = ["AlphaBetaEngine", "MinimaxEngine", "evaluator_id", "value_of"]
