"""Working-time rules on rotation plans: the pure checks and every path that makes a plan."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.errors import ApplicationError
from tables.models import RotationPlan, Table
from tables.services import floor as services
from tables.services.working_time import Stint, WorkingTimeRules, working_time_violations
from tests.factories import floor_manager, make_dealer, make_table

T0 = dt.datetime(2026, 3, 6, 18, 0, tzinfo=dt.UTC)
RULES = WorkingTimeRules(max_deal_minutes=60, min_break_minutes=30, long_break_after_minutes=360,
                         long_break_minutes=30)


def day(*pattern: tuple[int, str | None]) -> list[Stint]:
    """Stints of dealer 'anna' from T0: (minutes, table or None for a break), one after another."""
    out, at = [], T0
    for minutes, table in pattern:
        out.append(Stint("anna", at, at + dt.timedelta(minutes=minutes), table))
        at += dt.timedelta(minutes=minutes)
    return out


def test_the_house_rhythm_is_kept_by_sixty_minutes_then_thirty_off():
    assert working_time_violations(stints=day((60, "Stud 1"), (30, None), (60, "Stud 2")), rules=RULES) == []


def test_four_hours_forty_without_a_break_is_named_with_the_slot_and_both_rules():
    stints = day(*[(20, f"Stud {i % 2 + 1}") for i in range(14)])
    found = working_time_violations(stints=stints, rules=RULES)
    assert [v.rule for v in found] == ["H2"]
    assert found[0].minutes == 280 and found[0].start == T0 + dt.timedelta(minutes=60)


def test_a_short_break_between_two_stretches_is_refused():
    found = working_time_violations(stints=day((60, "Stud 1"), (10, None), (30, "Stud 1")), rules=RULES)
    assert [v.rule for v in found] == ["H2-break"]


def test_the_austrian_rule_wants_thirty_minutes_in_one_piece_after_six_hours():
    # 60 min deal / 20 min break (a house rhythm of 20-minute periods): no 30-minute break in 7 hours.
    rhythm = WorkingTimeRules(max_deal_minutes=60, min_break_minutes=20)
    stints = day(*[(60, "Capsa 1") if i % 2 == 0 else (20, None) for i in range(13)])
    found = working_time_violations(stints=stints, rules=rhythm)
    assert [v.rule for v in found] == ["AZG11"]
    assert found[0].limit == 360
    with_long = day(*[(60, "Capsa 1"), (20, None)] * 3, (60, "Capsa 1"), (30, None), *[(60, "Capsa 1"), (20, None)] * 2)
    assert working_time_violations(stints=with_long, rules=rhythm) == []


@pytest.mark.django_db
def test_editing_the_slots_to_deal_four_hours_forty_is_refused_with_dealer_slot_and_rule():
    boss = floor_manager()
    table = make_table(status=Table.Status.OPEN)
    anna, bert, cleo = (make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo"))
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    plan = services.rotation_plan_generate(name="late", shift_start=start, shift_end=start + dt.timedelta(minutes=280),
                                           tables=[table], dealers=[anna, bert, cleo], period_minutes=20,
                                           periods_before_break=3, actor=boss)
    slots = [{"dealer": anna, "table": table, "start": start, "end": start + dt.timedelta(minutes=280)}]
    with pytest.raises(ApplicationError) as err:
        services.rotation_plan_slots_replace(plan=plan, slots=slots, actor=boss)
    assert err.value.code == "working_time"
    assert "anna" in err.value.message and "(rule H2)" in err.value.message
    assert err.value.extra["violations"][0]["table"] == table.name
    assert plan.slots.count() == 3 * 14  # nothing replaced


@pytest.mark.django_db
def test_publishing_a_plan_that_breaks_the_rules_is_refused(settings):
    boss = floor_manager()
    table = make_table(status=Table.Status.OPEN)
    anna = make_dealer("anna", ["seven_card_stud"])
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    plan = RotationPlan.objects.create(name="raw", shift_start=start, shift_end=start + dt.timedelta(hours=2))
    plan.tables.set([table])
    plan.dealers.set([anna])
    plan.slots.create(dealer=anna, table=table, start=start, end=start + dt.timedelta(hours=2))
    with pytest.raises(ApplicationError, match="anna") as err:
        services.rotation_plan_publish(plan=plan, actor=boss)
    assert err.value.code == "working_time"
    plan.refresh_from_db()
    assert plan.status == "proposed" and not plan.slots.first().assignments.exists()


@pytest.mark.django_db
def test_too_few_dealers_are_told_how_many_relief_dealers_to_call_or_which_table_to_close():
    tables = [make_table(status=Table.Status.OPEN, name=f"Stud {i}") for i in (1, 2, 3)]
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo")]
    start = timezone.now() + dt.timedelta(hours=1)
    with pytest.raises(ApplicationError) as err:
        services.rotation_plan_generate(name="thin", shift_start=start, shift_end=start + dt.timedelta(hours=4),
                                        tables=tables, dealers=dealers)
    assert err.value.code == "plan_infeasible"
    assert "call 2 relief dealers" in err.value.message and "or close table Stud 3" in err.value.message


@pytest.mark.django_db
def test_the_api_refuses_slots_that_deal_four_hours_forty_without_a_break(api_client):
    api_client.force_authenticate(floor_manager())
    table = make_table(status=Table.Status.OPEN)
    anna, bert, cleo = (make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo"))
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    plan = services.rotation_plan_generate(name="late", shift_start=start, shift_end=start + dt.timedelta(minutes=280),
                                           tables=[table], dealers=[anna, bert, cleo], period_minutes=20,
                                           periods_before_break=3)
    slots = [{"dealer": anna.pk, "table": table.pk, "start": start.isoformat(),
              "end": (start + dt.timedelta(minutes=280)).isoformat()}]
    response = api_client.put(f"/api/v1/rotation-plans/{plan.pk}/slots/", {"slots": slots}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "working_time" and "anna" in body["message"]
    assert [v["rule"] for v in body["extra"]["violations"]] == ["H2"]
    assert plan.slots.count() == 3 * 14


def _runs_off(plan, dealer) -> list[int]:
    """Minutes of each break between two deals of ``dealer`` in ``plan`` (consecutive break slots joined)."""
    runs, current, dealt = [], 0, False
    for slot in plan.slots.filter(dealer=dealer).order_by("start"):
        if slot.table_id is None:
            current += round((slot.end - slot.start).total_seconds() / 60)
            continue
        if dealt and current:
            runs.append(current)
        current, dealt = 0, True
    return runs


@pytest.mark.django_db
def test_the_planner_schedules_the_thirty_minute_break_after_six_hours_instead_of_refusing():
    # 20-minute periods, 3 in a row (one hour), then 20 minutes off: the house rhythm's breaks are too short
    # for AZG § 11, so over ten hours every dealer needs one break of 30 minutes (two periods) in one piece.
    boss = floor_manager()
    tables = [make_table(status=Table.Status.OPEN, name=f"Stud {i}") for i in (1, 2, 3, 4)]
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo", "dora", "emil", "fred")]
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    plan = services.rotation_plan_generate(name="long evening", shift_start=start,
                                           shift_end=start + dt.timedelta(hours=10), tables=tables, dealers=dealers,
                                           period_minutes=20, periods_before_break=3, actor=boss)
    assert plan.slots.count() == 6 * 30
    for dealer in dealers:
        dealt = plan.slots.filter(dealer=dealer, table__isnull=False).count() * 20
        if dealt > 360:
            assert max(_runs_off(plan, dealer)) >= 30, dealer  # the long break, planned in
    for period in range(30):  # every table still has its dealer: the dealers on break relieve
        at = start + dt.timedelta(minutes=20 * period)
        assert plan.slots.filter(start=at, table__isnull=False).count() == 4
    services.rotation_plan_publish(plan=plan, actor=boss)  # and the plan passes every check
    plan.refresh_from_db()
    assert plan.status == "published"


@pytest.mark.django_db
def test_when_the_long_breaks_cannot_be_staffed_the_refusal_says_how_many_relief_dealers_or_which_table():
    # Two tables, three dealers, 20-minute periods, 2 in a row, ten hours: the counts just fit, but the
    # dealer who starts on a break has no room left for the 30-minute break; one more dealer would do.
    tables = [make_table(status=Table.Status.OPEN, name=f"Stud {i}") for i in (1, 2)]
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo")]
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    with pytest.raises(ApplicationError) as err:
        services.rotation_plan_generate(name="thin", shift_start=start, shift_end=start + dt.timedelta(hours=10),
                                        tables=tables, dealers=dealers, period_minutes=20, periods_before_break=2)
    assert err.value.code == "plan_infeasible"
    assert "working-time rule" in err.value.message
    assert err.value.extra["advice"] == "call 1 relief dealer or close table Stud 2"
    assert not RotationPlan.objects.exists()


@pytest.mark.django_db
def test_the_refusal_for_too_few_dealers_counts_the_long_breaks_and_reads_in_german():
    from django.utils import translation

    from casino.i18n import message_text

    tables = [make_table(status=Table.Status.OPEN, name=f"Stud {i:02}") for i in range(1, 13)]
    dealers = [make_dealer(f"d{i}", ["seven_card_stud"]) for i in range(16)]
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    with translation.override("de"), pytest.raises(ApplicationError) as err:
        services.rotation_plan_generate(name="big", shift_start=start, shift_end=start + dt.timedelta(hours=10),
                                        tables=tables, dealers=dealers, period_minutes=20, periods_before_break=3)
    assert "at least 17 dealers" in err.value.message.params["reason"]
    assert err.value.extra["advice"] == "1 Ablöse-Croupier rufen oder den Tisch Stud 12 schließen"
    with translation.override("de"):
        assert message_text(err.value.message).startswith("nicht jeder Tisch kann besetzt werden")
