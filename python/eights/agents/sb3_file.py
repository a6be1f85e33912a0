"""A model saved by stable-baselines3, read without running code from the file.

SB3's ``load`` turns every field of the archive's ``data`` that JSON cannot hold (the policy
class, the spaces, the schedules, the buffers' classes) back into Python objects with
cloudpickle, so a crafted ``.zip`` runs any code it carries as it loads. This module owns
:func:`safe_custom_objects`, which hands ``load`` every such field itself (its
``custom_objects``), so that nothing in the file is unpickled by SB3:

* the policy class by name, from SB3's and sb3-contrib's own modules only;
* the action space from its plain fields (``n``, ``start``);
* the observation space and ``policy_kwargs`` through an unpickler that finds only the
  classes listed here (numpy arrays, Gymnasium's ``Box`` and ``Discrete``, PyTorch modules
  and optimizers by reference);
* placeholders for what playing does not use (schedules, buffers' classes, statistics).

The tensors (``*.pth``) must load with PyTorch's ``weights_only=True``: :func:`check_tensors`
reads each before SB3 does.
"""

from __future__ import annotations

import base64
import importlib
import io
import pickle
import re
import zipfile
from typing import Any, Dict

__all__ = ["check_tensors", "safe_custom_objects"]

#: The globals a space's or ``policy_kwargs``' pickle may name: numpy's array, dtype and
#: scalar rebuilders and Gymnasium's two spaces an eights model uses.
_DATA_GLOBALS = frozenset(
    {
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "scalar"),
        ("numpy.core.multiarray", "scalar"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("gymnasium.spaces.box", "Box"),
        ("gymnasium.spaces.discrete", "Discrete"),
    }
)

#: Modules whose PyTorch module and optimizer classes ``policy_kwargs`` may name
#: (``activation_fn``, ``optimizer_class``, ``features_extractor_class``).
_CLASS_MODULES = ("torch.nn.modules.", "torch.optim.", "stable_baselines3.common.torch_layers")

#: Fields playing does not read, given as a value of the right kind instead of the file's.
_PLACEHOLDERS: Dict[str, Any] = {"learning_rate": 0.0, "clip_range": 0.0, "train_freq": (1, "step")}
#: Schedules, given as a function of the remaining progress that returns 0.
_SCHEDULES = ("lr_schedule", "exploration_schedule")


def _no_schedule(_progress: float) -> float:
    return 0.0


class _DataUnpickler(pickle.Unpickler):
    """Finds only the globals of :data:`_DATA_GLOBALS` and PyTorch module and optimizer
    classes of :data:`_CLASS_MODULES`; any other name stops the load before it is used."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _DATA_GLOBALS:
            return super().find_class(module, name)
        if module.startswith(_CLASS_MODULES) and "." not in name:
            import torch

            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and issubclass(found, (torch.nn.Module, torch.optim.Optimizer)):
                return found
        raise pickle.UnpicklingError(f"{module}.{name}")


def _unpickle(path: str, key: str, item: Dict[str, Any]) -> Any:
    try:
        return _DataUnpickler(io.BytesIO(base64.b64decode(str(item[":serialized:"])))).load()
    except pickle.UnpicklingError as exc:
        raise ValueError(
            f"{path!r}: its {key!r} names {exc}, which is not loaded: a model file could run code "
            "through it (only numpy arrays, Gymnasium spaces and PyTorch layer and optimizer classes are read)"
        ) from None
    except Exception as exc:  # noqa: BLE001 - a damaged pickle raises many kinds
        raise ValueError(f"{path!r}: its {key!r} is damaged ({type(exc).__name__}: {exc})") from None


def _policy_class(path: str, item: Dict[str, Any]) -> Any:
    """The policy class the file names, looked up in SB3's or sb3-contrib's modules."""
    from stable_baselines3.common.policies import BasePolicy

    module = str(item.get("__module__", ""))
    named = re.match(r"<function (\w+)\.__init__ ", str(item.get("__init__", "")))
    if named and module.startswith(("stable_baselines3.", "sb3_contrib.")):
        try:
            found = getattr(importlib.import_module(module), named.group(1), None)
        except ImportError:
            found = None
        if isinstance(found, type) and issubclass(found, BasePolicy):
            return found
    what = f"{module}.{named.group(1)}" if named else module or "an unnamed class"
    raise ValueError(
        f"{path!r}: its 'policy_class' {what} is not one of stable-baselines3's or sb3-contrib's, "
        "and a class from the file is not loaded (it could run code)"
    )


def _action_space(path: str, item: Dict[str, Any]) -> Any:
    from gymnasium import spaces

    try:
        n, start = int(str(item["n"])), int(str(item.get("start", "0")))
    except (KeyError, ValueError):
        raise ValueError(f"{path!r}: its 'action_space' is not a discrete one (no plain 'n')") from None
    if n < 1:
        raise ValueError(f"{path!r}: its 'action_space' has n={n}, not a positive count")
    return spaces.Discrete(n, start=start)


def safe_custom_objects(path: str, data: Dict[str, Any]) -> Dict[str, Any]:
    """SB3 ``load``'s ``custom_objects`` for the parsed ``data`` of the file at ``path``: a
    value for every field SB3 would unpickle. Raises ``ValueError`` naming the field when a
    field that playing needs holds something other than plain data."""
    from gymnasium import spaces

    objects: Dict[str, Any] = {}
    for key, item in data.items():
        if not (isinstance(item, dict) and ":serialized:" in item):
            continue
        if key == "policy_class":
            objects[key] = _policy_class(path, item)
        elif key == "action_space":
            objects[key] = _action_space(path, item)
        elif key in ("observation_space", "policy_kwargs"):
            objects[key] = _unpickle(path, key, item)
        elif key in _SCHEDULES:
            objects[key] = _no_schedule
        else:
            objects[key] = _PLACEHOLDERS.get(key)
    if not isinstance(objects.get("observation_space", spaces.Box(0, 1)), spaces.Box):
        raise ValueError(f"{path!r}: its 'observation_space' is not a Box")
    if not isinstance(objects.get("policy_kwargs", {}), dict):
        raise ValueError(f"{path!r}: its 'policy_kwargs' is not a dict")
    return objects


def check_tensors(path: str, archive: zipfile.ZipFile) -> None:
    """Load every ``*.pth`` member of ``archive`` as tensors and plain data only, before SB3
    reads it (older SB3 releases load them without ``weights_only``). Raises ``ValueError``
    naming the member."""
    import torch

    for name in archive.namelist():
        if not name.endswith(".pth"):
            continue
        try:
            torch.load(io.BytesIO(archive.read(name)), weights_only=True, map_location="cpu")
        except Exception as exc:  # noqa: BLE001 - torch raises UnpicklingError, RuntimeError, ...
            first = (str(exc).strip().splitlines() or [""])[0]
            raise ValueError(
                f"{path!r}: its {name} is not tensors and plain data, and is not loaded "
                f"(unpickling it could run code): {type(exc).__name__}: {first}"
            ) from None
