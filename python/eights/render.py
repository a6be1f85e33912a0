"""Pictures of a table: terminal text with card symbols, and HTML with inline SVG cards.

This module owns the human-facing renderings used by the environments
(``render_mode="ansi"`` / ``"html"``), by ``python -m eights play`` and by Jupyter
(``eights.Game._repr_html_`` and ``EightsEnv._repr_html_`` call :func:`game_html`), and the
notebook viewer and the terminal text of game records (:func:`replay_html`,
:func:`replay_text`).

Encodings defined here:

* **Card symbols**: a card string ``"8H"`` is written ``"8♥"``; the rank letters are the
  engine's (``A 2..9 T J Q K``, so ``"TD"`` is ``"T♦"``); jokers stay ``"RJ"``/``"BJ"``.
  In HTML the ten is drawn as ``10`` and jokers as a starred card.
* **Action text**: an action string of the engine (``"play 8H"``, ``"suit H"``,
  ``"give 4C"``) with every card and suit letter replaced by its symbol
  (``"play 8♥"``, ``"suit ♥"``, ``"give 4♣"``).
* **History**: a sequence of ``(seat, action)`` pairs, oldest first, where ``action`` is
  an action id or an action string; the last :data:`HISTORY_SHOWN` are listed.
* **Viewer**: ``viewer=None`` shows every hand (an omniscient view, like
  ``Game.render()``); ``viewer=k`` shows seat ``k``'s hand and only the card counts of
  the other seats (what that player may see).
"""

from __future__ import annotations

import html
import re
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = [
    "HISTORY_SHOWN",
    "action_text",
    "card_svg",
    "card_symbol",
    "game_html",
    "replay_html",
    "replay_text",
    "table_text",
]

#: How many past actions the pictures list.
HISTORY_SHOWN = 8

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RED_SUITS = ("D", "H")
_CARD_RE = re.compile(r"\b([A2-9TJQK])([CDHS])\b")
_SUIT_ACTION_RE = re.compile(r"^(suit|nominate) ([CDHS])\b")

Action = Union[int, str]


def card_symbol(card: str) -> str:
    """``"8H"`` -> ``"8♥"``; ``"TD"`` -> ``"T♦"``; jokers ``"RJ"``/``"BJ"`` unchanged."""
    if len(card) == 2 and card[1] in SUIT_SYMBOLS and card not in ("RJ", "BJ"):
        return card[0] + SUIT_SYMBOLS[card[1]]
    return card


def action_text(game: Any, action: Action) -> str:
    """An action id or string as text with card symbols: ``"play 8H"`` -> ``"play 8♥"``."""
    text = game.action_to_string(int(action)) if not isinstance(action, str) else action
    match = _SUIT_ACTION_RE.match(text)
    if match:
        return f"{match.group(1)} {SUIT_SYMBOLS[match.group(2)]}{text[match.end():]}"
    return _CARD_RE.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)


def _suit_line(game: Any) -> str:
    nominated = game.nominated_suit
    active = game.active_suit
    if nominated:
        return f"suit {SUIT_SYMBOLS[nominated]} nominated"
    if active and game.top_card and game.top_card[-1:] != active:
        return f"suit {SUIT_SYMBOLS[active]} to follow"
    return ""


def _status(game: Any, label: Sequence[str]) -> str:
    if game.is_terminal:
        if game.winner is None:
            return "Game over: no winner"
        return f"Game over: {label[game.winner]} wins"
    if game.is_truncated:
        return "Game over: truncated at the decision limit (no winner)"
    return f"{label[game.current_player]} to act ({game.phase})"


def _recent(history: Iterable[Tuple[int, Action]]) -> List[Tuple[int, Action]]:
    items = list(history)
    return items[-HISTORY_SHOWN:]


