"""Draw the figures of the README and the documentation again, each from the one command that
makes it, so a chart never drifts from the code (``docs/figures/``).

    python scripts/figures.py --list            # every figure and its command
    python scripts/figures.py                   # draw the arena charts (a few minutes on 2 cores)
    python scripts/figures.py ratings_crazy_eights.svg

The crazy_eights ratings chart of the README's opening and the documentation's home page is
the README's main job (``eights arena ... --agents random,heuristic,ismcts:400,net --games
1000``).  The PPO learning curve comes from a 30-minute training run and is listed with its
command, but drawn only when named, as are the screenshots of ``eights serve`` (they need a
Chromium: ``python scripts/figures.py serve_play.png``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

FIGURES_DIR = Path(__file__).resolve().parents[1] / "docs" / "figures"

ARENA = [sys.executable, "-m", "eights", "arena", "--players", "2"]

#: Figure file -> the command that draws it (its output path is appended).
FIGURES: Dict[str, List[str]] = {
    "ratings_crazy_eights.svg": ARENA
    + ["--preset", "crazy_eights", "--agents", "random,heuristic,ismcts:400,net", "--games", "1000", "--plot"],
    "ratings_net_crazy_eights.svg": ARENA
    + [
        "--preset",
        "crazy_eights",
        "--agents",
        "random,heuristic,ismcts:400,ismcts:1000,net",
        "--games",
        "500",
        "--plot",
    ],
    "ratings_crazy_eights_specials.svg": ARENA
    + ["--preset", "crazy_eights_specials", "--agents", "random,heuristic,ismcts:1000", "--games", "500", "--plot"],
    "ratings_switch_blackjack.svg": ARENA
    + ["--preset", "switch_blackjack", "--agents", "random,heuristic,ismcts:1000", "--games", "500", "--plot"],
    # The 30-minute run of docs/tutorials/training.md with the defaults (seed 1); needs the train extra.
    "ppo_learning_curve.svg": [
        sys.executable,
        "-m",
        "eights",
        "train",
        "--seed",
        "1",
        "--minutes",
        "30",
        "--out",
        "runs/ppo",
        "--plot",
    ],
    # Sixteen best responses (docs/baselines.md, Exploitability; hours on 2 cores): the runs in
    # runs/exploit are resumed or skipped when done, then the table and this chart are drawn.
    "exploitability.svg": [sys.executable, "scripts/exploitability.py", "--plot"],
    # Seven PPO runs of 2 M learner decisions and their evaluations on the held-out rules
    # (docs/rules_agents_see.md, A measured baseline; about 45 minutes on 2 cores).
    "generalization_baseline.svg": [sys.executable, "scripts/generalization_baseline.py", "--plot"],
}
# Screenshots of `eights serve` (need the web extra, playwright, pillow and a Chromium).
for _name in ("serve_play.png", "serve_phone.png", "serve_watch.png", "serve_replay.png"):
    FIGURES[_name] = [sys.executable, "scripts/web_screenshots.py"]

#: Figures drawn only when named (long training runs, screenshots that need a browser).
ON_REQUEST = {
    "ppo_learning_curve.svg",
    "exploitability.svg",
    "generalization_baseline.svg",
    "serve_play.png",
    "serve_phone.png",
    "serve_watch.png",
    "serve_replay.png",
}


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="figure files to draw (default: every arena chart)")
    parser.add_argument("--list", action="store_true", help="print every figure and its command")
    args = parser.parse_args(argv)
    if args.list:
        for name, command in FIGURES.items():
            print(f"{name}: {' '.join(['python', *command[1:]])} docs/figures/{name}")
        return 0
    unknown = sorted(set(args.names) - set(FIGURES))
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}; known: {', '.join(FIGURES)}")
    names = args.names or [name for name in FIGURES if name not in ON_REQUEST]
    for name in names:
        command = FIGURES[name] + [str(FIGURES_DIR / name)]
        print("$", " ".join(command[1:]), flush=True)
        subprocess.run(command, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
