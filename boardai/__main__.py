"""``python -m boardai`` is the same program as the ``boardai`` command."""

from boardai.cli import main

if __name__ == "__main__":
    main()
