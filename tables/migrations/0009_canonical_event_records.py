"""Stored hand events become canonical records (issue 14).

Until now the hand service stored each event as the request carried it (a card sent as ``"4D"`` or
``["as", "XX"]`` was stored so); it now stores the engine's canonical record (:mod:`rules.engines.events`:
``"type"`` first, cards ``"4d"``/``"As ??"``, amounts int cents, seats ints). This migration rewrites the
payloads stored before, hand by hand:

1. each payload's canonical record is computed with the game's one parser (``GameSpec.events``; the
   hand's frozen limit snapshot says whether Forty-one's German card names are read). A hand whose
   payloads are all canonical already is left alone;
2. the hand's digest chain (:mod:`casino.digests`: header, then every event's ``seq``, payload and key)
   is recomputed from the stored rows and compared with the stored digests. A hand whose chain does
   not verify is **left as it is**: rewriting it would launder an edit made behind the service's back,
   and the gaming-day reconciliation keeps reporting it;
3. the stored events and the canonical records are replayed (:func:`rules.replay.replay_hand`); the
   hand is rewritten only if both replay to the same typed view (a hand that does not replay is left
   as it is, for reconciliation to report);
4. the payloads are updated and the chain is recomputed over the canonical records (every
   ``HandEvent.digest`` and the head ``Hand.digest``), so the chain stays verifiable. On PostgreSQL the
   append-only trigger on ``tables_handevent`` (0004) is disabled for this one statement batch inside
   the migration's transaction and enabled again before it commits.

The idempotency check compares a retry's canonical record with the stored one (or the stored payload
with the retry as sent), so a retry of a request stored before this migration is still recognised.
Reverse: nothing to undo (a canonical record is a valid event in the old form too).
"""

from django.db import migrations

#: PostgreSQL refuses ALTER TABLE while deferred checks are pending: they are run first (as at a commit).
FLUSH = "SET CONSTRAINTS ALL IMMEDIATE"
DEFER = "SET CONSTRAINTS ALL DEFERRED"
DISABLE = "ALTER TABLE tables_handevent DISABLE TRIGGER tables_handevent_no_update"
ENABLE = "ALTER TABLE tables_handevent ENABLE TRIGGER tables_handevent_no_update"


def _canonical(spec, payload, config):
    try:
        return spec.events.record(payload, context=config)
    except Exception:  # noqa: BLE001 - a payload the parser does not read stays as stored
        return payload


def canonical_records(apps, schema_editor):
    from casino.digests import hand_chain, hand_header_record
    from rules.engines.errors import RuleViolation
    from rules.registry import get_game
    from rules.replay import hand_config, replay_hand

    Hand = apps.get_model("tables", "Hand")
    HandEvent = apps.get_model("tables", "HandEvent")
    postgres = schema_editor.connection.vendor == "postgresql"
    triggers_off = False
    try:
        for hand in Hand.objects.order_by("id").iterator():
            events = list(HandEvent.objects.filter(hand_id=hand.id).order_by("seq"))
            if not events:
                continue
            try:
                spec = get_game(hand.game)
                config = hand_config(hand.game, hand.limit_snapshot)
            except RuleViolation:
                continue
            if spec.events is None:
                continue
            records = [_canonical(spec, e.payload, config) for e in events]
            if all(r == e.payload for r, e in zip(records, events)):
                continue
            header = hand_header_record(table_id=hand.table_id, number=hand.number, game=hand.game,
                                        button_seat=hand.button_seat, limit_snapshot=hand.limit_snapshot,
                                        seats=hand.seats, gaming_day=hand.gaming_day, opened_at=hand.opened_at)
            old = hand_chain(header, [(e.seq, e.payload, e.idempotency_key) for e in events])
            if [e.digest for e in events] != old[1:] or hand.digest != old[-1]:
                continue  # the chain does not verify: never rewrite (and so launder) a tampered hand
            try:
                before = replay_hand(game=hand.game, snapshot=hand.limit_snapshot, seats=hand.seats,
                                     button=hand.button_seat, events=[e.payload for e in events])
                after = replay_hand(game=hand.game, snapshot=hand.limit_snapshot, seats=hand.seats,
                                    button=hand.button_seat, events=records)
            except RuleViolation:
                continue
            view = spec.hand_view or spec.engine.view
            if view(before) != view(after):
                continue
            new = hand_chain(header, [(e.seq, r, e.idempotency_key) for e, r in zip(events, records)])
            if postgres and not triggers_off:
                for sql in (FLUSH, DEFER, DISABLE):
                    schema_editor.execute(sql)
                triggers_off = True
            for event, rec, digest in zip(events, records, new[1:]):
                if event.payload != rec or event.digest != digest:
                    HandEvent.objects.filter(id=event.id).update(payload=rec, digest=digest)
            Hand.objects.filter(id=hand.id).update(digest=new[-1])
    finally:
        if triggers_off:
            for sql in (FLUSH, DEFER, ENABLE):
                schema_editor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0008_text_bounds"),
    ]

    operations = [
        migrations.RunPython(canonical_records, migrations.RunPython.noop),
    ]
