"""Input no database column can hold, and input counted the way a person counts it (break test of the
session of 2026-12-07): a refusal in the reader's language, never a 500, and nothing stored.

* a null character (U+0000) or a lone surrogate (U+D800-U+DFFF), which JSON's ``\\u`` escapes can carry, in any
  text of a body (PostgreSQL's ``text`` and ``jsonb`` refuse both): the single event, the batch and the whole
  hand alike (:func:`casino.api_input.unstorable_text_at`);
* an integer of more digits than Python reads (its own error text is English);
* a note is counted in characters, an umlaut one (not the six of its escape), up to ``NOTE_MAX_CHARS``;
* a gaming day at the calendar's end (9999-12-31 has no next day) is not a gaming day.
"""

from __future__ import annotations

import json

import pytest

from casino.text_limits import NOTE_MAX_CHARS
from tables.models import Hand, HandEvent
from tests.tables.hands_support import Terminal, croupier_on_duty, table_make
from tests.tables.test_hands_bad_input import CLOSED, STUD_TO_BRING_IN

pytestmark = pytest.mark.django_db

BRING_IN = {"type": "bring_in", "seat": 5}


def _hand(api_client) -> tuple[Terminal, int, int]:
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    for seq, event in enumerate(STUD_TO_BRING_IN):
        assert terminal.post(hand_id, event, seq=seq).status_code == 201
    return terminal, hand_id, len(STUD_TO_BRING_IN)


