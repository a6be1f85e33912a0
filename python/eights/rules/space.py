"""Rule sets drawn at random: :class:`RuleSpace`.

A :class:`RuleSpace` draws a rule set per seed, the same one for the same seed on every
machine: a preset (uniformly over the list of presets), each of its documented variants with probability
``variant_prob``, and with probability ``house_prob`` house rules, ``1 + k`` changes along
the dimensions of :data:`RuleSpace.DIMENSIONS` (``k`` geometric with mean
``mutations - 1``), drawn by weight.  Every draw loads for each player count of the space;
it comes back as an :class:`eights.Rules` built on its preset (``to_toml()`` writes it as
``inherits = "<preset>"`` plus the changes, and its description lists them in words).
Variants drawn together that set one field two ways (alternatives, such as two ways of
drawing), or of which one turns off a wild card whose play the other sets, apply in the
preset's order, and the changes name the value that field took, since :class:`eights.Rules`
refuses such variants without it.

>>> space = eights.RuleSpace(num_players=2, house_prob=1.0)
>>> rules = space.sample(7)
>>> rules == space.sample(7)
True
>>> rules.preset in space.presets
True
>>> eights.Rules.from_toml(rules.to_toml()) == rules
True

Presets only (and their variants): ``RuleSpace(house_prob=0)``; one preset with house
rules: ``RuleSpace(["crazy_eights"], house_prob=1)``.  The engine draws from the same space
inside :class:`eights.VecEnv` at every episode (``VecEnv(space, ...)``).
"""

from __future__ import annotations

import itertools
import numbers
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .._core import RulesError, RuleSpaceCore, derive_seed
from .._utils.checks import MAX_TABLE, as_int, describe, distinct_names, quoted
from .._utils.seeds import check_seed
from .core import Rules

__all__ = ["RuleSpace"]

#: The house-rule dimensions: name -> (default weight, what a change does).
DIMENSIONS: Dict[str, Tuple[float, str]] = {name: (w, text) for name, w, text in RuleSpaceCore.dimensions()}


