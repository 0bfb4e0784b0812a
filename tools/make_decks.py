#!/usr/bin/env python3
"""Regenerate the reconstructed Knizia Diabolo decks (docs/games/knizia.rst K1.3, K10.7).

The published card list of the 1999 game is not known to us, so each deck in
``python/diabolo/decks/<lang>.json`` is reconstructed from letter frequencies of the
word list the project ships for that language:

* ``de``: ``lexicons/de/diabolo_lexicon_de/de.txt.gz`` (the separate, GPL-licensed
  ``diabolo-lexicon-de`` distribution; only counts derived from it end up in the deck),
* ``en``: ``python/diabolo/lexicons/en.txt.gz``,
* ``nl``: ``python/diabolo/lexicons/nl.txt.gz``.

Method (documented with the resulting tables in ``python/diabolo/decks/README.md``):

1. Normalise every entry as the engine does (K2, K10.8): trim white space, upper case,
   Ä->AE, Ö->OE, Ü->UE, ß/ẞ->SS, strip other accents; drop entries that are not purely
   A-Z afterwards. Duplicates after normalisation count once (each word weighs one).
2. Split each word into card units from left to right: where the next two letters form one
   of the language's double-letter cards, they make one unit, otherwise the next letter
   does. Count the units over all words.
3. Allocate the 60 non-joker cards in proportion to those counts by the largest remainder
   method, with at least one card per unit (every letter A-Z and every chosen double
   letter): a unit whose quota is below one gets exactly one card and leaves the pool, the
   quotas of the rest are recomputed, until every quota left is at least one. Then each unit
   gets the whole part of its quota and the seats left over go to the largest fractional
   parts (ties: the larger count, then the card's notation in alphabetical order).
4. Add the 6 jokers: 4 single ("?") and 2 double ("??"). 66 cards in all.

Run from the repository root (standard library only)::

    python3 tools/make_decks.py            # write python/diabolo/decks/{de,en,nl}.json
    python3 tools/make_decks.py --check    # exit 1 if a deck file is not up to date
    python3 tools/make_decks.py --markdown # print the tables used in decks/README.md
"""

from __future__ import annotations

import argparse
import gzip
import json
import string
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK_DIR = ROOT / "python" / "diabolo" / "decks"

DECK_SIZE = 66  # K1.2, K10.7
SINGLE_JOKERS = 4  # "?"
DOUBLE_JOKERS = 2  # "??"
LETTER_CARDS = DECK_SIZE - SINGLE_JOKERS - DOUBLE_JOKERS  # 60
LETTERS = string.ascii_uppercase


@dataclass(frozen=True)
class Language:
    code: str
    wordlist: Path
    double_letters: tuple[str, ...]


LANGUAGES: tuple[Language, ...] = (
    Language("de", ROOT / "lexicons" / "de" / "diabolo_lexicon_de" / "de.txt.gz", ("EI", "CH", "ST", "IE", "EN", "ER")),
    Language("en", ROOT / "python" / "diabolo" / "lexicons" / "en.txt.gz", ("TH", "ER", "IN", "ST")),
    Language("nl", ROOT / "python" / "diabolo" / "lexicons" / "nl.txt.gz", ("IJ", "CH", "EN", "IE", "OE", "EI")),
)

_SPECIAL = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "ẞ": "SS", "ß": "SS"}


def normalise(entry: str) -> str | None:
    """The K2/K10.8 form of a lexicon entry, or None when the entry is dropped (K2.2)."""
    text = entry.strip().upper()
    for plain, spelled in _SPECIAL.items():
        text = text.replace(plain, spelled)
    decomposed = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if text and all(ch in LETTERS for ch in text):
        return text
    return None


def read_words(path: Path) -> tuple[int, set[str]]:
    """The number of raw lines in a gzip'd UTF-8 list and its distinct normalised words."""
    words: set[str] = set()
    lines = 0
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            lines += 1
            word = normalise(line)
            if word is not None:
                words.add(word)
    return lines, words


def units(word: str, double_letters: Iterable[str]) -> Iterator[str]:
    """Split a word into card units, left to right, a double letter where one starts."""
    doubles = frozenset(double_letters)
    i = 0
    while i < len(word):
        pair = word[i : i + 2]
        if pair in doubles:
            yield pair
            i += 2
        else:
            yield word[i]
            i += 1


