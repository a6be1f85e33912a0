"""What several commands share on their command line: the argparse types of integers in a
range, seeds and seconds, the comma-separated lists (of bots, presets), and the rules
options (``--preset`` and ``--rules``)."""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Optional

_U64_MAX = 2**64 - 1


def _int_in(text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be in [{low}, {high}], got {value}")
    return value


def non_negative(text: str) -> int:
    return _int_in(text, 0, _U64_MAX)


def positive(text: str) -> int:
    return _int_in(text, 1, _U64_MAX)


def players(text: str) -> int:
    return _int_in(text, 2, 10)


def threads(text: str) -> int:
    return _int_in(text, 0, 1024)


def soak_count(text: str) -> int:
    return _int_in(text, 0, 2**63 - 1)


def soak_every(text: str) -> int:
    return _int_in(text, 1, 2**32 - 1)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 <= value < 10**7:
        raise argparse.ArgumentTypeError(f"must be in [0, 1e7), got {text}")
    return value


def names(text: Optional[str]) -> List[str]:
    """The non-empty items of a comma-separated list."""
    return [item.strip() for item in (text or "").split(",") if item.strip()]


def parse_rules(text: Optional[str]) -> Optional[Dict[str, Any]]:
    if text is None:
        return None
    try:
        rules = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"error: --rules must be a JSON object: {exc}") from None
    if not isinstance(rules, dict):
        raise SystemExit("error: --rules must be a JSON object, e.g. '{\"deal\": {\"hand_size\": 4}}'")
    return rules
