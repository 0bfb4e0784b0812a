"""Bad input to any game, through the one binding of the contract: the same argument gets
the same specific error in every game and changes nothing (docs/interface.rst, "Errors").
Each check runs over every game of the catalogue with the game's own samples (its notation,
options, deals, state JSON: tests/contract/samples/, one module a game); what only one game
has (its rule clauses, its deals' and states' invariants) stays in
tests/test_<game>_bad_input.py. Also the properties every state has: round trips, clone
isolation and seeds."""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diabolo
from tests.bad_input_helpers import BadInputSamples, assert_unchanged_after
from tests.contract.games import CATALOGUE, new_game, random_states
from tests.contract.samples import SAMPLES
from tests.json_fuzz import mutated_states

ERRORS = (
    diabolo.DiaboloError,
    diabolo.IllegalMoveError,
    diabolo.NotationError,
    diabolo.OptionError,
    diabolo.PlayerError,
    diabolo.StateFormatError,
    diabolo.InvalidWordError,
    diabolo.LexiconNotFoundError,
)
BAD_SEEDS: list[Any] = [-1, -(2**63), 2**64, 2**64 + 1, 2**100, 1.0, 0.5, True, False, None, "1", [1]]


def positions(name: str, seed: int = 1, steps: int = 60) -> list[Any]:
    """States along a random game of 3 seats."""
    return random_states(new_game(name), seed, steps)


def test_every_error_is_a_value_error() -> None:
    """docs/interface.rst: every error is a DiaboloError, which is a ValueError."""
    for cls in ERRORS:
        assert issubclass(cls, diabolo.DiaboloError) and issubclass(cls, ValueError)
    assert diabolo.IllegalMoveError("S3.2: full", "S3.2").clause == "S3.2"
    assert diabolo.InvalidWordError("no", "not a word").reason == "not a word"


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds(name: str, seed: Any) -> None:
    """docs/interface.rst: a seed is an int in [0, 2**64); others raise OptionError and change nothing."""
    game = new_game(name)
    with pytest.raises(diabolo.OptionError, match=re.escape("seed must be an int in [0, 2**64)")):
        game.new_state(seed=seed)
    state = positions(name)[-1]
    assert_unchanged_after(state, diabolo.OptionError, lambda: state.resample(0, seed), match="seed must be an int")
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        game.play_random(1, seed=seed)


@pytest.mark.parametrize("name", CATALOGUE)
def test_seed_bounds_accepted(name: str) -> None:
    for seed in (0, 1, 2**32, 2**63, 2**64 - 1):
        new_game(name).new_state(seed=seed).resample(1, seed)


@pytest.mark.parametrize("name", CATALOGUE)
def test_state_json_not_text(name: str) -> None:
    for value in (None, 1, b"{}", ["{}"], {"format": f"diabolo.{name}/1"}):
        with pytest.raises(diabolo.StateFormatError, match="state JSON must be a str"):
            new_game(name).state_from_json(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_parse_non_str(name: str) -> None:
    """A non-str to a str-only parameter: NotationError, never a crash."""
    move_class = type(new_game(name).move(1))
    for value in (None, 5, b"pass", ["pass"], 1.5):
        with pytest.raises(diabolo.NotationError, match="notation must be a str"):
            move_class.parse(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_action_ids_out_of_range(name: str) -> None:
    """Action ids are 0 .. num_actions - 1; others raise NotationError naming the range and
    change nothing."""
    game = new_game(name)
    n = game.num_actions
    states = positions(name)
    for action in (-1, -2, n, n + 1, n + 1000, 2**31, -(2**31), 2**63, 2**64, -(2**70), 2**200):
        for state in states[::10]:
            seat = (state.pending_seats or [0])[0]
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(action, player=seat), match="out of range"
            )
        with pytest.raises(diabolo.NotationError, match="out of range"):
            game.move(action)


@pytest.mark.parametrize("name", CATALOGUE)
def test_bad_seats_change_nothing(name: str) -> None:
    """A seat is 0 .. players - 1 (any integer type); others raise PlayerError, or
    NotationError for what is no integer at all... never a crash, and nothing changes."""
    for state in positions(name)[::10]:
        for seat in (-1, 3, 100, 2**64, -(2**70)):
            for call in (
                lambda: state.legal_actions(seat),
                lambda: state.observation(seat),
                lambda: state.observation_tensor(seat),
                lambda: state.resample(seat, 1),
            ):
                assert_unchanged_after(state, diabolo.PlayerError, call, match="seat")
            if state.pending_seats:
                action = state.legal_actions(state.pending_seats[0])[0]
                assert_unchanged_after(state, diabolo.PlayerError, lambda: state.apply(action, player=seat))


@pytest.mark.parametrize("name", CATALOGUE)
def test_bad_move_data_changes_nothing(name: str) -> None:
    for state in positions(name)[::10]:
        seat = (state.pending_seats or [0])[0]
        for data in ({}, {"kind": "nope"}, {"kind": 5}, {"kind": "pass", "extra": 1}, {"move": "pass"}):
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(data, player=seat), match="as data is like"
            )


