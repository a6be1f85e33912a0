"""The table as an HTML fragment with inline SVG cards: what Jupyter shows for
``eights.Game`` and ``EightsEnv`` (``_repr_html_``) and ``render_mode="html"`` returns.
The card symbols, action text and history it shows are those of :mod:`eights.render.text`."""

from __future__ import annotations

import html
from typing import Any, Iterable, Optional, Sequence, Tuple

from .._utils.checks import as_flag
from .text import _RED_SUITS, SUIT_SYMBOLS, Action, _check_card, _status, _suit_line, _table_args, action_text

__all__ = ["card_svg", "game_html"]

_CARD_W, _CARD_H = 40, 56


def card_svg(card: Optional[str], face_up: bool = True) -> str:
    """One card as a small inline ``<svg>``: rank and suit symbol, red for ♦/♥ and the red
    joker; ``face_up=False`` (or ``card=None``) draws a card back.  ``card`` is one of the
    engine's card strings (``"8H"``, ``"TD"``, ``"RJ"``) or None, ``face_up`` True or False."""
    face_up = as_flag(face_up, "face_up")
    if card is not None:
        _check_card(card)
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
        f'<title>{html.escape(name)}</title>{frame}fill="#fff" stroke="#888"/>{body}</svg>'
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
    Checks its arguments as :func:`table_text` does.
    """
    viewer, label, recent = _table_args(game, viewer, history, names)
    esc = html.escape
    n = game.num_players
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
    if recent:
        items = " · ".join(f"{esc(label[s])} {esc(action_text(game, a))}" for s, a in recent)
        out.append(f"<div>Last actions: {items}</div>")
    out.append("</div>")
    return "".join(out)
