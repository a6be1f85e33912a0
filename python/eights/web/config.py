"""The settings of a web server (:class:`ServerConfig`: where it listens, the records
folder it may open, the policies it offers as opponents, its limits), and the policies
named on the command line (``--policy NAME=SPEC``), loaded once when the app starts."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

__all__ = ["ServerConfig", "load_policies", "parse_policy"]

#: Size limits of what a client sends: a house-rules TOML file, a game record, any other
#: request body, a websocket message (bytes).
MAX_RULES_BYTES = 64 * 1024
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_BODY_BYTES = MAX_RULES_BYTES + 16 * 1024
MAX_MESSAGE_BYTES = 16 * 1024
#: The websocket frame limit of the server: a message over :data:`MAX_MESSAGE_BYTES` is
#: answered with a 413 message, one over this closes the connection (code 1009).
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES

#: Hosts a server bound to the loopback interface answers to (others get a 400: this keeps
#: a web page that rebinds its domain name to 127.0.0.1 away from the local server).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass
class ServerConfig:
    """The settings of ``eights serve``.

    Attributes:
        host, port: where the server listens (the loopback interface by default).
        records_dir: a folder of game records (``*.json``) that the Replay page may open;
            no file outside it is ever read.  ``None``: only uploaded records.
        policies: opponents offered besides the built-in bots, ``{label: spec}`` where spec
            is what ``--bots`` of ``eights play`` takes (``module:attribute``, a saved
            stable-baselines3 model ``.zip``).  A browser picks them by label only: it can
            never make the server load a file or import a module.
        idle_timeout: seconds after which a game or an uploaded replay nobody touched is
            dropped.
        max_games: how many games the server holds at once (then the least recently used
            idle one gives way, or a new game is refused with 429).
        think_threads: threads for the bots that think for long (``ismcts``, ``pimc``,
            ``net``, Python policies); ``random`` and ``heuristic`` answer at once.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    records_dir: Optional[str] = None
    policies: Dict[str, str] = dataclasses.field(default_factory=dict)
    idle_timeout: float = 1800.0
    max_games: int = 1000
    think_threads: int = dataclasses.field(default_factory=lambda: max(2, os.cpu_count() or 1))

    def __post_init__(self) -> None:
        if self.records_dir is not None:
            if not os.path.isdir(self.records_dir):
                raise ValueError(f"records folder: no such directory: {self.records_dir}")
            self.records_dir = os.path.realpath(self.records_dir)
        if not self.idle_timeout > 0:
            raise ValueError(f"idle_timeout must be > 0 seconds, got {self.idle_timeout}")
        if self.max_games < 1:
            raise ValueError(f"max_games must be >= 1, got {self.max_games}")
        if self.think_threads < 1:
            raise ValueError(f"think_threads must be >= 1, got {self.think_threads}")

    @property
    def loopback(self) -> bool:
        """True when the server listens on the loopback interface only."""
        return self.host in LOOPBACK_HOSTS


def parse_policy(text: str) -> Tuple[str, str]:
    """``"NAME=SPEC"`` (or a bare ``SPEC``, named after its file or attribute) as
    ``(label, spec)``; ``ValueError`` for an empty name or spec."""
    label, sep, spec = text.partition("=")
    if not sep:
        spec = text
        if text.strip().lower().endswith(".safetensors"):
            label = os.path.basename(text.strip())[: -len(".safetensors")]
        elif text.endswith(".zip"):
            label = os.path.basename(text)
        else:
            label = text.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
    label, spec = label.strip(), spec.strip()
    if not label or not spec:
        raise ValueError(
            f"--policy must be NAME=SPEC (SPEC: module:attribute, a saved model .zip or a weights file "
            f".safetensors), got {text!r}"
        )
    return label, spec


def load_policies(policies: Dict[str, str]) -> Dict[str, Any]:
    """Load every policy of the configuration once: ``{label: policy}`` as
    :func:`eights.agents.load.load_policy` returns it; ``ValueError`` naming the policy that
    cannot be loaded, or a label that is a built-in bot name."""
    from .._core import parse_bot
    from ..agents.files import is_agent_file
    from ..agents.load import load_policy

    loaded = {}
    for label, spec in policies.items():
        if label.lower() == "you":
            raise ValueError(f"--policy {label}={spec}: 'You' names the person at the table; name the policy otherwise")
        try:
            parse_bot(label)
        except ValueError:
            pass
        else:
            raise ValueError(f"--policy {label}={spec}: {label!r} is a built-in bot name; name the policy otherwise")
        try:
            loaded[label] = load_policy(spec)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"--policy {label}={spec}: {exc}") from None
        if isinstance(loaded[label], str) and not is_agent_file(spec):  # a bot name given as a spec
            raise ValueError(f"--policy {label}={spec}: a built-in bot needs no --policy; offer it by name")
    return loaded
