"""The variant tables (``[variant.NAME]``) that rules document beyond their preset's, checked
when the rules are made: a misspelt key in one was accepted, listed by ``eights rules`` as a
documented variant, and refused only when the variant was applied, naming a field with no
word of the variant it sat in."""

from __future__ import annotations

import re
from typing import Any, Dict, Union

from .._core import RulesError, presets, resolve_rules
from .._utils.overrides import deep_merge

_FIELD = re.compile(r"invalid rules field '([^']*)': (.*)", re.S)


def check_variant_tables(base: Union[str, Dict[str, Any]], overrides: Dict[str, Any], spec: Dict[str, Any]) -> None:
    """Each variant table of ``spec`` (the rules ``base`` plus ``overrides`` resolve to) that
    its preset does not document as it stands, read as the engine reads it when the variant
    is applied (the table, then the rules' own changes on top): a :class:`eights.RulesError`
    naming ``variant.NAME`` and the field within it for a misspelt key or a value of the wrong
    type. Whether the variant suits the rest of the rules is checked when it is applied, as a
    preset's own variants are."""
    tables = spec.get("variant") or {}
    if isinstance(base, str) and not overrides.get("variant"):
        return  # the preset's own tables, as the preset documents them
    parent = base if isinstance(base, str) else spec.get("inherits")
    documented = (resolve_rules(parent, None).get("variant") or {}) if parent in presets() else {}
    for name, table in sorted(tables.items()):
        where = f"variant.{name[:60]}"
        if not isinstance(table, dict):
            raise RulesError(
                f"invalid rules field '{where}': a variant is a table of changes to the rules, got {table!r:.60}"
            )
        if documented.get(name) == table:
            continue
        try:
            resolve_rules(base, deep_merge(table, overrides))
        except RulesError as exc:
            m = _FIELD.match(str(exc))
            if m is None:
                raise RulesError(f"invalid rules field '{where}': {exc}") from None
            raise RulesError(f"invalid rules field '{where}.{m[1]}': {m[2]} (in variant \"{name[:60]}\")") from None
