"""What a client sees, as JSON: the table from one seat (:func:`table_view`: the person's
hand and only the card counts of the others, until the game ends; every hand when watching),
each legal move with its kind and a label for its button (:func:`move_view`), a game record's
position (:func:`position_view`), and the rules of a table (:func:`rules_view`)."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence

from .._core import special_cards, variant_changes
from ..render import SUIT_NAMES, SUIT_SYMBOLS, action_text, card_symbol
from ..rules import Rules
from ..rules.changes import titled

__all__ = ["is_match", "move_view", "position_view", "pretty", "rules_view", "table_view"]

_TEN = re.compile(r"\bT([♣♦♥♠])")


def pretty(text: str) -> str:
    """Action text for people: card symbols with the ten written ``10`` (``"play 10♥"``)."""
    return _TEN.sub(r"10\1", text)


_RANK_NAMES = {"A": "aces", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings", "joker": "a joker"}


def _ask_label(what: str) -> str:
    if what in _RANK_NAMES:
        return f"Ask for {_RANK_NAMES[what]}"
    if len(what) == 2 and what[1] in SUIT_SYMBOLS:  # "ask QS": the queen of spades
        return f"Ask for {pretty(card_symbol(what))}"
    return f"Ask for {what}s"


def move_view(game: Any, action: int, text: str, names: Sequence[str]) -> Dict[str, Any]:
    """One legal move: ``id``, ``text`` (the engine's), ``kind`` (the verb: play, suit,
    draw, accept, pass, end, give, keep, target, ask, challenge, no_challenge, announce),
    ``card``/``suit``/``seat``/``rank`` when it has one, and ``label`` for its button."""
    kind, _, arg = text.partition(" ")
    move: Dict[str, Any] = {"id": action, "text": text, "kind": kind, "label": pretty(action_text(game, action))}
    if kind in ("play", "give", "keep"):
        move["card"] = arg
        move["label"] = f"{kind.capitalize()} {pretty(card_symbol(arg))}"
    elif kind == "suit":
        move["suit"] = arg
        move["label"] = f"{SUIT_SYMBOLS[arg]} {SUIT_NAMES[arg]}"
    elif kind == "target":
        seat = (game.current_player + int(arg)) % game.num_players
        move["seat"] = seat
        move["label"] = f"Swap hands with {names[seat]}"
    elif kind == "ask":
        move["rank"] = arg
        move["label"] = _ask_label(arg)
    else:
        move["label"] = _plain_label(game, kind)
    return move


def _plain_label(game: Any, kind: str) -> str:
    if kind == "accept":
        return f"Take the penalty: draw {game.pending_draw}" if game.pending_draw else "Accept"
    if kind == "end":
        return {"nominate": "Keep the suit", "target": "Don't swap"}.get(game.phase, "End the turn")
    labels = {
        "draw": "Draw a card",
        "pass": "Pass",
        "challenge": "Challenge",
        "no_challenge": "Don't challenge",
        "announce": "Announce: last card!",
    }
    return labels.get(kind, kind)


def _public(game: Any) -> Dict[str, Any]:
    """What every seat sees of a game in progress."""
    return {
        "phase": game.phase,
        "decision": game.decision_count,
        "to_act": game.current_player,
        "direction": game.direction,
        "top": game.top_card,
        "suit": game.active_suit,
        "nominated": game.nominated_suit,
        "pending_draw": game.pending_draw,
        "stock": game.stock_size,
        "discard": game.discard_size,
        "rogue": game.rogue_pile(),
        "wild_rank": game.wild_rank,
        "free_play": game.free_play,
        "dealer": game.dealer,
        "hands_played": game.hands_played,
    }


def _result(game: Any, names: Sequence[str]) -> Optional[Dict[str, Any]]:
    if not (game.is_terminal or game.is_truncated):
        return None
    winner = game.winner if game.is_terminal else None
    if game.is_truncated:
        text = "No winner: the game reached the engine's decision limit."
    elif winner is None:
        text = "No winner."
    else:
        text = f"{names[winner]} won." if names[winner] != "You" else "You won!"
    return {
        "winner": winner,
        "truncated": game.is_truncated,
        "finishing_order": game.finishing_order,
        "hand_points": game.hand_points,
        "scores": game.scores,
        "text": text,
    }


def _seats(game: Any, names: Sequence[str], agents: Sequence[Optional[str]], viewer: Optional[int], reveal: bool):
    sizes = game.hand_sizes
    scores = game.scores
    return [
        {
            "seat": p,
            "name": names[p],
            "agent": agents[p],
            "count": sizes[p],
            "cards": game.hand(p) if reveal or viewer is None or viewer == p else None,
            "score": scores[p],
        }
        for p in range(game.num_players)
    ]


def table_view(table: Any) -> Dict[str, Any]:
    """The state of a :class:`~eights.web.tables.Table` as its client sees it."""
    game = table.game
    names = [table.participant(p).name for p in range(table.n)]
    agents = [None if table.participant(p).is_person else table.participant(p).agent.label for p in range(table.n)]
    you = table.person_seat
    over = table.over
    legal: List[Dict[str, Any]] = []
    if you is not None and not over and game.current_player == you:
        legal = [move_view(game, a, s, names) for a, s in zip(game.legal_actions(), game.legal_action_strings())]
    view = {
        "id": table.id,
        "mode": table.mode,
        "you": you,
        "rules": {"name": table.rules.name, "title": table.title, "match": table.match},
        "players": table.n,
        "deal": table.deals,
        "seed": str(table.seed) if over or you is None else None,
        "seats": _seats(game, names, agents, you, over),
        "legal": legal,
        "waiting_for": None if over else ("you" if game.current_player == you else "bot"),
        "thinking": table.thinking,
        "history": table.history[-12:],
        "hands": table.hands,
        "over": over,
        "result": _result(game, names),
        "tally": [
            {
                "name": p.name,
                "agent": None if p.is_person else p.agent.label,
                "seat": table.seating.index(i),
                "deals": p.deals,
                "wins": p.wins,
                "points": p.points,
            }
            for i, p in enumerate(table.participants)
        ],
    }
    view.update(_public(game))
    return view


def is_match(rules: Rules) -> bool:
    """True when the rules play a match over several hands (``series.match``)."""
    return bool(rules.to_dict().get("series", {}).get("match"))


def position_view(game: Any, names: Sequence[str], viewer: Optional[int], history: List[Dict[str, Any]]):
    """A position of a replayed record: every hand (or only ``viewer``'s), the public state,
    the moves that led to it and, at the end, the result."""
    agents: List[Optional[str]] = [None] * game.num_players
    view = {
        "players": game.num_players,
        "seats": _seats(game, names, agents, viewer, False),
        "history": history[-12:],
        "over": game.is_terminal or game.is_truncated,
        "result": _result(game, names),
    }
    view.update(_public(game))
    return view


def rules_view(rules: Rules) -> Dict[str, Any]:
    """The rules as the setup page shows them: names, player counts, the documented
    variants (each with its changes), the special cards and the rules in words."""
    spec = rules.to_dict()
    return {
        "name": rules.name,
        "title": titled(rules),  # with what changed from the preset: not the preset's own title
        "preset": rules.preset,
        "players": {"min": rules.players.start, "max": rules.players.stop - 1},
        "variants": [{"name": v, "changes": variant_changes(spec["variant"][v])} for v in rules.variants],
        "active_variants": rules.active_variants,
        "special_cards": [
            {"rank": rank, "name": name, "effects": effects} for rank, name, effects in special_cards(spec)
        ],
        "match": is_match(rules),
        "describe": rules.describe(),
    }
