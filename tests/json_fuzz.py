"""Mutations of real state JSON for the loaders' fuzz tests, shared by every game."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

K = TypeVar("K")

# Every mutation; a game's fuzz test passes the ones that make sense for its JSON.
OPERATIONS = ("set", "delete", "append", "duplicate", "swap", "bump", "move")


def json_values(words: Sequence[str]) -> st.SearchStrategy[Any]:
    """Random JSON values, with `words` (the game's own notation) among the strings."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-10, max_value=10),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=6),
        st.sampled_from(list(words)),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(st.text(max_size=5), children, max_size=3)
        ),
        max_leaves=8,
    )


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside `value`, itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from json_paths(item, prefix + (i,))


def value_at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def mutate(data: Any, draw: st.DrawFn, values: st.SearchStrategy[Any], operations: Sequence[str]) -> Any:
    """`data` with one drawn change at a drawn place (returns the new root)."""
    path = draw(st.sampled_from(list(json_paths(data))))
    if not path:
        return draw(values)
    parent = value_at(data, path[:-1])
    last = path[-1]
    op = draw(st.sampled_from(list(operations)))
    if op == "set":
        parent[last] = draw(values)
    elif op == "delete":
        del parent[last]
    elif op == "append" and isinstance(parent[last], list):
        parent[last].append(draw(values))
    elif op == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    elif op == "swap" and isinstance(parent, list) and parent:
        parent[0], parent[last] = parent[last], parent[0]
    elif op == "bump" and type(parent[last]) is int:
        parent[last] += draw(st.sampled_from([-1, 1, 2**8, -(2**8), 2**63]))
    elif op == "move" and isinstance(parent, list) and parent:
        # Move a card (or anything) from one list to another list of the state.
        item = parent.pop(last)
        lists = [p for p in json_paths(data) if isinstance(value_at(data, p), list)]
        if lists:
            value_at(data, draw(st.sampled_from(lists))).append(item)
    return data


def mutated_states(
    states: Callable[[], Sequence[tuple[K, str]]],
    values: st.SearchStrategy[Any],
    operations: Sequence[str] = OPERATIONS,
    most: int = 3,
) -> st.SearchStrategy[tuple[K, str]]:
    """(key, JSON text) of one of `states()` (called when drawing, so that the states
    are made only when a test runs) with 1 to `most` drawn mutations."""

    @st.composite
    def mutated(draw: st.DrawFn) -> tuple[K, str]:
        key, text = draw(st.sampled_from(states()))
        data: Any = json.loads(text)
        for _ in range(draw(st.integers(min_value=1, max_value=most))):
            data = mutate(data, draw, values, operations)
        return key, json.dumps(data)

    return mutated()
