"""Playing an arena run on a Ray cluster: :func:`play` cuts the duplicate deals into ranges
that depend only on the number of deals, plays each range as a Ray task on some worker, and
joins the ranges in deal order, so the results are those of one machine for the same seed
(every game is dealt and seated from its deal's index, whatever plays it); :func:`connect`
joins or starts the cluster. A weights file among the agents travels as its bytes, written on
each worker under a name of its content before its ranges play, so a worker needs no copy at
the driver's path. Ray (the ``rllib`` extra) is imported only here, when asked for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import socket
import tempfile
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .._utils.checks import describe as _describe
from .._utils.optional import import_optional
from ..agents.files import is_agent_file
from ..agents.spec import AgentSpec
from ..rules import resolve_preset
from .run import AgentLike, Preset, check_progress, checked_table, concat, play_range

__all__ = ["FILES_DIR", "MAX_TASKS", "agent_files", "check_address", "connect", "deal_ranges", "play", "play_shipped"]

#: A run is cut into at most this many tasks (ranges of deals) per table.
MAX_TASKS = 256
#: Seconds between two looks at the tasks (a Ctrl-C is seen between them).
_POLL = 0.2

_HELP = "'local' (start a cluster on this machine), 'auto' (join the running one) or a cluster address"


def check_address(ray: Any) -> Optional[str]:
    """The ``ray`` argument: None (play on this machine), ``"local"``, ``"auto"`` or a cluster
    address (``host:port``, ``ray://host:port``)."""
    if ray is None:
        return None
    if not isinstance(ray, str):
        raise TypeError(f"ray must be None or {_HELP}, got {_describe(ray)}")
    address = ray.strip()
    if not address:
        raise ValueError(f"ray must be {_HELP}, got an empty string")
    if address not in ("local", "auto") and _host_port(address) is None:
        raise ValueError(f"ray must be {_HELP} (host:port or ray://host:port), got {address!r}")
    return address


def _host_port(address: str) -> Optional[Tuple[str, int]]:
    """``(host, port)`` of ``host:port`` or ``ray://host:port`` (a port in 1 to 65535), else None."""
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    host = host.strip("[]")  # an IPv6 address in brackets
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        return None
    return host, int(port)


#: Seconds :func:`connect` waits for a cluster address to accept a connection.
REACH_TIMEOUT = 10.0


def _reachable(address: str) -> None:
    """``ConnectionError`` when nothing accepts a connection at ``address``'s host and port
    within :data:`REACH_TIMEOUT`: ``ray.init`` would retry such an address for minutes, deaf
    to Ctrl-C."""
    where = _host_port(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=REACH_TIMEOUT).close()
    except OSError as exc:
        raise ConnectionError(f"no Ray cluster answers at {address} ({exc.strerror or exc})") from None


def connect(address: str) -> Any:
    """The ``ray`` module, connected: this process's connection when ``ray.init`` was already
    called, else ``"local"`` starts a cluster on this machine, ``"auto"`` joins the one running
    here (``ray start --head``) and another address joins that cluster (``ConnectionError`` at
    once when nothing answers there)."""
    ray = import_optional("ray", "rllib", "evaluation on a Ray cluster (ray=... or --ray)")
    if not ray.is_initialized():
        _reachable(address)
        ray.init(address=address, logging_level=logging.WARNING)
    return ray


def deal_ranges(games: int) -> List[Tuple[int, int]]:
    """``(start, count)`` of each task: ``min(games, MAX_TASKS)`` ranges of nearly equal size,
    a function of ``games`` alone."""
    k = min(games, MAX_TASKS)
    bounds = [games * i // k for i in range(k + 1)]
    return [(a, b - a) for a, b in zip(bounds, bounds[1:])]


#: The folder of a worker's temporary directory that holds the weights files of its runs.
FILES_DIR = "eights-agent-files"


def agent_files(agents: Sequence[AgentSpec]) -> Dict[str, Tuple[str, bytes]]:
    """``{path: (sha256, bytes)}`` of each weights file among ``agents`` (their canonical
    absolute paths, as :func:`~eights.arena.run.checked_table` leaves them), read here."""
    files: Dict[str, Tuple[str, bytes]] = {}
    for a in agents:
        if a.bot is not None and is_agent_file(a.bot) and a.bot not in files:
            data = _read(a.bot)
            files[a.bot] = (hashlib.sha256(data).hexdigest(), data)
    return files


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _written(digest: str, data: bytes) -> str:
    """The path of a file holding ``data`` in this machine's temporary directory, named by its
    digest: written when it is missing or differs (to a name of its own, then renamed, so tasks
    side by side never read half a file), else reused."""
    folder = os.path.join(tempfile.gettempdir(), FILES_DIR)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{digest}.safetensors")
    if not (os.path.isfile(path) and _read(path) == data):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise
    return path


def play_shipped(
    agents: Sequence[AgentSpec],
    files: Dict[str, Tuple[str, bytes]],
    preset: Preset,
    seed: int,
    start: int,
    count: int,
    threads: int,
    rules: Optional[Dict[str, Any]],
    batch_size: int,
) -> Dict[str, np.ndarray]:
    """:func:`~eights.arena.run.play_range` on a worker, each weights file of ``files``
    (:func:`agent_files`) first written on this machine and its agents pointed at that copy:
    the games of the driver's file, whether or not its path exists here."""
    local = {path: _written(digest, data) for path, (digest, data) in files.items()}
    agents = [dataclasses.replace(a, bot=local[a.bot]) if a.bot in local else a for a in agents]
    return play_range(agents, preset, seed, start, count, threads, rules, batch_size)


def _task(ray: Any, threads: int) -> Any:
    """The remote range player: one CPU a task (``threads`` CPUs when given)."""
    return ray.remote(num_cpus=max(1, threads))(play_shipped)


def _gather(ray: Any, refs: List[Any], sizes: List[int], progress: Optional[Callable[[int], Any]]) -> List[Any]:
    """The tasks' results in their order, reporting each finished task's games to
    ``progress``; a failed task raises its own exception, and any exception (Ctrl-C included)
    cancels the tasks still running."""
    index = {ref: i for i, ref in enumerate(refs)}
    out: List[Any] = [None] * len(refs)
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=len(pending), timeout=_POLL)
            for ref in done:
                i = index[ref]
                try:
                    out[i] = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    raise (cause if isinstance(cause, Exception) else exc) from None
                if progress is not None:
                    progress(sizes[i])
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return out


def play(
    table: Sequence[AgentLike],
    address: str,
    preset: Preset = "crazy_eights",
    games: int = 100,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    progress: Any = None,
) -> Dict[str, np.ndarray]:
    """:func:`eights.arena.play` on the Ray cluster at ``address`` (see :func:`connect`): the
    same arrays, equal for the same seed but for the timing entries (``agent_seconds``,
    ``agent_max_seconds``). Each task plays a range of deals with ``threads`` threads (0: one)
    on one CPU each (``threads`` CPUs when given). Python agents are sent to the workers
    pickled (cloudpickle): a policy defined in a module needs that module on every worker. A
    weights file is sent as its bytes (see the module documentation).

    Raises:
        ImportError: Ray is not installed (the ``rllib`` extra).
        TypeError: an agent that cannot be pickled, and the arguments :func:`eights.arena.play`
            refuses.
    """
    preset = resolve_preset(preset)
    agents, n, games, seed, threads, batch_size = checked_table(table, preset, games, seed, threads, rules, batch_size)
    progress = check_progress(progress)  # before the cluster is joined, not after its first task
    ray = connect(address)
    try:
        shipped = ray.put(agents)
    except Exception as exc:
        raise TypeError(f"ray: the agents must be picklable to be sent to the workers ({exc})") from None
    files = ray.put(agent_files(agents))
    remote = _task(ray, threads)
    ranges = deal_ranges(games)
    refs = [remote.remote(shipped, files, preset, seed, a, c, threads or 1, rules, batch_size) for a, c in ranges]
    parts = _gather(ray, refs, [c * n for _, c in ranges], progress)
    return concat(parts, n)
