"""The web processes' gunicorn settings (``gunicorn.conf.py``, issue 19): gunicorn reads them by default, and
each worker hands the GIL on after ``WEB_SWITCH_INTERVAL_MS``."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _printed_config(**env: str) -> dict[str, str]:
    printed = subprocess.run([sys.executable, "-m", "gunicorn", "--print-config", "casino.wsgi"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True,
                             env={k: v for k, v in os.environ.items() if k not in ("WEB_CONCURRENCY", "WEB_THREADS")}
                             | env).stdout
    return {line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip() for line in printed.splitlines() if "=" in line}


def test_gunicorn_reads_the_project_settings_by_default():
    """``gunicorn casino.wsgi`` run from the checkout, with no ``-c``, takes ``./gunicorn.conf.py``: two workers
    per core of two request threads each, unless ``WEB_CONCURRENCY`` and ``WEB_THREADS`` say otherwise."""
    settings = _printed_config()
    assert settings["config"] == "./gunicorn.conf.py"
    assert settings["worker_class"] == "gthread"
    assert (settings["workers"], settings["threads"], settings["keepalive"]) == (str(2 * os.cpu_count()), "2", "30")
    assert settings["post_fork"].startswith("<post_fork")
    settings = _printed_config(WEB_CONCURRENCY="3", WEB_THREADS="1")
    assert (settings["workers"], settings["threads"]) == ("3", "1")


@pytest.mark.parametrize(("setting", "expected"), [(None, 0.0005), ("2", 0.002)])
def test_each_worker_hands_the_gil_on_sooner(monkeypatch, setting, expected):
    if setting is None:
        monkeypatch.delenv("WEB_SWITCH_INTERVAL_MS", raising=False)
    else:
        monkeypatch.setenv("WEB_SWITCH_INTERVAL_MS", setting)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    before = sys.getswitchinterval()
    try:
        conf["post_fork"](None, None)
        assert sys.getswitchinterval() == pytest.approx(expected)
    finally:
        sys.setswitchinterval(before)


def test_a_switch_interval_that_is_no_positive_number_stops_the_start(monkeypatch):
    monkeypatch.setenv("WEB_SWITCH_INTERVAL_MS", "0")
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    with pytest.raises(ValueError, match="strictly positive"):
        conf["post_fork"](None, None)


@pytest.mark.parametrize("name", ["WEB_THREADS", "WEB_CONCURRENCY"])
@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "\u00b2"])
def test_a_worker_or_thread_count_below_one_stops_the_start_and_names_its_variable(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"{name} must be a whole number of at least 1"):
        runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_an_empty_count_is_the_default(monkeypatch):
    monkeypatch.setenv("WEB_THREADS", " ")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["threads"] == 2
