"""Training with PyTorch (the ``train`` extra): the package's PPO (:mod:`.ppo`, its hyperparameters
:class:`PPOConfig`), the self-play loop against a league of opponents (:mod:`.selfplay`), the
flat policy network it trains, which the learned bot ``net1`` plays (:mod:`.model`), and the
``eights-net-v1`` file format that bot reads (:mod:`.export`); :func:`train` (``eights train``,
:mod:`.run`, its run folder :mod:`.outputs`, the machine it picks :mod:`.machine`, the card
network as its learner :mod:`.cardpolicy`) and :func:`exploit` (how much an approximate best
response, :mod:`.best_response`, wins against a frozen agent) run on them, and :mod:`.config`
turns the nested argument dataclasses into command-line flags. The rules-reading network that
the learned bot ``net`` plays, its ``eights-net-v2`` file format and its growth (wider, with
attention, playing as before) are :mod:`.cardnet` and :mod:`.cardnet_grow`. How the shipped
files were trained (the recipes, the stages and their findings) lives in the repository's
``research/``, which imports this package; the package never imports it."""

from .._utils.optional import require

require(["torch", "safetensors"], "train", "eights.train")

from .exploit import exploit  # noqa: E402
from .export import EXPORT_FORMAT, export_metadata, load_exported, write_agent_file, write_exported  # noqa: E402
from .model import GreedyPolicy, Normalizer, PolicyNet, exported_state_dict, layer, net_policy, net_state_dict  # noqa: E402
from .ppo import PPOConfig, Rollout, ppo_update  # noqa: E402
from .run import TrainResult, default_league, default_ppo, train  # noqa: E402
from .selfplay import League, LeagueConfig, SelfPlay  # noqa: E402

__all__ = [
    "EXPORT_FORMAT",
    "GreedyPolicy",
    "League",
    "LeagueConfig",
    "Normalizer",
    "PPOConfig",
    "PolicyNet",
    "Rollout",
    "SelfPlay",
    "TrainResult",
    "default_league",
    "default_ppo",
    "export_metadata",
    "exploit",
    "exported_state_dict",
    "layer",
    "load_exported",
    "net_policy",
    "net_state_dict",
    "ppo_update",
    "train",
    "write_agent_file",
    "write_exported",
]
