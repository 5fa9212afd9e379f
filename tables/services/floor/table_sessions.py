"""Tables (issue 7): create and update them, open, pause, resume and close them (their sessions, with the
counted floats), and the button / forehand they carry from hand to hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import rows
from casino.errors import ApplicationError
from casino.i18n import gettext_noop, status_word
from casino.status import audit_record, status_transition
from rules.core.seats import next_clockwise
from tables.models import (
    SEAT_RANGE,
    DealerAssignment,
    Game,
    Hand,
    Table,
    TableSession,
)
from tables.services.floor._common import _amount


def table_seats_check(*, game: str, seats: Any) -> int:
    """Validate a seat count for ``game`` against :data:`SEAT_RANGE` (stud 2-8 R1.1, Forty-one 3-7 B.9,
    Capsa 2-4 A.2); return it. Raises ``ApplicationError`` (field ``seats`` or ``game``)."""
    if game not in Game.values:
        raise ApplicationError(gettext_noop("game: unknown game %(game)s; expected one of %(values)s", game=repr(game), values=', '.join(Game.values)),
                               extra={"field": "game"})
    low, high = SEAT_RANGE[game]
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise ApplicationError(gettext_noop("seats: %(label)s is dealt to %(low)s to %(high)s seats, not %(seats)s", label=Game(game).label, low=low, high=high, seats=repr(seats)),
                               extra={"field": "seats"})
    return seats


def table_create(*, name: str, game: str, seats: int, actor=None, reason: str = "") -> Table:
    """Create a closed table. Raises ``ApplicationError`` for an unknown game, seats outside the game's
    range or a name already used."""
    name = (name or "").strip()
    if not name:
        raise ApplicationError(gettext_noop("name: a table needs a name"), extra={"field": "name"})
    table_seats_check(game=game, seats=seats)
    if Table.objects.filter(name=name).exists():
        raise ApplicationError(gettext_noop("name: a table named '%(name)s' already exists", name=name), extra={"field": "name"})
    with transaction.atomic():
        try:
            with transaction.atomic():
                table = Table.objects.create(name=name, game=game, seats=seats)
        except IntegrityError:
            raise ApplicationError(gettext_noop("name: a table named '%(name)s' already exists", name=name), extra={"field": "name"}) from None
        audit_record(obj=table, action="created", actor=actor, reason=reason,
                     data={"name": name, "game": game, "seats": seats})
    return table


def table_update(*, table: Table, actor=None, name: str | None = None, seats: int | None = None,
                 record_down_cards: bool | None = None, reason: str = "") -> Table:
    """Rename a table, change its seat count (seats only while it is closed) or whether its croupier's
    screen asks for every down card (``record_down_cards``; off: face-down cards are logged as ``??``).
    The game never changes (create another table instead). Audited with the old and new values."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        changes: dict[str, list[Any]] = {}
        if name is not None and name.strip() != locked.name:
            name = name.strip()
            if not name:
                raise ApplicationError(gettext_noop("name: a table needs a name"), extra={"field": "name"})
            if Table.objects.filter(name=name).exclude(pk=locked.pk).exists():
                raise ApplicationError(gettext_noop("name: a table named '%(name)s' already exists", name=name), extra={"field": "name"})
            changes["name"] = [locked.name, name]
            locked.name = name
        if seats is not None and seats != locked.seats:
            table_seats_check(game=locked.game, seats=seats)
            if locked.status != Table.Status.CLOSED:
                raise ApplicationError(gettext_noop("seats: table '%(locked)s' is %(status)s; change its seats while it is closed", locked=locked, status=status_word(locked)), extra={"field": "seats"})
            changes["seats"] = [locked.seats, seats]
            locked.seats = seats
        if record_down_cards is not None and bool(record_down_cards) != locked.record_down_cards:
            changes["record_down_cards"] = [locked.record_down_cards, bool(record_down_cards)]
            locked.record_down_cards = bool(record_down_cards)
        if changes:
            locked.save(update_fields=list(changes))
            audit_record(obj=locked, action="updated", actor=actor, reason=reason, data=changes)
    return locked


def table_open(*, table: Table, opening_float: Any, actor=None, reason: str = "") -> TableSession:
    """Open a closed table: status closed -> open and a new :class:`TableSession` with the counted
    opening float (EUR), in one transaction. The table needs a limit profile in force.

    Raises ``ApplicationError``: already open ("table 'Stud 1' is already open"), paused (resume it),
    no limit profile, a bad float.
    """
    amount = _amount(opening_float, "opening_float")
    from tables.selectors import limit_profile_in_force

    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == Table.Status.PAUSED:
            raise ApplicationError(gettext_noop("table '%(locked)s' is paused, not closed; resume it instead", locked=locked),
                                   code="invalid_transition", extra={"status": locked.status})
        if locked.status == Table.Status.CLOSED and limit_profile_in_force(table=locked) is None:
            raise ApplicationError(gettext_noop("table '%(locked)s' has no limit profile in force; create one before opening", locked=locked),
                                   code="no_limit_profile")
        now = timezone.now()
        locked = status_transition(obj=locked, to=Table.Status.OPEN, allowed=Table.ALLOWED, actor=actor,
                                   reason=reason or "table opened", noun="table")
        session = TableSession.objects.create(table=locked, opened_at=now, opened_by=actor, opening_float=amount)
        audit_record(obj=session, action="session_opened", actor=actor, reason=reason,
                     data={"table": locked.pk, "opening_float": str(amount)})
    return session


