"""The ``diabolo`` command line, driven end to end through piped input."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from diabolo.cli import main


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diabolo", *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


def test_play_a_whole_game_through_piped_input() -> None:
    # help, the numbered legal moves, a bad move, then always the first legal move.
    done = run(
        "play",
        "schacht",
        "--players",
        "3",
        "--seed",
        "5",
        "--bots",
        "random",
        stdin="help\nmoves\nZ9<\nR5>\n" + "1\n" * 300,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "you are seat 0" in text and "devil side (<)" in text and "your hand:" in text
    assert "R1<   place red 1 on the devil side" in text  # the help
    assert "legal moves: 1:" in text
    assert "Not possible:" in text  # a clear message for a bad move, then the game goes on
    assert "bet your doubler or hold?" in text
    assert "Game over. Final scores:" in text and "seat 0 (you):" in text and "winner" in text


def test_play_shows_how_each_round_ended() -> None:
    """S5, S6: at each round's end, every colour's scoring (its sides, the hands that held
    it, the doublers bet, the points) and the round's scores, which add up to the totals."""
    done = run("play", "schacht", "--players", "3", "--seed", "5", "--bots", "random", stdin="1\n" * 300)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    colours = re.findall(r"(red|yellow|green|purple|blue) \([RYGPB]\): angels \d+, devils \d+: (\w+)", text)
    rounds = re.findall(r"Round (\d) scores: (.*)", text)
    assert [number for number, _ in rounds] == ["1", "2", "3"]
    assert len(colours) == 5 * len(rounds) and {outcome for _, outcome in colours} <= {"positive", "negative", "even"}
    assert "doublers bet: seat" in text and "held by seat" in text
    totals = [0, 0, 0]
    for _, line in rounds:
        for seat, points in re.findall(r"seat (\d): ([+-]\d+)", line):
            totals[int(seat)] += int(points)
    final = [int(total) for total in re.findall(r"seat \d \((?:you|random)\): (-?\d+)", text)]
    assert totals == final


def test_leaving_the_game_and_end_of_input() -> None:
    assert "Game left." in run("play", "schacht", stdin="quit\n").stdout
    ended = run("play", "schacht", stdin="")
    assert ended.returncode == 1 and "Game left." in ended.stdout


def test_the_table_never_shows_other_hands() -> None:
    out = io.StringIO()
    lines = iter(["table", "quit"])
    main(["play", "schacht", "--seed", "2"], read=lambda prompt: next(lines), out=out)
    text = out.getvalue()
    assert text.count("your hand:") >= 1 and not re.search(r"(?<!your )(?<!cards in )hand:", text)
    assert "cards in hand: seat 1: 6, seat 2: 6, seat 3: 6" in text  # the others' hands only as counts


def test_match_prints_progress_and_the_results_table() -> None:
    done = run(
        "match", "schacht", "--bots", "heuristic", "random", "random", "--games", "30", "--threads", "2", "--seed", "1"
    )
    assert done.returncode == 0, done.stderr
    assert "30/30 games" in done.stderr
    assert "rank  bot" in done.stdout and "heuristic" in done.stdout.splitlines()[2]
    bad = run("match", "schacht", "--bots", "nobody", "random", "random")
    assert bad.returncode == 2 and "no bot 'nobody' for schacht" in bad.stderr


def test_bench_and_demo() -> None:
    done = run("bench", "schacht")
    assert done.returncode == 0 and "ISMCTS iterations per second, 2 thread(s)" in done.stdout
    demo = run()
    assert demo.returncode == 0 and "Final result" in demo.stdout


@pytest.mark.parametrize("command", [[], ["demo"], ["play"], ["match"], ["bench"]])
def test_help_everywhere(command: list[str]) -> None:
    done = run(*command, "--help")
    assert done.returncode == 0 and "usage: diabolo" in done.stdout


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """Output read by a program that stops early (as `| head -1` does): no traceback."""
    with subprocess.Popen(
        [sys.executable, "-m", "diabolo", "play", "schacht"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as game:
        assert game.stdin is not None and game.stdout is not None and game.stderr is not None
        game.stdout.readline()
        game.stdout.close()
        game.stdin.write(b"help\n" * 50)  # every answer prints into the closed pipe
        game.stdin.close()
        errors = game.stderr.read()
        game.wait(timeout=60)
    assert b"Traceback" not in errors and game.returncode == 1
