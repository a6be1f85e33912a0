"""``eights.train.train``: one call from a user's rules to a trained agent in the arena, as
``eights train`` runs it.

It resolves the rules (a preset name, a house-rules TOML file or an :class:`eights.Rules`, with
variants) at a table of ``players`` seats, builds the learner (a new flat
:class:`~eights.train.PolicyNet`; with ``init="net"`` the shipped card network, or with the
path of a card-network file the network it holds, :mod:`eights.train.cardpolicy`), picks
the device and threads (:mod:`eights.train.machine`), trains it with
:class:`~eights.train.SelfPlay` against the league for a budget of minutes or learner decisions
with a progress bar, and keeps the run folder ``out`` up to date
(:mod:`eights.train.outputs`): a resumable checkpoint, the final agent file, the learning curve,
and at the end an arena evaluation on duplicate deals against ``random`` and ``heuristic``.
Started again with the same ``out``, a run resumes; one whose budget is spent is evaluated
again without its files being rewritten. Ctrl-C saves the checkpoint and the agent file, then
stops (``KeyboardInterrupt``).
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import torch

from .._core import NUM_ACTIONS, OBS_SIZE, Bot
from .._utils.checks import MAX_DEALS, as_int, as_minutes, as_path, describe
from .._utils.display import text_display
from .._utils.seeds import check_seed
from ..agents.files import checkpoint_hint
from ..rules import Rules, resolve_preset
from . import machine, outputs
from .curves import LearningCurve
from .files import restoring
from .model import PolicyNet
from .ppo import PPOConfig
from .selfplay import LeagueConfig, SelfPlay

__all__ = ["INITS", "TrainResult", "default_league", "default_ppo", "resolve_rules", "train"]

#: The named starting points of a run: a new flat network, or the shipped card network (``init``
#: may also be the path of a card-network file: eights-net-v2 or -v3).
INITS = ("scratch", "net")
#: The budget of a run given neither minutes nor decisions.
DEFAULT_MINUTES = 30.0
#: Updates that train the new value head alone when a run starts from a card network (its file
#: keeps none).
VALUE_WARMUP = 5


def default_ppo(init: str = "scratch") -> PPOConfig:
    """PPO's settings of a run: from scratch, a 256-wide network with a learning rate of 1e-3
    annealed to zero, pulled towards the moves of the ``net`` bot (it plays every rule set)
    over the first 30% of the budget (kickstarting); from the card network, a smaller learning
    rate and entropy bonus and fewer epochs, so the fine-tuning leaves the network's play
    gradually. (1e-3 rather than PPO's usual 3e-4: after the teacher fades, 3e-4 moved the
    policy by an approximate KL of about 0.003 an update, and ten minutes on two cores gave
    ``crazy_eights`` files 0.529 to 0.556 against ``heuristic``; 1e-3 gave 0.553 to 0.561.)"""
    if init != "scratch":  # the card network: "net" or a file of its format
        return PPOConfig(learning_rate=1e-4, lr_floor=0.0, ent_coef=0.003, update_epochs=2, target_kl=0.03, hidden=256)
    return PPOConfig(learning_rate=1e-3, lr_floor=0.0, hidden=256, teacher="net")


def default_league() -> LeagueConfig:
    """The opponents of a run: the heuristic bot in half the games, the random bot in 30% at
    the start falling to 5%, and the rest the latest 8 snapshots of the learner (one every 10
    updates)."""
    return LeagueConfig(heuristic_share=0.5, random_share_start=0.3, random_share_end=0.05, pool_size=8)


def resolve_rules(rules: Union[str, Rules, os.PathLike[str]], variants: Sequence[str] = ()) -> Rules:
    """``rules`` as an :class:`eights.Rules` (through :func:`eights.rules.resolve_preset`: a
    preset name, the path of a house-rules TOML file or an :class:`eights.Rules`), with the
    preset's ``variants`` applied (a list of names, or one str of names with commas)."""
    if isinstance(variants, str):  # one name, not its letters
        variants = [v.strip() for v in variants.split(",") if v.strip()]
    if not isinstance(variants, Sequence) or not all(isinstance(v, str) for v in variants):
        raise TypeError(f"variants must be a list of variant names, got {describe(variants)}")
    resolved = resolve_preset(rules, "rules")
    out = resolved if isinstance(resolved, Rules) else Rules(resolved)
    return out.with_variants(*variants) if variants else out


