"""The settings of a web server (:class:`ServerConfig`: where it listens, the records
folder it may open, the policies it offers as opponents, its limits), and the policies
named on the command line (``--policy NAME=SPEC``), loaded once when the app starts."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from .._utils.checks import as_int, as_real, describe

__all__ = ["ServerConfig", "load_policies", "parse_policy"]

#: Size limits of what a client sends: a house-rules TOML file, a game record, any other
#: request body, a websocket message (bytes).
MAX_RULES_BYTES = 64 * 1024
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_BODY_BYTES = MAX_RULES_BYTES + 16 * 1024
MAX_MESSAGE_BYTES = 16 * 1024
#: The largest decision cap (``limits.max_decisions``) of a table's rules: every game on the
#: server ends within it (0, no cap, is refused), so one request's bot moves are bounded.
MAX_TABLE_DECISIONS = 100_000
#: Quick bot moves played on the event loop between two yields to it, so that other tables
#: and the server's signals are served during a long run of bot moves.
YIELD_EVERY = 64
#: The websocket frame limit of the server: a message over :data:`MAX_MESSAGE_BYTES` is
#: answered with a 413 message, one over this closes the connection (code 1009).
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES

#: Hosts a server bound to the loopback interface answers to (others get a 400: this keeps
#: a web page that rebinds its domain name to 127.0.0.1 away from the local server).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")

#: The bounds of :class:`ServerConfig`'s limits (those of ``eights serve``'s options):
#: ``idle_timeout`` in seconds (exclusive, as every duration on the command line), the games
#: held at once, the threads of the thinking bots.
MAX_IDLE_TIMEOUT = 1e7
MAX_GAMES = 10**6
MAX_THINK_THREADS = 1024
#: The largest search a client may ask of a bot by default (``ismcts:N``'s simulations,
#: ``pimc:N``'s worlds): about 0.2 s a decision at 10 players, where ``ismcts:1000000`` took
#: about 9 s, and a watched table plays every seat's moves in turn.
DEFAULT_MAX_SEARCH = 20_000


@dataclass
class ServerConfig:
    """The settings of ``eights serve``.

    Attributes:
        host, port: where the server listens (the loopback interface by default): a
            non-empty string, and an integer in ``[0, 65535]`` (0: a free port).
        records_dir: a folder of game records (``*.json``) that the Replay page may open;
            no file outside it is ever read.  ``None``: only uploaded records.  A string or
            an ``os.PathLike`` naming an existing folder (kept as its real path).
        policies: opponents offered besides the built-in bots, a mapping ``{label: spec}``
            of non-empty strings, where spec is what ``--bots`` of ``eights play`` takes
            (``module:attribute``, a saved stable-baselines3 model ``.zip``; an
            ``os.PathLike`` is taken as its path); ``{}``: none.  A browser picks them by
            label only: it can never make the server load a file or import a module.
        idle_timeout: seconds after which a game or an uploaded replay nobody touched is
            dropped: a finite number in ``(0, 1e7)``.
        max_games: how many games the server holds at once (then the least recently used
            idle one gives way, or a new game is refused with 429): an integer in
            ``[1, 10**6]``.
        think_threads: threads for the bots that think for long (``ismcts``, ``pimc``,
            ``net``, Python policies); ``random`` and ``heuristic`` answer at once.  An
            integer in ``[1, 1024]`` (default: the cores, at least 2).
        max_search: the most simulations (``ismcts:N``, ``ismcts_net:N``) or worlds
            (``pimc:N``, ``oracle:N``) a client may ask of a bot: an integer in
            ``[1, 1000000]`` (default :data:`DEFAULT_MAX_SEARCH`).  The bots the page offers
            are all within the default.

    Every setting is checked here: ``TypeError`` for a value of the wrong type (a bool is
    not a number), ``ValueError`` for one out of range, each naming the setting.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    records_dir: Optional[str] = None
    policies: Dict[str, str] = dataclasses.field(default_factory=dict)
    idle_timeout: float = 1800.0
    max_games: int = 1000
    think_threads: int = dataclasses.field(default_factory=lambda: min(MAX_THINK_THREADS, max(2, os.cpu_count() or 1)))
    max_search: int = DEFAULT_MAX_SEARCH

    def __post_init__(self) -> None:
        if not isinstance(self.host, str):
            raise TypeError(
                f"host must be a string (an address or a name, such as 127.0.0.1), got {describe(self.host)}"
            )
        if not self.host.strip():
            raise ValueError(f"host must be an address or a name (such as 127.0.0.1), got {self.host!r}")
        self.port = as_int(self.port, "port", 0, 65535)
        if self.records_dir is not None:
            self.records_dir = _records_dir(self.records_dir)
        self.policies = _policies(self.policies)
        self.idle_timeout = as_real(self.idle_timeout, "idle_timeout")
        if not 0 < self.idle_timeout < MAX_IDLE_TIMEOUT:
            raise ValueError(f"idle_timeout must be a number of seconds in (0, 1e7), got {self.idle_timeout:g}")
        self.max_games = as_int(self.max_games, "max_games", 1, MAX_GAMES)
        self.think_threads = as_int(self.think_threads, "think_threads", 1, MAX_THINK_THREADS)
        self.max_search = as_int(self.max_search, "max_search", 1, 1_000_000)

    @property
    def loopback(self) -> bool:
        """True when the server listens on the loopback interface only."""
        return self.host in LOOPBACK_HOSTS


