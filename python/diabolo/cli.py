"""The ``diabolo`` command line (also ``python -m diabolo``).

- ``diabolo`` or ``diabolo demo``: seeded bots play a whole game of Diabolo (Schacht);
  every round and the result table are printed.
- ``diabolo play schacht``: you play against bots in the terminal.
- ``diabolo match GAME --bots ...``: bots play a seat-rotated match; a progress bar, then
  the results table with 95% confidence intervals.
- ``diabolo bench [GAME]``: quick speed figures of the engine on this machine.

Every command has ``--help``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import diabolo
from diabolo import _core
from diabolo.schacht import IsmctsBot, RandomBot, SchachtState

__all__ = ["main"]

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "P": "purple", "B": "blue"}


# ---- demo -------------------------------------------------------------------------------------


def demo(players: int, seed: int, out: TextIO) -> int:
    """Bots play one seeded game; prints each round's moves, its table and the scores."""
    game = diabolo.load("schacht", players=players)
    state = game.new_state(seed=seed)
    bots = [RandomBot() for _ in range(players)]
    step = 0  # each choice is seeded from (seed, step), so the demo repeats
    print(f"Diabolo (Schacht): {players} random bots, {game.rounds} rounds, seed {seed}", file=out)
    while not state.is_terminal:
        round_number, before = state.round, list(state.scores)
        print(f"\nRound {round_number + 1}, dealer seat {state.dealer}, seat {state.current_player} starts", file=out)
        moves: list[str] = []
        table = str(state)
        while state.round == round_number and not state.is_terminal:
            seats = (
                [state.current_player]
                if state.current_player >= 0
                else [seat for seat in range(players) if state.legal_actions(seat)]
            )
            for seat in seats:
                if state.phase == "play":
                    table = str(state)
                move = bots[seat].choose(state, seat, seed=_core.derive_seed(seed, step))
                step += 1
                state.apply(move, player=seat)
                moves.append(f"{seat}:{move}")
        for start in range(0, len(moves), 12):
            print("  " + " ".join(moves[start : start + 12]), file=out)
        print("  the table before the last card was placed:", file=out)
        print("\n".join("  " + line for line in table.splitlines()[1:]), file=out)
        print(f"  round score: {round_change(state.scores, before)}", file=out)
    print("\nFinal result", file=out)
    print("  seat  bot     total", file=out)
    for seat, total in enumerate(state.scores):
        mark = "  winner" if seat in state.winners else ""
        print(f"  {seat:>4}  {bots[seat].name:<6} {total:>6}{mark}", file=out)
    return 0


# ---- play ---------------------------------------------------------------------------------------


HELP = """Moves (rules page "Diabolo (Schacht)", notation S8):
  R1<   place red 1 on the devil side (left)      R1>   on the angel side (right)
  xR1   discard red 1 (only when no card can be placed, S3.3)
  bet / hold   use or keep your doubler on the colour being scored (S5.3)
  3     the third of your legal moves, as 'moves' numbers them
Commands: moves (your legal moves, numbered), table, help, quit"""


def picture(state: SchachtState, seat: int) -> str:
    """The table as `seat` sees it: the rows, its hand, what it knows of the others."""
    seen = state.observation(seat)
    lines = [f"Round {seen['round'] + 1} of {seen['rounds']}, dealer seat {seen['dealer']}, you are seat {seat}"]
    lines.append("        devil side (<)   angel side (>)")
    for letter, row in seen["rows"].items():
        left = " ".join(str(v) for v in row["left"]).rjust(9)
        right = " ".join(str(v) for v in row["right"]).ljust(9)
        balance = sum(row["right"]) - sum(row["left"])
        state_text = "closed" if row["closed"] else "open"
        lines.append(f"  {letter} {COLOURS[letter]:<7} {left} | {right}   {balance:+d} {state_text}")
    lines.append(f"  your hand: {' '.join(seen['hand'])}")
    others = ", ".join(f"seat {s}: {n}" for s, n in enumerate(seen["hand_sizes"]) if s != seat)
    doublers = ", ".join(f"{s}" for s, free in enumerate(seen["doubler_available"]) if free)
    lines.append(f"  cards in hand: {others}; pile {seen['draw_pile']}; doublers unused: seats {doublers or 'none'}")
    lines.append(f"  scores: {', '.join(f'seat {s}: {v}' for s, v in enumerate(seen['scores']))}")
    return "\n".join(lines)


