"""``eights train`` resuming a run folder: a flag a resumed run cannot honour (``--hidden``) is
refused naming it, other rules are named briefly (not their TOML text), and the run folder's
files follow the umask; the banner's and the closing line's words; ``--opponents`` checked
before anything is printed or created."""

from __future__ import annotations

import os
import stat

import pytest

from eights.__main__ import main

pytest.importorskip("torch", reason="eights train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights train needs the train extra")
pytest.importorskip("matplotlib", reason="the learning curve needs matplotlib (the train extra)")
pytest.importorskip("tqdm", reason="the progress bar needs tqdm (the train extra)")

from eights.train import PPOConfig, train  # noqa: E402
from eights.train.files import plain_mode  # noqa: E402

SMALL = ["--num-envs", "8", "--num-steps", "16", "--eval-deals", "2", "--no-progress", "--env-threads", "1",
         "--torch-threads", "1"]  # fmt: skip
#: Every file of a run folder.
FILES = ["checkpoint.pt", "final.safetensors", "learning_curve.csv", "learning_curve.png", "summary.json", "summary.md"]


def _train(out, *extra):
    return main(["train", "--out", str(out), "--decisions", "100", *SMALL, *extra])


def test_resuming_with_another_hidden_width_is_refused_naming_it(tmp_path, capsys):
    # `--hidden 64` on a run whose network is 256 wide was silently ignored, --learning-rate applied.
    out = tmp_path / "run"
    assert _train(out) == 0
    capsys.readouterr()
    assert _train(out, "--decisions", "300", "--hidden", "64", "--learning-rate", "3e-4") == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"error: --hidden 64: --out {out} holds a run whose network is 256 wide, and a resumed run keeps it; "
        "give --hidden 256 (or leave it out), or --restart to start again\n"
    ), captured.err
    assert captured.out == ""  # refused before the banner
    # The same width, or none given, resumes; --restart starts a 64-wide run.
    assert _train(out, "--decisions", "300", "--hidden", "256") == 0
    assert "resumed from" in capsys.readouterr().out
    assert _train(out, "--decisions", "300", "--hidden", "64", "--restart") == 0
    assert _train(out, "--decisions", "500") == 0  # --hidden left out: the checkpoint's 64
    text = capsys.readouterr().out
    assert "resumed from" in text and "ignored" not in text, text


def test_the_python_api_says_a_width_it_ignores_on_resume(tmp_path):
    out = str(tmp_path / "run")
    small = dict(decisions=100, eval_deals=0, progress=False, env_threads=1, torch_threads=1)
    train("crazy_eights", 2, out=out, ppo=PPOConfig(num_envs=8, num_steps=16, hidden=32), log=lambda _: None, **small)
    lines: list = []
    small["decisions"] = 300
    train("crazy_eights", 2, out=out, ppo=PPOConfig(num_envs=8, num_steps=16, hidden=48), log=lines.append, **small)
    assert any(line.startswith("resuming: hidden 48 ignored: the checkpoint's network is 32 wide") for line in lines)


def test_a_run_of_other_rules_is_named_by_out_and_the_rules(tmp_path, capsys):
    # The message named `out:` and showed both rules as escaped TOML ('inherits = ...\nname = ...').
    out = tmp_path / "house"
    assert _train(out) == 0
    capsys.readouterr()
    assert _train(out, "--preset", "crazy_eights_xtreme") == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"error: --out: {out} holds a run of the rules 'crazy_eights', not 'crazy_eights_xtreme': give another --out, "
        "or --restart"
    ), err
    assert _train(out, "--rules", '{"deal": {"hand_size": 4}}') == 2
    err = capsys.readouterr().err
    assert f"--out: {out} holds a run of other rules: its 'crazy_eights' differs from these in deal.hand_size" in err
    assert "inherits" not in err and "\\n" not in err, err


def test_the_run_folder_follows_the_umask_and_the_closing_line_lists_it(tmp_path, capsys):
    # final.safetensors was 0600 (written through a temporary file) beside files of 0644; the
    # closing line left out learning_curve.csv and summary.json; the banner said "1 env threads".
    out = tmp_path / "run"
    before = os.umask(0o027)
    try:
        assert plain_mode() == 0o640 and os.umask(0o027) == 0o027  # read without changing it
        assert _train(out) == 0
    finally:
        os.umask(before)
    for name in FILES:
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o640, name
    text = capsys.readouterr().out
    assert ", 1 env thread, 1 PyTorch thread (" in text, text
    assert f"run folder: {out} (final.safetensors, checkpoint.pt, learning_curve.csv, learning_curve.png, " \
        "summary.json, summary.md)\n" in text, text  # fmt: skip
    assert "1 env thread, 1 PyTorch thread;" in (out / "summary.md").read_text()


def test_an_unknown_opponent_is_refused_before_the_banner_and_the_folder(tmp_path, capsys):
    # `--opponents heuristc` printed the banner, then the error, and left an empty run folder.
    out = tmp_path / "typo"
    assert _train(out, "--opponents", "heuristc") == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not out.exists(), captured.out
    assert captured.err.startswith("error: --opponents: 'heuristc' is neither a built-in bot nor an agent file")
