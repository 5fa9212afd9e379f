"""The stud engine's entry points: :func:`apply`, :func:`replay` and :class:`StudEngine` (the event
dispatch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.seats import next_clockwise
from rules.engines.errors import (
    ConfigError,
    HandComplete,
    IllegalAction,
    RuleViolation,
    UnknownEvent,
)
from rules.engines.messages import event_name, gettext_noop
from rules.engines.stud.betting import _on_bring_in, _on_call, _on_check, _on_fold, _on_wager
from rules.engines.stud.dealing import _on_ante, _on_burn, _on_card_exposed, _on_deal, _on_deal_community
from rules.engines.stud.parsing import _EVENT_FIELDS, _fields_check
from rules.engines.stud.showdown import _on_misdeal, _on_muck, _on_show
from rules.engines.stud.state import _ACTION_WORDS, _EVENT_TYPES, StudState, _action, _seat_err, new_hand
from rules.engines.stud.taxe import _on_taxe
from rules.engines.stud.view import is_complete, legal_actions, settlement, view
from rules.engines.stud_config import StudConfig, build_config, config_to_dict
from rules.engines.stud_variant import SEVEN_CARD_STUD, StudVariant


def apply(state: StudState, event: Mapping[str, Any]) -> StudState:
    """Return the state after ``event`` (a new object; ``state`` is unchanged).

    Raises :class:`UnknownEvent` (unknown type, missing/malformed field), :class:`InvalidCard`,
    :class:`DuplicateCard`, :class:`OutOfTurn`, :class:`IllegalAction`, :class:`InvalidAmount` or
    :class:`HandComplete`; the message names the seat, the action and the spec rule.
    """
    s = state.copy()
    _apply(s, event)
    return s


def _apply(s: StudState, event: Mapping[str, Any]) -> None:
    """Apply ``event`` to ``s`` in place (used on a private copy; may leave ``s`` half-changed on error)."""
    if type(event) is dict:
        kind = event.get("type")
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is not None and s.phase != "complete":
            if not _EVENT_FIELDS[kind].issuperset(event):  # type: ignore[index]  # the fast path of _fields_check
                _fields_check(event, kind)  # type: ignore[arg-type]
            handler(s, event)
            s.n_events += 1
            return
    elif not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be a mapping with a 'type', got %(event)s", event=repr(event)))
    kind = event.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if handler is None:
        reason = gettext_noop("unknown event type %(kind)s; expected one of %(event_types)s", kind=repr(kind), event_types=', '.join(sorted(_EVENT_TYPES)))
        if i is not None:
            raise UnknownEvent(gettext_noop("seat %(seat)s cannot %(kind)s: %(reason)s", seat=seat, kind=_action(kind), reason=reason), seat=seat, extra={"action": str(kind)})
        raise UnknownEvent(reason)
    if s.phase == "complete":
        rule = "R12.1" if s.void else ("R1.5" if s.folded.count(False) == 1 else "R11.2")
        how = (gettext_noop("void by a misdeal") if s.void else (gettext_noop("won without a showdown") if rule == 'R1.5' else gettext_noop("shown down")))
        if i is not None:
            raise _seat_err(HandComplete, s, i, _ACTION_WORDS.get(kind, kind),  # type: ignore[arg-type]
                            gettext_noop("the hand is over (%(how)s)", how=how), rule)
        raise HandComplete(gettext_noop("the hand is over (%(how)s); no %(kind)s event is possible (%(rule)s)", how=how, kind=event_name(kind), rule=rule), rule=rule)
    _fields_check(event, kind)  # type: ignore[arg-type]
    handler(s, event)
    s.n_events += 1


_HANDLERS = {
    "ante": _on_ante, "burn": _on_burn, "deal": _on_deal, "deal_community": _on_deal_community,
    "bring_in": _on_bring_in, "complete": _on_wager, "bet": _on_wager, "raise": _on_wager, "call": _on_call,
    "check": _on_check, "fold": _on_fold, "taxe": _on_taxe, "show": _on_show, "muck": _on_muck,
    "misdeal": _on_misdeal, "card_exposed": _on_card_exposed,
}


def next_button(occupied: Sequence[int], current: int) -> int:
    """The next button seat: the first occupied seat clockwise after ``current`` (DESIGN.md tables/)."""
    if not occupied:
        raise IllegalAction(gettext_noop("no occupied seat for the button"))
    return next_clockwise(occupied, current)


def replay(config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], events: Sequence[Mapping[str, Any]],
           *, button: int, variant: StudVariant = SEVEN_CARD_STUD) -> StudState:
    """Rebuild a hand from its events. On a bad event re-raises its error with ``"event K (type): "``
    in front of the message and ``extra["event_index"] = K`` (0-based)."""
    s = new_hand(config, seats, button=button, variant=variant)
    for k, event in enumerate(events):
        try:
            _apply(s, event)
        except RuleViolation as exc:
            kind = event.get("type") if isinstance(event, Mapping) else None
            exc.message = gettext_noop("event %(k)s (%(kind)s): %(message)s", k=k, kind=event_name(kind), message=exc.message)
            exc.args = (exc.message,)
            exc.extra["event_index"] = k
            raise
    return s


class StudEngine:
    """The :class:`~rules.engines.base.GameEngine` of a stud game: Seven Card Stud (``ENGINE``), and with
    their :class:`~rules.engines.stud_variant.StudVariant` Razz and Seven Card Stud Hi-Lo."""

    apply = staticmethod(apply)
    view = staticmethod(view)
    is_complete = staticmethod(is_complete)
    settlement = staticmethod(settlement)
    next_button = staticmethod(next_button)
    legal_actions = staticmethod(legal_actions)
    config_to_dict = staticmethod(config_to_dict)

    def __init__(self, variant: StudVariant = SEVEN_CARD_STUD) -> None:
        self.variant = variant
        self.game = variant.game

    def build_config(self, raw: Mapping[str, Any]) -> StudConfig:
        """:func:`~rules.engines.stud_config.build_config`; a game without the open-pair rule (Razz, Hi-Lo)
        defaults ``open_pair_option`` to ``off`` and refuses ``on`` (RZ3.1, HL3.1)."""
        if not self.variant.open_pair and isinstance(raw, Mapping):
            if raw.get("open_pair_option", "off") not in ("off", False):
                raise ConfigError("open_pair_option", gettext_noop("%(game)s has no open-pair rule; it must be off (RZ3.1, HL3.1)",
                                                                   game=self.variant.label), rule="RZ3.1")
            raw = {**raw, "open_pair_option": "off"}
        return build_config(raw)

    def new_hand(self, config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], *, button: int) -> StudState:
        """:func:`new_hand` of this engine's stud game."""
        if not isinstance(config, StudConfig):
            config = self.build_config(config)
        return new_hand(config, seats, button=button, variant=self.variant)

    def replay(self, config: StudConfig | Mapping[str, Any], seats: Mapping[int, int],
               events: Sequence[Mapping[str, Any]], *, button: int) -> StudState:
        """:func:`replay` of this engine's stud game."""
        if not isinstance(config, StudConfig):
            config = self.build_config(config)
        return replay(config, seats, events, button=button, variant=self.variant)


ENGINE = StudEngine()