def _real(value: Any, name: str, what: str) -> float:
    """``value`` as a float: any real number, NumPy's included (``TypeError`` for a bool or a
    non-number); an integer past the largest float is a ``RulesError`` on ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise RulesError(
            f"invalid rules field '{name}': must be {what}, got an integer too large for a float"
        ) from None


def _probability(value: Any, name: str) -> float:
    p = _real(value, name, "a number in [0, 1]")
    if not 0.0 <= p <= 1.0:
        raise RulesError(f"invalid rules field '{name}': must be a probability in [0, 1], got {value!r}")
    return p


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _player_counts(num_players: Union[int, Iterable[int]]) -> List[int]:
    items: List[Any]
    if _is_int(num_players):
        items = [num_players]
    elif isinstance(num_players, (list, tuple, range)):
        # At most one entry a player count: range(2, 2**40) was listed whole (MemoryError).
        items = list(itertools.islice(num_players, MAX_TABLE))
        if len(items) == MAX_TABLE:
            raise RulesError(
                f"invalid rules field 'num_players': at most {MAX_TABLE - 1} player counts (2 to {MAX_TABLE}), "
                f"got {describe(num_players)}"
            )
    else:
        raise TypeError(f"num_players must be an int or a list of ints, got {num_players!r}")
    for n in items:
        if not _is_int(n):
            raise TypeError(f"num_players must be an int or a list of ints, got {n!r}")
    counts = [int(n) for n in items]
    if not counts:
        raise RulesError("invalid rules field 'num_players': needs at least one player count")
    for n in counts:
        # Checked here: the engine's unsigned conversion raised OverflowError for -1 or 2**64.
        if not 2 <= n <= MAX_TABLE:
            raise RulesError(
                f"invalid rules field 'num_players': each player count must be in [2, {MAX_TABLE}], got {n}"
            )
    return counts


#: The largest weight of a house-rule dimension: the engine draws a dimension by the sum of
#: the weights, which two weights near the largest float made infinite (every draw then
#: took one dimension); a million to one is beyond any useful ratio.
MAX_WEIGHT = 1e6


def _weights(dims: Optional[Mapping[str, float]]) -> List[Tuple[str, float]]:
    """The ``(dimension, weight)`` pairs of ``dims``: names of :data:`DIMENSIONS` (a
    ``RulesError`` on ``dims`` for another, checked before its weight), weights real numbers
    in ``[0, MAX_WEIGHT]`` (a bool or a string is a ``TypeError``, a weight out of range a
    ``RulesError`` on ``dims.<name>``)."""
    if dims is None:
        return []
    if not isinstance(dims, Mapping):
        raise TypeError(f"dims must be a dict of dimension name -> weight, got {type(dims).__name__}")
    out: List[Tuple[str, float]] = []
    for name, weight in dims.items():
        if not isinstance(name, str):
            raise TypeError(f"dims: a dimension name must be a str, got {name!r}")
        if name not in DIMENSIONS:  # the engine's words; its check came after the weight's
            raise RulesError(
                f"invalid rules field 'dims': unknown dimension {quoted(name)}; dimensions: {', '.join(DIMENSIONS)}"
            )
        w = _real(weight, f"dims[{name!r}]", "a number (a weight >= 0)")
        if not 0.0 <= w <= MAX_WEIGHT:  # NaN and the infinities too
            raise RulesError(
                f"invalid rules field 'dims.{name}': a weight must be >= 0 and at most {MAX_WEIGHT:g} "
                f"(a finite number in [0, {MAX_WEIGHT:g}]), got {weight!r}"
            )
        out.append((name, w))
    return out


class RuleSpace:
    """A space of rule sets (see the module documentation).

    Args:
        presets: names of the presets to draw from, at most 1,024 (default: every preset
            that allows each of ``num_players``); an empty list is an error.  The draw is
            uniform over the list, so a preset listed ``k`` times is drawn ``k`` times as often
            as one listed once (``["crazy_eights", "crazy_eights", "one_card"]``: two draws in
            three are crazy_eights).
        variant_prob: chance of each documented variant of the drawn preset.
        house_prob: chance that a draw has house-rule changes.
        mutations: mean number of changes of a draw with house rules (1 to 8).
        dims: weights of the house-rule dimensions by name (see :data:`DIMENSIONS`), each
            in ``[0, 1e6]``; the ones left out keep their default weight, 0 turns one off.
        num_players: the player count (or counts) every draw must allow.

    Raises:
        RulesError: naming the argument (an unknown preset or dimension, a probability
            outside ``[0, 1]``, a negative weight, a preset that does not allow the player
            counts...); ``TypeError`` for an argument of the wrong type.
    """

    #: The house-rule dimensions: name -> (default weight, what a change does).
    DIMENSIONS = DIMENSIONS

    __slots__ = ("_core", "_args")

    def __init__(
        self,
        presets: Optional[Sequence[str]] = None,
        *,
        variant_prob: float = 0.25,
        house_prob: float = 0.5,
        mutations: float = 2.0,
        dims: Optional[Mapping[str, float]] = None,
        num_players: Union[int, Iterable[int]] = 2,
    ) -> None:
        if isinstance(presets, str):
            presets = [presets]
        if presets is not None:
            if not isinstance(presets, Iterable):
                raise TypeError(f"presets must be a list of preset names (str), got {type(presets).__name__}")
            # At most 1,024 names, read before any is built: each copy of a repeated preset is
            # built whole (3,000 copies took 1.8 s deaf to Ctrl-C, 100,000 took 105 s). A repeat
            # is taken: it weights the draws.
            presets = distinct_names(
                presets,
                "presets",
                "preset",
                lambda why: RulesError(f"invalid rules field 'presets': {why}"),
                repeats=True,
            )
            if not presets:
                raise RulesError("invalid rules field 'presets': the list of presets is empty (leave it out for all)")
        weights = _weights(dims)
        mutations = _real(mutations, "mutations", "a number")
        counts = _player_counts(num_players)
        self._args: Dict[str, Any] = dict(
            presets=presets,
            variant_prob=_probability(variant_prob, "variant_prob"),
            house_prob=_probability(house_prob, "house_prob"),
            mutations=mutations,
            dims=dict(weights),
            num_players=counts,
        )
        self._core = RuleSpaceCore(
            presets or [],
            self._args["variant_prob"],
            self._args["house_prob"],
            self._args["mutations"],
            weights,
            counts,
        )

    def sample(self, seed: int) -> Rules:
        """The rule set of ``seed`` (an integer in ``[0, 2**64)``)."""
        preset, overrides, _ = self._core.sample(check_seed(seed))
        return Rules._checked(preset, overrides)

    def samples(self, n: int, seed: int = 0) -> List[Rules]:
        """``n`` rule sets (at most 1,000,000): those of the seeds derived from ``seed`` and
        ``0 .. n-1``."""
        base = check_seed(seed)
        n = as_int(n, "n", 0, 10**6)
        return [self.sample(derive_seed(base, i)) for i in range(n)]

    def changes(self, seed: int) -> List[str]:
        """The house-rule changes of the draw of ``seed``, in words (empty for a preset with
        variants only)."""
        return list(self._core.sample(check_seed(seed))[2])

    @property
    def presets(self) -> List[str]:
        """The presets the space draws from."""
        return list(self._core.presets)

    @property
    def num_players(self) -> List[int]:
        """The player counts every draw allows."""
        return list(self._args["num_players"])

    @property
    def dims(self) -> Dict[str, float]:
        """The weight of every house-rule dimension."""
        return {name: self._args["dims"].get(name, w) for name, (w, _) in DIMENSIONS.items()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleSpace):
            return NotImplemented
        return self._args == other._args

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        a = self._args
        presets = "" if a["presets"] is None else f"{a['presets']!r}, "
        dims = f", dims={a['dims']!r}" if a["dims"] else ""
        return (
            f"RuleSpace({presets}variant_prob={a['variant_prob']}, house_prob={a['house_prob']}, "
            f"mutations={a['mutations']}{dims}, num_players={a['num_players']!r})"
        )

    def __reduce__(self):
        a = dict(self._args)
        return (_rebuild, (a,))


def _rebuild(args: Dict[str, Any]) -> RuleSpace:
    return RuleSpace(**args)
