"""The machine a training run uses: the PyTorch device (``auto``: CUDA when PyTorch sees a
GPU, else the CPU), the env and PyTorch threads chosen from the cores this process may use
(:func:`pick_threads`), and a one-line description of the hardware for the run's record."""

from __future__ import annotations

import os
import platform
import time
from typing import Optional, Tuple

__all__ = ["busy_cores", "cores", "hardware", "idle", "pick_device", "pick_threads"]


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def pick_device(device: str = "auto") -> str:
    """``device`` as a PyTorch device this machine has (``auto``: ``cuda`` when PyTorch sees a
    GPU, else ``cpu``); ``ValueError`` naming ``device`` otherwise."""
    import torch

    if not isinstance(device, str):
        raise TypeError(f"device must be a string such as 'auto', 'cpu' or 'cuda', got {type(device).__name__}")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        dev = torch.device(device)
    except (RuntimeError, ValueError):
        raise ValueError(f"device must be 'auto' or a PyTorch device such as 'cpu' or 'cuda', got {device!r}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r}: PyTorch sees no CUDA device on this machine")
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or a CUDA device, got {device!r}")
    if dev.type == "cuda" and dev.index is not None and dev.index >= torch.cuda.device_count():
        raise ValueError(f"device {device!r}: PyTorch sees {torch.cuda.device_count()} CUDA device(s) on this machine")
    if dev.type == "cpu" and dev.index not in (None, 0):
        raise ValueError(f"device {device!r}: PyTorch has one CPU device, 'cpu'")
    return str(dev)


def pick_threads(env_threads: Optional[int], torch_threads: Optional[int], device: str) -> Tuple[int, int]:
    """``(env_threads, torch_threads)``: the ones given, the others chosen for this machine.

    The rollout (the envs stepping, the network choosing) and the update (PyTorch alone)
    alternate, so each may use the cores. Up to 2 cores: one env thread, and PyTorch on every
    core when the machine is idle as the run starts (:func:`idle`: the update then runs 1.5x
    faster on 2 cores), one thread otherwise (a second thread fights the
    Python loop and the machine's other work for the same cores: three to six times slower on a
    shared 2-core machine). Above 2 cores, up to 8 each; one PyTorch thread on a GPU (it only
    launches the kernels)."""
    n = cores()
    env = env_threads if env_threads is not None else (1 if n <= 2 else min(8, n))
    if torch_threads is None:
        if device.startswith("cuda"):
            torch_threads = 1
        elif n <= 2:
            torch_threads = n if idle() else 1
        else:
            torch_threads = min(8, n)
    for name, value in (("env_threads", env), ("torch_threads", torch_threads)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024:
            raise ValueError(f"{name} must be an integer in [1, 1024], got {value!r}")
    return env, torch_threads


def _cpu_times() -> Tuple[int, int]:
    """``(idle, total)`` CPU time of the whole machine since boot, in clock ticks (Linux's
    ``/proc/stat``; ``OSError`` elsewhere)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    if not fields or fields[0] != "cpu" or len(fields) < 5:
        raise OSError("unexpected /proc/stat")
    ticks = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal
    return ticks[3] + (ticks[4] if len(ticks) > 4 else 0), sum(ticks)


def busy_cores(window: float = 0.25) -> Optional[float]:
    """How many of the machine's cores other work kept busy over the next ``window`` seconds
    (this process sleeps meanwhile); None where the system does not say."""
    try:
        idle0, total0 = _cpu_times()
        time.sleep(window)
        idle1, total1 = _cpu_times()
    except (OSError, ValueError):
        return None
    if total1 <= total0:
        return None
    return (1.0 - (idle1 - idle0) / (total1 - total0)) * (os.cpu_count() or 1)


def idle() -> bool:
    """Whether nothing else runs on the machine now: under half a core busy over a quarter of
    a second (:func:`busy_cores`), or where the system does not say, a 1-minute load average
    under 0.5 (which lags: it stays above 0.5 for a minute or two after a job ends); False
    where neither is known."""
    busy = busy_cores()
    if busy is not None:
        return busy < 0.5
    try:
        return os.getloadavg()[0] < 0.5
    except (AttributeError, OSError):
        return False


def hardware(device: str) -> str:
    """The CPU model and core count, and the GPU when ``device`` is one."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    text = f"{cpu}, {cores()} cores"
    if device.startswith("cuda"):
        import torch

        text += f"; GPU {torch.cuda.get_device_name(torch.device(device))}"
    return text
