"""Game records (diabolo.Record): the format round trip, replay, redaction and bad input."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Record
from tests.contract.games import WORDS, new_game


def played(name: str, seed: int, players: int = 3, limit: int = 3000) -> Record:
    """A record of a random game of `name`, timed half a second a move."""
    game = new_game(name, players=players, **({"rounds": 2} if name != "duvelen" else {}))
    record = Record(game.new_state(seed=seed), players=[f"p{seat}" for seat in range(players)], started="2026-11-26")
    rng = random.Random(seed)
    while record.state is not None and record.state.pending_seats and len(record.moves) < limit:
        seat = rng.choice(record.state.pending_seats)
        record.apply(rng.choice(record.state.legal_moves(seat)), player=seat, time=len(record.moves) / 2)
    return record


@pytest.mark.parametrize("name", diabolo.games())
def test_a_record_round_trips_and_replays_move_by_move(name: str) -> None:
    record = played(name, seed=1)
    text = record.dump()
    data = json.loads(text)
    assert data["format"] == "diabolo.record/1" and data["game"] == name and data["audience"] == "full"
    assert data["options"] == data["start"]["options"]
    assert record.state is not None
    again = Record.load(text, game=record.state.game if name == "knizia" else None)
    assert again.dump() == text
    states = list(again.states())
    assert len(states) == len(record.moves) + 1 and states[-1] == record.state
    assert [state.version for state in states] == list(range(len(states)))
    if record.state.is_terminal:
        assert data["result"] == {"scores": list(record.state.scores), "winners": list(record.state.winners)}
    assert [r["first_move"] for r in data["rounds"]][0] == 0
    for earlier, later in zip(data["rounds"], data["rounds"][1:]):
        assert later["first_move"] == earlier["last_move"] + 1 and later["round"] == earlier["round"] + 1


def test_a_record_of_the_packaged_word_list_loads_without_its_game() -> None:
    record = Record(diabolo.load("knizia", players=2, rounds=1).new_state(seed=2))
    for _ in range(5):
        record.apply("reveal", player=0)
    assert Record.load(record.dump()).moves == record.moves


@pytest.mark.parametrize("name", diabolo.games())
@pytest.mark.parametrize("audience", [None, 0, 2])
def test_a_redacted_record_holds_what_its_audience_saw_and_nothing_else(name: str, audience: int | None) -> None:
    record = played(name, seed=5)
    redacted = record.redacted(audience)
    text = redacted.dump()
    assert '"start"' not in text and '"seed"' not in text
    again = Record.load(text)
    assert again.audience == audience and again.moves == redacted.moves and again.view == redacted.view
    assert again.options == record.options and json.loads(text)["options"] == record.options
    first = next(record.states())
    assert redacted.view == (first.public_observation() if audience is None else first.observation(audience))
    seen = []
    for state in list(record.states())[1:]:
        events = state.public_events() if audience is None else state.events_for(audience)
        seat, move = state.last_move  # type: ignore[misc]
        secret = state.game.visibility["moves"][move.kind] == "secret" and seat != audience
        if secret and not events:
            continue
        seen.append((None if secret else seat, None if secret else str(move), tuple(events)))
    assert [(m.seat, m.move, m.events) for m in redacted.moves] == seen


def test_a_spectator_record_hides_secret_decisions_until_they_count() -> None:
    """S5.3, S7.1: no entry shows who bet or held before the colour is scored."""
    record = played("schacht", seed=8, players=4)
    kinds = {str(m.move) for m in record.moves}
    assert {"bet", "hold"} & kinds
    public = record.redacted(None)
    assert all(m.move not in ("bet", "hold") for m in public.moves)
    for seat in range(4):
        mine = record.redacted(seat)
        assert all(m.seat == seat for m in mine.moves if m.move in ("bet", "hold"))


def test_a_redacted_record_cannot_be_played_or_replayed() -> None:
    redacted = played("schacht", seed=3).redacted(1)
    with pytest.raises(diabolo.OptionError, match="redacted"):
        redacted.apply("bet")
    with pytest.raises(diabolo.OptionError, match="redacted"):
        next(redacted.states())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "JSON"),
        ("[]", "format"),
        ('{"format": "diabolo.record/2"}', "format"),
        ('{"format": "diabolo.record/1"}', "missing"),
    ],
)
def test_a_bad_record_is_a_state_format_error(text: str, message: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match=message):
        Record.load(text)


def test_a_record_with_an_illegal_move_names_it() -> None:
    data: dict[str, Any] = json.loads(played("schacht", seed=4).dump())
    data["moves"][3]["move"] = "bet"
    with pytest.raises(diabolo.StateFormatError, match=r"move 3 .*S5\.3"):
        Record.load(json.dumps(data))


def test_a_record_needs_a_name_per_seat_and_records_nothing_on_an_illegal_move() -> None:
    state = diabolo.load("schacht", players=3).new_state(seed=1)
    with pytest.raises(diabolo.OptionError, match="3 players' names"):
        Record(state, players=["a", "b"])
    record = Record(state)
    assert record.players == ["seat 0", "seat 1", "seat 2"]
    with pytest.raises(diabolo.IllegalMoveError):
        record.apply("bet")
    assert record.moves == [] and record.state is not None and record.state.version == 0
    assert state.version == 0  # the record plays on its own copy


def test_words_of_a_custom_lexicon_need_its_game() -> None:
    record = Record(new_game("knizia", players=2).new_state(seed=1))
    record.apply("reveal", player=0)
    with pytest.raises(diabolo.StateFormatError):
        Record.load(record.dump())  # the packaged German list is not WORDS
    assert Record.load(record.dump(), game=new_game("knizia", players=2)).moves == record.moves
    assert len(WORDS) > 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document (the document itself included)."""
    found = [prefix]
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found += _paths(child, (*prefix, key))
    return found


@pytest.mark.parametrize("name", diabolo.games())
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_record_edited_anywhere_loads_or_is_refused_by_a_diabolo_error(name: str, data: st.DataObject) -> None:
    """Any value at any place of a real record: Record.load gives a record or raises a
    DiaboloError naming what is wrong, never another exception."""
    document = json.loads(_record_text(name))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        value = data.draw(JSON_VALUES)
        if not path:
            document = value
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value
    text = data.draw(st.sampled_from([json.dumps(document), json.dumps(document)[:-3], "[" * 3000]))
    try:
        Record.load(text, game=new_game("knizia", players=3) if name == "knizia" else None)
    except diabolo.DiaboloError:
        pass


@functools.cache
def _record_text(name: str) -> str:
    return played(name, seed=7, limit=40).dump()
