"""Rule overrides: combining a ``rules=`` dict (dotted keys allowed) with keyword overrides
(``deal__hand_size=4``) into one nested dict, and merging override tables (the deep merge
is the engine's own, ``eights._core.merge_rules``, so presets and overrides merge alike)."""

from __future__ import annotations

import copy
import difflib
import functools
import inspect
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from .._core import RulesError, merge_rules, resolve_rules
from .._utils.checks import describe

__all__ = [
    "merge_rule_overrides",
    "deep_merge",
    "rules_and_overrides",
    "check_depth",
    "env_overrides",
    "UnknownKeywordError",
    "variant_names",
    "MAX_RULES_DEPTH",
]


#: Deepest nesting of tables and lists accepted in rules (the engine's limit; real rules use 4).
MAX_RULES_DEPTH = 32


def check_depth(value: Any, what: str = "rules") -> None:
    """Raise :class:`eights.RulesError` naming the path where ``value`` (dicts and lists)
    nests deeper than :data:`MAX_RULES_DEPTH` (checked without recursion)."""
    stack = [(value, "", 0)]
    while stack:
        node, path, depth = stack.pop()
        if depth > MAX_RULES_DEPTH:
            raise RulesError(f"invalid rules field '{path or what}': nested more than {MAX_RULES_DEPTH} levels deep")
        if isinstance(node, Mapping):
            stack.extend((v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in node.items())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(node))


def _split_key(key: Any, separator: str) -> List[str]:
    if not isinstance(key, str):
        raise TypeError(f"rule names must be strings, got {describe(key)}")
    parts = key.split(separator)
    if any(part == "" for part in parts):
        raise ValueError(f"malformed rule name {key!r}")
    return parts


def _set_rule(target: Dict[str, Any], path: Sequence[str], value: Any) -> None:
    """Set ``target[path[0]][path[1]]... = value``, merging nested dicts.

    Raises ``ValueError`` when the same rule is given twice with different
    values, or when a rule group is also given as a plain value.
    """
    node = target
    for depth, part in enumerate(path[:-1]):
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            dotted = ".".join(path[: depth + 1])
            raise ValueError(
                f"rule {dotted!r} is given both as a value ({child!r}) and as a "
                f"group of rules (while setting {'.'.join(path)!r})"
            )
        node = child
    leaf = path[-1]
    dotted = ".".join(path)
    if isinstance(value, Mapping):
        existing = node.setdefault(leaf, {})
        if not isinstance(existing, dict):
            raise ValueError(f"rule {dotted!r} is given both as a value ({existing!r}) and as a group of rules")
        for key, sub_value in value.items():
            _set_rule(target, list(path) + _split_key(key, "."), sub_value)
        return
    if leaf in node:
        existing = node[leaf]
        if isinstance(existing, dict):
            raise ValueError(f"rule {dotted!r} is given both as a group of rules and as a value ({value!r})")
        if existing != value:
            raise ValueError(f"rule {dotted!r} is given twice with different values: {existing!r} and {value!r}")
        return
    node[leaf] = copy.deepcopy(value)


def merge_rule_overrides(rules: Optional[Mapping[str, Any]] = None, **overrides: Any) -> Optional[Dict[str, Any]]:
    """Combine ``rules=`` and keyword rule overrides into one nested dict.

    * ``rules`` is a (possibly nested) mapping; its keys may also be dotted
      paths, e.g. ``{"deal.hand_size": 4}``.
    * keyword overrides use ``"__"`` in place of ``"."``:
      ``deal__hand_size=4`` means ``{"deal": {"hand_size": 4}}``; a keyword
      whose value is a dict is merged as a group (``deal={"hand_size": 4}``).

    Giving the same rule twice with different values raises ``ValueError``.
    Validation of the rule names and values themselves is left to the game
    (which raises :class:`eights.RulesError` naming the offending field).

    Returns ``None`` when there are no overrides at all.

    >>> merge_rule_overrides({"deal": {"hand_size": 4}}, series__target=200)
    {'deal': {'hand_size': 4}, 'series': {'target': 200}}
    """
    merged: Dict[str, Any] = {}
    check_depth(overrides)
    if rules is not None:
        if not isinstance(rules, Mapping):
            raise TypeError(f"rules must be a dict of rule overrides, got {describe(rules)}")
        check_depth(rules)
        for key, value in rules.items():
            _set_rule(merged, _split_key(key, "."), value)
    for key, value in overrides.items():
        _set_rule(merged, _split_key(key, "__"), value)
    return merged or None


def rules_and_overrides(rules: Optional[Mapping[str, Any]], overrides: Dict[str, Any]) -> Dict[str, Any]:
    """``rules`` and keyword overrides as one nested dict (empty when there are none)."""
    return merge_rule_overrides(rules, **overrides) or {}