@text_display
@dataclasses.dataclass
class TrainResult:
    """What :func:`train` did: the run folder and its files, the learner decisions and minutes
    of training (those of the runs it resumed included), the device and threads, and the
    arena results (opponent -> ``{"win_rate", "ci", "deals", ...}``; empty when skipped).
    IPython shows it as its text (``str``)."""

    out: str
    agent_file: str
    decisions: int
    minutes: float
    updates: int
    device: str
    env_threads: int
    torch_threads: int
    arena: Dict[str, Dict[str, Any]]

    def __str__(self) -> str:
        lines = [f"{self.decisions:,} learner decisions in {self.minutes:.1f} min ({self.updates} updates)"]
        lines += [f"agent file: {self.agent_file}"]
        for opp, r in self.arena.items():
            lines.append(f"vs {opp:<10} {r['win_rate']:.3f} [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] ({r['deals']} deals)")
        return "\n".join(lines)


def _check_seats(seats: Optional[Sequence[int]], players: int) -> List[int]:
    if seats is None:
        return list(range(players))
    whole = isinstance(seats, Sequence) and not isinstance(seats, str)
    if not whole or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) for s in seats):
        raise TypeError(f"seats must be a list of seat numbers in [0, {players - 1}], got {describe(seats)}")
    given = [int(s) for s in seats]
    out = sorted(set(given))
    if not out or out[0] < 0 or out[-1] >= players or len(out) < len(given):
        raise ValueError(f"seats must be distinct seat numbers in [0, {players - 1}], got {list(seats)}")
    return out


def _check_init(init: Any) -> None:
    """``init`` names a starting point (:data:`INITS`) or a card-network file that loads
    (``ValueError`` naming ``init`` otherwise; a flat agent file continues from its run folder)."""
    if not isinstance(init, (str, os.PathLike)):
        raise TypeError(f"init must be scratch, net or the path of a card-network file, got {init!r}")
    if init in INITS:
        return
    from .cardnet import load_path

    try:
        load_path(os.fspath(init))
    except (ValueError, MemoryError, RuntimeError) as exc:  # a network too large to build: one line too
        hint = checkpoint_hint(init)
        close = difflib.get_close_matches(os.fspath(init).strip().lower(), INITS, n=1, cutoff=0.6)
        why = str(exc)
        if close and not os.path.exists(os.fspath(init)):  # a misspelt name, not a file
            why = f"{os.fspath(init)}: no such file (did you mean {close[0]}?)"
        raise ValueError(
            f"init must be {' or '.join(INITS)} or the path of a card-network file (eights-net-v2 or -v3, such as "
            f"the agent file of an earlier --init net run; a flat file continues from its run folder, the same "
            f"out): {f'{os.fspath(init)!r} is not one{hint}' if hint else why}"
        ) from None


def _new_learner(init: str, rules: Rules, players: int, ppo: PPOConfig):
    if init == "scratch":
        return PolicyNet(OBS_SIZE, NUM_ACTIONS, ppo.hidden)
    from .cardpolicy import CardPolicy, shipped_card_policy

    if init == "net":
        return shipped_card_policy(rules.encode(players))
    from .cardnet import load_path

    return CardPolicy(load_path(os.fspath(init)), rules.encode(players))


