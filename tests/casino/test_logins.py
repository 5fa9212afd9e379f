"""Logins (issue 20): lockout after repeated failures per user and per address (django-axes), lockouts and
unlocks in the audit trail, tokens that expire after a shift, and tokens revoked by a password change and
by logging out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token

from casino.models import AuditEntry

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
PASSWORD = "pw-for-tests-only"


def _login(client, username, password, ip="10.0.0.1"):
    return client.post(TOKEN_URL, {"username": username, "password": password}, format="json", REMOTE_ADDR=ip)


def _fail(client, username, times, ip="10.0.0.1"):
    for _ in range(times):
        answer = _login(client, username, "wrong-password", ip)
        assert answer.status_code in (400, 429)


@override_settings(AXES_FAILURE_LIMIT=5)
def test_the_right_password_is_refused_after_repeated_failures_for_that_user(api_client, role_user):
    role_user("croupier", username="c1")
    _fail(api_client, "c1", 5, ip="10.0.0.1")
    answer = _login(api_client, "c1", PASSWORD, ip="10.0.0.2")  # another address: the user is locked
    assert answer.status_code == 429
    assert answer.json()["code"] == "locked_out"
    assert "too many failed" in answer.json()["message"]
    assert not Token.objects.filter(user__username="c1").exists()


@override_settings(AXES_FAILURE_LIMIT=5)
def test_an_address_guessing_many_users_is_locked_out(api_client, role_user):
    role_user("croupier", username="victim")
    for n in range(5):
        _login(api_client, f"guess-{n}", "wrong-password", ip="10.9.9.9")
    assert _login(api_client, "victim", PASSWORD, ip="10.9.9.9").status_code == 429
    assert _login(api_client, "victim", PASSWORD, ip="10.0.0.7").status_code == 200


@override_settings(AXES_FAILURE_LIMIT=5)
def test_the_admin_login_page_locks_out_too(client, role_user):
    role_user("floor_manager", username="fm", is_staff=True)
    for _ in range(5):
        client.post("/admin/login/", {"username": "fm", "password": "nope"}, REMOTE_ADDR="10.0.0.3")
    answer = client.post("/admin/login/", {"username": "fm", "password": PASSWORD}, REMOTE_ADDR="10.0.0.3")
    assert answer.status_code == 429
    assert "_auth_user_id" not in client.session


@override_settings(AXES_FAILURE_LIMIT=5)
def test_a_lockout_is_audited_and_a_floor_manager_unlocks_with_a_reason(api_client, role_user):
    role_user("croupier", username="c2")
    _fail(api_client, "c2", 5)
    locked = AuditEntry.objects.filter(action="login_locked_out")
    assert locked.count() == 1 and locked.get().data["username"] == "c2"
    floor = role_user("floor_manager", username="boss")
    api_client.force_authenticate(floor)
    refused = api_client.post("/api/v1/auth/unlock/", {"username": "c2"}, format="json")
    assert refused.status_code == 400 and "reason" in refused.json()["message"]
    unlocked = api_client.post("/api/v1/auth/unlock/", {"username": "c2", "reason": "forgot the new password"},
                               format="json")
    assert unlocked.status_code == 200, unlocked.json()
    assert unlocked.json()["unlocked"] >= 1
    row = AuditEntry.objects.get(action="login_unlocked")
    assert row.actor == floor and row.reason == "forgot the new password" and row.data["username"] == "c2"
    api_client.force_authenticate(None)
    assert _login(api_client, "c2", PASSWORD).status_code == 200


def test_only_a_floor_manager_unlocks(api_client, role_user):
    api_client.force_authenticate(role_user("croupier", username="c3"))
    answer = api_client.post("/api/v1/auth/unlock/", {"username": "c3", "reason": "me"}, format="json")
    assert answer.status_code == 403


def test_a_token_expires_after_a_shift(api_client, role_user):
    role_user("accountant", username="acc")
    answer = _login(api_client, "acc", PASSWORD)
    assert answer.status_code == 200
    token = answer.json()["token"]
    expires = dt.datetime.fromisoformat(answer.json()["expires_at"])
    assert dt.timedelta(hours=7, minutes=59) < expires - timezone.now() <= dt.timedelta(hours=8)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/tables/").status_code == 200
    Token.objects.filter(key=token).update(created=timezone.now() - dt.timedelta(hours=8, seconds=1))
    expired = api_client.get("/api/v1/tables/")
    assert expired.status_code == 401 and "expired" in expired.json()["message"]
    api_client.credentials()
    fresh = _login(api_client, "acc", PASSWORD)
    assert fresh.status_code == 200 and fresh.json()["token"] != token


@override_settings(API_TOKEN_TTL=dt.timedelta(minutes=30))
def test_the_token_lifetime_is_configurable(api_client, role_user):
    role_user("accountant", username="acc2")
    answer = _login(api_client, "acc2", PASSWORD)
    expires = dt.datetime.fromisoformat(answer.json()["expires_at"])
    assert expires - timezone.now() <= dt.timedelta(minutes=30)


def test_a_password_change_revokes_the_token(api_client, role_user):
    user = role_user("croupier", username="c4")
    token = _login(api_client, "c4", PASSWORD).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/").status_code == 200
    user.set_password("a-brand-new-password-2026")
    user.save()
    assert api_client.get("/api/v1/").status_code == 401


def test_logging_out_revokes_the_token(api_client, role_user):
    role_user("croupier", username="c5")
    token = _login(api_client, "c5", PASSWORD).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.post("/api/v1/auth/logout/").status_code == 204
    assert api_client.get("/api/v1/").status_code == 401
    assert not Token.objects.filter(key=token).exists()


def test_a_wrong_password_is_a_readable_400(api_client, role_user):
    role_user("croupier", username="c6")
    answer = _login(api_client, "c6", "wrong")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_credentials"


@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_lockout_is_explained_in_german_too(api_client, role_user):
    role_user("croupier", username="c7")
    _fail(api_client, "c7", 2)
    answer = api_client.post(TOKEN_URL, {"username": "c7", "password": PASSWORD}, format="json",
                             REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert answer.status_code == 429 and "zu viele fehlgeschlagene Anmeldungen" in answer.json()["message"]
