"""The skeleton: health, JSON errors everywhere, roles, auth, schema, the Celery round trip."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command

from casino.roles import ROLES

pytestmark = pytest.mark.django_db


def test_health_reports_database_and_broker_without_auth(api_client):
    response = api_client.get("/api/v1/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] == ("postgresql" if "postgresql" in settings.DATABASES["default"]["ENGINE"] else "sqlite")
    assert body["broker"]["kind"] == ("redis" if settings.REDIS_URL else "eager")


def test_roles_exist_after_migrations():
    assert set(Group.objects.filter(name__in=ROLES).values_list("name", flat=True)) == set(ROLES)


def test_unknown_url_is_a_json_404(api_client):
    response = api_client.get("/api/v1/no-such-thing/")
    assert api_client.get("/nowhere").json()["code"] == "not_found"
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "no such page" in response.json()["message"]


def test_unauthenticated_call_is_a_json_401(api_client):
    response = api_client.get("/api/v1/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert response.json()["message"]
    assert response.json()["code"] == "not_authenticated"


def test_malformed_json_is_a_readable_400(api_client, role_user):
    api_client.force_authenticate(role_user("croupier"))
    response = api_client.post("/api/v1/rules/showdown/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["message"]


def test_token_authentication_works(api_client, role_user):
    role_user("accountant", username="acc")
    response = api_client.post("/api/v1/auth/token/", {"username": "acc", "password": "pw-for-tests-only"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/").status_code == 200


def test_openapi_schema_and_docs_are_served(api_client, role_user):
    api_client.force_authenticate(role_user("floor_manager"))
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/health/" in schema.json()["paths"]
    docs = api_client.get("/api/v1/docs/")
    assert docs.status_code == 200


def test_seed_demo_is_idempotent(django_user_model, capsys):
    call_command("seed_demo", "--allow-without-debug")
    first = django_user_model.objects.count()
    call_command("seed_demo", "--allow-without-debug")
    assert django_user_model.objects.count() == first
    out = capsys.readouterr().out
    assert "password" in out
    for username, role in (("floor", "floor_manager"), ("croupier", "croupier"), ("accountant", "accountant")):
        assert django_user_model.objects.get(username=username).groups.filter(name=role).exists()


def test_a_task_makes_the_round_trip_through_the_broker(live_worker):
    from casino.tasks import ping

    result = ping.delay("table-7")
    assert result.get(timeout=30) == "pong:table-7"
    if settings.REDIS_URL:
        assert live_worker is not None  # a real worker thread on Redis answered


def test_deeply_nested_json_is_a_400_not_a_500(api_client, role_user):
    api_client.force_authenticate(role_user("floor_manager"))
    body = "[" * 100_000 + "]" * 100_000
    response = api_client.post("/api/v1/tables/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"]
