"""The arena: matches and round-robin tournaments between engines, with ratings and a result store.

``game`` plays one game, ``runner`` plays many (in this process or a pool), ``store`` keeps them
(SQLite), ``match`` plans and resumes matches and tournaments, ``ratings`` turns results into Elo,
``openings`` supplies start positions, ``report`` shows it all.  ``docs/arena.md`` is the guide.
"""

from boardai.engines.base import MAX_TIME, Option

# the hard limit per move: finite, so a hung engine always loses in the end
MOVE_TIMEOUT = Option("move_timeout", float, None, "hard limit in seconds per move", min=0,
                      min_open=True, max=MAX_TIME)
