"""Packaging: the version, the public namespace (``eights.__all__``), the ``eights``
console script, and the ImportError hints of the modules that need an optional extra."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]

# Extension names that are implementation details: reachable as eights._core.<name> only.
INTERNAL = [
    "VecEnvCore",
    "arena_agent_at",
    "arena_bot_seed",
    "arena_deal_seed",
    "arena_play",
    "game_state_bytes",
    "game_from_spec",
    "resolve_rules",
    "validate_rules",
    "describe_rules",
    "special_cards",
    "variant_changes",
    "derive_seed",
    "parse_bot",
    "BOT_NAMES_HELP",
    "merge_rules",
    "is_resolved",
]


def _cargo_version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    package = text.split("[package]", 1)[1].split("\n[", 1)[0]
    match = re.search(r'^version\s*=\s*"([^"]+)"', package, re.M)
    assert match, "Cargo.toml [package] has no version"
    return match.group(1)


def test_version_comes_from_cargo_toml():
    # One version source: Cargo.toml, read by maturin (pyproject declares it dynamic).
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', pyproject, re.M)
    assert not re.search(r"^version\s*=", pyproject.split("[project]", 1)[1].split("\n[", 1)[0], re.M)
    assert eights.__version__ == _cargo_version()


def test_all_lists_existing_public_names_only():
    assert len(eights.__all__) == len(set(eights.__all__))
    for name in eights.__all__:
        assert hasattr(eights, name), name
        assert not name.startswith("_") or name == "__version__", name
    for name in INTERNAL:
        assert name not in eights.__all__, name
        assert name not in vars(eights), name
        assert hasattr(eights._core, name), name
    namespace: dict = {}
    exec("from eights import *", namespace)  # the star import gives exactly __all__
    assert set(namespace) - {"__builtins__"} == set(eights.__all__)


def test_public_names_of_the_extension_are_re_exported():
    for name in [
        "Game",
        "Bot",
        "RandomBot",
        "NUM_ACTIONS",
        "OBS_SIZE",
        "presets",
        "preset_rules",
        "random_selfplay",
        "determinize",
        "episode_seed",
        "IllegalActionError",
        "RulesError",
    ]:
        assert name in eights.__all__, name


def _console_script() -> str:
    name = "eights.exe" if sys.platform == "win32" else "eights"
    path = Path(sysconfig.get_path("scripts")) / name
    found = str(path) if path.is_file() else shutil.which("eights")
    assert found, "the `eights` console script is not installed"
    return found


def test_console_script_matches_python_m_eights():
    script = _console_script()
    res = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("usage: eights ")
    for command in ["selfplay", "arena", "botspeed", "play", "presets"]:
        assert command in res.stdout
    res = subprocess.run([script, "presets"], capture_output=True, text=True, timeout=120)
    via_m = subprocess.run([sys.executable, "-m", "eights", "presets"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and via_m.returncode == 0, res.stderr + via_m.stderr
    assert res.stdout == via_m.stdout == "\n".join(eights.presets()) + "\n"
    res = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == f"eights {eights.__version__}"


def test_arena_help_shows_a_plain_percent_sign():
    res = subprocess.run(
        [sys.executable, "-m", "eights", "arena", "--help"], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "95% intervals" in text and "%%" not in text


@pytest.mark.parametrize(
    "module,blocked,extra",
    [
        ("eights.envs.pettingzoo", "pettingzoo", "pettingzoo"),
        ("eights.integrations.rllib", "ray.rllib", "rllib"),
        # It imported torch first: a bare "No module named 'torch'".
        ("eights.generalization.learners", "torch", "train"),
    ],
)
def test_missing_extra_names_the_extra_to_install(monkeypatch, module, blocked, extra):
    # sys.modules[name] = None makes `import name` fail as if it were not installed.
    monkeypatch.setitem(sys.modules, blocked, None)
    saved = {module: sys.modules.pop(module, None)}
    try:
        with pytest.raises(ImportError, match=re.escape(f"pip install 'eights[{extra}]'")):
            importlib.import_module(module)
    finally:
        for name, mod in saved.items():
            sys.modules.pop(name, None)
            if mod is not None:
                sys.modules[name] = mod


def test_train_without_its_extra_names_the_extra_for_a_training_flag():
    # Without PyTorch, `eights train` has none of PPO's and the league's flags: one of them
    # was "unrecognized arguments: --teacher heuristic", and --help listed 64 lines of 151
    # without a word on the rest.
    code = "import sys; sys.modules['torch'] = None; from eights.__main__ import main; sys.exit(main(sys.argv[1:]))"
    run = [sys.executable, "-c", code, "train"]
    res = subprocess.run([*run, "--teacher", "heuristic"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stderr
    assert "unrecognized arguments: --teacher heuristic" in res.stderr
    assert "need the train extra: pip install 'eights[train]'" in res.stderr
    res = subprocess.run([*run, "--help"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "pip install 'eights[train]'" in " ".join(res.stdout.split()), res.stdout


def test_the_package_and_its_command_line_import_and_run_without_warnings():
    # eights has no fallback for internal names any more: a module of the package that used one
    # fails here with an AttributeError; -W turns any DeprecationWarning of the package into an error.
    code = (
        "import eights, eights.arena, eights.envs.gym, eights.envs.vector, eights.rules, eights.render, "
        "eights.cli.terminal; "
        "from eights.__main__ import main; main(['presets'])"
    )
    res = subprocess.run(
        [sys.executable, "-W", "error:eights.:DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr


#: Folders of the repository that build nothing: none of their files belongs in the crate.
NOT_IN_THE_CRATE = ("benchmarks", "docs", "research", "scripts", "tests", "examples")


@pytest.mark.skipif(shutil.which("cargo") is None or not (ROOT / "Cargo.toml").is_file(), reason="needs the tree")
def test_the_crate_holds_what_builds_it_only():
    # Cargo.toml's `include`: no benchmark results, docs, research, scripts, tests or examples
    # in the crate (nor in maturin's sdist, which starts from the crate's files).
    cmd = ["cargo", "package", "--list", "--allow-dirty"]
    res = subprocess.run([*cmd, "--offline"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if res.returncode != 0:  # no local copy of the registry's index: cargo resolves online
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if res.returncode != 0 and "crates.io" in res.stderr:
        pytest.skip(f"cargo cannot resolve the dependencies here: {res.stderr[-300:]}")
    assert res.returncode == 0, res.stderr
    files = res.stdout.split()
    assert "src/lib.rs" in files and "Cargo.lock" in files and "src/bots/weights/net.safetensors" in files
    outside = [f for f in files if f.split("/")[0] in NOT_IN_THE_CRATE]
    assert not outside, outside
