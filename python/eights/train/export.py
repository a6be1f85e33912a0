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

A trained agent's file (:func:`write_agent_file`) is one of this format holding one policy,
``agent``, with the rules it was trained on in its metadata (``agent.rules``: the TOML text
``Rules.to_toml()`` gives; ``players``: the table): its path then plays wherever a bot name
is accepted, in Rust without PyTorch, on those rules and that table only.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping, Optional

import numpy as np

from .._core import NUM_ACTIONS
from .files import check_state, header_metadata, load_arrays, read_file_header, restoring
from .model import EXPORTED_KEYS, PolicyNet, exported_state_dict, flat_shapes

__all__ = ["AGENT_KEY", "EXPORT_FORMAT", "export_metadata", "load_exported", "write_agent_file", "write_exported"]

EXPORT_FORMAT = "eights-net-v1"
#: The name of the one policy of a trained agent's file (:func:`write_agent_file`).
AGENT_KEY = "agent"
#: The metadata :func:`write_agent_file` writes itself (``meta`` may not set them otherwise).
_AGENT_KEYS = ("format", "presets", "clip", f"{AGENT_KEY}.rules", "players", "hidden", "inputs", "dtype")


def write_exported(policies: Mapping[str, Any], path: str, meta: Mapping[str, Any], dtype: str = "float16") -> None:
    """Write the policies (preset -> :class:`~eights.train.PolicyNet`) to one safetensors
    file: the normaliser in float32, the layers in ``dtype`` (float16 or float32); ``meta``
    is added to the metadata (values as strings)."""
    from safetensors.numpy import save_file

    if dtype not in ("float16", "float32"):
        raise ValueError(f"export dtype must be 'float16' or 'float32', got {dtype!r}")
    own = {"format": EXPORT_FORMAT, "presets": ",".join(policies)}
    taken = sorted(k for k in own if k in meta and str(meta[k]) != own[k])
    if taken:  # the loaders read these: a meta "format" overwrote the file's own
        raise ValueError(f"meta may not set {', '.join(map(repr, taken))}: the file's own metadata")
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
    new and untrained), preset -> network, in evaluation mode. Each policy's sizes (hidden
    units in [1, 8192], inputs at most the observation size) and tensor shapes are checked
    before its network is built: a :class:`~eights.train.files.FileFormatError` naming the
    file otherwise."""
    arrays = load_arrays(path)
    out = {}
    kind = "file of exported policies"
    with restoring(path, kind):
        for preset in sorted({k.split(".")[0] for k in arrays}):
            # The sizes and shapes are checked before a network of the file's size is built.
            expected = flat_shapes(arrays[f"{preset}.fc1.weight"], path, kind, f"preset {preset[:40]!r}")
            check_state(
                {k: arrays[f"{preset}.{k}"] for k in EXPORTED_KEYS},
                {k: expected[k] for k in EXPORTED_KEYS},
                path,
                f"preset {preset[:40]!r}",
                kind,
            )
            model = exported_state_dict(arrays, preset)
            hidden, inputs = expected["fc1.weight"]
            net = PolicyNet(inputs, NUM_ACTIONS, hidden)
            net.load_state_dict(model, strict=False)  # no value head in a file
            out[preset] = net.eval()
    return out


def write_agent_file(
    path: str,
    policy: PolicyNet,
    rules: Any,
    meta: Mapping[str, Any],
    *,
    num_players: Optional[int] = None,
    dtype: str = "float32",
) -> None:
    """Write a trained flat network as an agent's file: one policy, ``agent``, playing
    ``rules`` (an :class:`eights.Rules`, or a preset name) at a table of ``num_players``
    (default: ``rules.num_players`` where the rules object has it, else ``meta["players"]``).

    The metadata records the rules (``agent.rules``, the TOML text of ``rules.to_toml()``),
    ``players``, the network's ``hidden`` and ``inputs`` sizes and ``dtype``, plus ``meta``
    (values as strings: the trainer passes its command, decisions, minutes, hardware, seed and
    name). The file is read back by the Rust loader before this returns, so a file that would
    not play is an error here, not at its first game. The layers are stored in ``dtype``
    (float32 by default, so that the bot plays exactly the network trained).

    Raises:
        TypeError: ``policy`` is not a :class:`~eights.train.PolicyNet`, ``rules`` not rules.
        ValueError: a path not ending in ``.safetensors``, no table size, one the rules do not
            allow, or ``meta`` setting one of the keys written here to another value.
    """
    from .._core import check_bot_rules
    from ..rules import Rules

    if not isinstance(policy, PolicyNet):
        raise TypeError(f"policy must be an eights.train.PolicyNet, got {type(policy).__name__}")
    if not os.fspath(path).lower().endswith(".safetensors"):
        raise ValueError(f"write_agent_file: path must end in .safetensors (a bot name), got {os.fspath(path)!r}")
    if isinstance(rules, str):
        rules = Rules(rules)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be an eights.Rules or a preset name, got {type(rules).__name__}")
    meta = {str(k): str(v) for k, v in meta.items()}
    players = num_players if num_players is not None else getattr(rules, "num_players", None)
    if players is None:
        players = meta.get("players")
    if players is None:
        raise ValueError("write_agent_file: num_players is missing (give num_players=, or 'players' in meta)")
    try:
        players = int(players)
    except (TypeError, ValueError):
        raise ValueError(f"write_agent_file: num_players must be an integer, got {players!r}") from None
    rules.validate(players)  # RulesError naming the field for a table the rules do not allow
    hidden, inputs = policy.fc1.weight.shape
    own = {
        "format": EXPORT_FORMAT,
        "presets": AGENT_KEY,
        "clip": repr(float(policy.norm.clip)),
        f"{AGENT_KEY}.rules": rules.to_toml(),
        "players": str(players),
        "hidden": str(int(hidden)),
        "inputs": str(int(inputs)),
        "dtype": dtype,
    }
    clash = sorted(k for k in _AGENT_KEYS if k in meta and meta[k] != own[k])
    if clash:
        raise ValueError(f"write_agent_file: meta may not set {', '.join(map(repr, clash))}: they are written here")
    write_exported({AGENT_KEY: policy}, path, {**meta, **own}, dtype=dtype)
    # The Rust loader's own check: the file parses and plays the rules it records.
    check_bot_rules(os.path.abspath(path), rules, players)
