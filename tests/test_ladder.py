"""The published strength ladder (docs/strength.rst, diabolo.ladder): every bot kind of
every game is rated, the docs' tables are the ladder's, the server's levels are the
ladder's, and benchmarks/ladder.py plays and writes a ladder."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

import diabolo
from diabolo import ladder
from diabolo.server.tables import bot_level

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_LADDER = json.loads((ROOT / "python" / "diabolo" / "ladder.json").read_text("utf-8"))


def test_every_bot_kind_of_every_game_is_on_the_ladder_with_its_default_options() -> None:
    for entry in diabolo.catalogue():
        if not entry.listed:
            continue
        rungs = ladder.rungs(entry.name)
        assert {rung.kind for rung in rungs if rung.options == {}} == set(entry.bots), entry.name
        assert [rung.elo for rung in rungs] == sorted((rung.elo for rung in rungs), reverse=True)
        assert rungs[0].level == "strong" and {rung.level for rung in rungs} <= set(ladder.LEVELS)
        for rung in rungs:
            low, high = rung.interval
            assert low <= rung.elo <= high, rung
            bot = diabolo.bot(entry.name, rung.kind, **rung.options)  # the options make a bot,
            assert bot.name == rung.kind, (bot.name, rung)  # named by its kind, as in every layer


def test_the_installed_ladder_is_the_source_trees_and_the_docs_show_it() -> None:
    assert ladder.rungs("schacht") == ladder.rungs("schacht", SOURCE_LADDER)
    tables = (ROOT / "docs" / "strength_tables.inc").read_text("utf-8")
    assert tables == "\n".join(ladder.table(name, SOURCE_LADDER) for name in SOURCE_LADDER["games"])
    assert ".. include:: strength_tables.inc" in (ROOT / "docs" / "strength.rst").read_text("utf-8")


def test_levels_follow_the_gap_to_the_best_bot() -> None:
    best = ladder.rungs("schacht")[0].elo
    assert ladder.level_of(best - ladder.STRONG_GAP, best) == "strong"
    assert ladder.level_of(best - ladder.STRONG_GAP - 1, best) == "medium"
    assert ladder.level_of(best - ladder.MEDIUM_GAP - 1, best) == "easy"
    for rung in ladder.rungs("knizia"):  # the most specific bot of the kind decides
        assert ladder.level("knizia", rung.kind, rung.options) == rung.level
    with pytest.raises(KeyError, match="no shouter bot of schacht"):
        ladder.level("schacht", "shouter", {})


def test_the_servers_levels_are_the_ladders() -> None:
    for entry in diabolo.catalogue():
        if entry.listed:
            for rung in ladder.rungs(entry.name):
                assert bot_level(entry.name, rung.kind, rung.options) == rung.level


def test_the_ladder_script_plays_rates_and_writes_both_files(tmp_path: pathlib.Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ladder.py"), "--game", "duvelen", "--games", "12"]
        + ["--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / "ladder.json").read_text("utf-8"))
    assert list(data["games"]) == ["duvelen"] and data["games"]["duvelen"]["games_per_pairing"] == 12
    rungs = ladder.rungs("duvelen", data)
    assert {rung.kind for rung in rungs} == {"random", "greedy", "lookahead", "search"}
    assert (tmp_path / "strength_tables.inc").read_text("utf-8") == ladder.table("duvelen", data)
    assert "rank bot" in run.stderr  # the tournament's table
