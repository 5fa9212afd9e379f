"""Found by the break tester (F3-F12): each case as the terminal or page sends it, in English and German."""

from __future__ import annotations

import pytest

from tables.models import Hand, HandEvent, Table
from tests.tables.hands_support import Terminal, croupier_on_duty, event_to_api, floor_manager, table_make
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


# --- F4: a voided hand answers its void (API view and state, croupier page), as its ledger entry ---------


def _void_midway(api_client, game: str, *, stop) -> tuple[int, Table, dict]:
    """A hand of ``game`` (the registry's example limits, a random legal hand) logged until ``stop(answer)``
    is true, then voided by the floor; returns the hand id, the table and the last answer before the void."""
    import random

    from rules.registry import GAMES

    spec = next(g for g in GAMES if g.name == game)
    config = dict(spec.example_config)
    if game == "seven_card_stud":
        config |= {"taxe_mode": "flat", "taxe_amount": "5.00"}
    table = table_make(game=game, config=config)
    terminal = Terminal(api_client, croupier_on_duty(table, f"{game}-dealer"))
    stacks = {1: 20000, 2: 20000, 3: 20000}
    hand = terminal.open(table, stacks).json()
    events = spec.random_hand(spec.engine.build_config(config), stacks, hand["button_seat"], random.Random(27))
    answer = None
    for seq, event in enumerate(events[:-1]):
        response = terminal.post(hand["id"], event_to_api(event), seq=seq)
        assert response.status_code == 201, response.json()
        answer = response.json()
        if stop(answer):
            break
    assert not answer["view"]["complete"]
    api_client.force_authenticate(floor_manager(f"{game}-floor"))
    voided = api_client.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "card exposed"}, format="json")
    assert voided.status_code == 200, voided.json()
    return hand["id"], table, answer


@pytest.mark.parametrize("game", ["seven_card_stud", "forty_one", "capsa_susun"])
def test_a_void_hand_answers_the_void_outcome_as_its_ledger_entry(api_client, game):
    from accounting.models import JournalEntry

    def stop(answer):  # stud: on 4th street with the flat Taxe taken; the others: midway
        if game == "seven_card_stud":
            return answer["view"]["street"] == 4 and answer["view"]["house_take"] != "0.00"
        return answer["state"]["event_count"] >= 4

    hand_id, _table, before = _void_midway(api_client, game, stop=stop)
    if game == "seven_card_stud":
        assert before["view"]["house_take"] == "5.00" and before["state"]["tax"] == "5.00"
    body = api_client.get(f"/api/v1/hands/{hand_id}/").json()
    view, state = body["view"], body["state"]
    assert body["status"] == "void"
    assert view["complete"] and view["legal_actions"] == [] and view["to_act"] is None and view["pots"] == []
    assert view["house_take"] == "0.00" and state["tax"] == "0.00"
    assert state["void"] is True and state["complete"] is True
    outcome = view["outcome"]
    assert outcome["void"] is True and outcome["house_take"] == "0.00" and outcome["awards"] == []
    assert set(outcome["net"].values()) == {"0.00"}
    entry = JournalEntry.objects.filter(hand_id=hand_id).first()  # none when nothing was put in (Capsa)
    refunds: dict[int, str] = {}
    for posting in ([] if entry is None else entry.postings.filter(role="refund", account__code__endswith=":players")):
        refunds[posting.seat] = f"{posting.amount:.2f}"
    assert {int(s): a for s, a in outcome["returned"].items() if a != "0.00"} == refunds
    assert all(seat["stack"] == "200.00" and seat["in_pot"] == "0.00" for seat in view["seats"])


def test_the_croupier_page_shows_a_void_hand_as_void(api_client, client):
    hand_id, table, _before = _void_midway(api_client, "seven_card_stud",
                                           stop=lambda a: a["view"]["street"] == 4 and a["view"]["house_take"] != "0.00")
    from tables.models import Hand
    from tables.pages.croupier import _hand_context

    context = _hand_context(Hand.objects.get(pk=hand_id), {"status": "void"}, table)
    assert context["view"].outcome is not None and context["view"].outcome.void
    assert context["view"].complete