def train(
    rules: Union[str, Rules, os.PathLike[str]] = "crazy_eights",
    players: int = 2,
    *,
    out: str = "runs/train",
    minutes: Optional[float] = None,
    decisions: Optional[int] = None,
    variants: Sequence[str] = (),
    seats: Optional[Sequence[int]] = None,
    opponents: Union[str, Sequence[str]] = "",
    init: Union[str, os.PathLike[str]] = "scratch",
    device: str = "auto",
    env_threads: Optional[int] = None,
    torch_threads: Optional[int] = None,
    seed: int = 0,
    eval_deals: int = 1000,
    eval_seed: int = 12345,
    ppo: Optional[PPOConfig] = None,
    league: Optional[LeagueConfig] = None,
    log_every: int = 5,
    restart: bool = False,
    progress: bool = True,
    command: str = "",
    log: Callable[[str], None] = print,
) -> TrainResult:
    """Train an agent for ``rules`` at ``players`` seats and evaluate it (see the module
    documentation).

    Args:
        rules: a preset name, a house-rules TOML path or an :class:`eights.Rules`;
            ``variants``: the preset's variants to apply.
        players: the table size (any the rules allow).
        out: the run folder (resumed when it holds a checkpoint, unless ``restart``).
        minutes, decisions: the budget, whichever ends first, counting the runs resumed
            (default: 30 minutes); a run stops after the update that reaches it.
        seats: the learner's seats (default: every seat, one batch of games per seat).
        opponents: more opponents beside the league: built-in bot names or saved agent files,
            comma separated or a list (default: ``league.opponents``; their share of the games:
            ``league.opponents_share``).
        init: ``"scratch"`` (a new flat network), ``"net"`` (fine-tune the shipped card
            network, which plays any rules; the file it writes does too) or the path of a
            card-network file (eights-net-v2 or -v3: the agent file of an earlier ``"net"``
            run, say, to fine-tune it further or on other rules), with ``"net"``'s defaults.
        device: ``"auto"`` (CUDA when PyTorch sees a GPU), ``"cpu"`` or ``"cuda[:N]"``.
        env_threads, torch_threads: threads of the envs and of PyTorch (default: chosen for
            the machine, :func:`eights.train.machine.pick_threads`).
        eval_deals: duplicate deals of the final evaluation against each of ``random`` and
            ``heuristic`` (0: none); ``eval_seed``: their seed.
        ppo, league: PPO's settings and the league's (default: :func:`default_ppo`,
            :func:`default_league`).
        log_every: updates between two points of the learning curve.
        progress: show a progress bar; ``command``: the command line, for the record.

    Raises:
        ValueError: bad rules, table size, seats, budget, init, device or opponents, or a
            checkpoint in ``out`` of other rules or another table.
    """
    plan = _plan(
        rules, players, variants, seats, minutes, decisions, init, ppo, league, opponents, eval_deals, log_every
    )
    seed, eval_seed, out = _run_args(seed, eval_seed, out)
    dev = machine.pick_device(device)
    env_threads, torch_threads = machine.pick_threads(env_threads, torch_threads, dev)
    plan.update(out=out, dev=dev, env_threads=env_threads, torch_threads=torch_threads, seed=seed, log=log)
    plan.update(eval_deals=eval_deals, eval_seed=eval_seed, log_every=log_every, progress=progress, command=command)
    log(
        f"rules {plan['rules'].label}, {players} players, learner seats {plan['seats']}, init {init}; "
        f"device {dev}, {_count(env_threads, 'env thread')}, {_count(torch_threads, 'PyTorch thread')} "
        f"({machine.hardware(dev)})"
    )
    before = torch.get_num_threads()
    torch.set_num_threads(torch_threads)
    try:
        folder, run, meta = _train(plan, restart)
        return _evaluate(plan, folder, run, meta)
    finally:
        torch.set_num_threads(before)


def _run_args(seed: Any, eval_seed: Any, out: Any) -> Tuple[int, int, str]:
    """``seed``, ``eval_seed`` and ``out`` checked, before any file is written."""
    seed = as_int(seed, "seed")
    if not 0 <= seed < 2**32:  # numpy's global generator, seeded from it, takes 32 bits
        raise ValueError(f"seed must be in [0, 2**32), got {seed}")
    return seed, check_seed(eval_seed, "eval_seed"), as_path(out, "out")


