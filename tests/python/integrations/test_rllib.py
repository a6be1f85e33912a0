"""The Ray RLlib multi-agent env (eights.integrations.rllib) and one real training iteration with two runners."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

import eights
from eights.integrations.rllib import EightsMultiAgentEnv, agent_id

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _play(env: EightsMultiAgentEnv, seed: int, rng: np.random.Generator):
    """Play one hand with random legal actions; return the list of (agent, action) and the end."""
    obs, _ = env.reset(seed=seed)
    trace = []
    while True:
        assert len(obs) == 1, "a turn-based env gives one observation per step"
        (agent,) = obs
        mask = obs[agent]["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        trace.append((agent, action))
        obs, rewards, terms, truncs, _ = env.step({agent: action})
        if terms["__all__"] or truncs["__all__"]:
            return trace, obs, rewards, terms, truncs
        assert rewards == {agent: 0.0}


@pytest.mark.parametrize("preset,players", [("crazy_eights", 2), ("switch_blackjack", 3), ("kings_reverse", 4)])
def test_turn_based_observations_and_final_rewards(preset, players):
    env = EightsMultiAgentEnv({"preset": preset, "num_players": players, "seed": 3})
    assert env.possible_agents == [agent_id(s) for s in range(players)]
    space = env.observation_spaces["player_0"]
    obs, _ = env.reset(seed=11)
    (agent,) = obs
    assert agent == agent_id(env.game.current_player)
    assert space.contains(obs[agent])
    # The mask in the observation is exactly the game's legal actions.
    assert np.array_equal(np.flatnonzero(obs[agent]["action_mask"]), env.game.legal_actions())
    trace, obs, rewards, terms, truncs = _play(env, 11, np.random.default_rng(0))
    acted = {a for a, _ in trace}
    assert set(obs) == acted and set(rewards) == acted
    if terms["__all__"]:
        winner = env.game.winner
        assert rewards[agent_id(winner)] == 1.0
        for a, r in rewards.items():
            if a != agent_id(winner):
                assert r == pytest.approx(-1.0 / (players - 1))
    for a in obs:
        # Nobody is to act at the end: every final mask is empty.
        assert not obs[a]["action_mask"].any()


def test_same_seed_same_hand_and_sampled_actions_are_legal():
    env = EightsMultiAgentEnv({"preset": "crazy_eights_specials", "num_players": 2})
    a = _play(env, 5, np.random.default_rng(1))[0]
    b = _play(env, 5, np.random.default_rng(1))[0]
    assert a == b
    env.reset(seed=5)
    for _ in range(30):
        action = env.action_spaces[agent_id(env.game.current_player)].sample()
        assert action in env.game.legal_actions()
        _, _, terms, truncs, _ = env.step({agent_id(env.game.current_player): action})
        if terms["__all__"] or truncs["__all__"]:
            break


def test_a_toml_path_as_the_preset_plays_the_files_rules():
    # Issue #61: a TOML path goes wherever a preset name does, RLlib's env_config included.
    from pathlib import Path

    house = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
    if not house.is_file():
        pytest.skip("the examples folder is not here")
    env = EightsMultiAgentEnv({"preset": str(house), "num_players": 3})
    env.reset(seed=2)
    assert env.game.rules_dict() == eights.Game(eights.Rules.from_toml(house), 3).rules_dict()
    assert env.game.rules_dict()["name"] == "house_eights"
    with pytest.raises(FileNotFoundError, match="no such file"):
        EightsMultiAgentEnv({"preset": str(house.with_name("missing.toml"))})


def test_bad_config_and_wrong_agent_are_clear_errors():
    with pytest.raises(ValueError, match="unknown env_config keys"):
        EightsMultiAgentEnv({"preset": "crazy_eights", "players": 2})
    with pytest.raises(ValueError, match="reward"):
        EightsMultiAgentEnv({"reward": "points"})
    with pytest.raises(ValueError, match="unknown preset|preset"):
        EightsMultiAgentEnv({"preset": "crazy_nines"})
    env = EightsMultiAgentEnv({})
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    other = agent_id(1 - env.game.current_player)
    with pytest.raises(ValueError, match="turn"):
        env.step({other: 58})
    with pytest.raises(eights.IllegalActionError):
        env.step({agent: 196 if not obs[agent]["action_mask"][196] else 195})


def test_rllib_env_checker_accepts_the_env():
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(EightsMultiAgentEnv({"preset": "switch_blackjack", "num_players": 3}))


@pytest.mark.parametrize("rules", [[], ["--obs-rules", "--preset", "switch_blackjack"]], ids=["plain", "obs_rules"])
def test_example_trains_one_iteration_with_two_env_runners(tmp_path, rules):
    """examples/rllib_selfplay.py --smoke: one PPO iteration with two env runners on a local Ray
    (and with the rules in the observation, which the masking module reads)."""
    out = tmp_path / "ckpt"
    proc = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "examples", "rllib_selfplay.py"),
            "--smoke",
            "--env-runners",
            "2",
            "--out",
            str(out),
            *rules,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "iteration   1:" in proc.stdout
    assert "vs random" in proc.stdout and "vs heuristic" in proc.stdout
    assert any(out.iterdir()), "no checkpoint written"
    # RLlib's example masking module derived from PPOTorchRLModule, which RLlib deprecates ("will
    # raise an error in the future"); RLlib's own RLModuleConfig notice comes from every module.
    assert "PPOTorchRLModule` has been deprecated" not in proc.stdout + proc.stderr
    if not rules:
        # A fresh process restores the checkpoint with no register() call: importing the
        # integration names the env (before, RLlib's runners said "eights ... is not a
        # tune-registered environment creator").
        restore = (
            "import sys, ray\n"
            "import eights.integrations.rllib\n"
            "from ray.rllib.algorithms.algorithm import Algorithm\n"
            "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)\n"
            "algo = Algorithm.from_checkpoint(sys.argv[1])\n"
            "print('restored', type(algo).__name__, algo.config.env)\n"
            "algo.stop()\n"
            "ray.shutdown()\n"
        )
        back = subprocess.run([sys.executable, "-c", restore, str(out)], capture_output=True, text=True, timeout=600)
        assert "restored PPO eights" in back.stdout, back.stdout[-2000:] + back.stderr[-3000:]


@pytest.mark.parametrize("obs_rules", [False, True])
def test_the_masking_module_masks_and_reads_the_rules_when_the_env_gives_them(obs_rules):
    # eights' own module (RLlib's example one derives from a class RLlib deprecated), built
    # from the env's space: illegal actions get no mass, greedy and sampled; with obs_rules its
    # input is the observation and the rules encoding, and other rules move its logits.
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from eights.integrations.rllib_module import ActionMaskingPPOModule

    torch.manual_seed(0)
    env = EightsMultiAgentEnv({"preset": "crazy_eights", "obs_rules": obs_rules, "seed": 2})
    obs, _ = env.reset(seed=2)
    ((agent, o),) = obs.items()
    module = RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        observation_space=env.observation_spaces[agent],
        action_space=env.action_spaces[agent],
        model_config=DefaultModelConfig(fcnet_hiddens=[16], head_fcnet_hiddens=[]),
    ).build()
    first = next(m for m in module.encoder.modules() if isinstance(m, torch.nn.Linear))
    assert first.in_features == eights.OBS_SIZE + (eights.RULES_SIZE if obs_rules else 0)

    def batch(rules=None):
        entry = {k: torch.as_tensor(np.asarray(v, np.float32))[None].repeat(64, 1) for k, v in o.items()}
        if rules is not None:
            entry["rules"] = torch.as_tensor(rules, dtype=torch.float32)[None].repeat(64, 1)
        return {Columns.OBS: entry}

    b = batch()
    logits = module.forward_inference(b)[Columns.ACTION_DIST_INPUTS]
    assert set(b[Columns.OBS]) == set(o), "the caller's batch is left as it was"
    legal = torch.as_tensor(o["action_mask"]) > 0
    assert bool(legal[logits[0].argmax()]) and (logits[:, ~legal] < -1e30).all()
    sampled = torch.distributions.Categorical(logits=module.forward_exploration(batch())[Columns.ACTION_DIST_INPUTS])
    assert bool(legal[sampled.sample()].all())
    assert module.compute_values(batch()).shape == (64,)
    assert module.forward_train(batch())[Columns.ACTION_DIST_INPUTS].shape == (64, eights.NUM_ACTIONS)
    if obs_rules:
        other = eights.Rules("switch_blackjack").encode()
        moved = module.forward_inference(batch(other))[Columns.ACTION_DIST_INPUTS]
        assert not torch.allclose(moved[:, legal], logits[:, legal])


def test_the_masking_module_refuses_a_space_without_the_mask():
    import gymnasium
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from eights.integrations.rllib_module import ActionMaskingPPOModule

    spec = RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        observation_space=gymnasium.spaces.Box(0, 1, (eights.OBS_SIZE,), np.float32),
        action_space=gymnasium.spaces.Discrete(eights.NUM_ACTIONS),
    )
    with pytest.raises(ValueError, match=r"needs a Dict observation space with 'observations' and 'action_mask'"):
        spec.build()


def _state(env: EightsMultiAgentEnv):
    """What a bad call must leave as it was: the game and the env's generator."""
    return env.game.to_dict(), env._rng.bit_generator.state


