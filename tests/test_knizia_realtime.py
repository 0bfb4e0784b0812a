"""Diabolo (Knizia) in real time (K3.2, K3.8, K6.3): simulated games with bots of
configurable vocabulary and speed, arrivals in time order, stale calls (K10.3)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon, realtime
from diabolo.knizia import Deck, KniziaMove, KniziaState, RandomBot, WordBot
from tests.realtime_helpers import assert_rejected_moves_were_illegal

LEXICON = Lexicon.from_words(
    [
        "TOR",
        "ROT",
        "ORT",
        "TORE",
        "ROTE",
        "REST",
        "RAST",
        "RATE",
        "STERN",
        "STAR",
        "NEST",
        "ERNST",
        "NASE",
        "RASEN",
        "ASTER",
        "TASTE",
        "SENAT",
        "OTTER",
        "SEE",
        "TEE",
        "ARTEN",
        "ANTE",
        "TANTE",
        "ROSE",
        "OSTEN",
    ]
)
DECK = Deck({"A": 3, "E": 4, "N": 2, "O": 2, "R": 3, "S": 3, "T": 4, "ST": 1, "?": 1}, "xx")


def game_of(players: int, **options: Any) -> diabolo.knizia.KniziaGame:
    return diabolo.load("knizia", players=players, lexicon=LEXICON, deck=DECK, **options)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 2**32), st.sampled_from(["penalty", "reject"]))
def test_same_seed_same_run_and_replay_reproduces_it(players: int, deal: int, seed: int, stale: str) -> None:
    start = game_of(players, stale_calls=stale).new_state(seed=deal)
    bots = [WordBot(coverage=0.5, memory=p) for p in range(players)]
    one = realtime.simulate(start, bots, seed=seed)
    two = realtime.simulate(start, bots, seed=seed)
    assert one.log == two.log and one.state == two.state and one.state.is_terminal
    assert realtime.replay(start, one.log) == one.state
    assert [step.time for step in one.log] == sorted(step.time for step in one.log)
    assert one.state.history == [(step.player, step.move) for step in one.log if step.accepted]


def test_stale_calls_draw_the_penalty_or_are_rejected_K3_8() -> None:
    """Two equally quick bots see the same word: the later call has lost its cards.
    By default it is applied as an invalid call (K3.5); with stale_calls='reject' it
    is refused and changes nothing (K10.3)."""
    same = realtime.Reaction({"claim": (1.0, 0.0)}, minimum=0.2)
    bots = [
        WordBot(reaction=same, per_letter=0.0),
        WordBot(reaction=same, per_letter=0.0),
        WordBot(reaction=same, per_letter=0.0),
    ]
    penalties = rejected = 0
    for seed in range(10):
        run = realtime.simulate(game_of(3).new_state(seed=seed), bots, seed=seed)
        penalties += sum(1 for step in run.log if step.move.kind == "take")
        run = realtime.simulate(game_of(3, stale_calls="reject").new_state(seed=seed), bots, seed=seed)
        rejected += sum(1 for step in run.log if not step.accepted and step.move.kind == "claim")
        assert not any(step.move.kind == "take" for step in run.log)  # every call that got through was valid
    assert penalties > 0 and rejected > 0


@given(st.integers(0, 2**32))
@settings(max_examples=20, deadline=None)
def test_rejected_moves_were_illegal_when_they_arrived(seed: int) -> None:
    start = game_of(4, stale_calls="reject").new_state(seed=seed)
    run = realtime.simulate(start, [WordBot(memory=p) for p in range(3)] + [RandomBot()], seed=seed)
    assert_rejected_moves_were_illegal(start, run)


def test_a_bigger_vocabulary_and_quicker_hands_win_K6_3() -> None:
    """Bots that know more words, or call faster, take more cards."""
    game = diabolo.load("knizia", players=2, lexicon="de", rounds=2)
    strong, weak = WordBot(), WordBot(max_length=4, coverage=0.2, per_letter=0.6)
    result = realtime.simulate_many(game, [strong, weak], games=6, seed=1)
    assert (result["scores"][:, 0] > result["scores"][:, 1]).sum() >= 5
    quick = WordBot(reaction=realtime.Reaction({"claim": (0.6, 0.1)}), per_letter=0.1)
    result = realtime.simulate_many(game, [WordBot(), quick], games=6, seed=2)
    assert (result["scores"][:, 1] > result["scores"][:, 0]).sum() >= 5


def test_word_bots_claim_only_words_they_know() -> None:
    short = WordBot(max_length=4)
    run = realtime.simulate(game_of(2).new_state(seed=3), [short, RandomBot()], seed=3)
    claims = [step.move.word or "" for step in run.log if step.player == 0 and step.move.kind == "claim"]
    assert claims and all(len(word) <= 4 for word in claims)
    narrow = WordBot(vocabulary=Lexicon.from_words(["TOR", "ROT"]))
    run = realtime.simulate(game_of(2).new_state(seed=4), [narrow, WordBot(coverage=0.0)], seed=4)
    assert {step.move.word for step in run.log if step.move.kind == "claim"} <= {"TOR", "ROT"}


def test_the_dealer_sets_the_pace_K3_1() -> None:
    slow_dealer = realtime.Reaction({"reveal": (3.0, 0.0)})
    run = realtime.simulate(game_of(2, rounds=1).new_state(seed=5), [WordBot(reaction=slow_dealer), WordBot()], seed=5)
    reveals = [step.time for step in run.log if step.move.kind == "reveal" and step.accepted]
    assert len(reveals) > DECK.size // 2  # the rest went blind to penalty takers (K3.5)
    assert min(b - a for a, b in zip(reveals, reveals[1:])) >= 3.0 - 1e-6


def test_longer_words_take_longer_to_call_K6_3() -> None:
    first = ["T", "O", "R", "E", "N", "S"]
    rest = Counter(DECK.cards)
    rest.subtract(first)
    state = game_of(2).new_state(deck=first + sorted(rest.elements()))
    for _ in range(6):
        state.apply("reveal", player=0)
    bot = WordBot(reaction=realtime.Reaction({"claim": (1.0, 0.0)}), per_letter=0.5)
    run = realtime.simulate(state, [bot, WordBot(coverage=0.0)], seed=1, max_events=1)
    call = run.log[0]
    assert call.move.kind == "claim" and call.time == pytest.approx(1.0 + 0.5 * len(call.move.word or ""))


class PythonWordBot:
    """A Python port of WordBot's rule, to check the Python path of the simulator."""

    def choose(self, state: KniziaState, player: int) -> KniziaMove | None:
        moves = state.legal_moves(player)
        if state.phase == "penalty":
            return moves[0] if moves else None
        claims = [m for m in moves if m.kind == "claim"]
        if claims:
            return max(
                claims,
                key=lambda m: (
                    len(diabolo.knizia.check_word(m.word or "", state.table, LEXICON).cards),
                    [-ord(c) for c in m.word or ""],
                ),
            )
        if moves[0].kind == "reveal":
            return moves[0]
        if state.deck_count == 0 and not state.observation(player)["passed"][player]:
            return KniziaMove.parse("pass")
        return None


