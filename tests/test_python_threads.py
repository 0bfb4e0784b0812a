"""Python threads using the engine at once (docs: reliability, "Threads"): the calls that
release the GIL run beside each other and beside a thread that changes a state they were
given, and give exactly what they give alone."""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import diabolo
from diabolo import realtime
from diabolo.duvelen import GreedyBot
from diabolo.knizia import find_words
from diabolo.schacht import HeuristicBot, IsmctsBot
from tests.contract.games import WORDS


def schacht_state(seed: int) -> Any:
    """A 4-player Schacht state some moves into a game."""
    state = diabolo.load("schacht", players=4).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(9):
        seat = rng.choice(state.pending_seats)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def gil_free_calls(schacht: Any, duvelen: Any) -> list[Any]:
    """One result of each call that releases the GIL, made from the states as they are now."""
    return [
        str(HeuristicBot().choose(schacht, seed=1)),
        IsmctsBot(iterations=300).search(schacht, seed=2).visits.tolist(),
        realtime.simulate(duvelen, [GreedyBot(), GreedyBot()], seed=3).state.to_json(),
        schacht.game.play_random(20, seed=4)["scores"].tolist(),
        [word.word for word in find_words(["T", "O", "R", "E", "S", "N"], WORDS)],
    ]


def test_calls_that_release_the_gil_give_the_same_results_on_many_threads() -> None:
    schacht = schacht_state(1)
    duvelen = diabolo.load("duvelen", players=2).new_state(seed=5)
    alone = gil_free_calls(schacht, duvelen)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: gil_free_calls(schacht, duvelen), range(16)))
    assert all(result == alone for result in results)


def test_a_state_changed_by_one_thread_while_others_read_it() -> None:
    """Calls that release the GIL copy what they read first: while the main thread applies
    moves to a state, each simulation from it is the simulation of one of the states the
    main thread made, never of a state half changed."""
    shared = diabolo.load("duvelen", players=2).new_state(seed=6)
    made = [shared.to_json()]  # every state the main thread makes, in order

    def simulate_now(index: int) -> tuple[str, str]:
        before = shared.to_json()
        return before, realtime.simulate(shared, [GreedyBot(), GreedyBot()], seed=index).state.to_json()

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns as often as they can
    try:
        with ThreadPoolExecutor(max_workers=3) as pool:
            futures = [pool.submit(simulate_now, i) for i in range(30)]
            rng = random.Random(6)
            for _ in range(100):
                seat = rng.choice(shared.pending_seats)
                shared.apply(rng.choice(shared.legal_actions(seat)), seat)
                made.append(shared.to_json())
            results = [future.result() for future in futures]
    finally:
        sys.setswitchinterval(switching)
    game = shared.game
    for index, (before, after) in enumerate(results):
        later = made[made.index(before) :]  # the run began from `before` or a later state
        runs = {
            realtime.simulate(game.state_from_json(text), [GreedyBot(), GreedyBot()], seed=index).state.to_json()
            for text in later
        }
        assert after in runs


def test_a_search_bot_on_two_threads_searches_alike_in_a_forked_process() -> None:
    """An ``IsmctsBot(threads=2)`` keeps its second thread between searches; a process
    forked from one that searched (multiprocessing's default on Linux) has not that
    thread, and its bot starts another instead of waiting for it: the child's search ends
    and equals the parent's."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform: nothing to check")
    state = schacht_state(2)
    bot = IsmctsBot(iterations=200, threads=2, heuristic_rollouts=False)
    visits = bot.search(state, seed=4).visits.tolist()
    assert bot.search(state, seed=4).visits.tolist() == visits  # the kept thread, a second time
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: search with the parent's bot, say what it found, and leave
        try:
            os.write(write, json.dumps(bot.search(state, seed=4).visits.tolist()).encode())
        finally:
            os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 60
    while (done := os.waitpid(child, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    if done[0] == 0:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    with os.fdopen(read, "rb") as answer:
        found = answer.read()
    assert done[0] == child, "the forked search did not end within 60 s"
    assert json.loads(found) == visits
