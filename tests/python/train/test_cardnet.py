"""The rules-reading ``net`` (``eights.train.cardnet``): the Rust forward pass that the bot plays
agrees with PyTorch's to 1e-5 on positions of many rule sets and table sizes, the bot plays the
greedy action of those logits, the shipped file loads back into PyTorch, and the per-card
inputs mean what their names say."""

from __future__ import annotations

import os

import numpy as np
import pytest

import eights
from eights import _core

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights.train.cardnet import CARD_DYNAMIC, CardNet, card_inputs, export, load, load_path, shipped  # noqa: E402
from eights.train.cardnet_grow import attend, widen  # noqa: E402

#: The observation's slices, from the engine's layout.
SPEC = _core.observation_spec()
HAND, TOP = slice(*SPEC["hand"]), slice(*SPEC["top_card"])


def _positions(rule_sets, seed=0, games=2):
    """Observations, masks and rules encodings of heuristic-vs-random games."""
    obs, masks, rules = [], [], []
    for k, (r, n) in enumerate(rule_sets):
        for j in range(games):
            g = eights.Game(r, n, seed=seed + 10 * k + j)
            bots = [eights.Bot("heuristic")] + [eights.Bot("random", seed=seed + s) for s in range(1, n)]
            enc = g.rules_encoding()
            while not (g.is_terminal or g.is_truncated):
                p = g.current_player
                obs.append(g.observation(p))
                masks.append(g.action_mask())
                rules.append(enc)
                g.step(bots[(p + j) % n].act(g))
    return np.asarray(obs, np.float32), np.asarray(masks, bool), np.asarray(rules, np.float32)


RULE_SETS = [
    ("crazy_eights", 2),
    ("switch_blackjack", 3),
    ("kings_reverse", 4),
    ("stalin", 4),
    ("thirty_eights", 4),
    ("zodiac", 2),
    ("rose_mau", 5),
    ("crazy_eights_countdown", 2),
    ("one_card", 3),
    ("crazy_eights", 7),
]


def _torch_logits(net, obs, masks, rules):
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(rules), torch.arange(len(obs)))
    return logits.numpy()


def test_rust_forward_pass_matches_pytorch_on_random_weights(tmp_path):
    torch.manual_seed(0)
    net = CardNet()
    for p in net.parameters():  # every weight and bias non-zero, so every path matters
        p.data.normal_(0.0, 0.1)
    path = tmp_path / "w.safetensors"
    export(net, str(path), {"stages": "[]"}, dtype=torch.float32)
    obs, masks, rules = _positions(RULE_SETS)
    assert len(obs) > 500
    want = _torch_logits(net, obs, masks, rules)
    got = _core.card_net_logits(obs, masks, rules, path.read_bytes())
    legal = masks
    assert np.all(got[~legal] == -1e9)
    scale = np.maximum(1.0, np.abs(want[legal]))
    assert np.max(np.abs(got[legal] - want[legal]) / scale) < 1e-5


def test_a_widened_net_plays_exactly_as_before_in_pytorch_and_in_rust(tmp_path):
    torch.manual_seed(1)
    net = CardNet(width=8, context=16)
    for p in net.parameters():
        p.data.normal_(0.0, 0.3)
    wide = widen(net, 12, 24, seed=2)
    assert (wide.width, wide.context) == (12, 24)
    obs, masks, rules = _positions(RULE_SETS[:5], games=1)
    o, m, r, i = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(rules), torch.arange(len(obs))
    with torch.no_grad():
        (l0, v0), (l1, v1) = net(o, m, r, i), wide(o, m, r, i)
        h_new = torch.relu(wide.d(torch.zeros(1, len(CARD_DYNAMIC))) + wide.rules_part(r[:1])[0])[..., 8:]
    assert torch.allclose(l0, l1, atol=1e-5) and torch.allclose(v0, v1, atol=1e-5)
    assert h_new.abs().sum() > 0  # the new card units are live, only their outgoing weights are zero
    path = tmp_path / "w.safetensors"
    export(wide, str(path), {"stages": "[]"}, dtype=torch.float32)
    got = _core.card_net_logits(obs, masks, rules, path.read_bytes())
    assert np.max(np.abs(got[masks] - l0.numpy()[masks]) / np.maximum(1.0, np.abs(l0.numpy()[masks]))) < 1e-5
    with pytest.raises(ValueError, match="may only grow"):
        widen(net, 4, 16)


