"""How results show in IPython and Jupyter: :func:`text_display` makes a result's plain display
its text (``str(result)``, the table it prints) instead of its dataclass ``repr``, and
:func:`html_table` builds the HTML tables of the results' ``_repr_html_``, every text escaped
(agent labels and rule names are the user's). Both are cheap: they format what the result
holds and compute nothing."""

from __future__ import annotations

import html
from typing import Any, Iterable, Sequence, TypeVar

__all__ = ["html_table", "number", "text_display"]

T = TypeVar("T", bound=type)

_CELL = "padding:2px 8px;text-align:{}"


def _pretty(self: Any, printer: Any, cycle: bool) -> None:
    printer.text(f"{type(self).__name__}(...)" if cycle else str(self))


def text_display(cls: T) -> T:
    """A class decorator: IPython shows the class's objects as their text (``str``), as ``print``
    does, where it would show a dataclass's ``repr`` (IPython prefers a ``__repr__`` of the class
    itself to a ``_repr_pretty_`` inherited, so the method is set on the class); ``repr`` stays."""
    cls._repr_pretty_ = _pretty  # type: ignore[attr-defined]
    return cls


def number(value: float, fmt: str) -> str:
    """``value`` formatted with ``fmt`` (``"{:.3f}"``), or an empty cell when it is NaN."""
    return "" if value != value else fmt.format(value)


def html_table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], notes: Sequence[str] = (), labels: int = 1
) -> str:
    """A ``<div>``: ``title`` (text, escaped) above a table of ``columns`` and ``rows`` (every
    cell text, escaped; the first ``labels`` columns left-aligned, the rest right-aligned as
    numbers), then ``notes`` (text, escaped), one paragraph each."""
    esc = html.escape
    left, right = _CELL.format("left"), _CELL.format("right")

    def cells(tag: str, values: Sequence[Any]) -> str:
        return "".join(
            f'<{tag} style="{left if i < labels else right}">{esc(str(v))}</{tag}>' for i, v in enumerate(values)
        )

    body = "".join(f"<tr>{cells('td', row)}</tr>" for row in rows)
    out = [
        '<div class="eights-result">',
        f"<div>{esc(title)}</div>" if title else "",
        f'<table style="border-collapse:collapse"><thead><tr>{cells("th", columns)}</tr></thead>',
        f"<tbody>{body}</tbody></table>",
        *(f'<div style="font-size:smaller">{esc(n)}</div>' for n in notes),
        "</div>",
    ]
    return "".join(out)
