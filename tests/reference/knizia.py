"""Plain reference model of Diabolo (Knizia) (spec: docs/games/knizia.rst, clauses K1-K10).

This is a deliberately simple second implementation of the rules, written for
auditing and differential testing against the C++ engine, not for speed. State is
kept in ordinary lists; every rule step cites the clause it implements. Words are
found with the brute-force finder in ``tests/reference/knizia_words.py``.

Cards are strings in notation K8: a letter ``"A"``, a double letter ``"EI"`` (two
letters in printed order), a joker ``"?"`` or a double joker ``"??"``.

Moves (K7): ``"reveal"``, ``"pass"``, ``"take@5"``, and a claim: an upper-case word
``"LAGER"``, optionally with the table positions used in word order ``"POST@3,7,9"``.

The game is simultaneous (K3.2, K10.2): ``apply(move, player)`` takes the seat that
moves. A move that may not be made now raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from tests.reference.knizia_words import DOUBLE_JOKER, JOKER, best, find_words

VARIANTS = ("standard", "victory_tiles")  # K4.2, K4.3
STALE_CALLS = ("penalty", "reject")  # K3.8, K10.3

# K10.8: the reasons for an invalid call, in the order they are checked.
NOT_A_WORD = "not a word"
TOO_FEW_CARDS = "too few cards"
LETTERS_MISSING = "letters missing"
DOUBLE_LETTER = "double letter split or reversed"

CARD_PATTERN = re.compile(r"[A-Z]{1,2}|\?|\?\?")  # K1.2, K8
CLAIM_PATTERN = re.compile(r"([A-Z]+)(?:@(.*))?")  # K7
TAKE_PATTERN = re.compile(r"take@([0-9]+)")  # K7


class LastCall(TypedDict):
    """The latest call and its outcome (K5.1, K10.6)."""

    seat: int
    word: str
    valid: bool
    reason: str | None


def is_double_letter(card: str) -> bool:
    """A card printed with two letters, e.g. EI (K1.2); not the double joker."""
    return len(card) == 2 and card.isalpha()


def split_double_letters(cards: Sequence[str]) -> list[str]:
    """The cards with every double letter replaced by its two single letters (K10.8)."""
    result: list[str] = []
    for card in cards:
        if is_double_letter(card):
            result.extend([card[0], card[1]])
        else:
            result.append(card)
    return result


def spells(word: str, cards: Sequence[str]) -> bool:
    """Do `cards`, in this order, spell exactly `word`? (K3.3 c-f)"""
    at = 0
    for card in cards:
        if card == JOKER:
            width = 1  # K3.3(e): exactly one letter
        elif card == DOUBLE_JOKER:
            width = 2  # K3.3(f): exactly two consecutive letters
        elif word.startswith(card, at):
            width = len(card)  # a letter, or a double letter in printed order (K3.3 d)
        else:
            return False
        if at + width > len(word):
            return False
        at += width
    return at == len(word)


def parse_positions(text: str) -> list[int]:
    """The position list of a claim "WORD@3,7,9" (K7); ValueError if malformed."""
    parts = text.split(",")
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"malformed position list {text!r}")
    positions = [int(part) for part in parts]
    if len(set(positions)) != len(positions):
        raise ValueError(f"a position is named twice in {text!r}")
    return positions


def default_rounds(players: int) -> int:
    """K4.2: everyone deals once with 4-6 players, twice with 2-3 players."""
    return players if players >= 4 else 2 * players


class KniziaModel:
    """A whole game of Diabolo (Knizia) with given decks, one card list per round."""

    def __init__(
        self,
        players: int,
        decks: list[list[str]],
        words: Iterable[str],
        *,
        min_cards: int = 3,
        variant: str = "standard",
        handicap: int = 10,
        stale_calls: str = "penalty",
        rounds: int | None = None,
    ) -> None:
        # K1.1: 2 to 6 players.
        if not 2 <= players <= 6:
            raise ValueError(f"Diabolo (Knizia) needs 2..6 players, got {players}")
        # K3.3(b): at least `min_cards` cards per word.
        if min_cards < 1:
            raise ValueError(f"min_cards must be at least 1, got {min_cards}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        if stale_calls not in STALE_CALLS:
            raise ValueError(f"stale_calls must be one of {STALE_CALLS}, got {stale_calls!r}")
        planned: int | None = None
        if variant == "standard":
            planned = default_rounds(players) if rounds is None else rounds  # K4.2
            if planned < 1:
                raise ValueError(f"rounds must be at least 1, got {planned}")
            if len(decks) < planned:
                raise ValueError(f"{planned} rounds need {planned} decks, got {len(decks)}")
        for r, deck in enumerate(decks):
            for card in deck:
                if not CARD_PATTERN.fullmatch(card):
                    raise ValueError(f"round {r}: bad card {card!r}")

        self.players: int = players
        self.decks: list[list[str]] = [list(deck) for deck in decks]
        self.words: frozenset[str] = frozenset(words)
        self.min_cards: int = min_cards
        self.variant: str = variant
        self.handicap: int = handicap
        self.stale_calls: str = stale_calls
        self.rounds: int | None = planned  # None in the victory tiles variant (K4.3)

        self.scores: list[int] = [0] * players  # totals, or victory tiles (K10.6)
        self.round: int = 0
        self.phase: str = "play"
        self.deck: list[str] = []  # the rest of this round's deck, next card first
        self.table: list[str] = []  # the line of revealed cards (K3.1)
        self.piles: list[int] = []  # cards taken by each seat this round (K3.4)
        self.passed: list[bool] = []  # standing passes (K10.5)
        self.last_call: LastCall | None = None
        self.penalty: list[int] = []  # seats still to take a table card (K3.5, K10.2)
        self._claims_of: tuple[tuple[str, ...], list[str]] | None = None

        self.start_round(0)

    # ------------------------------------------------------------------
    # Queries

    @property
    def is_terminal(self) -> bool:
        """True once the game is over (K4.2, K4.3)."""
        return self.phase == "game_over"

    @property
    def dealer(self) -> int:
        """K10.1: seat r % n deals round r."""
        return self.round % self.players

    def valid_words(self) -> list[str]:
        """Every valid claim on the table, alphabetically (K6.1, K3.3). Remembered
        for the last table, since every seat asks about the same one."""
        key = tuple(self.table)
        if self._claims_of is None or self._claims_of[0] != key:
            self._claims_of = (key, sorted(find_words(self.table, self.words, self.min_cards)))
        return list(self._claims_of[1])

    def legal_moves(self, player: int) -> list[str]:
        """Moves `player` may make now, in canonical order (K9, K10.2, K10.5)."""
        if not 0 <= player < self.players:
            raise ValueError(f"no seat {player}")
        if self.phase == "penalty":
            # K10.2: only the head of the penalty queue moves: it takes a table card.
            if player != self.penalty[0]:
                return []
            return [f"take@{i}" for i in range(len(self.table))]
        if self.phase != "play":
            return []
        moves: list[str] = []
        if player == self.dealer and self.deck:
            moves.append("reveal")  # K3.1
        moves.extend(self.valid_words())  # K3.2: anyone may call any time
        moves.append("pass")  # K10.5: always offered
        return moves

    def move_data(self, move: str) -> dict[str, Any]:
        """A legal move in notation (K7) as the engine's move data; a claim names the table
        positions of its best assignment (K3.4, K10.4)."""
        if move in ("reveal", "pass"):
            return {"kind": move}
        if move.startswith("take@"):
            return {"kind": "take", "position": int(move[5:])}
        return {"kind": "claim", "word": move, "cards": self.check_claim(move)[0]}

    def check_claim(self, word: str) -> tuple[list[int] | None, str | None]:
        """A bare claim "WORD": (best positions, None) if valid, else (None, reason)
        (K3.3, K10.4, K10.8)."""
        if word not in self.words:
            return None, NOT_A_WORD  # K3.3(a)
        if len(word) < self.min_cards:
            return None, TOO_FEW_CARDS  # K3.3(b): every card has at least one letter
        cards = best(word, self.table)  # K3.4, K10.4
        if cards is not None:
            if len(cards) < self.min_cards:
                return None, TOO_FEW_CARDS  # K3.3(b): even the most cards are too few
            return cards, None
        if best(word, split_double_letters(self.table)) is not None:
            return None, DOUBLE_LETTER  # K3.3(d)
        return None, LETTERS_MISSING  # K3.3(c)

    def check_named_claim(self, word: str, positions: list[int]) -> tuple[list[int] | None, str | None]:
        """A claim "WORD@p1,p2,...": (positions, None) if the named cards spell the
        word in this order, else (None, reason) (K3.4, K7, K10.8)."""
        if word not in self.words:
            return None, NOT_A_WORD  # K3.3(a)
        if len(positions) < self.min_cards:
            return None, TOO_FEW_CARDS  # K3.3(b)
        on_table = all(p < len(self.table) for p in positions)
        if on_table and spells(word, [self.table[p] for p in positions]):
            return positions, None  # K3.3(c-f)
        named = [self.table[p] for p in positions if p < len(self.table)]
        # K3.3(d): only when a double letter is what stops the named cards, not their order.
        if best(word, named) is None and best(word, split_double_letters(named)) is not None:
            return None, DOUBLE_LETTER
        return None, LETTERS_MISSING  # K3.3(c)

    # ------------------------------------------------------------------
    # Moves

    def apply(self, move: str, player: int) -> None:
        """Play one move (K7) for `player`; ValueError, with nothing changed, if it
        may not be made now (K10.3)."""
        if not 0 <= player < self.players:
            raise ValueError(f"no seat {player}")
        if self.phase == "game_over":
            raise ValueError(f"the game is over; {move!r} is not possible")
        take = TAKE_PATTERN.fullmatch(move)
        if take is not None:
            self.take(player, int(take.group(1)))
        elif self.phase == "penalty":
            # K10.2: the game is paused during a penalty.
            raise ValueError(f"only take@i is possible during a penalty, not {move!r}")
        elif move == "reveal":
            self.reveal(player)
        elif move == "pass":
            self.passed[player] = True  # K10.5: stands until this seat moves again
        else:
            claim = CLAIM_PATTERN.fullmatch(move)
            if claim is None:
                raise ValueError(f"not a move: {move!r}")
            word = claim.group(1)
            positions = None if claim.group(2) is None else parse_positions(claim.group(2))
            self.call(player, word, positions)
        self.check_round_end()

    def reveal(self, player: int) -> None:
        """The dealer turns the next card onto the end of the line (K3.1)."""
        if player != self.dealer:
            raise ValueError(f"seat {player} is not the dealer (seat {self.dealer})")
        if not self.deck:
            raise ValueError("the deck is empty")
        self.table.append(self.deck.pop(0))
        self.passed[player] = False  # K10.5: a pass stands until the seat moves again

    def call(self, player: int, word: str, positions: list[int] | None) -> None:
        """A claim of `word` by `player`, valid (K3.4) or not (K3.5, K10.3)."""
        if positions is None:
            cards, reason = self.check_claim(word)
        else:
            cards, reason = self.check_named_claim(word, positions)
        if cards is not None:
            # K3.4: the caller takes the cards used; the rest keep their order (K3.6).
            used = set(cards)
            self.table = [card for i, card in enumerate(self.table) if i not in used]
            self.piles[player] += len(cards)
            self.passed = [False] * self.players  # K10.5: a valid claim clears every pass
            self.last_call = {"seat": player, "word": word, "valid": True, "reason": None}
            return
        if self.stale_calls == "reject":
            raise ValueError(f"invalid call {word!r}: {reason}")  # K10.3 option
        # K3.5: the caller takes nothing; every other seat, clockwise, takes a card.
        self.last_call = {"seat": player, "word": word, "valid": False, "reason": reason}
        self.passed[player] = False
        self.penalty = [(player + k) % self.players for k in range(1, self.players)]
        self.resolve_penalty()

    def take(self, player: int, position: int) -> None:
        """The head of the penalty queue takes table card `position` (K3.5, K7)."""
        if self.phase != "penalty":
            raise ValueError("take@i is only possible during a penalty")
        if player != self.penalty[0]:
            raise ValueError(f"seat {player} may not take now (seat {self.penalty[0]} takes)")
        if position >= len(self.table):
            raise ValueError(f"no table card at position {position}")
        self.table.pop(position)
        self.piles[player] += 1
        self.passed[player] = False
        self.penalty.pop(0)
        self.resolve_penalty()

    def resolve_penalty(self) -> None:
        """K3.5, K10.2: with the table empty, the remaining takers each get the top
        card of the deck (nothing if it is empty); then play goes on, or the head of
        the queue must choose a table card."""
        while self.penalty and not self.table:
            seat = self.penalty.pop(0)
            if self.deck:
                self.deck.pop(0)
                self.piles[seat] += 1
        self.phase = "penalty" if self.penalty else "play"

    # ------------------------------------------------------------------
    # Round flow

    def check_round_end(self) -> None:
        """K3.7, K10.5: with the deck empty, the round ends when the table forms no
        valid word or every seat's pass stands."""
        if self.phase != "play" or self.deck:
            return
        if all(self.passed) or not find_words(self.table, self.words, self.min_cards):
            self.end_round()

    def end_round(self) -> None:
        """Score the round (K4.1, K4.3), then the next round or game over (K4.2)."""
        if self.variant == "standard":
            for seat in range(self.players):
                self.scores[seat] += self.piles[seat]  # K4.1
            assert self.rounds is not None
            game_over = self.round + 1 >= self.rounds  # K4.2
        else:
            # K4.3: a seat that already has a tile counts `handicap` cards fewer.
            adjusted = [
                self.piles[seat] - (self.handicap if self.scores[seat] >= 1 else 0) for seat in range(self.players)
            ]
            most = max(adjusted)
            for seat in range(self.players):
                if adjusted[seat] == most:
                    self.scores[seat] += 1  # ties: each gets a tile
            game_over = max(self.scores) >= 2  # the first with 2 tiles wins
        if game_over:
            self.phase = "game_over"  # the last round's table, piles and calls stay
        else:
            self.start_round(self.round + 1)

    def start_round(self, round_number: int) -> None:
        """Start round `round_number` with its deck (K3.1, K4.2, K10.1)."""
        if round_number >= len(self.decks):
            raise RuntimeError(f"no deck given for round {round_number}")
        self.round = round_number
        self.phase = "play"
        self.deck = list(self.decks[round_number])
        self.table = []
        self.piles = [0] * self.players
        self.passed = [False] * self.players
        self.last_call = None
        self.penalty = []

    # ------------------------------------------------------------------
    # Observation

    def observation(self, player: int) -> dict[str, Any]:
        """The public view plus `player`'s legal moves, as a JSON-ready dict (K5.1, K8)."""
        return {
            "player": player,
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "phase": self.phase,
            "table": list(self.table),
            "deck_count": len(self.deck),
            "piles": list(self.piles),
            "scores": list(self.scores),
            "last_call": None if self.last_call is None else dict(self.last_call),
            "penalty": list(self.penalty),
            "passed": list(self.passed),
            "legal": self.legal_moves(player),
            "legal_moves": [self.move_data(move) for move in self.legal_moves(player)],
        }