def _records_dir(value: Any) -> str:
    """The real path of the records folder ``value`` (a str or an ``os.PathLike``; an integer
    would be taken as a file descriptor by ``os.path``)."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"records_dir must be None or a folder's path (a str or os.PathLike), got {describe(value)}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"records_dir must be None or a folder's path (a str or os.PathLike), got {describe(value)}")
    if not os.path.isdir(path):
        why = "not a directory" if os.path.exists(path) else "no such directory"
        raise ValueError(f"records folder: {why}: {path!r}")
    return os.path.realpath(path)


def _policies(value: Any) -> Dict[str, str]:
    """``value`` as a new ``{label: spec}`` dict of non-empty strings (a spec given as an
    ``os.PathLike`` as its path); ``TypeError``/``ValueError`` naming the bad entry."""
    allowed = "a mapping {label: spec} of strings (spec: module:attribute or a saved model's path), or {} for none"
    if not isinstance(value, Mapping):
        raise TypeError(f"policies must be {allowed}, got {describe(value)}")
    checked: Dict[str, str] = {}
    for label, spec in value.items():
        if not isinstance(label, str):
            raise TypeError(f"policies: a label must be a string, got {describe(label)}")
        if not label.strip():
            raise ValueError(f"policies: a label must not be empty, got {label!r}")
        if isinstance(spec, os.PathLike):
            spec = os.fspath(spec)
        if not isinstance(spec, str):
            raise TypeError(f"policies[{label!r}] must be a string (module:attribute or a path), got {describe(spec)}")
        if not spec.strip():
            raise ValueError(f"policies[{label!r}] must not be empty")
        checked[label] = spec
    return checked


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
    cannot be loaded, or a label that is a built-in bot name.  A weights file (which stays
    its path, played in Rust) is read and checked here by the loader of the bots, so a
    missing or damaged file stops the server at its start, not at its first game."""
    from .._core import parse_bot
    from ..agents.files import agent_file_metadata, is_agent_file
    from ..agents.load import load_policy, one_torch_thread_for_play

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
            if spec.strip().endswith(".zip"):  # a saved SB3 model: see one_torch_thread_for_play
                one_torch_thread_for_play()
            if is_agent_file(spec):
                agent_file_metadata(loaded[label])
        except (ValueError, TypeError) as exc:
            raise ValueError(f"--policy {label}={spec}: {exc}") from None
        if isinstance(loaded[label], str) and not is_agent_file(spec):  # a bot name given as a spec
            raise ValueError(f"--policy {label}={spec}: a built-in bot needs no --policy; offer it by name")
    return loaded