@pytest.mark.parametrize(
    "make_bad",
    [
        lambda a: a + 0.9,  # int() truncated it: legal + 0.9 played the legal action
        lambda a: float(a),
        lambda a: np.float64(a),
        lambda a: str(a),  # int() parsed it
        lambda a: True,  # played as action 1
        lambda a: None,
        lambda a: [a],
    ],
    ids=["float", "float-exact", "np-float", "string", "bool", "none", "list"],
)
def test_step_checks_the_action_as_the_gymnasium_env_does(make_bad):
    env, twin = EightsMultiAgentEnv({}), EightsMultiAgentEnv({})
    obs, _ = env.reset(seed=0)
    twin.reset(seed=0)
    ((agent, o),) = obs.items()
    legal = int(np.flatnonzero(o["action_mask"])[0])
    before = _state(env)
    with pytest.raises(TypeError, match=rf"action_dict\['{agent}'\] must be an integer in \[0, 197\), got"):
        env.step({agent: make_bad(legal)})
    assert _state(env) == before
    assert str(env.step({agent: legal})) == str(twin.step({agent: legal}))


def test_step_before_reset_and_a_step_without_a_dict_are_clear_errors():
    env = EightsMultiAgentEnv({})
    before = _state(env)
    with pytest.raises(RuntimeError, match=r"^call reset\(\) before step\(\)$"):  # it played the template deal
        env.step({"player_0": 58})
    assert _state(env) == before
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"action_dict must be a dict of agent id to action, got None"):
        env.step(None)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", 2**64, True, [1, 2]], ids=repr)
