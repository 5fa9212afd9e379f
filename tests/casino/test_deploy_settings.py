"""Production settings (issue 20): HTTPS redirect, HSTS and HTTPS-only cookies are on by default when
DEBUG is off, each can be switched from the environment, and ``check --deploy`` passes with no warning.

Each test starts ``manage.py`` in a fresh process with production-like settings (``casino.settings``,
not the test settings), because settings are read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECURITY_NAMES = ("SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
                  "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_PROXY_SSL_HEADER")


def _production_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SECURITY_NAMES and k != "DEBUG"}
    env.update({"DJANGO_SETTINGS_MODULE": "casino.settings", "DEBUG": "false",
                "SECRET_KEY": "a-production-like-key-" + "q7Zp2Lx9Vb4Nw6Ke3Rt8Ym1Hs5Jc0Fg" * 2,
                "ALLOWED_HOSTS": "casino.example"})
    env.update(overrides)
    return env


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_production_env(**env),
                          capture_output=True, text=True, timeout=120)


def _settings(**env: str) -> dict:
    code = ("import json; from django.conf import settings as s; print(json.dumps({n: getattr(s, n) for n in "
            f"{SECURITY_NAMES!r}}}))")
    done = _manage("shell", "-c", code, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_check_deploy_passes_with_no_warning_under_production_like_settings():
    done = _manage("check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_transport_security_is_on_by_default_when_debug_is_off():
    values = _settings()
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31_536_000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_PROXY_SSL_HEADER"] is None


def test_each_switch_is_read_from_the_environment():
    values = _settings(SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="600", SESSION_COOKIE_SECURE="false",
                       CSRF_COOKIE_SECURE="false", SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO")
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 600
    assert values["SESSION_COOKIE_SECURE"] is False and values["CSRF_COOKIE_SECURE"] is False
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_debug_mode_keeps_plain_http_for_local_runs():
    values = _settings(DEBUG="true")
    assert values["SECURE_SSL_REDIRECT"] is False and values["SECURE_HSTS_SECONDS"] == 0
    assert values["SESSION_COOKIE_SECURE"] is False


def test_check_deploy_fails_when_the_switches_are_turned_off():
    done = _manage("check", "--deploy", "--fail-level", "WARNING", SECURE_SSL_REDIRECT="false")
    assert done.returncode != 0
    assert "security.W008" in done.stdout + done.stderr


def test_seed_demo_refuses_with_debug_off_and_says_why():
    done = _manage("seed_demo")
    assert done.returncode != 0
    # in the house language (German) unless told otherwise
    assert "DEBUG" in done.stderr and "demo-pass-2026" in done.stderr and "--allow-without-debug" in done.stderr
    assert "verweigert" in done.stderr


def test_seed_demo_with_debug_off_writes_nothing_without_the_switch(db, django_user_model):
    import pytest
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="refuses to run with DEBUG off"):
        call_command("seed_demo")
    assert not django_user_model.objects.filter(username__in=["admin", "floor", "croupier"]).exists()
