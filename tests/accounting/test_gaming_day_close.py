"""Issue 17: four eyes enforced by the services, the gaming-day close, the lock, re-opening, the tronc."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.test import override_settings

from accounting.models import Approval, Discrepancy, DropCount, GamingDay, JournalEntry, Posting
from accounting.selectors import drop_logged
from accounting.services.approvals import (
    approval_decide,
    discrepancy_resolve_request,
    gaming_day_reopen_request,
    journal_entry_reverse_request,
)
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off, shift_bounds
from accounting.services.gaming_day import gaming_day_blockers, gaming_day_close, gaming_day_state
from accounting.services.ledger import LedgerLine, account_for_table, journal_entry_post
from accounting.services.reconciliation import gaming_day_reconcile
from accounting.services.reports import tax_report_build
from accounting.services.tronc import tronc_count_confirm, tronc_count_record
from casino.errors import ApplicationError, ConflictError
from casino.models import AuditEntry
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)
EVENING = dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC)  # 20:00 Vienna


@pytest.fixture
def people(role_user):
    return [role_user("accountant", username=name) for name in ("anna", "bernd", "clara")]


def _dealt_day(n=4, games=("seven_card_stud", "forty_one")):
    rng = random.Random(17)
    tables = []
    for game in games:
        table = make_table(game)
        for i in range(n):
            make_hand(table, rng=rng, opened_at=EVENING + dt.timedelta(minutes=3 * i))
        tables.append(table)
    gaming_day_reconcile(day=DAY)
    return tables


def _count_everything(tables, counter, confirmer):
    for table in tables:
        drop = drop_count_record(table=table, gaming_day=DAY, counted=str(drop_logged(table_id=table.id,
                                                                                          gaming_day=DAY)),
                                 actor=counter)
        drop_count_confirm(drop_count=drop, actor=confirmer)
        tronc = tronc_count_record(table=table, gaming_day=DAY, counted="12.50", actor=counter)
        tronc_count_confirm(tronc_count=tronc, actor=confirmer)


def test_a_drop_count_is_confirmed_by_a_second_accountant_never_by_the_one_who_counted(people):
    anna, bernd, _ = people
    table = make_table("seven_card_stud")
    count = drop_count_record(table=table, gaming_day=DAY, counted="0.00", actor=anna)
    with pytest.raises(ApplicationError) as err:
        drop_count_confirm(drop_count=count, actor=anna)
    assert (err.value.code, err.value.status_code) == ("second_person_required", 403)
    assert "another accountant" in err.value.message
    confirmed = drop_count_confirm(drop_count=count, actor=bernd)
    assert confirmed.confirmed_by == bernd
    with pytest.raises(ConflictError):
        drop_count_confirm(drop_count=count, actor=people[2])
    assert AuditEntry.objects.filter(action="drop_confirmed", actor=bernd).exists()


def test_a_variance_is_signed_off_by_a_third_person_who_neither_counted_nor_confirmed(people):
    anna, bernd, clara = people
    table = make_table("seven_card_stud")
    count = drop_count_record(table=table, gaming_day=DAY, counted="100.00", actor=anna)
    assert count.status == DropCount.Status.NEEDS_SIGN_OFF
    with pytest.raises(ApplicationError) as err:
        drop_count_sign_off(drop_count=count, actor=clara, note="before confirmation")
    assert err.value.code == "not_confirmed"
    drop_count_confirm(drop_count=count, actor=bernd)
    for who in (anna, bernd):
        with pytest.raises(ApplicationError) as err:
            drop_count_sign_off(drop_count=count, actor=who, note="my own count")
        assert err.value.code == "second_person_required"
    signed = drop_count_sign_off(drop_count=count, actor=clara, note="recounted: tips in the drop box")
    assert (signed.status, signed.signed_off_by) == (DropCount.Status.SIGNED_OFF, clara)


def test_a_tronc_count_needs_a_second_accountant(people, role_user):
    anna, bernd, _ = people
    table = make_table("forty_one")
    with pytest.raises(ApplicationError) as err:
        tronc_count_record(table=table, gaming_day=DAY, counted="10.00", actor=role_user("floor_manager"))
    assert err.value.status_code == 403
    count = tronc_count_record(table=table, gaming_day=DAY, shift="late", counted="31.40", actor=anna)
    with pytest.raises(ConflictError):
        tronc_count_record(table=table, gaming_day=DAY, counted="1.00", actor=anna)  # whole day after a shift
    with pytest.raises(ApplicationError) as err:
        tronc_count_confirm(tronc_count=count, actor=anna)
    assert err.value.code == "second_person_required"
    assert tronc_count_confirm(tronc_count=count, actor=bernd).confirmed_by == bernd


@override_settings(FOUR_EYES_APPROVAL_AMOUNT="50.00")
def test_a_large_discrepancy_is_resolved_only_with_a_second_persons_approval(people):
    anna, bernd, _ = people
    small = Discrepancy.objects.create(check_key="t:small", kind="tax", what="w", expected="2.00", found="4.00",
                                       gaming_day=DAY)
    big = Discrepancy.objects.create(check_key="t:big", kind="tax", what="w", expected="2.00", found="402.00",
                                     gaming_day=DAY)
    assert discrepancy_resolve_request(discrepancy=small, actor=anna, note="typo").status == "resolved"
    approval = discrepancy_resolve_request(discrepancy=big, actor=anna, note="chip miscount, see report 7")
    assert isinstance(approval, Approval) and approval.amount == Decimal("400.00")
    big.refresh_from_db()
    assert big.status == Discrepancy.Status.OPEN
    with pytest.raises(ConflictError):
        discrepancy_resolve_request(discrepancy=big, actor=anna, note="again")
    with pytest.raises(ApplicationError) as err:
        approval_decide(approval=approval, actor=anna, approve=True)
    assert err.value.code == "second_person_required"
    decided = approval_decide(approval=approval, actor=bernd, approve=True)
    big.refresh_from_db()
    assert (decided.status, big.status, big.resolved_by) == ("approved", "resolved", anna)
    assert "approved by bernd" in big.resolution_note
    with pytest.raises(ConflictError):
        approval_decide(approval=decided, actor=people[2], approve=False)


@override_settings(FOUR_EYES_APPROVAL_AMOUNT="1.00")
def test_a_large_reversal_waits_for_a_second_person(people):
    anna, bernd, _ = people
    table = _dealt_day(n=1, games=("seven_card_stud",))[0]
    entry = JournalEntry.objects.filter(table=table, kind=JournalEntry.Kind.HAND_SETTLEMENT).first()
    approval = journal_entry_reverse_request(entry=entry, actor=anna, reason="hand logged at the wrong table")
    assert isinstance(approval, Approval)
    assert not JournalEntry.objects.filter(reverses=entry).exists()
    approval_decide(approval=approval, actor=bernd, approve=True)
    reversal = JournalEntry.objects.get(reverses=entry)
    assert reversal.created_by == anna


@override_settings(FOUR_EYES_APPROVAL_AMOUNT="1.00")
def test_a_reason_awaiting_approval_leaves_room_for_the_approvers_name(people, django_user_model):
    """Carried out, the reason is stored as "<reason> (approved by <user>)" in a 2000-character column: a request
    is refused at once when the longest name would not fit (a 2000-character reason was approved into a 500)."""
    anna, _, _ = people
    bernd = django_user_model.objects.create_user(username="b" * 150, password="pw-for-tests-only")
    bernd.groups.add(*anna.groups.all())
    table = _dealt_day(n=1, games=("seven_card_stud",))[0]
    entry = JournalEntry.objects.filter(table=table, kind=JournalEntry.Kind.HAND_SETTLEMENT).first()
    with pytest.raises(ApplicationError, match="at most 1835 characters") as err:
        journal_entry_reverse_request(entry=entry, actor=anna, reason="x" * 1836)
    assert err.value.code == "note_too_long" and not Approval.objects.exists()
    approval = journal_entry_reverse_request(entry=entry, actor=anna, reason="x" * 1835)
    approval_decide(approval=approval, actor=bernd, approve=True)
    assert len(JournalEntry.objects.get(reverses=entry).reason) == 2000


def test_closing_is_refused_while_anything_blocks_and_the_blockers_are_listed_with_links(people):
    anna, bernd, _ = people
    tables = _dealt_day()
    Discrepancy.objects.create(check_key="t:x", kind="tax", what="w", expected="1.00", found="2.00", gaming_day=DAY)
    codes = {b.code for b in gaming_day_blockers(DAY)}
    assert codes == {"discrepancies_open", "drop_not_counted", "tronc_not_counted"}
    assert gaming_day_state(DAY) == "open"
    with pytest.raises(ApplicationError) as err:
        gaming_day_close(day=DAY, actor=anna)
    assert err.value.code == "gaming_day_blocked"
    assert all(b["url"].startswith("/accounting/days/2026-05-04/#") for b in err.value.extra["blockers"])
    drop = drop_count_record(table=tables[0], gaming_day=DAY, counted="0.00", actor=anna)
    codes = {b.code for b in gaming_day_blockers(DAY)}
    assert {"drop_not_confirmed", "drop_variance_not_signed_off"} <= codes
    assert drop.status == DropCount.Status.NEEDS_SIGN_OFF
    assert GamingDay.objects.filter(day=DAY, status="closed").count() == 0


def test_today_cannot_be_closed(people):
    from django.utils import timezone

    from casino.gaming_day import gaming_day_of

    today = gaming_day_of(timezone.now())
    assert [b.code for b in gaming_day_blockers(today)] == ["day_not_over"]


def test_the_happy_path_closes_the_day_and_locks_it(people):
    anna, bernd, clara = people
    tables = _dealt_day()
    _count_everything(tables, anna, bernd)
    assert gaming_day_state(DAY) == "ready_to_close"
    before = tax_report_build(date_from=DAY, date_to=DAY)
    closed = gaming_day_close(day=DAY, actor=clara)
    assert (closed.status, closed.closed_by, len(closed.checksum)) == ("closed", clara, 64)
    assert gaming_day_state(DAY) == "closed"
    assert AuditEntry.objects.filter(action="gaming_day_closed", actor=clara).exists()
    # no posting dated in a closed day
    lines = [LedgerLine(account=account_for_table(tables[0], "tax"), amount=Decimal("1.00")),
             LedgerLine(account=account_for_table(tables[0], "pot"), amount=Decimal("-1.00"))]
    with pytest.raises(ConflictError) as err:
        journal_entry_post(lines=lines, idempotency_key="late-post", gaming_day=DAY)
    assert err.value.code == "gaming_day_closed"
    with pytest.raises(ConflictError):
        tronc_count_record(table=tables[0], gaming_day=DAY, shift="night", counted="1.00", actor=anna)
    # a correction is a reversal in the next open day, pointing to the original
    entry = JournalEntry.objects.filter(gaming_day=DAY, kind=JournalEntry.Kind.HAND_SETTLEMENT).first()
    reversal = journal_entry_reverse_request(entry=entry, actor=anna, reason="wrong table")
    if isinstance(reversal, Approval):
        approval_decide(approval=reversal, actor=bernd, approve=True)
        reversal = JournalEntry.objects.get(reverses=entry)
    assert reversal.reverses == entry and reversal.gaming_day > DAY
    # the closed day's report never changes
    after = tax_report_build(date_from=DAY, date_to=DAY)
    assert after.rows == before.rows and after.totals == before.totals
    assert after.days[DAY]["closed"] and after.days[DAY]["checksum"] == closed.checksum
    with pytest.raises(ConflictError):
        gaming_day_close(day=DAY, actor=anna)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the closed-day trigger exists on PostgreSQL only")
def test_the_database_refuses_an_entry_in_a_closed_day_even_past_the_service():
    GamingDay.objects.create(day=DAY, status=GamingDay.Status.CLOSED)
    with pytest.raises(IntegrityError), transaction.atomic():
        JournalEntry.objects.create(idempotency_key="raw", kind="adjustment", gaming_day=DAY,
                                    posted_at=EVENING)


def test_reopening_needs_a_reason_and_a_second_person_and_is_audited(people):
    anna, bernd, clara = people
    tables = _dealt_day(n=1, games=("forty_one",))
    _count_everything(tables, anna, bernd)
    gaming_day_close(day=DAY, actor=clara)
    with pytest.raises(ApplicationError) as err:
        gaming_day_reopen_request(day=DAY, actor=clara, reason=" ")
    assert err.value.code == "reason_required"
    request = gaming_day_reopen_request(day=DAY, actor=clara, reason="drop box of table 2 found in the safe")
    with pytest.raises(ApplicationError) as err:
        approval_decide(approval=request, actor=clara, approve=True)
    assert err.value.code == "second_person_required"
    assert gaming_day_state(DAY) == "closed"
    approval_decide(approval=request, actor=anna, approve=True)
    assert GamingDay.objects.get(day=DAY).status == "open"
    audit = AuditEntry.objects.get(action="gaming_day_reopened")
    assert (audit.actor, audit.reason, audit.data["requested_by"]) == (anna, "drop box of table 2 found in the safe",
                                                                       "clara")
    with pytest.raises(ConflictError):
        gaming_day_reopen_request(day=DAY, actor=clara, reason="twice")


def test_a_hand_opened_before_the_day_start_counts_on_the_night_shift_of_its_day(people):
    """The hand opens 05:58 Vienna (gaming day 2026-05-04, night shift) and settles 06:00 + 2 min."""
    table = make_table("seven_card_stud")
    opened = dt.datetime(2026, 5, 5, 3, 58, tzinfo=dt.UTC)  # 05:58 Vienna on 5 May
    hand = make_hand(table, rng=random.Random(3), opened_at=opened)
    assert hand.gaming_day == DAY
    tax = Posting.objects.filter(entry__hand=hand, account__code__endswith=":tax").aggregate(t=Sum("amount"))["t"]
    assert tax and tax > 0
    night = shift_bounds(gaming_day=DAY, shift="night")
    early = shift_bounds(gaming_day=DAY, shift="early")
    assert drop_logged(table_id=table.id, gaming_day=DAY, start=night[0], end=night[1]) == tax
    assert drop_logged(table_id=table.id, gaming_day=DAY, start=early[0], end=early[1]) == Decimal("0.00")
    report = tax_report_build(date_from=DAY, date_to=DAY)
    assert report.totals["tax"] == tax
