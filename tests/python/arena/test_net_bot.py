"""The first learned bots ``net1`` (three flat specialists): parity of the Rust forward pass
with a PyTorch model of the shipped weights, legality of its choices, refusal outside the rules
it was trained for, and its use wherever a built-in bot name is accepted."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import eights
from eights import _core, arena
from eights.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
WEIGHTS = os.path.join(ROOT, "src", "bots", "weights", "net1.safetensors")
PRESETS = ["crazy_eights", "switch_blackjack", "crazy_eights_specials"]
SUPPORTED = "crazy_eights, switch_blackjack, crazy_eights_specials"


def _recorded_positions(preset, games=12, seed=0):
    """Observations and masks of every decision of seeded games (heuristic against random)."""
    obs, masks = [], []
    bots = [eights.Bot("heuristic"), eights.Bot("random", seed=seed)]
    for k in range(games):
        g = eights.Game(preset, 2, seed=seed * 1000 + k)
        while not (g.is_terminal or g.is_truncated):
            p = g.current_player
            obs.append(g.observation(p))
            masks.append(g.action_mask())
            g.step(bots[(p + k) % 2].act(g))
    return np.asarray(obs, np.float32), np.asarray(masks, bool)


def test_net_presets_and_weights_file():
    assert _core.net_presets() == PRESETS
    assert os.path.getsize(WEIGHTS) <= 1_000_000
    with open(WEIGHTS, "rb") as f:
        header_len = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(header_len))
    meta = header["__metadata__"]
    assert meta["format"] == "eights-net-v1" and meta["presets"].split(",") == PRESETS
    assert meta["players"] == "2" and "command" in meta


def test_rust_forward_pass_matches_pytorch():
    torch = pytest.importorskip("torch", reason="the parity test needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the parity test needs safetensors ('.[train]')")
    # Layers may be stored as float16; the policy is their float32 values (exact widening).
    w = {k: torch.from_numpy(v.astype(np.float32)) for k, v in st.load_file(WEIGHTS).items()}
    clip = 5.0
    for preset in PRESETS:
        obs, masks = _recorded_positions(preset, seed=PRESETS.index(preset))
        assert len(obs) > 200
        n_in = w[f"{preset}.norm.mean"].shape[0]  # a network reads the first n_in values (slices are appended)
        assert n_in <= eights.OBS_SIZE
        x = torch.from_numpy(obs[:, :n_in])
        x = ((x - w[f"{preset}.norm.mean"]) * w[f"{preset}.norm.inv_std"]).clamp(-clip, clip)
        h = torch.nn.functional.linear(x, w[f"{preset}.fc1.weight"], w[f"{preset}.fc1.bias"]).relu()
        h = torch.nn.functional.linear(h, w[f"{preset}.fc2.weight"], w[f"{preset}.fc2.bias"]).relu()
        logits = torch.nn.functional.linear(h, w[f"{preset}.pi.weight"], w[f"{preset}.pi.bias"])
        want = logits.masked_fill(~torch.from_numpy(masks), -1e9).softmax(-1).numpy()
        got = _core.net_probs(preset, obs, masks)
        assert got.shape == want.shape and got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=preset)
        assert np.all(got[~masks] == 0.0)
        # The bot plays the most likely legal action.
        g = eights.Game(preset, 2, seed=77)
        bot = eights.Bot("net1")
        for _ in range(30):
            if g.is_terminal or g.is_truncated:
                break
            p = g.current_player
            pr = _core.net_probs(preset, g.observation(p)[None], g.action_mask()[None])[0]
            a = bot.act(g)
            assert pr[a] == pr.max(), preset
            g.step(a)


def test_every_choice_is_legal():
    for preset in PRESETS:
        for k, opponent in enumerate(["random", "heuristic", "net1"]):
            g = eights.Game(preset, 2, seed=500 + k)
            bots = [eights.Bot("net1"), eights.Bot(opponent, seed=k)]
            for game in range(8):
                g = eights.Game(preset, 2, seed=100 * k + game)
                while not (g.is_terminal or g.is_truncated):
                    p = g.current_player
                    a = bots[(p + game) % 2].act(g)
                    assert g.action_mask()[a], (preset, opponent, a)
                    g.step(a)
        # The Rust arena (batched) plays hundreds of games; an illegal choice would raise.
        res = arena.play(["net1", "random"], preset, games=100, seed=3, threads=1)
        assert len(res["winner"]) == 200 and res["agent_decisions"][0] > 1000


def test_batched_arena_equals_the_python_loop():
    # The arena batches net's decisions in Rust; the Python loop (record_dir) asks one game at a
    # time through eights.Bot: the same deals and seeds give the same games.
    fast = arena.play(["net1", "heuristic"], "crazy_eights", games=20, seed=9, threads=1)
    slow = arena.play(
        [
            (
                "py",
                lambda o, m: int(np.argmax(np.where(m, _core.net_probs("crazy_eights", o[None], m[None])[0], -1.0))),
            ),
            "heuristic",
        ],
        "crazy_eights",
        games=20,
        seed=9,
    )
    np.testing.assert_array_equal(fast["winner"], slow["winner"])
    np.testing.assert_array_equal(fast["decisions"], slow["decisions"])


@pytest.mark.parametrize(
    "preset,players,rules",
    [
        ("one_card", 2, None),
        ("crazy_eights", 3, None),
        ("switch_blackjack", 4, None),
        ("crazy_eights", 2, {"deal": {"hand_size": 5}}),
    ],
)
def test_net_is_refused_on_other_rules(preset, players, rules):
    table = ["net1"] + ["random"] * (players - 1)
    with pytest.raises(ValueError, match=SUPPORTED):
        arena.play(table, preset, games=2, rules=rules)
    with pytest.raises(ValueError, match=SUPPORTED):
        _core.check_bot_rules("net1", preset, players, rules)
    with pytest.raises(ValueError, match=SUPPORTED):
        eights.VecEnv(preset, 4, players, opponents="net1", rules=rules)
    with pytest.raises(ValueError, match=SUPPORTED):
        eights.VecEnv(preset, 4, players, opponents=eights.OpponentPool(["heuristic", "net1"]), rules=rules)
    with pytest.raises(ValueError, match=SUPPORTED):
        eights.EightsEnv(preset, num_players=players, opponents="net1", rules=rules)
    g = eights.Game(preset, players, seed=1, rules=rules)
    with pytest.raises(ValueError, match=SUPPORTED):
        eights.Bot("net1").act(g)
    # The other bots still play these rules.
    _core.check_bot_rules("ismcts:10", preset, players, rules)


def test_net_probs_checks_its_arguments():
    obs, masks = _recorded_positions("crazy_eights", games=1)
    with pytest.raises(ValueError, match=SUPPORTED):
        _core.net_probs("one_card", obs, masks)
    with pytest.raises(ValueError, match="obs must have shape"):
        _core.net_probs("crazy_eights", obs[:, :10], masks)
    with pytest.raises(ValueError, match="masks must have shape"):
        _core.net_probs("crazy_eights", obs, masks[:-1])
    with pytest.raises(TypeError, match="float32"):
        _core.net_probs("crazy_eights", obs.astype(np.float64), masks)
    with pytest.raises(TypeError, match="bool"):
        _core.net_probs("crazy_eights", obs, masks.astype(np.int8))
    bad = obs.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        _core.net_probs("crazy_eights", bad, masks)


def test_net_is_accepted_wherever_bots_are():
    assert eights.Bot("net1").name == "net1" and _core.parse_bot(" NET1 ") == "net1"
    with pytest.raises(ValueError, match="takes no parameter"):
        _core.parse_bot("net1:3")
    # VecEnv opponents, alone and in a pool (batched in Rust).
    for opponents in ["net1", eights.OpponentPool(["net1", "heuristic"], seed=0)]:
        env = eights.VecEnv("switch_blackjack", 16, 2, opponents=opponents, seed=0)
        env.reset()
        ended = 0
        for _ in range(300):
            _, _, term, trunc, _ = env.step(env.random_actions())
            ended += int((term | trunc).sum())
        assert ended > 0  # games end: the net opponents made every choice (an illegal one raises)
    # The Gymnasium env.
    env = eights.EightsEnv("crazy_eights_specials", opponents="net1")
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    # The arena: net beats the random bot.
    r = arena.evaluate("net1", "random", preset="crazy_eights", games=100, seed=1, threads=1)
    assert r.win_rate > 0.7


def test_net_in_the_command_line_tools(capsys):
    assert main(["botspeed", "--presets", "crazy_eights", "--bots", "net1", "--games", "4"]) == 0
    assert "net1" in capsys.readouterr().out
    assert (
        main(["arena", "--preset", "crazy_eights", "--players", "2", "--agents", "heuristic,net1", "--games", "10"])
        == 0
    )
    assert main(["arena", "--preset", "one_card", "--players", "2", "--agents", "heuristic,net1", "--games", "2"]) == 2
    assert SUPPORTED in capsys.readouterr().err
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "eights",
            "play",
            "--preset",
            "crazy_eights",
            "--players",
            "2",
            "--seed",
            "3",
            "--bots",
            "net1",
        ],
        input="1\n" * 3000,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0 and "P1 (net1): " in res.stdout, res.stderr
    res = subprocess.run(
        [sys.executable, "-m", "eights", "play", "--preset", "one_card", "--players", "2", "--bots", "net1"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode != 0 and SUPPORTED in res.stderr


def test_training_example_smoke_run_exports_loadable_weights(tmp_path):
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    st = pytest.importorskip("safetensors.numpy", reason="the training example needs safetensors ('.[train]')")
    script = os.path.join(ROOT, "examples", "train_net_bot.py")
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
    before = _core.observation_spec()["declined"][0]
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
    script = os.path.join(ROOT, "examples", "train_net_bot.py")
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
    script = os.path.join(ROOT, "examples", "train_net_bot.py")
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
    script = os.path.join(ROOT, "examples", "train_net_bot.py")
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
    script = os.path.join(ROOT, "examples", "train_net_bot.py")
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
    ck = torch.load(final, weights_only=False)
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
    from eights.train import recipe as tnb

    torch.manual_seed(0)
    before = _core.observation_spec()["declined"][0]  # the layout before the `declined` slice
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
    """The ``python examples/train_net_bot.py`` commands of a text, continuation lines joined."""
    joined = text.replace("\\\n", " ")
    return [
        " ".join(line.split("train_net_bot.py", 1)[1].split())
        for line in joined.splitlines()
        if "python examples/train_net_bot.py --plan" in line
    ]


@pytest.mark.parametrize("where", ["docs/net.md", "examples/train_net_bot.py"])
def test_the_documented_recipe_is_the_one_the_shipped_weights_record(where):
    """Every run the shipped file's metadata says trained a preset (its own command and each
    ``earlier`` one) is a command of the documented recipe, flag for flag (the flags that do not
    change the weights aside: checkpoints, logging, the evaluation after training), and every
    recipe command that trains a preset is in that preset's recorded history."""
    pytest.importorskip("torch", reason="the training example needs PyTorch (pip install '.[train]')")
    from eights.train import config
    from eights.train import recipe as tnb

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