def count_units(words: Iterable[str], double_letters: tuple[str, ...]) -> Counter[str]:
    counts: Counter[str] = Counter({card: 0 for card in (*LETTERS, *double_letters)})
    for word in words:
        counts.update(units(word, double_letters))
    return counts


@dataclass(frozen=True)
class Allocation:
    """The cards per unit, and each unit's quota in the final round (None: given the minimum)."""

    cards: dict[str, int]
    quotas: dict[str, float | None]


def allocate(counts: Mapping[str, int], seats: int) -> Allocation:
    """Largest remainder allocation of ``seats`` cards with at least one card per unit."""
    if seats < len(counts):
        raise ValueError(f"{seats} cards cannot give each of {len(counts)} units one card")
    pool = dict(counts)
    cards: dict[str, int] = {}
    quotas: dict[str, float | None] = {}
    while True:
        left = seats - len(cards)
        total = sum(pool.values())
        low = [card for card, n in pool.items() if total == 0 or left * n < total]
        if not low:
            break
        for card in low:
            cards[card] = 1
            quotas[card] = None
            del pool[card]
    left = seats - len(cards)
    total = sum(pool.values())
    whole = {card: left * n // total for card, n in pool.items()}
    remainder = {card: left * n - whole[card] * total for card, n in pool.items()}  # exact, x total
    spare = left - sum(whole.values())
    for card in sorted(pool, key=lambda c: (-remainder[c], -pool[c], c))[:spare]:
        whole[card] += 1
    cards.update(whole)
    quotas.update({card: left * n / total for card, n in pool.items()})
    return Allocation(cards, quotas)


def card_order(card: str) -> tuple[int, str]:
    return (len(card) if card[0] != "?" else 3 + len(card), card)


def build_deck(language: Language) -> tuple[int, int, Counter[str], Allocation, dict[str, int]]:
    lines, words = read_words(language.wordlist)
    counts = count_units(words, language.double_letters)
    allocation = allocate(counts, LETTER_CARDS)
    cards = dict(allocation.cards)
    cards["?"] = SINGLE_JOKERS
    cards["??"] = DOUBLE_JOKERS
    ordered = {card: cards[card] for card in sorted(cards, key=card_order)}
    assert sum(ordered.values()) == DECK_SIZE
    return lines, len(words), counts, allocation, ordered


def deck_json(code: str, cards: Mapping[str, int]) -> str:
    return json.dumps({"language": code, "cards": dict(cards)}, ensure_ascii=True) + "\n"


def markdown(
    language: Language, lines: int, words: int, counts: Counter[str], allocation: Allocation, cards: Mapping[str, int]
) -> str:
    total = sum(counts.values())
    out = [
        f"### `{language.code}` ({language.wordlist.relative_to(ROOT).as_posix()})",
        "",
        f"{lines} lines, {words} distinct words after K2 normalisation, {total} card units; "
        f"double letters: {', '.join(language.double_letters)}.",
        "",
        "| card | units | share % | share x 60 | final quota | cards |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for card in sorted(counts, key=lambda c: (-counts[c], c)):
        share = counts[card] / total
        quota = allocation.quotas[card]
        final = "min. 1" if quota is None else f"{quota:.2f}"
        out.append(
            f"| {card} | {counts[card]} | {100 * share:.2f} | {LETTER_CARDS * share:.2f} | {final} | {cards[card]} |"
        )
    out.append(f"| ? | | | | | {cards['?']} |")
    out.append(f"| ?? | | | | | {cards['??']} |")
    out.append(f"| **total** | {total} | 100.00 | 60.00 | | {sum(cards.values())} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="only compare with the deck files; exit 1 on a difference")
    mode.add_argument("--markdown", action="store_true", help="print the frequency tables as Markdown")
    args = parser.parse_args(argv)

    stale = False
    for language in LANGUAGES:
        lines, words, counts, allocation, cards = build_deck(language)
        target = DECK_DIR / f"{language.code}.json"
        text = deck_json(language.code, cards)
        if args.markdown:
            print(markdown(language, lines, words, counts, allocation, cards))
        elif args.check:
            current = target.read_text(encoding="utf-8") if target.exists() else None
            if current != text:
                print(f"{target.relative_to(ROOT)} is not up to date", file=sys.stderr)
                stale = True
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            summary = " ".join(f"{card}:{n}" for card, n in cards.items())
            print(f"{target.relative_to(ROOT)}: {words} words; {summary}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
