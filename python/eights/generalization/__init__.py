"""A benchmark of generalising to unseen rules: train on some rule sets, be judged on
others, against the same opponent, with duplicate deals.

* Splits (:mod:`eights.generalization.splits`): ``train_presets``, ``heldout_presets``
  (:data:`HELDOUT_PRESETS`, chosen so that every mechanic they use appears in training) and
  ``heldout_house`` (a fixed seeded set of house rules on the train presets);
  :func:`train_space` is the :class:`eights.RuleSpace` to train on.
* :func:`evaluate` (:mod:`eights.generalization.evaluate`) plays an agent against the
  heuristic on every rule set of a split and reports each win rate with its 95% interval,
  and the mean and interquartile mean over rule sets with stratified bootstrap intervals;
  ``result.plot(path)`` draws them (``result.plot()``: the matplotlib figure).

From the shell: ``python -m eights generalize --agent ismcts:100 --split heldout_presets``.

>>> print(", ".join(r.name for r in split("heldout_presets")))
fat_buddah, chase_the_ace, sevens_and_eights, crazy_eights_countdown_blog, crazy_eights_specials
>>> res = evaluate("random", "heldout_presets", games=20, seed=0)
>>> res.mean < res.fair_share
True
"""

from .evaluate import GeneralizationResult, RuleSetResult, evaluate, iqm, refusals
from .splits import (
    HELDOUT_PRESETS,
    HOUSE_RULES_COUNT,
    HOUSE_SEED,
    MIN_HOUSE_CHANGES,
    SPLITS,
    heldout_house_space,
    split,
    train_presets,
    train_space,
    unseated,
)

__all__ = [
    "HELDOUT_PRESETS",
    "HOUSE_RULES_COUNT",
    "HOUSE_SEED",
    "MIN_HOUSE_CHANGES",
    "SPLITS",
    "GeneralizationResult",
    "RuleSetResult",
    "evaluate",
    "heldout_house_space",
    "iqm",
    "refusals",
    "split",
    "train_presets",
    "train_space",
    "unseated",
]