def scoring_lines(events: Sequence[dict[str, Any]], before: Sequence[int]) -> list[str]:
    """The end of a round, from the events of the move that ended it (S5, S6): how each
    colour scored (its sides, the hands that held it, the doublers bet, the points), then
    the round's scores. `before`: the totals when the round began."""
    lines = []
    for event in events:
        if event["type"] == "colour_scored":
            colour = f"{COLOURS[event['colour']]} ({event['colour']})"
            sides = f"angels {event['angel']}, devils {event['devil']}: {event['outcome']}"
            if event["outcome"] == "even":
                lines.append(f"  {colour}: {sides}, no points")
                continue
            hands = ", ".join(f"seat {s}: {' '.join(cards)}" for s, cards in enumerate(event["hands"]) if cards)
            bets = ", ".join(f"seat {s}" for s in event["bets"]) or "none"
            points = ", ".join(f"seat {s}: {p:+d}" for s, p in enumerate(event["points"]) if p)
            lines.append(
                f"  {colour}: {sides}; held by {hands or 'nobody'}; doublers bet: {bets}; {points or 'no points'}"
            )
        elif event["type"] == "round_ended":
            lines.append(f"Round {event['round'] + 1} scores: {round_change(event['scores'], before)}")
    return lines


def round_change(scores: Sequence[int], before: Sequence[int]) -> str:
    """Each seat's points in a round: its total now against `before`."""
    return "  ".join(f"seat {s}: {now - was:+d}" for s, (now, was) in enumerate(zip(scores, before)))


def play(players: int, seat: int, bot_name: str, seed: int, read: Callable[[str], str], out: TextIO) -> int:
    """A game of Diabolo (Schacht) in the terminal: `seat` is the person, bots the rest."""
    game = diabolo.load("schacht", players=players)
    state = game.new_state(seed=seed)
    bots = {s: diabolo.bot("schacht", bot_name) for s in range(players) if s != seat}
    print(
        f"Diabolo (Schacht), {players} players: you are seat {seat} against {bot_name} bots. Type 'help' for help.",
        file=out,
    )
    round_number = -1
    shown = ""
    before = list(state.scores)

    def show_scoring() -> None:
        nonlocal before
        events = state.events_for(seat)
        lines = scoring_lines(events, before)
        if lines:
            print("\n".join(lines), file=out)
        if any(event["type"] == "round_ended" for event in events):
            before = list(state.scores)

    while not state.is_terminal:
        if state.round != round_number:
            round_number = state.round
            print(f"\n=== Round {round_number + 1} ===", file=out)
        actor = state.current_player
        if actor < 0:  # doubler decisions: the person first, then the bots, in seat order
            pending = [s for s in range(players) if state.legal_actions(s)]
            actor = seat if seat in pending else pending[0]
        if actor != seat:
            move = bots[actor].choose(state, actor, seed=seed * 7919 + len(state.history))
            state.apply(move, player=actor)
            if move.kind in ("place", "discard"):
                print(f"seat {actor} ({bot_name}): {move}", file=out)
            show_scoring()
            continue
        picture_now = picture(state, seat)
        if picture_now != shown:
            print("\n" + picture_now, file=out)
            shown = picture_now
        colour = state.observation(seat)["scoring_colour"]
        prompt = f"Colour {colour} scores positive: bet your doubler or hold? " if colour else "Your move: "
        try:
            text = read(prompt).strip()
        except EOFError:
            print("\nGame left.", file=out)
            return 1
        if text in ("quit", "exit"):
            print("Game left.", file=out)
            return 1
        if text in ("help", "?"):
            print(HELP, file=out)
            continue
        legal = state.legal_moves(seat)
        if text == "moves":
            print("legal moves: " + "  ".join(f"{i}:{m}" for i, m in enumerate(legal, 1)), file=out)
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            text = str(legal[int(text) - 1])
        if text == "table":
            print(picture_now, file=out)
            continue
        try:
            state.apply(text, player=seat)
        except diabolo.DiaboloError as error:
            print(f"Not possible: {error}. Type 'moves' for your legal moves.", file=out)
            continue
        show_scoring()
    print("\nGame over. Final scores:", file=out)
    for s, total in enumerate(state.scores):
        who = "you" if s == seat else bot_name
        mark = "  winner" if s in state.winners else ""
        print(f"  seat {s} ({who}): {total}{mark}", file=out)
    return 0


