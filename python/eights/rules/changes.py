"""What rules change from the preset they start from, in words: the note :meth:`eights.Rules.describe`
adds under a preset's prose summary when variants or changes are applied to it, the label
(:attr:`eights.Rules.label`) that results and logs give rules changed from a preset, so that a
result on changed rules is not taken for one on the preset, and the title a page shows them
under (:func:`titled`), for the same reason."""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, List, Optional, Tuple, cast

from .._core import presets, resolve_rules
from .._utils.overrides import deep_merge

#: The fields that name and present rules rather than play them.
_LABELS = ("name", "title", "source", "description", "inherits")

#: The most changed fields the words name (then "and N more").
_FIELDS_SHOWN = 6


def _flat(value: Any, path: str = "") -> Dict[str, Any]:
    """A specification's leaves by dotted path (lists are leaves)."""
    if not isinstance(value, dict):
        return {path: value}
    out: Dict[str, Any] = {}
    for key, sub in value.items():
        out.update(_flat(sub, f"{path}.{key}" if path else str(key)))
    return out


def _changes(rules: Any) -> Optional[Tuple[str, List[str], List[str], Dict[str, Any]]]:
    """``(preset, variants added, other fields changed, the rules' fields by dotted path)`` when
    ``rules`` keep a preset's prose summary (its ``description``) but do not play as that
    preset: the summary describes the preset, not these rules. None when they play as the
    preset, or the prose is their own."""
    diff = _diff(rules)
    if diff is None:
        return None
    base, added, fields, mine, theirs = diff
    return base.name, added, _tables_named(fields, theirs), mine


def _diff(rules: Any) -> Optional[Tuple[Any, List[str], List[str], Dict[str, Any], Dict[str, Any]]]:
    """What :func:`_changes` finds: ``(the preset's Rules, variants added, the fields by dotted
    path that differ, the rules' fields by dotted path, the preset's with those variants)``."""
    spec = rules.to_dict()
    prose = spec.get("description")
    if not prose:
        return None
    for name in [rules.preset] if rules.preset else presets():  # a complete file: the preset of its prose
        base = type(rules)(name)
        if base.to_dict().get("description") == prose:
            break
    else:
        return None
    added = [v for v in rules.active_variants if v not in base.active_variants]
    try:
        expected = base.with_variants(*added).to_dict()
    except ValueError:  # pragma: no cover - the rules applied them, so the preset documents them
        expected = base.to_dict()
    # A card entry one side lacks holds the defaults there (a change to `cards.7.skip` adds the
    # whole entry `cards.7`): compare it with the defaults, not with nothing.
    mine_cards, their_cards = set(spec.get("cards") or {}), set(expected.get("cards") or {})
    if mine_cards - their_cards:
        blank: Dict[str, Any] = {"cards": {k: {} for k in mine_cards - their_cards}}
        expected = type(rules).from_dict(expected).replace(rules=blank).to_dict()
    if their_cards - mine_cards:
        spec = rules.replace(rules={"cards": {k: {} for k in their_cards - mine_cards}}).to_dict()
    mine, theirs = _flat(spec), _flat(expected)
    fields = sorted(
        k for k in set(mine) | set(theirs) if k.split(".")[0] not in _LABELS and mine.get(k, ()) != theirs.get(k, ())
    )
    if not added and not fields:
        return None
    return base, added, fields, mine, theirs


def _tables_named(fields: List[str], theirs: Dict[str, Any]) -> List[str]:
    """Each field under a table the preset does not have named by that table: a new
    ``cards.2.draw_chain`` listed each of its fields, defaults included, and pushed the
    changes made elsewhere into "and 3 more"."""
    out: List[str] = []
    for field in fields:
        parts = field.split(".")
        for n in range(1, len(parts)):
            head = ".".join(parts[:n])
            if theirs.get(head) is None and not any(k.startswith(head + ".") for k in theirs):
                field = head
                break
        if field not in out:
            out.append(field)
    return out


