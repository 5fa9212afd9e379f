"""What the croupier sees is what they log (issue 15): a card dealt face down is logged as unknown (``??``)
by default in every game that takes it, the cards a player turns up are entered when they are shown and
checked against every card seen; a table that records every card (``record_down_cards``) is asked for
the real cards and shows with one tap, its recorded cards preset."""

from __future__ import annotations

import re

import pytest

from tables.models import Hand, HandEvent
from tables.services.floor import table_update
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db


def _open(client, table, stacks):
    data = {}
    for seat, stack in stacks.items():
        data[f"seat_{seat}"] = "1"
        data[f"stack_{seat}"] = stack
    return client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true")


class Taps:
    """Posts the page's event form in order (key ``k<n>``, expected sequence ``n``); refusals fail the test
    unless ``refused=True``."""

    def __init__(self, client, hand):
        self.client, self.hand, self.n = client, hand, 0

    def __call__(self, refused: bool = False, **event) -> str:
        page = self.client.post(f"/croupier/hands/{self.hand.pk}/events/",
                                {"idempotency_key": f"k{self.n}", "expected_seq": self.n, **event},
                                HTTP_HX_REQUEST="true").content.decode()
        assert ("Refused" in page) == refused, (event, _text(page)[:2000])
        if not refused:
            self.n += 1
        return page


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", page)


def _form(page: str, kind: str, seat: int) -> str:
    """The HTML of the card form of ``kind`` for ``seat`` on ``page``."""
    match = re.search(rf'<form class="act cards[^"]*"[^>]*data-kind="{kind}" data-seat="{seat}".*?</form>', page, re.S)
    assert match, _text(page)[:3000]
    return match.group(0)


def _slots(form: str) -> list[str]:
    return re.findall(r'name="card" value="([^"]*)"', form)


def _forty_one_to_round_two(client, taps: Taps) -> str:
    for seat in (1, 2, 3):
        taps(type="ante", seat=str(seat))
    page = taps(type="blind", seat="1")
    assert _slots(_form(page, "deal", 1)) == ["??", "??"]          # dealt face down: not seen, preset
    for seat in (1, 2, 3):
        page = taps(type="deal", seat=str(seat), card=["??", "??"])
    taps(type="call", seat="2")
    taps(type="call", seat="3")
    taps(type="check", seat="1")
    for seat in (1, 2, 3):
        page = taps(type="deal", seat=str(seat), card=["??", "??"])
    return page


