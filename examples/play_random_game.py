"""Play one seeded game of Switch between random players and print the table each turn.

python examples/play_random_game.py
"""

import random

import eights


def main() -> None:
    game = eights.Game("switch_blackjack", num_players=3, seed=7)
    rng = random.Random(7)
    while not (game.is_terminal or game.is_truncated):
        player = game.current_player
        action = rng.choice(game.legal_actions())
        print(game.render())
        print(f"P{player} -> {game.action_to_string(action)}\n")
        game.step(action)
    print(game.render())
    print("returns:", game.returns())


if __name__ == "__main__":
    main()
