"""English (en): one unambiguous date for the card room, ``30 Nov 2026``, and 24-hour times (``18:00``).

Django's English default is the US form (``11/30/2026``, ``6 p.m.``), which a card room in Vienna reads as
the 11th of the 30th month or not at all; the day-month-year with the month's short name reads the same to
every English reader. Set here once (``FORMAT_MODULE_PATH``) for the pages, the admin, the messages and the
reports; URLs, the API's JSON and the machine-readable CSV keep ISO 8601 (``2026-11-30``)."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATETIME_FORMAT = "j M Y H:i"
#: Day and month without the year (a shift on the rotation page: ``1 Dec 18:00–02:00``).
MONTH_DAY_FORMAT = "j M"
#: The number format of a date cell in a spreadsheet (XLSX) for an English reader (see the German module).
SPREADSHEET_DATE_FORMAT = "d mmm yyyy"
