"""The ``net1`` recipe (research/train_net_bot.py, :mod:`netlab.net_bot`, :mod:`netlab.recipe`):
smoke runs that export loadable weights, continuing a run or an exported file, and the recipe the
shipped ``net1`` file records. Moved from the package's tests with the recipe."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import eights
from eights.observation import observation_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEIGHTS = os.path.join(ROOT, "src", "bots", "weights", "net1.safetensors")
PRESETS = ["crazy_eights", "switch_blackjack", "crazy_eights_specials"]
SCRIPT = os.path.join(ROOT, "research", "train_net_bot.py")


def test_training_example_smoke_run_exports_loadable_weights(tmp_path):
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    script = os.path.join(ROOT, "research", "train_net_bot.py")
    out, export = tmp_path / "run", tmp_path / "net.safetensors"
    args = [
        sys.executable,
        script,
        "--smoke",
        "--plan",
        "crazy_eights=1,switch_blackjack=1",
        "--out",
        str(out),
        "--export",
        str(export),
        "--eval-deals",
        "2",
    ]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for preset in ("crazy_eights", "switch_blackjack"):
        assert (out / preset / "final.pt").stat().st_size > 0
    w = st.load_file(str(export))
    hidden = w["crazy_eights.fc1.weight"].shape[0]
    assert w["switch_blackjack.pi.weight"].shape == (eights.NUM_ACTIONS, hidden)
    # The default --inputs: the 310 values of the layout before the `declined` slice.
    before = observation_spec()["declined"][0]
    assert w["crazy_eights.norm.mean"].shape == (before,) and w["crazy_eights.fc1.weight"].shape == (hidden, before)
    assert not any(k.startswith("crazy_eights.v.") for k in w), "no value head is exported"
    # A second run finds both presets trained and exports the same weights.
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "already trained" in proc.stdout, proc.stderr[-3000:]
    again = st.load_file(str(export))
    assert sorted(again) == sorted(w) and all(np.array_equal(again[k], w[k]) for k in w)


def test_training_example_parallel_presets_export_float16(tmp_path):
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    script = os.path.join(ROOT, "research", "train_net_bot.py")
    out, export = tmp_path / "run", tmp_path / "net.safetensors"
    args = [
        sys.executable,
        script,
        "--smoke",
        "--parallel",
        "--hidden",
        "16",
        "--plan",
        "crazy_eights=1,crazy_eights_specials=1",
        "--out",
        str(out),
        "--export",
        str(export),
        "--eval-deals",
        "0",
    ]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # One process per preset, each from scratch: both logs say so, and neither warm-starts.
    log = (out / "train.log").read_text()
    assert "plan crazy_eights=1.0" in log and "plan crazy_eights_specials=1.0" in log and "warm start" not in log
    w = st.load_file(str(export))
    assert w["crazy_eights_specials.fc1.weight"].dtype == np.float16
    assert w["crazy_eights.fc2.weight"].shape == (16, 16)
    assert w["crazy_eights.norm.mean"].dtype == np.float32, "the normaliser stays float32"
    with open(export, "rb") as f:
        meta = json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]
    assert meta["dtype"] == "float16" and "--parallel" in meta["command"] and str(tmp_path) not in meta["command"]


def test_training_example_continues_an_earlier_run(tmp_path):
    """``--init-from``: each preset starts from the earlier run's final weights; a preset given 0
    minutes is exported unchanged, and the metadata names the earlier stage's command."""
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    script = os.path.join(ROOT, "research", "train_net_bot.py")
    first, second = tmp_path / "first", tmp_path / "second"
    base = [sys.executable, script, "--smoke", "--parallel", "--hidden", "16", "--eval-deals", "0"]
    proc = subprocess.run(
        base
        + [
            "--plan",
            "crazy_eights=1,switch_blackjack=1",
            "--out",
            str(first),
            "--export",
            str(first / "net.safetensors"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    proc = subprocess.run(
        base
        + [
            "--plan",
            "crazy_eights=0,switch_blackjack=1",
            "--init-from",
            str(first),
            "--seed",
            "2",
            "--out",
            str(second),
            "--export",
            str(second / "net.safetensors"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (second / "train.log").read_text().count("continuing") == 2
    w1, w2 = st.load_file(str(first / "net.safetensors")), st.load_file(str(second / "net.safetensors"))
    assert all(np.array_equal(w1[k], w2[k]) for k in w1 if k.startswith("crazy_eights.")), "0 minutes: unchanged"
    assert not np.array_equal(w1["switch_blackjack.fc1.weight"], w2["switch_blackjack.fc1.weight"])
    with open(second / "net.safetensors", "rb") as f:
        meta = json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]
    assert str(tmp_path) not in meta["command"] and "--init-from runs/net " in meta["command"]
    assert "--out runs/net-2 " in meta["command"] + " "
    trained = json.loads(meta["trained"])
    assert [len(trained[p]["earlier"]) for p in ("crazy_eights", "switch_blackjack")] == [1, 1]
    earlier = trained["switch_blackjack"]["earlier"][0]
    assert earlier["decisions"] > 0 and "--plan switch_blackjack=1.0" in earlier["command"]
    assert str(tmp_path) not in json.dumps(meta)
    # A third run from the second: crazy_eights goes on, switch_blackjack is passed on. Each
    # preset's history lists the runs that trained it (a run that passed it on is left out), with
    # commands naming the conventional directories of the chain, never the real ones.
    third = tmp_path / "stage3"
    proc = subprocess.run(
        base
        + [
            "--plan",
            "crazy_eights=1,switch_blackjack=0",
            "--init-from",
            str(second),
            "--seed",
            "3",
            "--out",
            str(third),
            "--export",
            str(third / "net.safetensors"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(third / "net.safetensors", "rb") as f:
        meta = json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]
    assert str(tmp_path) not in json.dumps(meta)
    assert "--init-from runs/net-2 " in meta["command"] and "--out runs/net-3 " in meta["command"] + " "
    trained = json.loads(meta["trained"])
    ce, sb = trained["crazy_eights"], trained["switch_blackjack"]
    assert ce["decisions"] > 0 and sb["decisions"] == 0

    def out_dir(command):  # the default --out, runs/net, is left out of a command
        return command.split("--out ")[1].split()[0] if "--out " in command else "runs/net"

    assert len(ce["earlier"]) == 1 and out_dir(ce["earlier"][0]["command"]) == "runs/net"
    assert [out_dir(e["command"]) for e in sb["earlier"]] == ["runs/net", "runs/net-2"]
    assert "--init-from runs/net " in sb["earlier"][1]["command"] and all(e["decisions"] > 0 for e in sb["earlier"])
    # Nothing to continue from: a clear error.
    proc = subprocess.run(
        base
        + [
            "--plan",
            "crazy_eights_specials=1",
            "--init-from",
            str(first),
            "--out",
            str(tmp_path / "third"),
            "--export",
            "",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0 and "no " in proc.stderr and "crazy_eights_specials" in proc.stderr


def test_training_example_continues_an_exported_file(tmp_path):
    """``--init-from FILE.safetensors``: each preset starts from the file's policy with a new value
    head. While ``--value-warmup`` lasts only the value head learns, so a run that is all warm-up
    exports the file's policy bit for bit; after it the policy trains. The metadata continues the
    file's history under the conventional names. A preset the file lacks, another width or a
    missing file are clear errors."""
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    script = os.path.join(ROOT, "research", "train_net_bot.py")
    first = tmp_path / "first.safetensors"
    base = [sys.executable, script, "--smoke", "--hidden", "16", "--eval-deals", "0"]

    def run(*flags):
        return subprocess.run(base + list(flags), capture_output=True, text=True, timeout=300)

    def metadata(path):
        with open(path, "rb") as f:
            return json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]

    proc = run("--plan", "crazy_eights=1,switch_blackjack=1", "--out", str(tmp_path / "a"), "--export", str(first))
    assert proc.returncode == 0, proc.stderr[-3000:]
    w1 = st.load_file(str(first))
    warm = tmp_path / "warm.safetensors"
    proc = run(
        "--plan",
        "crazy_eights=1,switch_blackjack=0",
        "--init-from",
        str(first),
        "--value-warmup",
        "100000",
        "--seed",
        "2",
        "--out",
        str(tmp_path / "b"),
        "--export",
        str(warm),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "crazy_eights: continuing the exported" in proc.stdout
    w2 = st.load_file(str(warm))
    assert sorted(w1) == sorted(w2)
    assert all(np.array_equal(w1[k], w2[k]) for k in w1), "during the warm-up the policy must not move"
    assert json.loads(metadata(warm)["trained"])["crazy_eights"]["decisions"] > 0, "it did play and learn values"
    trained_run = tmp_path / "trained.safetensors"
    proc = run(
        "--plan",
        "crazy_eights=1,switch_blackjack=0",
        "--init-from",
        str(first),
        "--value-warmup",
        "2",
        "--seed",
        "3",
        "--out",
        str(tmp_path / "c"),
        "--export",
        str(trained_run),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    w3 = st.load_file(str(trained_run))
    assert not np.array_equal(w1["crazy_eights.fc1.weight"], w3["crazy_eights.fc1.weight"])
    assert all(np.array_equal(w1[k], w3[k]) for k in w1 if k.startswith("switch_blackjack."))
    meta, before = metadata(trained_run), metadata(first)
    assert str(tmp_path) not in json.dumps(meta)
    assert "--init-from src/bots/weights/net1.safetensors " in meta["command"]
    assert "--out runs/net-2 " in meta["command"] + " "
    trained = json.loads(meta["trained"])
    own = json.loads(before["trained"])
    for preset in ("crazy_eights", "switch_blackjack"):
        assert trained[preset]["earlier"] == [dict(own[preset], command=before["command"])]
    # What cannot be continued is refused before any training.
    proc = run(
        "--plan", "crazy_eights_specials=1", "--init-from", str(first), "--out", str(tmp_path / "d"), "--export", ""
    )
    assert proc.returncode != 0 and "no network for crazy_eights_specials" in proc.stderr
    proc = subprocess.run(
        [
            sys.executable,
            script,
            "--smoke",
            "--hidden",
            "32",
            "--eval-deals",
            "0",
            "--plan",
            "crazy_eights=1",
            "--init-from",
            str(first),
            "--out",
            str(tmp_path / "e"),
            "--export",
            "",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0 and "16 hidden units" in proc.stderr and "--hidden is 32" in proc.stderr
    proc = run(
        "--plan",
        "crazy_eights=1",
        "--init-from",
        str(tmp_path / "none.safetensors"),
        "--out",
        str(tmp_path / "f"),
        "--export",
        "",
    )
    assert proc.returncode != 0 and "no such file" in proc.stderr


def test_training_example_exports_a_gpu_run_on_a_machine_without_one(tmp_path):
    """A run trained with ``--device cuda`` is exported where there is no GPU by running the same
    command over its ``--out``: the trained presets are loaded on the CPU, and the metadata keeps
    the machine they trained on. A preset still to train there is a clear error."""
    torch = pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    if torch.cuda.is_available():
        pytest.skip("needs a machine without CUDA")
    script = os.path.join(ROOT, "research", "train_net_bot.py")
    out, first, second = tmp_path / "run", tmp_path / "first.safetensors", tmp_path / "second.safetensors"
    base = [sys.executable, script, "--smoke", "--hidden", "16", "--eval-deals", "0", "--out", str(out)]
    proc = subprocess.run(
        base + ["--plan", "crazy_eights=1", "--export", str(first)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]

    def metadata(path):
        with open(path, "rb") as f:
            return json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]

    final = out / "crazy_eights" / "final.pt"
    from eights.train.files import load_checkpoint

    ck = load_checkpoint(final)
    assert ck["hardware"] == metadata(first)["hardware"] and "cores" in ck["hardware"]
    # Pretend the checkpoint came from a GPU machine (this test cannot make one there).
    ck["hardware"] = "x86_64, 16 cores, torch 1 thread, some GPU"
    torch.save(ck, final)
    proc = subprocess.run(
        base + ["--plan", "crazy_eights=1,switch_blackjack=1", "--device", "cuda", "--export", str(second)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0 and "--device cuda" in proc.stderr and "switch_blackjack" in proc.stderr
    assert not second.exists()
    proc = subprocess.run(
        base + ["--plan", "crazy_eights=1", "--device", "cuda", "--export", str(second)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0 and "already trained" in proc.stdout, proc.stderr[-3000:]
    w1, w2 = st.load_file(str(first)), st.load_file(str(second))
    assert sorted(w1) == sorted(w2) and all(np.array_equal(w1[k], w2[k]) for k in w1)
    meta = metadata(second)
    assert meta["hardware"] == "x86_64, 16 cores, torch 1 thread, some GPU"
    assert "--device cuda" in meta["command"]


def test_training_example_widens_a_network_without_changing_its_policy():
    """``--inputs`` above a saved network's width: the new inputs get zero first-layer weights
    and a neutral normaliser, so the logits on whole observations are the old ones;
    narrowing is refused."""
    torch = pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    from eights.train import PolicyNet
    from netlab import recipe as tnb

    torch.manual_seed(0)
    before = observation_spec()["declined"][0]  # the layout before the `declined` slice
    old = PolicyNet(before, eights.NUM_ACTIONS, 16)
    old.norm.update(torch.rand(64, eights.OBS_SIZE) * 3)
    opt = torch.optim.Adam(old.parameters(), lr=1e-3)
    obs = torch.rand(32, eights.OBS_SIZE) * 2
    mask = torch.ones(32, eights.NUM_ACTIONS, dtype=torch.bool)
    old.logits_value(obs, mask)[0].sum().backward()
    opt.step()
    model, state, widened = tnb.widen(old.state_dict(), opt.state_dict(), eights.OBS_SIZE)
    assert widened and tnb.inputs_of(model) == eights.OBS_SIZE
    new = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 16)
    new.load_state_dict(model)
    obs[:, before:] = 1.0  # the appended slice set: it must not move the logits
    with torch.no_grad():
        # Equal up to the summation order of a wider matrix product.
        assert torch.allclose(new.logits_value(obs, mask)[0], old.logits_value(obs, mask)[0], rtol=1e-5, atol=1e-6)
    moments = [v for st in state["state"].values() for v in st.values() if torch.is_tensor(v) and v.dim() == 2]
    assert any(v.shape == (16, eights.OBS_SIZE) for v in moments), "the first layer's Adam moments are widened"
    opt2 = torch.optim.Adam(new.parameters(), lr=1e-3)
    opt2.load_state_dict(state)  # the shapes fit the widened network
    assert tnb.widen(model, None, eights.OBS_SIZE)[2] is False
    with pytest.raises(SystemExit, match="only be widened"):
        tnb.widen(model, None, 300)


def _recipe_commands(text):
    """The ``python research/train_net_bot.py`` commands of a text, continuation lines joined."""
    joined = text.replace("\\\n", " ")
    return [
        " ".join(line.split("train_net_bot.py", 1)[1].split())
        for line in joined.splitlines()
        if "python research/train_net_bot.py --plan" in line
    ]


@pytest.mark.parametrize("where", ["research/notes/net_stages.md", "research/train_net_bot.py"])
def test_the_documented_recipe_is_the_one_the_shipped_weights_record(where):
    """Every run the shipped file's metadata says trained a preset (its own command and each
    ``earlier`` one) is a command of the documented recipe, flag for flag (the flags that do not
    change the weights aside: checkpoints, logging, the evaluation after training), and every
    recipe command that trains a preset is in that preset's recorded history."""
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    from eights.train import config
    from netlab import recipe as tnb

    with open(WEIGHTS, "rb") as f:
        meta = json.loads(f.read(int.from_bytes(f.read(8), "little")))["__metadata__"]
    ignored = {"plan", "parallel", "export", "eval_deals", "checkpoint_every", "log_every"}

    def parsed(command):
        a = tnb.parse_args(command.split())
        rest = {k: v for k, v in config.flatten(a).items() if k not in ignored}
        return dict(tnb.parse_plan(a.plan)), rest

    with open(os.path.join(ROOT, where)) as f:
        recipe = [parsed(c) for c in _recipe_commands(f.read())]
    recipe = [(plan, rest) for plan, rest in recipe if rest["out"].startswith("runs/net") and not rest["smoke"]]
    trained = json.loads(meta["trained"])
    for preset in PRESETS:
        history = [e["command"] for e in trained[preset]["earlier"]]
        if trained[preset]["decisions"] > 0:
            history.append(meta["command"])
        recorded = []
        for command in history:
            plan, rest = parsed(command.split("train_net_bot.py", 1)[1])
            recorded.append((plan[preset], rest))
        documented = [(plan[preset], rest) for plan, rest in recipe if plan.get(preset, 0) > 0]
        assert documented == recorded, f"{where}: the recipe of {preset} differs from the shipped file's record"
