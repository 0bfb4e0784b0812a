"""Every error has a stable code and params beside its text (docs: Building a frontend,
"Errors"); every illegal move of random games has a documented code."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import diabolo
from tests.contract.games import new_game, random_states

DOCS = (Path(__file__).resolve().parent.parent / "docs" / "frontend.rst").read_text()
MOVE_CODES = set(re.findall(r"   \* - ``([a-z_]+)``\n     - [SDK]\d", DOCS))


def test_the_documented_codes_are_the_ones_the_engine_uses() -> None:
    sources = "".join(p.read_text() for p in (Path(__file__).resolve().parent.parent / "cpp" / "src").rglob("*.cpp"))
    sources += (Path(__file__).resolve().parent.parent / "src" / "schacht_bots.cpp").read_text()
    # A code is the first snake_case literal after an IllegalMoveError's clause.
    used = {
        re.search(r'"([a-z]+(?:_[a-z]+)+)"', sources[match.end() : match.end() + 600]).group(1)  # type: ignore[union-attr]
        for match in re.finditer(r'IllegalMoveError\(\s*"[A-Z]\d+(?:\.\d+)?",', sources)
    }
    assert used == MOVE_CODES


@pytest.mark.parametrize("name", diabolo.games())
def test_every_illegal_move_of_random_games_has_a_documented_code(name: str) -> None:
    game = new_game(name, stale_calls="reject") if name == "knizia" else new_game(name)
    rng = random.Random(1)
    seen: set[str] = set()
    for state in random_states(game, seed=2, limit=150):
        for _ in range(6):
            seat = rng.randrange(game.players)
            action = rng.randrange(min(game.num_actions, 300))
            before = state.to_json()
            try:
                state.clone().apply(action, player=seat)
            except diabolo.IllegalMoveError as error:
                assert error.code in MOVE_CODES, error
                assert error.clause and str(error).startswith(error.clause)
                assert all(isinstance(value, str) and value in str(error) for value in error.params.values()), error
                seen.add(error.code)
            assert state.to_json() == before
    assert len(seen) >= 3


def test_class_codes_and_notation_clauses() -> None:
    for name, clause in [("schacht", "S8"), ("duvelen", "D7"), ("knizia", "K7")]:
        game = new_game(name)
        for bad in ["?!", 10**6, {"kind": "fly"}, 2.5]:
            with pytest.raises(diabolo.NotationError) as error:
                game.move(bad)
            assert error.value.code == "bad_notation" and error.value.clause == clause
    cases: list[tuple[Callable[[], object], type[diabolo.DiaboloError], str]] = [
        (lambda: diabolo.load("schacht", players=9), diabolo.OptionError, "bad_option"),
        (lambda: diabolo.load("schacht").state_from_json("{}"), diabolo.StateFormatError, "bad_state"),
        (lambda: diabolo.load("schacht").new_state(seed=1).observation(7), diabolo.PlayerError, "bad_player"),
        (lambda: diabolo.Lexicon.load("tlh"), diabolo.LexiconNotFoundError, "lexicon_not_found"),
    ]
    for call, cls, code in cases:
        with pytest.raises(cls) as raised:
            call()
        assert raised.value.code == code and raised.value.params == {}


def test_a_stale_move_names_the_rule_it_breaks_now() -> None:
    table = diabolo.load("duvelen", players=2).new_state(decks=[DECK, DECK])
    table.apply("R1:Ad>new", player=0, version=0)
    table.apply("R2:2d>1", player=1, version=1)
    with pytest.raises(diabolo.StaleMoveError) as stale:
        table.apply("R2:2d>1", player=0, version=1)
    assert stale.value.code == "stale_move"
    assert stale.value.params == {
        "seen": "1",
        "version": "2",
        "rule": "pile_wants_another",
        "pile": "1",
        "next": "3d",
        "card": "2d",
    }


def test_an_invalid_word_says_why() -> None:
    from diabolo.knizia import check_word

    with pytest.raises(diabolo.InvalidWordError) as error:
        check_word("REST", ["R", "E", "TS"], diabolo.Lexicon.from_words(["Rest"]))
    assert error.value.code == "invalid_word" and error.value.params == {"reason": "double letter split or reversed"}


DECK = [rank + suit for suit in "hdcs" for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
"""A deck in suit order: the Stok holds the hearts, the Rij Ad, 2d, 3d, 4d (D2.5)."""
