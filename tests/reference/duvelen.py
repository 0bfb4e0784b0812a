"""Plain reference model of Duvelen (spec: docs/games/duvelen.rst, clauses D1-D8).

This is a deliberately simple second implementation of the rules, written for
auditing and differential testing, not for speed. State is kept in ordinary
lists and dicts; every rule step cites the clause it implements.

Cards are strings in notation D7: rank then suit, e.g. ``"10h"``, ``"Qs"``.
Every player owns one full deck (D1.1). Cards in a player's own places (Stok,
Rij, Draaistok, waste) always belong to that player; cards in the centre and
in Herenhopen carry their owner in a parallel ``owners`` list.

Moves (long form, D7): ``"S:Ah>new"``, ``"R2:7h>3"``, ``"W:Kd>12"``, ``"turn"``,
``"recycle"``, ``"recycle^"``, ``"stop"`` and ``"pass"``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

SIMULTANEOUS = -2
TERMINAL = -4
SUITS = "hdcs"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

STOK_SIZE = 13  # D2.1
RIJ_SIZE = 4  # D2.2
DRAAISTOK_SIZE = 35  # D2.3
TURN_SIZE = 3  # D3.7
STOP_BONUS = 10  # D5.5
ON_BLOCK_OPTIONS = ("rotate_stok", "end_round")  # D4.5

SOURCE_ORDER = ["S", "R1", "R2", "R3", "R4", "W"]  # canonical order of card sources


class Pile(TypedDict):
    """A Hoop in the centre (D3.2): cards from the Ace up, with each card's owner."""

    id: int
    suit: str
    cards: list[str]
    owners: list[int]


class Herenhoop(TypedDict):
    """A completed pile (D3.9), held by the player who played its King."""

    holder: int
    suit: str
    cards: list[str]
    owners: list[int]


def card_suit(card: str) -> str:
    """Suit letter of a card (D7)."""
    return card[-1]


def card_rank(card: str) -> int:
    """Rank value of a card, Ace 1 up to King 13 (D7)."""
    return RANKS.index(card[:-1]) + 1


def make_card(rank: int, suit: str) -> str:
    """Notation of the card with rank value `rank` (1..13) and `suit` (D7)."""
    return RANKS[rank - 1] + suit


def move_data(move: str) -> dict[str, Any]:
    """A move in long notation (D7) as the engine's move data: {"kind": "play", "source":
    "R2", "card": "7h", "target": 3} ("target": "new" for an Ace), or {"kind": "turn"}..."""
    if ":" not in move:
        return {"kind": move}
    source, rest = move.split(":")
    card, target = rest.split(">")
    return {"kind": "play", "source": source, "card": card, "target": target if target == "new" else int(target)}


def full_deck() -> list[str]:
    """The 52 cards of one deck: suits h, d, c, s; in each suit A up to K (D1.1)."""
    deck: list[str] = []
    for suit in SUITS:
        for rank in range(1, 14):
            deck.append(make_card(rank, suit))
    return deck


