"""Crafted files handed to the training loaders: a few bytes must not ask for a network of any
size (the loaders checked nothing before building it, and its orthogonal initialisation, a QR
decomposition, then ran for minutes, deaf to Ctrl-C), a resumed run must not trust the other
fields of its checkpoint, a checkpoint is written without following a link planted beside it,
and a saved exploit result is read with its fields checked. Each file is crafted here, small,
and refused in well under a second, with one error naming the file and what is wrong."""

from __future__ import annotations

import copy
import os
import re
import time

import numpy as np
import pytest

import eights
from eights import _core
from eights.__main__ import main

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")
pytest.importorskip("matplotlib", reason="eights train needs the train extra")
pytest.importorskip("tqdm", reason="eights train needs the train extra")

from eights.arena import ExploitResult  # noqa: E402
from eights.train import PolicyNet, PPOConfig, outputs  # noqa: E402
from eights.train.best_response import BestResponse  # noqa: E402
from eights.train.files import FileFormatError, load_checkpoint, restoring, save_checkpoint  # noqa: E402

OBS, ACTIONS = _core.OBS_SIZE, _core.NUM_ACTIONS
#: The train command's options of a tiny run that evaluates nothing.
ARGS = ["--preset", "crazy_eights", "--players", "2", "--num-envs", "8", "--num-steps", "16", "--no-progress"]
#: Well under a second on any machine, against minutes for the networks these files claim.
QUICK = 2.0


def _flat_checkpoint(hidden: int = 16, snapshots: int = 2):
    """A checkpoint of a flat run as ``eights train`` writes it (crazy_eights, 2 players,
    every seat, from scratch), 1,000 learner decisions in."""
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-5)
    state = {k: v.clone() for k, v in net.state_dict().items()}
    return {
        "format": "eights-train-v1",
        "kind": "flat",
        "model": net.state_dict(),
        "optimizer": optimizer.state_dict(),
        "step": 1000,
        "update": 4,
        "seconds": 12.5,
        "snapshots": [copy.deepcopy(state) for _ in range(snapshots)],
        "curve": [{"step": 1000, "seconds": 12.5, "vs_random": 0.5, "games_random": 4, "vs_snapshots": float("nan")}],
        "arch": {"hidden": hidden},
        "setting": {"rules": eights.Rules("crazy_eights").to_toml(), "players": 2, "seats": [0, 1], "init": "scratch"},
        "settings": {},
    }


def _card_checkpoint():
    from eights.train.cardnet import CardNet
    from eights.train.cardpolicy import CardPolicy

    torch.manual_seed(0)
    policy = CardPolicy(CardNet(8, 8, 8), eights.Rules("crazy_eights").encode(2))
    return {"kind": "card", "model": policy.state_dict(), "arch": policy.config()}


def _quickly(call, exc=FileFormatError, match=None):
    """``call()`` raises ``exc`` matching ``match``, in well under a second."""
    start = time.perf_counter()
    with pytest.raises(exc, match=match) as err:
        call()
    assert time.perf_counter() - start < QUICK, f"took {time.perf_counter() - start:.1f} s"
    return err.value


# ---------------------------------------------------------------- networks of any size


def test_a_checkpoint_with_an_expanded_tensor_is_refused_before_anything_is_built(tmp_path):
    # torch.zeros(1).expand(16000, OBS) costs one value on disk but claims 16000 hidden units:
    # rebuilding the learner then took minutes and gigabytes (an orthogonal 16000 x 16000 fc2).
    ck = _flat_checkpoint()
    ck["model"]["fc1.weight"] = torch.zeros(1).expand(16000, OBS)
    path = tmp_path / "checkpoint.pt"
    torch.save(ck, path)
    assert path.stat().st_size < 200_000
    err = _quickly(lambda: load_checkpoint(str(path)), match=r"checkpoint\.pt: not a checkpoint of this kind")
    assert "['model']['fc1.weight']" in str(err) and "does not hold" in str(err)


