"""Tamper evidence of the ledger and the accounting records (issue 20), on PostgreSQL.

* A posted entry is sealed: each journal entry carries (in a column the application never writes) the
  id of the transaction that inserted it, and a posting may only be added in that same transaction;
  a leg added to an entry later is refused (SQLSTATE 23001), balanced or not.
* Each entry's ``digest`` chains it to the entry before it (``casino.digests``); existing entries get
  theirs computed here.
* Reconciliation runs, discrepancies and drop counts are never deleted; what identifies them and what
  they found or counted never changes: a run's key, scope, hand and day; a discrepancy's finding
  (status, resolver and note move only from open to resolved, once); a drop count's table, day, shift,
  amounts, counter and time (only its sign-off fields move).
"""

from django.db import migrations, models

FORWARD = r"""
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% of a row of % refused: this record is append-only (%)', TG_OP, TG_TABLE_NAME,
        COALESCE(TG_ARGV[0], 'it is never edited') USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

ALTER TABLE accounting_journalentry ADD COLUMN sealed_txid bigint NOT NULL DEFAULT txid_current();

CREATE OR REPLACE FUNCTION accounting_posting_entry_open() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM accounting_journalentry WHERE id = NEW.entry_id AND sealed_txid = txid_current()) THEN
        RAISE EXCEPTION 'journal entry % is posted and sealed: no leg may be added to it; post a new entry',
            NEW.entry_id USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER accounting_posting_sealed BEFORE INSERT ON accounting_posting
    FOR EACH ROW EXECUTE FUNCTION accounting_posting_entry_open();

CREATE TRIGGER accounting_run_fixed BEFORE UPDATE ON accounting_reconciliationrun
    FOR EACH ROW WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.scope IS DISTINCT FROM NEW.scope
        OR OLD.hand_id IS DISTINCT FROM NEW.hand_id OR OLD.gaming_day IS DISTINCT FROM NEW.gaming_day)
    EXECUTE FUNCTION casino_refuse_change('a reconciliation run keeps what it checked');
CREATE TRIGGER accounting_run_no_delete BEFORE DELETE ON accounting_reconciliationrun
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('reconciliation runs are never deleted');

CREATE TRIGGER accounting_discrepancy_fixed BEFORE UPDATE ON accounting_discrepancy
    FOR EACH ROW WHEN (OLD.check_key IS DISTINCT FROM NEW.check_key OR OLD.kind IS DISTINCT FROM NEW.kind
        OR OLD.what IS DISTINCT FROM NEW.what OR OLD.expected IS DISTINCT FROM NEW.expected
        OR OLD.found IS DISTINCT FROM NEW.found OR OLD.hand_id IS DISTINCT FROM NEW.hand_id
        OR OLD.table_id IS DISTINCT FROM NEW.table_id OR OLD.gaming_day IS DISTINCT FROM NEW.gaming_day
        OR OLD.found_at IS DISTINCT FROM NEW.found_at
        OR (OLD.status = 'resolved' AND OLD.* IS DISTINCT FROM NEW.*))
    EXECUTE FUNCTION casino_refuse_change('a discrepancy keeps its finding; it is resolved once, with a note');
CREATE TRIGGER accounting_discrepancy_no_delete BEFORE DELETE ON accounting_discrepancy
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('discrepancies are never deleted; resolve them');

CREATE TRIGGER accounting_dropcount_fixed BEFORE UPDATE ON accounting_dropcount
    FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id OR OLD.gaming_day IS DISTINCT FROM NEW.gaming_day
        OR OLD.shift IS DISTINCT FROM NEW.shift OR OLD.counted IS DISTINCT FROM NEW.counted
        OR OLD.logged IS DISTINCT FROM NEW.logged OR OLD.variance IS DISTINCT FROM NEW.variance
        OR OLD.counted_by_id IS DISTINCT FROM NEW.counted_by_id OR OLD.counted_at IS DISTINCT FROM NEW.counted_at)
    EXECUTE FUNCTION casino_refuse_change('a drop count keeps what was counted; a recount is a new record');
CREATE TRIGGER accounting_dropcount_no_delete BEFORE DELETE ON accounting_dropcount
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('drop counts are never deleted');
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS accounting_dropcount_no_delete ON accounting_dropcount;
DROP TRIGGER IF EXISTS accounting_dropcount_fixed ON accounting_dropcount;
DROP TRIGGER IF EXISTS accounting_discrepancy_no_delete ON accounting_discrepancy;
DROP TRIGGER IF EXISTS accounting_discrepancy_fixed ON accounting_discrepancy;
DROP TRIGGER IF EXISTS accounting_run_no_delete ON accounting_reconciliationrun;
DROP TRIGGER IF EXISTS accounting_run_fixed ON accounting_reconciliationrun;
DROP TRIGGER IF EXISTS accounting_posting_sealed ON accounting_posting;
DROP FUNCTION IF EXISTS accounting_posting_entry_open();
ALTER TABLE accounting_journalentry DROP COLUMN IF EXISTS sealed_txid;
"""


def fill_digests(apps, schema_editor):
    from casino.digests import GENESIS, chain_digest, journal_entry_record

    JournalEntry = apps.get_model("accounting", "JournalEntry")
    Posting = apps.get_model("accounting", "Posting")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:  # the entries are append-only (0002); this one-time fill runs as the owner
        schema_editor.execute("ALTER TABLE accounting_journalentry DISABLE TRIGGER accounting_journalentry_no_update")
    previous = GENESIS
    for entry in JournalEntry.objects.order_by("id").iterator():
        legs = [(p.account.code, p.amount, p.role, p.seat, p.player_ref, p.pot_index)
                for p in Posting.objects.filter(entry_id=entry.id).select_related("account")]
        previous = chain_digest(previous, journal_entry_record(
            idempotency_key=entry.idempotency_key, kind=entry.kind, memo=entry.memo, hand_id=entry.hand_id,
            table_id=entry.table_id, gaming_day=entry.gaming_day, posted_at=entry.posted_at,
            created_by_id=entry.created_by_id, reverses_id=entry.reverses_id, reason=entry.reason, legs=legs))
        JournalEntry.objects.filter(id=entry.id).update(digest=previous)
    if postgres:
        schema_editor.execute("ALTER TABLE accounting_journalentry ENABLE TRIGGER accounting_journalentry_no_update")


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("accounting", "0002_ledger_guards"),
        ("tables", "0004_tamper_evidence"),
    ]

    operations = [
        migrations.AddField(model_name="journalentry", name="digest", field=models.CharField(
            blank=True, default="", max_length=64,
            help_text="this entry's link of the ledger's digest chain (casino.digests)")),
        migrations.RunPython(fill_digests, migrations.RunPython.noop),
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
