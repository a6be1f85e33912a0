"""One public import path per name: the short modules of earlier versions (``eights.env``,
``eights.vec_env``, ``eights.pettingzoo``, ``eights.sb3``, ``eights.rllib``,
``eights.openspiel``, ``eights.replay``), ``eights.game``, ``eights.play`` and the alias
``eights.rules.Game`` are gone; ``eights`` serves no internal name of the extension; and
nothing the project writes (docs, docstrings, examples, benchmarks, scripts, tests) names a
removed path (CONTRIBUTING.md, "Public import paths")."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import eights

PACKAGE = Path(eights.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[3]

#: removed path -> the path that replaces it (the CHANGELOG's "Removed" entry names them).
REMOVED = {
    "eights.env": "eights.envs.gym",
    "eights.vec_env": "eights.envs.vector",
    "eights.pettingzoo": "eights.envs.pettingzoo",
    "eights.sb3": "eights.integrations.sb3",
    "eights.rllib": "eights.integrations.rllib",
    "eights.openspiel": "eights.integrations.openspiel",
    "eights.replay": "eights.records",
    "eights.game": "eights.Game",
    "eights.play": "eights.cli.terminal",
}

_NAMES = "|".join(name.split(".")[1] for name in REMOVED)
#: Uses of a removed path: imports of it, attribute access through it, entry points
#: (``eights.env:EightsEnv``) and module names in strings (``importorskip("eights.sb3")``).
USES = [
    re.compile(rf"\bimport eights\.({_NAMES})\b"),
    re.compile(rf"\bfrom eights\.({_NAMES}) import\b"),
    re.compile(rf"\bfrom eights import [^\n#]*\b({_NAMES})\b"),
    re.compile(rf"\beights\.({_NAMES})(\.[A-Za-z_]|:)"),
    re.compile(rf"[\"']eights\.({_NAMES})[\"']"),
    re.compile(r"\beights\.rules\.Game\b|\bfrom eights\.rules import [^\n#]*\bGame\b"),
]
#: The same imports written relative to the package, in the modules directly in it (in a
#: subpackage ``from . import replay`` is a sibling, such as the command ``eights.cli.replay``).
RELATIVE_USES = [
    re.compile(rf"\bfrom \. import [^\n#]*\b({_NAMES})\b"),
    re.compile(rf"\bfrom \.({_NAMES}) import\b"),
    re.compile(r"\bfrom \.\.?rules import [^\n#]*\bGame\b"),
]


def _project_files() -> list:
    """The files whose text teaches an import path: docs, docstrings and code."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "mkdocs.yml"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    for folder in ("examples", "benchmarks", "scripts", "tests", "research"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".ipynb", ".md"))
    files += sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.pyi"))
    return [f for f in files if f.is_file() and f.resolve() != Path(__file__).resolve()]


@pytest.mark.parametrize("removed", sorted(REMOVED))
def test_a_removed_path_does_not_import(removed):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(removed)


def test_game_has_one_path():
    from eights import _core

    assert eights.Game is _core.Game
    assert not hasattr(eights.rules, "Game")


def test_eights_serves_no_internal_name_of_the_extension():
    from eights import _core

    internal = sorted(n for n in dir(_core) if not n.startswith("_") and n not in eights.__all__)
    assert internal, "the extension has internal names (the test would check nothing)"
    served = [n for n in internal if hasattr(eights, n) and getattr(eights, n) is getattr(_core, n)]
    assert not served, f"eights serves internal names of eights._core: {served}"
    with pytest.raises(AttributeError, match="no attribute"):
        eights.game_from_spec  # noqa: B018 (an internal name of the extension)


def test_the_patterns_see_every_form_of_use():
    uses = [
        "import eights.env",
        "from eights.pettingzoo import raw_env",
        "from eights import arena, replay",
        "env = eights.sb3.VecEnv('crazy_eights')",
        'entry_point="eights.env:EightsEnv"',
        'pytest.importorskip("eights.rllib")',
        "from eights.play import play",
        "from eights.rules import Game, Rules",
        "g = eights.rules.Game('crazy_eights')",
    ]
    prose = [
        "import eights.envs.gym",
        "from eights.envs.pettingzoo import raw_env",
        "eights.records.load_record(path)",
        "from eights import records",
        "from eights.rules import Rules",
        "g = eights.Game('crazy_eights')",
        "python -m eights play --preset crazy_eights",
    ]
    assert all(any(p.search(text) for p in USES) for text in uses)
    assert not any(p.search(text) for p in USES for text in prose)
    relative = ["from .vec_env import VecEnv", "from . import _core, env", "from ..rules import Game, Rules"]
    assert all(any(p.search(text) for p in RELATIVE_USES) for text in relative)
    assert not any(p.search("from .envs.vector import VecEnv") for p in RELATIVE_USES)


def test_no_doc_example_or_test_uses_a_removed_path():
    found = []
    for path in _project_files():
        patterns = USES + (RELATIVE_USES if path.parent == PACKAGE else [])
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in patterns):
                found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not found, "removed import paths in use:\n" + "\n".join(found)


def _modules() -> dict:
    """Every module of the package, imported, by name (the ``train`` extra's when installed)."""
    import pkgutil

    found = {"eights": eights}
    for info in pkgutil.walk_packages(eights.__path__, "eights."):
        try:
            found[info.name] = importlib.import_module(info.name)
        except ImportError:  # an optional extra's module, without the extra
            continue
    return found


def _private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def _homes(modules: dict) -> dict:
    """``(id(object), name)`` -> the modules whose source defines that name as that object
    (``def``, ``class`` or an assignment at the top level), the extension's names included."""
    import inspect

    homes: dict = {}
    for name, module in modules.items():
        if name == "eights._core":
            for attr, obj in vars(module).items():
                homes.setdefault((id(obj), attr), set()).add(name)
            continue
        source = inspect.getsource(module)
        for attr, obj in vars(module).items():
            if re.search(rf"^({re.escape(attr)}\s*(:[^=\n]*)?=|(def|class) {re.escape(attr)}\b)", source, re.M):
                homes.setdefault((id(obj), attr), set()).add(name)
    return homes


def test_a_public_module_lists_only_its_own_names():
    """One public path per name: a public module's ``__all__`` lists what it defines, or what
    it takes from a private module (``_core``, ``_utils``, ``envs._common``); a subpackage's,
    what its own modules define; ``eights`` itself re-exports the common names. Second paths
    such as ``eights.envs.vector.OpponentPool`` (the pool is ``eights.agents.OpponentPool``)
    and the alias ``eights.arena.Agent`` of ``AgentSpec`` were listed before."""
    import types

    modules = _modules()
    homes = _homes(modules)
    assert len(modules) > 50 and len(homes) > 500, "the walk found too little to check"
    found = []
    for name, module in modules.items():
        if name == "eights" or _private(name):
            continue
        package = hasattr(module, "__path__")
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            if isinstance(obj, types.ModuleType):
                continue
            where = homes.get((id(obj), attr)) or {getattr(obj, "__module__", None) or "?"}
            if not any(
                home == name or _private(home) or home == "typing" or (package and home.startswith(name + "."))
                for home in where
            ):
                found.append(f"{name}.{attr} (defined in {', '.join(sorted(where))})")
            elif isinstance(obj, (type, types.FunctionType)) and obj.__name__ != attr and obj.__module__ != "typing":
                found.append(f"{name}.{attr} (an alias of {obj.__module__}.{obj.__qualname__})")
    assert not found, "names listed by a module that does not own them:\n" + "\n".join(found)
