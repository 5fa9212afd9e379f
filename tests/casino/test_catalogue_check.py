"""``casino.W001`` (casino/checks.py): a checkout served without its compiled catalogues answered German readers
in English (break-test finding); ``manage.py check`` and each web process's start now say so."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from django.core import checks
from django.test import override_settings

from casino.checks import catalogue_problems, catalogues_compiled

ROOT = Path(__file__).resolve().parents[2]


def _locale(tmp_path: Path, *, compiled: bool) -> Path:
    folder = tmp_path / "locale"
    (folder / "de" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po", folder / "de" / "LC_MESSAGES" / "django.po")
    if compiled:
        subprocess.run(["msgfmt", "-o", str(folder / "de" / "LC_MESSAGES" / "django.mo"),
                        str(folder / "de" / "LC_MESSAGES" / "django.po")], check=True)
    return folder


def test_an_uncompiled_catalogue_is_a_warning_that_says_what_to_run(tmp_path):
    with override_settings(LOCALE_PATHS=[_locale(tmp_path, compiled=False)]):
        found = catalogues_compiled(None)
    assert [w.id for w in found] == ["casino.W001"] and found[0].level == checks.WARNING
    assert "de/LC_MESSAGES/django.po: not compiled" in found[0].msg
    assert "compilemessages" in found[0].hint


def test_a_catalogue_changed_after_compiling_is_reported(tmp_path):
    folder = _locale(tmp_path, compiled=True)
    source = folder / "de" / "LC_MESSAGES" / "django.po"
    compiled = source.with_suffix(".mo")
    os.utime(compiled, (source.stat().st_mtime - 60,) * 2)
    with override_settings(LOCALE_PATHS=[folder]):
        assert catalogue_problems() == [f"{source}: changed after django.mo was compiled"]


def test_compiled_catalogues_pass(tmp_path):
    with override_settings(LOCALE_PATHS=[_locale(tmp_path, compiled=True)]):
        assert catalogues_compiled(None) == []


def test_the_project_check_runs_it():
    """Registered with Django's checks (``make test`` compiled the catalogue first: no warning here)."""
    done = subprocess.run([sys.executable, "manage.py", "check", "--tag", "translation", "--fail-level", "WARNING"],
                          cwd=ROOT, env={**os.environ, "DEBUG": "true"}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert catalogues_compiled in checks.registry.registry.get_checks()
