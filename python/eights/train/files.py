"""Reading and writing the files training keeps: PyTorch checkpoints (``*.pt``) written atomically
(:func:`save_checkpoint`) and loaded as
tensors and plain data only (``torch.load(..., weights_only=True)``: a file can never run code
when loaded), and safetensors headers read within the file's own length. Every failure is a
:class:`FileFormatError` (a ``ValueError``) whose one line names the file and what is wrong
with it: missing, a folder or not a regular file, truncated or damaged, holding Python objects
other than plain data, tensors whose data the file does not hold (a stride-0 "expanded"
tensor claims any shape for one stored value), or lacking what a checkpoint of its kind holds.

What a checkpoint holds beside its tensors is checked before it is used: counters
(:func:`checked_count`, :func:`checked_seconds`) and state dicts against the shapes the
network calls for (:func:`check_state`), the latter before any network of the file's size is
built, so that a few bytes cannot ask for gigabytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import stat
import tempfile
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .._utils.optional import check_safe_torch_load

__all__ = [
    "FileFormatError",
    "check_state",
    "check_tensors",
    "checked_count",
    "checked_curve",
    "checked_indices",
    "checked_seconds",
    "header_metadata",
    "load_arrays",
    "load_checkpoint",
    "plain_mode",
    "read_file_header",
    "read_header",
    "restoring",
    "save_checkpoint",
]

#: The largest safetensors header read (the safetensors library's own limit, 100 MB).
MAX_HEADER = 100_000_000
#: The most learner decisions a checkpoint may count (a thousand years at 30,000 a second).
MAX_DECISIONS = 10**15
#: The most PPO updates a checkpoint may count.
MAX_UPDATES = 10**9
#: The most seconds of training a checkpoint may count (over 300 years).
MAX_SECONDS = 1e10


class FileFormatError(ValueError):
    """A checkpoint or weights file that cannot be read: the message names the file and what
    is wrong with it."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _check_file(path: str) -> None:
    """A regular file (followed through links), refused before it is opened: a FIFO would
    block the read, a device such as ``/dev/zero`` never end."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise FileFormatError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(mode):
        what = (
            "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special"
        )
        raise FileFormatError(f"{path}: not a regular file ({what}), not read")


def check_tensors(obj: Any, name: str, kind: str = "checkpoint") -> int:
    """Every tensor in ``obj`` (nested dicts, lists and tuples, as a checkpoint holds them) is
    a dense tensor whose data is stored: contiguous, its storage holding ``numel`` elements
    from its offset. A stride-0 tensor (``torch.zeros(1).expand(40000, 40000)``) costs one
    value on disk but claims any shape; it is refused. Returns the bytes of data the tensors
    hold (each storage counted once, however many tensors share it). Raises
    :class:`FileFormatError` naming ``name`` and the entry."""
    import torch

    def where(trail: Any) -> str:
        keys = []
        while trail is not None:
            trail, key = trail
            keys.append(f"[{key!r}]" if isinstance(key, str) else f"[{key}]")
        return "".join(reversed(keys)) or "(top)"

    storages: Dict[Tuple[int, int], int] = {}
    seen = set()  # containers walked (a pickle may share one, or hold a list that holds itself)
    stack: list = [(obj, None)] if isinstance(obj, (torch.Tensor, dict, list, tuple)) else []
    while stack:
        item, trail = stack.pop()
        if isinstance(item, torch.Tensor):
            numel = item.numel()
            if item.layout != torch.strided:
                why = f"a {str(item.layout).replace('torch.', '')} tensor, not a dense one"
            elif not item.is_contiguous():
                why = f"a tensor of shape {list(item.shape)} whose data the file does not hold (not contiguous)"
            elif item.untyped_storage().nbytes() < (item.storage_offset() + numel) * item.element_size():
                why = f"a tensor of shape {list(item.shape)} whose data the file does not hold (storage too small)"
            else:
                storage = item.untyped_storage()
                storages[(storage.data_ptr(), storage.nbytes())] = storage.nbytes()
                continue
            raise FileFormatError(f"{name}: not a {kind} of this kind: its entry {where(trail)} is {why}")
        if id(item) in seen:
            continue
        seen.add(id(item))
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        stack.extend((v, (trail, k)) for k, v in pairs if isinstance(v, (torch.Tensor, dict, list, tuple)))
    return sum(storages.values())


def load_checkpoint(path: str, keys: Iterable[str] = ("model",), map_location: Optional[Any] = None) -> Dict[str, Any]:
    """The dict a checkpoint holds, loaded as tensors and plain data only (never unpickling
    code); ``keys`` are the entries a checkpoint of its kind must have. Raises
    :class:`FileFormatError` naming the file and what is wrong."""
    import torch

    path = os.fspath(path)
    check_safe_torch_load(torch, path)
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
    check_tensors(ck, path)
    return ck


def _shown(value: Any) -> str:
    """``value`` for a message: its repr cut to 60 characters (an integer too long for
    ``repr`` by its bits)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _integer(value: Any) -> bool:
    import numpy as np

    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def checked_count(
    value: Any, name: str, field: str, cap: int = MAX_DECISIONS, kind: str = "checkpoint", low: int = 0
) -> int:
    """``value`` as a counter (or a size) of a checkpoint: an integer in ``[low, cap]``; else a
    :class:`FileFormatError` naming the file ``name`` and ``field``."""
    if not _integer(value) or not low <= int(value) <= cap:
        what = f"must be an integer in [{low:,}, {cap:,}], got {_shown(value)}"
        raise FileFormatError(f"{name}: not a {kind} of this kind: its {field} {what}")
    return int(value)


