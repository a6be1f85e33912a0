"""The exported weights file of the ``net`` bot's network (safetensors, format
``eights-net-v2``, or ``eights-net-v3`` with the attention layer), as the Rust bot reads it:
its format tags and layers, and :func:`read_exported`, which checks a file as the Rust loader
checks it (and refuses tensors the architecture does not call for) before
:func:`eights.train.cardnet.load` builds the network from it.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Sequence, Tuple

from .._utils.checks import as_path, describe
from ..rules.encoding import CARD_FEATURE_NAMES, TABLE_FEATURE_NAMES
from .files import FileFormatError, _check_file, header_metadata, read_header

__all__ = [
    "ATTENTION",
    "DIM_RANGE",
    "EXPORTED_LAYERS",
    "FORMAT",
    "FORMAT_ATTENTION",
    "MAX_FILE_BYTES",
    "check_export",
    "check_shapes",
    "read_exported",
    "read_file",
]

#: The format tag of an exported file (read by the Rust ``net`` bot).
FORMAT = "eights-net-v2"
#: The format tag of an exported file whose network has the attention layer (a reader of
#: :data:`FORMAT` alone would play it without the layer).
FORMAT_ATTENTION = "eights-net-v3"
#: The layers an exported file holds (the value head stays with the checkpoint).
EXPORTED_LAYERS = ("r1", "r2", "t1", "d", "c1", "c2", "u", "x", "a", "o")
#: The attention matrices an exported file holds when the network has them.
ATTENTION = ("att_a", "att_b")
#: The bounds of an exported file's ``width``, ``context`` and ``table_width`` (the Rust loader's).
DIM_RANGE = (1, 4096)
#: The largest weights file read (bytes), the Rust loader's (``bots::file::MAX_FILE_BYTES``):
#: far above a width-4096 network (about 100 MB in float16), far below a file named by mistake.
MAX_FILE_BYTES = 256 << 20


def read_file(path: str) -> bytes:
    """The bytes of the weights file at ``path``: a regular file of at most
    :data:`MAX_FILE_BYTES` (a folder, a FIFO or a device is refused before it is opened, a
    larger file before it is read); a :class:`~eights.train.files.FileFormatError` otherwise."""
    _check_file(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = f.read(MAX_FILE_BYTES + 1) if size <= MAX_FILE_BYTES else b""
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if max(size, len(data)) > MAX_FILE_BYTES:
        raise FileFormatError(
            f"{path}: {max(size, len(data)):,} bytes or more, over the {MAX_FILE_BYTES:,} a weights file may have"
        )
    return data


def check_export(net: Any, kind: Any, path: Any, record: Any, dtype: Any) -> Tuple[str, Dict[str, str]]:
    """The arguments of :func:`eights.train.cardnet.export`, checked before anything is written:
    ``net`` a ``kind`` (a ``CardNet``), ``path`` a file in a folder that exists, ``record``
    strings that set no key of the format's own (``format`` and the architecture, which the
    loaders read), ``dtype`` float16 or float32 (what the loaders read; an int8 file was
    written and refused by both)."""
    import torch

    if not isinstance(net, kind):
        raise TypeError(f"net must be an eights.train.cardnet.CardNet, got {type(net).__name__}")
    path = as_path(path, "path")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"path {path!r}: no such folder {folder!r}")
    record = {} if record is None else record
    if not isinstance(record, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in record.items()):
        raise TypeError(f"record must be a dict of strings, got {describe(record)}")
    taken = sorted(set(record) & ({"format", "attention"} | set(net.config())))
    if taken:
        names = ", ".join(map(repr, taken))
        raise ValueError(f"record may not set {names}: the file's own metadata, which the loaders read")
    if dtype not in (torch.float16, torch.float32):
        raise ValueError(f"dtype must be torch.float16 or torch.float32 (what the loaders read), got {dtype!r}")
    return path, record


def _dims(meta: Dict[str, str], name: str) -> List[int]:
    out = []
    for key in ("width", "context", "table_width"):
        text = meta.get(key)
        if text is None:
            raise FileFormatError(f"{name}: metadata {key!r} missing")
        if not (len(text) <= 20 and text.isascii() and text.isdigit() and DIM_RANGE[0] <= int(text) <= DIM_RANGE[1]):
            raise FileFormatError(f"{name}: metadata {key!r} must be an integer in [1, 4096], got {text!r}")
        out.append(int(text))
    return out


def _columns(meta: Dict[str, str], key: str, names: Sequence[str], name: str) -> List[str]:
    if key not in meta:
        raise FileFormatError(f"{name}: metadata {key!r} missing")
    count = meta[key].count(",") + 1  # counted before the list is split: it may be 100 MB long
    if count > len(names):
        raise FileFormatError(
            f"{name}: metadata {key!r} names {count:,} rules columns, more than the encoding's {len(names)}"
        )
    columns, seen = meta[key].split(","), set()
    for c in columns:
        if c not in names:
            raise FileFormatError(f"{name}: rules column {c!r} (in {key}) is not in this version's rules encoding")
        if c in seen:
            raise FileFormatError(
                f"{name}: rules column {c!r} named twice in metadata {key!r} (each of the encoding's "
                f"{len(names)} columns at most once)"
            )
        seen.add(c)
    return columns


def read_exported(data: bytes, name: str = "net weights") -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The architecture (the keyword arguments of :class:`~eights.train.cardnet.CardNet`) and
    the tensors of an exported file, checked as the Rust loader checks it: the format and
    ``attention`` metadata, ``width``, ``context`` and ``table_width`` in [1, 4096], known rules
    columns, each named at most once, and exactly the
    tensors the architecture calls for (one missing or one too many is refused), in float16 or
    float32, every value finite. Every refusal is a :class:`~eights.train.files.FileFormatError` (a
    ``ValueError``) naming ``name``."""
    import torch
    from safetensors.torch import load as load_bytes

    header, _ = read_header(data, name)
    meta = header_metadata(header, name)
    fmt = meta.get("format")
    if fmt not in (FORMAT, FORMAT_ATTENTION):
        raise FileFormatError(f"{name}: format must be {FORMAT!r} or {FORMAT_ATTENTION!r}, got {fmt!r}")
    attention = meta.get("attention")
    if (fmt, attention) not in ((FORMAT, None), (FORMAT_ATTENTION, "bilinear")):
        raise FileFormatError(
            f"{name}: metadata 'attention' must be absent in format {FORMAT!r} and 'bilinear' in "
            f"{FORMAT_ATTENTION!r}, got {attention!r} in {fmt!r}"
        )
    width, context, table_width = _dims(meta, name)
    arch = {
        "width": width,
        "context": context,
        "table_width": table_width,
        "card_columns": _columns(meta, "card_columns", CARD_FEATURE_NAMES, name),
        "table_columns": _columns(meta, "table_columns", TABLE_FEATURE_NAMES, name),
        "attention": attention == "bilinear",
    }
    try:
        tensors = load_bytes(bytes(data))
    except Exception as exc:  # noqa: BLE001 - safetensors' own error type
        raise FileFormatError(
            f"{name}: damaged safetensors file ({str(exc).splitlines()[0] if str(exc) else exc!r})"
        ) from None
    wanted = {f"{k}.{p}" for k in EXPORTED_LAYERS for p in ("weight", "bias")} | (
        set(ATTENTION) if arch["attention"] else set()
    )
    missing, extra = sorted(wanted - set(tensors)), sorted(set(tensors) - wanted)
    if missing:
        raise FileFormatError(f"{name}: tensor {missing[0]!r} missing ({len(missing)} in all)")
    if extra:
        raise FileFormatError(
            f"{name}: unexpected tensor {extra[0]!r} ({len(extra)} in all; format {fmt!r} has {len(wanted)})"
        )
    for key, t in sorted(tensors.items()):
        if t.dtype not in (torch.float16, torch.float32):
            raise FileFormatError(f"{name}: tensor {key!r} must be float32 or float16, got {t.dtype}")
        if not bool(torch.isfinite(t).all()):  # a NaN weight trains nothing and plays nonsense
            bad = t.flatten()[~torch.isfinite(t.flatten())][0].item()
            raise FileFormatError(
                f"{name}: tensor {key!r} holds a value that is not finite ({bad}); every weight must be a finite number"
            )
    return arch, tensors


def check_shapes(expected: Dict[str, Any], tensors: Dict[str, Any], name: str = "net weights") -> None:
    """Each tensor of a file has the shape of the network's (``expected``: its state dict)."""
    for key in sorted(tensors):
        if tuple(tensors[key].shape) != tuple(expected[key].shape):
            raise FileFormatError(
                f"{name}: tensor {key!r} must have shape {list(expected[key].shape)}, got {list(tensors[key].shape)}"
            )
