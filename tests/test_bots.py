"""Bots, search and matches of every game: bots only choose legal moves, the search never
reads hidden cards (S7.3), and matches are reproducible by seed for any thread count."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.duvelen import GreedyBot, LookaheadBot
from diabolo.duvelen import RandomBot as DuvelenRandomBot
from diabolo.duvelen import SearchBot as DuvelenSearchBot
from diabolo.knizia import RandomBot as KniziaRandomBot
from diabolo.knizia import SearchBot, WordBot
from diabolo.schacht import HeuristicBot, IsmctsBot, LearnedBot, RandomBot, SchachtState, move_features

EXAMPLES = 60 if os.environ.get("CI") else 15
WORDS = Lexicon.from_words(
    ["TOR", "ROT", "ORT", "REST", "RAST", "STERN", "NEST", "ERNST", "NASE", "RASEN", "TEE", "SEE"]
)


def schacht_state(players: int, seed: int, steps: int) -> SchachtState:
    state = diabolo.load("schacht", players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        seat = (
            state.current_player
            if state.current_player >= 0
            else next(p for p in range(players) if state.legal_actions(p))
        )
        state.apply(rng.choice(state.legal_moves(seat)), player=seat)
    return state


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2**32), st.integers(0, 120), st.integers(0, 2**32))
def test_schacht_bots_only_choose_legal_moves(players: int, seed: int, steps: int, bot_seed: int) -> None:
    state = schacht_state(players, seed, steps)
    if state.is_terminal:
        return
    seats = (
        [state.current_player] if state.current_player >= 0 else [p for p in range(players) if state.legal_actions(p)]
    )
    for seat in seats:
        legal = state.legal_moves(seat)
        for bot in (RandomBot(), HeuristicBot(), LearnedBot(), IsmctsBot(iterations=30)):
            assert bot.choose(state, seat, seed=bot_seed) in legal
        # The learned bot plays the best legal move by its features' dot product, as numpy
        # reckons it (equal values: the lowest action id).
        values = move_features(state, seat).astype(np.float64) @ LearnedBot().weights
        actions = [move.action for move in legal]
        best = max(values[actions])
        assert LearnedBot().choose(state, seat).action == min(a for a in actions if values[a] >= best - 1e-9)
        assert not move_features(state, seat)[np.setdiff1d(np.arange(77), actions)].any()


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.integers(0, 300), st.integers(0, 2**32))
def test_realtime_bots_only_choose_legal_moves(players: int, seed: int, steps: int, bot_seed: int) -> None:
    duvelen = diabolo.load("duvelen", players=players).new_state(seed=seed)
    knizia = diabolo.load("knizia", players=players, lexicon=WORDS, deck="en").new_state(seed=seed)
    check_realtime_bots(
        duvelen, [GreedyBot(), LookaheadBot(), DuvelenRandomBot()], random.Random(seed), steps, bot_seed
    )
    check_realtime_bots(
        knizia, [WordBot(), KniziaRandomBot(), WordBot(coverage=0.5)], random.Random(seed), steps, bot_seed
    )


def check_realtime_bots(state: Any, bots: list[Any], rng: random.Random, steps: int, bot_seed: int) -> None:
    """After `steps` random moves, every bot's move for every seat is legal (or None: wait)."""
    players = state.game.players
    for _ in range(steps):
        if state.is_terminal:
            break
        p = rng.choice([p for p in range(players) if state.legal_moves(p)])
        state.apply(rng.choice(state.legal_moves(p)), player=p)
    for p in range(players):
        legal = {str(m) for m in state.legal_moves(p)}
        for bot in bots:
            move = bot.choose(state, p, seed=bot_seed)
            assert move is None or str(move) in legal


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 2**32))
def test_search_never_reads_hidden_cards(players: int, seed: int, steps: int, twin_seed: int) -> None:
    """A twin that differs only in what the searching seat cannot see (other hands, the
    pile, later shuffles) gives the same choices and the same search statistics."""
    state = schacht_state(players, seed, steps)
    if state.is_terminal:
        return
    seat = (
        state.current_player if state.current_player >= 0 else next(p for p in range(players) if state.legal_actions(p))
    )
    twin = state.resample(seat, twin_seed)
    assert twin.observation(seat) == state.observation(seat)
    search = IsmctsBot(iterations=60, threads=2)
    one, two = search.search(state, seat, seed=7), search.search(twin, seat, seed=7)
    assert one.visits.tolist() == two.visits.tolist() and one.values.tolist() == two.values.tolist()
    assert HeuristicBot().choose(state, seat) == HeuristicBot().choose(twin, seat)
    assert np.array_equal(move_features(state, seat), move_features(twin, seat))


