"""What an operator watches, in Prometheus's text format at ``/metrics``
(:mod:`prometheus_client`, one registry per application): tables, connections, moves,
refusals by reason and code, move latency, the engine pool's queue.

Counts are plain integers kept on the event loop (a move costs a dictionary increment
and a bisection, no lock) and handed to Prometheus when it scrapes.

>>> from prometheus_client import generate_latest
>>> metrics = Metrics()
>>> metrics.refused("too_fast", "too_fast")
>>> b'diabolo_refusals_total{code="too_fast",reason="too_fast"} 1.0' in generate_latest(metrics.registry)
True
"""

from __future__ import annotations

import bisect
import collections
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["Metrics"]

MOVE_SECONDS_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
"""The upper bounds of the move latency histogram's buckets, in seconds."""


class Metrics(Collector):
    """The server's metrics: counters updated as things happen (on the event loop), and
    gauges read from the lobby when Prometheus scrapes (``watch``)."""

    def __init__(self) -> None:
        self.moves: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[tuple[str, str]] = collections.Counter()
        self._latency = [0] * (len(MOVE_SECONDS_BUCKETS) + 1)
        self._latency_sum = 0.0
        self._read: Callable[[], dict[str, Any]] | None = None
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)

    def moved(self, game: str) -> None:
        """A move was accepted at a table of ``game``."""
        self.moves[game] += 1

    def move_took(self, seconds: float) -> None:
        """A client's move took ``seconds`` from its arrival to its updates being queued."""
        self._latency[bisect.bisect_left(MOVE_SECONDS_BUCKETS, seconds)] += 1
        self._latency_sum += seconds

    def refused(self, reason: str, code: str) -> None:
        self.refusals[reason, code or reason] += 1

    def watch(self, read: Callable[[], dict[str, Any]]) -> None:
        """Gauges from ``read()`` at each scrape: ``tables`` ({state: count}), ``connections``,
        ``pool_queued`` and ``pool_busy``."""
        self._read = read

    def collect(self) -> Iterator[Metric]:
        moves = CounterMetricFamily("diabolo_moves", "Accepted moves, by game", labels=["game"])
        for game, count in sorted(self.moves.items()):
            moves.add_metric([game], count)
        yield moves
        refusals = CounterMetricFamily(
            "diabolo_refusals", "Refused requests and messages, by reason and code", labels=["reason", "code"]
        )
        for (reason, code), count in sorted(self.refusals.items()):
            refusals.add_metric([reason, code], count)
        yield refusals
        buckets, total = [], 0
        for bound, count in zip([*map(str, MOVE_SECONDS_BUCKETS), "+Inf"], self._latency):
            total += count
            buckets.append((bound, total))
        yield HistogramMetricFamily(
            "diabolo_move_seconds",
            "Seconds from a move's arrival at its table to its updates being queued, the store's write included",
            buckets=buckets,
            sum_value=self._latency_sum,
        )
        if self._read is None:
            return
        now = self._read()
        tables = GaugeMetricFamily("diabolo_tables", "Tables this process holds, by state", labels=["state"])
        for state, count in sorted(now["tables"].items()):
            tables.add_metric([state], count)
        yield tables
        yield GaugeMetricFamily("diabolo_connections", "Open websockets of this process", value=now["connections"])
        yield GaugeMetricFamily(
            "diabolo_engine_queued", "Engine jobs (bots, words, records) waiting", value=now["pool_queued"]
        )
        yield GaugeMetricFamily("diabolo_engine_busy", "Engine jobs running", value=now["pool_busy"])
