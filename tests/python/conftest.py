"""The Python tests, grouped by concern, one folder each:

- ``game/``: the core ``eights.Game`` API, rules files, invariants over random games;
- ``scenarios/``: one ``test_scenarios_<preset>.py`` per preset (the scenario checks of each
  preset in docs/rules_catalog.md), plus
  deal, series and OpenSpiel-preset checks;
- ``envs/``: the Gymnasium env, the vector env, PettingZoo, observations and their bounds;
- ``render/``: text, HTML and RGB pictures, game records and replays;
- ``arena/``: the arena, ratings, the bots (``net`` and ``net1`` included) and best responses (exploit);
- ``train/``: the package's PPO and its network (``eights.train``);
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