def checked_indices(value: Any, size: int, name: str, field: str, kind: str = "checkpoint") -> List[int]:
    """``value`` as indices into ``size`` things (a checkpoint's columns): a 1-D integer tensor
    of 1 to 4,096 entries in ``[0, size)``; else a :class:`FileFormatError` naming ``field``."""
    import torch

    ok = isinstance(value, torch.Tensor) and value.dim() == 1 and 1 <= len(value) <= 4096
    values = value.tolist() if ok and not (value.is_floating_point() or value.is_complex()) else []
    if not values or not all(0 <= int(i) < size for i in values):
        raise FileFormatError(
            f"{name}: not a {kind} of this kind: its {field} must be 1 to 4096 indices in [0, {size})"
        )
    return [int(i) for i in values]


def checked_curve(
    value: Any, name: str, required: Sequence[str], counts: Sequence[str], finite: bool, kind: str = "checkpoint"
) -> List[Dict[str, Any]]:
    """``value`` as a checkpoint's learning curve: a list of dicts holding the ``required`` keys,
    every value a number (an integer within float's exact range, or a float: finite where
    ``finite``, else NaN allowed for a window without games), the ``counts`` among them
    counters (:func:`checked_count`); a copy, else a :class:`FileFormatError` naming the file
    and the point."""
    import math

    bad = f"{name}: not a {kind} of this kind: its"
    if not isinstance(value, list):
        raise FileFormatError(f"{bad} curve is a {type(value).__name__}, not a list of points")

    def number(x: Any) -> bool:
        if isinstance(x, int) and not isinstance(x, bool):
            return abs(x) <= 2**53
        return isinstance(x, float) and (math.isfinite(x) or not finite)

    for i, point in enumerate(value):
        if not isinstance(point, dict):
            raise FileFormatError(f"{bad} curve[{i}] is a {type(point).__name__}, not a dict")
        for key in required:
            if key not in point:
                raise FileFormatError(f"{bad} curve[{i}] has no {key!r}")
        for key, x in point.items():
            if not isinstance(key, str) or not number(x):
                what = "finite number" if finite else "number"
                raise FileFormatError(f"{bad} curve[{i}][{str(key)[:40]!r}] is not a {what}")
        for key in counts:
            checked_count(point[key], name, f"curve[{i}][{key!r}]", kind=kind)
    return [dict(p) for p in value]


def checked_seconds(value: Any, name: str, field: str, kind: str = "checkpoint") -> float:
    """``value`` as a duration of a checkpoint: a finite number of seconds in
    ``[0, MAX_SECONDS]``; else a :class:`FileFormatError` naming the file and ``field``."""
    import numpy as np

    number = _integer(value) or (isinstance(value, (float, np.floating)))
    if not number or not 0 <= value <= MAX_SECONDS:  # NaN fails too; a huge integer is not converted
        raise FileFormatError(
            f"{name}: not a {kind} of this kind: its {field} must be a number in [0, {MAX_SECONDS:g}], "
            f"got {_shown(value)}"
        )
    return float(value)


