"""The vector environment (game.vector_env, core/vector_env.hpp) against the one-game API:
game i of a vector env, replayed step by step through state.apply and the bots' own
choose(state, seat, seed) with the seeds the env documents, gives the same observations,
masks, rewards and ends, in Schacht (turns, the doubler) and in real time (Duvelen's
arrival order and lost races), for any thread count; and bad input is refused with a
clear error, changing nothing."""

from __future__ import annotations

import gc
import os
import random
import threading
from typing import Any

import numpy as np
import pytest

import diabolo
from diabolo import derive_seed

WORDS = diabolo.Lexicon.from_words(["Tor", "Rot", "Ort", "Tore", "Rest", "Rast", "Rate", "Nest", "Ernst", "Nase"])

ORDER_STREAM = 0x0A771BA1  # kOrderStream of core/vector_env.hpp


class Mirror:
    """Game i of a vector env through the one-game API."""

    def __init__(self, game: Any, seed: int, index: int, seat: int, opponents: list[Any]) -> None:
        self.game, self.seed, self.index, self.seat, self.opponents = game, seed, index, seat, opponents
        self.real_time = game.name != "schacht"
        self.episode = 0
        self.start()

    def start(self) -> None:
        self.deal = derive_seed(derive_seed(self.seed, self.index), self.episode)
        self.state = self.game.new_state(seed=self.deal)
        self.decisions = 0
        self.steps = 0
        if not self.real_time:
            self.play_others()

    def decide(self, seat: int) -> Any:
        bot = self.opponents[seat]
        seed = derive_seed(self.deal, self.decisions)
        self.decisions += 1
        if not self.real_time and seat not in self.state.pending_seats:
            return None
        return bot.choose(self.state, seat, seed)

    def play_others(self) -> None:
        while self.state.pending_seats and self.seat not in self.state.pending_seats:
            actor = self.state.pending_seats[0]
            self.state.apply(self.decide(actor), player=actor)

    def score(self) -> int:
        return int(self.state.scores[self.seat])

    def step(self, action: int) -> tuple[float, bool, bool]:
        """The learner's action: the reward, whether the game ended and whether the move lost a race."""
        before, lost = self.score(), False
        if self.real_time:
            stream = derive_seed(self.deal, ORDER_STREAM)
            keys = [derive_seed(stream, self.steps * 64 + s) for s in range(self.game.players)]
            for seat in sorted(range(self.game.players), key=lambda s: (keys[s], s)):
                if self.state.is_terminal:
                    break
                if seat == self.seat:
                    if action == self.game.num_actions:
                        continue
                    if action in self.state.legal_actions(seat):
                        self.state.apply(action, player=seat)
                    else:
                        lost = True
                    continue
                move = self.decide(seat)
                if move is not None:
                    self.state.apply(move, player=seat)
        else:
            self.state.apply(action, player=self.seat)
            self.play_others()
        self.steps += 1
        return float(self.score() - before), self.state.is_terminal, lost

    def observation(self) -> tuple[Any, Any]:
        mask = self.state.legal_action_mask(self.seat)
        if self.real_time:
            mask = np.append(mask, not self.state.is_terminal)
        return self.state.observation_tensor(self.seat), mask


