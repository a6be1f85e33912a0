"""A model saved by stable-baselines3, read without running code from the file.

SB3's ``load`` turns every field of the archive's ``data`` that JSON cannot hold (the policy
class, the spaces, the schedules, the buffers' classes) back into Python objects with
cloudpickle, so a crafted ``.zip`` runs any code it carries as it loads; and it hands the
plain fields to the model as attributes (a stored ``env`` name is made with ``gym.make``,
which imports the module it names). This module owns :func:`safe_custom_objects`, which
hands ``load`` every field that could act (its ``custom_objects``), so that nothing in the
file is unpickled or imported by SB3:

* the policy class by name, from SB3's and sb3-contrib's own modules only;
* the spaces from plain data: the action space's ``n`` and ``start``, the observation
  space's dtype and shape, and its bounds read as raw bytes from the pickle's opcodes
  (:mod:`pickletools` lists them; nothing is unpickled);
* ``policy_kwargs`` only when it is plain data with class references (an activation
  function, an optimizer, a features extractor: PyTorch module and optimizer classes): its
  pickle is refused if it calls or builds anything, then read by an unpickler that finds
  only those classes;
* placeholders for what playing does not use (schedules, buffers and their sizes, the
  stored env).

The tensors (``*.pth``) must load with PyTorch's ``weights_only=True``: :func:`check_tensors`
reads each before SB3 does. Every refusal is a ``ValueError`` naming the file and the field.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import pickle
import pickletools
import re
import zipfile
from typing import Any, Dict, List

import numpy as np

__all__ = ["MAX_MEMBER_BYTES", "check_tensors", "read_data", "safe_custom_objects"]

#: The largest archive member read (the ``data`` JSON, a ``.pth`` file): a model of an eights
#: table is a few megabytes, and a zip's sizes are checked before anything is inflated.
MAX_MEMBER_BYTES = 1 << 30

#: Modules whose PyTorch module and optimizer classes ``policy_kwargs`` may name
#: (``activation_fn``, ``optimizer_class``, ``features_extractor_class``).
_CLASS_MODULES = ("torch.nn.modules.", "torch.optim.", "stable_baselines3.common.torch_layers")

#: Opcodes that call, build or look up objects: refused in ``policy_kwargs``, which holds
#: only plain containers and class references.
_ACTING_OPCODES = frozenset(
    {"REDUCE", "BUILD", "NEWOBJ", "NEWOBJ_EX", "INST", "OBJ", "EXT1", "EXT2", "EXT4", "PERSID", "BINPERSID"}
)
_STRING_OPCODES = frozenset({"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"})
_BYTES_OPCODES = frozenset({"SHORT_BINBYTES", "BINBYTES", "BINBYTES8", "BYTEARRAY8"})

#: The observation space's dtypes (numeric, fixed size).
_DTYPES = ("float32", "float64", "float16", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32")

#: Fields playing does not read, given a value of the right kind instead of the file's
#: (the sizes keep SB3 from allocating a rollout or replay buffer of the file's choosing).
_PLACEHOLDERS: Dict[str, Any] = {
    "learning_rate": 0.0,
    "clip_range": 0.0,
    "train_freq": (1, "step"),
    "env": None,
    "n_steps": 1,
    "n_envs": 1,
    "buffer_size": 1,
    "batch_size": 2,
}
#: Schedules, given as a function of the remaining progress that returns 0.
_SCHEDULES = ("lr_schedule", "exploration_schedule")


def _no_schedule(_progress: float) -> float:
    return 0.0


class _ClassUnpickler(pickle.Unpickler):
    """Finds only PyTorch module and optimizer classes of :data:`_CLASS_MODULES` (the pickle
    was screened first: it cannot call them)."""

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(_CLASS_MODULES) and "." not in name:
            import torch

            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and issubclass(found, (torch.nn.Module, torch.optim.Optimizer)):
                return found
        raise pickle.UnpicklingError(f"names {module}.{name}")


def _pickle_bytes(path: str, key: str, item: Dict[str, Any]) -> bytes:
    try:
        return base64.b64decode(str(item[":serialized:"]), validate=True)
    except ValueError:
        raise ValueError(f"{path!r}: its {key!r} is damaged (not base64)") from None


def _opcodes(path: str, key: str, raw: bytes) -> List[Any]:
    """The pickle's opcodes, listed without running it."""
    try:
        return list(pickletools.genops(raw))
    except Exception as exc:  # noqa: BLE001 - a damaged pickle raises many kinds
        raise ValueError(f"{path!r}: its {key!r} is damaged ({type(exc).__name__}: {exc})") from None