# ---- each game with its own samples ----------------------------------------------------------


def rows(part: Callable[[BadInputSamples], Iterable[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
    """(game, *case) for each case (a tuple) each game gives."""
    return [(name, *case) for name in CATALOGUE for case in part(SAMPLES[name])]


def each(part: Callable[[BadInputSamples], Iterable[Any]]) -> list[tuple[str, Any]]:
    """(game, sample) for each sample each game gives."""
    return [(name, sample) for name in CATALOGUE for sample in part(SAMPLES[name])]


def pattern(fragment: str | None) -> str | None:
    return None if fragment is None else re.escape(fragment)


def seat_message(state: Any, got: str = "") -> str:
    return re.escape(f"player must be a seat 0..{state.game.players - 1}, got{got}")


def move_class(name: str) -> Any:
    return type(SAMPLES[name].game().move(0))


def not_a_move(name: str, value: object) -> str:
    """What the error says of `value` given as a move of `name`: "a Schacht move is a
    SchachtMove, ...", or for a dict "a Schacht move as data is like ..."."""
    cls = move_class(name).__name__
    title = cls.removesuffix("Move")
    if isinstance(value, dict):
        return "(?i)" + re.escape(f"a {title} move as data is like")
    return re.escape(f"a {title} move is a {cls}")


def clause(name: str) -> re.Pattern[str]:
    """A clause of `name`'s rules: S3.2, D7, K10.3, H3."""
    return re.compile(rf"{name[0].upper()}\d+(\.\d+)?")


def deal(samples: BadInputSamples, **arguments: Any) -> Any:
    if samples.deal_seed is not None:
        arguments = {"seed": samples.deal_seed, **arguments}
    return samples.deal_game().new_state(**arguments)


def games_of(name: str) -> list[Any]:
    """The games of the samples of `name`, each once (the state JSON tests read text with each)."""
    game, deal_game = SAMPLES[name].game(), SAMPLES[name].deal_game()
    return [game] if deal_game == game else [game, deal_game]


def reachable_state(samples: BadInputSamples, index: int) -> Any:
    states = samples.reachable()
    key, text = states[index % len(states)]
    return samples.reachable_game(key).state_from_json(text)


_MOVERS: dict[str, list[tuple[Any, int | None]]] = {}


def movers_of(name: str) -> list[tuple[Any, int | None]]:
    """SAMPLES[name].movers(), made once (the tests apply to clones)."""
    if name not in _MOVERS:
        _MOVERS[name] = SAMPLES[name].movers()
    return _MOVERS[name]


def test_every_game_gives_its_samples() -> None:
    assert sorted(SAMPLES) == sorted(CATALOGUE)


# options


UNKNOWN = [("seed", 1), ("Players", 3), ("player", 3)]
"""Options no game has (a seed is new_state's)."""


def options_of_every_game(name: str) -> list[tuple[dict[str, Any], type[Exception], str]]:
    """Bad values of the options every game has, and unknown options."""
    return [
        *(({"players": value}, diabolo.OptionError, "players must be") for value in (0, -1)),
        ({"players": 2**64}, diabolo.OptionError, "players is out of range"),
        *(({"players": value}, diabolo.OptionError, "players must be an int") for value in (3.0, True, "3", None)),
        *(({"rounds": value}, diabolo.OptionError, "rounds must be") for value in (0, -1)),
        ({"rounds": 2**70}, diabolo.OptionError, "rounds is out of range"),
        *(({"rounds": value}, diabolo.OptionError, "rounds must be an int") for value in (1.5, False, "2")),
        *(({key: value}, diabolo.OptionError, f"unknown option '{key}' for {name}") for key, value in UNKNOWN),
    ]


@pytest.mark.parametrize(
    ("name", "options", "error", "fragment"),
    rows(lambda s: [*options_of_every_game(s.name), *s.bad_options]),
)
def test_bad_options(name: str, options: dict[str, Any], error: type[Exception], fragment: str | None) -> None:
    """S1.1, S1.3, S4.1, S6.1; D1.2, D1.3, D4.5; K1.1, K1.4, K3.3, K4.2, K4.3, K10.3, K10.7; H1:
    unknown options, wrong types and values raise OptionError (an unknown Knizia lexicon
    language LexiconNotFoundError, which says how to install one), through diabolo.load and
    through the game's class."""
    full = {**SAMPLES[name].base_options, **options}
    with pytest.raises(error, match=pattern(fragment)):
        diabolo.load(name, **full)
    with pytest.raises(error, match=pattern(fragment)):
        type(SAMPLES[name].game())(**full)


@pytest.mark.parametrize("name", CATALOGUE)
def test_good_option_bounds(name: str) -> None:
    """The limits themselves are fine."""
    for options in SAMPLES[name].good_options:
        diabolo.load(name, **{**SAMPLES[name].base_options, **options}).new_state(seed=1)


@pytest.mark.parametrize("name", ["chess", "", "Schacht", "knizia ", 1, None])
def test_unknown_game(name: Any) -> None:
    with pytest.raises(diabolo.OptionError):
        diabolo.load(name)


# seats


@pytest.mark.parametrize(("name", "seat"), each(lambda s: s.bad_seats))
def test_bad_seats(name: str, seat: Any) -> None:
    """docs/interface.rst: a seat is an int 0..n-1 (a bool is not a seat); anything else raises
    PlayerError saying so, in every phase, and changes nothing; a bot refuses it too."""
    samples = SAMPLES[name]
    for state in samples.positions():
        calls: list[Callable[[], object]] = [
            lambda: state.observation(seat),
            lambda: state.observation_tensor(seat),
            lambda: state.legal_moves(seat),
            lambda: state.legal_actions(seat),
            lambda: state.legal_action_mask(seat),
            lambda: state.resample(seat, 1),
            *(lambda move=move: state.apply(move, player=seat) for move in samples.seat_moves),
        ]
        if samples.bot is not None:
            bot = samples.bot()
            calls.append(lambda: bot.choose(state, seat))
        for call in calls:
            assert_unchanged_after(state, diabolo.PlayerError, call, match=seat_message(state))


@pytest.mark.parametrize("name", CATALOGUE)
def test_missing_player(name: str) -> None:
    """A view is always some seat's: observation(None) is a PlayerError. Where no one seat
    is to move (S5.3: the doubler decisions; D3, K3.2, K10.2: no turns at all), a move or a
    query without a player is a PlayerError saying to name the player, and changes nothing."""
    samples = SAMPLES[name]
    for state in samples.positions():
        calls: list[Callable[[], object]] = [
            lambda: state.observation(None),
            lambda: state.observation_tensor(None),
            lambda: state.resample(None, 1),
        ]
        for call in calls:
            assert_unchanged_after(state, diabolo.PlayerError, call, match=seat_message(state, " None"))
    for state in samples.simultaneous():
        assert state.current_player == (diabolo.TERMINAL if state.is_terminal else diabolo.SIMULTANEOUS)
        for move in samples.seat_moves:
            for call in (lambda: state.apply(move), lambda: state.apply(move, player=None)):
                assert_unchanged_after(state, diabolo.PlayerError, call, match=re.escape(samples.no_seat_message))
        for query in (state.legal_moves, state.legal_actions, state.legal_action_mask):
            for call in (lambda: query(), lambda: query(None)):
                assert_unchanged_after(state, diabolo.PlayerError, call, match=re.escape(samples.no_seat_message))
    assert diabolo.SIMULTANEOUS == -2 and diabolo.TERMINAL == -4


@pytest.mark.parametrize("name", CATALOGUE)
def test_seat_of_a_smaller_game(name: str) -> None:
    """S1.1, D1.2, K1.1, H1: a seat that exists with more players does not exist here."""
    samples = SAMPLES[name]
    players = next(entry.min_players for entry in diabolo.catalogue() if entry.name == name)
    state = diabolo.load(name, **{**samples.base_options, "players": players}).new_state(seed=1)
    for seat in (players, 5, 7):
        for move in samples.seat_moves:
            assert_unchanged_after(
                state, diabolo.PlayerError, lambda: state.apply(move, player=seat), match=seat_message(state)
            )


@pytest.mark.parametrize("name", CATALOGUE)
def test_the_catalogues_seat_counts_are_the_ones_the_options_allow(name: str) -> None:
    """S1.1, D1.2, K1.1, H1: every seat count of the catalogue's ranges loads (the wider one
    with the game's widest options), and one seat fewer or more than the wider one does not."""
    samples, entry = SAMPLES[name], diabolo.registry.catalogue_entry(name)
    assert entry.min_players_any <= entry.min_players <= entry.max_players <= entry.max_players_any
    for options, low, high in (
        (samples.base_options, entry.min_players, entry.max_players),
        ({**samples.base_options, **samples.widest_options}, entry.min_players_any, entry.max_players_any),
    ):
        for players in range(low, high + 1):
            assert diabolo.load(name, **{**options, "players": players}).players == players
        for players in (low - 1, high + 1):
            with pytest.raises(diabolo.OptionError, match="players"):
                diabolo.load(name, **{**options, "players": players})


# given deals


@pytest.mark.parametrize(("name", "seed"), [(name, seed) for name in CATALOGUE for seed in BAD_SEEDS])
def test_bad_seeds_with_a_given_deal(name: str, seed: Any) -> None:
    """docs/interface.rst: a seed is checked with a given deal too (the rest: test_bad_seeds)."""
    samples = SAMPLES[name]
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        samples.deal_game().new_state(seed=seed, **samples.good_deal)


@pytest.mark.parametrize(("name", "bad", "fragment"), rows(lambda s: s.bad_deals))
def test_bad_given_deals(name: str, bad: Any, fragment: str | None) -> None:
    """S2.4, D2.5, K10.7, H7: a given deal that is not exactly the deck (a seat's deck in
    Duvelen) is a StateFormatError, in each place a deal is given."""
    samples = SAMPLES[name]
    for arguments in samples.deal_places(bad):
        with pytest.raises(diabolo.StateFormatError, match=pattern(fragment)):
            deal(samples, **arguments)


@pytest.mark.parametrize(("name", "arguments", "fragment"), rows(lambda s: s.bad_decks))
def test_bad_decks_argument(name: str, arguments: dict[str, Any], fragment: str | None) -> None:
    """S2.4: decks is a list of per-round deals, at most one per round; D2.5: one list of 52
    cards per seat; K10.7: one deal per round, at most 64; H7: a deal has only deck; and
    deck and decks are not given together."""
    with pytest.raises(diabolo.StateFormatError, match=pattern(fragment)):
        deal(SAMPLES[name], **arguments)


# notation and moves


@pytest.mark.parametrize(("name", "text", "fragment"), rows(lambda s: s.bad_notation))
def test_malformed_notation(name: str, text: str, fragment: str | None) -> None:
    """S8, D7, K7, K10.8: text that is not a move raises NotationError wherever a move is
    read (parse, the game's move and action, apply in every phase given) and changes nothing."""
    samples = SAMPLES[name]
    game = samples.game()
    with pytest.raises(diabolo.NotationError, match=pattern(fragment)):
        move_class(name).parse(text)
    with pytest.raises(diabolo.NotationError, match=pattern(fragment)):
        game.move(text)
    with pytest.raises(diabolo.NotationError, match=pattern(fragment)):
        game.action(text)
    for state, seat in samples.movers():
        assert_unchanged_after(
            state, diabolo.NotationError, lambda: state.apply(text, player=seat), match=pattern(fragment)
        )


@pytest.mark.parametrize(("name", "text"), each(lambda s: s.surrogate_notation))
def test_lone_surrogates_are_notation_errors(name: str, text: str) -> None:
    """docs/interface.rst, Errors: a str holding a lone surrogate is a NotationError, never a
    RuntimeError or a crash."""
    for state, seat in SAMPLES[name].movers():
        assert_unchanged_after(
            state, diabolo.NotationError, lambda: state.apply(text, player=seat), match="unpaired surrogate"
        )
    with pytest.raises(diabolo.NotationError, match="unpaired surrogate"):
        move_class(name).parse(text)


WRONG_TYPES: list[object] = [True, False, 1.0, 0.0, None, object(), 1j]
"""No move in any game; each game adds its own look-alikes (its action ids as floats, lists
and tuples, its notation as bytes and in a dict)."""


@pytest.mark.parametrize(("name", "value"), each(lambda s: (*WRONG_TYPES, *s.wrong_type_moves)))
def test_moves_of_the_wrong_type(name: str, value: object) -> None:
    """docs/interface.rst: a move is the game's Move, an action id, notation or move data;
    anything else (a bool is not an action id, a dict without a kind is not move data)
    raises NotationError saying so and changes nothing."""
    samples = SAMPLES[name]
    for state, seat in samples.movers():
        assert_unchanged_after(
            state, diabolo.NotationError, lambda: state.apply(value, player=seat), match=not_a_move(name, value)
        )
    with pytest.raises(diabolo.NotationError, match=not_a_move(name, value)):
        samples.game().move(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_other_objects_as_moves(name: str) -> None:
    """docs/interface.rst: states, games, the module, the Move class and the moves of the
    other games are not moves."""
    samples = SAMPLES[name]
    game = samples.game()
    others: list[object] = [game, *samples.positions(), diabolo, move_class(name)]
    for other in CATALOGUE:
        if other != name:
            other_game = SAMPLES[other].game()
            others += [other_game.move(0), *(other_game.move(text) for text in SAMPLES[other].notation_samples)]
    for state, seat in samples.movers():
        for value in [state, *others]:
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(value, player=seat), match=not_a_move(name, value)
            )
    for value in others:
        with pytest.raises(diabolo.NotationError, match=not_a_move(name, value)):
            game.move(value)


FROM_ACTION = [name for name in CATALOGUE if hasattr(move_class(name), "from_action")]


def out_of_range(name: str) -> list[int]:
    n = SAMPLES[name].game().num_actions
    near = [-1, n, n + 1, 100, 255, 256, 1000, -(2**31), 2**31, 2**63, 2**64, -(2**70), 2**200]
    return [action for action in dict.fromkeys(near) if not 0 <= action < n]


@pytest.mark.parametrize(("name", "action"), [(name, action) for name in FROM_ACTION for action in out_of_range(name)])
def test_from_action_out_of_range(name: str, action: int) -> None:
    """S8, D7, docs/interface.rst: action ids are 0..num_actions-1 (applying one out of
    range: test_action_ids_out_of_range)."""
    with pytest.raises(diabolo.NotationError, match="out of range"):
        move_class(name).from_action(action)


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, value) for name in FROM_ACTION for value in (True, False, "75", "198", 1.0, None, [75], [198])],
)
def test_from_action_wrong_types(name: str, value: object) -> None:
    """docs/interface.rst: a bool is not an action id (apply rejects it; from_action must too),
    nor is text, a float or a list."""
    with pytest.raises((diabolo.NotationError, TypeError)):
        move_class(name).from_action(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_illegal_move_errors_name_clauses_for_every_action_id(name: str) -> None:
    """Every action id that is not legal raises IllegalMoveError naming a clause of the
    game's rules, and changes nothing."""
    for state in SAMPLES[name].clause_positions():
        for seat in range(state.game.players):
            legal = set(state.legal_actions(seat))
            for action in range(state.game.num_actions):
                if action in legal:
                    continue
                before = state.to_json()
                with pytest.raises(diabolo.IllegalMoveError) as error:
                    state.apply(action, player=seat)
                assert clause(name).fullmatch(error.value.clause), str(error.value)
                assert state.to_json() == before


@pytest.mark.parametrize("name", CATALOGUE)
def test_the_loop_calls_take_their_arguments_as_python_functions_do(name: str) -> None:
    """legal_actions, apply, clone, to_json and state_from_json are bound to CPython's calling convention directly
    (src/bind_fast.hpp): positional or by name, numpy integers, Python's own TypeErrors
    for a call that does not fit, each naming the function, and nothing changes."""
    state = positions(name)[20]
    seat = state.pending_seats[0]
    actions = state.legal_actions(seat)
    assert state.legal_actions(player=seat) == state.legal_actions(np.int64(seat)) == actions
    for call, message in (
        (lambda: state.legal_actions(seat, 1), r"^legal_actions\(\) takes at most 1 argument \(2 given\)$"),
        (lambda: state.legal_actions(seat=seat), r"^legal_actions\(\) got an unexpected keyword argument 'seat'$"),
        (lambda: state.apply(), r"^apply\(\) missing required argument 'move'$"),
        (lambda: state.apply(player=seat), r"^apply\(\) missing required argument 'move'$"),
        (lambda: state.apply(actions[0], seat, 0, 1), r"^apply\(\) takes at most 3 arguments \(4 given\)$"),
        (lambda: state.apply(actions[0], seat, player=seat), r"^apply\(\) got multiple values for argument 'player'$"),
        (lambda: state.clone(1), r"^clone\(\) takes no arguments \(1 given\)$"),
        (lambda: state.clone(deep=True), r"^clone\(\) got an unexpected keyword argument 'deep'$"),
    ):
        assert_unchanged_after(state, TypeError, call, match=message)
    assert_unchanged_after(state, diabolo.PlayerError, lambda: state.legal_actions(player=True), match="seat")
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(move=1.5, player=seat))
    assert_unchanged_after(state, diabolo.OptionError, lambda: state.apply(actions[0], seat, version=-1))
    played = state.clone()
    played.apply(version=played.version, player=np.int32(seat), move=np.int16(actions[0]))
    assert played.history[-1] == (seat, state.game.move(actions[0]))
    assert isinstance(type(state).current_player, type(type(state).is_terminal))
    for method, parameters in (
        ("legal_actions", "(self, /, player=None)"),
        ("apply", "(self, /, move, player=None, version=None)"),
        ("clone", "(self, /)"),
        ("to_json", "(self, /)"),
    ):
        assert str(inspect.signature(getattr(type(state), method))) == parameters
        assert ">>> " in getattr(type(state), method).__doc__
    assert str(inspect.signature(type(state.game).state_from_json)) == "(self, /, text)"
    with pytest.raises(TypeError, match=r"^state_from_json\(\) missing required argument 'text'$"):
        state.game.state_from_json()
    assert state.game.state_from_json(text=state.to_json()) == state


