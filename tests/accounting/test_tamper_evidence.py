"""A tamper-evident record (issue 20): the database refuses what must never change, and every change
made behind the service's back (as the owner, with the triggers off) is reported by the gaming-day
reconciliation as a discrepancy: a changed hand or day is checked again, never skipped."""

from __future__ import annotations

import datetime as dt
import json
import random
from decimal import Decimal

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from accounting.models import Discrepancy, DropCount, JournalEntry, Posting, ReconciliationRun
from accounting.services.ledger import account_for_table
from accounting.services.reconciliation import gaming_day_reconcile, hand_reconcile
from casino.models import AuditEntry
from casino.status import audit_record
from tables.models import Hand, HandEvent
from tests.accounting.helpers import make_hand, make_table
from tests.accounting.tamper import behind_the_service

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="database triggers exist on PostgreSQL")
DAY = dt.date(2026, 5, 12)
IN_DAY = dt.datetime(2026, 5, 12, 18, 0, tzinfo=dt.UTC)


def _day_of_hands():
    rng = random.Random(20)
    return {game: make_hand(make_table(game), rng=rng, opened_at=IN_DAY + dt.timedelta(minutes=i))
            for i, game in enumerate(("seven_card_stud", "forty_one", "capsa_susun"))}


def _settlement(hand) -> JournalEntry:
    return JournalEntry.objects.get(hand=hand, kind=JournalEntry.Kind.HAND_SETTLEMENT)


# --- what the database refuses (PostgreSQL) -------------------------------------------------------------------


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_balanced_pair_added_to_a_posted_entry_is_refused():
    hand = make_hand(make_table("seven_card_stud"), rng=random.Random(1), opened_at=IN_DAY)
    entry = _settlement(hand)
    tax, players = account_for_table(hand.table, "tax"), account_for_table(hand.table, "players")
    with pytest.raises(IntegrityError, match="sealed"), transaction.atomic():
        Posting.objects.create(entry=entry, account=tax, amount=Decimal("100.00"), role="tax")
        Posting.objects.create(entry=entry, account=players, amount=Decimal("-100.00"), role="contribution", seat=1)
    assert entry.postings.count() == len(entry.postings.all()) and not entry.postings.filter(amount=100).exists()


def _audit_row():
    hand = make_hand(make_table("forty_one"), rng=random.Random(2), opened_at=IN_DAY)
    return audit_record(obj=hand, action="test", reason="as written")


def _run_row():
    hand = make_hand(make_table("forty_one"), rng=random.Random(3), opened_at=IN_DAY)
    return hand_reconcile(hand_id=hand.id)


def _drop_count():
    table = make_table("forty_one")
    return DropCount.objects.create(table=table, gaming_day=DAY, counted=Decimal("10.00"), logged=Decimal("10.00"),
                                    variance=Decimal("0.00"))


def _discrepancy():
    return Discrepancy.objects.create(check_key="test:1", kind="tax", what="a finding", expected="1.00", found="2.00")


REFUSED = {
    "edit an event": (lambda: make_hand(make_table("capsa_susun"), rng=random.Random(4), opened_at=IN_DAY),
                      lambda hand: HandEvent.objects.filter(hand=hand, seq=1).update(payload={"type": "x"})),
    "delete an event": (lambda: make_hand(make_table("capsa_susun"), rng=random.Random(4), opened_at=IN_DAY),
                        lambda hand: HandEvent.objects.filter(hand=hand).delete()),
    "change a hand's seats": (lambda: make_hand(make_table("capsa_susun"), rng=random.Random(4), opened_at=IN_DAY),
                              lambda hand: Hand.objects.filter(pk=hand.pk).update(seats={})),
    "edit an audit row": (_audit_row, lambda row: AuditEntry.objects.filter(pk=row.pk).update(reason="rewritten")),
    "delete an audit row": (_audit_row, lambda row: AuditEntry.objects.filter(pk=row.pk).delete()),
    "re-key a run": (_run_row, lambda run: ReconciliationRun.objects.filter(pk=run.pk).update(key="other")),
    "delete a run": (_run_row, lambda run: ReconciliationRun.objects.filter(pk=run.pk).delete()),
    "rewrite a finding": (_discrepancy, lambda d: Discrepancy.objects.filter(pk=d.pk).update(found="1.00")),
    "delete a finding": (_discrepancy, lambda d: Discrepancy.objects.filter(pk=d.pk).delete()),
    "change a count": (_drop_count, lambda c: DropCount.objects.filter(pk=c.pk).update(counted=Decimal("9.00"))),
    "delete a count": (_drop_count, lambda c: DropCount.objects.filter(pk=c.pk).delete()),
}


@postgres_only
@pytest.mark.parametrize("change", sorted(REFUSED))
def test_the_database_refuses_to(change):
    make, write = REFUSED[change]
    row = make()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        write(row)


