"""A break test of main found language defects (issue 18); each is checked here in German and in English:

1. the 413 answer follows the request's language and writes the limit readably (2,5 MB / 2.5 MB);
2. a wrong card names the action in German too ("kann nicht Karten erhalten"), in every game;
3. a stale ``expected_seq`` names the event types in the reader's words ("Geben, Geben");
4. German dates read dd.mm.yyyy on the gaming-day pages, the signed PDF, the German CSV and the XLSX;
5. English dates read one unambiguous way ("30 Nov 2026"), the rotation page follows the language;
6. a count's shift is its label ("Spätschicht"), not the stored key;
7. DRF's German messages address the staff as "Sie", and a ``null`` body is answered in the reader's language;
8. the spread-limit picker refuses a negative or huge amount in EUR, as a person says it;
9. a folded seat is "ausgestiegen", as the glossary and the fold button say.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

import pytest
from django.conf import settings
from django.utils import translation
from openpyxl import load_workbook

from accounting.exports import tax_report_render
from accounting.services.drop import drop_count_record, shift_bounds
from accounting.services.reports import tax_report_build
from accounting.services.tronc import tronc_count_record
from casino.language import language_save
from tables.models import Hand, HandEvent
from tests.accounting.test_accounting_pages import DAY as PAGE_DAY
from tests.accounting.test_accounting_pages import URL as PAGE_URL
from tests.accounting.test_accounting_pages import dealt  # noqa: F401 - a day of hands at "Stud <1>", never closed
from tests.accounting.test_signed_report import DAY, _text, closed_day  # noqa: F401 - the closed day fixture
from tests.tables.hands_support import (
    CAPSA_CONFIG,
    FORTY_ONE_CONFIG,
    STUD_CONFIG,
    Terminal,
    croupier_on_duty,
    floor_manager,
    table_make,
)
from tests.tables.test_hands_bad_input import STUD_TO_BRING_IN, _stud_hand

pytestmark = pytest.mark.django_db

GERMAN, ENGLISH = "de-AT", "en"
DAY_URL = f"/accounting/days/{DAY.isoformat()}/"
#: English words of the engines' messages that never belong in a German one.
ENGLISH_WORDS = re.compile(r"\b(cannot|be|dealt|deal|cards?|seat|record|exposed|set|show|the|is|not|raise|bet|call|"
                           r"fold|check|post|declare|natural|royalty|time|out)\b")


# --- 1. the 413 answer -----------------------------------------------------------------------------------


def _too_large(client, path, **headers):
    body = json.dumps({"note": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)})
    return client.post(path, data=body, content_type="application/json", **headers)


@pytest.mark.parametrize("language, expected", [
    (ENGLISH, "the request is too large: at most 2.5 MB are accepted"),
    (GERMAN, "die Anfrage ist zu groß: höchstens 2,5 MB werden angenommen")])
def test_a_body_over_the_limit_is_refused_in_the_requests_language(client, language, expected):
    api = _too_large(client, "/api/v1/hands/1/events/", HTTP_ACCEPT_LANGUAGE=language)
    assert api.status_code == 413
    assert api.json() == {"message": expected, "code": "request_too_large",
                          "extra": {"limit_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}}
    page = _too_large(client, "/accounts/login/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 413 and page.content.decode() == expected


def test_a_token_call_without_a_language_gets_the_413_in_the_users_saved_language(client, role_user):
    from casino.auth import token_issue

    user = role_user("croupier", username="c-413")
    language_save(user=user, language="en")
    token = token_issue(user=user)
    answer = _too_large(client, "/api/v1/hands/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert answer.json()["message"] == "the request is too large: at most 2.5 MB are accepted"
    german = _too_large(client, "/api/v1/hands/", HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE=GERMAN)
    assert german.json()["message"].startswith("die Anfrage ist zu groß")


def test_byte_limits_read_as_a_person_reads_them():
    from casino.i18n import format_bytes

    with translation.override("de-at"):
        assert [format_bytes(n) for n in (2_621_440, 10 * 1024 * 1024, 1536, 100)] == [
            "2,5 MB", "10 MB", "1,5 KB", "100 Bytes"]
        assert format_bytes(2_621_439) == "2,49 MB"  # rounded down: never more than is accepted
    with translation.override("en"):
        assert [format_bytes(n) for n in (2_621_440, 1536, 100)] == ["2.5 MB", "1.5 KB", "100 bytes"]


# --- 2. a wrong card -------------------------------------------------------------------------------------

#: Per game: stacks, the events before the deal, the limits, the deal with CARD in it, the German action.
BAD_CARD_DEALS = {
    "seven_card_stud": ({1: 10000, 3: 10000, 5: 10000}, STUD_TO_BRING_IN[:3], None,
                        {"type": "deal", "seat": 3, "cards": "9s 9c CARD"}, "Platz 3 kann nicht Karten erhalten: "),
    "razz": ({1: 10000, 3: 10000}, [{"type": "ante", "seat": 1}, {"type": "ante", "seat": 3}], STUD_CONFIG,
             {"type": "deal", "seat": 1, "cards": "CARD 2c 3c"}, "Platz 1 kann nicht Karten erhalten: "),
    "forty_one": ({1: 10000, 2: 10000, 4: 10000}, [{"type": "ante", "seat": 1}, {"type": "ante", "seat": 2},
                                                   {"type": "ante", "seat": 4}, {"type": "blind", "seat": 1}],
                  FORTY_ONE_CONFIG, {"type": "deal", "seat": 2, "cards": "CARD Ah"}, "Platz 2: "),
    "capsa_susun": ({1: 10000, 2: 10000}, [], CAPSA_CONFIG,
                    {"type": "deal", "seat": 1, "cards": "CARD 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"}, "Platz 1, Geben: "),
}


@pytest.mark.parametrize("game", list(BAD_CARD_DEALS))
def test_a_wrong_card_is_refused_in_whole_german_and_whole_english(api_client, game):
    stacks, prefix, config, deal, german_head = BAD_CARD_DEALS[game]
    table = table_make(game=game, **({"config": config} if config else {}))
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, stacks).json()["id"]
    terminal.play(hand_id, prefix)
    for card in ("Xx", "1s"):
        event = {**deal, "cards": deal["cards"].replace("CARD", card)}
        api_client.credentials(HTTP_ACCEPT_LANGUAGE=GERMAN)
        german = terminal.post(hand_id, event, seq=len(prefix)).json()
        assert german["code"] == "invalid_card", german
        assert german["message"].startswith(german_head) and f"'{card}' ist keine Karte" in german["message"], german
        assert not ENGLISH_WORDS.search(german["message"].replace(f"'{card}'", "")), german["message"]
        api_client.credentials(HTTP_ACCEPT_LANGUAGE=ENGLISH)
        english = terminal.post(hand_id, event, seq=len(prefix)).json()
        assert f"'{card}' is not a card" in english["message"] and english["code"] == german["code"]
    assert HandEvent.objects.filter(hand_id=hand_id).count() == len(prefix)


def test_a_negative_ante_names_its_action_and_the_amount_in_german():
    from casino.i18n import message_text
    from rules.engines.errors import RuleViolation
    from rules.registry import get_engine

    stud = get_engine("seven_card_stud")
    config = stud.build_config(STUD_CONFIG)
    state = stud.new_hand(config, {1: 10000, 3: 10000}, button=1)
    with pytest.raises(RuleViolation) as negative:
        stud.apply(state, {"type": "ante", "seat": 1, "amount": -500})
    with translation.override("de-at"):
        assert message_text(negative.value.message).startswith(
            "Platz 1 kann nicht ein Ante setzen: 'amount' darf nicht negativ sein, erhalten: -5,00")


# --- 3. a stale expected_seq -----------------------------------------------------------------------------


def test_a_stale_sequence_names_the_event_types_in_the_readers_words(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    number = Hand.objects.get(pk=hand_id).number
    api_client.credentials(HTTP_ACCEPT_LANGUAGE=GERMAN)
    german = terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq - 3).json()["message"]
    assert f"Ereignisse {seq - 2}-{seq} (Geben, Geben, Geben) wurden bereits" in german, german
    assert "deal" not in german
    assert terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq).status_code == 201
    one = terminal.post(hand_id, {"type": "fold", "seat": 1}, seq=seq).json()["message"]
    assert f"Spiel Nr. {number} (ID {hand_id})" in one and f"Ereignis {seq + 1} (Bring-in) wurde bereits" in one, one
    api_client.credentials(HTTP_ACCEPT_LANGUAGE=ENGLISH)
    english = terminal.post(hand_id, {"type": "fold", "seat": 1}, seq=seq - 3).json()["message"]
    assert f"events {seq - 2}-{seq + 1} (deal, deal, deal, bring_in) were logged" in english, english


# --- 4. and 5. dates -------------------------------------------------------------------------------------


def test_the_gaming_day_page_and_list_read_german_dates(client, closed_day):  # noqa: F811
    client.force_login(closed_day.closed_by)
    page = client.get(DAY_URL, HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    assert "<title>Spieltag 24.10.2026" in page and "Spieltag 24.10.2026 <span" in page
    assert "24.10.2026 06:00 CEST – 25.10.2026 06:00 CET" in page  # the autumn clock change: 25 hours
    assert re.search(r"von bernd am \d\d\.\d\d\.\d{4} \d\d:\d\d CES?T", page), page
    assert "2026-10-24" not in page.replace("/2026-10-24/", "")  # ISO in the URLs only


def test_the_gaming_day_list_reads_the_languages_dates(client, role_user, dealt):  # noqa: F811
    client.force_login(role_user("accountant"))
    german = client.get("/accounting/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    english = client.get("/accounting/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert "<td>Mo 04.05.2026" in german and "<td>Mon 4 May 2026" in english


def test_the_gaming_day_page_reads_one_english_date_form(client, closed_day):  # noqa: F811
    client.force_login(closed_day.closed_by)
    page = client.get(DAY_URL, HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert "Gaming day 24 Oct 2026 <span" in page
    assert "24 Oct 2026 06:00 CEST – 25 Oct 2026 06:00 CET" in page
    assert re.search(r"by bernd at \d{1,2} \w{3} \d{4} \d\d:\d\d CES?T", page)
    assert "10/24/2026" not in page and "p.m." not in page


def test_the_signed_pdf_reads_german_and_english_dates(closed_day):  # noqa: F811
    report = tax_report_build(date_from=DAY, date_to=DAY)
    report.generated_by = "anna"
    with translation.override("de-at"):
        german, _pages = _text(tax_report_render(report, "pdf"))
    assert "Spieltag 24.10.2026: 24.10.2026 06:00 CEST bis 25.10.2026 06:00 CET" in german, german
    assert re.search(r"Erstellt von anna am \d\d\.\d\d\.\d{4} \d\d:\d\d CES?T", german)
    assert re.search(r"Abgeschlossen von bernd am \d\d\.\d\d\.\d{4} \d\d:\d\d", german), german
    assert not re.search(r"\d{4}-\d\d-\d\d", german)
    with translation.override("en"):
        english, _pages = _text(tax_report_render(report, "pdf"))
    assert "Gaming day 24 Oct 2026: 24 Oct 2026 06:00 CEST to 25 Oct 2026 06:00 CET" in english, english
    assert not re.search(r"\d{4}-\d\d-\d\d|\d\d/\d\d/\d{4}", english)


def test_the_spreadsheets_read_the_readers_dates_and_the_machine_csv_stays_iso(closed_day):  # noqa: F811
    report = tax_report_build(date_from=DAY, date_to=DAY)
    with translation.override("de-at"):
        excel = tax_report_render(report, "csv", form="excel_de").decode("utf-8-sig")
        german_book = load_workbook(io.BytesIO(tax_report_render(report, "xlsx")))
    rows = list(csv.reader(io.StringIO(excel), delimiter=";"))
    assert {r[1] for r in rows[1:] if r and r[0] in ("Zeile", "Tagessumme")} == {"24.10.2026"}
    assert {r[1] for r in rows if r and r[0] == "Tronc" and r[1] != "Spieltag"} == {"24.10.2026"}
    sheet = german_book["Steuerbericht"]
    assert sheet["B3"].value.date() == DAY and sheet["B3"].number_format == "dd.mm.yyyy"
    assert german_book["Tronc"]["A2"].number_format == "dd.mm.yyyy"
    with translation.override("en"):
        english_book = load_workbook(io.BytesIO(tax_report_render(report, "xlsx")))
        machine = tax_report_render(report, "csv", form="machine").decode()
    english = english_book["Tax report"]
    assert english["A1"].value == "Tax report, gaming days 24 Oct 2026 to 24 Oct 2026"
    assert english["B3"].number_format == "d mmm yyyy"
    assert "2026-10-24" in machine.splitlines()[1]  # programs read ISO 8601 (accounting/exports.py)


def test_closing_a_day_too_early_names_it_in_the_readers_date(api_client, role_user):
    from django.utils import timezone

    from casino.gaming_day import gaming_day_of

    api_client.force_authenticate(role_user("accountant"))
    today = gaming_day_of(timezone.now())
    url = f"/api/v1/gaming-days/{today.isoformat()}/close/"
    english = api_client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE=ENGLISH).json()["message"]
    german = api_client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE=GERMAN).json()["message"]
    assert english.startswith(f"gaming day {today.day} {today:%b %Y} cannot be closed yet"), english
    assert german.startswith(f"Spieltag {today:%d.%m.%Y} ")


def test_the_rotation_page_writes_the_shift_start_the_languages_way(client):
    from zoneinfo import ZoneInfo

    from tables.models import Table
    from tables.services.floor import rotation_plan_generate
    from tests.factories import make_dealer
    from tests.factories import make_table as floor_table

    table = floor_table(status=Table.Status.OPEN, name="Stud rotation")
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert")]
    shift_start = dt.datetime(2026, 12, 1, 17, 0, tzinfo=dt.UTC)  # 18:00 in Vienna
    plan = rotation_plan_generate(name="Evening", shift_start=shift_start, shift_end=shift_start + dt.timedelta(hours=2),
                                  tables=[table], dealers=dealers)
    client.force_login(floor_manager("fm-rotation"))
    start = plan.shift_start.astimezone(ZoneInfo(settings.TIME_ZONE))
    german = client.get("/floor/rotation/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    english = client.get("/floor/rotation/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert f"{start:%d.%m.} {start:%H:%M}–" in german
    assert f"{start.day} {start:%b} {start:%H:%M}–" in english and f"{start:%d.%m.} {start:%H:%M}" not in english


# --- 6. shifts -------------------------------------------------------------------------------------------


def test_the_day_page_names_the_counts_shift_and_amount_in_the_page_language(client, role_user, dealt):  # noqa: F811
    from accounting.selectors import drop_logged

    table = dealt
    anna = role_user("accountant", username="anna-shift", is_staff=True)  # the admin lists too
    start, end = shift_bounds(gaming_day=PAGE_DAY, shift="late")
    logged = drop_logged(table_id=table.id, gaming_day=PAGE_DAY, start=start, end=end)
    drop_count_record(table=table, gaming_day=PAGE_DAY, shift="late", counted=f"{logged:.2f}", actor=anna)
    tronc_count_record(table=table, gaming_day=PAGE_DAY, shift="late", counted="1234.50", actor=anna)
    client.force_login(anna)
    for language, label, amount in ((GERMAN, "Spätschicht", "1.234,50"), (ENGLISH, "late shift", "1,234.50")):
        page = client.get(PAGE_URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        drops = page.split('id="drop"')[1].split("</table>")[0]
        troncs = page.split('id="tronc"')[1].split("</table>")[0]
        assert f"<td>{label}</td>" in drops and f"<td>{label}</td>" in troncs, language
        assert f'<td class="num">{amount}</td>' in troncs  # amounts grouped the page language's way
        for admin_list in ("/admin/accounting/dropcount/", "/admin/accounting/tronccount/"):
            listing = client.get(admin_list, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert f'class="field-shift_text">{label}</td>' in listing, (admin_list, language)
        assert "<td>late</td>" not in page


# --- 7. DRF's own messages -------------------------------------------------------------------------------


@pytest.mark.parametrize("body, german, english", [
    ({}, "table: Dieses Feld ist erforderlich.", "table: This field is required."),
    ({"table": None, "seats": []}, "table: Dieses Feld braucht einen Wert (nicht null).",
     "table: This field may not be null."),
    ({"table": "x", "seats": []}, "table: Falscher Typ: erwartet wird eine ID, erhalten: str.",
     "table: Incorrect type. Expected pk value, received str."),
])
def test_drf_field_messages_address_the_staff_as_sie(api_client, body, german, english):
    api_client.force_authenticate(croupier_on_duty(table_make(name="Stud drf")))
    for language, expected in ((GERMAN, german), (ENGLISH, english)):
        answer = api_client.post("/api/v1/hands/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 400 and expected in answer.json()["message"], answer.json()


def test_drf_length_and_choice_messages_in_the_sie_form(api_client):
    api_client.force_authenticate(floor_manager("fm-drf"))
    cases = [({"name": "x" * 200, "game": "seven_card_stud", "seats": 6},
              "Dieses Feld darf höchstens", "Ensure this field has no more than"),
             ({"name": "T drf", "game": "bingo", "seats": 6}, "„bingo“ ist keine der möglichen Auswahlen.",
              '"bingo" is not a valid choice.')]
    for body, german, english in cases:
        de = api_client.post("/api/v1/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE=GERMAN).json()["message"]
        en = api_client.post("/api/v1/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE=ENGLISH).json()["message"]
        assert german in de and "Stelle sicher" not in de, de
        assert english in en, en


@pytest.mark.parametrize("language, expected", [
    (GERMAN, "Keine Daten übermittelt: bitte den Inhalt der Anfrage als JSON-Objekt senden."),
    (ENGLISH, "No data provided: send the request body as a JSON object.")])
def test_a_null_body_is_answered_in_the_readers_language(api_client, language, expected):
    api_client.force_authenticate(floor_manager("fm-null"))
    answer = api_client.post("/api/v1/tables/", data="null", content_type="application/json",
                             HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400 and answer.json()["message"] == expected, answer.json()


def test_no_drf_german_text_in_the_du_form_is_left_without_the_houses_translation():
    """DRF's German catalogue says "Stelle sicher", "Gib ... ein", "Nutze", "Prüfe", "Lade": each such message
    has our own translation (the project catalogue comes first), which says none of it."""
    import gettext
    from pathlib import Path

    import rest_framework

    drf = gettext.GNUTranslations((Path(rest_framework.__file__).parent / "locale/de/LC_MESSAGES/django.mo").open("rb"))
    du = re.compile(r"\b(Stelle sicher|Gib|Nutze|Benutze|Prüfe|Lade|dein|deine|du)\b")
    with translation.override("de-at"):
        for msgid, msgstr in drf._catalog.items():
            if isinstance(msgid, str) and msgid and du.search(msgstr):
                ours = translation.gettext(msgid)
                assert ours != msgstr and not du.search(ours), (msgid, ours)
        # DRF's number messages (no field of ours sends them today: counts are StrictIntegerField) are ours too
        assert translation.gettext("A valid integer is required.") == "Erwartet wird eine ganze Zahl."
        assert translation.gettext("Ensure this value is less than or equal to {max_value}.") == (
            "Der Wert darf höchstens {max_value} sein.")


# --- 8. the spread-limit picker --------------------------------------------------------------------------


@pytest.fixture
def spread_hand(client):
    table = table_make(game="seven_card_stud", name="Stud spread 18", config={
        "limit_type": "spread", "spread_min": "10.00", "spread_max": "50.00", "ante": "1.00", "taxe_amount": "2.00"})
    client.force_login(croupier_on_duty(table, "spread-18"))
    data = {"seat_1": "1", "stack_1": "20000.00", "seat_3": "1", "stack_3": "20000.00"}
    client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true")
    hand = Hand.objects.get(table=table)
    for seq, event in enumerate([{"type": "ante", "seat": "1"}, {"type": "ante", "seat": "3"},
                                 {"type": "deal", "seat": "1", "card": ["??", "??", "3c"]},
                                 {"type": "deal", "seat": "3", "card": ["??", "??", "Kd"]},
                                 {"type": "bring_in", "seat": "1"}]):
        client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": f"s{seq}", "expected_seq": seq, **event},
                    HTTP_HX_REQUEST="true")
    assert hand.events.count() == 5
    return hand


def _pick(client, hand, cents, language):
    return client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": f"p{cents}{language}", "expected_seq": 5,
                       "type": "raise", "seat": "3", "to_cents": cents}, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize("cents, german, english", [
    ("-500", "Betrag: -5,00 ist negativ; den Betrag bitte ohne Vorzeichen eingeben.",
     "amount: -5.00 is negative; enter the amount without a sign."),
    ("99999999999999999999999", "Betrag: Der Betrag ist zu groß (höchstens 10.000.000,00).",
     "amount: The amount is too large (at most 10,000,000.00)."),
])
def test_the_spread_picker_refuses_a_bad_amount_as_a_person_says_it(client, spread_hand, cents, german, english):
    assert german in _pick(client, spread_hand, cents, GERMAN)
    assert english in _pick(client, spread_hand, cents, ENGLISH)
    assert spread_hand.events.count() == 5


def test_the_spread_picker_carries_the_languages_separators_for_its_moving_labels(client, spread_hand):
    """The picker's script writes the amount as it moves (tests/browser: ``12.345,00``) with these separators."""
    page = client.get(f"/croupier/tables/{spread_hand.table_id}/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    assert 'data-decimal="," data-group="."' in page
    page = client.get(f"/croupier/tables/{spread_hand.table_id}/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert 'data-decimal="." data-group=","' in page


# --- 9. the folded seat ----------------------------------------------------------------------------------


def test_a_folded_seat_reads_ausgestiegen_as_the_glossary_says(client):
    from pathlib import Path

    table = table_make(game="seven_card_stud", name="Stud fold 18")
    client.force_login(croupier_on_duty(table, "fold-18"))
    client.post(f"/croupier/tables/{table.pk}/hands/", {f"{k}_{s}": v for s in (1, 3, 5)
                                                        for k, v in (("seat", "1"), ("stack", "100.00"))},
                HTTP_HX_REQUEST="true")
    hand = Hand.objects.get(table=table)
    for seq, event in enumerate([{"type": "ante", "seat": "1"}, {"type": "ante", "seat": "3"}, {"type": "ante", "seat": "5"},
                                 {"type": "deal", "seat": "1", "card": ["??", "??", "3c"]},
                                 {"type": "deal", "seat": "3", "card": ["??", "??", "Kd"]},
                                 {"type": "deal", "seat": "5", "card": ["??", "??", "9h"]},
                                 {"type": "bring_in", "seat": "1"}, {"type": "fold", "seat": "3"}]):
        client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": f"f{seq}", "expected_seq": seq, **event},
                    HTTP_HX_REQUEST="true")
    german = client.get(f"/croupier/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    english = client.get(f"/croupier/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert '<div class="state">ausgestiegen</div>' in german and ">Aussteigen<" in german and "gepasst" not in german
    assert '<div class="state">folded</div>' in english and ">Fold<" in english
    glossary = (Path(settings.BASE_DIR) / "docs" / "glossary.md").read_text()
    assert "| folded (a seat's state on the felt) | ausgestiegen |" in glossary and "| fold | aussteigen |" in glossary
