#!/usr/bin/env python3
"""Speed of the diabolo engine, as ratios against baselines measured in the same run.

Usage (from the repository root, with diabolo installed)::

    python benchmarks/bench.py schacht [--seconds 2] [--players 4] [--json]
    python benchmarks/bench.py duvelen [--seconds 2] [--players 4] [--json]
    python benchmarks/bench.py knizia [--seconds 2] [--json]
    python benchmarks/bench.py strength [--games 2000] [--json]
    python benchmarks/bench.py live [--games 2000] [--json]

schacht prints one table: random games per second through the public Python API, the C++
batch entry point (1 and 2 threads) and the pure-Python reference model (tests/reference),
with ratios; the cost per call from Python of the main state methods; and, if a C++
compiler is available, the cost of a Position copy and of a move in the C++ core
(benchmarks/clone_bench.cpp).

duvelen prints the real-time simulation of greedy bots (rounds and accepted actions per
second) through diabolo.realtime.simulate_many (1 and 2 threads), through
realtime.simulate with bots written in Python, and through the same event loop in plain
Python over the reference model (benchmarks/py_realtime.py), with ratios; then random
games and the cost per call as for schacht.

knizia measures the words of Knizia's Diabolo over the German word list (install it with
``pip install ./lexicons/de``): the lexicon's load times (from the text list, from the
cached binary form) and size, ``word in lexicon`` from Python, diabolo.knizia.find_words
on random 12-card tables against a pure-Python trie search (benchmarks/py_words.py; both
must find the same words on every table), and check_word calls per second.
strength plays seat-rotated Schacht matches (heuristic vs random, ISMCTS and learned vs heuristic) and
measures the search's speed; live plays the real-time games' bots against each other (the
search against three of the strongest) and times the search's decisions.
benchmarks/README.md explains every row.

Run by hand only: timings depend on the machine and its load, so no test asserts them
(docs/performance.rst).
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # for tests.reference, the pure-Python baseline
if str(REPO / "benchmarks") not in sys.path:
    sys.path.insert(0, str(REPO / "benchmarks"))  # for py_realtime

import native  # noqa: E402  (benchmarks/native.py: compiling a C++ benchmark)
import py_realtime  # noqa: E402  (benchmarks/py_realtime.py, next to this script)
import py_words  # noqa: E402  (benchmarks/py_words.py, the baseline of bench.py knizia)

import diabolo  # noqa: E402
from diabolo import InvalidWordError, Lexicon, LexiconNotFoundError, realtime  # noqa: E402
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState, GreedyBot  # noqa: E402
from diabolo.knizia import Deck, FoundWord, KniziaGame, WordBot, check_word, find_words  # noqa: E402
from diabolo.lexicon import normalise_word  # noqa: E402
from diabolo.schacht import SchachtGame, SchachtState  # noqa: E402
from tests.reference import duvelen as reference_duvelen  # noqa: E402
from tests.reference import knizia as reference_knizia  # noqa: E402
from tests.reference import schacht as reference_schacht  # noqa: E402

GAMES = ["schacht", "duvelen", "knizia"]

#: The C++ micro-benchmark of each game, built against cpp/include and cpp/src.
CPP_BENCH_SOURCES = {"schacht": REPO / "benchmarks" / "clone_bench.cpp"}

#: Positions the per-call rows cycle through.
POSITIONS = 256


# ---- results ----------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table."""

    key: str  # stable id for --json
    label: str
    value: float | None  # None: not measured (reason in note)
    unit: str
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)


def progress(message: str) -> None:
    """Progress goes to stderr so that stdout holds only the results."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# ---- machine ----------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def usable_cores() -> int | None:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count()


def machine_info(compiler: str | None) -> dict[str, str]:
    info = {
        "cpu": cpu_model(),
        "cores": f"{os.cpu_count()} logical, {usable_cores()} usable by this process",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "diabolo": getattr(diabolo, "__version__", "?"),
    }
    if hasattr(os, "getloadavg"):
        info["load average (1 min) at start"] = f"{os.getloadavg()[0]:.2f}"
    if compiler is not None:
        try:
            out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30)
            info["c++ compiler"] = (out.stdout.splitlines() or ["?"])[0]
        except (OSError, subprocess.SubprocessError):
            info["c++ compiler"] = compiler
    return info


# ---- random games -----------------------------------------------------------------------


def acting_seat(state: SchachtState, players: int) -> tuple[int, list[int]]:
    """The seat to move and its legal actions; during simultaneous doubler decisions the
    lowest seat still to decide (the same choice as the C++ batch player)."""
    player = state.current_player
    if player != diabolo.SIMULTANEOUS:
        return player, state.legal_actions(player)
    for seat in range(players):
        actions = state.legal_actions(seat)
        if actions:
            return seat, actions
    raise RuntimeError("simultaneous decisions with no seat to move")


def python_api_game(game: SchachtGame, seed: int, rng: random.Random) -> int:
    """(a) One random game through the public API; returns the number of moves."""
    players = game.players
    state = game.new_state(seed=seed)
    moves = 0
    while not state.is_terminal:
        player = state.current_player
        if player == diabolo.SIMULTANEOUS:
            player, actions = acting_seat(state, players)
            state.apply(rng.choice(actions), player)
        else:
            state.apply(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def reference_schacht_game(players: int, rng: random.Random) -> int:
    """(c) One random game of the pure-Python reference model; returns the number of moves.
    The decks are shuffled here, as the engine shuffles them in new_state."""
    ref = reference_schacht
    cards = ref.full_deck((4, 3, 3, 2, 2))
    decks: list[list[str]] = []
    for _ in range(players):  # S6.1: as many rounds as players
        deck = list(cards)
        rng.shuffle(deck)
        decks.append(deck)
    model = ref.SchachtModel(players, decks)
    moves = 0
    while not model.is_terminal:
        player = model.current_player
        if player == ref.SIMULTANEOUS:
            player = next(p for p in range(players) if model.legal_moves(p))
        model.apply(rng.choice(model.legal_moves(player)), player)
        moves += 1
    return moves


def python_api_realtime_game(game: DuvelenGame | KniziaGame, seed: int, rng: random.Random) -> int:
    """(a) One random game of a real-time game through the public API, as game.play_random plays it:
    at each step a uniformly random seat makes a uniformly random legal move (a seat
    without one makes none). Returns the number of moves."""
    players = game.players
    state = game.new_state(seed=seed)
    moves = 0
    while not state.is_terminal:
        player = rng.randrange(players)
        actions = state.legal_actions(player)
        if actions:
            state.apply(rng.choice(actions), player)
            moves += 1
    return moves


class RealtimeModel(Protocol):
    """What play_random_seats needs of a real-time reference model."""

    @property
    def is_terminal(self) -> bool: ...
    def legal_moves(self, player: int) -> Sequence[Any]: ...
    def apply(self, move: Any, player: int) -> Any: ...


def play_random_seats(model: RealtimeModel, players: int, rng: random.Random) -> int:
    """(c) Plays a real-time reference model to its end as game.play_random plays the
    engine: at each step a uniformly random seat makes a uniformly random legal move (a
    seat without one makes none). Returns the number of moves."""
    moves = 0
    while not model.is_terminal:
        player = rng.randrange(players)
        legal = model.legal_moves(player)
        if legal:
            model.apply(rng.choice(legal), player)
            moves += 1
    return moves


def reference_duvelen_game(players: int, rng: random.Random) -> int:
    """(c) One random Duvelen game of the pure-Python reference model (random seat, random
    legal move); each seat's deck is shuffled here, as the engine shuffles in new_state."""
    return play_random_seats(reference_duvelen.DuvelenModel(players, py_realtime.deal(players, 1, rng)), players, rng)


REFERENCE_GAMES: dict[str, Callable[[int, random.Random], int]] = {
    "schacht": reference_schacht_game,
    "duvelen": reference_duvelen_game,
}


@dataclass
class Throughput:
    games: int
    moves: int
    wall: float
    cpu: float
    other_load: float | None  # CPUs kept busy by other processes meanwhile (average)

    @property
    def games_per_second(self) -> float:
        return self.games / self.wall

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games

    @property
    def cpu_per_wall(self) -> float:
        return self.cpu / self.wall


