"""Writes the seed corpus of the fuzz targets, fuzz/corpus/TARGET/*, from real input:
states of seeded random games at several phases (their JSON), real moves and notation,
real options, deals, packaged decks, word lists and a small lexicon's bytes; and the
libFuzzer dictionaries of the state JSON targets, fuzz/dicts/TARGET.dict (their keys and
notation).

The inputs of the targets that read structured values (moves, options, deck, lexicon
text, words) are written with fdp.Writer so that the target reads back the values they
were made from. Run it after a change to a target's reads, or to the games, and commit
the output:

    python fuzz/run.py --python fuzz/make_corpus.py     # with the instrumented engine
    python fuzz/make_corpus.py                          # or with the installed one
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import shutil
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import fixtures
import targets  # imported from this script's folder, the first entry of sys.path
from fdp import Writer

import diabolo
from diabolo.knizia import Deck, KniziaState, find_words

HERE = Path(__file__).resolve().parent

CORPUS = HERE / "corpus"
DICTS = HERE / "dicts"
SMALL_LEXICON = object()  # stands for fixtures.small_lexicon() in option seeds

NOTATION = {
    "schacht": ["G5<", "P2>", "xG5", "bet", "hold", "G5", "G6<", " G5<", "g5<", "x", "R1<R1<", "B5>\n"],
    "duvelen": [
        "S:Ah>new",
        "R2:7h>3",
        "R2>3",
        "W>new",
        "turn",
        "recycle",
        "recycle^",
        "stop",
        "pass",
        "R5>1",
        "S:Ah>0",
        "R1:10h>32",
        "R1:10h>33",
        "W:1h>1",
        "R2:7h>",
        "Turn",
    ],
    "knizia": [
        "reveal",
        "pass",
        "take@0",
        "take@5",
        "take@127",
        "take@128",
        "LAGER",
        "POST@3,7,9",
        "Straße",
        "Pass",
        "z.B.",
        "A" * 65,
        "ANGEL@0,1,2,3,4",
        "AT@1,1",
        "take@-1",
        "  reveal  ",
    ],
}


def name_of(label: str, data: bytes) -> str:
    return f"{label}-{hashlib.sha1(data).hexdigest()[:8]}"


def write(target: str, seeds: dict[str, bytes]) -> None:
    folder = CORPUS / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for label, data in seeds.items():
        (folder / name_of(label, data)).write_bytes(data)
    print(f"{target:20} {len(seeds):4} seeds {sum(map(len, seeds.values())):8} bytes")


# ---------------------------------------------------------------------------------------
# State JSON


def long_game(name: str, index: int) -> diabolo.State:
    """A random game of config ``index`` played to its end (or 3,000 moves)."""
    rng = random.Random(f"end/{name}/{index}")
    state = fixtures.game(name, index).new_state(seed=11)
    for _ in range(3000):
        if not fixtures.random_step(state, rng):
            break
    return state


def state_seeds(name: str) -> dict[str, bytes]:
    seeds: dict[str, bytes] = {}
    for seed in range(2):
        for number, state in enumerate(fixtures.states(name, seed, (0, 4, 25, 90))):
            seeds[f"{name}-s{seed}-{number:02}-{state.phase}"] = state.to_json().encode()
    for index in range(len(fixtures.CONFIGS[name])):
        text = long_game(name, index).to_json().encode()
        if len(text) <= 16000:
            seeds[f"{name}-c{index}-end"] = text
    return seeds


def json_tokens(texts: list[bytes]) -> list[str]:
    """The keys and short string values of JSON texts, quoted, plus JSON's own tokens."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                found.add(json.dumps(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) <= 24:
            found.add(json.dumps(value))

    for text in texts:
        walk(json.loads(text))
    return sorted(found) + ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-1", "0", "4294967296", "1e999"]


def write_dict(target: str, tokens: list[str]) -> None:
    """A libFuzzer dictionary (fuzz/dicts/TARGET.dict): tokens its mutations insert."""
    DICTS.mkdir(exist_ok=True)
    lines = ['"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"' for token in tokens]
    (DICTS / f"{target}.dict").write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------
# Moves


