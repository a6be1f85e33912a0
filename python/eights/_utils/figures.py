"""The package's charts are drawn on a :class:`matplotlib.figure.Figure` made directly, never
through pyplot: nothing global changes (the backend a notebook or a script chose stays; the
figure is not one of pyplot's, so it is neither shown twice in a notebook nor kept alive by
pyplot), and ``Figure.savefig`` writes every format without a backend. :func:`new_figure`
makes one (an ImportError naming the ``plot`` extra without matplotlib) and :func:`finish`
saves it to a path or hands it back, ready for Jupyter to show."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Optional, Union

from .optional import import_optional
from .outputs import chart_path

__all__ = ["finish", "new_figure"]

#: matplotlib-inline's backend, as matplotlib names it.
_INLINE = ("inline", "module://matplotlib_inline.backend_inline")


def new_figure(feature: str, **kwargs: Any) -> Any:
    """A new :class:`matplotlib.figure.Figure` (``kwargs``: its ``figsize``, ...), outside
    pyplot; ``feature`` names the chart in the ImportError raised without matplotlib."""
    import_optional("matplotlib", "plot", feature)
    from matplotlib.figure import Figure

    return Figure(**kwargs)


def _inline_display() -> None:
    """In IPython with matplotlib-inline's backend, import that backend: on import it registers
    how Jupyter shows a :class:`~matplotlib.figure.Figure` (a PNG), which it otherwise does only
    once pyplot has made a figure, so that a fresh kernel shows a returned figure as a picture,
    not as ``<Figure size 700x270 with 1 Axes>``. Anywhere else, nothing."""
    ipython = sys.modules.get("IPython")
    if ipython is None or getattr(ipython, "get_ipython", lambda: None)() is None:
        return
    import matplotlib

    if matplotlib.__version_info__ >= (3, 10):
        backend = matplotlib.get_backend(auto_select=False)
    else:  # the backend as set, not resolved (resolving one would import pyplot), as 3.10 reads it
        backend = dict.__getitem__(matplotlib.rcParams, "backend")
    if backend in _INLINE:
        try:
            importlib.import_module("matplotlib_inline.backend_inline")
        except ImportError:
            pass


def finish(fig: Any, path: Optional[str], dpi: int = 120) -> Union[Any, str]:
    """``fig`` (laid out by its maker) saved to ``path`` at ``dpi`` (``.png`` added to a path without an
    extension, :func:`~eights._utils.outputs.chart_path`), returning the path written; with
    ``path`` None, ``fig`` itself (in a notebook, shown as a picture when a cell ends with it)."""
    if path is None:
        _inline_display()
        return fig
    path = chart_path(os.fspath(path))
    fig.savefig(path, dpi=dpi)
    return path