class DuvelenModel:
    """A whole game of Duvelen with given decks, one list of decks per round (D2.5)."""

    def __init__(
        self,
        players: int,
        decks: list[list[list[str]]],
        *,
        rounds: int = 1,
        on_block: str = "rotate_stok",
        max_actions: int = 100_000,
    ) -> None:
        # D1.2: 2..8 players.
        if not 2 <= players <= 8:
            raise ValueError(f"Duvelen needs 2..8 players, got {players}")
        # D1.3: a game is a number of rounds.
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, got {rounds}")
        # D4.5: the block option.
        if on_block not in ON_BLOCK_OPTIONS:
            raise ValueError(f"on_block must be one of {ON_BLOCK_OPTIONS}, got {on_block!r}")
        if max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, got {max_actions}")
        # D2.5: one full deck per seat for every round that will be played.
        if len(decks) < rounds:
            raise ValueError(f"{rounds} rounds need {rounds} sets of decks, got {len(decks)}")
        expected = Counter(full_deck())
        for r in range(rounds):
            if len(decks[r]) != players:
                raise ValueError(f"round {r}: need one deck per seat ({players}), got {len(decks[r])}")
            for seat, deck in enumerate(decks[r]):
                if len(deck) != 52 or Counter(deck) != expected:
                    raise ValueError(f"round {r}, seat {seat}: not exactly one full deck of 52 cards")

        self.players: int = players
        self.rounds: int = rounds
        self.on_block: str = on_block
        self.max_actions: int = max_actions
        self.decks: list[list[list[str]]] = [[list(d) for d in per_round] for per_round in decks]

        self.scores: list[int] = [0] * players
        self.round_end_reasons: list[str] = []  # why each finished round ended (for tests)
        self.round: int = 0
        self.phase: str = "play"
        self.current_player: int = SIMULTANEOUS
        self.stop_called_by: int | None = None
        self.actions: int = 0  # moves applied in this round (max_actions)
        self.rotations: int = 0  # Stok rotations in this round (D4.5; not actions)
        self.next_pile_id: int = 1
        self.piles: list[Pile] = []
        self.herenhopen: list[Herenhoop] = []
        self.stok: list[list[str]] = []
        self.rij: list[list[str | None]] = []
        self.draaistok: list[list[str]] = []
        self.waste: list[list[str]] = []
        self.passed: list[bool] = []

        self.start_round(0)

    # ------------------------------------------------------------------
    # Queries

    @property
    def is_terminal(self) -> bool:
        """True once the last round has been scored (D1.3)."""
        return self.phase == "game_over"

    def available_cards(self, player: int) -> list[tuple[str, str]]:
        """(source, card) pairs `player` may play from, in canonical order (D3.1)."""
        found: list[tuple[str, str]] = []
        stok = self.stok[player]
        if stok:
            found.append(("S", stok[0]))  # the face-up Stok top
        for k in range(1, RIJ_SIZE + 1):
            card = self.rij[player][k - 1]
            if card is not None:
                found.append(("R" + str(k), card))
        waste = self.waste[player]
        if waste:
            found.append(("W", waste[-1]))  # the waste top
        return found

    def targets(self, card: str) -> list[str]:
        """Where `card` may go now: "new" for an Ace, else ids of fitting piles (D3.2, D3.3)."""
        rank = card_rank(card)
        if rank == 1:
            return ["new"]  # D3.2
        found: list[str] = []
        for pile in self.piles:  # piles are kept in start order
            top = pile["cards"][-1]
            if card_suit(top) == card_suit(card) and card_rank(top) == rank - 1:
                found.append(str(pile["id"]))  # D3.3
        return found

    def card_fits(self, card: str) -> bool:
        """Could `card` be played now (an Ace, or it fits a pile)? (D3.2, D3.3)"""
        return len(self.targets(card)) > 0

    def card_plays(self, player: int) -> list[str]:
        """All card plays of `player`, long form, in canonical order (D3.1-D3.3, D7)."""
        moves: list[str] = []
        for source, card in self.available_cards(player):
            for target in self.targets(card):
                moves.append(source + ":" + card + ">" + target)
        return moves

    def legal_moves(self, player: int) -> list[str]:
        """Moves `player` may make now, in canonical order (D3, D4, D7)."""
        assert 0 <= player < self.players
        if self.phase == "game_over":
            return []
        moves = self.card_plays(player)
        if self.phase == "play":
            if self.draaistok[player]:
                moves.append("turn")  # D3.7
            elif self.waste[player]:
                moves.append("recycle")  # D3.8
                moves.append("recycle^")
            if not self.stok[player]:
                moves.append("stop")  # D4.1
        else:
            assert self.phase == "after_stop"
            moves.append("pass")  # D4.4: always legal after Stop
        return moves

    def is_blocked(self) -> bool:
        """The D4.5 block test (meaningful before Stop only)."""
        for seat in range(self.players):
            if not self.stok[seat]:
                return False  # this player can call Stop
        for seat in range(self.players):
            reachable: list[str] = [self.stok[seat][0]]
            for card in self.rij[seat]:
                if card is not None:
                    reachable.append(card)
            reachable.extend(self.draaistok[seat])
            reachable.extend(self.waste[seat])
            for card in reachable:
                if self.card_fits(card):
                    return False
        return True

    def round_scores(self) -> list[int]:
        """The current round scored as if it ended now (D5)."""
        result = [0] * self.players
        for pile in self.piles:
            for owner in pile["owners"]:
                result[owner] += 1  # D5.1
        for hoop in self.herenhopen:
            for owner in hoop["owners"]:
                if owner == hoop["holder"]:
                    result[owner] += 2  # D5.2, own card in own Herenhoop
                else:
                    result[owner] += 1  # D5.2, card in someone else's Herenhoop
        # D5.3: Rij, Draaistok and waste cards score 0.
        for seat in range(self.players):
            result[seat] -= 2 * len(self.stok[seat])  # D5.4
        if self.stop_called_by is not None:
            result[self.stop_called_by] += STOP_BONUS  # D5.5
        return result

    # ------------------------------------------------------------------
    # Moves

    def apply(self, move: str, player: int) -> None:
        """Play one move (long form) for `player`; it must be legal now (D3.10)."""
        assert move in self.legal_moves(player), f"illegal move {move!r} for seat {player}"
        self.actions += 1
        if move == "turn":
            self.turn(player)
        elif move == "recycle":
            self.recycle(player, bottom_to_top=False)
        elif move == "recycle^":
            self.recycle(player, bottom_to_top=True)
        elif move == "stop":
            # D4.1: one Stop per round.
            self.stop_called_by = player
            self.phase = "after_stop"
            self.passed = [False] * self.players
        elif move == "pass":
            self.passed[player] = True  # D4.4: stands until this player plays a card
        else:
            self.play_card(player, move)
        self.after_action()

    def play_card(self, player: int, move: str) -> None:
        """Move a card from a source to a pile (D3.1-D3.6, D3.9)."""
        source, rest = move.split(":")
        card, target = rest.split(">")
        # Take the card away from its source.
        taken: str | None
        if source == "S":
            taken = self.stok[player].pop(0)  # D3.5: the next Stok card is now the top
        elif source == "W":
            taken = self.waste[player].pop()  # D3.6: the card below is now the top
        else:
            slot = int(source[1:]) - 1
            taken = self.rij[player][slot]
            # D3.4: refill the slot from the Stok, or leave it empty.
            if self.stok[player]:
                self.rij[player][slot] = self.stok[player].pop(0)
            else:
                self.rij[player][slot] = None
        assert taken == card

        if target == "new":
            # D3.2: an Ace starts a new pile with the next number (D7).
            pile: Pile = {
                "id": self.next_pile_id,
                "suit": card_suit(card),
                "cards": [card],
                "owners": [player],
            }
            self.next_pile_id += 1
            self.piles.append(pile)
        else:
            # D3.3: onto the named pile.
            pile_id = int(target)
            found = [p for p in self.piles if p["id"] == pile_id]
            assert len(found) == 1
            pile = found[0]
            pile["cards"].append(card)
            pile["owners"].append(player)
            if card_rank(card) == 13:
                # D3.9: the King completes the pile; it leaves the centre as a Herenhoop.
                self.piles.remove(pile)
                self.herenhopen.append(
                    {
                        "holder": player,
                        "suit": pile["suit"],
                        "cards": pile["cards"],
                        "owners": pile["owners"],
                    }
                )
        self.passed[player] = False  # D4.4: playing a card ends a standing pass

    def turn(self, player: int) -> None:
        """Turn up to 3 Draaistok cards, one by one, onto the waste (D3.7)."""
        count = min(TURN_SIZE, len(self.draaistok[player]))
        for _ in range(count):
            self.waste[player].append(self.draaistok[player].pop(0))

    def recycle(self, player: int, bottom_to_top: bool) -> None:
        """Turn the waste over as the Draaistok, rotate one card, turn again (D3.8)."""
        assert not self.draaistok[player] and self.waste[player]
        # The card turned first (waste[0]) is the next one to turn again.
        self.draaistok[player] = self.waste[player]
        self.waste[player] = []
        stack = self.draaistok[player]
        if bottom_to_top:
            stack.insert(0, stack.pop())  # `recycle^`: the bottom card goes on top
        else:
            stack.append(stack.pop(0))  # `recycle`: the top card goes to the bottom
        self.turn(player)

    # ------------------------------------------------------------------
    # Round flow

    def after_action(self) -> None:
        """Automatic steps and round-end checks after every move (D4.2-D4.5)."""
        if self.phase == "after_stop":
            self.flip_put_aside()  # D4.3
        if self.actions >= self.max_actions:
            self.end_round("max_actions")  # D4.5: the action cap, after this move
            return
        if self.phase == "after_stop":
            self.check_after_stop_end()  # D4.4
        else:
            self.resolve_block()  # D4.5

    def flip_put_aside(self) -> None:
        """After Stop, an empty waste takes the whole put-aside Draaistok at once (D4.3)."""
        for seat in range(self.players):
            if not self.waste[seat] and self.draaistok[seat]:
                # Same list order: the Draaistok's last card ends on top of the waste.
                self.waste[seat] = self.draaistok[seat]
                self.draaistok[seat] = []

    def check_after_stop_end(self) -> None:
        """After Stop the round ends when every pass stands or nobody can play a card (D4.4)."""
        if all(self.passed):
            self.end_round("all_passed")
            return
        for seat in range(self.players):
            if self.card_plays(seat):
                return
        self.end_round("no_card_play")

    def resolve_block(self) -> None:
        """Handle a block before Stop with the `on_block` option (D4.5)."""
        if self.phase != "play" or not self.is_blocked():
            return
        if self.on_block == "rotate_stok":
            limit = max(len(stok) for stok in self.stok)
            for _ in range(limit):
                for seat in range(self.players):
                    if self.stok[seat]:
                        self.stok[seat].append(self.stok[seat].pop(0))
                self.rotations += 1
                if not self.is_blocked():
                    return
        # `end_round`, or every Stok came round without un-blocking.
        self.end_round("block")

    def start_round(self, round_number: int) -> None:
        """Deal round `round_number` from its given decks (D2.1-D2.5)."""
        self.round = round_number
        self.phase = "play"
        self.current_player = SIMULTANEOUS
        self.stop_called_by = None
        self.actions = 0
        self.rotations = 0
        self.next_pile_id = 1  # D7: pile numbers restart each round
        self.piles = []  # D2.4
        self.herenhopen = []
        self.stok = []
        self.rij = []
        self.draaistok = []
        self.waste = []
        self.passed = [False] * self.players
        for seat in range(self.players):
            deck = self.decks[round_number][seat]
            self.stok.append(list(deck[0:STOK_SIZE]))  # D2.1, first card on top
            rij: list[str | None] = list(deck[STOK_SIZE : STOK_SIZE + RIJ_SIZE])  # D2.2
            self.rij.append(rij)
            self.draaistok.append(list(deck[STOK_SIZE + RIJ_SIZE :]))  # D2.3
            self.waste.append([])
        assert all(len(d) == DRAAISTOK_SIZE for d in self.draaistok)
        self.resolve_block()  # D4.5: checked right after the deal

    def end_round(self, reason: str) -> None:
        """Score the round (D5), then the next round or game over (D1.3)."""
        result = self.round_scores()
        for seat in range(self.players):
            self.scores[seat] += result[seat]
        self.round_end_reasons.append(reason)
        if self.round + 1 < self.rounds:
            self.start_round(self.round + 1)
        else:
            # The last round's table stays as it is.
            self.phase = "game_over"
            self.current_player = TERMINAL

    # ------------------------------------------------------------------
    # Observation

    def observation(self, player: int) -> dict[str, Any]:
        """The public view plus `player`'s legal moves, as a JSON-ready dict (D8)."""
        seats: list[dict[str, Any]] = []
        for seat in range(self.players):
            stok = self.stok[seat]
            waste = self.waste[seat]
            seats.append(
                {
                    "stok_top": stok[0] if stok else None,
                    "stok_count": len(stok),
                    "rij": list(self.rij[seat]),
                    "waste_top": waste[-1] if waste else None,
                    "waste_count": len(waste),
                    "draaistok_count": len(self.draaistok[seat]),
                    "passed": self.passed[seat],
                }
            )
        return {
            "player": player,
            "round": self.round,
            "rounds": self.rounds,
            "current_player": self.current_player,
            "phase": self.phase,
            "stop_called_by": self.stop_called_by,
            "piles": [
                {
                    "id": pile["id"],
                    "suit": pile["suit"],
                    "top": card_rank(pile["cards"][-1]),
                    "owners": list(pile["owners"]),
                }
                for pile in self.piles
            ],
            "herenhopen": [
                {"holder": hoop["holder"], "suit": hoop["suit"], "owners": list(hoop["owners"])}
                for hoop in self.herenhopen
            ],
            "seats": seats,
            "scores": list(self.scores),
            "round_scores": self.round_scores(),
            "legal": self.legal_moves(player),
            "legal_moves": [move_data(move) for move in self.legal_moves(player)],
        }
