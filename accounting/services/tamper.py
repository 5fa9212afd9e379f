"""Tamper checks of reconciliation: the digest chains recomputed and compared (issue 20).

The hand service chains each hand's events (``HandEvent.digest``, head in ``Hand.digest``) and the
posting service chains the journal entries (``JournalEntry.digest``), see :mod:`casino.digests`. A
change made behind the service's back (an edited payload, a deleted event, a leg added to a posted
entry, even by someone who can switch the database's triggers off) leaves a stored digest that no
longer matches the recomputed one: reconciliation turns every such difference into a finding, and
the content keys here make a changed hand or day a new run (checked again, never skipped).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import orjson
from django.conf import settings
from django.db import connection
from django.db.models import Max, Min

from accounting.findings import NONE, Finding
from accounting.models import Account, JournalEntry, Posting
from casino.digests import (
    GENESIS,
    canonical_json,
    epoch_microseconds_sql,
    from_epoch_microseconds,
    hand_chain,
    hand_header_record,
    hand_header_text,
    hmac_sha256_hex,
    journal_entry_text,
    sorted_json_encoder,
)
from tables.models import Hand, HandEvent


def id_array(ids: Iterable[int]) -> str:
    """``ids`` as a PostgreSQL array literal (``"{1,2,3}"``, cast with ``%s::bigint[]``): one string the
    driver quotes at once, instead of an array it adapts element by element (every id passes ``int``)."""
    return "{" + ",".join([str(int(i)) for i in ids]) + "}"


#: One stored event as the checks read it: (seq, payload, idempotency key, stored digest), a tuple or a list.
EventRow = Sequence[Any]


class EventRowsByHand(dict):
    """Hand id -> its event rows, read from each hand's JSON text by orjson (:func:`event_rows_by_hand`);
    :func:`exact_event_rows` reads a hand's text again with :mod:`json`.

    orjson reads what :mod:`json` reads, except that it refuses a few texts :mod:`json` accepts (those are
    read by :mod:`json` at once) and reads an integer beyond 64 bits as a float. Such a payload's
    recomputed digest then differs from the stored one, so a hand whose check finds anything is checked
    again from :func:`exact_event_rows`: every finding, and so every result, is the one :mod:`json`'s
    rows give."""

    __slots__ = ("texts",)

    def __init__(self, texts: dict[int, str]) -> None:
        super().__init__((hand_id, _read_json(text)) for hand_id, text in texts.items())
        self.texts = texts


def _read_json(text: str) -> Any:
    """``json.loads(text)`` by orjson (several times faster on a hand's events), by :mod:`json` where orjson refuses."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def exact_event_rows(rows: dict[int, list[EventRow]], hand_id: int) -> list[EventRow] | None:
    """The rows of ``hand_id`` read again from their text by :mod:`json`, when ``rows`` were read by orjson
    (:class:`EventRowsByHand`); None otherwise (they are :mod:`json`'s already)."""
    texts = getattr(rows, "texts", None)
    return None if texts is None or hand_id not in texts else json.loads(texts[hand_id])


def event_rows_by_hand(hand_ids: Iterable[int]) -> tuple[dict[int, list[EventRow]], dict[int, str]]:
    """Each hand's events in sequence order with their keys and stored digests (one query), and a hash
    of each hand's event rows (for :func:`hand_content_key`).

    On PostgreSQL one JSON array per hand (``json_agg``; the hash is taken of its text), read by orjson
    (:class:`EventRowsByHand`), elsewhere rows.
    """
    ids = list(hand_ids)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT hand_id, json_agg(json_build_array(seq, payload, idempotency_key, digest) "
                           f"ORDER BY seq)::text FROM {HandEvent._meta.db_table} WHERE hand_id = ANY(%s::bigint[]) "
                           "GROUP BY hand_id", [id_array(ids)])
            texts = dict(cursor.fetchall())
        return (EventRowsByHand(texts),
                {hand_id: hashlib.sha256(text.encode()).hexdigest() for hand_id, text in texts.items()})
    out: dict[int, list[EventRow]] = defaultdict(list)
    for hand_id, *row in (HandEvent.objects.filter(hand_id__in=ids).order_by("hand_id", "seq")
                          .values_list("hand_id", "seq", "payload", "idempotency_key", "digest")):
        out[hand_id].append(tuple(row))
    return out, {hand_id: hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
                 for hand_id, rows in out.items()}


def hand_header(facts) -> dict[str, Any]:
    """The header record of a hand (:class:`~accounting.services.reconciliation.HandFacts` or a Hand)."""
    return hand_header_record(table_id=facts.table_id, number=facts.number, game=facts.game,
                              button_seat=facts.button_seat, limit_snapshot=facts.limit_snapshot, seats=facts.seats,
                              gaming_day=facts.gaming_day, opened_at=facts.opened_at)


def limits_json(facts) -> str:
    """The canonical JSON text of a hand's frozen limit snapshot: the one its loader encoded once for all
    the hands sharing it (``HandFacts.limits_json``), else encoded now (JSON values only, so the digests'
    and the run keys' encoders write the same text)."""
    return getattr(facts, "limits_json", "") or canonical_json(facts.limit_snapshot)


def hand_digest_findings(facts, rows: Sequence[EventRow]) -> list[Finding]:
    """Differences between a hand's stored digests and the ones recomputed from its header and events.

    Returns :class:`~accounting.findings.Finding` rows: ``hand_digest`` (the head stored on the hand, e.g.
    after a change of its seats, limits or button), ``event_digest`` (an event whose digest does not match:
    edited, inserted or a link removed before it), ``event_sequence`` (numbers with a gap or an event count
    that does not match the rows). Empty when the chain is intact.
    """
    out: list[Finding] = []
    seqs = [row[0] for row in rows]
    if len(rows) != facts.event_count or seqs != list(range(1, len(rows) + 1)):
        out.append(Finding("event_sequence", "seq", "event_sequence", {"hand": facts.number, "count": facts.event_count},
                           f"1..{facts.event_count}", ",".join(map(str, seqs))[:250]))
    header = hand_header_text(table_id=facts.table_id, number=facts.number, game=facts.game,
                              button_seat=facts.button_seat, limits_json=limits_json(facts), seats=facts.seats,
                              seats_json=getattr(facts, "seats_json", ""),
                              gaming_day=facts.gaming_day, opened_at=facts.opened_at)
    events = [row[:3] for row in rows]
    stored_digests = [row[3] for row in rows]
    digests = hand_chain(None, events, header_text=header, fast=True)
    if digests[1:] != stored_digests:  # a difference is decided by the canonical encoder's chain (``fast``)
        digests = hand_chain(None, events, header_text=header)
    if digests[1:] != stored_digests:  # the common case, an intact chain, compared in one go
        for (seq, _payload, _key, stored), expected in zip(rows, digests[1:]):
            if stored != expected:
                out.append(Finding("event_digest", f"event{seq}", "event_digest", {"hand": facts.number, "seq": seq},
                                   expected[:16], stored[:16] if stored else NONE))
                break  # every later link differs too: the first broken one is the finding
    if (facts.digest or "") != digests[-1] and not any(f.kind == "event_digest" for f in out):
        out.append(Finding("hand_digest", "head", "hand_digest", {"hand": facts.number}, digests[-1][:16],
                           facts.digest[:16] if facts.digest else NONE))
    return out


def hand_content_key(facts, events_hash: str, legs: Sequence[Any]) -> str:
    """A hash of everything a hand's check reads (header, status, stored head digest, the hash of its
    event rows from :func:`event_rows_by_hand`, its ledger legs): any change gives a new run key, so a
    changed hand is checked again.

    The hashed text is ``json.dumps([header record, status, event count, head digest, events hash,
    sorted reprs of the legs], sort_keys=True, default=str, separators=(",", ":"))``, written here field
    by field with the limit snapshot's text encoded once per snapshot (:func:`limits_json`): the same
    bytes, so run keys stored before stay valid."""
    c = _content_json
    body = (f'[{{"button":{c(facts.button_seat)},"game":{c(facts.game)},"gaming_day":{c(facts.gaming_day)},'
            f'"limits":{limits_json(facts)},"number":{c(facts.number)},"opened_at":{c(facts.opened_at)},'
            f'"seats":{getattr(facts, "seats_json", "") or c(facts.seats)},"table":{c(facts.table_id)}}},'
            f'{c(facts.status)},{c(facts.event_count)},'
            f'{c(facts.digest or "")},{c(events_hash)},{_text_list_json(sorted(_leg_reprs(legs)))}]')
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def _text_list_json(texts: list[str]) -> str:
    """``_content_json(texts)`` for a list of strings: when no string needs an escape (printable ASCII without
    a quote or a backslash, as a leg's ``repr`` is), each is its text between quotes, joined here at once;
    otherwise the encoder writes it."""
    joined = "".join(texts)
    if joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined:
        return '["' + '","'.join(texts) + '"]' if texts else "[]"
    return _content_json(texts)


#: Named-tuple type -> a ``%`` format equal to its ``repr`` (registered by the module defining the type,
#: e.g. reconciliation's ``Leg``): one C-level format per leg instead of the named tuple's Python ``__repr__``.
LEG_REPR_FORMATS: dict[type, str] = {}


def _leg_reprs(legs: Sequence[Any]) -> Iterable[str]:
    """``map(repr, legs)``, by the registered format when every leg is of one registered type."""
    kinds = set(map(type, legs))
    fmt = LEG_REPR_FORMATS.get(kinds.pop()) if len(kinds) == 1 else None
    return map(repr, legs) if fmt is None else map(fmt.__mod__, legs)


#: ``json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))``, the encoder built once.
_content_json = sorted_json_encoder(str)


_ENTRY_FIELDS = ("id", "idempotency_key", "kind", "memo", "hand_id", "table_id", "gaming_day", "posted_at",
                 "created_by_id", "reverses_id", "reason", "digest")


#: Journal entries per read of the ledger chain check (memory bounded, whatever the day's size).
LEDGER_WINDOW = 5000

ChainFinding = tuple[Finding, dict[str, Any]]


def ledger_span(day: dt.date) -> tuple[int, int] | None:
    """``(first id, last id)`` of the journal entries of gaming day ``day``, None if it has none."""
    span = JournalEntry.objects.filter(gaming_day=day).aggregate(first=Min("id"), last=Max("id"))
    return None if span["first"] is None else (span["first"], span["last"])


def ledger_chain_findings(day: dt.date) -> list[ChainFinding]:
    """Verify the ledger's chain across the entries of gaming day ``day`` (and any entry between them).

    Each entry's digest is recomputed from its fields and legs, linked to the stored digest of the
    entry before it (by id). Returns ``(finding, entry)`` pairs, the finding of kind
    ``entry_digest``: a leg added, changed or removed, a field edited, or the entry before it removed.
    Reads :data:`LEDGER_WINDOW` entries at a time (:func:`ledger_chain_window_findings`).
    """
    span = ledger_span(day)
    return [] if span is None else ledger_chain_window_findings(first_id=span[0], last_id=span[1])


def ledger_chain_window_findings(*, first_id: int, last_id: int) -> list[ChainFinding]:
    """:func:`ledger_chain_findings` for the entries with ids in ``[first_id, last_id]``: the first one
    is linked to the stored digest of the entry before it, so windows of one day can be checked apart
    (by separate workers) and find together what one pass finds."""
    return ledger_window_check(first_id=first_id, last_id=last_id)[0]


def ledger_window_check(*, first_id: int, last_id: int, day: dt.date | None = None) -> tuple[list[ChainFinding],
                                                                                          dict[str, Any]]:
    """:func:`ledger_chain_window_findings` and, with ``day``, the window's part of the day's ledger sums,
    from the same rows: ``{"unbalanced": [[entry id, cents], ...], "pots": {account code: cents}}``, the
    total of each of the day's entries in the window that does not balance, and each pot account's
    (code ending ``:pot``) total over the day's entries in the window (windows add up to the day's)."""
    before = (JournalEntry.objects.filter(id__lt=first_id).order_by("-id").values_list("digest", flat=True).first())
    previous = GENESIS if before is None else before
    out: list[ChainFinding] = []
    unbalanced: list[list[int]] = []
    pots: dict[str, int] = defaultdict(int)
    key = settings.LEDGER_DIGEST_KEY.encode()
    low = first_id
    while low <= last_id:
        entries = _entries_read(low, last_id)
        if not entries:
            break
        legs = _entry_legs([e[0] for e in entries], contiguous=True)  # every entry id in [low, the last read]
        no_legs: list[list[Any]] = []
        for row in entries:  # each row as _ENTRY_FIELDS
            (entry_id, idempotency_key, kind, memo, hand_id, table_id, gaming_day, posted_at, created_by_id,
             reverses_id, reason, digest) = row
            entry_legs = legs.get(entry_id, no_legs)
            text = journal_entry_text(  # canonical_json(journal_entry_record(...)), the same bytes
                idempotency_key=idempotency_key, kind=kind, memo=memo, hand_id=hand_id, table_id=table_id,
                gaming_day=gaming_day, posted_at=posted_at, created_by_id=created_by_id, reverses_id=reverses_id,
                reason=reason, canonical_legs=entry_legs)
            expected = hmac_sha256_hex(key, f"{previous}\n{text}".encode())  # chain_digest, key read once
            if expected != digest:
                entry = dict(zip(_ENTRY_FIELDS, row))
                if type(posted_at) is int:  # read as epoch microseconds (PostgreSQL): the datetime again
                    entry["posted_at"] = from_epoch_microseconds(posted_at)
                out.append((Finding("entry_digest", f"entry{entry_id}", "entry_digest",
                                    {"entry": entry_id, "key": idempotency_key}, expected[:16],
                                    digest[:16] if digest else NONE), entry))
            previous = digest
            if day is not None and gaming_day == day:
                total = 0
                for leg in entry_legs:
                    cents = int(leg[1].replace(".", ""))  # "-12.50" -> -1250: the canonical text has two decimals
                    total += cents
                    if leg[0].endswith(":pot"):
                        pots[leg[0]] += cents
                if total:
                    unbalanced.append([entry_id, total])
        low = entries[-1][0] + 1
    return out, {"unbalanced": unbalanced, "pots": dict(pots)}


#: ``posted_at`` read in its canonical form, integer microseconds since the epoch (exact: ``extract`` gives a
#: numeric), instead of a datetime the driver's Python time-zone loader builds for every entry.
_ENTRY_COLUMNS = ", ".join(epoch_microseconds_sql("posted_at") if name == "posted_at" else name
                           for name in _ENTRY_FIELDS)
_ENTRIES_SQL = (f"SELECT {_ENTRY_COLUMNS} FROM {JournalEntry._meta.db_table} WHERE id >= %s AND id <= %s "
                f"ORDER BY id LIMIT {LEDGER_WINDOW}")


def _entries_read(low: int, high: int) -> list[tuple[Any, ...]]:
    """At most :data:`LEDGER_WINDOW` journal entries with ids in ``[low, high]`` in id order, as
    :data:`_ENTRY_FIELDS` tuples (on PostgreSQL one plain query, no model machinery per row, ``posted_at`` as
    epoch microseconds)."""
    if connection.vendor != "postgresql":
        return list(JournalEntry.objects.filter(id__gte=low, id__lte=high).order_by("id")
                    .values_list(*_ENTRY_FIELDS)[:LEDGER_WINDOW])
    with connection.cursor() as cursor:
        cursor.execute(_ENTRIES_SQL, [low, high])
        return cursor.fetchall()


def _entry_legs(entry_ids: list[int], *, contiguous: bool = False) -> dict[int, list[list[Any]]]:
    """Each entry's legs in their canonical form (:func:`casino.digests.journal_entry_record`:
    ``[account code, amount text, role, seat or -1, player_ref, pot_index or -1]``), one query; on
    PostgreSQL written so by the database (a ``numeric(14, 2)`` amount as text has its two decimals).
    ``contiguous``: ``entry_ids`` (ascending) are every entry id from the first to the last, read as one
    id range (a ledger window)."""
    legs: dict[int, list[list[Any]]] = defaultdict(list)
    if connection.vendor == "postgresql":
        if contiguous and entry_ids:
            where, params = "p.entry_id >= %s AND p.entry_id <= %s", [entry_ids[0], entry_ids[-1]]
        else:
            where, params = "p.entry_id = ANY(%s::bigint[])", [id_array(entry_ids)]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT p.entry_id, a.code, p.amount::text, coalesce(p.role, ''), coalesce(p.seat, -1), "
                           f"coalesce(p.player_ref, ''), coalesce(p.pot_index, -1) "
                           f"FROM {Posting._meta.db_table} p JOIN {Account._meta.db_table} a ON a.id = p.account_id "
                           f"WHERE {where}", params)
            for entry_id, *leg in cursor.fetchall():
                legs[entry_id].append(leg)
        return legs
    for entry_id, code, amount, role, seat, player_ref, pot_index in Posting.objects.filter(
            entry_id__in=entry_ids).values_list("entry_id", "account__code", "amount", "role", "seat", "player_ref",
                                                "pot_index"):
        legs[entry_id].append([code, f"{Decimal(amount):.2f}", role or "", -1 if seat is None else seat,
                               player_ref or "", -1 if pot_index is None else pot_index])
    return legs


