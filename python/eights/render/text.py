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
  an action id or an action string; the last :data:`HISTORY_SHOWN` are listed (and
  checked: a seat of the game and an action it knows).
* **Viewer**: ``viewer=None`` shows every hand (an omniscient view, like
  ``Game.render()``); ``viewer=k`` shows seat ``k``'s hand and only the card counts of
  the other seats (what that player may see).
* **Names**: ``names=None`` labels the seats ``P0``, ``P1``, ...; otherwise a list of one
  string per seat.

Every function here and in :mod:`.html` and :mod:`.rgb` checks its arguments: a
``TypeError`` or ``ValueError`` naming the argument and what it takes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable as _Iterable
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from .._core import Game
from .._utils.checks import as_action, as_int, describe

__all__ = ["HISTORY_SHOWN", "SUIT_NAMES", "SUIT_SYMBOLS", "action_text", "card_symbol", "table_text"]

#: How many past actions the pictures list.
HISTORY_SHOWN = 8

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RED_SUITS = ("D", "H")
_CARD_RE = re.compile(r"\b([A2-9TJQK])([CDHS])\b")
_SUIT_ACTION_RE = re.compile(r"^(suit|nominate) ([CDHS])\b")
_JOKERS = ("RJ", "BJ")
#: Every card string of the engine: rank ``A 2..9 T J Q K`` and suit ``C D H S``, or a joker.
_CARDS = frozenset([rank + suit for suit in "CDHS" for rank in "A23456789TJQK"] + list(_JOKERS))

Action = Union[int, str]


def _check_card(card: Any) -> str:
    """``card`` checked: one of the engine's card strings."""
    if not isinstance(card, str):
        raise TypeError(f"card must be a card string such as '8H', 'TD' or 'RJ', got {describe(card)}")
    if card not in _CARDS:
        raise ValueError(
            "card must be a rank of A 2-9 T J Q K and a suit of C D H S ('8H', 'TD'), "
            f"or a joker 'RJ'/'BJ'; got {card!r}"
        )
    return card


def _check_game(game: Any) -> Any:
    """``game`` checked: an :class:`eights.Game`."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be an eights.Game, got {describe(game)}")
    return game


def _action_id(game: Any, action: Any, name: str = "action") -> int:
    """``action`` (an action id or an action string) as an action id of ``game``."""
    if isinstance(action, str):
        try:
            return game.string_to_action(action)
        except ValueError:  # the engine's message quotes the whole string
            raise ValueError(
                f"{name} must be an action id or an action string of the engine such as 'play 8H', "
                f"'suit H' or 'draw', got {describe(action)}"
            ) from None
    action = as_action(action, name)
    if not 0 <= action < game.num_actions:
        raise ValueError(f"{name} must be an action id in [0, {game.num_actions}) or an action string, got {action}")
    return action


def card_symbol(card: str) -> str:
    """``"8H"`` -> ``"8♥"``; ``"TD"`` -> ``"T♦"``; jokers ``"RJ"``/``"BJ"`` unchanged.
    ``card`` must be one of the engine's card strings (``TypeError``/``ValueError``)."""
    if _check_card(card) in _JOKERS:
        return card
    return card[0] + SUIT_SYMBOLS[card[1]]


def action_text(game: Any, action: Action) -> str:
    """An action id or string as text with card symbols: ``"play 8H"`` -> ``"play 8♥"``.

    ``game`` is an :class:`eights.Game`; ``action`` an action id in ``[0,
    game.num_actions)`` or a string that ``game.string_to_action`` reads (written back the
    engine's way, ``"PLAY 8h"`` as ``"play 8♥"``)."""
    text = _check_game(game).action_to_string(_action_id(game, action))
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


def _labels(names: Optional[Sequence[str]], n: int) -> List[str]:
    """The seats' labels: ``names`` checked (one string per seat), default ``P0``, ``P1``, ..."""
    if names is None:
        return [f"P{p}" for p in range(n)]
    if isinstance(names, (str, bytes)) or not isinstance(names, _Iterable):
        raise TypeError(f"names must be a list of {n} strings (one per seat), got {describe(names)}")
    label = list(names)
    if len(label) != n:
        raise ValueError(f"names must have one string per seat ({n}), got {len(label)}")
    for k, name in enumerate(label):
        if not isinstance(name, str):
            raise TypeError(f"names[{k}] must be a string, got {describe(name)}")
    return label


def _recent(game: Any, history: Iterable[Tuple[int, Action]]) -> List[Tuple[int, int]]:
    """The last :data:`HISTORY_SHOWN` pairs of ``history``, checked, with action ids."""
    if isinstance(history, (str, bytes)) or not isinstance(history, _Iterable):
        raise TypeError(f"history must be a sequence of (seat, action) pairs, got {describe(history)}")
    recent = []
    for item in list(history)[-HISTORY_SHOWN:]:
        try:
            seat, action = item
        except (TypeError, ValueError):
            raise TypeError(f"history must hold (seat, action) pairs, got {describe(item)}") from None
        seat = as_int(seat, "a history seat", 0, game.num_players - 1)
        recent.append((seat, _action_id(game, action, "a history action")))
    return recent


def _table_args(
    game: Any, viewer: Optional[int], history: Iterable[Tuple[int, Action]], names: Optional[Sequence[str]]
) -> Tuple[Optional[int], List[str], List[Tuple[int, int]]]:
    """What the pictures of a table take, checked: ``viewer`` (None or a seat), the seats'
    labels (:func:`_labels`) and the recent history (:func:`_recent`)."""
    n = _check_game(game).num_players
    if viewer is not None:
        viewer = as_int(viewer, "viewer", 0, n - 1)
    return viewer, _labels(names, n), _recent(game, history)


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
    seats (one string per seat; default ``P0``, ``P1``, ...).

    ``game`` is an :class:`eights.Game`, ``viewer`` None or a seat ``0..num_players-1``
    and ``history`` ``(seat, action)`` pairs (see the module's docstring); anything else
    is a ``TypeError`` or ``ValueError`` naming the argument.
    """
    viewer, label, recent = _table_args(game, viewer, history, names)
    n = game.num_players
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
    if recent:
        lines.append("Last actions: " + " · ".join(f"{label[s]} {action_text(game, a)}" for s, a in recent))
    return "\n".join(lines) + "\n"
