"""The table as terminal text with card symbols (``render_mode="ansi"``, ``python -m eights
play``), and the encodings every picture shares: card symbols, action text, the recent
history.

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

import re
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = ["HISTORY_SHOWN", "SUIT_NAMES", "SUIT_SYMBOLS", "action_text", "card_symbol", "table_text"]

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
        return f"{match.group(1)} {SUIT_SYMBOLS[match.group(2)]}{text[match.end() :]}"
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
        f"Top: {top}" + (f"  ({suit})" if suit else "") + f"   Stock: {game.stock_size}   Discard: {game.discard_size}"
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
