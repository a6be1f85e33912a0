"""Argument checks shared by the environments and the arena: short descriptions of bad
values for error messages, integer and action conversion (``TypeError`` naming the
argument), and the per-seat layout of ``opponents``."""

from __future__ import annotations

import itertools
import json
import numbers
import operator
import os
from typing import Any, Callable, Dict, Iterable, List, Optional

import numpy as np

from .._core import NUM_ACTIONS

#: The most duplicate deals one call plays (the arena, a training run's evaluation, the
#: generalization benchmark, and the command line's ``--games`` and ``--eval-deals``).
MAX_DEALS = 10**9


def describe(value: Any) -> str:
    """Short ``repr`` of a value for error messages."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (type {type(value).__name__})"


#: Control characters a terminal acts on (C0 but tab and newline, DEL, C1): escape
#: sequences in a file's text could clear the screen, set the window title or forge lines.
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)] if c not in (0x09, 0x0A)}


def terminal_safe(text: str) -> str:
    """``text`` with the control characters a terminal would act on written as ``\\xNN``, for
    what the command line prints of a file's or a user's text (error messages, rules in words,
    a record's labels)."""
    return text.translate(_CONTROL)


def quoted(text: str) -> str:
    """``text`` as an error message quotes it (JSON's double quotes and escapes): the first 60
    characters then ``... (N characters)`` when it is longer, so that a huge input is never
    echoed whole (the engine's ``rules::quoted``)."""
    if len(text) <= 60:
        return json.dumps(text)
    return f"{json.dumps(text[:60])}... ({len(text):,} characters)"


def as_int(value: Any, name: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as a Python ``int``: ``TypeError`` naming ``name`` for a bool or a
    non-integer; ``ValueError`` when it is below ``low`` or above ``high`` (both inclusive,
    either may be None).  The one integer check of the package."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {describe(value)}")
    value = int(value)
    if low is not None and value < low:
        if high is None:
            raise ValueError(f"{name} must be >= {low}, got {value}")
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    if high is not None and value > high:
        if low is None:
            raise ValueError(f"{name} must be <= {high}, got {value}")
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def as_real(value: Any, name: str) -> float:
    """``value`` as a finite Python ``float``: ``TypeError`` naming ``name`` for a bool or a
    non-number (a string included); ``ValueError`` for NaN or an infinity."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {describe(value)}")
    try:
        value = float(value)
    except OverflowError:  # an int past the largest float (2**1024)
        raise ValueError(f"{name} must be a finite number, got an integer too large for a float") from None
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    return value


#: The longest budget in minutes anything takes (19 years: a larger one never ends).
MAX_MINUTES = 10**7


def as_minutes(value: Any, name: str, *, none_left: bool = False) -> float:
    """A budget in minutes as a ``float`` in ``(0, 1e7)``, the command line's range
    (``none_left``: ``<= 0`` allowed too, a budget already spent). ``TypeError`` naming
    ``name`` for a non-number; ``ValueError`` for NaN, an infinity or a value out of range
    (``inf`` or ``1e300`` trained for ever, NaN trained nothing)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {describe(value)}")
    try:
        real = float(value)
    except OverflowError:  # an int past the largest float: far out of range either way
        real = float("inf")
    if not (real < MAX_MINUTES and (none_left or real > 0)):
        low = "(-inf" if none_left else "(0"
        raise ValueError(f"{name} must be in {low}, 1e7), got {describe(value)}")
    return real


def as_flag(value: Any, name: str) -> bool:
    """``value`` as a ``bool``; ``TypeError`` naming ``name`` for anything but True/False."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}")
    return bool(value)


def as_action(action: Any, who: str = "action") -> int:
    """Convert ``action`` to a Python ``int`` or raise ``TypeError``.

    Accepts Python ints, numpy integers, integer numpy arrays holding a single
    element (what most RL libraries hand back) and other integer scalars with
    ``__index__`` (a 0-d or one-element integer PyTorch tensor).  Rejects booleans
    (of any library), floats, strings and everything else.
    """
    if type(action) is int:  # the common cases first: a Python or numpy integer
        return action
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray):
        if action.size == 1 and np.issubdtype(action.dtype, np.integer):
            return int(action.reshape(()).item())
        raise TypeError(
            f"{who} must be an integer in [0, {NUM_ACTIONS}), got a numpy array "
            f"of shape {action.shape} and dtype {action.dtype}"
        )
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"{who} must be an integer in [0, {NUM_ACTIONS}), got {describe(action)}")
    if isinstance(action, str):
        raise TypeError(
            f"{who} must be an integer in [0, {NUM_ACTIONS}), got the string "
            f"{action!r}; convert action strings with env.game.string_to_action(...)"
        )
    if "bool" in str(getattr(action, "dtype", "")):  # a boolean tensor would index as 0 or 1
        raise TypeError(f"{who} must be an integer in [0, {NUM_ACTIONS}), got {describe(action)}")
    if isinstance(action, numbers.Integral) or hasattr(action, "__index__"):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise TypeError(f"{who} must be an integer in [0, {NUM_ACTIONS}), got {describe(action)}")


#: The longest list of names (presets) an argument takes, as ``VecEnv`` caps its list of
#: rule sets: there are a few dozen presets (a ``RuleSpace`` may list one more than once,
#: as a weight, within the cap).
MAX_NAMES = 1024


def distinct_names(
    items: Iterable[Any],
    name: str,
    what: str,
    error: Optional[Callable[[str], Exception]] = None,
    repeats: bool = False,
) -> List[str]:
    """``items`` as a list of names (``str``), read one at a time and refused at the first
    name listed twice, or past :data:`MAX_NAMES` entries, before any work is done on them (a
    list of one preset 100,000 times had each copy built). ``TypeError`` naming ``name`` for
    an entry that is not a ``str``; otherwise ``error(why)`` (default: a ``ValueError``
    ``"<name>: <why>"``), ``why`` as ``preset "crazy_eights" is listed twice; list each
    preset once``.  With ``repeats``, a name may be listed more than once (where a repeat
    means something, as a weight); the cap still applies."""
    fail = error or (lambda why: ValueError(f"{name}: {why}"))
    out: List[str] = []
    seen = set()
    for i, item in enumerate(itertools.islice(items, MAX_NAMES + 1)):
        if not isinstance(item, str):
            raise TypeError(f"{name} must be {what} names (str), got {describe(item)} at {name}[{i}]")
        if item in seen and not repeats:
            raise fail(f"{what} {quoted(item)} is listed twice; list each {what} once")
        if i == MAX_NAMES:
            size = f"{len(items):,}" if hasattr(items, "__len__") else "more"  # type: ignore[arg-type]
            raise fail(f"a list of {what} names holds at most {MAX_NAMES:,}, got {size}")
        seen.add(item)
        out.append(item)
    return out


#: The most players at a table (the engine's limit; its own check says the same).
MAX_TABLE = 10


def unusable_path(name: str) -> Optional[str]:
    """Why the text ``name`` cannot name a file, or None: a NUL (os's "embedded null byte"
    named no file), or a lone surrogate the file system cannot encode (a raw
    ``UnicodeEncodeError``)."""
    if "\0" in name:
        return "a path cannot hold a NUL character"
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return "a path cannot hold a lone surrogate (it is not valid text)"
    return None


def as_path(path: Any, name: str) -> str:
    """The argument ``name``, a file's path (a str or ``os.PathLike``), as a str; ``TypeError``
    or ``ValueError`` (see :func:`unusable_path`) naming it."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a file path (a str or os.PathLike), got {describe(path)}")
    text = os.fspath(path)
    why = unusable_path(text) if isinstance(text, str) else "bytes are not a path here"
    if why:
        raise ValueError(f"{name} {shown_path(text)} cannot name a file: {why}")
    return text


