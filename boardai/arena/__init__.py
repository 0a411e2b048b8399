"""Matches between engines (this package grows into the full arena: tournaments, ratings, store)."""
