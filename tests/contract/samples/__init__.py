"""What each game of the catalogue gives the contract's bad-input suite
(tests/bad_input_helpers.py, BadInputSamples), one module a game."""

from __future__ import annotations

from tests.bad_input_helpers import BadInputSamples
from tests.contract.samples import duvelen, highcard, knizia, schacht

SAMPLES: dict[str, BadInputSamples] = {
    samples.name: samples for samples in (duvelen.SAMPLES, highcard.SAMPLES, knizia.SAMPLES, schacht.SAMPLES)
}