# --- F7: a retry's body is validated as a fresh one before it is compared --------------------------------


@pytest.mark.parametrize("seat", [1.0, True], ids=["float", "bool"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_retry_with_a_body_a_fresh_event_would_refuse_is_refused_the_same(api_client, seat, language):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    url = f"/api/v1/hands/{hand_id}/events/"
    stored = api_client.post(url, {"idempotency_key": "x1", "expected_seq": 0, "event": {"type": "ante", "seat": 1}},
                          format="json")
    assert stored.status_code == 201, stored.json()
    bad = {"type": "ante", "seat": seat}
    retry = api_client.post(url, {"idempotency_key": "x1", "expected_seq": 0, "event": bad}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    fresh = api_client.post(url, {"idempotency_key": "x2", "expected_seq": 1, "event": bad}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert fresh.status_code == 400, fresh.json()
    assert retry.status_code == 400, retry.json()
    assert (retry.json()["code"], retry.json()["message"]) == (fresh.json()["code"], fresh.json()["message"])
    assert "'seat'" in retry.json()["message"] and ("Ereignis" in retry.json()["message"]) == (language == "de")
    again = api_client.post(url, {"idempotency_key": "x1", "expected_seq": 0, "event": {"type": "ante", "seat": 1}},
                          format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert HandEvent.objects.filter(hand_id=hand_id).count() == 1


def test_a_batch_retry_with_a_float_seat_is_not_the_stored_batch(api_client):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    url = f"/api/v1/hands/{hand_id}/events/batch/"
    events = STUD_TO_BRING_IN[:2]
    assert api_client.post(url, {"idempotency_key": "b1", "events": events}, format="json").status_code == 200
    changed = [events[0], {"type": "ante", "seat": 3.0}]
    response = api_client.post(url, {"idempotency_key": "b1", "events": changed}, format="json")
    assert response.status_code == 409, response.json()


# --- F5: a single event's key cannot be a batch's event key -------------------------------------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_single_event_key_of_the_batch_form_is_refused_and_the_batch_retry_stays_replayed(api_client, language):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    batch = {"idempotency_key": "B1", "events": STUD_TO_BRING_IN}
    url = f"/api/v1/hands/{hand_id}/events/"
    assert api_client.post(f"{url}batch/", batch, format="json").status_code == 200
    for key, event in (("B1:7", {"type": "bring_in", "seat": 5}), ("B1:1", {"type": "ante", "seat": 1})):
        response = api_client.post(url, {"idempotency_key": key, "expected_seq": 6, "event": event}, format="json",
                                   HTTP_ACCEPT_LANGUAGE=language)
        body = response.json()
        assert response.status_code == 400 and body["code"] == "idempotency_key_reserved", body
        assert key in body["message"]
        assert ("Idempotenzschlüssel" in body["message"]) == (language == "de"), body["message"]
    assert HandEvent.objects.filter(hand_id=hand_id).count() == 6
    again = api_client.post(f"{url}batch/", batch, format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True, again.json()
    ok = api_client.post(url, {"idempotency_key": "B1-7", "expected_seq": 6, "event": {"type": "bring_in", "seat": 5}},
                         format="json")
    assert ok.status_code == 201, ok.json()


# --- F8: notes over 2000 characters, the size limit named, no '_' keys --------------------------------------

BRING_IN = {"type": "bring_in", "seat": 5}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_note_over_2000_characters_is_refused_naming_the_limit(api_client, language):
    from tests.tables.test_hands_bad_input import _snapshot, _stud_hand

    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    before = _snapshot(hand_id)
    body = {"idempotency_key": "n1", "expected_seq": seq, "event": BRING_IN | {"note": "x" * 2001}}
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    answer = response.json()
    assert response.status_code == 400 and answer["code"] == "note_too_long", answer
    assert "2001" in answer["message"] and "2000" in answer["message"]
    assert ("Notiz" in answer["message"]) == (language == "de"), answer["message"]
    assert _snapshot(hand_id) == before
    ok = {"idempotency_key": "n2", "expected_seq": seq, "event": BRING_IN | {"note": "x" * 2000}}
    assert api_client.post(f"/api/v1/hands/{hand_id}/events/", ok, format="json").status_code == 201


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_event_too_large_message_names_the_limit(api_client, language):
    from tests.tables.test_hands_bad_input import _stud_hand

    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    # a field of 5000 characters (a note that long is refused first, as a note: note_too_long)
    body = {"idempotency_key": "big", "expected_seq": seq, "event": BRING_IN | {"cards": "x" * 5000}}
    answer = api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json",
                             HTTP_ACCEPT_LANGUAGE=language).json()
    assert answer["code"] == "unknown_event" and "4000" in answer["message"], answer
    assert ("höchstens" in answer["message"]) == (language == "de"), answer["message"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_event_key_starting_with_an_underscore_is_refused(api_client, language):
    from tests.tables.test_hands_bad_input import _snapshot, _stud_hand

    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    before = _snapshot(hand_id)
    body = {"idempotency_key": "u1", "expected_seq": seq, "event": BRING_IN | {"_junk": "y"}}
    answer = api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json",
                             HTTP_ACCEPT_LANGUAGE=language).json()
    assert answer["code"] == "unknown_event" and "'_junk'" in answer["message"], answer
    assert _snapshot(hand_id) == before
    batch = {"idempotency_key": "u2", "events": [BRING_IN | {"_junk": "y"}]}
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", batch, format="json")
    assert response.status_code == 400 and "'_junk'" in response.json()["message"]
    assert _snapshot(hand_id) == before


# --- F11/F12: German answers fully German, English ones saying what is meant -------------------------------

EN, DE = {"HTTP_ACCEPT_LANGUAGE": "en"}, {"HTTP_ACCEPT_LANGUAGE": "de-AT"}


def _message(response) -> str:
    assert response.status_code == 400, response.json()
    return response.json()["message"]


def test_a_negative_stack_at_hand_open_names_the_seat_in_the_reader_language(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    body = {"table": table.pk, "seats": [{"seat": 1, "stack": "-5.00"}, {"seat": 3, "stack": "100.00"}]}
    english = _message(api_client.post("/api/v1/hands/", body, format="json", **EN))
    german = _message(api_client.post("/api/v1/hands/", body, format="json", **DE))
    assert english.startswith("seat 1 stack: '-5.00'") and "negative" in english
    assert german.startswith("Stack von Platz 1: '-5,00'") or german.startswith("Stack von Platz 1: '-5.00'"), german
    assert "seat" not in german and "negativ" in german


def test_a_phh_file_that_is_not_toml_is_told_in_the_reader_language(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    body = {"idempotency_key": "phh-1", "table": table.pk, "phh": "variant = "}
    english = _message(api_client.post("/api/v1/hands/submit/", body, format="json", **EN))
    german = _message(api_client.post("/api/v1/hands/submit/", body, format="json", **DE))
    assert english.startswith("PHH file: not valid TOML (the TOML parser says: "), english
    assert german.startswith("PHH-Datei: kein gültiges TOML (Meldung des TOML-Parsers: "), german


def test_a_capsa_reveal_before_the_surrender_round_names_the_seat_and_the_action(api_client):
    import random

    from rules.registry import GAMES

    spec = next(g for g in GAMES if g.name == "capsa_susun")
    table = table_make(game="capsa_susun", config=dict(spec.example_config))
    terminal = Terminal(api_client, croupier_on_duty(table))
    stacks = {1: 20000, 2: 20000, 3: 20000}
    hand = terminal.open(table, stacks).json()
    events = spec.random_hand(spec.engine.build_config(spec.example_config), stacks, hand["button_seat"],
                              random.Random(0))
    seq = 0
    for event in events:
        answer = terminal.post(hand["id"], event_to_api(event), seq=seq).json()
        seq += 1
        if answer["state"]["expect"] == "surrender":
            break
    due = answer["state"]["to_act"]
    reveal = {"idempotency_key": "rv", "expected_seq": seq, "event": {"type": "reveal"}}
    url = f"/api/v1/hands/{hand['id']}/events/"
    english = _message(api_client.post(url, reveal, format="json", **EN))
    german = _message(api_client.post(url, reveal, format="json", **DE))
    assert english == f"no one can reveal now: seat {due} has to play or surrender first (A.5.6)", english
    assert german == f"niemand kann jetzt aufdecken: zuerst muss Platz {due} spielen oder aufgeben (A.5.6)", german


def test_the_croupier_page_asks_for_the_amount_not_the_api_field(client):
    import random

    from rules.registry import GAMES

    spec = next(g for g in GAMES if g.name == "forty_one")
    table = table_make(game="forty_one", config=dict(spec.example_config))
    user = croupier_on_duty(table)
    from rest_framework.test import APIClient

    terminal = Terminal(APIClient(), user)
    stacks = {1: 20000, 2: 20000, 3: 20000}
    hand = terminal.open(table, stacks).json()
    events = spec.random_hand(spec.engine.build_config(spec.example_config), stacks, hand["button_seat"],
                              random.Random(3))
    turn = next(i for i, e in enumerate(events) if e["type"] in ("call", "check", "fold", "bet", "raise"))
    terminal.play(hand["id"], events[:turn])
    client.force_login(user)  # the seat to act taps "bet" with the amount box left empty
    form = {"idempotency_key": "page-1", "expected_seq": turn, "type": "bet", "seat": events[turn]["seat"], "to": ""}
    english = client.post(f"/croupier/hands/{hand['id']}/events/", form, HTTP_HX_REQUEST="true", **EN).content.decode()
    form["idempotency_key"] = "page-2"
    german = client.post(f"/croupier/hands/{hand['id']}/events/", form, HTTP_HX_REQUEST="true", **DE).content.decode()
    assert "please enter the amount" in english and "give &#x27;to&#x27;" not in english and "give 'to'" not in english
    assert "bitte den Betrag angeben" in german and "&#x27;to&#x27;" not in german and "'to'" not in german


def test_a_seat_dealt_more_cards_than_the_street_gives_is_told_it_has_them_all(api_client):
    from tests.tables.test_hands_bad_input import _stud_hand

    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN[:4])
    body = {"idempotency_key": "d1", "expected_seq": seq, "event": {"type": "deal", "seat": 3, "cards": "3c"}}
    url = f"/api/v1/hands/{hand_id}/events/"
    english = _message(api_client.post(url, body, format="json", **EN))
    german = _message(api_client.post(url, body, format="json", **DE))
    assert english == "seat 3 cannot be dealt 3c: it already has all its cards for 3rd street (R1.3)", english
    assert "er hat schon alle Karten für die 3. Straße" in german and "0" not in german, german


def test_a_seat_not_in_the_hand_lists_the_seats_in_order(api_client):
    from tests.tables.test_hands_bad_input import _stud_hand

    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    body = {"idempotency_key": "s2", "expected_seq": seq, "event": {"type": "fold", "seat": 2}}
    url = f"/api/v1/hands/{hand_id}/events/"
    assert "seat 2 is not in this hand (seats 1, 3, 5)" in _message(api_client.post(url, body, format="json", **EN))
    assert "(Plätze 1, 3, 5)" in _message(api_client.post(url, body, format="json", **DE))


def test_a_seat_listed_twice_is_named(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    body = {"table": table.pk, "seats": [{"seat": 3, "stack": "100.00"}, {"seat": 1, "stack": "100.00"},
                                         {"seat": 3, "stack": "50.00"}]}
    assert _message(api_client.post("/api/v1/hands/", body, format="json", **EN)) == "seat 3 is listed twice"
    assert _message(api_client.post("/api/v1/hands/", body, format="json", **DE)) == "Platz 3 ist doppelt aufgeführt"
    assert not Hand.objects.exists()
