"""Client-side models of each game's view, fed only by events (docs: Building a frontend).

A client receives its view once (``observation(seat)``, or ``public_observation()`` for a
spectator) and then only the events it may see (``events_for(seat)``, ``public_events()``).
Each model here applies those events to the view it holds, as a browser client would,
with no rules of the game beyond what the events say. The contract tests check that the
model equals the engine's view after every move of random games: nothing is lost between
views. The keys ``legal`` and ``legal_moves`` are the engine's answer to "what may I do
now", sent with each view or computed by the WebAssembly build; a model does not rebuild
them.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import diabolo

SIMULTANEOUS, TERMINAL = -2, -4


class ClientModel:
    """The view of one seat (`seat`) or of a spectator (`seat` None), kept from events."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = copy.deepcopy(view)
        self.view.pop("legal", None)
        self.view.pop("legal_moves", None)
        self.seat: int | None = view["player"]

    def apply(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            getattr(self, "on_" + event["type"])(event)


class SchachtModel(ClientModel):
    """docs/games/schacht.rst S7.4."""

    colours = "RYGPB"

    def sort(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=lambda card: (self.colours.index(card[0]), card[1]))

    def own(self, event: dict[str, Any]) -> bool:
        return bool(event["seat"] == self.seat)

    def on_round_started(self, e: dict[str, Any]) -> None:
        v, n = self.view, len(self.view["scores"])
        v.update(round=e["round"], dealer=e["dealer"], draw_pile=e["draw_pile"], phase="play")
        v.update(hand_sizes=[0] * n, doubler_available=[True] * n, scoring_colour=None)
        v["rows"] = {c: {"left": [], "right": [], "closed": False} for c in self.colours}
        v["revealed"] = {"shown": [[] for _ in range(n)], "discarded": [[] for _ in range(n)], "scoring": {}}
        v["turns"] = []
        if self.seat is not None:
            v.update(hand=[], doubler_decision=None)

    def on_dealt(self, e: dict[str, Any]) -> None:
        if "cards" in e:
            self.view["hand"] = self.sort(e["cards"])
        self.view["hand_sizes"][e["seat"]] = len(e["cards"]) if "cards" in e else e["count"]

    def on_drew(self, e: dict[str, Any]) -> None:
        self.view["hand_sizes"][e["seat"]] += 1
        self.view["draw_pile"] -= 1
        if "card" in e:
            self.view["hand"] = self.sort([*self.view["hand"], e["card"]])

    def on_turn(self, e: dict[str, Any]) -> None:
        self.view["current_player"] = e["seat"]

    def on_placed(self, e: dict[str, Any]) -> None:
        row = self.view["rows"][e["card"][0]]
        row[e["side"]].append(int(e["card"][1]))
        row["closed"] = len(row["left"]) + len(row["right"]) == 5
        self.view["hand_sizes"][e["seat"]] -= 1
        if self.own(e):
            self.view["hand"].remove(e["card"])
        self.turn(e["seat"], e["card"] + ("<" if e["side"] == "left" else ">"))

    def turn(self, seat: int, move: str) -> None:
        """S7.1: who laid what this round (a view without its turns, None, stays so)."""
        if self.view["turns"] is not None:
            self.view["turns"].append({"seat": seat, "move": move})

    def on_row_closed(self, e: dict[str, Any]) -> None:
        self.view["rows"][e["colour"]]["closed"] = True

    def on_discarded(self, e: dict[str, Any]) -> None:
        revealed = self.view["revealed"]
        revealed["shown"][e["seat"]] = e["shown"]
        revealed["discarded"][e["seat"]] = self.sort([*revealed["discarded"][e["seat"]], e["card"]])
        self.view["hand_sizes"][e["seat"]] -= 1
        if self.own(e):
            self.view["hand"].remove(e["card"])
        self.turn(e["seat"], "x" + e["card"])

    def on_play_ended(self, e: dict[str, Any]) -> None:
        self.view["current_player"] = SIMULTANEOUS

    def on_doubler_asked(self, e: dict[str, Any]) -> None:
        self.view.update(phase="doubler", current_player=SIMULTANEOUS, scoring_colour=e["colour"])

    def on_doubler_decided(self, e: dict[str, Any]) -> None:
        self.view["doubler_decision"] = e["decision"]

    def on_colour_scored(self, e: dict[str, Any]) -> None:
        v = self.view
        if e["hands"] is not None:
            v["revealed"]["scoring"][e["colour"]] = e["hands"]
        v["scores"] = [score + points for score, points in zip(v["scores"], e["points"])]
        for seat in e["bets"]:
            v["doubler_available"][seat] = False
        v.update(phase="play", scoring_colour=None)
        if self.seat is not None:
            v["doubler_decision"] = None

    def on_round_ended(self, e: dict[str, Any]) -> None:
        self.view["scores"] = e["scores"]

    def on_game_ended(self, e: dict[str, Any]) -> None:
        self.view.update(phase="game_over", current_player=TERMINAL, scores=e["scores"])


class DuvelenModel(ClientModel):
    """docs/games/duvelen.rst D8.3."""

    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}

    def seat_view(self, e: dict[str, Any]) -> dict[str, Any]:
        seat: dict[str, Any] = self.view["seats"][e["seat"]]
        return seat

    def on_round_started(self, e: dict[str, Any]) -> None:
        self.view.update(round=e["round"], seats=e["seats"], round_scores=e["round_scores"])
        self.view.update(piles=[], herenhopen=[], stop_called_by=None, phase="play")

    def on_played(self, e: dict[str, Any]) -> None:
        seat = self.seat_view(e)
        if e["source"].startswith("R"):
            seat["rij"][int(e["source"][1]) - 1] = None
        seat["passed"] = False
        card = e["card"]
        rank = self.ranks.get(card[:-1]) or int(card[:-1])
        if e["new_pile"]:
            self.view["piles"].append({"id": e["pile"], "suit": card[-1], "top": 1, "owners": [e["seat"]]})
        else:
            pile = next(pile for pile in self.view["piles"] if pile["id"] == e["pile"])
            pile["top"] = rank
            pile["owners"].append(e["seat"])
        self.view["round_scores"] = e["round_scores"]

    def on_stok_turned(self, e: dict[str, Any]) -> None:
        self.seat_view(e).update(stok_top=e["card"], stok_count=e["stok_count"])

    def on_refilled(self, e: dict[str, Any]) -> None:
        self.seat_view(e)["rij"][e["slot"] - 1] = e["card"]

    def waste(self, e: dict[str, Any]) -> None:
        self.seat_view(e).update({key: e[key] for key in ("waste_top", "waste_count", "draaistok_count")})

    on_waste_uncovered = on_turned = on_draaistok_flipped = waste

    def on_pile_completed(self, e: dict[str, Any]) -> None:
        self.view["piles"] = [pile for pile in self.view["piles"] if pile["id"] != e["pile"]]
        self.view["herenhopen"].append({"holder": e["holder"], "suit": e["suit"], "owners": e["owners"]})

    def on_recycled(self, e: dict[str, Any]) -> None:
        pass  # the turn that follows says where the cards are

    def on_stop_called(self, e: dict[str, Any]) -> None:
        self.view.update(stop_called_by=e["seat"], phase="after_stop", round_scores=e["round_scores"])

    def on_passed(self, e: dict[str, Any]) -> None:
        self.seat_view(e)["passed"] = True

    def on_blocked(self, e: dict[str, Any]) -> None:
        pass  # the rotations or the round's end follow

    def on_stoks_rotated(self, e: dict[str, Any]) -> None:
        for seat, top in zip(self.view["seats"], e["stok_tops"]):
            seat["stok_top"] = top

    def on_round_ended(self, e: dict[str, Any]) -> None:
        self.view.update(scores=e["scores"], round_scores=e["points"])

    def on_game_ended(self, e: dict[str, Any]) -> None:
        self.view.update(phase="game_over", current_player=TERMINAL, scores=e["scores"])