def machine_busy_seconds() -> float | None:
    """CPU-seconds spent so far by every process of the machine (Linux: /proc/stat, steal
    time included), or None where unavailable."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
        ticks = [int(x) for x in fields[1:]]
        # user nice system idle iowait irq softirq steal (guest time is already in user)
        busy = sum(ticks[:8]) - ticks[3] - ticks[4]
        return busy / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class Meter:
    """Wall time, this process's CPU time and the machine's other load over a measurement."""

    def __init__(self) -> None:
        self.busy0 = machine_busy_seconds()
        self.cpu0 = time.process_time()
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def stop(self, games: int, moves: int) -> Throughput:
        wall = self.elapsed()
        cpu = time.process_time() - self.cpu0
        busy1 = machine_busy_seconds()
        other = None
        if self.busy0 is not None and busy1 is not None:
            other = max(0.0, (busy1 - self.busy0 - cpu) / wall)
        return Throughput(games, moves, wall, cpu, other)


def time_games(play_one: Callable[[int], int], budget: float) -> Throughput:
    """Plays games one at a time until `budget` seconds have passed (at least 3 games)."""
    play_one(-1)  # warm-up
    games = moves = 0
    meter = Meter()
    while meter.elapsed() < budget or games < 3:
        moves += play_one(games)
        games += 1
    return meter.stop(games, moves)


def time_batches(game: SchachtGame | DuvelenGame | KniziaGame, threads: int, budget: float) -> Throughput:
    """Calls game.play_random in chunks of about budget/8 seconds until `budget` has passed."""
    chunk = 64
    seed = 1_000_000 * threads
    while True:  # calibration (not counted)
        t0 = time.perf_counter()
        game.play_random(chunk, seed=seed, threads=threads)
        took = time.perf_counter() - t0
        seed += 1
        if took >= budget / 16 or chunk >= 1 << 22:
            break
        chunk *= 4
    chunk = max(threads, min(1 << 24, int(chunk * budget / 8 / max(took, 1e-9))))
    games = moves = 0
    meter = Meter()
    # one chunk at least: on a slow machine the calibration alone may outlast the budget,
    # and the row must still measure something
    while games == 0 or meter.elapsed() < budget:
        result = game.play_random(chunk, seed=seed, threads=threads)
        seed += 1
        games += chunk
        moves += int(result["moves"].sum())
    return meter.stop(games, moves)


def throughput_row(key: str, label: str, t: Throughput) -> Row:
    extra = {
        "games": float(t.games),
        "seconds": t.wall,
        "moves_per_game": t.moves_per_game,
        "cpu_per_wall": t.cpu_per_wall,
    }
    note = f"{t.moves_per_game:.0f} moves/game; CPU/wall {t.cpu_per_wall:.2f}"
    if t.other_load is not None:
        extra["other_load"] = t.other_load
        note += f"; other load {t.other_load:.1f} CPUs"
    return Row(key, label, t.games_per_second, "games/s", note, extra)


def random_game_section(
    title: str,
    game: Any,
    play_api: Callable[[Any, int, random.Random], int],
    play_reference: Callable[[random.Random], int],
    budget: float,
) -> tuple[Section, list[Throughput]]:
    """Random games per second on the three paths, with their ratios: (a) a Python loop
    over the public API, (b) game.play_random on 1 and 2 threads, (c) the pure-Python
    reference model. Also returns the two batch throughputs (for the load warnings)."""
    progress("random games: (a) Python loop over the public API")
    api_rng = random.Random(1)
    a = throughput_row(
        "python_api",
        "(a) Python loop: legal_actions + apply",
        time_games(lambda i: play_api(game, 5_000 + i, api_rng), budget),
    )
    progress("random games: (b) game.play_random, 1 thread")
    t1 = time_batches(game, 1, budget)
    b1 = throughput_row("play_random_1", "(b) C++ game.play_random, 1 thread", t1)
    progress("random games: (b) game.play_random, 2 threads")
    t2 = time_batches(game, 2, budget)
    b2 = throughput_row("play_random_2", "(b) C++ game.play_random, 2 threads", t2)
    progress("random games: (c) pure-Python reference model")
    ref_rng = random.Random(2)
    c = throughput_row(
        "reference", "(c) pure-Python reference model", time_games(lambda i: play_reference(ref_rng), budget)
    )
    rows = [
        a,
        b1,
        b2,
        c,
        ratio_row("ratio_b1_c", "(b, 1 thread) / (c)", b1, c),
        ratio_row("ratio_b2_b1", "(b, 2 threads) / (b, 1 thread)", b2, b1),
        ratio_row("ratio_a_c", "(a) / (c)", a, c),
    ]
    return Section(title, rows), [t1, t2]


def ratio_row(key: str, label: str, num: Row, den: Row) -> Row:
    value = None if num.value is None or den.value is None or den.value == 0 else num.value / den.value
    return Row(key, label, value, "x")


# ---- per-call costs from Python -----------------------------------------------------------

Item = tuple[SchachtState | DuvelenState, int, int]  # a position, the seat to act, a legal action of it


def sample_positions(game: SchachtGame, count: int, seed: int) -> list[Item]:
    """`count` positions drawn uniformly from the decision points of random games."""
    rng = random.Random(seed)
    pool: list[Item] = []
    game_seed = 0
    while len(pool) < 4 * count:
        state = game.new_state(seed=10_000 + game_seed)
        game_seed += 1
        while not state.is_terminal:
            player, actions = acting_seat(state, game.players)
            action = rng.choice(actions)
            pool.append((state.clone(), player, action))
            state.apply(action, player)
    return rng.sample(pool, count)


@dataclass
class CallCost:
    median_ns: float
    min_ns: float
    blocks: int


def time_calls(block: Callable[[], object], calls: int, budget: float) -> CallCost:
    """Runs `block` (which makes `calls` calls) repeatedly for `budget` seconds; ns per call."""
    block()  # warm-up
    samples: list[float] = []
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter_ns()
        block()
        samples.append((time.perf_counter_ns() - t0) / calls)
        if time.perf_counter() - start >= budget and len(samples) >= 5:
            break
    return CallCost(statistics.median(samples), min(samples), len(samples))


def sample_duvelen_positions(game: DuvelenGame, count: int, seed: int, games: int = 16) -> list[Item]:
    """`count` positions drawn uniformly from the decision points of `games` random
    Duvelen games (random seat, random legal move, as game.play_random plays)."""
    rng = random.Random(seed)
    pool: list[Item] = []
    for game_seed in range(games):
        state = game.new_state(seed=10_000 + game_seed)
        while not state.is_terminal:
            player = rng.randrange(game.players)
            actions = state.legal_actions(player)
            if not actions:
                continue
            action = rng.choice(actions)
            pool.append((state.clone(), player, action))
            state.apply(action, player)
    return rng.sample(pool, count)


def per_call_rows(items: Sequence[Item], budget: float, move_class: str) -> tuple[list[Row], dict[str, float]]:
    n = len(items)

    def loop_only() -> None:
        for s, p, a in items:
            pass

    def legal_actions() -> None:
        for s, p, a in items:
            s.legal_actions(p)

    def clone() -> None:
        for s, p, a in items:
            c = s.clone()

    def clone_apply() -> None:
        for s, p, a in items:
            c = s.clone()
            c.apply(a, p)

    def observation_tensor() -> None:
        for s, p, a in items:
            s.observation_tensor(p)

    def observation() -> None:
        for s, p, a in items:
            s.observation(p)

    def legal_moves() -> None:
        for s, p, a in items:
            s.legal_moves(p)

    def events_for() -> None:
        for s, p, a in items:
            s.events_for(p)

    def to_json() -> None:
        for s, p, a in items:
            s.to_json()

    def json_round_trip() -> None:
        for s, p, a in items:
            game.state_from_json(s.to_json())

    game = items[0][0].game
    # The empty loop is timed the same way and subtracted from every row.
    overhead = time_calls(loop_only, n, min(budget, 0.5)).min_ns
    history = statistics.mean(len(s.history) for s, _, _ in items)
    specs: list[tuple[str, str, Callable[[], None], str]] = [
        ("legal_actions", "legal_actions(p)", legal_actions, "list[int]"),
        ("clone", "clone()", clone, f"history {history:.0f} moves on average"),
        ("clone_apply", "clone() + apply(action id, p)", clone_apply, "checked move"),
        ("observation_tensor", "observation_tensor(p)", observation_tensor, "float32 numpy array"),
        ("observation", "observation(p)", observation, "JSON-ready dict"),
        ("legal_moves", "legal_moves(p)", legal_moves, f"list[{move_class}]"),
        ("events_for", "events_for(p)", events_for, "the last move replayed: its events as p sees them"),
        ("to_json", "to_json()", to_json, "the whole state as JSON text"),
        ("json_round_trip", "state_from_json(to_json())", json_round_trip, "write and read back"),
    ]
    costs: dict[str, CallCost] = {}
    rows: list[Row] = []
    for key, label, block, note in specs:
        progress(f"per call: {label}")
        cost = time_calls(block, n, budget)
        costs[key] = cost
        rows.append(
            Row(
                key,
                label,
                cost.min_ns - overhead,
                "ns/call",
                f"median {cost.median_ns - overhead:,.0f}; {note}",
                {"median_ns": cost.median_ns - overhead, "blocks": float(cost.blocks)},
            )
        )
        if key == "clone_apply":
            clone_cost = costs["clone"]
            rows.append(
                Row(
                    "apply",
                    "apply(action id, p)",
                    cost.min_ns - clone_cost.min_ns,
                    "ns/call",
                    f"median {cost.median_ns - clone_cost.median_ns:,.0f}; = clone() + apply - clone()",
                    {"median_ns": cost.median_ns - clone_cost.median_ns},
                )
            )
    order = [
        "legal_actions",
        "apply",
        "clone",
        "clone_apply",
        "observation_tensor",
        "observation",
        "legal_moves",
        "events_for",
        "to_json",
        "json_round_trip",
    ]
    rows.sort(key=lambda r: order.index(r.key))
    meta = {"loop_overhead_ns": overhead, "positions": float(n), "mean_history": history}
    return rows, meta


# ---- the C++ core ---------------------------------------------------------------------------


def cpp_rows(game_name: str, players: int, budget: float, compiler: str | None) -> list[Row]:
    labels = [
        ("cpp_clone", "Position copy (mid-game)"),
        ("cpp_legal_actions", "legal_actions"),
        ("cpp_move", "legal_actions + apply_unchecked, per move"),
    ]

    def unavailable(reason: str) -> list[Row]:
        return [Row(key, label, None, "ns", reason) for key, label in labels]

    source = CPP_BENCH_SOURCES.get(game_name)
    if compiler is None:
        return unavailable("n/a (no compiler)")
    if source is None or not source.exists():
        return unavailable("n/a (no C++ benchmark for this game)")
    with tempfile.TemporaryDirectory(prefix="diabolo-bench-") as tmp:
        exe = Path(tmp) / "clone_bench"
        progress("compiling " + source.name + " with " + compiler + " " + " ".join(native.FLAGS))
        try:
            built = native.compile_core_program(compiler, source, exe)
        except (OSError, subprocess.SubprocessError) as error:
            print(f"[bench] compile failed: {error}", file=sys.stderr)
            return unavailable("n/a (compile failed)")
        if built.returncode != 0:
            print(f"[bench] compile failed:\n{built.stderr[-4000:]}", file=sys.stderr)
            return unavailable("n/a (compile failed)")
        progress("running " + exe.name)
        try:
            ran = subprocess.run([str(exe), str(players), f"{budget:.3f}"], capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as error:
            print(f"[bench] {exe.name} failed: {error}", file=sys.stderr)
            return unavailable("n/a (run failed)")
    if ran.returncode != 0:
        print(f"[bench] {exe.name} failed:\n{ran.stderr[-4000:]}", file=sys.stderr)
        return unavailable("n/a (run failed)")
    values: dict[str, float] = {}
    for line in ran.stdout.splitlines():
        name, sep, text = line.partition("=")
        if sep:
            values[name.strip()] = float(text)

    def row(index: int, name: str, note: str) -> Row:
        key, label = labels[index]
        median = values.get(name + "_median_ns")
        extra = {} if median is None else {"median_ns": median}
        if median is not None:
            note = f"median {median:,.0f}; {note}"
        return Row(key, label, values.get(name + "_ns"), "ns", note, extra)

    size = values.get("state_bytes", float("nan"))
    moves = values.get("moves_per_game", float("nan"))
    return [
        row(0, "clone", f"sizeof(Position) = {size:.0f} bytes"),
        row(1, "legal_actions", "mid-game positions"),
        row(2, "move", f"whole random games, {moves:.0f} moves/game"),
    ]


# ---- duvelen: the real-time simulation --------------------------------------------------------


@dataclass
class SimTotals:
    """What a throughput does not hold: moves that lost a race and simulated time."""

    rejected: int = 0
    simulated: float = 0.0  # simulated seconds, all games together


class ApiGreedy:
    """GreedyBot's rule written in Python over the public API: the slower path of
    realtime.simulate (C++ event loop, a Python call per decision). It makes exactly the
    decisions of diabolo.duvelen.GreedyBot (tests/test_realtime.py checks this)."""

    def choose(self, state: DuvelenState, player: int) -> DuvelenMove | None:
        moves = state.legal_moves(player)
        kinds = [move.kind for move in moves]
        for kind in ("stop", "play", "turn", "recycle"):
            if kind in kinds:
                return moves[kinds.index(kind)]
        if "pass" not in kinds or state.observation(player)["seats"][player]["passed"]:
            return None  # its pass stands: wait
        return moves[kinds.index("pass")]


def time_simulations(game: DuvelenGame, threads: int, budget: float) -> tuple[Throughput, SimTotals]:
    """Calls realtime.simulate_many with greedy bots in chunks of about budget/8 seconds
    until `budget` has passed. A game is one round (the default rules), so games = rounds;
    the throughput's moves are the accepted moves."""
    bots = [GreedyBot() for _ in range(game.players)]
    chunk = 16
    seed = 3_000_000 * threads
    while True:  # calibration (not counted)
        t0 = time.perf_counter()
        realtime.simulate_many(game, bots, games=chunk, seed=seed, threads=threads)
        took = time.perf_counter() - t0
        seed += 1
        if took >= budget / 16 or chunk >= 1 << 20:
            break
        chunk *= 4
    chunk = max(threads, min(1 << 22, int(chunk * budget / 8 / max(took, 1e-9))))
    totals = SimTotals()
    games = actions = 0
    meter = Meter()
    while games == 0 or meter.elapsed() < budget:  # one chunk at least, as in time_batches
        result = realtime.simulate_many(game, bots, games=chunk, seed=seed, threads=threads)
        seed += 1
        games += chunk
        actions += int(result["actions"].sum())
        totals.rejected += int(result["rejected"].sum())
        totals.simulated += float(result["time"].sum())
    return meter.stop(games, actions), totals


