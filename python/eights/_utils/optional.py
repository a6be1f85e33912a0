"""Optional dependencies: the modules that need an extra (``eights.envs.pettingzoo``,
``eights.integrations.rllib``, ...) call :func:`require` first, and code that needs one package for one
feature imports it with :func:`import_optional`, so a missing package raises an ImportError
that names the extra to install instead of a bare ModuleNotFoundError."""

from __future__ import annotations

import importlib
import re
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


#: The first PyTorch whose ``torch.load(..., weights_only=True)`` is safe on a crafted file:
#: 2.9.1 and older can corrupt memory on one (advisory GHSA-63cw-57p8-fm3p), 2.5.1 and older
#: can run its code (CVE-2025-32434).
SAFE_TORCH_LOAD = (2, 10)


def check_safe_torch_load(torch: ModuleType, what: str) -> None:
    """Refuse to read ``what`` (a checkpoint, an SB3 model's tensors) with a PyTorch whose
    ``weights_only`` loader a crafted file can escape: ``ImportError`` naming the version
    needed. The package's extras ask for it; this holds where it was installed without them."""
    numbers = re.match(r"(\d+)\.(\d+)", str(getattr(torch, "__version__", "")))
    found = (int(numbers[1]), int(numbers[2])) if numbers else (0, 0)
    if found < SAFE_TORCH_LOAD:
        need = ".".join(map(str, SAFE_TORCH_LOAD))
        raise ImportError(
            f"{what}: not read with PyTorch {torch.__version__}, whose weights-only loader a crafted "
            f"file can escape (GHSA-63cw-57p8-fm3p, CVE-2025-32434): pip install 'torch>={need}'"
        )