@pytest.mark.parametrize(
    ("name", "options", "kinds"),
    [
        ("schacht", {"players": 3}, ["heuristic", "random", "heuristic"]),
        ("schacht", {"players": 5}, ["random"] * 5),
        ("duvelen", {"players": 3}, ["greedy", "lookahead", "random"]),
    ],
)
def test_game_i_equals_the_one_game_api_step_by_step_for_any_thread_count(
    name: str, options: dict[str, Any], kinds: list[str]
) -> None:
    game = diabolo.load(name, **options)
    bots = [diabolo.bot(name, kind) for kind in kinds]
    games, seed, seat = 6, 11, 1
    # threads=1, threads=2, and threads=2 stepped by send() and recv()
    features = name == "schacht"  # the game with action features
    envs = [
        game.vector_env(
            games, opponents=bots, seed=seed, threads=t, seat=seat, idle_limit=10**6, action_features=features
        )
        for t in (1, 2, 2)
    ]
    mirrors = [Mirror(game, seed, i, seat, bots) for i in range(games)]
    outputs: list[tuple[Any, ...]] = [env.reset() for env in envs]
    rng = random.Random(5)
    ended = 0
    for _ in range(120 if name == "schacht" else 300):
        for other in outputs[1:]:
            for mine, theirs in zip(outputs[0], other):
                assert np.array_equal(mine, theirs)
        observations, masks = outputs[0][:2]
        for i, mirror in enumerate(mirrors):
            tensor, mask = mirror.observation()
            assert np.array_equal(observations[i], tensor) and np.array_equal(masks[i], mask), (i, mirror.steps)
            if features:
                rows = envs[0].action_features[i]
                if mirror.state.is_terminal:
                    assert not rows.any()
                else:
                    assert np.array_equal(rows, diabolo.schacht.move_features(mirror.state, seat))
        actions = np.array(
            [rng.choice([*np.flatnonzero(masks[i]), 0][:-1] or [0]) for i in range(games)], dtype=np.int32
        )
        outputs = [env.step(actions) for env in envs[:2]]
        envs[2].send(actions)
        outputs.append(envs[2].recv())
        _, _, rewards, terminated, truncated = outputs[0]
        for i, mirror in enumerate(mirrors):
            if mirror.state.is_terminal:  # the env started the next episode at this step
                mirror.episode += 1
                mirror.start()
                assert rewards[i] == 0 and not terminated[i]
            else:
                reward, over, lost = mirror.step(int(actions[i]))
                assert (rewards[i], terminated[i], truncated[i], envs[0].lost_races[i]) == (reward, over, False, lost)
                ended += over
            assert envs[0].scores[i].tolist() == list(mirror.state.scores)
    assert ended > 0


def test_the_learner_plays_each_seat_in_turn_and_rewards_can_be_final() -> None:
    game = diabolo.load("schacht", players=3)
    env = game.vector_env(2, opponents="heuristic", seat=None, reward="final", seed=3)
    observations, masks = env.reset()
    seen: dict[int, list[int]] = {0: [], 1: []}
    for _ in range(400):
        for i in range(2):
            if not seen[i] or seen[i][-1] != env.seats[i]:
                seen[i].append(int(env.seats[i]))
        _, masks, rewards, terminated, _ = env.step(masks.argmax(axis=1))
        assert all(rewards[~terminated] == 0)
    assert seen[0][:4] == [0, 1, 2, 0] and seen[1][:4] == [0, 1, 2, 0]


def test_bad_input_is_refused_and_changes_nothing() -> None:
    game = diabolo.load("schacht", players=3)
    env = game.vector_env(3, opponents="random", seed=2)
    observations, masks = env.reset()
    kept = observations.copy()
    legal = masks.argmax(axis=1)
    illegal = np.array([legal[0], legal[1], int(np.flatnonzero(~masks[2])[0])])
    with pytest.raises(diabolo.IllegalMoveError, match="game 2 of the vector env") as caught:
        env.step(illegal)
    assert caught.value.clause.startswith("S")
    refused: list[tuple[Any, str]] = [
        (np.array([0, 1]), "one integer action id per game"),
        (np.array([0.0, 1.0, 2.0]), "one integer action id per game"),
        ([[0, 1, 2]], "one integer action id per game"),
        (np.array([0, 1, 2**40]), "an action id is 0..76"),
        (np.array([0, 1, 77]), "an action is an id 0..76"),
        (np.array([-1, 1, 2]), "an action id is 0..76"),
        ("abc", "one integer action id per game"),
    ]
    for bad, message in refused:
        with pytest.raises(diabolo.OptionError, match=message):
            env.step(bad)
    observations, *_ = env.step(legal)  # every refusal changed nothing: the same step goes on
    fresh = game.vector_env(3, opponents="random", seed=2)
    assert np.array_equal(fresh.reset()[0], kept)
    assert np.array_equal(fresh.step(legal)[0], observations)
    with pytest.raises(diabolo.OptionError, match="played by C\\+\\+ bots"):
        game.vector_env(2, opponents=[None, object(), "random"])  # type: ignore[list-item]
    with pytest.raises(diabolo.OptionError, match="seat 2 has no player"):
        game.vector_env(2, opponents=[None, "random", None])
    with pytest.raises(diabolo.OptionError, match="seat must be"):
        game.vector_env(2, seat=3)
    with pytest.raises(diabolo.OptionError, match="threads must be 1..256"):
        game.vector_env(2, threads=0)
    with pytest.raises(diabolo.OptionError, match='reward must be "score" or "final"'):
        game.vector_env(2, reward="win")
    with pytest.raises(diabolo.OptionError, match='observations must be "float32" or "uint8"'):
        game.vector_env(2, observations="float16")
    with pytest.raises(diabolo.OptionError, match='autoreset must be "next_step" or "same_step"'):
        game.vector_env(2, autoreset="never")
    penalties: list[Any] = ["x", float("nan"), None, True]
    for penalty in penalties:
        with pytest.raises(diabolo.OptionError, match="penalty must be a finite number"):
            game.vector_env(2, illegal="penalise", penalty=penalty)