#: Hands per part of the day fingerprint, and journal entry ids per ledger part (fixed sizes: the same day
#: always splits the same way, whatever the number of threads).
FINGERPRINT_HANDS = 10_000
FINGERPRINT_ENTRIES = 10_000

_HANDS_PART_SQL = """
SELECT concat_ws('|',
  (SELECT md5(string_agg(md5(concat_ws(':', id, table_id, number, game, status, event_count, digest, button_seat,
                                       seats::text, limit_snapshot::text, opened_at)), '' ORDER BY id))
   FROM tables_hand WHERE gaming_day = %(day)s AND id > %(low)s AND id <= %(high)s),
  (SELECT md5(string_agg(concat_ws(':', e.id, e.hand_id, e.seq, e.xmin), ',' ORDER BY e.id))
   FROM tables_handevent e JOIN tables_hand h ON h.id = e.hand_id
   WHERE h.gaming_day = %(day)s AND h.id > %(low)s AND h.id <= %(high)s
     AND e.hand_id > %(low)s AND e.hand_id <= %(high)s))
"""
_LEDGER_PART_SQL = """
SELECT concat_ws('|',
  (SELECT md5(string_agg(md5(concat_ws(':', id, idempotency_key, kind, memo, hand_id, table_id, posted_at,
                                       created_by_id, reverses_id, reason, digest)), '' ORDER BY id))
   FROM accounting_journalentry WHERE gaming_day = %(day)s AND id > %(low)s AND id <= %(high)s),
  (SELECT md5(string_agg(concat_ws(':', p.id, p.entry_id, p.xmin), ',' ORDER BY p.id))
   FROM accounting_posting p JOIN accounting_journalentry j ON j.id = p.entry_id
   WHERE j.gaming_day = %(day)s AND j.id > %(low)s AND j.id <= %(high)s
     AND p.entry_id > %(low)s AND p.entry_id <= %(high)s))
"""
_HAND_BOUNDS_SQL = """
SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM tables_hand WHERE gaming_day = %(day)s) AS s
WHERE n %% %(size)s = 0 ORDER BY id
"""
#: No id is above this: the last part of a day is open-ended.
_NO_ID_ABOVE = 2**63 - 1


