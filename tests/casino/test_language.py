"""Which language the service answers in (casino/language.py): saved preference, Accept-Language, house default."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.language import SESSION_KEY, language_from_header, language_save
from casino.models import StaffPreference

NO_ROLE_DE = "Ihr Konto hat noch keine Rolle"
NO_ROLE_EN = "Your account has no role"
PASSWORD = "pw-for-tests-only"


def page(client: Client, **headers) -> str:
    response = client.get("/", **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@override_settings(LANGUAGE_CODE="de-at")
def test_without_preference_or_header_the_house_default_german_is_spoken(role_user):
    user = role_user(None, username="newbie")
    client = Client()
    client.force_login(user)
    text = page(client)
    assert NO_ROLE_DE in text and 'lang="de-at"' in text


@pytest.mark.django_db
def test_the_browser_language_is_used_until_the_user_saves_one(role_user):
    user = role_user(None, username="anna")
    client = Client()
    assert client.login(username="anna", password=PASSWORD)
    assert NO_ROLE_DE in page(client, HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9")
    assert NO_ROLE_EN in page(client, HTTP_ACCEPT_LANGUAGE="en-GB")
    assert not StaffPreference.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_the_language_switch_saves_the_choice_and_it_wins_over_the_browser(role_user):
    user = role_user(None, username="berta")
    client = Client()
    assert client.login(username="berta", password=PASSWORD)
    response = client.post("/i18n/setlang/", {"language": "de-at", "next": "/"})
    assert response.status_code == 302
    assert StaffPreference.objects.get(user=user).language == "de-at"
    assert NO_ROLE_DE in page(client, HTTP_ACCEPT_LANGUAGE="en")
    # A new session (another terminal, no cookie) starts in the saved language at login.
    other = Client()
    assert other.login(username="berta", password=PASSWORD)
    assert other.session[SESSION_KEY] == "de-at"
    assert NO_ROLE_DE in page(other, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.django_db
def test_the_switch_refuses_nothing_and_saves_nothing_for_an_unknown_language(role_user):
    user = role_user(None, username="carla")
    client = Client()
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "tlh", "next": "/"})
    assert not StaffPreference.objects.filter(user=user).exists()
    with pytest.raises(ValueError):
        language_save(user=user, language="tlh")


@pytest.mark.django_db
def test_api_accept_language_wins_else_the_token_users_saved_language(role_user):
    user = role_user("croupier", username="dora")
    language_save(user=user, language="de-at")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    german = client.get("/api/v1/hands/999999/")
    assert german.status_code == 404 and german["Content-Language"] == "de-at"
    english = client.get("/api/v1/hands/999999/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 404 and english["Content-Language"] == "en"
    assert german.json()["code"] == english.json()["code"] == "not_found"
    assert german.json()["message"] != english.json()["message"]
    assert set(german.json()) == set(english.json()) == {"message", "code", "extra"}


@pytest.mark.django_db
def test_a_bad_token_is_refused_in_the_asked_language():
    client = APIClient(HTTP_ACCEPT_LANGUAGE="de-AT")
    client.credentials(HTTP_AUTHORIZATION="Token nope")
    response = client.get("/api/v1/hands/")
    assert response.status_code == 401
    assert response.json() == {"message": "Ungültiges Token.", "code": "authentication_failed", "extra": {}}


@pytest.mark.django_db
def test_an_unknown_url_answers_in_the_asked_language():
    response = Client().get("/nowhere/", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert response.status_code == 404
    assert response.json() == {"message": "keine solche Seite: /nowhere/", "code": "not_found", "extra": {}}


@pytest.mark.parametrize("header, language", [
    ("de-AT", "de-at"), ("de", "de-at"), ("de-DE,en;q=0.5", "de-at"), ("en-US", "en"), ("fr, en;q=0.8", "en"),
    ("fr", None), ("", None), ("*", None),
])
def test_accept_language_header_maps_to_the_offered_languages(rf, header, language):
    assert language_from_header(rf.get("/", HTTP_ACCEPT_LANGUAGE=header)) == language


@pytest.mark.django_db
def test_admin_audit_rows_show_stored_utc_times_in_the_card_rooms_time_zone(django_user_model):
    from casino.models import AuditEntry

    AuditEntry.objects.create(subject="tables.table", subject_id="1", action="limits_changed",
                              data={"effective_from": "2026-06-01T10:00:00+00:00", "version": 2})
    admin = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    client.force_login(admin)
    german = client.get("/admin/casino/auditentry/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "effective_from: 01.06.2026 12:00" in german and "version: 2" in german  # Vienna summer time, German
    assert "10:00:00+00:00" not in german and "Protokolleinträge" in german
    english = client.get("/admin/casino/auditentry/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "effective_from: 1 Jun 2026 12:00" in english  # casino/formats/en: day month year, 24 hours