def test_send_and_recv_step_two_envs_in_turn_as_step_does() -> None:
    """While one env steps on its own threads (send), the caller chooses the other env's
    actions: every step is the one step() makes."""
    game = diabolo.load("schacht", players=4)

    def make(seed: int) -> Any:
        return game.vector_env(32, opponents="random", seed=seed, threads=2, observations="uint8")

    sent, stepped = [make(1), make(2)], [make(1), make(2)]
    actions = []
    for env, twin in zip(sent, stepped):
        first, expected = env.reset(), twin.reset()
        assert all(np.array_equal(x, y) for x, y in zip(first, expected))
        actions.append(first[1].argmax(axis=1))

    ended = [0]

    def receive(k: int) -> Any:
        """Half k's results, checked against step(); its next actions."""
        results, expected = sent[k].recv(), stepped[k].step(actions[k])
        assert all(np.array_equal(x, y) for x, y in zip(results, expected))
        ended[0] += int(results[3].sum())
        return results[1].argmax(axis=1)

    sent[0].send(actions[0])
    for _ in range(150):
        sent[1].send(actions[1])  # both halves step now
        actions[0] = receive(0)  # half 1 goes on stepping meanwhile
        sent[0].send(actions[0])
        actions[1] = receive(1)
    receive(0)
    assert ended[0] > 0  # and the next episodes began


def test_send_and_recv_out_of_order_are_refused_and_change_nothing() -> None:
    game = diabolo.load("schacht", players=3)
    env, twin = (game.vector_env(4, opponents="random", seed=7, threads=2) for _ in range(2))
    masks = env.reset()[1]
    twin.reset()
    actions = masks.argmax(axis=1)
    with pytest.raises(diabolo.OptionError, match="no step was sent"):
        env.recv()
    with pytest.raises(diabolo.IllegalMoveError, match="game 3 of the vector env"):
        env.send(np.array([*actions[:3], np.flatnonzero(~masks[3])[0]]))
    with pytest.raises(diabolo.OptionError, match="one integer action id per game"):
        env.send(actions[:2])
    with pytest.raises(diabolo.OptionError, match="no step was sent"):
        env.recv()  # a refused send sent nothing
    env.send(actions)
    not_received = "sent to the vector env and not received"
    with pytest.raises(diabolo.OptionError, match=not_received):
        env.send(actions)
    with pytest.raises(diabolo.OptionError, match=not_received):
        env.step(actions)
    with pytest.raises(diabolo.OptionError, match=not_received):
        env.reset()
    with pytest.raises(diabolo.OptionError, match="stepping: render it after recv"):
        env.render(0)  # the step is changing the tables
    results, expected = env.recv(), twin.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(results, expected))
    env.send(results[1].argmax(axis=1))
    del env, results  # an env dropped while it steps waits for the step, then goes
    gc.collect()


def test_the_default_threads_are_one_per_32_games_up_to_the_cores() -> None:
    """threads=None (the adapters' default too) gives a second thread only where it pays
    (docs/ai.rst: from 64 games on two cores), never more than the cores; the games are
    the same as on one thread."""
    from diabolo.envs.vector import default_threads

    cores = len(os.sched_getaffinity(0))
    assert [default_threads(games) for games in (1, 31, 32, 63)] == [1, 1, 1, 1]
    assert default_threads(64) == min(cores, 2) and default_threads(10**6) == cores
    game = diabolo.load("schacht", players=4)
    default, one = game.vector_env(64, seed=3), game.vector_env(64, seed=3, threads=1)
    outputs: list[tuple[Any, ...]] = [default.reset(), one.reset()]
    for _ in range(40):
        assert all(np.array_equal(mine, theirs) for mine, theirs in zip(*outputs))
        actions = outputs[0][1].argmax(axis=1)
        outputs = [default.step(actions), one.step(actions)]


