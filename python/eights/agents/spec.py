"""The one agent specification: how an agent is named (a built-in bot name, a callable, an
object with ``act``/``act_batch``, a ``(label, agent)`` pair) and turned into something that
acts, :class:`AgentSpec`, by :func:`as_agent`.  :func:`load_agent` adds command-line names
(``module:attribute``, a saved model file) through :func:`eights.agents.load.load_policy`.
The path of a ``.safetensors`` weights file is a bot name (:mod:`.files`), labelled by the
name its metadata records, else the file's name."""

from __future__ import annotations

import dataclasses
import inspect
import os
import sys
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, List, Optional

import numpy as np

from .._core import BOT_NAMES_HELP, NUM_ACTIONS, Bot, RandomBot, parse_bot
from .._utils.checks import describe as _describe
from .._utils.file_kinds import wrong_place
from .files import agent_file_label, checkpoint_hint, is_agent_file, run_folder_agent

__all__ = ["AGENT_HELP", "BOT_NAMES", "AgentActionError", "AgentSpec", "as_agent", "load_agent"]

#: Names of the built-in bots ("ismcts:N", "ismcts_net:N", "pimc:N" and "oracle:N" take a count;
#: "ismcts_net" is ismcts whose root favours net's move; "oracle" sees
#: every hand, a measuring instrument rather than an opponent; "net" is the learned bot of every
#: rule set, "net1" the first learned bots, which play only the presets they were trained for).
BOT_NAMES = (
    "random",
    "heuristic",
    "ismcts",
    "ismcts:N",
    "ismcts_net",
    "ismcts_net:N",
    "pimc",
    "pimc:N",
    "oracle",
    "oracle:N",
    "net",
    "net1",
)

#: A policy of one decision: ``f(obs, mask) -> action`` (``obs`` an array, or a dict of arrays
#: ``{"obs", "rules"}`` for a policy that reads the rules).
Policy = Callable[[Any, np.ndarray], Any]

#: What :func:`as_agent` accepts, in words (for error messages).
AGENT_HELP = (
    f"a bot name ({BOT_NAMES_HELP}; a path may be an os.PathLike), a callable f(obs, mask) -> action, an object "
    "with act(obs, mask) or act_batch(obs, masks), or a (name, agent) pair"
)


class AgentActionError(TypeError):
    """A Python agent returned what is not an action (``None``, a float, a string...): a
    ``TypeError`` naming the agent, which the command line reports in one line (exit status 2),
    as it does an illegal action."""

    @classmethod
    def of(cls, label: str, raw: Any) -> AgentActionError:
        """The error for agent ``label`` having returned ``raw``."""
        return cls(
            f"agent {label!r} returned {_describe(raw)}; actions are integers in [0, {NUM_ACTIONS}) "
            "(a Python or numpy integer, or a one-element integer array or tensor)"
        )


