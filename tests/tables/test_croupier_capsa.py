"""Capsa Susun on the croupier's screen (issue 15): after the deal the felt shows each seat's stack after the
settlement, pairs that exchange nothing get no line, and at a table where naturals are declared
(``natural_declaration=optional``, A.5.2) the croupier marks the seat that declares one."""

from __future__ import annotations

import re

import pytest

from tables.models import Hand, HandEvent
from tests.tables.hands_support import croupier_on_duty, table_make
from tests.tables.test_croupier_down_cards import _open, _text

pytestmark = pytest.mark.django_db

CONFIG = {"preset": "western_2_4", "unit_value": "1.00", "fee_mode": "commission", "fee_rate": "0.05"}
#: Seats 1 and 2 foul (each back weaker than its middle); seat 3 is set right.
FOULS = {
    1: ("As Ad 2c", "Kc Kd 3h 4s 5d", "Qs Qh 6c 7d 8h"),
    2: ("2d 3c 4h", "Jc Jd Th 9s 6s", "Tc Td 3s 7c 8c"),
    3: ("2h 3d 5h", "9c 9d 4c 4d 6d", "Ks Kh 5s 5c 7s"),
}
#: Seat 1 holds six pairs (a natural, A.8); seat 2 is set right.
SIX_PAIRS = {1: ("As Ad Ks", "Kd Qs Qd Js Jd", "Ts Td 9s 9d 2c"), 2: ("2d 3c 4h", "8c 8d 5h 7s 6s", "Tc Th Kh 3s 7c")}


def _form(seat_rows, **extra):
    form = {"idempotency_key": "capsa-1", **extra}
    for seat, (front, middle, back) in seat_rows.items():
        form |= {f"front_{seat}": front.split(), f"middle_{seat}": middle.split(), f"back_{seat}": back.split()}
    return form


def _seat(page: str, seat: int) -> str:
    match = re.search(rf'<div class="seat[^"]*" data-seat="{seat}">.*?</div></div>', page, re.S)
    assert match, _text(page)[:3000]
    return match.group(0)


def test_capsa_felt_shows_the_stacks_after_the_settlement_and_no_zero_unit_lines(client):
    table = table_make(game="capsa_susun", name="Capsa felt", seats=4, config=CONFIG)
    client.force_login(croupier_on_duty(table, "capsa-felt"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    preview = client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(FOULS, action="preview"),
                          HTTP_HX_REQUEST="true").content.decode()
    assert "pays seat" in preview and "0 units" not in _text(preview)
    # a foul says why, with its rule, so the croupier can show the player (break-test finding 7)
    assert "Seat 1</strong>: foul (A.4): the middle (" in _text(preview) and "beats the back" in _text(preview)
    page = client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(FOULS, action="confirm"),
                       HTTP_HX_REQUEST="true").content.decode()
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED
    text = _text(page)
    assert "Seat 1 pays seat 2" not in text and "Seat 2 pays seat 1" not in text  # both fouled: nothing between them
    assert "Seat 1 pays seat 3" in text and "Seat 2 pays seat 3" in text
    finals = {int(s): v for s, v in re.findall(r'<tr data-seat="(\d)">.*?<td class="num">([\d.,]+)</td></tr>', page, re.S)}
    for seat in (1, 2, 3):
        assert f'<div class="stack num">{finals[seat]}</div>' in _seat(page, seat)
    assert finals[3] != "100.00" and finals[1] != "100.00"


def test_capsa_seat_declaring_a_natural_where_the_table_declares_them(client):
    table = table_make(game="capsa_susun", name="Capsa natural", seats=4, config={**CONFIG, "natural_declaration": "optional"})
    client.force_login(croupier_on_duty(table, "capsa-natural"))
    page = _open(client, table, {1: "100.00", 2: "100.00"}).content.decode()
    hand = Hand.objects.get(table=table)
    assert 'name="natural_1"' in page and 'name="natural_2"' in page
    preview = client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(SIX_PAIRS, action="preview", natural_1="1"),
                          HTTP_HX_REQUEST="true").content.decode()
    assert "natural: six pairs" in _text(preview)
    assert re.search(r'name="natural_1" value="1" checked', preview)
    client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(SIX_PAIRS, action="confirm", natural_1="1"),
                HTTP_HX_REQUEST="true")
    types = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("payload__type", flat=True))
    assert types[:3] == ["deal", "deal", "declare_natural"] and "set" in types
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED


def test_capsa_natural_declared_on_a_hand_that_makes_none_is_refused(client):
    table = table_make(game="capsa_susun", name="Capsa no natural", seats=4,
                       config={**CONFIG, "natural_declaration": "optional"})
    client.force_login(croupier_on_duty(table, "capsa-no-natural"))
    _open(client, table, {1: "100.00", 2: "100.00"})
    hand = Hand.objects.get(table=table)
    page = client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(SIX_PAIRS, action="confirm", natural_2="1"),
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Refused" in page and HandEvent.objects.filter(hand=hand).count() == 0


@pytest.mark.parametrize("key", ["capsa-1", "capsa-2"], ids=["resent_with_its_key", "tapped_again_with_a_new_key"])
def test_capsa_confirm_sent_again_says_it_was_already_logged(client, key):
    """A Confirm resent with its key (the page resends a tap that got no answer), or tapped again after a reload
    (a fresh key), logs nothing twice and says so, as a resent tap does, instead of refusing an empty submission
    (break tests of 2026-12-07)."""
    table = table_make(game="capsa_susun", name="Capsa twice", seats=4, config=CONFIG)
    client.force_login(croupier_on_duty(table, "capsa-twice"))
    _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(FOULS, action="confirm"), HTTP_HX_REQUEST="true")
    count = HandEvent.objects.filter(hand=hand).count()
    again = client.post(f"/croupier/hands/{hand.pk}/capsa/", _form(FOULS, action="confirm", idempotency_key=key),
                        HTTP_HX_REQUEST="true").content.decode()
    assert "That tap was already logged; nothing was logged twice." in _text(again)
    assert "Refused" not in _text(again) and "non-empty list" not in _text(again)
    assert HandEvent.objects.filter(hand=hand).count() == count