def deep_merge(base: Dict[str, Any], over: Mapping[str, Any]) -> Dict[str, Any]:
    """``base`` updated with ``over``, as a new dict: dicts merge key by key, anything else
    replaces.  Both must be JSON-like (``TypeError`` naming ``rules`` otherwise)."""
    merged: Dict[str, Any] = merge_rules(base, dict(over))
    return merged


def variant_names(names: Sequence[Any], where: str) -> List[str]:
    """The variant names of ``names`` (the arguments of ``where``): the names themselves, or
    one list or tuple of them, the form ``variants=[...]`` takes everywhere else. A name
    that is not a str is a ``TypeError`` naming ``where``'s argument."""
    if len(names) == 1 and isinstance(names[0], (list, tuple)):
        names = names[0]
    for name in names:
        if not isinstance(name, str):
            raise TypeError(
                f"{where} names must be variant names (str), as ('a', 'b') or one list ['a', 'b']; got {describe(name)}"
            )
    return list(names)


@functools.cache
def _rules_fields() -> Tuple[Tuple[str, bool], ...]:
    """The top-level fields of a rules specification, in the engine's order, each with
    whether it is a table (a dict: a scalar value is never valid there)."""
    return tuple((k, isinstance(v, dict)) for k, v in resolve_rules("crazy_eights", None).items())


@functools.cache
def _keywords(func: Callable[..., Any]) -> FrozenSet[str]:
    """The keyword arguments ``func`` (a function or a class) names in its signature."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return frozenset()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return frozenset(p.name for p in params if p.kind in kinds)


class UnknownKeywordError(RulesError, TypeError):
    """A keyword of an environment that is neither one of its settings nor a rules field
    (``frameskip=4``): the engine's ``RulesError`` naming the field, as before, and also the
    ``TypeError`` "got an unexpected keyword argument" of Python's own functions, which tools
    rely on (TorchRL's ``GymEnv`` passes ``frameskip`` and drops it on that error only)."""


def _refuse_unknown(name: str, key: str, top: str) -> None:
    """Raise :class:`UnknownKeywordError` for ``key`` (whose first part ``top`` is no rules
    field), with the engine's own words for that field (its hints kept: ``hand_size`` is a
    field of ``deal``). A malformed name (``__foo``) keeps its ``ValueError``."""
    _split_key(key, "__")
    try:
        resolve_rules("crazy_eights", {top: 0})
    except RulesError as err:
        raise UnknownKeywordError(
            f"{name}() got an unexpected keyword argument {key!r}: it is no setting of the env, "
            f"and as a rules override: {err}"
        ) from None


#: How close (``difflib`` ratio) a rules table given a plain value must be to an env keyword
#: to be taken for a misspelt keyword (``players=3`` for ``num_players``, 0.78); an unknown
#: name needs difflib's usual 0.6 (``opponent``, ``num_player``, ``seeds``).
_TABLE_CUTOFF = 0.75


def env_overrides(
    overrides: Mapping[str, Any], env: Callable[..., Any], *more: Callable[..., Any]
) -> Mapping[str, Any]:
    """``overrides``, the keyword catch-all of ``env`` (a function or class whose other
    keywords are its own settings, ``more`` those it passes its keywords on to), checked for
    misspelt settings: a key that is not a rules field (or is a rules table given a plain
    value, ``players=3``) and is close to one of the env's keywords (read from the
    signatures, so they cannot drift) is a ``TypeError`` as Python's own ``unexpected keyword
    argument``, with a "did you mean"; so is ``seed`` where the env takes none (PettingZoo's:
    seeded through ``reset(seed=...)``); a key whose first part is no rules field at all
    (``frameskip``) is an :class:`UnknownKeywordError`, Python's ``TypeError`` and the engine's
    ``RulesError`` in one; any other key is left to the rules (which name a bad field)."""
    keywords = set(_keywords(env)).union(*(_keywords(f) for f in more))
    fields = dict(_rules_fields())
    name = getattr(env, "__name__", "the env")
    for key, value in overrides.items():
        if not isinstance(key, str) or key in keywords:
            continue
        if key == "seed":  # an env without a seed keyword (PettingZoo's): seeded by its reset
            raise TypeError(
                f"{name}() got an unexpected keyword argument 'seed': this env is seeded through "
                "reset(seed=...) (other keywords are rules overrides)"
            )
        top = key.split("__")[0]
        if top in fields and (not fields[top] or top != key or isinstance(value, Mapping)):
            continue  # a rules field, given a value of its kind
        cutoff = _TABLE_CUTOFF if top in fields else 0.6
        close = difflib.get_close_matches(key, sorted(keywords), n=1, cutoff=cutoff)
        if not close and top not in fields:
            _refuse_unknown(name, key, top)
        if not close:
            continue
        if top in fields:
            why = f"the rules field {key!r} is a table, given as a dict or as {key}__<field>=..."
        else:
            why = f"the rules fields are {', '.join(fields)}"
        raise TypeError(
            f"{name}() got an unexpected keyword argument {key!r}: did you mean {close[0]}? "
            f"(other keywords are rules overrides; {why})"
        )
    return overrides
