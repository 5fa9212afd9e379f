"""Database guards of the ledger on PostgreSQL (STYLE.md rule 5, after django-hordak).

* A deferred constraint trigger refuses, at commit, any journal entry whose postings do not sum to
  zero, and any entry without postings (SQLSTATE 23514, Django ``IntegrityError``).
* Triggers refuse UPDATE and DELETE of postings and of posted journal entries (SQLSTATE 23001): the
  ledger is append-only, a correction is a reversing entry. An UPDATE that changes nothing passes.

Other backends (SQLite, the first-run default) get nothing here; the posting service checks the
balance in Python on every backend (``accounting.services.ledger.journal_lines_check``). ``TRUNCATE``
(used by the test suite's flush) fires no row triggers.
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION accounting_posting_entry_balanced() RETURNS trigger AS $$
DECLARE
    total numeric;
BEGIN
    SELECT COALESCE(SUM(amount), 0) INTO total FROM accounting_posting WHERE entry_id = NEW.entry_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'journal entry % does not balance: its postings sum to % instead of 0.00', NEW.entry_id, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER accounting_posting_balanced
    AFTER INSERT OR UPDATE ON accounting_posting
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION accounting_posting_entry_balanced();

CREATE OR REPLACE FUNCTION accounting_entry_has_postings() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM accounting_posting WHERE entry_id = NEW.id) THEN
        RAISE EXCEPTION 'journal entry % has no postings', NEW.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER accounting_journalentry_has_postings
    AFTER INSERT ON accounting_journalentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION accounting_entry_has_postings();

CREATE OR REPLACE FUNCTION accounting_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% of a row of % refused: the ledger is append-only; post a reversing entry instead',
        TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER accounting_posting_no_update
    BEFORE UPDATE ON accounting_posting
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION accounting_ledger_append_only();
CREATE TRIGGER accounting_posting_no_delete
    BEFORE DELETE ON accounting_posting
    FOR EACH ROW EXECUTE FUNCTION accounting_ledger_append_only();
CREATE TRIGGER accounting_journalentry_no_update
    BEFORE UPDATE ON accounting_journalentry
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION accounting_ledger_append_only();
CREATE TRIGGER accounting_journalentry_no_delete
    BEFORE DELETE ON accounting_journalentry
    FOR EACH ROW EXECUTE FUNCTION accounting_ledger_append_only();
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS accounting_journalentry_no_delete ON accounting_journalentry;
DROP TRIGGER IF EXISTS accounting_journalentry_no_update ON accounting_journalentry;
DROP TRIGGER IF EXISTS accounting_posting_no_delete ON accounting_posting;
DROP TRIGGER IF EXISTS accounting_posting_no_update ON accounting_posting;
DROP FUNCTION IF EXISTS accounting_ledger_append_only();
DROP TRIGGER IF EXISTS accounting_journalentry_has_postings ON accounting_journalentry;
DROP FUNCTION IF EXISTS accounting_entry_has_postings();
DROP TRIGGER IF EXISTS accounting_posting_balanced ON accounting_posting;
DROP FUNCTION IF EXISTS accounting_posting_entry_balanced();
"""


def _run(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("accounting", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
