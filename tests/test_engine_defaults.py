"""A game's description holds the game's facts only; the engines' settings per game live in the
engines' own tables (mcts's defaults, openspiel-mcts's game names, the bench's positions)."""

from __future__ import annotations

import dataclasses

import pytest

from boardai.bench.speed import BENCH_POSITIONS
from boardai.engines.base import Limit
from boardai.engines.mcts import defaults as D
from boardai.engines.mcts import kernel as MK
from boardai.engines.mcts.engine import MctsEngine
from boardai.engines.mcts.root_solver import root_solver
from boardai.engines.openspiel_engine import OPENSPIEL_GAMES
from boardai.engines.registry import make_engine
from boardai.games import all_games, get_game
from boardai.games.game import Game, PlayoutSwitch

# settings of an engine or a benchmark that once were fields of Game
ENGINE_SETTINGS = ("rave", "mcts_solver", "mcts_solver_cells", "mcts_mustplay", "mcts_patterns",
                   "mcts_local", "mustplay", "patterns", "local", "solver", "bench_position",
                   "openspiel_game")


def test_game_has_no_engine_or_benchmark_field():
    fields = {f.name for f in dataclasses.fields(Game)}
    assert fields.isdisjoint(ENGINE_SETTINGS), fields & set(ENGINE_SETTINGS)
    assert all(not f.name.startswith(("mcts_", "bench_", "openspiel")) for f in
               dataclasses.fields(Game))
    assert "default" not in {f.name for f in dataclasses.fields(PlayoutSwitch)}


def test_the_table_covers_every_game_or_falls_back_to_plain():
    for name, game in all_games().items():
        defaults = D.defaults_for(name)
        assert defaults is D.MCTS_DEFAULTS.get(name, D.PLAIN)
        # a switch the table turns on is one of the game's own
        assert defaults.playouts <= {sw.option for sw in game.playout_switches}
    assert D.defaults_for("a game nobody listed") is D.PLAIN
    assert D.PLAIN == D.MctsDefaults(rave=False, solver=0.0, solver_cells=0, mustplay=0,
                                     patterns=0.0, local=0.0, playouts=frozenset())
    assert set(D.MCTS_DEFAULTS) <= set(all_games())          # no stale name in the table


def test_the_mcts_defaults_are_read_from_the_table(monkeypatch):
    """An mcts default changes in the engine's table alone: swap Hex's entry and the engine's
    parameters, knowledge threshold and root-solver share follow."""
    board = get_game("hex").new_board(7)
    engine = make_engine("mcts")
    params = engine._params(board)
    assert (params[MK.P_RAVE], params[MK.P_C], params[MK.P_POLICY]) == (1.0, 0.35, 3.0)
    assert engine._mustplay_visits(board) == 500
    solver = engine._solver_player(board)
    assert root_solver(solver, board, None, 1.0, False).share == 0.5
    assert root_solver(solver, get_game("hex").new_board(9), None, 1.0, False) is None   # 81 > 64

    changed = dict(D.MCTS_DEFAULTS)
    changed["hex"] = D.MctsDefaults(rave=False, solver=0.25, mustplay=7, patterns=2.0, local=3.0,
                                    playouts=frozenset({"bridge"}))
    monkeypatch.setattr(D, "MCTS_DEFAULTS", changed)
    params = engine._params(board)
    assert (params[MK.P_RAVE], params[MK.P_C], params[MK.P_POLICY]) == (0.0, 0.7, 1.0)
    assert (params[MK.P_BIAS], params[MK.P_LOCAL]) == (2.0, 3.0)
    assert engine._mustplay_visits(board) == 7
    assert root_solver(solver, get_game("hex").new_board(9), None, 1.0, False).share == 0.25
    # an option given in the spec still beats the table
    assert make_engine("mcts:rave=1,bridge=0,mustplay=0")._params(board)[MK.P_RAVE] == 1.0
    assert make_engine("mcts:bridge=0")._params(board)[MK.P_POLICY] == 0.0
    assert make_engine("mcts:mustplay=0")._mustplay_visits(board) == 0


def test_a_game_the_table_does_not_list_plays_plain(monkeypatch):
    monkeypatch.setattr(D, "MCTS_DEFAULTS", {})
    board = get_game("connect4").new_board()
    params = make_engine("mcts")._params(board)
    assert (params[MK.P_RAVE], params[MK.P_POLICY]) == (0.0, 0.0)     # tactics off: uniform
    assert make_engine("mcts:sims=50,seed=1").play(board, Limit(sims=50)).move in board.legal_moves


def test_help_texts_show_the_defaults_per_game():
    helps = {o.name: o.help for o in MctsEngine.options}
    for name in all_games():
        d = D.defaults_for(name)
        assert f"{name} {'on' if d.rave else 'off'}" in helps["rave"]
        assert f"{name} {d.solver:g}" in helps["solver"]
        assert f"{name} {d.mustplay}" in helps["mustplay"]
        assert f"{name} {d.patterns:g}" in helps["patterns"]
        assert f"{name} {d.local:g}" in helps["local"]
    for game in all_games().values():
        for sw in game.playout_switches:
            on = sw.option in D.defaults_for(game.name).playouts
            assert helps[sw.option].endswith(f"(default: {'on' if on else 'off'})")


def test_openspiel_and_bench_tables_name_known_games():
    assert set(OPENSPIEL_GAMES) <= set(all_games()) and set(BENCH_POSITIONS) <= set(all_games())
    assert OPENSPIEL_GAMES["hex"](get_game("hex").new_board(7)) == "hex(num_cols=7,num_rows=7)"
    assert OPENSPIEL_GAMES["connect4"](get_game("connect4").new_board()) == "connect_four"
    with pytest.raises(ValueError, match="7x6 only"):
        OPENSPIEL_GAMES["connect4"](get_game("connect4").new_board((8, 7)))
    for name, moves in BENCH_POSITIONS.items():
        get_game(name).new_board().push_many(moves)          # a legal position of the game
