"""Tamper evidence of hands (issue 20): chained digests of each hand's event log, and on PostgreSQL the
database refuses any UPDATE or DELETE of an event and any change of a hand's fixed header (what the
chain starts from). Status, reconciliation state, event count, close time and the head digest stay
writable (the service moves them). Existing hands get their digests computed here."""

from django.db import migrations, models

FORWARD = r"""
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% of a row of % refused: this record is append-only (%)', TG_OP, TG_TABLE_NAME,
        COALESCE(TG_ARGV[0], 'it is never edited') USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tables_handevent_no_update BEFORE UPDATE ON tables_handevent
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('a hand''s events are never edited');
CREATE TRIGGER tables_handevent_no_delete BEFORE DELETE ON tables_handevent
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('a hand''s events are never deleted');
CREATE TRIGGER tables_hand_header_fixed BEFORE UPDATE ON tables_hand
    FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id OR OLD.number IS DISTINCT FROM NEW.number
        OR OLD.game IS DISTINCT FROM NEW.game OR OLD.button_seat IS DISTINCT FROM NEW.button_seat
        OR OLD.limit_snapshot IS DISTINCT FROM NEW.limit_snapshot OR OLD.seats IS DISTINCT FROM NEW.seats
        OR OLD.gaming_day IS DISTINCT FROM NEW.gaming_day OR OLD.opened_at IS DISTINCT FROM NEW.opened_at)
    EXECUTE FUNCTION casino_refuse_change('a hand''s table, number, game, button, limits, seats and gaming day are fixed when it opens');
CREATE TRIGGER tables_hand_no_delete BEFORE DELETE ON tables_hand
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('a hand is never deleted; void it');
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS tables_hand_no_delete ON tables_hand;
DROP TRIGGER IF EXISTS tables_hand_header_fixed ON tables_hand;
DROP TRIGGER IF EXISTS tables_handevent_no_delete ON tables_handevent;
DROP TRIGGER IF EXISTS tables_handevent_no_update ON tables_handevent;
"""


def fill_digests(apps, schema_editor):
    from casino.digests import hand_chain, hand_header_record

    Hand = apps.get_model("tables", "Hand")
    HandEvent = apps.get_model("tables", "HandEvent")
    for hand in Hand.objects.order_by("id").iterator():
        events = list(HandEvent.objects.filter(hand_id=hand.id).order_by("seq"))
        header = hand_header_record(table_id=hand.table_id, number=hand.number, game=hand.game,
                                    button_seat=hand.button_seat, limit_snapshot=hand.limit_snapshot,
                                    seats=hand.seats, gaming_day=hand.gaming_day, opened_at=hand.opened_at)
        digests = hand_chain(header, [(e.seq, e.payload, e.idempotency_key) for e in events])
        for event, digest in zip(events, digests[1:]):
            HandEvent.objects.filter(id=event.id).update(digest=digest)
        Hand.objects.filter(id=hand.id).update(digest=digests[-1])


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0003_game_choices_from_registry"),
    ]

    operations = [
        migrations.AddField(model_name="hand", name="digest", field=models.CharField(
            blank=True, default="", max_length=64,
            help_text="head of the hand's digest chain (casino.digests): the last event's digest")),
        migrations.AddField(model_name="handevent", name="digest", field=models.CharField(
            blank=True, default="", max_length=64, help_text="this event's link of the hand's digest chain")),
        migrations.RunPython(fill_digests, migrations.RunPython.noop),
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
