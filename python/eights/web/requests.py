"""Reading what a browser or a script sends: the rules of a new table (a preset and its
documented variants, or an uploaded house-rules TOML file), the number of players, the
person's seat, the bot of every other seat, a seed, and a move.  Every bad value becomes an
:class:`~eights.web.errors.ApiError` (400, or 413 for an oversized file) whose message names
the field and what is allowed; nothing here changes a game."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .._core import BOT_NAMES_HELP, NUM_ACTIONS, check_bot_rules, parse_bot, presets
from .._utils.checks import as_int, describe
from .._utils.seeds import check_optional_seed
from ..agents.files import is_agent_file, is_built_in_name
from ..agents.load import SB3Policy
from ..agents.spec import AgentSpec, as_agent
from ..rules import Rules
from ..rules.toml_text import load_toml_text
from .config import MAX_RULES_BYTES, MAX_TABLE_DECISIONS
from .errors import bad_request, too_large

__all__ = [
    "action_from",
    "agents_from",
    "is_quick",
    "json_object",
    "players_from",
    "rules_from",
    "seat_from",
    "seed_from",
    "text_field",
]

#: The preset a table plays when a request names none.
DEFAULT_PRESET = "crazy_eights"

#: The built-in bots that answer in microseconds: they act on the event loop; every other
#: agent thinks on a worker thread.
QUICK_BOTS = ("random", "heuristic")


def text_field(body: Dict[str, Any], name: str, default: Optional[str] = None) -> Optional[str]:
    """``body[name]`` as a string (``default`` when absent or null); 400 for another type."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise bad_request(f"'{name}' must be a string, got {describe(value)}")
    return value


def _int_field(body: Dict[str, Any], name: str, low: int, high: int, default: int) -> int:
    """``body[name]`` as an integer in ``[low, high]`` (``default`` when absent or null)."""
    value = body.get(name)
    if value is None:
        return default
    try:
        return as_int(value, f"'{name}'", low, high)
    except (TypeError, ValueError) as exc:
        raise bad_request(str(exc)) from None


def _variants(body: Dict[str, Any]) -> List[str]:
    value = body.get("variants") or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad_request(f"'variants' must be a list of variant names, got {describe(value)}")
    return value


def _toml_rules(text: str) -> Rules:
    size = len(text.encode("utf-8"))
    if size > MAX_RULES_BYTES:
        raise too_large(f"the rules file is {size} bytes; the limit is {MAX_RULES_BYTES} bytes")
    try:
        return Rules.from_dict(load_toml_text(text, "the rules file"))
    except (ValueError, TypeError) as exc:  # invalid TOML, or a rules error naming the field
        raise bad_request(str(exc)) from None


def rules_from(body: Dict[str, Any]) -> Rules:
    """The rules a request asks for: ``toml`` (the text of a house-rules file) or ``preset``
    (default crazy_eights), with the documented ``variants`` applied."""
    toml = text_field(body, "toml")
    preset = text_field(body, "preset")
    if toml is not None and preset is not None:
        raise bad_request("give 'preset' or 'toml' (a house-rules file names its own preset), not both")
    if toml is not None:
        rules = _toml_rules(toml)
    else:
        preset = preset or DEFAULT_PRESET
        if preset not in presets():
            raise bad_request(f"unknown preset {preset!r}; the presets are: {', '.join(presets())}")
        rules = Rules(preset)
    variants = _variants(body)
    if variants:
        try:
            rules = rules.with_variants(*variants)
        except ValueError as exc:
            raise bad_request(str(exc)) from None
    cap = rules.to_dict()["limits"]["max_decisions"]
    if not 1 <= cap <= MAX_TABLE_DECISIONS:
        # A table's bots move within one request: with no cap (or a vast one) rules where they
        # circle would hold the server for ever.
        raise bad_request(
            f"limits.max_decisions must be in [1, {MAX_TABLE_DECISIONS:,}] for a table on the server "
            f"(0, no cap, is for your own runs), got {cap:,}"
        )
    return rules


def players_from(body: Dict[str, Any], rules: Rules) -> int:
    """``players``: a count the rules allow (default: 2, or the rules' smallest count)."""
    allowed = rules.players
    default = max(2, allowed.start)
    n = _int_field(body, "players", 2, 10, default)
    if n not in allowed:
        lo, hi = allowed.start, allowed.stop - 1
        words = f"is for exactly {lo} players" if lo == hi else f"allows {lo} to {hi} players"
        # The rules in play, with their changes: not the preset's name over changed rules.
        raise bad_request(f"'players': {rules.label} {words}, got {n}")
    try:
        rules.validate(n)
    except ValueError as exc:
        raise bad_request(str(exc)) from None
    return n


def seat_from(body: Dict[str, Any], num_players: int) -> int:
    """``seat``: the person's seat, in ``[0, players)`` (default 0)."""
    return _int_field(body, "seat", 0, num_players - 1, 0)


