"""Command-line flags from nested dataclasses, as the training scripts take them.

A script's arguments are one dataclass whose fields may themselves be dataclasses (the
hyperparameters :class:`~eights.train.PPOConfig` and the opponent mix
:class:`~eights.train.LeagueConfig`, each with the script's own defaults); the flags are flat,
one per leaf field in field order (``--num-envs``, ``--heuristic-share``), so a command line
does not say where a setting is nested. Each flag's help line is the field's docstring (the
string under it in the class body) with its default. :func:`flatten` gives the same flat view as a dict
(what checkpoints record), :func:`unflatten` reads one back (flat or nested, unknown keys
ignored), and :func:`to_argv` writes the flags that give a set of arguments.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import textwrap
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar

__all__ = ["add_flags", "field_docs", "flatten", "parse_args", "to_argv", "unflatten"]

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


def field_docs(cls: type) -> Dict[str, str]:
    """The docstring of each field of dataclass ``cls`` (the string literal under the field in
    the class body, on one line), by field name; fields without one are left out."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: Dict[str, str] = {}
    for node, after in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.split()).replace("``", "")
    return docs


def _leaf_docs(obj: Any) -> Dict[str, str]:
    docs: Dict[str, str] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            docs.update(_leaf_docs(value))
    docs.update(field_docs(type(obj)))
    return docs


def add_flags(parser: Any, obj: Any, omit_defaults: bool = False) -> None:
    """One flag per leaf field of the dataclass instance ``obj`` on ``parser`` (an
    ``argparse`` parser or argument group), its default the field's value and its help line
    the field's docstring followed by the default. ``omit_defaults``: a flag not given leaves
    no attribute on the parsed namespace (the caller fills in its own defaults)."""
    docs = _leaf_docs(obj)
    for name, default, f in _leaves(obj):
        kind = _TYPES[f.type if isinstance(f.type, str) else f.type.__name__]
        text = docs.get(name, name.replace("_", " "))
        shown = "none" if default == "" else default
        value = argparse.SUPPRESS if omit_defaults else default
        if kind is bool:
            parser.add_argument(
                _flag(name), action=argparse.BooleanOptionalAction, default=value, help=f"{text} (default: {shown})"
            )
        else:
            parser.add_argument(_flag(name), type=kind, default=value, help=f"{text} (default: {shown})")


def parse_args(cls: Type[T], argv: Optional[Sequence[str]] = None, description: str = "") -> T:
    """Parse ``argv`` (default: ``sys.argv[1:]``) into ``cls``: one flag per leaf field
    (:func:`add_flags`; booleans as ``--flag`` / ``--no-flag``)."""
    p = argparse.ArgumentParser(description=description)
    add_flags(p, cls())
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
