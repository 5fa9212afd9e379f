"""Found by the break tester (F3-F12): each case as the terminal or page sends it, in English and German."""

from __future__ import annotations

import pytest

from tables.models import Hand, HandEvent
from tests.tables.hands_support import Terminal, croupier_on_duty, table_make
from tests.tables.test_hands_bad_input import STUD_TO_BRING_IN

pytestmark = pytest.mark.django_db

SEATS = [{"seat": 1, "stack": "100.00"}, {"seat": 3, "stack": "100.00"}, {"seat": 5, "stack": "100.00"}]


# --- F3: a refused whole-hand submission names no rolled-back hand ----------------------------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_refused_new_hand_submission_names_no_hand(api_client, language):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    events = STUD_TO_BRING_IN[:3] + [{"type": "deal", "seat": 3, "cards": "Ks 9c 8d"},
                                     {"type": "deal", "seat": 5, "cards": "3d 3h Ks"}]
    body = {"idempotency_key": "new-1", "table": table.pk, "seats": SEATS, "events": events}
    response = api_client.post("/api/v1/hands/submit/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    answer = response.json()
    assert response.status_code == 400 and answer["code"] == "duplicate_card", answer
    assert answer["extra"]["index"] == 5 and "Ks" in answer["message"]
    assert ("event 5" if language == "en" else "Ereignis 5") in answer["message"]
    for key in ("hand", "hand_number", "event_count", "state", "view"):
        assert key not in answer["extra"], (key, answer["extra"])
    assert not Hand.objects.exists() and not HandEvent.objects.exists()


def test_a_refused_submission_onto_an_open_hand_still_names_it(api_client):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    events = STUD_TO_BRING_IN[:3] + [{"type": "deal", "seat": 3, "cards": "Ks 9c 8d"},
                                     {"type": "deal", "seat": 5, "cards": "3d 3h Ks"}]
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", {"idempotency_key": "b", "events": events},
                               format="json")
    extra = response.json()["extra"]
    assert response.status_code == 400 and extra["index"] == 5
    assert extra["hand"] == hand_id and extra["event_count"] == 4 and "state" in extra and "view" in extra
