"""Reads for the tables app (HackSoft selectors): querysets with their joins already applied."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from tables.models import (
    Dealer,
    DealerAssignment,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)


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


# --------------------------------------------------------------------------------------------------
# Floor management reads (issue 7), scoped by role: floor managers and accountants see everything;
# croupiers see their own dealer record and assignments and the tables they deal.
# --------------------------------------------------------------------------------------------------

def sees_whole_floor(user) -> bool:
    """True for floor managers and accountants (and superusers): every floor list is unscoped."""
    from casino.roles import ACCOUNTANT, FLOOR_MANAGER, has_role

    return has_role(user, FLOOR_MANAGER, ACCOUNTANT)


def tables_dealt_by(*, user, at: dt.datetime | None = None) -> QuerySet[Table]:
    """The tables ``user`` deals: where they have a live assignment that has not ended by ``at``
    (default now: the current and the upcoming ones)."""
    at = at or timezone.now()
    return Table.objects.filter(
        Q(assignments__dealer__user=user) & (Q(assignments__end__isnull=True) | Q(assignments__end__gt=at))
    ).distinct()


def table_list_for(*, user) -> QuerySet[Table]:
    """Tables visible to ``user``, by name."""
    qs = Table.objects.all()
    if not sees_whole_floor(user):
        qs = qs.filter(pk__in=tables_dealt_by(user=user).values("pk"))
    return qs.order_by("name")


def limit_profile_list(*, user) -> QuerySet[LimitProfile]:
    """Limit profile versions visible to ``user`` (croupiers: those of the tables they deal)."""
    qs = LimitProfile.objects.select_related("table", "created_by")
    if not sees_whole_floor(user):
        qs = qs.filter(table__in=tables_dealt_by(user=user).values("pk"))
    return qs.order_by("table__name", "-version")


def limit_change_request_list(*, user) -> QuerySet[LimitChangeRequest]:
    """Limit change requests visible to ``user`` (croupiers: those of the tables they deal)."""
    qs = LimitChangeRequest.objects.select_related("table", "requested_by", "decided_by", "resulting_profile")
    if not sees_whole_floor(user):
        qs = qs.filter(table__in=tables_dealt_by(user=user).values("pk"))
    return qs.order_by("-requested_at", "-id")


def dealer_list(*, user) -> QuerySet[Dealer]:
    """Dealers visible to ``user`` (croupiers: their own record)."""
    qs = Dealer.objects.select_related("user")
    if not sees_whole_floor(user):
        qs = qs.filter(user=user)
    return qs.order_by("user__username")


def rotation_plan_list(*, user) -> QuerySet[RotationPlan]:
    """Rotation plans with tables, dealers and slots prefetched; croupiers see the published plans they
    are on, with only their own slots."""
    from django.db.models import Prefetch

    slots = RotationSlot.objects.select_related("dealer__user", "table").order_by("start", "dealer__user__username")
    qs = RotationPlan.objects.select_related("created_by")
    if not sees_whole_floor(user):
        qs = qs.filter(status=RotationPlan.Status.PUBLISHED, dealers__user=user).distinct()
        slots = slots.filter(dealer__user=user)
    return qs.prefetch_related("tables", Prefetch("dealers", queryset=Dealer.objects.select_related("user")),
                               Prefetch("slots", queryset=slots)).order_by("-shift_start", "-id")


def table_session_list(*, user) -> QuerySet[TableSession]:
    """Table sessions visible to ``user`` (croupiers: those of the tables they deal)."""
    qs = TableSession.objects.select_related("table", "opened_by", "closed_by")
    if not sees_whole_floor(user):
        qs = qs.filter(table__in=tables_dealt_by(user=user).values("pk"))
    return qs.order_by("-opened_at", "-id")


def table_session_open(*, table: Table) -> TableSession | None:
    """The table's open session (at most one), else None."""
    return TableSession.objects.filter(table=table, closed_at__isnull=True).first()


def dealer_assignment_list(*, user) -> QuerySet[DealerAssignment]:
    """Live dealer assignments visible to ``user`` (croupiers: their own)."""
    qs = DealerAssignment.objects.select_related("dealer__user", "table", "slot")
    if not sees_whole_floor(user):
        qs = qs.filter(dealer__user=user)
    return qs.order_by("-start", "-id")


