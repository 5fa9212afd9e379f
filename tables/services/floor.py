"""Floor management services (issue 7): tables, limit profiles, limit-change requests, dealers, rotation
plans, live dealer assignments, table sessions and the button.

HackSoft style: keyword-only, typed, ``<noun>_<verb>``, one transaction each, return the object. Every
change writes an :class:`~casino.models.AuditEntry` (who, when, why) in the same transaction; status
changes go through :func:`casino.status.status_transition` with the model's ``ALLOWED`` table.
Bad input raises :class:`~casino.errors.ApplicationError` (HTTP 400) with a readable message and, where
a field is at fault, ``extra["field"]``; nothing is saved.

Limit profiles are versioned (R3.4, B.9, A.12): a change is a new version that applies from the
table's next hand (``effective_from``), never an edit; hands keep the profile they were dealt under.

Rotation plans: :func:`rotation_plan_generate` proposes slots (the planner in
:mod:`tables.services.rotation`); the floor may replace the slots while the plan is proposed;
:func:`rotation_plan_publish` checks that every table is staffed for the whole shift and **creates the
live DealerAssignments of its table slots** (so :func:`tables.selectors.dealer_on_duty` answers from
the plan without further clicks); a live takeover (:func:`dealer_assignment_start`) corrects them.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import rows
from casino.errors import ApplicationError
from casino.i18n import gettext_noop, status_word
from casino.roles import CROUPIER, has_role
from casino.status import audit_record, status_transition
from rules.core.seats import next_clockwise
from rules.engines.errors import ConfigError, RuleViolation
from rules.engines.money import from_cents, to_cents
from rules.registry import get_game
from tables.models import (
    SEAT_RANGE,
    Dealer,
    DealerAssignment,
    Game,
    Hand,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)
from tables.services.roster import roster_history_check
from tables.services.rotation import DealerSpec, PlanInfeasible, TableSpec, plan_rotation
from tables.services.rotation_checks import (
    plan_long_break,
    slots_working_time_check,
    staffing_advice,
    staffing_advice_by_trial,
)

#: A client's "now" may lag the server by this much when it sends ``effective_from``.
CLOCK_TOLERANCE = dt.timedelta(minutes=1)
#: Bounds of a rotation period (minutes) and of the periods dealt before a break.
PERIOD_MINUTES_RANGE = (5, 240)
PERIODS_BEFORE_BREAK_RANGE = (1, 12)
#: Longest shift a plan may cover.
MAX_SHIFT = dt.timedelta(hours=24)


def _hm(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _amount(value: Any, field: str) -> Decimal:
    """An EUR amount (string/Decimal) >= 0 with at most two decimals, as ``Decimal``; 400 otherwise."""
    try:
        return from_cents(to_cents(value, field=field))
    except RuleViolation as err:
        raise ApplicationError(err.message, code="invalid_amount", extra={"field": field}) from None


def _aware(moment: dt.datetime | None, field: str) -> dt.datetime | None:
    if moment is not None and timezone.is_naive(moment):
        raise ApplicationError(gettext_noop("%(field)s: give a time with its time zone", field=field), extra={"field": field})
    return moment


# --------------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------------

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


def table_button_advance(*, table: Table, occupied_seats: Iterable[int], played_button: int | None = None) -> int:
    """Move the table's button / forehand one occupied seat clockwise after a hand (R-spec: stud and
    Capsa button A.5.1, Forty-one Spitz B.4 step 1), using the engine's ``next_button``; store and
    return it. ``played_button`` is the seat the finished hand used (default: the stored one).

    Call it from the hand service after each completed hand (not after a Capsa misdeal, whose button
    does not move). Locks the table row. With ``played_button`` the new seat does not depend on the row
    (only on the table's game and the seats): one ``UPDATE``, which takes the row lock itself (the hand
    close's hot path, issue 19).
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


# --------------------------------------------------------------------------------------------------
# Limit profiles and change requests
# --------------------------------------------------------------------------------------------------

def limit_config_validate(*, game: str, config: Any) -> tuple[dict[str, Any], Any]:
    """Build the engine config of ``game`` from ``config`` (the spec's keys: stud §13, Forty-one B.9,
    Capsa A.12; money as EUR strings). Return ``(normalised dict, engine config)``.

    Raises ``ApplicationError(code="invalid_config", extra={"field": "config.<key>"})`` naming the key the
    engine rejected and why, e.g. ``"invalid Seven Card Stud limits: ante: must not be negative"``.
    """
    from rules.registry import get_engine

    if not isinstance(config, Mapping):
        raise ApplicationError(gettext_noop("config: must be an object of the game's configuration keys"),
                               code="invalid_config", extra={"field": "config"})
    label = Game(game).label if game in Game.values else game
    try:
        engine = get_engine(game)
    except ConfigError as err:
        raise ApplicationError(err.message, extra={"field": "game"}) from None
    except ImportError:
        raise ApplicationError(gettext_noop("the %(label)s engine is not installed; limits cannot be checked", label=label),
                               code="engine_unavailable", status_code=503) from None
    try:
        built = engine.build_config(dict(config))
        normalised = engine.config_to_dict(built)
    except RuleViolation as err:
        field = getattr(err, "field", None) or err.extra.get("field") or "config"
        message = (err.message if err.message.startswith(f"{field}:")
                   else gettext_noop("%(field)s: %(message)s", field=field, message=err.message))
        raise ApplicationError(gettext_noop("invalid %(label)s limits: %(message)s", label=label, message=message), code="invalid_config",
                               extra={"field": f"config.{field}" if field != "config" else "config",
                                      "key": field}) from None
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise ApplicationError(gettext_noop("invalid %(label)s limits: %(err)s", label=label, err=err), code="invalid_config",
                               extra={"field": "config"}) from None
    return normalised, built


#: The most characters of an automatic limit label (the column holds 64; a label is read at a glance).
LABEL_MAX = 32


def _default_label(game: str, built: Any, config: Mapping[str, Any]) -> str:
    """The label of a limit version the floor gave none: the game's own short label (its registry entry's
    ``limit_label``: ``5/10``, ``10-50``, ``2-4 @ 1``), at most :data:`LABEL_MAX` characters (a longer one
    is cut with an ellipsis; the config itself keeps every figure)."""
    label = getattr(built, "limit_label", None)
    if not (isinstance(label, str) and label):
        spec = get_game(game)
        label = spec.limit_label(config) if spec.limit_label is not None else "limits"
    return label if len(label) <= LABEL_MAX else label[:LABEL_MAX - 1] + "\u2026"


def limit_profile_create(*, table: Table, config: Mapping[str, Any], actor=None, limit_label: str = "",
                         reason: str = "", effective_from: dt.datetime | None = None, currency: str = "EUR",
                         chip_unit: Any = None) -> LimitProfile:
    """Add the next version of ``table``'s limits; it applies from the first hand opened at or after
    ``effective_from`` (default now), never to a hand already dealt (R3.4 "changes apply only between
    games"; hands keep their ``limit_profile`` and snapshot).

    The config is validated by building the engine's config object (see :func:`limit_config_validate`)
    and stored in the engine's normalised form (every key explicit). Raises ``ApplicationError`` for an
    invalid config (naming the field), a past ``effective_from``, an ``effective_from`` before the
    latest version's, a bad currency or chip unit. Locks the table row so versions never collide.
    """
    _aware(effective_from, "effective_from")
    currency = (currency or "").strip().upper()
    if len(currency) != 3 or not currency.isalpha():
        raise ApplicationError(gettext_noop("currency: %(currency)s is not a three-letter currency code such as EUR", currency=repr(currency)),
                               extra={"field": "currency"})
    normalised, built = limit_config_validate(game=table.game, config=config)
    if chip_unit is None:
        chip_unit = normalised.get("chip_unit", "1.00") if get_game(table.game).chip_unit_in_config else "1.00"
    if isinstance(chip_unit, int | float) and not isinstance(chip_unit, bool):
        chip_unit = str(chip_unit)
    unit = _amount(chip_unit, "chip_unit")
    if unit <= 0:
        raise ApplicationError(gettext_noop("chip_unit: must be at least 0.01"), extra={"field": "chip_unit"})
    now = timezone.now()
    if effective_from is None:
        effective_from = now
    elif effective_from < now - CLOCK_TOLERANCE:
        raise ApplicationError(gettext_noop("effective_from: a new limit version applies from the table's next hand; it cannot start in the past"), extra={"field": "effective_from"})
    effective_from = max(effective_from, now)
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        latest = LimitProfile.objects.filter(table=locked).order_by("-version").first()
        if latest is not None and effective_from < latest.effective_from:
            raise ApplicationError(
                gettext_noop("effective_from: version %(version)s of table '%(locked)s' applies from %(localtime)s; a newer version cannot start earlier", version=latest.version, locked=locked, localtime=latest.effective_from),
                extra={"field": "effective_from"})
        version = (latest.version if latest else 0) + 1
        profile = LimitProfile.objects.create(
            table=locked, version=version, game=locked.game,
            limit_label=(limit_label or "").strip() or _default_label(locked.game, built, normalised),
            config=normalised, currency=currency, chip_unit=unit, effective_from=effective_from,
            created_by=actor, reason=reason or "",
        )
        audit_record(obj=profile, action="limit_version_created", actor=actor, reason=reason,
                     data={"table": locked.pk, "version": version, "limit_label": profile.limit_label,
                           "effective_from": effective_from.isoformat()})
        audit_record(obj=locked, action="limits_changed", actor=actor, reason=reason,
                     data={"profile": profile.pk, "version": version, "limit_label": profile.limit_label})
    return profile


def limit_change_request_create(*, table: Table, requested_config: Mapping[str, Any], actor=None,
                                limit_label: str = "", note: str = "") -> LimitChangeRequest:
    """Record the players' request for other limits at ``table`` (R3.4 "at players' request"). The
    requested config is validated now, so the floor only ever decides on a dealable profile."""
    normalised, built = limit_config_validate(game=table.game, config=requested_config)
    with transaction.atomic():
        request = LimitChangeRequest.objects.create(
            table=table, limit_label=(limit_label or "").strip() or _default_label(table.game, built, normalised),
            requested_config=normalised, note=note or "", requested_by=actor,
        )
        audit_record(obj=request, action="requested", actor=actor, reason=note,
                     data={"table": table.pk, "limit_label": request.limit_label})
    return request


def limit_change_request_approve(*, request: LimitChangeRequest, actor=None, decision_note: str = "",
                                 effective_from: dt.datetime | None = None) -> LimitChangeRequest:
    """Approve a pending request: a new limit version (from the table's next hand, or ``effective_from``)
    is created and linked; status pending -> approved; audited; one transaction."""
    with transaction.atomic():
        locked = LimitChangeRequest.objects.select_for_update().select_related("table").get(pk=request.pk)
        if locked.status != LimitChangeRequest.Status.PENDING:
            raise ApplicationError(gettext_noop("the limit change request for table '%(table)s' is already %(status)s", table=locked.table, status=status_word(locked)),
                                   code="invalid_transition", extra={"status": locked.status})
        profile = limit_profile_create(
            table=locked.table, config=locked.requested_config, actor=actor, limit_label=locked.limit_label,
            reason=f"players' request #{locked.pk} approved" + (f": {decision_note}" if decision_note else ""),
            effective_from=effective_from,
        )
        return status_transition(
            obj=locked, to=LimitChangeRequest.Status.APPROVED, allowed=LimitChangeRequest.ALLOWED, actor=actor,
            reason=decision_note, noun="limit change request",
            extra_updates={"decided_by": actor, "decided_at": timezone.now(), "decision_note": decision_note or "",
                           "resulting_profile": profile},
        )


def limit_change_request_reject(*, request: LimitChangeRequest, actor=None, decision_note: str = "") -> LimitChangeRequest:
    """Reject a pending request (pending -> rejected); the table's limits stay as they are; audited."""
    return status_transition(
        obj=request, to=LimitChangeRequest.Status.REJECTED, allowed=LimitChangeRequest.ALLOWED, actor=actor,
        reason=decision_note, noun="limit change request",
        extra_updates={"decided_by": actor, "decided_at": timezone.now(), "decision_note": decision_note or ""},
    )


# --------------------------------------------------------------------------------------------------
# Dealers
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# Rotation plans
# --------------------------------------------------------------------------------------------------

def _plan_params(shift_start, shift_end, period_minutes, periods_before_break) -> int:
    _aware(shift_start, "shift_start")
    _aware(shift_end, "shift_end")
    if shift_end <= shift_start:
        raise ApplicationError(gettext_noop("shift_end: the shift must end after it starts"), extra={"field": "shift_end"})
    if shift_end - shift_start > MAX_SHIFT:
        raise ApplicationError(gettext_noop("shift_end: a plan covers at most 24 hours"), extra={"field": "shift_end"})
    low, high = PERIOD_MINUTES_RANGE
    if isinstance(period_minutes, bool) or not isinstance(period_minutes, int) or not low <= period_minutes <= high:
        raise ApplicationError(gettext_noop("period_minutes: must be a whole number of minutes from %(low)s to %(high)s", low=low, high=high),
                               extra={"field": "period_minutes"})
    low, high = PERIODS_BEFORE_BREAK_RANGE
    if (isinstance(periods_before_break, bool) or not isinstance(periods_before_break, int)
            or not low <= periods_before_break <= high):
        raise ApplicationError(gettext_noop("periods_before_break: must be a whole number from %(low)s to %(high)s", low=low, high=high),
                               extra={"field": "periods_before_break"})
    return math.ceil((shift_end - shift_start) / dt.timedelta(minutes=period_minutes))


def rotation_plan_grid(*, shift_start: dt.datetime, shift_end: dt.datetime, tables: Sequence[Table] | None = None,
                       dealers: Sequence[Dealer] | None = None, period_minutes: int = 30,
                       periods_before_break: int = 2) -> tuple[list[Table], list[Dealer], dict[int, list[int | None]]]:
    """Compute (without saving) the rotation grid ``{dealer_id: [table_id | None per period]}`` and the
    tables and dealers it covers; the defaults and errors of :func:`rotation_plan_generate`. The planner
    plans in the house rhythm's breaks and the working-time law's long break (settings, AZG § 11 by
    default: :func:`~tables.services.rotation_checks.plan_long_break`); when no grid staffs every table the
    refusal's ``advice`` says how many relief dealers to call or which tables to close."""
    periods = _plan_params(shift_start, shift_end, period_minutes, periods_before_break)
    if tables is None:
        tables = list(Table.objects.exclude(status=Table.Status.CLOSED))
        if not tables:
            raise ApplicationError(gettext_noop("tables: no table is open; name the tables to staff"), extra={"field": "tables"})
    if dealers is None:
        dealers = list(Dealer.objects.filter(active=True).select_related("user"))
    tables, dealers = list(dict.fromkeys(tables)), list(dict.fromkeys(dealers))
    inactive = [d for d in dealers if not d.active]
    if inactive:
        raise ApplicationError(gettext_noop("dealers: %(inactive)s is not active", inactive=inactive[0]), extra={"field": "dealers"})
    long_break = plan_long_break(period_minutes=period_minutes)
    try:
        grid = plan_rotation(
            tables=[TableSpec(t.pk, t.name, t.game) for t in tables],
            dealers=[DealerSpec(d.pk, str(d), frozenset(d.games)) for d in dealers],
            periods=periods, periods_before_break=periods_before_break, long_break=long_break,
        )
    except PlanInfeasible as err:
        advice = staffing_advice(tables=tables, dealers=dealers, periods_before_break=periods_before_break,
                                 periods=periods, long_break=long_break)
        if not advice:
            advice = staffing_advice_by_trial(tables=tables, dealers=dealers, periods=periods,
                                              periods_before_break=periods_before_break, long_break=long_break)
        message = (gettext_noop("cannot staff every table: %(reason)s. What would work: %(advice)s",
                                reason=err.reason, advice=advice) if advice
                   else gettext_noop("cannot staff every table: %(reason)s", reason=err.reason))
        raise ApplicationError(message, code="plan_infeasible", extra={"period": err.period, "advice": advice}) from None
    return tables, dealers, grid


def rotation_plan_generate(*, name: str, shift_start: dt.datetime, shift_end: dt.datetime,
                           tables: Sequence[Table] | None = None, dealers: Sequence[Dealer] | None = None,
                           period_minutes: int = 30, periods_before_break: int = 2, actor=None) -> RotationPlan:
    """Propose a rotation for the shift window: one slot per dealer and period (``table`` None = break).

    ``tables`` default: the tables open or paused now; ``dealers`` default: every active dealer. The last
    period is shorter when the window is not a whole number of periods. Raises ``ApplicationError``
    (``code="plan_infeasible"``) with the planner's reason and what would work when the dealers cannot
    staff every table (rules H1/H2 of :mod:`tables.services.rotation` and the working-time law's long
    break, which the planner schedules), and for bad parameters; nothing is saved.
    """
    tables, dealers, grid = rotation_plan_grid(shift_start=shift_start, shift_end=shift_end, tables=tables,
                                               dealers=dealers, period_minutes=period_minutes,
                                               periods_before_break=periods_before_break)
    periods = len(next(iter(grid.values()), []))
    step = dt.timedelta(minutes=period_minutes)
    table_by_id = {t.pk: t for t in tables}
    slots_working_time_check(
        slots=[{"dealer": d, "table": table_by_id.get(tid), "start": shift_start + p * step,
                "end": min(shift_start + (p + 1) * step, shift_end)}
               for d in dealers for p, tid in enumerate(grid[d.pk])],
        period_minutes=period_minutes, periods_before_break=periods_before_break)
    with transaction.atomic():
        plan = RotationPlan.objects.create(
            # without a name: the date and hours, the same in every language
            name=(name or "").strip() or (f"{timezone.localtime(shift_start):%Y-%m-%d %H:%M}–"
                                          f"{timezone.localtime(shift_end):%H:%M}"),
            shift_start=shift_start, shift_end=shift_end, period_minutes=period_minutes,
            periods_before_break=periods_before_break, created_by=actor,
        )
        plan.tables.set(tables)
        plan.dealers.set(dealers)
        slots = []
        for dealer in dealers:
            for p, table_id in enumerate(grid[dealer.pk]):
                start = shift_start + p * step
                slots.append(RotationSlot(plan=plan, dealer=dealer, table=table_by_id.get(table_id),
                                          start=start, end=min(start + step, shift_end)))
        RotationSlot.objects.bulk_create(slots)
        audit_record(obj=plan, action="generated", actor=actor,
                     data={"tables": [t.pk for t in tables], "dealers": [d.pk for d in dealers],
                           "periods": periods, "period_minutes": period_minutes,
                           "periods_before_break": periods_before_break})
    return plan


def _slot_problems(plan: RotationPlan, slots: Sequence[Mapping[str, Any]]) -> None:
    """Raise ``ApplicationError`` for the first bad slot: outside the window, an unknown dealer or table,
    an unqualified dealer, overlapping slots for one dealer or at one table."""
    plan_dealers = {d.pk: d for d in plan.dealers.select_related("user")}
    plan_tables = {t.pk: t for t in plan.tables.all()}
    for i, slot in enumerate(slots):
        dealer, table, start, end = slot["dealer"], slot.get("table"), slot["start"], slot["end"]
        where = f"slots[{i}]"
        _aware(start, f"{where}.start")
        _aware(end, f"{where}.end")
        if end <= start:
            raise ApplicationError(gettext_noop("%(where)s: ends at %(hm)s, before it starts at %(hm2)s", where=where, hm=_hm(end), hm2=_hm(start)),
                                   extra={"field": f"{where}.end"})
        if start < plan.shift_start or end > plan.shift_end:
            raise ApplicationError(gettext_noop("%(where)s: %(hm)s-%(hm2)s is outside the shift %(hm3)s-%(hm4)s", where=where, hm=_hm(start), hm2=_hm(end), hm3=_hm(plan.shift_start), hm4=_hm(plan.shift_end)), extra={"field": where})
        if dealer.pk not in plan_dealers:
            raise ApplicationError(gettext_noop("%(where)s: dealer %(dealer)s is not on this plan", where=where, dealer=dealer), extra={"field": f"{where}.dealer"})
        if table is not None:
            if table.pk not in plan_tables:
                raise ApplicationError(gettext_noop("%(where)s: table '%(table)s' is not on this plan", where=where, table=table), extra={"field": f"{where}.table"})
            if not dealer.may_deal(table.game):
                raise ApplicationError(gettext_noop("%(where)s: dealer %(dealer)s may not deal %(label)s (table '%(table)s')", where=where, dealer=dealer, label=Game(table.game).label, table=table), extra={"field": f"{where}.dealer"})
    for key, noun in (("dealer", "dealer"), ("table", "table")):
        groups: dict[int, list[Mapping[str, Any]]] = {}
        for slot in slots:
            owner = slot.get(key)
            if owner is not None:
                groups.setdefault(owner.pk, []).append(slot)
        for items in groups.values():
            items = sorted(items, key=lambda s: s["start"])
            for a, b in zip(items, items[1:]):
                if b["start"] < a["end"]:
                    who = a[key]
                    where_a = a["table"] or "break" if noun == "dealer" else a["dealer"]
                    where_b = b["table"] or "break" if noun == "dealer" else b["dealer"]
                    raise ApplicationError(
                        gettext_noop("%(noun)s %(who)s has overlapping slots: %(hm)s-%(hm2)s (%(where_a)s) and %(hm3)s-%(hm4)s (%(where_b)s)", noun=noun, who=who, hm=_hm(a['start']), hm2=_hm(a['end']), where_a=where_a, hm3=_hm(b['start']), hm4=_hm(b['end']), where_b=where_b), code="overlapping_slots",
                        extra={"field": "slots"})


def rotation_plan_slots_replace(*, plan: RotationPlan, slots: Sequence[Mapping[str, Any]], actor=None,
                                reason: str = "") -> RotationPlan:
    """The floor's edit of a proposed plan: replace all its slots with ``slots`` (each ``{"dealer": Dealer,
    "table": Table | None, "start", "end"}``). Refuses (400, nothing saved) a plan that is not proposed,
    overlapping slots for one dealer or one table, unqualified dealers, slots outside the shift."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status != RotationPlan.Status.PROPOSED:
            raise ApplicationError(gettext_noop("plan '%(locked)s' is %(status)s; only a proposed plan can be edited", locked=locked, status=status_word(locked)),
                                   code="invalid_transition", extra={"status": locked.status})
        _slot_problems(locked, slots)
        slots_working_time_check(slots=slots, period_minutes=locked.period_minutes,
                                 periods_before_break=locked.periods_before_break)
        locked.slots.all().delete()
        RotationSlot.objects.bulk_create([
            RotationSlot(plan=locked, dealer=s["dealer"], table=s.get("table"), start=s["start"], end=s["end"])
            for s in slots
        ])
        audit_record(obj=locked, action="slots_edited", actor=actor, reason=reason, data={"slots": len(slots)})
    return locked


def _coverage_gaps(plan: RotationPlan) -> list[str]:
    gaps = []
    slots = list(plan.slots.filter(table__isnull=False).order_by("start"))
    for table in plan.tables.all():
        cursor = plan.shift_start
        for slot in (s for s in slots if s.table_id == table.pk):
            if slot.start > cursor:
                gaps.append(f"table '{table}' has no dealer from {_hm(cursor)} to {_hm(slot.start)}")
            cursor = max(cursor, slot.end)
        if cursor < plan.shift_end:
            gaps.append(f"table '{table}' has no dealer from {_hm(cursor)} to {_hm(plan.shift_end)}")
    return gaps


def rotation_plan_publish(*, plan: RotationPlan, actor=None, reason: str = "") -> RotationPlan:
    """proposed -> published: checks every table has a dealer for the whole shift and that no other
    published plan staffs the same tables or dealers in an overlapping window, then creates one live
    :class:`DealerAssignment` per table slot (linked by ``slot``), except slots already over. One
    transaction; audited."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status != RotationPlan.Status.PROPOSED:
            raise ApplicationError(gettext_noop("plan '%(locked)s' is already %(status)s", locked=locked, status=status_word(locked)), code="invalid_transition",
                                   extra={"status": locked.status})
        gaps = _coverage_gaps(locked)
        if gaps:
            raise ApplicationError(gettext_noop("cannot publish: %(gaps)s", gaps='; '.join(gaps)), code="plan_incomplete",
                                   extra={"gaps": gaps})
        slots_working_time_check(
            slots=[{"dealer": s.dealer, "table": s.table, "start": s.start, "end": s.end}
                   for s in locked.slots.select_related("dealer__user", "table")],
            period_minutes=locked.period_minutes, periods_before_break=locked.periods_before_break)
        clash = (RotationPlan.objects.filter(status=RotationPlan.Status.PUBLISHED, shift_start__lt=locked.shift_end,
                                             shift_end__gt=locked.shift_start)
                 .filter(Q(tables__in=locked.tables.all()) | Q(dealers__in=locked.dealers.all())).distinct().first())
        if clash is not None:
            raise ApplicationError(gettext_noop("cannot publish: published plan '%(clash)s' already staffs some of these tables or dealers in this window; cancel it first", clash=clash), code="plan_overlap")
        # Slots already over become no assignment (the roster's past is not written after the fact, issue 20).
        now = timezone.now()
        slots = list(locked.slots.filter(table__isnull=False))
        past = [s.pk for s in slots if s.end <= now]
        DealerAssignment.objects.bulk_create([
            DealerAssignment(dealer_id=s.dealer_id, table_id=s.table_id, start=s.start, end=s.end, slot=s)
            for s in slots if s.end > now
        ])
        if past:
            audit_record(obj=locked, action="past_slots_not_assigned", actor=actor,
                         data={"past_slots_not_assigned": len(past), "slots": past})
        return status_transition(obj=locked, to=RotationPlan.Status.PUBLISHED, allowed=RotationPlan.ALLOWED,
                                 actor=actor, reason=reason, noun="rotation plan")


def rotation_plan_cancel(*, plan: RotationPlan, actor=None, reason: str = "") -> RotationPlan:
    """Cancel a plan. For a published plan, its assignments that have not started are deleted and the
    running ones end now (past ones stay: they record who dealt). Audited."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status == RotationPlan.Status.PUBLISHED:
            now = timezone.now()
            planned = DealerAssignment.objects.filter(slot__plan=locked)
            planned.filter(start__gt=now).delete()
            planned.filter(start__lte=now).filter(Q(end__isnull=True) | Q(end__gt=now)).update(end=now)
        return status_transition(obj=locked, to=RotationPlan.Status.CANCELLED, allowed=RotationPlan.ALLOWED,
                                 actor=actor, reason=reason, noun="rotation plan")


# --------------------------------------------------------------------------------------------------
# Live dealer assignments
# --------------------------------------------------------------------------------------------------

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

