"""A live game's session, shared by every front-end (the terminal, the full-screen terminal, the
web page): ``searches`` runs its engines' searches (threads or worker processes)."""