def table_text(
    game: Any,
    viewer: Optional[int] = None,
    history: Iterable[Tuple[int, Action]] = (),
    names: Optional[Sequence[str]] = None,
) -> str:
    """The table as text with card symbols (for ``render_mode="ansi"`` and the terminal).

    Shows the preset, the top card and the suit to follow, stock and discard sizes, the
    direction of play, a pending draw penalty, every seat (``▶`` marks the player to
    act; ``viewer``'s hand face up and marked "(you)" unless ``names`` are given, other
    hands as card counts unless ``viewer`` is None),
    whose turn it is and the last actions of ``history``.  ``names`` optionally labels the
    seats (default ``P0``, ``P1``, ...).
    """
    n = game.num_players
    label = list(names) if names is not None else [f"P{p}" for p in range(n)]
    lines = [f"{game.preset} · {n} players · decision {game.decision_count}"]
    top = card_symbol(game.top_card) if game.top_card else "-"
    suit = _suit_line(game)
    lines.append(
        f"Top: {top}" + (f"  ({suit})" if suit else "")
        + f"   Stock: {game.stock_size}   Discard: {game.discard_size}"
    )
    direction = "clockwise" if game.direction > 0 else "anticlockwise"
    extra = f"   Pending penalty: draw {game.pending_draw}" if game.pending_draw else ""
    lines.append(f"Direction: {direction}{extra}")
    sizes = game.hand_sizes
    for p in range(n):
        marker = "▶" if game.current_player == p else " "
        who = label[p] + (" (you)" if viewer == p and names is None else "") + (" (dealer)" if game.dealer == p else "")
        count = f"{sizes[p]} card" + ("" if sizes[p] == 1 else "s")
        if viewer is None or viewer == p:
            cards = " ".join(card_symbol(c) for c in game.hand(p)) or "-"
            lines.append(f"{marker} {who} [{count}]: {cards}")
        else:
            lines.append(f"{marker} {who} [{count}]")
    lines.append(_status(game, label))
    recent = _recent(history)
    if recent:
        lines.append("Last actions: " + " · ".join(f"{label[s]} {action_text(game, a)}" for s, a in recent))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------

_CARD_W, _CARD_H = 40, 56


def card_svg(card: Optional[str], face_up: bool = True) -> str:
    """One card as a small inline ``<svg>``: rank and suit symbol, red for ♦/♥ and the red
    joker; ``face_up=False`` (or ``card=None``) draws a card back."""
    w, h = _CARD_W, _CARD_H
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'style="margin:1px;vertical-align:middle"'
    )
    frame = f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="4" '
    if not face_up or card is None:
        return (
            f'{head} role="img" aria-label="card back"><title>card back</title>'
            f'{frame}fill="#2a5c9a" stroke="#123"/>'
            f'<rect x="4" y="4" width="{w - 8}" height="{h - 8}" rx="3" fill="none" stroke="#9bd" /></svg>'
        )
    if card in ("RJ", "BJ"):
        color = "#c00" if card == "RJ" else "#111"
        name = "red joker" if card == "RJ" else "black joker"
        body = (
            f'<text x="4" y="13" font-size="10" font-family="sans-serif" fill="{color}">JKR</text>'
            f'<text x="{w / 2}" y="{h / 2 + 9}" font-size="24" text-anchor="middle" fill="{color}">★</text>'
        )
    else:
        rank, suit = card[0], card[1]
        color = "#c00" if suit in _RED_SUITS else "#111"
        shown = "10" if rank == "T" else rank
        name = f"{shown}{SUIT_SYMBOLS[suit]}"
        body = (
            f'<text x="4" y="14" font-size="13" font-weight="bold" font-family="sans-serif" '
            f'fill="{color}">{shown}</text>'
            f'<text x="{w / 2}" y="{h / 2 + 12}" font-size="24" text-anchor="middle" '
            f'fill="{color}">{SUIT_SYMBOLS[suit]}</text>'
        )
    return (
        f'{head} role="img" aria-label="{html.escape(name)}" data-card="{html.escape(card)}">'
        f"<title>{html.escape(name)}</title>{frame}fill=\"#fff\" stroke=\"#888\"/>{body}</svg>"
    )