def check_state(
    state: Any, expected: Mapping[str, Any], name: str, field: str = "model", kind: str = "checkpoint"
) -> None:
    """``state`` (a file's state dict) maps exactly ``expected``'s keys to tensors of their
    shapes (``expected``: a network's state dict, which may be built on the ``meta`` device,
    or name -> shape); checked before a network of the file's size is built. Raises
    :class:`FileFormatError` naming the file ``name``, ``field`` and the first tensor amiss."""
    bad = f"{name}: not a {kind} of this kind: its {field}"
    if not isinstance(state, dict):
        raise FileFormatError(f"{bad} is a {type(state).__name__}, not a dict of tensors")
    missing = [k for k in expected if k not in state]
    if missing:
        raise FileFormatError(f"{bad} has no {missing[0]!r} ({len(missing)} missing)")
    extra = [k for k in state if k not in expected]
    if extra:
        raise FileFormatError(f"{bad} has an unexpected entry {str(extra[0])[:60]!r} ({len(extra)} in all)")
    for key, want in expected.items():
        have = getattr(state[key], "shape", None)
        if have is None or not hasattr(state[key], "dtype"):
            raise FileFormatError(f"{bad}: {key!r} is a {type(state[key]).__name__}, not a tensor")
        want = tuple(getattr(want, "shape", want))
        if tuple(have) != want:
            raise FileFormatError(f"{bad}: {key!r} has shape {list(have)}, not {list(want)}")


@contextlib.contextmanager
def restoring(path: str, kind: str = "checkpoint") -> Iterator[None]:
    """Restore state from a loaded file within this block: a missing entry or one of the wrong
    type, value or shape (a ``KeyError``, ``TypeError``, ``AttributeError``, ``IndexError``,
    ``OverflowError``, the ``ValueError`` of ``int()`` or of an optimizer's ``load_state_dict``,
    or the ``RuntimeError`` of a network's) becomes one :class:`FileFormatError` naming the
    file. A :class:`FileFormatError` raised in the block (a check of the file's) passes
    unchanged."""
    try:
        yield
    except FileFormatError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError, RuntimeError, ValueError, OverflowError) as exc:
        what = f"no {exc.args[0]!r} in it" if isinstance(exc, KeyError) and exc.args else _first_line(exc)
        raise FileFormatError(f"{os.fspath(path)}: not a {kind} of this kind: {what}") from None


def _umask() -> int:
    """The process's umask, read without changing it where the system shows it (Linux's
    ``/proc/self/status``): setting it to read it back would, for that moment, give the files
    other threads create another mode."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8) & 0o777
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)  # elsewhere: set and restored at once
    os.umask(umask)
    return umask


def plain_mode() -> int:
    """The mode ``open()`` gives a new file under the process's umask (``0o644`` under
    ``0o022``), for a file written through a temporary one (``mkstemp`` and some writers
    create it ``0o600``) and then moved in place."""
    return 0o666 & ~_umask()


def save_checkpoint(state: Dict[str, Any], path: str) -> None:
    """Write a checkpoint (tensors and plain data, as :func:`load_checkpoint` reads them)
    atomically: to a temporary file of a new name in the same folder (created by this call,
    so a link planted there is never followed), then moved over the last one, so a stopped
    run never leaves half a file."""
    import torch

    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        os.chmod(tmp, plain_mode())  # the mode a plain open() gives, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            torch.save(state, f)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.remove(tmp)
        raise


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
    header checked first (:func:`read_file_header`), every float value finite."""
    from safetensors.numpy import load_file

    path = os.fspath(path)
    read_file_header(path)
    try:
        arrays = load_file(path)
    except Exception as exc:  # noqa: BLE001 - safetensors' own error type
        raise FileFormatError(f"{path}: damaged safetensors file ({_first_line(exc)})") from None
    for key in sorted(arrays):  # a NaN weight trains nothing and plays nonsense
        a = arrays[key]
        if np.issubdtype(a.dtype, np.floating) and not np.isfinite(a).all():
            raise FileFormatError(
                f"{path}: tensor {key[:80]!r} holds a value that is not finite ({a[~np.isfinite(a)].flat[0]}); "
                "every weight must be a finite number"
            )
    return arrays
