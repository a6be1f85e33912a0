"""A model saved by stable-baselines3, loaded as an arena agent without running code from the
file: every field SB3 would unpickle is given by eights.agents.sb3_file, and the tensors load
as tensors only. A crafted file whose payload writes a marker file is refused, and the marker
stays absent."""

from __future__ import annotations

import base64
import io
import json
import pickle
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import eights
from _helpers import rewrite_zip as _rewrite
from eights.agents.load import load_policy

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")


class _Payload:
    """Pickles as a call that writes ``marker``: what a crafted model file would carry."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


def _serialized(obj) -> dict:
    return {":type:": "<class 'object'>", ":serialized:": base64.b64encode(pickle.dumps(obj)).decode()}


def _model(tmp_path: Path, algo: str = "maskable", **policy_kwargs) -> Path:
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import DQN, PPO

    torch.set_num_threads(1)
    env = eights.make("crazy_eights", seed=0)
    if algo == "dqn":
        model = DQN("MlpPolicy", env, buffer_size=100, seed=0, device="cpu", policy_kwargs=policy_kwargs)
    else:
        cls = MaskablePPO if algo == "maskable" else PPO
        model = cls("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu", policy_kwargs=policy_kwargs)
    path = tmp_path / f"{algo}.zip"
    model.save(str(path))
    return path


@pytest.mark.parametrize(
    "algo, kwargs",
    [("maskable", {"net_arch": [32]}), ("ppo", {"activation_fn": "relu"}), ("dqn", {})],
)
def test_a_saved_model_loads_with_the_same_weights_and_plays_legal_moves(tmp_path, algo, kwargs):
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import DQN, PPO

    if kwargs.get("activation_fn") == "relu":
        kwargs = {"activation_fn": torch.nn.ReLU}  # pickled by reference: read by the data unpickler
    path = _model(tmp_path, algo, **kwargs)
    agent = load_policy(str(path))
    reference = {"maskable": MaskablePPO, "ppo": PPO, "dqn": DQN}[algo].load(str(path), device="cpu")
    assert type(agent.model) is type(reference)
    ours, theirs = agent.model.policy.state_dict(), reference.policy.state_dict()
    assert list(ours) == list(theirs) and all(torch.equal(ours[k], theirs[k]) for k in ours)
    assert agent.model.observation_space == reference.observation_space
    assert agent.model.action_space.n == reference.action_space.n
    game = eights.Game("crazy_eights", 2, seed=1)
    obs, masks = np.stack([game.observation(0)] * 3), np.stack([game.action_mask()] * 3)
    assert masks[np.arange(3), agent.act_batch(obs, masks)].all()


def test_the_payload_runs_under_a_plain_sb3_load(tmp_path):
    # The check below can fail: SB3's own load unpickles the crafted schedule and runs it.
    from sb3_contrib import MaskablePPO

    marker = tmp_path / "ran"
    crafted = _rewrite(_model(tmp_path), tmp_path / "crafted.zip", {"lr_schedule": _serialized(_Payload(marker))})
    try:
        MaskablePPO.load(str(crafted), device="cpu")
    except Exception:  # noqa: BLE001 - the load may fail after the payload ran
        pass
    assert marker.exists()


@pytest.mark.parametrize("field", ["lr_schedule", "observation_space", "policy_kwargs", "policy_class", "clip_range"])
def test_a_crafted_field_is_never_unpickled(tmp_path, field):
    marker = tmp_path / "ran"
    crafted = _rewrite(_model(tmp_path), tmp_path / "crafted.zip", {field: _serialized(_Payload(marker))})
    try:
        load_policy(str(crafted))
    except ValueError as exc:
        assert str(exc).startswith(repr(str(crafted))) and field in str(exc)
    assert not marker.exists()


def test_a_crafted_tensor_file_is_refused_before_sb3_reads_it(tmp_path):
    marker = tmp_path / "ran"
    buf = io.BytesIO()
    torch.save({"weights": _Payload(marker)}, buf)
    crafted = _rewrite(_model(tmp_path), tmp_path / "crafted.zip", members={"policy.pth": buf.getvalue()})
    with pytest.raises(ValueError, match=r"policy\.pth is not tensors and plain data.*could run code"):
        load_policy(str(crafted))
    assert not marker.exists()


def test_a_policy_class_outside_sb3_is_named_and_refused(tmp_path):
    path = _model(tmp_path)
    with zipfile.ZipFile(path) as z:
        policy_class = json.loads(z.read("data"))["policy_class"]
    policy_class = {**policy_class, "__module__": "my_policies", "__init__": "<function Mine.__init__ at 0x1>"}
    crafted = _rewrite(path, tmp_path / "mine.zip", {"policy_class": policy_class})
    with pytest.raises(ValueError, match=r"'policy_class' my_policies\.Mine is not one of stable-baselines3's"):
        load_policy(str(crafted))


def test_a_stored_env_name_is_never_made(tmp_path, monkeypatch):
    # SB3 hands a stored "env" string to gym.make, which imports the module before the colon.
    marker = tmp_path / "ran"
    (tmp_path / "eights_audit_env.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    crafted = _rewrite(_model(tmp_path), tmp_path / "env.zip", {"env": "eights_audit_env:Foo-v0"})
    agent = load_policy(str(crafted))
    assert agent.model.env is None
    assert not marker.exists()


def test_a_policy_kwargs_pickle_that_calls_anything_is_refused(tmp_path):
    # A numpy dtype is built by a call (REDUCE) and set up (BUILD): a tampered dtype can read
    # memory the file chooses, so no call of any kind is accepted, whitelisted or not.
    crafted = _rewrite(_model(tmp_path), tmp_path / "kw.zip", {"policy_kwargs": _serialized({"x": np.dtype("f4")})})
    with pytest.raises(ValueError, match=r"'policy_kwargs' calls or builds objects \(BUILD, REDUCE\)"):
        load_policy(str(crafted))


def test_an_observation_space_is_read_without_unpickling(tmp_path):
    # A Box-typed field whose pickle holds no raw bounds (only a payload) is refused unrun.
    marker = tmp_path / "ran"
    path = _model(tmp_path)
    with zipfile.ZipFile(path) as z:
        space = json.loads(z.read("data"))["observation_space"]
    fake = {**space, ":serialized:": _serialized(_Payload(marker))[":serialized:"]}
    crafted = _rewrite(path, tmp_path / "obs.zip", {"observation_space": fake})
    with pytest.raises(ValueError, match=r"'observation_space': its bounds are not stored as raw arrays"):
        load_policy(str(crafted))
    assert not marker.exists()


def _patched(path: Path, out: Path, offset_in_header: int, value: int) -> Path:
    """A copy of ``path`` with one 16-bit field of the ``data`` member's local and central
    headers set to ``value`` (6: the flags, 8: the compression method; +2 in the central)."""
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        local = z.getinfo("data").header_offset
    raw[local + offset_in_header : local + offset_in_header + 2] = value.to_bytes(2, "little")
    central = raw.find(b"PK\x01\x02")
    while central >= 0:
        name_len = int.from_bytes(raw[central + 28 : central + 30], "little")
        if raw[central + 46 : central + 46 + name_len] == b"data":
            pos = central + offset_in_header + 2
            raw[pos : pos + 2] = value.to_bytes(2, "little")
            break
        central = raw.find(b"PK\x01\x02", central + 4)
    out.write_bytes(bytes(raw))
    return out


@pytest.mark.parametrize(
    "damage, message",
    [
        ("deep", "nested too deeply"),
        ("encrypted", "encrypted"),
        ("compression", "compression method is not supported"),
        ("policy_class", "'policy_class' is missing or not as stable-baselines3 saves it"),
        ("policy_kwargs", "'policy_kwargs' is a str, not a dict"),
        ("not a zip", "is not a model saved by stable-baselines3"),
        ("no data", r"is not a model saved by stable-baselines3 \(it has no 'data' member\)$"),
    ],
)
def test_a_damaged_model_file_is_one_value_error_naming_it(tmp_path, damage, message):
    path = _model(tmp_path)
    out = tmp_path / "damaged.zip"
    if damage == "deep":
        deep = b'{"a":' + b"[" * 100000 + b"]" * 100000 + b"}"
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
            for name in src.namelist():
                dst.writestr(name, deep if name == "data" else src.read(name))
    elif damage == "encrypted":
        _patched(path, out, 6, 1)
    elif damage == "compression":
        _patched(path, out, 8, 99)
    elif damage == "not a zip":
        out.write_bytes(b"PK\x03\x04 not really")
    elif damage == "no data":  # it said: (KeyError: "There is no item named 'data' in the archive")
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("policy.pth", b"")
    else:
        _rewrite(path, out, {damage: "MlpPolicy" if damage == "policy_class" else "x"})
    with pytest.raises(ValueError, match=message) as err:
        load_policy(str(out))
    assert repr(str(out)) in str(err.value)


def test_a_model_of_scaled_observations_needs_its_scale_and_a_zip_path_points_to_load_agent(tmp_path):
    # load_agent("scaled.zip") without scale fed raw counts to a model that learnt [0, 1]: a
    # win rate of 0.505 where the scaled model wins 0.070, and no word. It now says what to give.
    from sb3_contrib import MaskablePPO

    from eights.agents import load_agent
    from eights.observation import ObservationBounds

    torch.set_num_threads(1)
    env = eights.make("crazy_eights", seed=0, scale_obs=True)
    path = tmp_path / "scaled.zip"
    MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu").save(str(path))
    bare = load_agent(str(path))
    game = eights.Game("crazy_eights", 2, seed=1)
    with pytest.raises(ValueError, match=r"'scaled.zip' was trained on scaled observations \(scale_obs=True\)"):
        bare.act_batch(game.observation(0)[None], game.action_mask()[None])
    scaled = load_agent(str(path), scale=ObservationBounds("crazy_eights", 2))
    # The arena scales a bare one by the bounds of the table it plays, as the command line
    # does (it was refused there): the same games as with the scale given.
    for preset in ("crazy_eights", "switch_blackjack"):
        given = load_agent(str(path), scale=ObservationBounds(preset, 2))
        a = eights.arena.evaluate(given, "random", preset=preset, games=6, seed=3)
        b = eights.arena.evaluate(bare, "random", preset=preset, games=6, seed=3)
        assert (a.wins, a.mean_length, a.mean_hand_points) == (b.wins, b.mean_length, b.mean_hand_points)
    assert eights.arena.evaluate(scaled, "random", games=2).games == 4
    # A .zip path where a bot name goes: the way to load it, not "unknown bot".
    with pytest.raises(ValueError, match=r"looks like a model saved by stable-baselines3: load it with"):
        eights.arena.evaluate(str(path), "random", games=2)
    # A .zip that is no zip archive is not called a model (the way to load it would fail too).
    fake = tmp_path / "fake.zip"
    fake.write_text('inherits = "crazy_eights"\n')
    with pytest.raises(ValueError, match=r"'.*fake.zip' is not a zip archive \(a stable-baselines3 model\); it is"):
        eights.arena.evaluate(str(fake), "random", games=2)


@pytest.mark.parametrize("missing", ["stable_baselines3", "sb3_contrib"])
def test_a_saved_model_without_the_sb3_extra_names_the_extra(tmp_path, monkeypatch, capsys, missing):
    from eights.cli import main

    path = _model(tmp_path)  # a MaskablePPO: stable-baselines3 and sb3-contrib both
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed: importing it fails
    with pytest.raises(ModuleNotFoundError, match=rf"'{missing}', which is not installed: pip install 'eights\[sb3\]'"):
        load_policy(str(path))
    assert main(["arena", "--agents", f"{path},heuristic", "--games", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'eights[sb3]'" in err and "Traceback" not in err


def _rules_model(tmp_path: Path, scale_obs: bool = False) -> Path:
    """An untrained MaskablePPO of "MultiInputPolicy" on the observation with the rules beside
    it (``obs_rules=True``: a Dict space of ``obs`` and ``rules``), saved."""
    from sb3_contrib import MaskablePPO

    from eights.integrations.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    env = SB3VecEnv("crazy_eights", num_envs=2, seed=0, obs_rules=True, scale_obs=scale_obs)
    path = tmp_path / ("rules_scaled.zip" if scale_obs else "rules.zip")
    MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu").save(str(path))
    return path


def test_a_model_that_reads_the_rules_loads_and_plays_its_own_moves_in_the_arena(tmp_path):
    # A model trained with obs_rules=True was refused ("its 'observation_space' is not a Box").
    # Its Dict space is read from the pickle's opcodes as a Box's is (the second Box refers back
    # to the first one's key strings and dtype through the pickle's memo), and equals SB3's own.
    from sb3_contrib import MaskablePPO

    from eights.agents import load_agent

    path = _rules_model(tmp_path)
    reference = MaskablePPO.load(str(path), device="cpu")
    agent = load_agent(str(path))
    model = agent.batch_policy.__self__.model
    assert agent.obs_rules is True
    assert model.observation_space == reference.observation_space
    assert list(model.observation_space.spaces) == ["obs", "rules"]
    ours, theirs = model.policy.state_dict(), reference.policy.state_dict()
    assert all(torch.equal(ours[k], theirs[k]) for k in theirs)
    # Its moves are the reference model's, given the rules: on positions of two rule sets,
    # which encode differently.
    for preset in ("crazy_eights", "switch_blackjack"):
        game = eights.Game(preset, 2, seed=3)
        obs = {"obs": game.observation(game.current_player)[None], "rules": game.rules_encoding()[None]}
        mask = game.action_mask()[None]
        expected, _ = reference.predict(obs, action_masks=mask, deterministic=True)
        assert list(agent.act_batch(obs, mask)) == list(expected)
    result = eights.arena.evaluate(agent, "random", games=4, seed=1)
    assert result.games == 8


def test_a_model_that_reads_scaled_observations_and_the_rules_needs_its_scale(tmp_path):
    from eights.agents import load_agent
    from eights.observation import ObservationBounds

    path = _rules_model(tmp_path, scale_obs=True)
    bare = load_agent(str(path))
    game = eights.Game("crazy_eights", 2, seed=1)
    obs = {"obs": game.observation(0)[None], "rules": game.rules_encoding()[None]}
    with pytest.raises(ValueError, match=r"'rules_scaled.zip' was trained on scaled observations"):
        bare.act_batch(obs, game.action_mask()[None])
    scaled = load_agent(str(path), scale=ObservationBounds("crazy_eights", 2))
    a = eights.arena.evaluate(scaled, "random", games=4, seed=2)
    b = eights.arena.evaluate(bare, "random", games=4, seed=2)
    assert a.games == 8 and (a.wins, a.mean_length) == (b.wins, b.mean_length)
    # As a single table's opponent too (it was refused at its first move).
    env = eights.make("crazy_eights", seed=0, opponents=bare, learner_seat=1)
    env.reset(seed=0)


def test_a_crafted_dict_observation_space_is_never_unpickled(tmp_path):
    marker = tmp_path / "ran"
    path = _rules_model(tmp_path)
    fake = {
        ":type:": "<class 'gymnasium.spaces.dict.Dict'>",
        ":serialized:": _serialized(_Payload(marker))[":serialized:"],
    }
    crafted = _rewrite(path, tmp_path / "crafted.zip", {"observation_space": fake})
    with pytest.raises(ValueError, match=r"'observation_space' is a Dict of 0 Boxes"):
        load_policy(str(crafted))
    assert not marker.exists()


def test_a_dict_of_other_keys_is_named_and_refused(tmp_path):
    # A Dict space whose keys an eights table cannot give: refused at load, naming them.
    import gymnasium as gym
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    class Other(gym.Env):
        observation_space = spaces.Dict(
            {"cards": spaces.Box(0, 1, (4,), np.float32), "score": spaces.Box(-1, 1, (2,), np.float32)}
        )
        action_space = spaces.Discrete(eights.NUM_ACTIONS)

    torch.set_num_threads(1)
    path = tmp_path / "other.zip"
    MaskablePPO("MultiInputPolicy", Other(), n_steps=16, batch_size=16, device="cpu").save(str(path))
    # Refused from the file's own data, before SB3 builds the model: the message names the path.
    with pytest.raises(ValueError, match=r"other.zip' reads a Dict of \['cards', 'score'\]: an eights agent reads"):
        load_policy(str(path))


@pytest.mark.parametrize(
    "obs_shape, actions, message",
    [
        ((10,), eights.NUM_ACTIONS, r"its observation has shape \(10,\), where an eights table gives \(346,\)"),
        ((eights.OBS_SIZE,), 5, r"it chooses among 5 actions, where an eights table has 197"),
    ],
)
def test_a_model_of_another_environment_is_refused_at_load(tmp_path, obs_shape, actions, message):
    # It loaded, then failed at its first move with SB3's own words ("Error: Unexpected
    # observation shape (4, 346) for Box environment"), or, in generalize, with the message of
    # a scaled model, which it was not.
    import gymnasium as gym
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    class Other(gym.Env):
        observation_space = spaces.Box(0, 1, obs_shape, np.float32)
        action_space = spaces.Discrete(actions)

    torch.set_num_threads(1)
    path = tmp_path / "other.zip"
    MaskablePPO("MlpPolicy", Other(), n_steps=16, batch_size=16, device="cpu").save(str(path))
    with pytest.raises(ValueError, match=r"other.zip' was trained on another environment: " + message):
        load_policy(str(path))


def test_the_command_line_plays_a_saved_model_on_one_torch_thread(tmp_path, monkeypatch):
    # A small network asked for a few hundred rows: more PyTorch threads only fight the
    # engine's threads for the cores. OMP_NUM_THREADS, when set, decides instead; a library
    # load (eights.agents.load_agent) leaves PyTorch as it was.
    from eights.agents.spec import load_agent
    from eights.cli import _args

    path = _model(tmp_path)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        load_agent(str(path))
        assert torch.get_num_threads() == 2
        monkeypatch.setenv("OMP_NUM_THREADS", "2")
        _args.load_agent(str(path))
        assert torch.get_num_threads() == 2
        monkeypatch.delenv("OMP_NUM_THREADS")
        _args.load_agent(str(path))
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