def test_rust_attention_layer_matches_pytorch_on_random_weights(tmp_path):
    torch.manual_seed(3)
    net = CardNet(attention=True)
    for p in net.parameters():
        p.data.normal_(0.0, 0.1)
    path = tmp_path / "w.safetensors"
    export(net, str(path), {"stages": "[]"}, dtype=torch.float32)
    obs, masks, rules = _positions(RULE_SETS, seed=4)
    want = _torch_logits(net, obs, masks, rules)
    without = CardNet()
    without.load_state_dict(net.state_dict(), strict=False)
    assert np.max(np.abs(_torch_logits(without, obs, masks, rules)[masks] - want[masks])) > 0.02  # the layer matters
    got = _core.card_net_logits(obs, masks, rules, path.read_bytes())
    assert np.all(got[~masks] == -1e9)
    assert np.max(np.abs(got[masks] - want[masks]) / np.maximum(1.0, np.abs(want[masks]))) < 1e-5
    back = load(path.read_bytes())
    assert back.attention and np.allclose(_torch_logits(back, obs, masks, rules)[masks], want[masks], atol=1e-5)


def test_attention_starts_silent_and_mixes_only_the_hand_and_the_top_card(tmp_path):
    """``attend`` adds the layer with its value-output matrix at zero: the same logits in
    PyTorch and in Rust. With a zero score matrix and an identity value matrix, each face in
    hand or on top gains the mean of those faces' embeddings, and every other face keeps its
    own (computed here with numpy from the embeddings before the layer)."""
    torch.manual_seed(5)
    net = CardNet(width=8, context=16)
    for p in net.parameters():
        p.data.normal_(0.0, 0.3)
    att = attend(net, seed=1)
    obs, masks, rules = _positions(RULE_SETS[:6], seed=6, games=1)
    want = _torch_logits(net, obs, masks, rules)
    assert np.array_equal(_torch_logits(att, obs, masks, rules), want)
    path = tmp_path / "w.safetensors"
    export(att, str(path), {"stages": "[]"}, dtype=torch.float32)
    got = _core.card_net_logits(obs, masks, rules, path.read_bytes())
    assert np.max(np.abs(got[masks] - want[masks]) / np.maximum(1.0, np.abs(want[masks]))) < 1e-5
    with torch.no_grad():
        att.att_a.zero_()
        att.att_b.copy_(torch.eye(8))
        h = torch.rand(len(obs), 54, 8)
        out = att._attend(h, torch.from_numpy(obs)).numpy()
    h = h.numpy()
    seen = (obs[:, HAND] > 0) | (obs[:, TOP] > 0)
    for k in range(len(obs)):
        mean = h[k][seen[k]].mean(0)
        expect = np.where(seen[k][:, None], h[k] + mean, h[k])
        assert np.allclose(out[k], expect, atol=1e-5), k


def test_a_file_must_say_whether_its_network_has_attention(tmp_path):
    from safetensors.torch import load_file, save_file

    net = CardNet(width=8, context=16, attention=True)
    path = tmp_path / "w.safetensors"
    export(net, str(path), {"stages": "[]"}, dtype=torch.float32)
    obs, masks, rules = _positions(RULE_SETS[:1], games=1)
    from safetensors import safe_open

    with safe_open(str(path), "pt") as f:
        meta = f.metadata()
    assert meta["format"] == "eights-net-v3" and meta["attention"] == "bilinear"
    tensors = load_file(str(path))
    for bad in ({**meta, "format": "eights-net-v2"}, {k: v for k, v in meta.items() if k != "attention"}):
        save_file(tensors, str(path), metadata=bad)
        with pytest.raises(ValueError, match="attention"):
            _core.card_net_logits(obs, masks, rules, path.read_bytes())
    meta = {**meta, "attention": "bilinear"}
    save_file({k: v for k, v in tensors.items() if k != "att_b"}, str(path), metadata=meta)
    with pytest.raises(ValueError, match="att_b"):
        _core.card_net_logits(obs, masks, rules, path.read_bytes())
    with pytest.raises(ValueError, match="cannot be widened"):
        widen(net, 12, 24)