def described(rules: Any, text: str) -> str:
    """``text``, the rules in words, with the preset's prose summary labelled as the preset's and
    followed by what changed when variants or changes are applied to it: the list below the
    summary, not the summary, describes the rules in play."""
    changed = _changes(rules)
    prose = rules.to_dict().get("description") or ""
    if changed is None or prose not in text:
        return text
    preset, added, fields, _ = changed
    parts = [f"variant{'s' if len(added) > 1 else ''} {', '.join(added)}"] if added else []
    if fields:
        more = len(fields) - _FIELDS_SHOWN
        shown = ", ".join(fields[:_FIELDS_SHOWN]) + (f" and {more} more" if more > 0 else "")
        parts.append(f"changes to {shown}")
    note = (
        f"Changed by: {'; '.join(parts)}. The summary above is the {preset} preset's; "
        "the rules listed below are the ones in play."
    )
    return text.replace(prose, f"{preset}: {prose}\n\n{note}", 1)


def label(preset: Any, overrides: Optional[Dict[str, Any]] = None) -> str:
    """How results and logs name rules: a preset's name, or a :class:`eights.Rules`'s, followed
    by the changes played on top of the preset (``crazy_eights + deal.hand_size=4``): those the
    ``Rules`` make and then ``overrides``, in the order of their fields. Rules with a name of
    their own (a house-rules file, a complete specification named otherwise) go by that name,
    followed by the changes made on top of the table that named them (``switch_multiples +
    deal.hand_size=3``: see :func:`house_table`); a complete specification under a preset's
    name lists what differs from the preset."""
    name, listed = _listed(preset, overrides)
    return f"{name} + {', '.join(listed)}" if listed else name


def titled(rules: Any) -> str:
    """The title a page shows a :class:`eights.Rules` under: its ``title``, followed by the
    changes its :func:`label` lists when there are any (``Crazy Eights (changed:
    deal.hand_size=6)``; past six of them, ``and N more``), so that a table of changed rules
    is not shown as the preset's. A house-rules file keeps its own title."""
    listed = _listed(rules)[1]
    if not listed:
        return rules.title
    more = len(listed) - _FIELDS_SHOWN
    return f"{rules.title} (changed: {', '.join(listed[:_FIELDS_SHOWN])}{f' and {more} more' if more > 0 else ''})"


def _listed(preset: Any, overrides: Optional[Dict[str, Any]] = None) -> Tuple[str, List[str]]:
    """The name :func:`label` gives rules and the changes it lists after it (``key.path=value``)."""
    own: List[str] = []
    if isinstance(preset, str):
        name = preset
        if overrides and name in presets() and _plays_as(name, {}, overrides):
            return name, []
    else:
        name = preset.name or "custom rules"
        if preset._house is not None:  # a name of their own: what changed on top of its table
            changes = _played(deep_merge(preset.overrides, overrides or {}))
            if _plays_as(preset._base, preset._house, changes):
                return name, []
            return name, _paths(_played(preset._house), changes)
        if preset.preset is not None:
            overrides = deep_merge(preset.overrides, overrides or {})
            if _plays_as(preset.preset, {}, overrides):
                return name, []
        else:
            own = _complete_paths(preset)
    return name, own + override_paths(_played(overrides or {}))


def _plays_as(base: Any, table: Dict[str, Any], changes: Dict[str, Any]) -> bool:
    """Whether ``changes`` leave the rules ``base`` (a preset's name, or a complete
    specification) with ``table`` on top as they play (``deal.dealer_extra=0`` where it is
    0 already), names, titles and prose aside: such rules are labelled as those they change,
    whatever was set again."""
    if not _played(changes):
        return False
    try:
        before = resolve_rules(base, copy.deepcopy(table) or None)
        after = resolve_rules(base, deep_merge(table, changes) or None)
    except (ValueError, TypeError):  # pragma: no cover - the changes come from rules that resolved
        return False
    return bool(_played(before) == _played(after))


