"""The variant tables (``[variant.NAME]``) that rules document beyond their preset's, checked
when the rules are made: a misspelt key in one was accepted, listed by ``eights rules`` as a
documented variant, and refused only when the variant was applied, naming a field with no
word of the variant it sat in."""

from __future__ import annotations

import re
from typing import Any, Dict, Union

from .._core import RulesError, resolve_rules, validate_rules
from .._utils.checks import quoted
from .._utils.overrides import deep_merge

_FIELD = re.compile(r"invalid rules field '([^']*)': (.*)", re.S)


def check_variant_tables(base: Union[str, Dict[str, Any]], overrides: Dict[str, Any], spec: Dict[str, Any]) -> None:
    """Each variant table of ``spec`` (the rules ``base`` plus ``overrides`` resolve to) that
    its preset does not document as it stands, applied to those rules as changes of their own:
    a :class:`eights.RulesError` naming ``variant.NAME`` and the field within it otherwise."""
    tables = spec.get("variant") or {}
    if isinstance(base, str):
        added = overrides.get("variant")
        if not isinstance(added, dict) or not added:
            return  # the preset's own tables, as the preset documents them
        documented = resolve_rules(base, None).get("variant") or {}
    else:
        documented = {}
    for name, table in sorted(tables.items()):
        if documented.get(name) == table or not isinstance(table, dict):
            continue
        try:
            applied = resolve_rules(base, deep_merge(overrides, table))
            validate_rules(applied, applied["players"]["min"])
        except RulesError as exc:
            m = _FIELD.match(str(exc))
            where = f"variant.{name[:60]}"
            if m is None:
                raise RulesError(f"invalid rules field '{where}': {exc}") from None
            raise RulesError(f"invalid rules field '{where}.{m[1]}': {m[2]} (in variant {quoted(name[:60])})") from None
