"""README "## Walkthrough": every command and call in its ``sh`` blocks, run in order against the test database.

The README is the script: this test parses the section and executes each line, so an edited README
that no longer matches the service fails here. Understood lines (anything else fails the test):

* the helper definitions ``API=...``, ``call() {...}``, ``pick() {...}``, ``token() {...}``;
* ``.venv/bin/python manage.py COMMAND ARGS`` -> ``call_command`` (globs expanded from the repo root);
* ``VAR=$(token USER)  # -> 200`` -> ``POST /api/v1/auth/token/`` with the demo password;
* ``[VAR=$(][ACCEPT_LANGUAGE=xx ]call METHOD PATH "$TOKEN" ['JSON'][ | pick 'EXPR')][ > FILE]  # -> STATUS[, FRAGMENT]``
  -> the call with DRF's ``APIClient`` and ``Authorization: Token`` (``Accept-Language: xx``, else ``en`` as the README helper sends); the status must match, and
  ``FRAGMENT`` (e.g. ``"status": "closed"``) must appear in the JSON answer (GETs are retried for a
  while: reconciliation runs on the Celery worker); ``pick`` evaluates ``EXPR`` on the answer ``d``;
* ``# admin (USER): /admin/...`` -> that page answers 200 to that user.

Shell quoting is read with :mod:`shlex`, so ``'{"table": '"$STUD"'}'`` is one argument, and
``$VAR`` is replaced by the value an earlier line stored.
"""

from __future__ import annotations

import glob
import json
import re
import shlex
import time
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

README = Path(settings.BASE_DIR) / "README.md"
DEMO_PASSWORD = "demo-pass-2026"
HELPERS = ("API=", "call() {", "pick() {", "token() {")
EXPECT = re.compile(r"^(?P<code>.*?)\s+#\s*->\s*(?P<status>\d{3})(?:,\s*(?P<fragment>.+))?$")
ADMIN = re.compile(r"^#\s*admin\s*\((?P<user>[\w.-]+)\):\s*(?P<path>/admin/\S*)$")
ASSIGN = re.compile(r"^(?P<var>[A-Z_][A-Z0-9_]*)=\$\((?P<inner>.*)\)$")
VARIABLE = re.compile(r"\$\{?([A-Z_][A-Z0-9_]*)\}?")
#: How long a GET whose fragment is not there yet is retried (the worker reconciles asynchronously).
RETRY_SECONDS = 30


def walkthrough_lines() -> list[str]:
    """The logical lines of the ``sh`` blocks of README's "## Walkthrough" section (continuations joined)."""
    text = README.read_text(encoding="utf-8")
    start = text.find("\n## Walkthrough")
    assert start >= 0, "README.md has no '## Walkthrough' section"
    rest = text[start + 1:]
    end = re.search(r"^## (?!Walkthrough)", rest, flags=re.M)
    section = rest[: end.start()] if end else rest
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        pending = ""
        for raw in block.splitlines():
            if raw.rstrip().endswith("\\"):
                pending += raw.rstrip()[:-1] + " "
                continue
            line = (pending + raw).strip()
            pending = ""
            if line:
                lines.append(line)
    return lines