@pytest.mark.parametrize(
    "weight, message",
    [
        ((16000, 1), r"'fc1\.weight' has 16000 rows: hidden units must be in \[1, 8192\]"),
        ((4, OBS + 1), rf"'fc1\.weight' has {OBS + 1} columns: inputs must be in \[1, {OBS}\]"),
        ((4, 2, 2), r"'fc1\.weight' has shape \[4, 2, 2\], not \[hidden, inputs\]"),
    ],
)
def test_a_flat_checkpoint_of_sizes_no_run_trains_is_refused_before_it_is_built(weight, message):
    # A real 16000 x 1 fc1 (64 KB) made the loader build a 16000-wide network first.
    ck = _flat_checkpoint()
    ck["model"]["fc1.weight"] = torch.zeros(weight)
    _quickly(lambda: outputs.rebuild(ck, "run/checkpoint.pt"), match=r"run/checkpoint\.pt: .*" + message)


def test_a_flat_checkpoint_whose_other_layers_do_not_fit_is_refused_before_it_is_built():
    ck = _flat_checkpoint()
    ck["model"]["fc2.weight"] = torch.zeros(3000, 16, dtype=torch.float16)
    _quickly(
        lambda: outputs.rebuild(ck, "ck.pt"), match=r"ck\.pt: .*'fc2\.weight' has shape \[3000, 16\], not \[16, 16\]"
    )


def test_a_valid_flat_checkpoint_rebuilds_exactly():
    ck = _flat_checkpoint(hidden=24)
    torch.manual_seed(5)
    net = outputs.rebuild(ck, "ck.pt")
    after = torch.get_rng_state()
    torch.manual_seed(5)
    PolicyNet(OBS, ACTIONS, 24)  # what the loader built before these checks: the same random draws
    assert torch.equal(after, torch.get_rng_state())
    assert all(torch.equal(v, ck["model"][k]) for k, v in net.state_dict().items())


@pytest.mark.parametrize(
    "change, message",
    [
        ({"width": 20000}, r"its width must be an integer in \[1, 4,096\], got 20000"),
        ({"context": 10**6}, r"its context must be an integer in \[1, 4,096\], got 1000000"),
        ({"width": "x"}, r"its width must be an integer in \[1, 4,096\], got 'x'"),
        ({"width": -1}, r"its width must be an integer in \[1, 4,096\], got -1"),
        ("t1", r"its table width must be an integer in \[1, 4,096\], got 5000"),
        ("card_idx", r"its network's 'card_idx' must be 1 to 4096 indices in \[0, \d+\)"),
        ("rules", r"'rules' is not a rules encoding of shape \[1, n\]"),
        ("c2", r"its network: 'c2\.weight' has shape \[2000, 2000\], not \[8, 8\]"),
    ],
)
def test_a_card_checkpoint_of_sizes_no_run_trains_is_refused_before_it_is_built(change, message):
    # arch width 20000 took 5 GB and over 100 s before anything was compared; 'x' was an
    # unnamed "invalid literal for int()".
    ck = _card_checkpoint()
    if change == "t1":
        ck["model"]["net.t1.weight"] = torch.zeros(5000, ck["model"]["net.t1.weight"].shape[1])
    elif change == "card_idx":
        ck["model"]["net.card_idx"] = torch.tensor([10**6])
    elif change == "rules":
        ck["model"]["rules"] = torch.zeros(0, 10)
    elif change == "c2":
        ck["model"]["net.c2.weight"] = torch.zeros(2000, 2000, dtype=torch.float16)
    else:
        ck["arch"].update(change)
    _quickly(
        lambda: outputs.rebuild(ck, "run/checkpoint.pt"), match=r"run/checkpoint\.pt: not a checkpoint .*" + message
    )


def test_a_valid_card_checkpoint_rebuilds_exactly():
    ck = _card_checkpoint()
    policy = outputs.rebuild(ck, "ck.pt")
    assert all(torch.equal(v, ck["model"][k]) for k, v in policy.state_dict().items())