def _count(n: int, what: str) -> str:
    """``"1 env thread"``, ``"2 env threads"``."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def _plan(
    rules, players, variants, seats, minutes, decisions, init, ppo, league, opponents, eval_deals, log_every
) -> Dict[str, Any]:
    """The run's checked settings (``ValueError`` or ``TypeError`` naming the first bad one)."""
    _check_init(init)
    init = init if init in INITS else os.fspath(init)
    ruleset = resolve_rules(rules, variants)
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an integer, got {players!r}")
    ruleset.validate(players)
    if minutes is not None:
        minutes = as_minutes(minutes, "minutes")
    if decisions is not None and (isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 1):
        raise ValueError(f"decisions must be a positive integer, got {decisions!r}")
    if minutes is None and decisions is None:
        minutes = DEFAULT_MINUTES
    ppo = default_ppo(init) if ppo is None else ppo
    if not isinstance(ppo, PPOConfig):
        raise TypeError(f"ppo must be an eights.train.PPOConfig or None, got {describe(ppo)}")
    ppo.check()
    if ppo.teacher:
        try:
            Bot(ppo.teacher)
        except ValueError as exc:
            raise ValueError(f"teacher: {exc}") from None
    league = default_league() if league is None else league
    if not isinstance(league, LeagueConfig):
        raise TypeError(f"league must be an eights.train.LeagueConfig or None, got {describe(league)}")
    listed = opponents.split(",") if isinstance(opponents, str) else opponents
    if not isinstance(listed, Sequence) or not all(isinstance(o, str) for o in listed):
        raise TypeError(f"opponents must be bot names, comma-separated or a list, got {describe(opponents)}")
    others = [o.strip() for o in listed if o.strip()]
    if league.opponents and not others:
        others = [o.strip() for o in league.opponents.split(",") if o.strip()]
    league = dataclasses.replace(league, opponents=",".join(others))
    league.check()
    outputs.opponents(others, ruleset, players, "cpu")  # ValueError naming a bad one, before any file
    if league.search_bot:
        try:
            Bot(league.search_bot)
        except ValueError as exc:
            raise ValueError(f"LeagueConfig.search_bot: {exc}") from None
    if isinstance(eval_deals, bool) or not isinstance(eval_deals, int) or not 0 <= eval_deals <= MAX_DEALS:
        raise ValueError(f"eval_deals must be an integer in [0, {MAX_DEALS}] (0: no evaluation), got {eval_deals!r}")
    if isinstance(log_every, bool) or not isinstance(log_every, int) or log_every < 1:
        raise ValueError(f"log_every must be a positive integer, got {log_every!r}")
    return {
        "rules": ruleset, "players": players, "seats": _check_seats(seats, players), "init": init,
        "minutes": minutes, "decisions": decisions, "ppo": ppo, "league": league, "others": others,
    }  # fmt: skip


def _start(plan: Dict[str, Any], folder: outputs.RunFolder, restart: bool) -> SelfPlay:
    """The self-play run: new, or resumed from the folder's checkpoint."""
    ruleset, players, init, ppo, dev, log = (plan[k] for k in ("rules", "players", "init", "ppo", "dev", "log"))
    saved = None if restart else folder.load_checkpoint(plan["setting"])
    np.random.seed(plan["seed"])
    state: Dict[str, Any] = {"update": 0, "step": 0, "seconds": 0.0, "snapshots": []}
    plan["curve"] = LearningCurve()
    plan["resumed"] = saved is not None
    if saved is None:
        torch.manual_seed(plan["seed"])
        agent = _new_learner(init, ruleset, players, ppo).to(dev)
        optimizer = torch.optim.Adam(agent.parameters(), lr=ppo.learning_rate, eps=1e-5)
    else:
        # Every field was checked by folder.load_checkpoint; the tensors are checked against the
        # architecture before the network is built, the snapshots before SelfPlay loads them.
        with restoring(folder.checkpoint):
            torch.manual_seed(plan["seed"] + saved["update"])
            agent = outputs.rebuild(saved, folder.checkpoint).to(dev)
            width = int(agent.fc1.out_features) if saved["kind"] == "flat" else ppo.hidden
            if width != ppo.hidden:  # the network is the checkpoint's: say so, not train silently
                log(
                    f"resuming: hidden {ppo.hidden} ignored: the checkpoint's network is {width} wide "
                    "(restart=True starts a new run)"
                )
            optimizer = torch.optim.Adam(agent.parameters(), lr=ppo.learning_rate, eps=1e-5)
            optimizer.load_state_dict(saved["optimizer"])
            state = {k: saved[k] for k in state}
            pool_size = plan["league"].pool_size
            state["snapshots"] = outputs.check_snapshots(saved["snapshots"], agent, pool_size, folder.checkpoint)
            plan["curve"].points = list(saved["curve"])
            minutes = saved["seconds"] / 60
            log(f"resumed from {folder.checkpoint} at {saved['step']:,} learner decisions ({minutes:.1f} min)")
    pool, names = outputs.opponents(plan["others"], ruleset, players, dev)
    return SelfPlay(
        agent, optimizer, ruleset, ppo, plan["league"], num_players=players, seed=plan["seed"],
        env_threads=plan["env_threads"], device=dev, seats=plan["seats"], others=pool, other_names=names, **state,
    )  # fmt: skip