@postgres_only
def test_legitimate_status_moves_still_work():
    finding = _discrepancy()
    Discrepancy.objects.filter(pk=finding.pk).update(status=Discrepancy.Status.RESOLVED, resolution_note="fixed")
    count = _drop_count()
    DropCount.objects.filter(pk=count.pk).update(status=DropCount.Status.SIGNED_OFF)
    hand = make_hand(make_table("forty_one"), rng=random.Random(5), opened_at=IN_DAY)
    Hand.objects.filter(pk=hand.pk).update(reconciliation=Hand.Reconciliation.RECONCILED)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Discrepancy.objects.filter(pk=finding.pk).update(resolution_note="rewritten later")


# --- what the day reconciliation reports ----------------------------------------------------------------------


def _add_tax_pair(hands):
    hand = hands["seven_card_stud"]
    entry = _settlement(hand)
    tax, players = account_for_table(hand.table, "tax"), account_for_table(hand.table, "players")
    with behind_the_service() as cursor:
        for account, amount, role in ((tax, "100.00", "tax"), (players, "-100.00", "contribution")):
            cursor.execute("INSERT INTO accounting_posting (entry_id, account_id, amount, role, seat, player_ref) "
                           "VALUES (%s, %s, %s, %s, 1, '')", [entry.pk, account.pk, amount, role])
    return hand


def _edit_event(hands):
    hand = hands["forty_one"]
    event = hand.events.get(seq=1)
    with behind_the_service() as cursor:
        cursor.execute("UPDATE tables_handevent SET payload = %s WHERE id = %s",
                       [json.dumps(dict(event.payload, tampered=True)), event.pk])
    return hand


def _delete_last_event(hands):
    hand = hands["capsa_susun"]
    last = hand.events.order_by("-seq").first()
    with behind_the_service() as cursor:
        cursor.execute("DELETE FROM tables_handevent WHERE id = %s", [last.pk])
    return hand


def _change_seats(hands):
    hand = hands["forty_one"]
    seats = {k: {**v, "stack": v["stack"] + 100} for k, v in hand.seats.items()}
    with behind_the_service() as cursor:
        cursor.execute("UPDATE tables_hand SET seats = %s WHERE id = %s", [json.dumps(seats), hand.pk])
    return hand


def _shift_a_leg(hands):
    hand = hands["capsa_susun"]
    legs = list(_settlement(hand).postings.order_by("id"))
    plus = next(p for p in legs if p.amount > 0)
    minus = next(p for p in legs if p.amount < 0)
    with behind_the_service() as cursor:
        cursor.execute("UPDATE accounting_posting SET amount = amount + 1 WHERE id = %s", [plus.pk])
        cursor.execute("UPDATE accounting_posting SET amount = amount - 1 WHERE id = %s", [minus.pk])
    return hand


TAMPERING = {
    "a balanced pair added to a posted entry": (_add_tax_pair, {"entry_digest", "tax"}),
    "an event's payload edited": (_edit_event, {"event_digest"}),
    "the last event deleted": (_delete_last_event, {"event_sequence", "event_digest", "hand_digest"}),
    "a hand's seats changed": (_change_seats, {"hand_digest", "event_digest"}),
    "two legs shifted by one euro": (_shift_a_leg, {"entry_digest"}),
}


@pytest.mark.parametrize("change", sorted(TAMPERING))
def test_the_day_reconciliation_reports_a_change_made_behind_the_services_back(change):
    hands = _day_of_hands()
    first = gaming_day_reconcile(day=DAY)
    assert first.status == ReconciliationRun.Status.OK, list(Discrepancy.objects.values_list("kind", "what"))
    tamper, kinds = TAMPERING[change]
    hand = tamper(hands)

    again = gaming_day_reconcile(day=DAY)

    assert again.pk != first.pk and again.status == ReconciliationRun.Status.DISCREPANCY
    found = set(Discrepancy.objects.values_list("kind", flat=True))
    assert found & kinds, found
    assert set(Discrepancy.objects.exclude(hand__isnull=True).values_list("hand_id", flat=True)) == {hand.pk}
    assert Hand.objects.get(pk=hand.pk).reconciliation == Hand.Reconciliation.DISCREPANCY


def test_an_untouched_day_reconciled_twice_is_one_run():
    _day_of_hands()
    first = gaming_day_reconcile(day=DAY)
    assert gaming_day_reconcile(day=DAY).pk == first.pk and first.status == ReconciliationRun.Status.OK


