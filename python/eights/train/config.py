"""Command-line flags from nested dataclasses, as the training scripts take them.

A script's arguments are one dataclass whose fields may themselves be dataclasses (the
hyperparameters :class:`~eights.train.PPOConfig` and the opponent mix
:class:`~eights.train.LeagueConfig`, each with the script's own defaults); the flags are flat,
one per leaf field in field order (``--num-envs``, ``--heuristic-share``), so a command line
does not say where a setting is nested. :func:`flatten` gives the same flat view as a dict
(what checkpoints record), :func:`unflatten` reads one back (flat or nested, unknown keys
ignored), and :func:`to_argv` writes the flags that give a set of arguments.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar

__all__ = ["flatten", "parse_args", "to_argv", "unflatten"]

T = TypeVar("T")

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}


def _default(f: dataclasses.Field) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _leaves(obj: Any) -> Iterator[Tuple[str, Any, dataclasses.Field]]:
    """``(name, value, field)`` of every leaf field of a dataclass instance, in field order."""
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            yield from _leaves(value)
        else:
            yield f.name, value, f


def flatten(obj: Any) -> Dict[str, Any]:
    """The leaf fields of a (nested) dataclass instance as one flat dict, in field order."""
    return {name: value for name, value, _ in _leaves(obj)}


def unflatten(cls: Type[T], values: Mapping[str, Any]) -> T:
    """An instance of ``cls`` (its defaults) with the leaf fields found in ``values``, a flat
    dict (:func:`flatten`) or a nested one (``dataclasses.asdict``); other keys are ignored."""
    flat: Dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Mapping):
            flat.update(value)
        else:
            flat[key] = value

    def build(obj: Any) -> Any:
        changes = {}
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if dataclasses.is_dataclass(value):
                changes[f.name] = build(value)
            elif f.name in flat:
                changes[f.name] = flat[f.name]
        return dataclasses.replace(obj, **changes)

    return build(cls())


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def parse_args(cls: Type[T], argv: Optional[Sequence[str]] = None, description: str = "") -> T:
    """Parse ``argv`` (default: ``sys.argv[1:]``) into ``cls``: one flag per leaf field, its
    default the field's (booleans as ``--flag`` / ``--no-flag``)."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for name, default, f in _leaves(cls()):
        kind = _TYPES[f.type if isinstance(f.type, str) else f.type.__name__]
        if kind is bool:
            p.add_argument(_flag(name), action=argparse.BooleanOptionalAction, default=default)
        else:
            p.add_argument(_flag(name), type=kind, default=default)
    return unflatten(cls, vars(p.parse_args(argv)))


def to_argv(obj: Any, **changes: Any) -> List[str]:
    """The command-line flags that give ``obj`` (with the leaf fields in ``changes``
    replaced), the fields at their defaults left out."""
    defaults = flatten(type(obj)())
    out: List[str] = []
    for name, value in flatten(obj).items():
        value = changes.get(name, value)
        if value == defaults[name]:
            continue
        if isinstance(value, bool):
            out.append(_flag(name) if value else "--no-" + _flag(name)[2:])
        else:
            out += [_flag(name), str(value)]
    return out