def time_python_bots(game: DuvelenGame, budget: float) -> tuple[Throughput, SimTotals]:
    """(c) Whole games through realtime.simulate with a Python bot (ApiGreedy) per seat."""
    bots = [ApiGreedy() for _ in range(game.players)]
    totals = SimTotals()

    def one(i: int) -> int:
        seed = 20_000 + i
        run = realtime.simulate(game.new_state(seed=seed), bots, seed=seed)
        if i >= 0:  # not the warm-up
            totals.rejected += run.rejected
            totals.simulated += run.time
        return run.accepted

    return time_games(one, budget), totals


def time_reference_simulations(players: int, budget: float) -> tuple[Throughput, SimTotals]:
    """(b) Whole games of the plain-Python event loop over the reference model
    (benchmarks/py_realtime.py), greedy bots, a fresh shuffled deal per game."""
    totals = SimTotals()

    def one(i: int) -> int:
        run = py_realtime.simulate_game(players, seed=30_000 + i)
        if i >= 0:
            totals.rejected += run.rejected
            totals.simulated += run.time
        return run.accepted

    return time_games(one, budget), totals


def simulation_rows(key: str, label: str, t: Throughput, totals: SimTotals) -> tuple[Row, Row]:
    """A rounds-per-second row and an actions-per-second row for one path."""
    rounds = t.games
    extra = {
        "rounds": float(rounds),
        "seconds": t.wall,
        "actions_per_round": t.moves / rounds,
        "rejected_per_round": totals.rejected / rounds,
        "simulated_seconds_per_round": totals.simulated / rounds,
        "cpu_per_wall": t.cpu_per_wall,
    }
    note = (
        f"{t.moves / rounds:.0f} actions + {totals.rejected / rounds:.1f} rejected, "
        f"{totals.simulated / rounds:.1f} s simulated per round; CPU/wall {t.cpu_per_wall:.2f}"
    )
    if t.other_load is not None:
        extra["other_load"] = t.other_load
        note += f"; other load {t.other_load:.1f} CPUs"
    per_round = Row("rounds_" + key, label, rounds / t.wall, "rounds/s", note, extra)
    per_action = Row(
        "actions_" + key,
        label,
        t.moves / t.wall,
        "actions/s",
        f"{totals.rejected / t.wall:,.0f} rejected moves/s besides",
        {"rejected_per_second": totals.rejected / t.wall},
    )
    return per_round, per_action