class Walkthrough:
    """Runs README lines one by one, remembering shell variables."""

    def __init__(self) -> None:
        self.env: dict[str, str] = {}
        self.helpers: set[str] = set()
        self.calls = 0
        self.admin_failures: list[str] = []

    def subst(self, text: str) -> str:
        def value(match: re.Match) -> str:
            name = match.group(1)
            assert name in self.env, f"README uses ${name} before setting it"
            return self.env[name]

        return VARIABLE.sub(value, text)

    def run(self, line: str) -> None:
        if line.startswith(HELPERS):
            self.helpers.add(next(h for h in HELPERS if line.startswith(h)))
            return
        admin = ADMIN.match(line)
        if admin:
            self.admin_page(admin["user"], admin["path"])
            return
        if line.startswith("#") or line.startswith("export DEBUG="):
            return  # comments; the debug switch the test settings already stand in for
        if line.startswith(".venv/bin/python manage.py "):
            self.command(line)
            return
        expect = EXPECT.match(line)
        assert expect, f"README line has no '# -> STATUS': {line}"
        code, status, fragment = expect["code"].strip(), int(expect["status"]), expect["fragment"]
        target = None
        assign = ASSIGN.match(code)
        if assign:
            target, code = assign["var"], assign["inner"].strip()
        if code.startswith("token "):
            (username,) = shlex.split(code)[1:]
            data = self.request("POST", "/auth/token/", None, json.dumps({"username": username,
                                                                          "password": DEMO_PASSWORD}), status, fragment)
            self.env[target] = data["token"]
            return
        pick = None
        if " | pick " in code:
            code, pick = code.split(" | pick ", 1)
            pick = shlex.split(pick)[0]
        words = shlex.split(code)
        if ">" in words:
            words = words[: words.index(">")]
        language = None
        if words[0].startswith("ACCEPT_LANGUAGE="):
            language, words = words[0].split("=", 1)[1], words[1:]
        assert words[0] == "call" and len(words) in (4, 5), f"not a README call: {line}"
        method, path, token = words[1], self.subst(words[2]), self.subst(words[3])
        body = self.subst(words[4]) if len(words) == 5 else None
        data = self.request(method, path, token, body, status, fragment, language=language)
        if target:
            assert pick, f"an assignment needs '| pick': {line}"
            self.env[target] = str(eval(pick, {"next": next}, {"d": data}))  # noqa: S307 - README text, our repo

    def request(self, method: str, path: str, token: str | None, body: str | None, status: int, fragment: str | None,
                *, language: str | None = None):
        client = APIClient(HTTP_ACCEPT_LANGUAGE=language or "en")  # the README's `call` asks for English by default
        if token:
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        if body is not None:
            json.loads(body)  # the README's JSON must be valid JSON
        deadline = time.monotonic() + (RETRY_SECONDS if method == "GET" and fragment else 0)
        while True:
            response = client.generic(method, f"/api/v1{path}", data=body or "", content_type="application/json")
            self.calls += 1
            is_json = response.get("Content-Type", "").startswith("application/json")
            data = response.json() if is_json else None
            shown = json.dumps(data, ensure_ascii=False) if is_json else ""
            if response.status_code == status and (not fragment or fragment in shown):
                return data
            if time.monotonic() >= deadline:
                break
            time.sleep(0.25)
        assert response.status_code == status, f"{method} {path}: {response.status_code} (README: {status}): {shown[:600]}"
        raise AssertionError(f"{method} {path}: README expects {fragment} in the answer: {shown[:1500]}")

    def command(self, line: str) -> None:
        words = shlex.split(line)[2:]
        args: list[str] = []
        for word in words[1:]:
            if any(ch in word for ch in "*?["):
                matches = sorted(glob.glob(str(Path(settings.BASE_DIR) / word)))
                assert matches, f"README glob matches nothing: {word}"
                args.extend(matches)
            else:
                args.append(word)
        call_command(words[0], *args, stdout=StringIO())

    def admin_page(self, username: str, path: str) -> None:
        client = APIClient()
        client.force_login(get_user_model().objects.get(username=username))
        response = client.get(path)
        if response.status_code != 200:  # collected, so the API steps after it still run
            self.admin_failures.append(f"admin page {path} as {username}: {response.status_code}")


def test_walkthrough_parses_into_known_lines():
    lines = walkthrough_lines()
    assert any(line.startswith(".venv/bin/python manage.py import_phh") for line in lines)
    assert any(line.startswith(".venv/bin/python manage.py simulate_shift") for line in lines)
    for line in lines:
        known = (line.startswith(HELPERS) or line.startswith(("#", "export DEBUG="))
                 or line.startswith(".venv/bin/python manage.py ")
                 or EXPECT.match(line))
        assert known, f"README walkthrough line the test cannot run: {line}"


def test_walkthrough_shows_a_takeover_that_would_uncover_a_table_refused():
    takeovers = [line for line in walkthrough_lines() if line.startswith("call POST /dealer-assignments/")]
    assert len(takeovers) == 2
    put_on_stud, refused = takeovers
    # the first does not depend on where the demo rotation has the croupier right now; the second always
    # uncovers Stud 1, which the first left to the croupier alone
    assert '"confirm_uncovered": true' in put_on_stud and EXPECT.match(put_on_stud)["status"] == "201"
    assert "confirm_uncovered" not in refused.split("#")[0] and EXPECT.match(refused)["status"] == "400"
    assert '"code": "needs_confirmation"' in refused and '"table": "Stud 1"' in refused

@pytest.fixture
def small_demo_evening(monkeypatch):
    """The demo evening with fewer simulated hands (same code path, quicker)."""
    from tables import demo_evening

    monkeypatch.setattr(demo_evening, "SIMULATED", [(n, 1, s) for n, _h, s in demo_evening.SIMULATED])
    monkeypatch.setattr(demo_evening, "MAX_EXTRA_FORTY_ONE", 0)


def test_readme_walkthrough_runs_as_written(live_worker, small_demo_evening):
    from tables.demo_evening import seed_demo_evening

    call_command("seed_demo", "--allow-without-debug", stdout=StringIO())
    seed_demo_evening(stdout=StringIO())  # no-op when seed_demo's hooks already made it
    walk = Walkthrough()
    for line in walkthrough_lines():
        walk.run(line)
    assert walk.admin_failures == []
    assert walk.helpers == set(HELPERS)
    assert walk.calls >= 30
    assert {"FLOOR", "CROUPIER", "ACCOUNTANT", "HAND", "DAY"} <= set(walk.env)
    from casino.models import AuditEntry
    from tables.models import Table

    walk_takeover = AuditEntry.objects.filter(action="takeover", reason="walkthrough").get()
    assert Table.objects.get(pk=walk_takeover.data["table"]).name == "Stud 1"
    assert not AuditEntry.objects.filter(action="takeover", reason="needed at Forty-one 1").exists()