@pytest.mark.parametrize("name", CATALOGUE)
def test_uninitialised_objects_do_not_crash(name: str) -> None:
    """docs/interface.rst: no input may crash the process, also objects made with ``cls.__new__``
    without ``__init__`` (using them raises TypeError or a DiaboloError). Run in a child
    process, so that a crash fails this test instead of the run."""
    samples = SAMPLES[name]
    game = samples.game()
    g, s, m = (type(value) for value in (game, game.new_state(seed=1), game.move(0)))
    new = {cls: f"{cls.__name__}.__new__({cls.__name__})" for cls in (g, s, m)}
    calls = [
        f"{new[g]}.new_state()",
        f"{new[g]}.players",
        f"{new[s]}.to_json()",
        f"{new[s]}.legal_moves(0)",
        f"{new[s]}.observation(0)",
        f"{new[s]}.observation_tensor(0)",
        f"{new[s]}.resample(0, 1)",
        *(f"{new[s]}.apply({text!r}, player=0)" for text in samples.notation_samples),
        f"str({new[s]})",
        f"str({new[m]})",
        *([f"{new[m]}.action"] if hasattr(m, "action") else []),
    ]
    code = "import diabolo\n" + "".join(f"from {cls.__module__} import {cls.__name__}\n" for cls in (g, s, m))
    for call in calls:
        code += f"try:\n    {call}\nexcept (TypeError, diabolo.DiaboloError):\n    pass\n"
    code += "print('ok')\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    assert result.stdout.strip() == "ok"


