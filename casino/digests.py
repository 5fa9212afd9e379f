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
import functools
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import orjson
from django.conf import settings

#: The digest a chain starts from (the ledger's first entry links to it).
GENESIS = ""
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICROSECOND = dt.timedelta(microseconds=1)
_SHA256_BLOCK = 64


def _canonical(value: Any) -> Any:
    """JSON form of the values JSON lacks (called by ``json.dumps`` only for those: no Python recursion)."""
    if isinstance(value, dt.datetime):
        return (value - _EPOCH) // _MICROSECOND if value.tzinfo else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    raise TypeError(f"{type(value).__name__} has no canonical form in a digest")


def sorted_json_encoder(default: Any) -> Any:
    """A function equal to ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
    default=default)``, built once: the same C encoder ``json.dumps`` builds on every call (the text is
    the same byte for byte), without the per-call set-up that costs more than encoding a small record."""
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_encoder is None:  # an interpreter without the C accelerator: json.dumps as written
        return functools.partial(json.dumps, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=default)
    quote = json.encoder.encode_basestring_ascii
    # markers=None: no circular-reference bookkeeping (records are trees read from JSON and the database).
    encode = make_encoder(None, default, quote, None, ":", ",", True, False, True)

    def dumps(value: Any) -> str:
        if isinstance(value, str):
            return quote(value)
        return "".join(encode(value, 0))

    dumps.chunks = encode  # type: ignore[attr-defined]  # the text of a dict is "".join(chunks(value, 0))
    return dumps


#: The canonical JSON text of a record (sorted keys, no spaces, ASCII, ``_canonical`` for the rest).
canonical_json = sorted_json_encoder(_canonical)
#: The C encoder behind :data:`canonical_json` (None without the accelerator): a dict's canonical text is
#: ``"".join(_CANONICAL_CHUNKS(value, 0))``, one call less per event in :func:`hand_chain`.
_CANONICAL_CHUNKS = getattr(canonical_json, "chunks", None)


@functools.lru_cache(maxsize=8)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """The inner and outer SHA-256 states of HMAC (RFC 2104) for ``key``, hashed once per key: each
    digest then copies them instead of setting up HMAC again (the set-up cost as much as the hashing)."""
    if len(key) > _SHA256_BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_SHA256_BLOCK, b"\0")
    return hashlib.sha256(key.translate(hmac.trans_36)), hashlib.sha256(key.translate(hmac.trans_5C))


def hmac_sha256_hex(key: bytes, message: bytes) -> str:
    """``hmac.new(key, message, hashlib.sha256).hexdigest()``, from the cached pads of ``key``."""
    inner_pad, outer_pad = _hmac_pads(key)
    inner = inner_pad.copy()
    inner.update(message)
    outer = outer_pad.copy()
    outer.update(inner.digest())
    return outer.hexdigest()


def chain_digest(previous: str, record: Mapping[str, Any]) -> str:
    """The 64-hex digest of ``record`` linked to ``previous`` (keyed with ``settings.LEDGER_DIGEST_KEY``):
    ``HMAC-SHA256(key, previous + "\\n" + canonical JSON of record)``."""
    return hmac_sha256_hex(settings.LEDGER_DIGEST_KEY.encode(), f"{previous}\n{canonical_json(record)}".encode())


def hand_header_record(*, table_id: int, number: int, game: str, button_seat: int, limit_snapshot: Any,
                       seats: Any, gaming_day: dt.date, opened_at: dt.datetime) -> dict[str, Any]:
    """What a hand's chain starts from: the fields fixed when the hand opens."""
    return {"table": table_id, "number": number, "game": game, "button": button_seat, "limits": limit_snapshot,
            "seats": seats, "gaming_day": gaming_day, "opened_at": opened_at}


def hand_event_record(*, seq: int, payload: Any, idempotency_key: str) -> dict[str, Any]:
    """One event as its digest covers it."""
    return {"seq": seq, "payload": payload, "key": idempotency_key}


