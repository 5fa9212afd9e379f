"""Hand rows keep room on their page for a new version (issue 19): ``fillfactor = 85`` on PostgreSQL.

A hand's row is rewritten after it was inserted: every logged event sets its event count and digest
head, the close its status, reconciliation its state. PostgreSQL writes an updated row as a new
version, and when that version fits on the row's own page and no indexed column changed (a "HOT"
update) none of the table's nine indexes is touched; on a full page every index gets a new entry.
Filling pages to 85 % leaves that room (a hand row of some 1.5 kB: four rows a page instead of five).
Pages written from now on are filled so; existing pages keep their rows until they are rewritten.
Other databases have no such setting: nothing to do there.
"""

from django.db import migrations


def _fillfactor(value: str):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE tables_hand {value}")

    return apply


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_duty_correction_verbose_names"),
    ]

    operations = [
        migrations.RunPython(_fillfactor("SET (fillfactor = 85)"), _fillfactor("RESET (fillfactor)")),
    ]