# ---- match ------------------------------------------------------------------------------------


def progress_bar(out: TextIO) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="" if done < total else "\n",
            file=out,
            flush=True,
        )

    return show


def run_match(
    game_name: str, bot_names: Sequence[str], games: int, seed: int, threads: int, out: TextIO, err: TextIO
) -> int:
    game = diabolo.load(game_name, players=len(bot_names))
    bots = [diabolo.bot(game_name, name) for name in bot_names]
    started = time.perf_counter()
    result = diabolo.match(game, bots, games=games, seed=seed, threads=threads, progress=progress_bar(err))
    print(f"{game_name}: {games} seat-rotated games, seed {seed}, {time.perf_counter() - started:.1f} s", file=out)
    print(result.table(), file=out)
    return 0


# ---- bench ------------------------------------------------------------------------------------


def bench(game_name: str, out: TextIO) -> int:
    """Quick figures: random games per second on 1 and 2 threads, and for Schacht the
    search's iterations per second. ``python benchmarks/bench.py`` in the repository
    has the full tables with baselines."""
    game = diabolo.load(game_name, players=4)
    print(f"{game_name}, 4 players", file=out)
    for threads in (1, 2):
        games = 64 if game_name != "schacht" else 20_000
        started = time.perf_counter()
        game.play_random(games, seed=1, threads=threads)
        rate = games / (time.perf_counter() - started)
        print(f"  random games per second, {threads} thread(s): {rate:,.0f}", file=out)
    if game_name == "schacht":
        state = diabolo.load("schacht", players=4).new_state(seed=1)
        for threads in (1, 2):
            search = IsmctsBot(iterations=20_000, threads=threads)
            started = time.perf_counter()
            done = search.search(state, seed=1).iterations
            print(
                f"  ISMCTS iterations per second, {threads} thread(s): {done / (time.perf_counter() - started):,.0f}",
                file=out,
            )
    return 0


# ---- serve -------------------------------------------------------------------------------------


def serve(args: argparse.Namespace, out: TextIO) -> int:
    """Runs the game server (diabolo.server) until interrupted: its settings from
    ``--config``, then the environment, then the other flags."""
    try:
        from diabolo.server.config import ServerConfig
        from diabolo.server.runner import serve as run
    except ImportError as error:
        raise diabolo.OptionError(f'the server needs its extra: pip install "diabolo[server]" ({error})') from None
    config = ServerConfig.load(args.config, host=args.host, port=args.port, store=args.store, redis=args.redis)
    return run(config, out)


# ---- entry point -----------------------------------------------------------------------------


