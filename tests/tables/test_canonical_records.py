"""The hand service stores the canonical record of an event, never the request (issue 14): cards ``"4d"``,
``??`` for an unknown card, amounts in cents; a retry of the same request is still recognised; the data
migration rewrites hands stored in the raw form and keeps their digest chains verifiable."""

from __future__ import annotations

import datetime as dt
import importlib
import random
import types

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from accounting.services.tamper import hand_digest_findings
from rules.registry import get_game
from rules.replay import replay_hand
from tables.models import Hand, HandEvent
from tests.accounting.helpers import make_hand, make_table, random_events
from tests.tables.hands_support import Terminal, croupier_on_duty, seats_payload, table_make

pytestmark = pytest.mark.django_db

STACKS = {1: 10000, 3: 10000, 5: 10000}
ANTES = [{"type": "ante", "seat": s} for s in (1, 3, 5)]


def _payloads(hand_id):
    return list(HandEvent.objects.filter(hand_id=hand_id).order_by("seq").values_list("payload", flat=True))


def test_a_card_sent_as_4D_is_stored_as_4d_and_the_retry_is_the_same_request(api_client):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, STACKS).json()["id"]
    for seq, ante in enumerate(ANTES):
        assert terminal.post(hand_id, ante, seq=seq).status_code == 201
    raw = {"seat": 1, "cards": ["4D", "5c", "kH"], "type": "deal", "note": "door card flashed"}
    first = terminal.post(hand_id, raw, seq=3, key="deal-1")
    assert first.status_code == 201, first.json()
    stored = _payloads(hand_id)[-1]
    assert stored == {"type": "deal", "seat": 1, "cards": "4d 5c Kh", "note": "door card flashed"}
    assert first.json()["event"]["cards"] == "4d 5c Kh"
    again = terminal.post(hand_id, raw, seq=3, key="deal-1")  # the same raw body under the same key
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["state"] == first.json()["state"]
    other = terminal.post(hand_id, {**raw, "cards": "4d 5c Qh"}, seq=3, key="deal-1")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_conflict"
    hand = Hand.objects.get(pk=hand_id)
    assert hand.event_count == 4
    rows = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("seq", "payload", "idempotency_key",
                                                                                  "digest"))
    assert hand_digest_findings(hand, rows) == []  # the chain covers the canonical records


def test_a_refused_event_reads_as_before_in_the_engines_words(api_client):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, STACKS).json()["id"]
    response = terminal.post(hand_id, {"type": "ante", "seat": 1, "amout": "1.00"}, seq=0)
    assert response.status_code == 400 and response.json()["code"] == "unknown_event"
    assert "does not take 'amout'" in response.json()["message"]
    response = terminal.post(hand_id, {"type": "ante", "seat": "1"}, seq=0)
    assert response.status_code == 400 and "needs an integer 'seat'" in response.json()["message"]
    assert _payloads(hand_id) == []


def test_a_whole_hand_is_stored_canonical_and_its_retry_with_the_raw_body_is_recognised(api_client):
    table = table_make(game="seven_card_stud")
    api_client.force_authenticate(croupier_on_duty(table))
    events = [*ANTES, {"type": "deal", "seat": 1, "cards": "AS,KD,2c"}, {"type": "deal", "seat": 3, "cards": "xx XX 9h"},
              {"type": "deal", "seat": 5, "cards": ["3d", "3H", "3c"]}]
    body = {"idempotency_key": "whole-1", "table": table.pk, "seats": seats_payload(STACKS), "events": events}
    first = api_client.post("/api/v1/hands/submit/", body, format="json")
    assert first.status_code == 201, first.json()
    hand_id = first.json()["id"]
    assert [p.get("cards") for p in _payloads(hand_id)][3:] == ["As Kd 2c", "?? ?? 9h", "3d 3h 3c"]
    again = api_client.post("/api/v1/hands/submit/", body, format="json")
    assert again.status_code in (200, 201) and again.json()["id"] == hand_id
    assert Hand.objects.filter(table=table).count() == 1 and Hand.objects.get(pk=hand_id).event_count == 6


# --- the data migration --------------------------------------------------------------------------------------


def _scruffy(event):
    """An event as an old terminal sent it and the old service stored it: cards in upper case, lists, XX."""
    out = dict(event)
    for key in ("cards", "card", "front", "middle", "back"):
        if isinstance(out.get(key), str):
            tokens = ["XX" if t == "??" else t.upper() for t in out[key].split()]
            out[key] = tokens if len(tokens) > 3 else ",".join(tokens)
    return {"note": "logged in 2025", **out}


def _migrate():
    migration = importlib.import_module("tables.migrations.0009_canonical_event_records")
    if connection.vendor == "sqlite":
        # SQLite's schema editor refuses to open inside the test's transaction (its foreign key checks are on, and
        # only ``manage.py migrate`` turns them off outside a transaction); there the migration reads nothing of the
        # editor but its connection (the triggers it switches off exist on PostgreSQL only).
        migration.canonical_records(apps, types.SimpleNamespace(connection=connection))
        return
    with connection.cursor() as cursor:  # the migration runs as the owner (manage.py migrate)
        role = connection.settings_dict.get("OPTIONS", {}).get("assume_role")
        if connection.vendor == "postgresql":
            if role:
                cursor.execute("RESET ROLE")
        try:
            with connection.schema_editor(atomic=False) as editor:
                migration.canonical_records(apps, editor)
        finally:
            if role:
                cursor.execute(f"SET ROLE {connection.ops.quote_name(role)}")


@pytest.mark.parametrize("game", ["seven_card_stud", "forty_one", "capsa_susun"])
def test_the_migration_makes_stored_payloads_canonical_and_keeps_the_chain_verifiable(game):
    table = make_table(game)
    rng = random.Random(14)
    spec = get_game(game)
    config = spec.engine.build_config(table.limit_profiles.get().config)
    events = random_events(game, config, {1: 200_00, 2: 200_00, 3: 200_00}, 1, rng)
    raw = [_scruffy(e) for e in events]
    hand = make_hand(table, rng=rng, opened_at=timezone.now() - dt.timedelta(days=2), events=raw, post=False)
    untouched = make_hand(table, rng=rng, opened_at=timezone.now() - dt.timedelta(days=1), events=raw, post=False)
    Hand.objects.filter(pk=untouched.pk).update(digest="0" * 64)  # a chain that does not verify
    assert _payloads(hand.pk) == raw
    _migrate()
    stored = _payloads(hand.pk)
    assert stored != raw and stored == [spec.events.record(e, context=config) for e in raw]
    assert all(p["note"] == "logged in 2025" for p in stored)
    hand.refresh_from_db()
    rows = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("seq", "payload", "idempotency_key",
                                                                                "digest"))
    assert hand_digest_findings(hand, rows) == []
    replayed = replay_hand(game=game, snapshot=hand.limit_snapshot, seats=hand.seats, button=hand.button_seat,
                           events=stored)
    original = replay_hand(game=game, snapshot=hand.limit_snapshot, seats=hand.seats, button=hand.button_seat,
                           events=events)
    assert spec.hand_view(replayed) == spec.hand_view(original)
    assert _payloads(untouched.pk) == raw  # never rewritten: that would launder a tampered hand
    if connection.vendor == "postgresql":  # the append-only guard is back on
        with pytest.raises(Exception, match="append-only"), connection.cursor() as cursor:
            cursor.execute("SAVEPOINT guard")
            try:
                cursor.execute("UPDATE tables_handevent SET payload = payload WHERE hand_id = %s", [hand.pk])
            finally:
                cursor.execute("ROLLBACK TO SAVEPOINT guard")