def _fingerprint_part(sql: str, day: dt.date, low: int, high: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(sql, {"day": day, "low": low, "high": high})
        return cursor.fetchone()[0] or ""


def day_content_fingerprint(day: dt.date, *, threads: int = 2) -> str:
    """A hash of everything the day run reads (hands, events, entries, legs, stored digests): a changed
    day gives a new run key, so a change made after a day was reconciled is found by the next run.

    On PostgreSQL the hashing runs in the database: hands and entries by their columns, the append-only
    events and legs (a day has some twenty-five of each per hand) by row version, their id and
    ``xmin``. PostgreSQL writes a new row version, with the writing transaction's id, for every change,
    also one made with the triggers off, so an edited, replaced or added event or leg changes the
    fingerprint as its content did, without reading and hashing every payload (a row copied by a dump
    and restore changes it too: that day is then checked once more). The day is hashed in parts (hand
    id ranges of :data:`FINGERPRINT_HANDS` hands with their events, entry id windows of
    :data:`FINGERPRINT_ENTRIES` with their legs), each an md5 in id order, by ``threads`` connections
    side by side (:func:`accounting.services.parallel.run_in_threads`); the fingerprint is the md5 of
    the parts' hashes in order.
    """
    if connection.vendor == "postgresql":
        from accounting.services.parallel import run_in_threads

        with connection.cursor() as cursor:
            cursor.execute(_HAND_BOUNDS_SQL, {"day": day, "size": FINGERPRINT_HANDS})
            bounds = [row[0] for row in cursor.fetchall()]
        lows = [0, *bounds]
        jobs = [functools.partial(_fingerprint_part, _HANDS_PART_SQL, day, low, high)
                for low, high in zip(lows, [*bounds, _NO_ID_ABOVE])]
        span = ledger_span(day)
        if span is not None:
            jobs += [functools.partial(_fingerprint_part, _LEDGER_PART_SQL, day, low, low + FINGERPRINT_ENTRIES)
                     for low in range(span[0] - 1, span[1], FINGERPRINT_ENTRIES)]
        parts = run_in_threads(jobs, threads, name=f"fingerprint-{day}")
        return hashlib.md5("/".join(parts).encode(), usedforsecurity=False).hexdigest()[:24]
    digest = hashlib.sha256()
    hands = (Hand.objects.filter(gaming_day=day).order_by("id")
             .values_list("id", "status", "event_count", "digest", "button_seat", "seats", "limit_snapshot"))
    for row in hands.iterator(chunk_size=2000):
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    events = (HandEvent.objects.filter(hand__gaming_day=day).order_by("hand_id", "seq")
              .values_list("hand_id", "seq", "payload", "idempotency_key", "digest"))
    for row in events.iterator(chunk_size=5000):
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    entries = JournalEntry.objects.filter(gaming_day=day).order_by("id").values_list(*_ENTRY_FIELDS)
    for row in entries.iterator(chunk_size=2000):
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    legs = (Posting.objects.filter(entry__gaming_day=day).order_by("id")
            .values_list("id", "entry_id", "account_id", "amount", "role", "seat", "player_ref", "pot_index"))
    for row in legs.iterator(chunk_size=5000):
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:24]
