"""The ``eights-net-v1`` format: trained policies in one safetensors file, as the Rust bot
``net1`` reads them (the shipped file is ``src/bots/weights/net1.safetensors``).

Per preset ``P``: ``P.norm.mean``, ``P.norm.inv_std`` (float32, ``[IN]``), ``P.fc1.weight``
``[H, IN]``, ``P.fc1.bias``, ``P.fc2.weight`` ``[H, H]``, ``P.fc2.bias``, ``P.pi.weight``
``[197, H]``, ``P.pi.bias`` (PyTorch's ``[out, in]`` layout; the layers in float16 or
float32), and metadata ``format = "eights-net-v1"``, ``presets`` (comma-separated), ``clip``
and what the writer adds (the ``net1`` recipe, ``netlab.recipe`` in the repository's research/, records
``players``, ``hidden``, ``seed``, ``dtype``, ``hardware``, the command and how each preset
was trained). Only the policy is stored, not the value head. The policy:
``x = clamp((obs - mean) * inv_std, -clip, clip)``, ``h = relu(fc2(relu(fc1(x))))``,
``logits = pi(h)``, illegal actions masked out; the bot plays the legal action of the largest
logit. ``IN`` is the number of leading observation values the network reads (the layout only
appends slices).

:func:`write_exported` writes a file, :func:`export_metadata` reads its metadata and
:func:`load_exported` its policies back (through :func:`eights.train.exported_state_dict`).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping

import numpy as np

from .._core import NUM_ACTIONS
from .files import header_metadata, load_arrays, read_file_header
from .model import EXPORTED_KEYS, PolicyNet, exported_state_dict

__all__ = ["EXPORT_FORMAT", "export_metadata", "load_exported", "write_exported"]

EXPORT_FORMAT = "eights-net-v1"


def write_exported(policies: Mapping[str, Any], path: str, meta: Mapping[str, Any], dtype: str = "float16") -> None:
    """Write the policies (preset -> :class:`~eights.train.PolicyNet`) to one safetensors
    file: the normaliser in float32, the layers in ``dtype`` (float16 or float32); ``meta``
    is added to the metadata (values as strings)."""
    from safetensors.numpy import save_file

    if dtype not in ("float16", "float32"):
        raise ValueError(f"export dtype must be 'float16' or 'float32', got {dtype!r}")
    tensors = {}
    for preset, agent in policies.items():
        sd = agent.state_dict()
        for key in EXPORTED_KEYS:
            dt = np.float32 if key.startswith("norm.") else np.dtype(dtype)
            tensors[f"{preset}.{key}"] = np.ascontiguousarray(sd[key].detach().cpu().numpy(), dtype=dt)
    metadata = {
        "format": EXPORT_FORMAT,
        "presets": ",".join(policies),
        "clip": "5.0",
        **{k: str(v) for k, v in meta.items()},
    }
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    save_file(tensors, path, metadata=metadata)


def export_metadata(path: str) -> Dict[str, str]:
    """The metadata of an exported file (its safetensors header's ``__metadata__``); a file
    that is not one, or whose header is damaged, is a :class:`~eights.train.files.FileFormatError`
    (a ``ValueError``) naming the file, found before anything the size of a bogus header
    length is allocated."""
    return header_metadata(read_file_header(path), os.fspath(path))


def load_exported(path: str) -> Dict[str, PolicyNet]:
    """The policies of an exported file as :class:`~eights.train.PolicyNet` s (value heads
    new and untrained), preset -> network, in evaluation mode."""
    arrays = load_arrays(path)
    out = {}
    for preset in sorted({k.split(".")[0] for k in arrays}):
        model = exported_state_dict(arrays, preset)
        hidden, inputs = model["fc1.weight"].shape
        net = PolicyNet(int(inputs), NUM_ACTIONS, int(hidden))
        net.load_state_dict(model, strict=False)  # no value head in a file
        out[preset] = net.eval()
    return out
