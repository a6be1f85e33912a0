"""The progress bars of the library's long calls (``progress=True``): tqdm's, through
``tqdm.auto``, so that Jupyter shows its widget (where ipywidgets is installed) and a terminal or
a notebook without ipywidgets its text bar, without the ``TqdmWarning`` tqdm.auto gives in a
notebook without ipywidgets. tqdm is optional (the ``progress`` extra): without it a bar asked
for is a warning naming the extra, and the call goes on without one."""

from __future__ import annotations

import warnings
from typing import Any, Optional

from .optional import import_optional

__all__ = ["QuietBar", "bar_class", "installed", "progress_bar"]


def installed() -> bool:
    """Whether tqdm is installed: the command line draws its bars by default, where it is."""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def bar_class() -> Any:
    """``tqdm.auto.tqdm``: tqdm's notebook bar in Jupyter with ipywidgets, its text bar elsewhere
    (ImportError naming the ``progress`` extra without tqdm)."""
    tqdm = import_optional("tqdm", "progress", "a progress bar")
    with warnings.catch_warnings():
        # tqdm.auto's "IProgress not found. Please update jupyter and ipywidgets" in a notebook
        # without ipywidgets: it then draws the text bar, which is all this package needs.
        warnings.simplefilter("ignore", tqdm.TqdmWarning)
        from tqdm.auto import tqdm as auto

    return auto


def progress_bar(show: bool, **kwargs: Any) -> Optional[Any]:
    """A tqdm bar made with ``kwargs`` (``total``, ``desc``, ...) when ``show``; None when not,
    or when tqdm is not installed (then with a warning naming the ``progress`` extra)."""
    if not show:
        return None
    try:
        cls = bar_class()
    except ImportError as exc:
        warnings.warn(f"progress=True draws no bar: {exc}", stacklevel=3)
        return None
    return cls(**kwargs)


class QuietBar:
    """What a bar that draws nothing answers (``n``, ``update``, ``set_postfix``, ``refresh``,
    ``close``), for code that updates a bar whether or not one is shown."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass
