"""Template filters of the accounting pages: the words a person reads for a stored key (issue 18)."""

from __future__ import annotations

from django import template

from accounting.services.drop import shift_label as _shift_label

register = template.Library()


@register.filter
def shift_label(name: str) -> str:
    """A drop or tronc count's stored shift key (``"late"``) as the page's language names it ("Spätschicht",
    "late shift"); ``""`` (a whole-day count) is "ganzer Tag"/"whole day"; a house's own shift name as stored."""
    return _shift_label(name or "")
