"""Helpers for the Duvelen tests: decks, given deals, exact positions and random play.

Spec: docs/games/duvelen.rst (clauses D1-D8). Positions are built either by a given deal
(``game.new_state(decks=...)``, D2.5) or by writing the state JSON of an exact position and
loading it with ``game.state_from_json`` (the loader checks card conservation and the other
invariants). In the state JSON a seat is ``stok`` (top first), ``rij`` (4 slots, a card or
null), ``waste`` (bottom first, so the top is last), ``draaistok`` (the next card to turn
first) and ``passed``; a pile is ``suit``, ``owners`` (seat of the Ace, of the 2, ...),
``holder`` (null while in the centre) and ``completed`` (Herenhoop order, 0 in the centre).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState

SUITS = "hdcs"
"""Suit letters in deck order (D7)."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names, Ace (1) up to King (13) (D7)."""

SOURCES = ("S", "R1", "R2", "R3", "R4", "W")
"""Card sources in canonical order (D3.1, D7)."""

STOK, RIJ, CYCLE = 13, 4, 35
"""Cards dealt to the Stok, the Rij and the Draaistok (D2.1-D2.3)."""

NUM_ACTIONS = 203
TURN, RECYCLE, RECYCLE_UP, STOP, PASS = 198, 199, 200, 201, 202
"""Action ids of the moves that are not plays (a play is ``source * 33 + target``)."""


def card(rank: int, suit: str) -> str:
    """The notation of the card of `rank` (1..13) and `suit` (D7)."""
    return RANKS[rank - 1] + suit


def rank_of(text: str) -> int:
    """The rank (1..13) of a card in notation."""
    return RANKS.index(text[:-1]) + 1


def suit_of(text: str) -> str:
    return text[-1]


