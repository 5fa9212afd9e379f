"""Service and API messages read wholly in the reader's language (issue 18, break-test findings).

* A status inside a message is its model choice's label ("Tisch ... ist geschlossen", not "closed"; a table
  is geschlossen, a hand or a gaming day abgeschlossen).
* A gaming day inside a message is a date in the language's format (``03.12.2026``), not ISO.
* Event types inside messages are the action words ("mitgehen", not "call"); lists join with "oder".
* Bad requests under ``Accept-Language: de-AT`` answer in German with the same code as in English;
  ``"to": null`` is an ``invalid_amount`` naming the field.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_of
from casino.i18n import local_date_text, message_text
from casino.models import AuditEntry
from rules.engines.errors import RuleViolation
from rules.engines.phh import loads_phh
from tables.models import Table
from tests.rules.test_stud_croupier_errors import bring_in_posted
from tests.rules.test_stud_engine_support import c
from tests.tables.hands_support import Terminal, croupier_on_duty, table_make

STUD_TO_BRING_IN = [
    {"type": "ante", "seat": 1}, {"type": "ante", "seat": 3}, {"type": "ante", "seat": 5},
    {"type": "deal", "seat": 3, "cards": "9s 9c 8d"}, {"type": "deal", "seat": 5, "cards": "3d 3h 3c"},
    {"type": "deal", "seat": 1, "cards": "As Kc Qs"}, {"type": "bring_in", "seat": 5},
]


def _in(language: str, message: str) -> str:
    with translation.override(language):
        return message_text(message)


def _error(call) -> ApplicationError:
    with pytest.raises(ApplicationError) as info:
        call()
    return info.value


@pytest.mark.django_db
def test_a_status_in_a_message_reads_as_the_status_label_of_the_language():
    from tables.services.floor import table_pause
    from tests.factories import make_table

    table = make_table(name="Stud 7")
    err = _error(lambda: table_pause(table=table))
    german, english = _in("de-at", err.message), _in("en", err.message)
    assert english == str(err.message)
    assert "cannot go from closed to paused; from closed it may go to open" in english
    assert "„Stud 7“ kann nicht von geschlossen zu pausiert wechseln" in german
    assert "von geschlossen aus ist nur offen möglich" in german
    assert "closed" not in german and "paused" not in german


@pytest.mark.django_db
def test_a_hand_at_a_closed_table_is_refused_in_german_with_the_status_label(api_client):
    table = table_make(status=Table.Status.CLOSED, name="Stud 8")
    terminal = Terminal(api_client, croupier_on_duty(table))
    api_client.credentials(HTTP_ACCEPT_LANGUAGE="de-AT")
    response = terminal.open(table, {1: 10000, 3: 10000})
    assert response.status_code == 400 and response.json()["code"] == "table_not_open"
    message = response.json()["message"]
    assert "Tisch „Stud 8“ ist geschlossen" in message and "closed" not in message


@pytest.mark.django_db
def test_a_gaming_day_in_a_message_is_a_date_in_the_readers_format():
    from accounting.services.drop import drop_count_record

    table = table_make(name="Stud 9")
    tomorrow = gaming_day_of(timezone.now()) + dt.timedelta(days=1)
    err = _error(lambda: drop_count_record(table=table, gaming_day=tomorrow, counted="10.00", actor=None))
    assert err.code == "gaming_day_not_started"
    german, english = _in("de-at", err.message), _in("en", err.message)
    assert f"Spieltag {tomorrow:%d.%m.%Y} hat noch nicht begonnen" in german
    assert f"gaming day {tomorrow.day} {tomorrow:%b %Y} has not started yet" in english  # one form, not US 12/03
    assert tomorrow.isoformat() not in german and tomorrow.isoformat() not in english
    with translation.override("de-at"):
        assert local_date_text(dt.date(2026, 12, 3)) == "03.12.2026"


def test_event_types_in_engine_messages_are_the_languages_action_words():
    with pytest.raises(RuleViolation) as info:
        bring_in_posted().ev({"type": "call", "seat": 4, "to": c(99)})
    german = _in("de-at", info.value.message)
    assert "Platz 4 kann nicht mitgehen" in german and "„Mitgehen“" in german and "call" not in german
    assert "the call event does not take 'to'" in _in("en", info.value.message)  # English names the event type


def test_the_phh_variant_list_joins_with_the_languages_or():
    with pytest.raises(RuleViolation) as info:
        loads_phh("variant = 'NT'\n", name="h1.phh")
    german, english = _in("de-at", info.value.message), _in("en", info.value.message)
    assert "Seven Card Stud, Razz or Seven Card Stud Hi-Lo" in english
    assert "Seven Card Stud, Razz oder Seven Card Stud Hi-Lo" in german and " or " not in german


@pytest.mark.django_db
def test_a_null_amount_is_an_invalid_amount_in_either_language(api_client):
    table = table_make()
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    for seq, event in enumerate(STUD_TO_BRING_IN):
        assert terminal.post(hand_id, event, seq=seq).status_code == 201
    bad = {"type": "complete", "seat": 1, "to": None}
    english = terminal.post(hand_id, bad, seq=len(STUD_TO_BRING_IN)).json()
    api_client.credentials(HTTP_ACCEPT_LANGUAGE="de-AT")
    german = terminal.post(hand_id, bad, seq=len(STUD_TO_BRING_IN)).json()
    assert english["code"] == german["code"] == "invalid_amount"
    assert english["extra"]["field"] == german["extra"]["field"] == "to"
    assert "event.to: null is not an amount" in english["message"]
    assert "event.to: null ist kein Betrag" in german["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "body", "content_type", "status", "code", "german"), [
    ("post", "/api/v1/rules/showdown/", "{bad", "application/json", 400, "parse_error", "kein gültiges JSON"),
    ("post", "/api/v1/rules/showdown/", "x", "text/plain", 415, "unsupported_media_type", "als JSON senden"),
    ("delete", "/api/v1/rules/showdown/", None, None, 405, "method_not_allowed", "nicht erlaubt"),
    ("get", "/api/v1/hands/999999/", None, None, 404, "not_found", "Nicht gefunden"),
    ("get", "/api/v1/no-such-thing/", None, None, 404, "not_found", "keine solche Seite"),
])
def test_request_errors_answer_in_german_with_the_same_code(api_client, role_user, method, path, body,
                                                           content_type, status, code, german):
    api_client.force_authenticate(role_user("croupier"))
    kwargs = {"data": body, "content_type": content_type} if body is not None else {}
    english = getattr(api_client, method)(path, HTTP_ACCEPT_LANGUAGE="en", **kwargs)
    answer = getattr(api_client, method)(path, HTTP_ACCEPT_LANGUAGE="de-AT", **kwargs)
    assert english.status_code == answer.status_code == status
    assert english.json()["code"] == answer.json()["code"] == code
    assert german in answer.json()["message"], answer.json()
    assert answer.json()["message"] != english.json()["message"]


@pytest.mark.django_db
def test_a_showdown_error_and_the_hand_descriptions_answer_in_german(api_client, role_user):
    api_client.force_authenticate(role_user("croupier"))
    api_client.credentials(HTTP_ACCEPT_LANGUAGE="de-AT")
    twice = {"game": "seven_card_stud", "hands": {"1": "As 2d 3c 4h 9s Kd 5s", "2": "As 3s 4d 5c 6h Qc 9c"}}
    response = api_client.post("/api/v1/rules/showdown/", twice, format="json")
    assert response.status_code == 400 and response.json()["code"] == "duplicate_card"
    assert response.json()["message"] == "Karte As kommt doppelt vor: Platz 1 und Platz 2"
    hands = {"game": "seven_card_stud", "hands": {"1": "Kd Ks 5c 5h As 2d 3c", "2": "Qh Qs Qd 9c 9h 2s 4c"}}
    response = api_client.post("/api/v1/rules/showdown/", hands, format="json")
    assert response.status_code == 200
    seats = response.json()["seats"]
    assert seats["1"]["description"] == "Zwei Paare, Könige und Fünfer, Kicker Ass"
    assert seats["2"]["description"] == "Full House, Damen über Neuner"
    assert seats["2"]["category"] == "full_house"  # codes stay the same in every language


@pytest.mark.parametrize(("cards", "english", "german"), [
    ("Kd Ks 5c 5h As 2d 3c", "Two pair, kings and fives, ace kicker", "Zwei Paare, Könige und Fünfer, Kicker Ass"),
    ("Qh Qs Qd 9c 9h 2s 4c", "Full house, queens full of nines", "Full House, Damen über Neuner"),
    ("Ah Kh Qh Jh Th 2s 4c", "Royal flush", "Royal Flush"),
    ("5d 4c 3h 2s Ad 9c Kh", "Straight, five high", "Straight, Fünf hoch"),
    ("Ad Kd 9d 5d 3d 2s 4c", "Flush, ace high (A-K-9-5-3)", "Flush, Ass hoch (A-K-9-5-3)"),
    ("7c 7d 7h 7s Kd 2s 4c", "Four of a kind, sevens, king kicker", "Vierling, Siebener, Kicker König"),
    ("Ac Kd 9h 7s 5d 3s 2c", "High card, ace (A-K-9-7-5)", "High Card, Ass (A-K-9-7-5)"),
])
def test_stud_hand_descriptions_read_in_the_readers_language(cards, english, german):
    from rules.engines.cards import parse_cards
    from rules.engines.evaluators.stud import evaluate_stud

    description = evaluate_stud(parse_cards(cards)).description
    assert str(description) == english
    assert _in("de-at", description) == german
    assert _in("en", description) == english


def test_capsa_rows_naturals_and_fouls_read_in_the_readers_language():
    from rules.engines.cards import parse_cards
    from rules.engines.evaluators.capsa import NATURAL_NAMES, describe_key, evaluate_five, setting_foul

    full = describe_key(evaluate_five([int(c) for c in parse_cards("9c 9d 9h Qs Qd")]))
    assert str(full) == "Full house, Nines full of Queens"
    assert _in("de-at", full) == "Full House, Neuner über Damen"
    foul = setting_foul([int(c) for c in parse_cards("Ac Ad Ah")], [int(c) for c in parse_cards("2c 3d 5h 8s Td")],
                        [int(c) for c in parse_cards("Kc Kd 4h 6s 9d")])
    assert str(foul).startswith("the front (Three Aces) beats the middle")
    assert _in("de-at", foul).startswith("die vordere Reihe (Drilling Asse) schlägt die mittlere (High Card")
    assert [_in("de-at", NATURAL_NAMES[n]) for n in ("dragon", "six_pairs", "three_flushes")] == [
        "Drache", "sechs Paare", "drei Flushes"]


def test_a_capsa_row_with_the_wrong_card_count_is_named_in_the_readers_language():
    from rules.engines.capsa import apply
    from rules.engines.errors import WrongCardCount
    from tests.rules.test_capsa_engine import started

    with pytest.raises(WrongCardCount) as refused:
        apply(started(), {"type": "set", "seat": 1, "front": "5c 5d", "middle": "9s 9h 9d Qs Qh",
                          "back": "Ks Kh Kd Kc 2s"})
    assert "the front row needs 3 cards" in str(refused.value)
    assert "die vordere Reihe braucht 3 Karten" in _in("de-at", refused.value.message)


@pytest.mark.django_db
def test_the_admin_audit_rows_read_in_german_with_local_times(client, django_user_model):
    from tables.services.floor import table_pause
    from tests.factories import make_table

    table = make_table(name="Stud 10", status=Table.Status.OPEN)
    table_pause(table=table, reason="Pause")
    admin_user = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-for-tests-only")
    client.force_login(admin_user)
    listing = client.get("/admin/casino/auditentry/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    rows = listing.split('id="result_list"')[1].split("</table>")[0]
    assert "Status geändert" in rows and ">offen<" in rows and ">pausiert<" in rows and ">Tisch<" in rows
    assert "status_change" not in rows and "tables.table" not in rows and ">open<" not in rows
    entry = AuditEntry.objects.filter(subject="tables.table", action="status_change").first()
    page = client.get(f"/admin/casino/auditentry/{entry.pk}/change/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    local = timezone.localtime(entry.at)
    assert f"{local:%H:%M}" in page
    assert "UTC" not in page and "+00:00" not in page
    history = client.get(f"/admin/tables/table/{table.pk}/change/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "offen → pausiert" in history and "Status geändert" in history
    assert f"{local:%d.%m.%Y %H:%M}" in history
    english = client.get(f"/admin/tables/table/{table.pk}/change/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "open → paused" in english and "status changed" in english


@pytest.mark.django_db
def test_a_rule_page_without_a_german_text_shows_german_headings_and_says_the_text_is_english(
        client, role_user, monkeypatch, tmp_path):
    from casino import rules_pages

    monkeypatch.setattr(rules_pages, "RULES_DIR_DE", tmp_path)  # no German translation at all
    client.force_login(role_user("croupier"))
    german = client.get("/rules/seven_card_stud/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    english = client.get("/rules/seven_card_stud/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "R1 Tisch, Kartenspiel und Geben" in german and 'id="R6.2"' in german
    assert "<title>Seven Card Stud: die Hausregeln, wie dieser Dienst sie spielt" in german
    assert "Die Hausregeln sind auf Englisch verfasst" in german and '<article class="rules" lang="en">' in german
    assert "one bet and three raises" in german  # the English rule text
    assert ">Croupier-Rotation<" in german and ">Einundvierzig (Forty-one)<" in german
    assert "R1 Table, deck and deal" in english and "R1 Tisch" not in english


@pytest.mark.django_db
def test_a_rule_page_with_a_german_text_serves_it_in_german_and_english_in_english(client, role_user):
    client.force_login(role_user("croupier"))
    german = client.get("/rules/seven_card_stud/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    english = client.get("/rules/seven_card_stud/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de-at">' in german
    assert '<article class="rules" lang="de-at">' in german
    assert '<a id="R6.2"></a><strong>R6.2</strong> Die Begrenzung: ein Einsatz und drei Erhöhungen' in german
    assert "R1 Tisch, Kartenspiel und Geben" in german and "<table>" in german and "`" not in german
    assert "one bet and three raises" not in german and "Die Hausregeln sind auf Englisch verfasst" not in german
    assert ">Croupier-Rotation<" in german and ">Einundvierzig (Forty-one)<" in german  # the page links
    assert '<article class="rules" lang="en">' in english and "one bet and three raises" in english
    assert "Einsatz" not in english and "written in English" in english


@pytest.mark.django_db
def test_the_rule_link_of_a_german_refusal_lands_on_the_german_rule(client, role_user):
    from rules.engines import stud
    from tables.pages.croupier_view import rule_url
    from tests.rules.test_stud_croupier_errors import capped_third

    with pytest.raises(RuleViolation) as info:
        stud.apply(capped_third().state, {"type": "raise", "seat": 3, "to": c(25)})
    refusal = info.value
    assert refusal.rule == "R6.2" and "(R6.2)" in _in("de-at", refusal.message)
    url = rule_url("seven_card_stud", refusal.rule)
    page, anchor = url.split("#")
    client.force_login(role_user("croupier"))
    german = client.get(page, HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    rule = german.split(f'<a id="{anchor}"></a>')[1].split("</li>")[0]
    assert rule.startswith("<strong>R6.2</strong> Die Begrenzung") and "vierte Erhöhung wird abgelehnt" in rule


def test_every_rule_page_heading_has_a_german_heading():
    import re

    from django.conf import settings

    from casino.rules_pages import _NUMBER, HEADINGS, heading_text

    german = translation.trans_real.translation("de-at")
    missing = []
    for path in sorted((settings.BASE_DIR / "docs" / "rules").glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"^#{1,2} ", line):
                text = re.sub(r'<a id="[^"]+"></a>', "", line.lstrip("#").strip())
                words = _NUMBER.match(text).group(2)
                if words not in HEADINGS or not german.gettext(words):
                    missing.append(f"{path.name}: {text}")
                with translation.override("de-at"):
                    assert heading_text(text).endswith(german.gettext(words))
    assert HEADINGS and german.gettext(HEADINGS[0]) != HEADINGS[0]
    assert not missing, f"rule page headings without German (add them to casino.rules_pages.HEADINGS): {missing}"