def main_duvelen(args: argparse.Namespace, game: DuvelenGame) -> int:
    """`bench.py duvelen`: the real-time simulation, random games and per-call costs."""
    budget: float = args.seconds
    players = game.players
    info = machine_info(None)
    wall0 = time.perf_counter()

    progress(f"simulation: (a) realtime.simulate_many, {players} greedy bots, 1 thread")
    s1, s1_totals = time_simulations(game, 1, budget)
    a1, a1_actions = simulation_rows("cpp_1", "(a) C++ realtime.simulate_many, 1 thread", s1, s1_totals)
    progress("simulation: (a) realtime.simulate_many, 2 threads")
    s2, s2_totals = time_simulations(game, 2, budget)
    a2, a2_actions = simulation_rows("cpp_2", "(a) C++ realtime.simulate_many, 2 threads", s2, s2_totals)
    progress("simulation: (b) plain-Python event loop over the reference model")
    sb, sb_totals = time_reference_simulations(players, budget)
    b, b_actions = simulation_rows("reference", "(b) plain Python over the reference model", sb, sb_totals)
    progress("simulation: (c) realtime.simulate with Python bots")
    sc, sc_totals = time_python_bots(game, budget)
    c, c_actions = simulation_rows("python_bots", "(c) realtime.simulate, bots written in Python", sc, sc_totals)
    rounds_section = Section(
        f"Real-time simulation, {players} greedy bots: rounds per second (whole games of 1 round)",
        [
            a1,
            a2,
            b,
            c,
            ratio_row("ratio_rounds_a1_b", "(a, 1 thread) / (b)", a1, b),
            ratio_row("ratio_rounds_a2_a1", "(a, 2 threads) / (a, 1 thread)", a2, a1),
            ratio_row("ratio_rounds_c_b", "(c) / (b)", c, b),
        ],
    )
    actions_section = Section(
        "Real-time simulation: actions per second (accepted moves per second of wall time)",
        [
            a1_actions,
            a2_actions,
            b_actions,
            c_actions,
            ratio_row("ratio_actions_a1_b", "(a, 1 thread) / (b)", a1_actions, b_actions),
        ],
    )

    games_section, (t1, t2) = random_game_section(
        "Random games per second (whole games; each step a random seat makes a random legal move, no timing)",
        game,
        python_api_realtime_game,
        lambda rng: reference_duvelen_game(players, rng),
        budget,
    )

    progress("per call: sampling positions")
    items = sample_duvelen_positions(game, POSITIONS, seed=7)
    calls, meta = per_call_rows(items, budget, "DuvelenMove")
    calls_section = Section(
        f"Cost per call from Python (best block over {POSITIONS} positions of random games, empty loop subtracted)",
        calls,
    )

    sections = [rounds_section, actions_section, games_section, calls_section]
    footnotes = []
    loads = [t.other_load for t in (s1, s2, t1, t2) if t.other_load is not None]
    if loads and max(loads) >= 0.3:
        footnotes.append(
            f"Warning: other processes kept {max(loads):.1f} CPUs busy during the C++ batch rows "
            f"({usable_cores()} usable cores): the ratios, above all 2 threads / 1 thread, are unreliable."
        )
    footnotes += [
        "Rejected moves lost a race (D3.10); (a), (b) and (c) run the same model of play, so their "
        "actions, rejected moves and simulated time per round should agree within a few percent.",
        f"Empty Python loop over the positions: {meta['loop_overhead_ns']:.1f} ns/iteration (subtracted above).",
        f"Total run time {time.perf_counter() - wall0:.0f} s; --seconds {budget:g} per measurement.",
    ]
    title = f"diabolo benchmark: {args.game}, {players} players"
    fields = {"game": args.game, "players": players, "seconds": budget, "per_call_meta": meta}
    publish(title, info, sections, footnotes, fields if args.json else None)
    return 0


# ---- knizia: the lexicon and the word finder ---------------------------------------------------


def german_deck_cards() -> list[str]:
    """The letter cards of the reconstructed German deck (decks/de.json), jokers left out,
    one entry per copy."""
    text = resources.files("diabolo").joinpath("decks", "de.json").read_text(encoding="utf-8")
    counts: dict[str, int] = json.loads(text)["cards"]
    return [card for card, count in counts.items() if card not in ("?", "??") for _ in range(count)]


def random_tables(joker: bool, seed: int) -> Iterator[list[str]]:
    """Random 12-card tables, endlessly: 11 letter cards drawn from the German deck
    (jokers left out) and one "?" at a random position, or, without `joker`, 12 letter
    cards."""
    cards = german_deck_cards()
    rng = random.Random(seed)
    while True:
        if joker:
            table = rng.sample(cards, 11) + ["?"]
            rng.shuffle(table)
        else:
            table = rng.sample(cards, 12)
        yield table


