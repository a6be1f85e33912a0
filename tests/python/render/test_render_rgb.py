"""rgb_array and human render modes of the Gymnasium and PettingZoo envs, and the standard
tools that need them: SB3's make_vec_env on a registered id, Gymnasium's RecordVideo."""

import os

import gymnasium
import numpy as np
import pytest

import eights
from eights.render.rgb import frame_shape

pytest.importorskip("PIL")


def _play(env, steps, seed=0):
    env.reset(seed=seed)
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(env.unwrapped.action_space.sample())
        if term or trunc:
            env.reset()


def test_rgb_array_frame_shape_and_content():
    env = eights.make("switch_blackjack", num_players=3, seed=4, render_mode="rgb_array")
    env.reset()
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.shape == frame_shape(3) and frame.shape[2] == 3
    # The table is drawn: felt green background, white card faces and dark text.
    assert (frame == 255).all(axis=2).sum() > 2000  # card faces of the learner's hand
    felt = np.array([22, 102, 56], dtype=np.uint8)
    assert (frame == felt).all(axis=2).mean() > 0.2
    # Every frame of an episode has the same shape; the picture changes as the game goes.
    shapes = set()
    frames = [frame]
    for _ in range(10):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        frames.append(env.render())
        shapes.add(frames[-1].shape)
        if term or trunc:
            break
    assert shapes == {frame.shape}
    assert any(not np.array_equal(frames[0], f) for f in frames[1:])


def test_rgb_array_hides_other_hands():
    # From the learner's seat the opponents' cards are backs: the picture of two deals
    # that differ only in the opponent's hand is the same in the opponent's row.
    env = eights.make("crazy_eights", num_players=2, seed=0, render_mode="rgb_array")
    env.reset()
    frame = env.render()
    h = frame_shape(2)[0]
    assert h == frame.shape[0]
    back_blue = np.array([42, 92, 154], dtype=np.uint8)
    rows = (frame == back_blue).all(axis=2).any(axis=1)
    assert rows.any()  # card backs are drawn for the other seat


def test_human_mode_prints_the_table(capsys):
    env = eights.make("crazy_eights", num_players=2, seed=0, render_mode="human")
    env.reset()
    out = capsys.readouterr().out
    assert "crazy_eights" in out and "Top:" in out
    env.step(env.action_space.sample())
    assert "Last actions" in capsys.readouterr().out
    assert env.render() is None


def test_unsupported_render_mode_lists_the_supported_ones():
    with pytest.raises(ValueError, match="'ansi', 'html', 'rgb_array', 'human'"):
        eights.make("crazy_eights", render_mode="rgb")
    with pytest.raises(ValueError, match="rgb_array"):
        gymnasium.make("eights/crazy_eights-v1", render_mode="video")


def test_pettingzoo_rgb_array_and_human(capsys):
    pytest.importorskip("pettingzoo")
    from eights.envs.pettingzoo import env as make_env

    env = make_env("crazy_eights", 3, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == frame_shape(3) and frame.dtype == np.uint8
    env = make_env("crazy_eights", 2, render_mode="human")
    env.reset(seed=0)
    assert "player_0" in capsys.readouterr().out


def test_sb3_make_vec_env_on_registered_ids():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    for env_id in ("eights/crazy_eights-v1", "eights/switch_blackjack-v1"):
        venv = make_vec_env(env_id, n_envs=2, seed=0)  # SB3 passes render_mode="rgb_array"
        obs = venv.reset()
        assert obs.shape == (2, eights.OBS_SIZE)
        masks = np.stack(venv.env_method("action_masks"))
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.shape == (2, eights.OBS_SIZE)
        images = venv.get_images()
        assert images[0].shape == frame_shape(2)
        venv.close()


def test_record_video_writes_frames(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make("eights/crazy_eights-v1", render_mode="rgb_array")
    # A clip of the first 8 frames of the first episode (keeps the test short).
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: e == 0, video_length=8, disable_logger=True)
    env.reset(seed=0)
    for _ in range(10):
        _, _, term, trunc, _ = env.step(env.unwrapped.action_space.sample())
        if term or trunc:
            env.reset()
    env.close()
    videos = [f for f in os.listdir(tmp_path) if f.endswith(".mp4")]
    assert videos, os.listdir(tmp_path)
    assert os.path.getsize(tmp_path / videos[0]) > 1000


def test_a_long_name_is_cut_to_the_longest_prefix_that_fits_in_few_measurements():
    # A 4,000-character rules name took 6.8 s a frame: the name was cut one character a
    # measurement. The cut is the same (the longest prefix that fits with "…") in a few.
    from PIL import Image, ImageDraw, ImageFont

    from eights.render.rgb import _fit

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    font = ImageFont.load_default()

    class Counting:
        calls = 0

        def textlength(self, text, font):
            Counting.calls += 1
            return draw.textlength(text, font=font)

    for text in ["short", "a name a little too long for its box", "x" * 4000, "Wij" * 500]:
        for width in (5.0, 40.0, 120.0):
            Counting.calls = 0
            cut = _fit(Counting(), text, font, width)
            if draw.textlength(text, font=font) <= width:
                assert cut == text
            else:  # the prefix kept fits with its "…" (or is empty), one character more does not
                k = len(cut) - 1
                assert cut == text[:k] + "…"
                assert k == 0 or draw.textlength(text[:k] + "…", font=font) <= width
                assert draw.textlength(text[: k + 1] + "…", font=font) > width, (text[:20], width)
            assert Counting.calls <= 2 + len(text).bit_length()
