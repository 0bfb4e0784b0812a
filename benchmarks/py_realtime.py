"""The real-time simulation of Duvelen written in plain Python: the baseline of
``python benchmarks/bench.py duvelen``.

It is the event loop of ``cpp/include/diabolo/core/realtime.hpp`` (the one behind
``diabolo.realtime.simulate`` and ``simulate_many``) written again over the pure-Python
reference model of the rules, ``tests/reference/duvelen.py`` (``DuvelenModel``, moves as
long-form strings):

- every bot chooses a move; it arrives after a reaction time drawn for its kind of action
  (play, turn, recycle, stop, pass): mean + spread * (sum of 12 uniforms - 6), in whole
  microseconds with integer arithmetic, never below the minimum;
- arrivals apply in time order, ties broken by a random 64-bit key drawn with each plan;
- a move that is not legal when it arrives (a lost race) is rejected and its bot chooses
  again; after an accepted move the mover and every waiting bot choose again; after a new
  deal everybody does;
- a bot that returns None waits until the table changes.

Random numbers come from ``random.Random`` (the C++ loop uses PCG32), so the runs are
not the C++ runs move for move, only the same model. Not part of the package.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tests.reference.duvelen import DuvelenModel, full_deck

#: Kinds of action with their own reaction time, as in diabolo.realtime.Reaction.
KINDS = ("play", "turn", "recycle", "stop", "pass")
#: The default reaction of a quick human (seconds): (mean, spread) per kind.
DEFAULT_DELAYS: dict[str, tuple[float, float]] = {
    "play": (0.9, 0.3),
    "turn": (0.6, 0.15),
    "recycle": (1.2, 0.3),
    "stop": (0.5, 0.15),
    "pass": (1.0, 0.3),
}
DEFAULT_MINIMUM = 0.15
IDLE = 1 << 62  # the arrival time of a waiting bot (never)
DAY = 24 * 3600.0


def microseconds(seconds: float) -> int:
    """Seconds as whole microseconds, rounded half away from zero (C++ llround)."""
    scaled = seconds * 1e6
    return int(scaled + 0.5) if scaled >= 0 else -int(-scaled + 0.5)


def kind_of(move: str) -> str:
    """The reaction kind of a long-form move."""
    if ":" in move:
        return "play"
    if move.startswith("recycle"):
        return "recycle"
    return move  # turn, stop, pass


class Reaction:
    """Reaction times per kind of action, drawn as in realtime.hpp (Reaction::sample)."""

    def __init__(
        self, delays: Mapping[str, tuple[float, float]] | None = None, minimum: float = DEFAULT_MINIMUM
    ) -> None:
        table = dict(DEFAULT_DELAYS)
        table.update(delays or {})
        self.table = {kind: (microseconds(mean), microseconds(spread)) for kind, (mean, spread) in table.items()}
        self.minimum = microseconds(minimum)

    def sample(self, kind: str, rng: random.Random) -> int:
        """Microseconds: mean + spread * z with z = (12 uniforms - 6), at least the minimum."""
        bits = rng.getrandbits
        centred = (
            bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            + bits(32)
            - (6 << 32)
        )  # z * 2^32
        mean, spread = self.table[kind]
        t = mean + ((spread * centred) >> 32)
        return t if t > self.minimum else self.minimum


#: A bot: the move (long form) it makes for a seat now, or None to wait.
Bot = Callable[[DuvelenModel, int, random.Random], str | None]


def greedy(model: DuvelenModel, player: int, rng: random.Random) -> str | None:
    """diabolo.duvelen.GreedyBot over the reference model: Stop if it may; else the first
    legal play (source order S, R1-R4, W); else turn; else recycle; after Stop, once its
    pass stands, wait; else pass."""
    moves = model.legal_moves(player)
    if "stop" in moves:
        return "stop"
    for move in moves:
        if ":" in move:
            return move
    if "turn" in moves:
        return "turn"
    if "recycle" in moves:
        return "recycle"
    if model.passed[player]:
        return None
    return "pass" if "pass" in moves else None


def random_bot(model: DuvelenModel, player: int, rng: random.Random) -> str | None:
    """diabolo.duvelen.RandomBot over the reference model: any legal move."""
    moves = model.legal_moves(player)
    return rng.choice(moves) if moves else None


@dataclass
class Run:
    model: DuvelenModel
    accepted: int
    rejected: int
    time: float  # simulated seconds
    log: list[tuple[float, int, str, bool]]


def simulate(
    model: DuvelenModel,
    bots: Sequence[Bot],
    reactions: Sequence[Reaction],
    seed: int,
    *,
    max_time: float = DAY,
    max_events: int = 10_000_000,
    keep_log: bool = False,
) -> Run:
    """Plays `model` on (it is changed) until the game is over, a limit is reached or
    every bot waits."""
    n = model.players
    order = random.Random(f"order:{seed}")  # tie-breaks
    minds = [random.Random(f"mind:{seed}:{p}") for p in range(n)]  # each bot's choices and delays
    times = [IDLE] * n
    ties = [0] * n
    moves: list[str | None] = [None] * n
    limit = microseconds(max_time)
    now = 0

    def plan(p: int) -> None:
        move = bots[p](model, p, minds[p])
        moves[p] = move
        times[p] = IDLE if move is None else now + reactions[p].sample(kind_of(move), minds[p])
        ties[p] = order.getrandbits(64)

    for p in range(n):
        plan(p)
    accepted = rejected = events = 0
    log: list[tuple[float, int, str, bool]] = []
    while not model.is_terminal and events < max_events:
        best = -1
        for p in range(n):  # min-scan: the next arrival (n is small)
            if times[p] == IDLE:
                continue
            if best < 0 or times[p] < times[best] or (times[p] == times[best] and ties[p] < ties[best]):
                best = p
        if best < 0 or times[best] > limit:
            break  # every bot waits, or out of time
        now = times[best]
        move = moves[best]
        assert move is not None
        deal = model.round
        ok = move in model.legal_moves(best)  # a lost race is no longer legal (D3.10)
        if ok:
            model.apply(move, best)
            accepted += 1
        else:
            rejected += 1
        events += 1
        if keep_log:
            log.append((now / 1e6, best, move, ok))
        if model.is_terminal:
            break
        if not ok:
            plan(best)
        elif model.round != deal:
            for p in range(n):  # a new deal: everyone starts afresh
                plan(p)
        else:
            plan(best)
            for p in range(n):  # waiting bots see the change
                if p != best and times[p] == IDLE:
                    plan(p)
    return Run(model, accepted, rejected, now / 1e6, log)


def deal(players: int, rounds: int, rng: random.Random) -> list[list[list[str]]]:
    """Decks for every round, one shuffled 52-card deck per seat (as new_state shuffles)."""
    cards = full_deck()
    decks: list[list[list[str]]] = []
    for _ in range(rounds):
        per_round = []
        for _ in range(players):
            deck = list(cards)
            rng.shuffle(deck)
            per_round.append(deck)
        decks.append(per_round)
    return decks


def simulate_game(players: int, seed: int, *, bots: Sequence[Bot] | None = None, rounds: int = 1) -> Run:
    """A whole game from a fresh deal: the unit `simulate_many` counts."""
    model = DuvelenModel(players, deal(players, rounds, random.Random(f"deal:{seed}")), rounds=rounds)
    chosen = list(bots) if bots is not None else [greedy] * players
    return simulate(model, chosen, [Reaction() for _ in range(players)], seed)
