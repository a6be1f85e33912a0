"""``python -m eights``: runs the command line, :func:`eights.cli.main` (also the ``eights``
console script, ``eights.__main__:main``)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
