"""A masked random agent in the Gymnasium environment against built-in random opponents.

python examples/gym_random_agent.py
"""

import numpy as np

import eights


def main(episodes: int = 200) -> None:
    env = eights.make("crazy_eights_specials", num_players=3, opponents="random", seed=0)
    rng = np.random.default_rng(0)
    total = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        total += reward
    print(f"{episodes} episodes, mean win/loss reward of the learner: {total / episodes:+.3f}")


if __name__ == "__main__":
    main()
