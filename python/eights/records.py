"""Records of finished games: saving them from the envs, and reading them back.

This module owns :class:`EpisodeRecorder` (the ``record_dir`` option of the Gymnasium and
PettingZoo envs and of the arena: one JSON file per finished game, ``episode_<k>.json``,
holding ``game.record()``), :func:`load_record` and :func:`replay_states`, which steps a
record through a fresh game and yields every state.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple, Union

from ._utils.checks import describe, shown_path, unusable_path

__all__ = ["EpisodeRecorder", "load_record", "replay_states"]

#: The largest file :func:`load_record` reads: a record of a game at the default cap of 5,000
#: decisions is under 100 KB, so a larger file is not a record (``/dev/zero`` would otherwise
#: be read until memory runs out).
MAX_RECORD_BYTES = 64 << 20


class EpisodeRecorder:
    """Writes ``game.record()`` of each finished game to ``<directory>/episode_<k>.json``
    (``k`` counts from 0, continuing after the files already there)."""

    def __init__(self, directory: Union[str, os.PathLike[str]], name: str = "directory") -> None:
        if not isinstance(directory, (str, os.PathLike)):
            raise TypeError(f"{name} must be a directory path, got {type(directory).__name__}")
        self.directory = os.fspath(directory)
        if not isinstance(self.directory, str) or unusable_path(self.directory):  # bytes, a NUL, a lone surrogate
            raise ValueError(
                f"{name} must be a folder's path (valid text without NUL), got {shown_path(self.directory)}"
            )
        if os.path.exists(self.directory) and not os.path.isdir(self.directory):
            raise ValueError(f"{name} {self.directory!r} is a file, not a folder")
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"{name} {self.directory!r}: cannot create the folder ({exc.strerror or exc})") from None
        taken = [f for f in os.listdir(self.directory) if f.startswith("episode_") and f.endswith(".json")]
        # ASCII digits only: "²".isdigit() holds, and int("²") fails (a file episode_².json).
        numbers = [int(f[8:-5]) for f in taken if f[8:-5].isascii() and f[8:-5].isdigit()]
        self.count = max(numbers) + 1 if numbers else 0

    @classmethod
    def from_arg(cls, directory: Any, name: str) -> Optional[EpisodeRecorder]:
        """``None`` for ``None``; a recorder for a path; ``TypeError`` naming ``name`` otherwise."""
        if directory is None:
            return None
        if not isinstance(directory, (str, os.PathLike)):
            raise TypeError(f"{name} must be a directory path or None, got {type(directory).__name__}")
        return cls(directory, name)

    def save(self, game: Any, extra: Optional[Mapping[str, Any]] = None) -> str:
        """Write the record of ``game`` (an :class:`eights.Game`) plus the fields of ``extra``
        (a dict of JSON values under names the record does not use); returns the file's path.

        The record is made into JSON before the file is opened, and written to a temporary
        file renamed into place, so a refused call writes nothing and leaves the count as it
        was: ``TypeError`` for a ``game`` that is not a Game, an ``extra`` that is not a dict
        or holds what JSON cannot write; ``ValueError`` for a field of ``extra`` the record
        has itself (``actions``, ``rules``, ...: ``load_record`` refused the file after) or
        for NaN or an infinity in it (not JSON)."""
        from ._core import Game

        if not isinstance(game, Game):
            raise TypeError(f"game must be an eights.Game (whose record is saved), got {describe(game)}")
        if extra is not None and not isinstance(extra, Mapping):
            raise TypeError(
                f"extra must be a dict of further fields (name -> JSON value) or None, got {describe(extra)}"
            )
        record = game.record()
        for key in extra or ():
            if not isinstance(key, str):
                raise TypeError(f"extra's field names must be str, got {describe(key)}")
        clash = [key for key in extra or () if key in record]
        if clash:
            raise ValueError(
                f"extra cannot set the record's own fields: {', '.join(map(repr, clash))} (a record's fields are "
                f"{', '.join(record)}; give extra fields other names)"
            )
        record.update(extra or {})
        try:
            text = json.dumps(record, allow_nan=False)
        except TypeError as exc:  # "Object of type object is not JSON serializable"
            raise TypeError(
                f"extra must hold JSON values (str, numbers, True/False, None, lists and dicts of them): {exc}"
            ) from None
        except ValueError as exc:
            if "Out of range float" in str(exc):
                raise ValueError(
                    "extra holds NaN or an infinity, which JSON cannot write (a record is valid JSON): "
                    "give a finite number or None"
                ) from None
            raise ValueError(f"extra cannot be written as JSON: {exc}") from None
        except RecursionError:
            raise ValueError("extra cannot be written as JSON: it is nested too deeply") from None
        path = os.path.join(self.directory, f"episode_{self.count}.json")
        # A hidden name the count skips, created as the record was (the same permissions).
        temporary = os.path.join(self.directory, f".episode_{self.count}.json.tmp")
        try:
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(temporary, path)
        except BaseException:  # a full disk, Ctrl-C: no half-written record is left
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self.count += 1
        return path


def load_record(source: Union[str, os.PathLike[str], Dict[str, Any]]) -> Dict[str, Any]:
    """A record from a dict (returned as is) or a JSON file written by :class:`EpisodeRecorder`;
    ``ValueError`` for a dict or file that is not a record (no ``actions``)."""
    if isinstance(source, dict):
        if "actions" not in source:
            raise ValueError("invalid game record: 'actions' is missing (a list of [seat, action id] pairs)")
        return source
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"record must be a dict or a path to a JSON file, got {type(source).__name__}")
    name = os.fspath(source)
    why = unusable_path(name)
    if why:
        raise ValueError(f"{shown_path(name)} is not a game record: {why}")
    try:
        record = _read_json_object(name)
    except FileNotFoundError:
        raise FileNotFoundError(f"no such record file: {shown_path(name)}") from None
    except (IsADirectoryError, PermissionError):
        raise
    except OSError as exc:  # a name too long, an unreadable device: Python's errno text otherwise
        raise ValueError(f"{shown_path(name)} is not a game record: cannot read it: {exc.strerror or exc}") from None
    if not isinstance(record, dict) or "actions" not in record:
        raise ValueError(f"{name!r} does not hold a game record (a JSON object with 'actions')")
    if not isinstance(record["actions"], list):  # `replay` took its length first (a traceback)
        raise ValueError(f"{name!r} is not a game record: 'actions' must be a list of [seat, action id] pairs")
    return record


def _read_json_object(name: Union[str, bytes]) -> Any:
    """The JSON in file ``name``, refused with a ``ValueError`` naming the file, before it is
    read whole, when it is not a regular file, is larger than :data:`MAX_RECORD_BYTES` or does
    not start with ``{`` (a record is a JSON object)."""

    def refuse(why: str) -> ValueError:
        return ValueError(f"{name!r} is not a game record: {why}")

    # stat before open: opening a FIFO would wait for a writer.
    if not stat.S_ISREG(os.stat(name).st_mode):
        raise refuse("not a regular file")
    with open(name, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_RECORD_BYTES:
            raise refuse(f"{size:,} bytes, more than the {MAX_RECORD_BYTES:,} a record may have")
        head = f.read(64)
        head = head[3:].lstrip() if head.startswith(b"\xef\xbb\xbf") else head.lstrip()  # a BOM (Notepad)
        if not head.startswith(b"{"):
            raise refuse(f"a record is a JSON object, and the file starts with {head[:16]!r}")
        data = head + f.read(MAX_RECORD_BYTES)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise refuse(f"not JSON ({exc})") from None
    except ValueError as exc:  # a number past Python's 4,300 digits
        raise refuse(f"not a record's JSON ({exc})") from None
    except RecursionError:  # brackets nested deeper than Python's decoder recurses
        raise refuse("its JSON is nested too deeply (a record nests a few levels)") from None


def replay_states(record: Dict[str, Any]) -> Iterator[Tuple[int, Optional[Tuple[int, int]], Any]]:
    """Yield ``(k, (seat, action) or None, game)`` for the dealt state (``k = 0``, no action)
    and after each of the record's actions; ``game`` is the same object, stepped on. The
    whole record is replayed first, so a record that does not replay raises ``ValueError``
    (naming the action) before anything is yielded."""
    from ._core import Game

    Game.from_record(record)  # every action legal and taken by the recorded seat
    game = Game.from_record(record, upto=0)
    yield 0, None, game
    for k, (seat, action) in enumerate(record["actions"], 1):
        game.step(int(action))
        yield k, (int(seat), int(action)), game
