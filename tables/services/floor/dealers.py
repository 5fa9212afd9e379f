"""Dealers and their live assignments (issue 7): who may deal which game, and who deals at which table
from when to when (a takeover ends the assignment it replaces; :mod:`tables.services.dealer_push` asks
the floor's questions first)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from casino.roles import CROUPIER, has_role
from casino.status import audit_record
from tables.models import (
    Dealer,
    DealerAssignment,
    Game,
    Table,
)
from tables.services.floor._common import _aware, _hm
from tables.services.roster import roster_history_check


def _games_check(games: Any) -> list[str]:
    if isinstance(games, str) or not isinstance(games, Sequence) or not games:
        raise ApplicationError(gettext_noop("games: list the games the dealer may deal, e.g. [\"seven_card_stud\"]"),
                               extra={"field": "games"})
    out: list[str] = []
    for game in games:
        if game not in Game.values:
            raise ApplicationError(gettext_noop("games: unknown game %(game)s; expected %(values)s", game=repr(game), values=', '.join(Game.values)),
                                   extra={"field": "games"})
        if game not in out:
            out.append(game)
    return out


def dealer_create(*, user, games: Sequence[str], actor=None, reason: str = "") -> Dealer:
    """Make ``user`` (who must hold the croupier role) a dealer for ``games``; audited."""
    games = _games_check(games)
    if not has_role(user, CROUPIER):
        raise ApplicationError(gettext_noop("user: '%(get_username)s' is not in the croupier group", get_username=user.get_username()), extra={"field": "user"})
    if Dealer.objects.filter(user=user).exists():
        raise ApplicationError(gettext_noop("user: '%(get_username)s' is already a dealer", get_username=user.get_username()), extra={"field": "user"})
    with transaction.atomic():
        dealer = Dealer.objects.create(user=user, games=games)
        audit_record(obj=dealer, action="created", actor=actor, reason=reason, data={"games": games})
    return dealer


def dealer_update(*, dealer: Dealer, actor=None, games: Sequence[str] | None = None, active: bool | None = None,
                  reason: str = "") -> Dealer:
    """Change a dealer's games or active flag; audited with old and new values."""
    with transaction.atomic():
        locked = Dealer.objects.select_for_update().get(pk=dealer.pk)
        changes: dict[str, list[Any]] = {}
        if games is not None:
            games = _games_check(games)
            if games != locked.games:
                changes["games"] = [locked.games, games]
                locked.games = games
        if active is not None and active != locked.active:
            changes["active"] = [locked.active, active]
            locked.active = active
        if changes:
            locked.save(update_fields=list(changes))
            audit_record(obj=locked, action="updated", actor=actor, reason=reason, data=changes)
    return locked


def dealer_assignment_start(*, dealer: Dealer, table: Table, actor=None, at: dt.datetime | None = None,
                            end: dt.datetime | None = None, reason: str = "",
                            audit_data: Mapping[str, Any] | None = None) -> DealerAssignment:
    """``dealer`` takes over ``table`` at ``at`` (default now): the assignment covering that moment at
    the table ends then, and so does the dealer's own assignment elsewhere. The new assignment ends at
    ``end``, else where the replaced planned assignment would have ended, else stays open.
    ``audit_data`` is added to the takeover's audit row (e.g. the table it confirmed leaving uncovered).
    This function does not ask whether the dealer's own table is left uncovered: the floor's entry points
    do (:func:`tables.services.dealer_push.dealer_takeover`, :func:`~tables.services.dealer_push.dealer_push`).

    Raises ``ApplicationError``: the table is closed, the dealer is inactive or not qualified for the
    game, ``end`` not after ``at``. The takeover never overlaps a later assignment at the table or of the
    dealer: its end (given or inherited) is cut to where the next one begins (the audit row records the
    requested end and the assignment that cut it). Locks the table row.
    """
    _aware(at, "at")
    _aware(end, "end")
    at = at or timezone.now()
    if not dealer.active:
        raise ApplicationError(gettext_noop("dealer %(dealer)s is not active", dealer=dealer), extra={"field": "dealer"})
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == Table.Status.CLOSED:
            raise ApplicationError(gettext_noop("table '%(locked)s' is closed; open it before a dealer takes over", locked=locked),
                                   code="table_closed", extra={"field": "table"})
        if not dealer.may_deal(locked.game):
            raise ApplicationError(gettext_noop("dealer %(dealer)s may not deal %(label)s (table '%(locked)s')", dealer=dealer, label=Game(locked.game).label, locked=locked),
                                   extra={"field": "dealer"})
        if end is not None:
            roster_history_check(end=end)
        covering = Q(start__lte=at) & (Q(end__isnull=True) | Q(end__gt=at))
        inherited_end = None
        for current in DealerAssignment.objects.select_for_update().filter(covering).filter(
                Q(table=locked) | Q(dealer=dealer)):
            roster_history_check(start=at, cuts=current)  # never end a running assignment before now
            if current.table_id == locked.pk and current.end is not None:
                inherited_end = current.end if inherited_end is None else min(inherited_end, current.end)
            if current.start == at:
                current.delete()  # replaced before it began: nobody dealt under it
                continue
            current.end = at
            current.save(update_fields=["end"])
        if end is not None and end <= at:
            raise ApplicationError(gettext_noop("end: the assignment must end after it starts"), extra={"field": "end"})
        # Never past the next assignment at this table or of this dealer (one dealer per table, one table
        # per dealer at any moment); without ``end``, also not past where the replaced assignment ended.
        following = (DealerAssignment.objects.select_related("dealer__user", "table")
                     .filter(Q(table=locked) | Q(dealer=dealer), start__gt=at).order_by("start").first())
        requested = end
        limits = [t for t in (end if end is not None else inherited_end,
                              following.start if following else None) if t is not None]
        end = min(limits) if limits else None
        assignment = DealerAssignment.objects.create(dealer=dealer, table=locked, start=at, end=end)
        data = {"dealer": dealer.pk, "table": locked.pk, "start": at.isoformat(), "end": end.isoformat() if end else None}
        if requested is not None and end != requested:
            data |= {"requested_end": requested.isoformat(), "cut_by_assignment": following.pk}
        data |= dict(audit_data or {})
        audit_record(obj=assignment, action="takeover", actor=actor, reason=reason, data=data)
    return assignment


def dealer_assignment_end(*, assignment: DealerAssignment, actor=None, at: dt.datetime | None = None,
                          reason: str = "") -> DealerAssignment:
    """End a running assignment at ``at`` (default now); audited. Raises ``ApplicationError`` if it has
    already ended or ``at`` is not after its start."""
    _aware(at, "at")
    at = at or timezone.now()
    with transaction.atomic():
        locked = DealerAssignment.objects.select_for_update().get(pk=assignment.pk)
        if locked.end is not None and locked.end <= at:
            raise ApplicationError(gettext_noop("this assignment already ended at %(hm)s", hm=_hm(locked.end)), code="already_ended")
        if at <= locked.start:
            raise ApplicationError(gettext_noop("at: an assignment must end after it starts (%(hm)s)", hm=_hm(locked.start)),
                                   extra={"field": "at"})
        roster_history_check(end=at, cuts=locked)
        locked.end = at
        locked.save(update_fields=["end"])
        audit_record(obj=locked, action="ended", actor=actor, reason=reason, data={"end": at.isoformat()})
    return locked
