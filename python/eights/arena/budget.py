"""The training budget of a best response (:func:`eights.train.exploit`): learner decisions
and/or wall minutes, and the documented default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .._utils.checks import as_int, as_minutes
from .._utils.checks import describe as _describe

__all__ = ["Budget", "DEFAULT_BUDGET"]


@dataclass(frozen=True)
class Budget:
    """The training budget of a best response: ``decisions`` (learner decisions, every seat
    of every training game counted once per decision the learner makes) and/or ``minutes``
    of wall time; training stops at whichever comes first.

    For comparing agents, a budget in decisions is the fair one: it gives the learner the
    same experience whatever the agent costs to run, whereas a budget in minutes gives a slow
    agent (a search bot) fewer training games, so it would look less exploitable only for
    being slow. Minutes are the convenient budget for one measurement."""

    decisions: Optional[int] = None
    minutes: Optional[float] = None

    def __post_init__(self) -> None:
        if self.decisions is None and self.minutes is None:
            raise ValueError("budget needs decisions or minutes (or both), got neither")
        if self.decisions is not None:
            object.__setattr__(self, "decisions", as_int(self.decisions, "budget decisions", 1))
        if self.minutes is not None:
            object.__setattr__(self, "minutes", as_minutes(self.minutes, "budget minutes"))

    @classmethod
    def of(cls, budget: Any) -> Budget:
        """A :class:`Budget`, a number of minutes, or a dict with ``decisions``/``minutes``."""
        if isinstance(budget, Budget):
            return budget
        if isinstance(budget, dict):
            unknown = sorted(set(budget) - {"decisions", "minutes"})
            if unknown:
                raise ValueError(f"budget keys are 'decisions' and 'minutes', got {', '.join(map(repr, unknown))}")
            return cls(**budget)
        if isinstance(budget, (int, float)) and not isinstance(budget, bool):
            return cls(minutes=budget)
        raise TypeError(f"budget must be an eights.arena.Budget or a number of minutes, got {_describe(budget)}")

    def __str__(self) -> str:
        parts = []
        if self.decisions is not None:
            parts.append(f"{self.decisions:,} learner decisions")
        if self.minutes is not None:
            parts.append(f"{self.minutes:g} minutes")
        return " or ".join(parts)


#: The default budget: 20 minutes of training on one CPU thread (plus one for the envs).
DEFAULT_BUDGET = Budget(minutes=20.0)
