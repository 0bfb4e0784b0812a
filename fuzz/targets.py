"""The atheris fuzz targets of diabolo: every parser and entry point that takes outside
input. Each target takes the fuzzer's bytes, makes calls from them and catches the
:class:`diabolo.DiaboloError` of each call that may reject its input. Anything else is a
finding that atheris reports, writing the input that caused it: another exception, a
DiaboloError from a call that must succeed (reading back JSON the engine wrote, a query
for a valid seat, a legal move), a failed consistency check (:class:`Finding`), a
sanitizer report, a crash or a hang.

Run them through ``fuzz/run.py``, which builds and preloads the instrumented engine:

    python fuzz/run.py --all --seconds 60
    python fuzz/run.py state_json_schacht --runs 100000

Directly (for debugging), with the environment run.py sets:

    python fuzz/targets.py TARGET [libFuzzer options] [corpus dirs or input files]
    python fuzz/targets.py --list
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gzip
import json
import os
import pickle
import random
import re
import shutil
import string
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

# Targets whose subject is partly Python code (Deck, Lexicon, the option checks) get
# coverage of the package's Python too; the others skip it (it halves their speed).
PYTHON_COVERAGE = ("options", "deck", "lexicon_text")
python_coverage = len(sys.argv) > 1 and sys.argv[1] in PYTHON_COVERAGE
with atheris.instrument_imports(include=["diabolo"]) if python_coverage else contextlib.nullcontext():
    import diabolo
    from diabolo.knizia import Deck, FoundWord, KniziaMove, KniziaState, check_word, find_words
    from diabolo.lexicon import normalise_word

import fixtures
import numpy as np
from fdp import Reader

Target = Callable[[bytes], None]
TARGETS: dict[str, Target] = {}

# Cards of the word game, and strings that are almost cards.
CARDS = (*string.ascii_uppercase, "CH", "EI", "EN", "ER", "IE", "ST", "IN", "TH", "?", "??")
NOT_CARDS = ("", "a", "ß", "???", "A?", "E I", "ABC", "Ä", "0", "@")
MAX_TABLE = 20  # cards on a fuzzed table (the engine takes up to 66; keeps an iteration fast)


@functools.cache
def scratch() -> Path:
    """The folder for the files the targets write (deck files, word lists, lexicon cache
    entries): the one run.py names for the target, else a new temporary one."""
    folder = Path(os.environ.get("DIABOLO_FUZZ_SCRATCH") or tempfile.mkdtemp(prefix="diabolo-fuzz-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Finding(AssertionError):
    """A consistency check that failed: the engine accepted or answered something wrong."""


def check(condition: object, message: str) -> None:
    if not condition:
        raise Finding(message)


def target(function: Target) -> Target:
    TARGETS[function.__name__] = function
    return function


def move_strings(name: str) -> tuple[str, ...]:
    """The notation of every legal move in the state pool, and a few near misses."""
    found = {str(m) for s in fixtures.state_pool(name) for p in range(s.game.players) for m in s.legal_moves(p)}
    return tuple(sorted(found)) + fixtures.KNOWN_STRINGS


# ---------------------------------------------------------------------------------------
# Checks shared by the targets


def check_state(game: diabolo.Game, state: diabolo.State, choice: int) -> None:
    """Every query of ``state`` answers, consistently; JSON, pickle and clone round-trip;
    a resample keeps each seat's view; a legal move applies."""
    text = state.to_json()
    again = game.state_from_json(text)
    check(again == state, "state_from_json(state.to_json()) != state")
    check(again.to_json() == text, "to_json changed over a JSON round trip")
    check(state.clone() == state, "clone() != state")
    check(pickle.loads(pickle.dumps(state)) == state, "pickle round trip != state")
    str(state)
    _ = (state.current_player, state.phase, state.round, state.is_terminal, state.scores, state.winners, state.history)
    check(len(state.returns()) == game.players, "returns() has not one value per seat")
    knizia = isinstance(state, diabolo.knizia.KniziaState)
    for seat in range(game.players):
        actions = state.legal_actions(seat)
        moves: list[Any] = list(state.legal_moves(seat))
        mask = state.legal_action_mask(seat)
        check(mask.shape == (game.num_actions,), f"legal_action_mask({seat}) has shape {mask.shape}")
        check(sorted(set(actions)) == np.flatnonzero(mask).tolist(), f"legal_actions({seat}) and the mask disagree")
        check(all(0 <= a < game.num_actions for a in actions), f"legal_actions({seat}) out of range")
        if not knizia:
            check([m.action for m in moves] == actions, f"legal_moves({seat}) and legal_actions({seat}) disagree")
        json.dumps(state.observation(seat))  # JSON-ready: a TypeError here is a finding
        tensor = state.observation_tensor(seat)
        check(tensor.shape == game.observation_tensor_shape, f"observation_tensor({seat}) has shape {tensor.shape}")
        check(bool(np.isfinite(tensor).all()), f"observation_tensor({seat}) is not finite")
    if not state.is_terminal:
        seat = choice % game.players
        resampled = state.resample(seat, choice)
        check(resampled.observation(seat) == state.observation(seat), f"resample({seat}) changed seat {seat}'s view")
    seats = fixtures.seats_to_move(state)
    if seats:
        seat = seats[choice % len(seats)]
        legal: list[Any] = list(state.legal_moves(seat))
        check(legal, f"seat {seat} is to move and has no legal move")
        move = legal[choice % len(legal)]
        after: Any = state.clone()
        try:
            after.apply(move, player=seat)
        except diabolo.DiaboloError as error:
            raise Finding(f"legal move {move} of seat {seat} rejected: {error!r}") from error
        text = after.to_json()
        check(game.state_from_json(text) == after, "state after a legal move does not round-trip")