# state JSON


@pytest.mark.parametrize("name", CATALOGUE)
def test_state_json_round_trip_is_the_baseline(name: str) -> None:
    """The data the state JSON tests break loads and writes itself back, as does every
    position (its history too)."""
    samples = SAMPLES[name]
    data = samples.base_data()
    assert json.loads(samples.game().state_from_json(json.dumps(data)).to_json()) == data
    for state in samples.positions():
        again = state.game.state_from_json(state.to_json())
        assert again == state and again.to_json() == state.to_json()
        assert again.history == state.history


NOT_A_STATE: list[tuple[str, str]] = [
    ("", "not valid JSON"),
    ("not json", "not valid JSON"),
    ("{", "not valid JSON"),
    ("\x00", "not valid JSON"),
    ("{'format': 1}", "not valid JSON"),
    ("[" * 100000 + "]" * 100000, "state JSON"),
    ("[]", "expected an object"),
    ("null", "expected an object"),
    ("1", "expected an object"),
    ('"text"', "expected an object"),
    ("NaN", "expected an object"),
    ("{}", "missing key 'format'"),
]


@pytest.mark.parametrize(
    ("name", "text", "fragment"),
    [
        pytest.param(name, text, fragment, id=f"{name}-{text[:12]!r}")
        for name in CATALOGUE
        for text, fragment in [*NOT_A_STATE, (f'{{"format": "diabolo.{name}/1"}}', "missing key 'options'")]
    ],
)
def test_state_json_not_a_state(name: str, text: str, fragment: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        SAMPLES[name].game().state_from_json(text)


@pytest.mark.parametrize(
    ("name", "text"), [(name, text) for name in CATALOGUE for text in ("\ud800", '{"format": "\udc00"}')]
)
def test_lone_surrogates_in_state_json(name: str, text: str) -> None:
    """docs/interface.rst, Errors: text that is not a valid state is a StateFormatError."""
    for game in games_of(name):
        with pytest.raises(diabolo.StateFormatError, match="unpaired surrogate"):
            game.state_from_json(text)


@pytest.mark.parametrize(("name", "key"), each(lambda s: list(s.base_data())))
def test_state_json_missing_key(name: str, key: str) -> None:
    samples = SAMPLES[name]
    data = samples.base_data()
    del data[key]
    with pytest.raises(diabolo.StateFormatError, match=re.escape(f"missing key '{key}'")):
        samples.game().state_from_json(json.dumps(data))


def values_of_every_game(name: str) -> list[tuple[str, Any, str]]:
    """Wrong values of the keys of every game's state JSON."""
    return [
        ("format", 1, "format: expected a string"),
        ("format", None, "format: expected a string"),
        ("format", f"diabolo.{name}/2", f"format: expected 'diabolo.{name}/1'"),
        *(("seed", value, "seed: seed must be an int in [0, 2**64)") for value in ("1", -1, 2**64, 1.5, None, True)),
        ("options", {}, "options: its options differ from this game's"),
        *(("round", value, "round: expected an integer") for value in ("0", 0.0, True, None)),
        ("round", -1, "round: expected an integer in 0.."),
        *(("phase", value, "phase: expected a string") for value in (0, None)),
        ("phase", "Play", "phase: expected '"),
        ("scores", None, "scores: expected a list"),
        *(("history", value, "history: expected a list") for value in ("1", None)),
        *(("history", value, "history[0]: expected a string") for value in ([1], [None])),
    ]


@pytest.mark.parametrize(
    ("name", "key", "value", "fragment"), rows(lambda s: [*values_of_every_game(s.name), *s.wrong_values])
)
def test_state_json_wrong_values(name: str, key: str, value: Any, fragment: str | None) -> None:
    """Wrong types and impossible values of every key raise StateFormatError (a value out of
    range, or breaking an invariant: cards the deck lacks, card counts that do not add up, a
    phase without what it needs)."""
    samples = SAMPLES[name]
    data = samples.base_data()
    data[key] = value
    with pytest.raises(diabolo.StateFormatError, match=pattern(fragment)):
        samples.game().state_from_json(json.dumps(data))


@pytest.mark.parametrize("name", CATALOGUE)
def test_state_json_of_another_game(name: str) -> None:
    """A state of another game is not a state of this one."""
    game = SAMPLES[name].game()
    for other in CATALOGUE:
        if other != name:
            for text in (SAMPLES[other].game().new_state(seed=1).to_json(), json.dumps(SAMPLES[other].base_data())):
                with pytest.raises(diabolo.StateFormatError, match=re.escape(f"format: expected 'diabolo.{name}/1'")):
                    game.state_from_json(text)


# hypothesis: parsing


@pytest.mark.parametrize("name", CATALOGUE)
@given(text=st.text())
def test_fuzz_parse_text(name: str, text: str) -> None:
    """Random text: a move that reads back from its str() (which is the text itself where the
    notation has one spelling a move), or NotationError."""
    cls = move_class(name)
    try:
        move = cls.parse(text)
    except diabolo.NotationError:
        return
    assert cls.parse(str(move)) == move
    if SAMPLES[name].canonical_notation:
        assert str(move) == text


@pytest.mark.parametrize("name", [name for name in CATALOGUE if SAMPLES[name].near_notation is not None])
@settings(max_examples=500)  # cheap: search the small space of near misses well
@given(data=st.data())
def test_fuzz_parse_near_misses(name: str, data: st.DataObject) -> None:
    """Text close to real notation: a move that reads back from its str(), or NotationError;
    through apply, an error leaves the state unchanged, and a move applies as the seat's."""
    samples = SAMPLES[name]
    assert samples.near_notation is not None
    text = data.draw(samples.near_notation)
    cls = move_class(name)
    movers = [(state.clone(), seat) for state, seat in movers_of(name)]
    try:
        move = cls.parse(text)
    except diabolo.NotationError:
        for state, seat in movers:
            assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text, player=seat))
        return
    assert cls.parse(str(move)) == move
    if samples.canonical_notation:
        assert str(move) == text
    for state, seat in movers:
        before = state.to_json()
        mover = state.current_player if seat is None else seat
        try:
            state.apply(text, player=seat)
        except diabolo.IllegalMoveError:
            assert state.to_json() == before
            continue
        assert state.history[-1][0] == mover