def seed_from(body: Dict[str, Any], name: str = "seed") -> Optional[int]:
    """``seed``: an integer in ``[0, 2**64)`` (or its decimal string), or null for a fresh deal."""
    value = body.get(name)
    # A decimal string: JSON numbers lose 64-bit seeds in JavaScript. ASCII digits only ("²").
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    try:
        return check_optional_seed(value, f"'{name}'")
    except (TypeError, ValueError) as exc:
        raise bad_request(str(exc)) from None


def _agent(
    name: Any, rules: Rules, num_players: int, policies: Dict[str, Any], max_search: int = 1_000_000
) -> AgentSpec:
    """One seat's agent: a policy offered by the server (by its label) or a built-in bot,
    searching at most ``max_search`` simulations or worlds."""
    if not isinstance(name, str):
        raise bad_request(f"a bot must be named by a string, got {describe(name)}")
    if name in policies:
        policy = policies[name]
        if isinstance(policy, SB3Policy):  # a model of the scaled observation: this table's bounds
            policy = policy.for_table(rules, num_players)
        if isinstance(policy, str):  # a weights file offered by the server, played in Rust
            try:
                check_bot_rules(policy, rules, num_players)
            except ValueError as exc:
                raise bad_request(f"bot {name!r}: {exc}") from None
        return as_agent(policy, "bot").with_label(name)
    if is_agent_file(name):
        # Files on the server's disk are offered by the server (--policy NAME=FILE), never
        # named by a client.
        raise bad_request(
            f"bot {name!r}: a weights file is offered by the server (serve --policy NAME=FILE.safetensors)"
        )
    offered = f"; or one of this server's policies: {', '.join(policies)}" if policies else ""
    if not is_built_in_name(name):
        # Nor a run's folder, and the engine's word on a path (what is there) stays unsaid.
        raise bad_request(f"bot {name!r}: unknown bot; allowed bots: {BOT_NAMES_HELP}{offered}")
    try:
        bot = parse_bot(name.strip())
        check_bot_rules(bot, rules, num_players)
        head, _, count = bot.partition(":")
        if count.isdigit() and int(count) > max_search:
            raise ValueError(f"{head} searches at most {head}:{max_search:,} on this server (serve --max-search)")
    except ValueError as exc:
        raise bad_request(f"bot {name!r}: {exc}{offered}") from None
    return as_agent(bot, "bot")


def agents_from(
    body: Dict[str, Any],
    rules: Rules,
    num_players: int,
    seats: Sequence[int],
    policies: Dict[str, Any],
    max_search: int = 1_000_000,
) -> Dict[int, AgentSpec]:
    """``bots``: one name for every bot seat, or a list of one name per bot seat (in seat
    order); default ``heuristic``.  A name is a built-in bot or the label of a policy the
    server offers (``--policy``)."""
    value = body.get("bots", "heuristic")
    names = [value] * len(seats) if isinstance(value, str) else value
    if not isinstance(names, list):
        raise bad_request(f"'bots' must be a bot name or a list of them ({BOT_NAMES_HELP}), got {describe(value)}")
    if len(names) == 1 and len(seats) > 1:
        names = names * len(seats)
    if len(names) != len(seats):
        raise bad_request(f"'bots' needs one name, or one per bot seat ({len(seats)}), got {len(names)}")
    return {seat: _agent(name, rules, num_players, policies, max_search) for seat, name in zip(seats, names)}


def is_quick(agent: AgentSpec) -> bool:
    """True for the bots that act at once (:data:`QUICK_BOTS`)."""
    return agent.bot in QUICK_BOTS


def action_from(value: Any, game: Any) -> int:
    """A move as a client sends it (an action id, or its text such as ``"play 8H"`` or
    ``"draw"``), checked legal by the engine; 400 naming the legal moves otherwise."""
    if isinstance(value, str):
        try:
            action = game.string_to_action(value.strip())
        except ValueError:
            raise bad_request(
                f"'action': {value[:40]!r} is not a move; legal now: {', '.join(game.legal_action_strings())}"
            ) from None
    else:
        try:
            action = as_int(value, "'action'", 0, NUM_ACTIONS - 1)
        except (TypeError, ValueError) as exc:
            raise bad_request(f"{exc} (or a move's text such as 'draw')") from None
    if action not in game.legal_actions():
        raise bad_request(
            f"illegal move {game.action_to_string(action)!r} in phase {game.phase!r}; "
            f"legal now: {', '.join(game.legal_action_strings())}"
        )
    return action


def json_object(value: Any, what: str = "the request body") -> Dict[str, Any]:
    """``value`` when it is a JSON object; 400 otherwise."""
    if not isinstance(value, dict):
        raise bad_request(f"{what} must be a JSON object, got {describe(value)}")
    return value