def timed_runs(run: Callable[[], object], budget: float, at_least: int, at_most: int) -> list[float]:
    """Seconds of each call of `run`, repeated until `budget` seconds have passed (at least
    `at_least` and at most `at_most` calls)."""
    samples: list[float] = []
    start = time.perf_counter()
    while len(samples) < at_most and (len(samples) < at_least or time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        run()
        samples.append(time.perf_counter() - t0)
    return samples


@contextmanager
def temporary_cache_dir() -> Iterator[str]:
    """DIABOLO_CACHE_DIR set to a fresh temporary folder, so that the user's cache is
    neither read nor written."""
    before = os.environ.get("DIABOLO_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="diabolo-bench-cache-") as folder:
        os.environ["DIABOLO_CACHE_DIR"] = folder
        try:
            yield folder
        finally:
            if before is None:
                del os.environ["DIABOLO_CACHE_DIR"]
            else:
                os.environ["DIABOLO_CACHE_DIR"] = before


def seconds_row(key: str, label: str, samples: Sequence[float], note: str = "") -> Row:
    """A row in milliseconds: the best run, with the median and the number of runs in the note."""
    best, median = min(samples), statistics.median(samples)
    text = f"median {median * 1e3:,.1f} ms of {len(samples)} runs" if len(samples) > 1 else "1 run"
    return Row(
        key,
        label,
        best * 1e3,
        "ms",
        f"{text}; {note}" if note else text,
        {"median_ms": median * 1e3, "runs": float(len(samples))},
    )


def lexicon_rows(budget: float) -> tuple[list[Row], Lexicon, Path]:
    """Load times of the German list: the text list without cache, the first and second
    Lexicon.load("de") in an empty cache folder, and from_bytes; its size."""
    with temporary_cache_dir() as folder:
        progress('lexicon: Lexicon.load("de"), empty cache (builds and stores the binary form)')
        t0 = time.perf_counter()
        lexicon = Lexicon.load("de")
        first = time.perf_counter() - t0
        path = Path(lexicon.source)
        # A process loads a language once (Lexicon.load keeps it); what another process
        # pays is reading the file and the cache entry, as from_file does.
        progress('lexicon: loading "de" again in a new process (reads the cached binary form)')
        second = timed_runs(lambda: Lexicon.from_file(path), budget / 2, 5, 1000)
        cache_files = list(Path(folder).rglob("*.bin"))
    progress(f"lexicon: Lexicon.from_file({path.name}, cache=False)")
    built = timed_runs(lambda: Lexicon.from_file(path, cache=False), budget, 3, 10)
    data = lexicon.to_bytes()
    progress("lexicon: Lexicon.from_bytes(lexicon.to_bytes())")
    from_bytes = timed_runs(lambda: Lexicon.from_bytes(data), budget / 2, 5, 1000)
    cached = "cache written" if cache_files else "no cache file written!"
    rows = [
        seconds_row(
            "lexicon_from_text",
            "Lexicon.from_file(text list, cache=False)",
            built,
            f"{path.stat().st_size / 1e6:.1f} MB {'gzip ' if path.suffix == '.gz' else ''}file: read, K2, "
            "build the DAWG",
        ),
        seconds_row("lexicon_load_first", 'Lexicon.load("de"), empty cache', [first], f"builds; {cached}"),
        seconds_row(
            "lexicon_load_cached",
            'Lexicon.load("de") in a new process, cached',
            second,
            "reads the file and the cache entry (sha256 key); in the same process load returns the same lexicon",
        ),
        seconds_row(
            "lexicon_from_bytes",
            "Lexicon.from_bytes(lexicon.to_bytes())",
            from_bytes,
            f"{len(data) / 1e6:.2f} MB binary form",
        ),
        Row("lexicon_words", "words", float(len(lexicon)), "words", "distinct after K2 normalisation"),
        Row("lexicon_nodes", "DAWG nodes", float(lexicon.node_count), "nodes", "lexicon.node_count"),
        Row("lexicon_bytes", "binary form (to_bytes)", float(len(data)), "bytes"),
    ]
    return rows, lexicon, path


def membership_probes(words: Sequence[str], count: int, seed: int) -> list[str]:
    """`count` words to look up: half of them words of the list, half one letter away from
    a word of the list and not in it, shuffled."""
    rng = random.Random(seed)
    known = set(words)
    probes = rng.sample(words, count // 2)
    while len(probes) < count:
        word = rng.choice(words)
        at = rng.randrange(len(word))
        miss = word[:at] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + word[at + 1 :]
        if miss not in known:
            probes.append(miss)
    rng.shuffle(probes)
    return probes


def membership_rows(lexicon: Lexicon, words: Sequence[str], budget: float) -> list[Row]:
    probes = membership_probes(words, 1024, seed=11)
    known = set(words)
    n = len(probes)

    def loop_only() -> None:
        for w in probes:
            pass

    def in_lexicon() -> None:
        for w in probes:
            w in lexicon

    def in_set() -> None:
        for w in probes:
            w in known

    overhead = time_calls(loop_only, n, min(budget, 0.5)).min_ns
    rows = []
    for key, label, block, note in [
        (
            "membership_lexicon",
            "word in lexicon (Python -> DAWG)",
            in_lexicon,
            "normalises per K2, then walks the DAWG",
        ),
        ("membership_set", "word in set (Python set of the same words)", in_set, "for comparison: a hash lookup"),
    ]:
        progress(f"membership: {label}")
        cost = time_calls(block, n, budget / 2)
        rows.append(
            Row(
                key,
                label,
                cost.min_ns - overhead,
                "ns/call",
                f"median {cost.median_ns - overhead:,.0f}; {n} words, half of them misses",
                {"median_ns": cost.median_ns - overhead},
            )
        )
    return rows


@dataclass
class FinderTimes:
    """Seconds per table (one entry per table, the same tables in each list) and words
    found per table."""

    engine: list[float]
    search_only: list[float]
    read_all: list[float]  # find_words and then every FoundWord made (list(...))
    python: list[float]
    words: list[int]
    scan: list[float]  # the word-list scan, on the first SCAN_TABLES tables only
    other_load: float | None = None  # CPUs kept busy by other processes during the whole section


def k10_4_key(cards: Sequence[int], jokers: int) -> tuple[int, int, list[int]]:
    """What K10.4 compares: the number of cards, the jokers, the sorted positions."""
    return len(cards), jokers, sorted(cards)


def check_same(table: Sequence[str], engine: Sequence[FoundWord], python: dict[str, py_words.Assignment]) -> None:
    """(a) and (b) must find the same words, each with the same K10.4 best assignment."""
    engine_words = {m.word for m in engine}
    if engine_words != set(python):
        missing = sorted(set(python) - engine_words)[:5]
        extra = sorted(engine_words - set(python))[:5]
        raise AssertionError(f"table {table}: the engine misses {missing}, the Python search misses {extra}")
    for m in engine:
        cards, jokers = python[m.word]
        if k10_4_key(m.cards, m.jokers) != k10_4_key(cards, jokers):
            raise AssertionError(f"table {table}: {m.word} on {m.cards} (engine) but {cards} (Python)")


def time_passes(run: Callable[[list[str]], object], tables: Sequence[list[str]], budget: float) -> list[float]:
    """Seconds per table of `run`: passes over all tables until `budget` seconds have
    passed (at least 3), each table's time being its median over the passes."""
    samples: list[list[float]] = [[] for _ in tables]
    start = time.perf_counter()
    passes = 0
    while passes < 3 or time.perf_counter() - start < budget:
        for i, table in enumerate(tables):
            t0 = time.perf_counter()
            run(table)
            samples[i].append(time.perf_counter() - t0)
        passes += 1
    return [statistics.median(s) for s in samples]


SCAN_TABLES = 8  # the word-list scan takes about a second a table


def time_finders(
    lexicon: Lexicon, trie: py_words.Trie, words_list: Sequence[str], joker: bool, budget: float
) -> FinderTimes:
    """(a) diabolo.knizia.find_words and (b) the pure-Python trie search on the same random
    tables, as many as (b) handles in about 2 * budget seconds (at least 20). (b) runs once
    per table; (a), (a) with min_cards=13 (the search alone: no word is recorded) and
    (a) with every match read (list(...)) run in passes over all tables (time_passes).
    Every table is checked:
    (a) and (b) find the same words with the same K10.4 best assignment."""
    source = random_tables(joker, seed=41 if joker else 43)
    find_words(next(random_tables(joker, seed=1)), lexicon)  # warm-up
    tables: list[list[str]] = []
    python: list[float] = []
    words: list[int] = []
    meter = Meter()
    while len(tables) < 20 or meter.elapsed() < 2 * budget:
        table = next(source)
        t0 = time.perf_counter()
        found_py = py_words.find_words(trie, table)
        python.append(time.perf_counter() - t0)
        found = find_words(table, lexicon)
        check_same(table, found, found_py)
        tables.append(table)
        words.append(len(found))
    engine = time_passes(lambda t: find_words(t, lexicon), tables, budget)
    search_only = time_passes(lambda t: find_words(t, lexicon, 13), tables, budget / 2)
    read_all = time_passes(lambda t: list(find_words(t, lexicon)), tables, budget / 2)
    scan: list[float] = []
    for table in tables[:SCAN_TABLES]:
        t0 = time.perf_counter()
        found_scan = py_words.scan_words(words_list, table)
        scan.append(time.perf_counter() - t0)
        check_same(table, find_words(table, lexicon), found_scan)
    return FinderTimes(engine, search_only, read_all, python, words, scan, meter.stop(len(tables), 0).other_load)


def per_table_row(key: str, label: str, seconds: Sequence[float], note: str = "") -> Row:
    """A row of the mean microseconds per table, with the median in the note."""
    mean, median = statistics.mean(seconds) * 1e6, statistics.median(seconds) * 1e6
    text = f"median {median:,.1f}"
    return Row(
        key,
        label,
        mean,
        "µs/table",
        f"{text}; {note}" if note else text,
        {"mean_us": mean, "median_us": median, "tables": float(len(seconds))},
    )


def finder_rows(
    lexicon: Lexicon, trie: py_words.Trie, words_list: Sequence[str], joker: bool, budget: float
) -> tuple[Section, FinderTimes]:
    what = "one joker" if joker else "no joker"
    progress(f"find_words: 12-card tables, {what}: (a) engine, (b) pure-Python trie search, (c) word-list scan")
    t = time_finders(lexicon, trie, words_list, joker, budget)
    tag = "joker" if joker else "plain"
    load = "" if t.other_load is None else f"; other load {t.other_load:.1f} CPUs"
    a = per_table_row(
        f"find_{tag}_engine",
        "(a) diabolo.knizia.find_words",
        t.engine,
        "every word with its best assignment, stored in C++ (a FoundWords sequence)" + load,
    )
    if t.other_load is not None:
        a.extra["other_load"] = t.other_load
    a_alone = per_table_row(
        f"find_{tag}_search_only",
        "(a) the same, min_cards=13: search alone",
        t.search_only,
        "the DFS without recording or returning a word",
    )
    a_read = per_table_row(
        f"find_{tag}_read_all",
        "(a) and reading every match: list(find_words(...))",
        t.read_all,
        "a FoundWord NamedTuple made for each word",
    )
    b = per_table_row(f"find_{tag}_python", "(b) pure-Python trie search (py_words.py)", t.python, "one run per table")
    ratio = ratio_row(f"ratio_{tag}_b_a", "(b) / (a), means", b, a)
    medians = [p / e for p, e in zip(t.python, t.engine)]
    ratio.note = f"median of the per-table ratios {statistics.median(medians):,.1f}x"
    ratio.extra = {"median_ratio": statistics.median(medians)}
    c = per_table_row(
        f"find_{tag}_scan",
        "(c) pure-Python scan of the word list (py_words.py)",
        t.scan,
        f"the first {len(t.scan)} tables, one run each",
    )
    engine_there = t.engine[: len(t.scan)]
    ratio_c = Row(
        f"ratio_{tag}_c_a",
        "(c) / (a), means over those tables",
        statistics.mean(t.scan) / statistics.mean(engine_there),
        "x",
        f"median of the per-table ratios {statistics.median(s / e for s, e in zip(t.scan, engine_there)):,.0f}x",
    )
    words = Row(
        f"find_{tag}_words",
        "words found per table",
        statistics.mean(t.words),
        "words",
        f"median {statistics.median(t.words):,.0f}, range {min(t.words):,}..{max(t.words):,}; "
        f"(a) = (b) on every table, (a) = (c) on the tables of (c)",
        {"median": float(statistics.median(t.words)), "min": float(min(t.words)), "max": float(max(t.words))},
    )
    cards = "11 letter cards of the German deck + one ?" if joker else "12 letter cards of the German deck"
    title = f"find_words, random 12-card tables with {what} ({cards}; {len(t.engine)} tables)"
    return Section(title, [a, a_alone, a_read, b, ratio, c, ratio_c, words]), t


def claim_probes(lexicon: Lexicon, words: Sequence[str], count: int, seed: int) -> list[tuple[str, list[str]]]:
    """`count` claims (word, table) on random 12-card tables with one joker: half of them
    valid (a random word find_words lists for the table), a quarter random words of the
    list (mostly letters missing), a quarter a valid word with one letter changed
    (mostly not a word)."""
    rng = random.Random(seed)
    tables = random_tables(True, seed)
    claims: list[tuple[str, list[str]]] = []
    while len(claims) < count:
        table = next(tables)
        valid = [m.word for m in find_words(table, lexicon)]
        if not valid:
            continue
        for _ in range(4):
            claims.append((rng.choice(valid), table))
        for _ in range(2):
            claims.append((rng.choice(words), table))
        for _ in range(2):
            word = rng.choice(valid)
            at = rng.randrange(len(word))
            claims.append((word[:at] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + word[at + 1 :], table))
    rng.shuffle(claims)
    return claims[:count]


def claim_rows(lexicon: Lexicon, words: Sequence[str], budget: float) -> list[Row]:
    claims = claim_probes(lexicon, words, 1024, seed=13)
    reasons: dict[str, int] = {}
    for word, table in claims:
        try:
            check_word(word, table, lexicon)
            reason = "valid"
        except InvalidWordError as error:
            reason = error.reason
        reasons[reason] = reasons.get(reason, 0) + 1

    def block() -> None:
        for word, table in claims:
            try:
                check_word(word, table, lexicon)
            except InvalidWordError:
                pass

    progress("claims: check_word on random tables")
    cost = time_calls(block, len(claims), budget)
    mix = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]))
    return [
        Row(
            "claims_per_second",
            "check_word(word, table, lexicon)",
            1e9 / cost.min_ns,
            "checks/s",
            f"median block {1e9 / cost.median_ns:,.0f}/s; invalid claims raise InvalidWordError",
            {"median_per_second": 1e9 / cost.median_ns},
        ),
        Row(
            "claims_ns",
            "check_word, cost per claim",
            cost.min_ns,
            "ns/call",
            f"median {cost.median_ns:,.0f}; {len(claims)} claims: {mix}",
            {"median_ns": cost.median_ns, **{f"mix_{r.replace(' ', '_')}": float(c) for r, c in reasons.items()}},
        ),
    ]


