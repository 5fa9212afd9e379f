"""Amounts typed on the page forms in German (break-test findings 4-6): a decimal comma is stored as the
right cents/Decimal, ``1e3`` is refused with a message in words and nothing is written."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from accounting.models import DropCount, TroncCount
from accounting.services.reconciliation import gaming_day_reconcile
from casino.roles import FLOOR_MANAGER
from tables.models import Hand, HandEvent, LimitProfile, Table
from tests.accounting.helpers import make_hand
from tests.accounting.helpers import make_table as make_accounting_table
from tests.factories import make_table, make_user
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-AT"}


def test_croupier_next_hand_stacks_take_german_amounts_and_refuse_1e3(client):
    table = table_make(game="seven_card_stud", name="Stud comma")
    client.force_login(croupier_on_duty(table, "comma-croupier"))
    url = f"/croupier/tables/{table.pk}/hands/"
    refused = client.post(url, {"seat_1": "1", "stack_1": "1e3", "seat_2": "1", "stack_2": "60,00"},
                          HTTP_HX_REQUEST="true", **GERMAN)
    assert refused.status_code == 200 and "ist kein Betrag" in refused.content.decode()
    assert not Hand.objects.filter(table=table).exists()
    client.post(url, {"seat_1": "1", "stack_1": "1.234,50", "seat_2": "1", "stack_2": "60,00"}, HTTP_HX_REQUEST="true",
                **GERMAN)
    hand = Hand.objects.get(table=table)
    assert {int(s): i["stack"] for s, i in hand.seats.items()} == {1: 123450, 2: 6000}
    page = client.get(f"/croupier/tables/{table.pk}/", **GERMAN).content.decode()
    assert "1.234,50" in page  # the seat's stack on the felt, German


def test_croupier_declare_amount_1e3_is_refused_in_words_and_nothing_is_logged(client):
    table = table_make(game="seven_card_stud", name="Stud declare")
    client.force_login(croupier_on_duty(table, "declare-croupier"))
    client.post(f"/croupier/tables/{table.pk}/hands/", {"seat_1": "1", "stack_1": "100", "seat_2": "1",
                                                        "stack_2": "100"}, HTTP_HX_REQUEST="true")
    hand = Hand.objects.get(table=table)
    answer = client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": "d-1", "expected_seq": 0,
                                                                 "type": "bet", "seat": "1", "to": "1e3"},
                         HTTP_HX_REQUEST="true", **GERMAN)
    assert answer.status_code == 200 and "1e3 ist kein Betrag" in answer.content.decode()
    assert HandEvent.objects.filter(hand=hand).count() == 0


def test_croupier_event_reads_a_german_comma_amount():
    from django.http import QueryDict
    from django.utils import translation

    from tables.pages.croupier import _event_from_post

    with translation.override("de-at"):
        event = _event_from_post(QueryDict("type=bet&seat=1&to=60%2C00"), "seven_card_stud")
    assert event == {"type": "bet", "seat": 1, "to": 6000}


LIMITS = {"limits-limit_type": "split", "limits-lower": "10,00", "limits-higher": "20,00", "limits-ante": "1,50",
          "limits-bring_in_mode": "full_bet", "limits-raise_cap": "3", "limits-open_pair_option": "on",
          "limits-taxe_mode": "flat", "limits-taxe_amount": "2,00"}


def test_floor_limit_form_takes_german_amounts_and_refuses_1e3(client):
    client.force_login(make_user("comma-boss", FLOOR_MANAGER))
    table = make_table(status=Table.Status.OPEN, name="Stud comma")
    before = LimitProfile.objects.filter(table=table).count()
    refused = client.post(f"/floor/tables/{table.pk}/limits/", {**LIMITS, "limits-taxe_amount": "1e3"}, **GERMAN)
    assert refused.status_code == 400 and "1e3 ist kein Betrag" in refused.content.decode()
    assert "fehlt hier" not in refused.content.decode()  # the typo is the one error, not also "missing"
    assert LimitProfile.objects.filter(table=table).count() == before
    form = client.get(f"/floor/tables/{table.pk}/", **GERMAN).content.decode()
    assert 'inputmode="decimal"' in form and 'name="limits-lower" type="number"' not in form
    assert client.post(f"/floor/tables/{table.pk}/limits/", LIMITS, **GERMAN).status_code == 302
    config = LimitProfile.objects.filter(table=table).order_by("-version").first().config
    assert (config["lower"], config["higher"], config["ante"], config["taxe_amount"]) == ("10.00", "20.00", "1.50", "2.00")


def test_accounting_counts_take_12_comma_50_and_refuse_1e3(client, role_user):
    table = make_accounting_table("seven_card_stud", name="Stud count")
    make_hand(table, rng=random.Random(3), opened_at=dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC))
    gaming_day_reconcile(day=dt.date(2026, 5, 4))
    client.force_login(role_user("accountant"))
    url = "/accounting/days/2026-05-04/"
    refused = client.post(url + "drop/", {"table": table.id, "shift": "", "counted": "1e3"}, follow=True, **GERMAN)
    assert "ist kein Betrag" in refused.content.decode() and not DropCount.objects.exists()
    client.post(url + "drop/", {"table": table.id, "shift": "", "counted": "1.234,50"}, **GERMAN)
    client.post(url + "tronc/", {"table": table.id, "shift": "", "counted": "12,50"}, **GERMAN)
    assert str(DropCount.objects.get().counted) == "1234.50" and str(TroncCount.objects.get().counted) == "12.50"


@pytest.mark.parametrize("language, typed, expected", [
    ("de-at", "1,00 2,00 2,00 4,00 4,00", ["1.00", "2.00", "2.00", "4.00", "4.00"]), ("de-at", "1.000,50", "1000.50"),
    ("en", "1.00, 2.00, 2.00, 4.00, 4.00", ["1.00", "2.00", "2.00", "4.00", "4.00"]), ("en", "1,000.50", "1000.50"),
])
def test_spread_amounts_per_street_are_read_the_languages_way(language, typed, expected):
    from django.utils import translation

    from tables.limit_form import _per_street

    with translation.override(language):
        assert _per_street(typed) == expected


def test_a_bad_spread_amount_is_reported_on_its_field():
    from django.utils import translation

    from tables.limit_form import LimitConfigForm

    data = {"limit_type": "spread", "spread_min": "1e3", "spread_max": "10,00", "ante": "1,00", "bring_in_mode": "full_bet",
            "raise_cap": "3", "open_pair_option": "on", "taxe_mode": "flat", "taxe_amount": "2,00"}
    with translation.override("de-at"):
        form = LimitConfigForm(data, game="seven_card_stud")
        assert not form.is_valid()
        assert "1e3 ist kein Betrag" in " ".join(form.errors["spread_min"])
