"""A straightforward pure-Python word finder for Diabolo (Knizia), the baseline of
``bench.py knizia`` (rules: K3.3, K3.4, K10.4).

The lexicon is a trie of Python dicts (letter -> child; the key ``""`` marks the end of
a word), built from the same word list as the engine's lexicon and normalised with
:func:`diabolo.lexicon.normalise_word`. :func:`find_words` walks the trie depth first
while spending table cards: a letter card for its letter, a double letter for its two
letters in printed order (K3.3 d), a joker ``?`` for any one letter (e), a double joker
``??`` for any two consecutive letters (f). Per word it keeps the best assignment by
K10.4: most cards, then fewest jokers, then the lowest sorted positions; then, as the
engine does, the positions in word order among assignments in which a joker stands for a
letter only when no plain card of that letter is left. It is the search the C++ finder
(cpp/src/knizia/finder.cpp) makes, written as one would write it in Python, with no
attempt at speed beyond the obvious.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from diabolo.lexicon import normalise_word

__all__ = ["END", "Trie", "build_trie", "find_words", "scan_words"]

Trie = dict[str, "Trie"]
"""A trie node: each letter leads to a child node; ``END`` in a node ends a word."""

END = ""
_LEAF: Trie = {}  # the value under END, shared by every word end

JOKER = "?"
DOUBLE_JOKER = "??"

#: A match as find_words returns it: the table positions used, in word order, and the
#: number of jokers among them.
Assignment = tuple[tuple[int, ...], int]


def build_trie(entries: Iterable[str]) -> tuple[Trie, int]:
    """The trie of ``entries`` (raw lines of a word list), each normalised per K2 and
    dropped when it is not a word; and the number of distinct words in it."""
    root: Trie = {}
    words = 0
    for entry in entries:
        word = normalise_word(entry)
        if word is None:
            continue
        node = root
        for letter in word:
            child = node.get(letter)
            if child is None:
                child = node[letter] = {}
            node = child
        if END not in node:
            node[END] = _LEAF
            words += 1
    return root, words


def find_words(trie: Trie, table: Sequence[str], min_cards: int = 3) -> dict[str, Assignment]:
    """Every word of ``trie`` that ``table`` (cards in notation) can form with at least
    ``min_cards`` cards, as word -> (positions in word order, jokers) of its best
    assignment (K10.4)."""
    # The table grouped by kind of card, each kind with its positions, lowest first.
    kinds: list[str] = []
    positions: list[list[int]] = []
    for position, card in enumerate(table):
        if card not in kinds:
            kinds.append(card)
            positions.append([])
        positions[kinds.index(card)].append(position)
    left = [len(p) for p in positions]
    is_joker = [card in (JOKER, DOUBLE_JOKER) for card in kinds]
    letter_kind = {card: kind for kind, card in enumerate(kinds) if len(card) == 1 and card != JOKER}
    joker = kinds.index(JOKER) if JOKER in kinds else -1
    double_joker = kinds.index(DOUBLE_JOKER) if DOUBLE_JOKER in kinds else -1
    doubles = [kind for kind, card in enumerate(kinds) if len(card) == 2 and card != DOUBLE_JOKER]

    best: dict[str, tuple[tuple[int, int, list[int], list[int]], Assignment]] = {}
    used: list[int] = []  # kinds taken, in word order
    letters: list[str] = []  # the word so far, one or two letters per card

    def record() -> None:
        taken = [0] * len(kinds)
        cards: list[int] = []
        jokers = 0
        for kind in used:  # the lowest free position of each kind, in word order
            cards.append(positions[kind][taken[kind]])
            taken[kind] += 1
            jokers += is_joker[kind]
        key = (-len(cards), jokers, sorted(cards), cards)
        word = "".join(letters)
        previous = best.get(word)
        if previous is None or key < previous[0]:
            best[word] = (key, (tuple(cards), jokers))

    def use(kind: int, node: Trie, text: str) -> None:
        left[kind] -= 1
        used.append(kind)
        letters.append(text)
        visit(node)
        letters.pop()
        used.pop()
        left[kind] += 1

    def visit(node: Trie) -> None:
        if END in node and len(used) >= min_cards:
            record()
        have_joker = joker >= 0 and left[joker] > 0
        have_double_joker = double_joker >= 0 and left[double_joker] > 0
        for letter, child in node.items():
            if letter == END:
                continue
            kind = letter_kind.get(letter, -1)
            if kind >= 0 and left[kind] > 0:
                use(kind, child, letter)
            elif have_joker:  # a joker only for a letter without a plain card left
                use(joker, child, letter)
            if have_double_joker:
                for second, grandchild in child.items():
                    if second != END:
                        use(double_joker, grandchild, letter + second)
        for kind in doubles:
            if left[kind] > 0:
                card = kinds[kind]
                middle = node.get(card[0])
                if middle is not None:
                    after = middle.get(card[1])
                    if after is not None:
                        use(kind, after, card)

    visit(trie)
    return {word: assignment for word, (_, assignment) in best.items()}


def scan_words(words: Sequence[str], table: Sequence[str], min_cards: int = 3) -> dict[str, Assignment]:
    """The most straightforward search of all: every word of the list in turn. A word
    passes a quick count (its letters minus the table's, against what the jokers can
    cover) before its best assignment is searched as find_words does, on a trie of that
    one word. ``words`` are normalised (K2)."""
    have: dict[str, int] = {}
    wild = 0
    room = 0
    for card in table:
        if card == JOKER:
            wild, room = wild + 1, room + 1
        elif card == DOUBLE_JOKER:
            wild, room = wild + 2, room + 2
        else:
            room += len(card)
            for letter in card:
                have[letter] = have.get(letter, 0) + 1
    found: dict[str, Assignment] = {}
    for word in words:
        if len(word) > room:
            continue
        need: dict[str, int] = {}
        for letter in word:
            need[letter] = need.get(letter, 0) + 1
        if sum(max(0, n - have.get(letter, 0)) for letter, n in need.items()) > wild:
            continue
        found.update(find_words(build_trie([word])[0], table, min_cards))
    return found
