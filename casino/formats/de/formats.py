"""German (de, de-AT): a date and time reads ``01.12.2026 14:05`` everywhere a person reads one (docs/glossary.md),
the admin's own columns included; Django's default would write ``1. Dezember 2026 14:05`` beside it."""

DATETIME_FORMAT = "d.m.Y H:i"
