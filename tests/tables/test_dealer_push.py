"""Dealer pushes: assign, relieve, break, each with a reason; an open table left without a dealer needs
the floor's confirmation (tables/services/dealer_push.py)."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError
from tables.models import DealerAssignment, DealerPush, Table
from tables.selectors import dealer_on_duty
from tables.services.dealer_push import dealer_push
from tests.factories import floor_manager, make_dealer, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor():
    boss = floor_manager()
    stud1 = make_table(status=Table.Status.OPEN, name="Stud 1")
    stud2 = make_table(status=Table.Status.OPEN, name="Stud 2")
    anna, bert = make_dealer("anna"), make_dealer("bert")
    dealer_push(dealer=anna, kind="assign", table=stud1, reason="shift start", actor=boss)
    return boss, stud1, stud2, anna, bert


def test_assigning_a_dealer_puts_them_on_the_table_and_records_the_reason(floor):
    boss, stud1, stud2, anna, bert = floor
    push = dealer_push(dealer=bert, kind="assign", table=stud2, reason="second table opens", actor=boss)
    assert dealer_on_duty(table=stud2) == bert
    assert (push.kind, push.reason, push.uncovered_table) == ("assign", "second table opens", None)


def test_relieving_the_only_dealer_of_an_open_table_asks_for_confirmation_naming_the_table(floor):
    boss, stud1, _, anna, _ = floor
    with pytest.raises(ApplicationError) as err:
        dealer_push(dealer=anna, kind="break", reason="tired", actor=boss)
    assert err.value.code == "needs_confirmation" and err.value.extra["table"] == "Stud 1"
    assert "Stud 1" in err.value.message
    assert dealer_on_duty(table=stud1) == anna
    assert DealerPush.objects.count() == 1  # only the assignment of the fixture
    push = dealer_push(dealer=anna, kind="break", reason="tired", actor=boss, confirm_uncovered=True)
    assert push.uncovered_table == stud1 and dealer_on_duty(table=stud1) is None


def test_moving_a_dealer_away_from_an_open_table_also_needs_confirmation(floor):
    boss, stud1, stud2, anna, _ = floor
    with pytest.raises(ApplicationError, match="Stud 1"):
        dealer_push(dealer=anna, kind="assign", table=stud2, reason="needed there", actor=boss)
    assert dealer_on_duty(table=stud2) is None


def test_a_relief_dealer_taking_over_leaves_nothing_uncovered(floor):
    boss, stud1, _, anna, bert = floor
    dealer_push(dealer=bert, kind="assign", table=stud1, reason="relief", actor=boss)
    assert dealer_on_duty(table=stud1) == bert
    assert DealerPush.objects.filter(uncovered_table__isnull=False).count() == 0


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"kind": "assign", "reason": ""}, "reason"),
    ({"kind": "dance", "reason": "x"}, "kind"),
    ({"kind": "assign", "reason": "x", "table": None}, "table"),
])
def test_pushes_without_reason_kind_or_table_are_refused(floor, kwargs, field):
    boss, stud1, _, _, bert = floor
    kwargs = {"table": stud1, **kwargs}
    before = DealerAssignment.objects.count()
    with pytest.raises(ApplicationError) as err:
        dealer_push(dealer=bert, actor=boss, **kwargs)
    assert err.value.extra["field"] == field
    assert DealerAssignment.objects.count() == before


def test_a_dealer_who_is_not_dealing_cannot_be_relieved(floor):
    boss, _, _, _, bert = floor
    with pytest.raises(ApplicationError) as err:
        dealer_push(dealer=bert, kind="relieve", reason="end", actor=boss)
    assert err.value.code == "not_dealing"


def test_a_takeover_that_uncovers_the_dealers_open_table_is_refused_until_confirmed(floor):
    from tables.services.dealer_push import dealer_takeover

    boss, stud1, stud2, anna, bert = floor
    before = DealerAssignment.objects.count()
    with pytest.raises(ApplicationError) as err:
        dealer_takeover(dealer=anna, table=stud2, actor=boss, reason="needed there")
    assert err.value.code == "needs_confirmation"
    assert err.value.extra == {"table": "Stud 1", "table_id": stud1.pk, "dealer": anna.pk}
    assert DealerAssignment.objects.count() == before and dealer_on_duty(table=stud1) == anna
    dealer_takeover(dealer=bert, table=stud1, actor=boss)  # a relief dealer first: nothing uncovered
    assert dealer_takeover(dealer=anna, table=stud2, actor=boss).table == stud2
    assert dealer_takeover(dealer=bert, table=stud2, actor=boss, confirm_uncovered=True).dealer == bert
    assert dealer_on_duty(table=stud1) is None and dealer_on_duty(table=stud2) == bert
