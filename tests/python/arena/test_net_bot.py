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
    with pytest.raises(ValueError, match=SUPPORTED) as refused:
        eights.Bot("net1").act(g)
    # "under rules that play differently" only where the rules differ: not for a preset of its own at
    # another table (it said so for crazy_eights at 3 players).
    assert ("under rules that play differently" in str(refused.value)) == (rules is not None)
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