def test_exported_policies_of_sizes_no_run_trains_are_refused_before_they_are_built(tmp_path):
    # An agent.fc1.weight of 12000 x 1 (518 KB) took 77 s and 2.9 GB before the error.
    from safetensors.numpy import save_file

    from eights.train.export import load_exported, write_exported

    good = tmp_path / "good.safetensors"
    write_exported({"agent": PolicyNet(OBS, ACTIONS, 16)}, str(good), {})
    assert set(load_exported(str(good))) == {"agent"}
    from eights.train.files import load_arrays

    arrays = load_arrays(str(good))
    meta = {"format": "eights-net-v1", "presets": "agent", "clip": "5.0"}
    cases = {
        "hidden": ({"agent.fc1.weight": np.zeros((9000, 1), np.float16)}, r"has 9000 rows: hidden units must be in"),
        "fc2": ({"agent.fc2.weight": np.zeros((3000, 3000), np.float16)}, r"'fc2\.weight' has shape \[3000, 3000\]"),
    }
    for name, (change, message) in cases.items():
        path = tmp_path / f"{name}.safetensors"
        save_file({**arrays, **change}, str(path), metadata=meta)
        refused = rf"{name}\.safetensors: not a file of exported policies of this kind: its preset 'agent': "
        _quickly(lambda path=path: load_exported(str(path)), match=refused + ".*" + message)


def _with_a_nan(arrays, key):
    """``arrays`` with one value of ``arrays[key]`` made NaN."""
    bad = arrays[key].copy()
    bad.flat[3] = np.nan
    return {**arrays, key: bad}


def test_a_weights_file_holding_a_nan_is_refused_by_every_loader(tmp_path):
    # Every weight NaN made every logit NaN: the bot then always played its lowest legal action,
    # won 97.5% against random under the file's name, and `train --init` failed mid-update.
    from safetensors.numpy import load as load_bytes
    from safetensors.numpy import save_file

    from eights.train import cardnet, write_agent_file
    from eights.train.export import load_exported
    from eights.train.files import load_arrays, read_header

    card = load_bytes(_core.card_net_weights())
    meta = read_header(_core.card_net_weights())[0]["__metadata__"]
    key = next(k for k in sorted(card) if card[k].size > 3)
    card_file = tmp_path / "card_nan.safetensors"
    save_file(_with_a_nan(card, key), str(card_file), metadata=meta)
    flat_good = tmp_path / "flat.safetensors"
    write_agent_file(str(flat_good), PolicyNet(OBS, ACTIONS, 16), "crazy_eights", {}, num_players=2)
    flat = load_arrays(str(flat_good))
    flat_key = next(k for k in sorted(flat) if k.endswith("fc2.weight"))
    flat_file = tmp_path / "flat_nan.safetensors"
    flat_meta = read_header(flat_good.read_bytes())[0]["__metadata__"]
    save_file(_with_a_nan(flat, flat_key), str(flat_file), metadata=flat_meta)
    not_finite = "holds a value that is not finite (NaN at index 3); every weight must be a finite number"
    for path, tensor in ((card_file, key), (flat_file, flat_key)):
        with pytest.raises(ValueError, match=re.escape(f'tensor "{tensor}" {not_finite}')) as err:
            eights.Bot(str(path))
        assert path.name in str(err.value)
    not_finite = "holds a value that is not finite (nan); every weight must be a finite number"
    with pytest.raises(ValueError, match=re.escape(f"tensor {key!r} {not_finite}")):
        cardnet.load_path(str(card_file))
    with pytest.raises(FileFormatError, match=re.escape(not_finite)):
        load_exported(str(flat_file))
    assert eights.Bot(str(flat_good)) is not None  # the same file without the NaN loads


# ---------------------------------------------------------------- a resumed train run


def _train(out, *extra):
    return main(["train", *ARGS, "--out", str(out), *extra])


def test_a_valid_crafted_checkpoint_resumes(tmp_path, capsys):
    # The base of the crafted checkpoints below is one the train command resumes.
    out = tmp_path / "run"
    out.mkdir()
    save_checkpoint(_flat_checkpoint(), str(out / "checkpoint.pt"))
    assert _train(out, "--decisions", "500", "--eval-deals", "0") == 0  # the budget is spent
    assert "resumed from" in capsys.readouterr().out
    assert (out / "final.safetensors").exists()