def shown_path(name: Any) -> str:
    """A file name as a message quotes it: its ``repr``, shortened past 120 characters (a
    100,000-character "path" is not echoed whole)."""
    text = repr(name)
    return text if len(text) <= 120 else f"{text[:100]}...' ({len(name):,} characters)"


def other_seats(num_players: int, learner_seat: int) -> List[int]:
    """The seats other than ``learner_seat``; ``ValueError`` if it is not a seat, or
    ``num_players`` is not a table size (checked first: a list of 2**31 seats is not built)."""
    if not 2 <= num_players <= MAX_TABLE:
        raise ValueError(f"num_players must be in [2, {MAX_TABLE}], got {num_players}")
    if not 0 <= learner_seat < num_players:
        raise ValueError(
            f"learner_seat must be in [0, {num_players - 1}] for {num_players} players, got {learner_seat}"
        )
    return [seat for seat in range(num_players) if seat != learner_seat]


def opponents_per_seat(
    opponents: Any,
    num_players: int,
    learner_seat: int,
    check: Callable[[Any, int], Any],
) -> Dict[int, Any]:
    """Map every non-learner seat to its opponent: ``opponents`` is a list or tuple with one
    entry per other seat, or one spec for all of them.  ``check(spec, seat)`` validates a
    spec (raising ``TypeError``/``ValueError`` naming the seat) and returns what to keep."""
    seats = other_seats(num_players, learner_seat)
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != len(seats):
            raise ValueError(
                f"opponents must have one entry per other seat: {len(seats)} for "
                f"{num_players} players (seats {seats}), got {len(opponents)}"
            )
        specs = list(opponents)
    else:
        specs = [opponents] * len(seats)
    return {seat: check(spec, seat) for seat, spec in zip(seats, specs)}
