"""Game records in the browser: :class:`Replay` (a record checked by replaying it through
the engine, and any of its positions as JSON), the records folder the server may read
(:func:`list_records`, :func:`record_path`: a path that leaves the folder is refused), and
the reading of an uploaded record (:func:`record_from`)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from typing import Any, Dict, List, Optional

import numpy as np

from .._core import Game
from .._utils.checks import as_int, describe
from .._utils.overrides import check_depth
from ..render import action_text
from ..rules import Rules
from ..rules.changes import titled
from .config import MAX_RECORD_BYTES, MAX_TABLE_DECISIONS
from .errors import bad_request, forbidden, not_found, too_large
from .views import position_view, pretty

__all__ = ["Replay", "list_records", "read_record_file", "record_from", "record_path"]

#: At most this many files are listed from the records folder (the newest first).
MAX_LISTED = 500


class Replay:
    """A game record opened for replay (checked: every action replays legally).

    Args:
        record: what ``Game.record()`` returns (also from ``EightsEnv``'s ``record_dir`` or
            the arena's ``record_dir``).
        source: where it came from, for the page's title (a file's path, or "upload").
    """

    def __init__(self, record: Dict[str, Any], source: str) -> None:
        record = _kept(record)
        actions = record.get("actions")
        if isinstance(actions, list) and len(actions) > MAX_TABLE_DECISIONS:
            # Checked before the record is replayed: 260,000 legal actions took 5 s to check.
            raise too_large(
                f"the record has {len(actions):,} actions; a replay on this server has at most {MAX_TABLE_DECISIONS:,}"
            )
        try:
            check_depth(record, "record")
            final = Game.from_record(record)
        except (ValueError, TypeError, OverflowError, KeyError) as exc:
            raise bad_request(f"not a game record that replays: {exc}") from None
        self.id = hashlib.sha256(json.dumps(record, sort_keys=True).encode("utf-8")).hexdigest()[:24]
        # The actions as a (steps, 2) array of (seat, action): 8 bytes each, where the JSON's
        # lists of Python ints and a text per action held about 200 (a 2 MB upload, 50 MB).
        self._actions = np.asarray(record.pop("actions"), dtype=np.int32).reshape(-1, 2)
        self._final = final
        self.record = record  # without its actions
        self.source = source
        self.steps = len(self._actions)
        self.n = final.num_players
        self.names = _names(record, self.n)
        self.title = _title(record)
        self.touched = time.monotonic()

    def summary(self) -> Dict[str, Any]:
        record = self.record
        return {
            "id": self.id,
            "source": self.source,
            "steps": self.steps,
            "players": self.n,
            "names": self.names,
            "rules": {"name": record.get("rules", {}).get("name") or record.get("preset"), "title": self.title},
            "seed": None if record.get("seed") is None else str(record.get("seed")),
        }

    def position(self, step: Any, viewer: Any = None) -> Dict[str, Any]:
        """The position after ``step`` actions (0: the deal), every hand shown unless
        ``viewer`` names a seat; 400 for a step or seat out of range."""
        step = _index(step, "step", self.steps)
        view_seat = None if viewer in (None, "", "all") else _index(viewer, "viewer", self.n - 1)
        game = Game.from_record(dict(self.record, actions=self._actions[:step].tolist()), upto=step)
        first = max(0, step - 12)
        history = [
            {"seat": int(seat), "action": int(a), "text": pretty(action_text(self._final, int(a))), "decision": k + 1}
            for k, (seat, a) in enumerate(self._actions[first:step].tolist(), start=first)
        ]
        view = position_view(game, self.names, view_seat, history)
        view.update(step=step, steps=self.steps, viewer=view_seat, last=history[-1] if history else None)
        self.touched = time.monotonic()
        return view


def _index(value: Any, name: str, high: int) -> int:
    # ASCII digits only: "²".isdigit() holds, and int("²") failed naming no parameter.
    digits = isinstance(value, str) and value.strip().lstrip("-").isascii() and value.strip().lstrip("-").isdigit()
    try:
        return as_int(int(value) if digits else value, name, 0, high)
    except (TypeError, ValueError) as exc:
        raise bad_request(f"{exc}") from None


def _title(record: Dict[str, Any]) -> str:
    """The title of a record's rules as a page shows it: with what changed from the preset
    (:func:`eights.rules.changes.titled`), not the preset's own title over changed rules."""
    rules = record.get("rules")
    if not isinstance(rules, dict):
        rules = {}
    try:
        return titled(Rules.from_dict(rules))
    except (ValueError, TypeError):  # pragma: no cover - the record replayed, so its rules are valid
        return str(rules.get("title") or rules.get("name") or record.get("preset") or "")


