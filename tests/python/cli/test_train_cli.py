"""``eights train`` and ``eights.train.train``: smoke runs on a preset and on a house-rules file at
three players, the run folder (agent file, checkpoint, curve, summary), resuming from ``--out``,
a spent budget evaluated again without its files rewritten, the decisions budget, ``--init
net``, Ctrl-C, bad options, and a help line with its default for every flag."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import eights
from eights.__main__ import main

torch = pytest.importorskip("torch", reason="eights train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights train needs the train extra")
pytest.importorskip("matplotlib", reason="the learning curve needs matplotlib (the train extra)")
pytest.importorskip("tqdm", reason="the progress bar needs tqdm (the train extra)")

from eights.train import PPOConfig, train  # noqa: E402
from eights.train.export import export_metadata, load_exported  # noqa: E402
from eights.train.files import load_checkpoint  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
HOUSE = ROOT / "examples" / "switch_house.toml"
SMALL = ["--num-envs", "16", "--num-steps", "16", "--eval-deals", "4", "--no-progress", "--log-every", "1"]
#: Learner decisions of one rollout with SMALL at two seats: 16 games x 16 steps.
ROLLOUT = 16 * 16


def test_cli_smoke_on_a_preset_writes_the_run_folder_and_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "--preset", "crazy_eights", "--players", "2", "--out", str(out), *SMALL]
    assert main([*args, "--decisions", "600"]) == 0
    text = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    env, torch_threads = summary["env_threads"], summary["torch_threads"]
    # The counts with their nouns agreeing ("1 env threads" was printed).
    threads = f"{env} env thread{'s' * (env != 1)}, {torch_threads} PyTorch thread{'s' * (torch_threads != 1)} ("
    assert threads in text and "device cpu" in text, text
    assert "vs random" in text and "vs heuristic" in text and "fair share 0.500" in text
    for name in ("final.safetensors", "checkpoint.pt", "learning_curve.csv", "learning_curve.png", "summary.md"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((out / "summary.json").read_text())
    # The budget in decisions: the run stops after the update that reaches it.
    assert 600 <= summary["decisions"] < 600 + ROLLOUT
    assert summary["arena"]["heuristic"]["deals"] == 4 and 0 <= summary["arena"]["random"]["win_rate"] <= 1
    # The agent file is an eights-net-v1 file holding the policy, with the run's record.
    meta = export_metadata(out / "final.safetensors")
    assert meta["format"] == "eights-net-v1" and meta["init"] == "scratch" and "crazy_eights" in meta["agent.rules"]
    assert int(meta["decisions"]) == summary["decisions"] and "cores" in meta["hardware"]
    net = load_exported(out / "final.safetensors")["agent"]
    assert isinstance(net, eights.train.PolicyNet)
    saved = load_checkpoint(out / "checkpoint.pt", ("model", "step", "curve"))
    assert saved["step"] == summary["decisions"] and len(saved["curve"]) >= 2

    # The same command with a larger budget resumes: the curve so far is kept.
    assert main([*args, "--decisions", "1200"]) == 0
    text = capsys.readouterr().out
    assert "resumed from" in text
    again = load_checkpoint(out / "checkpoint.pt", ("model", "step", "curve"))
    assert 1200 <= again["step"] < 1200 + ROLLOUT
    steps = [p["step"] for p in saved["curve"]]
    assert [p["step"] for p in again["curve"]][: len(steps)] == steps and len(again["curve"]) > len(steps)

    # A spent budget: evaluated again, its agent file and checkpoint untouched.
    before = {name: (out / name).read_bytes() for name in ("final.safetensors", "checkpoint.pt")}
    assert main([*args, "--decisions", "1200", "--eval-deals", "6"]) == 0
    assert "vs heuristic" in capsys.readouterr().out
    assert {name: (out / name).read_bytes() for name in before} == before
    assert json.loads((out / "summary.json").read_text())["arena"]["heuristic"]["deals"] == 6


@pytest.mark.parametrize("damage", ["model", "optimizer", "setting", "curve"])
def test_a_checkpoint_with_the_wrong_contents_is_an_error_line(tmp_path, capsys, damage):
    # Loaded safely, but resuming from it raised a KeyError, TypeError or AttributeError traceback.
    import torch

    out = tmp_path / "run"
    args = ["train", "--preset", "crazy_eights", "--players", "2", "--out", str(out), *SMALL]
    assert main([*args, "--decisions", "300"]) == 0
    ck = torch.load(out / "checkpoint.pt", weights_only=True)
    if damage == "model":
        ck["model"] = {k: v for k, v in ck["model"].items() if not k.startswith("fc1")}
    else:
        ck[damage] = 5
    torch.save(ck, out / "checkpoint.pt")
    capsys.readouterr()
    assert main([*args, "--decisions", "600"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "checkpoint.pt: not a checkpoint of this kind" in err, err


def test_python_api_on_a_rules_file_at_three_players(tmp_path):
    out = tmp_path / "house"
    result = train(
        str(HOUSE), 3, out=str(out), decisions=500, seats=[1], ppo=PPOConfig(num_envs=8, num_steps=16),
        eval_deals=3, progress=False, log=lambda _: None,
    )  # fmt: skip
    assert 500 <= result.decisions < 500 + 8 * 16
    assert result.arena["heuristic"]["games"] == 9 and set(result.arena) == {"random", "heuristic"}
    meta = export_metadata(result.agent_file)
    rules = eights.Rules.from_toml(meta["agent.rules"])
    assert rules.name == "switch_house" and "learner seats 1" in meta["table"]
    # The fair share of a three-seat table is the curve's reference line.
    assert json.loads((out / "summary.json").read_text())["fair_share"] == pytest.approx(1 / 3)
    # A checkpoint of other rules or another table is not resumed by mistake.
    with pytest.raises(ValueError, match="another player count"):
        train(str(HOUSE), 4, out=str(out), decisions=500, progress=False, log=lambda _: None)


def test_init_net_fine_tunes_the_card_network_and_writes_a_file_that_plays_everywhere(tmp_path):
    from eights.arena import evaluate
    from eights.train.cardnet import CardNetAgent, load_path

    out = tmp_path / "net"
    result = train(
        str(HOUSE), 3, out=str(out), decisions=400, init="net", ppo=PPOConfig(num_envs=12, num_steps=16),
        eval_deals=2, progress=False, log=lambda _: None,
    )  # fmt: skip
    assert result.decisions >= 400
    assert export_metadata(result.agent_file)["format"] == "eights-net-v2"
    net = load_path(result.agent_file)
    # The file plays other rules and another table as well.
    r = evaluate(CardNetAgent(net, "tuned"), "random", preset="crazy_eights", num_players=4, games=2, seed=1)
    assert r.games == 8


def test_init_from_a_card_network_file_starts_from_its_weights(tmp_path):
    """``init`` a card-network file other than the shipped one (here the shipped weights with
    every matrix noised): the run starts from that file's network. Its first updates train the
    new value head alone, so after one update the agent file holds the start's weights exactly."""
    from safetensors import safe_open
    from safetensors.numpy import save_file

    shipped = ROOT / "src" / "bots" / "weights" / "net.safetensors"
    with safe_open(str(shipped), "np") as f:
        meta, tensors = f.metadata(), {k: f.get_tensor(k) for k in f.keys()}
    rng = np.random.default_rng(0)
    noised = {k: (t + rng.normal(0, 0.1, t.shape)).astype(t.dtype) if t.ndim == 2 else t for k, t in tensors.items()}
    start = tmp_path / "start.safetensors"
    save_file(noised, str(start), metadata=meta)
    result = train(
        "crazy_eights", 2, out=str(tmp_path / "run"), decisions=10, init=str(start),
        ppo=PPOConfig(num_envs=8, num_steps=4), eval_deals=0, progress=False, log=lambda _: None,
    )  # fmt: skip
    assert result.updates == 1 and export_metadata(result.agent_file)["init"] == str(start)
    with safe_open(result.agent_file, "np") as f:
        trained = {k: f.get_tensor(k) for k in f.keys()}
    changed = [k for k, t in noised.items() if t.ndim == 2 and not np.array_equal(t, tensors[k])]
    assert changed and all(np.array_equal(trained[k], noised[k]) for k in changed)


