"""The observation space of a model saved by stable-baselines3, read from the pickle SB3
wrote without running it (the reader of :mod:`eights.agents.sb3_file`).

:mod:`pickletools` lists a pickle's opcodes; :func:`observation_space` follows only the values
it needs among them: a ``Box``'s dtype and shape (which SB3 also writes as text) and its bounds
(Gymnasium pickles a Box's arrays as raw buffers), and for a ``Dict`` of Boxes (a model that
reads the rules beside the observation) each Box's key, dtype, shape and bounds, through the
pickle's memo, since a second Box refers back to the first one's class, key strings and dtype.
The shapes are compared with an eights observation's (``OBS_SIZE`` values, and ``RULES_SIZE``
beside them in a ``Dict``) before any Box is built, as :mod:`eights.agents.load` compares a loaded
model's: SB3 builds a network whose first layers read every value, so a few bytes of shape could
otherwise ask for gigabytes. Nothing is called or built from the file: every refusal is a
``ValueError`` naming the file.
"""

from __future__ import annotations

import base64
import json
import pickletools
import re
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .._core import OBS_SIZE
from ..rules import RULES_SIZE

__all__ = ["MAX_DIMENSION", "MAX_SUBSPACES", "observation_space", "opcodes", "pickle_bytes"]

#: The largest dimension of an observation Box read (a model of an eights table has a few
#: thousand values at most).
MAX_DIMENSION = 1 << 24

_STRING_OPCODES = frozenset({"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"})
_BYTES_OPCODES = frozenset({"SHORT_BINBYTES", "BINBYTES", "BINBYTES8", "BYTEARRAY8"})

#: The shape of an eights observation (a Box), and those of a ``Dict`` of it and the rules
#: (``obs_rules=True``): what :mod:`eights.agents.load` compares a loaded model's space with.
_EIGHTS_SHAPE = (OBS_SIZE,)
_EIGHTS_DICT = {"obs": (OBS_SIZE,), "rules": (RULES_SIZE,)}
_EIGHTS_SIZES = f"OBS_SIZE {OBS_SIZE}, RULES_SIZE {RULES_SIZE}"