#: The fields of a record a replay reads (the game's own, and the seat names the web app and
#: the arena write); an upload's other fields are dropped, not held for its lifetime: 2 MB of
#: padding in an uploaded record held about 50 MB of Python objects, 256 replays at a time.
RECORD_FIELDS = ("format", "preset", "players", "rules", "seed", "deck", "start", "actions")


def _kept(record: Dict[str, Any]) -> Dict[str, Any]:
    """``record`` with only what a replay reads: :data:`RECORD_FIELDS`, the web app's seat
    ``names`` and the arena's ``agents``."""
    kept = {k: record[k] for k in RECORD_FIELDS if k in record}
    web, arena = record.get("web"), record.get("arena")
    if isinstance(web, dict) and "names" in web:
        kept["web"] = {"names": web["names"]}
    if isinstance(arena, dict) and "agents" in arena:
        kept["arena"] = {"agents": arena["agents"]}
    return kept


def _names(record: Dict[str, Any], n: int) -> List[str]:
    """Seat names: the web app's, or ``P<k> · <agent>`` from an arena record, or ``P<k>``."""
    web = record.get("web")
    if isinstance(web, dict) and isinstance(web.get("names"), list) and len(web["names"]) == n:
        return [str(name)[:40] for name in web["names"]]
    arena = record.get("arena")
    if isinstance(arena, dict) and isinstance(arena.get("agents"), list) and len(arena["agents"]) == n:
        return [f"P{p} · {str(agent)[:32]}" for p, agent in enumerate(arena["agents"])]
    return [f"P{p}" for p in range(n)]


def record_from(value: Any) -> Dict[str, Any]:
    """An uploaded record: a JSON object with ``actions``; 400 otherwise."""
    if not isinstance(value, dict) or "actions" not in value:
        raise bad_request(
            f"a game record is a JSON object with 'actions' (what Game.record() returns), got {describe(value)}"
        )
    return value


def record_path(root: Optional[str], relative: Any) -> str:
    """The real path of ``relative`` inside the records folder ``root``: 404 when the server
    has no records folder or the file does not exist, 403 when the path leaves the folder
    (``..``, an absolute path, a link pointing out), 400 when it is not a ``.json`` file."""
    if root is None:
        raise not_found("this server has no records folder (start it with --records DIR)")
    if not isinstance(relative, str) or not relative.strip():
        raise bad_request(f"'path' must be the path of a record inside the records folder, got {describe(relative)}")
    if "\x00" in relative:
        raise bad_request("'path' must not contain a NUL character")
    path = os.path.realpath(os.path.join(root, relative))
    if os.path.commonpath([root, path]) != root:
        raise forbidden(f"{relative!r} is outside the records folder")
    if not path.endswith(".json"):
        raise bad_request(f"{relative!r} is not a .json record")
    if not os.path.isfile(path):
        raise not_found(f"no record {relative!r} in the records folder")
    return path


def read_record_file(path: str, relative: str) -> Dict[str, Any]:
    """The record in a file of the records folder (413 over the size limit, 400 when it is
    not a JSON record)."""
    size = os.path.getsize(path)
    if size > MAX_RECORD_BYTES:
        raise too_large(f"{relative!r} is {size} bytes; the limit is {MAX_RECORD_BYTES} bytes")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise bad_request(f"cannot read {relative!r} as JSON: {exc}") from None
    except RecursionError:
        raise bad_request(f"cannot read {relative!r} as JSON: nested too deeply") from None
    return record_from(data)


def list_records(root: Optional[str]) -> List[Dict[str, Any]]:
    """The ``*.json`` files under the records folder (the newest first, at most
    :data:`MAX_LISTED`), as ``{"path": relative path, "size", "mtime"}``."""
    if root is None:
        return []
    found: List[Dict[str, Any]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            real = os.path.realpath(path)
            if os.path.commonpath([root, real]) != root or not os.path.isfile(real):
                continue
            stat = os.stat(real)
            found.append(
                {"path": os.path.relpath(path, root).replace(os.sep, "/"), "size": stat.st_size, "mtime": stat.st_mtime}
            )
    found.sort(key=lambda f: (-f["mtime"], f["path"]))
    return found[:MAX_LISTED]
