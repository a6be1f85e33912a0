"""Trained agents saved as weights files: the path of a ``.safetensors`` file is a bot name,
played in Rust without PyTorch (a flat ``eights-net-v1`` network on the rules and table it
records, as ``eights train`` and :func:`eights.train.write_agent_file` write it, or a card
network, ``eights-net-v2``/``v3``, on any rules). This module owns recognising such a name,
reading a file's metadata (:func:`agent_file_metadata`) and the label a file plays under."""

from __future__ import annotations

import os
from typing import Any, Dict

from .._core import bot_file_metadata

__all__ = [
    "AGENT_FILE_SUFFIX",
    "RUN_AGENT_FILE",
    "agent_file_label",
    "agent_file_metadata",
    "checkpoint_hint",
    "is_agent_file",
    "is_built_in_name",
    "run_folder_agent",
]

#: The suffix of a weights file's path that makes it a bot name.
AGENT_FILE_SUFFIX = ".safetensors"

#: The agent file in a training run's folder (``eights train --out``), beside its checkpoint.
RUN_AGENT_FILE = "final.safetensors"


def is_agent_file(name: Any) -> bool:
    """Whether ``name`` (a str or os.PathLike) names a weights file: it ends in ``.safetensors``."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    return isinstance(name, str) and name.strip().lower().endswith(AGENT_FILE_SUFFIX)


def agent_file_metadata(path: Any) -> Dict[str, str]:
    """The metadata of the weights file at ``path`` (a str or os.PathLike) as a dict of
    strings: its ``format``; for a trained agent the rules it plays (``agent.rules``, TOML),
    ``players``, and what its trainer recorded (``command``, ``decisions``, ``minutes``,
    ``hardware``, ``seed``, ``name``, ...). The file is read and checked by the Rust loader
    the bots use (no PyTorch).

    Raises:
        ValueError: the file is missing, not a safetensors file, or of a format no bot plays
            (the message names the file and the formats allowed).
        TypeError: ``path`` is not a str or os.PathLike.
    """
    return dict(bot_file_metadata(path))


def agent_file_label(path: Any) -> str:
    """The name a weights file plays under in results: its metadata's ``name``, else the
    file's name without ``.safetensors``."""
    name = agent_file_metadata(path).get("name", "").strip()
    if name:
        return name
    base = os.path.basename(os.fspath(path).strip())
    return base[: -len(AGENT_FILE_SUFFIX)] if base.lower().endswith(AGENT_FILE_SUFFIX) else base


#: The built-in bots' names without their parameter: never a folder's (the engine's own rule).
_BUILT_IN = ("random", "heuristic", "ismcts", "ismcts_net", "pimc", "oracle", "net", "net1")


def is_built_in_name(text: str) -> bool:
    """Whether ``text``, its parameter aside (``ismcts:400``), is a built-in bot's name, right
    or not in its parameter: never a path, whatever the current folder holds."""
    return text.strip().partition(":")[0].lower() in _BUILT_IN


def run_folder_agent(spec: Any) -> Any:
    """The agent file of a training run's folder (``FOLDER/final.safetensors``) when ``spec``
    (a str or os.PathLike) names a folder that holds one and is no built-in bot's name (a run
    saved to ``--out net`` is played as ``./net``); ``spec`` as it is otherwise."""
    if isinstance(spec, (str, os.PathLike)) and not isinstance(spec, bytes):
        path = os.fspath(spec)
        if isinstance(path, str) and is_built_in_name(path):
            return spec
        if isinstance(path, str) and os.path.isdir(path.strip()):
            inside = os.path.join(path.strip(), RUN_AGENT_FILE)
            if os.path.isfile(inside):
                return inside
    return spec


def checkpoint_hint(spec: Any) -> str:
    """``"; it is a training checkpoint ..."`` when ``spec`` names a PyTorch file (``*.pt``,
    such as a run folder's ``checkpoint.pt``), which no bot plays, saying which file does;
    ``""`` otherwise: the end of an error message."""
    if not isinstance(spec, (str, os.PathLike)):
        return ""
    path = os.fspath(spec)
    if not isinstance(path, str) or not path.strip().lower().endswith(".pt"):
        return ""
    agent = os.path.join(os.path.dirname(path.strip()) or ".", RUN_AGENT_FILE)
    then = f"the run's agent is {agent!r}" if os.path.isfile(agent) else f"a run's agent is its {RUN_AGENT_FILE}"
    return f"; it is a training checkpoint (eights train resumes a run from its folder, --out): {then}"
