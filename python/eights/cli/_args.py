"""What several commands share on their command line: argparse types for integers in a
range and for seeds (built on the package's one integer checker and one seed range), for
seconds and comma-separated lists, the rules options ``--preset`` (a name or a TOML file) and
``--rules``, and ``--ray`` (where the arena's games run)."""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import sys
from typing import Any, Callable, Dict, List, NoReturn, Optional, Tuple, Union, cast

from .._utils.checks import MAX_DEALS, as_int, quoted, terminal_safe
from .._utils.file_kinds import wrong_place
from .._utils.seeds import check_seed
from ..rules import Rules, resolve_preset

#: The largest count the engine takes (its counts are 64-bit unsigned integers).
COUNT_MAX = 2**64 - 1

#: The preset a command plays when neither ``--preset`` nor ``--rules FILE.toml`` is given.
DEFAULT_PRESET = "crazy_eights"

# The name the checkers below give the value; argparse names the option itself
# ("argument --seed: must be in ...").
_VALUE = "value"


class Parser(argparse.ArgumentParser):
    """The command line's parser, whose subcommands may add some of their options only when
    used: ``complete`` (a keyword of ``add_parser``) runs once, before the subcommand's first
    parse or help text. ``train`` derives its PPO flags from the dataclasses of the ``train``
    extra, and importing them (PyTorch) costs a second and 500 MB that every other command
    would pay for nothing."""

    def __init__(self, *args: Any, complete: Optional[Callable[[argparse.ArgumentParser], None]] = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._complete = complete
        #: Why some options are missing (an extra not installed), said of an unknown option.
        self.missing_options: Optional[str] = None

    def completed(self) -> Parser:
        """This parser with every option added (``complete`` run, once)."""
        complete, self._complete = self._complete, None
        if complete is not None:
            complete(self)
        return self

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        namespace, extras = super(Parser, self.completed()).parse_known_args(args, namespace)
        if extras and self.missing_options:  # an option that exists once the extra is installed
            self.error(f"unrecognized arguments: {' '.join(extras)} ({self.missing_options})")
        return namespace, extras

    def format_help(self) -> str:
        return super(Parser, self.completed()).format_help()

    def format_usage(self) -> str:
        return super(Parser, self.completed()).format_usage()

    def error(self, message: str) -> NoReturn:  # an option's error may quote a file's text
        super().error(terminal_safe(message))


def print_error(exc: BaseException) -> None:
    """``error: <exc>`` on stderr, its control characters escaped (the text may come from a
    file: a rules file's key, a record's label)."""
    print(f"error: {terminal_safe(str(exc))}", file=sys.stderr)


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None


def _checked(check: Callable[[int], int], text: str) -> int:
    """``check(int(text))``, its ValueError as argparse's error without the value's name."""
    try:
        return check(_integer(text))
    except ValueError as exc:
        message = str(exc)
        if message.startswith(_VALUE + " "):
            message = message[len(_VALUE) + 1 :]
        raise argparse.ArgumentTypeError(message) from None


def int_in(low: int, high: int = COUNT_MAX) -> Callable[[str], int]:
    """The argparse type of an integer in ``[low, high]`` (without a bound of its own,
    ``high`` is the engine's largest count, and a value under ``low`` is told so: ``--seat
    -1`` read "must be in [0, 18446744073709551615]")."""

    def check(value: int) -> int:
        if high == COUNT_MAX and isinstance(value, int) and value < low:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}, got {value}")
        return as_int(value, _VALUE, low, high)

    return lambda text: _checked(check, text)


#: Argument types: counts from 0 or 1, player counts, thread counts, seeds.
non_negative = int_in(0)
positive = int_in(1)
#: Duplicate deals (``--games``), and those of an evaluation (``--eval-deals``, 0: none).
deals = int_in(1, MAX_DEALS)
eval_deals = int_in(0, MAX_DEALS)
players = int_in(2, 10)
threads = int_in(0, 1024)


def seed(text: str) -> int:
    """The argparse type of a seed: an integer in the package's seed range, ``[0, 2**64)``."""
    return _checked(lambda value: check_seed(value, _VALUE), text)


def seconds(text: str) -> float:
    """The argparse type of a duration in seconds, in ``[0, 1e7)``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 <= value < 10**7:
        raise argparse.ArgumentTypeError(f"must be in [0, 1e7), got {text}")
    return value


def _positive(text: str, unit: str) -> float:
    """A number of ``unit`` in ``(0, 1e7)``, one message for either end."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of {unit}, got {text!r}") from None
    if not 0 < value < 10**7:
        raise argparse.ArgumentTypeError(f"must be a number of {unit} in (0, 1e7), got {text}")
    return value


def positive_seconds(text: str) -> float:
    """The argparse type of a duration in seconds, in ``(0, 1e7)`` (``[0, 1e7)`` for -1, then
    "above 0" for 0, contradicted each other)."""
    return _positive(text, "seconds")


def minutes(text: str) -> float:
    """The argparse type of a budget in minutes, in ``(0, 1e7)``."""
    return _positive(text, "minutes")


