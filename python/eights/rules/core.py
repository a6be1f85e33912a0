"""Rule sets as Python objects: :class:`Rules`.

A :class:`Rules` is a complete, validated rules specification of one game of the Crazy
Eights family.  Build it from a preset with overrides, or from a TOML file, and hand it
to :class:`eights.Game` or :func:`eights.make`:

>>> import eights
>>> rules = eights.Rules("crazy_eights", deal__hand_size=8, variants=["multiple_cards"])
>>> print(rules.describe())  # the rules in words
Crazy Eights (crazy_eights)
...
>>> game = eights.Game(rules, num_players=3, seed=0)
>>> env = eights.make(rules, num_players=2, seed=0)

A rule set saved as TOML and read back (``examples/house_rules.toml`` in the repository is
a house-rules file to start from):

>>> text = rules.to_toml("my_rules.toml")  # writes the file and returns its text
>>> eights.Rules.from_toml("my_rules.toml").describe() == rules.describe()
True

A TOML file is either a complete specification or, more usually, ``inherits =
"<preset>"`` plus the settings that differ: that is how a house-rules game is defined
without code.  The keys are those of the presets (``src/rules/presets/*.toml``) and of
``docs/presets.md``; a misspelt key or a bad value raises :class:`eights.RulesError`
naming the field.
"""

from __future__ import annotations

import copy
import json
import os
import pathlib
import stat
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:
    import numpy as np

from .._core import Game as _Game
from .._core import RulesError, describe_rules, is_resolved, resolve_rules, validate_rules
from .._core import encode_rules as _encode_rules
from .._core import presets as _presets
from .._utils.checks import as_flag, as_path, quoted, shown_path, unusable_path
from .._utils.file_kinds import wrong_place
from .._utils.overrides import check_depth, deep_merge, rules_and_overrides, variant_names
from .changes import described, house_table, label
from .rules_html import rules_html
from .toml_text import PRESET_HELP, drop_none, is_rules_path, load_toml_text, with_preset_guess, write_toml
from .variant_tables import check_variant_tables

__all__ = ["Rules"]

PathOrText = Union[str, "os.PathLike[str]"]

#: The most characters :meth:`Rules.from_toml` reads from a file: a complete rule set
#: written out is about 6 KB, so a file this large is not one.
MAX_RULES_FILE_CHARS = 1 << 20