def test_reset_checks_the_seed_as_the_package_does_and_changes_nothing(seed):
    # -1, 1.5, "x": numpy's errors; 2**64, True, [1, 2]: seeded the generator.
    with pytest.raises((TypeError, ValueError)) as want:
        eights.make("crazy_eights").reset(seed=seed)
    env = EightsMultiAgentEnv({})
    env.reset(seed=3)
    before = _state(env)
    with pytest.raises(want.type) as got:
        env.reset(seed=seed)
    assert str(got.value) == str(want.value) and str(got.value).startswith("seed must be")
    assert _state(env) == before


@pytest.mark.parametrize(
    "config,options",
    [
        ({}, 5),  # AttributeError: 'int' object has no attribute 'get'
        ({}, {"x": 1}),  # ignored
        ({}, {"deck": ["ZZ"]}),
        ({}, {"deck": "8H"}),
        ({"preset": ["crazy_eights", "switch_blackjack"], "obs_rules": True}, {"deck": ["8H"]}),  # drew a seed first
    ],
    ids=["not-a-dict", "unknown-key", "bad-card", "deck-string", "deck-with-drawn-rules"],
)
def test_reset_checks_its_options_as_the_gymnasium_env_does_and_changes_nothing(config, options):
    gym_env = eights.make(config.get("preset", "crazy_eights"), obs_rules=config.get("obs_rules", False))
    with pytest.raises((TypeError, ValueError)) as want:
        gym_env.reset(options=options)
    env, twin = EightsMultiAgentEnv(config), EightsMultiAgentEnv(config)
    env.reset(seed=3)
    twin.reset(seed=3)
    before = _state(env)
    for seed in (None, 5):
        with pytest.raises(want.type) as got:
            env.reset(seed=seed, options=options)
        assert str(got.value) == str(want.value)
        assert _state(env) == before
    assert str(env.reset()) == str(twin.reset())  # the stream goes on as if the bad calls never happened


@pytest.mark.parametrize("config", [5, "crazy_eights", [("preset", "crazy_eights")]], ids=repr)
def test_a_config_that_is_not_a_dict_is_a_type_error(config):
    # 5: "'int' object is not iterable"; a string: "dictionary update sequence element #0 ..."
    with pytest.raises(TypeError, match=r"env_config must be a dict \(mapping\) of settings or None, got"):
        EightsMultiAgentEnv(config)
