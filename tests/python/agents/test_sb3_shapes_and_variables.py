"""A crafted stable-baselines3 model file may not end in an exception other than ``ValueError``
(a ``_shape`` no integer holds raised ``OverflowError``), make SB3 build a network of the file's
choosing (an observation of a million values took 14 s and 1.9 GB before it was refused), or
set attributes outside the model (a ``pytorch_variables.pth`` key ending in ``.__class__`` set
``torch.nn.Parameter.data`` for the whole process). Each file is crafted here from a genuine
model and refused, naming the file."""

from __future__ import annotations

import base64
import io
import json
import pickle
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import eights
from _helpers import rewrite_zip as _rewrite
from _helpers import saved_maskable_model as _model
from eights.agents.load import load_policy

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")


def _rules_model(tmp_path: Path) -> Path:
    """A MaskablePPO of "MultiInputPolicy" on the Dict of ``obs`` and ``rules`` (``obs_rules=True``)."""
    from sb3_contrib import MaskablePPO

    from eights.integrations.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    env = SB3VecEnv("crazy_eights", num_envs=2, seed=0, obs_rules=True)
    path = tmp_path / "rules.zip"
    MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu").save(str(path))
    return path


def _field(path: Path, key: str) -> dict:
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("data"))[key]


def _serialized(obj, type_name: str) -> dict:
    return {":type:": type_name, ":serialized:": base64.b64encode(pickle.dumps(obj, protocol=4)).decode()}


@pytest.mark.parametrize(
    "kind, shape, message",
    [
        ("box", "[Infinity]", r"its 'observation_space' has no plain dtype and shape \('_shape' '\[Infinity\]'\)"),
        ("box", "[1e400]", r"its 'observation_space' has no plain dtype and shape \('_shape' '\[1e400\]'\)"),
        ("dict", "[1180591620717411303424]", r"its 'observation_space' is a Dict with a '_shape' \('\[1180591620"),
    ],
)
def test_an_observation_shape_no_integer_holds_is_a_value_error(tmp_path, capsys, kind, shape, message):
    # It was OverflowError ("cannot convert float infinity to integer", "Python int too large to
    # convert to C long"), which load_policy's callers and the command line do not catch: a traceback.
    from eights.cli import main

    path = _model(tmp_path) if kind == "box" else _rules_model(tmp_path)
    space = {**_field(path, "observation_space"), "_shape": shape}
    crafted = _rewrite(path, tmp_path / "shape.zip", {"observation_space": space})
    with pytest.raises(ValueError, match=message) as err:
        load_policy(str(crafted))
    assert str(err.value).startswith(repr(str(crafted)))
    assert main(["arena", "--agents", f"{crafted},heuristic", "--games", "1", "--no-progress"]) == 2
    out = capsys.readouterr().err
    assert "Traceback" not in out and "shape.zip" in out, out


def _not_built(monkeypatch) -> list:
    """SB3's ``load`` (which builds the network before it reads the weights) records its calls and
    fails, so that a test sees whether a file got that far."""
    from stable_baselines3.common.base_class import BaseAlgorithm

    calls: list = []

    def load(cls, *args, **kwargs):
        calls.append(cls.__name__)
        raise AssertionError("SB3 built the model")

    monkeypatch.setattr(BaseAlgorithm, "load", classmethod(load))
    return calls


def _craft_unbuildable(tmp_path: Path, case: str) -> Path:
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import FlattenExtractor, NatureCNN

    base = _rules_model(tmp_path) if case == "dict of 1M" else _model(tmp_path)
    big = spaces.Box(-1.0, 1.0, (1_000_000,), np.float32)
    if case == "box of 1M":  # the audit's big1m.zip: 85 KB, 14 s and 1.9 GB
        space = {**_field(base, "observation_space"), "_shape": [1_000_000]}
        space.update(_serialized(big, space[":type:"]))
        kwargs = _serialized({"net_arch": [64], "features_extractor_class": FlattenExtractor}, "<class 'dict'>")
        change = {"observation_space": space, "policy_kwargs": kwargs}
    elif case == "dict of 1M":  # bigdict1m.zip, MultiInputPolicy: 18 s, 1.9 GB
        rules = spaces.Box(-1.0, 1.0, (eights.RULES_SIZE,), np.float32)
        space = {**_field(base, "observation_space")}
        space.update(_serialized(spaces.Dict({"obs": big, "rules": rules}), space[":type:"]))
        change = {"observation_space": space}
    elif case == "extractor named":  # the features' weights were not counted: [2048] built from a 64-wide file
        kwargs = {"net_arch": [2048], "features_extractor_class": FlattenExtractor}
        change = {"policy_kwargs": _serialized(kwargs, "<class 'dict'>")}
    elif case == "other extractor":
        change = {"policy_kwargs": _serialized({"features_extractor_class": NatureCNN}, "<class 'dict'>")}
    else:  # a million actions: an output layer of a million units
        change = {"action_space": {**_field(base, "action_space"), "n": 1 << 20}}
    return _rewrite(base, tmp_path / "crafted.zip", change, compression=zipfile.ZIP_DEFLATED)


