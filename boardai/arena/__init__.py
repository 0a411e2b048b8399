"""The arena: matches and round-robin tournaments between engines, with ratings and a result store.

``game`` plays one game, ``runner`` plays many (in this process or a pool), ``store`` keeps them
(SQLite), ``match`` plans and resumes matches and tournaments, ``ratings`` turns results into Elo,
``openings`` supplies start positions, ``report`` shows it all.  ``docs/arena.md`` is the guide.
"""
