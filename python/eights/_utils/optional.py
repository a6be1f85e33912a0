"""Optional dependencies: the modules that need an extra (``eights.envs.pettingzoo``,
``eights.integrations.rllib``, ...) call :func:`require` first, and code that needs one package for one
feature imports it with :func:`import_optional`, so a missing package raises an ImportError
that names the extra to install instead of a bare ModuleNotFoundError."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Sequence, Union


def require(modules: Union[str, Sequence[str]], extra: str, feature: str) -> None:
    """Import each of ``modules``; on failure raise ``ModuleNotFoundError`` (an
    ``ImportError``) saying that ``feature`` needs ``pip install 'eights[<extra>]'``."""
    for module in [modules] if isinstance(modules, str) else modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ModuleNotFoundError(
                f"{feature} needs the optional package {module.split('.')[0]!r}, which is not "
                f"installed: pip install 'eights[{extra}]'",
                name=module,
            ) from exc


def import_optional(module: str, extra: str, feature: str) -> ModuleType:
    """The module ``module``, imported; ``ModuleNotFoundError`` (an ``ImportError``) saying
    that ``feature`` needs ``pip install 'eights[<extra>]'`` when it is not installed."""
    require(module, extra, feature)
    return importlib.import_module(module)
