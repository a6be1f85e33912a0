"""The policy network that the package's PPO trains and the ``net1`` bot plays: an observation
normaliser, two hidden ReLU layers, a masked policy head and a value head
(:class:`PolicyNet`), its batched greedy form for the arena (:class:`GreedyPolicy`), and the
shipped ``net1`` weights read into it (:func:`net_state_dict`).

The layer names (``norm.*``, ``fc1``, ``fc2``, ``pi``, ``v``) are those of the exported
``eights-net-v1`` format that :mod:`eights.train.export` writes and the Rust bot reads, so a
policy moves between the two without conversion."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np
import torch
import torch.nn as nn

__all__ = [
    "GreedyPolicy",
    "MaskedPolicy",
    "Normalizer",
    "PolicyNet",
    "exported_state_dict",
    "flat_shapes",
    "layer",
    "net_policy",
    "net_state_dict",
]

#: The tensors of one preset's policy in an exported file (the value head is not exported).
EXPORTED_KEYS = (
    "norm.mean",
    "norm.inv_std",
    "fc1.weight",
    "fc1.bias",
    "fc2.weight",
    "fc2.bias",
    "pi.weight",
    "pi.bias",
)


class Normalizer(nn.Module):
    """Running mean and variance of the first ``size`` observation values, updated once per
    rollout; the forward pass normalises and clips them (a snapshot keeps a copy)."""

    mean: torch.Tensor
    var: torch.Tensor
    inv_std: torch.Tensor
    count: torch.Tensor

    def __init__(self, size: int, clip: float = 5.0):
        super().__init__()
        self.register_buffer("mean", torch.zeros(size))
        self.register_buffer("var", torch.ones(size))
        self.register_buffer("inv_std", torch.ones(size))
        self.register_buffer("count", torch.tensor(0.0))
        self.clip = clip

    @torch.no_grad()
    def update(self, x: torch.Tensor) -> None:
        """Fold a batch of observations into the statistics (Chan et al.'s parallel update)."""
        x = x[..., : self.mean.shape[0]]
        n = x.shape[0]
        mean, var = x.mean(0), x.var(0, unbiased=False)
        delta, total = mean - self.mean, self.count + n
        self.mean += delta * n / total
        self.var.copy_((self.var * self.count + var * n + delta**2 * self.count * n / total) / total)
        self.count += n
        self.inv_std.copy_(1.0 / torch.sqrt(self.var + 1e-8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The first ``size`` values of each observation, normalised and clipped."""
        x = x[..., : self.mean.shape[0]]
        return ((x - self.mean) * self.inv_std).clamp(-self.clip, self.clip)


def layer(i: int, o: int, std: float = float(np.sqrt(2))) -> nn.Linear:
    """A linear layer with orthogonal weights of gain ``std`` and zero biases."""
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class MaskedPolicy(nn.Module):
    """What the package's PPO asks of a policy network beyond its ``logits_value(obs, mask)``
    (masked logits and values): sampled or greedy actions for torch and numpy batches. The flat
    :class:`PolicyNet` and the card network's :class:`~eights.train.cardpolicy.CardPolicy` share it."""

    def logits_value(self, obs: torch.Tensor, mask: torch.Tensor):  # pragma: no cover - abstract
        raise NotImplementedError

    def sample(self, obs: torch.Tensor, mask: torch.Tensor, greedy: bool = False):
        """Actions (Gumbel-max sampling from the masked logits, or their argmax), their
        log-probabilities and the values, without gradients."""
        with torch.no_grad():
            logits, value = self.logits_value(obs, mask)
            logp = logits.log_softmax(-1)
            if greedy:
                action = logits.argmax(1)
            else:
                action = (logits - torch.empty_like(logits).exponential_().log()).argmax(1)
            return action, logp.gather(1, action[:, None]).squeeze(1), value

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> np.ndarray:
        """Batched actions for numpy observations ``(k, OBS_SIZE)`` and bool masks."""
        dev = next(self.parameters()).device
        obs_t, mask_t = torch.from_numpy(obs).to(dev), torch.from_numpy(mask).to(dev)
        return self.sample(obs_t, mask_t, greedy)[0].cpu().numpy()


class PolicyNet(MaskedPolicy):
    """A 2-layer MLP trunk with a masked policy head and a value head, reading the first
    ``obs_size`` values of whole observations (the layout only appends slices, so a network
    trained on a shorter layout reads its own prefix). ``obs_size`` is in 1 to ``OBS_SIZE``,
    ``num_actions`` in 1 to ``NUM_ACTIONS`` and ``hidden`` in 1 to
    :data:`eights.train.ppo.COUNT_MAX` ``["hidden"]``: a ``TypeError`` or ``ValueError`` naming
    the argument otherwise, before any layer is built."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int):
        from .._core import NUM_ACTIONS, OBS_SIZE
        from .._utils.checks import as_int
        from .ppo import COUNT_MAX

        obs_size = as_int(obs_size, "obs_size", 1, OBS_SIZE)
        num_actions = as_int(num_actions, "num_actions", 1, NUM_ACTIONS)
        hidden = as_int(hidden, "hidden", 1, COUNT_MAX["hidden"])
        super().__init__()
        self.norm = Normalizer(obs_size)
        self.fc1 = layer(obs_size, hidden)
        self.fc2 = layer(hidden, hidden)
        self.pi = layer(hidden, num_actions, 0.01)
        self.v = layer(hidden, 1, 1.0)

    @property
    def obs_size(self) -> int:
        """The observation values read (a prefix of the whole observation)."""
        return int(self.fc1.in_features)

    def trunk(self, obs: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """The hidden features of (whole) observations (``mask`` is not read)."""
        return torch.relu(self.fc2(torch.relu(self.fc1(self.norm(obs)))))

    def logits_value(self, obs: torch.Tensor, mask: torch.Tensor):
        """Masked logits (illegal actions at -1e9) and state values."""
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


class GreedyPolicy:
    """A :class:`PolicyNet` (or any :class:`MaskedPolicy`) as an arena agent: ``act_batch``
    plays each row's most likely legal action (or samples from the policy with ``greedy=False``)."""

    def __init__(self, net: MaskedPolicy, name: str, greedy: bool = True):
        self.net, self.name, self.greedy = net, name, greedy

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs = np.ascontiguousarray(obs, np.float32)
        return self.net.act(obs, np.ascontiguousarray(masks, bool), self.greedy)


def flat_shapes(weight: Any, name: str, kind: str = "checkpoint", field: str = "model") -> Dict[str, Tuple[int, ...]]:
    """The shape of each tensor of the :class:`PolicyNet` whose ``fc1.weight`` a file holds
    (``weight``: a tensor or array), found without building the network (on PyTorch's ``meta``
    device), after checking the sizes it gives: ``hidden`` (its rows) in 1 to
    :data:`eights.train.ppo.COUNT_MAX` ``["hidden"]`` (the widest a run trains) and ``inputs``
    (its columns) in 1 to ``OBS_SIZE`` (a prefix of the observation). Raises
    :class:`~eights.train.files.FileFormatError` naming the file ``name`` otherwise, before
    anything of the file's size is allocated."""
    from .._core import NUM_ACTIONS, OBS_SIZE
    from .files import FileFormatError
    from .ppo import COUNT_MAX

    bad = f"{name}: not a {kind} of this kind: its {field}: 'fc1.weight'"
    shape = getattr(weight, "shape", None)
    if shape is None or len(shape) != 2:
        what = f"has shape {list(shape)}" if shape is not None else f"is a {type(weight).__name__}"
        raise FileFormatError(f"{bad} {what}, not [hidden, inputs]")
    hidden, inputs = (int(n) for n in shape)
    if not 1 <= hidden <= COUNT_MAX["hidden"]:
        raise FileFormatError(f"{bad} has {hidden} rows: hidden units must be in [1, {COUNT_MAX['hidden']}]")
    if not 1 <= inputs <= OBS_SIZE:
        raise FileFormatError(f"{bad} has {inputs} columns: inputs must be in [1, {OBS_SIZE}] (the observation size)")
    with torch.device("meta"):
        net = PolicyNet(inputs, NUM_ACTIONS, hidden)
    return {key: tuple(t.shape) for key, t in net.state_dict().items()}


def exported_state_dict(arrays: Mapping[str, np.ndarray], preset: str) -> Dict[str, torch.Tensor]:
    """``preset``'s policy in an exported file's tensors (``{"<preset>.fc1.weight": ...}``) as
    the state dict of a :class:`PolicyNet` without its value head: the float32 values of the
    stored layers, and a normaliser whose variance is recovered from ``inv_std`` and whose
    count (1e5) lets later statistics move it only slowly. ``KeyError`` naming the presets
    the tensors hold when ``preset`` is not one of them."""
    if f"{preset}.fc1.weight" not in arrays:
        have = ", ".join(sorted({k.split(".")[0] for k in arrays}))
        raise KeyError(f"no network for {preset} (there are networks for {have})")
    model = {key: torch.from_numpy(np.asarray(arrays[f"{preset}.{key}"], np.float32)) for key in EXPORTED_KEYS}
    model["norm.var"] = (1.0 / model["norm.inv_std"] ** 2 - 1e-8).clamp(min=0.0)
    model["norm.count"] = torch.tensor(1e5)
    return model


def net_state_dict(preset: str) -> Dict[str, Any]:
    """The shipped ``net1`` bot's policy for ``preset`` (read from the weights compiled into
    the extension) as a :class:`PolicyNet` state dict without a value head; ``ValueError``
    naming the presets ``net1`` plays for any other."""
    from safetensors.numpy import load as load_safetensors

    from .._core import net_weights

    try:
        return exported_state_dict(load_safetensors(net_weights()), preset)
    except KeyError as exc:
        raise ValueError(f"net: {exc.args[0]}") from None


def net_policy(preset: str) -> PolicyNet:
    """A :class:`PolicyNet` playing as the shipped ``net1`` bot does on ``preset`` (its value
    head is new, untrained)."""
    model = net_state_dict(preset)
    hidden, inputs = model["fc1.weight"].shape
    from .._core import NUM_ACTIONS

    net = PolicyNet(int(inputs), NUM_ACTIONS, int(hidden))
    net.load_state_dict(model, strict=False)
    return net
