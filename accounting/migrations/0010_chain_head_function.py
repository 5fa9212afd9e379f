"""The ledger's chain lock and chain head in one call on PostgreSQL (issue 19: one round trip less when a hand
closes).

``accounting_chain_lock_head(lock, key, day, closed, draw_id)`` takes the ledger's chain lock (the advisory
lock :data:`accounting.services.ledger.CHAIN_LOCK`, to the end of the transaction), then reads what
:func:`accounting.services.ledger._chain_head` reads: the id of the entry posted under ``key`` (or NULL), the
digest of the latest entry (or NULL), whether gaming day ``day`` has status ``closed``, and with ``draw_id``
and no entry under ``key`` the id the new entry is to be inserted with (from its identity sequence, drawn under
the lock). The function is VOLATILE, so each of its queries runs on a snapshot taken when that query starts,
i.e. after the lock: the head read is the latest committed entry even when the lock had to wait for another
posting (a single statement reading it beside the lock would see the snapshot taken before the wait).

It only reads (and draws from the sequence); the ledger's rows, digests and guards are unchanged.
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION accounting_chain_lock_head(lock_key bigint, entry_key text, entry_day date,
                                                      closed_status text, draw_id boolean)
RETURNS TABLE (entry_id bigint, chain_head text, day_closed boolean, new_id bigint) AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    -- Each query below takes its own snapshot (a VOLATILE function's), after the lock.
    SELECT e.id INTO entry_id FROM accounting_journalentry e WHERE e.idempotency_key = entry_key;
    SELECT e.digest INTO chain_head FROM accounting_journalentry e ORDER BY e.id DESC LIMIT 1;
    SELECT EXISTS (SELECT 1 FROM accounting_gamingday g WHERE g.day = entry_day AND g.status = closed_status)
        INTO day_closed;
    IF entry_id IS NULL AND draw_id THEN
        new_id := nextval(pg_get_serial_sequence('accounting_journalentry', 'id'));
    END IF;
    RETURN NEXT;
END
$$ LANGUAGE plpgsql VOLATILE;
"""

BACKWARD = r"""
DROP FUNCTION IF EXISTS accounting_chain_lock_head(bigint, text, date, text, boolean);
"""


def _run(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("accounting", "0009_reconciliation_run_scope_words"),
    ]

    operations = [
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