def hand_header_text(*, table_id: int, number: int, game: str, button_seat: int, limits_json: str, seats: Any,
                     gaming_day: dt.date, opened_at: dt.datetime, seats_json: str = "") -> str:
    """``canonical_json(hand_header_record(...))`` with the frozen limit snapshot given as its canonical text
    (``limits_json = canonical_json(limit_snapshot)``): the same bytes, written field by field in sorted key
    order, so the hands of a table, which share one snapshot, encode it once (reconciliation). ``seats_json``,
    when given, is ``canonical_json(seats)`` already written (``seats`` is then not read)."""
    c = canonical_json
    return (f'{{"button":{c(button_seat)},"game":{c(game)},"gaming_day":{c(gaming_day)},"limits":{limits_json},'
            f'"number":{c(number)},"opened_at":{c(opened_at)},"seats":{seats_json or c(seats)},"table":{c(table_id)}}}')


def hand_chain(header: Mapping[str, Any] | None, events: Iterable[tuple[int, Any, str]], *,
               header_text: str | None = None, fast: bool = False) -> list[str]:
    """``[header digest, digest after event 1, ...]`` for ``events`` as ``(seq, payload, key)``.

    The same digests as :func:`chain_digest` over :func:`hand_event_record` records, with the key read
    once per chain and an event's canonical text written directly (its keys in sorted order) when its
    number is an int and its key text, as every stored event's are. ``header_text``, when given, is
    the header's canonical text (:func:`hand_header_text`) and ``header`` is not read.

    ``fast`` (the checks, which compare the result with stored digests): a payload's text is written by
    orjson (:func:`_fast_payload_text`) where it can be, else by the canonical encoder. It equals the
    canonical text for every payload of strings, integers, booleans, lists and objects, as the service
    stores them; for a finite float it may differ (orjson writes 1e-7 where json writes 1e-07), and that
    event's digest then differs from the stored one. A caller that finds a difference must compute the chain
    again without ``fast`` (:func:`accounting.services.tamper.hand_digest_findings` does): only that result
    is a finding. A match is exact either way: a different text with the same HMAC would be a collision."""
    key = settings.LEDGER_DIGEST_KEY.encode()
    inner_pad, outer_pad = _hmac_pads(key)
    inner_copy, outer_copy = inner_pad.copy, outer_pad.copy
    head = canonical_json(header) if header_text is None else header_text
    link = hmac_sha256_hex(key, f"{GENESIS}\n{head}".encode())
    digests = [link]
    append = digests.append
    quote = json.encoder.encode_basestring_ascii
    encode = canonical_json
    chunks, join = _CANONICAL_CHUNKS, "".join
    for seq, payload, idempotency_key in events:
        if type(seq) is int and type(idempotency_key) is str:  # the message written at once: link, record text
            fast_text = _fast_payload_text(payload) if fast else None
            if fast_text is not None:
                message = b'%s\n{"key":%s,"payload":%s,"seq":%d}' % (link.encode(), quote(idempotency_key).encode(),
                                                                   fast_text, seq)
            else:
                text = join(chunks(payload, 0)) if chunks is not None and type(payload) is dict else encode(payload)
                message = f'{link}\n{{"key":{quote(idempotency_key)},"payload":{text},"seq":{seq}}}'.encode()
        else:
            record = hand_event_record(seq=seq, payload=payload, idempotency_key=idempotency_key)
            message = f"{link}\n{encode(record)}".encode()
        inner = inner_copy()  # HMAC as hmac_sha256_hex, inline: this loop runs for every event of a day
        inner.update(message)
        outer = outer_copy()
        outer.update(inner.digest())
        link = outer.hexdigest()
        append(link)
    return digests


def _fast_payload_text(payload: Any) -> bytes | None:
    """A payload's JSON text by orjson (sorted keys, no spaces) for :func:`hand_chain`'s ``fast`` (a hand's chain
    then takes about 13 % less time: 56 to 49 us for a bench hand of 25 events), or None where the canonical
    encoder must write it: a value orjson refuses (an integer beyond 64 bits), a text that is not ASCII or holds
    DEL (the one ASCII character the two write apart), and a text with ``null`` (orjson writes an infinite or
    NaN float as ``null``, where the canonical text has ``Infinity`` or ``NaN``: a ``null`` changed to ``1e400``
    behind the service's back, read back as infinity, would otherwise give the stored digest)."""
    try:
        text = orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return None
    return text if text.isascii() and b"\x7f" not in text and b"null" not in text else None


