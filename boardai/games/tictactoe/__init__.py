"""Tic-tac-toe: rules (``kernel.py``), evaluator (``eval.py``), board, picture, description.

The worked example of adding a game to boardai: ``docs/adding_a_game.md`` walks through it.
"""
