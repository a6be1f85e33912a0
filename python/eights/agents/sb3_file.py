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
  space (a Box, or a Dict of Boxes for a model that reads the rules) read from the pickle's
  opcodes by :mod:`eights.agents.sb3_space` (nothing is unpickled), each refused unless an
  eights table gives it (``NUM_ACTIONS`` actions, ``OBS_SIZE`` values and ``RULES_SIZE``
  beside them), before SB3 builds a network of its size;
* ``policy_kwargs`` only when it is plain data with class references (an activation
  function, an optimizer, SB3's ``FlattenExtractor`` or ``CombinedExtractor``, the features
  extractors that read an eights observation: PyTorch module and optimizer classes): its
  pickle is refused if it calls or builds anything, then read by an unpickler that finds
  only those classes;
* placeholders for what playing does not use (schedules, buffers and their sizes, the
  stored env).

The tensors (``*.pth``) must load with PyTorch's ``weights_only=True``: :func:`check_tensors`
reads each before SB3 does, refuses a tensor whose data the file does not hold (a stride-0
"expanded" tensor claims any shape for one stored value), and compares the network
``policy_kwargs`` asks for with the weights ``policy.pth`` holds: SB3 builds that network (and
initialises it, a QR decomposition per layer) before it reads the weights, so a few bytes of
``net_arch`` could otherwise ask for gigabytes and minutes. ``pytorch_variables.pth`` may name
only the variables SB3 saves there: SB3 sets each name it holds as an attribute path of the
model (``recursive_setattr``), which could otherwise reach PyTorch's own classes. Every size in ``policy_kwargs`` is
at most :data:`MAX_LAYER_WIDTH`, ``net_arch`` has at most :data:`MAX_LAYERS` layers, and an
archive member inflates to at most :data:`MAX_MEMBER_BYTES`. Every refusal is a
``ValueError`` naming the file and the field.
"""

from __future__ import annotations

import importlib
import io
import json
import pickle
import re
import zipfile
from typing import Any, Dict, List

import numpy as np

from .._core import NUM_ACTIONS
from .._utils.optional import check_safe_torch_load
from .sb3_space import observation_space, opcodes, pickle_bytes

__all__ = [
    "MAX_LAYERS",
    "MAX_LAYER_WIDTH",
    "MAX_MEMBER_BYTES",
    "check_tensors",
    "read_data",
    "safe_custom_objects",
]

#: The largest archive member read (the ``data`` JSON, a ``.pth`` file), and the largest model
#: file: a model of an eights table is under a megabyte. A member's declared size is checked
#: before it is inflated, and the bytes inflated are counted as they are read.
MAX_MEMBER_BYTES = 64 << 20
#: The largest size ``policy_kwargs`` may give (a layer's width in ``net_arch``, a features
#: dimension): the card network's widest, and far beyond an eights model's few hundred units.
MAX_LAYER_WIDTH = 4096
#: The most layers ``net_arch`` may list (all its lists together).
MAX_LAYERS = 64
#: The layers of SB3's policies for discrete actions when ``net_arch`` is not given.
_DEFAULT_NET_ARCH = [64, 64]

#: Modules whose PyTorch module and optimizer classes ``policy_kwargs`` may name
#: (``activation_fn``, ``optimizer_class``, ``features_extractor_class``).
_CLASS_MODULES = ("torch.nn.modules.", "torch.optim.", "stable_baselines3.common.torch_layers")

#: The features extractors ``policy_kwargs`` may name: the ones of SB3 that read a vector (or a
#: Dict of vectors), an eights observation, passing every value on to the first layers.
_EXTRACTORS = ("FlattenExtractor", "CombinedExtractor")
#: The names SB3 and sb3-contrib save in ``pytorch_variables.pth`` (``tensors.pth`` before SB3
#: 0.9), each set on the model as ``recursive_setattr(model, name + ".data", value)``: SAC's,
#: TQC's and CrossQ's entropy coefficient; PPO, A2C, DQN and MaskablePPO save none there.
_SAVED_VARIABLES = ("log_ent_coef", "ent_coef_tensor")
_VARIABLES_MEMBERS = ("pytorch_variables.pth", "tensors.pth")

#: Opcodes that call, build or look up objects: refused in ``policy_kwargs``, which holds
#: only plain containers and class references.
_ACTING_OPCODES = frozenset(
    {"REDUCE", "BUILD", "NEWOBJ", "NEWOBJ_EX", "INST", "OBJ", "EXT1", "EXT2", "EXT4", "PERSID", "BINPERSID"}
)
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


def _policy_kwargs(path: str, item: Dict[str, Any]) -> Any:
    raw = pickle_bytes(path, "policy_kwargs", item)
    acting = sorted({op.name for op, _, _ in opcodes(path, "policy_kwargs", raw)} & _ACTING_OPCODES)
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
    if n != NUM_ACTIONS:  # SB3 would build an output layer of n units first
        raise ValueError(
            f"{path!r} was trained on another environment: it chooses among {n} actions, where an eights table "
            f"has {NUM_ACTIONS} (NUM_ACTIONS)"
        )
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
            objects[key] = observation_space(path, item)
        elif key == "policy_kwargs":
            if serialized:
                objects[key] = _policy_kwargs(path, item)
            elif not isinstance(item, dict):
                raise ValueError(f"{path!r}: its 'policy_kwargs' is a {type(item).__name__}, not a dict")
            _net_arch_chains(path, objects.get(key, item))
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


def _sizes(path: str, kwargs: Dict[str, Any]) -> None:
    """Every whole number in ``kwargs`` (a layer width, a features dimension, a count) is at
    most :data:`MAX_LAYER_WIDTH`."""
    stack: List[Any] = [kwargs]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > 10_000:
            raise ValueError(f"{path!r}: its 'policy_kwargs' holds over 10,000 values: not an eights model's")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and item > MAX_LAYER_WIDTH:
            size = f"{item:,}" if item.bit_length() <= 64 else f"an integer of {item.bit_length()} bits"
            raise ValueError(
                f"{path!r}: its 'policy_kwargs' asks for a size of {size}, over {MAX_LAYER_WIDTH:,}: "
                "not a network of an eights model, and it is not built"
            )


def _net_arch_chains(path: str, kwargs: Any) -> List[List[int]]:
    """The lists of layer widths ``net_arch`` gives (each list a chain of layers one after the
    other: ``[64, 64]``, ``{"pi": [...], "vf": [...]}``, or SB3's older ``[64, {"pi": [...]}]``),
    checked: widths are integers in 1..:data:`MAX_LAYER_WIDTH`, at most :data:`MAX_LAYERS` in
    all. SB3's default when ``net_arch`` is not given."""
    if not isinstance(kwargs, dict):
        return [list(_DEFAULT_NET_ARCH)]
    _sizes(path, kwargs)
    arch = kwargs.get("net_arch")
    if arch is None:
        return [list(_DEFAULT_NET_ARCH)]
    bad = f"{path!r}: its 'policy_kwargs' net_arch"
    parts = list(arch.values()) if isinstance(arch, dict) else [arch]
    if isinstance(arch, (list, tuple)):  # shared layers, then (SB3's older form) dicts of lists
        shared = [w for w in arch if not isinstance(w, dict)]
        parts = [shared] + [v for d in arch if isinstance(d, dict) for v in d.values()]
    chains: List[List[int]] = []
    for part in parts:
        if not isinstance(part, (list, tuple)):
            raise ValueError(f"{bad} is not a list of layer widths (or a dict of such lists)")
        for w in part:
            if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= MAX_LAYER_WIDTH:
                raise ValueError(
                    f"{bad} has a layer width {str(w)[:40]!r}: widths are integers in [1, {MAX_LAYER_WIDTH}]"
                )
        chains.append([int(w) for w in part])
    layers = sum(len(c) for c in chains)
    if layers > MAX_LAYERS:
        raise ValueError(f"{bad} lists {layers} layers, over {MAX_LAYERS}: not a network of an eights model")
    return chains


def _weights_needed(chains: List[List[int]], first: List[int], inputs: int) -> int:
    """The fewest weights a network with these chains of layers holds: each layer's biases,
    the weights between consecutive layers of a chain, and those from the ``inputs`` features
    to each layer in ``first`` (the layers that read them)."""
    inner = sum(sum(c) + sum(a * b for a, b in zip(c, c[1:])) for c in chains)
    return inner + inputs * sum(first)


def _first_layers(kwargs: Any) -> List[int]:
    """The widths of the layers that read the features (the first of each chain fed by them)."""
    arch = kwargs.get("net_arch") if isinstance(kwargs, dict) else None
    if arch is None:
        return _DEFAULT_NET_ARCH[:1]
    if isinstance(arch, dict):
        return [int(v[0]) for v in arch.values() if v]
    if arch and not isinstance(arch[0], dict):
        return [int(arch[0])]
    return [int(v[0]) for d in arch[:1] for v in d.values() if v]


def _read_member(path: str, archive: zipfile.ZipFile, name: str) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > MAX_MEMBER_BYTES:
        raise ValueError(f"{path!r}: its {name} inflates to {info.file_size:,} bytes, over {MAX_MEMBER_BYTES:,}")
    # Read with a limit: what is inflated is counted, whatever the archive declares.
    with archive.open(name) as member:
        raw = member.read(MAX_MEMBER_BYTES + 1)
    if len(raw) > MAX_MEMBER_BYTES:
        raise ValueError(f"{path!r}: its {name} inflates to over {MAX_MEMBER_BYTES:,} bytes")
    return raw


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

    check_safe_torch_load(torch, repr(path))
    stored = 0
    for name in archive.namelist():
        if not name.endswith(".pth"):
            continue
        # SB3 looks each other member's name up as an attribute path of the model.
        if name not in _VARIABLES_MEMBERS and not _plain_path(name[: -len(".pth")]):
            raise ValueError(f"{path!r}: its member {name[:80]!r} names no attribute of a model, and is not loaded")
        raw = _read_member(path, archive, name)
        try:
            loaded = torch.load(io.BytesIO(raw), weights_only=True, map_location="cpu")
        except Exception as exc:  # noqa: BLE001 - torch raises UnpicklingError, RuntimeError, ...
            first = (str(exc).strip().splitlines() or [""])[0]
            raise ValueError(
                f"{path!r}: its {name} is not tensors and plain data, and is not loaded "
                f"(unpickling it could run code): {type(exc).__name__}: {first}"
            ) from None
        held = _stored_bytes(path, name, loaded)
        if name in _VARIABLES_MEMBERS:
            _check_variables(path, name, loaded)
        if name == "policy.pth":
            stored = held
    _check_network_size(path, read_data(path, archive), stored)


def _plain_path(name: str) -> bool:
    """True when ``name`` is a dotted path of public attribute names (``policy.optimizer``)."""
    return all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", part) for part in name.split("."))


def _check_variables(path: str, name: str, loaded: Any) -> None:
    """``pytorch_variables.pth`` holds a dict of tensors (or None) under names SB3 saves there
    (:data:`_SAVED_VARIABLES`): SB3 sets each on the model with ``recursive_setattr``, which
    follows any attribute path (``....weight.__class__`` set ``torch.nn.Parameter.data`` for the
    whole process)."""
    import torch

    if not isinstance(loaded, dict):
        raise ValueError(f"{path!r}: its {name} is a {type(loaded).__name__}, not a dict of variables")
    for key, value in loaded.items():
        if key not in _SAVED_VARIABLES:
            raise ValueError(
                f"{path!r}: its {name} names the variable {str(key)[:120]!r}, not one stable-baselines3 saves "
                f"there ({', '.join(_SAVED_VARIABLES)}), and is not loaded: it would be set as an attribute "
                "path of the model"
            )
        if value is not None and not isinstance(value, torch.Tensor):
            raise ValueError(f"{path!r}: its {name} holds a {type(value).__name__} for {key!r}, not a tensor")


def _stored_bytes(path: str, name: str, obj: Any) -> int:
    """The bytes of data the tensors in ``obj`` hold (each storage once), refusing a tensor
    whose data the file does not hold: not dense, not contiguous (a stride-0 "expanded"
    tensor), or a storage smaller than its elements."""
    import torch

    storages: Dict[Any, int] = {}
    seen = set()
    stack: List[Any] = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, torch.Tensor):
            dense = item.layout == torch.strided and item.is_contiguous()
            nbytes = item.untyped_storage().nbytes() if dense else 0
            if not dense or nbytes < (item.storage_offset() + item.numel()) * item.element_size():
                raise ValueError(
                    f"{path!r}: its {name} holds a tensor of shape {list(item.shape)} whose data the file does not "
                    "hold (not dense and contiguous), and is not loaded"
                )
            storages[(item.untyped_storage().data_ptr(), nbytes)] = nbytes
        elif isinstance(item, (dict, list, tuple)) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return sum(storages.values())