def test_python_bots_run_through_the_same_loop() -> None:
    start = game_of(3).new_state(seed=11)
    run = realtime.simulate(start, [PythonWordBot(), WordBot(coverage=0.3), RandomBot()], seed=4)
    assert run.state.is_terminal and realtime.replay(start, run.log) == run.state
    assert any(step.player == 0 and step.move.kind == "claim" for step in run.log)


def test_simulate_many_is_reproducible_and_thread_independent() -> None:
    game = game_of(4)
    bots = [WordBot(coverage=0.6, memory=p) for p in range(4)]
    one = realtime.simulate_many(game, bots, games=12, seed=9, threads=1)
    two = realtime.simulate_many(game, bots, games=12, seed=9, threads=2)
    for key in ("scores", "actions", "rejected", "time"):
        assert one[key].tolist() == two[key].tolist()
    assert one["scores"].shape == (12, 4)


def test_play_random_is_reproducible_and_thread_independent() -> None:
    game = game_of(3, variant="victory_tiles")
    one = game.play_random(10, seed=3, threads=1)
    two = game.play_random(10, seed=3, threads=2)
    assert one["scores"].tolist() == two["scores"].tolist() and one["moves"].tolist() == two["moves"].tolist()
    assert all(max(row) >= 2 for row in one["scores"].tolist())


def test_bot_choose_gives_a_legal_move_or_waits() -> None:
    rng = random.Random(1)
    state = game_of(3).new_state(seed=1)
    bots = [WordBot(), RandomBot(), WordBot(max_length=3)]
    for _ in range(200):
        if state.is_terminal:
            break
        for p, bot in enumerate(bots):
            move = bot.choose(state, p, seed=rng.getrandbits(32))
            if move is not None:
                assert str(move) in {str(m) for m in state.legal_moves(p)}
        p = rng.choice([p for p in range(3) if state.legal_moves(p)])
        state.apply(rng.choice(state.legal_moves(p)), player=p)


def test_bad_bot_options_give_specific_errors() -> None:
    with pytest.raises(diabolo.OptionError, match="coverage"):
        WordBot(coverage=1.5)
    with pytest.raises(diabolo.OptionError, match="max_length"):
        WordBot(max_length=0)
    with pytest.raises(diabolo.OptionError, match="per_letter"):
        WordBot(per_letter=-1.0)
    with pytest.raises(diabolo.OptionError, match="vocabulary"):
        WordBot(vocabulary=["TOR"])  # type: ignore[arg-type]
    with pytest.raises(diabolo.OptionError, match="reveal, claim, take, pass"):
        WordBot(reaction=realtime.Reaction({"play": (1.0, 0.1)}))
    with pytest.raises(diabolo.OptionError, match="one bot per seat"):
        realtime.simulate(game_of(3).new_state(), [WordBot()])
    with pytest.raises(diabolo.OptionError, match="C\\+\\+ bots only"):
        realtime.simulate_many(game_of(2), [WordBot(), PythonWordBot()], games=1)
    assert json.loads(game_of(2).new_state().to_json())["format"] == "diabolo.knizia/1"