@dataclass(frozen=True)
class AgentSpec:
    """A normalised agent: a built-in bot (``bot`` set, played in Rust from the game) or a
    Python policy (``policy`` and/or ``batch_policy`` set).

    Attributes:
        label: the agent's name in results and records.
        bot: the canonical built-in bot name (``"ismcts:400"``), or None for a Python policy.
        policy: ``f(obs, mask) -> action`` for one decision, or None.
        batch_policy: ``f(obs, masks) -> actions`` for a batch, or None; preferred by
            :meth:`act_batch` when both are set.
        obs_rules: the policy reads the rules too: its observations are
            ``{"obs": ..., "rules": ...}`` with the rules encoding (an object or callable
            says so with an attribute ``obs_rules = True``).
    """

    label: str
    bot: Optional[str] = None
    policy: Optional[Policy] = dataclasses.field(default=None, repr=False, compare=False)
    batch_policy: Optional[Policy] = dataclasses.field(default=None, repr=False, compare=False)
    obs_rules: bool = False

    @property
    def name(self) -> str:
        """The label (the name the arena's ``Agent`` had for it)."""
        return self.label

    @property
    def is_builtin(self) -> bool:
        """True for a built-in bot."""
        return self.bot is not None

    def with_label(self, label: str) -> AgentSpec:
        """The same agent under another label."""
        return dataclasses.replace(self, label=label)

    def for_table(self, preset: Any, num_players: int, rules: Any = None) -> AgentSpec:
        """This agent for one table: a Python policy whose object has ``for_table(preset,
        num_players, rules)`` (a saved model that scales its observation by the table's
        bounds) is replaced by what that returns; any other agent is itself."""
        owner = getattr(self.batch_policy if self.batch_policy is not None else self.policy, "__self__", None)
        adapt = getattr(owner, "for_table", None)
        if not callable(adapt):
            return self
        other = adapt(preset, num_players, rules)
        if other is owner:
            return self
        return dataclasses.replace(
            self,
            policy=other.act if self.policy is not None else None,
            batch_policy=other.act_batch if self.batch_policy is not None else None,
        )

    def make_bot(self, seed: Optional[int] = None) -> Any:
        """A seeded ``eights.Bot`` playing this built-in bot (``TypeError`` for a Python policy)."""
        if self.bot is None:
            raise TypeError(f"agent {self.label!r} is a Python policy, not a built-in bot")
        return Bot(self.bot, seed=seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        """The action (as the policy returned it) for one observation and its action mask."""
        if self.policy is not None:
            return self.policy(obs, mask)
        return self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0]

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> List[Any]:
        """The actions (as the policy returned them) for ``obs`` ``(k, OBS_SIZE)`` and
        ``masks`` ``(k, NUM_ACTIONS)``; ``ValueError`` when a batched policy returns another
        number of actions."""
        if self.batch_policy is not None:
            actions: List[Any] = list(np.asarray(self.batch_policy(obs, masks)).reshape(-1))
            if len(actions) != len(masks):
                raise ValueError(
                    f"agent {self.label!r}: act_batch returned {len(actions)} actions for {len(masks)} observations"
                )
            return actions
        if self.policy is None:
            raise TypeError(
                f"agent {self.label!r} is the built-in bot {self.bot!r}: it plays from the game, not from "
                f"observations: eights.Bot({self.bot!r}).act(game) gives its move, and the arena, "
                "VecEnv opponents and make(opponents=...) take it as it is"
            )
        if isinstance(obs, dict):  # obs_rules: one dict of rows per decision
            return [self.policy({k: v[i] for k, v in obs.items()}, m) for i, m in enumerate(masks)]
        return [self.policy(o, m) for o, m in zip(obs, masks)]


def _bot_name(spec: str, what: str) -> str:
    """The bot that ``spec`` names; a ``.zip`` path gets the way to load it (the command line
    takes one; here it is loaded first)."""
    try:
        return str(parse_bot(spec))
    except ValueError as exc:
        if spec.strip().lower().endswith(".zip"):
            if not os.path.isfile(spec.strip()):
                from .load import _not_a_file

                raise ValueError(f"{what}: {_not_a_file(spec.strip())}: {spec!r}") from None
            if not zipfile.is_zipfile(spec.strip()):  # not what stable-baselines3 saves
                where = wrong_place(spec.strip(), "agent")
                raise ValueError(f"{what}: {spec!r} is not a zip archive (a stable-baselines3 model){where}") from None
            raise ValueError(
                f"{what}: {spec!r} looks like a model saved by stable-baselines3: load it with "
                f"eights.agents.load_agent({spec!r}) and pass that"
            ) from None
        raise ValueError(f"{what}: {exc}") from None


