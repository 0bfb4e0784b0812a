"""A straightforward pure-Python word finder for Diabolo (Knizia): the baseline that
the C++ ``find_words`` and ``check_word`` are compared with (K3.3, K3.4, K10.4).

For every word it tries every way to cover the word's letters, left to right, with
distinct table positions; it is slow and obviously right.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

JOKER = "?"
DOUBLE_JOKER = "??"


def assignments(word: str, table: Sequence[str]) -> list[list[int]]:
    """Every way to form ``word`` from table positions, each a list in word order."""
    found: list[list[int]] = []

    def cover(at: int, used: list[int]) -> None:
        if at == len(word):
            found.append(list(used))
            return
        for position, card in enumerate(table):
            if position in used:
                continue
            if card == JOKER:
                width = 1  # K3.3(e): one letter
            elif card == DOUBLE_JOKER:
                width = 2  # K3.3(f): exactly two letters
            elif word.startswith(card, at):
                width = len(card)  # a letter, or a double letter in printed order (K3.3 d)
            else:
                continue
            if at + width > len(word):
                continue
            used.append(position)
            cover(at + width, used)
            used.pop()

    cover(0, [])
    return found


def jokers_come_last(word: str, table: Sequence[str], cards: list[int]) -> bool:
    """Whether every joker stands for a letter whose plain cards are all used earlier
    in the word (the engine's rule for telling apart assignments of the same cards)."""
    at = 0
    used_plain: set[int] = set()
    for position in cards:
        card = table[position]
        if card == JOKER:
            free = [p for p, c in enumerate(table) if c == word[at] and p not in used_plain]
            if free:
                return False
        elif len(card) == 1:
            used_plain.add(position)
        at += 2 if card == DOUBLE_JOKER else len(card)
    return True


def best(word: str, table: Sequence[str]) -> list[int] | None:
    """The K10.4 best assignment: most cards, fewest jokers, lowest sorted positions;
    then, among assignments where jokers come last (see jokers_come_last), the
    positions in word order, lowest first (the engine's final tie-break)."""
    options = [cards for cards in assignments(word, table) if jokers_come_last(word, table, cards)]
    if not options:
        return None

    def key(cards: list[int]) -> tuple[int, int, list[int], list[int]]:
        jokers = sum(table[p] in (JOKER, DOUBLE_JOKER) for p in cards)
        return (-len(cards), jokers, sorted(cards), cards)

    return min(options, key=key)


def find_words(table: Sequence[str], words: Iterable[str], min_cards: int = 3) -> dict[str, list[int]]:
    """Every word of ``words`` (normalised) with a best assignment of at least
    ``min_cards`` cards, as word -> positions in word order."""
    result = {}
    for word in set(words):
        cards = best(word, table)
        if cards is not None and len(cards) >= min_cards:
            result[word] = cards
    return result
