"""The PettingZoo environments (diabolo.envs.pettingzoo): PettingZoo's own checks
(api_test, seed_test, parallel_api_test, parallel_seed_test) for several player counts of
every game, then the choices of diabolo.envs one by one: rewards that add up to the final
scores, the two illegal-action rules, the doubler decisions in seat order and in secret,
arrival order and lost races in real time, the ends, seeding and bad options."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason='the PettingZoo tests need pip install "diabolo[pettingzoo]"')

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.pettingzoo import DiaboloAECEnv, DiaboloParallelEnv, aec_env, parallel_env  # noqa: E402
from tests.transcripts import KNIZIA_WORDS  # noqa: E402

WORDS = diabolo.Lexicon.from_words(KNIZIA_WORDS)
"""A small word list: a Knizia game has an action for each word (the German list: 356,109)."""

CLASSIC_FORM_WARNINGS = (
    # PettingZoo's checks warn of a dict observation, except for a list of PettingZoo's own
    # games: the form action_mask="observation" gives, as PettingZoo's classic games have it
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)

GAMES = [
    ("schacht", {"players": 3}),
    ("schacht", {"players": 4}),
    ("schacht", {"players": 5}),
    ("duvelen", {"players": 2}),
    ("duvelen", {"players": 3}),
    ("duvelen", {"players": 6}),
    ("knizia", {"players": 2, "lexicon": WORDS}),
    ("knizia", {"players": 4, "lexicon": WORDS}),
    ("knizia", {"players": 3, "lexicon": "de"}),
    ("knizia", {"players": 3, "lexicon": "de", "claims": 16}),
]
REAL_TIME = [(game, options) for game, options in GAMES if game != "schacht"]


def ids(case: tuple[str, dict[str, Any]]) -> str:
    game, options = case
    name = f"{game}-{options['players']}p" + ("-de" if options.get("lexicon") == "de" else "")
    return name + (f"-claims{options['claims']}" if "claims" in options else "")


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_pettingzoo_api_test_and_seed_test_pass_without_a_warning(case: tuple[str, dict[str, Any]]) -> None:
    """With the defaults (the mask in the info, illegal actions penalised), and any
    warning an error."""
    game, options = case
    api_test(aec_env(game, **options), num_cycles=400)
    seed_test(lambda: aec_env(game, **options), num_cycles=200)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("case", REAL_TIME, ids=ids)
def test_pettingzoo_parallel_api_test_and_parallel_seed_test_pass_without_a_warning(
    case: tuple[str, dict[str, Any]],
) -> None:
    """parallel_seed_test samples actions without the mask: with the defaults an illegal
    one changes nothing and costs the penalty."""
    game, options = case
    parallel_api_test(parallel_env(game, **options), num_cycles=400)
    parallel_seed_test(lambda: parallel_env(game, **options), num_cycles=200)


@pytest.mark.filterwarnings(*CLASSIC_FORM_WARNINGS)
@pytest.mark.parametrize("case", [GAMES[0], GAMES[3], GAMES[6]], ids=ids)
def test_the_classic_form_with_the_mask_in_the_observation_passes_pettingzoo_s_checks(
    case: tuple[str, dict[str, Any]],
) -> None:
    game, options = case
    api_test(aec_env(game, action_mask="observation", **options), num_cycles=200)
    seed_test(lambda: aec_env(game, action_mask="observation", **options), num_cycles=100)
    if game != "schacht":
        parallel_api_test(parallel_env(game, action_mask="observation", **options), num_cycles=200)
        parallel_seed_test(lambda: parallel_env(game, action_mask="observation", **options), num_cycles=100)


def play_aec(env: DiaboloAECEnv, seed: int, rng: random.Random) -> dict[str, float]:
    """A whole game of random legal actions; each agent's rewards summed."""
    env.reset(seed=seed)
    total = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter(100_000):
        _, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(list(np.flatnonzero(info["action_mask"])))))
    return total


@pytest.mark.parametrize("case", GAMES[:1] + GAMES[3:4] + GAMES[6:7], ids=ids)
def test_score_rewards_add_up_to_the_final_scores_and_final_rewards_are_them(case: tuple[str, dict[str, Any]]) -> None:
    game, options = case
    for seed in range(3):
        for reward in ("score", "final"):
            env = aec_env(game, reward=reward, idle_limit=1000, **options)
            total = play_aec(env, seed, random.Random(seed))
            state = env.state_now
            assert state.is_terminal
            assert [total[agent] for agent in env.possible_agents] == state.returns()


def test_an_illegal_action_raises_the_rule_and_changes_nothing_when_asked_to() -> None:
    env = aec_env("schacht", players=3, illegal="raise")
    env.reset(seed=1)
    seat = int(env.agent_selection.split("_")[1])
    mask = env.last()[4]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.state_now.to_json()
    with pytest.raises(diabolo.IllegalMoveError) as caught:
        env.step(illegal)
    assert caught.value.clause.startswith("S")
    assert env.state_now.to_json() == before and env.agent_selection == f"player_{seat}"
    for wrong in (-1, 77, 1.5, None, True):
        with pytest.raises(diabolo.OptionError):
            env.step(wrong)  # type: ignore[arg-type]
    assert env.state_now.to_json() == before


