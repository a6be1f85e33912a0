"""What several commands share on their command line: argparse types for integers in a
range and for seeds (built on the package's one integer checker and one seed range), for
seconds and comma-separated lists, and the rule overrides of ``--rules``."""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable, Dict, List, Optional

from .._utils.checks import as_int
from .._utils.seeds import check_seed

#: The largest count the engine takes (its counts are 64-bit unsigned integers).
COUNT_MAX = 2**64 - 1

# The name the checkers below give the value; argparse names the option itself
# ("argument --seed: must be in ...").
_VALUE = "value"


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None


def _checked(check: Callable[[int], int], text: str) -> int:
    """``check(int(text))``, its ValueError as argparse's error without the value's name."""
    try:
        return check(_integer(text))
    except ValueError as exc:
        message = str(exc)
        if message.startswith(_VALUE + " "):
            message = message[len(_VALUE) + 1 :]
        raise argparse.ArgumentTypeError(message) from None


def int_in(low: int, high: int = COUNT_MAX) -> Callable[[str], int]:
    """The argparse type of an integer in ``[low, high]``."""
    return lambda text: _checked(lambda value: as_int(value, _VALUE, low, high), text)


#: Argument types: counts from 0 or 1, player counts, thread counts, seeds.
non_negative = int_in(0)
positive = int_in(1)
players = int_in(2, 10)
threads = int_in(0, 1024)


def seed(text: str) -> int:
    """The argparse type of a seed: an integer in the package's seed range, ``[0, 2**64)``."""
    return _checked(lambda value: check_seed(value, _VALUE), text)


def seconds(text: str) -> float:
    """The argparse type of a duration in seconds, in ``[0, 1e7)``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 <= value < 10**7:
        raise argparse.ArgumentTypeError(f"must be in [0, 1e7), got {text}")
    return value


def names(text: Optional[str]) -> List[str]:
    """The non-empty items of a comma-separated list (of bots, agents or presets)."""
    return [item.strip() for item in (text or "").split(",") if item.strip()]


def parse_rules(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """``--rules``: rule overrides as a JSON object (None when not given)."""
    if text is None:
        return None
    try:
        rules = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"error: --rules must be a JSON object: {exc}") from None
    if not isinstance(rules, dict):
        raise SystemExit("error: --rules must be a JSON object, e.g. '{\"deal\": {\"hand_size\": 4}}'")
    return rules
