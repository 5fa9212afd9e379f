"""The tamper-evidence digests are exactly the documented formula (casino/digests.py): the fast encoder
and the cached HMAC pads give the bytes ``json.dumps`` and ``hmac.new`` give, so every digest stored
before stays valid."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from decimal import Decimal

import pytest
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.digests import (
    _canonical,
    canonical_json,
    chain_digest,
    epoch_microseconds_sql,
    from_epoch_microseconds,
    hand_chain,
    hand_header_record,
    hand_header_text,
    journal_entry_record,
    journal_entry_text,
    sorted_json_encoder,
)

RECORDS = [
    {"seq": 7, "payload": {"type": "bet", "seat": 3, "to": 1000, "note": "Ärger\x7f\n\"quoted\" \u2603"}, "key": "k7"},
    {"table": 1, "limits": {"config": {"ante": 100, "tax": [0.05, "ROUND_DOWN"]}, "label": "5/10"},
     "opened_at": dt.datetime(2026, 3, 29, 0, 59, 59, 999999, tzinfo=dt.UTC), "naive": dt.datetime(2026, 1, 1),
     "gaming_day": dt.date(2026, 3, 28), "amount": Decimal("12.5"), "none": None, "flag": True, "big": 2**70},
    {"legs": [["table:1:pot", "-0.50", "", -1, "", -1]], "nested": [[[]], {}], "float": 1e16},
    "text", 5, [], {},
]


def _documented(previous: str, record, key: str) -> str:
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_canonical)
    return hmac.new(key.encode(), f"{previous}\n{body}".encode(), hashlib.sha256).hexdigest()


@pytest.mark.parametrize("key", ["short key", "k" * 64, "a key longer than one SHA-256 block of sixty-four bytes ...."])
def test_chain_digest_is_hmac_sha256_of_the_canonical_json(key):
    with override_settings(LEDGER_DIGEST_KEY=key):
        for record in RECORDS:
            assert chain_digest("previous", record) == _documented("previous", record, key)
        chain = hand_chain(RECORDS[1], [(1, {"type": "ante", "seat": 1}, "a"), (2, {"type": "fold", "seat": 2}, "b")])
        assert chain[0] == _documented("", RECORDS[1], key)
        assert chain[2] == _documented(chain[1], {"seq": 2, "payload": {"type": "fold", "seat": 2}, "key": "b"}, key)


def test_the_sorted_encoder_writes_what_json_dumps_writes():
    content = sorted_json_encoder(str)
    for record in RECORDS:
        assert canonical_json(record) == json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                                                    default=_canonical)
        assert content(record) == json.dumps(record, sort_keys=True, default=str, separators=(",", ":"))


def test_a_value_without_a_canonical_form_is_refused():
    with pytest.raises(TypeError):
        chain_digest("", {"x": object()})


HEADERS = [
    dict(table_id=3, number=17, game="seven_card_stud", button_seat=2,
         limit_snapshot={"ante": "1.00", "lower": "5.00", "raise_cap": 3, "nested": {"b": [1, None], "a": True}},
         seats={"2": {"stack": 20000, "player_ref": None}, "10": {"stack": 5, "player_ref": "Ärger \"x\""}},
         gaming_day=dt.date(2026, 3, 28), opened_at=dt.datetime(2026, 3, 28, 23, 59, 59, 999999, tzinfo=dt.UTC)),
    dict(table_id=1, number=0, game="capsa_susun", button_seat=0, limit_snapshot={}, seats={},
         gaming_day=dt.date(2026, 1, 1), opened_at=dt.datetime(2026, 1, 1, 6, 0, tzinfo=dt.UTC)),
]


@pytest.mark.parametrize("header", HEADERS)
def test_the_header_written_field_by_field_is_the_canonical_json_of_the_record(header):
    """Reconciliation encodes a table's limit snapshot once and writes each hand's header around it."""
    fields = {k: v for k, v in header.items() if k != "limit_snapshot"}
    text = hand_header_text(**fields, limits_json=canonical_json(header["limit_snapshot"]))
    assert text == canonical_json(hand_header_record(**header))
    events = [(1, {"type": "ante", "seat": 2}, "a"), (2, {"type": "fold", "seat": 10}, "b")]
    assert hand_chain(None, events, header_text=text) == hand_chain(hand_header_record(**header), events)


ENTRIES = [
    dict(idempotency_key="hand:7:settlement", kind="hand_settlement", memo="", hand_id=7, table_id=3,
         gaming_day=dt.date(2026, 3, 28), posted_at=dt.datetime(2026, 3, 29, 0, 59, 59, 999999, tzinfo=dt.UTC),
         created_by_id=None, reverses_id=None, reason="",
         legs=[("table:3:pot", Decimal("-12.5"), "award", 2, "", 0), ("table:3:players", Decimal("12.50"), "award", 2, "",
                                                                      0)]),
    dict(idempotency_key="adj \"Ärger\"\n\u2603", kind="adjustment", memo="memo \x7f\t", hand_id=None, table_id=None,
         gaming_day=dt.date(2026, 1, 1), posted_at=dt.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=dt.UTC),
         created_by_id=2**40, reverses_id=12, reason="Grund: \u00fc", legs=[]),
    dict(idempotency_key="k", kind="reversal", memo="", hand_id=0, table_id=-1, gaming_day=dt.date(2026, 5, 12),
         posted_at=dt.datetime(2026, 5, 12, 18, 0), created_by_id=1, reverses_id=None, reason="",
         legs=[("house:bonus_expense", Decimal("0.10"), None, None, None, None), ("a", Decimal("-0.10"), "", -1, "p", -1)]),
]


@pytest.mark.parametrize("entry", ENTRIES)
def test_the_entry_written_field_by_field_is_the_canonical_json_of_the_record(entry):
    """The ledger chain check writes each entry's text field by field (``posted_at`` as the datetime or already
    as its epoch microseconds, ``gaming_day`` as the date or its ISO text): the bytes of the documented record."""
    record = journal_entry_record(**entry)
    fields = {k: v for k, v in entry.items() if k != "legs"}
    forms = [fields, {**fields, "gaming_day": entry["gaming_day"].isoformat()}]
    if entry["posted_at"].tzinfo is not None:
        forms.append({**fields, "posted_at": _canonical(entry["posted_at"])})
    for form in forms:
        legs = [list(leg) for leg in reversed(record["legs"])]  # any order: sorted by the writer
        assert journal_entry_text(**form, canonical_legs=legs) == canonical_json(record)


@pytest.mark.django_db
def test_a_time_read_by_the_database_as_epoch_microseconds_is_its_canonical_form_and_the_same_datetime():
    """Reconciliation reads ``opened_at``/``posted_at`` as :func:`epoch_microseconds_sql`; the number must be the
    digests' canonical form of the time, and :func:`from_epoch_microseconds` the same datetime again."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("epoch_microseconds_sql is PostgreSQL's extract(); other backends read datetimes")
    times = [dt.datetime(2026, 12, 7, 23, 59, 59, 999999, tzinfo=dt.UTC),
             dt.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=dt.UTC),
             dt.datetime(2031, 3, 30, 0, 59, 0, 123456, tzinfo=dt.timezone(dt.timedelta(hours=2)))]
    with connection.cursor() as cursor:
        for value in times:
            cursor.execute(f"SELECT {epoch_microseconds_sql('t')} FROM (SELECT %s::timestamptz AS t) AS x", [value])
            read = cursor.fetchone()[0]
            assert read == _canonical(value)
            assert from_epoch_microseconds(read) == value
    assert from_epoch_microseconds(None) is None


