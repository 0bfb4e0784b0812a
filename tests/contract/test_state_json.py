"""Reading a state's JSON, the same in every game: any JSON text that holds the state
reads back to it (escapes, spacing, key order), and anything else is a StateFormatError
that names what is wrong (docs: contract). Each game's own values (cards, moves, rows)
are tested in tests/test_<game>_bad_input.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

import diabolo
from tests.contract.games import CATALOGUE, new_game, random_states


def states(name: str) -> list[Any]:
    """Every 9th state of a random game of 3 seats."""
    return random_states(new_game(name), seed=11, limit=150)[::9]


def escaped(value: Any) -> str:
    """`value` as JSON text with every character of every string and key written as a
    \\u escape, so that no string of the text can be read in place."""
    if isinstance(value, str):
        return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else c for c in value) + '"'
    if isinstance(value, dict):
        return "{" + ",".join(escaped(k) + ":" + escaped(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(escaped(item) for item in value) + "]"
    return json.dumps(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_any_spelling_of_the_json_reads_back(name: str) -> None:
    game = new_game(name)
    for state in states(name):
        data = json.loads(state.to_json())
        for text in (
            escaped(data),
            json.dumps(data, indent=2),
            json.dumps(dict(reversed(list(data.items())))),  # keys in another order
            " \n" + state.to_json() + "\t ",
        ):
            assert game.state_from_json(text) == state


@pytest.mark.parametrize("name", CATALOGUE)
def test_every_key_is_required(name: str) -> None:
    game = new_game(name)
    data = json.loads(states(name)[-1].to_json())
    for key in data:
        missing = {k: v for k, v in data.items() if k != key}
        with pytest.raises(diabolo.StateFormatError, match=f"^state JSON: missing key '{key}'$"):
            game.state_from_json(json.dumps(missing))


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_value_of_the_wrong_type_is_named(name: str) -> None:
    game = new_game(name)
    data = json.loads(states(name)[-1].to_json())
    wrongs: list[Any] = [{"x": 1}, [[[]]], "text", 1.5, 2**64]
    for key in data:
        for wrong in wrongs:
            if isinstance(data[key], type(wrong)):
                continue
            with pytest.raises(diabolo.StateFormatError, match=f"^state JSON: .*{key}"):
                game.state_from_json(json.dumps({**data, key: wrong}))


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not valid JSON"),
        ("{", "is not valid JSON"),
        ("not json", "is not valid JSON"),
        ("{} {}", "is not valid JSON: extra data"),
        ("[" * 65 + "]" * 65, "nested more than 64 levels deep"),
        ("[1, 2]", "expected an object"),
        ("null", "expected an object"),
        ('{"a": 1, "b": {"c": 2, "c": 3}}', "the key 'c' is given twice in one object"),
    ],
)
def test_text_that_is_not_a_state(name: str, text: str, message: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match=f"^state JSON:? .*{message}"):
        new_game(name).state_from_json(text)


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_key_given_twice_is_refused(name: str) -> None:
    text = states(name)[-1].to_json()
    twice = text[:-1] + ',"round":0}'
    with pytest.raises(diabolo.StateFormatError, match="^state JSON: the key 'round' is given twice in one object$"):
        new_game(name).state_from_json(twice)


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_wrong_list_item_is_named_by_its_path(name: str) -> None:
    game = new_game(name)
    data = json.loads(states(name)[-1].to_json())
    data["history"] = [*data["history"], 7]
    with pytest.raises(diabolo.StateFormatError, match=rf"^state JSON: history\[{len(data['history']) - 1}\]: "):
        game.state_from_json(json.dumps(data))
    data["scores"] = [0, 0, 0, [0]]
    with pytest.raises(diabolo.StateFormatError, match=r"^state JSON: scores"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_state_of_other_options_is_refused(name: str) -> None:
    text = states(name)[-1].to_json()
    with pytest.raises(diabolo.StateFormatError, match="^state JSON: options: its options differ from this game's$"):
        new_game(name, players=4).state_from_json(text)
    data = json.loads(text)
    data["options"] = {k: v for k, v in data["options"].items() if k != "players"}  # 3 seats is not the default
    with pytest.raises(diabolo.StateFormatError, match="^state JSON: options: "):
        new_game(name).state_from_json(json.dumps(data))
