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


def test_gunicorn_reads_the_project_settings_by_default():
    """``gunicorn casino.wsgi`` run from the checkout, with no ``-c``, takes ``./gunicorn.conf.py``."""
    printed = subprocess.run([sys.executable, "-m", "gunicorn", "--print-config", "casino.wsgi"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True,
                             env={**os.environ, "WEB_CONCURRENCY": "3"}).stdout
    settings = {line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip() for line in printed.splitlines()
                if "=" in line}
    assert settings["config"] == "./gunicorn.conf.py"
    assert settings["worker_class"] == "gthread"
    assert (settings["workers"], settings["threads"], settings["keepalive"]) == ("3", "2", "30")
    assert settings["post_fork"].startswith("<post_fork")


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