def names(text: Optional[str]) -> List[str]:
    """The non-empty items of a comma-separated list (of bots, agents or presets)."""
    return [item.strip() for item in (text or "").split(",") if item.strip()]


def variant_list(text: str) -> str:
    """The argparse type of ``--variants``: comma-separated names, at least one (``,`` named
    none and was taken as no variants, where ``--bots ,`` and ``--presets ,`` are refused)."""
    if not names(text):
        raise argparse.ArgumentTypeError(f"needs at least one variant name (e.g. aces_wild), got {quoted(text)}")
    return text


# --------------------------------------------------------------------------- rules


def add_preset(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME|FILE.toml`` (the default, crazy_eights, is applied by :func:`rules_of`)."""
    parser.add_argument(
        "--preset",
        type=preset_value,
        default=None,
        metavar="NAME|FILE.toml",
        help=f"rules preset, or a house-rules TOML file (a value ending in .toml or holding a path separator; "
        f"default: {DEFAULT_PRESET})",
    )


def preset_value(text: str) -> Union[str, Rules]:
    """The argparse type of ``--preset``: a preset name, or the :class:`eights.Rules` of a TOML
    file (read by :func:`eights.rules.resolve_preset`, as every entry point reads a preset)."""
    try:
        return resolve_preset(text, "--preset")
    except (ValueError, OSError) as exc:
        message = str(exc)
        raise argparse.ArgumentTypeError(message.removeprefix("--preset: ")) from None


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules``: a house-rules TOML file or rule overrides as JSON."""
    parser.add_argument(
        "--rules",
        type=rules_value,
        default=None,
        metavar="JSON|FILE.toml",
        help="rule overrides as a JSON object, or a house-rules TOML file (see eights.Rules.from_toml; "
        "it names its own preset, so not with --preset)",
    )


def rules_value(text: str) -> Union[Rules, Dict[str, Any]]:
    """The argparse type of ``--rules``: an :class:`eights.Rules` from a path ending in
    ``.toml``, otherwise rule overrides from a JSON object."""
    if text.strip().lower().endswith(".toml"):
        return _toml_rules(text.strip())
    if os.path.isfile(text.strip()):  # a file's path that is not JSON: say what the file is
        raise argparse.ArgumentTypeError(
            f"{text.strip()!r} is a file that does not end in .toml: rules come as a .toml file or a JSON "
            f"object{wrong_place(text.strip(), 'rules')}"
        )
    try:
        rules = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"must be a JSON object or a .toml file: {exc}") from None
    except RecursionError:  # brackets nested deeper than Python's decoder recurses: a traceback
        raise argparse.ArgumentTypeError(
            "must be a JSON object of rules (it nests a few levels), not nested this deep"
        ) from None
    except ValueError as exc:  # a number past Python's 4,300 digits (the value was echoed whole)
        raise argparse.ArgumentTypeError(f"must be a JSON object of rules: {exc}") from None
    if not isinstance(rules, dict):
        raise argparse.ArgumentTypeError('must be a JSON object, e.g. \'{"deal": {"hand_size": 4}}\', or a .toml file')
    return rules


def _toml_rules(path: str) -> Rules:
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError(f"{'not a file' if os.path.exists(path) else 'no such file'}: {path}")
    try:
        return cast(Rules, resolve_preset(pathlib.Path(path), "--rules"))  # a path, never TOML text
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # invalid TOML (naming the file), or a rules error naming the field
        message = str(exc)
        raise argparse.ArgumentTypeError(message if path in message else f"{path}: {message}") from None


def add_variants(parser: argparse.ArgumentParser) -> None:
    """``--variants A,B``: the documented variants of the rules played (:func:`rules_of`
    applies them; ``eights rules`` lists them)."""
    parser.add_argument(
        "--variants",
        dest="apply_variants",
        type=variant_list,
        default=None,
        metavar="A,B",
        help="documented variants of the rules to apply, comma separated (eights rules --preset NAME lists them; "
        "default: none)",
    )


def rules_of(args: argparse.Namespace) -> Tuple[Union[str, Rules], Optional[Dict[str, Any]]]:
    """The (preset, overrides) a command plays: a preset name and the JSON overrides, or the
    :class:`eights.Rules` of ``--rules FILE.toml`` and no overrides; with ``--variants``
    (:func:`add_variants`) applied: to the file's rules, or added to the overrides' list."""
    variants = names(getattr(args, "apply_variants", ""))
    if isinstance(args.rules, Rules):
        if args.preset is not None:
            raise ValueError(
                "--rules FILE.toml names its own preset (inherits = ...): give --preset or a .toml file, not both"
            )
        preset: Union[str, Rules] = args.rules
        overrides: Optional[Dict[str, Any]] = None
    else:
        preset, overrides = args.preset or DEFAULT_PRESET, args.rules
    if not variants:
        return preset, overrides
    if isinstance(preset, Rules) and not overrides:
        try:
            return preset.with_variants(variants), None
        except ValueError as exc:
            raise ValueError(f"--variants: {exc}") from None
    given = (overrides or {}).get("variants", [])
    listed = list(given) if isinstance(given, list) else [given]  # another type: the rules' own error
    return preset, {**(overrides or {}), "variants": listed + [v for v in variants if v not in listed]}


