"""Where the time of the card network's PPO update (:func:`netlab.cardppo_update.ppo_update`)
goes: one rollout of the stretch's games (``research/stretch.py``: stage 5's tables times
``--scale``, from the committed file), the update timed whole, a copy of its minibatch loop
timed phase by phase, ``torch.profiler`` over a few minibatches and the bare network's step at
the same batch size. Nothing is written but ``--json`` and ``--trace``.

    python research/profile_update.py --json runs/profile_update.json     # a GPU host: about a minute
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List

import numpy as np
import torch

import netlab.cardppo as cardppo
from netlab.cardppo import CardPPOConfig
from netlab.cardppo_games import MixedGames, PartsCache
from netlab.cardppo_update import KEYS, ppo_loss, ppo_update
from netlab.device import describe, env_threads, pick_device
from netlab.imitation import RulesTable
from stretch import COMMITTED, GPU_BLOCKS, STAGE5_TABLES, scale_tables

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The phases of a minibatch, in the loop's order (``forward`` holds ``rules_part``).
PHASES = ("index", "h2d", "gather", "rules_part", "forward", "loss", "backward", "grad_mask", "clip", "step", "stats")


class Clock:
    """Milliseconds per named phase; on CUDA the GPU is waited for before and after each."""

    def __init__(self, cuda: bool):
        self.cuda = cuda
        self.ms: Dict[str, float] = defaultdict(float)

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        self.sync()
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.sync()
            self.ms[name] += 1e3 * (time.perf_counter() - t0)


def _timed(fn, clock: Clock, name: str):
    def wrapper(*a, **k):
        with clock(name):
            return fn(*a, **k)

    return wrapper


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="auto", help="auto (CUDA when PyTorch sees a GPU), cpu, cuda[:K]")
    ap.add_argument("--scale", type=int, default=0, help="games per group times this (0: 8 on a GPU, 1 on the CPU)")
    ap.add_argument("--tables", default=STAGE5_TABLES, help="groups players:opponent:games[:space], before --scale")
    ap.add_argument("--num-steps", type=int, default=CardPPOConfig.num_steps)
    ap.add_argument(
        "--blocks",
        type=int,
        default=0,
        help=f"blocks of 16 decisions a minibatch (0: the stretch's, {GPU_BLOCKS} on a GPU, "
        f"{CardPPOConfig.blocks} on the CPU)",
    )
    ap.add_argument("--minibatches", type=int, default=20, help="minibatches timed phase by phase")
    ap.add_argument("--warmup", type=int, default=3, help="minibatches run before any timing of the loop")
    ap.add_argument("--profile", type=int, default=5, help="minibatches under torch.profiler (0: none)")
    ap.add_argument("--width", type=int, default=32, help="units per card (above the file's: widened first)")
    ap.add_argument("--context", type=int, default=96)
    ap.add_argument("--init", default=os.path.join(ROOT, COMMITTED), help="the weights (default: the stretch's start)")
    ap.add_argument("--value-only", action="store_true", help="an update of the value head alone (the first ones)")
    ap.add_argument("--env-threads", type=int, default=0, help="threads stepping the envs at once (0: one per core)")
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: 4 beside a GPU, every core without)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--json", default="", help="write the report here too")
    ap.add_argument("--trace", default="", help="write the profiled minibatches' chrome trace here")
    return ap.parse_args(argv)


def _config(args, scale: int, device: torch.device) -> CardPPOConfig:
    """The stretch's configuration (``research/stretch.py``) with these arguments."""
    return CardPPOConfig(
        seed=args.seed,
        tables=scale_tables(args.tables, scale),
        num_steps=args.num_steps,
        lr=3e-4,
        blocks=args.blocks or (GPU_BLOCKS if device.type == "cuda" else CardPPOConfig.blocks),
        bc_coef=0.0,
        shaping=0.05,
        shaping_updates=600,
        width=args.width,
        context=args.context,
        env_threads=env_threads(args.env_threads),
        device=str(device),
    )