# hypothesis: apply


@pytest.mark.parametrize("name", CATALOGUE)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0), action=st.integers(), data=st.data())
def test_fuzz_apply_ints(name: str, index: int, action: int, data: st.DataObject) -> None:
    """Random ints as moves and seats, on states met in random play: a legal move applies
    (as that seat's move of that action id); anything else raises a DiaboloError (an
    IllegalMoveError naming a clause; a PlayerError for no seat) and leaves the state
    unchanged."""
    samples = SAMPLES[name]
    low, high = samples.fuzz_seats
    player = data.draw(st.one_of(st.none(), st.integers(min_value=low, max_value=high), st.integers()))
    state = reachable_state(samples, index)
    before = state.to_json()
    n = state.game.players
    seat: int | None
    if player is None:
        seat = state.current_player if state.current_player >= 0 else None
    else:
        seat = player if 0 <= player < n else None
    legal = seat is not None and 0 <= action < state.game.num_actions and action in state.legal_actions(seat)
    try:
        state.apply(action, player=player)
    except diabolo.DiaboloError as error:
        assert not legal, f"legal move {action} by {seat} raised {error!r}"
        assert state.to_json() == before
        if isinstance(error, diabolo.IllegalMoveError):
            assert clause(name).fullmatch(error.clause), str(error)
        if seat is None and (player is not None or not samples.turns):
            assert isinstance(error, diabolo.PlayerError), repr(error)
        return
    assert legal or samples.always_a_move(state.game, action)
    assert seat is not None
    assert state.history[-1][0] == seat and state.game.action(state.history[-1][1]) == action
    samples.invariant(state)