def _check_network_size(path: str, data: Dict[str, Any], stored: int) -> None:
    """The network ``policy_kwargs`` asks for holds no more weights than ``policy.pth`` holds
    bytes (``stored``): SB3 builds and initialises it before it reads the weights, and a
    network larger than its weights file would only fail to load then. Its first layers read
    every value of the observation (a features extractor other than :data:`_EXTRACTORS`, which
    pass every value on, is refused: none other reads an eights observation)."""
    item = data.get("policy_kwargs")
    kwargs = _policy_kwargs(path, item) if isinstance(item, dict) and ":serialized:" in item else item
    chains = _net_arch_chains(path, kwargs)
    extractor = kwargs.get("features_extractor_class") if isinstance(kwargs, dict) else None
    if extractor is not None and not (
        isinstance(extractor, type)
        and extractor.__module__ == "stable_baselines3.common.torch_layers"
        and extractor.__name__ in _EXTRACTORS
    ):
        what = extractor.__name__ if isinstance(extractor, type) else type(extractor).__name__
        raise ValueError(
            f"{path!r}: its 'policy_kwargs' names the features extractor {what[:80]!r}, not one that reads an "
            f"eights observation ({', '.join(_EXTRACTORS)}), and it is not built"
        )
    space = data.get("observation_space")
    if not isinstance(space, dict):
        raise ValueError(f"{path!r}: its 'observation_space' is missing or not as stable-baselines3 saves it")
    read = observation_space(path, space)  # checked: the shapes of an eights observation
    inputs = sum(int(np.prod(box.shape)) for box in getattr(read, "spaces", {"": read}).values())
    needed = _weights_needed(chains, _first_layers(kwargs), inputs)
    if needed > stored:
        raise ValueError(
            f"{path!r}: its 'policy_kwargs' asks for a network of at least {needed:,} weights, but its policy.pth "
            f"holds {stored:,} bytes: not a model of this network, and it is not built"
        )