def audit_history(*, obj) -> QuerySet:
    """The audit trail of one object (who, when, what, why), newest first."""
    from casino.models import AuditEntry

    return AuditEntry.objects.select_related("actor").filter(
        subject=obj._meta.label_lower, subject_id=str(obj.pk)).order_by("-at", "-id")


# --------------------------------------------------------------------------------------------------
# Hands and hole cards (issue 20): croupiers read the hands of the tables they deal or dealt during the
# current gaming day, and a live hand's face-down cards only at the table they deal now.
# --------------------------------------------------------------------------------------------------

#: Event types whose cards every player at the table sees (shown, exposed, community): kept for everyone.
PUBLIC_CARD_EVENTS = frozenset({"show", "expose", "deal_community", "reveal"})
#: Keys of an event that carry cards (deals, burns, Capsa settings).
CARD_KEYS = ("cards", "card", "front", "middle", "back")


def tables_dealt_today_by(*, user, at: dt.datetime | None = None) -> QuerySet[Table]:
    """Tables where ``user`` deals at ``at`` (default now) or dealt earlier in the gaming day of ``at``:
    an assignment that started by ``at`` and had not ended when that gaming day began."""
    from casino.gaming_day import gaming_day_bounds, gaming_day_of

    at = at or timezone.now()
    day_start, _ = gaming_day_bounds(gaming_day_of(at))
    return Table.objects.filter(
        Q(assignments__dealer__user=user, assignments__start__lte=at)
        & (Q(assignments__end__isnull=True) | Q(assignments__end__gt=day_start))
    ).distinct()


def hand_list_for(*, user) -> QuerySet:
    """Hands visible to ``user``, newest first, with table, dealer and limit profile joined: every hand for
    floor managers and accountants; for croupiers the hands of :func:`tables_dealt_today_by`."""
    from tables.models import Hand

    qs = Hand.objects.select_related("table", "dealer__user", "limit_profile", "opened_by")
    if not sees_whole_floor(user):
        qs = qs.filter(table__in=tables_dealt_today_by(user=user).values("pk"))
    return qs


def hand_cards_visible(*, hand, user) -> bool:
    """True if ``user`` may read the face-down cards logged in ``hand``: floor managers and accountants
    always; anyone else once the hand is over, or while it is live only as the dealer on duty at its table."""
    from tables.models import Hand

    if sees_whole_floor(user) or hand.status != Hand.Status.OPEN:
        return True
    dealer = dealer_on_duty(table=hand.table)
    return dealer is not None and dealer.user_id == getattr(user, "pk", None)


def hand_event_redacted(payload: dict) -> dict:
    """``payload`` with the cards of a non-public event replaced by None and their keys listed in ``hidden``
    (``{"type": "deal", "seat": 1, "cards": None, "hidden": ["cards"]}``). Shown, exposed and community
    cards (:data:`PUBLIC_CARD_EVENTS`) are kept; up cards dealt in stud stay readable in the hand's state
    (``boards``)."""
    if payload.get("type") in PUBLIC_CARD_EVENTS:
        return payload
    hidden = [key for key in CARD_KEYS if payload.get(key) is not None]
    if not hidden:
        return payload
    return {**payload, **dict.fromkeys(hidden), "hidden": hidden}


def hand_view_redacted(view: dict) -> dict:
    """A hand's typed view as JSON (:meth:`rules.core.view.HandView.as_dict`) as the hand's answers show it:
    each seat's face-down cards as ``"??"``, one per card. The engine's ``state`` beside it counts them and
    never names one, to anyone, the hand's dealer too (issue 20); the events list names them to whoever may
    read them (:func:`hand_cards_visible`). Up cards stay named."""
    return {**view, "seats": [{**seat, "down_cards": ["??"] * len(seat["down_cards"])} for seat in view["seats"]]}


def duty_correction_list(*, user) -> QuerySet:
    """Duty corrections visible to ``user`` (croupiers: those about themselves), newest first."""
    from tables.models import DutyCorrection

    qs = DutyCorrection.objects.select_related("dealer__user", "table", "recorded_by", "assignment")
    if not sees_whole_floor(user):
        qs = qs.filter(dealer__user=user)
    return qs.order_by("-recorded_at", "-id")
