"""Shared test set-up: hypothesis profiles and the doctest namespace.

Profiles: ``ci`` (thorough; chosen when the CI variable is set) and ``dev`` (quick, the
default locally). Choose one with ``HYPOTHESIS_PROFILE=ci``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import diabolo

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["diabolo"] = diabolo
    doctest_namespace["SchachtMove"] = diabolo.schacht.SchachtMove