class KniziaModel(ClientModel):
    """docs/games/knizia.rst K8, K10.6."""

    def after_penalty(self) -> None:
        self.view["phase"] = "penalty" if self.view["penalty"] else "play"

    def on_revealed(self, e: dict[str, Any]) -> None:
        self.view["table"].append(e["card"])
        self.view["deck_count"] = e["deck_count"]
        self.view["passed"][e["seat"]] = False

    def on_passed(self, e: dict[str, Any]) -> None:
        self.view["passed"][e["seat"]] = True

    def on_called(self, e: dict[str, Any]) -> None:
        v = self.view
        v["last_call"] = {key: e[key] for key in ("seat", "word", "valid", "reason")}
        v["passed"][e["seat"]] = False
        if e["valid"]:
            for position in sorted(e["positions"], reverse=True):
                del v["table"][position]
            v["piles"][e["seat"]] += len(e["positions"])
            v["passed"] = [False] * len(v["passed"])

    def on_penalty(self, e: dict[str, Any]) -> None:
        self.view["penalty"] = e["seats"]
        self.after_penalty()

    def on_took(self, e: dict[str, Any]) -> None:
        v = self.view
        del v["table"][e["position"]]
        v["piles"][e["seat"]] += 1
        v["penalty"].pop(0)
        v["passed"][e["seat"]] = False
        self.after_penalty()

    def on_took_from_deck(self, e: dict[str, Any]) -> None:
        v = self.view
        v["penalty"].pop(0)
        v["piles"][e["seat"]] += 1 if e["drawn"] else 0
        v["deck_count"] = e["deck_count"]
        self.after_penalty()

    def on_round_ended(self, e: dict[str, Any]) -> None:
        self.view["scores"] = e["scores"]

    def on_round_started(self, e: dict[str, Any]) -> None:
        v, n = self.view, len(self.view["scores"])
        v.update(round=e["round"], dealer=e["dealer"], deck_count=e["deck_count"], scores=e["scores"])
        v.update(table=[], piles=[0] * n, passed=[False] * n, penalty=[], last_call=None, phase="play")

    def on_game_ended(self, e: dict[str, Any]) -> None:
        self.view.update(phase="game_over", scores=e["scores"])


MODELS: dict[str, type[ClientModel]] = {"schacht": SchachtModel, "duvelen": DuvelenModel, "knizia": KniziaModel}


def random_game(game: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A random game for every audience: the first views, then per move the events and the
    views after it (a Knizia seat also calls the words a word bot finds)."""
    state: Any = diabolo.load(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    audiences: list[int | None] = [None, *range(state.game.players)]

    def views() -> list[dict[str, Any]]:
        seen = [state.public_observation() if a is None else state.observation(a) for a in audiences]
        for view in seen:
            view.pop("legal", None)
            view.pop("legal_moves", None)
        return seen

    first, steps = views(), []
    while not state.is_terminal:
        seat = rng.choice(state.pending_seats)
        move = diabolo.knizia.WordBot().choose(state, seat, rng.getrandbits(32)) if game == "knizia" else None
        state.apply(move if move is not None else rng.choice(state.legal_moves(seat)), player=seat)
        events = [state.public_events() if a is None else state.events_for(a) for a in audiences]
        steps.append({"events": events, "views": views()})
    return {"game": game, "first": first, "steps": steps}
