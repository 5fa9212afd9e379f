"""Break-test findings 8, 9, 14, 18, 21, 23 and 4 (BREAKTEST.md): API and page messages whole and in the
reader's language; the betting buttons and the waiting list's buttons in the glossary's German."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.i18n import message_text
from rules.engines.errors import ConfigError
from rules.engines.money import config_cents
from tables.models import Hand, HandEvent
from tables.pages.croupier_view import _simple
from tables.services.waiting_list import waiting_list_add
from tests.casino.test_hostile_input import dealing  # noqa: F401  (the fixture)
from tests.tables.hands_support import croupier_on_duty, floor_manager, table_make

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, char, expected", [
    ("en", "\x01", "invisible or control character (U+0001) at position 2: use printable characters only"),
    ("de-AT", "\x01", "unsichtbares oder Steuerzeichen (U+0001) an Position 2: nur druckbare Zeichen verwenden"),
    # a null character no column can store: refused at the API's edge for every field (casino.api_input)
    ("en", "\x00", "idempotency_key holds a character that cannot be stored (U+0000 at position 2"),
    ("de-AT", "\x00", "idempotency_key enthält ein Zeichen, das nicht gespeichert werden kann (U+0000 an Position 2")])
def test_an_idempotency_key_with_a_control_character_names_it_and_its_position(api_client, dealing, language,  # noqa: F811
                                                                               char, expected):
    _terminal, hand_id = dealing
    body = {"idempotency_key": f"x{char}y", "expected_seq": 0, "event": {"type": "ante", "seat": 1}}
    answer = api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    assert expected in answer.json()["message"] and "%(" not in answer.json()["message"]
    assert not HandEvent.objects.exists()


def _raw_event(api_client, hand_id, event_json, language="en"):
    body = '{"idempotency_key": "k1", "expected_seq": 0, "event": ' + event_json + "}"
    return api_client.post(f"/api/v1/hands/{hand_id}/events/", data=body, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)


def test_an_amount_too_large_for_a_float_is_an_invalid_amount_naming_the_field(api_client, dealing):  # noqa: F811
    _terminal, hand_id = dealing
    answer = _raw_event(api_client, hand_id, '{"type": "bet", "seat": 1, "to": 1e309}')
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_amount"
    assert answer.json()["message"].startswith("event.to: inf is not an amount")
    batch = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", data='{"idempotency_key": "b1",'
                            ' "events": [{"type": "ante", "seat": 1, "to": -1e309}]}', content_type="application/json")
    assert batch.status_code == 400 and batch.json()["code"] == "invalid_amount", batch.content
    assert not HandEvent.objects.exists()


def test_a_seat_too_large_for_a_float_gets_the_seat_answer(api_client, dealing):  # noqa: F811
    _terminal, hand_id = dealing
    answer = _raw_event(api_client, hand_id, '{"type": "ante", "seat": 1e309}')
    assert answer.status_code == 400
    assert "seat" in answer.json()["message"] and "inf" in answer.json()["message"]
    assert "valid JSON" not in answer.json()["message"]
    assert not HandEvent.objects.exists()


def test_a_non_finite_number_elsewhere_in_the_event_is_still_refused(api_client, dealing):  # noqa: F811
    _terminal, hand_id = dealing
    answer = _raw_event(api_client, hand_id, '{"type": "ante", "seat": 1, "note": 1e309}')
    assert answer.status_code == 400
    assert not HandEvent.objects.exists()


@pytest.mark.parametrize("who, url, english, german", [
    ("croupier", "/api/v1/hands/{hand}/void/", "only a floor manager may do this", "nur ein Floor-Manager darf das"),
    ("floor", "/api/v1/reports/tax/?date_from=2026-05-04&date_to=2026-05-04", "only an accountant may do this", "nur die Buchhaltung darf das"),
])
def test_permission_refusals_speak_the_readers_language(api_client, dealing, who, url, english, german):  # noqa: F811
    _terminal, hand_id = dealing
    user = croupier_on_duty(table_make(name="Other"), "c-403") if who == "croupier" else floor_manager("fm-403")
    api_client.force_authenticate(user)
    send = api_client.post if "void" in url else api_client.get
    for language, expected in (("en", english), ("de-AT", german)):
        answer = send(url.format(hand=hand_id), HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 403
        assert answer.json()["message"] == expected


def test_the_betting_buttons_read_the_glossary_terms_and_capsas_check_stays_pruefen():
    with translation.override("de"):
        assert [_simple(kind, 1).label for kind in ("check", "fold", "call")] == ["Schieben", "Aussteigen", "Mitgehen"]
        assert translation.gettext("Check") == "Prüfen"  # Capsa: check the setting
    with translation.override("en"):
        assert [_simple(kind, 1).label for kind in ("check", "fold", "call")] == ["Check", "Fold", "Call"]


def test_the_waiting_list_buttons_call_and_seat_the_player_in_german(client):
    boss = floor_manager("boss-list")
    waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss)
    table_make(name="Stud list")
    client.force_login(boss)
    html = client.get("/floor/list/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert ">Aufrufen</button>" in html and ">Platzieren</button>" in html
    assert ">Mitgehen</button>" not in html


def test_next_hand_refusals_are_german_on_the_german_page(client):
    table = table_make(game="seven_card_stud", name="Stud 1")
    client.force_login(croupier_on_duty(table, "c-next"))

    def open_hand(stacks):
        data = {}
        for seat, stack in stacks.items():
            data[f"seat_{seat}"], data[f"stack_{seat}"] = "1", stack
        return client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()

    zero = open_hand({1: "0", 2: "100"})
    assert "Platz 1: der Stack muss größer als 0,00 sein" in zero and "must be more" not in zero
    alone = open_hand({1: "100"})
    assert "is dealt to" not in alone and "Spieler" in alone
    assert not Hand.objects.exists()


@pytest.mark.parametrize("language, expected", [
    ("en", "ante: '1,5' is not an amount; send a decimal string such as \"10.00\""),
    ("de", "ante: '1,5' ist kein Betrag; eine Dezimalzahl in Textform senden, z. B. \"10.00\"")])
def test_a_config_amount_refusal_is_translated_whole(language, expected):
    with pytest.raises(ConfigError) as refused:
        config_cents("1,5", "ante")
    assert str(refused.value) == "ante: '1,5' is not an amount; send a decimal string such as \"10.00\""
    with translation.override(language):
        assert message_text(refused.value.message) == expected


@pytest.mark.parametrize("language, one, three", [
    ("en", "Seat 2 pays seat 1 1 unit", "Seat 1 pays seat 2 3 units"),
    ("de", "Platz 2 zahlt Platz 1 1 Einheit", "Platz 1 zahlt Platz 2 3 Einheiten")])
def test_capsa_settlement_lines_say_one_unit_in_the_singular(language, one, three):
    from tables.pages.croupier_view import _pair_line

    with translation.override(language):
        assert _pair_line({"seats": [1, 2], "units": {"1": 1, "2": -1}}) == one
        assert _pair_line({"seats": [1, 2], "units": {"1": -3, "2": 3}}) == three
        assert _pair_line({"seats": [1, 2], "units": {"1": 0, "2": 0}}) is None
