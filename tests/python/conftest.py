"""The Python tests, grouped by concern, one folder each:

- ``game/``: the core ``eights.Game`` API, rules files, invariants over random games;
- ``scenarios/``: one ``test_scenarios_<preset>.py`` per preset (the scenario checks of each
  preset in docs/rules_catalog.md), plus
  deal, series and OpenSpiel-preset checks;
- ``envs/``: the Gymnasium env, the vector env, PettingZoo, observations and their bounds;
- ``render/``: text, HTML and RGB pictures, game records and replays;
- ``arena/``: the arena, ratings, the bots (``net`` and ``net1`` included) and best responses (exploit);
- ``train/``: the package's PPO and its network (``eights.train``);
- ``agents/``: trained weights files as bots by path (``eights.train.write_agent_file``);
- ``integrations/``: Stable-Baselines3, RLlib and OpenSpiel;
- ``errors/``: bad input of every kind, and the one seed range;
- ``cli/``: ``python -m eights`` commands (play, policies in the arena, exploit);
- ``examples/``: every script and notebook in ``examples/`` runs;
- ``layout/``: packaging, type stubs, docs drift, doctests and the source tree's shape.

Helpers shared across folders are plain modules next to this file (``_helpers.py``,
``scenario_helpers.py``, ``countdown_helpers.py``), imported by name: pytest puts this
folder on the import path (``pythonpath`` in pyproject.toml, and this rootdir conftest in
pytest's default import mode), so no test edits ``sys.path``.  Test file names stay
unique across folders (the folders are not packages).
"""

import os
from pathlib import Path

import pytest

#: The lanes (markers registered in pyproject.toml). Every test of a file listed here (or whose
#: id starts with a key that names a test) gets its markers; a test may add its own with
#: ``@pytest.mark.<lane>``. The fast lane for
#: contributors leaves these out:
#:     python -m pytest tests/python -m "not slow and not train and not browser" -n auto
#: and the README's test command (CI's) runs every lane.
#: - ``train``: trains a network with PyTorch (PPO, imitation, SB3, RLlib, the notebook);
#: - ``browser``: drives Chromium;
#: - ``integration``: runs a third-party library over the envs (RLlib, SB3, OpenSpiel, torchrl),
#:   or the arena on one (Ray);
#: - ``slow``: whole programs in subprocesses (the examples, the CLI end to end), type
#:   checking, load tests: each file several seconds or more;
#: - ``rllib``, ``video``: need the extra of that name, which the ``test`` extra leaves out
#:   (they pin gymnasium and pillow down); they skip without it, and CI runs them after
#:   installing both (CONTRIBUTING.md).
LANES = {
    "agents/test_agent_file.py::test_play_and_exploit_take_the_file_by_path": ("slow", "train"),
    "arena/test_arena_ray.py": ("integration", "slow", "rllib"),
    "cli/test_ctrl_c.py": ("slow",),
    "cli/test_exploit_cli.py": ("train", "slow"),
    "cli/test_train_cli.py": ("train", "slow"),
    "examples/test_example_scripts.py": ("slow",),
    "examples/test_examples.py": ("train", "slow"),
    "examples/test_notebook.py": ("train", "slow"),
    "envs/test_env_checkers.py": ("integration",),
    "envs/test_spawn_vector.py": ("slow",),
    "generalization/test_generalization_baseline.py": ("train", "slow"),
    "integrations/test_openspiel_bridge.py": ("integration",),
    "integrations/test_openspiel_differential.py": ("integration", "slow"),
    "integrations/test_rllib.py": ("integration", "train", "slow", "rllib"),
    "integrations/test_sb3.py": ("integration", "train"),
    "integrations/test_sb3_vec.py": ("integration", "train"),
    "layout/test_stubs.py": ("slow",),
    "render/test_notebook_display.py": ("slow",),
    "train/test_cardnet.py": ("train",),
    "train/test_exploit.py": ("train",),
    "train/test_train.py": ("train",),
    "web/test_web_browser.py": ("browser", "slow"),
    "web/test_web_load.py": ("slow",),
    # single tests, by the start of their id
    "layout/test_doctests.py::test_docstring_examples_run[eights.integrations.openspiel]": ("integration", "slow"),
    "layout/test_doctests.py::test_docstring_examples_run[eights.integrations.sb3]": ("integration", "slow"),
    "errors/test_hardening.py::test_fast_soak_runs_clean_and_is_deterministic_across_thread_counts": ("slow",),
    "errors/test_hardening.py::test_soak_command_fast_mode": ("slow",),
    "cli/test_policies_cli.py::test_saved_sb3_model_as_agent": ("train",),
    "layout/test_doctests.py::test_docstring_examples_run[eights.integrations.rllib]": ("integration", "rllib"),
    "layout/test_stubs.py::test_mypy_package_is_clean": ("rllib",),
    "envs/test_mixed_rules.py::test_rllib_env_with_the_rules": ("rllib",),
    "render/test_render_rgb.py::test_record_video_writes_frames": ("video",),
}

_HERE = Path(__file__).resolve().parent

# Under pytest-xdist (the README's `-n auto`) each worker is a process with PyTorch's default of
# a thread per core, so n workers ran n * n threads on n cores: small networks' updates, which
# spin-wait between threads, ran tens of times slower. One thread each, unless the caller chose;
# subprocesses inherit it, and the commands that choose their threads (`eights train`, the
# examples) still set them.
if os.environ.get("PYTEST_XDIST_WORKER") and "OMP_NUM_THREADS" not in os.environ:
    os.environ["OMP_NUM_THREADS"] = "1"


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_under_pytest(tmp_path_factory):
    """Stable-Baselines3 makes a log folder (``SB3-<date and time>``) in the system's
    temporary folder for every model that learns unless ``SB3_LOGDIR`` names one: the
    tests' go under pytest's own temporary folder (subprocesses inherit it)."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if before is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = before


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            rel = Path(str(item.fspath)).resolve().relative_to(_HERE).as_posix()
        except ValueError:  # a test outside this folder (the research lane)
            continue
        test_id = rel + "::" + item.nodeid.split("::", 1)[1] if "::" in item.nodeid else rel
        for key, lanes in LANES.items():
            if key == rel or ("::" in key and test_id.startswith(key)):
                for lane in lanes:
                    item.add_marker(getattr(pytest.mark, lane))
