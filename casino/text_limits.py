"""Bounds of free text, shared by the models (database CHECK constraints) and the API (issue 20)."""

#: Every note, reason and comment a person types: at most this many characters.
NOTE_MAX_CHARS = 2000
#: A PHH hand history sent as text (a real stud hand is 1-3 thousand characters).
PHH_MAX_CHARS = 100_000


def text_length_checks(prefix: str, *fields: str, limit: int = NOTE_MAX_CHARS) -> list:
    """Database CHECK constraints bounding each text column in ``fields`` to ``limit`` characters (named
    ``<prefix>_<field>_max_length``), so a write behind the API is bounded as well."""
    from django.db import models
    from django.db.models.functions import Length
    from django.db.models.lookups import LessThanOrEqual

    return [models.CheckConstraint(condition=LessThanOrEqual(Length(name), limit), name=f"{prefix}_{name}_max_length")
            for name in fields]
