"""The benches' core-speed probe (``bench/_acct_bench.py``, ``SpeedProbe``): it collects its timings while a phase
runs and always stops its process, also when the phase fails; without a timing it reports nothing."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from _acct_bench import SpeedProbe  # noqa: E402  (bench/ is not a package)


def _wait_for_samples(probe: SpeedProbe, count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while len(probe.samples) < count and time.monotonic() < deadline:
        time.sleep(0.02)


def test_the_probe_times_its_loop_and_stops_its_process():
    with SpeedProbe(interval=0.05) as probe:
        _wait_for_samples(probe, 3)
    assert len(probe.samples) >= 3
    assert all(ms > 0 for ms in probe.samples)
    assert probe._proc.poll() is not None  # stopped and reaped
    assert probe._proc.stdout.closed
    text = probe.text()
    assert text.startswith("core speed: probe p50 ") and f"{len(probe.samples)} probes" in text


def test_a_failing_phase_still_stops_the_probe():
    with pytest.raises(RuntimeError, match="phase failed"), SpeedProbe(interval=0.05) as probe:
        raise RuntimeError("phase failed")
    assert probe._proc.poll() is not None


def test_without_a_timing_the_probe_says_nothing():
    assert SpeedProbe().text() == ""