def test_shipped_weights_load_into_pytorch_and_agree_with_the_bot():
    net = shipped().eval()  # the public path to what the bot plays
    obs, masks, rules = _positions(RULE_SETS, seed=7, games=1)
    want = _torch_logits(net, obs, masks, rules)
    got = _core.card_net_logits(obs, masks, rules)
    assert np.max(np.abs(got[masks] - want[masks]) / np.maximum(1.0, np.abs(want[masks]))) < 1e-5
    # The bot plays the greedy legal action of those logits, on every one of these rule sets.
    for r, n in RULE_SETS:
        g = eights.Game(r, n, seed=3)
        bot = eights.Bot("net")
        for _ in range(30):
            if g.is_terminal or g.is_truncated:
                break
            o = g.observation(g.current_player)[None].astype(np.float32)
            m = g.action_mask()[None]
            lg = _core.card_net_logits(o, m, g.rules_encoding()[None].astype(np.float32))
            a = bot.act(g)
            assert a == int(np.argmax(lg[0]))
            g.step(a)


def test_shipped_file_is_small_and_records_its_training():
    data = _core.card_net_weights()
    assert len(data) <= 2 * 1024 * 1024
    import json
    import struct

    n = struct.unpack("<Q", data[:8])[0]
    meta = json.loads(data[8 : 8 + n])["__metadata__"]
    assert meta["format"] == "eights-net-v2"
    for key in ("stages", "decisions", "hardware", "train_minutes"):
        assert meta[key], key


def test_card_inputs_name_what_they_hold():
    g = eights.Game("crazy_eights", 2, seed=5)
    obs = torch.from_numpy(g.observation(g.current_player)[None].astype(np.float32))
    mask = torch.from_numpy(g.action_mask()[None])
    d = card_inputs(obs, mask)[0]
    col = {name: d[:, i].numpy() for i, name in enumerate(CARD_DYNAMIC)}
    top = int(np.argmax(obs[0, TOP].numpy()))
    assert col["top"][top] == 1 and col["top"].sum() == 1
    # Every face of the top card's rank (the top card included) shows "rank_on_top".
    same_rank = [c for c in range(52) if c % 13 == top % 13]
    assert set(np.flatnonzero(col["rank_on_top"])) == set(same_rank)
    # "can_play" is the play part of the mask; the hand column is the observation's hand.
    assert np.array_equal(col["can_play"], g.action_mask()[:54].astype(np.float32))
    assert np.array_equal(col["hand"], obs[0, HAND].numpy())
    # The constant matrices follow the observations' dtype (and device: a network on a GPU).
    assert torch.equal(card_inputs(obs.double(), mask), d[None].double())


def test_wild_rank_input_shows_a_countdown_players_own_wild():
    """docs/rules_catalog.md#countdown: "a player's wild rank is their score (8 down to 2, then
    the ace at 1)". The network's ``wild_rank`` input lights the four faces of that rank for
    the observer (not another player's), in the PyTorch inputs and in what the Rust pass reads;
    outside a countdown rule set it stays off."""
    net = CardNet()
    col = CARD_DYNAMIC.index("wild_rank")
    for seed in range(2):
        g = eights.Game("crazy_eights_countdown", 3, seed=seed)
        bots = [eights.Bot("heuristic", seed=s) for s in range(3)]
        seen = set()
        while not (g.is_terminal or g.is_truncated):
            p = g.current_player
            own = g.scores[p]
            obs = torch.from_numpy(g.observation(p)[None].astype(np.float32))
            mask = torch.from_numpy(g.action_mask()[None])
            rules = torch.from_numpy(g.rules_encoding()[None].astype(np.float32))
            _, _, countdown = net.parts(rules)
            lit = np.flatnonzero(card_inputs(obs, mask, countdown)[0, :, col].numpy())
            want = [c for c in range(52) if c % 13 == own - 1] if 1 <= own <= 13 else []
            assert list(lit) == want, (seed, own, lit)
            seen.add(own)
            g.step(bots[p].act(g))
    assert len(seen) >= 2  # scores moved during the games: more than one wild rank was shown
    g = eights.Game("crazy_eights", 2, seed=0)
    obs = torch.from_numpy(g.observation(0)[None].astype(np.float32))
    rules = torch.from_numpy(g.rules_encoding()[None].astype(np.float32))
    d = card_inputs(obs, torch.from_numpy(g.action_mask()[None]), net.parts(rules)[2])
    assert d[0, :, col].sum() == 0


