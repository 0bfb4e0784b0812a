"""Live play: state versions, moves that lost a race (StaleMoveError) and bots that propose
a move with their reaction delay (docs: realtime, "Live play")."""

from __future__ import annotations

import heapq
import random
from collections import Counter
from typing import Any

import pytest

import diabolo
from diabolo.duvelen import GreedyBot, LookaheadBot
from diabolo.knizia import WordBot
from tests.contract.games import WORDS, new_game, random_states


@pytest.mark.parametrize("name", diabolo.games())
def test_the_version_counts_moves_and_survives_json(name: str) -> None:
    game = new_game(name)
    for state in random_states(game, seed=4, limit=60):
        assert state.version == len(state.history)
        assert "version" not in state.observation(0)  # S7.1: it would show a secret decision in Schacht
        assert game.state_from_json(state.to_json()).version == state.version


def race_on_a_pile(seed: int) -> tuple[Any, int, Any, int, Any] | None:
    """A Duvelen table where two seats can play onto the same pile: (state, seat a, its
    move, seat b, its move)."""
    for state in random_states(diabolo.load("duvelen", players=4), seed=seed, limit=300):
        wanted: dict[str, tuple[int, Any]] = {}
        for seat in state.pending_seats:
            for move in state.legal_moves(seat):
                data = move.to_dict()
                if data["kind"] != "play" or data["target"] == "new":
                    continue
                if data["target"] in wanted and wanted[data["target"]][0] != seat:
                    first_seat, first_move = wanted[data["target"]]
                    return state, first_seat, first_move, seat, move
                wanted[data["target"]] = (seat, move)
    return None


def test_a_move_that_lost_a_race_is_a_stale_move_error_and_changes_nothing() -> None:
    race = next(race for race in map(race_on_a_pile, range(50)) if race is not None)
    state, first, winner, second, loser = race
    seen = state.version
    state.apply(winner, player=first, version=seen)
    before = state.to_json()
    with pytest.raises(diabolo.StaleMoveError) as stale:
        state.apply(loser, player=second, version=seen)
    assert isinstance(stale.value, diabolo.IllegalMoveError)
    assert stale.value.clause == "D3.3" and f"legal at version {seen}" in str(stale.value)
    # Against the table as it is now, the same move was never legal: a plain IllegalMoveError.
    with pytest.raises(diabolo.IllegalMoveError) as illegal:
        state.apply(loser, player=second, version=state.version)
    assert type(illegal.value) is diabolo.IllegalMoveError
    assert state.to_json() == before


def test_a_move_never_legal_is_not_stale_and_a_legal_one_is_taken_whatever_its_version() -> None:
    game = diabolo.load("duvelen", players=2)
    state = game.new_state(seed=1)
    state.apply("turn", player=0, version=0)
    state.apply("turn", player=1, version=0)  # still legal: the other seat's turn changed nothing of it
    with pytest.raises(diabolo.IllegalMoveError) as error:
        state.apply("stop", player=0, version=0)  # a full Stok: never legal (D4.1)
    assert type(error.value) is diabolo.IllegalMoveError
    assert state.version == 2


@pytest.mark.parametrize("version", [5, -1, 1.5, "0"])
def test_a_bad_version_is_an_option_error(version: Any) -> None:
    state = diabolo.load("duvelen", players=2).new_state(seed=1)
    with pytest.raises(diabolo.OptionError, match="version"):
        state.apply("turn", player=0, version=version)
    assert state.version == 0


def test_a_knizia_call_that_came_too_late_is_stale_when_stale_calls_are_rejected() -> None:
    """K3.8, K10.3: with stale_calls='reject' a call whose cards are gone raises
    StaleMoveError; with the default 'penalty' it is applied as an invalid call."""
    for stale_calls, raises in [("reject", True), ("penalty", False)]:
        cards = [*"TORSTEN", "Z", "Z"]
        game = diabolo.load("knizia", players=2, lexicon=WORDS, deck=dict(Counter(cards)), stale_calls=stale_calls)
        state = game.new_state(deck=cards)
        for _ in range(3):
            state.apply("reveal", player=0)
        seen = state.version
        state.apply("TOR", player=0, version=seen)
        if raises:
            with pytest.raises(diabolo.StaleMoveError):
                state.apply("ROT", player=1, version=seen)
            with pytest.raises(diabolo.IllegalMoveError):
                state.apply("ROT", player=1, version=state.version)
        else:
            state.apply("ROT", player=1, version=seen)
            assert state.observation(0)["last_call"]["valid"] is False


def test_a_stale_check_reaches_back_past_many_moves_and_clones() -> None:
    race = next(race for race in map(race_on_a_pile, range(50, 100)) if race is not None)
    state, first, winner, second, loser = race
    seen = state.version
    state.apply(winner, player=first)
    later = state.clone()
    for _ in range(3):
        later.apply("turn", player=first) if "turn" in map(str, later.legal_moves(first)) else None
    with pytest.raises(diabolo.StaleMoveError):
        later.apply(loser, player=second, version=seen)


@pytest.mark.parametrize("bot", [GreedyBot(), LookaheadBot()])
def test_a_live_bot_proposes_what_the_simulator_plans(bot: Any) -> None:
    start = diabolo.load("duvelen", players=3).new_state(seed=5)
    run = diabolo.realtime.simulate(start, [bot] * 3, seed=9)
    proposals = [bot.propose(start, p, seed=diabolo.derive_seed(9, p + 1)) for p in range(3)]
    first = min((delay, p, move) for p, (move, delay) in enumerate(proposals))
    assert (run.log[0].time, run.log[0].player, run.log[0].move) == first
    assert diabolo.realtime.Reaction(**bot.reaction) == diabolo.realtime.Reaction(bot.reaction["delays"])


def test_a_live_table_with_bots_plays_a_whole_game() -> None:
    """The loop a server runs: each bot proposes on the version it sees, acts when its
    delay is over, and proposes again when it lost a race or the table changed."""
    game = diabolo.load("knizia", players=3, lexicon=WORDS, deck="de", stale_calls="reject")
    state = game.new_state(seed=3)
    bots = [WordBot(), WordBot(), WordBot()]
    rng = random.Random(3)
    now = 0.0
    queue: list[tuple[float, int, int, str]] = []
    waiting: set[int] = set()  # seats with nothing to do until the table changes

    def plan(seat: int) -> None:
        proposal = bots[seat].propose(state, seat, seed=rng.getrandbits(64))
        if proposal is None:
            waiting.add(seat)
        else:
            waiting.discard(seat)
            heapq.heappush(queue, (now + proposal[1], seat, state.version, str(proposal[0])))

    for seat in range(3):
        plan(seat)
    stale = 0
    while queue and not state.is_terminal:
        now, seat, version, move = heapq.heappop(queue)
        try:
            state.apply(move, player=seat, version=version)
        except diabolo.StaleMoveError:
            stale += 1
            plan(seat)
            continue
        for other in [seat, *sorted(waiting)]:
            plan(other)
    assert state.is_terminal
    assert state.version == len(state.history) > 100
