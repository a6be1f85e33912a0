"""Game records shown step by step: a notebook viewer with a slider (:func:`replay_html`,
every state drawn in advance by :func:`eights.render.game_html`) and the terminal text of a
record (:func:`replay_text`, what ``python -m eights replay`` prints)."""

from __future__ import annotations

import html
import uuid
from typing import Any, List, Optional, Tuple

from .._utils.checks import as_int
from .html import game_html
from .text import Action, action_text, table_text

__all__ = ["ReplayHTML", "replay_html", "replay_text"]


class ReplayHTML(str):
    """HTML text that Jupyter displays as itself (what :func:`replay_html` returns)."""

    def _repr_html_(self) -> str:
        return str(self)


def _viewer(record: Any, viewer: Optional[int]) -> Optional[int]:
    """``viewer`` checked: None, or a seat of the record's game."""
    if viewer is None:
        return None
    players = record.get("players")
    return as_int(viewer, "viewer", 0, players - 1 if isinstance(players, int) and players > 0 else None)


def replay_html(record: Any, viewer: Optional[int] = None) -> ReplayHTML:
    """A notebook viewer of a game record (``game.record()``, or a saved JSON file's path):
    the table with the cards drawn at every step, a slider and previous/next buttons to
    step through it, and the action that led to each state.

    Every state is drawn in advance (:func:`game_html`), so the viewer works in a saved
    notebook; stepping needs JavaScript (Jupyter, VS Code, a browser).  ``viewer`` shows
    only that seat's hand (default: every hand).  Display it as the last expression of a
    cell, or with ``IPython.display.HTML(...)``.
    """
    from ..records import load_record, replay_states

    record = load_record(record)
    viewer = _viewer(record, viewer)
    # An id of its own (not a count, which starts again in every kernel: a viewer of an earlier
    # session still on the page would share its id, frames and function with a new one).
    uid = f"eights-replay-{uuid.uuid4().hex[:16]}"
    frames = []
    history: List[Tuple[int, Action]] = []
    for k, step, game in replay_states(record):
        if step is not None:
            history.append(step)
            caption = f"{k}. P{step[0]} {html.escape(action_text(game, step[1]))}"
        else:
            caption = "the deal"
        display = "block" if k == 0 else "none"
        frames.append(
            f'<div class="{uid}-frame" style="display:{display}"><div><b>step {k}</b>: {caption}</div>'
            f"{game_html(game, viewer, history)}</div>"
        )
    last = len(frames) - 1
    controls = (
        f'<div><button onclick="{uid}(-1)">&#9664; prev</button> '
        f'<input id="{uid}-slider" type="range" min="0" max="{last}" value="0" '
        f'oninput="{uid}(0, +this.value)" style="width:60%;vertical-align:middle"> '
        f'<button onclick="{uid}(1)">next &#9654;</button> <span id="{uid}-label">0 / {last}</span></div>'
    )
    script = (
        "<script>"
        f"function {uid.replace('-', '_')}(d, to) {{"
        f"var f = document.getElementsByClassName('{uid}-frame');"
        f"var s = document.getElementById('{uid}-slider');"
        "var i = (to === undefined) ? Math.min(Math.max(+s.value + d, 0), f.length - 1) : to;"
        "for (var j = 0; j < f.length; j++) { f[j].style.display = (j === i) ? 'block' : 'none'; }"
        f"s.value = i; document.getElementById('{uid}-label').textContent = i + ' / ' + (f.length - 1);"
        "}"
        "</script>"
    )
    controls = controls.replace(f'"{uid}(', f'"{uid.replace("-", "_")}(')
    return ReplayHTML(f'<div class="eights-replay" id="{uid}">{script}{controls}{"".join(frames)}</div>')


def replay_text(record: Any, viewer: Optional[int] = None, every: int = 0) -> str:
    """The record as terminal text: the dealt table, one numbered line per action
    (``12. P1 play 8♥``; an arena's record names each seat's agent, ``12. P1 heuristic: play
    8♥``), the table after every ``every``-th action when ``every`` > 0, and the final table
    with the result.  ``viewer`` shows only that seat's hand."""
    from ..records import load_record, replay_states

    record = load_record(record)
    every = as_int(every, "every", 0)
    viewer = _viewer(record, viewer)
    lines = []
    head = f"{record.get('preset')} · {record.get('players')} players"
    if record.get("seed") is not None:
        head += f" · seed {record['seed']}"
    lines.append(head + f" · {len(record['actions'])} actions")
    names = _arena_names(record)
    who = [f"{name}:" for name in names] if names else None
    history: List[Tuple[int, Action]] = []
    game: Any = None
    for k, step, game in replay_states(record):
        if step is None:
            lines.append(table_text(game, viewer, names=names).rstrip("\n"))
            continue
        history.append(step)
        seat, action = step
        # The action's text as the player chose it (the state before is gone; action ids
        # name cards and suits, so the text does not depend on the state).
        lines.append(f"{k:>4}. {who[seat] if who else f'P{seat}'} {action_text(game, action)}")
        if every and k % every == 0 and k != len(record["actions"]):
            lines.append(table_text(game, viewer, history, names=names).rstrip("\n"))
    if game is not None and record["actions"]:
        lines.append(table_text(game, viewer, history, names=names).rstrip("\n"))
    return "\n".join(lines) + "\n"


def _arena_names(record: Any) -> Optional[List[str]]:
    """Each seat's label with the agent an arena's record seats there (``arena.agents``):
    ``P1 heuristic``; None for another record."""
    agents = (record.get("arena") or {}).get("agents") if isinstance(record.get("arena"), dict) else None
    if isinstance(agents, list) and len(agents) == record.get("players") and all(isinstance(a, str) for a in agents):
        return [f"P{p} {a}" for p, a in enumerate(agents)]
    return None