FAST_EVENTS = [
    (1, {"type": "bet", "seat": 3, "to": 1000, "flag": True, "none": None, "cards": ["As", "Kd"], "nested": [[[]], {}]},
     "k1"),
    (2, {"note": "Ärger \u2603", "seat": 1}, "k2"),                      # not ASCII: the canonical encoder writes it
    (3, {"note": "tab\t nl\n quote\" back\\ slash/ \x01 \x7f", "z": 1, "a": 2}, "k\"3"),
    (4, {"big": 2**70, "neg": -(2**63)}, "k4"),                            # beyond 64 bits: refused by orjson
    (5, {"float": 1e-7, "half": 0.5}, "k5"),                               # a float: orjson writes 1e-7, json 1e-07
    (6, {}, ""),
    (7, [], "k7"),
    (8, "text", "k8"),
]


def test_the_fast_chain_is_the_canonical_chain_for_what_the_service_stores():
    """The checks' fast chain (orjson's text) gives the canonical digests for payloads of strings, integers,
    booleans, nulls, lists and objects, with or without characters that need escaping or are not ASCII."""
    header = hand_header_record(**HEADERS[0])
    honest = FAST_EVENTS[:4] + FAST_EVENTS[5:]
    assert hand_chain(header, honest, fast=True) == hand_chain(header, honest)
    with override_settings(LEDGER_DIGEST_KEY="a key"):
        assert hand_chain(header, [(1, {"seat": 1}, "a")], fast=True)[1] == _documented(
            hand_chain(header, [])[0], {"seq": 1, "payload": {"seat": 1}, "key": "a"}, "a key")