def test_forty_one_logs_face_down_cards_as_unknown_and_names_them_when_shown(client):
    table = table_make(game="forty_one", name="Forty-one unseen", seats=5)
    client.force_login(croupier_on_duty(table, "f41-unseen"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    page = _forty_one_to_round_two(client, taps)
    expose = _form(page, "expose", 2)
    assert _slots(expose) == ["", ""] and "data-choices" not in expose  # the picker offers every unseen card
    taps(type="expose", seat="2", card=["Ah", "Qh"])
    taps(type="expose", seat="3", card=["Js", "9h"])
    taps(type="expose", seat="1", card=["7s", "Th"])
    for seat in (2, 3, 1):
        page = taps(type="check", seat=str(seat))
    show = _form(page, "show", 2)
    assert _slots(show) == ["Ah", "Qh", "", ""]                    # the exposed two preset, the other two entered
    unseen = re.search(r'data-unseen="([^"]*)"', page).group(1).split()
    assert "Kh" in unseen and "Js" not in unseen                   # exposed cards are seen
    refused = taps(refused=True, type="show", seat="2", card=["Ah", "Qh", "Js", "Jh"])  # Js is seat 3's
    assert HandEvent.objects.filter(hand=hand).count() == taps.n and "Js" in _text(refused)
    taps(type="show", seat="2", card=["Ah", "Qh", "Kh", "Jh"])
    taps(type="show", seat="3", card=["Js", "9h", "Qd", "Ks"])
    page = taps(type="show", seat="1", card=["7s", "Th", "8d", "9c"])
    assert "Seat 2 is paid the 41 bonus" in _text(page)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED
    deals = HandEvent.objects.filter(hand=hand, payload__type="deal")
    assert {e.payload["cards"] for e in deals} == {"?? ??"}


def test_forty_one_table_that_records_every_card_asks_for_the_real_cards(client):
    table = table_make(game="forty_one", name="Forty-one camera", seats=5)
    table_update(table=table, record_down_cards=True, reason="camera at this table")
    client.force_login(croupier_on_duty(table, "f41-camera"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    for seat in (1, 2, 3):
        taps(type="ante", seat=str(seat))
    page = taps(type="blind", seat="1")
    assert _slots(_form(page, "deal", 1)) == ["", ""]
    for seat, cards in ((1, ["7s", "8d"]), (2, ["Ah", "Kh"]), (3, ["Js", "Qd"])):
        taps(type="deal", seat=str(seat), card=cards)
    taps(type="call", seat="2")
    taps(type="call", seat="3")
    taps(type="check", seat="1")
    for seat, cards in ((1, ["9c", "Th"]), (2, ["Qh", "Jh"]), (3, ["Ks", "9h"])):
        page = taps(type="deal", seat=str(seat), card=cards)
    expose = _form(page, "expose", 2)
    assert 'data-choices="Ah Kh Qh Jh"' in expose                 # the picker offers the seat's own four
    for seat, cards in ((2, ["Ah", "Qh"]), (3, ["Js", "9h"]), (1, ["7s", "Th"])):
        taps(type="expose", seat=str(seat), card=cards)
    for seat in (2, 3, 1):
        page = taps(type="check", seat=str(seat))
    assert 'data-kind="show" data-seat="2"' in page and _slots(page) == []  # one tap: the cards are known
    for seat in (2, 3, 1):
        page = taps(type="show", seat=str(seat))
    assert "Seat 2 is paid the 41 bonus" in _text(page)


def test_stud_showdown_at_a_recording_table_presets_the_recorded_cards(client):
    """A recording table whose 7th-street card went unseen (logged ``??``): the show form presets every card
    the seat was recorded with and asks only for the unseen one; the picker offers it among unseen cards."""
    table = table_make(game="seven_card_stud", name="Stud camera", seats=5)
    table_update(table=table, record_down_cards=True, reason="camera at this table")
    client.force_login(croupier_on_duty(table, "stud-camera"))
    _open(client, table, {1: "100.00", 2: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    taps(type="ante", seat="1")
    taps(type="ante", seat="2")
    taps(type="deal", seat="1", card=["2c", "3c", "4d"])
    taps(type="deal", seat="2", card=["5c", "6c", "Kd"])
    taps(type="bring_in", seat="1")
    taps(type="call", seat="2")
    for one, two in (("8h", "8s"), ("9h", "9s"), ("Th", "Ts")):
        taps(type="deal", seat="1", card=[one])
        taps(type="deal", seat="2", card=[two])
        taps(type="check", seat="2")
        taps(type="check", seat="1")
    taps(type="deal", seat="1", card=["Ah"])
    taps(type="deal", seat="2", card=["??"])                       # the camera missed it
    taps(type="check", seat="2")
    page = taps(type="check", seat="1")
    assert _slots(_form(page, "show", 2)) == ["Kd", "8s", "9s", "Ts", "5c", "6c", ""]
    unseen = re.search(r'data-unseen="([^"]*)"', page).group(1).split()
    assert "As" in unseen and "5c" not in unseen
    page = taps(type="show", seat="2", card=["Kd", "8s", "9s", "Ts", "5c", "6c", "As"])
    assert 'data-kind="show" data-seat="1"' in page and _slots(page) == []  # seat 1's cards are all recorded


def test_a_stud_down_card_exposed_on_the_deal_is_logged_as_dealt_face_up(client):
    """R12.2 through the page's exposed-card form: the card is logged as the seat's card dealt face up, the
    seat's other two come face down (``??`` preset); both down cards exposed: a dead hand, the ante back."""
    table = table_make(game="seven_card_stud", name="Stud exposed", seats=5)
    client.force_login(croupier_on_duty(table, "stud-exposed"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    for seat in (1, 2, 3):
        page = taps(type="ante", seat=str(seat))
    first = _form(page, "deal", 2)
    assert 'data-kind="exposed" data-seat="2"' in page and 'name="face" value="up"' in page
    page = taps(type="deal", seat="2", face="up", card=["As"])
    assert _slots(_form(page, "deal", 2)) == ["??", "??"] != _slots(first)  # the third card comes face down
    assert "A♠" in _text(page)
    page = taps(type="deal", seat="2", card=["??", "??"])
    page = taps(type="deal", seat="3", face="up", card=["Kd"])
    page = taps(type="deal", seat="3", face="up", card=["Kh"])      # both down cards exposed: dead hand
    assert HandEvent.objects.filter(hand=hand, payload__face="up").count() == 3
    page = taps(type="deal", seat="1", card=["??", "??", "3c"])
    assert 'data-kind="exposed"' not in page                      # the deal is over: nothing more to expose
    seat3 = re.search(r'<div class="seat[^"]*" data-seat="3">.*?</div></div>', page, re.S)
    assert seat3 and "folded" in seat3.group(0) and "100.00" in seat3.group(0)  # dead, the ante given back


def test_a_forty_one_card_exposed_on_the_deal_is_a_misdeal_until_two_players_acted(client):
    table = table_make(game="forty_one", name="Forty-one exposed", seats=5)
    client.force_login(croupier_on_duty(table, "f41-exposed"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    for seat in (1, 2, 3):
        taps(type="ante", seat=str(seat))
    page = taps(type="blind", seat="1")
    assert 'data-kind="exposed"' in page and 'name="reason" value="card exposed on the deal"' in page
    page = taps(type="misdeal", reason="card exposed on the deal", card=["Ah"])
    misdeal = HandEvent.objects.get(hand=hand, payload__type="misdeal")
    assert misdeal.payload["reason"] == "card exposed on the deal: Ah"
    hand.refresh_from_db()
    assert hand.status != Hand.Status.OPEN and "every chip returned" in _text(page)


def test_a_forty_one_exposure_after_two_players_acted_is_refused_the_deal_stands(client):
    table = table_make(game="forty_one", name="Forty-one stands", seats=5)
    client.force_login(croupier_on_duty(table, "f41-stands"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    taps = Taps(client, hand)
    for seat in (1, 2, 3):
        taps(type="ante", seat=str(seat))
    taps(type="blind", seat="1")
    for seat in (1, 2, 3):
        taps(type="deal", seat=str(seat), card=["??", "??"])
    taps(type="call", seat="2")
    page = taps(type="call", seat="3")
    refused = taps(refused=True, type="misdeal", reason="card exposed on the deal", card=["Ah"])
    assert "B.4b" in refused and HandEvent.objects.filter(hand=hand).count() == taps.n
    assert 'data-kind="exposed"' in page