def player(w: Writer, kind: int, value: Any = None, players: int = 4) -> None:
    """Writes fuzzed_player's read of kind 0 None, 1 seat, 2 a seat to move, 3 a small
    int, 4 any int, 5 any value."""
    w.below(kind, 6)
    if kind == 1:
        w.below(value, players)
    elif kind == 2:
        w.byte(0)
    elif kind == 3:
        w.byte(value + 128)
    elif kind == 4:
        w.integer(value)
    elif kind == 5:
        w.value(value)


def move_seeds(name: str) -> dict[str, bytes]:
    pool = fixtures.state_pool(name)
    known = targets.MOVE_STRINGS[name]
    players = max(s.game.players for s in pool)
    rng = random.Random(f"moves/{name}")
    seeds: dict[str, bytes] = {}
    for i in range(0, len(pool), 4):  # walks of legal moves: objects, notation and action ids
        w = Writer(known)
        w.below(i, len(pool))
        count = rng.randrange(1, 9)
        w.below(count - 1, 8)
        for _ in range(count):
            op = rng.choice((0, 1, 2))
            w.below(op, 8)
            w.byte(rng.randrange(256))  # the seat, of those to move
            w.byte(rng.randrange(256))  # the move, of its legal moves
            if op == 1:
                w.below(0, 4)  # the notation as it is
                w.flag(True)  # for its own seat
            elif op == 2:
                w.byte(rng.randrange(256))  # the action, of its legal actions
        seeds[f"walk-{i}"] = w.data()
    num_actions = pool[0].game.num_actions
    for number, value in enumerate(
        (0, 1, num_actions - 1, num_actions, -1, 2**31, 2**32 + 3, 2**63, 2**64, -(2**64), 10**30)
    ):
        w = Writer(known)
        w.below((number * 5) % len(pool), len(pool))
        w.below(0, 8)
        w.below(3, 8)
        w.integer(value)
        player(w, number % 5, (number % 2) if number % 5 == 1 else -1 if number % 5 == 3 else 2**64, players)
        seeds[f"int-{number}"] = w.data()
    for number, text in enumerate(NOTATION[name] + list(known[:: max(1, len(known) // 6)])):
        w = Writer(known)
        w.below((number * 7) % len(pool), len(pool))
        w.below(1, 8)
        w.below(4, 8)  # text ...
        w.string(text, 80)
        player(w, 2)
        w.below(5, 8)  # ... and a move object parsed from it
        w.flag(True)
        w.string(text, 80)
        w.below(number % 3, 3)
        player(w, number % 3, 0, players)
        seeds[f"text-{number}"] = w.data()
    for number, not_move in enumerate((None, 1.5, [1], "", b"G5<", True)):  # not moves
        w = Writer(known)
        w.below(number, len(pool))
        w.below(0, 8)
        w.below(6, 8)
        w.flag(False)
        w.value(not_move)
        player(w, 0)
        seeds[f"value-{number}"] = w.data()
    for other in range(len(targets.other_moves())):
        w = Writer(known)
        w.below(other, len(pool))
        w.below(0, 8)
        w.below(6, 8)
        w.flag(True)
        w.below(other, len(targets.other_moves()))
        player(w, 2)
        seeds[f"other-{other}"] = w.data()
    for query in range(7):  # the queries, for a seat and for bad players
        players_given: tuple[tuple[int, Any], ...] = ((1, 0), (3, -1), (4, 2**64), (5, "0"), (0, None))
        for number, (kind, given) in enumerate(players_given[: 2 + query % 2]):
            w = Writer(known)
            w.below((query * 11 + number) % len(pool), len(pool))
            w.below(0, 8)
            w.below(7, 8)
            player(w, kind, given, players)
            w.below(query, 7)
            if query == 5:
                w.integer(7)
            elif query == 6:
                w.flag(True)
                w.string(NOTATION[name][number], 24)
            seeds[f"query-{query}-{number}"] = w.data()
    return seeds


# ---------------------------------------------------------------------------------------
# Options

OPTION_SEEDS: list[tuple[str, dict[str, Any]]] = [
    *((name, dict(config)) for name in fixtures.GAMES for config in fixtures.CONFIGS[name]),
    ("schacht", {}),
    ("schacht", {"players": 8, "strict_players": False}),
    ("schacht", {"value_counts": [1, 1, 1, 1, 1], "players": 3}),
    ("schacht", {"rounds": 2**32 + 3}),
    ("schacht", {"players": 2**64 + 4}),
    ("duvelen", {}),
    ("duvelen", {"players": 8, "max_actions": 100_000_000}),
    ("duvelen", {"on_block": "end_round", "rounds": 3}),
    ("knizia", {"lexicon": SMALL_LEXICON}),
    ("knizia", {"lexicon": SMALL_LEXICON, "deck": "nl", "players": 6, "handicap": 0}),
    ("knizia", {"lexicon": "en", "deck": "en", "min_cards": 4}),
    ("knizia", {"lexicon": SMALL_LEXICON, "deck": {"A": 3, "E": 4, "ST": 2, "?": 1, "??": 1}}),
    ("knizia", {"lexicon": SMALL_LEXICON, "rounds": None, "variant": "victory_tiles"}),
    ("knizia", {"lexicon": SMALL_LEXICON, "rounds": 64, "min_cards": 64}),
    ("chess", {}),
]
SPECIAL_VALUES = (None, True, False, 0, 1, 2, 3, 4, 5, 6, 8, 9, 64, 65, 2**32 + 3, 1.0, "2")


def option_seed(name: str, kwargs: dict[str, Any], rng: random.Random) -> bytes:
    w = Writer(fixtures.KNOWN_STRINGS)
    if name in fixtures.GAMES:
        w.pick(name, fixtures.GAMES)
    else:
        w.below(6, 7)
        w.value(name)
    w.below(len(kwargs), 6)
    for key, value in kwargs.items():
        w.below(1, 4)
        w.pick(key, fixtures.OPTION_NAMES)
        if value is SMALL_LEXICON:
            w.below(4, 5)
            w.below(0, 4)
        elif type(value) is int:
            w.below(1, 5)
            w.integer(value)
        elif isinstance(value, list):
            w.below(2, 5)
            w.below(len(value), 7)
            for item in value:
                w.integer(item)
        elif isinstance(value, str):
            w.below(3, 5)
            w.string(value, 12)
        elif isinstance(value, dict):  # a deck as card counts
            w.below(4, 5)
            w.flag(True)
            w.below(len(value), 8)
            for card, count in value.items():
                w.pick(card, targets.CARDS + targets.NOT_CARDS)
                w.integer(count)
        else:
            w.below(4, 5)
            w.pick(value, SPECIAL_VALUES)
    if name == "knizia" and "lexicon" not in kwargs:
        w.below(1, 4)  # the small lexicon
    w.integer(rng.randrange(2**16))  # the seed
    w.below(3, 4)
    for _ in range(3):
        w.byte(0)
        w.byte(rng.randrange(256))
    return w.data()


def option_seeds() -> dict[str, bytes]:
    rng = random.Random("options")
    return {f"{name}-{number}": option_seed(name, kwargs, rng) for number, (name, kwargs) in enumerate(OPTION_SEEDS)}


# ---------------------------------------------------------------------------------------
# Knizia: decks, word lists, lexicons, words


def deck_seeds() -> dict[str, bytes]:
    rng = random.Random("deck")
    packaged = {
        lang: (resources.files("diabolo") / "decks" / f"{lang}.json").read_text() for lang in ("de", "en", "nl")
    }
    small = {"A": 3, "E": 4, "N": 2, "R": 2, "S": 2, "T": 2, "ST": 1, "?": 1, "??": 1}
    texts = {
        **packaged,
        "small": Deck(small, "xx").to_json(),
        "empty": '{"language": "", "cards": {}}',
        "bad-count": '{"language": "xx", "cards": {"A": 0}}',
        "big": '{"language": "xx", "cards": {"E": 67}}',
    }

    def play(w: Writer) -> None:
        w.below(rng.randrange(5), 5)  # players - 2
        w.byte(rng.randrange(256))  # the seed
        w.below(7, 8)
        for _ in range(7):
            w.byte(0)
            w.byte(rng.randrange(256))

    seeds: dict[str, bytes] = {}
    for how, (label, text) in ((h, item) for h in (0, 1) for item in texts.items()):
        w = Writer(fixtures.KNOWN_STRINGS)
        w.below(how, 4)
        w.text(text, 1024)
        play(w)
        seeds[f"{'json' if how == 0 else 'file'}-{label}"] = w.data()
    for label, cards, language in (("small", small, "xx"), ("one", {"E": 1}, ""), ("jokers", {"?": 5, "??": 5}, "de")):
        w = Writer(fixtures.KNOWN_STRINGS)
        w.below(2, 4)
        w.below(len(cards), 12)
        for card, count in cards.items():
            w.below(1, 4)
            w.pick(card, targets.CARDS)
            w.flag(True)
            w.byte(count)
        w.below(1, 4)
        w.string(language, 4)
        play(w)
        seeds[f"dict-{label}"] = w.data()
    for language in ("de", "en", "nl", "xx", "../x"):
        w = Writer(fixtures.KNOWN_STRINGS)
        w.below(3, 4)
        w.string(language, 6)
        play(w)
        seeds[f"load-{language.strip('./')}"] = w.data()
    return seeds


WORD_LISTS = {
    "german": "Straße\nÄrger\nÜbel\nÖl\nz.B.\nU-Boot\nLager\nRegal\nAngel\n",
    "accents": "café\nnaïve\nrésumé\nCrème brûlée\nœuvre\nÆsir\n",
    "mixed": "  Hang  \nHANG\nhang\n\n\t\nA\n" + "B" * 70 + "\nx1\nx_y\n",
    "crlf": "Post\r\nStop\r\nPose\r\nTor\r\n",
    "small": "\n".join(fixtures.small_words()[:60]),
}


def lexicon_text_seeds() -> dict[str, bytes]:
    seeds: dict[str, bytes] = {}
    for how in range(4):
        for label, text in WORD_LISTS.items():
            w = Writer()
            w.below(how, 4)
            w.raw(text.encode(), 4096)
            if how >= 2:
                w.flag(label != "small")
            seeds[f"{('words', 'words-raw', 'file', 'file-gz')[how]}-{label}"] = w.data()
    return seeds


def lexicon_bytes_seeds() -> dict[str, bytes]:
    lists = {
        "small": fixtures.small_words(),
        "thirty": fixtures.small_words()[::20],
        "one": ("Diabolo",),
        "empty": (),
        "german": tuple(WORD_LISTS["german"].split()),
    }
    return {label: diabolo.Lexicon.from_words(words).to_bytes() for label, words in lists.items()}


def word_seeds() -> dict[str, bytes]:
    lexicon = fixtures.small_lexicon()
    states = [s for s in fixtures.state_pool("knizia") if isinstance(s, KniziaState) and s.table]
    rng = random.Random("words")
    seeds: dict[str, bytes] = {}

    def seed(
        label: str, table: list[str], word: str, positions: list[int] | None, own: list[str] | None = None
    ) -> None:
        w = Writer(fixtures.small_words())
        if own is None:
            w.below(1, 4)
        else:
            w.below(0, 4)
            w.below(len(own), 8)
            for item in own:
                w.string(item, 12)
        w.below(len(table), targets.MAX_TABLE + 1)
        for card in table:
            w.below(0, 16)
            w.pick(card, targets.CARDS)
        w.below(1, 8)
        w.below(0, 4)  # min_cards 3
        w.below(1, 8)
        w.string(word, 20)
        w.flag(positions is not None)
        if positions is not None:
            w.below(len(positions), 8)
            for position in positions:
                w.below(position, 24)
        w.below(rng.randrange(len(states)), len(states))
        player(w, 2)
        seeds[label] = w.data()

    for number, state in enumerate(states[::3]):
        table = list(state.table)[: targets.MAX_TABLE]
        found = list(find_words(table, lexicon))
        if found:
            match = found[number % len(found)]
            seed(f"found-{number}", table, match.word, list(match.cards) if number % 2 else None)
        seed(f"miss-{number}", table, fixtures.small_words()[number * 7 % len(fixtures.small_words())], None)
    seed("jokers", ["P", "T", "??", "?", "O", "S"], "POST", [0, 4, 5, 1])
    seed("double", ["R", "E", "ST"], "REST", [0, 1, 2])
    seed("umlaut", ["S", "T", "R", "A", "S", "S", "E"], "Straße", None, own=["Straße", "Ärger"])
    seed("empty-table", [], "A", None)
    seed("long", [*"ABCDEFGHIJKLMNOPQRST"], "A" * 20, None)
    return seeds


def deal_seeds() -> dict[str, bytes]:
    rng = random.Random("deals")
    seeds: dict[str, bytes] = {}

    def deal(w: Writer, edits: list[tuple[int, int, Any]]) -> None:
        w.below(1, 16)  # a deal, not any value
        w.byte(rng.randrange(256))  # the shuffle
        w.below(len(edits), 4)
        for edit, at, replacement in edits:
            w.below(edit, 6)
            w.byte(at)
            if edit == 3:
                w.byte(replacement)
            elif edit == 4:
                w.string(replacement, 4)
            elif edit == 5:
                w.value(replacement)

    def play(w: Writer) -> None:
        w.byte(rng.randrange(256))  # check_state's choice
        w.below(7, 8)
        for _ in range(7):
            w.byte(0)
            w.byte(rng.randrange(256))

    edit_sets: list[list[tuple[int, int, Any]]] = [
        [],
        [(1, 5, None)],
        [(2, 3, None)],
        [(3, 9, 0)],
        [(4, 2, "Z9")],
        [(5, 0, None)],
        [(0, 0, None), (3, 1, 2)],
    ]
    for name in fixtures.GAMES:
        for index in range(len(fixtures.CONFIGS[name])):
            players = fixtures.CONFIGS[name][index].get("players", 4)
            for number, edits in enumerate(edit_sets):
                for form in (0, 1, 2) if name != "duvelen" else (0,):
                    if form and number:
                        continue
                    w = Writer(fixtures.KNOWN_STRINGS)
                    w.pick(name, fixtures.GAMES)
                    w.below(index, len(fixtures.CONFIGS[name]))
                    w.below(1, 8)
                    w.byte(rng.randrange(256))  # the seed
                    w.below(form, 3)
                    if name == "duvelen":
                        w.below(players, players + 2)
                        for seat in range(players):
                            deal(w, edits if seat == 1 else [])
                    elif form == 0:
                        deal(w, edits)
                    elif form == 1:
                        w.below(3, 4)
                        for present in (True, False, True):
                            w.below(1 if present else 0, 4)
                            if present:
                                deal(w, [])
                    else:
                        deal(w, [])
                        deal(w, [])
                    play(w)
                    seeds[f"{name}-c{index}-f{form}-e{number}"] = w.data()
    return seeds


def state_edit_seeds() -> dict[str, bytes]:
    """Any bytes read as edits of a real state, so these are random: a spread of games,
    states and edits to start from."""
    rng = random.Random("state_edits")
    return {f"random-{n}": bytes(rng.randrange(256) for _ in range(rng.randrange(8, 64))) for n in range(48)}


def main() -> int:
    for name in fixtures.GAMES:
        targets.prepare(f"moves_{name}")
    seeds: dict[str, Callable[[], dict[str, bytes]]] = {
        **{f"state_json_{name}": functools.partial(state_seeds, name) for name in fixtures.GAMES},
        **{f"moves_{name}": functools.partial(move_seeds, name) for name in fixtures.GAMES},
        "options": option_seeds,
        "deck": deck_seeds,
        "lexicon_bytes": lexicon_bytes_seeds,
        "lexicon_text": lexicon_text_seeds,
        "words": word_seeds,
        "deals": deal_seeds,
        "state_edits": state_edit_seeds,
    }
    assert set(seeds) == set(targets.TARGETS), set(seeds) ^ set(targets.TARGETS)
    for target_name, make in seeds.items():
        made = make()
        write(target_name, made)
        if target_name.startswith("state_json_"):
            write_dict(target_name, json_tokens(list(made.values())))
    total = sum(f.stat().st_size for f in CORPUS.rglob("*") if f.is_file())
    print(f"{'all':20} {sum(1 for f in CORPUS.rglob('*') if f.is_file()):4} seeds {total:8} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
