"""The next-hand form of the croupier's screen (issue 15): a refused form keeps what the croupier entered and
shows every problem at once; the last hand's shown cards stay face up behind it."""

from __future__ import annotations

import re

import pytest

from tables.models import Hand
from tests.tables.hands_support import croupier_on_duty, table_make
from tests.tables.test_croupier_down_cards import Taps, _open, _text

pytestmark = pytest.mark.django_db


def _post(client, table, **data):
    return client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true").content.decode()


def _row(page: str, seat: int) -> str:
    match = re.search(rf'<label class="seat-row[^"]*"><input type="checkbox" name="seat_{seat}".*?</label>', page, re.S)
    assert match, _text(page)[:3000]
    return match.group(0)


def test_a_refused_next_hand_keeps_the_input_and_lists_every_problem(client):
    table = table_make(game="forty_one", name="Forty-one next", seats=5)
    client.force_login(croupier_on_duty(table, "next-croupier"))
    page = _post(client, table, seat_1="1", stack_1="abc", seat_2="1", stack_2="-5", stack_4="30.00")
    assert Hand.objects.filter(table=table).count() == 0
    text = _text(page)
    assert "3 problems" in text                                   # two stacks and the player count, at once
    assert "seat 1 stack: abc is not an amount" in text and "seat 2 stack: Enter the amount without a sign" in text
    assert "is dealt to 3 to 5 players; 2 seated" in text
    assert 'value="abc"' in _row(page, 1) and "checked" in _row(page, 1) and 'aria-invalid="true"' in _row(page, 1)
    assert 'value="-5"' in _row(page, 2) and "checked" in _row(page, 2)
    assert 'value="30.00"' in _row(page, 4) and "checked" not in _row(page, 4)  # typed, not ticked: kept as typed
    german = client.post(f"/croupier/tables/{table.pk}/hands/", {"seat_1": "1", "stack_1": "abc"},
                         HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "2 Probleme" in _text(german)


def test_the_service_refusal_keeps_the_input_too(client):
    table = table_make(game="forty_one", name="Forty-one max", seats=5,
                       config={"limits": ["5.00", "10.00"], "ante": "2.00", "tax_rate": "0.05",
                               "tax_cap": {"5/10": "5.00"}, "bonus_41_amount": "10.00", "max_players": 3})
    client.force_login(croupier_on_duty(table, "max-croupier"))
    data = {f"seat_{n}": "1" for n in (1, 2, 3, 4)} | {f"stack_{n}": "50,00" for n in (1, 2, 3, 4)}
    page = _post(client, table, **data)
    assert "Refused" in page and Hand.objects.filter(table=table).count() == 0
    assert all("checked" in _row(page, n) for n in (1, 2, 3, 4)) and 'value="50,00"' in _row(page, 4)


def test_shown_cards_stay_face_up_behind_a_refused_next_hand(client):
    table = table_make(game="seven_card_stud", name="Stud next", seats=5)
    client.force_login(croupier_on_duty(table, "stud-next"))
    _open(client, table, {1: "100.00", 2: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    taps(type="ante", seat="1")
    taps(type="ante", seat="2")
    taps(type="deal", seat="1", card=["??", "??", "4d"])
    taps(type="deal", seat="2", card=["??", "??", "Kd"])
    taps(type="bring_in", seat="1")
    taps(type="call", seat="2")
    for one, two in (("8h", "8s"), ("9h", "9s"), ("Th", "Ts")):
        taps(type="deal", seat="1", card=[one])
        taps(type="deal", seat="2", card=[two])
        taps(type="check", seat="2")
        taps(type="check", seat="1")
    taps(type="deal", seat="1", card=["??"])
    taps(type="deal", seat="2", card=["??"])
    taps(type="check", seat="2")
    taps(type="check", seat="1")
    taps(type="show", seat="2", card=["Kd", "8s", "9s", "Ts", "5c", "6c", "As"])
    done = taps(type="show", seat="1", card=["4d", "8h", "9h", "Th", "2c", "3c", "Ah"])
    assert "Settlement" in done and "A♠" in done
    refused = _post(client, table, seat_1="1", stack_1="oops", seat_2="1", stack_2="100.00")
    assert "Refused" in refused and Hand.objects.filter(table=table).count() == 1
    seats = refused[refused.index('class="seats"'):refused.index('class="pots"')]
    assert "A♠" in seats and "5♣" in seats and 'class="pc down"' not in seats  # the shown cards face up


def test_the_next_hand_says_which_limits_the_floor_changed(client):
    """Not only the label (which may stay "5/10"): each changed key with its old and new value, in the page's
    language (break test of 2026-12-07: "5/10 → 5/10" told the croupier nothing)."""
    import datetime as dt

    from django.utils import timezone

    from tables.models import LimitProfile
    from tables.services.hands import hand_void
    from tests.tables.hands_support import CONFIGS, floor_manager

    table = table_make(game="seven_card_stud", name="Stud limits", seats=5, limit_label="5/10")
    client.force_login(croupier_on_duty(table, "limits-croupier"))
    _open(client, table, {1: "100.00", 2: "100.00"})
    hand_void(hand=Hand.objects.get(table=table), actor=floor_manager(), reason="misdeal")
    LimitProfile.objects.create(table=table, version=2, game=table.game, limit_label="5/10",
                                config=CONFIGS["seven_card_stud"] | {"ante": "2.00", "taxe_amount": "3.00"},
                                effective_from=timezone.now() - dt.timedelta(seconds=1))
    page = _text(client.get(f"/croupier/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode())
    assert "Der Floor hat die Limits seit dem letzten Spiel geändert: 5/10 → 5/10" in page
    assert "1,00 → 2,00" in page and "2,00 → 3,00" in page, page[:3000]
    # a third version with the last hand's values again: nothing to tell the croupier
    LimitProfile.objects.create(table=table, version=3, game=table.game, limit_label="5/10",
                                config=CONFIGS["seven_card_stud"], effective_from=timezone.now())
    same = _text(client.get(f"/croupier/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode())
    assert "Der Floor hat die Limits" in page and "Der Floor hat die Limits" not in same


def test_a_changed_percent_reads_as_a_percent_in_the_readers_language():
    """Stud's ``taxe_percent`` is in percent (``"2.5"`` is 2.5 %), Forty-one's ``tax_rate`` a fraction
    (``"0.04"`` is 4 %): the notice shows both as the floor's form does, "2,5 %" in German."""
    from django.utils import translation

    from casino.i18n import message_text
    from tables.services.hands import limit_changes
    from tests.tables.hands_support import CONFIGS

    stud = limit_changes("seven_card_stud", CONFIGS["seven_card_stud"],
                         CONFIGS["seven_card_stud"] | {"taxe_mode": "percent", "taxe_percent": "2.5"})
    forty_one = limit_changes("forty_one", CONFIGS["forty_one"] | {"tax_rate": "0.05"},
                              CONFIGS["forty_one"] | {"tax_rate": "0.04"})
    with translation.override("de-at"):
        assert "keine → 2,5 %" in message_text(stud) and message_text(forty_one) == "Taxe-Satz: 5 % → 4 %"
    with translation.override("en"):
        assert "none → 2.5 %" in message_text(stud)


def test_a_pot_only_one_seat_can_win_names_that_seat_in_the_singular(client, api_client):
    from tests.tables.hands_support import Terminal
    from tests.tables.test_hands_bad_input import CLOSED

    table = table_make(game="seven_card_stud", name="Stud pot", seats=5)
    croupier = croupier_on_duty(table, "pot-croupier")
    terminal = Terminal(api_client, croupier)
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    for seq, event in enumerate(CLOSED):  # seats 1 and 3 fold to seat 5's bring-in
        assert terminal.post(hand_id, event, seq=seq).status_code == 201
    client.force_login(croupier)
    page = _text(client.get(f"/croupier/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode())
    assert "Platz 5" in page and "Plätze 5" not in page, page[:3000]
