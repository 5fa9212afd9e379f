"""The closed gaming day guard on PostgreSQL (issue 17): no journal entry may be inserted, or moved,
into a gaming day whose :class:`~accounting.models.GamingDay` row is ``closed`` (SQLSTATE 23514).

The posting service refuses the same on every backend (``accounting.services.gaming_day.gaming_day_open_check``);
corrections of a closed day are reversals posted in the next open day.
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION accounting_entry_day_open() RETURNS trigger AS $$
DECLARE
    day_status text;
BEGIN
    -- FOR SHARE: a posting waits for a close in progress (which holds the row FOR UPDATE) and then sees it.
    SELECT status INTO day_status FROM accounting_gamingday WHERE day = NEW.gaming_day FOR SHARE;
    IF day_status = 'closed' THEN
        RAISE EXCEPTION 'gaming day % is closed: nothing may be posted into it', NEW.gaming_day
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER accounting_entry_day_open
    BEFORE INSERT OR UPDATE OF gaming_day ON accounting_journalentry
    FOR EACH ROW EXECUTE FUNCTION accounting_entry_day_open();
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS accounting_entry_day_open ON accounting_journalentry;
DROP FUNCTION IF EXISTS accounting_entry_day_open();
"""


def _run(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)
    return run


class Migration(migrations.Migration):
    dependencies = [("accounting", "0004_gaming_day_close")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
