"""The learning examples' code paths, each on a budget of a few seconds: a numpy policy
trained through the vector env (examples/policy_gradient.py), MaskablePPO through the SB3
adapter (examples/maskable_ppo.py) and the learned bot's evolution strategies, in one
process and on Ray (examples/train_learned.py). Each trains, its parameters move from
their start, and what it reports comes from diabolo.match. How well they learn is what
the examples print when run (docs/ai.rst and docs/strength.rst quote their runs), not
something a test proves again."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import diabolo
from tests.example_helpers import load_example


def _example() -> ModuleType:
    return load_example("policy_gradient")


def test_a_few_updates_move_the_policy_and_its_values_and_it_plays_a_match() -> None:
    """Eight updates of 16 games: the steps and the curve are as asked, the policy and the
    value function leave their start (zeros: uniform over the legal actions, value 0), and
    the policy plays a seat-rotated match as a bot."""
    example = _example()
    training = example.train(players=3, games=16, updates=8, seed=1, report=4)
    assert training.steps == 8 * 32 * 16
    assert [update for update, _, _ in training.curve] == [4, 8]
    assert all(count > 0 for _, _, count in training.curve)  # games ended and were scored
    policy = training.policy
    assert np.abs(policy.weights).sum() > 0 and np.abs(policy.value_weights).sum() > 0
    observations, masks = diabolo.load("schacht", players=3).vector_env(4, seed=5).reset()
    moved = policy.probabilities(observations.astype(np.float32), masks.astype(bool))
    uniform = masks / masks.sum(axis=1, keepdims=True)
    assert not np.allclose(moved, uniform, atol=1e-4)
    result = example.measure(policy, 3, "random", games=6, seed=101)
    assert sorted(row.name for row in result.summary()) == ["linear policy", "random", "random#2"]
    assert result.scores.shape == (6, 3)


def test_the_untrained_policy_is_uniform_over_the_legal_actions() -> None:
    example = _example()
    policy = example.LinearPolicy(5, 4)
    masks = np.array([[True, False, True, True], [False, True, False, False]])
    probabilities = policy.probabilities(np.ones((2, 5), dtype=np.float32), masks)
    np.testing.assert_allclose(probabilities, np.array([[1 / 3, 0, 1 / 3, 1 / 3], [0, 1, 0, 0]]), rtol=1e-6)
    draws = example.sample(np.repeat(probabilities[:1], 3000, axis=0), np.random.default_rng(0))
    assert set(np.unique(draws)) == {0, 2, 3}


def test_maskable_ppo_through_the_sb3_adapter_trains_and_plays_a_match() -> None:
    """examples/maskable_ppo.py: one rollout and one update through DiaboloVecEnv move the
    network from its seeded start, the clocks add up, and the model plays as a bot."""
    pytest.importorskip("sb3_contrib", reason='the MaskablePPO example needs pip install "diabolo[sb3]"')
    import torch

    from diabolo.envs.sb3 import DiaboloVecEnv

    example = load_example("maskable_ppo")
    training = example.train(players=4, games=16, steps=1, seed=1)
    assert training.steps == 8192 and 0 < training.rollout_seconds < training.seconds  # one rollout of the example's
    start = example.model_for(DiaboloVecEnv("schacht", num_envs=16, players=4, opponents="random", seat=None), 1)
    pairs = zip(start.policy.parameters(), training.model.policy.parameters())
    assert any(not torch.equal(before, after) for before, after in pairs)
    result = example.measure(training.model, 4, "random", games=4, seed=101)
    assert "MaskablePPO" in [row.name for row in result.summary()] and result.scores.shape == (4, 4)


def test_a_time_limit_shorter_than_one_rollout_still_measures_it() -> None:
    """A wall-time limit that ends training inside its first rollout (a slow machine)
    still counts that rollout's steps and seconds: benchmarks/sb3_rollout.py divides one
    by the other."""
    pytest.importorskip("sb3_contrib", reason='the MaskablePPO example needs pip install "diabolo[sb3]"')
    example = load_example("maskable_ppo")
    training = example.train(players=4, games=16, seconds=0.0, seed=1)
    assert 0 < training.steps < 8192 and 0 < training.rollout_seconds <= training.seconds


@pytest.mark.usefixtures("ray_cluster")
def test_training_the_learned_bot_gives_the_same_weights_on_ray_and_in_one_process() -> None:
    """examples/train_learned.py: a short run moves the weights from the start, and the
    games, noise and updates are the same whether Ray tasks or this process play them."""
    example = load_example("train_learned")
    # 90 games a run: an update from two pairs of directions over 10 deals, two evaluations of 5
    settings = {"iterations": 1, "pairs": 2, "games": 10, "eval_games": 5, "report": 1, "log": lambda _: None}
    here, here_curve = example.train(example.local(2), **settings)
    there, there_curve = example.train(example.on_ray(None), **settings)
    assert np.array_equal(here, there)
    assert [share for _, share, _ in here_curve] == [share for _, share, _ in there_curve]
    assert not np.array_equal(here, example.START)


def test_the_learned_bot_starts_as_the_heuristic_and_its_weights_are_written_into_the_engine() -> None:
    example = load_example("train_learned")
    import diabolo
    from diabolo.schacht import HeuristicBot, LearnedBot

    # The start weights make the heuristic's own choices in a 4-player game.
    game = diabolo.load("schacht", players=4)
    start, heuristic, same, decisions = LearnedBot(weights=example.START), HeuristicBot(), 0, 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.pending_seats[0]
            move = heuristic.choose(state, seat)
            same += start.choose(state, seat) == move
            decisions += 1
            state.apply(move, player=seat)
    assert same >= decisions - 2, (same, decisions)  # float32 features may split a near tie
    source = example.SOURCE.read_text()
    written = example.write_weights(source, np.arange(17) / 8)
    assert "const LearnedWeights kLearnedWeights{0.0, 0.125, 0.25," in written
    for marker, keep in (("// BEGIN", slice(None, 1)), ("// END", slice(1, None))):  # the rest is unchanged
        assert written.split(marker)[keep] == source.split(marker)[keep]
    with pytest.raises(ValueError, match="no LEARNED WEIGHTS block"):
        example.write_weights("int x;", np.zeros(17))