def _train(plan: Dict[str, Any], restart: bool):
    """Train for the budget with a progress bar; the folder, the run and the agent file's
    record. Files are written when this call trained (or the agent file is missing)."""
    ruleset, players, init, log = plan["rules"], plan["players"], plan["init"], plan["log"]
    folder = outputs.RunFolder(plan["out"])
    plan["setting"] = {"rules": ruleset.to_toml(), "players": players, "seats": plan["seats"], "init": init}
    run = _start(plan, folder, restart)
    agent, curve, step0 = run.agent, plan["curve"], run.step
    settings = {"seed": plan["seed"], **dataclasses.asdict(plan["ppo"]), **dataclasses.asdict(plan["league"])}
    meta = outputs.record(ruleset, players, plan["seats"], init, plan["command"], plan["seed"], plan["dev"])
    title = f"{ruleset.label}, {players} players, init {init}"

    def save() -> None:
        folder.save_checkpoint(run, agent, curve, plan["setting"], settings)

    # The run's time as its checkpoint records it: the files written after the save do not
    # count (the end line said 2.2 min where the next call resumed at 2.1).
    ended: List[float] = []

    def finish() -> None:
        ended.append(run.elapsed())
        if run.step > step0 or not os.path.exists(folder.agent_file):
            if run.step > step0 and (not curve.points or curve.points[-1]["step"] < run.step):
                curve.add(run)  # the curve ends where the run does, however few its updates
            save()
            meta.update(decisions=str(run.step), minutes=f"{ended[-1] / 60:.2f}")
            folder.write_agent(agent, ruleset, players, meta)
            curve.write_csv(folder.curve_csv)
            curve.plot(folder.curve_png, title, fair=1.0 / players)

    minutes, decisions = plan["minutes"], plan["decisions"]
    bar, last_save = outputs.progress_bar(plan["progress"]), [time.time()]

    def on_update(r: SelfPlay) -> None:
        if r.update % plan["log_every"] == 0:
            point = curve.add(r)
            rates = {k[3:]: f"{v:.2f}" for k, v in point.items() if k.startswith("vs_") and v == v}
            bar.set_postfix(rates, refresh=False)
        if time.time() - last_save[0] > 120:
            save()
            last_save[0] = time.time()
        p = 0.0 if minutes is None else r.elapsed() / (60.0 * minutes)
        bar.n = int(1000 * min(1.0, max(p, 0.0 if decisions is None else r.step / decisions)))
        bar.refresh()

    try:
        run.run(
            minutes, decisions, init_norm=not plan["resumed"] and init == "scratch",
            value_warmup=0 if init == "scratch" else VALUE_WARMUP, on_update=on_update,
        )  # fmt: skip
    except KeyboardInterrupt:
        bar.close()
        finish()
        log(f"stopped at {run.step:,} learner decisions; checkpoint saved in {folder.checkpoint}")
        raise
    bar.close()
    finish()
    rate = (run.step - step0) / max(1e-9, run.rollout_seconds + run.update_seconds)
    rate_text = f"{rate:,.0f} a second this call" if run.step > step0 else "no update this call"
    log(f"trained {run.step:,} learner decisions in {ended[-1] / 60:.1f} min ({rate_text}), {run.update} updates")
    return folder, run, meta


def _evaluate(plan: Dict[str, Any], folder: outputs.RunFolder, run: SelfPlay, meta: Dict[str, str]) -> TrainResult:
    """The agent file in the arena against random and heuristic, and the run's summary."""
    ruleset, players, fair = plan["rules"], plan["players"], 1.0 / plan["players"]
    results: Dict[str, Dict[str, Any]] = {}
    if plan["eval_deals"] > 0:
        plan["log"](f"arena: {ruleset.label}, {players} players, {plan['eval_deals']} duplicate deals, 95% intervals")
        for opp in ("random", "heuristic"):
            r = folder.evaluate(
                ruleset, players, opp, plan["eval_deals"], plan["eval_seed"], plan["env_threads"], plan["progress"]
            )
            results[opp] = r
            plan["log"](
                f"vs {opp:<10} {r['win_rate']:.3f} [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] (fair share {fair:.3f})"
            )
    result = TrainResult(
        folder.out, folder.agent_file, run.step, run.elapsed() / 60, run.update, plan["dev"], plan["env_threads"],
        plan["torch_threads"], results,
    )  # fmt: skip
    folder.write_summary(result, meta, fair)
    return result