def test_a_deleted_entry_breaks_the_ledger_chain_and_its_hand_misses_it():
    hands = _day_of_hands()
    assert gaming_day_reconcile(day=DAY).status == ReconciliationRun.Status.OK
    stud = hands["seven_card_stud"]
    entry = _settlement(stud)
    following = JournalEntry.objects.filter(id__gt=entry.pk).order_by("id").first()
    with behind_the_service() as cursor:
        cursor.execute("DELETE FROM accounting_posting WHERE entry_id = %s", [entry.pk])
        cursor.execute("DELETE FROM accounting_journalentry WHERE id = %s", [entry.pk])

    again = gaming_day_reconcile(day=DAY)

    assert again.status == ReconciliationRun.Status.DISCREPANCY
    assert "missing_entry" in set(Discrepancy.objects.filter(hand=stud).values_list("kind", flat=True))
    assert Discrepancy.objects.filter(kind="entry_digest", check_key=f"entry:{following.pk}:entry_digest").exists()


def test_a_hands_run_key_hashes_the_documented_text():
    """The content key is written field by field (the limit snapshot encoded once per table): the same
    bytes as the documented ``json.dumps`` of what the check reads, so run keys stored before stay valid."""
    import hashlib

    from accounting.services.reconciliation import _facts, _legs_by_hand, hands_lock
    from accounting.services.tamper import event_rows_by_hand, hand_content_key, hand_header

    hands = _day_of_hands()
    ids = sorted(h.pk for h in hands.values())
    _, hashes = event_rows_by_hand(ids)
    legs = _legs_by_hand(ids)
    with transaction.atomic():
        loaded = hands_lock(ids=ids)
    for facts in [*loaded, *(_facts(h) for h in hands.values())]:
        documented = json.dumps([hand_header(facts), facts.status, facts.event_count, facts.digest or "",
                                 hashes[facts.id], sorted(map(repr, legs[facts.id]))],
                                sort_keys=True, default=str, separators=(",", ":"))
        assert legs[facts.id] and hashes[facts.id]
        assert hand_content_key(facts, hashes[facts.id], legs[facts.id]) == \
            hashlib.sha256(documented.encode()).hexdigest()[:32]


def test_the_ledger_chain_reads_each_leg_in_the_form_its_digest_covers():
    """The chain check reads the legs already canonical (on PostgreSQL the amount's text): the same
    lists :func:`casino.digests.journal_entry_record` makes of the stored legs."""
    from accounting.services.tamper import _entry_legs
    from casino.digests import journal_entry_record

    _day_of_hands()
    entry_ids = list(JournalEntry.objects.values_list("id", flat=True))
    read = _entry_legs(entry_ids)
    for entry_id in entry_ids:
        stored = [(p.account.code, p.amount, p.role, p.seat, p.player_ref, p.pot_index)
                  for p in Posting.objects.filter(entry_id=entry_id).select_related("account")]
        fields = dict(idempotency_key="k", kind="hand_settlement", memo="", hand_id=None, table_id=None,
                      gaming_day=DAY, posted_at=IN_DAY, created_by_id=None, reverses_id=None, reason="")
        assert stored
        assert journal_entry_record(**fields, canonical_legs=read[entry_id]) == journal_entry_record(**fields,
                                                                                                      legs=stored)
    assert any(leg[1].startswith("-") for legs in read.values() for leg in legs)


@postgres_only  # the events are read as PostgreSQL's json_agg text, and changed by SQL of its own
def test_the_fast_json_reader_never_decides_a_finding():
    """The events are read by orjson, which reads an integer beyond 64 bits as a float where json reads the
    integer: a hand whose check finds anything is checked again from json's rows, so a payload the two read
    apart gets the findings json's rows give (here none: its digests are right and it replays)."""
    from accounting.services.tamper import EventRowsByHand, exact_event_rows, hand_header
    from casino.digests import hand_chain

    text = '[[1, {"type": "x", "n": 100000000000000000000000}, "k1", "d"]]'
    rows = EventRowsByHand({7: text})
    assert rows[7][0][1]["n"] == 1e23 and exact_event_rows(rows, 7) == json.loads(text)
    assert exact_event_rows({7: json.loads(text)}, 7) is None

    hands = _day_of_hands()
    stud = Hand.objects.get(pk=hands["seven_card_stud"].pk)
    events = list(HandEvent.objects.filter(hand=stud).order_by("seq"))
    last = events[-1]
    payload = {**last.payload, "note": 10**23}
    digests = hand_chain(hand_header(stud), [(e.seq, payload if e.pk == last.pk else e.payload, e.idempotency_key)
                                             for e in events])
    with behind_the_service() as cursor:
        cursor.execute("UPDATE tables_handevent SET payload = %s::jsonb, digest = %s WHERE id = %s",
                       [json.dumps(payload), digests[-1], last.pk])
        cursor.execute("UPDATE tables_hand SET digest = %s WHERE id = %s", [digests[-1], stud.pk])

    run = gaming_day_reconcile(day=DAY)

    assert not Discrepancy.objects.filter(hand=stud).exists()
    assert run.status == ReconciliationRun.Status.OK
    assert Hand.objects.get(pk=stud.pk).reconciliation == Hand.Reconciliation.RECONCILED
