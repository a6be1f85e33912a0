"""A trained network saved as a file plays wherever a bot name is accepted: a flat network
written by ``eights.train.write_agent_file`` on house rules at three players, and a card
network written by the existing card-network writer, both played in Rust by path (issue #61:
"The trained file is an agent everywhere")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import Rules
from eights._core import parse_bot
from eights.agents import OpponentPool, agent_file_metadata, as_agent

torch = pytest.importorskip("torch")
from eights.train import PolicyNet, write_agent_file  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
HOUSE = REPO / "examples" / "house_rules.toml"
PLAYERS = 3


def _random_policy(seed: int = 0, hidden: int = 40) -> PolicyNet:
    """A PolicyNet with fixed random weights whose logits differ by much more than float
    rounding (the initial policy head is nearly uniform), and a normaliser of its own."""
    g = torch.Generator().manual_seed(seed)
    net = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, hidden)
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.5)
        net.norm.mean.copy_(torch.rand(eights.OBS_SIZE, generator=g) * 0.2)
        net.norm.inv_std.copy_(0.5 + torch.rand(eights.OBS_SIZE, generator=g))
    return net.eval()


@pytest.fixture(scope="module")
def house() -> Rules:
    return Rules.from_toml(HOUSE)


@pytest.fixture(scope="module")
def flat(tmp_path_factory, house):
    """(path, policy): the flat network's file on the house rules at three players."""
    path = tmp_path_factory.mktemp("agent") / "final.safetensors"
    net = _random_policy()
    meta = {"name": "house-agent", "command": "eights train ...", "decisions": 123, "minutes": "0.5"}
    write_agent_file(str(path), net, house, meta, num_players=PLAYERS)
    return str(path), net


