"""What every subject of ``benchmarks/bench.py`` shares; it measures nothing itself.

- the results: a Row of the table (with its stable --json key) and a Section of rows,
  and the progress lines on stderr;
- the machine: the CPU model, the usable cores and the machine information printed at
  the head of every table;
- the timing helpers: a Meter (wall time, this process's CPU time and the load of the
  machine's other processes over a measurement, Linux /proc/stat), games and calls timed
  against a time budget, and ratio rows;
- the output: the table printed on stdout and, with --json, every row as one JSON object
  on the last line.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import diabolo

# ---- results ------------------------------------------------------------------------------


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


# ---- machine ------------------------------------------------------------------------------


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


# ---- timing -------------------------------------------------------------------------------


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


def ratio_row(key: str, label: str, num: Row, den: Row) -> Row:
    value = None if num.value is None or den.value is None or den.value == 0 else num.value / den.value
    return Row(key, label, value, "x")


# ---- output -------------------------------------------------------------------------------


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
