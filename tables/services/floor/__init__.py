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

A package of modules by concern, every name re-exported here (callers import from
``tables.services.floor``): :mod:`~tables.services.floor.table_sessions` (tables, sessions, the button),
:mod:`~tables.services.floor.limits` (limit versions and requests), :mod:`~tables.services.floor.dealers`
(dealers and live assignments), :mod:`~tables.services.floor.rotation_plans` (rotation plans).
"""

from __future__ import annotations

from tables.services.floor.dealers import (
    dealer_assignment_end,
    dealer_assignment_start,
    dealer_create,
    dealer_update,
)
from tables.services.floor.limits import (
    CLOCK_TOLERANCE,
    LABEL_MAX,
    limit_change_request_approve,
    limit_change_request_create,
    limit_change_request_reject,
    limit_config_validate,
    limit_profile_create,
)
from tables.services.floor.rotation_plans import (
    MAX_SHIFT,
    PERIOD_MINUTES_RANGE,
    PERIODS_BEFORE_BREAK_RANGE,
    rotation_plan_cancel,
    rotation_plan_generate,
    rotation_plan_grid,
    rotation_plan_publish,
    rotation_plan_slots_replace,
)
from tables.services.floor.table_sessions import (
    table_button_advance,
    table_button_for_next_hand,
    table_close,
    table_create,
    table_open,
    table_pause,
    table_resume,
    table_seats_check,
    table_update,
)

__all__ = [
    "CLOCK_TOLERANCE",
    "LABEL_MAX",
    "MAX_SHIFT",
    "PERIODS_BEFORE_BREAK_RANGE",
    "PERIOD_MINUTES_RANGE",
    "dealer_assignment_end",
    "dealer_assignment_start",
    "dealer_create",
    "dealer_update",
    "limit_change_request_approve",
    "limit_change_request_create",
    "limit_change_request_reject",
    "limit_config_validate",
    "limit_profile_create",
    "rotation_plan_cancel",
    "rotation_plan_generate",
    "rotation_plan_grid",
    "rotation_plan_publish",
    "rotation_plan_slots_replace",
    "table_button_advance",
    "table_button_for_next_hand",
    "table_close",
    "table_create",
    "table_open",
    "table_pause",
    "table_resume",
    "table_seats_check",
    "table_update",
]
