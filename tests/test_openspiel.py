"""diabolo.openspiel: the games registered with OpenSpiel pass OpenSpiel's own random
simulation test (with serialisation) and run its Python algorithms: MCTS, ISMCTS with the
engine's resampling, evaluate_bots and rl_environment."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random

import diabolo
import diabolo.openspiel
from diabolo.openspiel import DEALS, DiaboloState

WORDS = ["TOR", "ROT", "ORT", "TORE", "REST", "RAST", "RATE", "STERN", "NEST", "ERNST", "NASE", "RASEN"]


@pytest.fixture(scope="module")
def word_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("words") / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path


GAMES = [
    "diabolo_schacht(players=3)",
    "diabolo_schacht(players=4)",
    "diabolo_schacht(players=5,rounds=2)",
    "diabolo_schacht(players=2,strict_players=False,rounds=1)",
    "diabolo_duvelen(players=2,max_actions=1500)",
    "diabolo_duvelen(players=5,max_actions=1500,seed=3)",
    "diabolo_knizia(players=2,rounds=1,lexicon={words})",
    "diabolo_knizia(players=4,rounds=1,lexicon={words},idle_limit=3)",
]


@pytest.mark.parametrize("spec", GAMES)
def test_openspiel_random_simulation_test_passes(spec: str, word_file: Path) -> None:
    """OpenSpiel's random_sim_test: legal actions sorted and empty for the others, clones
    equal, serialisation round trips, returns within the game's bounds, game length within
    max_game_length."""
    game = pyspiel.load_game(spec.format(words=word_file))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_deal_is_the_engine_game_of_its_seed() -> None:
    """Deal ``o`` is the engine's game of seed derive_seed(seed, o), and Schacht's moves are
    the engine's moves: replaying them on the engine gives the same state."""
    game = pyspiel.load_game("diabolo_schacht(players=4,seed=11)")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == DEALS
    state.apply_action(4321)
    engine = diabolo.load("schacht", players=4).new_state(seed=diabolo.derive_seed(11, 4321))
    choices = random.Random(2)
    while not state.is_terminal():
        seat, action = state.current_player(), choices.choice(state.legal_actions())
        assert state.legal_actions() == engine.legal_actions(seat)
        state.apply_action(action)
        engine.apply(action, player=seat)
        assert state.engine is not None and state.engine.to_json() == engine.to_json()
    assert state.returns() == [float(score) for score in engine.scores]


def test_a_real_time_step_applies_every_move_and_a_lost_race_changes_nothing() -> None:
    game = pyspiel.load_game("diabolo_duvelen(players=3)")
    wait = game.num_distinct_actions() - 1
    state = game.new_initial_state()
    state.apply_action(5)
    assert state.is_simultaneous_node()
    assert all(state.legal_actions(seat)[-1] == wait for seat in range(3))
    version = _engine(state).version
    state.apply_actions([wait, wait, wait])
    assert _engine(state).version == version
    for _ in range(500):
        race = _race(_engine(state), wait)
        if race:  # seat 0's move makes seat 1's illegal: whichever arrives second lost
            before = _engine(state).version
            state.apply_actions([race[0], race[1], wait])
            assert _engine(state).version == before + 1
            return
        moves = [a for a in state.legal_actions(0) if a != wait]
        state.apply_actions([moves[0] if moves else wait, wait, wait])
    pytest.fail("no race between seats 0 and 1 in 500 steps")


def _race(engine: Any, wait: int) -> tuple[int, int] | None:
    """A move of seat 0 and one of seat 1 such that each makes the other illegal, if any."""
    for first in engine.legal_actions(0):
        after_first = engine.clone()
        after_first.apply(first, player=0)
        for second in engine.legal_actions(1):
            after_second = engine.clone()
            after_second.apply(second, player=1)
            if not after_first.legal_action_mask(1)[second] and not after_second.legal_action_mask(0)[first]:
                return first, second
    return None


def test_an_illegal_simultaneous_move_raises_and_changes_nothing() -> None:
    game = pyspiel.load_game("diabolo_duvelen(players=2)")
    wait = game.num_distinct_actions() - 1
    state = game.new_initial_state()
    state.apply_action(1)
    before = _engine(state).to_json()
    legal = state.legal_actions(1)[0]
    illegal = next(action for action in range(wait) if action not in state.legal_actions(0))
    with pytest.raises(diabolo.IllegalMoveError):
        state.apply_actions([illegal, legal])
    with pytest.raises(diabolo.OptionError, match="one action per seat"):
        state.apply_actions([wait])
    assert _engine(state).to_json() == before


