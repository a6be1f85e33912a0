"""A rule set as Jupyter shows it (``eights.Rules._repr_html_``): its title, label and player
counts on one line, and :meth:`eights.Rules.describe`'s text folded under it (a ``<details>``:
its ``## `` headings as headings, its ``- `` lines as lists, the rest as paragraphs). Every text
is escaped: a house-rules file's name and title are its author's."""

from __future__ import annotations

import html
from typing import Any, List

__all__ = ["rules_html"]


def _text_html(lines: List[str]) -> str:
    """``describe()``'s lines as HTML."""
    out: List[str] = []
    listed = False
    for line in lines:
        item = line.startswith("- ")
        if listed and not item:
            out.append("</ul>")
            listed = False
        if item:
            if not listed:
                out.append('<ul style="margin:0 0 0.5em 0">')
                listed = True
            out.append(f"<li>{html.escape(line[2:])}</li>")
        elif line.startswith("## "):
            out.append(f'<div style="font-weight:bold;margin-top:0.5em">{html.escape(line[3:])}</div>')
        elif line.strip():
            out.append(f'<p style="margin:0.3em 0">{html.escape(line)}</p>')
    if listed:
        out.append("</ul>")
    return "".join(out)


def rules_html(rules: Any) -> str:
    """``rules`` (an :class:`eights.Rules`) as an HTML fragment: a line with its title, label and
    player counts, above its description folded away."""
    players = rules.players
    counts = f"{players.start} players" if len(players) == 1 else f"{players.start} to {players.stop - 1} players"
    lines = rules.describe().splitlines()
    if len(lines) > 1 and set(lines[1]) == {"="}:  # the title and its underline: the head says it
        lines = lines[2:]
    head = f"<b>{html.escape(rules.title)}</b> ({html.escape(rules.label)}) · {counts}"
    return (
        f'<div class="eights-rules" style="font-family:sans-serif;font-size:13px;line-height:1.4">'
        f"<div>{head}</div><details><summary>the rules in words</summary>{_text_html(lines)}</details></div>"
    )
