"""What the fuzz targets and the seed corpus share: the games (with their options), a
small word list, and real states reached by seeded random play.

Knizia's games here use a small English lexicon (:func:`small_words`, taken from the
word list packaged with diabolo) instead of the German default: with 356,000 words, the
legal moves of a 16-card table take half a second under AddressSanitizer, and a fuzz
iteration should take about a millisecond.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from importlib import resources
from typing import Any

import diabolo
from diabolo.knizia import Deck

GAMES = ("schacht", "duvelen", "knizia")

# The option sets the corpus plays and the targets load, per game. Knizia's lexicon is
# always :func:`small_lexicon`; its decks are named by language here.
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "schacht": [
        {"players": 3},
        {"players": 4},
        {"players": 5, "rounds": 1, "rows_to_end": 3},
        {"players": 2, "strict_players": False},
        {"players": 6, "strict_players": False, "value_counts": [4, 4, 3, 3, 2]},
    ],
    "duvelen": [
        {"players": 2},
        {"players": 3, "on_block": "end_round"},
        {"players": 4, "rounds": 2, "max_actions": 5000},
    ],
    "knizia": [
        {"players": 2, "deck": "en"},
        {"players": 3, "deck": "en", "variant": "victory_tiles", "stale_calls": "reject"},
        {"players": 4, "deck": "de", "min_cards": 2, "rounds": 2},
    ],
}

# Every option name of every game, for the options target.
OPTION_NAMES = (
    "players",
    "rounds",
    "rows_to_end",
    "value_counts",
    "strict_players",
    "on_block",
    "max_actions",
    "lexicon",
    "deck",
    "min_cards",
    "variant",
    "handicap",
    "stale_calls",
)
# Strings the games know (option values, notation keywords, languages, cards).
KNOWN_STRINGS = (
    "schacht",
    "duvelen",
    "knizia",
    "rotate_stok",
    "end_round",
    "standard",
    "victory_tiles",
    "penalty",
    "reject",
    "de",
    "en",
    "nl",
    "xx",
    "",
    "pass",
    "reveal",
    "turn",
    "recycle",
    "recycle^",
    "stop",
    "bet",
    "hold",
    "take@0",
    "A",
    "EI",
    "?",
    "??",
    "ST",
    "G5<",
    "xG5",
    "S:Ah>new",
    "R2:7h>3",
    "W>new",
    "10h",
)


@functools.cache
def small_words() -> tuple[str, ...]:
    """About 700 English words of 2 to 7 letters, every 50th of diabolo's English list."""
    packaged = resources.files("diabolo") / "lexicons" / "en.txt.gz"
    lines = gzip.decompress(packaged.read_bytes()).decode("utf-8").splitlines()
    words = [w for w in lines if w.isascii() and w.isalpha() and 2 <= len(w) <= 7]
    return tuple(words[::50])


@functools.cache
def small_lexicon() -> diabolo.Lexicon:
    return diabolo.Lexicon.from_words(small_words())


def load(name: str, options: dict[str, Any]) -> diabolo.Game:
    """The game ``name`` with ``options`` (for Knizia, with the small lexicon)."""
    if name == "knizia":
        return diabolo.load("knizia", **{"lexicon": small_lexicon(), **options})
    return diabolo.load(name, **options)


@functools.cache
def game(name: str, index: int = 0) -> diabolo.Game:
    """The game of ``CONFIGS[name][index]``."""
    return load(name, CONFIGS[name][index])


@functools.lru_cache(maxsize=64)
def game_of_options(name: str, options_json: str) -> diabolo.Game:
    """The game whose options a state JSON names (``options_json`` is the canonical JSON
    of its "options" object), or the game's first config when they are not options of
    a game: so a state of any of the configs is read by its own game."""
    try:
        options = json.loads(options_json)
        if name == "knizia":
            deck = options.pop("deck")
            options.pop("lexicon")
            options["deck"] = Deck(deck["cards"], deck["language"])
        return load(name, options)
    except (diabolo.DiaboloError, ValueError, KeyError, TypeError, AttributeError):
        return game(name)


_GREEDY = diabolo.duvelen.GreedyBot()


def seats_to_move(state: diabolo.State) -> list[int]:
    """The seats that may move now: the player to move, or every seat with a legal move
    while several decide at once (Schacht's doubler, the real-time games)."""
    if state.is_terminal:
        return []
    if state.current_player >= 0:
        return [state.current_player]
    return [p for p in range(state.game.players) if state.legal_actions(p)]


def random_step(state: diabolo.State, rng: random.Random) -> bool:
    """Applies one random legal move (in Knizia, now and then an invalid call, to reach the
    penalty phase); False when no seat can move."""
    seats = seats_to_move(state)
    if not seats:
        return False
    seat = rng.choice(seats)
    if isinstance(state, diabolo.knizia.KniziaState) and state.phase == "play" and state.table and rng.random() < 0.1:
        try:
            state.apply(rng.choice(small_words()).upper(), player=seat)  # mostly an invalid call: a penalty
            return True
        except diabolo.IllegalMoveError:  # stale_calls="reject"
            pass
    if isinstance(state, diabolo.duvelen.DuvelenState) and rng.random() < 0.8:
        chosen = _GREEDY.choose(state, seat, rng.randrange(2**32))  # random play seldom empties a Stok
        if chosen is not None:
            state.apply(chosen, player=seat)
            return True
    moves: list[Any] = list(state.legal_moves(seat))
    state.apply(rng.choice(moves), player=seat)
    return True


def states(name: str, seed: int, stops: tuple[int, ...]) -> list[diabolo.State]:
    """Copies of one seeded random game of each config of ``name``, after each number
    of moves in ``stops`` (the last copy is the game's end if it ends sooner)."""
    found: list[diabolo.State] = []
    for index in range(len(CONFIGS[name])):
        rng = random.Random(f"{name}/{index}/{seed}")
        state = game(name, index).new_state(seed=seed)
        done = 0
        for stop in stops:
            while done < stop and random_step(state, rng):
                done += 1
            found.append(state.clone())
            if state.is_terminal:
                break
    return found


@functools.cache
def state_pool(name: str) -> tuple[diabolo.State, ...]:
    """Real states of ``name`` at many phases, for the move targets (never mutated)."""
    pool: list[diabolo.State] = []
    for seed in range(2):
        pool += states(name, seed, (0, 1, 3, 8, 20, 45, 80, 150, 400))
    return tuple(pool)
