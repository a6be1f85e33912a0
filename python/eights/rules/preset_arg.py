"""The one reading of a ``preset`` argument: a preset name, a path to a house-rules TOML
file, or an :class:`eights.Rules`. Every entry point that takes a preset reads it through
:func:`resolve_preset` (the environments, the arena, the generalization tests, the commands'
``--preset``; the engine's bindings call it for anything but a preset name), so a TOML path
works wherever a preset name does and a bad value gets the same error everywhere.

A string is a path when it ends in ``.toml`` (in any case) or holds a path separator;
otherwise it is a preset name (preset names never do either).
"""

from __future__ import annotations

import os
from typing import Any, Union

from .._core import presets as _presets
from .._utils.checks import quoted
from .core import Rules
from .toml_text import PRESET_HELP, is_rules_path, preset_guess

__all__ = ["resolve_preset"]

#: The same for a command-line option (``--preset``): no Python types there.
OPTION_HELP = "a preset name or the path of a house-rules .toml file"


def _help(name: str) -> str:
    return OPTION_HELP if name.startswith("--") else PRESET_HELP


def resolve_preset(value: Any, name: str = "preset") -> Union[str, Rules]:
    """A ``preset`` argument as the engine plays it: an :class:`eights.Rules` as it is, a
    preset name as it is, the :class:`eights.Rules` of a TOML file for a path (a string that
    :func:`is_rules_path`, or an ``os.PathLike``).

    Raises (each message names the argument, ``name``): ``TypeError`` for any other type;
    ``ValueError`` for an unknown preset name; ``FileNotFoundError`` for a missing file,
    ``IsADirectoryError`` for a folder, ``ValueError`` for invalid TOML and
    :class:`eights.RulesError` naming the file and the field for invalid rules.
    """
    if isinstance(value, Rules):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if not isinstance(path, str):  # a bytes path
            raise TypeError(f"{name} must be {PRESET_HELP}, got a bytes path {path!r}")
    elif isinstance(value, str):
        if not is_rules_path(value):
            if value not in _presets():
                guess = preset_guess(value)
                raise ValueError(
                    f"unknown preset {quoted(value)}{guess}; available presets: {', '.join(_presets())} ({name} "
                    f"must be {_help(name)}; a string ending in .toml or holding a path separator is a file)"
                )
            return value
        path = value
    else:
        raise TypeError(f"{name} must be {PRESET_HELP}, got {type(value).__name__}")
    return _read(path, name)


def _read(path: str, name: str) -> Rules:
    return Rules._read_path(path, name, _help(name))
