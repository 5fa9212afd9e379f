"""The audit trail is append-only (issue 20): on PostgreSQL the database refuses any UPDATE or DELETE
of an audit row (SQLSTATE 23001)."""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% of a row of % refused: this record is append-only (%)', TG_OP, TG_TABLE_NAME,
        COALESCE(TG_ARGV[0], 'it is never edited') USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_auditentry_no_update BEFORE UPDATE ON casino_auditentry
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('the audit trail is never edited');
CREATE TRIGGER casino_auditentry_no_delete BEFORE DELETE ON casino_auditentry
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change('the audit trail is never deleted');
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS casino_auditentry_no_delete ON casino_auditentry;
DROP TRIGGER IF EXISTS casino_auditentry_no_update ON casino_auditentry;
"""


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("casino", "0002_initial"),
    ]

    operations = [
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