def apply_checked(state: diabolo.State, move: Any, player: Any) -> None:
    """``state.apply(move, player=player)``: a rejected move leaves the state as it was,
    and an accepted one was legal for its seat (calls of words are always legal)."""
    game = state.game
    before = state.clone()
    seat: int | None = None
    if player is None:
        seat = state.current_player if state.current_player >= 0 else None
    elif type(player) is int and 0 <= player < game.players:
        seat = player
    legal = set(state.legal_actions(seat)) if seat is not None else set()
    action: int | None = None
    try:
        if isinstance(game, diabolo.knizia.KniziaGame):
            if game.move(move).kind != "claim":
                action = game.action(move)
        else:
            action = game.move(move).action
    except diabolo.DiaboloError:
        pass
    try:
        state.apply(move, player=player)
    except diabolo.DiaboloError:
        check(state == before, f"rejected move {move!r} (player={player!r}) changed the state")
        return
    check(seat is not None, f"move {move!r} accepted with player={player!r} while no single seat is to move")
    if action is not None:
        check(action in legal, f"illegal move {move!r} (action {action}) accepted for seat {seat}")


def check_round_trip(state: diabolo.State) -> None:
    text = state.to_json()
    again = state.game.state_from_json(text)
    check(again == state and again.to_json() == text, "state does not round-trip through JSON")
    for seat in range(state.game.players):
        check(
            sorted(set(state.legal_actions(seat))) == np.flatnonzero(state.legal_action_mask(seat)).tolist(),
            f"legal_actions({seat}) and the mask disagree",
        )


# ---------------------------------------------------------------------------------------
# State JSON


def game_for(name: str, text: str) -> diabolo.Game:
    """The game a state JSON names in its options (see fixtures.game_of_options)."""
    try:
        key = json.dumps(json.loads(text)["options"], sort_keys=True)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return fixtures.game(name)
    return fixtures.game_of_options(name, key)


def state_json(name: str, data: bytes) -> None:
    """``game.state_from_json`` of game ``name`` on fuzzed text (with a dictionary of its
    keys), then every query of a state that loads: the targets ``state_json_GAME``."""
    text = data.decode("utf-8", errors="replace")
    game = game_for(name, text)
    try:
        state = game.state_from_json(text)
    except diabolo.DiaboloError:
        return
    check_state(game, state, len(data))


# state_json_schacht, state_json_duvelen, state_json_knizia (Knizia with a small lexicon)
for _game in fixtures.GAMES:
    TARGETS[f"state_json_{_game}"] = functools.partial(state_json, _game)


JSON_STRINGS: dict[str, tuple[str, ...]] = {}  # every string in the state pool's JSON, by game


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside ``value``, itself first."""
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += json_paths(item, (*prefix, index))
    return paths


def json_value(r: Reader, depth: int = 0) -> Any:
    """A JSON value, its strings mostly the game's own (cards, notation, phases)."""
    kind = r.below(9 if depth < 2 else 6)
    if kind == 0:
        return r.byte() - 128
    if kind == 1:
        return r.integer()
    if kind in (2, 3):
        return r.string(16)
    if kind == 4:
        return None if r.flag() else r.flag()
    if kind == 5:
        return r.real()
    if kind in (6, 7):
        return [json_value(r, depth + 1) for _ in range(r.below(4))]
    return {r.string(12): json_value(r, depth + 1) for _ in range(r.below(3))}


def edit_json(r: Reader, document: Any) -> Any:
    """``document`` with one edit at a fuzzed place: a value set, a key or item deleted
    or added, an item doubled, two items swapped, a number bumped, or an item moved
    from one list to another (which keeps the cards of a state but not its rules)."""
    paths = json_paths(document)
    path = paths[r.below(len(paths))]
    if not path:
        return json_value(r)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    edit = r.below(7)
    if edit == 0:
        parent[last] = json_value(r)
    elif edit == 1:
        del parent[last]
    elif edit == 2:
        target = parent[last]
        if isinstance(target, list):
            target.insert(r.below(len(target) + 1), json_value(r))
        elif isinstance(target, dict):
            target[r.string(12)] = json_value(r)
    elif edit == 3 and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif edit == 4 and isinstance(parent, list):
        other = r.below(len(parent))
        parent[last], parent[other] = parent[other], parent[last]
    elif edit == 5 and type(parent[last]) in (int, float):
        parent[last] += r.pick((1, -1, 2, -2, 64, -64, 2**32, -(2**32), 2**63, 2**64))
    elif edit == 6 and isinstance(parent, list) and not isinstance(parent[last], (list, dict)):
        lists = [p for p in paths if p and isinstance(value_at(document, p), list)]
        destination = value_at(document, lists[r.below(len(lists))]) if lists else parent
        destination.insert(r.below(len(destination) + 1), parent.pop(last))
    return document