# The word game's random games are compared on a small lexicon: the reference model's
# brute-force finder could not search the German list at every step.
GAME_WORDS = [
    "TOR",
    "ROT",
    "ORT",
    "TORE",
    "ROTE",
    "REST",
    "RAST",
    "RATE",
    "STERN",
    "STAR",
    "NEST",
    "ERNST",
    "NASE",
    "RASEN",
    "ASTER",
    "TASTE",
    "SENAT",
    "OTTER",
    "SEE",
    "TEE",
    "ARTEN",
    "ANTE",
    "TANTE",
    "ROSE",
    "OSTEN",
    "LAGER",
    "REGAL",
    "HANG",
    "STOP",
    "POST",
    "EIS",
    "REIS",
    "NEIN",
    "SEIN",
    "STEIN",
    "ACHT",
    "NACH",
    "DACH",
    "ENDE",
    "RUND",
]


def reference_knizia_game(players: int, deck: Deck, rng: random.Random) -> int:
    """(c) One random Knizia game of the pure-Python reference model, decks shuffled here."""
    cards = [card for card, count in deck.cards.items() for _ in range(count)]
    deals = []
    for _ in range(players):
        rng.shuffle(cards)
        deals.append(list(cards))
    return play_random_seats(reference_knizia.KniziaModel(players, deals, GAME_WORDS), players, rng)


def knizia_game_sections(lexicon: Lexicon, budget: float) -> tuple[list[Section], list[Throughput]]:
    """Random games (small lexicon, German deck, 4 players) on the three paths, and
    simulated games of word bots with the German list."""
    players = 4
    deck = Deck.load("de")
    game = diabolo.load("knizia", players=players, lexicon=Lexicon.from_words(GAME_WORDS), deck=deck)
    games, batch_times = random_game_section(
        f"Random games per second ({players} players, the German deck, a {len(GAME_WORDS)}-word lexicon; "
        "each step a random seat makes a random legal move)",
        game,
        python_api_realtime_game,
        lambda rng: reference_knizia_game(players, deck, rng),
        budget,
    )
    german = diabolo.load("knizia", players=players, lexicon=lexicon)
    bots = [
        WordBot(),
        WordBot(coverage=0.5, memory=1),
        WordBot(max_length=6, memory=2),
        WordBot(coverage=0.2, memory=3),
    ]
    rows = []
    for threads in (1, 2):
        progress(f"knizia simulations: realtime.simulate_many, German list, {threads} thread(s)")
        meter = Meter()
        played = arrivals = 0
        while meter.elapsed() < budget or played < 2:
            result = realtime.simulate_many(german, bots, games=2 * threads, seed=played, threads=threads)
            played += 2 * threads
            arrivals += int(result["actions"].sum() + result["rejected"].sum())
        t = meter.stop(played, arrivals)
        rows.append(
            Row(
                f"simulate_many_{threads}",
                f"realtime.simulate_many, {threads} thread(s)",
                t.games / t.wall,
                "games/s",
                f"{t.moves_per_game:.0f} arrivals/game; whole games of {german.rounds} rounds",
                {"games": float(t.games), "seconds": t.wall},
            )
        )
    simulations = Section(f"Simulated games of 4 word bots with the German list ({len(lexicon):,} words)", rows)
    return [games, simulations], batch_times


def main_knizia(args: argparse.Namespace) -> int:
    """`bench.py knizia`: the German lexicon, find_words against a pure-Python search, claim
    checks, random games against the reference model, and simulated word-bot games."""
    budget: float = args.seconds
    info = machine_info(None)
    wall0 = time.perf_counter()
    try:
        lexicon_part, lexicon, path = lexicon_rows(budget)
    except LexiconNotFoundError as error:
        print(f"bench.py: {error}", file=sys.stderr)
        return 2
    info["lexicon"] = f"{lexicon.source} ({len(lexicon):,} words)"

    progress("pure-Python trie: reading and normalising the list (not timed in the search rows)")
    raw = path.read_bytes()
    lines = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8", errors="replace").splitlines()
    line_count = len(lines)
    t0 = time.perf_counter()
    trie, trie_words = py_words.build_trie(lines)
    trie_seconds = time.perf_counter() - t0
    if trie_words != len(lexicon):
        raise AssertionError(f"the trie holds {trie_words} words, the lexicon {len(lexicon)}")
    lexicon_part.append(
        seconds_row(
            "trie_build",
            "pure-Python trie build, for (b) below",
            [trie_seconds],
            f"{trie_words:,} words, normalise_word per line",
        )
    )
    words = sorted({w for w in map(normalise_word, lines) if w is not None})
    del lines
    # The trie is over a million dicts: freeze them out of the cyclic garbage collector,
    # whose full collections would otherwise walk them all during the timed rows.
    gc.collect()
    gc.freeze()

    lexicon_section = Section(f"German lexicon ({path.name}, {line_count:,} lines)", lexicon_part)
    membership_section = Section(
        "Membership from Python (best block of 1024 lookups, empty loop subtracted)",
        membership_rows(lexicon, words, budget),
    )
    joker_section, joker_times = finder_rows(lexicon, trie, words, True, budget)
    plain_section, plain_times = finder_rows(lexicon, trie, words, False, budget)
    claims_section = Section(
        "Claim checks (best block of 1024 check_word calls on random 12-card tables with one joker)",
        claim_rows(lexicon, words, budget),
    )
    game_sections, batch_times = knizia_game_sections(lexicon, budget)
    sections = [lexicon_section, membership_section, joker_section, plain_section, claims_section, *game_sections]

    mean_us = statistics.mean(joker_times.engine) * 1e6
    ratio = statistics.mean(joker_times.python) / statistics.mean(joker_times.engine)
    scan_ratio = statistics.mean(joker_times.scan) / statistics.mean(joker_times.engine[: len(joker_times.scan)])
    footnotes = []
    loads = [t.other_load for t in (joker_times, plain_times) if t.other_load is not None]
    loads += [t.other_load for t in batch_times if t.other_load is not None]
    if loads and max(loads) >= 0.3:
        footnotes.append(
            f"Warning: other processes kept {max(loads):.1f} CPUs busy during the find_words rows "
            f"({usable_cores()} usable cores): rerun on an idle machine before quoting them."
        )
    footnotes += [
        f"Aims (one joker): under 100 µs per table: {'met' if mean_us < 100 else 'not met'} "
        f"({mean_us:,.0f} µs mean); at least 100x a straightforward pure-Python search: "
        f"{'met' if scan_ratio >= 100 else 'not met'} against the word-list scan (c) ({scan_ratio:,.0f}x), "
        f"{'met' if ratio >= 100 else 'not met'} against the trie search (b) ({ratio:,.1f}x).",
        "Engine rows: each table's median over several passes, then mean (value) and median (note) "
        "over the tables; (b) runs once per table.",
        f"Total run time {time.perf_counter() - wall0:.0f} s; --seconds {budget:g} per measurement.",
    ]
    fields = {"game": args.game, "seconds": budget}
    publish("diabolo benchmark: knizia", info, sections, footnotes, fields if args.json else None)
    return 0


