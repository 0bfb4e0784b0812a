"""Plain reference model of Diabolo (spec: docs/games/schacht.rst, clauses S1-S8).

This is a deliberately simple second implementation of the rules, written for
auditing and differential testing, not for speed. State is kept in ordinary
lists and dicts; every rule step cites the clause it implements.

Cards are strings in notation S8: colour letter then value, e.g. ``"G5"``.
Moves are ``"G5<"`` / ``"G5>"`` (placement), ``"xG5"`` (discard, S3.3) and
``"bet"`` / ``"hold"`` (doubler decision, S5.3).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

SIMULTANEOUS = -2
TERMINAL = -4
COLOURS = "RYGPB"  # layout order, S1.2

HAND_SIZE = 6  # S2.1
ROW_LIMIT = 5  # S3.1
SIDE_LIMIT = 3  # S3.2
LEFT = "<"  # devil / hell side, S8
RIGHT = ">"  # angel / heaven side, S8


def card_colour(card: str) -> str:
    """Colour letter of a card (S8)."""
    return card[0]


def card_value(card: str) -> int:
    """Face value of a card (S8)."""
    return int(card[1:])


def card_key(card: str) -> tuple[int, int]:
    """Sort key: colour in layout order, then value (S7.4)."""
    return (COLOURS.index(card_colour(card)), card_value(card))


def sorted_cards(cards: list[str]) -> list[str]:
    """A sorted copy of a list of cards (S7.4)."""
    return sorted(cards, key=card_key)


def move_data(move: str) -> dict[str, Any]:
    """A move in notation (S8) as the engine's move data: {"kind": "place", "card": "G5",
    "side": "left"}, {"kind": "discard", "card": "G5"}, {"kind": "bet"}, {"kind": "hold"}."""
    if move in ("bet", "hold"):
        return {"kind": move}
    if move.startswith("x"):
        return {"kind": "discard", "card": move[1:]}
    return {"kind": "place", "card": move[:2], "side": "left" if move[2] == "<" else "right"}


def full_deck(value_counts: tuple[int, int, int, int, int]) -> list[str]:
    """Every card of the deck, sorted (S1.2, S1.3)."""
    deck: list[str] = []
    for colour in COLOURS:
        for value in range(1, 6):
            for _ in range(value_counts[value - 1]):
                deck.append(colour + str(value))
    return deck


class SchachtModel:
    """A whole game of Diabolo with given decks, one per round (S2.4)."""

    def __init__(
        self,
        players: int,
        decks: list[list[str]],
        *,
        rounds: int | None = None,
        rows_to_end: int | None = None,
        value_counts: tuple[int, int, int, int, int] = (4, 3, 3, 2, 2),
    ) -> None:
        assert 2 <= players <= 8, "the model supports 2..8 players"
        assert len(value_counts) == 5 and all(c >= 0 for c in value_counts)
        self.players: int = players
        # S6.1: as many rounds as players by default.
        self.rounds: int = players if rounds is None else rounds
        assert self.rounds >= 1
        # S4.1: 2nd closed row ends the round, 3rd with 5 (or more) players.
        if rows_to_end is None:
            rows_to_end = 3 if players >= 5 else 2
        assert rows_to_end >= 1
        self.rows_to_end: int = rows_to_end
        self.value_counts: tuple[int, int, int, int, int] = value_counts

        # S2.4: every given deck must be exactly the deck.
        assert len(decks) >= self.rounds, "one deck per round is needed"
        expected = Counter(full_deck(value_counts))
        for deck in decks[: self.rounds]:
            assert Counter(deck) == expected, "a deck is not exactly the full deck"
        assert sum(expected.values()) >= HAND_SIZE * players, "deck too small to deal"
        self.decks: list[list[str]] = [list(deck) for deck in decks]

        self.scores: list[int] = [0] * players
        self.current_player: int = 0
        self.phase: str = "play"
        self.round: int = 0
        self.dealer: int = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.pile: list[str] = []
        self.left: dict[str, list[int]] = {c: [] for c in COLOURS}
        self.right: dict[str, list[int]] = {c: [] for c in COLOURS}
        self.doubler_available: list[bool] = [True] * players
        self.decisions: dict[int, str] = {}
        self.shown: list[list[str]] = [[] for _ in range(players)]
        self.discarded: list[list[str]] = [[] for _ in range(players)]
        self.revealed_scoring: dict[str, list[list[str]]] = {}
        self.turns: list[dict[str, Any]] = []  # S7.1: this round's placements and discards
        self.scoring_index: int = 0
        self.scoring_colour: str | None = None

        self.start_round(0)

    # ------------------------------------------------------------------
    # Queries

    @property
    def is_terminal(self) -> bool:
        """True once the last round has been scored (S6)."""
        return self.phase == "game_over"

    def row_closed(self, colour: str) -> bool:
        """A row with 5 cards is closed (S3.1)."""
        return len(self.left[colour]) + len(self.right[colour]) >= ROW_LIMIT

    def closed_rows(self) -> int:
        """Number of closed rows (S4.1)."""
        return sum(1 for c in COLOURS if self.row_closed(c))

    def side_open(self, colour: str, side: str) -> bool:
        """Can a card still go on this side of this row? (S3.1, S3.2)"""
        if self.row_closed(colour):
            return False
        cards = self.left[colour] if side == LEFT else self.right[colour]
        return len(cards) < SIDE_LIMIT

    def legal_moves(self, player: int) -> list[str]:
        """Moves `player` may make now, in canonical order (S3, S5.3, S8)."""
        if self.phase == "play":
            if player != self.current_player:
                return []
            distinct = sorted_cards(list(set(self.hands[player])))
            placements: list[str] = []
            for card in distinct:
                for side in (LEFT, RIGHT):
                    if self.side_open(card_colour(card), side):
                        placements.append(card + side)
            if placements:
                return placements
            # S3.3: nothing can be placed, so one card is discarded.
            return ["x" + card for card in distinct]
        if self.phase == "doubler":
            if self.doubler_available[player] and player not in self.decisions:
                return ["bet", "hold"]
            return []
        return []

    # ------------------------------------------------------------------
    # Moves

    def apply(self, move: str, player: int) -> None:
        """Play one move for `player`; it must be legal."""
        assert move in self.legal_moves(player), f"illegal move {move!r} for seat {player}"
        if self.phase == "doubler":
            self.decisions[player] = move  # S5.3: secret until everyone decided
            waiting = [s for s in range(self.players) if self.doubler_available[s] and s not in self.decisions]
            if not waiting:
                assert self.scoring_colour is not None
                self.score_positive(self.scoring_colour)
                self.scoring_index += 1
                self.continue_scoring()
            return

        hand = self.hands[player]
        self.turns.append({"seat": player, "move": move})
        if move.startswith("x"):
            # S3.3: show the hand, discard one card out of the round.
            card = move[1:]
            hand.remove(card)
            self.discarded[player].append(card)
            self.shown[player] = sorted_cards(list(hand))
            self.begin_turn((player + 1) % self.players)
            return

        # S2.3: a placement on the left (devil) or right (angel) side.
        card = move[:-1]
        side = move[-1]
        hand.remove(card)
        if card in self.shown[player]:
            # Cannot happen (shown cards are of closed colours); kept for safety.
            self.shown[player].remove(card)
        if side == LEFT:
            self.left[card_colour(card)].append(card_value(card))
        else:
            self.right[card_colour(card)].append(card_value(card))
        if self.closed_rows() >= self.rows_to_end:
            self.start_scoring()  # S4.1: the round ends at once
        else:
            self.begin_turn((player + 1) % self.players)

    # ------------------------------------------------------------------
    # Round flow

    def start_round(self, round_number: int) -> None:
        """Deal round `round_number` from its given deck (S2.1, S2.2, S2.4, S6.1)."""
        n = self.players
        self.round = round_number
        self.dealer = round_number % n  # S2.2
        self.phase = "play"
        self.scoring_colour = None
        self.scoring_index = 0
        self.decisions = {}
        deck = list(self.decks[round_number])
        self.hands = [[] for _ in range(n)]
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat] = deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]
        self.pile = deck[n * HAND_SIZE :]
        self.left = {c: [] for c in COLOURS}
        self.right = {c: [] for c in COLOURS}
        self.doubler_available = [True] * n  # S2.1, S6.1
        self.shown = [[] for _ in range(n)]
        self.discarded = [[] for _ in range(n)]
        self.revealed_scoring = {}
        self.turns = []
        self.begin_turn((self.dealer + 1) % n)

    def begin_turn(self, seat: int) -> None:
        """Give the turn to `seat` (or the next seat that can play), drawing first (S2.3)."""
        for i in range(self.players):
            s = (seat + i) % self.players
            if self.pile:
                self.hands[s].append(self.pile.pop(0))  # S2.3, drawn from the front
            if self.hands[s]:
                self.current_player = s
                return
            # Engine decision: empty hand and empty pile: the turn is skipped.
        # Every hand and the pile are empty: the round ends.
        self.start_scoring()

    def start_scoring(self) -> None:
        """Begin scoring the five rows in layout order (S5.1)."""
        self.phase = "scoring"  # transient; never visible between moves
        self.current_player = SIMULTANEOUS
        self.scoring_index = 0
        self.continue_scoring()

    def continue_scoring(self) -> None:
        """Score colours from `scoring_index` on; stop when a doubler decision is needed."""
        self.phase = "scoring"
        self.scoring_colour = None
        self.decisions = {}
        while self.scoring_index < len(COLOURS):
            colour = COLOURS[self.scoring_index]
            angel = sum(self.right[colour])  # S5.2
            devil = sum(self.left[colour])
            if angel == devil:
                pass  # S5.5: nothing, no reveal
            elif devil > angel:
                self.score_negative(colour)  # S5.4
            elif any(self.doubler_available):
                # S5.3: everyone with an unused doubler decides first.
                self.phase = "doubler"
                self.scoring_colour = colour
                self.current_player = SIMULTANEOUS
                return
            else:
                self.score_positive(colour)  # S5.3 with nobody able to bet
            self.scoring_index += 1
        self.end_round()

    def reveal(self, colour: str) -> list[int]:
        """Everyone reveals their hand cards of `colour`; returns the hand sums (S5.3, S5.4)."""
        per_seat: list[list[str]] = []
        sums: list[int] = []
        for hand in self.hands:
            cards = sorted_cards([c for c in hand if card_colour(c) == colour])
            per_seat.append(cards)
            sums.append(sum(card_value(c) for c in cards))
        self.revealed_scoring[colour] = per_seat
        return sums

    def score_negative(self, colour: str) -> None:
        """Highest hand sum(s) of a negative colour score minus that sum (S5.4, S5.6)."""
        sums = self.reveal(colour)
        best = max(sums)
        if best == 0:
            return  # S5.6
        for seat in range(self.players):
            if sums[seat] == best:
                self.scores[seat] -= best

    def score_positive(self, colour: str) -> None:
        """Highest hand sum(s) score plus, x2 with a bet doubler; bets are spent (S5.3, S5.6, S5.7)."""
        sums = self.reveal(colour)
        best = max(sums)
        if best > 0:  # S5.6
            for seat in range(self.players):
                if sums[seat] == best:
                    if self.decisions.get(seat) == "bet":
                        self.scores[seat] += 2 * best
                    else:
                        self.scores[seat] += best
        for seat, decision in self.decisions.items():
            if decision == "bet":
                self.doubler_available[seat] = False  # S5.3, S5.7
        self.decisions = {}
        self.scoring_colour = None

    def end_round(self) -> None:
        """Next round, or game over after the last one (S6.1)."""
        self.scoring_colour = None
        self.decisions = {}
        if self.round + 1 < self.rounds:
            self.start_round(self.round + 1)
        else:
            self.phase = "game_over"
            self.current_player = TERMINAL

    # ------------------------------------------------------------------
    # Observation

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know, as a JSON-ready dict (S7)."""
        assert self.phase in ("play", "doubler", "game_over")
        decision: str | None = None
        if self.phase == "doubler":
            decision = self.decisions.get(player)  # S7.1: only one's own
        return {
            "player": player,
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "hand": sorted_cards(list(self.hands[player])),
            "hand_sizes": [len(hand) for hand in self.hands],
            "rows": {
                c: {
                    "left": list(self.left[c]),
                    "right": list(self.right[c]),
                    "closed": self.row_closed(c),
                }
                for c in COLOURS
            },
            "draw_pile": len(self.pile),
            "doubler_available": list(self.doubler_available),
            "doubler_decision": decision,
            "scores": list(self.scores),
            "scoring_colour": self.scoring_colour if self.phase == "doubler" else None,
            "revealed": {
                "shown": [sorted_cards(list(s)) for s in self.shown],
                "discarded": [sorted_cards(list(d)) for d in self.discarded],
                "scoring": {c: [list(cards) for cards in per_seat] for c, per_seat in self.revealed_scoring.items()},
            },
            "turns": [dict(turn) for turn in self.turns],
            "legal": self.legal_moves(player),
            "legal_moves": [move_data(move) for move in self.legal_moves(player)],
        }
