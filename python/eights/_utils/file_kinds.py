"""What a file given in the wrong place is, told from its first bytes, for the error that says
where it goes: an agent's weights file (safetensors), a model saved by stable-baselines3 (a zip
archive), or text such as a rules file. A walk from the wheel passed a trained agent where rules
go (``not UTF-8 at byte 1369``) and a rules file where agents go (``BadZipFile``)."""

from __future__ import annotations

import os
from typing import Union

__all__ = ["wrong_place"]

_AGENTS = "agents go to --agents (eights.Bot, eights.agents.load_agent)"
_RULES = "rules go to --preset or --rules (eights.Rules.from_toml)"


def _kind(head: bytes) -> str:
    """The kind of file ``head`` (its first bytes) begins, or ``""``."""
    if head.startswith(b"PK\x03\x04"):
        return "agent"  # a zip archive: stable-baselines3 saves a model as one
    if len(head) >= 9 and head[8:9] == b"{" and int.from_bytes(head[:8], "little") < 1 << 40:
        return "agent"  # safetensors: an 8-byte header length, then the JSON header
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # not a character cut by the end of the head
            return ""
    return "text"


def wrong_place(path: Union[str, os.PathLike[str]], wanted: str) -> str:
    """``"; it is ..."`` when the regular file at ``path`` is of another kind than ``wanted``
    (``"rules"`` or ``"agent"``), else ``""``: the end of an error message."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return ""
    kind = _kind(head)
    if wanted == "rules" and kind == "agent":
        return f"; it is an agent's file (a weights file or a saved model), not rules: {_AGENTS}"
    if wanted == "agent" and kind == "text":
        return f"; it is a text file (rules?), not an agent's: {_RULES}"
    return ""
