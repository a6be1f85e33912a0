"""A crafted stable-baselines3 model must not choose the size of the network SB3 builds (and
initialises, a QR decomposition per layer) before it reads the weights: ``net_arch`` of
12000-unit layers took gigabytes and minutes, deaf to Ctrl-C, from a 61 KB file. Nor may its
tensors claim data the file does not hold, or an archive member inflate to gigabytes. Each
file is crafted here from a genuine model and refused at once, naming the file."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import eights
from _helpers import rewrite_zip as _rewrite
from _helpers import saved_maskable_model as _model
from eights.agents import sb3_file, sb3_space
from eights.agents.load import load_policy

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")


def _refused_at_once(path: Path, match: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match=match) as err:
        load_policy(str(path))
    assert repr(str(path)) in str(err.value)
    assert time.perf_counter() - start < 5.0, f"took {time.perf_counter() - start:.1f} s"


@pytest.mark.parametrize(
    "net_arch, message",
    [
        ([5000], r"'policy_kwargs' asks for a size of 5,000, over 4,096"),
        ({"pi": [64], "vf": [10**6]}, r"'policy_kwargs' asks for a size of 1,000,000, over 4,096"),
        ([2048, 2048], r"'policy_kwargs' asks for a network of at least [\d,]+ weights, but its policy\.pth holds"),
        ([8] * 100, r"'policy_kwargs' net_arch lists 100 layers, over 64"),
        ("abc", r"'policy_kwargs' net_arch is not a list of layer widths"),
        ([64, -1], r"'policy_kwargs' net_arch has a layer width '-1'"),
    ],
)
def test_a_net_arch_the_weights_do_not_hold_is_refused_before_sb3_builds_it(tmp_path, net_arch, message):
    # [12000, 12000] took 3.4 GB and over 150 s (still running 5 s after Ctrl-C); [2048, 2048]
    # was built and initialised before SB3 found the weights did not fit.
    crafted = _rewrite(_model(tmp_path), tmp_path / "crafted.zip", {"policy_kwargs": {"net_arch": net_arch}})
    _refused_at_once(crafted, message)


@pytest.mark.parametrize("net_arch", [[32], {"pi": [32, 16], "vf": [8]}, []])
def test_a_model_with_its_own_net_arch_still_loads(tmp_path, net_arch):
    path = _model(tmp_path, net_arch=net_arch)
    agent = load_policy(str(path))
    game = eights.Game("crazy_eights", 2, seed=1)
    obs, masks = np.stack([game.observation(0)]), np.stack([game.action_mask()])
    assert masks[0, agent.act_batch(obs, masks)[0]]


def test_an_expanded_tensor_in_the_weights_is_refused(tmp_path):
    # A stride-0 tensor costs one value on disk but claims its whole shape: SB3 loaded it.
    path = _model(tmp_path)
    with zipfile.ZipFile(path) as z:
        weights = torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True)
    key = next(k for k, v in weights.items() if v.dim() == 2)
    weights[key] = torch.zeros(1).expand(*weights[key].shape)
    buffer = io.BytesIO()
    torch.save(weights, buffer)
    crafted = _rewrite(path, tmp_path / "expanded.zip", members={"policy.pth": buffer.getvalue()})
    _refused_at_once(crafted, r"its policy\.pth holds a tensor of shape .* whose data the file does not hold")


def test_a_member_that_inflates_past_the_cap_is_refused_before_it_is_inflated(tmp_path):
    # A 367 KB file whose data inflated to 300 MB was accepted (1 GiB cap, 1.2 GB of memory).
    assert sb3_file.MAX_MEMBER_BYTES <= 64 << 20
    path = _model(tmp_path)
    with zipfile.ZipFile(path) as z:
        padded = z.read("data") + b" " * (sb3_file.MAX_MEMBER_BYTES + 1)
    crafted = _rewrite(path, tmp_path / "bomb.zip", members={"data": padded}, compression=zipfile.ZIP_DEFLATED)
    assert crafted.stat().st_size < 1 << 20
    _refused_at_once(crafted, r"its data inflates to [\d,]+ bytes, over 67,108,864")


def test_a_damaged_dict_observation_space_is_a_value_error_or_a_space(tmp_path):
    # The Dict reader follows the pickle's values and memo itself: bytes flipped anywhere in a
    # genuine Dict space (a model that reads the rules) give a ValueError naming the file, or a
    # space read from what is left; never another exception (an index, an overflow, a huge
    # allocation) and never a call.
    import base64
    import json

    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from eights.integrations.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    env = SB3VecEnv("crazy_eights", num_envs=2, seed=0, obs_rules=True)
    path = tmp_path / "rules.zip"
    MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu").save(str(path))
    with zipfile.ZipFile(path) as z:
        item = json.loads(z.read("data"))["observation_space"]
    raw = bytearray(base64.b64decode(item[":serialized:"]))
    rng = np.random.default_rng(7)
    outcomes = {"refused": 0, "read": 0}
    for _ in range(400):
        damaged = bytearray(raw)
        for at in rng.integers(0, 400 if rng.random() < 0.7 else len(raw), size=int(rng.integers(1, 4))):
            damaged[at] = int(rng.integers(0, 256))
        crafted = {**item, ":serialized:": base64.b64encode(bytes(damaged)).decode()}
        try:
            space = sb3_space.observation_space(str(path), crafted)
        except ValueError as exc:
            assert str(exc).startswith(repr(str(path)))
            outcomes["refused"] += 1
        else:
            assert isinstance(space, spaces.Dict)
            outcomes["read"] += 1
    assert outcomes["refused"] > 0 and outcomes["read"] > 0, outcomes
