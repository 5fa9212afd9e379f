"""The ledger's chain head read with the chain lock in one query (issue 19): a hand's close reads its accounts,
takes the lock and reads the head in one round trip (``accounts_with_chain_head``). The head must still be the
latest committed entry when the lock had to wait for another posting, and the new entry's id, drawn under the
lock, must follow the chain. Runs on PostgreSQL (the advisory lock and the database function exist there)."""

from __future__ import annotations

import threading
import time
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from accounting.models import JournalEntry
from accounting.services.ledger import LedgerLine, accounts_with_chain_head, journal_entry_post
from accounting.services.tamper import ledger_chain_window_findings
from casino.gaming_day import gaming_day_of
from casino.rows import Writes
from tests.tables.hands_support import table_make

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the chain lock's function exists on PostgreSQL"),
]


def _legs(accounts) -> list[LedgerLine]:
    return [LedgerLine(account=accounts["players"], amount=Decimal("-2.00"), role="contribution", seat=1),
            LedgerLine(account=accounts["pot"], amount=Decimal("2.00"), role="contribution", seat=1)]


def _post(table, key: str, *, batched: bool) -> JournalEntry:
    """Post one entry as a hand's close does: accounts, lock and head in one query, then the entry (and its legs
    in one statement when ``batched``)."""
    day = gaming_day_of(timezone.now())
    accounts, head = accounts_with_chain_head(table, ["players", "pot"], idempotency_key=key, gaming_day=day)
    assert head is not None and head.entry_id is not None and head.existing_id is None
    writes = Writes() if batched else None
    entry = journal_entry_post(lines=_legs(accounts), idempotency_key=key, gaming_day=day, table=table,
                               chain_locked=True, chain_head=head, writes=writes)
    if writes is not None:
        writes.send()
    assert entry.pk == head.entry_id
    return entry


def _waiting_for_the_chain_lock(timeout: float = 10.0) -> bool:
    """True once a backend waits for an advisory lock (the chain lock; polled, at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.01)
    return False


def test_a_close_that_waited_for_the_chain_lock_chains_to_the_entry_committed_meanwhile():
    first_table, second_table = table_make(), table_make()
    holding, release = threading.Event(), threading.Event()
    posted: dict[str, JournalEntry] = {}
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                posted["first"] = _post(first_table, "chain-head:first", batched=False)
                holding.set()
                release.wait(timeout=20)
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        finally:
            holding.set()
            connections.close_all()

    def second() -> None:
        try:
            holding.wait(timeout=20)
            with transaction.atomic():
                posted["second"] = _post(second_table, "chain-head:second", batched=True)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    holding.wait(timeout=20)
    waited = _waiting_for_the_chain_lock()
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert waited, "the second posting should have waited for the chain lock"
    one, two = posted["first"], posted["second"]
    assert two.pk > one.pk
    assert not ledger_chain_window_findings(first_id=one.pk, last_id=two.pk)
    stored = JournalEntry.objects.get(pk=two.pk)
    assert stored.digest == two.digest and stored.postings.count() == 2


def test_the_entry_and_its_legs_in_one_statement_keep_the_rows_and_the_chain():
    table = table_make()
    with transaction.atomic():
        first = _post(table, "chain-head:a", batched=True)
    with transaction.atomic():
        second = _post(table, "chain-head:b", batched=False)
    assert second.pk > first.pk
    assert not ledger_chain_window_findings(first_id=first.pk, last_id=second.pk)
    for entry in (first, second):
        assert sorted(entry.postings.values_list("amount", flat=True)) == [Decimal("-2.00"), Decimal("2.00")]
