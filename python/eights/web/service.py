"""The state of one running web app, :class:`Service`: its settings, the policies it
offers, the tables and replays it holds (:class:`~eights.web.store.Store`, with expiry),
the thread limiter of the thinking bots, and the answers of the routes that read or create
them (the routes themselves are in :mod:`eights.web.app`)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

import anyio

from .. import __version__
from .._core import BOT_NAMES_HELP, check_bot_rules, presets
from ..render import card_svg
from ..rules import Rules
from .config import MAX_BODY_BYTES, MAX_MESSAGE_BYTES, MAX_RECORD_BYTES, MAX_RULES_BYTES, ServerConfig, load_policies
from .errors import bad_request
from .replays import Replay, list_records, read_record_file, record_from, record_path
from .requests import agents_from, players_from, rules_from, seat_from, seed_from, text_field
from .store import Store, new_id
from .tables import Participant, Table
from .views import rules_view

__all__ = ["STATIC", "Service"]

#: The page, its script and its style (package data, shipped in the wheel).
STATIC = Path(__file__).resolve().parent / "static"

#: The bots the setup page offers in its menus (any other name ``parse_bot`` takes is typed).
OFFERED_BOTS = ["heuristic", "random", "ismcts:200", "ismcts:1000", "ismcts:5000", "ismcts_net:1000", "pimc:100", "net"]

#: Every card string (the engine's) and the back, drawn by :func:`eights.render.card_svg`.
CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"] + ["RJ", "BJ"]

#: How many replays the server holds at once (they are small and expire like games).
MAX_REPLAYS = 256


def _bot_names(agents: Dict[int, Any]) -> Dict[int, str]:
    """Each bot seat's name: its agent's label, numbered when the label repeats."""
    names: Dict[int, str] = {}
    seen: Dict[str, int] = {}
    for seat, agent in sorted(agents.items()):
        seen[agent.label] = seen.get(agent.label, 0) + 1
        names[seat] = agent.label if seen[agent.label] == 1 else f"{agent.label} {seen[agent.label]}"
    return names


class Service:
    """What one app holds (see the module's docstring)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.policies = load_policies(config.policies)
        self.tables: Store[Table] = Store("game", config.max_games, config.idle_timeout, busy=_busy)
        self.replays: Store[Replay] = Store("replay", MAX_REPLAYS, config.idle_timeout)
        self.cards = {"cards": {card: card_svg(card) for card in CARDS}, "back": card_svg(None, face_up=False)}
        self._limiter: Optional[anyio.CapacityLimiter] = None
        #: Set when the server stops: the bots' searches end at once (see :meth:`Table.bot_action`).
        self.stopping = threading.Event()
        self._presets: Optional[List[Dict[str, Any]]] = None

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        """The threads the thinking bots may use at once (made in the event loop)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.config.think_threads)
        return self._limiter

    # ------------------------------------------------------------- reading

    def meta(self) -> Dict[str, Any]:
        if self._presets is None:
            self._presets = [_preset_row(name) for name in presets()]
        return {
            "version": __version__,
            "presets": self._presets,
            "bots": OFFERED_BOTS,
            "bot_help": BOT_NAMES_HELP,
            "policies": list(self.policies),
            "records": self.config.records_dir is not None,
            "limits": {
                "rules_bytes": MAX_RULES_BYTES,
                "record_bytes": MAX_RECORD_BYTES,
                "body_bytes": MAX_BODY_BYTES,
                "message_bytes": MAX_MESSAGE_BYTES,
                "idle_timeout": self.config.idle_timeout,
                "max_games": self.config.max_games,
            },
        }

    def rules(self, body: Dict[str, Any]) -> Dict[str, Any]:
        return rules_view(rules_from(body))

    def table(self, request: Any) -> Table:
        return self.tables.get(request.path_params["game_id"])

    def records(self) -> Dict[str, Any]:
        root = self.config.records_dir
        return {"enabled": root is not None, "records": list_records(root)}

    def health(self) -> Dict[str, Any]:
        return {"ok": True, "games": len(self.tables), "replays": len(self.replays), "rss_bytes": rss_bytes()}

    # ------------------------------------------------------------- creating

    def create_table(self, body: Dict[str, Any]) -> Table:
        """A new table from a setup request (see :mod:`eights.web.requests` for the fields)."""
        mode = text_field(body, "mode", "play")
        if mode not in ("play", "watch"):
            raise bad_request(f"'mode' must be 'play' or 'watch', got {mode!r}")
        rules = rules_from(body)
        n = players_from(body, rules)
        seed = seed_from(body)
        seat = seat_from(body, n) if mode == "play" else None
        bot_seats = [s for s in range(n) if s != seat]
        agents = agents_from(body, rules, n, bot_seats, self.policies, self.config.max_search)
        names = _bot_names(agents)
        participants = [Participant("You") if s == seat else Participant(names[s], agents[s]) for s in range(n)]
        table_id = new_id()
        return self.tables.add(table_id, Table(table_id, mode, rules, n, participants, seed, self.stopping))

    def load_replay(self, body: Dict[str, Any]) -> Replay:
        """A replay of ``body["path"]`` (a file of the records folder) or ``body["record"]``
        (an uploaded record), read and checked but not yet held: it reads a file and plays the
        game through, so the app calls it on a worker thread, and :meth:`open_replay` (on the
        event loop, where the store is only ever changed) holds it."""
        if ("path" in body) == ("record" in body):
            raise bad_request("give 'path' (a file of the records folder) or 'record' (a game record), one of them")
        if "path" in body:
            path = record_path(self.config.records_dir, body["path"])
            return Replay(read_record_file(path, body["path"]), body["path"])
        return Replay(record_from(body["record"]), "upload")

    def open_replay(self, replay: Replay) -> Dict[str, Any]:
        """Hold ``replay`` (from :meth:`load_replay`); its summary, with the id to ask positions of."""
        return self.replays.add(replay.id, replay).summary()

    async def expire_forever(self) -> None:
        """Drop idle tables and replays every few seconds (the app's background task): a
        quarter of the idle timeout, between 0.05 and 10 seconds (a timeout of a nanosecond
        would otherwise spin the event loop)."""
        interval = max(0.05, min(10.0, self.config.idle_timeout / 4))
        while True:
            await anyio.sleep(interval)
            self.tables.expire()
            self.replays.expire()


def _preset_row(name: str) -> Dict[str, Any]:
    """A preset as the setup page lists it (``net``: whether the learned bot plays it; it plays every preset)."""
    rules = Rules(name)
    return {
        "name": name,
        "title": rules.title,
        "players": {"min": rules.players.start, "max": rules.players.stop - 1},
        "variants": rules.variants,
        "net": _net_plays(rules),
    }


def _busy(table: Table) -> bool:
    return table.lock.locked()


def _net_plays(rules: Rules) -> bool:
    try:
        check_bot_rules("net", rules, max(2, rules.players.start))
    except ValueError:
        return False
    return True


def rss_bytes() -> Optional[int]:
    """The process's resident memory in bytes (Linux: /proc/self/statm), or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")