def _positions(rules, n_games=12, seed=0):
    """Positions of games played by random moves: (game, player to act)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n_games):
        g = eights.Game(rules, num_players=PLAYERS, seed=seed + k)
        while not g.is_terminal and len(out) < 60 * (k + 1):
            out.append(g.clone())
            g.step(int(rng.choice(g.legal_actions())))
    return out


def test_the_file_plays_the_greedy_action_of_the_pytorch_network(flat, house):
    path, net = flat
    bot = eights.Bot(path, seed=0)
    checked = 0
    for g in _positions(house):
        obs = torch.from_numpy(g.observation(g.current_player))[None]
        mask = torch.from_numpy(g.action_mask())[None]
        with torch.no_grad():
            logits, _ = net.logits_value(obs, mask)
        top2 = torch.topk(logits[0], 2).values
        if g.action_mask().sum() > 1 and float(top2[0] - top2[1]) < 1e-3:
            continue  # a near tie: float rounding may pick either
        assert bot.act(g) == int(logits.argmax(1)[0])
        checked += 1
    assert checked > 300


def test_the_file_records_its_rules_table_and_provenance(flat, house):
    path, _ = flat
    meta = agent_file_metadata(path)
    assert meta["format"] == "eights-net-v1" and meta["players"] == str(PLAYERS)
    assert Rules.from_toml(meta["agent.rules"]) == house
    assert meta["name"] == "house-agent" and meta["decisions"] == "123" and meta["command"] == "eights train ..."
    assert as_agent(path).label == "house-agent"


def test_the_file_is_an_arena_agent_a_vecenv_opponent_and_a_pool_snapshot(flat, house):
    path, _ = flat
    res = eights.arena.evaluate(path, "heuristic", preset=house, num_players=PLAYERS, games=6, seed=1)
    assert res.games == 6 * PLAYERS and res.agent == "house-agent"
    env = eights.VecEnv(house, 16, num_players=PLAYERS, opponents=path, seed=3)
    pool = OpponentPool([path, "heuristic"], seed=0)
    env2 = eights.VecEnv(house, 16, num_players=PLAYERS, opponents=pool, seed=3)
    single = eights.make(house, num_players=PLAYERS, opponents=path, seed=5)
    rng = np.random.default_rng(0)
    for e in (env, env2):
        _, info = e.reset(seed=3)
        ended = 0
        for _ in range(300):
            masks = info["action_mask"]
            # A game awaiting its reset has no legal action (its action is ignored).
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            _, _, term, trunc, info = e.step(acts)
            ended += int(np.sum(term | trunc))
        assert ended > 0
    _, info = single.reset(seed=5)
    done = False
    while not done:
        _, _, term, trunc, info = single.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = term or trunc


def test_the_file_refuses_other_rules_naming_its_rules_and_table(flat):
    path, _ = flat
    for preset, n in (("crazy_eights", PLAYERS), ("house", 2)):
        rules = Rules.from_toml(HOUSE) if preset == "house" else preset
        with pytest.raises(ValueError, match=r"plays only the rules it was trained for.*house_eights.*3 players"):
            eights.arena.evaluate(path, "heuristic", preset=rules, num_players=n, games=1)
    with pytest.raises(ValueError, match="final.safetensors"):
        eights.Bot(path).act(eights.Game("crazy_eights", num_players=PLAYERS, seed=0))


def test_a_flat_file_is_refused_on_a_rule_space_when_the_env_is_made(flat, tmp_path):
    """A rule space deals rules the flat file was not trained for: refused when the env is
    made, as ``net1`` is (it was refused only at the first reset); a card network's file plays
    every rule set and is accepted."""
    from eights._core import bot_plays_every_rule_set, card_net_weights
    from eights.train import cardnet

    path, _ = flat
    space = eights.RuleSpace(num_players=PLAYERS)
    msg = r"bot file .*final\.safetensors.* plays only the rules it was trained for, not rules drawn from a RuleSpace"
    with pytest.raises(ValueError, match=msg):
        eights.VecEnv(space, num_envs=4, num_players=PLAYERS, opponents=path)
    with pytest.raises(ValueError, match=msg):
        eights.EightsEnv(space, num_players=PLAYERS, opponents=path)
    card = str(tmp_path / "cards.safetensors")
    cardnet.export(cardnet.load(card_net_weights()), card, {"name": "net-copy"})
    env = eights.VecEnv(space, num_envs=4, num_players=PLAYERS, opponents=card, seed=1)
    env.reset()
    env.step(env.random_actions())
    assert [bot_plays_every_rule_set(b) for b in (path, "net1", card, "net", "heuristic", "ismcts_net:10")] == [
        False,
        False,
        True,
        True,
        True,
        True,
    ]


def test_the_file_plays_its_rules_under_another_name(flat, house):
    # Names and prose are not rules: the same game renamed plays the same games.
    path, _ = flat
    renamed = house.replace(name="our_table", title="Our table", description="The same game, renamed.")
    assert renamed != house
    runs = [
        eights.arena.evaluate(path, "heuristic", preset=r, num_players=PLAYERS, games=4, seed=2)
        for r in (house, renamed)
    ]
    assert [(r.wins, r.losses, r.mean_score) for r in runs[:1]] == [(r.wins, r.losses, r.mean_score) for r in runs[1:]]
    assert runs[1].preset == "our_table"


def test_a_card_network_file_from_the_existing_writer_plays_as_net(tmp_path):
    from eights._core import card_net_weights
    from eights.train import cardnet

    path = tmp_path / "cards.safetensors"
    cardnet.export(cardnet.load(card_net_weights()), str(path), {"name": "net-copy"})
    assert agent_file_metadata(path)["format"] in ("eights-net-v2", "eights-net-v3")
    for preset, n in (("crazy_eights", 2), ("switch_blackjack", 4)):
        a, b = eights.Bot(str(path), seed=0), eights.Bot("net", seed=0)
        for g in _positions_of(preset, n):
            assert a.act(g) == b.act(g)
    res = eights.arena.evaluate(str(path), "heuristic", preset="one_card", num_players=3, games=4)
    assert res.games == 12


def test_the_arena_hands_a_file_as_many_deals_a_call_as_net(flat, tmp_path):
    """A weights file is decided for in batches, as ``net`` is: the arena gives Rust 64 deals a
    thread a call (the progress callback hears of each call's games), not the 4 a thread of
    the per-game bots, whose batches of a few games left the threads idle. The games are
    ``net``'s (the file holds its weights)."""
    from eights._core import bot_is_batched, card_net_weights
    from eights.train import cardnet

    path = str(tmp_path / "cards.safetensors")
    cardnet.export(cardnet.load(card_net_weights()), path, {"name": "net-copy"})
    assert [bot_is_batched(b) for b in ("net", "net1", path, flat[0])] == [True] * 4
    assert [bot_is_batched(b) for b in ("random", "heuristic", "ismcts:50", "ismcts_net:50")] == [False] * 4
    with pytest.raises(ValueError, match="bot"):
        bot_is_batched("nope")
    calls, raw = {}, {}
    for agent in ("net", path):
        calls[agent] = []
        raw[agent] = eights.arena.play(
            [agent, "heuristic"], "crazy_eights", 300, seed=4, threads=2, progress=calls[agent].append
        )
    assert calls["net"] == calls[path] == [256, 256, 88]  # 128 deals a call, two games each
    for key in ("winner", "decisions", "hand_points"):
        np.testing.assert_array_equal(raw[path][key], raw["net"][key])
    heur = []
    eights.arena.play(["heuristic", "random"], "crazy_eights", 20, seed=4, threads=2, progress=heur.append)
    assert heur == [16, 16, 8]  # 8 deals a call


def _positions_of(preset, n, games=4):
    rng = np.random.default_rng(1)
    out = []
    for k in range(games):
        g = eights.Game(preset, num_players=n, seed=k)
        while not g.is_terminal and g.decision_count < 80:
            out.append(g.clone())
            g.step(int(rng.choice(g.legal_actions())))
    return out


def test_bad_paths_and_files_are_clear_errors(tmp_path):
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    missing = tmp_path / "none.safetensors"
    folder = tmp_path / "dir.safetensors"
    folder.mkdir()
    for name, words in ((missing, "cannot open it"), (junk, "not a safetensors file"), (folder, "is a folder")):
        with pytest.raises(ValueError, match=f"bot file .*{name.name}.*{words}"):
            eights.Bot(str(name))
    with pytest.raises(ValueError, match=r"junk\.safetensors.*eights-net-v1"):
        parse_bot(str(junk))
    # A pipe blocked the read, deaf to Ctrl-C; a link to /dev/zero read until memory ran out;
    # a 3 GB file was read whole (3.2 GB, 9 s) before its header was looked at.
    import os
    import subprocess

    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.safetensors"
        os.mkfifo(fifo)
        # A writer that comes after 3 s, so that a reader of the pipe (the fault) ends, not the
        # test run; refused unread, the pipe never gets a reader and the writer is stopped.
        writer = subprocess.Popen(["sh", "-c", f"sleep 3; printf junk > '{fifo}'"])
        try:
            with pytest.raises(ValueError, match=r"fifo\.safetensors.*is not a regular file"):
                eights.Bot(str(fifo))
        finally:
            writer.kill()
            writer.wait()
    sparse = tmp_path / "sparse.safetensors"
    with open(sparse, "wb") as f:
        f.truncate(300 << 20)  # sparse: no disk space taken
    with pytest.raises(
        ValueError, match=r"sparse\.safetensors.*is 314,572,800 bytes; a bot file is at most 268,435,456"
    ):
        eights.Bot(str(sparse))
    with pytest.raises(ValueError, match=r"none\.safetensors.*cannot open it"):
        as_agent(str(missing), "--agents")
    with pytest.raises(ValueError, match=r"none\.safetensors"):
        eights.VecEnv("crazy_eights", 2, opponents=str(missing))
    with pytest.raises(ValueError, match=r"none\.safetensors"):
        OpponentPool([str(missing)])
    other = tmp_path / "other.safetensors"
    from safetensors.numpy import save_file

    save_file({"x": np.zeros(2, np.float32)}, str(other), metadata={"format": "mine"})
    with pytest.raises(ValueError, match=r"format 'mine'|format \"mine\""):
        eights.Bot(str(other))
    with pytest.raises(ValueError, match="path must end in .safetensors"):
        write_agent_file(str(tmp_path / "a.pt"), _random_policy(), "crazy_eights", {}, num_players=2)


def test_a_run_folder_plays_its_agent_file_and_its_checkpoint_names_it(flat, tmp_path):
    """A training run's folder (``eights train --out``) holds its agent file,
    ``final.safetensors``, beside ``checkpoint.pt``. The folder is an agent wherever the file
    is (as ``train --opponents`` takes it); the checkpoint, which no bot plays, was refused as
    "not a model saved by stable-baselines3", "unknown bot" or a safetensors header length of
    578,712,552,184,433,488: it is refused naming the run's agent file."""
    import shutil

    from eights.agents.load import load_policy
    from eights.train import train

    shutil.copy(flat[0], tmp_path / "final.safetensors")
    torch.save({"step": 1}, tmp_path / "checkpoint.pt")
    games = dict(preset=HOUSE, num_players=PLAYERS, games=2, seed=0)
    by_folder = eights.arena.evaluate(str(tmp_path), "random", **games)
    by_file = eights.arena.evaluate(flat[0], "random", **games)
    assert (by_folder.wins, by_folder.losses, by_folder.mean_score) == (
        by_file.wins,
        by_file.losses,
        by_file.mean_score,
    )
    assert by_folder.agent == "house-agent"
    assert load_policy(str(tmp_path)) == str(tmp_path / "final.safetensors")
    named = rf"training checkpoint .*the run's agent is '{tmp_path / 'final.safetensors'}'"
    checkpoint = str(tmp_path / "checkpoint.pt")
    for call in (
        lambda: as_agent(checkpoint, "--agents"),
        lambda: load_policy(checkpoint),
        lambda: train("crazy_eights", 2, out=str(tmp_path / "run"), decisions=10, init=checkpoint, progress=False),
    ):
        with pytest.raises(ValueError, match=named):
            call()


@pytest.mark.slow
def test_cli_arena_plays_the_file_under_its_name(flat):
    path, _ = flat
    out = subprocess.run(
        [sys.executable, "-m", "eights", "arena", "--rules", str(HOUSE), "--players", str(PLAYERS)]
        + ["--agents", f"{path},heuristic,random", "--games", "3", "--no-progress", "--threads", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "house-agent" in out.stdout


@pytest.mark.slow
def test_a_console_script_resolves_module_attribute_from_the_current_folder(tmp_path):
    # A console script runs a file from the environment's bin/: Python puts that file's folder
    # on sys.path, not the current one (python -m puts the current folder there).
    bin_dir, work = tmp_path / "bin", tmp_path / "work"
    bin_dir.mkdir()
    work.mkdir()
    (bin_dir / "eights_script.py").write_text(
        "import sys\nfrom eights.__main__ import main\nsys.exit(main())\n", encoding="utf-8"
    )
    (work / "mine.py").write_text(
        "import numpy as np\n\ndef agent(obs, mask):\n    return int(np.flatnonzero(mask)[0])\n", encoding="utf-8"
    )
    package_root = str(Path(eights.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, str(bin_dir / "eights_script.py"), "arena", "--agents", "mine:agent,random"]
        + ["--games", "2", "--no-progress", "--threads", "1"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert "mine:agent" in out.stdout


def test_serve_offers_a_file_by_policy_name_and_refuses_a_path_from_a_client(flat, house):
    from eights.web.config import load_policies, parse_policy
    from eights.web.errors import ApiError
    from eights.web.requests import _agent

    path, _ = flat
    assert parse_policy(path) == ("final", path)
    offered = load_policies(dict([parse_policy(f"mine={path}")]))
    agent = _agent("mine", house, PLAYERS, offered)
    assert agent.label == "mine" and agent.bot == os.path.realpath(path)
    with pytest.raises(ApiError, match="plays only the rules it was trained for"):
        _agent("mine", house, 2, offered)
    with pytest.raises(ApiError, match="offered by the server"):
        _agent(path, house, PLAYERS, offered)


def test_play_and_exploit_take_the_file_by_path(flat, tmp_path):
    """The two commands the arena test does not cover: ``play --bots FILE`` seats the file
    against a person (scripted input), and ``exploit --agent FILE`` trains a best response to
    it and evaluates it, on the file's rules and table."""
    path, _ = flat
    base = [sys.executable, "-m", "eights"]
    table = ["--preset", str(HOUSE), "--players", str(PLAYERS)]
    p = subprocess.run(
        [*base, "play", *table, "--seed", "5", "--bots", path],
        input="1\n" * 6000, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    # Shown by the name in its metadata, as the arena shows it, not by its path.
    assert "Result: " in p.stdout and "P1 (house-agent): " in p.stdout, p.stdout[-2000:]
    assert path not in p.stdout
    p = subprocess.run(
        [*base, "exploit", "--agent", path, *table, "--decisions", "400", "--num-envs", "8", "--eval-deals", "4",
         "--no-progress", "--out", str(tmp_path / "br")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    assert "win rate of the best response:" in p.stdout, p.stdout[-2000:]


def test_bad_metadata_is_quoted_as_the_file_has_it(tmp_path):
    # Rust's Debug forms leaked into the messages: `bad players Ok("99...")`, `got Some("99999999")`.
    import numpy as np
    from safetensors.numpy import save_file

    tensor = {"x": np.zeros(1, dtype=np.float32)}
    flat, card = tmp_path / "flat.safetensors", tmp_path / "card.safetensors"
    save_file(tensor, str(flat), metadata={"format": "eights-net-v1", "players": "9" * 30, "clip": "1"})
    save_file(tensor, str(card), metadata={"format": "eights-net-v2", "width": "99999999"})
    with pytest.raises(ValueError, match=r'metadata "players" is not a number: "9{30}"') as flat_error:
        eights.Bot(str(flat))
    with pytest.raises(
        ValueError, match=r'metadata "width" must be an integer in \[1, 4096\], got "99999999"'
    ) as card_error:
        eights.Bot(str(card))
    for e in (flat_error, card_error):
        assert "Ok(" not in str(e.value) and "Some(" not in str(e.value)