def test_rust_pass_reads_the_countdown_wild_rank(tmp_path):
    """A network whose only path from the inputs to the logits is the ``wild_rank`` input: its
    Rust logits follow the observer's countdown score the way PyTorch's do."""
    torch.manual_seed(1)
    net = CardNet()
    col = CARD_DYNAMIC.index("wild_rank")
    with torch.no_grad():
        for p in net.parameters():
            p.zero_()
        net.d.weight[:, col] = 1.0  # h[c] = relu(wild_rank[c]) on every unit
        net.u.weight.fill_(1.0)
        net.a.weight.fill_(1.0)
    path = tmp_path / "w.safetensors"
    export(net, str(path), {"stages": "[]"}, dtype=torch.float32)
    obs, masks, rules = _positions([("crazy_eights_countdown", 2), ("bitch", 3)], seed=2, games=2)
    want = _torch_logits(net, obs, masks, rules)
    got = _core.card_net_logits(obs, masks, rules, path.read_bytes())
    assert np.max(np.abs(got[masks] - want[masks]) / np.maximum(1.0, np.abs(want[masks]))) < 1e-5
    own = np.round(obs[:, SPEC["scores"][0]] * 100).astype(int)
    lit = masks[:, :52] & ((np.arange(52)[None, :] % 13) == (own[:, None] - 1))
    assert lit.any()  # some legal play was of the observer's own wild rank
    assert np.all(got[:, :52][lit] > 0) and np.all(got[:, :52][masks[:, :52] & ~lit] == 0)


def test_net_plays_every_preset_at_every_table_size_and_mixed_rules():
    for p in eights.presets():
        for n in eights.Rules(p).players[:2]:
            res = eights.arena.evaluate("net", "heuristic", preset=p, num_players=n, games=2, seed=1)
            assert 0.0 <= res.win_rate <= 1.0
    env = eights.VecEnv(eights.RuleSpace(num_players=3), 16, 3, opponents="net", obs_rules=True, seed=0)
    env.reset(seed=0)
    for _ in range(50):
        env.step(env.random_actions())


def test_the_card_policy_keeps_the_rules_part_only_while_nothing_changes():
    # Without gradients CardPolicy keeps CardNet.parts of its rules between calls; its answers
    # must stay those of the network computed afresh, also after an optimiser step changes
    # the weights, after new rules, and with gradients on (where nothing is kept).
    from eights.train.cardpolicy import shipped_card_policy

    obs, masks, rules = _positions([("switch_blackjack", 3)], games=1)
    obs_t, mask_t = torch.from_numpy(obs[:20]), torch.from_numpy(masks[:20])
    pol = shipped_card_policy(rules[0]).eval()

    def fresh():
        with torch.no_grad():
            return pol.net(obs_t, mask_t, pol.rules, pol._ridx(obs_t))[0]

    with torch.no_grad():
        first = pol.logits_value(obs_t, mask_t)[0]
        assert pol._parts() is pol._parts()  # kept
        torch.testing.assert_close(first, fresh(), rtol=0, atol=0)
    opt = torch.optim.SGD(pol.parameters(), lr=0.5)
    loss = pol.logits_value(obs_t, mask_t)[0].clamp(min=-50).sum()  # gradients on: nothing kept
    loss.backward()
    opt.step()
    with torch.no_grad():
        after = pol.logits_value(obs_t, mask_t)[0]
    assert not torch.equal(after, first)
    torch.testing.assert_close(after, fresh(), rtol=0, atol=0)
    pol.rules.copy_(torch.from_numpy(rules[0] * 0.5)[None])  # other rules, in place
    with torch.no_grad():
        torch.testing.assert_close(pol.logits_value(obs_t, mask_t)[0], fresh(), rtol=0, atol=0)