def full_deck() -> list[str]:
    """One deck: hearts A..K, then diamonds, clubs, spades (D1.1)."""
    return [card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def filler_order(cards: Iterable[str]) -> list[str]:
    """Cards ordered as filler for unnamed places: high ranks first (Kings, then Queens,
    ...), Aces last, so that filler rarely fits a pile."""
    return sorted(cards, key=lambda c: (-rank_of(c), SUITS.index(suit_of(c))))


def take(pool: Counter[str], cards: Iterable[str | None]) -> None:
    """Removes `cards` from `pool`; fails the test if a card is not (or no longer) there."""
    for name in cards:
        if name is None:
            continue
        assert pool[name] > 0, f"{name} is used twice or is not a card"
        pool[name] -= 1


def deck(stok: Sequence[str] = (), rij: Sequence[str] = (), draaistok: Sequence[str] = ()) -> list[str]:
    """A 52-card deck in D2.5 order: the Stok (top first) starting with `stok`, the Rij
    starting with `rij`, the Draaistok starting with `draaistok` (the first card is turned
    first). Places not named are filled with the rest in :func:`filler_order`."""
    assert len(stok) <= STOK and len(rij) <= RIJ and len(draaistok) <= CYCLE
    pool: Counter[str] = Counter(full_deck())
    take(pool, [*stok, *rij, *draaistok])
    rest = filler_order(pool.elements())
    result: list[str] = []
    for given, size in ((stok, STOK), (rij, RIJ), (draaistok, CYCLE)):
        part = list(given)
        while len(part) < size:
            part.append(rest.pop(0))
        result.extend(part)
    assert sorted(result) == sorted(full_deck())
    return result


def pile(suit: str, owners: Sequence[int], holder: int | None = None, completed: int = 0) -> dict[str, Any]:
    """A pile of the state JSON: cards of `suit` from the Ace up, the i-th owned by
    owners[i]; a Herenhoop (D3.9) when `holder` is a seat (its King's owner)."""
    return {"suit": suit, "owners": list(owners), "holder": holder, "completed": completed}


def herenhoop(suit: str, owners: Sequence[int], completed: int) -> dict[str, Any]:
    """A completed pile (13 cards), held by the owner of its King (D3.9)."""
    assert len(owners) == 13
    return pile(suit, owners, holder=owners[-1], completed=completed)


def pile_cards(piles: Sequence[Mapping[str, Any]], seat: int) -> list[str]:
    """The cards of `seat`'s deck that lie in `piles` (centre and Herenhopen)."""
    return [card(i + 1, p["suit"]) for p in piles for i, owner in enumerate(p["owners"]) if owner == seat]


def seat_data(
    seat: int,
    piles: Sequence[Mapping[str, Any]],
    *,
    stok: Sequence[str] = (),
    rij: Sequence[str | None] | None = None,
    waste: Sequence[str] = (),
    draaistok: Sequence[str] | None = None,
    rest: str = "auto",
    passed: bool = False,
) -> dict[str, Any]:
    """One seat of the state JSON. The cards of the deck not named here and not in `piles`
    go to `rest` in :func:`filler_order`: ``"auto"`` puts the first of them (high ranks)
    under the named Stok cards as far as the 35 cards Draaistok and waste can hold make
    it necessary, and the others, lowest first, after the named Draaistok cards;
    ``"waste+stok"`` fills the waste (under the named waste cards) instead of the Draaistok;
    ``"draaistok"``, ``"waste"`` and ``"stok"`` put them all there; ``"none"`` asserts that
    nothing is left. An unnamed Rij takes four filler cards first."""
    pool: Counter[str] = Counter(full_deck())
    take(pool, pile_cards(piles, seat))
    take(pool, stok)
    take(pool, waste)
    take(pool, draaistok or ())
    if rij is not None:
        take(pool, rij)
    spare = filler_order(pool.elements())
    rij_list: list[str | None] = list(rij) if rij is not None else [spare.pop(0) for _ in range(RIJ)]
    assert len(rij_list) == RIJ
    stok_list, waste_list, draaistok_list = list(stok), list(waste), list(draaistok or ())
    if rest in ("auto", "waste+stok"):
        # High filler to the Stok, low to the Draaistok or waste in ascending order
        # (Aces turned first, high cards at the bottom), so that a position is not
        # blocked (D4.5) by accident and a flipped Draaistok (D4.3) shows a high card.
        overflow = max(0, len(spare) - (CYCLE - len(waste_list) - len(draaistok_list)))
        stok_list += spare[:overflow]
        low = spare[overflow:][::-1]
        if rest == "auto":
            draaistok_list += low
        else:
            waste_list = low + waste_list
        assert len(stok_list) <= STOK, f"seat {seat}: too many cards for the Stok: put some in the centre"
    elif rest == "draaistok":
        draaistok_list += spare
    elif rest == "waste":
        waste_list = spare + waste_list
    elif rest == "stok":
        stok_list += spare
    else:
        assert rest == "none" and not spare, f"seat {seat}: cards left over: {spare}"
    return {"stok": stok_list, "rij": rij_list, "waste": waste_list, "draaistok": draaistok_list, "passed": passed}


def position_data(
    game: DuvelenGame,
    seats: Sequence[Mapping[str, Any]],
    piles: Sequence[Mapping[str, Any]] = (),
    *,
    phase: str = "play",
    stop_called_by: int | None = None,
    actions: int = 0,
    scores: Sequence[int] | None = None,
    round: int = 0,
    seed: int = 0,
) -> dict[str, Any]:
    """The state JSON data of an exact position; `seats` holds keyword arguments of
    :func:`seat_data` per seat."""
    n = game.players
    assert len(seats) == n
    data: dict[str, Any] = json.loads(game.new_state(seed=seed).to_json())
    data["round"] = round
    data["phase"] = phase
    data["stop_called_by"] = stop_called_by
    data["actions"] = actions
    data["piles"] = [dict(p) for p in piles]
    data["seats"] = [seat_data(i, piles, **spec) for i, spec in enumerate(seats)]
    data["scores"] = list(scores) if scores is not None else [0] * n
    data["history"] = []
    return data


def position(
    game: DuvelenGame, seats: Sequence[Mapping[str, Any]], piles: Sequence[Mapping[str, Any]] = (), **fields: Any
) -> DuvelenState:
    """An exact position loaded through ``state_from_json``; arguments as for
    :func:`position_data`."""
    return game.state_from_json(json.dumps(position_data(game, seats, piles, **fields)))


def data_of(state: DuvelenState) -> dict[str, Any]:
    """The JSON data of a state."""
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def load(game: DuvelenGame, data: Mapping[str, Any]) -> DuvelenState:
    return game.state_from_json(json.dumps(data))


def card_places(data: Mapping[str, Any]) -> Counter[tuple[int, str]]:
    """Every card of a state's JSON as (owner, card), counted over every place: each
    seat's Stok, Rij, waste and Draaistok, and every pile (centre and Herenhopen)."""
    counts: Counter[tuple[int, str]] = Counter()
    for seat, places in enumerate(data["seats"]):
        for name in [*places["stok"], *places["rij"], *places["waste"], *places["draaistok"]]:
            if name is not None:
                counts[(seat, name)] += 1
    for p in data["piles"]:
        for i, owner in enumerate(p["owners"]):
            counts[(owner, card(i + 1, p["suit"]))] += 1
    return counts


def expected_round_scores(data: Mapping[str, Any]) -> list[int]:
    """D5 scores of the round in a state's JSON, computed from the JSON alone: +1 per card
    in a centre pile to its owner (D5.1); +2 per card in a Herenhoop to its owner if the
    owner holds it, else +1 (D5.2); 0 for Rij, Draaistok and waste (D5.3); -2 per Stok
    card (D5.4); +10 to the seat that called Stop (D5.5)."""
    n = data["options"]["players"]
    points = [0] * n
    for p in data["piles"]:
        for owner in p["owners"]:
            points[owner] += 2 if p["holder"] == owner else 1
    for seat, places in enumerate(data["seats"]):
        points[seat] -= 2 * len(places["stok"])
    if data["stop_called_by"] is not None:
        points[data["stop_called_by"]] += 10
    return points


def pick_move(state: DuvelenState, player: int, rng: random.Random, bias: float = 0.0) -> DuvelenMove | None:
    """A random legal move of `player` (None if it has none); with probability `bias` a
    card play is preferred when there is one (random play reaches Stop sooner)."""
    moves = state.legal_moves(player)
    if not moves:
        return None
    if bias and rng.random() < bias:
        plays = [m for m in moves if m.kind == "play"]
        if plays:
            return rng.choice(plays)
    return rng.choice(moves)


def random_step(state: DuvelenState, rng: random.Random, bias: float = 0.0) -> tuple[int, DuvelenMove] | None:
    """One step of random real-time play: a random seat makes a random legal move
    (None at game over)."""
    if state.is_terminal:
        return None
    players = [p for p in range(state.game.players) if state.legal_moves(p)]
    player = rng.choice(players)
    move = pick_move(state, player, rng, bias)
    assert move is not None
    state.apply(move, player=player)
    return player, move


def play(state: DuvelenState, rng: random.Random, steps: int, bias: float = 0.0) -> DuvelenState:
    """Up to `steps` steps of random real-time play (stops at game over)."""
    for _ in range(steps):
        if random_step(state, rng, bias) is None:
            break
    return state


def play_out(state: DuvelenState, rng: random.Random, bias: float = 0.7) -> DuvelenState:
    """Random real-time play to the end of the game."""
    while random_step(state, rng, bias) is not None:
        pass
    return state


def turns_only(state: DuvelenState, player: int, count: int) -> None:
    """`count` turns (or recycles when the Draaistok is empty) by `player` (D3.7, D3.8)."""
    for _ in range(count):
        state.apply("turn" if "turn" in [str(m) for m in state.legal_moves(player)] else "recycle", player=player)


def legal_texts(state: DuvelenState, player: int) -> list[str]:
    """`player`'s legal moves in notation."""
    return [str(m) for m in state.legal_moves(player)]


__all__ = [
    "CYCLE",
    "NUM_ACTIONS",
    "PASS",
    "RANKS",
    "RECYCLE",
    "RECYCLE_UP",
    "RIJ",
    "SOURCES",
    "STOK",
    "STOP",
    "SUITS",
    "TURN",
    "card",
    "card_places",
    "data_of",
    "deck",
    "expected_round_scores",
    "filler_order",
    "full_deck",
    "herenhoop",
    "legal_texts",
    "load",
    "pick_move",
    "pile",
    "pile_cards",
    "play",
    "play_out",
    "position",
    "position_data",
    "random_step",
    "rank_of",
    "seat_data",
    "suit_of",
    "take",
    "turns_only",
]