def _raw_post(client, url: str, body: dict, escape: str, language: str):
    """POST ``body`` as JSON text whose ``"@"`` is replaced by the JSON escape ``escape`` (e.g. ``\\u0000``)."""
    text = json.dumps(body).replace("@", escape)
    return client.post(url, data=text, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800", "\\udfff"], ids=["null", "high_surrogate", "low_surrogate"])
@pytest.mark.parametrize(("language", "words"), [("en", "cannot be stored"), ("de-AT", "nicht gespeichert")])
def test_a_note_holding_an_unstorable_character_is_a_400_and_the_hand_is_unchanged(api_client, escape, language,
                                                                                  words):
    terminal, hand_id, seq = _hand(api_client)
    body = {"idempotency_key": "note-1", "expected_seq": seq, "event": BRING_IN | {"note": "slow @ post"}}
    response = _raw_post(api_client, f"/api/v1/hands/{hand_id}/events/", body, escape, language)
    assert response.status_code == 400, response.content
    assert words in response.json()["message"] and "event.note" in response.json()["message"]
    assert Hand.objects.get(pk=hand_id).event_count == seq == HandEvent.objects.filter(hand_id=hand_id).count()
    retry = terminal.post(hand_id, BRING_IN | {"note": "slow to post"}, seq=seq, key="note-1")
    assert retry.status_code == 201, retry.json()  # the key was not taken by the refused request


def test_a_batch_names_the_event_whose_text_cannot_be_stored_and_stores_none(api_client):
    table = table_make(game="seven_card_stud")
    hand_id = Terminal(api_client, croupier_on_duty(table)).open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    events = [dict(event) for event in STUD_TO_BRING_IN[:3]]
    events[1]["note"] = "@"
    response = _raw_post(api_client, f"/api/v1/hands/{hand_id}/events/batch/", {"idempotency_key": "b-nul",
                                                                                 "events": events}, "\\u0000", "en")
    assert response.status_code == 400 and "events[1].note" in response.json()["message"]
    assert not HandEvent.objects.filter(hand_id=hand_id).exists()


def test_a_whole_hand_with_an_unstorable_character_opens_no_hand(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    seats = [{"seat": 1, "stack": "100.00"}, {"seat": 3, "stack": "100.00"}, {"seat": 5, "stack": "100.00"}]
    events = [dict(event) for event in CLOSED]
    events[-1]["note"] = "@"
    body = {"idempotency_key": "whole-nul", "table": table.pk, "seats": seats, "events": events}
    response = _raw_post(api_client, "/api/v1/hands/submit/", body, "\\ud800", "de-AT")
    assert response.status_code == 400 and f"events[{len(CLOSED) - 1}].note" in response.json()["message"]
    assert not Hand.objects.exists()


def test_a_number_of_too_many_digits_is_a_400_in_the_readers_language(api_client):
    terminal, hand_id, seq = _hand(api_client)
    text = ('{"idempotency_key": "digits", "expected_seq": ' + "9" * 5000
            + ', "event": {"type": "bring_in", "seat": 5}}')
    for language, words in (("en", "too many digits"), ("de-AT", "zu vielen Stellen")):
        response = api_client.post(f"/api/v1/hands/{hand_id}/events/", data=text, content_type="application/json",
                                   HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400 and words in response.json()["message"], response.content
        assert "sys.set_int_max_str_digits" not in response.json()["message"]
    assert Hand.objects.get(pk=hand_id).event_count == seq


def test_a_note_is_counted_in_characters_as_written(api_client):
    terminal, hand_id, seq = _hand(api_client)
    longest = "ä" * NOTE_MAX_CHARS  # 2000 characters; the JSON escapes of the old count made it 12,000
    too_long = terminal.post(hand_id, BRING_IN | {"note": longest + "ö"}, seq=seq)
    assert too_long.status_code == 400 and too_long.json()["code"] == "note_too_long", too_long.json()
    assert f"{NOTE_MAX_CHARS + 1} " in too_long.json()["message"]
    accepted = terminal.post(hand_id, BRING_IN | {"note": longest}, seq=seq)
    assert accepted.status_code == 201, accepted.json()
    assert HandEvent.objects.get(hand_id=hand_id, seq=seq + 1).payload["note"] == longest


@pytest.mark.parametrize("day", ["9999-12-31", "2026-02-30", "abc"])
def test_a_date_that_is_no_gaming_day_is_a_400_in_the_readers_language(api_client, role_user, day):
    api_client.force_authenticate(role_user("accountant"))
    for language, words in (("en", "is not a gaming day"), ("de-AT", "ist kein Spieltag")):
        response = api_client.get(f"/api/v1/gaming-days/{day}/", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400 and words in response.json()["message"], response.content
    queued = api_client.post("/api/v1/reconciliation/gaming-days/", {"gaming_day": "9999-12-31"}, format="json",
                             HTTP_ACCEPT_LANGUAGE="en")
    assert queued.status_code == 400, queued.content


def test_a_whole_hand_sent_both_ways_is_refused_in_german(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    body = {"idempotency_key": "both", "table": table.pk, "phh": "variant = 'F7S'",
            "seats": [{"seat": 1, "stack": "100.00"}], "events": CLOSED}
    response = api_client.post("/api/v1/hands/submit/", body, format="json", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert response.status_code == 400 and "entweder eine PHH-Datei" in response.json()["message"], response.content
    empty = api_client.post("/api/v1/hands/submit/", {"idempotency_key": "none", "table": table.pk}, format="json",
                            HTTP_ACCEPT_LANGUAGE="de-AT")
    assert empty.status_code == 400 and "oder eine PHH-Datei" in empty.json()["message"], empty.content
    assert not Hand.objects.exists()


@pytest.mark.parametrize(("charset", "note"), [("unicode_escape", b"a\\ud800"), ("utf-7", b"a+2AA-")])
def test_a_surrogate_decoded_from_another_charset_is_refused_too(api_client, charset, note):
    """A charset named by the request can decode to a lone surrogate without any \\u escape in the text."""
    terminal, hand_id, seq = _hand(api_client)
    body = (b'{"idempotency_key": "cs", "expected_seq": ' + str(seq).encode()
            + b', "event": {"type": "bring_in", "seat": 5, "note": "' + note + b'"}}')
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/", data=body,
                               content_type=f"application/json; charset={charset}", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "event.note" in response.json()["message"], response.content
    assert Hand.objects.get(pk=hand_id).event_count == seq
