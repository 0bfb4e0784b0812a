"""The engine's speed in Schacht and Duvelen, for ``bench.py schacht`` and ``bench.py duvelen``.

- random games per second on three paths, with their ratios: (a) a Python loop over the
  public API (legal_actions + apply), (b) the C++ batch entry point game.play_random on 1
  and 2 threads, (c) the pure-Python reference model (tests/reference);
- the cost per call from Python of the main state methods (legal_actions, apply, clone,
  observation_tensor, observation, legal_moves, events_for, to_json, state_from_json) over
  positions of random games, the empty loop subtracted;
- Schacht: if a C++ compiler is available, the cost of a Position copy, of legal_actions
  and of a move in the C++ core (benchmarks/clone_bench.cpp, built by native.py), and the
  default ISMCTS bot's iterations per second (search_speed, which bot_strength.py uses
  too);
- Duvelen: the real-time simulation of greedy bots (rounds and accepted actions per
  second) through diabolo.realtime.simulate_many (1 and 2 threads), through the same
  event loop in plain Python over the reference model (py_realtime.py) and through
  realtime.simulate with bots written in Python (ApiGreedy), with ratios.

The random-game helpers (random_game_section, python_api_realtime_game, play_random_seats)
serve word_speed.py's Knizia games too. Run through bench.py, which puts the repository
on sys.path for tests.reference.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import native  # benchmarks/native.py: compiling a C++ benchmark
import py_realtime  # benchmarks/py_realtime.py, the plain-Python event loop of bench.py duvelen
from report import (
    CallCost,
    Meter,
    Row,
    Section,
    Throughput,
    machine_info,
    progress,
    publish,
    ratio_row,
    time_calls,
    time_games,
    usable_cores,
)

import diabolo
from diabolo import realtime
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState, GreedyBot
from diabolo.knizia import KniziaGame
from diabolo.schacht import SchachtGame, SchachtState
from tests.reference import duvelen as reference_duvelen
from tests.reference import schacht as reference_schacht

#: The C++ micro-benchmark of each game, built against cpp/include and cpp/src.
CPP_BENCH_SOURCES = {"schacht": native.REPO / "benchmarks" / "clone_bench.cpp"}

#: Positions the per-call rows cycle through.
POSITIONS = 256


# ---- random games -------------------------------------------------------------------------


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


# ---- the C++ core -------------------------------------------------------------------------


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


# ---- the search's speed -------------------------------------------------------------------


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


# ---- schacht ------------------------------------------------------------------------------


def main_schacht(args: argparse.Namespace, game: SchachtGame) -> int:
    """`bench.py schacht`: random games, per-call costs, the C++ core and the default
    search's speed."""
    budget: float = args.seconds
    players: int = args.players
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


# ---- duvelen: the real-time simulation ----------------------------------------------------


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
