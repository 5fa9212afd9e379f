"""The benches' options and words for their workers (issue 19, "How the service grows past one machine"):
``bench/api_load.py``'s ``workers_label`` names the gunicorn workers per web process, their total and how many
per core, so ceilings with one and with two web processes are compared at the same total; ``bench/reconcile.py``
refuses a bad ``--workers`` list before it builds the day."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "bench" / "api_load.py"


@pytest.fixture(scope="module")
def api_load():
    sys.path.insert(0, str(_PATH.parent))  # bench/ is not a package: its modules import each other by name
    spec = importlib.util.spec_from_file_location("bench_api_load", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("workers", "web_processes", "cores", "text"), [
    (4, 1, 2, "4 gunicorn workers (2 per core)"),
    (2, 1, 2, "2 gunicorn workers (1 per core)"),
    (2, 2, 2, "2 web processes x 2 gunicorn workers = 4 (2 per core)"),
    (1, 2, 2, "2 web processes x 1 gunicorn worker = 2 (1 per core)"),
    (3, 1, 2, "3 gunicorn workers (on 2 cores)"),
    (1, 1, 2, "1 gunicorn worker (on 2 cores)"),
])
def test_workers_are_named_per_web_process_and_in_total(api_load, monkeypatch, workers, web_processes, cores, text):
    monkeypatch.setattr(api_load.os, "cpu_count", lambda: cores)
    assert api_load.workers_label(workers, web_processes) == text


def test_the_reconcile_bench_refuses_a_bad_worker_count_before_it_builds_the_day():
    """``bench/reconcile.py --workers``: a list of counts of at least 1; anything else stops argparse at once
    (a count of 0 would send the day to no worker and wait for ten minutes)."""
    import argparse

    spec = importlib.util.spec_from_file_location("bench_reconcile", _PATH.parent / "reconcile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.worker_counts("2") == [2]
    assert module.worker_counts("1,2") == [1, 2]
    for bad in ("", "0", "-1", "abc", "1,", "1,0"):
        with pytest.raises(argparse.ArgumentTypeError, match="at least 1"):
            module.worker_counts(bad)