def test_init_refuses_what_is_not_a_card_network_file(tmp_path):
    for bad, why in (
        (tmp_path / "missing.safetensors", "no such file"),
        (ROOT / "src" / "bots" / "weights" / "net1.safetensors", "net1.safetensors"),
        (tmp_path, "is a folder"),
        ("nett", "nett: no such file (did you mean net?)"),  # a misspelt starting point
    ):
        with pytest.raises(ValueError, match="init must be scratch or net") as info:
            train("crazy_eights", 2, out=str(tmp_path / "r"), decisions=10, init=str(bad), progress=False)
        assert why in str(info.value)
    assert not (tmp_path / "r").exists()  # refused before the run folder is made


def test_the_learning_curve_draws_the_fair_share(tmp_path, monkeypatch):
    import matplotlib.axes

    from eights.train.curves import LearningCurve

    lines = []
    real = matplotlib.axes.Axes.axhline
    monkeypatch.setattr(matplotlib.axes.Axes, "axhline", lambda ax, y=0, **kw: lines.append(y) or real(ax, y, **kw))
    curve = LearningCurve()
    curve.points = [{"step": 1, "seconds": 1.0, "vs_heuristic": 0.3, "games_heuristic": 5}]
    curve.plot(str(tmp_path / "c.png"), "t", fair=1 / 3)
    assert lines == [pytest.approx(1 / 3)]


