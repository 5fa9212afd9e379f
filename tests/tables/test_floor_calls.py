"""Floor calls: a croupier calls the floor to a table; the floor resolves it (tables/services/floor_calls.py)."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError
from casino.models import AuditEntry
from casino.roles import CROUPIER, FLOOR_MANAGER
from tables.models import FloorCall, Table
from tables.services.floor_calls import floor_call_create, floor_call_resolve
from tests.factories import make_table, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def croupier():
    return make_user("carla", CROUPIER)


def test_a_call_is_opened_with_reason_note_and_who_and_is_audited(croupier):
    table = make_table(status=Table.Status.OPEN)
    call = floor_call_create(table=table, reason="ruling", note="seat 3 acted out of turn", actor=croupier)
    assert (call.status, call.reason, call.note, call.created_by) == ("open", "ruling", "seat 3 acted out of turn", croupier)
    assert AuditEntry.objects.filter(subject="tables.floorcall", subject_id=str(call.pk), action="floor_call_opened").exists()


def test_pressing_twice_returns_the_open_call_instead_of_paging_again(croupier):
    table = make_table(status=Table.Status.OPEN)
    first = floor_call_create(table=table, reason="chips", actor=croupier)
    second = floor_call_create(table=table, reason="chips", note="greens", actor=croupier)
    assert second.pk == first.pk
    assert FloorCall.objects.filter(table=table).count() == 1
    assert "greens" in FloorCall.objects.get().note


@pytest.mark.parametrize(("kwargs", "field"), [({"reason": "coffee"}, "reason"), ({"reason": "other", "note": "x" * 501}, "note")])
def test_bad_input_is_refused_and_nothing_is_written(kwargs, field, croupier):
    table = make_table(status=Table.Status.OPEN)
    with pytest.raises(ApplicationError) as err:
        floor_call_create(table=table, actor=croupier, **kwargs)
    assert err.value.extra["field"] == field
    assert not FloorCall.objects.exists()


def test_a_closed_table_cannot_call_the_floor(croupier):
    table = make_table()
    with pytest.raises(ApplicationError, match="closed"):
        floor_call_create(table=table, reason="ruling", actor=croupier)
    assert not FloorCall.objects.exists()


def test_the_floor_resolves_a_call_once(croupier):
    boss = make_user("boss", FLOOR_MANAGER)
    table = make_table(status=Table.Status.OPEN)
    call = floor_call_create(table=table, reason="dispute", actor=croupier)
    done = floor_call_resolve(call=call, actor=boss, note="pot to seat 2")
    assert (done.status, done.resolved_by, done.resolution_note) == ("resolved", boss, "pot to seat 2")
    assert done.resolved_at is not None
    with pytest.raises(ApplicationError, match="already resolved"):
        floor_call_resolve(call=call, actor=boss)
    again = floor_call_create(table=table, reason="dispute", actor=croupier)
    assert again.pk != call.pk


@pytest.mark.parametrize(("reason", "needs_note"), [("dispute", True), ("ruling", True), ("chips", False)])
def test_a_ruling_or_a_dispute_is_resolved_with_what_was_decided(croupier, reason, needs_note):
    boss = make_user("boss", FLOOR_MANAGER)
    call = floor_call_create(table=make_table(status=Table.Status.OPEN), reason=reason, actor=croupier)
    if needs_note:
        with pytest.raises(ApplicationError, match="Say what was decided") as refused:
            floor_call_resolve(call=call, actor=boss, note="  ")
        assert refused.value.code == "note_required"
        assert FloorCall.objects.get(pk=call.pk).status == "open"
    else:
        assert floor_call_resolve(call=call, actor=boss).status == "resolved"
