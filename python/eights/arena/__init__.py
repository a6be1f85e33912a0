"""Benchmark policies against the built-in bots with duplicate deals.

``eights.arena`` answers "how strong is my policy?" with numbers that control for
the luck of the deal:

* :func:`evaluate` plays one agent against opponents and reports its win rate with a
  95% confidence interval, mean hand points, mean score and mean game length;
* :func:`tournament` plays every table of agents and fits Bradley-Terry ratings
  (Elo scale) with bootstrap confidence intervals (the profile likelihood's where one
  agent won every game of a pair, or nearly: :func:`profile_intervals`).

Both take a preset name, a path to a house-rules TOML file or an :class:`eights.Rules` as
``preset`` (:func:`eights.rules.resolve_preset`), and rule overrides as ``rules``.

**Agents** (see :func:`eights.agents.spec.as_agent`) are

* bot names: ``"random"``, ``"heuristic"``, ``"ismcts:N"`` (information-set MCTS,
  ``N`` simulations per decision), ``"pimc:N"`` (determinized Monte Carlo, ``N``
  sampled worlds per decision), ``"net"`` (the learned policy shipped with the package,
  one network for every rule set), ``"net1"`` (the first learned policies, on the three
  presets they were trained for, ``crazy_eights``, ``switch_blackjack`` and
  ``crazy_eights_specials``, at two players), all written in Rust;
* Python callables ``f(obs, mask) -> action`` (``obs`` the acting seat's float32
  observation, ``mask`` its bool action mask);
* objects with ``act(obs, mask) -> action`` or ``act_batch(obs, masks) -> actions``
  (``obs`` of shape ``(k, OBS_SIZE)``, ``masks`` ``(k, NUM_ACTIONS)``); ``act_batch``
  is preferred when both exist;
* ``(name, agent)`` pairs, to label any of the above in the results.

**Duplicate deals.** Deal ``d`` is dealt from ``arena_deal_seed(seed, d)`` and played
``num_players`` times: in rotation ``r`` seat ``k`` is played by table entry
``(k + r) % num_players``, so every agent holds every hand of every deal. ``games``
counts deals; a run plays ``games * num_players`` games. When every agent is a
built-in bot the games run in Rust threads (the results are identical for any thread
count); otherwise the Python agents are called in batches of up to ``batch_size``
games played in lockstep, dealt and seated from the engine's schedule of each batch.

**Statistics.** A game scores 1 for its winner, 0 for the others, and ``1/n`` for every
seat when nobody wins (a blocked or truncated hand). The win rate is the mean score;
its 95% interval is a percentile bootstrap over deals (the rotations of one deal stay
together, which is what makes the interval honest for duplicate play), falling back to
the Wilson interval over games when every deal gives the same result. Bootstrap
samples are drawn from ``seed``, so results are reproducible.

**On a Ray cluster.** ``ray="auto"`` (the cluster started here with ``ray start``),
``"local"`` (one started on this machine) or a cluster's address spreads the deals of
:func:`evaluate` and :func:`tournament` over the cluster's workers, with the same results
for the same seed (:mod:`~eights.arena.cluster`; needs the ``rllib`` extra).

The package: :mod:`~eights.arena.run` plays the games (:mod:`~eights.arena.cluster` on a
Ray cluster), :mod:`~eights.arena.stats` and
:mod:`~eights.arena.ratings` compute the statistics and ratings,
:mod:`~eights.arena.report` and :mod:`~eights.arena.plot` present them, and
:mod:`~eights.arena.matches` holds :func:`evaluate` and :func:`tournament`.

Example (after ``import eights``; the same seed gives the same deals and the same numbers):

>>> arena = eights.arena
>>> r = arena.evaluate("heuristic", "random", preset="crazy_eights", games=100, seed=0)
>>> print(r.win_rate, r.ci)
0.94 (0.905, 0.97)
>>> t = arena.tournament(["random", "heuristic"], games=50, seed=0)
>>> print(t.table())  # doctest: +ELLIPSIS
crazy_eights, 2 players, 50 duplicate deals per table (ratings: Bradley-Terry, Elo scale, random = 0, ...)
agent       rating       95% interval   decisions/s
heuristic      465  [    356,     638]  ...
random           0  [      0,       0]  ...
<BLANKLINE>
matches (win rate of the first agent, 95% interval; hand points; game length):
  random vs heuristic: 0.060 [0.020, 0.110]  points 38.77  length 43.7
"""

from .budget import DEFAULT_BUDGET, Budget
from .matches import evaluate, tournament
from .plot import plot_exploit
from .ratings import bradley_terry, profile_intervals
from .report import EvalResult, ExploitResult, TournamentResult
from .run import play
from .stats import wilson_interval

__all__ = [
    "Budget",
    "DEFAULT_BUDGET",
    "EvalResult",
    "ExploitResult",
    "TournamentResult",
    "bradley_terry",
    "evaluate",
    "play",
    "plot_exploit",
    "profile_intervals",
    "tournament",
    "wilson_interval",
]