def test_a_penalised_illegal_action_costs_the_penalty_and_the_seat_acts_again() -> None:
    env = aec_env("schacht", players=3, illegal_penalty=-2.5)  # illegal="penalise": the default
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[4]["action_mask"] == 0)[0])
    before = env.state_now.to_json()
    env.step(illegal)
    assert env.state_now.to_json() == before and env.agent_selection == agent
    _, reward, _, _, info = env.last()
    assert reward == -2.5 and info["illegal"].startswith("S") and info["illegal_code"]
    assert all(env.rewards[other] == 0 for other in env.agents if other != agent)


def test_the_doubler_decisions_are_asked_in_seat_order_and_stay_secret() -> None:
    """At a doubler decision (S5.3) the seats still to decide act one by one, lowest
    first, and no seat's observation shows another's decision: it is the same whatever
    the earlier seat decided."""
    rng = random.Random(5)
    for seed in range(40):
        env = aec_env("schacht", players=4)
        env.reset(seed=seed)
        actions = []
        while env.agents and env.state_now.phase != "doubler":
            actions.append(int(rng.choice(list(np.flatnonzero(env.last()[4]["action_mask"])))))
            env.step(actions[-1])
        if not env.agents or len(env.state_now.pending_seats) < 2:
            continue
        first, second = env.state_now.pending_seats[:2]
        assert env.agent_selection == f"player_{first}"
        seen = []
        for decision in env.state_now.legal_actions(first):
            branch = aec_env("schacht", players=4)
            branch.reset(seed=seed)
            for action in [*actions, decision]:
                branch.step(action)
            assert branch.agent_selection == f"player_{second}"
            observation = branch.observe(branch.agent_selection)
            assert isinstance(observation, np.ndarray)
            seen.append(observation)
        assert len(seen) == 2 and np.array_equal(seen[0], seen[1])
        return
    pytest.fail("no game of 40 reached a doubler decision of two seats")


def test_real_time_aec_asks_the_seats_with_a_move_in_turn() -> None:
    env = aec_env("duvelen", players=3)
    env.reset(seed=2)
    wait = env.wait
    assert wait is not None
    asked = []
    for _ in range(6):
        asked.append(env.agent_selection)
        env.step(wait)
    assert asked == ["player_0", "player_1", "player_2"] * 2


def test_a_parallel_step_applies_moves_in_a_seeded_order_and_a_lost_race_changes_nothing() -> None:
    """When two seats make moves of which only one can happen (the same place on a pile,
    D4) in one step, one arrives first and moves, the other lost the race: nothing of it
    changes, without penalty. The same seed gives the same order; over many steps each
    seat wins races, since the order is drawn afresh at each step."""
    winners: list[str] = []
    rng = random.Random(1)
    for seed in range(200):
        env = parallel_env("duvelen", players=2)
        env.reset(seed=seed)
        wait = env.wait
        assert wait is not None
        moves: list[dict[str, int]] = []
        for _ in range(300):
            contest = _contested(env.state_now)
            if contest is not None:
                break
            seat = rng.choice(env.state_now.pending_seats)
            step = {"player_0": wait, "player_1": wait}
            step[f"player_{seat}"] = rng.choice(env.state_now.legal_actions(seat))
            moves.append(step)
            env.step(step)
            if not env.agents:
                break
        if contest is None:
            continue
        race = {"player_0": contest[0], "player_1": contest[1]}
        version = env.state_now.version
        _, rewards, _, _, infos = env.step(race)
        lost = [agent for agent in infos if infos[agent].get("lost_race")]
        assert len(lost) == 1 and rewards[lost[0]] == 0.0 and env.state_now.version == version + 1
        winners.append(next(agent for agent in infos if agent not in lost))
        again = parallel_env("duvelen", players=2)
        again.reset(seed=seed)
        for step in moves:
            again.step(step)
        assert races(again.step(race)[4]) == races(infos)  # the same seed, the same order
        if len(winners) == 12:
            break
    assert set(winners) == {"player_0", "player_1"}, winners


def races(infos: dict[str, dict[str, Any]]) -> dict[str, bool]:
    """Which agents lost a race, by agent."""
    return {agent: bool(info.get("lost_race")) for agent, info in infos.items()}


def _contested(state: Any) -> tuple[int, int] | None:
    """Moves of seats 0 and 1, both legal now, of which whichever comes first makes the
    other illegal."""
    for first in state.legal_actions(0):
        after = state.clone()
        after.apply(first, player=0)
        for second in set(state.legal_actions(1)) - set(after.legal_actions(1)):
            other = state.clone()
            other.apply(second, player=1)
            if first not in other.legal_actions(0):
                return first, second
    return None


