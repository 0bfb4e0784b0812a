#!/usr/bin/env python3
"""Compares the speed of the work tree with a reference commit: builds REF and the work tree
into virtualenvs of their own, then times the main rows of each game (benchmarks/
compare_rows.py: Python steps through the public API, C++ random games, clone, to_json,
state_from_json, observation) on each side in turn, row by row, A, B, A, B ... (and B, A in
every other turn), from one process per side, so that both see the same machine over time,
and prints each row's ratio B / A (the work tree against REF): the
median of the rounds' ratios with their lowest and highest.

    python benchmarks/compare.py REF [--rounds 5] [--seconds 0.5] [--games schacht,duvelen]
        [--json]

Builds go to build/compare/ (REF once per commit, the work tree every run; through ccache
when it is installed, as every build of the project). A ratio above 1 is faster in the work
tree. The load of the machine while it ran is printed with the table: compare figures of
runs on a quiet machine only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "compare"
ROWS = Path(__file__).resolve().parent / "compare_rows.py"


def git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def venv(folder: Path) -> Path:
    """A virtualenv at `folder` (made if missing); returns its Python."""
    python = folder / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    return python


def install(python: Path, source: Path) -> None:
    """Builds and installs the package at `source` into `python`'s virtualenv."""
    print(f"building {source} ...", file=sys.stderr, flush=True)
    environment = {**os.environ, "CCACHE_BASEDIR": str(source), "CCACHE_NOHASHDIR": "true"}
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(source)],
        check=True,
        env=environment,
    )
    lexicon = source / "lexicons" / "de"  # Knizia's rows play with the German list
    extra = [str(lexicon)] if lexicon.is_dir() else []
    subprocess.run([str(python), "-m", "pip", "install", "-q", "numpy", *extra], check=True)


def reference(ref: str) -> Path:
    """REF's Python, with REF built and installed once per commit."""
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    folder = WORK / commit[:12]
    python = folder / "venv" / "bin" / "python"
    if (folder / "installed").exists():
        return python
    source = folder / "source"
    source.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        archive = Path(scratch) / "ref.tar"
        subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), commit], cwd=ROOT, check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(source, filter="data")
    install(venv(folder / "venv"), source)
    (folder / "installed").write_text(commit + "\n")
    return python


class Side:
    """One side's rows served by compare_rows.py in its Python (run outside the tree, so that
    it imports the side's own installed package)."""

    def __init__(self, python: Path, games: str) -> None:
        self.process = subprocess.Popen(
            [str(python), str(ROWS), "--games", games],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=WORK,
        )
        self.rows: list[str] = json.loads(self.answer())

    def answer(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"compare_rows.py stopped (exit {self.process.wait()})")
        return line

    def measure(self, row: str, seconds: float) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{row} {seconds}\n")
        self.process.stdin.flush()
        value: float = json.loads(self.answer())
        return value

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the reference commit (a branch, tag or hash)")
    parser.add_argument("--rounds", type=int, default=5, help="passes of each side, interleaved")
    parser.add_argument("--seconds", type=float, default=0.5, help="per row and pass")
    parser.add_argument("--games", default="schacht,duvelen,knizia")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    b = venv(WORK / "work-venv")
    install(b, ROOT)
    sides = (Side(reference(args.ref), args.games), Side(b, args.games))
    shared = [row for row in sides[0].rows if row in sides[1].rows]
    before = load_average()
    figures: dict[str, tuple[list[float], list[float]]] = {row: ([], []) for row in shared}
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds}", file=sys.stderr, flush=True)
        for row in shared:  # A, B then B, A: neither side is always the one that runs second
            order = (0, 1) if (number + shared.index(row)) % 2 == 0 else (1, 0)
            for index in order:
                figures[row][index].append(sides[index].measure(row, args.seconds))
    for side in sides:
        side.close()
    rows: dict[str, dict[str, float]] = {}
    for row, (ref, work) in figures.items():
        ratios = sorted(w / r for r, w in zip(ref, work))
        rows[row] = {
            "ref": statistics.median(ref),
            "work": statistics.median(work),
            "ratio": statistics.median(ratios),
            "lowest": ratios[0],
            "highest": ratios[-1],
        }
    tree = git("describe", "--always", "--dirty")
    if args.json:
        print(json.dumps({"ref": args.ref, "work": tree, "load": [before, load_average()], "rows": rows}, indent=2))
        return 0
    print(f"work tree {tree} against {args.ref}, {args.rounds} interleaved rounds of {args.seconds} s a row")
    print(f"load average before and after: {before} / {load_average()}")
    print(f"{'row':<36} {'ref /s':>12} {'work /s':>12} {'ratio':>7}  lowest-highest")
    for row, found in rows.items():
        print(
            f"{row:<36} {found['ref']:>12,.0f} {found['work']:>12,.0f} {found['ratio']:>7.3f}"
            f"  {found['lowest']:.3f}-{found['highest']:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
