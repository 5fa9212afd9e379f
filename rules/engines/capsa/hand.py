"""The Capsa entry points: :func:`apply`, :func:`can_apply`, :func:`verify_event` and :func:`replay`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.capsa.events import CATALOGUE
from rules.engines.capsa.play import _HANDLERS
from rules.engines.capsa.state import (
    EVENT_TYPES,
    CapsaState,
    _evolve,
    new_hand,
)
from rules.engines.capsa_config import CapsaConfig
from rules.engines.errors import (
    HandComplete,
    RuleViolation,
    UnknownEvent,
)
from rules.engines.messages import event_name, gettext_noop


def apply(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    """Return the state after ``event`` (see the module docstring for the events and phases).

    Never mutates ``state``; raises a :class:`RuleViolation` subclass with a croupier-readable message
    (naming seat, action and rule) and changes nothing when the event is not allowed now.
    """
    if type(event) is not dict and not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be an object with a 'type', got %(event)s", event=repr(event)))
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise UnknownEvent(gettext_noop("unknown Capsa event type %(kind)s; expected one of %(event_types)s", kind=repr(kind), event_types=', '.join(EVENT_TYPES)))
    if state.phase == "complete":
        what = (gettext_noop("the deal was declared a misdeal") if state.misdeal else gettext_noop("the deal is settled"))
        raise HandComplete(gettext_noop("%(kind)s refused: %(what)s", kind=event_name(kind), what=what))
    CATALOGUE.check_fields(event, kind, _refuse_field)  # the one field check, in Capsa's words
    handler = _HANDLERS[kind]
    new = handler(state, event)
    if new is state:  # pragma: no cover - every handler returns a new state; never count into the old one
        return _evolve(new, event_count=state.event_count + 1)
    # ``new`` was made by the handler and is held by nobody else yet: count the event on it, no third copy
    new.__dict__["event_count"] = state.event_count + 1
    return new


def _refuse_field(kind: str, keys: list[Any], event: Mapping[str, Any]) -> UnknownEvent:
    unknown = sorted(str(k) for k in keys)
    allowed = ", ".join(sorted(CATALOGUE.fields(kind))) or "no other fields"
    return UnknownEvent(gettext_noop("%(kind)s event: unknown field %(unknown)s (a %(kind)s takes %(allowed)s)", kind=event_name(kind), unknown=repr(unknown[0]), allowed=allowed),
                        extra={"field": unknown[0]})


def can_apply(state: CapsaState, event: Mapping[str, Any]) -> bool:
    """True when :func:`apply` would accept ``event`` (the verify/can pair of STYLE.md rule 2)."""
    try:
        apply(state, event)
    except RuleViolation:
        return False
    return True


def verify_event(state: CapsaState, event: Mapping[str, Any]) -> None:
    """Raise the :class:`RuleViolation` :func:`apply` would raise for ``event``; return None if legal."""
    apply(state, event)


def replay(config: CapsaConfig, seats: Mapping[int, int], events: Sequence[Mapping[str, Any]], *,
           button: int) -> CapsaState:
    """Rebuild a deal from its events (the same events always give the same state)."""
    state = new_hand(config, seats, button=button)
    for event in events:
        state = apply(state, event)
    return state