def add_ray(parser: argparse.ArgumentParser) -> None:
    """``--ray``: play the duplicate deals on a Ray cluster."""
    parser.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="play the deals on a Ray cluster: auto (join the cluster started on this machine with "
        "'ray start'), local (start one here) or the head node's host:port; the same results as one "
        "machine for the same seed (needs the rllib extra; see https://eights-rl.github.io/eights/cluster/)",
    )


def ray_of(args: argparse.Namespace) -> Optional[str]:
    """``--ray``, connected before the run: ``ValueError`` naming ``--ray`` when Ray is not
    installed or the cluster cannot be reached."""
    from ..arena.cluster import check_address, connect

    try:
        address = check_address(args.ray)
    except ValueError as exc:
        raise ValueError(f"--ray {args.ray}: {str(exc).replace('ray must be', 'must be', 1)}") from None
    if address is None:  # not given
        return None
    try:
        connect(address)
    except (ImportError, ConnectionError) as exc:
        raise ValueError(f"--ray {args.ray}: {exc}") from None
    return address


# --------------------------------------------------------------------------- agents


class PolicyRaised(Exception):
    """A policy of the user's (``module:attribute``) raised: :func:`eights.cli.main` prints
    which one, then its exception's traceback (the cause of this one)."""

    def __init__(self, label: str) -> None:
        super().__init__(f"the policy {label!r} raised an exception:")


def load_agent(text: str, scale: Any = None, what: str = "agent") -> Any:
    """An agent named on the command line (:func:`eights.agents.spec.load_agent`), a Python
    policy among them checked as it plays: what it returns must be actions
    (:class:`~eights.agents.spec.AgentActionError` naming it otherwise, reported in one
    line), and an exception it raises is a :class:`PolicyRaised` naming it (when it is the
    user's code, ``module:attribute``, not a saved model this package plays)."""
    from ..agents.spec import load_agent as load

    try:
        agent = load(text, scale, what=what)
    except ImportError as exc:  # a saved model without the sb3 extra: the message names it
        raise ValueError(f"{what} {text.strip()}: {exc}") from None
    if agent.is_builtin:
        return agent
    text = text.strip()
    if text.endswith(".zip"):  # a saved SB3 model
        from ..agents.load import one_torch_thread_for_play

        one_torch_thread_for_play()
    users = not text.endswith(".zip") and not os.path.isfile(text)
    return checked_policy(agent, users)


def checked_policy(agent: Any, users: bool = True) -> Any:
    """``agent`` (an :class:`~eights.agents.spec.AgentSpec` of a Python policy) whose policy
    and batched policy check what they return (see :func:`load_agent`); ``users``: its
    exceptions are a :class:`PolicyRaised` naming it."""
    import dataclasses

    from .._core import NUM_ACTIONS
    from .._utils.checks import as_action, describe
    from ..agents.pool import check_batch_actions
    from ..agents.spec import AgentActionError

    label = agent.label

    def call(fn: Callable[..., Any], obs: Any, mask: Any) -> Any:
        if not users:
            return fn(obs, mask)
        try:
            return fn(obs, mask)
        except Exception as exc:  # the user's code failed: say whose, then its traceback
            raise PolicyRaised(label) from exc

    def policy(obs: Any, mask: Any) -> int:
        raw = call(cast(Callable[..., Any], agent.policy), obs, mask)
        try:
            return as_action(raw)
        except TypeError:
            raise AgentActionError.of(label, raw) from None

    def batch(obs: Any, masks: Any) -> Any:
        raw = call(cast(Callable[..., Any], agent.batch_policy), obs, masks)
        try:
            check_batch_actions(raw, len(masks), f"the actions agent {label!r} returned from act_batch")
        except TypeError as exc:
            if "model.predict" in str(exc):  # a pair (actions, state): the message says what to return
                raise AgentActionError(str(exc)) from None
            raise AgentActionError(
                f"agent {label!r} returned {describe(raw)} from act_batch; it returns one action per row "
                f"({len(masks)}), integers in [0, {NUM_ACTIONS}) (a list or an int numpy array)"
            ) from None
        except ValueError:  # a shape or a range: the table that plays them says what it takes
            pass
        return raw

    return dataclasses.replace(
        agent,
        policy=None if agent.policy is None else policy,
        batch_policy=None if agent.batch_policy is None else batch,
    )


def as_flags(message: str) -> str:
    """A settings error of :func:`eights.train.train` or :func:`eights.train.exploit` with each
    setting named by its flag:
    ``PPOConfig.num_envs`` is ``--num-envs``, ``teacher:`` ``--teacher:``."""
    message = re.sub(r"\b(?:PPOConfig|LeagueConfig)\.(\w+)", lambda m: "--" + m.group(1).replace("_", "-"), message)
    return (
        re.sub(r"^(teacher|opponents|seats|init|device|out):? ", r"--\1: ", message)
        if not message.startswith("--")
        else message
    )