def game_html(
    game: Any,
    viewer: Optional[int] = None,
    history: Iterable[Tuple[int, Action]] = (),
    names: Optional[Sequence[str]] = None,
) -> str:
    """The table as an HTML fragment with inline SVG cards (what Jupyter shows).

    Same content and ``viewer`` convention as :func:`table_text`; each face-up card is an
    ``<svg>`` carrying ``data-card="<card string>"``, hidden hands are drawn as card backs.
    """
    esc = html.escape
    n = game.num_players
    label = list(names) if names is not None else [f"P{p}" for p in range(n)]
    out = ['<div class="eights-table" style="font-family:sans-serif;font-size:13px;line-height:1.4">']
    out.append(f"<div><b>{esc(game.preset)}</b> · {n} players · decision {game.decision_count}</div>")
    suit = _suit_line(game)
    direction = "clockwise ↻" if game.direction > 0 else "anticlockwise ↺"
    info = [
        f"stock {game.stock_size}",
        f"discard {game.discard_size}",
        direction,
    ]
    if suit:
        info.insert(0, esc(suit))
    if game.pending_draw:
        info.append(f"<b>pending penalty: draw {game.pending_draw}</b>")
    top = card_svg(game.top_card) if game.top_card else "<i>no top card</i>"
    out.append(f"<div>Top: {top} {' · '.join(info)}</div>")
    out.append('<table style="border-collapse:collapse">')
    sizes = game.hand_sizes
    for p in range(n):
        acting = game.current_player == p
        you = " (you)" if viewer == p and names is None else ""
        who = esc(label[p]) + you + (" (dealer)" if game.dealer == p else "")
        marker = "▶ " if acting else ""
        if viewer is None or viewer == p:
            cards = "".join(card_svg(c) for c in game.hand(p))
        else:
            shown = min(sizes[p], 12)
            cards = "".join(card_svg(None, face_up=False) for _ in range(shown))
            if sizes[p] > shown:
                cards += f" +{sizes[p] - shown}"
        style = "background:#ffd" if acting else ""
        out.append(
            f'<tr style="{style}"><td style="padding:2px 6px;white-space:nowrap">{marker}{who} '
            f"[{sizes[p]}]</td><td>{cards}</td></tr>"
        )
    out.append("</table>")
    out.append(f"<div><b>{esc(_status(game, label))}</b></div>")
    recent = _recent(history)
    if recent:
        items = " · ".join(f"{esc(label[s])} {esc(action_text(game, a))}" for s, a in recent)
        out.append(f"<div>Last actions: {items}</div>")
    out.append("</div>")
    return "".join(out)


class ReplayHTML(str):
    """HTML text that Jupyter displays as itself (what :func:`replay_html` returns)."""

    def _repr_html_(self) -> str:
        return str(self)


_REPLAY_COUNTER = [0]


def replay_html(record: Any, viewer: Optional[int] = None) -> ReplayHTML:
    """A notebook viewer of a game record (``game.record()``, or a saved JSON file's path):
    the table with the cards drawn at every step, a slider and previous/next buttons to
    step through it, and the action that led to each state.

    Every state is drawn in advance (:func:`game_html`), so the viewer works in a saved
    notebook; stepping needs JavaScript (Jupyter, VS Code, a browser).  ``viewer`` shows
    only that seat's hand (default: every hand).  Display it as the last expression of a
    cell, or with ``IPython.display.HTML(...)``.
    """
    from .replay import load_record, replay_states

    record = load_record(record)
    _REPLAY_COUNTER[0] += 1
    uid = f"eights-replay-{_REPLAY_COUNTER[0]}"
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
    (``12. P1 play 8♥``), the table after every ``every``-th action when ``every`` > 0, and
    the final table with the result.  ``viewer`` shows only that seat's hand."""
    from .replay import load_record, replay_states

    record = load_record(record)
    lines = []
    head = f"{record.get('preset')} · {record.get('players')} players"
    if record.get("seed") is not None:
        head += f" · seed {record['seed']}"
    lines.append(head + f" · {len(record['actions'])} actions")
    history: List[Tuple[int, Action]] = []
    game: Any = None
    for k, step, game in replay_states(record):
        if step is None:
            lines.append(table_text(game, viewer).rstrip("\n"))
            continue
        history.append(step)
        seat, action = step
        # The action's text as the player chose it (the state before is gone; action ids
        # name cards and suits, so the text does not depend on the state).
        lines.append(f"{k:>4}. P{seat} {action_text(game, action)}")
        if every and k % every == 0 and k != len(record["actions"]):
            lines.append(table_text(game, viewer, history).rstrip("\n"))
    if game is not None and record["actions"]:
        lines.append(table_text(game, viewer, history).rstrip("\n"))
    return "\n".join(lines) + "\n"
