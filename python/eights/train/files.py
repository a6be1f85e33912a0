"""Reading and writing the files training keeps: PyTorch checkpoints (``*.pt``) written atomically
(:func:`save_checkpoint`) and loaded as
tensors and plain data only (``torch.load(..., weights_only=True)``: a file can never run code
when loaded), and safetensors headers read within the file's own length. Every failure is a
:class:`FileFormatError` (a ``ValueError``) whose one line names the file and what is wrong
with it: missing, a folder, truncated or damaged, holding Python objects other than plain
data, or lacking what a checkpoint of its kind holds.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
from typing import Any, Dict, Iterable, Iterator, Optional, Tuple

__all__ = [
    "FileFormatError",
    "header_metadata",
    "load_arrays",
    "load_checkpoint",
    "read_file_header",
    "read_header",
    "restoring",
    "save_checkpoint",
]

#: The largest safetensors header read (the safetensors library's own limit, 100 MB).
MAX_HEADER = 100_000_000


class FileFormatError(ValueError):
    """A checkpoint or weights file that cannot be read: the message names the file and what
    is wrong with it."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _check_file(path: str) -> None:
    if os.path.isdir(path):
        raise FileFormatError(f"{path}: is a folder, not a file")
    if not os.path.exists(path):
        raise FileFormatError(f"{path}: no such file")


def load_checkpoint(path: str, keys: Iterable[str] = ("model",), map_location: Optional[Any] = None) -> Dict[str, Any]:
    """The dict a checkpoint holds, loaded as tensors and plain data only (never unpickling
    code); ``keys`` are the entries a checkpoint of its kind must have. Raises
    :class:`FileFormatError` naming the file and what is wrong."""
    import torch

    path = os.fspath(path)
    _check_file(path)
    try:
        ck = torch.load(path, weights_only=True, map_location=map_location)
    except pickle.UnpicklingError as exc:
        if "weights only" in str(exc).lower() or "unsupported global" in str(exc).lower():
            raise FileFormatError(
                f"{path}: not a checkpoint of this package: it holds Python objects other than tensors "
                "and plain data, and is not loaded (unpickling them could run code)"
            ) from None
        raise FileFormatError(f"{path}: damaged checkpoint ({_first_line(exc)})") from None
    except EOFError:
        raise FileFormatError(f"{path}: truncated checkpoint (the file ends early)") from None
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:  # noqa: BLE001 - torch raises RuntimeError, ValueError, zip errors...
        raise FileFormatError(f"{path}: damaged or not a PyTorch checkpoint ({_first_line(exc)})") from None
    if not isinstance(ck, dict):
        raise FileFormatError(f"{path}: not a checkpoint: it holds a {type(ck).__name__}, not a dict")
    missing = [k for k in keys if k not in ck]
    if missing:
        raise FileFormatError(f"{path}: not a checkpoint of this kind: no {', '.join(map(repr, missing))} in it")
    return ck


@contextlib.contextmanager
def restoring(path: str, kind: str = "checkpoint") -> Iterator[None]:
    """Restore state from a loaded file within this block: a missing entry or one of the wrong
    type or shape (a ``KeyError``, ``TypeError``, ``AttributeError``, ``IndexError`` or the
    ``RuntimeError`` of ``load_state_dict``) becomes one :class:`FileFormatError` naming the
    file. A ``ValueError`` raised in the block (a check of the caller's) passes unchanged."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, IndexError, RuntimeError) as exc:
        what = f"no {exc.args[0]!r} in it" if isinstance(exc, KeyError) and exc.args else _first_line(exc)
        raise FileFormatError(f"{os.fspath(path)}: not a {kind} of this kind: {what}") from None


def save_checkpoint(state: Dict[str, Any], path: str) -> None:
    """Write a checkpoint (tensors and plain data, as :func:`load_checkpoint` reads them)
    atomically: to a temporary file, then moved over the last one, so a stopped run never
    leaves half a file."""
    import torch

    path = os.fspath(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.save(state, path + ".tmp")
    os.replace(path + ".tmp", path)


def read_header(data: bytes, name: str = "net weights") -> Tuple[Dict[str, Any], int]:
    """The JSON header of safetensors bytes and the offset where the tensors start, read
    within the bytes given (a header length beyond them, or beyond 100 MB, is refused before
    anything is allocated). Raises :class:`FileFormatError` naming ``name``."""
    if len(data) < 8:
        raise FileFormatError(f"{name}: not a safetensors file: {len(data)} bytes, fewer than the header length's 8")
    n = int.from_bytes(data[:8], "little")
    if n > min(len(data) - 8, MAX_HEADER):
        raise FileFormatError(
            f"{name}: not a safetensors file or truncated: its header length {n} exceeds the "
            f"{len(data) - 8} bytes that follow (or 100 MB)"
        )
    try:
        header = json.loads(bytes(data[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise FileFormatError(f"{name}: damaged safetensors header ({_first_line(exc)})") from None
    except RecursionError:
        raise FileFormatError(f"{name}: damaged safetensors header (JSON nested too deeply)") from None
    if not isinstance(header, dict):
        raise FileFormatError(f"{name}: damaged safetensors header (not a JSON object)")
    return header, 8 + n


def header_metadata(header: Dict[str, Any], name: str = "net weights") -> Dict[str, str]:
    """A safetensors header's ``__metadata__`` (string to string; ``{}`` when absent)."""
    meta = header.get("__metadata__", {})
    if not isinstance(meta, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise FileFormatError(f"{name}: damaged safetensors header (__metadata__ must map strings to strings)")
    return meta


def read_file_header(path: str) -> Dict[str, Any]:
    """The JSON header of the safetensors file at ``path``, reading the header alone."""
    path = os.fspath(path)
    _check_file(path)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        first = f.read(8)
        n = int.from_bytes(first, "little") if len(first) == 8 else 0
        if len(first) == 8 and n > min(size - 8, MAX_HEADER):
            raise FileFormatError(
                f"{path}: not a safetensors file or truncated: its header length {n} exceeds the "
                f"{size - 8} bytes that follow (or 100 MB)"
            )
        data = first + f.read(n)
    header, _ = read_header(data, path)
    return header


def load_arrays(path: str) -> Dict[str, Any]:
    """The tensors of the safetensors file at ``path`` as numpy arrays (name -> array), its
    header checked first (:func:`read_file_header`)."""
    from safetensors.numpy import load_file

    path = os.fspath(path)
    read_file_header(path)
    try:
        return load_file(path)
    except Exception as exc:  # noqa: BLE001 - safetensors' own error type
        raise FileFormatError(f"{path}: damaged safetensors file ({_first_line(exc)})") from None