#: The observation space's dtypes (numeric, fixed size).
_DTYPES = ("float32", "float64", "float16", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32")


def pickle_bytes(path: str, key: str, item: Dict[str, Any]) -> bytes:
    """The pickle of a field SB3 serialised (``item[":serialized:"]``, base64)."""
    try:
        return base64.b64decode(str(item[":serialized:"]), validate=True)
    except ValueError:
        raise ValueError(f"{path!r}: its {key!r} is damaged (not base64)") from None


def opcodes(path: str, key: str, raw: bytes) -> List[Any]:
    """The pickle's opcodes, listed without running it."""
    try:
        return list(pickletools.genops(raw))
    except Exception as exc:  # noqa: BLE001 - a damaged pickle raises many kinds
        raise ValueError(f"{path!r}: its {key!r} is damaged ({type(exc).__name__}: {exc})") from None


_INT_OPCODES = frozenset({"INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4"})
_GET_OPCODES = frozenset({"GET", "BINGET", "LONG_BINGET"})
_PUT_OPCODES = frozenset({"PUT", "BINPUT", "LONG_BINPUT"})
_TUPLE_OPCODES = {"EMPTY_TUPLE": 0, "TUPLE1": 1, "TUPLE2": 2, "TUPLE3": 3, "TUPLE": -1}
#: Opcodes that push nothing new (the rest push one value, or replace the top).
_QUIET_OPCODES = frozenset(
    {
        "PROTO",
        "FRAME",
        "MARK",
        "STOP",
        "BUILD",
        "SETITEM",
        "SETITEMS",
        "APPEND",
        "APPENDS",
        "ADDITEMS",
        "POP",
        "POP_MARK",
    }
)
_BOX_CLASS = ("global", "gymnasium.spaces.box", "Box")
#: The fields of a Box's state that are read; ``bounded_below`` and ``bounded_above`` are
#: named so that their bytes are never taken for a bound.
_BOX_FIELDS = frozenset({"dtype", "_shape", "low", "high", "bounded_below", "bounded_above"})
_BOX_NEEDS = frozenset({"dtype", "_shape", "low", "high"})
#: The most Boxes a ``Dict`` observation space may hold (eights' has two, ``obs`` and ``rules``).
MAX_SUBSPACES = 8


def _boxes(path: str, raw: bytes) -> List[Dict[str, Any]]:
    """The Boxes an observation space's pickle holds, in order, read from its opcodes without
    running any: each a dict with its key in a ``Dict`` (``name``; None for a Box alone), and
    as far as found its dtype's code (``"f4"``), ``_shape`` and the raw bytes of ``low`` and
    ``high``.

    The walk follows only the values it needs: strings, whole numbers, bytes, the names of
    globals, tuples of whole numbers, a numpy dtype built from its code, and the pickle's memo
    of them, since a second Box refers back to the first one's class, key strings and dtype."""
    memo: Dict[int, Any] = {}
    pushed: List[Any] = []  # the last values pushed, newest last (None: a value not followed)
    dtype_code: Optional[str] = None  # between numpy.dtype's global ("") and its call
    boxes: List[Dict[str, Any]] = []
    field: Optional[str] = None
    for op, arg, _ in opcodes(path, "observation_space", raw):
        name = op.name
        if name == "MEMOIZE" or name in _PUT_OPCODES:
            memo[len(memo) if name == "MEMOIZE" else int(arg)] = pushed[-1] if pushed else None
            continue
        if name in _QUIET_OPCODES:
            continue
        value: Any = None
        if name in _STRING_OPCODES:
            value = str(arg)
        elif name in _INT_OPCODES and isinstance(arg, int):
            value = arg
        elif name in _BYTES_OPCODES:
            value = bytes(arg)
        elif name in _GET_OPCODES:
            value = memo.get(int(arg))
        elif name == "STACK_GLOBAL" and len(pushed) >= 2:
            value = ("global", pushed[-2], pushed[-1])
        elif name == "GLOBAL" and isinstance(arg, str):
            value = ("global", *arg.split(" ", 1))
        elif name == "REDUCE" and dtype_code:
            value, dtype_code = ("dtype", dtype_code), None
        elif name in _TUPLE_OPCODES:
            size = _TUPLE_OPCODES[name]
            items = _trailing_ints(pushed) if size < 0 else pushed[len(pushed) - size :] if size else []
            if len(items) == max(size, 0) or size < 0:
                if all(isinstance(i, int) and not isinstance(i, bool) for i in items):
                    value = ("tuple", tuple(items))
        if value == ("global", "numpy", "dtype"):
            dtype_code = ""
        elif isinstance(value, str) and dtype_code == "":
            dtype_code = value
        if value == _BOX_CLASS:
            # A Dict's key is pushed just before the class (before its module and name when
            # they are spelled out here, not fetched from the memo).
            back = 3 if name == "STACK_GLOBAL" else 1
            key = pushed[-back] if len(pushed) >= back else None
            boxes.append({"name": key})
            field = None
        elif boxes and not _BOX_NEEDS <= boxes[-1].keys():
            box = boxes[-1]
            if isinstance(value, str) and value in _BOX_FIELDS:
                field = value
            elif field == "dtype" and isinstance(value, tuple) and value[0] == "dtype":
                box.setdefault("dtype", value[1])
            elif field == "_shape" and isinstance(value, tuple) and value[0] == "tuple":
                box.setdefault("_shape", value[1])
            elif field in ("low", "high") and isinstance(value, bytes):
                box.setdefault(field, value)
        pushed.append(value)
        del pushed[:-8]
    return boxes


def _trailing_ints(values: List[Any]) -> List[int]:
    """The whole numbers at the end of ``values`` (a tuple's items since its mark)."""
    out: List[int] = []
    for v in reversed(values):
        if not isinstance(v, int) or isinstance(v, bool):
            break
        out.append(v)
    return out[::-1]


def _box(bad: str, dtype: np.dtype, shape: Tuple[int, ...], found: Dict[str, Any]) -> Any:
    """A checked ``Box`` of ``dtype`` and ``shape`` with the raw bounds ``found``."""
    from gymnasium import spaces

    if dtype.name not in _DTYPES or not shape or len(shape) > 3 or any(not 1 <= d <= MAX_DIMENSION for d in shape):
        raise ValueError(f"{bad} has dtype {dtype.name} and shape {shape}: not an observation of numbers")
    bounds = {k: found[k] for k in ("low", "high") if k in found}
    if len(bounds) != 2:
        raise ValueError(f"{bad}: its bounds are not stored as raw arrays ({sorted(bounds) or 'none'} found)")
    size = int(np.prod(shape, dtype=np.int64))
    arrays = {}
    for key, data in bounds.items():
        if len(data) != size * dtype.itemsize:
            raise ValueError(f"{bad}: its {key} holds {len(data)} bytes, not {size} x {dtype.itemsize}")
        arrays[key] = np.frombuffer(data, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)
    try:
        return spaces.Box(low=arrays["low"], high=arrays["high"], shape=shape, dtype=dtype.type)
    except Exception as exc:  # noqa: BLE001 - Gymnasium checks the bounds
        raise ValueError(f"{bad}: {exc}") from None


def _other_shape(path: str, what: str, shape: Tuple[Any, ...], wanted: Tuple[int, ...], sizes: str) -> None:
    """A ``ValueError`` unless ``shape`` is the eights observation's ``wanted``."""
    if shape != wanted:
        raise ValueError(
            f"{path!r} was trained on another environment: {what} has shape {shape}, where an eights table "
            f"gives {wanted} ({sizes})"
        )


def _dict_space(path: str, item: Dict[str, Any]) -> Any:
    """A ``Dict`` of Boxes (``obs_rules=True``: ``obs`` and ``rules``): each Box's key, dtype,
    shape and bounds from the pickle's opcodes, the keys and shapes those of eights."""
    from gymnasium import spaces

    bad = f"{path!r}: its 'observation_space'"
    if item.get("_shape") not in (None, "None"):  # Gymnasium's Dict has no shape: SB3 writes null
        raise ValueError(f"{bad} is a Dict with a '_shape' ({str(item['_shape'])[:40]!r}): a Dict space has none")
    boxes = _boxes(path, pickle_bytes(path, "observation_space", item))
    if not 1 <= len(boxes) <= MAX_SUBSPACES:
        raise ValueError(f"{bad} is a Dict of {len(boxes)} Boxes: not an eights observation (1 to {MAX_SUBSPACES})")
    found: Dict[str, Tuple[str, Tuple[Any, ...], Dict[str, Any]]] = {}
    for box in boxes:
        key, code, shape = box.get("name"), box.get("dtype"), box.get("_shape")
        if not (isinstance(key, str) and re.fullmatch(r"\w{1,64}", key)) or key in found:
            raise ValueError(f"{bad}: a Dict entry without a plain, distinct key ({str(key)[:40]!r})")
        if not (isinstance(code, str) and re.fullmatch(r"[<>|=]?[a-z]\d{0,2}", code)) or shape is None:
            raise ValueError(f"{bad}: its {key!r} has no plain dtype and shape")
        found[key] = (code, tuple(shape), box)
    if sorted(found) != sorted(_EIGHTS_DICT):
        raise ValueError(
            f"{path!r} reads a Dict of {sorted(found)}: an eights agent reads the observation alone or, with "
            "obs_rules=True, the Dict of 'obs' and 'rules'"
        )
    for key, (_, shape, _) in found.items():
        _other_shape(path, f"its {key!r} entry", shape, _EIGHTS_DICT[key], _EIGHTS_SIZES)
    return spaces.Dict(
        {key: _box(f"{bad}[{key!r}]", np.dtype(code), shape, box) for key, (code, shape, box) in found.items()}
    )


def observation_space(path: str, item: Dict[str, Any]) -> Any:
    """The observation space from plain data: a ``Box`` (its dtype and shape as SB3 writes
    them as text) or a ``Dict`` of Boxes (``obs_rules=True``: ``obs`` and ``rules``), the
    bounds, and a ``Dict``'s keys, dtypes and shapes, from the pickle's opcodes (Gymnasium
    pickles a Box's arrays as raw buffers). A shape other than an eights observation's is
    refused before any Box is built."""
    bad = f"{path!r}: its 'observation_space'"
    kind = str(item.get(":type:", ""))
    if "spaces.dict.Dict" in kind:
        return _dict_space(path, item)
    if "spaces.box.Box" not in kind:
        raise ValueError(
            f"{bad} is not a Box or a Dict of Boxes (a Gymnasium Box of numbers is what eights observations "
            "are, with the rules beside them in a Dict)"
        )
    try:
        dtype = np.dtype(str(item["dtype"]))
        shape = tuple(int(d) for d in json.loads(str(item["_shape"])))
    except (KeyError, TypeError, ValueError, OverflowError, RecursionError):
        # OverflowError: a dimension of Infinity or 1e400, which no integer holds.
        shape_text = str(item.get("_shape"))[:40]
        raise ValueError(f"{bad} has no plain dtype and shape ('_shape' {shape_text!r})") from None
    _other_shape(path, "its observation", shape, _EIGHTS_SHAPE, f"OBS_SIZE {OBS_SIZE}")
    boxes = _boxes(path, pickle_bytes(path, "observation_space", item))
    return _box(bad, dtype, shape, boxes[0] if len(boxes) == 1 else {})
