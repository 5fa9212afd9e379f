"""The API load bench's words for its gunicorn workers (``bench/api_load.py``, ``workers_label``): a saturation
ceiling names the workers per web process, their total and how many per core, so ceilings with one and with two
web processes are compared at the same total (issue 19, "How the service grows past one machine")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "bench" / "api_load.py"


@pytest.fixture(scope="module")
def api_load():
    spec = importlib.util.spec_from_file_location("bench_api_load", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # bench/ is not a package; the module puts bench/ on sys.path itself
    return module


@pytest.mark.parametrize(("workers", "web_processes", "cores", "text"), [
    (4, 1, 2, "4 gunicorn workers (2 per core)"),
    (2, 1, 2, "2 gunicorn workers (1 per core)"),
    (2, 2, 2, "2 web processes x 2 gunicorn workers = 4 (2 per core)"),
    (1, 2, 2, "2 web processes x 1 gunicorn worker = 2 (1 per core)"),
    (3, 1, 2, "3 gunicorn workers (on 2 cores)"),
])
def test_workers_are_named_per_web_process_and_in_total(api_load, monkeypatch, workers, web_processes, cores, text):
    monkeypatch.setattr(api_load.os, "cpu_count", lambda: cores)
    assert api_load.workers_label(workers, web_processes) == text
