"""Limit profiles and the players' limit-change requests (issue 7): versioned, each new version applies
from the table's next hand (R3.4, B.9, A.12), never to a hand already dealt."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.errors import ApplicationError
from casino.i18n import gettext_noop, status_word
from casino.status import audit_record, status_transition
from rules.engines.errors import ConfigError, RuleViolation
from rules.registry import get_game
from tables.models import (
    Game,
    LimitChangeRequest,
    LimitProfile,
    Table,
)
from tables.services.floor._common import _amount, _aware

#: A client's "now" may lag the server by this much when it sends ``effective_from``.
CLOCK_TOLERANCE = dt.timedelta(minutes=1)


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
