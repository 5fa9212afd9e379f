"""Reading a Capsa event from the wire: the seat and the cards (A.1, A.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.seats import parse_seat
from rules.engines.capsa.state import CapsaState
from rules.engines.cards import DECK_52, Card, parse_cards
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidCard,
    UnknownEvent,
)
from rules.engines.messages import gettext_noop, pgettext

#: How a message names the step a Capsa event is ("seat 3 set: ...", "Platz 3, Einstellung: ..."): the English
#: stays the word the messages always had; the catalogue has the German noun under the context "capsa step".
STEP_NAMES = {
    "deal": pgettext("capsa step", "deal"), "set": pgettext("capsa step", "set"),
    "show": pgettext("capsa step", "show"), "declare a natural": pgettext("capsa step", "declare a natural"),
    "announce a royalty": pgettext("capsa step", "announce a royalty"), "time out": pgettext("capsa step", "time out"),
    "surrender": pgettext("capsa step", "surrender"), "play": pgettext("capsa step", "play"),
}


def step_name(action: object) -> object:
    """The marked name of a Capsa step (``"set"`` -> "Einstellung" in German); anything else unchanged."""
    return STEP_NAMES.get(action, action) if isinstance(action, str) else action


def _seat_of(state: CapsaState, event: Mapping[str, Any], action: str) -> int:
    """The event's seat, dealt in (:func:`rules.core.seats.parse_seat`; a string of digits is read too)."""
    seat = event.get("seat")
    if type(seat) is int and seat in state.seats:  # the stored form: what parse_seat would answer, sooner
        return seat
    action = step_name(action)  # type: ignore[assignment]
    return parse_seat(
        event, state.seats, digits=True,
        not_a_seat=lambda: UnknownEvent(gettext_noop("%(action)s: the event needs a seat number, got %(seat)s", action=action, seat=repr(event.get('seat'))), rule="A.5"),
        not_dealt=lambda seat: IllegalAction(gettext_noop("seat %(seat)s is not dealt in this deal (seats %(seats)s)", seat=seat, seats=', '.join(map(str, state.seats))),
                                             seat=seat, rule="A.2"))


def _cards(event: Mapping[str, Any], key: str, seat: int, action: str) -> list[Card]:
    raw = event.get(key)
    if type(raw) is str:  # the stored form: parsed at once, the step named only if a message needs it
        try:
            return parse_cards(raw, deck=DECK_52)
        except (DuplicateCard, InvalidCard) as exc:
            raise _worded(exc, seat, step_name(action)) from None
    action = step_name(action)  # type: ignore[assignment]
    if raw is None:
        raise UnknownEvent(gettext_noop("seat %(seat)s %(action)s: the event needs '%(key)s' cards", seat=seat, action=action, key=key), seat=seat)
    if not isinstance(raw, str | list | tuple):
        raise InvalidCard(gettext_noop("seat %(seat)s %(action)s: '%(key)s' must be cards as text such as \"As Kd\" or a list of cards, got %(raw)s", seat=seat, action=action, key=key, raw=repr(raw)), seat=seat, rule="A.2")
    try:
        return parse_cards(raw, deck=DECK_52)
    except (DuplicateCard, InvalidCard) as exc:
        raise _worded(exc, seat, action) from None


def _worded(exc: DuplicateCard | InvalidCard, seat: int, action: object) -> DuplicateCard | InvalidCard:
    """The card parser's refusal in Capsa's words: the seat and the step first, rule A.2, the same class."""
    kind = DuplicateCard if isinstance(exc, DuplicateCard) else InvalidCard
    return kind(gettext_noop("seat %(seat)s %(action)s: %(message)s", seat=seat, action=action, message=exc.message),
                seat=seat, rule="A.2", extra=exc.extra)