def as_agent(spec: Any, what: str = "agent") -> AgentSpec:
    """Normalise an agent specification: a bot name (``"heuristic"``, ``"ismcts:N"``, the
    path of a ``.safetensors`` weights file, labelled by its metadata's ``name`` or its stem,
    or of a training run's folder, for its ``final.safetensors``, ...),
    a callable ``f(obs, mask) -> action``, an object with ``act(obs, mask)`` or
    ``act_batch(obs, masks)`` (labelled by its ``name`` attribute, else its class name), a
    ``(label, agent)`` pair, or an :class:`AgentSpec` (returned as is).  ``what`` names the
    argument in error messages.

    A callable (a ``torch.nn.Module`` included, whose ``forward`` is what gets called) is
    called once per decision with numpy arrays and may return a Python or numpy integer or a
    one-element integer array or tensor.  A callable, ``act`` or ``act_batch`` that cannot
    take two arguments is refused here, not at its first decision: a module such as
    ``nn.Linear`` (``forward(input)``) needs an ``act_batch(obs, masks)`` method, or an
    object around it that has one.

    Raises:
        ValueError: an unknown bot name or a bad simulation count.
        TypeError: anything that is not an agent (built-in bot objects included: pass bots
            by name, so that they can be seeded for every game), or a callable that cannot
            be called with ``(obs, mask)``.
    """
    if isinstance(spec, AgentSpec):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        return as_agent(spec[1], what).with_label(spec[0])
    spec = run_folder_agent(spec)  # a training run's folder plays its agent file
    hint = checkpoint_hint(spec)
    if hint:
        raise ValueError(f"{what}: {os.fspath(spec)!r} is not an agent{hint}")
    if is_agent_file(spec):
        try:
            name = parse_bot(os.fspath(spec))  # the absolute path
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
        return AgentSpec(agent_file_label(name), bot=name)
    if isinstance(spec, str):
        name = _bot_name(spec, what)
        return AgentSpec(name, bot=name)
    if isinstance(spec, (Bot, RandomBot)):
        raise TypeError(
            f'{what}: pass built-in bots by name (e.g. "heuristic"), not as {type(spec).__name__} '
            "objects, so that the arena can seed them for every game"
        )
    batch = getattr(spec, "act_batch", None)
    act = getattr(spec, "act", None)
    rules = getattr(spec, "obs_rules", False) is True
    if callable(batch) or callable(act):
        label = getattr(spec, "name", None)
        name = label if isinstance(label, str) else type(spec).__name__
        for method, args in ((act, "act(obs, mask)"), (batch, "act_batch(obs, masks)")):
            if callable(method) and not _takes_two(method):
                raise TypeError(f"{what}: {name}.{args.split('(')[0]}{_signature(method)} cannot be called as {args}")
        return AgentSpec(
            name,
            policy=act if callable(act) else None,
            batch_policy=batch if callable(batch) else None,
            obs_rules=rules,
        )
    if _is_torch_module(spec):
        if not _takes_two(spec.forward):
            raise TypeError(
                f"{what}: {type(spec).__name__} is a torch.nn.Module whose forward{_signature(spec.forward)} "
                "does not take (obs, mask). A module plays as an agent when its forward(obs, mask) returns "
                "the action of one decision, or when it has a method act_batch(obs, masks) returning one "
                "action per row (numpy arrays in; mask its scores with masks, then take the argmax)"
            )
        return AgentSpec(type(spec).__name__, policy=spec, obs_rules=rules)
    if callable(spec):
        name = getattr(spec, "__name__", None) or type(spec).__name__
        if not _takes_two(spec):
            raise TypeError(
                f"{what}: {name}{_signature(spec)} cannot be called as f(obs, mask) -> action; an agent is {AGENT_HELP}"
            )
        return AgentSpec(name, policy=spec, obs_rules=rules)
    raise TypeError(f"{what} must be {AGENT_HELP}; got {_describe(spec)}")


def _is_torch_module(obj: Any) -> bool:
    """True for a ``torch.nn.Module`` (without importing PyTorch: a module exists only once it is)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.nn.Module)


def _signature(fn: Any) -> str:
    try:
        return str(inspect.signature(fn))
    except (TypeError, ValueError):
        return "(...)"


def _takes_two(fn: Any) -> bool:
    """Whether ``fn`` can be called with two positional arguments (True when Python cannot
    tell, as for some built-in functions: the call itself then decides)."""
    try:
        inspect.signature(fn).bind(None, None)
    except TypeError:
        return False
    except ValueError:  # no signature to read
        return True
    return True


def load_agent(text: Any, scale: Optional[Any] = None, what: str = "agent") -> AgentSpec:
    """An agent named as on the command line: a bot name, ``module:attribute`` or the path
    of a saved stable-baselines3 model (see :func:`eights.agents.load.load_policy`; ``scale``
    is passed to it), as an :class:`AgentSpec`.

    Raises:
        ValueError: an unknown agent, a module or attribute that cannot be found or that
            cannot be called as a policy, a file that is not a saved model.
        TypeError: ``text`` is not a string.
    """
    from .load import load_policy

    try:
        policy = load_policy(text, scale)
    except ValueError as exc:  # named for the option or argument that gave it
        raise ValueError(f"{what}: {exc}") from None
    try:
        return as_agent(policy, what)
    except TypeError as exc:  # the text named an object that is no policy: a bad value of it
        raise ValueError(str(exc)) from None