def test_a_call_while_another_thread_steps_the_env_is_refused() -> None:
    """A step runs without the GIL, so another Python thread may call the env meanwhile:
    that call is refused (one batch at a time), never run alongside."""
    env = diabolo.load("schacht", players=4).vector_env(4096, opponents="random", threads=1)
    masks = env.reset()[1]  # the env's array: each step writes into it
    done = threading.Event()
    stepped: list[int] = []

    def step_many() -> None:
        try:
            for _ in range(30):
                env.step(masks.argmax(axis=1))
                stepped.append(1)
        finally:
            done.set()

    refusals: set[str] = set()
    worker = threading.Thread(target=step_many)
    worker.start()
    while not done.is_set():
        try:
            env.recv()  # changes nothing whether it is refused for a call in progress or for no send
        except diabolo.OptionError as error:
            refusals.add(str(error).split(":")[0])
    worker.join()
    assert len(stepped) == 30
    assert "the vector env is in a call from another thread" in refusals
    assert refusals <= {"the vector env is in a call from another thread", "no step was sent to the vector env"}


def test_a_penalised_illegal_action_costs_the_penalty_and_changes_nothing() -> None:
    env = diabolo.load("schacht", players=3).vector_env(2, opponents="random", illegal="penalise", penalty=-3)
    observations, masks = env.reset()
    kept = observations[1].copy()
    actions = np.array([masks[0].argmax(), np.flatnonzero(~masks[1])[0]])
    observations, masks, rewards, terminated, truncated = env.step(actions)
    assert rewards[1] == -3 and np.array_equal(observations[1], kept) and not terminated[1]


@pytest.mark.parametrize(
    ("name", "options"),
    [("schacht", {"players": 4}), ("duvelen", {"players": 3}), ("knizia", {"players": 3, "lexicon": WORDS})],
)
def test_compact_observations_are_the_float_observations_in_bytes(name: str, options: dict[str, Any]) -> None:
    """observations="uint8": entry k is round((x - low) / (high - low) * 255) of the float
    observation, so 0/1 entries are exact and the games are the same."""
    game = diabolo.load(name, **options)
    low, high = game.observation_tensor_bounds
    wide = high > low
    floats = game.vector_env(16, opponents=diabolo.bot_kinds(name)[0], seed=4, threads=2)
    compact = game.vector_env(16, opponents=diabolo.bot_kinds(name)[0], seed=4, threads=2, observations="uint8")
    (exact, masks), (quantised, compact_masks) = floats.reset(), compact.reset()
    rng = np.random.default_rng(1)
    for _ in range(60):
        assert quantised.dtype == np.uint8 and np.array_equal(masks, compact_masks)
        expected = np.where(wide, np.floor((exact - low) / np.where(wide, high - low, 1) * 255 + 0.5), 0)
        assert np.abs(quantised.astype(np.int32) - expected).max() <= 1  # float rounding at a half step
        ones = exact == high
        assert (quantised[ones & wide] == 255).all() and (quantised[(exact == low) & wide] == 0).all()
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        exact, masks, *_ = floats.step(actions)
        quantised, compact_masks, *_ = compact.step(actions)