def table_pause(*, table: Table, actor=None, reason: str = "") -> Table:
    """open -> paused (no new hands until resumed); audited."""
    return status_transition(obj=table, to=Table.Status.PAUSED, allowed=Table.ALLOWED, actor=actor,
                             reason=reason, noun="table")


def table_resume(*, table: Table, actor=None, reason: str = "") -> Table:
    """paused -> open (same session); audited. A closed table is opened with :func:`table_open`."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == Table.Status.CLOSED:
            raise ApplicationError(gettext_noop("table '%(locked)s' is closed, not paused; open it with its counted float", locked=locked),
                                   code="invalid_transition", extra={"status": locked.status})
        return status_transition(obj=locked, to=Table.Status.OPEN, allowed=Table.ALLOWED, actor=actor,
                                 reason=reason, noun="table")


def table_close(*, table: Table, closing_float: Any, actor=None, reason: str = "") -> TableSession | None:
    """Close an open or paused table: status -> closed, its session closed with the counted closing
    float, and the dealer on duty relieved, in one transaction. Returns the closed session.

    Raises ``ApplicationError``: already closed, a hand still open at the table, a bad float.
    """
    amount = _amount(closing_float, "closing_float")
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        open_hand = Hand.objects.filter(table=locked, status=Hand.Status.OPEN).order_by("number").first()
        if open_hand is not None and locked.status != Table.Status.CLOSED:
            raise ApplicationError(_("%(hand)s at table '%(table)s' is still open; close or void it before closing "
                                     "the table") % {"hand": open_hand.reference, "table": locked},
                                   code="hand_in_progress", extra=open_hand.reference_extra)
        now = timezone.now()
        locked = status_transition(obj=locked, to=Table.Status.CLOSED, allowed=Table.ALLOWED, actor=actor,
                                   reason=reason or "table closed", noun="table")
        session = TableSession.objects.select_for_update().filter(table=locked, closed_at__isnull=True).first()
        if session is not None:
            session.closed_at, session.closed_by, session.closing_float = now, actor, amount
            session.save(update_fields=["closed_at", "closed_by", "closing_float"])
            audit_record(obj=session, action="session_closed", actor=actor, reason=reason,
                         data={"table": locked.pk, "opening_float": str(session.opening_float),
                               "closing_float": str(amount)})
        for assignment in DealerAssignment.objects.filter(table=locked, start__lte=now).filter(
                Q(end__isnull=True) | Q(end__gt=now)):
            assignment.end = max(now, assignment.start + dt.timedelta(microseconds=1))
            assignment.save(update_fields=["end"])
    return session


def _clockwise_after(occupied: Sequence[int], current: int) -> int:
    return next_clockwise(occupied, current)


def table_button_for_next_hand(*, table: Table, occupied_seats: Iterable[int]) -> int:
    """The button (stud, Capsa) / forehand (Forty-one) seat for the table's next hand: the stored
    ``button_seat`` if occupied, else the next occupied seat clockwise from it (the lowest occupied seat
    for a table's first hand). Reads only. Raises ``ApplicationError`` if no seat is occupied."""
    seats = sorted(set(occupied_seats))
    if not seats:
        raise ApplicationError(gettext_noop("no occupied seat to put the button on"), extra={"field": "seats"})
    current = table.button_seat
    if current is None:
        return seats[0]
    return current if current in seats else _clockwise_after(seats, current)


def table_button_advance(*, table: Table, occupied_seats: Iterable[int], played_button: int | None = None,
                         writes: rows.Writes | None = None) -> int:
    """Move the table's button / forehand one occupied seat clockwise after a hand (R-spec: stud and
    Capsa button A.5.1, Forty-one Spitz B.4 step 1), using the engine's ``next_button``; store and
    return it. ``played_button`` is the seat the finished hand used (default: the stored one).

    Call it from the hand service after each completed hand (not after a Capsa misdeal, whose button
    does not move). Locks the table row. With ``played_button`` the new seat does not depend on the row
    (only on the table's game and the seats): one ``UPDATE``, which takes the row lock itself (the hand
    close's hot path, issue 19); ``writes``: that UPDATE joins this batch (:class:`casino.rows.Writes`), sent by
    the caller with its other writes.
    """
    from rules.registry import get_engine

    seats = sorted(set(occupied_seats))
    if not seats:
        raise ApplicationError(gettext_noop("no occupied seat to pass the button to"), extra={"field": "seats"})
    if played_button is not None:
        try:
            new = get_engine(table.game).next_button(seats, played_button)
        except (ImportError, AttributeError):
            new = _clockwise_after(seats, played_button)
        if writes is not None:
            writes.update(Table, table.pk, button_seat=new)
        else:
            rows.update(Table, table.pk, button_seat=new)
        table.button_seat = new
        return new
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        current = played_button if played_button is not None else locked.button_seat
        if current is None:
            new = seats[0]
        else:
            try:
                new = get_engine(locked.game).next_button(seats, current)
            except (ImportError, AttributeError):
                new = _clockwise_after(seats, current)
        locked.button_seat = new
        locked.save(update_fields=["button_seat"])
    table.button_seat = new
    return new
