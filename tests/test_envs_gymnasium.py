"""The Gymnasium environments (diabolo.envs.gymnasium): Gymnasium's own env_checker over
every game and several player counts, registration for gymnasium.make, seeding, the
action mask, and the two illegal-action rules."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason='the Gymnasium tests need pip install "diabolo[gymnasium]"')

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.gymnasium import DiaboloEnv, DiaboloVectorEnv, register  # noqa: E402
from tests.transcripts import KNIZIA_WORDS  # noqa: E402

WORDS = diabolo.Lexicon.from_words(KNIZIA_WORDS)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("schacht", {"players": 3, "opponents": "heuristic"}),
        ("schacht", {"players": 5, "opponents": "random", "seat": 4}),
        ("duvelen", {"players": 2, "opponents": "greedy"}),
        ("duvelen", {"players": 4, "opponents": "lookahead", "seat": 2}),
        ("knizia", {"players": 3, "opponents": "random", "lexicon": WORDS}),
        ("knizia", {"players": 3, "opponents": "word", "lexicon": "de", "claims": 32}),
    ],
    ids=lambda value: (
        value if isinstance(value, str) else f"{value['players']}p" + ("-claims" if "claims" in value else "")
    ),
)
def test_gymnasium_check_env_passes(game: str, options: dict[str, Any]) -> None:
    """Made through gymnasium.make, so that the checker also tries the render modes."""
    register()
    env = gymnasium.make(f"diabolo/{game.capitalize()}-v0", **options)
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_envs_play_whole_games_with_the_mask() -> None:
    register()
    env = gymnasium.make("diabolo/Schacht-v0", players=4, opponents="heuristic", render_mode="ansi")
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(1)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            break
    assert terminated and steps > 10
    assert "rows" in str(env.render()).lower() or env.render()


def test_the_same_seed_gives_the_same_game_and_reset_without_a_seed_deals_anew() -> None:
    def trajectory(env: DiaboloEnv, seed: int | None) -> list[Any]:
        observation, info = env.reset(seed=seed)
        seen = [observation]
        for _ in range(15):
            observation, *_rest, info = env.step(int(info["action_mask"].argmax()))
            seen.append(observation)
        return seen

    first = DiaboloEnv("duvelen", players=3, opponents="greedy")
    second = DiaboloEnv("duvelen", players=3, opponents="greedy")
    a, b = trajectory(first, 5), trajectory(second, 5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = trajectory(first, None)  # the next deal after seed 5
    assert not np.array_equal(a[0], c[0])


def test_an_illegal_action_is_penalised_by_default_or_raises() -> None:
    env = DiaboloEnv("schacht", players=3, penalty=-4.0)
    observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -4.0 and np.array_equal(again, observation) and not terminated
    assert np.array_equal(env.action_masks(), info["action_mask"])
    strict = DiaboloEnv("schacht", players=3, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(diabolo.IllegalMoveError):
        strict.step(illegal)
    for wrong in (-1, 77, 1.5, None):
        with pytest.raises(diabolo.OptionError):
            strict.step(wrong)


def test_importing_the_module_registers_the_games() -> None:
    """gymnasium.make works after the import alone (gymnasium.register_envs' convention);
    in a new process, since this one has registered them already."""
    code = (
        "import gymnasium, diabolo.envs.gymnasium\n"
        "gymnasium.register_envs(diabolo.envs.gymnasium)\n"
        "print(gymnasium.make('diabolo/Schacht-v0', players=3).action_space)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "Discrete(77)", result.stdout + result.stderr


def test_the_mask_is_one_int8_array_that_action_space_sample_takes() -> None:
    env = DiaboloEnv("duvelen", players=2, opponents="greedy")
    _, info = env.reset(seed=4)
    for _ in range(30):
        mask = env.action_masks()
        assert mask.dtype == info["action_mask"].dtype == np.int8 and np.array_equal(mask, info["action_mask"])
        action = env.action_space.sample(mask=mask)
        assert mask[action] == 1
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


def test_reset_and_step_give_the_same_info_keys() -> None:
    env = DiaboloEnv("knizia", players=2, lexicon=WORDS)
    _, info = env.reset(seed=1)
    _, _, _, _, after = env.step(int(info["action_mask"].argmax()))
    assert set(info) == set(after) == {"action_mask", "seat", "lost_race"}
    assert info["lost_race"] is False


def test_seat_none_puts_the_learner_in_each_seat_in_turn() -> None:
    """Each reset built a new one-game env at its episode 0: the learner was always seat 0.
    Episode e is the deal of the fixed-seat envs' episode e, seen from seat e % players."""
    rotating = DiaboloEnv("schacht", players=3, opponents="heuristic", seat=None)
    fixed = [DiaboloEnv("schacht", players=3, opponents="heuristic", seat=seat) for seat in range(3)]
    seats = []
    for episode in range(6):
        observation, info = rotating.reset(seed=9) if episode == 0 else rotating.reset()
        views = [env.reset(seed=9)[0] if episode == 0 else env.reset()[0] for env in fixed]
        seats.append(info["seat"])
        assert np.array_equal(observation, views[info["seat"]])
    assert seats == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(("game", "options"), [("schacht", {"players": 3}), ("duvelen", {"players": 2})])
def test_make_vec_gives_the_engines_vector_env_behind_gymnasiums_interface(game: str, options: dict[str, Any]) -> None:
    """gymnasium.make_vec uses the vector entry point: the games step in C++, and each
    step's arrays are those of game.vector_env with the same seed and actions."""
    envs = gymnasium.make_vec(f"diabolo/{game.capitalize()}-v0", num_envs=6, opponents="random", **options)
    assert isinstance(envs, DiaboloVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert envs.observation_space.shape == (6, *envs.game.observation_tensor_shape)
    engine = diabolo.load(game, **options).vector_env(
        6, opponents="random", illegal="penalise", seed=diabolo.derive_seed(7, 0)
    )
    observations, info = envs.reset(seed=7)
    expected, masks = engine.reset()
    assert np.array_equal(observations, expected) and np.array_equal(info["action_mask"], masks)
    envs.single_action_space.seed(3)
    for _ in range(120):
        actions = np.array([envs.single_action_space.sample(mask=mask) for mask in info["action_mask"]])
        observations, rewards, terminated, truncated, info = envs.step(actions)
        expected, masks, expected_rewards, expected_terminated, expected_truncated = engine.step(actions)
        assert np.array_equal(observations, expected) and np.array_equal(rewards, expected_rewards)
        assert np.array_equal(terminated, expected_terminated) and np.array_equal(truncated, expected_truncated)
        assert info["action_mask"].dtype == np.int8 and np.array_equal(info["action_mask"], masks)
        assert set(info) == {"action_mask", "_action_mask", "seat", "_seat", "lost_race", "_lost_race"}


def test_the_step_after_an_end_starts_the_next_deal_next_step_autoreset() -> None:
    envs = DiaboloVectorEnv("schacht", num_envs=4, players=3, opponents="heuristic", seat=None)
    _, info = envs.reset(seed=2)
    ended = np.zeros(4, dtype=bool)
    seen_restart = 0
    for _ in range(300):
        _, rewards, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))
        restarted = ended
        assert np.all(rewards[restarted] == 0) and not np.any(terminated[restarted] | truncated[restarted])
        seen_restart += int(restarted.sum())
        ended = terminated | truncated
    assert seen_restart >= 8
    assert set(info["seat"].tolist()) != {0}  # seat=None: later episodes put the learner elsewhere


def test_a_vector_env_reset_is_seeded_by_one_seed_and_wrappers_work() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    first, second = (DiaboloVectorEnv("duvelen", num_envs=3, players=2, opponents="greedy") for _ in range(2))
    a, b = first.reset(seed=11)[0], second.reset(seed=11)[0]
    assert np.array_equal(a, b) and not np.array_equal(first.reset()[0], a)  # the next deals
    with pytest.raises(diabolo.OptionError, match="one seed"):
        first.reset(seed=[1, 2, 3])
    recorded = RecordEpisodeStatistics(DiaboloVectorEnv("schacht", num_envs=2, players=3, opponents="random"))
    _, info = recorded.reset(seed=5)
    totals = np.zeros(2)
    for _ in range(200):
        _, rewards, terminated, truncated, info = recorded.step(info["action_mask"].argmax(axis=1))
        totals += rewards
        if "episode" in info:
            done = info["_episode"]
            assert np.allclose(info["episode"]["r"][done], totals[done])
            break
    else:
        raise AssertionError("no episode ended in 200 steps")
