"""Oversized and ambiguous input (issue 20): 413 with a readable message for any body over the limit, on
every path and without logging in; every string field bounded in the API and the database; refused: a
JSON key sent twice, cards sent as integers, unknown top-level keys, form-encoded bodies on JSON endpoints,
idempotency keys with control, bidirectional or zero-width characters."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from tables.models import HandEvent
from tests.tables.hands_support import Terminal, croupier_on_duty, floor_manager, table_make

pytestmark = pytest.mark.django_db

OVER = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1


def _big_json() -> str:
    return json.dumps({"username": "x", "password": "y" * OVER})


@pytest.mark.parametrize("url", ["/api/v1/auth/token/", "/api/v1/hands/", "/api/v1/rules/showdown/",
                                 "/admin/login/", "/accounts/login/", "/api/v1/no-such-thing/"])
def test_a_body_over_the_limit_is_a_readable_413_everywhere_even_anonymously(client, url):
    answer = client.post(url, data=_big_json(), content_type="application/json")
    assert answer.status_code == 413, answer.content[:200]
    body = answer.content.decode()
    assert "too large: at most 2.5 MB" in body  # the limit as a person reads it (issue 18)
    if url.startswith("/api/"):
        assert answer.json()["extra"]["limit_bytes"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if url.startswith("/api/"):
        assert answer.json()["code"] == "request_too_large"


def test_a_logged_in_croupier_gets_413_too(api_client):
    table = table_make()
    api_client.force_authenticate(croupier_on_duty(table))
    answer = api_client.post("/api/v1/hands/", data=_big_json(), content_type="application/json")
    assert answer.status_code == 413 and answer.json()["code"] == "request_too_large"


def test_a_body_just_under_the_limit_is_read_normally(client):
    body = json.dumps({"username": "x", "password": "y" * 1000})
    answer = client.post("/api/v1/auth/token/", data=body, content_type="application/json")
    assert answer.status_code == 400  # a wrong password, not a size problem


def test_a_form_encoded_body_too_large_for_django_is_413_not_500(client):
    answer = client.post("/api/v1/auth/token/", data="a=" + "b" * OVER,
                         content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 413


# --- ambiguous JSON -------------------------------------------------------------------------------------


@pytest.fixture
def dealing(api_client):
    table = table_make()
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000}).json()["id"]
    return terminal, hand_id


def test_a_json_key_sent_twice_is_refused(api_client, dealing):
    _terminal, hand_id = dealing
    body = ('{"idempotency_key": "k1", "expected_seq": 0, "event": {"type": "ante", "seat": 1, "seat": 3}}')
    answer = api_client.post(f"/api/v1/hands/{hand_id}/events/", data=body, content_type="application/json")
    assert answer.status_code == 400
    assert "seat" in answer.json()["message"] and "twice" in answer.json()["message"]
    assert not HandEvent.objects.exists()


def test_a_top_level_key_sent_twice_is_refused(client):
    body = '{"username": "a", "username": "b", "password": "x"}'
    answer = client.post("/api/v1/auth/token/", data=body, content_type="application/json")
    assert answer.status_code == 400 and "twice" in answer.json()["message"]


@pytest.mark.parametrize("cards", [12, [1, 2, 3], ["Ks", 13, "3c"], True])
def test_cards_sent_as_integers_are_refused_and_nothing_is_stored(dealing, cards):
    terminal, hand_id = dealing
    for seq, seat in enumerate((1, 3)):
        assert terminal.post(hand_id, {"type": "ante", "seat": seat}, seq=seq).status_code == 201
    answer = terminal.post(hand_id, {"type": "deal", "seat": 1, "cards": cards}, seq=2)
    assert answer.status_code == 400
    assert "cards" in answer.json()["message"] and "text" in answer.json()["message"]
    assert HandEvent.objects.count() == 2


def test_cards_as_a_list_of_card_names_still_work(dealing):
    terminal, hand_id = dealing
    for seq, seat in enumerate((1, 3)):
        terminal.post(hand_id, {"type": "ante", "seat": seat}, seq=seq)
    answer = terminal.post(hand_id, {"type": "deal", "seat": 1, "cards": ["Ks", "Kd", "3c"]}, seq=2)
    assert answer.status_code == 201, answer.json()


@pytest.mark.parametrize("url, body", [
    ("/api/v1/auth/token/", {"username": "a", "password": "b", "admin": True}),
    ("/api/v1/hands/{hand}/events/", {"idempotency_key": "k9", "expected_seq": 0,
                                      "event": {"type": "ante", "seat": 1}, "force": True}),
    ("/api/v1/hands/{hand}/void/", {"reason": "spilled drink", "refund": "all"}),
    ("/api/v1/rules/showdown/", {"game": "seven_card_stud", "hands": {"1": "As Ks Qs Js Ts"}, "rake": 0}),
])
def test_unknown_top_level_keys_are_refused_by_name(api_client, dealing, url, body):
    _terminal, hand_id = dealing
    api_client.force_authenticate(floor_manager("fm"))
    answer = api_client.post(url.format(hand=hand_id), body, format="json")
    assert answer.status_code == 400, answer.json()
    unknown = (set(body) - {"username", "password", "idempotency_key", "expected_seq", "event", "reason", "game",
                            "hands"}).pop()
    assert unknown in answer.json()["message"] and "unknown" in answer.json()["message"]
    assert not HandEvent.objects.exists()


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_form_encoded_bodies_are_refused_on_json_endpoints(client, content_type):
    body = "username=a&password=b" if "urlencoded" in content_type else (
        '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\na\r\n--x--\r\n')
    answer = client.post("/api/v1/auth/token/", data=body, content_type=content_type)
    assert answer.status_code == 415
    assert "application/json" in answer.json()["message"]


@pytest.mark.parametrize("key", ["key\x00", "key\x1b[2J", "ab\u202ecd", "a\u200bb", "\ufeffkey", "a\u2066b",
                                 "line\nbreak"])
def test_idempotency_keys_with_control_bidi_or_zero_width_characters_are_refused(dealing, key):
    terminal, hand_id = dealing
    answer = terminal.post(hand_id, {"type": "ante", "seat": 1}, seq=0, key=key)
    assert answer.status_code == 400, answer.json()
    assert "idempotency_key" in answer.json()["message"]
    assert not HandEvent.objects.exists()


def test_a_plain_unicode_idempotency_key_is_fine(dealing):
    terminal, hand_id = dealing
    assert terminal.post(hand_id, {"type": "ante", "seat": 1}, seq=0, key="tisch-3/hand-7/öäü").status_code == 201


# --- string lengths ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("url, field", [("/api/v1/hands/{hand}/void/", "reason"),
                                        ("/api/v1/limit-change-requests/", "note")])
def test_long_strings_are_refused_by_the_api(api_client, dealing, url, field):
    _terminal, hand_id = dealing
    api_client.force_authenticate(floor_manager("fm"))
    answer = api_client.post(url.format(hand=hand_id), {field: "x" * 5000}, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["message"]


def test_every_text_column_is_bounded_in_the_database():
    from django.apps import apps
    from django.db import models

    unbounded = []
    for model in [m for app in ("tables", "accounting", "casino") for m in apps.get_app_config(app).get_models()]:
        for field in model._meta.get_fields():
            if isinstance(field, models.TextField):
                checked = any(field.name in str(getattr(c, "condition", "")) for c in model._meta.constraints)
                if not checked:
                    unbounded.append(f"{model.__name__}.{field.name}")
    assert unbounded == []


def test_the_database_refuses_an_oversized_text_written_behind_the_api():
    from django.db import IntegrityError, transaction

    from tables.models import Hand

    table = table_make()
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=99, game=table.game, button_seat=1,
                            limit_profile=table.limit_profiles.first(), limit_snapshot={}, seats={},
                            void_reason="x" * 5000)