# ---- output ---------------------------------------------------------------------------------


def format_value(row: Row) -> str:
    if row.value is None:
        return "n/a"
    if row.unit == "x":
        return f"{row.value:,.2f}x" if row.value < 100 else f"{row.value:,.0f}x"
    if row.unit in ("games/s", "rounds/s", "actions/s"):
        return f"{row.value:,.1f}" if row.value < 100 else f"{row.value:,.0f}"
    if row.unit == "share":
        return f"{row.value:.3f}"
    return f"{row.value:,.1f}" if row.value < 1000 else f"{row.value:,.0f}"


def publish(
    title: str,
    info: dict[str, str],
    sections: Sequence[Section],
    footnotes: Sequence[str],
    json_fields: dict[str, Any] | None,
) -> None:
    """Prints the table; with `json_fields`, also every result as one JSON line."""
    print(render(title, info, sections, footnotes))
    if json_fields is not None:
        rows = {
            row.key: {"label": row.label, "value": row.value, "unit": row.unit, "note": row.note, **row.extra}
            for section in sections
            for row in section.rows
        }
        print(json.dumps({**json_fields, "machine": info, "rows": rows}))


def unit_text(row: Row) -> str:
    """The unit column: empty for ratios, whose value already ends in 'x'."""
    return "" if row.unit == "x" else row.unit


def render(title: str, info: dict[str, str], sections: Sequence[Section], footnotes: Sequence[str]) -> str:
    label_width = max(len(r.label) for s in sections for r in s.rows) + 4
    value_width = max(12, max(len(format_value(r)) for s in sections for r in s.rows))
    unit_width = max(len(r.unit) for s in sections for r in s.rows)
    lines = [title, ""]
    key_width = max(len(k) for k in info)
    lines += [f"  {k + ':':<{key_width + 1}} {v}" for k, v in info.items()]
    body: list[list[str]] = [
        [
            f"  {row.label:<{label_width}}{format_value(row):>{value_width}}  "
            f"{unit_text(row):<{unit_width}}  {row.note}".rstrip()
            for row in section.rows
        ]
        for section in sections
    ]
    width = max(len(line) for part in body for line in part)
    for section, part in zip(sections, body):
        lines += ["", section.title, "-" * max(width, len(section.title))]
        lines += part
    if footnotes:
        lines += [""] + [f"  {f}" for f in footnotes]
    return "\n".join(lines)


# ---- strength of the Schacht bots -------------------------------------------------------------


WIN_RATE_NOTE = (
    "Win rate: a game's win is shared among the seats with the top total; intervals are normal approximations "
    "over the games. Seat s of game i is played by bot (s + i) % 4."
)


def strength_rows(label: str, result: Any, parity: float) -> list[Row]:
    """The match's bots, best win rate first, with 95% intervals; whether the first
    one's win-rate interval excludes parity."""
    rows = []
    for bot in result.summary():
        low, high = bot.win_interval
        s_low, s_high = bot.score_interval
        verdict = " (excludes parity)" if low > parity or high < parity else " (includes parity)"
        rows.append(
            Row(
                f"{label}_{bot.name}_win",
                f"{bot.name}: win rate",
                bot.win_rate,
                "share",
                f"95% CI {low:.3f} .. {high:.3f}{verdict}; mean total {bot.mean_score:.1f} "
                f"(95% CI {s_low:.1f} .. {s_high:.1f})",
                {"win_low": low, "win_high": high, "mean_score": bot.mean_score},
            )
        )
    return rows


def search_speed(threads: int, positions: Sequence[SchachtState], iterations: int, tree: bool = False) -> Row:
    """ISMCTS iterations (rollouts) per second over `positions` (each searched once), by
    the flat search or the tree."""
    from diabolo.schacht import IsmctsBot

    bot = IsmctsBot(iterations=iterations, threads=threads, tree=tree)
    done = 0
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    for i, state in enumerate(positions):
        done += bot.search(state, seed=i).iterations
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    how = "tree" if tree else "flat"
    key = f"ismcts_{how}_{threads}" if tree else f"ismcts_{threads}"
    label = f"ISMCTS ({how}) iterations per second, {threads} thread(s)"
    if done == 0 or wall <= 0:  # no position, or no iteration: no rate to give
        return Row(key, label, None, "iter/s", f"n/a ({done} iterations over {len(positions)} positions)")
    return Row(
        key,
        label,
        done / wall,
        "iter/s",
        f"{len(positions)} positions x {iterations} iterations; CPU/wall {cpu / wall:.2f}",
        {"seconds": wall, "iterations": float(done)},
    )


def main_strength(args: argparse.Namespace) -> int:
    """`bench.py strength`: seat-rotated 4-player Schacht matches (heuristic vs random,
    ISMCTS with 1,000 iterations, flat and tree, and the learned bot vs heuristic) and the
    search's speed."""
    from diabolo.schacht import HeuristicBot, IsmctsBot, LearnedBot, RandomBot

    info = machine_info(None)
    wall0 = time.perf_counter()
    game = diabolo.load("schacht", players=4)
    games: int = args.games
    progress(f"strength: heuristic vs 3 random bots, {games} games")
    first = diabolo.match(game, [HeuristicBot(), RandomBot(), RandomBot(), RandomBot()], games=games, seed=1, threads=2)
    progress(f"strength: ISMCTS (1,000 iterations) vs 3 heuristic bots, {games} games")
    t0 = time.perf_counter()
    second = diabolo.match(
        game,
        [IsmctsBot(iterations=1000), HeuristicBot(), HeuristicBot(), HeuristicBot()],
        games=games,
        seed=2,
        threads=2,
    )
    search_wall = time.perf_counter() - t0
    progress(f"strength: ISMCTS tree (1,000 iterations) vs 3 heuristic bots, {games} games")
    t0 = time.perf_counter()
    third = diabolo.match(
        game,
        [IsmctsBot(iterations=1000, tree=True), HeuristicBot(), HeuristicBot(), HeuristicBot()],
        games=games,
        seed=2,
        threads=2,
    )
    tree_wall = time.perf_counter() - t0
    progress(f"strength: learned vs 3 heuristic bots, {games} games")
    learned = diabolo.match(
        game, [LearnedBot(), HeuristicBot(), HeuristicBot(), HeuristicBot()], games=games, seed=2, threads=2
    )
    positions = sample_positions(game, 40, seed=3)
    progress("strength: ISMCTS iterations per second, flat and tree, 1 and 2 threads")
    states = [state for state, _, _ in positions if isinstance(state, SchachtState)]
    speed = [search_speed(threads, states, 2000) for threads in (1, 2)]
    tree_speed = [search_speed(threads, states, 2000, tree=True) for threads in (1, 2)]
    sections = [
        Section(
            f"Heuristic vs 3 random bots ({games} seat-rotated 4-player games; parity 0.25)",
            strength_rows("h_r", first, 0.25),
        ),
        Section(
            f"ISMCTS, 1,000 iterations, vs 3 heuristic bots ({games} games, {search_wall:.0f} s on 2 threads; "
            "parity 0.25)",
            strength_rows("i_h", second, 0.25),
        ),
        Section(
            f"ISMCTS tree, 1,000 iterations, vs 3 heuristic bots ({games} games, {tree_wall:.0f} s on 2 threads; "
            "parity 0.25)",
            strength_rows("t_h", third, 0.25),
        ),
        Section(
            f"Learned (weights trained by self-play) vs 3 heuristic bots ({games} games; parity 0.25)",
            strength_rows("l_h", learned, 0.25),
        ),
        Section(
            "ISMCTS speed (searches from positions of random games)",
            speed
            + [ratio_row("ismcts_ratio", "2 threads / 1 thread", speed[1], speed[0])]
            + tree_speed
            + [ratio_row("ismcts_flat_tree_ratio", "flat / tree, 1 thread", speed[0], tree_speed[0])],
        ),
    ]
    footnotes = [
        WIN_RATE_NOTE,
        f"Total run time {time.perf_counter() - wall0:.0f} s.",
    ]
    publish(
        "diabolo benchmark: strength of the Schacht bots",
        info,
        sections,
        footnotes,
        {"game": "strength", "games": games} if args.json else None,
    )
    return 0


