"""The package's PPO (``eights.train``): the network reads the shipped ``net1`` weights and plays as
the Rust bot does, a rollout counts the learner's decisions and reports every finished game, the
value-only update leaves the policy alone, the clipped update moves it, and the hyperparameters
are checked."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import _core

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights.train import PolicyNet, PPOConfig, Rollout, net_policy, net_state_dict, ppo_update  # noqa: E402


def _positions(preset, games=6, seed=0):
    obs, masks = [], []
    bots = [eights.Bot("heuristic"), eights.Bot("random", seed=seed)]
    for k in range(games):
        g = eights.Game(preset, 2, seed=seed * 100 + k)
        while not (g.is_terminal or g.is_truncated):
            p = g.current_player
            obs.append(g.observation(p))
            masks.append(g.action_mask())
            g.step(bots[(p + k) % 2].act(g))
    return np.asarray(obs, np.float32), np.asarray(masks, bool)


@pytest.mark.parametrize("preset", ["crazy_eights", "switch_blackjack"])
def test_net_policy_plays_as_the_rust_net1_bot(preset):
    net = net_policy(preset)
    obs, masks = _positions(preset)
    assert len(obs) > 100
    with torch.no_grad():
        logits, _ = net.logits_value(torch.from_numpy(obs), torch.from_numpy(masks))
    # The Rust bot's probabilities, from the same weights (float16 layers widened exactly).
    np.testing.assert_allclose(logits.softmax(-1).numpy(), _core.net_probs(preset, obs, masks), atol=1e-5)
    greedy = net.act(obs, masks, greedy=True)
    want = _core.net_probs(preset, obs, masks)
    assert np.all(want[np.arange(len(obs)), greedy] == want.max(1))


def test_net_weights_are_the_file_compiled_into_the_extension():
    from safetensors.numpy import load

    data = _core.net_weights()
    assert isinstance(data, bytes) and len(data) > 100_000
    tensors = load(data)
    assert {k.split(".")[0] for k in tensors} == set(_core.net_presets())
    with pytest.raises(ValueError, match="no network for crazy_eights_xtreme.*crazy_eights"):
        net_state_dict("crazy_eights_xtreme")


def _rollout(num_envs=8, steps=32, opponents="heuristic", seed=0):
    envs = [
        eights.VecEnv("crazy_eights", num_envs // 2, 2, opponents=opponents, learner_seat=s, seed=seed + s)
        for s in range(2)
    ]
    return Rollout(envs, steps, eights.OBS_SIZE)


def test_rollout_counts_learner_decisions_and_reports_every_finished_game():
    torch.manual_seed(0)
    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 32)
    rollout = _rollout()
    rollout.reset()
    ended = []
    decisions = rollout.collect(net, lambda s, env, rows, r: ended.extend((s, int(i), float(r[i])) for i in rows))
    # Every step of every game is a learner decision, except the dummy step after a game's end.
    assert decisions == int(rollout.valid.sum()) == 8 * 32 - len(ended)
    assert ended and all(r in (1.0, -1.0, 0.0) for _, _, r in ended)
    assert {s for s, _, _ in ended} <= {0, 1}
    assert int(rollout.done.sum()) == len(ended)
    batch = rollout.batch(*rollout.advantages(net, 0.99, 0.95))
    assert len(batch["act"]) == decisions
    assert batch["mask"][torch.arange(decisions), batch["act"]].all()  # only legal actions were played


def _collected(torch_seed, seed):
    """A new network, its optimizer and the batch of one rollout it played."""
    torch.manual_seed(torch_seed)
    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 32)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    rollout = _rollout(seed=seed)
    net.norm.update(rollout.reset())
    rollout.collect(net)
    return net, opt, rollout.batch(*rollout.advantages(net, 0.99, 0.95))


def test_value_only_update_leaves_the_policy_and_the_update_moves_it():
    net, opt, batch = _collected(1, 5)
    before = {k: v.clone() for k, v in net.state_dict().items()}
    stats = ppo_update(net, opt, batch, PPOConfig(), value_only=True)
    after = net.state_dict()
    moved = {k for k in before if not torch.equal(before[k], after[k])}
    assert moved == {"v.weight", "v.bias"}, moved
    assert np.isfinite(stats["v"])
    stats = ppo_update(net, opt, batch, PPOConfig())
    moved = {k for k in before if not torch.equal(before[k], net.state_dict()[k])}
    assert {"fc1.weight", "pi.weight", "norm.mean"} <= moved
    assert all(np.isfinite(stats[k]) for k in ("pg", "v", "ent", "kl"))


def test_rollout_keeps_the_teachers_moves_and_the_teacher_term_pulls_the_policy_to_them():
    torch.manual_seed(2)
    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 32)
    rollout = _rollout(seed=7, opponents="heuristic")
    net.norm.update(rollout.reset())
    rollout.collect(net, teacher="heuristic")
    batch = rollout.batch(*rollout.advantages(net, 0.99, 0.95))
    teach = batch["teach"]
    # A move for every learner decision, and a legal one.
    assert (teach >= 0).all()
    assert batch["mask"][torch.arange(len(teach)), teach].all()

    def agreement():
        with torch.no_grad():
            logits, _ = net.logits_value(batch["obs"], batch["mask"])
        return float((logits.argmax(1) == teach).float().mean())

    before = agreement()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    cfg = PPOConfig(update_epochs=8, target_kl=0.0)
    first = ppo_update(net, opt, batch, cfg, teacher_coef=5.0)["teacher"]
    last = first
    for _ in range(4):
        last = ppo_update(net, opt, batch, cfg, teacher_coef=5.0)["teacher"]
    assert last < first
    assert agreement() > max(0.8, before + 0.2), (before, agreement())
    # Without a teacher the rollout keeps no moves and the update reports no teacher term.
    rollout.collect(net)
    batch = rollout.batch(*rollout.advantages(net, 0.99, 0.95))
    assert (batch["teach"] == -1).all()
    assert "teacher" not in ppo_update(net, opt, batch, PPOConfig(), teacher_coef=5.0)


@pytest.mark.parametrize(
    "change,error,match",
    [
        (dict(teacher=3), TypeError, "teacher must be a bot name"),
        (dict(teacher_until=1.5), ValueError, r"teacher_until must be in \[0, 1\]"),
        (dict(teacher_coef=-1.0), ValueError, r"teacher_coef must be in \[0, 1e\+06\]"),
        (dict(num_envs=0), ValueError, "num_envs must be >= 1"),
        (dict(gamma=1.5), ValueError, r"gamma must be in \[0, 1\]"),
        (dict(learning_rate=0.0), ValueError, r"learning_rate must be in \(0, 1e\+06\]"),
        # Past float32's range: NaN weights rated as a policy (ent_coef), a torch RuntimeError
        # traceback (clip_coef), numpy's "isfinite not supported" (an int past float's range).
        (dict(ent_coef=1e308), ValueError, r"ent_coef must be in \[0, 1e\+06\], got 1e\+308"),
        (dict(clip_coef=1e308), ValueError, r"clip_coef must be in \[0, 1e\+06\]"),
        (dict(learning_rate=10**400), ValueError, r"learning_rate must be in \(0, 1e\+06\], got 1000"),
        # Unbounded counts: a 5.5e15-byte allocation, an update that never ended.
        (dict(num_steps=10**12), ValueError, r"num_steps must be in \[1, 65536\]"),
        (dict(update_epochs=10**9), ValueError, r"update_epochs must be in \[1, 10000\]"),
        (dict(num_envs=2**20, num_steps=8), ValueError, r"num_envs \* num_steps must be at most 4,194,304"),
        (dict(ent_coef=float("nan")), ValueError, "ent_coef"),
        (dict(hidden=64.0), TypeError, "hidden must be an integer"),
        (dict(clip_coef="0.2"), TypeError, "clip_coef must be a number"),
    ],
)
def test_ppo_config_is_checked(change, error, match):
    PPOConfig().check()
    with pytest.raises(error, match=match):
        PPOConfig(**change).check()


def test_ppo_config_takes_numpy_numbers():
    # A np.float32 learning rate was "must be a number".
    PPOConfig(learning_rate=np.float32(1e-3), gamma=np.float64(0.9), num_steps=np.int64(8)).check()


@pytest.mark.parametrize(
    "args,error,match",
    [
        # A width of 0 built a network of no hidden units; -1 and 10**12 were torch's errors.
        ((10, 197, 0), ValueError, r"hidden must be in \[1, 8192\], got 0"),
        ((10, 197, -1), ValueError, r"hidden must be in \[1, 8192\], got -1"),
        ((10, 197, 10**12), ValueError, r"hidden must be in \[1, 8192\]"),
        ((0, 197, 8), ValueError, r"obs_size must be in \[1, 346\], got 0"),
        ((10, 198, 8), ValueError, r"num_actions must be in \[1, 197\], got 198"),
        ((10, 197, 8.0), TypeError, "hidden must be an integer"),
    ],
)
def test_policy_net_checks_its_sizes(args, error, match):
    assert PolicyNet(np.int64(10), 197, np.int32(8)).obs_size == 10
    with pytest.raises(error, match=match):
        PolicyNet(*args)


def test_an_update_whose_loss_is_not_finite_stops_with_the_weights_as_they_were():
    # Huge coefficients made every weight NaN, and the run went on to rate the NaN network in
    # the arena ("vs random 1.000"). A non-finite loss or gradient now stops the update before
    # the optimizer's step.
    net, opt, batch = _collected(3, 9)
    batch["adv"][:] = float("nan")  # every minibatch: its first step fails
    before = {k: v.clone() for k, v in net.state_dict().items()}
    with pytest.raises(FloatingPointError, match="the PPO update's gradient .* is not finite"):
        ppo_update(net, opt, batch, PPOConfig())
    assert all(torch.equal(before[k], v) for k, v in net.state_dict().items())
    batch["ret"][:] = float("inf")
    with pytest.raises(FloatingPointError, match="the PPO update's value loss .* is not finite"):
        ppo_update(net, opt, batch, PPOConfig(), value_only=True)
    assert all(torch.equal(before[k], v) for k, v in net.state_dict().items())


def test_the_curve_files_a_game_under_a_kind_only_when_every_opponent_is_of_it():
    # At three players each opponent seat draws its own kind; a game was filed under the next
    # seat's kind alone, so the curve's win rate "against random" mixed in the other seat's
    # bots (a walk: 0.53 on the curve, 0.955 against random bots in the arena).
    from types import SimpleNamespace

    from eights.train.selfplay import SelfPlay

    names = ["random", "heuristic", "snapshots"]
    pool = SimpleNamespace(kind=lambda k: names[k])
    choices = {0: np.array([0, 0, 1, 2]), 2: np.array([0, 1, 1, 2])}  # seats 0 and 2; the learner at 1
    env = SimpleNamespace(pool_choices=lambda: choices)
    run = SimpleNamespace(seats=[1], num_players=3, pools=[pool], results={k: [] for k in names})
    SelfPlay._record(run, 0, env, np.array([0, 1, 2, 3]), np.array([1.0, 1.0, -1.0, 1.0]))
    assert run.results == {"random": [True], "heuristic": [False], "snapshots": [True]}
    # At two players every game counts, under its one opponent's kind.
    run = SimpleNamespace(seats=[0], num_players=2, pools=[pool], results={k: [] for k in names})
    env = SimpleNamespace(pool_choices=lambda: {1: np.array([1, 0])})
    SelfPlay._record(run, 0, env, np.array([0, 1]), np.array([-1.0, 1.0]))
    assert run.results == {"random": [True], "heuristic": [False], "snapshots": []}


def test_a_runs_ppo_settings_are_public_to_change_a_few_of():
    # A walk gave train() a PPOConfig(num_envs=16, num_steps=32) to make batches smaller, and
    # lost the run's teacher and learning rate with it (0 wins in 40 games against random);
    # default_ppo, which the docstrings point to, was not importable from eights.train.
    import dataclasses

    from eights.train import PPOConfig, default_league, default_ppo

    run = dataclasses.replace(default_ppo(), num_envs=16, num_steps=32)
    assert (run.teacher, run.learning_rate, run.hidden) == ("net", 1e-3, 256)
    assert PPOConfig().teacher == "" and "default_ppo" in PPOConfig.__doc__
    assert default_league().pool_size > 0


@pytest.mark.parametrize(
    "change, match",
    [
        # torch's "cannot reshape tensor of 0 elements" from inside the rollout.
        (dict(num_steps=0), r"num_steps must be >= 1"),
        # torch's "number of sections must be larger than 0".
        (dict(num_minibatches=0), r"num_minibatches must be >= 1"),
        # 3 envs on two learner seats play 1 game a seat: 16 decisions, not the 24 checked.
        (dict(num_envs=3, num_steps=8, num_minibatches=24), r"at most the decisions of a rollout, 16 here"),
    ],
)
def test_self_play_checks_its_settings_as_train_does(change, match):
    from eights.train import LeagueConfig, SelfPlay

    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 16)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    with pytest.raises(ValueError, match=match):
        SelfPlay(net, opt, "crazy_eights", PPOConfig(**change), LeagueConfig(), num_players=2)


def test_self_play_run_takes_the_budgets_train_takes():
    """``SelfPlay.run(minutes=inf)`` (or ``1e300``) trained for ever with its progress at 0,
    and ``nan`` trained nothing without a word; ``<= 0``, a budget already spent, stays."""
    from eights.train import LeagueConfig, SelfPlay

    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 16)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    sp = SelfPlay(
        net, opt, "crazy_eights", PPOConfig(num_envs=2, num_steps=4, num_minibatches=1), LeagueConfig(), num_players=2
    )
    for minutes in (float("inf"), 1e300, float("nan"), 1e7):
        with pytest.raises(ValueError, match=r"^minutes must be in \(-inf, 1e7\)"):
            sp.run(minutes)
    with pytest.raises(TypeError, match="^minutes must be a number"):
        sp.run("5")
    with pytest.raises(ValueError, match="needs minutes or max_steps"):
        sp.run(None)
    sp.run(0)
    assert sp.update == 0


def test_an_agent_trained_on_changed_rules_is_not_named_as_the_presets(tmp_path):
    """The agent file's name (the arena's row for it) was ``train-<rules.name>-<n>p``: an agent
    trained on ``crazy_eights`` with six cards each was named as one trained on the preset."""
    from eights.agents.files import agent_file_label
    from eights.train import train
    from eights.train.outputs import record

    def name(rules, players=2):
        return record(rules, players, [0, 1], "scratch", "eights train", 0, "cpu")["name"]

    six = eights.Rules("crazy_eights", {"deal": {"hand_size": 6}})
    # A preset, a house-rules file or a complete file of the preset's rules: named as before.
    assert name(eights.Rules("crazy_eights")) == "train-crazy_eights-2p"
    assert name(eights.Rules.from_dict(eights.Rules("crazy_eights").to_dict()), 3) == "train-crazy_eights-3p"
    house = eights.Rules.from_toml(Path(__file__).resolve().parents[3] / "examples" / "switch_house.toml")
    assert name(house, 3) == "train-switch_house-3p"
    # A house-rules file changed further is not named as the file.
    smaller = name(house.replace(deal={"hand_size": 5}), 3)
    assert re.fullmatch(r"train-switch_house-changed-[0-9a-f]{8}-3p", smaller), smaller
    # Changed rules: a name of their own, the same however the same rules are written.
    changed = name(six)
    assert re.fullmatch(r"train-crazy_eights-changed-[0-9a-f]{8}-2p", changed), changed
    assert name(eights.Rules.from_toml(six.to_toml())) == name(eights.Rules.from_dict(six.to_dict())) == changed
    others = {name(eights.Rules("crazy_eights", {"deal": {"hand_size": 4}})), name(six.with_variants("aces_wild"))}
    assert changed not in others and len(others) == 2
    assert name(eights.Rules("crazy_eights").with_variants("aces_wild")) not in others | {"train-crazy_eights-2p"}
    # The name the trained file plays under in the arena.
    result = train(
        six, 2, out=str(tmp_path), decisions=100, ppo=PPOConfig(num_envs=8, num_steps=16),
        eval_deals=0, progress=False, log=lambda _: None,
    )  # fmt: skip
    assert agent_file_label(result.agent_file) == changed
