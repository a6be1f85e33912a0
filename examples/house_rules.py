"""Load a house-rules game from a TOML file, print its rules in words and play it.

    python examples/house_rules.py [path/to/rules.toml]

The file (by default examples/house_rules.toml) is ``inherits = "<preset>"`` plus the
settings that differ; see docs/presets.md for the presets and their fields.
"""

import random
import sys
from pathlib import Path

import eights


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("house_rules.toml")
    rules = eights.Rules.from_toml(path)
    print(rules.describe())

    game = eights.Game(rules, num_players=3, seed=0)
    rng = random.Random(0)
    while not (game.is_terminal or game.is_truncated):
        game.step(rng.choice(game.legal_actions()))
    print(game.render())
    winner = "nobody" if game.winner is None else f"P{game.winner}"
    print(f"{game.hands_played} hand(s) played; scores {game.scores}; winner: {winner}")


if __name__ == "__main__":
    main()
