"""Reads for the tables app (HackSoft selectors): querysets with their joins already applied."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from tables.models import Dealer, DealerAssignment, LimitProfile, Table


def limit_profile_in_force(*, table: Table, at: dt.datetime | None = None) -> LimitProfile | None:
    """The limit profile version that applies to a hand opened at ``at`` (default now): the highest
    version whose ``effective_from`` is not after ``at``; None if the table has none yet."""
    at = at or timezone.now()
    return (LimitProfile.objects.filter(table=table, effective_from__lte=at)
            .order_by("-version").first())


def dealer_on_duty(*, table: Table, at: dt.datetime | None = None) -> Dealer | None:
    """The dealer whose live assignment covers ``at`` (default now) at ``table``, else None."""
    at = at or timezone.now()
    assignment = (DealerAssignment.objects.select_related("dealer__user")
                  .filter(table=table, start__lte=at).filter(Q(end__isnull=True) | Q(end__gt=at))
                  .order_by("-start").first())
    return assignment.dealer if assignment else None


def table_list() -> QuerySet[Table]:
    """All tables, by name."""
    return Table.objects.all().order_by("name")