@pytest.mark.parametrize("name", CATALOGUE)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0), data=st.data())
def test_fuzz_apply_sequences(name: str, index: int, data: st.DataObject) -> None:
    """Random action ids, each tried by the seats in turn from a random one until one may
    play it: legal ones (and Knizia's calls in penalty mode, K10.3) apply, the rest raise
    IllegalMoveError and change nothing; what every state keeps holds throughout."""
    samples = SAMPLES[name]
    state = reachable_state(samples, index)
    n = state.game.players
    actions = st.integers(min_value=0, max_value=state.game.num_actions - 1)
    steps = data.draw(st.lists(st.tuples(actions, st.integers(min_value=0, max_value=5)), max_size=30))
    for action, first in steps:
        for seat in [(first + k) % n for k in range(n)]:
            before = state.to_json()
            legal = action in state.legal_actions(seat)
            try:
                state.apply(action, player=seat)
            except diabolo.IllegalMoveError:
                assert not legal
                assert state.to_json() == before
                continue
            assert legal or samples.always_a_move(state.game, action)
            samples.invariant(state)
            break


# hypothesis: state JSON


@pytest.mark.parametrize("name", CATALOGUE)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_state_json_mutations(name: str, data: st.DataObject) -> None:
    """Mutations of real state JSON: StateFormatError, or a state that works (views,
    tensors, determinisations, a legal move for a seat to act, moves on clones that leave it
    as it was), keeps what every state keeps and writes itself back exactly."""
    samples = SAMPLES[name]
    key, text = data.draw(
        mutated_states(samples.reachable, samples.json_values, samples.json_operations, most=samples.json_most)
    )
    game = samples.reachable_game(key)
    try:
        state = game.state_from_json(text)
    except diabolo.StateFormatError:
        return
    again = game.state_from_json(state.to_json())
    assert again == state and again.to_json() == state.to_json()
    samples.invariant(state)
    n = game.players
    for seat in range(n):
        json.dumps(state.observation(seat))
        state.observation_tensor(seat)
        state.resample(seat, 1)
    str(state)
    if state.is_terminal:
        assert all(state.legal_moves(seat) == [] for seat in range(n))
        return
    to_act = [state.current_player] if state.current_player >= 0 else range(n)
    assert any(state.legal_moves(seat) for seat in to_act), "a seat is to act but has no legal move"
    for seat in range(n):
        moves = state.legal_moves(seat)
        for move in moves[:1] + moves[-1:]:
            before = state.to_json()
            twin = state.clone()
            twin.apply(move, player=seat)
            assert state.to_json() == before


