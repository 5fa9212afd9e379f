"""German (de, de-AT): a date reads ``01.12.2026`` and a time ``14:05`` (24 hours) everywhere a person reads
one (docs/glossary.md), the admin's own columns, the pages, the messages and the reports alike; Django's
defaults would write ``1. Dezember 2026`` beside it. URLs and the API's JSON keep ISO 8601."""

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d.m.Y H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
#: Day and month without the year (a shift on the rotation page: ``01.12. 18:00–02:00``).
MONTH_DAY_FORMAT = "d.m."
#: The number format of a date cell in a spreadsheet (XLSX) written for a German reader (the house's own
#: key, read by :func:`casino.i18n.house_format`; Django's ``get_format`` knows only its own names).
SPREADSHEET_DATE_FORMAT = "dd.mm.yyyy"