def test_idle_steps_end_a_real_time_game_with_the_scores_so_far() -> None:
    game = pyspiel.load_game("diabolo_duvelen(players=2,idle_limit=4)")
    state = game.new_initial_state()
    state.apply_action(1)
    wait = game.num_distinct_actions() - 1
    for _ in range(4):
        assert not state.is_terminal()
        state.apply_actions([wait, wait])
    assert state.is_terminal()
    assert state.returns() == [float(score) for score in _engine(state).scores]


def test_resampling_keeps_what_the_seat_knows_and_who_acts() -> None:
    """What ISMCTS needs: a resampled state has the same player to act and the same
    observation for the seat, also during the doubler decisions taken in seat order."""
    game = pyspiel.load_game("diabolo_schacht(players=3)")
    resample = diabolo.openspiel.resampler(seed=4)
    choices = random.Random(3)
    doubler_seen = hidden_changed = 0
    for deal in range(3):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            seat = state.current_player()
            sampled = resample(state, seat)
            assert sampled.current_player() == seat
            assert sampled.observation_string(seat) == state.observation_string(seat)
            assert sampled.history() == state.history()
            doubler_seen += _engine(state).phase == "doubler"
            hidden_changed += json.loads(_engine(sampled).to_json()) != json.loads(_engine(state).to_json())
            state.apply_action(choices.choice(state.legal_actions()))
    assert doubler_seen > 0 and hidden_changed > 0


class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel 2.0.2's ISMCTS bot lacks restart_at, which evaluate_bots calls."""

    def restart_at(self, state: DiaboloState) -> None:
        self.reset()


def test_mcts_and_ismcts_play_schacht_through_evaluate_bots() -> None:
    game = pyspiel.load_game("diabolo_schacht(players=3,rounds=1)")
    rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    searcher = _ISMCTSBot(game, rollouts, 2.0, 20, random_state=np.random.RandomState(2), use_observation_string=True)
    searcher.set_resampler(diabolo.openspiel.resampler(seed=1))
    bots = [
        mcts.MCTSBot(game, 2.0, 20, rollouts, random_state=np.random.RandomState(1)),
        searcher,
        uniform_random.UniformRandomBot(2, np.random.RandomState(3)),
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(4))
    assert state.is_terminal() and returns == state.returns()
    assert returns == [float(score) for score in _engine(state).scores]
    assert all(game.min_utility() <= value <= game.max_utility() for value in returns)


def test_evaluate_bots_plays_a_real_time_game() -> None:
    game = pyspiel.load_game("diabolo_duvelen(players=3,max_actions=1500)")
    bots = [uniform_random.UniformRandomBot(seat, np.random.RandomState(seat)) for seat in range(3)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(4))
    assert state.is_terminal() and len(returns) == 3


@pytest.mark.parametrize("spec", ["diabolo_schacht(players=4)", "diabolo_duvelen(players=2,max_actions=1500)"])
def test_rl_environment_runs_with_observation_tensors(spec: str) -> None:
    game = pyspiel.load_game(spec)
    environment = rl_environment.Environment(game, seed=3)
    size = game.observation_tensor_size()
    step = environment.reset()
    choices = np.random.RandomState(0)
    totals = np.zeros(game.num_players())
    while not step.last():
        assert all(len(step.observations["info_state"][seat]) == size for seat in range(game.num_players()))
        if environment.is_turn_based:
            seat = step.observations["current_player"]
            actions = [choices.choice(step.observations["legal_actions"][seat])]
        else:
            actions = [choices.choice(step.observations["legal_actions"][seat]) for seat in range(game.num_players())]
        step = environment.step(actions)
        totals += step.rewards
    assert list(totals) == environment.get_state.returns()


@pytest.mark.parametrize(
    ("spec", "names"),
    [
        ("diabolo_schacht(players=1)", "players must be 3..5"),
        ("diabolo_duvelen(idle_limit=0)", "idle_limit"),
        ("diabolo_duvelen(max_steps=-2)", "max_steps"),
        ("diabolo_knizia(lexicon=xx)", "'xx'"),
    ],
)
def test_bad_parameters_name_what_is_wrong(spec: str, names: str) -> None:
    with pytest.raises(diabolo.DiaboloError, match=names):
        pyspiel.load_game(spec)


def test_an_unknown_parameter_is_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="Available parameters are: players, rounds"):
        pyspiel.load_game("diabolo_schacht(colour=1)")


def _engine(state: Any) -> Any:
    assert state.engine is not None
    return state.engine