# ---- strength of the real-time games' bots -----------------------------------------------------


def decision_times(label: str, game: Any, bot: Any, opponents: Sequence[Any], games: int) -> Row:
    """Milliseconds `bot` takes to decide, asked for every seat at every 3rd position of
    `games` simulated games of `opponents` (mean, 99th percentile and most)."""
    from diabolo import realtime

    times = []
    for g in range(games):
        run = realtime.simulate(game.new_state(seed=g), list(opponents), seed=g)
        state = game.new_state(seed=g)
        for i, step in enumerate(run.log):
            if i % 3 == 0:
                for seat in range(game.players):
                    t0 = time.perf_counter()
                    bot.propose(state, seat, seed=i)
                    times.append((time.perf_counter() - t0) * 1000)
            if step.accepted:
                state.apply(step.move, player=step.player)
    times.sort()
    key, title = f"{label}_decision_ms", f"{game.name.capitalize()} {bot.name}: time to decide (mean)"
    if not times:  # games that logged no move: no decision was asked for
        return Row(key, title, None, "ms", f"n/a (no decision in {games} games)")
    mean = sum(times) / len(times)
    return Row(
        key,
        title,
        mean,
        "ms",
        f"{len(times)} decisions from {games} games; 99th percentile {times[len(times) * 99 // 100]:.1f} ms, "
        f"most {times[-1]:.1f} ms",
        {"p99": times[len(times) * 99 // 100], "max": times[-1]},
    )


def main_live(args: argparse.Namespace) -> int:
    """`bench.py live`: seat-rotated 4-player matches of the real-time games' bots (each
    game's strongest bot against three of the next, the search against three of the
    strongest) and how long the search takes to decide."""
    from diabolo.duvelen import GreedyBot, LookaheadBot
    from diabolo.duvelen import SearchBot as DuvelenSearchBot
    from diabolo.knizia import SearchBot, WordBot

    info = machine_info(None)
    wall0 = time.perf_counter()
    games: int = args.games
    knizia = diabolo.load("knizia", players=4)
    duvelen = diabolo.load("duvelen", players=4)
    lookahead = WordBot(lookahead=True)
    matches = []
    for label, title, game, bots, seed in (
        ("d_lg", "Duvelen: lookahead vs 3 greedy bots", duvelen, [LookaheadBot(), *[GreedyBot()] * 3], 1),
        ("d_sl", "Duvelen: search vs 3 lookahead bots", duvelen, [DuvelenSearchBot(), *[LookaheadBot()] * 3], 1),
        ("k_lw", "Knizia: lookahead vs 3 word bots", knizia, [lookahead, *[WordBot()] * 3], 2),
        ("k_sl", "Knizia: search vs 3 lookahead bots", knizia, [SearchBot(), *[lookahead] * 3], 2),
    ):
        progress(f"live: {title}, {games} games")
        t0 = time.perf_counter()
        result = diabolo.match(game, bots, games=games, seed=seed, threads=2)
        wall = time.perf_counter() - t0
        matches.append(
            Section(
                f"{title} ({games} seat-rotated games, {wall:.0f} s on 2 threads; parity 0.25)",
                strength_rows(label, result, 0.25),
            )
        )
    progress("live: the searches' time to decide")
    timings = [
        decision_times("k_search", knizia, SearchBot(), [lookahead] * 4, 10),
        decision_times("d_search", duvelen, DuvelenSearchBot(), [LookaheadBot()] * 4, 4),
    ]
    sections = [
        *matches,
        Section(
            "Time to decide, 1 thread (a Knizia claim takes a person 1.2 s and more, K6.3; a Duvelen play 0.9 s)",
            timings,
        ),
    ]
    footnotes = [
        WIN_RATE_NOTE,
        f"Total run time {time.perf_counter() - wall0:.0f} s.",
    ]
    publish(
        "diabolo benchmark: strength of the real-time games' bots",
        info,
        sections,
        footnotes,
        {"game": "live", "games": games} if args.json else None,
    )
    return 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Speed of the diabolo engine, with ratios against baselines measured in the same run."
    )
    parser.add_argument(
        "game",
        choices=(*GAMES, "strength", "live"),
        help="the game to measure, or 'strength' for the Schacht bots' matches, 'live' for the real-time games' bots",
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget of each measurement (default 2)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4; not used by knizia)")
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON object (last line)")
    parser.add_argument("--cxx", default=None, help="C++ compiler for clone_bench.cpp (default: c++ on PATH)")
    parser.add_argument(
        "--games", type=int, default=2000, help="games per match of 'strength' and 'live' (default 2000)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.game == "knizia":  # words only: no game object, no players
        return main_knizia(args)
    if args.game == "strength":
        return main_strength(args)
    if args.game == "live":
        return main_live(args)
    budget: float = args.seconds
    players: int = args.players
    try:
        game = diabolo.load(args.game, players=players)
    except diabolo.OptionError as error:
        print(f"bench.py: {error}", file=sys.stderr)
        return 2
    if isinstance(game, DuvelenGame):
        return main_duvelen(args, game)
    compiler = shutil.which(args.cxx or "c++")
    info = machine_info(compiler)
    wall0 = time.perf_counter()

    # The C++ program is compiled and run first, so the compiler does not compete with
    # the measurements below for the CPU.
    cpp = cpp_rows(args.game, players, budget, compiler)

    play_reference = REFERENCE_GAMES[args.game]
    games_section, (t1, t2) = random_game_section(
        "Random games per second (whole games, uniformly random legal moves)",
        game,
        python_api_game,
        lambda rng: play_reference(players, rng),
        budget,
    )

    calls, meta = per_call_rows(sample_positions(game, POSITIONS, seed=7), budget, "SchachtMove")
    calls_section = Section(
        f"Cost per call from Python (best block over {POSITIONS} positions of random games, empty loop subtracted)",
        calls,
    )
    cpp_section = Section(
        f"C++ core (benchmarks/clone_bench.cpp, c++ {' '.join(native.FLAGS)}: the extension's flags)", cpp
    )

    sections = [games_section, calls_section, cpp_section]
    if args.game == "schacht":
        progress("ISMCTS: the default bot's iterations per second")
        states = [state for state, _, _ in sample_positions(game, 24, seed=11) if isinstance(state, SchachtState)]
        sections.append(
            Section(
                "ISMCTS, the default IsmctsBot() (1,000 iterations, heuristic rollouts)",
                [search_speed(1, states, 1000)],
            )
        )
    footnotes = []
    loads = [t.other_load for t in (t1, t2) if t.other_load is not None]
    if loads and max(loads) >= 0.3:
        footnotes.append(
            f"Warning: other processes kept {max(loads):.1f} CPUs busy during the play_random rows "
            f"({usable_cores()} usable cores): the ratios, above all 2 threads / 1 thread, are unreliable."
        )
    footnotes += [
        f"Empty Python loop over the positions: {meta['loop_overhead_ns']:.1f} ns/iteration (subtracted above).",
        f"Total run time {time.perf_counter() - wall0:.0f} s; --seconds {budget:g} per measurement.",
    ]
    title = f"diabolo benchmark: {args.game}, {players} players"
    fields = {"game": args.game, "players": players, "seconds": budget, "per_call_meta": meta}
    publish(title, info, sections, footnotes, fields if args.json else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
