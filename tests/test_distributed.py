"""diabolo.distributed on a real Ray cluster started by the test on loopback: matches,
tournaments and self-play data equal the local runners' for the same seed, whatever the
block size; bad bots are refused with the reason."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
import ray

import diabolo
import diabolo.distributed as distributed
from diabolo.selfplay import SelfPlayData

WORDS = diabolo.Lexicon.from_words(["Tor", "Rot", "Ort", "Tore", "Rest", "Rast", "Rate", "Nest", "Ernst", "Nase"])


pytestmark = pytest.mark.usefixtures("ray_cluster")  # conftest.py: a Ray cluster on loopback


GAMES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("schacht", {"players": 3}, ["heuristic", "random", "random"]),
    ("schacht", {"players": 5}, ["ismcts", "heuristic", "random", "heuristic", "random"]),
    ("duvelen", {"players": 3}, ["lookahead", "greedy", "random"]),
    ("knizia", {"players": 3, "lexicon": WORDS}, ["word", "random", "word"]),
]


# A partial of diabolo.bot pickles by reference to diabolo, which the workers import; a
# function of this module would pickle by reference to a module the workers may not find.
_ISMCTS = functools.partial(diabolo.bot, "schacht", "ismcts", iterations=60)


def _local(name: str, kinds: list[str]) -> list[Any]:
    return [_ISMCTS() if kind == "ismcts" else diabolo.bot(name, kind) for kind in kinds]


def _remote(kinds: list[str]) -> list[Any]:
    return [_ISMCTS if kind == "ismcts" else kind for kind in kinds]


@pytest.mark.parametrize(("name", "options", "kinds"), GAMES)
def test_a_distributed_match_equals_the_local_match(name: str, options: dict[str, Any], kinds: list[str]) -> None:
    game = diabolo.load(name, **options)
    local = diabolo.match(game, _local(name, kinds), games=24, seed=5)
    assert ray.cluster_resources()["CPU"] == 2  # type: ignore[no-untyped-call]
    for block in (None, 5, 24):
        remote = distributed.match(game, _remote(kinds), games=24, seed=5, block=block)
        assert remote.names == local.names
        np.testing.assert_array_equal(remote.scores, local.scores)
        np.testing.assert_array_equal(remote.wins, local.wins)


def test_a_distributed_tournament_equals_the_local_tournament() -> None:
    game = diabolo.load("schacht", players=4)
    searcher = functools.partial(diabolo.bot, "schacht", "ismcts", iterations=40)
    remote = distributed.tournament(
        game, {"heuristic": "heuristic", "random": "random", "ismcts": searcher}, games=8, seed=3
    )
    local = diabolo.tournament(
        game,
        {
            "heuristic": diabolo.bot("schacht", "heuristic"),
            "random": diabolo.bot("schacht", "random"),
            "ismcts": searcher(),
        },
        games=8,
        seed=3,
    )
    assert remote.points == local.points and remote.elo == local.elo
    for pair, result in local.matches.items():
        np.testing.assert_array_equal(remote.matches[pair].scores, result.scores)


@pytest.mark.parametrize(("name", "options", "kinds"), GAMES)
def test_distributed_self_play_equals_local_self_play(name: str, options: dict[str, Any], kinds: list[str]) -> None:
    game = diabolo.load(name, **options)
    local = diabolo.self_play(game, _local(name, kinds), games=6, seed=9)
    remote = distributed.self_play(game, _remote(kinds), games=6, seed=9, block=4)
    for key in ("observations", "masks", "actions", "seats", "games", "returns", "scores"):
        np.testing.assert_array_equal(getattr(remote, key), getattr(local, key), err_msg=key)
    assert isinstance(remote, SelfPlayData) and remote.first == 0


def test_a_python_bot_travels_to_the_workers() -> None:
    class FirstLegalMove:  # defined here, so that it is pickled by value, as a user's would be
        name = "first"

        def choose(self, state: Any, player: int) -> Any:
            return state.legal_moves(player)[0]

    game = diabolo.load("schacht", players=3)
    bots: list[Any] = [FirstLegalMove(), "heuristic", "random"]
    remote = distributed.match(game, bots, games=9, seed=2, block=4)
    local = diabolo.match(
        game, [FirstLegalMove(), diabolo.bot("schacht", "heuristic"), diabolo.bot("schacht", "random")], games=9, seed=2
    )
    np.testing.assert_array_equal(remote.scores, local.scores)


@pytest.mark.parametrize(
    ("bots", "names"),
    [
        ([diabolo.bot("schacht", "random"), "random", "random"], "bot 0 is a C.. bot .random., which cannot be sent"),
        (["random", "random"], "3 seats, got 2 bots"),
        (["random", "random", 7], "bot 2 is not a bot kind"),
        (["random", "random", "greedy"], "no bot 'greedy' for schacht"),
    ],
)
def test_bad_bots_are_refused_with_the_reason(bots: list[Any], names: str) -> None:
    with pytest.raises(diabolo.OptionError, match=names):
        distributed.match(diabolo.load("schacht", players=3), bots, games=3)