FIELDS = {
    "curve-keys": ("curve", [{"bogus": 1}], r"its curve\[0\] has no 'step'"),
    "curve-str": ("curve", "abc", r"its curve is a str, not a list of points"),
    "curve-value": ("curve", [{"step": 1, "seconds": 1.0, "vs_random": "x"}], r"its curve\[0\]\['vs_random'\]"),
    "step-str": ("step", "abc", r"its step must be an integer in \[0, [\d,]+\], got 'abc'"),
    "step-negative": ("step", -5, r"its step must be an integer in \[0, [\d,]+\], got -5"),
    "update-huge": ("update", 2**62, r"its update must be an integer in \[0, 1,000,000,000\]"),
    "seconds-nan": ("seconds", float("nan"), r"its seconds must be a number in \[0, 1e\+10\], got nan"),
    "snapshots-int": ("snapshots", 5, r"its snapshots is a int, not a list of state dicts"),
    "snapshots-str": ("snapshots", ["abc"], r"its snapshots\[0\] is a str, not a state dict"),
    "snapshots-bad": ("snapshots", [{"x": torch.zeros(1)}], r"its snapshots\[0\] has no 'norm\.mean'"),
    "snapshots-shape": ("snapshots", "shape", r"its snapshots\[1\]: 'fc2\.weight' has shape \[3, 3\], not \[16, 16\]"),
    "kind": ("kind", "bogus", r"its kind is 'bogus', not 'flat' or 'card'"),
}


@pytest.mark.parametrize("case", sorted(FIELDS))
def test_a_resumed_run_refuses_a_bad_field_before_training(tmp_path, capsys, case):
    # curve=[{'bogus': 1}] trained the whole budget, then ended in a KeyError traceback; a
    # string step was "Cannot specify ',' with 's'."; snapshots of another shape were a
    # RuntimeError traceback, loaded outside the error mapping.
    field, value, message = FIELDS[case]
    ck = _flat_checkpoint()
    if value == "shape":
        ck["snapshots"][1]["fc2.weight"] = torch.zeros(3, 3)
    else:
        ck[field] = value
    out = tmp_path / "run"
    out.mkdir()
    save_checkpoint(ck, str(out / "checkpoint.pt"))
    before = (out / "checkpoint.pt").read_bytes()
    capsys.readouterr()
    assert _train(out, "--decisions", "5000", "--eval-deals", "0") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err, err
    assert "checkpoint.pt: not a checkpoint of this kind: " in err, err
    assert re.search(message, err), err
    # Refused before training: nothing was written.
    assert (out / "checkpoint.pt").read_bytes() == before and not (out / "final.safetensors").exists()


def test_a_resumed_run_loads_no_more_snapshots_than_its_pool_plays():
    # 3,000 references to one snapshot cost 9 MB on disk and 3.4 GB once each was a network.
    ck = _flat_checkpoint(snapshots=1)
    ck["snapshots"] = ck["snapshots"] * 3000
    with restoring("ck.pt"):
        agent = outputs.rebuild(ck, "ck.pt")
        kept = outputs.check_snapshots(ck["snapshots"], agent, 8, "ck.pt")
    assert len(kept) == 8


# ---------------------------------------------------------------- a resumed best response


def _best_response():
    identity = {"agent": "random", "preset": "crazy_eights", "num_players": 2, "seed": 0, "warm_start": None}
    return BestResponse(None, "crazy_eights", 2, 0, PPOConfig(num_envs=8, num_steps=16, hidden=16), identity)


EXPLOIT_FIELDS = {
    "decisions-negative": ("decisions", -(10**18), r"its decisions must be an integer in \[0, [\d,]+\]"),
    "decisions-str": ("decisions", "abc", r"its decisions must be an integer"),
    "updates-float": ("updates", 1.5, r"its updates must be an integer"),
    "seconds-nan": ("seconds", float("nan"), r"its seconds must be a number"),
    "cpu-seconds-negative": ("cpu_seconds", -1.0, r"its cpu_seconds must be a number"),
    "curve-keys": ("curve", [{"x": 1}], r"its curve\[0\] has no 'decisions'"),
    "curve-value": ("curve", "point", r"its curve\[0\]\['games'\] must be an integer"),
    "window": ("window", "abc", r"its window is not a list of scores in \[0, 1\]"),
    "machines": ("machines", 5, r"its machines is not a list of strings"),
}