def _scalar_json(value: Any) -> str:
    """``canonical_json(value)`` of an int, None or str without the encoder's set-up (else the encoder)."""
    if value is None:
        return "null"
    if type(value) is int:
        return int.__repr__(value)
    return canonical_json(value)


def epoch_microseconds_sql(column: str) -> str:
    """SQL reading the timestamptz ``column`` in its canonical form, integer microseconds since the epoch (as in
    every digest; exact: PostgreSQL's ``extract`` gives a numeric), for readers that would otherwise have the
    driver's Python time-zone loader build a datetime for every row (reconciliation)."""
    return f"(extract(epoch FROM {column}) * 1000000)::bigint"


def from_epoch_microseconds(value: int | None) -> dt.datetime | None:
    """The aware UTC datetime of a canonical time read by :func:`epoch_microseconds_sql` (None stays None)."""
    return None if value is None else _EPOCH + _MICROSECOND * value


def journal_entry_text(*, idempotency_key: str, kind: str, memo: str, hand_id: int | None, table_id: int | None,
                       gaming_day: dt.date | str, posted_at: dt.datetime | int, created_by_id: int | None,
                       reverses_id: int | None, reason: str, canonical_legs: list[list[Any]]) -> str:
    """``canonical_json(journal_entry_record(..., canonical_legs=canonical_legs))``, written field by field in
    sorted key order (the same bytes, without building and sorting the record dict): the ledger chain check
    runs it for every entry of a day. ``posted_at`` may be given already canonical (epoch microseconds, an
    int, as PostgreSQL computes it) and ``gaming_day`` as its ISO text; ``canonical_legs`` is sorted in place."""
    canonical_legs.sort()
    j = _scalar_json
    posted = posted_at if type(posted_at) is int or posted_at is None else _canonical(posted_at)
    return (f'{{"by":{j(created_by_id)},"gaming_day":{canonical_json(gaming_day)},"hand":{j(hand_id)},'
            f'"key":{canonical_json(idempotency_key)},"kind":{canonical_json(kind)},'
            f'"legs":{canonical_json(canonical_legs)},"memo":{canonical_json(memo)},"posted_at":{j(posted)},'
            f'"reason":{canonical_json(reason)},"reverses":{j(reverses_id)},"table":{j(table_id)}}}')


def journal_entry_record(*, idempotency_key: str, kind: str, memo: str, hand_id: int | None, table_id: int | None,
                         gaming_day: dt.date, posted_at: dt.datetime, created_by_id: int | None,
                         reverses_id: int | None, reason: str,
                         legs: Sequence[tuple[str, Decimal, str, int | None, str, int | None]] = (),
                         canonical_legs: list[list[Any]] | None = None) -> dict[str, Any]:
    """An entry as its digest covers it; ``legs`` as ``(account code, amount, role, seat, player_ref, pot_index)``
    in any order (sorted here). ``canonical_legs``, when given, replaces ``legs``: each leg already in its
    canonical form ``[code, amount as text with two decimals, role or "", seat or -1, player_ref or "",
    pot_index or -1]`` (as PostgreSQL writes a ``numeric(14, 2)`` amount), in any order."""
    if canonical_legs is None:
        canonical_legs = [[code, f"{Decimal(amount):.2f}", role or "", -1 if seat is None else seat, player_ref or "",
                           -1 if pot_index is None else pot_index]
                          for code, amount, role, seat, player_ref, pot_index in legs]
    canonical_legs.sort()
    return {"key": idempotency_key, "kind": kind, "memo": memo, "hand": hand_id, "table": table_id,
            "gaming_day": gaming_day, "posted_at": posted_at, "by": created_by_id, "reverses": reverses_id,
            "reason": reason, "legs": canonical_legs}