@pytest.mark.parametrize("name", CATALOGUE)
@given(text=st.text(max_size=40))
def test_fuzz_state_json_random_text(name: str, text: str) -> None:
    for game in games_of(name):
        with pytest.raises(diabolo.StateFormatError, match="state JSON"):
            game.state_from_json(text)


@pytest.mark.parametrize("name", CATALOGUE)
def test_reachable_states_cover_every_phase(name: str) -> None:
    """The states the fuzz tests start from hold every phase and every configuration."""
    samples = SAMPLES[name]
    assert {json.loads(text)["phase"] for _, text in samples.reachable()} == samples.phases
    assert {key for key, _ in samples.reachable()} == samples.reachable_keys


# ---- the properties of every state ---------------------------------------------------------


@pytest.mark.parametrize("name", CATALOGUE)
def test_round_trips_give_equal_independent_states(name: str) -> None:
    game = new_game(name)
    for state in positions(name, seed=5, steps=120)[::7]:
        text = state.to_json()
        for copied in (
            game.state_from_json(text),
            pickle.loads(pickle.dumps(state)),
            copy.copy(state),
            copy.deepcopy(state),
            state.clone(),
        ):
            assert copied == state and copied is not state and copied.to_json() == text
            assert [copied.observation(p) for p in range(3)] == [state.observation(p) for p in range(3)]
        assert pickle.loads(pickle.dumps(game)) == game and hash(pickle.loads(pickle.dumps(game))) == hash(game)


