"""The run folder of ``eights train`` (:class:`RunFolder`) and what a run reads and writes
beside its loop: the resumable checkpoint (a PyTorch file of tensors and plain data, read back
with ``weights_only=True``), the agent file (``final.safetensors``: ``eights-net-v1`` for a flat
network, ``eights-net-v2`` for the card network), the learning curve, the summary of the
arena evaluation (``summary.json`` and ``summary.md``), the saved agents a run plays against
(:func:`opponents`) and the record written into the agent file's metadata (:func:`record`).

Evaluating a run reads its agent file and never writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import torch

from .._core import NUM_ACTIONS
from .._utils.file_kinds import wrong_place
from ..rules import Rules
from . import machine
from .files import (
    MAX_UPDATES,
    FileFormatError,
    check_state,
    checked_count,
    checked_curve,
    checked_seconds,
    load_checkpoint,
    plain_mode,
    save_checkpoint,
)

__all__ = ["RunFolder", "check_snapshots", "opponents", "progress_bar", "rebuild", "record"]

#: The format tag of a run's checkpoint.
CHECKPOINT_FORMAT = "eights-train-v1"


def rebuild(saved: Mapping[str, Any], name: str = "checkpoint"):
    """The learner a checkpoint holds (a flat :class:`~eights.train.PolicyNet` or a
    :class:`~eights.train.cardpolicy.CardPolicy`), its sizes and tensors checked against the
    architecture before the network is built (a :class:`~eights.train.files.FileFormatError`
    naming the file ``name`` otherwise)."""
    from .model import PolicyNet, flat_shapes

    model, kind = saved["model"], saved["kind"]
    if kind == "card":
        from .cardpolicy import CardPolicy

        return CardPolicy.from_state(model, saved["arch"], name)
    if kind != "flat":
        raise FileFormatError(
            f"{name}: not a checkpoint of this kind: its kind is "
            f"{repr(kind[:40]) if isinstance(kind, str) else 'a ' + type(kind).__name__}, not 'flat' or 'card'"
        )
    if not isinstance(model, dict):
        raise FileFormatError(
            f"{name}: not a checkpoint of this kind: its model is a {type(model).__name__}, not a dict"
        )
    if "fc1.weight" not in model:
        raise FileFormatError(f"{name}: not a checkpoint of this kind: its model has no 'fc1.weight'")
    expected = flat_shapes(model["fc1.weight"], name)
    check_state(model, expected, name)
    hidden, inputs = expected["fc1.weight"]
    net = PolicyNet(inputs, NUM_ACTIONS, hidden)
    net.load_state_dict(model)
    return net


def _check_counters(saved: Dict[str, Any], path: str) -> None:
    """A run checkpoint's counters, curve and snapshots, checked (and normalised) before they
    are used: ``step`` and ``update`` integers in their ranges, ``seconds`` a finite number,
    ``curve`` a list of points (dicts of numbers with a ``step`` and ``seconds``), ``snapshots``
    a list of dicts (their tensors are checked against the learner's where it is built).
    :class:`~eights.train.files.FileFormatError` naming the file and the field otherwise."""
    bad = f"{path}: not a checkpoint of this kind: its"
    saved["step"] = checked_count(saved["step"], path, "step")
    saved["update"] = checked_count(saved["update"], path, "update", MAX_UPDATES)
    saved["seconds"] = checked_seconds(saved["seconds"], path, "seconds")
    checked_curve(saved["curve"], path, ("step", "seconds"), ("step",), finite=False)  # NaN: a window without games
    snapshots = saved["snapshots"]
    if not isinstance(snapshots, list):
        raise FileFormatError(f"{bad} snapshots is a {type(snapshots).__name__}, not a list of state dicts")
    for i, snapshot in enumerate(snapshots):
        if not isinstance(snapshot, dict):
            raise FileFormatError(f"{bad} snapshots[{i}] is a {type(snapshot).__name__}, not a state dict")


def check_snapshots(snapshots: List[Any], agent: Any, pool_size: int, name: str) -> List[Dict[str, Any]]:
    """The latest ``pool_size`` of a checkpoint's snapshots (the league plays no older one),
    each checked to be a state dict of ``agent``'s tensors and shapes, so that loading them
    cannot fail (:class:`~eights.train.files.FileFormatError` naming the file ``name``
    otherwise)."""
    kept = list(snapshots)[-pool_size:] if pool_size > 0 else []
    expected = agent.state_dict()
    first = len(snapshots) - len(kept)
    for i, snapshot in enumerate(kept):
        check_state(snapshot, expected, name, f"snapshots[{first + i}]")
    return kept


def _write_flat(path: str, policy: Any, rules: Rules, players: int, meta: Mapping[str, str]) -> None:
    from .export import write_agent_file

    write_agent_file(path, policy, rules, meta, num_players=players)


def opponents(names: Sequence[str], rules: Rules, players: int, device: str) -> Tuple[List[Any], List[str]]:
    """The extra opponents of a run as its league plays them: a built-in bot's name as it is,
    a saved agent file (``*.safetensors``) or a run folder (its ``final.safetensors``) by its
    path, played by the Rust bot that reads such files; and their names for the learning
    curve. ``ValueError`` naming an entry that is neither."""
    from .._core import check_bot_rules, parse_bot

    pool: List[Any] = []
    labels: List[str] = []
    for name in (n.strip() for n in names):
        path = os.path.join(name, "final.safetensors") if os.path.isdir(name) else name
        if os.path.isfile(path):  # played by the Rust bot that reads agent files
            if not path.lower().endswith(".safetensors"):  # the Rust side read it as a bot name: "unknown bot"
                why = wrong_place(path, "agent")
                raise ValueError(f"opponents: {name!r} is a file, not an agent file (a .safetensors weights file){why}")
            try:
                check_bot_rules(os.path.abspath(path), rules, players)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"opponents: {exc}") from None
            pool.append(os.path.abspath(path))
            labels.append(os.path.splitext(os.path.basename(os.path.normpath(name)))[0])
            continue
        try:
            parse_bot(name)
        except ValueError as exc:
            raise ValueError(f"opponents: {name!r} is neither a built-in bot nor an agent file ({exc})") from None
        pool.append(name)
        labels.append(name)
    return pool, labels


#: The fields that name and present rules, not play them: left out of :func:`agent_name`'s digest.
_NOT_PLAYED = ("name", "title", "source", "description", "inherits", "variant", "variants")


def agent_name(rules: Rules, players: int) -> str:
    """The name a run's agent plays under in the arena: ``train-crazy_eights-2p`` on a preset
    or a house-rules file as it is, and on rules changed from a preset (those whose
    :attr:`~eights.Rules.label` lists changes) ``train-crazy_eights-changed-3fa2b1c0-2p``: the
    first 8 hex digits of the SHA-256 of the rules as played (every field but the names, the
    prose and the variant tables), so that agents of other rules never share the preset's name
    or each other's, and the same rules, however written, give the same name."""
    if rules.label == rules.name:
        return f"train-{rules.name}-{players}p"
    played = {k: v for k, v in rules.to_dict().items() if k not in _NOT_PLAYED}
    digest = hashlib.sha256(json.dumps(played, sort_keys=True).encode("utf-8")).hexdigest()[:8]
    return f"train-{rules.name}-changed-{digest}-{players}p"


def record(
    rules: Rules, players: int, seats: Sequence[int], init: str, command: str, seed: int, dev: str
) -> Dict[str, str]:
    """The metadata of a run's agent file (decisions and minutes are added at the end)."""
    return {
        "name": agent_name(rules, players),
        "command": command or " ".join(sys.argv),
        "hardware": machine.hardware(dev),
        "seed": str(seed),
        "table": f"{rules.label}, {players} players, learner seats {','.join(map(str, seats))}",
        "init": init,
        "eights": _version(),
        "python": platform.python_version(),
        "torch": torch.__version__,
    }


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("eights")
    except metadata.PackageNotFoundError:
        return "unknown"


def progress_bar(show: bool) -> Any:
    """A bar in thousandths of the budget, with the time left and the latest win rates
    (:func:`eights._utils.progress.progress_bar`); one that draws nothing when not ``show`` or
    without tqdm, which is then not needed."""
    from .._utils.progress import QuietBar
    from .._utils.progress import progress_bar as bar

    fmt = "{l_bar}{bar}| {elapsed}<{remaining}{postfix}"
    return bar(show, total=1000, bar_format=fmt, dynamic_ncols=True, desc="training") or QuietBar()


def _flat(table: Any, prefix: str = "") -> Dict[str, Any]:
    """A nested dict as dotted keys to leaves."""
    if not isinstance(table, dict):
        return {prefix: table}
    out: Dict[str, Any] = {}
    for key, value in table.items():
        out.update(_flat(value, f"{prefix}{key}."))
    return out if out else {prefix: table}


#: A run's settings in words, for the message of a resumed run that differs.
_SETTING_WORDS = {"players": "player count", "seats": "seating", "init": "start (--init)"}


def _other_rules(old: Any, new: str) -> str:
    """How the rules a checkpoint was trained on (TOML text) differ from a run's, in a few words:
    their names, else the first fields that differ (not the TOML text, escaped whole)."""
    try:
        if not isinstance(old, str) or "=" not in old:  # TOML text, never a path to read
            raise ValueError(old)
        before, after = Rules.from_toml(old), Rules.from_toml(new)
    except (TypeError, ValueError, OSError):  # not rules this version reads
        return "of other rules (its checkpoint's cannot be read)"
    if before.name != after.name:
        return f"of the rules {before.name!r}, not {after.name!r}"
    a, b = _flat(before.to_dict()), _flat(after.to_dict())
    keys = {k.rstrip(".") for k in set(a) | set(b) if a.get(k) != b.get(k) and not k.startswith("source")}
    fields = sorted(k for k in keys if not any(other.startswith(k + ".") for other in keys))  # the leaves
    shown = ", ".join(fields[:3]) + (f" and {len(fields) - 3} more" if len(fields) > 3 else "")
    return f"of other rules: its {before.name!r} differs from these in {shown or 'their fields'}"


class RunFolder:
    """The files of one run under ``out`` (see the module documentation)."""

    def __init__(self, out: str):
        if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
            raise ValueError(f"out must be a folder path, got {out!r}")
        self.out = os.fspath(out)
        if os.path.exists(self.out) and not os.path.isdir(self.out):
            raise ValueError(f"out: {self.out} is a file, not a folder")
        os.makedirs(self.out, exist_ok=True)
        self.checkpoint = os.path.join(self.out, "checkpoint.pt")
        self.agent_file = os.path.join(self.out, "final.safetensors")
        self.curve_csv = os.path.join(self.out, "learning_curve.csv")
        self.curve_png = os.path.join(self.out, "learning_curve.png")

    def load_checkpoint(self, setting: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
        """The checkpoint to resume (None without one); ``ValueError`` when it was trained on
        other rules, another table or from another start than ``setting``."""
        if not os.path.exists(self.checkpoint):
            return None
        keys = ("format", "kind", "model", "optimizer", "step", "update", "seconds", "snapshots", "curve", "setting")
        saved = load_checkpoint(self.checkpoint, keys)
        if saved["format"] != CHECKPOINT_FORMAT:
            raise FileFormatError(f"{self.checkpoint}: format {saved['format']!r}, not {CHECKPOINT_FORMAT!r}")
        if not isinstance(saved["setting"], dict):
            raise FileFormatError(f"{self.checkpoint}: not a checkpoint of this kind: its setting is not a dict")
        for key, value in setting.items():
            old = saved["setting"].get(key)
            if old != value:
                what = _SETTING_WORDS.get(key, key)
                other = _other_rules(old, value) if key == "rules" else f"with another {what} ({old!r}, not {value!r})"
                raise ValueError(
                    f"out: {self.out} holds a run {other}: give another --out, or --restart to start it again"
                )
        _check_counters(saved, self.checkpoint)
        return saved

    def save_checkpoint(
        self, run: Any, agent: Any, curve: Any, setting: Mapping[str, Any], settings: Mapping[str, Any]
    ) -> None:
        """The run's state, written to a temporary file and then moved over the last one."""
        state = run.state()
        kind = "card" if hasattr(agent, "net") else "flat"
        state.update(
            format=CHECKPOINT_FORMAT,
            kind=kind,
            arch=agent.config() if kind == "card" else {"hidden": int(agent.fc1.out_features)},
            curve=list(curve.points),
            setting=dict(setting),
            settings=dict(settings),
        )
        save_checkpoint(_to_cpu(state), self.checkpoint)

    def write_agent(self, agent: Any, rules: Rules, players: int, meta: Mapping[str, str]) -> None:
        """The agent file: the policy in the format the Rust bots read."""
        tmp = os.path.join(self.out, "final.tmp.safetensors")
        if hasattr(agent, "net"):
            from .cardnet import export

            export(agent.net.cpu(), tmp, {**meta, "agent.rules": rules.to_toml(), "players": str(players)})
            agent.net.to(agent.rules.device)
        else:
            import copy

            _write_flat(tmp, copy.deepcopy(agent).cpu(), rules, players, meta)
        os.chmod(tmp, plain_mode())  # safetensors writes 0600: the mode of the run's other files
        os.replace(tmp, self.agent_file)

    def evaluate(
        self, rules: Rules, players: int, opponent: str, deals: int, seed: int, threads: int, progress: bool = False
    ) -> Dict[str, Any]:
        """The agent file against ``opponent`` in every other seat on ``deals`` duplicate deals
        (with the arena's progress bar when ``progress``)."""
        from ..arena.matches import evaluate

        # By its path: the Rust bot plays the file, as it will everywhere else.
        r = evaluate(
            self.agent_file, opponent, preset=rules, num_players=players, games=deals, seed=seed, threads=threads,
            progress=progress,
        )  # fmt: skip
        return {
            "win_rate": r.win_rate,
            "ci": [r.ci[0], r.ci[1]],
            "deals": r.deals,
            "games": r.games,
            "wins": r.wins,
            "losses": r.losses,
            "seed": seed,
        }

    def write_summary(self, result: Any, meta: Mapping[str, str], fair: float) -> None:
        """``summary.json`` and ``summary.md``: the run's record and its arena results."""
        data = {
            **dict(meta),
            "decisions": result.decisions,
            "minutes": round(result.minutes, 2),
            "updates": result.updates,
            "device": result.device,
            "env_threads": result.env_threads,
            "torch_threads": result.torch_threads,
            "fair_share": fair,
            "arena": result.arena,
        }
        with open(os.path.join(self.out, "summary.json"), "w") as f:
            json.dump(data, f, indent=2)
        lines = [
            f"# {meta['name']}",
            "",
            f"- command: `{meta['command']}`",
            f"- table: {meta['table']}; init: {meta['init']}",
            f"- {result.decisions:,} learner decisions in {result.minutes:.1f} min ({result.updates} updates)",
            f"- device {result.device}, {_count(result.env_threads, 'env thread')}, "
            f"{_count(result.torch_threads, 'PyTorch thread')}; "
            f"{meta['hardware']}",
            "",
            "| opponents | win rate | 95% interval | deals |",
            "|---|---|---|---|",
        ]
        for opp, r in result.arena.items():
            lines.append(f"| {opp} | {r['win_rate']:.3f} | [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | {r['deals']} |")
        lines += ["", f"The fair share of the table is {fair:.3f}."]
        with open(os.path.join(self.out, "summary.md"), "w") as f:
            f.write("\n".join(lines) + "\n")


def _count(n: int, what: str) -> str:
    """``"1 env thread"``, ``"2 env threads"``."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def _to_cpu(obj: Any) -> Any:
    if isinstance(obj, torch.Tensor):
        return obj.detach().cpu()
    if isinstance(obj, dict):
        return {k: _to_cpu(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_to_cpu(v) for v in obj]
    return obj