def rollout(net, cfg: CardPPOConfig, cuda: bool, u: int):
    """One rollout of every game as :func:`netlab.cardppo.card_ppo` collects it; the decisions,
    the rules table and the seconds by part (env step, heuristic labels, forward, parts cache)."""
    games = MixedGames(cfg.tables, env_threads(cfg.env_threads), seed=cfg.seed * 1_000_003, table=RulesTable())
    cache = PartsCache(net, games.table)
    games.reset()
    net.eval()
    table = RulesTable(2 * games.N)
    games.retable(table)
    cache.refresh(table)
    pending = np.zeros(games.N, bool)
    cardppo._act(net, games, cache)  # CUDA's first kernels are not the rollout's
    rc = Clock(cuda)
    act = cardppo._act
    games.step = _timed(games.step, rc, "env_step")  # type: ignore[method-assign]
    games.labels = _timed(games.labels, rc, "labels")  # type: ignore[method-assign]
    cache.extend = _timed(cache.extend, rc, "parts_cache")  # type: ignore[method-assign]
    cardppo._act = _timed(act, rc, "forward")
    try:
        t0 = time.perf_counter()
        flat, rules, played, *_ = cardppo._collect(net, games, cache, table, cfg, u, pending, None, None)
        total = time.perf_counter() - t0
    finally:
        cardppo._act = act
    parts = {k: round(v / 1e3, 3) for k, v in rc.ms.items()}
    parts["other"] = round(total - sum(rc.ms.values()) / 1e3, 3)
    out = {"seconds": round(total, 3), "parts_s": parts, "games": games.N, "steps": cfg.num_steps}
    out.update(decisions=played, rules_seen=len(table.index))
    return flat, rules, out


