"""The splits of the generalization benchmark: rule sets an agent trains on, and rule sets it
is judged on without having trained on them.

* ``train_presets``: every preset that allows the player count, but the held-out ones;
* ``heldout_presets``: :data:`HELDOUT_PRESETS`;
* ``heldout_house``: :data:`HOUSE_RULES_COUNT` house-rules sets drawn once from a fixed seed
  (:data:`HOUSE_SEED`) on the train presets (:func:`heldout_house_space`), keeping only draws
  with at least :data:`MIN_HOUSE_CHANGES` changes; training draws from :func:`train_space`,
  the same kind of changes from other seeds. A draw of one or two changes is one that
  training itself draws now and then (of 200,000 training draws, 199 equalled one of the
  single-change sets drawn before this filter); a set of three or more changes is one that
  training almost never meets.

The held-out presets were chosen so that every mechanic they use appears in training (a
train preset or one of its documented variants has it): the issue's first proposal,
``jokers_and_nines``, ``grandads_game`` and ``crazy_eights_winner_collects``, would each have
held out a mechanic that nothing in training has (a reverse played as an ordinary card at
two players; runs of cards each matching the last; a joker any card may follow, and a blocked
hand in which nobody scores), so they train, and ``sevens_and_eights``,
``crazy_eights_countdown_blog`` and ``crazy_eights_specials`` are held out instead beside
``fat_buddah`` and ``chase_the_ace``. ``tests/python/generalization`` checks the rule.
"""

from __future__ import annotations

from typing import List

from .._core import presets as _presets
from ..rules import Rules, RuleSpace
from ..rules.space import derive_seed

__all__ = [
    "HELDOUT_PRESETS",
    "HOUSE_RULES_COUNT",
    "HOUSE_SEED",
    "MIN_HOUSE_CHANGES",
    "SPLITS",
    "heldout_house_space",
    "split",
    "train_presets",
    "train_space",
    "unseated",
]

#: The presets the benchmark holds out (see the module documentation for the choice).
HELDOUT_PRESETS = (
    "fat_buddah",
    "chase_the_ace",
    "sevens_and_eights",
    "crazy_eights_countdown_blog",
    "crazy_eights_specials",
)

#: The seed the held-out house rules are drawn from, and how many there are.
HOUSE_SEED = 0x20261124
HOUSE_RULES_COUNT = 40
#: The fewest house-rule changes a held-out house set has.
MIN_HOUSE_CHANGES = 3

#: The named splits.
SPLITS = ("train_presets", "heldout_presets", "heldout_house")


def _allows(preset: str, num_players: int) -> bool:
    return num_players in Rules(preset).players


def train_presets(num_players: int = 2) -> List[str]:
    """The presets of training: every preset that allows ``num_players``, but the held-out."""
    return [p for p in _presets() if p not in HELDOUT_PRESETS and _allows(p, num_players)]


def train_space(num_players: int = 2, house_prob: float = 0.5) -> RuleSpace:
    """The rule space of training: the train presets with their variants and house rules."""
    return RuleSpace(train_presets(num_players), house_prob=house_prob, num_players=num_players)


def heldout_house_space(num_players: int = 2) -> RuleSpace:
    """The space the held-out house rules are drawn from: house rules on every draw."""
    return RuleSpace(train_presets(num_players), house_prob=1.0, mutations=3.0, num_players=num_players)


def _house_sets(space: RuleSpace) -> List[Rules]:
    """The first :data:`HOUSE_RULES_COUNT` draws of ``space`` (seeds derived from
    :data:`HOUSE_SEED` and ``0, 1, ...``) with at least :data:`MIN_HOUSE_CHANGES` changes."""
    sets: List[Rules] = []
    i = 0
    while len(sets) < HOUSE_RULES_COUNT:
        if i >= 100 * HOUSE_RULES_COUNT:
            raise RuntimeError(
                f"the held-out house space gave {len(sets)} sets of {MIN_HOUSE_CHANGES}+ changes in {i} draws"
            )
        seed = derive_seed(HOUSE_SEED, i)
        i += 1
        if len(space.changes(seed)) >= MIN_HOUSE_CHANGES:
            sets.append(space.sample(seed))
    return sets


def unseated(name: str, num_players: int = 2) -> List[str]:
    """The presets of split ``name`` that :func:`split` leaves out at ``num_players`` because
    they do not seat that many: the held-out presets for ``heldout_presets``, the other
    presets for ``train_presets``; none for ``heldout_house``, whose sets are drawn from the
    train presets that seat ``num_players``."""
    if name == "train_presets":
        return [p for p in _presets() if p not in HELDOUT_PRESETS and not _allows(p, num_players)]
    if name == "heldout_presets":
        return [p for p in HELDOUT_PRESETS if not _allows(p, num_players)]
    if name == "heldout_house":
        return []
    raise ValueError(f"unknown split {name!r}; splits: {', '.join(SPLITS)}")


def split(name: str, num_players: int = 2) -> List[Rules]:
    """The rule sets of split ``name`` (one of :data:`SPLITS`) for ``num_players``."""
    if name == "train_presets":
        return [Rules(p) for p in train_presets(num_players)]
    if name == "heldout_presets":
        return [Rules(p) for p in HELDOUT_PRESETS if _allows(p, num_players)]
    if name == "heldout_house":
        return _house_sets(heldout_house_space(num_players))
    raise ValueError(f"unknown split {name!r}; splits: {', '.join(SPLITS)}")