def _complete_paths(rules: Any) -> List[str]:
    """``key.path=value`` for what a complete specification under a preset's name changes from
    the preset: the changes that make the preset play as it does, as :func:`label` lists them
    for the same rules given as changes to the preset. A field the others clear is left out (an
    explicit ``deal.hand_size`` supersedes the preset's ``deal.hand_size_by_players``, as in
    the engine, so a per-player table emptied is that field set), a new table's unset fields
    too; a field no change to the preset removes is shown ``=(removed)``."""
    diff = _diff(rules)
    if diff is None:
        return []
    base, added, fields, mine, theirs = diff
    values: Dict[str, Any] = {"variants": base.active_variants + added} if added else {}
    gone: List[str] = []
    for path in fields:
        if path.split(".")[0] in _PLAY_ONLY:
            continue
        if path in mine and (mine[path] is not None or _holds(theirs, path)):
            values[path] = mine[path]
        elif path not in mine and not _holds(mine, path):
            gone.append(path)
    for path in gone:  # an explicit value supersedes its per-player table, as in the engine
        head, _, count = path.rpartition("_by_players.")
        if count and head in mine and head not in values:
            values[head] = mine[head]
    if gone:
        try:
            kept = _flat(type(rules)(base.name, dict(values)).to_dict())
            gone = [p for p in gone if p in kept]
        except ValueError:  # pragma: no cover - the changes come from rules that resolved
            pass
    listed = [(p, _shown(p, v)) for p, v in values.items()] + [(p, f"{p}=(removed)") for p in gone]
    return [text for _, text in sorted(listed, key=lambda item: item[0].split("."))]


def _holds(flat: Dict[str, Any], path: str) -> bool:
    """Whether fields by dotted path ``flat`` hold ``path`` or a field under it."""
    return path in flat or any(k.startswith(path + ".") for k in flat)


def house_table(base: Any, overrides: Dict[str, Any], name: Any, was: Any = None) -> Optional[Dict[str, Any]]:
    """The table of changes that gave rules a name of their own, those :func:`label` lists the
    changes on top of: a house-rules file's own content (``inherits``, ``name`` and its changes),
    or the overrides that renamed a preset; ``{}`` for a complete specification of its own name
    as read (its changes are those made since). Rules changed further under the same name
    (:meth:`eights.Rules.replace`) keep the table of ``was``, the rules they change; renamed,
    they are a house of their own, its table the one that renamed them. None for rules under
    their preset's name (``base``, or a preset's for a complete specification), whose changes
    are those from the preset."""
    if name == base or (not isinstance(base, str) and name in presets()):
        return None
    if was is not None and was._house is not None and was.name == name:
        return cast(Dict[str, Any], was._house)
    return copy.deepcopy(overrides)


def _played(table: Dict[str, Any]) -> Dict[str, Any]:
    """``table`` without the fields that name and present rules or document their variants."""
    return {k: v for k, v in table.items() if k not in _PLAY_ONLY}


def _paths(before: Dict[str, Any], after: Dict[str, Any]) -> List[str]:
    """``key.path=value`` for each value of the table ``after`` that differs from ``before``, in
    the order of the fields; no variants where ``before`` names none is no change (as for a
    preset: :func:`override_paths`)."""
    old, new = _flat(before), _flat(after)
    changed = [p for p, v in new.items() if old.get(p, _NOTHING) != v and (p in old or not _no_variants(p, v))]
    return [_shown(p, new[p]) for p in sorted(changed, key=lambda p: p.split("."))]


#: Top-level fields that do not change play: the labels, and the documented variants' tables.
_PLAY_ONLY = (*_LABELS, "variant")

#: A value no table holds, for a field a table lacks.
_NOTHING = object()


def override_paths(table: Dict[str, Any], prefix: str = "") -> List[str]:
    """``key.path=value`` for each value of a (nested) overrides table, in the order of the keys
    (the same rules give the same words); lists of names comma-joined, empty tables and an empty
    ``variants`` (none applied) left out: an empty list elsewhere (``multi.excluded=[]``) empties
    the preset's."""
    out: List[str] = []
    for key in sorted(table, key=str):
        value, path = table[key], f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(override_paths(value, path + "."))
        elif not _no_variants(path, value):
            out.append(_shown(path, value))
    return out


def _no_variants(path: str, value: Any) -> bool:
    """Whether ``path=value`` applies no variants (``variants=[]``): a change that changes nothing."""
    return path == "variants" and isinstance(value, (list, tuple)) and not value


def _shown(path: str, value: Any) -> str:
    """``path=value``: a list of names comma-joined, a string as it is, anything else as JSON."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return f"{path}={','.join(value)}"
    return f"{path}={value if isinstance(value, str) else json.dumps(value)}"