@pytest.mark.parametrize("case", sorted(EXPLOIT_FIELDS))
def test_a_resumed_best_response_refuses_a_bad_field(tmp_path, case):
    # decisions=-10**18 made exploit train for ever (its budget could never be reached); a
    # string was a TypeError traceback, a bad curve a KeyError after the whole budget.
    field, value, message = EXPLOIT_FIELDS[case]
    trainer = _best_response()
    ck = trainer.state_dict()
    if value == "point":
        value = [{"decisions": 10, "minutes": 0.1, "games": 2.5, "win_rate": 0.5, "ci_low": 0.1, "ci_high": 0.9}]
    ck[field] = value
    path = tmp_path / "checkpoint.pt"
    save_checkpoint(ck, str(path))
    _quickly(
        lambda: _best_response().load(str(path)), match=r"checkpoint\.pt: not a checkpoint of this kind: " + message
    )


def test_a_valid_best_response_checkpoint_resumes(tmp_path):
    trainer = _best_response()
    trainer.decisions, trainer.updates, trainer.seconds, trainer.machines = 500, 3, 2.0, ["here"]
    trainer.window = [1.0, 0.0, 0.5]
    trainer.curve = [{"decisions": 400, "minutes": 0.03, "games": 5, "win_rate": 0.4, "ci_low": 0.1, "ci_high": 0.8}]
    path = tmp_path / "checkpoint.pt"
    trainer.save(str(path))
    again = _best_response()
    again.load(str(path))
    assert (again.decisions, again.updates, again.seconds, again.machines) == (500, 3, 2.0, ["here"])
    assert again.curve == trainer.curve and again.window == trainer.window


def test_exploit_with_a_negative_decisions_checkpoint_stops_before_training(tmp_path):
    from eights.arena import Budget
    from eights.train import exploit

    out = tmp_path / "run"
    tiny = PPOConfig(num_envs=8, num_steps=16)
    exploit("random", budget=Budget(decisions=200), eval_deals=2, out=str(out), config=tiny)
    ck = torch.load(out / "checkpoint.pt", weights_only=True)
    ck["decisions"] = -(10**18)
    torch.save(ck, out / "checkpoint.pt")
    start = time.perf_counter()
    with pytest.raises(FileFormatError, match=r"checkpoint\.pt: not a checkpoint of this kind: its decisions"):
        exploit("random", budget=Budget(decisions=400), eval_deals=2, out=str(out), config=tiny)
    assert time.perf_counter() - start < 30


# ---------------------------------------------------------------- files that are not regular


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_checkpoint_that_is_a_fifo_or_a_device_is_refused_before_it_is_read(tmp_path):
    # A FIFO blocked the read; /dev/zero was said to hold "Python objects ... (could run code)".
    fifo = tmp_path / "checkpoint.pt"
    os.mkfifo(fifo)
    _quickly(lambda: load_checkpoint(str(fifo)), match=r"checkpoint\.pt: not a regular file \(a FIFO\), not read")
    if os.path.exists("/dev/zero"):
        zero = tmp_path / "zero.pt"
        os.symlink("/dev/zero", zero)
        _quickly(lambda: load_checkpoint(str(zero)), match=r"zero\.pt: not a regular file \(a device\), not read")


# ---------------------------------------------------------------- writes


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_link_planted_at_the_temporary_name_is_not_followed(tmp_path):
    # torch.save(state, path + ".tmp") overwrote the link's target outside the run folder,
    # and the checkpoint then became a link to it.
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    run = tmp_path / "run"
    run.mkdir()
    os.symlink(victim, run / "checkpoint.pt.tmp")
    save_checkpoint(_flat_checkpoint(), str(run / "checkpoint.pt"))
    assert victim.read_text() == "keep me"
    assert not os.path.islink(run / "checkpoint.pt")
    assert load_checkpoint(str(run / "checkpoint.pt"))["step"] == 1000
    assert sorted(os.listdir(run)) == ["checkpoint.pt", "checkpoint.pt.tmp"]  # no temporary left behind
    umask = os.umask(0o022)
    os.umask(umask)
    assert (run / "checkpoint.pt").stat().st_mode & 0o777 == 0o666 & ~umask