def _policy_kwargs(path: str, item: Dict[str, Any]) -> Any:
    raw = _pickle_bytes(path, "policy_kwargs", item)
    acting = sorted({op.name for op, _, _ in _opcodes(path, "policy_kwargs", raw)} & _ACTING_OPCODES)
    why = f"calls or builds objects ({', '.join(acting)})" if acting else ""
    if not why:
        try:
            value = _ClassUnpickler(io.BytesIO(raw)).load()
        except pickle.UnpicklingError as exc:
            why = str(exc)
        except Exception as exc:  # noqa: BLE001 - a damaged pickle raises many kinds
            raise ValueError(f"{path!r}: its 'policy_kwargs' is damaged ({type(exc).__name__}: {exc})") from None
        else:
            if isinstance(value, dict):
                return value
            why = f"is a {type(value).__name__}, not a dict"
    raise ValueError(
        f"{path!r}: its 'policy_kwargs' {why}, and is not loaded: a model file could run code through it "
        "(only plain values and PyTorch layer, optimizer and features-extractor classes are read)"
    )


def _observation_space(path: str, item: Dict[str, Any]) -> Any:
    """A ``Box`` from the dtype and shape SB3 writes as text, and its bounds from the bytes
    after the pickle's ``low`` and ``high`` keys (Gymnasium pickles a Box's arrays as raw
    buffers)."""
    from gymnasium import spaces

    bad = f"{path!r}: its 'observation_space'"
    if "spaces.box.Box" not in str(item.get(":type:", "")):
        raise ValueError(f"{bad} is not a Box (a Gymnasium Box of numbers is what eights observations are)")
    try:
        dtype = np.dtype(str(item["dtype"]))
        shape = tuple(int(d) for d in json.loads(str(item["_shape"])))
    except (KeyError, TypeError, ValueError, RecursionError):
        raise ValueError(f"{bad} has no plain dtype and shape") from None
    if dtype.name not in _DTYPES or not shape or any(d < 1 for d in shape) or len(shape) > 3:
        raise ValueError(f"{bad} has dtype {dtype.name} and shape {shape}: not an observation of numbers")
    size = int(np.prod(shape, dtype=np.int64))
    wire = dtype.newbyteorder("<")
    bounds: Dict[str, np.ndarray] = {}
    key = None
    for op, arg, _ in _opcodes(path, "observation_space", _pickle_bytes(path, "observation_space", item)):
        if op.name in _STRING_OPCODES and arg in ("low", "high", "bounded_below", "bounded_above"):
            key = arg
        elif op.name in _BYTES_OPCODES and key in ("low", "high") and key not in bounds:
            if len(arg) != size * dtype.itemsize:
                raise ValueError(f"{bad}: its {key} holds {len(arg)} bytes, not {size} x {dtype.itemsize}")
            bounds[key] = np.frombuffer(bytes(arg), dtype=wire).astype(dtype).reshape(shape)
    if len(bounds) != 2:
        raise ValueError(f"{bad}: its bounds are not stored as raw arrays ({sorted(bounds) or 'none'} found)")
    try:
        return spaces.Box(low=bounds["low"], high=bounds["high"], shape=shape, dtype=dtype.type)
    except Exception as exc:  # noqa: BLE001 - Gymnasium checks the bounds
        raise ValueError(f"{bad}: {exc}") from None