def test_bot_decisions_are_pinned() -> None:
    # Bots and search decide with portable arithmetic only (no libm), so these values are
    # the same on every platform and compiler; a change here changes every seeded match.
    game = diabolo.load("schacht", players=4)
    bot = HeuristicBot()
    choices = []
    for seed in (1, 2, 3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = (
                state.current_player
                if state.current_player >= 0
                else next(p for p in range(4) if state.legal_actions(p))
            )
            move = bot.choose(state, seat)
            choices.append(str(move))
            state.apply(move, seat)
    assert len(choices) == 265
    assert choices[:12] == ["B2>", "P3>", "R2>", "Y4>", "R1<", "B3<", "B3<", "G1<", "B5<", "G1<", "G2<", "B1>"]
    assert hashlib.sha256(" ".join(choices).encode()).hexdigest()[:16] == "b9ec8a88bd008b1c"
    learned = []  # the shipped weights' games (float32 features, double sums: no libm)
    for seed in (1, 2, 3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.pending_seats[0]
            move = LearnedBot().choose(state, seat)
            learned.append(str(move))
            state.apply(move, seat)
    assert len(learned) == 276
    assert hashlib.sha256(" ".join(learned).encode()).hexdigest()[:16] == "e2a5030d6d3c0641"
    result = IsmctsBot(iterations=500).search(game.new_state(seed=9), seed=4)  # flat: sequential halving
    assert [str(m) for m in result.moves] == [
        "R3<",
        "R3>",
        "Y3<",
        "Y3>",
        "Y4<",
        "Y4>",
        "G2<",
        "G2>",
        "P3<",
        "P3>",
        "P4<",
        "P4>",
        "B1<",
        "B1>",
    ]
    assert list(result.visits) == [125, 8, 58, 26, 58, 26, 125, 8, 8, 8, 8, 8, 26, 8]
    assert str(result.best) == "G2<"
    tree = IsmctsBot(iterations=500, tree=True).search(game.new_state(seed=9), seed=4)
    assert list(tree.visits) == [181, 2, 16, 6, 8, 3, 180, 1, 18, 8, 26, 2, 46, 3]
    assert str(tree.best) == "R3<"
    # Mid-round the belief over the others' hands (their turns this round) deals the
    # worlds: other choices than uniform deals, the same for any number of threads.
    state = game.new_state(seed=9)
    for _ in range(9):
        state.apply(bot.choose(state, state.current_player), state.current_player)
    assert [turn["move"] for turn in state.observation(2)["turns"]][-3:] == ["P4<", "B2<", "P3>"]
    for threads in (1, 2):
        believed = IsmctsBot(iterations=500, threads=threads).search(state, seed=4)
        assert list(believed.visits) == [10, 31, 73, 10, 10, 10, 10, 10, 137, 31, 137, 31]
        assert str(believed.best) == "B4<"
    uniform = IsmctsBot(iterations=500, belief=False).search(state, seed=4)
    assert list(uniform.visits) == [137, 73, 137, 31, 10, 10, 10, 10, 10, 10, 31, 31]
    assert str(uniform.best) == "R5<"


def test_search_statistics_cover_the_legal_moves() -> None:
    state = schacht_state(4, 3, 5)
    for tree in (False, True):
        result = IsmctsBot(iterations=400, threads=2, tree=tree).search(state, seed=1)
        assert [str(m) for m in result.moves] == [str(m) for m in state.legal_moves()]
        # The tree runs every iteration; the flat search all but fewer than one round's
        # surviving moves (it never splits a deal between them).
        assert result.iterations == 400 if tree else 400 - len(result.moves) < result.iterations <= 400
        assert int(result.visits.sum()) == result.iterations
        # The most visited move; the flat search's last two survivors tie, the better value wins.
        best = result.moves.index(result.best)
        most = result.visits == result.visits.max()
        assert most[best] and result.values[best] == result.values[most].max()
        assert ((-1 <= result.values) & (result.values <= 1)).all()
    with pytest.raises(diabolo.OptionError, match="iterations"):
        IsmctsBot(iterations=0)
    with pytest.raises(diabolo.OptionError, match="threads"):
        IsmctsBot(threads=0)


def test_schacht_matches_are_reproducible_and_thread_independent() -> None:
    game = diabolo.load("schacht", players=3)
    bots = [HeuristicBot(), RandomBot(), IsmctsBot(iterations=20)]
    one = diabolo.match(game, bots, games=12, seed=4, threads=1)
    two = diabolo.match(game, bots, games=12, seed=4, threads=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.names == ["heuristic", "random", "ismcts"]
    assert np.allclose(one.wins.sum(axis=1), 1.0)


@pytest.mark.parametrize("name", ["duvelen", "knizia"])
def test_realtime_matches_are_reproducible_and_thread_independent(name: str) -> None:
    options: dict[str, Any] = {"lexicon": WORDS, "deck": "en"} if name == "knizia" else {}
    game = diabolo.load(name, players=2, **options)
    bots: list[Any] = [GreedyBot(), DuvelenRandomBot()] if name == "duvelen" else [WordBot(), KniziaRandomBot()]
    one = diabolo.match(game, bots, games=6, seed=2, threads=1)
    two = diabolo.match(game, bots, games=6, seed=2, threads=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.summary()[0].name == one.names[0]  # the rule-based bot beats chance


@pytest.mark.parametrize("name", ["duvelen", "knizia"])
def test_a_realtime_match_plays_the_games_of_simulate_many(name: str) -> None:
    """Game g of a match is game g of simulate_many with that game's seats: in games
    0, n, 2n, ... the bots sit in the order given."""
    from diabolo import realtime

    options: dict[str, Any] = {"lexicon": WORDS, "deck": "en"} if name == "knizia" else {}
    game: Any = diabolo.load(name, players=3, **options)
    bots: list[Any] = (
        [GreedyBot(), DuvelenRandomBot(), LookaheadBot()]
        if name == "duvelen"
        else [WordBot(), KniziaRandomBot(), WordBot(per_letter=0.5)]
    )
    matched = diabolo.match(game, bots, games=9, seed=8)
    simulated = realtime.simulate_many(game, bots, games=9, seed=8)["scores"]
    assert matched.scores[::3].tolist() == simulated[::3].tolist()


class PythonGreedy:
    """Duvelen's greedy rule written in Python, seen by the match as a Python bot."""

    name = "py-greedy"

    def __init__(self) -> None:
        self.bot = GreedyBot()  # default reaction times, as a Python bot without a reaction gets

    def choose(self, state: Any, player: int) -> Any:
        return self.bot.choose(state, player)


def test_a_python_bot_plays_the_match_its_cpp_twin_plays() -> None:
    """A bot written in Python plays the same games as the C++ bot it calls (the greedy
    rule draws nothing from its random stream), on the calling thread whatever threads."""
    game = diabolo.load("duvelen", players=2)
    native = diabolo.match(game, [GreedyBot(), DuvelenRandomBot()], games=4, seed=6, threads=2)
    python = diabolo.match(game, [PythonGreedy(), DuvelenRandomBot()], games=4, seed=6, threads=2)
    assert python.scores.tolist() == native.scores.tolist()
    assert python.names == ["py-greedy", "random"]


class PythonRandom:
    """A bot written in Python."""

    name = "py-random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SchachtState, player: int) -> Any:
        return self.rng.choice(state.legal_moves(player))


def test_python_bots_play_matches_on_the_python_path() -> None:
    game = diabolo.load("schacht", players=3)
    one = diabolo.match(game, [PythonRandom(1), PythonRandom(2), HeuristicBot()], games=6, seed=5)
    two = diabolo.match(game, [PythonRandom(1), PythonRandom(2), HeuristicBot()], games=6, seed=5)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.names == ["py-random", "py-random#1", "heuristic"]


class LastLegalMove:
    """A bot written in Python with no randomness: its seat's last legal move."""

    name = "last"

    def choose(self, state: Any, player: int) -> Any:
        return state.legal_moves(player)[-1]


def test_a_python_bot_plays_in_a_match_the_games_a_python_loop_plays() -> None:
    """The C++ match asks a bot written in Python through its choose, as a loop over the
    Python API does: game i dealt from derive_seed(seed, i), the lowest pending seat
    first, seat s played by bot (s + i) % n."""
    game = diabolo.load("schacht", players=3)
    bots = [LastLegalMove(), LastLegalMove(), LastLegalMove()]
    result = diabolo.match(game, bots, games=4, seed=8)
    for i in range(4):
        state = game.new_state(seed=diabolo.derive_seed(8, i))
        while not state.is_terminal:
            seat = state.pending_seats[0]
            state.apply(bots[(seat + i) % 3].choose(state, seat), player=seat)
        assert [result.scores[i, (seat + i) % 3] for seat in range(3)] == state.scores


class Refusing:
    """A bot written in Python that answers with what it is given."""

    name = "refusing"

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def choose(self, state: Any, player: int) -> Any:
        return self.answer


def test_a_python_bot_that_breaks_the_rules_in_a_match_gets_the_rules_error() -> None:
    """A turn-based seat must move: a move the rules refuse raises their error with its
    clause, and an answer that is no move (None included) a NotationError."""
    game = diabolo.load("schacht", players=3)
    first = game.new_state(seed=diabolo.derive_seed(1, 0))
    seat = first.pending_seats[0]
    illegal = next(m for m in game.new_state(seed=5).legal_moves() if m not in first.legal_moves(seat))
    with pytest.raises(diabolo.IllegalMoveError) as error:
        diabolo.match(game, [Refusing(illegal)] * 3, games=1, seed=1)
    assert error.value.clause.startswith("S")
    for answer in (None, "nonsense"):
        with pytest.raises(diabolo.NotationError):
            diabolo.match(game, [Refusing(answer)] * 3, games=1, seed=1)


def test_every_bot_proposes_its_move_and_delay() -> None:
    """propose is the one call for any bot of any game: a turn-based bot's delay is 0 and
    its move the one choose gives with the same seed; nothing while its seat is not due."""
    state = diabolo.load("schacht", players=3).new_state(seed=2)
    seat = state.pending_seats[0]
    bot = IsmctsBot(iterations=50)
    assert bot.propose(state, seat, seed=4) == (bot.choose(state, seat, seed=4), 0.0)
    assert bot.propose(state, (seat + 1) % 3, seed=4) is None


def test_bad_match_arguments_give_specific_errors() -> None:
    game = diabolo.load("schacht", players=3)
    with pytest.raises(diabolo.OptionError, match="one bot per seat"):
        diabolo.match(game, [RandomBot()], games=2)
    with pytest.raises(diabolo.OptionError, match="games"):
        diabolo.match(game, [RandomBot()] * 3, games=0)
    with pytest.raises(diabolo.OptionError, match="threads"):
        diabolo.match(game, [RandomBot()] * 3, games=2, threads=0)


def test_a_ratings_interval_narrows_as_the_games_grow() -> None:
    """Elo intervals by the bootstrap: between two bots of the same strength (two random
    bots, which never win every game), ten times the games give an interval about three
    times narrower (1/sqrt(10)), and each holds its rating (198 games in all)."""
    game = diabolo.load("schacht", players=4)
    pool = {"one": RandomBot(), "other": RandomBot()}
    widths = []
    for games in (18, 180):
        ranking = diabolo.tournament(game, pool, games=games, seed=5, threads=2)
        low, high = ranking.elo_interval["other"]
        assert low <= ranking.elo["other"] <= high
        widths.append(high - low)
    assert 2.0 < widths[0] / widths[1] < 5.0, widths


def test_tournament_ranks_the_bots_reproducibly() -> None:
    game = diabolo.load("schacht", players=4)
    pool = {"random": RandomBot(), "heuristic": HeuristicBot(), "search": IsmctsBot(iterations=30)}
    one = diabolo.tournament(game, pool, games=24, seed=3, threads=1)
    two = diabolo.tournament(game, pool, games=24, seed=3, threads=2)
    assert one.points == two.points and one.elo == two.elo and one.elo_interval == two.elo_interval
    assert one.elo["heuristic"] > one.elo["random"] + 200 and one.elo["search"] > one.elo["random"] + 200
    for name, (low, high) in one.elo_interval.items():  # the bootstrap's interval holds the rating
        assert low <= one.elo[name] + 1e-6 and one.elo[name] <= high + 1e-6, (name, low, one.elo[name], high)
    assert abs(sum(one.elo.values()) / 3 - 1500) < 1e-6
    for (a, b), won in one.points.items():
        assert won + one.points[(b, a)] == 24
    with pytest.raises(diabolo.OptionError, match="two bots"):
        diabolo.tournament(game, {"random": RandomBot()}, games=2)


def duvelen_state(players: int, seed: int, steps: int) -> Any:
    """A Duvelen state after `steps` random moves of random seats; turns and recycles
    come often, so seats have seen much of their Draaistok."""
    state = diabolo.load("duvelen", players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        seat = rng.randrange(players)
        moves = state.legal_moves(seat)
        if moves:
            state.apply(rng.choice(moves), player=seat)
    return state


def deal_unseen_anew(state: Any, seed: int) -> Any:
    """A twin of `state` that differs only in what nobody has seen: every seat's Stok under
    the top and its waste and Draaistok are dealt anew among those places, except the cards
    that have been its waste's top this round (public when they showed, D8.1)."""
    data = json.loads(state.to_json())
    rng = random.Random(seed)
    for cards in data["seats"]:
        cycle = cards["waste"] + cards["draaistok"]
        top = len(cards["waste"]) - 1
        known = set(cards["seen"])
        places = [("stok", i) for i in range(1, len(cards["stok"]))]
        places += [("cycle", i) for i, card in enumerate(cycle) if i != top and card not in known]
        parts = {"stok": cards["stok"], "cycle": cycle}
        hidden = [parts[part][i] for part, i in places]
        rng.shuffle(hidden)
        for (part, i), card in zip(places, hidden):
            parts[part][i] = card
        cards["waste"], cards["draaistok"] = cycle[: top + 1], cycle[top + 1 :]
    return state.game.state_from_json(json.dumps(data))


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 400), st.integers(0, 2**32))
def test_duvelen_search_never_reads_what_nobody_has_seen(players: int, seed: int, steps: int, twin: int) -> None:
    """The search deals around what has been in view on the table (every waste's past
    tops), and nothing else: a twin that differs in every other face-down card gets the
    same move and delay from every seat."""
    state = duvelen_state(players, seed, steps)
    other = deal_unseen_anew(state, twin)
    bot = DuvelenSearchBot(worlds=6, horizon=4.0)
    for seat in range(players):
        assert other.observation(seat) == state.observation(seat)
        assert bot.propose(other, seat, seed=3) == bot.propose(state, seat, seed=3)


def test_duvelen_search_bot_options_are_checked() -> None:
    """worlds is 1..256 and horizon 0.1..30 seconds (the most a server's visitor can ask
    for); the other kinds take neither; a seed gives the same choice every time."""
    for options, what in (({"worlds": 0}, "worlds"), ({"worlds": 257}, "worlds"), ({"horizon": 0.0}, "horizon")):
        with pytest.raises(diabolo.OptionError, match=what):
            diabolo.bot("duvelen", "search", **options)
    with pytest.raises(diabolo.OptionError, match="horizon"):
        DuvelenSearchBot(horizon=30.5)
    for kind in ("greedy", "lookahead", "random"):
        with pytest.raises(diabolo.OptionError, match="worlds"):
            diabolo.bot("duvelen", kind, worlds=4)
    state = duvelen_state(3, 5, 200)
    bot = DuvelenSearchBot(worlds=4)
    assert bot.propose(state, 1, seed=9) == bot.propose(state, 1, seed=9)


PINNED: dict[str, tuple[str, Callable[[], list[Any]], int, int, list[int], list[float]]] = {
    # label: (game, its four bots, games, seed, each bot's total score, its wins)
    "heuristic vs 3 random": (
        "schacht",
        lambda: [HeuristicBot()] + [RandomBot()] * 3,
        24,
        3,
        [1177, -96, -113, -76],
        [23.0, 1.0, 0.0, 0.0],
    ),
    "learned vs 3 heuristic": (
        "schacht",
        lambda: [LearnedBot()] + [HeuristicBot()] * 3,
        24,
        11,
        [714, 551, 590, 875],
        [6.0, 7.0, 3.0, 8.0],
    ),
    "Duvelen lookahead vs 3 greedy": (
        "duvelen",
        lambda: [LookaheadBot()] + [GreedyBot()] * 3,
        24,
        1,
        [523, 509, 550, 498],
        [6.0, 4.0, 6.5, 7.5],
    ),
    "Duvelen search vs 3 lookahead": (
        "duvelen",
        lambda: [DuvelenSearchBot(worlds=32, horizon=8.0)] + [LookaheadBot()] * 3,
        12,
        3,
        [239, 250, 349, 239],
        [2.0, 2.0, 6.0, 2.0],
    ),
    "Knizia lookahead vs 3 word": (
        "knizia",
        lambda: [WordBot(lookahead=True)] + [WordBot()] * 3,
        12,
        2,
        [772, 764, 790, 792],
        [3.0, 4.0, 3.0, 2.0],
    ),
    "Knizia search vs 3 lookahead": (
        "knizia",
        lambda: [SearchBot(worlds=8)] + [WordBot(lookahead=True)] * 3,
        8,
        3,
        [570, 466, 515, 532],
        [4.0, 0.0, 3.0, 1.0],
    ),
}
"""Short seat-rotated 4-player matches of the pairings whose strength the docs quote, with
what they give (Knizia with the German list). How strong each bot is, over thousands of
games, is measured by ``benchmarks/bench.py strength`` and ``live`` and by the ladder
(``benchmarks/ladder.py``, docs/strength.rst); a seeded match gives the same numbers on
every run, so a test pins them instead of proving the strength again."""


@pytest.mark.parametrize("label", list(PINNED))
def test_short_matches_of_the_measured_pairings_are_pinned(label: str) -> None:
    """Each pairing's short match, on two threads, gives the pinned totals and wins: a
    change of any of its bots' decisions shows here, and its strength is then measured
    again in benchmarks/. Every Knizia game ends with points scored: no bot leaves a
    round waiting (K6.3)."""
    name, bots, games, seed, totals, wins = PINNED[label]
    result = diabolo.match(diabolo.load(name, players=4), bots(), games=games, seed=seed, threads=2)
    assert (result.scores.sum(axis=0).tolist(), result.wins.sum(axis=0).tolist()) == (totals, wins)
    assert name != "knizia" or result.scores.sum(axis=1).min() > 0


def test_knizia_search_bot_options_are_checked() -> None:
    """worlds is 1..64 and horizon 0.1..10 seconds (the most a server's visitor can ask
    for); the other kinds take neither; a seed gives the same choice every time."""
    for options, what in (({"worlds": 0}, "worlds"), ({"worlds": 65}, "worlds"), ({"horizon": 0.0}, "horizon")):
        with pytest.raises(diabolo.OptionError, match=what):
            diabolo.bot("knizia", "search", **options)
    with pytest.raises(diabolo.OptionError, match="horizon"):
        SearchBot(horizon=10.5)
    for kind in ("word", "random"):
        with pytest.raises(diabolo.OptionError):
            diabolo.bot("knizia", kind, worlds=4)
    state = diabolo.load("knizia", players=3).new_state(seed=4)
    for _ in range(12):
        state.apply("reveal", player=state.dealer)
    bot = SearchBot(worlds=4)
    assert bot.propose(state, 1, seed=9) == bot.propose(state, 1, seed=9)


def test_knizia_search_bot_calls_only_words_of_its_vocabulary() -> None:
    """With its own word list, the search weighs and calls only words of that list, as a
    WordBot does (K6.3), though the game's lexicon lets the table form many more."""
    game = diabolo.load("knizia", players=3)
    state = game.new_state(seed=4)
    for _ in range(12):
        state.apply("reveal", player=state.dealer)
    found = [match.word for match in diabolo.knizia.find_words(state.table, game.lexicon)]
    assert len(found) > 1
    only = min(found, key=len)
    bot = SearchBot(vocabulary=Lexicon.from_words([only]), worlds=4)
    for seed in range(6):
        proposal = bot.propose(state, 1, seed=seed)
        assert proposal is None or proposal[0].kind != "claim" or proposal[0].word == only, proposal
