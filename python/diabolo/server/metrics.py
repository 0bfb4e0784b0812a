"""What an operator watches, in Prometheus's text format at ``/metrics``
(:mod:`prometheus_client`, one registry per application): tables, connections, moves,
refusals by reason and code, move latency, the engine pool's queue.

>>> from prometheus_client import generate_latest
>>> metrics = Metrics()
>>> metrics.refused("too_fast", "too_fast")
>>> b'diabolo_refusals_total{code="too_fast",reason="too_fast"} 1.0' in generate_latest(metrics.registry)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["Metrics"]


class Metrics:
    """The server's metrics. Counters and the latency histogram are updated as things
    happen; gauges are read from the lobby when Prometheus scrapes (``watch``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("diabolo_moves", "Accepted moves, by game", ["game"], registry=self.registry)
        self.refusals = Counter(
            "diabolo_refusals",
            "Refused requests and messages, by reason and code",
            ["reason", "code"],
            registry=self.registry,
        )
        self.move_seconds = Histogram(
            "diabolo_move_seconds",
            "Seconds from a move's arrival at its table to its updates being queued, stored write included",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
            registry=self.registry,
        )

    def refused(self, reason: str, code: str) -> None:
        self.refusals.labels(reason, code or reason).inc()

    def watch(self, read: Callable[[], dict[str, Any]]) -> None:
        """Gauges from ``read()`` at each scrape: ``tables`` ({state: count}), ``connections``,
        ``pool_queued`` and ``pool_busy``."""
        self.registry.register(_Gauges(read))


class _Gauges(Collector):
    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = self.read()
        tables = GaugeMetricFamily("diabolo_tables", "Tables this process holds, by state", labels=["state"])
        for state, count in sorted(now["tables"].items()):
            tables.add_metric([state], count)
        yield tables
        yield GaugeMetricFamily(
            "diabolo_connections", "Open websockets of this process's tables", value=now["connections"]
        )
        yield GaugeMetricFamily(
            "diabolo_engine_queued", "Engine jobs (bots, words, records) waiting", value=now["pool_queued"]
        )
        yield GaugeMetricFamily("diabolo_engine_busy", "Engine jobs running", value=now["pool_busy"])