@pytest.mark.parametrize(
    ("name", "options", "extra"),
    [
        ("schacht", {"players": 4}, {}),
        ("duvelen", {"players": 2}, {"max_steps": 40}),
        ("knizia", {"players": 3, "lexicon": WORDS}, {"observations": "uint8", "max_steps": 30}),
    ],
)
def test_same_step_autoreset_is_next_step_without_the_ignored_step(
    name: str, options: dict[str, Any], extra: dict[str, Any]
) -> None:
    """autoreset="same_step": the step that ends a game returns the next deal's first
    observation and mask with the ended step's reward and end flags, and the episode's
    last observation in final_observations and its final scores in scores; otherwise the games are those of "next_step"
    with the step after each end (which ignores its action) left out."""
    game = diabolo.load(name, **options)
    # The other games are penalised (action 0) or play on: only game `index` is compared.
    settings = {"opponents": diabolo.bot_kinds(name)[0], "seat": None, "illegal": "penalise", **extra}
    for index in range(3):  # game `index` of a 3-game env, replayed alone from its seed
        nxt = game.vector_env(3, seed=8, autoreset="next_step", **settings)
        same = game.vector_env(3, seed=8, autoreset="same_step", **settings)
        (n_obs, n_masks), (s_obs, s_masks) = nxt.reset(), same.reset()
        rng = np.random.default_rng(index)
        ends = 0
        for _ in range(150):
            assert np.array_equal(n_obs[index], s_obs[index]) and np.array_equal(n_masks[index], s_masks[index])
            assert nxt.seats[index] == same.seats[index]
            actions = np.zeros(3, dtype=np.int64)
            actions[index] = rng.choice(np.flatnonzero(n_masks[index]))
            n_obs, n_masks, n_rewards, n_term, n_trunc = nxt.step(actions)
            s_obs, s_masks, s_rewards, s_term, s_trunc = same.step(actions)
            assert (n_rewards[index], n_term[index], n_trunc[index]) == (
                s_rewards[index],
                s_term[index],
                s_trunc[index],
            )
            if n_term[index] or n_trunc[index]:
                ends += 1
                assert np.array_equal(same.final_observations[index], n_obs[index])
                assert np.array_equal(same.scores[index], nxt.scores[index])  # the ended episode's
                n_obs, n_masks, n_rewards, n_term, n_trunc = nxt.step(actions)  # the ignored step
                assert n_rewards[index] == 0 and not (n_term[index] or n_trunc[index])
        assert ends >= 2, "the test must cross episodes"


def test_compact_claims_stand_for_the_game_s_actions() -> None:
    """claims=k: the learner's ids are the ids below the first claim's, then the k legal
    claims ranked (longest first, then word order); stepped in lockstep with an env of the
    full action space playing what each compact id stands for, the games are the same."""
    words = diabolo.Lexicon.from_words(
        ["Tor", "Rot", "Ort", "Tore", "Rest", "Rast", "Rate", "Nest", "Ernst", "Nase", "Ster"]
    )
    game = diabolo.load("knizia", players=3, lexicon=words)
    settings: dict[str, Any] = {"opponents": "random", "seed": 6, "seat": None, "max_steps": 60}
    compact = game.vector_env(4, claims=2, **settings)
    full = game.vector_env(4, **settings)
    first = game.compact_actions(2) - 2  # the first claim's id: reveal, pass, then a take per table position
    assert compact.num_actions == first + 2 + 1 and first == game.num_actions - len(words)
    (c_obs, c_masks), (f_obs, f_masks) = compact.reset(), full.reset()
    rng = np.random.default_rng(0)
    ranked_claims = 0
    for _ in range(200):
        assert np.array_equal(c_obs, f_obs)
        actions, engine = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
        for index in range(4):
            view = compact.compact_view(index)
            assert np.array_equal(c_masks[index, :-1], view >= 0) and c_masks[index, -1] == f_masks[index, -1]
            legal = np.flatnonzero(f_masks[index, :-1])
            claims = legal[legal >= first]
            lengths = [len(game.move(int(c)).word or "") for c in claims]
            best = [int(c) for _, c in sorted(zip([-n for n in lengths], claims))][:2]
            assert list(view[first:][view[first:] >= 0]) == best
            assert np.array_equal(view[:first][view[:first] >= 0], legal[legal < first])
            ranked_claims += len(best)
            actions[index] = rng.choice(np.flatnonzero(c_masks[index]))
            engine[index] = int(full.wait or 0) if actions[index] == compact.wait else view[actions[index]]
        c_obs, c_masks, c_rewards, *_ = compact.step(actions)
        f_obs, f_masks, f_rewards, *_ = full.step(engine)
        assert np.array_equal(c_rewards, f_rewards)
    assert ranked_claims > 20  # the games had claims to rank
    with pytest.raises(diabolo.OptionError, match="claims must be"):
        game.vector_env(2, claims=0)
    with pytest.raises(diabolo.OptionError, match="no compact action space"):
        diabolo.load("schacht").vector_env(2, claims=4)
    strict = game.vector_env(1, claims=2, seed=1)
    _, masks = strict.reset()
    empty = int(np.flatnonzero(~masks[0])[-1])
    with pytest.raises(diabolo.IllegalMoveError, match=f"compact action {empty} stands for no move now"):
        strict.step(np.array([empty]))