def minibatches(blocks: np.ndarray, per: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """The rows of the minibatches, epoch after epoch, as :func:`ppo_update` draws them."""
    while True:
        perm = rng.permutation(len(blocks))
        for j in range(0, len(perm), per):
            yield blocks[perm[j : j + per]].reshape(-1)


def _by_phase(events, n: int) -> Dict[str, Dict[str, float]]:
    """Per minibatch and phase (the profiler's ``## phase`` ranges; ``other thread``: the
    autograd engine's own thread, the backward pass on CUDA): the aten ops, the kernel
    launches and the CUDA calls that wait (synchronizations, copies)."""
    out: Dict[str, Counter] = defaultdict(Counter)
    for e in events:
        name = e.name
        kind = "aten_ops" if name.startswith("aten::") else "launches" if "LaunchKernel" in name else ""
        if not kind and name.startswith("cu") and ("Synchronize" in name or "Memcpy" in name):
            kind = "syncs_and_copies"
        if not kind:
            continue
        p = getattr(e, "cpu_parent", None)
        while p is not None and not p.name.startswith("## "):
            p = getattr(p, "cpu_parent", None)
        out["other thread" if p is None else p.name[3:]][kind] += 1
    return {ph: {k: round(v / n, 1) for k, v in c.items()} for ph, c in out.items()}


class Loop:
    """What a copy of :func:`ppo_update`'s minibatch loop reads: the network, its optimizer,
    the kept decisions on the device (``on``), their rule-table rows (``ridx``), the table and
    the minibatches' rows (``draw``)."""

    def __init__(self, net, opt, on, ridx, table, draw, cfg: CardPPOConfig, u: int, cuda: bool):
        self.net, self.opt, self.on, self.ridx, self.table, self.draw, self.cfg = net, opt, on, ridx, table, draw, cfg
        self.device = next(net.parameters()).device
        self.value_only = u < cfg.value_updates
        self.bc = cfg.bc_coef + (cfg.bc_coef_end - cfg.bc_coef) * min(1.0, u / max(1, cfg.bc_updates))
        self.cuda = cuda
        self.samples = 0  # the decisions of the minibatches run

    def step(self, clock: Clock, rec: bool = False) -> None:
        """One minibatch, phase by phase (``clock``; ``rec``: the phases as the profiler's
        ``record_function`` ranges)."""
        net, cfg, device = self.net, self.cfg, self.device

        @contextmanager
        def phase(name):
            if rec:
                with torch.profiler.record_function(f"## {name}"), clock(name):
                    yield
            else:
                with clock(name):
                    yield

        with phase("index"):
            idx = next(self.draw)
            self.samples += len(idx)
            distinct, inverse = np.unique(self.ridx[idx], return_inverse=True)
            rows = self.table.rows[distinct]
            inverse = inverse.reshape(-1).astype(np.int64)
        with phase("h2d"):
            at_dev = torch.from_numpy(idx).to(device)
            rules = torch.from_numpy(rows).to(device)
            inv = torch.from_numpy(inverse).to(device)
        with phase("gather"):
            b = {key: t[at_dev] for key, t in self.on.items()}
            b["rules"], b["inverse"] = rules, inv
        with phase("loss"):  # the forward pass inside is timed on its own (and taken out)
            loss, st = ppo_loss(net, b, cfg, self.bc, self.value_only, cfg.vf_coef)
        with phase("backward"):
            self.opt.zero_grad()
            loss.backward()
        if self.value_only:
            with phase("grad_mask"):
                for name, p in net.named_parameters():
                    if not name.startswith("v."):
                        p.grad = None
        with phase("clip"):
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        with phase("step"):
            self.opt.step()
        with phase("stats"):
            stats: Dict[str, List[torch.Tensor]] = {}
            for key, x in st.items():
                stats.setdefault(key, []).append(x)

    def phases(self, n: int) -> Dict[str, Any]:
        """Milliseconds per minibatch of each phase over ``n`` minibatches (on CUDA the GPU
        waited for around each)."""
        net, clock, before = self.net, Clock(self.cuda), self.samples
        forward, parts = net.forward, net.parts
        net.forward = _timed(forward, clock, "forward")  # type: ignore[method-assign]
        net.parts = _timed(parts, clock, "rules_part")  # type: ignore[method-assign]
        net.train()
        try:
            for _ in range(n):
                self.step(clock)
        finally:
            del net.forward, net.parts
            net.eval()
        ms = {k: v / n for k, v in clock.ms.items()}
        ms["loss"] -= ms["forward"]  # ppo_loss's own arithmetic
        ms["forward"] -= ms["rules_part"]  # the per-decision part of the forward pass
        total = sum(ms.values())
        rows = {k: {"ms": round(ms[k], 3), "share": round(ms[k] / total, 4)} for k in PHASES if k in ms}
        samples = (self.samples - before) / n
        out = {"minibatches": n, "samples": round(samples), "phases": rows, "total_ms": round(total, 3)}
        out["samples_per_s"] = round(samples / total * 1e3)
        return out

    def unsynced(self, n: int) -> Dict[str, float]:
        """Milliseconds per minibatch of ``n`` minibatches with no wait but at the end, and the
        decisions a second."""
        clock, before = Clock(self.cuda), self.samples
        self.net.train()
        with clock("loop"):
            for _ in range(n):
                self.step(Clock(False))
        self.net.eval()
        ms, samples = clock.ms["loop"] / n, (self.samples - before) / n
        return {"samples": round(samples), "ms": round(ms, 3), "samples_per_s": round(samples / ms * 1e3)}

    def profiled(self, n: int, trace: str) -> Dict[str, Any]:
        """``torch.profiler`` over ``n`` minibatches: its tables and the launches per minibatch."""
        from torch.autograd import DeviceType
        from torch.profiler import ProfilerActivity, profile

        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if self.cuda else [])
        clock = Clock(False)
        self.net.train()
        with profile(activities=acts) as prof:
            with clock("wall"):
                for _ in range(n):
                    self.step(clock, rec=True)
                if self.cuda:
                    torch.cuda.synchronize()
        self.net.eval()
        if trace:
            prof.export_chrome_trace(trace)
        avg = prof.key_averages()
        events = prof.events()
        on_gpu = [e for e in events if e.device_type == DeviceType.CUDA]
        # The GPU's busy time (kernels and copies; overlaps counted twice, rare here).
        busy = sum(e.time_range.elapsed_us() for e in on_gpu if hasattr(e, "time_range")) / 1e3 / n
        runtime = Counter(e.name for e in events if e.device_type == DeviceType.CPU and e.name.startswith("cu"))
        launches = sum(c for name, c in runtime.items() if "LaunchKernel" in name)
        by_self = "self_cuda_time_total" if self.cuda else "self_cpu_time_total"
        return {
            "minibatches": n,
            "by_self_time": avg.table(sort_by=by_self, row_limit=25),
            "by_cpu_time_total": avg.table(sort_by="cpu_time_total", row_limit=25),
            "per_minibatch": {
                "aten_ops": round(sum(1 for e in events if e.name.startswith("aten::")) / n, 1),
                "wall_ms": round(clock.ms["wall"] / n, 3),  # under the profiler
                "gpu_busy_ms": round(busy, 3),
                "device_events": round(len(on_gpu) / n, 1),  # kernels, copies and memsets on the GPU
                "kernel_launches": round(launches / n, 1),
                "runtime_calls": {k: round(v / n, 1) for k, v in runtime.most_common(12)},
                "by_phase": _by_phase(events, n),
            },
        }

    def bare(self, idx: np.ndarray, reps: int) -> Dict[str, Any]:
        """The network's forward, backward and Adam step alone on the rows ``idx`` of the
        rollout, gathered once (a cross-entropy on the actions taken plus the value's squared
        error)."""
        net, opt, device = self.net, self.opt, self.device
        distinct, inverse = np.unique(self.ridx[idx], return_inverse=True)
        at = torch.from_numpy(idx).to(device)
        obs, mask, act, ret = (self.on[k][at] for k in ("obs", "mask", "act", "ret"))
        rules = torch.from_numpy(self.table.rows[distinct]).to(device)
        inv = torch.from_numpy(inverse.reshape(-1).astype(np.int64)).to(device)
        net.train()

        def one():
            logits, v = net(obs, mask, rules, inv)
            loss = torch.nn.functional.nll_loss(logits.log_softmax(-1), act) + ((v - ret) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

        one()
        clock = Clock(self.cuda)
        with clock("bare"):
            for _ in range(reps):
                one()
        net.eval()
        dt = clock.ms["bare"] / 1e3 / reps
        return {"batch": len(idx), "ms": round(1e3 * dt, 3), "samples_per_s": round(len(idx) / dt)}

    def transfers(self, n: int) -> Dict[str, float]:
        """Milliseconds per minibatch of its host-to-device copies as the loop makes them
        (pageable memory) and two ways round: from pinned memory without a wait (CUDA only), and
        with the rules rows gathered on the device from the table uploaded once (its upload:
        ``table_upload``, once per update)."""
        device, clock = self.device, Clock(self.cuda)
        prep = []
        for _ in range(n):
            idx = next(self.draw)
            distinct, inverse = np.unique(self.ridx[idx], return_inverse=True)
            prep.append((idx, distinct, self.table.rows[distinct], inverse.reshape(-1).astype(np.int64)))
        with clock("pageable"):
            for idx, _, rows, inverse in prep:
                [torch.from_numpy(x).to(device) for x in (idx, rows, inverse)]
        if self.cuda:
            with clock("pinned"):
                for idx, _, rows, inverse in prep:
                    [torch.from_numpy(x).pin_memory().to(device, non_blocking=True) for x in (idx, rows, inverse)]
        with clock("table_upload"):
            table = torch.from_numpy(self.table.rows[: int(self.ridx.max()) + 1]).to(device)
        with clock("rows_on_device"):
            for idx, distinct, _, inverse in prep:
                [torch.from_numpy(x).to(device) for x in (idx, inverse)]
                table[torch.from_numpy(distinct).to(device)]
        out = {k: round(v / n, 3) for k, v in clock.ms.items()}
        out["table_upload"] = round(clock.ms["table_upload"], 3)
        return out


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.time()
    device = pick_device(args.device)
    cuda = device.type == "cuda"
    if cuda and device.index is not None:
        torch.cuda.set_device(device)  # torch.cuda.synchronize() waits for this one
    torch.set_num_threads(args.threads or (min(4, os.cpu_count() or 1) if cuda else (os.cpu_count() or 1)))
    scale = args.scale or (8 if cuda else 1)
    cfg = _config(args, scale, device)
    lines: List[str] = []

    def log(s: str = "") -> None:
        lines.append(s)
        print(s, flush=True)

    def save() -> None:
        if args.json:
            report["printed"] = lines
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)

    @contextmanager
    def section(name: str) -> Iterator[None]:
        """A part of the report: a failure is logged and the next part runs (one GPU run)."""
        try:
            yield
        except Exception:
            report["errors"][name] = traceback.format_exc()
            log(f"{name} failed:\n{report['errors'][name]}")
        save()

    report: Dict[str, Any] = {"device": describe(device), "torch": torch.__version__, "cores": os.cpu_count()}
    report["errors"] = {}
    report.update(tables=cfg.tables, num_steps=cfg.num_steps, block=cfg.block, blocks=cfg.blocks, width=cfg.width)
    log(f"profile_update on {report['device']}, torch {torch.__version__}, {os.cpu_count()} cores; tables x{scale}")
    torch.manual_seed(cfg.seed)
    with tempfile.TemporaryDirectory() as tmp:  # a new stage: no checkpoint to resume
        net, opt, _ = cardppo._start(os.path.join(tmp, "ckpt.pt"), cfg, args.init, lambda s: None, device)
    report["init"] = os.path.relpath(args.init, ROOT) if args.init.startswith(ROOT) else args.init
    head = " (a new value head)" if args.init.endswith(".safetensors") else ""
    log(f"weights: {report['init']}{head}, width {net.width}; {cfg.env_threads} env threads")
    u = 0 if args.value_only else cfg.value_updates
    value_only = u < cfg.value_updates
    flat, table, ro = rollout(net, cfg, cuda, u)
    report["rollout"] = ro
    parts = ", ".join(f"{k} {v:.2f}" for k, v in ro["parts_s"].items())
    log(f"rollout: {ro['games']} games x {ro['steps']} steps, {ro['decisions']} decisions in {ro['seconds']:.2f} s")
    log(f"  seconds by part: {parts}; {ro['rules_seen']} rule sets")

    # ppo_update's own set-up, then its minibatches.
    clock = Clock(cuda)
    with clock("select"):
        keep = np.flatnonzero(flat["valid"] & (flat["label"] >= 0))
        order = np.argsort(flat["ridx"][keep], kind="stable")
        k = len(order) // cfg.block
        blocks = order[: k * cfg.block].reshape(k, cfg.block)
        ridx = flat["ridx"][keep]
    with clock("upload"):
        on = {key: torch.from_numpy(np.ascontiguousarray(flat[key][keep])).to(device) for key in KEYS}
    per_epoch = -(-len(blocks) // cfg.blocks)
    size = cfg.blocks * cfg.block
    draw = minibatches(blocks, cfg.blocks, np.random.default_rng(cfg.seed))
    distinct = [len(np.unique(ridx[next(draw)])) for _ in range(min(per_epoch, 20))]
    setup = {k: round(v, 2) for k, v in clock.ms.items()}
    report["setup_ms"] = setup
    report["kept"] = len(keep)
    report["minibatch"] = {
        "size": size,
        "per_epoch": per_epoch,
        "distinct_rule_sets": round(float(np.mean(distinct)), 1),
    }
    log(f"update set-up: {len(keep)} decisions kept, select {setup['select']} ms, upload {setup['upload']} ms")
    log(f"minibatches of {size} decisions, {per_epoch} an epoch, {np.mean(distinct):.0f} rule sets each on average")

    loop = Loop(net, opt, on, ridx, table, draw, cfg, u, cuda)

    def rows(k: int) -> np.ndarray:
        """``k`` full minibatches' worth of rows (an epoch's last minibatch is short)."""
        out = [next(draw)]
        while sum(map(len, out)) < k * size:
            out.append(next(draw))
        return np.concatenate(out)[: k * size]

    for _ in range(args.warmup):
        loop.step(Clock(False))

    with section("ppo_update"):  # as the stretch calls it (its steps counted: the KL may stop it early)
        steps = [0]
        hook = opt.register_step_post_hook(lambda *a: steps.__setitem__(0, steps[0] + 1))
        whole = Clock(cuda)
        with whole("update"):
            stats = ppo_update(net, opt, flat, table, cfg, u, np.random.default_rng(cfg.seed), None, value=True)
        hook.remove()
        dt = whole.ms["update"] / 1e3
        samples = steps[0] // per_epoch * len(blocks) * cfg.block  # the KL stops it at an epoch's end
        report["ppo_update"] = {
            "seconds": round(dt, 3),
            "minibatches": steps[0],
            "samples": samples,
            "ms_per_minibatch": round(1e3 * dt / max(1, steps[0]), 3),
            "samples_per_s": round(samples / dt),
            "value_only": value_only,
            "stats": stats,
        }
        log(
            f"ppo_update: {dt:.3f} s, {steps[0]} minibatches ({1e3 * dt / max(1, steps[0]):.2f} ms each), "
            f"{samples / dt:,.0f} samples/s{' (the value head alone)' if value_only else ''}"
        )

    n = max(1, args.minibatches)
    with section("phases"):
        ph = loop.phases(n)
        report["phases"] = ph
        waits = ", the GPU waited for around each" if cuda else ""
        log(f"its minibatch loop, phase by phase ({n} minibatches{waits}):")
        log(f"{'phase':<12}{'ms/minibatch':>14}{'share':>8}")
        for k, r in ph["phases"].items():
            log(f"{k:<12}{r['ms']:>14.3f}{100 * r['share']:>7.1f}%")
        log(f"{'sum':<12}{ph['total_ms']:>14.3f}{ph['samples_per_s']:>14,} samples/s")
    with section("unsynced"):
        report["loop"] = loop.unsynced(n)
        # The same loop over minibatches four times larger: a fixed cost per minibatch shows here.
        draw4 = minibatches(blocks, 4 * cfg.blocks, np.random.default_rng(cfg.seed + 1))
        report["loop_4x"] = Loop(net, opt, on, ridx, table, draw4, cfg, u, cuda).unsynced(max(2, n // 4))
        for name, r in (("the same loop without the waits", report["loop"]), ("over 4x the blocks", report["loop_4x"])):
            log(f"{name}: {r['ms']:.3f} ms a minibatch of {r['samples']}, {r['samples_per_s']:,} samples/s")
    with section("bare"):
        report["bare"] = [loop.bare(rows(1), max(3, n)), loop.bare(rows(4), max(3, n // 2))]
        for b in report["bare"]:
            log(f"bare forward+backward+Adam at {b['batch']}: {b['ms']:.3f} ms, {b['samples_per_s']:,} samples/s")
    with section("transfers"):
        tr = loop.transfers(n)
        report["transfers_ms"] = tr
        pinned = f", {tr['pinned']:.3f} ms from pinned memory" if cuda else " (on the CPU: no copies)"
        log(
            f"a minibatch's copies: {tr['pageable']:.3f} ms as made{pinned}, {tr['rows_on_device']:.3f} ms with the "
            f"rules rows gathered on the device (after the table's upload, {tr['table_upload']:.1f} ms an update)"
        )
    if args.profile > 0:
        with section("profiler"):
            pr = loop.profiled(args.profile, args.trace)
            report["profiler"] = pr
            log(f"torch.profiler over {args.profile} minibatches, by {'self CUDA' if cuda else 'self CPU'} time:")
            log(pr["by_self_time"])
            log("by total CPU time:")
            log(pr["by_cpu_time_total"])
            per = pr["per_minibatch"]
            log(
                f"per minibatch: {per['wall_ms']:.2f} ms under the profiler, the GPU busy {per['gpu_busy_ms']:.2f} ms; "
                f"{per['aten_ops']} aten ops, {per['kernel_launches']} kernel launches, "
                f"{per['device_events']} device events; runtime calls {per['runtime_calls']}"
            )
            for ph, c in per["by_phase"].items():
                log(f"  {ph}: " + ", ".join(f"{v} {k}" for k, v in c.items()))
            if args.trace:
                log(f"chrome trace: {args.trace}")
    report["wall_s"] = round(time.time() - t_start, 2)
    log(f"wall time {report['wall_s']} s")
    save()
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
