"""Tamper evidence: keyed digests chained record to record (issue 20).

Each record's digest is ``HMAC-SHA256(LEDGER_DIGEST_KEY, previous digest + canonical JSON of the
record)``: changing, adding or removing a record changes its digest and breaks the link to the next
one, and without the key (kept in the service's environment, not in the database) nobody who edits
rows behind the service's back can compute matching digests. Two chains exist:

* a hand's event log: the chain starts from the digest of the hand's header (table, number, game,
  button, frozen limit snapshot, seats, gaming day, opening time) and runs through its events in
  sequence order; ``Hand.digest`` holds the head (the last event's digest), each ``HandEvent.digest``
  its own link;
* the ledger: every journal entry's digest covers the entry's fields and all its legs and is chained
  to the entry before it (by id); the posting service takes a lock so that entries are chained in
  the order they are inserted.

The gaming-day reconciliation recomputes both chains and reports every difference as a discrepancy.
Canonical forms: JSON with sorted keys, times as integer microseconds since the epoch, dates as ISO
text, amounts as text with two decimals. Pure functions; only the key comes from the settings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings

#: The digest a chain starts from (the ledger's first entry links to it).
GENESIS = ""
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICROSECOND = dt.timedelta(microseconds=1)


def _canonical(value: Any) -> Any:
    """JSON form of the values JSON lacks (called by ``json.dumps`` only for those: no Python recursion)."""
    if isinstance(value, dt.datetime):
        return (value - _EPOCH) // _MICROSECOND if value.tzinfo else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    raise TypeError(f"{type(value).__name__} has no canonical form in a digest")


def chain_digest(previous: str, record: Mapping[str, Any]) -> str:
    """The 64-hex digest of ``record`` linked to ``previous`` (keyed with ``settings.LEDGER_DIGEST_KEY``)."""
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_canonical)
    key = settings.LEDGER_DIGEST_KEY.encode()
    return hmac.new(key, f"{previous}\n{body}".encode(), hashlib.sha256).hexdigest()


def hand_header_record(*, table_id: int, number: int, game: str, button_seat: int, limit_snapshot: Any,
                       seats: Any, gaming_day: dt.date, opened_at: dt.datetime) -> dict[str, Any]:
    """What a hand's chain starts from: the fields fixed when the hand opens."""
    return {"table": table_id, "number": number, "game": game, "button": button_seat, "limits": limit_snapshot,
            "seats": seats, "gaming_day": gaming_day, "opened_at": opened_at}


def hand_event_record(*, seq: int, payload: Any, idempotency_key: str) -> dict[str, Any]:
    """One event as its digest covers it."""
    return {"seq": seq, "payload": payload, "key": idempotency_key}


def hand_chain(header: Mapping[str, Any], events: Iterable[tuple[int, Any, str]]) -> list[str]:
    """``[header digest, digest after event 1, ...]`` for ``events`` as ``(seq, payload, key)``."""
    digests = [chain_digest(GENESIS, header)]
    for seq, payload, key in events:
        digests.append(chain_digest(digests[-1], hand_event_record(seq=seq, payload=payload, idempotency_key=key)))
    return digests


def journal_entry_record(*, idempotency_key: str, kind: str, memo: str, hand_id: int | None, table_id: int | None,
                         gaming_day: dt.date, posted_at: dt.datetime, created_by_id: int | None,
                         reverses_id: int | None, reason: str,
                         legs: Sequence[tuple[str, Decimal, str, int | None, str, int | None]]) -> dict[str, Any]:
    """An entry as its digest covers it; ``legs`` as ``(account code, amount, role, seat, player_ref, pot_index)``
    in any order (sorted here)."""
    canonical_legs = sorted([code, f"{Decimal(amount):.2f}", role or "", -1 if seat is None else seat, player_ref or "",
                             -1 if pot_index is None else pot_index]
                            for code, amount, role, seat, player_ref, pot_index in legs)
    return {"key": idempotency_key, "kind": kind, "memo": memo, "hand": hand_id, "table": table_id,
            "gaming_day": gaming_day, "posted_at": posted_at, "by": created_by_id, "reverses": reverses_id,
            "reason": reason, "legs": canonical_legs}
