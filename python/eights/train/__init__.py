"""Training with PyTorch (the ``train`` extra): the package's PPO (:mod:`.ppo`) and the policy
network it trains, which the learned bot ``net`` plays (:mod:`.model`). The training examples
(``examples/train_net_bot.py``, ``examples/ppo_selfplay.py``) and the approximate best
response of :func:`eights.arena.exploit` (:mod:`.best_response`) run on them."""

from .._utils.optional import require

require(["torch", "safetensors"], "train", "eights.train")

from .model import GreedyPolicy, Normalizer, PolicyNet, exported_state_dict, layer, net_policy, net_state_dict  # noqa: E402
from .ppo import PPOConfig, Rollout, ppo_update  # noqa: E402

__all__ = [
    "GreedyPolicy",
    "Normalizer",
    "PPOConfig",
    "PolicyNet",
    "Rollout",
    "exported_state_dict",
    "layer",
    "net_policy",
    "net_state_dict",
    "ppo_update",
]