@pytest.mark.parametrize(
    "case, message",
    [
        ("box of 1M", r"was trained on another environment: its observation has shape \(1000000,\), where an eights"),
        ("dict of 1M", r"was trained on another environment: its 'obs' entry has shape \(1000000,\), where an eights"),
        ("extractor named", r"its 'policy_kwargs' asks for a network of at least [\d,]+ weights, but its policy\.pth"),
        ("other extractor", r"its 'policy_kwargs' names the features extractor 'NatureCNN', not one that reads"),
        ("actions", r"was trained on another environment: it chooses among 1048576 actions, where an eights table"),
    ],
)
def test_a_network_an_eights_observation_cannot_feed_is_refused_before_sb3_builds_it(
    tmp_path, monkeypatch, case, message
):
    # The observation's shape was compared with OBS_SIZE only after SB3 had built the network,
    # and no input weights were counted for a Dict space or a named features extractor.
    crafted = _craft_unbuildable(tmp_path, case)
    calls = _not_built(monkeypatch)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=message) as err:
        load_policy(str(crafted))
    elapsed = time.perf_counter() - start
    assert str(err.value).startswith(repr(str(crafted)))
    assert calls == [], f"SB3 built {calls}"
    assert elapsed < 2.0, f"took {elapsed:.1f} s"


def test_a_model_naming_its_default_features_extractor_still_loads(tmp_path):
    from stable_baselines3.common.torch_layers import FlattenExtractor

    agent = load_policy(str(_model(tmp_path, net_arch=[32], features_extractor_class=FlattenExtractor)))
    game = eights.Game("crazy_eights", 2, seed=1)
    obs, masks = np.stack([game.observation(0)]), np.stack([game.action_mask()])
    assert masks[0, agent.act_batch(obs, masks)[0]]


def _with_member(path: Path, out: Path, name: str, raw: bytes) -> Path:
    """A copy of ``path`` whose SB3 variables (``pytorch_variables.pth``) are ``raw`` under ``name``."""
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.namelist():
            if member != "pytorch_variables.pth":
                dst.writestr(member, src.read(member))
        dst.writestr(name, raw)
    return out


@pytest.mark.parametrize(
    "member, key, message",
    [
        (
            "pytorch_variables.pth",
            "policy.mlp_extractor.policy_net.0.weight.__class__",
            r"its pytorch_variables\.pth names the variable 'policy\.mlp_extractor\.policy_net\.0\.weight\.__class__'",
        ),
        ("tensors.pth", "policy.mlp_extractor.policy_net.0.weight.__class__", r"its tensors\.pth names the variable"),
        ("pytorch_variables.pth", "policy.log_std", r"names the variable 'policy\.log_std', not one stable-baselines3"),
        ("policy.__class__.pth", None, r"its member 'policy\.__class__\.pth' names no attribute of a model"),
    ],
)
def test_saved_variables_under_a_name_sb3_does_not_save_are_refused(tmp_path, member, key, message):
    # SB3 set each key as recursive_setattr(model, key + ".data", value): a key ending in
    # ".weight.__class__" set torch.nn.Parameter.data for the whole process (every new layer's
    # weight.data was then tensor([666.])).
    buffer = io.BytesIO()
    torch.save({key: torch.tensor([666.0])} if key else {}, buffer)
    crafted = _with_member(_model(tmp_path), tmp_path / "vars.zip", member, buffer.getvalue())
    try:
        with pytest.raises(ValueError, match=message) as err:
            load_policy(str(crafted))
        assert str(err.value).startswith(repr(str(crafted)))
        assert torch.nn.Linear(2, 2).weight.data.shape == (2, 2)
    finally:  # what the old loader left behind, so that the rest of the run is not affected
        if "data" in vars(torch.nn.Parameter):
            delattr(torch.nn.Parameter, "data")
