"""The ledger as accounting stories: balanced entries only, replays post nothing twice, corrections are
reversing entries by an accountant or floor manager, and PostgreSQL itself refuses unbalanced or edited
entries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from accounting.models import Account, JournalEntry, Posting
from accounting.services.ledger import (
    LedgerLine,
    account_balance,
    account_for_house,
    account_for_table,
    journal_entry_post,
    journal_entry_reverse,
)
from casino.errors import ApplicationError, ConflictError
from tests.tables.hands_support import accountant, floor_manager, table_make, user_in

pytestmark = pytest.mark.django_db
postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="database triggers exist on PostgreSQL")


@pytest.fixture
def accounts():
    table = table_make(game="seven_card_stud")
    return account_for_table(table, "players"), account_for_table(table, "pot"), account_for_table(table, "tax")


def _post(players, pot, *, key="k1", amounts=("-10.00", "10.00"), **kwargs) -> JournalEntry:
    lines = [LedgerLine(account=players, amount=Decimal(amounts[0]), role="contribution", seat=1),
             LedgerLine(account=pot, amount=Decimal(amounts[1]), role="contribution", seat=1)]
    return journal_entry_post(lines=lines, idempotency_key=key, memo="test", **kwargs)


def test_accounts_are_created_once_per_table_and_purpose(accounts):
    players, pot, tax = accounts
    assert players.code.endswith(":players") and players.kind == Account.Kind.LIABILITY
    assert pot.kind == Account.Kind.CLEARING and tax.kind == Account.Kind.REVENUE
    assert account_for_table(players.table, "pot") == pot
    assert account_for_house("bonus_expense").code == "house:bonus_expense"
    with pytest.raises(ValueError):
        account_for_table(players.table, "cash")


def test_a_balanced_entry_is_posted_with_its_legs(accounts):
    players, pot, _ = accounts
    entry = _post(players, pot)
    assert entry.postings.count() == 2
    assert account_balance(account=players) == Decimal("-10.00") and account_balance(account=pot) == Decimal("10.00")
    assert entry.gaming_day is not None and entry.posted_at <= timezone.now()


@pytest.mark.parametrize(("amounts", "code", "words"), [
    (("-10.00", "9.99"), "unbalanced_entry", "-0.01"),
    (("-10.00", "0.00"), "invalid_posting", "zero"),
    (("-10.005", "10.005"), "invalid_posting", "cents"),
], ids=["legs_off_by_a_cent", "a_leg_of_zero", "a_leg_with_three_decimals"])
def test_a_bad_entry_is_refused_and_nothing_is_stored(accounts, amounts, code, words):
    players, pot, _ = accounts
    with pytest.raises(ApplicationError) as refused:
        _post(players, pot, amounts=amounts)
    assert refused.value.code == code and words in refused.value.message
    assert not JournalEntry.objects.exists() and not Posting.objects.exists()


def test_an_entry_needs_two_legs(accounts):
    players, _, _ = accounts
    with pytest.raises(ApplicationError, match="two legs"):
        journal_entry_post(lines=[LedgerLine(account=players, amount=Decimal("1.00"))], idempotency_key="one")


def test_posting_the_same_key_again_returns_the_stored_entry(accounts):
    players, pot, _ = accounts
    first = _post(players, pot)
    assert _post(players, pot) == first
    assert JournalEntry.objects.count() == 1 and Posting.objects.count() == 2


def test_the_same_key_with_other_legs_is_a_conflict(accounts):
    players, pot, _ = accounts
    _post(players, pot)
    with pytest.raises(ConflictError):
        _post(players, pot, amounts=("-11.00", "11.00"))
    assert Posting.objects.count() == 2


def test_an_accountant_corrects_with_a_reversing_entry_linked_to_the_original(accounts):
    players, pot, _ = accounts
    original = _post(players, pot)
    reversal = journal_entry_reverse(entry=original, actor=accountant(), reason="logged at the wrong table")
    assert reversal.kind == JournalEntry.Kind.REVERSAL and reversal.reverses == original
    assert sorted(p.amount for p in reversal.postings.all()) == [Decimal("-10.00"), Decimal("10.00")]
    assert account_balance(account=players) == 0 and account_balance(account=pot) == 0
    assert journal_entry_reverse(entry=original, actor=floor_manager(), reason="again") == reversal
    with pytest.raises(ApplicationError, match="itself a reversal"):
        journal_entry_reverse(entry=reversal, actor=accountant("acc2"), reason="undo")


@pytest.mark.parametrize("role", ["croupier", None])
def test_only_accountants_and_floor_managers_correct(accounts, role):
    players, pot, _ = accounts
    original = _post(players, pot)
    with pytest.raises(ApplicationError) as refused:
        journal_entry_reverse(entry=original, actor=user_in(role, "someone"), reason="x")
    assert refused.value.status_code == 403
    assert JournalEntry.objects.count() == 1


def test_a_correction_needs_a_reason(accounts):
    players, pot, _ = accounts
    with pytest.raises(ApplicationError, match="reason"):
        journal_entry_reverse(entry=_post(players, pot), actor=accountant(), reason="  ")


def test_ledger_api_reads_for_accountants_and_reverses_with_a_reason(api_client, accounts):
    players, pot, _ = accounts
    original = _post(players, pot)
    api_client.force_authenticate(user_in("croupier", "c"))
    assert api_client.get("/api/v1/ledger/entries/").status_code == 403
    api_client.force_authenticate(accountant())
    balances = {a["code"]: a["balance"] for a in api_client.get("/api/v1/ledger/accounts/").json()["results"]}
    assert balances[players.code] == "-10.00" and balances[pot.code] == "10.00"
    entry = api_client.get(f"/api/v1/ledger/entries/{original.pk}/").json()
    assert sorted(p["amount"] for p in entry["postings"]) == ["-10.00", "10.00"]
    assert api_client.post(f"/api/v1/ledger/entries/{original.pk}/reverse/", {}, format="json").status_code == 400
    response = api_client.post(f"/api/v1/ledger/entries/{original.pk}/reverse/", {"reason": "duplicate slip"},
                               format="json")
    assert response.status_code == 201 and response.json()["reverses"] == original.pk
    assert api_client.get(f"/api/v1/ledger/entries/{original.pk}/").json()["reversed_by"] == response.json()["id"]
    assert api_client.put(f"/api/v1/ledger/entries/{original.pk}/", {}, format="json").status_code == 405
    assert api_client.delete(f"/api/v1/ledger/entries/{original.pk}/").status_code == 405


def test_reversing_again_answers_200_with_the_existing_reversal_and_posts_nothing(api_client, accounts):
    """Found by the break-it review: the second call answered 201 as if it had posted a second correction."""
    players, pot, _ = accounts
    original = _post(players, pot)
    api_client.force_authenticate(accountant())
    url = f"/api/v1/ledger/entries/{original.pk}/reverse/"
    first = api_client.post(url, {"reason": "duplicate slip"}, format="json")
    assert first.status_code == 201
    before = (JournalEntry.objects.count(), Posting.objects.count())
    again = api_client.post(url, {"reason": "duplicate slip"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert (JournalEntry.objects.count(), Posting.objects.count()) == before


def test_ledger_lists_do_not_query_per_row(api_client, accounts, django_assert_max_num_queries):
    players, pot, _ = accounts
    clerk = accountant()
    for i in range(5):
        entry = _post(players, pot, key=f"n{i}")
        if i % 2:
            journal_entry_reverse(entry=entry, actor=clerk, reason="test")
    api_client.force_authenticate(clerk)
    for path in ("/api/v1/ledger/entries/", "/api/v1/ledger/accounts/"):
        with django_assert_max_num_queries(8):
            assert api_client.get(path).status_code == 200


# --- the database's own guards (PostgreSQL) ------------------------------------------------------------------


def _raw_entry(key: str) -> JournalEntry:
    return JournalEntry.objects.create(idempotency_key=key, kind="adjustment", gaming_day=timezone.localdate(),
                                       posted_at=timezone.now())


@postgres_only
def test_database_refuses_an_unbalanced_entry_written_around_the_service(accounts):
    players, pot, _ = accounts
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        entry = _raw_entry("raw-1")
        Posting.objects.create(entry=entry, account=players, amount=Decimal("-10.00"))
        Posting.objects.create(entry=entry, account=pot, amount=Decimal("9.00"))
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would do
    assert not JournalEntry.objects.filter(idempotency_key="raw-1").exists()


@postgres_only
def test_database_refuses_an_entry_without_postings(accounts):
    with pytest.raises(IntegrityError, match="no postings"), transaction.atomic():
        _raw_entry("raw-2")
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@postgres_only
@pytest.mark.parametrize("change", ["update_posting", "delete_posting", "update_entry", "delete_entry"])
def test_database_refuses_to_edit_or_delete_a_posted_entry(accounts, change):
    players, pot, _ = accounts
    entry = _post(players, pot)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        if change == "update_posting":
            Posting.objects.filter(entry=entry, amount__lt=0).update(amount=Decimal("-1.00"))
        elif change == "delete_posting":
            Posting.objects.filter(entry=entry).delete()
        elif change == "update_entry":
            JournalEntry.objects.filter(pk=entry.pk).update(memo="edited")
        else:
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM accounting_journalentry WHERE id = %s", [entry.pk])
    entry.refresh_from_db()
    assert entry.memo == "test" and sorted(p.amount for p in entry.postings.all()) == [Decimal("-10.00"),
                                                                                       Decimal("10.00")]
