"""How strong the bots are, for ``bench.py strength`` and ``bench.py live``.

- strength: seat-rotated 4-player Schacht matches (heuristic vs 3 random bots; ISMCTS
  with 1,000 iterations, flat and tree, and the learned bot vs 3 heuristic bots), each
  bot's win rate and mean total with 95% intervals, and the ISMCTS search's iterations per
  second (flat and tree, 1 and 2 threads; search_speed, from game_speed.py);
- live: seat-rotated 4-player matches of the real-time games' bots (Duvelen and Knizia:
  the lookahead bot against three greedy or word bots, the search against three lookahead
  bots) and how long the searches take to decide.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from game_speed import sample_positions, search_speed
from report import Row, Section, machine_info, progress, publish, ratio_row

import diabolo
from diabolo.schacht import SchachtState

# ---- strength of the Schacht bots ---------------------------------------------------------


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


# ---- strength of the real-time games' bots ------------------------------------------------


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