class Rules:
    """A complete rules specification, validated.

    Args:
        preset: name of a built-in preset (see :func:`eights.presets`) whose rules are the
            starting point, the path of a house-rules ``.toml`` file (a string ending in
            ``.toml`` or holding a path separator, or an ``os.PathLike``; read as
            :meth:`from_toml` reads it), or a :class:`Rules` (the overrides go on top).
        rules: nested dict of overrides, e.g. ``{"deal": {"hand_size": 8}}``; keys may be
            dotted paths (``{"deal.hand_size": 8}``).  ``{"variants": [...]}`` applies
            documented variants of the preset.
        **overrides: more overrides as keyword arguments, ``"__"`` standing for ``"."``
            (``deal__hand_size=8``); a keyword whose value is a dict sets a group
            (``deal={"hand_size": 8}``).  Giving one rule twice with different values is a
            ``ValueError``.

    Raises:
        ValueError: an unknown preset, or a rules file :meth:`from_toml` refuses (a missing
            file is a ``FileNotFoundError``); :class:`eights.RulesError` (a ``ValueError``)
            naming the field for a misspelt key, a wrong type or value, an unknown variant,
            or rules the engine cannot play (checked for ``players.min`` players here and
            for the actual player count by :class:`eights.Game`).
        TypeError: ``preset`` is not a string or ``rules`` not a dict.

    A :class:`Rules` is immutable: :meth:`replace` returns a changed copy.
    """

    __slots__ = ("_base", "_overrides", "_spec_cache", "_house")

    def __init__(
        self,
        preset: Union[PathOrText, Rules] = "crazy_eights",
        rules: Optional[Mapping[str, Any]] = None,
        **overrides: Any,
    ) -> None:
        path = os.fspath(preset) if isinstance(preset, os.PathLike) else preset
        is_path = isinstance(path, str) and (isinstance(preset, os.PathLike) or is_rules_path(path))
        if not isinstance(path, str) and not isinstance(preset, Rules):
            raise TypeError(
                f"preset must be {PRESET_HELP}, got {type(preset).__name__}; use Rules.from_dict for a table"
            )
        if rules is not None and not isinstance(rules, Mapping):
            raise TypeError(
                f"rules must be a dict of rule overrides, e.g. {{'deal': {{'hand_size': 8}}}}, "
                f"got {type(rules).__name__}"
            )
        more = rules_and_overrides(rules, overrides)
        if isinstance(preset, Rules):  # the overrides on top, as replace() puts them
            self._init(preset._base, deep_merge(preset._overrides, more), preset)
        elif isinstance(path, str) and is_path:  # a house-rules file: the same
            base = Rules._read_path(path, "preset", PRESET_HELP)
            self._init(base._base, deep_merge(base._overrides, more), base)
        elif isinstance(path, str):
            self._init(path, more)

    @classmethod
    def _read_path(cls, path: str, name: str, allowed: str) -> Rules:
        """The rules of the file at ``path``, given as the argument ``name`` (which may be
        ``allowed``): errors name both, and the file."""
        if not os.path.exists(path):
            raise FileNotFoundError(f"{name}: no such file: {path!r} ({name} must be {allowed})")
        if os.path.isdir(path):
            raise IsADirectoryError(f"{name}: {path!r} is a folder, not a rules file (a .toml file)")
        try:
            return cls.from_toml(pathlib.Path(path))  # a path, never TOML text
        except ValueError as exc:  # invalid TOML (naming the file), or rules naming the field
            if path in str(exc) or type(exc) not in (ValueError, RulesError):
                raise
            raise type(exc)(f"{path}: {exc}") from None

    def _init(
        self, base: Union[str, Dict[str, Any]], overrides: Dict[str, Any], was: Any = None, house: Any = None
    ) -> None:
        """``was``: the rules these change, whose house-rules table (:func:`house_table`) they keep
        under the same name; ``house``: that table itself (a pickle's)."""
        overrides = dict(overrides)
        # `inherits` in a resolved spec only records the parent preset: kept when it names the
        # base (a house-rules file), dropped otherwise. In changes to a preset, another parent
        # is refused by the engine (it would only be recorded).
        if isinstance(base, str) and overrides.get("inherits", base) != base and is_resolved(overrides):
            del overrides["inherits"]
        try:
            spec = resolve_rules(base, overrides or None)
        except ValueError as exc:  # a misspelt preset, in `inherits` or as the name: a guess, as --preset gets
            raise with_preset_guess(exc) from None
        validate_rules(spec, spec["players"]["min"])
        check_variant_tables(base, overrides, spec)
        self._base = base
        self._overrides = overrides
        self._spec_cache: Optional[Dict[str, Any]] = spec
        self._house = house if house is not None else house_table(base, overrides, spec.get("name"), was)

    @classmethod
    def _make(
        cls, base: Union[str, Dict[str, Any]], overrides: Dict[str, Any], was: Any = None, house: Any = None
    ) -> Rules:
        self = cls.__new__(cls)
        self._init(base, overrides, was, house)
        return self

    @classmethod
    def _checked(cls, preset: str, overrides: Dict[str, Any]) -> Rules:
        """Rules that the engine has already resolved and validated (a draw of a
        :class:`eights.RuleSpace`): the specification is resolved when first read."""
        self = cls.__new__(cls)
        self._base = preset
        self._overrides = overrides
        self._spec_cache = None
        # A draw has a name of its own (the preset's and a digest): its label is that name, as a
        # house-rules file's is, and changes made on top of it are listed after it.
        self._house = overrides if overrides.get("name", preset) != preset else None
        return self

    @property
    def _spec(self) -> Dict[str, Any]:
        """The resolved specification (resolved on first use for rules built by the engine)."""
        if self._spec_cache is None:
            self._spec_cache = resolve_rules(self._base, self._overrides or None)
        return self._spec_cache

    # ------------------------------------------------------------- reading

    @classmethod
    def from_dict(cls, table: Mapping[str, Any]) -> Rules:
        """Rules from a table: ``{"inherits": "<preset>", ...changes}``, a specification of
        its own (with its ``name``; every unlisted field takes its default; listed ``variants``
        are applied), or
        a resolved specification as :meth:`to_dict` and ``Game.rules_dict()`` return it
        (every field present: taken as it is, its ``variants`` already applied)."""
        if not isinstance(table, Mapping):
            raise TypeError(f"rules table must be a dict, got {type(table).__name__}")
        check_depth(table)
        table = copy.deepcopy(dict(table))
        inherits = table.get("inherits")
        if inherits is None:
            rules = cls._make(dict(table), {})  # a field's own error first
            if not isinstance(table.get("name"), str) or not table["name"].strip():
                # An empty table, or one without a name, would play under blank defaults.
                raise RulesError(
                    "invalid rules field 'name': a rules table needs inherits = \"<preset>\" (changes to a "
                    "preset of eights.presets()) or a name of its own (a specification of its own), got "
                    f"{'an empty table' if not table else 'neither'}"
                )
            return rules
        elif is_resolved(table):
            # A resolved spec (to_dict(), Game.rules_dict()): complete as it is; its
            # `inherits` only records the parent preset.
            return cls._make(dict(table), {})
        else:
            if not isinstance(inherits, str):
                raise RulesError(
                    f"invalid rules field 'inherits': expected a preset name (one of "
                    f"{', '.join(_presets())}), got {inherits!r}"
                )
            return cls._make(inherits, dict(table))

    @classmethod
    def from_toml(cls, source: PathOrText) -> Rules:
        """Rules from a TOML file (a path) or TOML text.

        The file is either ``inherits = "<preset>"`` plus changes (a house-rules game), or a
        complete specification.  A house-rules file without a ``name`` is named after the file
        (``house.toml`` plays as ``house``, titled "<the preset's title>, house rules").
        Raises ``FileNotFoundError`` naming the path for a missing file (``IsADirectoryError``
        for a folder), ``ValueError`` for invalid TOML or a file that is not UTF-8 text, and
        :class:`eights.RulesError` naming the field for invalid rules.
        """
        if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and "=" not in source):
            path = os.fspath(source)
            why = unusable_path(path)
            if why:
                raise ValueError(f"{shown_path(path)} cannot be a rules file: {why}")
            try:
                # stat before open: opening a FIFO would wait for a writer, a device never ends.
                mode = os.stat(path).st_mode
                if not stat.S_ISDIR(mode) and not stat.S_ISREG(mode):
                    raise ValueError(
                        f"{shown_path(path)} is not a regular file (a device, a pipe?): rules come in a .toml file"
                    )
                with open(path, encoding="utf-8") as f:
                    text = f.read(MAX_RULES_FILE_CHARS + 1)
                if len(text) > MAX_RULES_FILE_CHARS:
                    raise ValueError(
                        f"{shown_path(path)} is over {MAX_RULES_FILE_CHARS:,} characters: not a rules file"
                    )
            except FileNotFoundError:
                # The path and what was expected, not Python's "[Errno 2] No such file or directory".
                raise FileNotFoundError(
                    f"no such file: {shown_path(path)} (Rules.from_toml reads a TOML file or TOML text)"
                ) from None
            except IsADirectoryError:
                raise IsADirectoryError(f"{shown_path(path)} is a folder, not a rules file (a .toml file)") from None
            except UnicodeDecodeError as exc:
                why = f"not UTF-8 at byte {exc.start}{wrong_place(path, 'rules')}"
                raise ValueError(f"{shown_path(path)} is not a TOML text file: {why}") from None
            except PermissionError:
                raise
            except OSError as exc:  # a name too long, a device that fails: not Python's errno text
                raise ValueError(f"{shown_path(path)} cannot be read as a rules file: {exc.strerror or exc}") from None
            where = path
        elif isinstance(source, str):
            text, where = source, "the TOML text"
        else:
            raise TypeError(f"source must be a path or TOML text, got {type(source).__name__}")
        table = load_toml_text(text, where)
        rules = cls.from_dict(table)
        if where != "the TOML text" and rules.preset is not None and "name" not in table:
            # A house-rules file without a name of its own plays under the file's name (as
            # `eights rules --out` writes it), so that results and trained agents tell it
            # from the preset it changes.
            name = os.path.splitext(os.path.basename(where))[0] or rules.name
            title = table.get("title") if isinstance(table.get("title"), str) else f"{rules.title}, house rules"
            rules = rules.replace({"name": name, "title": title})
        return rules

    # ------------------------------------------------------------- writing

    def to_dict(self) -> Dict[str, Any]:
        """The complete resolved specification (every field), as a fresh dict.  It records the rules
        in play, not what they were changed from: a house-rules file changed further is a complete
        specification under the file's name, which :meth:`from_dict` labels by that name alone (a
        pickle keeps the :attr:`label`; ``replace(name=...)`` gives such rules a name of their own)."""
        return copy.deepcopy(self._spec)

    def to_toml(self, path: Optional[PathOrText] = None, full: bool = False) -> str:
        """The rules as TOML text; also written to ``path`` when given (a path that cannot be
        written, a folder say, is an ``OSError`` of Python's kind naming it).

        Rules built on a preset are written as ``inherits = "<preset>"`` plus the
        overrides, unless ``full=True``; rules from a complete specification are written
        in full.  A full file lists every field with its resolved value and has its
        variants already applied (``variants`` is written empty and the applied names go
        into a comment, so that a field deleted by hand cannot apply them a second time).
        Written to ``path``, the first form also gives the rules' ``name`` (a file without
        one is named after the file).
        ``Rules.from_toml`` reads the first form back to equal rules, and a full file to
        rules that play the same: every field as here, but ``variants`` (and so
        ``active_variants``) empty, so they compare equal only when no variant was applied.
        """
        import tomli_w

        full = as_flag(full, "full")
        header = ""
        if isinstance(self._base, str) and not full:
            table: Dict[str, Any] = {"inherits": self._base}
            if path is not None:
                # A file without a name is named after the file (from_toml): the file says its
                # own, so that it reads back to equal rules.
                table["name"] = self.name
            table.update(copy.deepcopy(self._overrides))
            table["inherits"] = self._base
        else:
            table = self.to_dict()
            table.pop("inherits", None)
            applied = table.get("variants") or []
            table["variants"] = []
            if applied:
                header = f"# Complete rules, with these variants applied: {', '.join(applied)}.\n"
        text = header + tomli_w.dumps(drop_none(table))
        if path is not None:
            write_toml(as_path(path, "path"), text)
        return text

    def describe(self) -> str:
        """The rules in words: players and deck, deal, matching, every special card, drawing
        and passing, the last card, scoring, match play, variants and simplifications. Rules
        changed from a preset keep its prose summary, labelled as the preset's and followed by
        what changed."""
        return described(self, describe_rules(self._spec))

    # ------------------------------------------------------------- properties

    @property
    def name(self) -> str:
        return self._spec.get("name") or ""

    @property
    def label(self) -> str:
        """How results and logs name these rules: :attr:`name`, followed by the changes made on
        top of the preset (``crazy_eights + deal.hand_size=6``) when there are any; a
        house-rules file or a complete specification goes by its own name, followed by the
        changes made on top of it (``switch_multiples + deal.hand_size=3``).  Rules equal as
        played and named may differ in label: :meth:`to_dict` keeps no house-rules file."""
        return label(self)

    @property
    def title(self) -> str:
        return self._spec.get("title") or self.name

    @property
    def preset(self) -> Optional[str]:
        """The built-in preset these rules start from (``None`` for a complete spec)."""
        return self._base if isinstance(self._base, str) else None

    @property
    def overrides(self) -> Dict[str, Any]:
        """The changes made on top of :attr:`preset` (a copy)."""
        return copy.deepcopy(self._overrides)

    @property
    def variants(self) -> List[str]:
        """Names of the documented variants (the ``variant.*`` tables), sorted."""
        return sorted(self._spec.get("variant") or {})

    @property
    def active_variants(self) -> List[str]:
        """Names of the variants applied to these rules."""
        return list(self._spec.get("variants") or [])

    @property
    def players(self) -> range:
        """Allowed player counts."""
        p = self._spec["players"]
        return range(p["min"], p["max"] + 1)

    # ------------------------------------------------------------- changes

    def replace(self, rules: Optional[Mapping[str, Any]] = None, **overrides: Any) -> Rules:
        """A copy with more overrides (same forms as the constructor); the new values win
        over the old ones."""
        if rules is not None and not isinstance(rules, Mapping):
            raise TypeError(f"rules must be a dict of rule overrides, got {type(rules).__name__}")
        more = rules_and_overrides(rules, overrides)
        return type(self)._make(self._base, deep_merge(self._overrides, more), self)

    def with_variants(self, *names: Union[str, Sequence[str]]) -> Rules:
        """A copy with the named documented variants applied as well (``"a", "b"`` or ``["a", "b"]``)."""
        wanted = variant_names(names, "with_variants()")
        unknown = [n for n in wanted if n not in self.variants]
        if unknown:
            raise RulesError(
                f"invalid rules field 'variants': unknown variant(s) "
                f"{', '.join(quoted(n) for n in unknown[:5])}"
                f"{f' and {len(unknown) - 5:,} more' if len(unknown) > 5 else ''}; "
                f"these rules document: {', '.join(self.variants) or 'none'}"
            )
        return self.replace(variants=self.active_variants + [n for n in wanted if n not in self.active_variants])

    def encode(self, num_players: Optional[int] = None) -> np.ndarray:
        """The rules encoding: a float32 array of :data:`eights.RULES_SIZE` values, 54 rows
        of per-card features then the table-wide ones (the layout is in
        ``docs/layouts.md`` and :mod:`eights.rules.encoding`). It depends on the player count
        (the deck, hand size and points may); ``num_players`` defaults to the smallest the
        rules allow. Rule sets that play the same encode the same."""
        n = self._spec["players"]["min"] if num_players is None else num_players
        return _encode_rules(self, n)

    def validate(self, num_players: int) -> None:
        """Check the rules for ``num_players``; raises :class:`eights.RulesError` naming the
        field (e.g. ``deal.hand_size`` when the deck cannot be dealt)."""
        validate_rules(self._spec, num_players)

    # ------------------------------------------------------------- games

    def game(self, num_players: int = 2, seed: Optional[int] = None) -> _Game:
        """A new :class:`eights.Game` with these rules."""
        return _Game(self, num_players, seed=seed)

    # ------------------------------------------------------------- dunder

    def _compared(self) -> Dict[str, Any]:
        # `inherits` only records where a specification came from (a house-rules file keeps
        # its preset there, the same rules built in Python do not): not part of the rules.
        return {k: v for k, v in self._spec.items() if k != "inherits"}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(json.dumps(self._compared(), sort_keys=True))

    def __repr__(self) -> str:
        if isinstance(self._base, str):
            extra = f", rules={self._overrides!r}" if self._overrides else ""
            return f"Rules({self._base!r}{extra})"
        return f"Rules.from_dict(<complete spec {self.name!r}>)"

    def __str__(self) -> str:
        return self.describe()

    def _repr_html_(self) -> str:  # Jupyter: the title, label and players, the description folded
        return rules_html(self)

    def __reduce__(self):
        return (Rules._make, (self._base, self._overrides, None, self._house))