@pytest.mark.parametrize("name", CATALOGUE)
def test_clones_are_isolated(name: str) -> None:
    for state in positions(name, seed=6)[::5]:
        if not state.pending_seats:
            continue
        before = state.to_json()
        twin = state.clone()
        seat = twin.pending_seats[0]
        twin.apply(twin.legal_actions(seat)[-1], player=seat)
        assert state.to_json() == before and twin.to_json() != before


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_seed_is_a_game(name: str) -> None:
    game = new_game(name)
    assert game.new_state(seed=11) == game.new_state(seed=11)
    deals = {game.new_state(seed=seed).to_json() for seed in range(6)}
    assert len(deals) == 6  # different seeds deal differently
    assert positions(name, seed=3)[-1] == positions(name, seed=3)[-1]
    one, two = game.play_random(6, seed=2, threads=1), game.play_random(6, seed=2, threads=2)
    assert (one["scores"] == two["scores"]).all() and (one["moves"] == two["moves"]).all()


@pytest.mark.parametrize("name", CATALOGUE)
def test_resampling_keeps_the_seats_view(name: str) -> None:
    """A determinisation for seat p looks the same to p: its view and its tensor."""
    for state in positions(name, seed=8, steps=80)[::8]:
        for seat in range(3):
            for seed in (1, 2):
                guess = state.resample(seat, seed)
                assert guess.observation(seat) == state.observation(seat)
                assert (guess.observation_tensor(seat) == state.observation_tensor(seat)).all()
                assert guess.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("name", CATALOGUE)
def test_last_move_is_the_last_of_the_history(name: str) -> None:
    game = new_game(name)
    seen = positions(name, seed=9, steps=80)
    assert seen[0].last_move is None
    for state in seen[1:]:
        assert state.last_move == state.history[-1]
        assert game.state_from_json(state.to_json()).last_move == state.last_move
