"""The double-entry ledger: accounts on demand, balanced journal entries, reversing corrections.

DESIGN.md "accounting/", STYLE.md rules 5 and 6, after django-hordak. Sign convention (shared by the
hand-logging and accounting services): a posting's ``amount`` > 0 is value INTO its account, < 0 value
OUT; the legs of one entry sum to zero, to the cent.

Guards, on every backend: :func:`journal_entry_post` refuses an entry whose legs do not sum to zero,
a leg of zero or with more than two decimals, and an entry with fewer than two legs. On PostgreSQL the
database refuses the same (a deferred constraint trigger) and any UPDATE/DELETE of a posting or of a
posted entry (migration ``0002_ledger_guards``), and any leg added to an entry after the transaction
that posted it (``0003_tamper_evidence``); corrections are reversing entries (:func:`journal_entry_reverse`),
never edits. Every entry carries a digest chained to the entry before it (:mod:`casino.digests`);
:func:`journal_entry_post` takes the ledger's chain lock so entries are chained in insertion order.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone

from accounting.models import Account, GamingDay, JournalEntry, Posting
from accounting.services.day_lock import gaming_day_closed_error, next_open_day
from casino import rows
from casino.digests import GENESIS, chain_digest, journal_entry_record
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from casino.i18n import gettext_noop
from casino.roles import ACCOUNTANT, FLOOR_MANAGER, has_role
from casino.status import audit_record
from rules.engines.money import to_eur

#: Ledger amounts carry exactly two decimals (EUR cents); anything finer is refused, never rounded.
CENT = Decimal("0.01")
#: A database SUM of ledger amounts is a whole number of cents, but SQLite sums decimals as floats
#: (4.85000000000000, 4.8499999999): the sum is quantized once to the cent with this rule, which only
#: removes the float noise (the true sum of two-decimal amounts is exact, so no rounding rule applies).
SUM_ROUNDING = ROUND_HALF_EVEN
#: PostgreSQL advisory lock serializing the ledger's digest chain (held to the end of the posting transaction).
CHAIN_LOCK = 20_2000_01

#: Per-table account purposes -> (account kind, name template). Codes are ``table:{id}:{purpose}``.
TABLE_ACCOUNTS: dict[str, tuple[str, str]] = {
    "players": (Account.Kind.LIABILITY, "Players' chips at {table}"),
    "pot": (Account.Kind.CLEARING, "Pot clearing of {table}"),
    "tax": (Account.Kind.REVENUE, "Taxe / tax (drop) of {table}"),
    "fee": (Account.Kind.REVENUE, "House fee (drop) of {table}"),
}
#: House-wide accounts -> (kind, name). Codes are ``house:{purpose}``.
HOUSE_ACCOUNTS: dict[str, tuple[str, str]] = {
    "bonus_expense": (Account.Kind.EXPENSE, "Forty-one 41 bonus paid by the house"),
}


@dataclass(frozen=True)
class LedgerLine:
    """One leg to post: ``amount`` EUR (signed, two decimals, non-zero) into ``account``.

    ``role`` says what the leg is (``contribution``, ``award``, ``returned``, ``tax``, ``fee``,
    ``bonus``, ``refund``, ``transfer``...); ``seat``/``player_ref``/``pot_index`` where they apply.
    """

    account: Account
    amount: Decimal
    role: str = ""
    seat: int | None = None
    player_ref: str = ""
    pot_index: int | None = None

    def key(self) -> tuple:
        """Comparable identity of the leg (used to tell a replay from a different entry)."""
        return _leg_key(self.account.code, self.amount, self.role, self.seat, self.player_ref, self.pot_index)


def _leg_key(code: str, amount: Decimal, role: str, seat: int | None, player_ref: str, pot_index: int | None) -> tuple:
    return (code, str(to_eur(amount)), role or "", -1 if seat is None else seat, player_ref or "",
            -1 if pot_index is None else pot_index)


def account_for_table(table, purpose: str) -> Account:
    """The table's ledger account for ``purpose`` (``players``, ``pot``, ``tax``, ``fee``), created on demand.

    Code ``table:{table.id}:{purpose}``; safe under concurrency (unique code, get_or_create).
    Raises ``ValueError`` for an unknown purpose.
    """
    try:
        kind, name = TABLE_ACCOUNTS[purpose]
    except KeyError:
        raise ValueError(f"unknown table account purpose {purpose!r}") from None
    account, _ = Account.objects.get_or_create(
        code=f"table:{table.pk}:{purpose}", defaults={"kind": kind, "name": name.format(table=table), "table": table})
    return account


def accounts_for_table(table, purposes: Iterable[str], *, chain_lock: bool = False) -> dict[str, Account]:
    """The table's ledger accounts for ``purposes`` as ``{purpose: Account}``, read in one plain-SQL query (the
    hand close's hot path, issue 19; :mod:`casino.rows`); any missing one is created as by :func:`account_for_table`.

    ``chain_lock`` (inside the transaction that then posts, on PostgreSQL): the same query takes the ledger's
    chain lock first (:func:`_chain_head`'s advisory lock, held to the end of the transaction), and the
    posting is told so (:func:`journal_entry_post`'s ``chain_locked``): one round trip less on a hand's close.
    Raises ``ValueError`` for an unknown purpose."""
    wanted = {f"table:{table.pk}:{purpose}": purpose for purpose in purposes}
    for purpose in wanted.values():
        if purpose not in TABLE_ACCOUNTS:
            raise ValueError(f"unknown table account purpose {purpose!r}")
    codes = ", ".join(["%s"] * len(wanted))
    if chain_lock and connection.vendor == "postgresql":
        # The lock is the outer side of the join: taken once whether or not any account exists yet.
        read = [a for a in rows.objects(
            Account, f"SELECT {rows.columns(Account, 'a')} FROM (SELECT pg_advisory_xact_lock(%s)) chain "
                     f"LEFT JOIN {rows.table(Account)} a ON a.code IN ({codes})", [CHAIN_LOCK, *wanted]) if a.pk is not None]
    else:
        read = rows.objects(Account, f"SELECT {rows.columns(Account, 'a')} FROM {rows.table(Account)} a "
                                     f"WHERE a.code IN ({codes})", list(wanted))
    return _accounts_found(table, wanted, read)


def _accounts_found(table, wanted: dict[str, str], read: Iterable[Account]) -> dict[str, Account]:
    """``{purpose: Account}`` of the accounts ``read`` (``wanted``: code -> purpose), the missing ones created."""
    found = {wanted[a.code]: a for a in read}
    for purpose in wanted.values():
        if purpose not in found:
            found[purpose] = account_for_table(table, purpose)
    return found


@dataclass(frozen=True)
class ChainHead:
    """What the chain head's query read for posting ``idempotency_key`` into ``gaming_day`` under the chain lock
    (:func:`_chain_head`): the id of the entry posted under that key already (or None), the digest of the latest
    entry, whether the day is closed, and the id drawn for the new entry (PostgreSQL; None when not drawn)."""

    idempotency_key: str
    gaming_day: dt.date
    existing_id: int | None
    head: str
    day_closed: bool
    entry_id: int | None


def accounts_with_chain_head(table, purposes: Iterable[str], *, idempotency_key: str,
                             gaming_day: dt.date) -> tuple[dict[str, Account], ChainHead | None]:
    """:func:`accounts_for_table` with ``chain_lock`` and, on PostgreSQL, in the same query the chain head for
    posting ``idempotency_key`` into ``gaming_day`` next in this transaction (:class:`ChainHead`, with the new
    entry's id drawn), for :func:`journal_entry_post`'s ``chain_head``: a hand's close reads its accounts, takes the
    chain lock and reads the head in one round trip (issue 19). The head is read by the database function
    ``accounting_chain_lock_head`` (migration ``0010_chain_head_function``) after it takes the lock, on a snapshot
    of its own, so it is the latest committed entry even when the lock had to wait. Elsewhere the head is None (the
    posting reads it). Raises ``ValueError`` for an unknown purpose."""
    if connection.vendor != "postgresql":
        return accounts_for_table(table, purposes, chain_lock=True), None
    wanted = {f"table:{table.pk}:{purpose}": purpose for purpose in purposes}
    for purpose in wanted.values():
        if purpose not in TABLE_ACCOUNTS:
            raise ValueError(f"unknown table account purpose {purpose!r}")
    codes = ", ".join(["%s"] * len(wanted))
    # The function is the outer side of the join: the lock is taken and the head read once, accounts or not.
    read = rows.objects(
        Account, f"SELECT {rows.columns(Account, 'a')}, h.entry_id, h.chain_head, h.day_closed, h.new_id "
                 f"FROM accounting_chain_lock_head(%s, %s, %s, %s, true) h "
                 f"LEFT JOIN {rows.table(Account)} a ON a.code IN ({codes})",
        [CHAIN_LOCK, idempotency_key, gaming_day, GamingDay.Status.CLOSED, *wanted],
        extra=("entry_id", "chain_head", "day_closed", "new_id"))
    first = read[0].__dict__
    head = ChainHead(idempotency_key=idempotency_key, gaming_day=gaming_day, existing_id=first["entry_id"],
                     head=GENESIS if first["chain_head"] is None else first["chain_head"],
                     day_closed=bool(first["day_closed"]), entry_id=first["new_id"])
    return _accounts_found(table, wanted, [a for a in read if a.pk is not None]), head


def account_for_house(purpose: str) -> Account:
    """The house-wide account for ``purpose`` (``bonus_expense``), created on demand; code ``house:{purpose}``."""
    try:
        kind, name = HOUSE_ACCOUNTS[purpose]
    except KeyError:
        raise ValueError(f"unknown house account purpose {purpose!r}") from None
    account, _ = Account.objects.get_or_create(code=f"house:{purpose}", defaults={"kind": kind, "name": name})
    return account


def journal_lines_check(lines: Sequence[LedgerLine]) -> None:
    """Check legs before posting: at least two, each non-zero with at most two decimals, summing to zero.

    Raises :class:`ApplicationError` (``code="unbalanced_entry"`` or ``"invalid_posting"``) naming the
    offending leg or the difference. Runs on every backend (SQLite has no trigger).
    """
    if len(lines) < 2:
        raise ApplicationError(gettext_noop("a journal entry needs at least two legs"), code="invalid_posting")
    total = Decimal(0)
    for index, line in enumerate(lines, start=1):
        amount = line.amount
        if not isinstance(amount, Decimal):
            raise ApplicationError(gettext_noop("leg %(index)s (%(code)s): amount must be a Decimal, got %(amount)s", index=index, code=line.account.code, amount=repr(amount)),
                                   code="invalid_posting")
        if not amount.is_finite() or amount != amount.quantize(CENT):
            raise ApplicationError(gettext_noop("leg %(index)s (%(code)s): %(amount)s is not an amount in cents", index=index, code=line.account.code, amount=amount),
                                   code="invalid_posting")
        if amount == 0:
            raise ApplicationError(gettext_noop("leg %(index)s (%(code)s): a leg of zero is not posted", index=index, code=line.account.code),
                                   code="invalid_posting")
        total += amount
    if total != 0:
        raise ApplicationError(gettext_noop("the entry does not balance: its legs sum to %(total)s EUR instead of 0.00", total=format(total, "+.2f")),
                               code="unbalanced_entry", extra={"difference": f"{total:.2f}"})


def journal_entry_post(*, lines: Sequence[LedgerLine], idempotency_key: str, memo: str = "",
                       kind: str = JournalEntry.Kind.ADJUSTMENT, hand=None, table=None,
                       gaming_day: dt.date | None = None, actor=None, reverses: JournalEntry | None = None,
                       reason: str = "", posted_at: dt.datetime | None = None, chain_locked: bool = False,
                       writes: rows.Writes | None = None, chain_head: ChainHead | None = None) -> JournalEntry:
    """Post one balanced entry with ``lines``; return it. One transaction.

    ``idempotency_key`` is unique: posting the same key again returns the stored entry and writes
    nothing (if the legs differ from the stored ones, :class:`ConflictError` ``code="idempotency_conflict"``).
    ``gaming_day`` defaults to the gaming day of ``posted_at`` (default now). Raises
    :class:`ApplicationError` for unbalanced or malformed legs (see :func:`journal_lines_check`).

    Inside the caller's transaction only (a hand closing, issue 19): ``chain_locked`` says this transaction
    already holds the ledger's chain lock (:func:`accounts_for_table` with ``chain_lock``), and ``writes``
    (:class:`casino.rows.Writes`) takes the INSERTs of the entry and its legs, sent with the caller's other writes
    before its commit (on PostgreSQL; the entry's id is drawn by the chain head's query and the entry's INSERT runs
    first in that statement; elsewhere the entry's INSERT is sent now). Without a transaction both are ignored.
    ``chain_head`` (:func:`accounts_with_chain_head`, in this transaction): the chain lock is held and the head
    read for this key and day already (one query less); one read for another key or day is not used.
    """
    if not idempotency_key:
        raise ApplicationError(gettext_noop("an idempotency key is required to post"), code="invalid_posting")
    journal_lines_check(lines)
    posted_at = posted_at or timezone.now()
    gaming_day = gaming_day or gaming_day_of(posted_at)
    post = functools.partial(_post_under_chain_lock, lines=lines, idempotency_key=idempotency_key, memo=memo[:255],
                             kind=kind, hand=hand, table=table, gaming_day=gaming_day, actor=actor, reverses=reverses,
                             reason=reason, posted_at=posted_at)
    if transaction.get_connection().in_atomic_block:
        if chain_head is not None and (chain_head.idempotency_key, chain_head.gaming_day) != (idempotency_key, gaming_day):
            chain_head = None
        post = functools.partial(post, chain_locked=chain_locked or chain_head is not None, writes=writes,
                                 chain_head=chain_head)
        # Inside the caller's transaction (a hand closing): no savepoint. Under the chain lock no other posting
        # of this key can be in flight, so the insert cannot lose a race on it (issue 19); a refusal leaves the
        # caller's transaction as it was.
        return post()
    try:
        with transaction.atomic():
            return post()
    except IntegrityError:
        # Lost a race on the idempotency key (or, for a reversal, on ``reverses``) where the chain lock does not
        # serialize postings: answer with the winner.
        existing = JournalEntry.objects.filter(idempotency_key=idempotency_key).first()
        if existing is None:
            raise
        return _replayed(existing, lines)


def _post_under_chain_lock(*, lines: Sequence[LedgerLine], idempotency_key: str, memo: str, kind: str, hand, table,
                           gaming_day: dt.date, actor, reverses: JournalEntry | None, reason: str,
                           posted_at: dt.datetime, chain_locked: bool = False,
                           writes: rows.Writes | None = None, chain_head: ChainHead | None = None) -> JournalEntry:
    """:func:`journal_entry_post`'s work inside a transaction: the chain lock (unless ``chain_locked``), the
    replay and closed-day checks, the entry and its legs (two INSERTs; both into ``writes`` if given on PostgreSQL,
    the entry's id then taken by the chain head's query, else the legs' only)."""
    batched = writes is not None and connection.vendor == "postgresql"
    if chain_head is None or (batched and chain_head.existing_id is None and chain_head.entry_id is None):
        chain_head = _chain_head(idempotency_key=idempotency_key, gaming_day=gaming_day, locked=chain_locked,
                                 next_id=batched)
    existing_id, head, day_closed = chain_head.existing_id, chain_head.head, chain_head.day_closed
    entry_id = chain_head.entry_id
    if existing_id is not None:
        return _replayed(JournalEntry.objects.get(pk=existing_id), lines)
    if day_closed:  # issue 17: nothing is posted into a closed gaming day
        raise gaming_day_closed_error(gaming_day)
    record = journal_entry_record(
        idempotency_key=idempotency_key, kind=kind, memo=memo, hand_id=getattr(hand, "pk", None),
        table_id=getattr(table, "pk", None), gaming_day=gaming_day, posted_at=posted_at,
        created_by_id=getattr(actor, "pk", None), reverses_id=getattr(reverses, "pk", None), reason=reason,
        legs=[(line.account.code, line.amount, line.role, line.seat, line.player_ref, line.pot_index)
              for line in lines])
    entry = JournalEntry(
        id=entry_id, idempotency_key=idempotency_key, kind=kind, memo=memo, hand=hand, table=table,
        gaming_day=gaming_day, posted_at=posted_at, created_by=actor, reverses=reverses, reason=reason,
        digest=chain_digest(head, record),
    )
    if batched:  # the entry's INSERT runs first in the caller's statement: the legs' trigger sees it (issue 19)
        assert writes is not None
        writes.insert([entry], first=True)
    else:
        rows.insert([entry], returning_pk=True)  # plain SQL (:mod:`casino.rows`), as bulk_create would write it
    legs = (writes if writes is not None else rows.Writes()).insert_rows(
        Posting, ["entry", "account", "amount", "role", "seat", "player_ref", "pot_index"],
        [(entry.pk, line.account.pk, line.amount, line.role, line.seat, line.player_ref or "", line.pot_index)
         for line in lines])
    if writes is None:
        legs.send()
    return entry


def _chain_head(*, idempotency_key: str, gaming_day: dt.date, locked: bool = False,
                next_id: bool = False) -> ChainHead:
    """Take the ledger's chain lock (PostgreSQL: an advisory lock to the end of the transaction; SQLite's
    write lock is taken at BEGIN) unless ``locked`` (this transaction holds it already), then read in one query
    the :class:`ChainHead`: the id of the entry posted under idempotency_key or None, the digest of the latest
    entry, whether gaming_day is closed, the new entry's id: with ``next_id`` (PostgreSQL) the id the entry is to be inserted with, drawn
    from its identity sequence under the chain lock (so ids still follow the chain; none drawn when the key is
    posted already), else None.

    Call inside the posting transaction. Read after the lock (a statement of its own: its snapshot is taken
    when it starts), so the head is the latest committed entry and a concurrent posting of the same key has
    committed (found here) or not begun.
    """
    if connection.vendor == "postgresql" and not locked:
        rows.select("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK])
    entries, days = JournalEntry._meta.db_table, GamingDay._meta.db_table
    new_id = (f", CASE WHEN e.id IS NULL THEN nextval(pg_get_serial_sequence('{entries}', "
              f"'{JournalEntry._meta.pk.column}')) END" if next_id else "")
    ((existing_id, head, closed, *drawn),) = rows.select(
        f"SELECT e.id, (SELECT digest FROM {entries} ORDER BY id DESC LIMIT 1), "
        f"(SELECT COUNT(*) FROM {days} WHERE day = %s AND status = %s){new_id} "
        f"FROM (SELECT (SELECT id FROM {entries} WHERE idempotency_key = %s) AS id) e",
        [gaming_day, GamingDay.Status.CLOSED, idempotency_key])
    return ChainHead(idempotency_key=idempotency_key, gaming_day=gaming_day, existing_id=existing_id,
                     head=GENESIS if head is None else head, day_closed=bool(closed),
                     entry_id=drawn[0] if drawn else None)


def _replayed(entry: JournalEntry, lines: Iterable[LedgerLine]) -> JournalEntry:
    stored = sorted(_leg_key(p.account.code, p.amount, p.role, p.seat, p.player_ref, p.pot_index)
                    for p in entry.postings.select_related("account"))
    wanted = sorted(line.key() for line in lines)
    if stored != wanted:
        raise ConflictError(gettext_noop("idempotency key %(idempotency_key)s was already used for a different entry", idempotency_key=repr(entry.idempotency_key)),
                            code="idempotency_conflict", extra={"entry": entry.pk})
    return entry


def journal_entry_reverse(*, entry: JournalEntry, actor, reason: str) -> JournalEntry:
    """Post the correction of ``entry``: every leg negated, ``reverses`` = ``entry``, with ``reason``.

    Only an accountant or a floor manager may correct (:class:`ApplicationError` 403 otherwise); the
    reason is required. An entry is reversed at most once (a second call returns the same reversal);
    a reversal itself is not reversed (post a new entry instead). The reversal belongs to the first open
    gaming day from the one it is posted in (issue 17: never a closed day); its key is ``reversal:{entry.id}``. Audited.
    """
    if not has_role(actor, ACCOUNTANT, FLOOR_MANAGER):
        raise ApplicationError(gettext_noop("only an accountant or a floor manager may correct the ledger"),
                               code="permission_denied", status_code=403)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(gettext_noop("a correction needs a reason"), code="reason_required")
    if entry.kind == JournalEntry.Kind.REVERSAL:
        raise ApplicationError(gettext_noop("entry %(pk)s is itself a reversal; post a new entry instead of reversing it", pk=entry.pk),
                               code="invalid_reversal")
    with transaction.atomic():
        already = JournalEntry.objects.filter(reverses=entry).first()
        if already is not None:
            return already
        lines = [
            LedgerLine(account=p.account, amount=-p.amount, role=p.role, seat=p.seat, player_ref=p.player_ref,
                       pot_index=p.pot_index)
            for p in entry.postings.select_related("account")
        ]
        reversal = journal_entry_post(
            lines=lines, idempotency_key=f"reversal:{entry.pk}", memo=f"reversal of entry {entry.pk}: {reason}",
            kind=JournalEntry.Kind.REVERSAL, hand=entry.hand, table=entry.table, actor=actor, reverses=entry,
            reason=reason, gaming_day=next_open_day(gaming_day_of(timezone.now())),
        )
        audit_record(obj=entry, action="journal_entry_reverse", actor=actor, reason=reason,
                     data={"reversal": reversal.pk})
    return reversal


# --- selectors -------------------------------------------------------------------------------------------------


def journal_entry_list() -> QuerySet[JournalEntry]:
    """Entries, newest first, with hand, table and postings (with accounts) loaded."""
    return (JournalEntry.objects.select_related("hand", "table", "created_by", "reverses")
            .prefetch_related("postings__account"))


def account_list() -> QuerySet[Account]:
    """Accounts with their balance (``balance``: sum of all postings, EUR; 0 when none)."""
    return Account.objects.select_related("table").annotate(balance=Sum("postings__amount")).order_by("code")


def eur_sum(total: Decimal | float | int | None) -> Decimal:
    """A database ``Sum`` of ledger amounts as EUR with exactly two decimals (``None``, no rows, is 0.00);
    see :data:`SUM_ROUNDING`."""
    return Decimal(str(total or 0)).quantize(CENT, rounding=SUM_ROUNDING)


def account_balance(*, account: Account) -> Decimal:
    """The balance of ``account`` in EUR: the sum of its postings (0.00 when none)."""
    return eur_sum(Posting.objects.filter(account=account).aggregate(total=Sum("amount"))["total"])


def entry_total(*, entry: JournalEntry) -> Decimal:
    """The sum of an entry's legs (0.00 for every stored entry: the balance guard)."""
    return eur_sum(entry.postings.aggregate(total=Sum("amount"))["total"])