# ---------------------------------------------------------------- a saved exploit result


#: A point of an exploit result's learning curve.
POINT = {"decisions": 300, "minutes": 0.1, "games": 8, "win_rate": 0.5, "ci_low": 0.2, "ci_high": 0.8}


def _result_json(tmp_path, change=None):
    import json

    data = {
        "agent": "random", "preset": "crazy_eights", "num_players": 2, "seed": 2**63, "warm_start": None,
        "decisions": 300, "updates": 2, "minutes": 0.1, "cpu_minutes": 0.1, "hardware": "cpu", "stopped": "budget",
        "curve": [POINT],
        "win_rate": 0.5, "ci": [0.2, 0.8],
        "eval": {"deals": 4, "games": 8, "seed": 2**63 + 1, "greedy": True, "minutes": 0.01},
        "config": {}, "out": None, "budget": {"decisions": 300, "minutes": None},
    }  # fmt: skip
    data = {**data, **change} if isinstance(change, dict) else data if change is None else change
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "change, message",
    [
        ({"curve": [{"x": 1}]}, r"its 'curve' is not a list of points with decisions, minutes, games"),
        ({"curve": "abc"}, r"its 'curve' is not a list of points"),
        ({"curve": [POINT, {**POINT, "games": 1.5}]}, r"its 'curve' is not a list of points"),
        ({"ci": [1]}, r"its 'ci' is not null or a pair"),
        ({"win_rate": "x"}, r"its 'win_rate' is not null or a finite number"),
        ({"eval": {}}, r"its eval\['deals'\] is missing or not a whole number >= 0"),
        ({"num_players": 0}, r"its 'num_players' is not a whole number >= 2"),
        ({"decisions": "many"}, r"its 'decisions' is not a whole number >= 0"),
        ({"minutes": 10**400}, r"its 'minutes' is not a finite number >= 0"),
        ({"seed": -1}, r"its 'seed' is not a seed"),
        ({"budget": {"decisions": -1}}, r"budget decisions must be >= 1"),
        ([], r"its JSON is a list, not an object"),
        ({"policy": "x"}, r"unknown field 'policy'"),
    ],
)
def test_a_saved_result_with_a_field_of_the_wrong_type_is_refused_naming_it(tmp_path, change, message):
    # curve=[{"x": 1}], curve="abc" and ci=[1] loaded "fine"; table() then raised KeyError,
    # TypeError or IndexError.
    good = _result_json(tmp_path)
    assert "win rate of the best response: 0.500" in ExploitResult.load(str(good)).table()
    path = _result_json(tmp_path, change)
    with pytest.raises(
        ValueError, match=r"result\.json: not an exploit result saved by ExploitResult\.save: " + message
    ):
        ExploitResult.load(str(path))


def test_a_saved_result_that_is_not_a_regular_file_or_too_large_is_refused(tmp_path):
    # A missing file and a folder were the raw [Errno 2] and [Errno 21]; a FIFO blocked.
    with pytest.raises(ValueError, match=r"nope\.json: no such file"):
        ExploitResult.load(str(tmp_path / "nope.json"))
    with pytest.raises(ValueError, match=r": is a folder, not a file, not read"):
        ExploitResult.load(str(tmp_path))
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(65 << 20)  # sparse: nothing written
    _quickly(
        lambda: ExploitResult.load(str(big)), ValueError, r"big\.json: not an exploit result .*: over 67,108,864 bytes"
    )
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.json"
        os.mkfifo(fifo)
        _quickly(
            lambda: ExploitResult.load(str(fifo)),
            ValueError,
            r"fifo\.json: not a regular file \(a FIFO, a device\), not read",
        )