def _stored_hand(header: dict, events: list) -> tuple:
    """A hand as the checks read it (its facts, its rows with the canonical chain's digests) from a header and events."""
    from types import SimpleNamespace

    chain = hand_chain(hand_header_record(**header), events)
    facts = SimpleNamespace(table_id=header["table_id"], number=header["number"], game=header["game"],
                            button_seat=header["button_seat"], limit_snapshot=header["limit_snapshot"],
                            seats=header["seats"], gaming_day=header["gaming_day"], opened_at=header["opened_at"],
                            event_count=len(events), digest=chain[-1])
    return facts, [(seq, payload, key, digest) for (seq, payload, key), digest in zip(events, chain[1:])]


def test_a_float_payload_differs_in_the_fast_chain_and_the_checks_decide_by_the_canonical_one():
    """orjson writes some floats differently (1e-7): that event's fast digest differs from the canonical one,
    and hand_digest_findings then computes the canonical chain, so an honest hand is not flagged."""
    from accounting.services.tamper import hand_digest_findings

    chain = hand_chain(hand_header_record(**HEADERS[0]), FAST_EVENTS)
    assert hand_chain(hand_header_record(**HEADERS[0]), FAST_EVENTS, fast=True)[5] != chain[5]
    facts, rows = _stored_hand(HEADERS[0], FAST_EVENTS)
    assert hand_digest_findings(facts, rows) == []
    tampered = [*rows[:4], (5, {"float": 1e-7, "half": 0.25}, "k5", rows[4][3]), *rows[5:]]
    assert [f.kind for f in hand_digest_findings(facts, tampered)] == ["event_digest"]


#: Any value json reads from a payload's text: integers of any size, floats (infinities and NaN too: json reads
#: 1e400 as infinity), any text, nesting.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(payloads=st.lists(JSON_VALUES, min_size=1, max_size=4), other=JSON_VALUES)
def test_the_checks_find_exactly_what_the_canonical_chain_finds(payloads, other):
    """For any payloads, honest rows (digests of the canonical chain) give no finding, and a payload changed
    behind the service's back (its stored digest kept) gives the event_digest finding, whatever orjson writes."""
    from accounting.services.tamper import hand_digest_findings

    facts, rows = _stored_hand(HEADERS[1], [(seq, payload, f"k{seq}") for seq, payload in enumerate(payloads, start=1)])
    assert hand_digest_findings(facts, rows) == []
    if canonical_json(other) != canonical_json(payloads[0]):
        tampered = [(1, other, "k1", rows[0][3]), *rows[1:]]
        assert [f.kind for f in hand_digest_findings(facts, tampered)] == ["event_digest"]


@pytest.mark.parametrize("tampered", [float("inf"), float("-inf")])
def test_a_null_changed_to_an_infinite_number_is_found(tampered):
    """orjson writes an infinite float as null, the canonical text as Infinity: a note of null changed to 1e400
    behind the service's back (json reads it as infinity) must not keep the stored digest (break test)."""
    from accounting.services.tamper import hand_digest_findings

    facts, rows = _stored_hand(HEADERS[0], [(1, {"type": "check", "seat": 2, "note": None}, "k1")])
    assert hand_digest_findings(facts, rows) == []
    changed = [(1, {"type": "check", "seat": 2, "note": json.loads("1e400") * (1 if tampered > 0 else -1)}, "k1",
                rows[0][3])]
    assert [f.kind for f in hand_digest_findings(facts, changed)] == ["event_digest"]