def test_a_real_time_table_where_everyone_waits_is_truncated_and_max_steps_truncates() -> None:
    env = parallel_env("knizia", players=2, lexicon=WORDS, idle_limit=3)
    env.reset(seed=1)
    wait = env.wait
    assert wait is not None
    for step in range(6):
        _, _, terminations, truncations, _ = env.step({agent: wait for agent in env.agents})
        assert not any(terminations.values())
        assert all(truncations.values()) == (step == 5)
    assert env.agents == []
    aec = aec_env("schacht", players=3, max_steps=5)
    aec.reset(seed=1)
    for _ in range(5):
        aec.step(int(np.flatnonzero(aec.last()[4]["action_mask"])[0]))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    def first_observations(seed: int) -> list[Any]:
        env = parallel_env("duvelen", players=3)
        observations, _ = env.reset(seed=seed)
        return [observations[agent] for agent in env.agents]

    assert all(np.array_equal(a, b) for a, b in zip(first_observations(4), first_observations(4)))
    assert not all(np.array_equal(a, b) for a, b in zip(first_observations(4), first_observations(5)))


@pytest.mark.parametrize("action_mask", ["info", "observation"])
def test_observations_hold_only_what_the_seat_may_know_and_lie_within_the_bounds(action_mask: str) -> None:
    env = aec_env("schacht", players=3, action_mask=action_mask)
    env.reset(seed=3)
    state = env.state_now
    space = env.observation_space("player_0")
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        assert space.contains(observation)
        if isinstance(observation, dict):
            assert action_mask == "observation"
            assert np.array_equal(observation["action_mask"].astype(bool), state.legal_action_mask(seat))
            observation = observation["observation"]
        assert np.array_equal(observation, state.observation_tensor(seat))
    _, _, _, _, info = env.last()  # the agent to act has its mask in its info, in either form
    seat = int(env.agent_selection[-1])
    assert ("action_mask" in info) == (action_mask == "info")
    if action_mask == "info":
        assert np.array_equal(info["action_mask"].astype(bool), state.legal_action_mask(seat))


@pytest.mark.parametrize(
    ("make", "options", "message"),
    [
        (aec_env, {"game": "chess"}, "unknown game 'chess'"),
        (aec_env, {"game": "schacht", "players": 9}, "players"),
        (aec_env, {"game": "schacht", "reward": "win"}, 'reward must be "score" or "final"'),
        (aec_env, {"game": "schacht", "illegal": "ignore"}, 'illegal must be "raise" or "penalise"'),
        (aec_env, {"game": "schacht", "action_mask": "both"}, 'action_mask must be "info" or "observation"'),
        (aec_env, {"game": "duvelen", "idle_limit": 0}, "idle_limit"),
        (aec_env, {"game": "duvelen", "max_steps": -1}, "max_steps"),
        (aec_env, {"game": "duvelen", "render_mode": "rgb_array"}, "render_mode"),
        (aec_env, {"game": "knizia", "claims": 0}, "claims must be a number of claims >= 1"),
        (aec_env, {"game": "schacht", "claims": 8}, "schacht has no compact action space"),
        (parallel_env, {"game": "schacht"}, "played in turns: use aec_env"),
    ],
)
def test_bad_options_are_refused_with_what_was_wrong(make: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(diabolo.OptionError, match=message):
        make(**options)


def test_a_parallel_step_needs_every_agent_and_renders_the_table() -> None:
    env: DiaboloParallelEnv = parallel_env("duvelen", players=2, render_mode="ansi")
    env.reset(seed=1)
    with pytest.raises(diabolo.OptionError, match="missing: \\['player_1'\\]"):
        env.step({"player_0": 0})
    assert env.render() == str(env.state_now)


def test_compact_claims_apply_the_claim_the_observation_showed() -> None:
    """claims=k: an agent's action ids are the game's below the first claim's, then the k
    legal claims ranked; a claim entry applies the word the agent's observation showed."""
    words = diabolo.Lexicon.from_words(KNIZIA_WORDS)
    env = aec_env("knizia", players=2, lexicon=words, claims=4)
    first = env.state_now.game.compact_actions(4) - 4  # type: ignore[attr-defined]
    assert env.action_space("player_0").n == first + 4 + 1 and env.wait == first + 4
    env.reset(seed=2)
    rng = random.Random(5)
    claimed = 0
    for agent in env.agent_iter(3000):
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent[-1])
        state = env.state_now
        view = state.compact_view(seat, 4)  # type: ignore[attr-defined]
        mask = info["action_mask"]
        assert np.array_equal(mask[: len(view)], view >= 0)
        entries = [a for a in np.flatnonzero(mask[first : first + 4]) + first]
        action = (
            int(rng.choice(entries)) if entries and rng.random() < 0.5 else int(rng.choice(list(np.flatnonzero(mask))))
        )
        word = state.game.move(int(view[action])) if action < len(view) else None
        env.step(action)
        if word is not None and action >= first:
            claimed += 1
            last_seat, last_move = env.state_now.history[-1]
            assert last_seat == seat and last_move.word == word.word
    assert claimed > 5
