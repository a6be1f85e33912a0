"""The rules argument of the environments: one rule set (a preset name, a path to a TOML
file or an :class:`eights.Rules`, read by :func:`eights.rules.resolve_preset`), a list of
them drawn at every episode, or a :class:`eights.RuleSpace` drawn at every episode
(:class:`RuleSet`), with the observation bounds that hold under all of them and the spaces
of the rules encoding.

The draw of an episode is the engine's (``VecEnv``) or follows the same seeds (the single
envs draw at each reset from the episode's seed), so a seeded run plays the same rules.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces

from .._core import OBS_SIZE, RULES_SIZE, bot_plays_every_rule_set, check_bot_rules, derive_seed, parse_bot
from ..observation import ObservationBounds
from ..rules import Rules, RuleSpace, resolve_preset
from ..rules.encoding import bounds as _encoding_bounds

__all__ = ["RuleSet", "rules_seed", "obs_rules_space", "rules_box"]

#: Salt of an episode's rules draw (the engine's `vec_env::rules_seed`).
_RULES_SALT = 0x0A1E_5EED_0000_0004

RulesArg = Union[str, "os.PathLike[str]", Rules, RuleSpace, Sequence[Union[str, "os.PathLike[str]", Rules]]]


def rules_seed(episode_seed: int) -> int:
    """The seed of the rules draw of the episode dealt from ``episode_seed`` (as the
    engine's batches draw it)."""
    return derive_seed(episode_seed ^ _RULES_SALT, 0)


def rules_box(num_envs: Optional[int] = None) -> spaces.Box:
    """The space of the rules encoding (of a batch of ``num_envs`` with ``num_envs``)."""
    low, high = _encoding_bounds()
    if num_envs is not None:
        low, high = np.broadcast_to(low, (num_envs, RULES_SIZE)), np.broadcast_to(high, (num_envs, RULES_SIZE))
    return spaces.Box(low, high, dtype=np.float32)


def obs_rules_space(obs_space: spaces.Space, num_envs: Optional[int] = None) -> spaces.Dict:
    """The observation space with the rules encoding: ``{"obs": obs_space, "rules": Box}``."""
    return spaces.Dict({"obs": obs_space, "rules": rules_box(num_envs)})


#: The longest list of rule sets an env takes (each costs its observation bounds, tens of
#: kilobytes; a rule space draws any number).
MAX_RULE_SETS = 1024


class RuleSet:
    """One rule set, a list of them, or a rule space, for ``num_players`` (see the module
    documentation). ``rules`` are overrides applied to every rule set of a list (a space
    takes none)."""

    def __init__(self, arg: Any, num_players: int, rules: Optional[Dict[str, Any]] = None) -> None:
        self.num_players = num_players
        self.overrides = rules
        self.space: Optional[RuleSpace] = None
        self.entries: List[Union[str, Rules]] = []
        if isinstance(arg, RuleSpace):
            if rules:
                raise ValueError("rule overrides cannot be applied to a RuleSpace: build the space from other presets")
            if num_players not in arg.num_players:
                raise ValueError(
                    f"the RuleSpace draws rules for {arg.num_players} players, not {num_players}: build it with "
                    f"num_players={num_players} (or a list including it)"
                )
            self.space = arg
            # The space itself, not its Rust core: the core does not pickle, the space does
            # (so do the envs that hold this object).
            self._core_arg: Any = None
            self.name = "rule_space"
            self.bounds = ObservationBounds.any_rules()
        elif isinstance(arg, (list, tuple)):
            if not arg:
                raise ValueError("the list of rule sets is empty")
            if len(arg) > MAX_RULE_SETS:
                raise ValueError(
                    f"a list of rule sets holds at most {MAX_RULE_SETS:,}, got {len(arg):,}: for more, "
                    "draw them from an eights.RuleSpace"
                )
            for x in arg:
                if not isinstance(x, (str, Rules, os.PathLike)):
                    raise TypeError(
                        f"a list of rule sets holds preset names, paths to .toml files and eights.Rules, "
                        f"got {type(x).__name__}"
                    )
            self.entries = [resolve_preset(x) for x in arg]
            self._core_arg = list(self.entries)
            self.name = "mixed"
            self.bounds = ObservationBounds.union([ObservationBounds(x, num_players, rules) for x in self.entries])
        else:
            arg = resolve_preset(arg)
            self._core_arg = arg
            self.entries = [arg]
            self.name = arg if isinstance(arg, str) else getattr(arg, "name", str(arg))
            self.bounds = ObservationBounds(arg, num_players, rules)

    @property
    def core_arg(self) -> Any:
        """What the Rust env takes for these rules: a preset name, an :class:`eights.Rules`, a
        list of them, or the rule space's core."""
        return self.space._core if self.space is not None else self._core_arg

    @property
    def mixed(self) -> bool:
        """True when episodes may differ in their rules."""
        return self.space is not None or len(self.entries) > 1

    def episode_rules(self, rules_id: int) -> Rules:
        """The rules of an episode from its rules id (a list index, or a space's seed)."""
        if self.space is not None:
            return self.space.sample(int(rules_id))
        entry = self.entries[int(rules_id)]
        rules = entry if isinstance(entry, Rules) else Rules(entry)
        return rules.replace(self.overrides) if self.overrides else rules

    def draw(self, episode_seed: int) -> tuple:
        """The rules of an episode dealt from ``episode_seed`` and its rules id, as a batch
        draws them: ``(rules argument, overrides, rules id)``."""
        s = rules_seed(episode_seed)
        if self.space is not None:
            return self.space.sample(s), None, s
        k = s % len(self.entries)
        return self.entries[k], self.overrides, k

    def check_bot(self, name: str) -> None:
        """A built-in bot name must play every rule set the envs may deal: on a RuleSpace,
        neither ``net1`` (its presets alone) nor a flat network's file (its rules alone)."""
        if self.space is not None:
            if not bot_plays_every_rule_set(name):
                what = (
                    "'net1' plays only the presets"
                    if parse_bot(name) == "net1"
                    else f"bot file {name!r} plays only the rules"
                )
                raise ValueError(f"{what} it was trained for, not rules drawn from a RuleSpace")
            return
        for entry in self.entries:
            check_bot_rules(name, entry, self.num_players, rules=self.overrides)

    def observation_size(self, obs_rules: bool) -> int:
        return OBS_SIZE + RULES_SIZE if obs_rules else OBS_SIZE
