"""Policies named on the command line: ``module:attribute`` and saved SB3 models.

This module owns :func:`load_policy`, used by ``python -m eights arena --agents`` and
``python -m eights play --bots``: a built-in bot name stays a name, and so does the path of
a ``.safetensors`` weights file (a bot played in Rust, :mod:`eights.agents.files`);
``module:attribute`` imports a callable ``f(obs, mask) -> action`` or an object with
``act``/``act_batch`` (a class is instantiated without arguments) from the current folder
first, as ``python -m`` does, also under the ``eights`` console script; a path to a ``.zip``
saved by stable-baselines3 / sb3-contrib becomes an agent that plays the model's greedy
legal action, read without unpickling code from the file (:mod:`~eights.agents.sb3_file`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import os
import re
import sys
import zipfile
from typing import Any, Iterator, List, Optional

import numpy as np

from .._core import BOT_NAMES_HELP, NUM_ACTIONS, OBS_SIZE, parse_bot
from .._utils.file_kinds import wrong_place
from .._utils.optional import require
from ..rules import RULES_SIZE
from .files import checkpoint_hint, is_agent_file, is_built_in_name, run_folder_agent
from .sb3_file import MAX_MEMBER_BYTES, check_tensors, read_data, safe_custom_objects

__all__ = ["load_policy", "SB3Policy", "POLICY_HELP"]

POLICY_HELP = (
    f"a bot name ({BOT_NAMES_HELP}; the path of a .safetensors weights file or of a training run's "
    "folder is one), module:attribute (a callable f(obs, mask) -> action or an "
    "object with act/act_batch, imported from the current folder first), or the path of a model "
    "saved by stable-baselines3 (.zip)"
)


class SB3Policy:
    """A saved stable-baselines3 / sb3-contrib model as an arena agent.

    ``act_batch(obs, masks)`` returns the model's most probable *legal* action for each row:
    ``MaskablePPO`` predicts with the masks; other actor-critic models (PPO, A2C) have their
    action logits masked; value-based models (DQN) have their Q-values masked.  When the
    model was trained on the scaled observations (``observation_space`` within [0, 1]),
    pass ``scale`` (an :class:`eights.observation.ObservationBounds`-like object with ``scale(obs)``).

    A model trained with the rules in its observation (``obs_rules=True``, a ``Dict`` space
    of ``obs`` and ``rules``, ``"MultiInputPolicy"``) has ``obs_rules`` True: the arena then
    gives it ``{"obs": ..., "rules": ...}``, and ``scale`` applies to ``obs``.
    """

    def __init__(self, model: Any, name: str, scale: Optional[Any] = None) -> None:
        self.model = model
        self.name = name
        self.scale = scale
        space = getattr(model, "observation_space", None)
        parts = getattr(space, "spaces", None)  # a Dict space's entries
        keys = sorted(parts) if isinstance(parts, dict) else None
        if keys is not None and keys != ["obs", "rules"]:
            raise ValueError(
                f"the model {name!r} reads a Dict of {keys}: an eights agent reads the observation alone "
                "or, with obs_rules=True, the Dict of 'obs' and 'rules'"
            )
        #: True when the model reads the rules beside the observation (the arena's ``obs_rules``).
        self.obs_rules = keys is not None
        _check_spaces(model, name, self.obs_rules)

    @functools.cached_property
    def wants_scaled_observation(self) -> bool:
        """True when the model was trained on the scaled observation (its observation space,
        or that of its ``obs`` entry, lies within [0, 1]): it then needs ``scale`` for the
        table it plays at."""
        space = getattr(self.model, "observation_space", None)
        if self.obs_rules and space is not None:
            space = space["obs"]
        return space is not None and bool(np.all(space.low >= 0) and np.all(space.high <= 1))

    def for_table(self, preset: Any, num_players: int, rules: Any = None) -> SB3Policy:
        """This model for a table of ``preset`` (a name, a TOML path or an
        :class:`eights.Rules`), ``num_players`` and ``rules``: itself, or for a model trained on
        the scaled observation and given no ``scale``, a copy that scales by that table's
        :class:`eights.observation.ObservationBounds`, as the command line does. The arena
        calls it for each table it plays."""
        if self.scale is not None or not self.wants_scaled_observation:
            return self
        from ..observation import ObservationBounds

        return SB3Policy(self.model, self.name, ObservationBounds(preset, num_players, rules=rules))

    def _obs(self, obs: Any) -> Any:
        if self.obs_rules:
            if not (isinstance(obs, dict) and {"obs", "rules"} <= obs.keys()):
                raise ValueError(
                    f"the model {self.name!r} reads the rules too (obs_rules=True): give it "
                    '{"obs": ..., "rules": ...}, as the arena and the environments made with obs_rules=True do'
                )
            return {"obs": self._obs_alone(obs["obs"]), "rules": np.asarray(obs["rules"], dtype=np.float32)}
        if isinstance(obs, dict) and "obs" in obs:  # an env with obs_rules=True: this model reads obs alone
            obs = obs["obs"]
        return self._obs_alone(obs)

    def _obs_alone(self, obs: Any) -> np.ndarray:
        obs = np.asarray(obs, dtype=np.float32)
        if self.scale is not None:
            return self.scale.scale(obs)
        if self.wants_scaled_observation:  # raw counts into a model that learnt [0, 1]: wrong, silently
            raise ValueError(
                f"the model {self.name!r} was trained on scaled observations (scale_obs=True): load it with "
                "scale=eights.observation.ObservationBounds(preset, num_players), as the command line does"
            )
        return obs

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        """The model's most probable legal action for each row of ``obs`` (an array, or the
        dict of ``obs`` and ``rules`` rows for a model that reads the rules) and ``masks``."""
        import torch

        obs = self._obs(obs)
        masks = np.asarray(masks, dtype=bool)
        model = self.model
        try:  # sb3-contrib MaskablePPO
            from sb3_contrib import MaskablePPO

            if isinstance(model, MaskablePPO):
                actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
                return np.asarray(actions, dtype=np.int64).reshape(len(masks))
        except ImportError:  # pragma: no cover - sb3-contrib absent
            pass
        policy = model.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(obs)
            if hasattr(policy, "get_distribution"):
                scores = policy.get_distribution(tensor).distribution.logits
            elif hasattr(policy, "q_net"):
                scores = policy.q_net(tensor)
            else:
                raise TypeError(f"{type(model).__name__} models are not supported (need logits or Q-values)")
            scores = scores.cpu().numpy().astype(np.float64)
        scores[~masks] = -np.inf
        return scores.argmax(axis=1).astype(np.int64)

    def act(self, obs: Any, mask: np.ndarray) -> int:
        """The action for one observation (or one dict of ``obs`` and ``rules``) and its mask."""
        if isinstance(obs, dict):
            return int(self.act_batch({k: np.asarray(v)[None] for k, v in obs.items()}, np.asarray(mask)[None])[0])
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def one_torch_thread_for_play() -> None:
    """Give PyTorch one thread, for a process that plays saved SB3 models (the command line,
    the web server), unless ``OMP_NUM_THREADS`` chooses. Such a model is a small network
    asked for a few hundred rows at a time: more threads only fight the engine's threads and
    the machine's other work for the cores (an arena with one core busy elsewhere: 7,500
    decisions a second on two threads, 39,000 on one). A library call never changes it."""
    if os.environ.get("OMP_NUM_THREADS"):
        return
    import torch

    torch.set_num_threads(1)


def _check_spaces(model: Any, name: str, obs_rules: bool) -> None:
    """A ``ValueError`` for a model of another environment: an eights agent reads
    ``OBS_SIZE`` values (and ``RULES_SIZE`` with the rules) and chooses among ``NUM_ACTIONS``."""
    space = getattr(model, "observation_space", None)
    wanted = {"obs": (OBS_SIZE,), "rules": (RULES_SIZE,)} if obs_rules else {"": (OBS_SIZE,)}
    for key, shape in wanted.items():
        got = getattr(space[key] if key and space is not None else space, "shape", None)
        if got is not None and tuple(got) != shape:
            what = f"its {key!r} entry" if key else "its observation"
            raise ValueError(
                f"the model {name!r} was trained on another environment: {what} has shape {tuple(got)}, where an "
                f"eights table gives {shape} (OBS_SIZE {OBS_SIZE}"
                + (f", RULES_SIZE {RULES_SIZE})" if obs_rules else ")")
            )
    n = getattr(getattr(model, "action_space", None), "n", None)
    if n is not None and int(n) != NUM_ACTIONS:
        raise ValueError(
            f"the model {name!r} was trained on another environment: it chooses among {int(n)} actions, where an "
            f"eights table has {NUM_ACTIONS} (NUM_ACTIONS)"
        )


#: What reading a damaged archive raises besides ValueError (RuntimeError: an encrypted
#: member; NotImplementedError: an unknown compression; RecursionError: JSON nested too deeply).
_DAMAGED_ZIP = (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, RuntimeError, NotImplementedError, RecursionError)


def _load_sb3(path: str) -> Any:
    """Load a model saved by ``model.save(path)``, choosing the class from the file. The file
    is read once: SB3 loads the same bytes that were checked. Without stable-baselines3 (the
    ``sb3`` extra), a ``ModuleNotFoundError`` that says which extra to install."""
    feature = f"the saved model {os.path.basename(path)!r}"
    try:
        if os.path.getsize(path) > MAX_MEMBER_BYTES:
            raise ValueError(f"{path!r}: over {MAX_MEMBER_BYTES:,} bytes, not a model of an eights table")
        with open(path, "rb") as f:
            content = io.BytesIO(f.read())
        with zipfile.ZipFile(content) as archive:
            data = read_data(path, archive)
            # A file that is no model says so first; one that is needs SB3 from here on.
            require(["torch", "stable_baselines3"], "sb3", feature)
            custom_objects = safe_custom_objects(path, data)
            check_tensors(path, archive)
    except ValueError as exc:
        if str(exc).startswith(repr(path)):
            raise
        raise ValueError(f"{path!r} is not a model saved by stable-baselines3 ({exc})") from None
    except _DAMAGED_ZIP as exc:
        missing = re.search(r"no item named '([^']*)'", str(exc)) if isinstance(exc, KeyError) else None
        what = (
            "nested too deeply"
            if isinstance(exc, RecursionError)
            else f"it has no {missing.group(1)!r} member"
            if missing
            else f"{type(exc).__name__}: {exc}"
        )
        where = wrong_place(path, "agent")
        raise ValueError(f"{path!r} is not a model saved by stable-baselines3 ({what}){where}") from None
    except OSError as exc:
        raise ValueError(f"{path!r}: cannot read: {exc.strerror or exc}") from None
    policy_module = str(data.get("policy_class", {}).get("__module__", ""))
    candidates: List[Any] = []
    if "maskable" in policy_module:
        require("sb3_contrib", "sb3", feature)
        from sb3_contrib import MaskablePPO

        candidates.append(MaskablePPO)
    elif "dqn" in policy_module:
        from stable_baselines3 import DQN

        candidates.append(DQN)
    else:
        from stable_baselines3 import A2C, PPO

        candidates.extend([PPO, A2C])
    errors = []
    for cls in candidates:
        try:
            content.seek(0)
            return cls.load(content, device="cpu", custom_objects=custom_objects)
        except Exception as exc:  # noqa: BLE001 - try the next algorithm, report all
            errors.append(f"{cls.__name__}: {exc}")
    raise ValueError(f"could not load {path!r} as a stable-baselines3 model: " + "; ".join(errors))


def _not_a_file(path: str) -> str:
    """Why ``path``, given as a model file, is none: a folder, not a regular file, or missing."""
    if os.path.isdir(path):
        return "a folder, not a model file"
    return "not a regular file (a pipe, a device?), not a model file" if os.path.exists(path) else "no such model file"


@contextlib.contextmanager
def _current_folder_first() -> Iterator[None]:
    """The current folder at the front of ``sys.path`` while the block runs, unless it is
    there already, as ``python -m`` does (the ``eights`` console script's path starts at its
    own folder instead), so that ``module:attribute`` finds ``module.py`` where the command is
    run. It is taken out again: left in, every later import (stable-baselines3's, PyTorch's)
    looked in the current folder first, and a file there named like one was run instead."""
    cwd = os.getcwd()
    if any(p in ("", ".") or os.path.abspath(p) == cwd for p in sys.path):
        yield
        return
    sys.path.insert(0, cwd)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(cwd)


def _import_attribute(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"{spec!r} is not of the form module:attribute")
    try:
        with _current_folder_first():
            module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import module {module_name!r} for the policy {spec!r}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"module {module_name!r} has no attribute {attr!r} (policy {spec!r})") from None
    if isinstance(obj, type):
        obj = obj()
    if not (callable(obj) or callable(getattr(obj, "act", None)) or callable(getattr(obj, "act_batch", None))):
        raise ValueError(
            f"{spec!r} is a {type(obj).__name__}, not a policy: need a callable f(obs, mask) -> action "
            "or an object with act(obs, mask) / act_batch(obs, masks)"
        )
    return obj


def load_policy(spec: str, scale: Optional[Any] = None) -> Any:
    """A command-line agent: a bot name (returned normalised; a ``.safetensors`` file's path is
    one, and a training run's folder stands for its ``final.safetensors``), ``module:attribute``
    (the object, named ``spec``), or a path to a saved SB3 model (an :class:`SB3Policy`).

    ``scale`` is used for models whose observation space is the scaled one.

    Raises:
        ValueError: an unknown bot name, a module or attribute that cannot be found, a
            file that is not a saved model.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a policy must be given as a string ({POLICY_HELP}), got {type(spec).__name__}")
    text = run_folder_agent(spec.strip())  # a training run's folder plays its agent file
    hint = checkpoint_hint(text)
    if hint:
        raise ValueError(f"{text!r} is not an agent{hint}")
    if is_agent_file(text):
        return text  # a bot name: the file is read (and checked) by the Rust loader
    if not text.endswith(".zip") and is_built_in_name(text):
        # A built-in bot's name (with a parameter: ismcts:N...) is the bot, never a file of
        # that name in the current folder (one called `heuristic` was played and rated as the
        # heuristic bot) nor a module: a bad parameter is the bot's error, naming what is allowed.
        try:
            return parse_bot(text)
        except ValueError as exc:
            raise ValueError(f"bad bot {text!r}: {exc}") from None
    if text.endswith(".zip") or os.path.isfile(text):
        if not os.path.isfile(text):
            raise ValueError(f"{_not_a_file(text)}: {text!r}")
        policy = SB3Policy(_load_sb3(text), os.path.basename(text))
        if policy.wants_scaled_observation:
            policy.scale = scale
        return policy
    if ":" in text:
        obj = _import_attribute(text)
        return (text, obj)
    try:
        return parse_bot(text)
    except ValueError as exc:
        if str(exc).startswith("unknown bot"):  # its list of bots is in POLICY_HELP: once is enough
            head = str(exc).split("; allowed bots")[0]  # with the engine's "did you mean"
            raise ValueError(f"unknown agent {text!r}: {head}; an agent is {POLICY_HELP}") from None
        raise ValueError(f"unknown agent {text!r}: {exc}; or {POLICY_HELP}") from None