def build_paths() -> dict[str, str]:
    """What ``--includes``, ``--libs``, ``--cmakedir`` and ``--pkgconfigdir`` print (pybind11's
    convention): a C program builds with ``cc app.c $(python -m diabolo --includes --libs)``."""
    library = diabolo.get_library_dir()
    libs = f"-L{library} -ldiabolo" if sys.platform == "win32" else f"-L{library} -Wl,-rpath,{library} -ldiabolo"
    return {
        "includes": f"-I{diabolo.get_include()}",
        "libs": libs,
        "cmakedir": str(Path(library) / "cmake" / "diabolo"),
        "pkgconfigdir": str(Path(library) / "pkgconfig"),
    }


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="diabolo", description="Rules engine for devilish card games: demo, play, match, bench."
    )
    top.add_argument("--version", action="version", version=f"diabolo {diabolo.__version__}")
    where = top.add_argument_group("building C, C++ and Cython programs against the C library in the package")
    where.add_argument("--includes", action="store_true", help="the compiler flag of diabolo/diabolo.h's folder")
    where.add_argument("--libs", action="store_true", help="the linker flags of the C library (rpath included)")
    where.add_argument("--cmakedir", action="store_true", help="the CMake package's folder (diabolo_DIR)")
    where.add_argument("--pkgconfigdir", action="store_true", help="the pkg-config file's folder (PKG_CONFIG_PATH)")
    commands = top.add_subparsers(dest="command")
    demo_parser = commands.add_parser("demo", help="bots play a seeded game of Diabolo (Schacht) (the default)")
    demo_parser.add_argument("--players", type=int, default=4, help="3-5 players (default 4)")
    demo_parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the bots (default 1)")
    play_parser = commands.add_parser("play", help="play a game against bots in the terminal")
    play_parser.add_argument("game", choices=["schacht"], help="the game (Diabolo by Schacht)")
    play_parser.add_argument("--players", type=int, default=4, help="3-5 players (default 4)")
    play_parser.add_argument("--seat", type=int, default=0, help="your seat (default 0; seat 0 deals the first round)")
    play_parser.add_argument(
        "--bots", choices=diabolo.bot_kinds("schacht"), default="heuristic", help="the bots' kind (default heuristic)"
    )
    play_parser.add_argument("--seed", type=int, default=0, help="seed of the deal (default 0)")
    match_parser = commands.add_parser("match", help="bots play a seat-rotated match; prints the results table")
    match_parser.add_argument("game", choices=list(diabolo.games()), help="the game")
    match_parser.add_argument(
        "--bots",
        nargs="+",
        required=True,
        help="one bot per seat: "
        + ", ".join(f"{game} {'|'.join(diabolo.bot_kinds(game))}" for game in diabolo.games()),
    )
    match_parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    match_parser.add_argument("--seed", type=int, default=0, help="seed of the match (default 0)")
    match_parser.add_argument("--threads", type=int, default=1, help="threads (default 1; results do not depend on it)")
    serve_parser = commands.add_parser(
        "serve", help='the game server and its browser client (needs pip install "diabolo[server]")'
    )
    serve_parser.add_argument("--config", help="a TOML file of server settings (docs: the server's settings)")
    serve_parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve_parser.add_argument("--port", type=int, help="port (default 8000)")
    serve_parser.add_argument(
        "--store",
        help="where tables are kept: sqlite:///file.db (default sqlite:///diabolo-tables.db) or postgresql://...",
    )
    serve_parser.add_argument(
        "--redis", help="redis://host:port to form one server with other processes (with a PostgreSQL store)"
    )
    bench_parser = commands.add_parser("bench", help="quick speed figures of the engine on this machine")
    bench_parser.add_argument(
        "game", nargs="?", choices=list(diabolo.games()), default="schacht", help="the game (default schacht)"
    )
    return top


def main(
    argv: Sequence[str] | None = None,
    *,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Entry point of the ``diabolo`` command."""
    out = out or sys.stdout
    err = err or sys.stderr
    top = parser()
    args = top.parse_args(argv)
    asked = [flag for flag in ("includes", "libs", "cmakedir", "pkgconfigdir") if getattr(args, flag)]
    if asked:
        print(" ".join(build_paths()[flag] for flag in asked), file=out)
        return 0
    try:
        if args.command in (None, "demo"):
            return demo(getattr(args, "players", 4), getattr(args, "seed", 1), out)
        if args.command == "play":
            if not 0 <= args.seat < args.players:
                top.error(f"--seat must be 0..{args.players - 1}")
            return play(args.players, args.seat, args.bots, args.seed, read, out)
        if args.command == "match":
            return run_match(args.game, args.bots, args.games, args.seed, args.threads, out, err)
        if args.command == "serve":
            try:
                return serve(args, out)
            except diabolo.OptionError as error:  # one clear line: no usage, no traceback
                print(f"diabolo serve: {error}", file=err)
                return 2
        return bench(args.game, out)
    except diabolo.DiaboloError as error:
        top.error(str(error))
    except BrokenPipeError:  # the reader went away (e.g. `diabolo demo | head`): stop quietly
        sys.stderr.close()
        return 1
    return 2
