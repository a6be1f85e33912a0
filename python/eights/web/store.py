"""Where the app keeps its tables and opened replays: :class:`Store` holds them by id,
drops those nobody touched for ``idle_timeout`` seconds (:meth:`Store.expire`, run by the
app every few seconds), and bounds how many it holds (the least recently used idle one
gives way to a new one; with none idle, a new one is refused with 429)."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import Any, Callable, Generic, Iterator, Optional, TypeVar

from .errors import not_found, too_many

__all__ = ["Store", "new_id"]

T = TypeVar("T")

#: A table or replay untouched for less than this many seconds is never dropped to make room.
MIN_IDLE_EVICTED = 60.0


def new_id() -> str:
    """An unguessable id (128 random bits, URL-safe): knowing it is what lets a browser act
    at a table."""
    return secrets.token_urlsafe(16)


class Store(Generic[T]):
    """Items (tables, replays) by id, the least recently used first.

    Args:
        kind: what the items are, for messages ("game", "replay").
        capacity: how many it holds at most.
        idle_timeout: seconds after which an untouched item is dropped.
        busy: tells whether an item is in use (a bot thinking at a table): a busy item is
            neither dropped nor evicted.
    """

    def __init__(
        self, kind: str, capacity: int, idle_timeout: float, busy: Optional[Callable[[T], bool]] = None
    ) -> None:
        self.kind = kind
        self.capacity = capacity
        self.idle_timeout = idle_timeout
        self.busy = busy or (lambda item: False)
        self._items: OrderedDict[str, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items.values()))

    def get(self, item_id: str) -> T:
        """The item, marked as just used; 404 when it is unknown or has expired."""
        item = self._items.get(item_id) if isinstance(item_id, str) else None
        if item is None:
            raise not_found(
                f"no {self.kind} {item_id[:40]!r} on this server (unknown, or dropped after "
                f"{self.idle_timeout:g} s without a move)"
            )
        self._items.move_to_end(item_id)
        _touch(item)
        return item

    def add(self, item_id: str, item: T) -> T:
        """Add (or refresh) an item; makes room by dropping the least recently used idle
        item, or raises 429 when every item is in use."""
        if item_id in self._items:
            self._items.move_to_end(item_id)
            return self._items[item_id]
        if len(self._items) >= self.capacity:
            self.expire()
        if len(self._items) >= self.capacity:
            now = time.monotonic()
            victim = next(
                (k for k, v in self._items.items() if not self.busy(v) and now - _touched(v) >= MIN_IDLE_EVICTED), None
            )
            if victim is None:
                raise too_many(
                    f"the server holds {self.capacity} {self.kind}s, all in use; try again later "
                    f"(an idle one is dropped after {self.idle_timeout:g} s)"
                )
            del self._items[victim]
        _touch(item)
        self._items[item_id] = item
        return item

    def discard(self, item_id: str) -> bool:
        """Drop an item; True if it was there."""
        return self._items.pop(item_id, None) is not None

    def expire(self, now: Optional[float] = None) -> int:
        """Drop every item untouched for ``idle_timeout`` seconds and not busy; returns how
        many were dropped."""
        now = time.monotonic() if now is None else now
        stale = [k for k, v in self._items.items() if now - _touched(v) >= self.idle_timeout and not self.busy(v)]
        for key in stale:
            del self._items[key]
        return len(stale)


def _touch(item: Any) -> None:
    item.touched = time.monotonic()


def _touched(item: Any) -> float:
    return float(item.touched)
