"""The duty roster cannot be rewritten after the fact (issue 20): an assignment wholly in the past, or a
running one cut short before now, is refused; corrections of the past are explicit records with a reason,
beside the assignments that hands point to, never edits of them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.errors import ApplicationError
from casino.models import AuditEntry
from casino.roles import CROUPIER, FLOOR_MANAGER
from tables.models import DealerAssignment, DutyCorrection, Game
from tables.models import Table as T
from tables.selectors import dealer_on_duty
from tables.services import floor as services
from tables.services.roster import duty_correction_record
from tests.factories import make_dealer, make_table, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return make_user("boss", FLOOR_MANAGER)


def _minutes(n: int) -> dt.datetime:
    return timezone.now() + dt.timedelta(minutes=n)


def test_an_assignment_wholly_in_the_past_is_refused(boss):
    table = make_table(status=T.Status.OPEN)
    anna = make_dealer("anna")
    with pytest.raises(ApplicationError, match="correction") as refused:
        services.dealer_assignment_start(dealer=anna, table=table, at=_minutes(-90), end=_minutes(-30), actor=boss)
    assert refused.value.code == "roster_history"
    assert not DealerAssignment.objects.exists()


def test_a_takeover_back_in_time_that_cuts_a_running_assignment_short_is_refused(boss):
    table = make_table(status=T.Status.OPEN)
    anna, ben = make_dealer("anna"), make_dealer("ben")
    first = services.dealer_assignment_start(dealer=anna, table=table, at=_minutes(-60), actor=boss)
    with pytest.raises(ApplicationError, match="before now") as refused:
        services.dealer_assignment_start(dealer=ben, table=table, at=_minutes(-20), actor=boss)
    assert refused.value.code == "roster_history"
    first.refresh_from_db()
    assert first.end is None and dealer_on_duty(table=table, at=_minutes(-10)) == anna
    assert DealerAssignment.objects.count() == 1


def test_ending_a_running_assignment_before_now_is_refused(boss):
    table = make_table(status=T.Status.OPEN)
    running = services.dealer_assignment_start(dealer=make_dealer("anna"), table=table, at=_minutes(-60), actor=boss)
    with pytest.raises(ApplicationError, match="before now"):
        services.dealer_assignment_end(assignment=running, at=_minutes(-30), actor=boss)
    running.refresh_from_db()
    assert running.end is None


def test_a_takeover_now_and_an_end_now_still_work(boss):
    stud, capsa = make_table(status=T.Status.OPEN), make_table(game=Game.CAPSA_SUSUN, status=T.Status.OPEN)
    anna, ben = make_dealer("anna"), make_dealer("ben")
    first = services.dealer_assignment_start(dealer=anna, table=stud, at=_minutes(-60), actor=boss)
    second = services.dealer_assignment_start(dealer=ben, table=stud, actor=boss)
    first.refresh_from_db()
    assert first.end is not None and dealer_on_duty(table=stud) == ben
    services.dealer_assignment_start(dealer=ben, table=capsa, at=_minutes(30), actor=boss)  # planned ahead
    ended = services.dealer_assignment_end(assignment=second, actor=boss)
    assert ended.end is not None


def test_publishing_a_plan_never_creates_assignments_that_are_already_over(boss):
    now = timezone.now().replace(second=0, microsecond=0)
    table = make_table(status=T.Status.OPEN)
    anna, ben = make_dealer("anna"), make_dealer("ben")
    plan = services.rotation_plan_generate(name="late", shift_start=now - dt.timedelta(hours=2),
                                           shift_end=now + dt.timedelta(hours=2), tables=[table],
                                           dealers=[anna, ben], actor=boss)
    services.rotation_plan_publish(plan=plan, actor=boss)
    made = DealerAssignment.objects.filter(slot__plan=plan)
    assert made.exists() and all(a.end > now for a in made)
    skipped = AuditEntry.objects.get(subject="tables.rotationplan", subject_id=str(plan.pk),
                                     action="past_slots_not_assigned")
    assert skipped.data["past_slots_not_assigned"] >= 1


def test_a_correction_of_the_past_is_a_record_with_a_reason_and_changes_no_assignment(boss):
    table = make_table(status=T.Status.OPEN)
    anna, ben = make_dealer("anna"), make_dealer("ben")
    running = services.dealer_assignment_start(dealer=anna, table=table, at=_minutes(-60), actor=boss)
    with pytest.raises(ApplicationError, match="reason"):
        duty_correction_record(dealer=ben, table=table, start=_minutes(-40), end=_minutes(-20), reason=" ",
                               actor=boss)
    correction = duty_correction_record(dealer=ben, table=table, start=_minutes(-40), end=_minutes(-20),
                                        assignment=running, reason="anna was on break; ben dealt", actor=boss)
    assert correction.recorded_by == boss and correction.reason == "anna was on break; ben dealt"
    running.refresh_from_db()
    assert running.end is None and dealer_on_duty(table=table, at=_minutes(-30)) == anna
    assert AuditEntry.objects.filter(action="duty_corrected", subject_id=str(correction.pk)).exists()


def test_a_correction_is_of_the_past_only(boss):
    table = make_table(status=T.Status.OPEN)
    with pytest.raises(ApplicationError, match="past"):
        duty_correction_record(dealer=make_dealer("anna"), table=table, start=_minutes(-10), end=_minutes(10),
                               reason="typo", actor=boss)
    assert not DutyCorrection.objects.exists()


def test_the_api_refuses_history_edits_and_records_corrections(api_client, boss):
    table = make_table(status=T.Status.OPEN)
    anna = make_dealer("anna")
    api_client.force_authenticate(boss)
    refused = api_client.post("/api/v1/dealer-assignments/", {"dealer": anna.pk, "table": table.pk,
                                                              "at": _minutes(-90).isoformat(),
                                                              "end": _minutes(-30).isoformat()}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "roster_history"
    body = {"dealer": anna.pk, "table": table.pk, "start": _minutes(-90).isoformat(), "end": _minutes(-30).isoformat(),
            "reason": "paper roster said anna"}
    made = api_client.post("/api/v1/duty-corrections/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["recorded_by"] == "boss" and made.json()["reason"] == "paper roster said anna"
    listed = api_client.get("/api/v1/duty-corrections/")
    assert listed.status_code == 200 and listed.json()["count"] == 1
    api_client.force_authenticate(make_user("c", CROUPIER))
    assert api_client.post("/api/v1/duty-corrections/", body, format="json").status_code == 403