def test_the_learning_curve_keeps_the_updates_statistics(tmp_path):
    import csv
    import types

    from eights.train.curves import LearningCurve

    optimizer = types.SimpleNamespace(param_groups=[{"lr": 2e-4}])
    run = types.SimpleNamespace(step=10, elapsed=lambda: 1.0, results={"heuristic": [1.0, 0.0]}, optimizer=optimizer)
    curve = LearningCurve()
    run.stats = {"pg": -0.01, "v": 0.2, "ent": 0.3, "kl": 0.004, "teacher": 0.5}
    first = curve.add(run)
    assert first["vs_heuristic"] == 0.5 and first["lr"] == 2e-4
    assert (first["entropy"], first["approx_kl"], first["teacher_loss"]) == (0.3, 0.004, 0.5)
    run.stats = {"pg": -0.02, "v": 0.1, "ent": 0.2, "kl": 0.001}  # the teacher has faded
    run.step = 20
    curve.add(run)
    curve.write_csv(str(tmp_path / "c.csv"))
    with open(tmp_path / "c.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["step"] for r in rows] == ["10", "20"]
    assert rows[0]["teacher_loss"] == "0.5" and rows[1]["teacher_loss"] == ""
    assert rows[1]["entropy"] == "0.2"


def test_every_flag_has_a_help_line_with_its_default():
    from eights.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["train"]
    text = sub.format_help()  # the PPO and league flags are added for the help text or a parse
    flags = [a for a in sub._actions if a.option_strings and a.dest != "help"]
    assert len(flags) > 30
    for action in flags:
        assert action.help and "default" in action.help, action.option_strings
    # The PPO and league flags show their defaults (those of a run from scratch).
    assert "(default: 0.5)" in text and "--init net changes them" in text
    lr = next(a for a in flags if "--learning-rate" in a.option_strings)
    assert lr.help.endswith("(default: 0.001)"), lr.help  # a run from scratch: 1e-3


def test_other_commands_do_not_import_torch():
    # train's PPO flags come from the train extra's dataclasses; building the command line
    # imported PyTorch for every command (a second, and 500 MB for `eights serve`).
    code = (
        "import sys\n"
        "from eights.cli import build_parser, main\n"
        "for argv in (['presets'], ['arena', '--agents', 'random,heuristic'], ['serve'], ['soak']):\n"
        "    build_parser().parse_args(argv)\n"
        "assert main(['presets']) == 0\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "args = build_parser().parse_args(['train', '--learning-rate', '0.25'])\n"
        "assert args.learning_rate == 0.25 and 'torch' in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_example_flags_have_help_lines():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "ppo_selfplay.py"), "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    flags = [line for line in proc.stdout.splitlines() if line.strip().startswith("--")]
    assert flags and all("default" in line for line in flags), flags


@pytest.mark.parametrize(
    "args,message",
    [
        (["--players", "11"], "players"),
        (["--seats", "0,5"], "--seats: must be distinct seat numbers in [0, 1]"),
        (["--seats", "0,0"], "argument --seats: seats are distinct seat numbers"),
        (["--init", "imitation"], "--init: must be scratch or net or the path of a card-network file"),
        (["--init", str(ROOT / "src" / "bots" / "weights" / "net1.safetensors")], "--init: must be scratch or net"),
        (["--device", "cuda:7"] if not torch.cuda.is_available() else ["--device", "tpu"], "device"),
        (["--opponents", "nosuchbot"], "--opponents: 'nosuchbot' is neither"),
        (["--search-bot", "nosuchbot"], '--search-bot: unknown bot "nosuchbot"'),
        (["--teacher", "nosuchbot"], '--teacher: unknown bot "nosuchbot"'),
        (["--minutes", "abc"], "argument --minutes: must be a number of minutes, got 'abc'"),
        (["--num-envs", "0"], "--num-envs must be >= 1"),
        # The league's and PPO's settings, refused before the run starts (they failed after
        # it, naming no setting, or ran on rescaled, or hung).
        (["--heuristic-share", "-1"], "--heuristic-share must be in [0, 1], got -1"),
        (["--heuristic-share", "nan"], "--heuristic-share must be in [0, 1], got nan"),
        (["--opponents", "random", "--opponents-share", "1.5"], "--opponents-share must be in [0, 1]"),
        (["--snapshot-every", "0"], "--snapshot-every must be >= 1"),
        (["--num-minibatches", "20000"], "--num-minibatches must be at most num_envs * num_steps"),
        (["--hidden", "100000000"], "--hidden must be in [1, 8192]"),
        (["--num-envs", "100000000"], "--num-envs must be in [1, 1048576], got 100000000"),
        (["--eval-deals", str(2**64 - 1)], "--eval-deals: must be in [0, 1000000000]"),
    ],
)
def test_bad_options_exit_2_naming_them(args, message, capsys, tmp_path):
    try:
        code = main(["train", *args, "--decisions", "10", "--out", str(tmp_path / "r"), "--no-progress"])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_json_changes_apply_to_the_rules_of_a_toml_file_and_a_short_run_has_its_curve(tmp_path, capsys):
    """``--rules JSON`` on ``--preset FILE.toml``: the changes were dropped (the agent trained on
    the file's rules as written). A run of fewer updates than ``--log-every`` wrote no curve."""
    out = tmp_path / "house"
    small = [a for a in SMALL if a not in ("--log-every", "1")]
    argv = ["train", "--preset", str(HOUSE), "--rules", '{"deal": {"hand_size": 3}}', "--players", "3", *small]
    assert main([*argv, "--out", str(out), "--decisions", "300", "--eval-deals", "0", "--log-every", "50"]) == 0
    capsys.readouterr()
    rules = eights.Rules.from_toml(export_metadata(out / "final.safetensors")["agent.rules"])
    assert rules.to_dict()["deal"]["hand_size"] == 3 and rules.name == "switch_house"
    assert eights.Rules.from_toml(HOUSE).to_dict()["deal"]["hand_size"] != 3
    # One update, the curve's point every 50: the curve still ends where the run does.
    curve = load_checkpoint(out / "checkpoint.pt", ("curve", "step"))
    assert [p["step"] for p in curve["curve"]] == [curve["step"]]
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((out / "learning_curve.csv").read_text().splitlines()) == 2


def test_ctrl_c_saves_the_checkpoint_and_exits_130(tmp_path):
    cmd = [sys.executable, "-m", "eights", "train", "--minutes", "30", "--out", str(tmp_path), *SMALL]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline, seen = time.time() + 300, ""
        # The setup line ("..., 1 env thread, 2 PyTorch threads ..."): the counts, and so the
        # plurals, depend on the machine and on how busy it is as the run starts.
        while "PyTorch thread" not in seen and time.time() < deadline:
            if select.select([proc.stdout], [], [], 1.0)[0]:
                seen += os.read(proc.stdout.fileno(), 4096).decode(errors="replace")
        time.sleep(10.0)  # past the setup, into the training
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (stdout[-2000:], stderr[-2000:])
    assert "interrupted" in stderr and "checkpoint saved" in seen + stdout
    saved = load_checkpoint(tmp_path / "checkpoint.pt", ("model", "step"))
    assert saved["step"] > 0 and (tmp_path / "final.safetensors").is_file()
    assert np.isfinite(saved["seconds"])


def test_the_agent_file_plays_as_a_bot_by_path(tmp_path):
    result = train(
        "crazy_eights", 2, out=str(tmp_path), decisions=200, ppo=PPOConfig(num_envs=8, num_steps=16),
        eval_deals=0, progress=False, log=lambda _: None,
    )  # fmt: skip
    bot = eights.Bot(result.agent_file)
    game = eights.Game("crazy_eights", 2, seed=1)
    assert game.action_mask()[bot.act(game)]
    # The arena plays it by its path, in Rust, as it plays a built-in bot.
    r = eights.arena.evaluate(result.agent_file, "random", num_players=2, games=4, seed=3)
    assert r.games == 8


def test_the_readme_path_runs(tmp_path):
    """The README's three commands from a house-rules file to the arena (its own test checks
    that they are these), run as written but for the budgets: a few thousand decisions, a few
    deals; in an empty folder, as a wheel's user runs them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [ln.split("#")[0].strip() for ln in readme.splitlines() if ln.startswith("eights ")]
    assert [ln.split()[:2] for ln in lines] == [["eights", "rules"], ["eights", "train"], ["eights", "arena"]]
    rules_cmd = lines[0].split()[1:]
    train_cmd = lines[1].replace("--minutes 10", "--decisions 2000 --eval-deals 4 --no-progress").split()[1:]
    arena_cmd = lines[2].split()[1:] + ["--games", "4", "--no-progress"]
    for cmd in (rules_cmd, train_cmd, arena_cmd):
        p = subprocess.run(
            [sys.executable, "-m", "eights", *cmd], cwd=tmp_path, capture_output=True, text=True, timeout=600
        )
        assert p.returncode == 0, p.stderr[-2000:]
    # The trained file's row (labelled by the name it records), beside the two bots.
    rows = [ln.split()[0] for ln in p.stdout.splitlines() if ln.strip()]
    assert {"heuristic", "net", "train-house-3p"} <= set(rows), p.stdout


def test_seats_are_distinct_seat_numbers(tmp_path):
    # [0, 0] trained seat 0 alone, saying nothing of the second 0.
    for seats in ([0, 0], [2], [-1], []):
        with pytest.raises(ValueError, match=r"seats must be distinct seat numbers in \[0, 1\]"):
            train("crazy_eights", 2, out=str(tmp_path), decisions=10, progress=False, seats=seats)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    "change, error, match",
    [
        # numpy's "Seed must be between 0 and 2**32 - 1", naming nothing, after the run folder was made.
        (dict(seed=2**32), ValueError, r"^seed must be in \[0, 2\*\*32\), got 4294967296$"),
        # Checked only after training, as "seed must be ...".
        (dict(eval_seed=-1), ValueError, r"^eval_seed must be in \[0, 2\*\*64\), got -1$"),
        # numpy's "ufunc 'isfinite' not supported"; True was one minute.
        (dict(minutes="abc", decisions=None), TypeError, r"^minutes must be a number, got 'abc'"),
        (dict(minutes=True, decisions=None), TypeError, r"^minutes must be a number, got True"),
        # Trained for ever (the command line's --minutes stops at 1e7).
        (dict(minutes=1e300, decisions=None), ValueError, r"^minutes must be in \(0, 1e7\), got 1e\+300"),
        (dict(minutes=float("inf"), decisions=None), ValueError, r"^minutes must be in \(0, 1e7\), got inf"),
        # "01" was seats [0, 1], [0.7] seat 0.
        (dict(seats="01"), TypeError, r"^seats must be a list of seat numbers in \[0, 1\], got '01'"),
        (dict(seats=[0.7]), TypeError, r"^seats must be a list of seat numbers"),
        # 'int' object is not iterable; 'int' object has no attribute 'strip'.
        (dict(opponents=5), TypeError, r"^opponents must be bot names, comma-separated or a list, got 5"),
        (dict(opponents=[5]), TypeError, r"^opponents must be bot names"),
        (dict(variants=5), TypeError, r"^variants must be a list of variant names, got 5"),
        # os's "embedded null byte".
        (dict(out="a\0b"), ValueError, r"^out 'a\\x00b' cannot name a file: a path cannot hold a NUL"),
    ],
)
def test_train_names_a_bad_argument_before_anything_is_written(change, error, match, tmp_path):
    kw = dict(out=str(tmp_path / "run"), decisions=10, progress=False)
    kw.update(change)
    with pytest.raises(error, match=match):
        train("crazy_eights", 2, **kw)
    assert not any(tmp_path.iterdir())


def test_an_opponent_that_is_a_file_of_another_kind_is_named_so(tmp_path):
    # A rules file among the opponents was 'unknown bot "house.toml"', though the file exists.
    rules = tmp_path / "house.toml"
    rules.write_text('inherits = "crazy_eights"\n')
    with pytest.raises(ValueError, match=r"^opponents: '.*house.toml' is a file, not an agent file \(a .safetensors"):
        train("crazy_eights", 2, out=str(tmp_path / "run"), decisions=10, progress=False, opponents=[str(rules)])
    assert not (tmp_path / "run").exists()


def test_train_takes_one_variant_as_a_string(tmp_path):
    # "jacks_wild" was split into its letters: unknown variant(s) "j", "a", "c", ...
    from eights.train.run import resolve_rules

    assert resolve_rules("crazy_eights", "jacks_wild") == resolve_rules("crazy_eights", ["jacks_wild"])


@pytest.mark.parametrize("argument", ["ppo", "league"])
def test_configs_of_the_wrong_type_are_named(argument, tmp_path):
    # train(ppo=-1) raised "'int' object has no attribute 'check'".
    with pytest.raises(TypeError, match=f"{argument} must be an eights.train."):
        train("crazy_eights", 2, out=str(tmp_path), decisions=10, progress=False, **{argument: -1})


def test_the_final_evaluation_shows_the_arenas_progress_bar(tmp_path, capsys):
    # A walk: eval_deals=200,000 printed its header, then nothing for 20 s and more.
    pytest.importorskip("tqdm")
    train(
        "crazy_eights", 2, out=str(tmp_path / "run"), decisions=300, ppo=PPOConfig(num_envs=8, num_steps=16),
        eval_deals=5, progress=True, log=lambda _: None,
    )  # fmt: skip
    err = capsys.readouterr().err
    assert "vs random" in err and "vs heuristic" in err, err[-800:]


def test_the_end_line_gives_the_time_the_checkpoint_records(tmp_path, monkeypatch):
    # The end line said 2.2 min where the next call resumed at 2.1: it read the clock after
    # the files written once the checkpoint was saved. Writing the agent file is made to take
    # ten minutes of the run's clock here; the line and the checkpoint still agree.
    from eights.train import outputs
    from eights.train.selfplay import SelfPlay

    runs = []
    real_init, real_write = SelfPlay.__init__, outputs.RunFolder.write_agent

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        runs.append(self)

    def slow_write(self, *args, **kwargs):
        runs[-1]._start -= 600  # ten minutes pass on the run's clock
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(SelfPlay, "__init__", init)
    monkeypatch.setattr(outputs.RunFolder, "write_agent", slow_write)
    lines = []
    out = tmp_path / "run"
    train("crazy_eights", 2, out=str(out), decisions=200, ppo=PPOConfig(num_envs=8, num_steps=16),
          eval_deals=0, progress=False, log=lines.append)  # fmt: skip
    saved = load_checkpoint(str(out / "checkpoint.pt"), ("seconds",))
    end = next(x for x in lines if x.startswith("trained "))
    assert f"in {saved['seconds'] / 60:.1f} min" in end, (end, saved["seconds"])
