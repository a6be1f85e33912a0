"""Reading rules TOML safely, writing it, and telling a rules file's path from a preset name:
the text is scanned for keys too deep before the TOML parser sees it (the parser is quadratic
in a key's parts), and the parsed table for nesting too deep (:mod:`eights._utils.overrides`);
a path ``to_toml`` cannot write is an error naming it."""

from __future__ import annotations

import difflib
import os
import re
import sys
from typing import Any, Dict

from .._core import RulesError
from .._core import presets as _presets
from .._utils.checks import shown_path
from .._utils.outputs import file_problem
from .._utils.overrides import MAX_RULES_DEPTH, check_depth

__all__ = ["PRESET_HELP", "is_rules_path", "load_toml_text", "preset_guess"]

#: What a ``preset`` argument may be, for error messages.
PRESET_HELP = "a preset name (str), a path to a .toml file or an eights.Rules"


def preset_guess(name: str) -> str:
    """``" (did you mean NAME?)"`` for a preset's name close to ``name``, else ``""``: the one
    guess every unknown-preset message makes. A file ``NAME.toml`` in the working directory
    comes first: ``--preset house`` beside ``house.toml`` meant the file."""
    if name and is_rules_path(f"{name}.toml") and os.path.isfile(f"{name}.toml"):
        return f" (did you mean the file {name}.toml?)"
    close = difflib.get_close_matches(name, _presets(), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def is_rules_path(text: str) -> bool:
    """Whether the string ``text`` names a rules file rather than a preset: it ends in
    ``.toml`` or holds a path separator."""
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return text.rstrip().lower().endswith(".toml") or any(s in text for s in seps)


#: The characters the scan of :func:`_check_key_parts` stops at: strings, comments, dots and
#: what ends a key (everything else is skipped in C).
_KEY_SCAN = re.compile(r"""[#"'.=,\n]""")


def _check_key_parts(text: str, where: str) -> None:
    """Refuse a dotted key or table header of more than :data:`MAX_RULES_DEPTH` parts before
    the TOML parser sees it: the parser builds the tables of such a key in quadratic time
    (``a.a.a...= 1`` of 60,000 parts, 120 KB, took 37 s to refuse as too deep; one 64 KB
    request held the web server 10 s). A linear scan over the text outside strings and
    comments, counting the dots between two ``=``, ``,`` or line ends (a float value holds
    one)."""
    dots, i, n = 0, 0, len(text)
    while True:
        m = _KEY_SCAN.search(text, i)
        if m is None:
            return
        c, i = m.group(), m.end()
        if c == ".":
            dots += 1
            if dots > MAX_RULES_DEPTH:
                raise RulesError(
                    f"invalid rules in {where}: a key with more than {MAX_RULES_DEPTH} dotted parts "
                    f"(the limit is {MAX_RULES_DEPTH} levels)"
                )
        elif c in "=,\n":
            dots = 0
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        else:  # a string: skip to its end (a bad one is the parser's to report)
            triple = text.startswith(c * 2, i)
            if triple:
                end = text.find(c * 3, i + 2)
                i = n if end < 0 else end + 3
            else:
                j = i
                while True:
                    end = text.find(c, j)
                    if end < 0 or "\n" in text[j:end]:
                        i = n if end < 0 else end + 1
                        break
                    if c == '"' and (len(text[j:end]) - len(text[j:end].rstrip("\\"))) % 2:
                        j = end + 1  # an escaped quote
                        continue
                    i = end + 1
                    break


def load_toml_text(text: str, where: str) -> Dict[str, Any]:
    _check_key_parts(text, where)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python < 3.11 only
        import tomli as tomllib
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"invalid TOML in {where}: {e}") from None
    except RecursionError:
        raise RulesError(
            f"invalid rules in {where}: tables or arrays nested too deeply (the limit is {MAX_RULES_DEPTH} levels)"
        ) from None
    check_depth(table, where)
    return table


def drop_none(value: Any) -> Any:
    """Remove ``None`` entries (TOML has no null: an absent key means "not set")."""
    if isinstance(value, dict):
        return {k: drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_none(v) for v in value if v is not None]
    return value


def with_preset_guess(exc: ValueError) -> ValueError:
    """``exc`` with ``(did you mean NAME?)`` after an unknown preset's name close to a preset's."""
    found = re.match(r'unknown preset "([^"]*)";', str(exc))
    guess = preset_guess(found.group(1)) if found else ""
    return type(exc)(str(exc).replace(";", f"{guess};", 1)) if guess else exc


def write_toml(path: str, text: str) -> None:
    """Write ``text`` at ``path`` (``to_toml``): an ``OSError`` of Python's kind naming the argument,
    worded as the commands word a bad output (``is a folder, not a file``), not ``[Errno 21]``."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        why = file_problem(path) or exc.strerror or str(exc)
        raise type(exc)(f"to_toml cannot write the rules to path {shown_path(path)}: {why}") from None