def _policy_class(path: str, item: Dict[str, Any]) -> Any:
    """The policy class the file names, looked up in SB3's or sb3-contrib's modules."""
    from stable_baselines3.common.policies import BasePolicy

    module = str(item.get("__module__", ""))
    named = re.match(r"<function (\w+)\.__init__ ", str(item.get("__init__", "")))
    if named and module.startswith(("stable_baselines3.", "sb3_contrib.")):
        try:
            found = getattr(importlib.import_module(module), named.group(1), None)
        except Exception:  # noqa: BLE001 - no such module, or a name import_module refuses
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
    if not (1 <= n <= 1 << 20 and abs(start) <= 1 << 20):
        raise ValueError(f"{path!r}: its 'action_space' has n={n}, start={start}: not an eights action count")
    return spaces.Discrete(n, start=start)


def safe_custom_objects(path: str, data: Dict[str, Any]) -> Dict[str, Any]:
    """SB3 ``load``'s ``custom_objects`` for the parsed ``data`` of the file at ``path``: a
    value for every field SB3 would unpickle, and placeholders for the plain fields that could
    act (the stored env, buffer sizes and classes). Raises ``ValueError`` naming the field when
    one that playing needs holds something other than plain data."""
    for key in ("policy_class", "observation_space", "action_space"):
        if not (isinstance(data.get(key), dict) and ":serialized:" in data[key]):
            raise ValueError(f"{path!r}: its {key!r} is missing or not as stable-baselines3 saves it")
    objects: Dict[str, Any] = {}
    for key, item in data.items():
        serialized = isinstance(item, dict) and ":serialized:" in item
        if key == "policy_class":
            objects[key] = _policy_class(path, item)
        elif key == "action_space":
            objects[key] = _action_space(path, item)
        elif key == "observation_space":
            objects[key] = _observation_space(path, item)
        elif key == "policy_kwargs":
            if serialized:
                objects[key] = _policy_kwargs(path, item)
            elif not isinstance(item, dict):
                raise ValueError(f"{path!r}: its 'policy_kwargs' is a {type(item).__name__}, not a dict")
        elif key in _SCHEDULES and serialized:
            objects[key] = _no_schedule
        elif key in _PLACEHOLDERS:
            objects[key] = _PLACEHOLDERS[key]
        elif key.endswith("_class"):
            objects[key] = None
        elif key.endswith("_kwargs"):
            objects[key] = {}
        elif serialized:
            objects[key] = None
    return objects


def _read_member(path: str, archive: zipfile.ZipFile, name: str) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > MAX_MEMBER_BYTES:
        raise ValueError(f"{path!r}: its {name} inflates to {info.file_size:,} bytes, over {MAX_MEMBER_BYTES:,}")
    return archive.read(name)


def read_data(path: str, archive: zipfile.ZipFile) -> Dict[str, Any]:
    """The archive's ``data`` JSON object."""
    data = json.loads(_read_member(path, archive, "data").decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path!r}: its data is not a JSON object")
    return data


def check_tensors(path: str, archive: zipfile.ZipFile) -> None:
    """Load every ``*.pth`` member of ``archive`` as tensors and plain data only, before SB3
    reads it (older SB3 releases load them without ``weights_only``). Raises ``ValueError``
    naming the member."""
    import torch

    for name in archive.namelist():
        if not name.endswith(".pth"):
            continue
        raw = _read_member(path, archive, name)
        try:
            torch.load(io.BytesIO(raw), weights_only=True, map_location="cpu")
        except Exception as exc:  # noqa: BLE001 - torch raises UnpicklingError, RuntimeError, ...
            first = (str(exc).strip().splitlines() or [""])[0]
            raise ValueError(
                f"{path!r}: its {name} is not tensors and plain data, and is not loaded "
                f"(unpickling it could run code): {type(exc).__name__}: {first}"
            ) from None
