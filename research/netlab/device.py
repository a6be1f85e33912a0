"""Where the card network's stages run: the PyTorch device a ``--device`` names (``auto``: CUDA
when PyTorch sees a GPU, the CPU otherwise) and the env threads an ``--env-threads`` of 0 means
(one per core). Every stage puts its network on :func:`pick_device`'s device and moves its
batches there; what the envs hand back stays in NumPy on the CPU."""

from __future__ import annotations

import os

import torch

__all__ = ["pick_device", "env_threads", "describe"]


def pick_device(name: str = "auto") -> torch.device:
    """The device ``name`` names: ``auto`` (CUDA when available, else the CPU), ``cpu``,
    ``cuda`` or ``cuda:K``; a ``ValueError`` naming ``device`` for anything else, or for CUDA
    where PyTorch sees no GPU."""
    name = str(name).strip().lower()
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name != "cpu" and not (name == "cuda" or (name.startswith("cuda:") and name[5:].isdigit())):
        raise ValueError(f"device: 'auto', 'cpu', 'cuda' or 'cuda:K', got {name!r}")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ValueError(f"device: {name!r} asked for, but PyTorch sees no CUDA GPU here (use 'auto' or 'cpu')")
        k = int(name[5:]) if ":" in name else 0
        if k >= torch.cuda.device_count():
            raise ValueError(f"device: {name!r}, but PyTorch sees {torch.cuda.device_count()} GPU(s)")
    return torch.device(name)


def env_threads(n: int) -> int:
    """The env threads ``n`` asks for: ``n`` itself when positive, one per core with 0."""
    if n < 0:
        raise ValueError(f"env_threads: 0 (one per core) or a positive count, got {n}")
    return n or (os.cpu_count() or 1)


def describe(device: torch.device) -> str:
    """The device in words, for a run's log and a file's training record."""
    if device.type == "cuda":
        return f"cuda ({torch.cuda.get_device_name(device)})"
    return f"cpu ({torch.get_num_threads()} PyTorch threads)"
