"""Self-play PPO from Python: ``eights.train.train``, the call behind ``eights train``.

It trains an agent for any rules (a preset name, a house-rules TOML file or an ``eights.Rules``)
at any table size against a league (the heuristic bot, the random bot and snapshots of
itself), writes the run folder (``final.safetensors``, a resumable ``checkpoint.pt``, the
learning curve, ``summary.md``) and ends with an arena evaluation on duplicate deals against
``random`` and ``heuristic``. See docs/tutorials/training.md.

Run (needs ``pip install -e '.[train]'``)::

    python examples/ppo_selfplay.py --minutes 10 --out runs/ppo
    python examples/ppo_selfplay.py --preset examples/switch_house.toml --players 3 --init net
    python examples/ppo_selfplay.py --smoke             # a few seconds, for CI
"""

from __future__ import annotations

import argparse

from eights.train import PPOConfig, train


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # --preset as the commands take it: a preset name or a house-rules TOML file.
    p.add_argument("--preset", default="crazy_eights", help="preset name or TOML file (default: crazy_eights)")
    p.add_argument("--players", type=int, default=2, help="table size (default: 2)")
    p.add_argument("--minutes", type=float, default=10.0, help="training budget in minutes (default: 10)")
    p.add_argument("--init", default="scratch", help="scratch, net or a card-network file (default: scratch)")
    p.add_argument("--out", default="runs/ppo", help="run folder, resumed when present (default: runs/ppo)")
    p.add_argument("--smoke", action="store_true", help="a tiny run that ends in seconds (default: off)")
    args = p.parse_args()
    budget = {"decisions": 2_000} if args.smoke else {"minutes": args.minutes}
    ppo = PPOConfig(num_envs=16, num_steps=32) if args.smoke else None  # None: the defaults of --init
    result = train(
        args.preset,
        args.players,
        out=args.out,
        init=args.init,
        ppo=ppo,
        eval_deals=8 if args.smoke else 1000,
        progress=not args.smoke,
        log_every=1 if args.smoke else 5,
        **budget,
    )
    print(result)


if __name__ == "__main__":
    main()