def value_at(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@target
def state_edits(data: bytes) -> None:
    """``game.state_from_json`` of real states' JSON with a few structured edits (values
    changed, items deleted, doubled, swapped or moved between lists), for every game;
    a state that loads is consistent and plays."""
    r = Reader(data)
    name = r.pick(fixtures.GAMES)
    r.known_strings = JSON_STRINGS[name]
    pool = fixtures.state_pool(name)
    document = json.loads(pool[r.below(len(pool))].to_json())
    for _ in range(1 + r.below(4)):
        document = edit_json(r, document)
    text = json.dumps(document)
    game = game_for(name, text)
    try:
        state = game.state_from_json(text)
    except diabolo.DiaboloError:
        return
    check_state(game, state, r.byte())


# ---------------------------------------------------------------------------------------
# Moves in every form, on real states

OTHER_MOVES: tuple[Any, ...] = ()


def other_moves() -> tuple[Any, ...]:
    """Move objects of every game (applied to the wrong game, they must be rejected)."""
    global OTHER_MOVES
    if not OTHER_MOVES:
        OTHER_MOVES = tuple(
            fixtures.state_pool(name)[5].legal_moves(p)[0]
            for name in fixtures.GAMES
            for p in (0, 1)
            if fixtures.state_pool(name)[5].legal_moves(p)
        )
    return OTHER_MOVES


def fuzzed_player(r: Reader, state: diabolo.State) -> Any:
    """A ``player=`` value: None, a seat, a seat to move, or any int or value."""
    kind = r.below(6)
    if kind == 0:
        return None
    if kind == 1:
        return r.below(state.game.players)
    if kind == 2:
        seats = fixtures.seats_to_move(state)
        return seats[r.below(len(seats))] if seats else None
    if kind == 3:
        return r.byte() - 128
    if kind == 4:
        return r.integer()
    return r.value()


def legal_choice(r: Reader, state: diabolo.State) -> tuple[Any, int] | None:
    """A legal move of a seat that may move now, with that seat."""
    seats = fixtures.seats_to_move(state)
    if not seats:
        return None
    seat = seats[r.below(len(seats))]
    moves: list[Any] = list(state.legal_moves(seat))
    if not moves:
        return None
    return moves[r.byte() % len(moves)], seat


def move_object(r: Reader, game: diabolo.Game) -> Any:
    """A move object made from fuzzed text or an int, through every constructor."""
    source: Any = r.string(80) if r.flag() else r.integer()
    how = r.below(3)
    if how == 0:
        return game.move(source)
    move_type: Any = {
        "schacht": diabolo.schacht.SchachtMove,
        "duvelen": diabolo.duvelen.DuvelenMove,
        "knizia": KniziaMove,
    }[game.name]
    if how == 1 or game.name == "knizia":
        return move_type.parse(source)
    return move_type.from_action(source)


def moves(name: str, data: bytes) -> None:
    pool = fixtures.state_pool(name)
    r = Reader(data, MOVE_STRINGS[name])
    state: Any = pool[r.below(len(pool))].clone()
    game = state.game
    for _ in range(1 + r.below(8)):
        op = r.below(8)
        try:
            if op == 0:  # a legal move object, for its seat
                chosen = legal_choice(r, state)
                if chosen:
                    apply_checked(state, chosen[0], chosen[1])
            elif op == 1:  # a legal move's notation, perhaps edited
                chosen = legal_choice(r, state)
                if chosen:
                    text = str(chosen[0])
                    edit = r.below(4)
                    if edit == 1:
                        text += r.text(6)
                    elif edit == 2:
                        text = r.text(6) + text
                    elif edit == 3 and text:
                        at = r.below(len(text))
                        text = text[:at] + r.text(2) + text[at + 1 :]
                    apply_checked(state, text, chosen[1] if r.flag() else fuzzed_player(r, state))
            elif op == 2:  # a legal action id
                chosen = legal_choice(r, state)
                if chosen:
                    seat = chosen[1]
                    actions = state.legal_actions(seat)
                    apply_checked(state, actions[r.byte() % len(actions)], seat)
            elif op == 3:  # any int
                apply_checked(state, r.integer(), fuzzed_player(r, state))
            elif op == 4:  # any text
                apply_checked(state, r.string(80), fuzzed_player(r, state))
            elif op == 5:  # a move object from parse / from_action / game.move
                apply_checked(state, move_object(r, game), fuzzed_player(r, state))
            elif op == 6:  # not a move of this game: another game's move, or any value
                value = r.pick(other_moves()) if r.flag() else r.value()
                apply_checked(state, value, fuzzed_player(r, state))
            else:  # the queries, with a fuzzed player
                player = fuzzed_player(r, state)
                query = r.below(7)
                if query == 0:
                    state.legal_moves(player)
                elif query == 1:
                    state.legal_actions(player)
                elif query == 2:
                    state.legal_action_mask(player)
                elif query == 3:
                    json.dumps(state.observation(player))
                elif query == 4:
                    state.observation_tensor(player)
                elif query == 5:
                    check_round_trip(state.resample(player, r.integer()))
                elif isinstance(game, diabolo.knizia.KniziaGame):
                    game.action(r.string(24) if r.flag() else r.integer())
                else:
                    game.move(r.string(24) if r.flag() else r.integer())
        except diabolo.DiaboloError:
            pass
    check_round_trip(state)


MOVE_STRINGS: dict[str, tuple[str, ...]] = {}


# moves_schacht, moves_duvelen, moves_knizia
for _game in fixtures.GAMES:
    TARGETS[f"moves_{_game}"] = functools.partial(moves, _game)


# ---------------------------------------------------------------------------------------
# Options


def option_value(r: Reader, key: str) -> Any:
    """A value for the option ``key``: any value, an int of any size, a list of ints, or
    one of the option's own kinds (a Lexicon, a Deck, a dict of card counts)."""
    kind = r.below(5)
    if kind == 0:
        return r.value()
    if kind == 1:
        return r.integer()
    if kind == 2:
        return [r.integer() for _ in range(r.below(7))]
    if kind == 3:
        return r.string(12)
    if key == "lexicon":
        return r.pick((fixtures.small_lexicon(), "en", "de", "xx"))
    if key == "deck":
        if r.flag():
            return {r.pick(CARDS + NOT_CARDS): r.integer() for _ in range(r.below(8))}
        return r.pick((Deck.load("en"), Deck({"A": 3, "E": 3, "ST": 2, "?": 1}, "xx"), "de", "nl"))
    return r.pick((None, True, False, 0, 1, 2, 3, 4, 5, 6, 8, 9, 64, 65, 2**32 + 3, 1.0, "2"))


@target
def options(data: bytes) -> None:
    """``diabolo.load(game, **options)`` with fuzzed names and values; a game that loads
    reports the options given, and plays."""
    r = Reader(data, fixtures.KNOWN_STRINGS)
    name: Any = r.pick((*fixtures.GAMES, *fixtures.GAMES, None))
    if name is None:
        name = r.value()
    kwargs: dict[str, Any] = {}
    for _ in range(r.below(6)):
        key = r.pick(fixtures.OPTION_NAMES) if r.below(4) else r.text(12)
        kwargs[key] = option_value(r, key)
    if name == "knizia" and "lexicon" not in kwargs and r.below(4):
        kwargs["lexicon"] = fixtures.small_lexicon()  # the German default is slow under ASan
    try:
        game = diabolo.load(name, **kwargs)
    except diabolo.DiaboloError:
        return
    got = game.options
    for key, value in kwargs.items():
        check(key in got, f"load({name!r}) accepted the unknown option {key!r}")
        if type(value) is int and type(got[key]) is int:
            check(got[key] == value, f"load({name!r}, {key}={value!r}) reads back as {got[key]!r}")
        if key == "value_counts" and isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
            check(tuple(got[key]) == tuple(value), f"load({name!r}, {key}={value!r}) reads back as {got[key]!r}")
    check(diabolo.load(name, **kwargs) == game, "the same options load an unequal game")
    hash(game)
    _ = (game.num_actions, game.observation_tensor_shape, game.players)
    seed = r.integer()
    try:
        state: Any = game.new_state(seed=seed)
    except diabolo.DiaboloError:
        check(not 0 <= seed < 2**64, f"new_state(seed={seed}) rejected")
        return
    for _ in range(r.below(4)):
        seats = fixtures.seats_to_move(state)
        if not seats:
            break
        seat = seats[r.below(len(seats))]
        legal = state.legal_moves(seat)
        state.apply(legal[r.byte() % len(legal)], player=seat)
    check_round_trip(state)


# ---------------------------------------------------------------------------------------
# Knizia: decks, lexicons, words


def hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@target
def deck(data: bytes) -> None:
    """Knizia ``Deck`` from JSON text, a file, a dict or a language; a deck that loads
    round-trips and makes a game that plays."""
    r = Reader(data, fixtures.KNOWN_STRINGS)
    how = r.below(4)
    made: Deck
    try:
        if how == 0:
            made = Deck.from_json(r.text(1024))
        elif how == 1:
            # Written as UTF-8: a file that is not UTF-8 raises UnicodeDecodeError (reported;
            # left out here so that the target keeps looking further).
            path = scratch() / "deck.json"
            path.write_text(r.text(1024), encoding="utf-8", errors="replace")
            made = Deck.from_file(path)
        elif how == 2:
            cards: dict[Any, Any] = {}
            for _ in range(r.below(12)):
                card: Any = r.pick(CARDS) if r.below(4) else (r.pick(NOT_CARDS) if r.flag() else r.value())
                count = r.byte() % 8 if r.flag() else r.value()
                if hashable(card):
                    cards[card] = count
            made = Deck(cards, r.string(4) if r.below(4) else r.value())
        else:
            made = Deck.load(r.string(6))
    except diabolo.DiaboloError:
        return
    check(Deck.from_json(made.to_json()) == made, "Deck does not round-trip through to_json")
    check(pickle.loads(pickle.dumps(made)) == made, "Deck does not round-trip through pickle")
    check(made.size == sum(made.cards.values()), "Deck.size is not its card count")
    hash(made)
    try:
        game = diabolo.load("knizia", deck=made, lexicon=fixtures.small_lexicon(), players=2 + r.below(5))
    except diabolo.DiaboloError:
        return
    check(game.deck == made, "the game's deck is not the deck given")
    state: Any = game.new_state(seed=r.byte())
    for _ in range(r.below(8)):
        seats = fixtures.seats_to_move(state)
        if not seats:
            break
        seat = seats[r.below(len(seats))]
        legal = state.legal_moves(seat)
        state.apply(legal[r.byte() % len(legal)], player=seat)
    check_round_trip(state)


FULL_TABLE = [*string.ascii_uppercase, "??"]


def check_lexicon(lexicon: diabolo.Lexicon) -> None:
    """Bytes round-trip; the words a full table finds are in the lexicon and make claims."""
    blob = lexicon.to_bytes()
    again = diabolo.Lexicon.from_bytes(blob)
    check(len(again) == len(lexicon) and again.to_bytes() == blob, "Lexicon does not round-trip through bytes")
    found = find_words(FULL_TABLE, lexicon, 1)
    check(len(found) <= len(lexicon), "find_words found more words than the lexicon has")
    for match in found[:24]:
        check(match.word in lexicon, f"find_words found {match.word!r}, which is not in the lexicon")
    if len(lexicon) and len(lexicon) < 5000:
        game = diabolo.load("knizia", lexicon=lexicon, deck="en", players=2)
        check(game.num_actions == 130 + len(lexicon), "num_actions is not 130 + the lexicon's size")
        for match in found[:8]:
            action = game.action(match.word)
            check(
                action is not None and str(game.move(action)) == match.word,
                f"action of {match.word!r} does not map back",
            )


@target
def lexicon_bytes(data: bytes) -> None:
    """``Lexicon.from_bytes`` of any bytes; a lexicon that loads is consistent."""
    try:
        lexicon = diabolo.Lexicon.from_bytes(data)
    except diabolo.DiaboloError:
        return
    check_lexicon(lexicon)


@target
def lexicon_text(data: bytes) -> None:
    """Word lists as text: ``Lexicon.from_words`` and ``Lexicon.from_file`` (plain and
    gzip, cached and not); both read the same words, normalised per K2."""
    r = Reader(data)
    how = r.below(4)
    content = r.raw(4096)
    lines = content.decode("utf-8", errors="surrogateescape" if how == 1 else "replace").splitlines()
    try:
        if how <= 1:
            lexicon = diabolo.Lexicon.from_words(lines)
        else:
            path = scratch() / ("words.txt.gz" if how == 3 else "words.txt")
            path.write_bytes(gzip.compress(content, mtime=0) if how == 3 else content)
            cache = r.flag()
            lexicon = diabolo.Lexicon.from_file(path, cache=cache)
            if cache:  # the second read comes from the cache entry the first one wrote
                cached = diabolo.Lexicon.from_file(path)
                check(cached.to_bytes() == lexicon.to_bytes(), "a lexicon read from the cache differs")
                shutil.rmtree(scratch() / "cache", ignore_errors=True)  # one entry per input would pile up
    except diabolo.DiaboloError:
        check(how == 1, "a word list of valid text was rejected")
        return
    words = {n for line in lines if (n := normalise_word(line)) is not None}
    check(len(lexicon) == len(words), f"the lexicon has {len(lexicon)} words, the list normalises to {len(words)}")
    for word in sorted(words)[:32]:
        check(word in lexicon, f"{word!r} is missing from the lexicon")
        check(normalise_word(word) == word, f"normalise_word is not idempotent on {word!r}")
    if how >= 2:
        check(lexicon.to_bytes() == diabolo.Lexicon.from_words(lines).to_bytes(), "from_file and from_words differ")
    check_lexicon(lexicon)


def fuzzed_table(r: Reader) -> list[Any]:
    table: list[Any] = []
    for _ in range(r.below(MAX_TABLE + 1)):
        kind = r.below(16)
        table.append(r.pick(CARDS) if kind < 14 else (r.pick(NOT_CARDS) if kind == 14 else r.value()))
    return table


WORD_STATES: tuple[Any, ...] = ()


@target
def words(data: bytes) -> None:
    """``find_words`` and ``check_word`` on fuzzed small tables, which agree with each
    other; ``KniziaMove.parse``; word calls on real states."""
    global WORD_STATES
    r = Reader(data, fixtures.small_words())
    lexicon = fixtures.small_lexicon()
    if r.below(4) == 0:
        try:
            lexicon = diabolo.Lexicon.from_words([r.string(12) for _ in range(r.below(8))])
        except diabolo.DiaboloError:
            pass
    table = fuzzed_table(r)
    min_cards: Any = r.pick((3, 3, 2, 1)) if r.below(8) else r.value()
    matches: Sequence[FoundWord] | None
    try:
        matches = find_words(table, lexicon, min_cards)
    except diabolo.DiaboloError:
        matches = None
    found: set[str] = set()
    if matches is not None:
        listed = list(matches)
        found = {m.word for m in listed}
        check([m.word for m in listed] == sorted(found), "find_words is not sorted by word, or repeats one")
        for match in listed[:16]:
            check(match.word in lexicon, f"find_words found {match.word!r}, not in the lexicon")
            check(len(set(match.cards)) == len(match.cards) >= min_cards, f"bad cards in {match}")
            check(all(0 <= c < len(table) for c in match.cards), f"card positions out of the table in {match}")
            try:
                checked = check_word(match.word, table, lexicon, min_cards)
            except diabolo.DiaboloError as error:
                raise Finding(f"check_word rejects {match.word!r}, which find_words found: {error!r}") from error
            check(checked == match, f"check_word gives {checked}, find_words {match}")
    word: Any = r.string(20) if r.below(8) else r.value()
    try:
        claimed: FoundWord | None = check_word(word, table, lexicon, min_cards)
    except diabolo.DiaboloError:
        claimed = None
    if matches is not None and isinstance(word, str):
        try:
            normal = normalise_word(word)
        except diabolo.DiaboloError:
            normal = None
        check((claimed is not None) == (normal in found), f"check_word and find_words disagree on {word!r}")
    text = word if isinstance(word, str) else r.text(24)
    if r.flag():
        text += "@" + ",".join(str(r.below(24)) for _ in range(r.below(8)))
    try:
        move = KniziaMove.parse(text)
    except diabolo.DiaboloError:
        pass
    else:
        check(KniziaMove.parse(str(move)) == move, f"KniziaMove {move!r} does not re-parse from {str(move)!r}")
    if not WORD_STATES:
        WORD_STATES = tuple(s for s in fixtures.state_pool("knizia") if isinstance(s, KniziaState) and s.table)
    state: Any = WORD_STATES[r.below(len(WORD_STATES))].clone()
    apply_checked(state, text, fuzzed_player(r, state))
    check_round_trip(state)


# ---------------------------------------------------------------------------------------
# Given deals: new_state(deck=..., decks=...)

DUVELEN_CARDS = tuple(f"{rank}{suit}" for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K") for suit in "hdcs")


def full_deck(game: Any) -> list[str]:
    """Every card of the game's deck once (Duvelen: one seat's 52 cards)."""
    if isinstance(game, diabolo.schacht.SchachtGame):
        return [f"{c}{v}" for c in "RYGPB" for v in range(1, 6) for _ in range(game.value_counts[v - 1])]
    if isinstance(game, diabolo.duvelen.DuvelenGame):
        return list(DUVELEN_CARDS)
    return [card for card, count in game.deck.cards.items() for _ in range(count)]


def fuzzed_deal(r: Reader, game: Any) -> Any:
    """A shuffle of the game's deck with a few edits (a card dropped, doubled, replaced
    by another card, by text or by any value), or any value."""
    if r.below(16) == 0:
        return r.value()
    cards: list[Any] = full_deck(game)
    random.Random(r.byte()).shuffle(cards)
    for _ in range(r.below(4)):
        edit = r.below(6)
        at = r.below(len(cards)) if cards else 0
        if not cards or edit == 0:
            continue
        if edit == 1:
            del cards[at]
        elif edit == 2:
            cards.insert(at, cards[at])
        elif edit == 3:
            cards[at] = cards[r.below(len(cards))]
        elif edit == 4:
            cards[at] = r.string(4)
        else:
            cards[at] = r.value()
    return cards


@target
def deals(data: bytes) -> None:
    """``game.new_state(seed, deck=..., decks=...)`` with given deals: real deck orders
    with fuzzed edits, for every game; a state that is dealt is consistent and plays."""
    r = Reader(data, fixtures.KNOWN_STRINGS)
    name = r.pick(fixtures.GAMES)
    game: Any = fixtures.game(name, r.below(len(fixtures.CONFIGS[name])))
    seed = r.integer() if r.below(8) == 0 else r.byte()
    form = r.below(3)
    try:
        if name == "duvelen":
            state = game.new_state(seed=seed, decks=[fuzzed_deal(r, game) for _ in range(r.below(game.players + 2))])
        elif form == 0:
            state = game.new_state(seed=seed, deck=fuzzed_deal(r, game))
        elif form == 1:
            decks = [fuzzed_deal(r, game) if r.below(4) else None for _ in range(r.below(4))]
            state = game.new_state(seed=seed, decks=decks)
        else:
            state = game.new_state(seed=seed, deck=fuzzed_deal(r, game), decks=[fuzzed_deal(r, game)])
    except diabolo.DiaboloError:
        return
    check(0 <= seed < 2**64, f"new_state accepted seed {seed}")
    check_state(game, state, r.byte())
    for _ in range(r.below(8)):
        seats = fixtures.seats_to_move(state)
        if not seats:
            break
        seat = seats[r.below(len(seats))]
        legal: list[Any] = list(state.legal_moves(seat))
        state.apply(legal[r.byte() % len(legal)], player=seat)
    check_round_trip(state)


# ---------------------------------------------------------------------------------------
# The C API, called through ctypes on the instrumented module (which exports diabolo_*)

H, TEXT, OUT, SEAT, INT, BUFFER = "handle", "text", "out", "seat", "int", "buffer"
BAD_ARGUMENT = 9  # DIABOLO_BAD_ARGUMENT
STATUSES = range(10)

# Each function with its arguments, after the optional error pointer that ends every status
# function's list: (kind, what, required). A required one given as NULL must come back
# DIABOLO_BAD_ARGUMENT; an optional one may be NULL.
CAPI_CALLS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "diabolo_game_new": ((TEXT, "name", True), (TEXT, "options", False), (OUT, "game", True)),
    "diabolo_state_new": ((H, "game", True), (INT, "seed", False), (OUT, "state", True)),
    "diabolo_state_deal": ((H, "game", True), (INT, "seed", False), (TEXT, "deal", False), (OUT, "state", True)),
    "diabolo_state_from_json": ((H, "game", True), (TEXT, "json", True), (OUT, "state", True)),
    "diabolo_state_apply_action": ((H, "state", True), (SEAT, "", False), (INT, "action", False)),
    "diabolo_state_apply_move": ((H, "state", True), (SEAT, "", False), (TEXT, "notation", True)),
    "diabolo_state_resample": ((H, "state", True), (SEAT, "", False), (INT, "seed", False), (OUT, "state", True)),
    "diabolo_state_position": ((H, "state", True), (OUT, "position", True)),
    "diabolo_position_copy": ((H, "position", True), (H, "position", True)),
    "diabolo_position_resample": (
        (H, "position", True),
        (SEAT, "", False),
        (INT, "seed", False),
        (H, "position", True),
    ),
    "diabolo_position_apply_action": ((H, "position", True), (SEAT, "", False), (INT, "action", False)),
    "diabolo_play_random": (
        (H, "game", True),
        (INT, "games", False),
        (INT, "seed", False),
        (INT, "threads", False),
        (BUFFER, "", False),
        (BUFFER, "", False),
    ),
    "diabolo_bot_new": ((H, "game", True), (TEXT, "kind", True), (TEXT, "options", False), (OUT, "bot", True)),
    "diabolo_bot_choose": (
        (H, "bot", True),
        (H, "state", True),
        (SEAT, "", False),
        (INT, "seed", False),
        (BUFFER, "", False),
        (OUT, "text", False),
        (BUFFER, "", False),
    ),
}
# Functions that take a handle first, then the arguments named; a last "text", "state" or
# "position" after the first says what they return (a new buffer or handle), else a number.
CAPI_QUERIES: dict[str, tuple[str, ...]] = {
    "diabolo_game_players": ("game",),
    "diabolo_game_num_actions": ("game",),
    "diabolo_game_real_time": ("game",),
    "diabolo_game_options": ("game", "text"),
    "diabolo_game_bots": ("game",),
    "diabolo_state_clone": ("state", "state"),
    "diabolo_state_current_player": ("state",),
    "diabolo_state_pending_seats": ("state",),
    "diabolo_state_is_terminal": ("state",),
    "diabolo_state_version": ("state",),
    "diabolo_state_legal_actions": ("state", SEAT, BUFFER),
    "diabolo_state_legal_mask": ("state", SEAT, BUFFER),
    "diabolo_state_scores": ("state", BUFFER),
    "diabolo_state_observation_tensor": ("state", SEAT, BUFFER),
    "diabolo_state_observation": ("state", SEAT, "error", "text"),
    "diabolo_state_events": ("state", SEAT, "error", "text"),
    "diabolo_state_to_json": ("state", "text"),
    "diabolo_game_action_notation": ("game", INT, "error", "text"),
    "diabolo_position_clone": ("position", "position"),
    "diabolo_position_current_player": ("position",),
    "diabolo_position_pending_seats": ("position",),
    "diabolo_position_is_terminal": ("position",),
    "diabolo_position_legal_actions": ("position", SEAT, BUFFER),
    "diabolo_position_scores": ("position", BUFFER),
    "diabolo_position_observation_tensor": ("position", SEAT, BUFFER),
}
CAPI_TEXTS = (
    None,
    b"",
    b"{}",
    b"[1,",
    b'{"players": 3}',
    b'{"players": 99}',
    b"schacht",
    b"duvelen",
    b"knizia",
    b"chess",
    b"random",
    b"heuristic",
    b"greedy",
    b"ismcts",
    b'{"iterations": 5}',
    b"learned",
    b'{"weights": [1, 2]}',
    b"G5<",
    b"pass",
    b"turn",
    b"reveal",
    b'{"deck": []}',
    b'{"players": 2, "lexicon": ["Tor", "Rot", "Ort", "Tee"], "deck": {"language": "", "cards":'
    b' {"E": 4, "O": 3, "R": 3, "T": 4, "?": 1}}}',
)


class CapiError(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("code", ctypes.c_char * 48),
        ("clause", ctypes.c_char * 16),
        ("message", ctypes.c_char * 512),
    ]


@functools.cache
def capi() -> ctypes.CDLL:
    """The C API of the instrumented module, every function returning what the header says."""
    library = ctypes.CDLL(str(diabolo._core.__file__))
    for name in CAPI_CALLS:
        getattr(library, name).restype = ctypes.c_int
    for name, arguments in CAPI_QUERIES.items():
        handle_or_text = len(arguments) > 1 and arguments[-1] in ("text", "state", "position")
        getattr(library, name).restype = ctypes.c_void_p if handle_or_text else ctypes.c_int
    library.diabolo_game_bots.restype = ctypes.c_char_p
    library.diabolo_state_pending_seats.restype = ctypes.c_uint32
    library.diabolo_position_pending_seats.restype = ctypes.c_uint32
    library.diabolo_state_version.restype = ctypes.c_uint64
    for name in ("game", "state", "position", "bot", "string"):
        getattr(library, f"diabolo_{name}_free").restype = None
    return library


def capi_int(r: Reader) -> int:
    """An int32 (seeds and counts use its value modulo 2**64 where wider)."""
    return (r.integer() + 2**31) % 2**32 - 2**31


@target
def capi_calls(data: bytes) -> None:
    """Random calls of the C API on live handles and NULLs: no crash, NULL where a handle,
    text or out-pointer is needed refused as DIABOLO_BAD_ARGUMENT naming the argument, and
    only the documented statuses."""
    r = Reader(data)
    library = capi()
    live: dict[str, int | None] = {"game": None, "state": None, "position": None, "bot": None}
    error = CapiError()
    buffer = (ctypes.c_int32 * 64)()
    try:
        for _ in range(r.below(24) + 1):
            if r.remaining() == 0:
                break
            if r.flag():
                name = r.pick(tuple(CAPI_CALLS))
                capi_call(r, library, name, live, error, buffer)
            else:
                capi_query(r, library, r.pick(tuple(CAPI_QUERIES)), live, buffer)
    finally:
        for kind, handle in live.items():
            if handle is not None:
                getattr(library, f"diabolo_{kind}_free")(ctypes.c_void_p(handle))


def capi_handle(r: Reader, live: dict[str, int | None], kind: str) -> int | None:
    """The live handle of ``kind`` (or NULL, a fifth of the time)."""
    return None if r.below(5) == 0 else live[kind]


def capi_call(
    r: Reader, library: ctypes.CDLL, name: str, live: dict[str, int | None], error: CapiError, buffer: Any
) -> None:
    arguments: list[Any] = []
    outs: list[tuple[str, ctypes.c_void_p]] = []
    null = None  # the first required argument given as NULL
    for kind, what, required in CAPI_CALLS[name]:
        value: Any
        if kind == H:
            value = capi_handle(r, live, what)
        elif kind == TEXT:
            value = r.pick(CAPI_TEXTS)
        elif kind == OUT:
            slot = ctypes.c_void_p(7)  # must come back NULL or a new handle
            value = None if r.below(5) == 0 else ctypes.byref(slot)
            if value is not None:
                outs.append((what, slot))
        elif kind == SEAT:
            value = r.below(12) - 2
        elif kind == INT:
            value = capi_int(r)
        else:
            value = None if r.flag() else buffer
        if required and value is None and null is None:
            null = what
        arguments.append(ctypes.c_void_p(value) if kind == H else value)
    if name == "diabolo_play_random":  # the buffers hold games * players entries: keep it small
        arguments[1] = r.below(3)
        if arguments[4] is not None or arguments[5] is not None:
            arguments[4] = arguments[5] = None
    given_error = None if r.below(8) == 0 else ctypes.byref(error)
    status = getattr(library, name)(*arguments, given_error)
    check(status in STATUSES, f"{name} returned {status}")
    if given_error is not None:
        check(error.status == status, f"{name}: error.status {error.status} for status {status}")
    if null is not None:
        check(status == BAD_ARGUMENT, f"{name} with a NULL argument returned {status}")
        if given_error is not None:
            check(error.code == b"null_argument", f"{name}: code {error.code!r} for a NULL argument")
    for what, slot in outs:
        check(status == 0 or slot.value is None, f"{name} failed ({status}) but set its out-pointer")
        if status == 0 and slot.value is not None:
            capi_keep(library, what, slot.value, live)


def capi_keep(library: ctypes.CDLL, kind: str, handle: int, live: dict[str, int | None]) -> None:
    """Keeps a new handle (freeing the one it replaces), or frees new text."""
    if kind == "text":
        library.diabolo_string_free(ctypes.c_void_p(handle))
        return
    old = live[kind]
    live[kind] = handle
    if old is not None:
        getattr(library, f"diabolo_{kind}_free")(ctypes.c_void_p(old))


def capi_query(r: Reader, library: ctypes.CDLL, name: str, live: dict[str, int | None], buffer: Any) -> None:
    spec = CAPI_QUERIES[name]
    handle = capi_handle(r, live, spec[0])
    arguments: list[Any] = [ctypes.c_void_p(handle)]
    for kind in spec[1:]:
        if kind == SEAT:
            arguments.append(r.below(12) - 2)
        elif kind == INT:
            arguments.append(capi_int(r))
        elif kind == BUFFER:
            arguments += [None, 0] if r.flag() else [buffer, r.below(65)]
        elif kind == "error":
            arguments.append(None)
    result = getattr(library, name)(*arguments)
    returns = spec[-1] if len(spec) > 1 and spec[-1] in ("text", "state", "position") else None
    if handle is None:
        quiet = {None: (-1, 0, b""), "text": (None,), "state": (None,), "position": (None,)}[returns]
        check(result in quiet, f"{name}(NULL) returned {result!r}")
    if returns is not None and result is not None:
        capi_keep(library, returns, result, live)


def prepare(name: str) -> None:
    """Builds what the target uses before fuzzing starts (so the first inputs are not slow)."""
    for game_name in fixtures.GAMES:
        strings: set[str] = set()
        for state in fixtures.state_pool(game_name):
            document = json.loads(state.to_json())
            strings.update(v for p in json_paths(document) if isinstance(v := value_at(document, p), str))
        JSON_STRINGS[game_name] = tuple(sorted(strings))
    for game_name in fixtures.GAMES:
        if game_name in name or name in ("words", "options"):
            MOVE_STRINGS[game_name] = move_strings(game_name)
    fixtures.small_lexicon()
    other_moves()
    if name == "options":
        for language in ("de", "en", "nl"):
            diabolo.Lexicon.load(language)
    if name == "lexicon_text":
        os.environ["DIABOLO_CACHE_DIR"] = str(scratch() / "cache")  # cache entries of fuzzed word lists stay here


def check_build() -> None:
    """Refuses to fuzz the regular (uninstrumented) engine."""
    module = Path(diabolo._core.__file__ or "").resolve()
    wanted = os.environ.get("DIABOLO_FUZZ_BUILD")
    if wanted and not module.is_relative_to(Path(wanted).resolve()):
        sys.exit(f"fuzz/targets.py: diabolo._core is {module}, not the instrumented build in {wanted}")


def tolerant(function: Target, ignore: re.Pattern[str]) -> Target:
    """``function``, except that the exceptions whose "Type: message" ``ignore`` matches
    are not findings (to look past a known finding in a long run: run.py --ignore)."""

    def run(data: bytes) -> None:
        try:
            function(data)
        except Exception as error:
            if ignore.search(f"{type(error).__name__}: {error}"):
                return
            raise

    return run


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[1] == "--list":
        print("\n".join(TARGETS))
        return 0
    if len(argv) < 2 or argv[1] not in TARGETS:
        print(f"usage: {argv[0]} TARGET [libFuzzer arguments]\ntargets: {', '.join(TARGETS)}", file=sys.stderr)
        return 2
    name = argv[1]
    check_build()
    prepare(name)
    function = TARGETS[name]
    ignore = os.environ.get("DIABOLO_FUZZ_IGNORE")
    if ignore:
        function = tolerant(function, re.compile(ignore))
    atheris.Setup([argv[0], *argv[2:]], function)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
