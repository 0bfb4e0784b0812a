"""The Stable-Baselines3 adapter (diabolo.envs.sb3): sb3-contrib's MaskablePPO trains
through it unmodified, SB3's own wrappers (VecMonitor, VecCheckNan) and checker accept
it, a game that ends starts its next deal in the same step with the episode's last
observation in the info, and make_vec_env works with SB3's defaults."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason='the SB3 tests need pip install "diabolo[sb3]"')

import gymnasium  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.gymnasium import DiaboloEnv  # noqa: E402
from diabolo.envs.sb3 import DiaboloVecEnv  # noqa: E402
from tests.transcripts import KNIZIA_WORDS  # noqa: E402

WORDS = diabolo.Lexicon.from_words(KNIZIA_WORDS)


def test_maskable_ppo_trains_through_the_adapter_unmodified() -> None:
    """MaskablePPO finds the masks through env_method("action_masks") and never plays an
    illegal action (illegal="raise": one would stop the step); VecMonitor counts the
    episodes SB3 sees end, and their returns are the learner's final scores."""
    env = VecMonitor(VecCheckNan(DiaboloVecEnv("schacht", num_envs=16, players=4, illegal="raise", reward="final")))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=1, seed=3, device="cpu")
    model.learn(2048)
    assert model.num_timesteps >= 2048
    assert model.ep_info_buffer is not None
    episodes = list(model.ep_info_buffer)
    assert episodes and all(float(e["r"]).is_integer() for e in episodes)
    observations = env.reset()
    assert isinstance(observations, np.ndarray)
    masks = np.stack(env.env_method("action_masks"))
    actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
    assert masks[np.arange(16), actions].all()


def test_env_method_gives_each_games_mask_as_its_own_view_does() -> None:
    """The masks MaskablePPO asks for every step come as rows of one array, for every game
    or the ones named, equal to what each game's own view (get_attr) answers."""
    env = DiaboloVecEnv("schacht", num_envs=5, players=3, seat=None)
    env.seed(4)
    env.reset()
    env.step(np.stack(env.env_method("action_masks")).argmax(axis=1))
    own = [method() for method in env.get_attr("action_masks")]
    assert np.array_equal(np.stack(env.env_method("action_masks")), np.stack(own))
    picked = env.env_method("action_masks", indices=[3, 1])
    assert [row.tolist() for row in picked] == [own[3].tolist(), own[1].tolist()]
    assert env.env_method("action_masks", indices=2)[0].tolist() == own[2].tolist()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("schacht", {"players": 3, "opponents": "heuristic", "seat": None}),
        ("duvelen", {"players": 2, "opponents": "greedy", "max_steps": 25}),
        ("knizia", {"players": 3, "lexicon": WORDS, "max_steps": 25, "observations": "uint8"}),
    ],
)
def test_an_ended_game_starts_its_next_deal_in_the_same_step(game: str, options: dict[str, Any]) -> None:
    """SB3's autoreset: on done, the observation is the next deal's first (what a fresh
    vector env of that episode shows), the info holds the last one, and
    TimeLimit.truncated says whether the game was cut short."""
    env = DiaboloVecEnv(game, num_envs=4, **options)
    env.seed(5)
    observations = env.reset()
    assert isinstance(observations, np.ndarray)
    assert observations.dtype == env.observation_space.dtype and env.observation_space.contains(observations[0])
    env.action_space.seed(2)
    seen = 0
    for _ in range(300):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.dtype == np.int8 and masks.any(axis=1).all()
        actions = np.array([env.action_space.sample(mask=row) for row in masks])
        seats = env.seats
        stepped, rewards, dones, infos = env.step(actions)
        rotation = 1 if "seat" in options and options["seat"] is None else 0  # seat=None: each seat in turn
        assert np.array_equal(env.seats, np.where(dones, (seats + rotation) % options["players"], seats))
        assert isinstance(stepped, np.ndarray)
        observations = stepped
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        for index in range(4):
            if not dones[index]:
                assert infos[index] == {}
                continue
            seen += 1
            last = infos[index]["terminal_observation"]
            assert last.shape == observations[index].shape and not np.array_equal(last, observations[index])
            assert isinstance(infos[index]["TimeLimit.truncated"], bool)
    assert seen >= 4


def test_the_same_seed_gives_the_same_games() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = DiaboloVecEnv("duvelen", num_envs=3, players=3, opponents="greedy")
        env.seed(seed)
        seen: list[Any] = [env.reset()]
        for _ in range(20):
            seen.append(env.step(np.stack(env.env_method("action_masks")).argmax(axis=1))[0])
        return [np.asarray(observations) for observations in seen]

    assert all(np.array_equal(a, b) for a, b in zip(run(7), run(7)))
    assert not np.array_equal(run(7)[0], run(8)[0])


def test_sb3_check_env_passes_on_the_one_game_env() -> None:
    """SB3's own checker over the Gymnasium env it would wrap in a DummyVecEnv."""
    check_env(DiaboloEnv("schacht", players=4, opponents="heuristic"), warn=True)
    check_env(DiaboloEnv("knizia", players=2, lexicon=WORDS), warn=True)


def test_make_vec_env_works_with_sb3_defaults() -> None:
    """make_vec_env asks for render_mode="rgb_array" and wraps each env in a Monitor:
    the table is drawn as an image, and MaskablePPO trains on the result."""
    import diabolo.envs.gymnasium  # noqa: F401  (registers the ids)

    env = make_vec_env("diabolo/Schacht-v0", n_envs=2, seed=1, env_kwargs={"players": 3})
    env.reset()
    image = env.render()
    assert image is not None and image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.std() > 10  # text, not a blank
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=1, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64


def test_rendering_draws_each_table() -> None:
    env = DiaboloVecEnv("knizia", num_envs=2, players=2, lexicon=WORDS, render_mode="rgb_array")
    env.reset()
    images = env.get_images()
    assert len(images) == 2 and all(image is not None and image.shape[2] == 3 for image in images)
    image = env.render()
    assert image is not None and image.shape[2] == 3
    text = DiaboloVecEnv("knizia", num_envs=2, players=2, lexicon=WORDS, render_mode="ansi")
    text.reset()
    assert "table" in text.env_method("render", indices=[1])[0]


def test_bad_settings_and_calls_are_refused() -> None:
    with pytest.raises(diabolo.OptionError, match="render_mode"):
        DiaboloVecEnv("schacht", num_envs=2, render_mode="human")
    with pytest.raises(diabolo.OptionError, match="observations"):
        DiaboloVecEnv("schacht", num_envs=2, observations="float16")
    env = DiaboloVecEnv("schacht", num_envs=2, players=3)
    env.reset()
    with pytest.raises(diabolo.OptionError, match="share their settings"):
        env.set_attr("seat", 1)
    with pytest.raises(diabolo.OptionError, match="rgb_array"):
        env.get_images()
    with pytest.raises(AttributeError):
        env.get_attr("no_such_thing")
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False, False]
    assert env.get_attr("render_mode", indices=0) == [None]


def test_maskable_ppo_learns_the_word_game_with_the_german_list_through_compact_claims() -> None:
    """claims=16: an action space of the first claim's id + 16 instead of one per word of
    the 356,110 of the German list, so that MaskablePPO's network and masks stay small."""
    env = DiaboloVecEnv("knizia", num_envs=8, players=3, lexicon="de", opponents="word", claims=16, max_steps=200)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete) and env.action_space.n < 200
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=128, n_epochs=1, seed=2, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512
