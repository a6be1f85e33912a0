"""The output paths of the commands (``--out``, ``--record``, ``--json``, ``--plot``, checkpoint
folders), checked before the work starts, so that a results file is never lost to a bad path
at the end of a run: a file's folder must exist and take a new file, a file must not be a
folder, a folder must be one (or be creatable under a writable folder), a chart's extension
must be one matplotlib writes. :func:`check_outputs` raises one ``ValueError`` naming the flag,
the path and what is wrong (the command line prints it and exits 2).
"""

from __future__ import annotations

import os
import tempfile
from typing import Iterable, Optional, Sequence, Tuple

__all__ = ["chart_path", "check_outputs", "file_problem", "folder_problem", "plot_problem"]


def _writable_folder(folder: str) -> Optional[str]:
    """Why no file can be created in the existing folder ``folder`` (None when one can): a
    real probe, since permission bits do not tell a read-only file system or root's rights."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"the folder {folder} is not writable ({exc.strerror or exc})"
    return None


def file_problem(path: str) -> Optional[str]:
    """Why a file cannot be written at ``path`` (None when it can): its folder is missing, not
    a folder or not writable, or the path is a folder or an existing file that cannot be
    written."""
    path = os.fspath(path)
    if not path:
        return "an empty path"
    if os.path.isdir(path):
        return "is a folder, not a file"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        return f"the folder {folder} does not exist"
    if not os.path.isdir(folder):
        return f"{folder} is not a folder"
    if os.path.exists(path):
        if not os.path.isfile(path):
            return "is not a regular file"
        if not os.access(path, os.W_OK):
            return "the file exists and is not writable"
        return None
    return _writable_folder(folder)


def folder_problem(path: str) -> Optional[str]:
    """Why files cannot be written in the folder ``path`` (None when they can): it is a file,
    or it and its missing parents cannot be created under the nearest existing folder."""
    path = os.fspath(path)
    if not path:
        return "an empty path"
    if os.path.exists(path):
        return _writable_folder(path) if os.path.isdir(path) else "is a file, not a folder"
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        # A root that does not exist (a missing Windows drive or share) is its own dirname.
        if os.path.dirname(parent) == parent:
            return f"{parent} does not exist (no such drive or share)"
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        return f"{parent} is a file, not a folder"
    return _writable_folder(parent)


def chart_path(path: str) -> str:
    """The file a chart asked for at ``path`` is written to: ``path`` itself, or, when it has
    no extension (``chart``, ``chart.``), ``path`` with ``.png`` added, as matplotlib would
    add its default format's (the charts pass it on, so the two never differ). A path without
    a file name (empty, ``dir/``, ``..``) is returned as it is, for the output checks to refuse."""
    path = os.fspath(path)
    if os.path.splitext(path)[1].lstrip(".") or not os.path.basename(path).strip("."):
        return path
    return path.rstrip(".") + ".png"


def plot_problem(path: str) -> Optional[str]:
    """Why a chart cannot be saved at ``path`` (None when it can): no matplotlib (the ``plot``
    extra), an extension matplotlib does not write, or :func:`file_problem` of the file it is
    written to (:func:`chart_path`)."""
    from .optional import import_optional

    try:
        import_optional("matplotlib", "plot", "saving a chart")
    except ImportError as exc:
        return str(exc)
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if ext:
        from matplotlib.backend_bases import FigureCanvasBase

        formats = sorted(FigureCanvasBase.get_supported_filetypes())
        if ext not in formats:
            return f"matplotlib cannot write .{ext} charts (it writes {', '.join(formats)})"
    return file_problem(chart_path(path))


_CHECKS = {"file": file_problem, "folder": folder_problem, "plot": plot_problem}


def check_outputs(outputs: Iterable[Tuple[str, Optional[str], str]]) -> None:
    """Check ``(flag, path, kind)`` outputs (kind: ``file``, ``folder`` or ``plot``; a path of
    None is skipped); the first problem is a ``ValueError`` ``"--flag PATH: what is wrong"``.
    Two outputs of one run at the same path are refused too. A chart is named by the file it
    is written to (:func:`chart_path`: ``x`` is ``x.png``)."""
    seen: dict = {}
    for flag, path, kind in outputs:
        if path is None:
            continue
        if kind == "plot":
            path = chart_path(path)
        problem = _CHECKS[kind](path)
        if problem:
            raise ValueError(f"{flag} {path}: {problem}")
        key = os.path.abspath(os.fspath(path))
        if key in seen:
            raise ValueError(f"{flag} {path}: the same path as {seen[key]}; each output needs its own")
        seen[key] = flag


def each(flag: str, paths: Optional[Sequence[str]], kind: str) -> Iterable[Tuple[str, Optional[str], str]]:
    """``(flag, path, kind)`` for each path of a repeatable option."""
    return [(flag, p, kind) for p in paths or []]