def test_sampled_moves_of_the_card_network_follow_its_policy():
    # VecEnv.bot_actions(..., seed=...) draws each move from the softmax of the network's
    # logits over the legal moves; the logits here come from the Rust forward pass that the
    # tests above check against PyTorch's.
    env = eights.VecEnv("switch_blackjack", 8, 3, opponents="random", seed=3)
    obs, info = env.reset()
    masks = info["action_mask"]
    row = int(np.argmax(masks.sum(1)))  # the game with the most legal moves
    assert masks[row].sum() >= 3
    enc = eights.Rules("switch_blackjack").encode(3)
    logits = _core.card_net_logits(obs[row : row + 1], masks[row : row + 1], enc[None].astype(np.float32))[0]
    legal = np.flatnonzero(masks[row])
    p = np.exp(logits[legal] - logits[legal].max())
    p /= p.sum()
    draws = np.array([env.bot_actions("net", [row], seed=s)[0] for s in range(4000)])
    freq = np.array([(draws == a).mean() for a in legal])
    assert set(np.unique(draws)) <= set(legal)
    assert np.all(np.abs(freq - p) <= 4.5 * np.sqrt(p * (1 - p) / len(draws)) + 1e-3), (freq, p)
    # Game i's draw depends only on the seed and i, not on the other rows asked with it.
    rows = np.arange(8)
    both = env.bot_actions("net", rows, seed=11)
    np.testing.assert_array_equal(env.bot_actions("net", rows[3:6], seed=11), both[3:6])
    sampled_only = r"seed is for the card network's sampled moves \(net, or its files\), and heuristic has none"
    with pytest.raises(ValueError, match=sampled_only):
        env.bot_actions("heuristic", rows, seed=1)
    flat = eights.VecEnv("crazy_eights", 4, 2, opponents="random", seed=0)
    flat.reset()
    with pytest.raises(ValueError, match="and net1 has none: leave seed out"):
        flat.bot_actions("net1", None, seed=1)
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        env.bot_actions("net", rows, seed=-1)


def test_the_league_plays_a_card_networks_snapshots_sampled_in_rust(tmp_path):
    from eights.agents.pool import SampledNet
    from eights.train import LeagueConfig, PPOConfig, SelfPlay
    from eights.train.cardpolicy import shipped_card_policy

    agent = shipped_card_policy(eights.Rules("switch_blackjack").encode(3))
    opt = torch.optim.Adam(agent.parameters(), lr=1e-4)
    ppo = PPOConfig(num_envs=12, num_steps=8, update_epochs=1, num_minibatches=1)
    sp = SelfPlay(agent, opt, "switch_blackjack", ppo, LeagueConfig(snapshot_every=1), num_players=3, seed=2)
    sp.run(5.0, max_steps=150, init_norm=False)
    assert SampledNet("net").path == "net"
    with pytest.raises(ValueError, match="SampledNet needs the card network"):
        SampledNet("heuristic")
    snaps = [p for p in sp.pools[0]._policies if isinstance(p, SampledNet)]
    assert sp.update >= 2 and len(snaps) == sp.update and all(len(pool) == len(sp.pools[0]) for pool in sp.pools)
    folder = sp._snapshot_dir
    assert sorted(os.listdir(folder)) == sorted(f"snapshot_{k}.safetensors" for k in range(1, sp.update + 1))
    # The file plays what the snapshot's network plays (greedy, on positions of the rules).
    obs, masks, _ = _positions([("switch_blackjack", 3)], games=1)
    with torch.no_grad():
        mine = sp.pools[0]._policies[-1]
        rust = _core.card_net_logits(
            obs, masks, np.repeat(eights.Rules("switch_blackjack").encode(3)[None], len(obs), 0).astype(np.float32),
            open(mine.path, "rb").read(),
        )  # fmt: skip
        torch.testing.assert_close(
            torch.from_numpy(rust).masked_fill(~torch.from_numpy(masks), -1e9),
            agent.logits_value(torch.from_numpy(obs), torch.from_numpy(masks))[0],
            rtol=1e-4, atol=1e-4,
        )  # fmt: skip
    del sp, snaps, mine
    import gc

    gc.collect()
    assert not os.path.exists(folder)  # the snapshots' folder goes with the run


def test_a_network_exported_without_a_record_plays_as_it_was(tmp_path):
    # The fine-tuning recipe of docs/net.md: `export` once required the training stages.
    net = shipped().eval()
    path = tmp_path / "mine.safetensors"
    export(net, str(path))
    obs, masks, rules = _positions(RULE_SETS, seed=11, games=1)
    again = load_path(str(path)).eval()
    want = _torch_logits(net, obs, masks, rules)
    assert np.max(np.abs(_torch_logits(again, obs, masks, rules)[masks] - want[masks])) < 1e-6
    assert eights.agents.agent_file_metadata(path)["format"] == "eights-net-v2"
