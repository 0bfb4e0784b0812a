"""The learning examples: a numpy policy trained through the vector env
(examples/policy_gradient.py) and MaskablePPO trained through the SB3 adapter
(examples/maskable_ppo.py) beat RandomBot clearly, and the figures they print come from
diabolo.match."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "policy_gradient.py"
MASKABLE_PPO = EXAMPLE.parent / "maskable_ppo.py"


def _load(path: Path) -> ModuleType:
    """An example script as a module."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _example() -> ModuleType:
    return _load(EXAMPLE)


def test_a_short_training_beats_random_bots_clearly() -> None:
    example = _example()
    training = example.train(players=3, games=64, updates=80, seed=1, report=40)
    assert training.steps == 80 * 32 * 64
    (_, early, _), (_, late, _) = training.curve
    assert late > early  # the games it plays while learning score more
    result = example.measure(training.policy, 3, "random", games=240, seed=101)
    policy = next(row for row in result.summary() if row.name == "linear policy")
    assert policy.win_interval[0] > 1 / 3  # above the share of a seat that plays at random
    assert result.summary()[0].name == "linear policy"


def test_the_untrained_policy_is_uniform_over_the_legal_actions() -> None:
    example = _example()
    policy = example.LinearPolicy(5, 4)
    masks = np.array([[True, False, True, True], [False, True, False, False]])
    probabilities = policy.probabilities(np.ones((2, 5), dtype=np.float32), masks)
    np.testing.assert_allclose(probabilities, np.array([[1 / 3, 0, 1 / 3, 1 / 3], [0, 1, 0, 0]]), rtol=1e-6)
    draws = example.sample(np.repeat(probabilities[:1], 3000, axis=0), np.random.default_rng(0))
    assert set(np.unique(draws)) == {0, 2, 3}


def test_maskable_ppo_through_the_sb3_adapter_beats_random_bots_clearly() -> None:
    """examples/maskable_ppo.py: a short training through DiaboloVecEnv already wins more
    than a random seat's share against three random bots."""
    pytest.importorskip("sb3_contrib", reason='the MaskablePPO example needs pip install "diabolo[sb3]"')
    example = _load(MASKABLE_PPO)
    training = example.train(players=4, games=64, steps=65_536, seed=1)
    assert training.steps >= 65_536 and 0 < training.rollout_seconds < training.seconds
    result = example.measure(training.model, 4, "random", games=200, seed=101)
    policy = next(row for row in result.summary() if row.name == "MaskablePPO")
    assert policy.win_interval[0] > 1 / 4


TRAIN_LEARNED = EXAMPLE.parent / "train_learned.py"


@pytest.mark.usefixtures("ray_cluster")
def test_training_the_learned_bot_gives_the_same_weights_on_ray_and_in_one_process() -> None:
    """examples/train_learned.py: a short run moves the weights from the start, and the
    games, noise and updates are the same whether Ray tasks or this process play them."""
    example = _load(TRAIN_LEARNED)
    settings = {"iterations": 2, "pairs": 2, "games": 200, "eval_games": 400, "report": 1, "log": lambda _: None}
    here, here_curve = example.train(example.local(2), **settings)
    there, there_curve = example.train(example.on_ray(None), **settings)
    assert np.array_equal(here, there)
    assert [share for _, share, _ in here_curve] == [share for _, share, _ in there_curve]
    assert not np.array_equal(here, example.START)


def test_the_learned_bot_starts_as_the_heuristic_and_its_weights_are_written_into_the_engine() -> None:
    example = _load(TRAIN_LEARNED)
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
