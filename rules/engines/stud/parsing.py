"""Reading a stud event from the wire: the seat, amounts and card tokens, and the fields each event type
takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.seats import parse_seat
from rules.engines.cards import CARDS, parse_card
from rules.engines.errors import (
    InvalidAmount,
    InvalidCard,
    UnknownEvent,
)
from rules.engines.messages import Amount, event_name, gettext_noop
from rules.engines.stud.events import CATALOGUE
from rules.engines.stud.state import DECK_SIZE, UNKNOWN, StudState, _action, _seat_err


def _seat_of(s: StudState, event: Mapping[str, Any]) -> int:
    """The position of the event's seat (:func:`rules.core.seats.parse_seat`, a fast path first)."""
    seat = event.get("seat")
    if type(seat) is int:
        i = s.pos.get(seat)
        if i is not None:
            return i
    return s.pos[parse_seat(
        event, s.pos,
        not_a_seat=lambda: UnknownEvent(gettext_noop("%(type)s event needs an integer 'seat', got %(seat)s", type=event_name(event.get('type')), seat=repr(seat))),
        not_dealt=lambda n: UnknownEvent(gettext_noop("seat %(seat)s is not in this hand (seats %(seats)s)", seat=n, seats=', '.join(map(str, sorted(s.seats)))),
                                         seat=n))]


#: How a missing amount is explained to the croupier, by event field.
_AMOUNT_MEANING = {"to": gettext_noop("the seat's total bet on this street after the action"),
                   "amount": gettext_noop("the chips put in")}


def _amount_field(event: Mapping[str, Any], key: str, *, required: bool = True, s: StudState | None = None,
                  i: int | None = None, action: str = "", rule: str = "R6.1") -> int | None:
    """``event[key]`` as int cents. A missing/non-int value raises :class:`UnknownEvent`, a negative one
    :class:`InvalidAmount`; with ``s``/``i`` the message names the seat, ``action`` and ``rule``."""
    value = event.get(key)
    if type(value) is int and value >= 0:
        return value
    if value is None and not required:
        return None
    negative = type(value) is int
    cls = InvalidAmount if negative else UnknownEvent
    if value is None:
        reason = gettext_noop("the amount is missing (give '%(key)s': %(meaning)s)", key=key,
                              meaning=_AMOUNT_MEANING.get(key, gettext_noop("the amount")))
    elif negative:
        # the amount as money (-5,00 in German), not the raw cents the wire carries
        reason = gettext_noop("'%(key)s' must not be negative, got %(value)s", key=key, value=Amount(value))
    else:
        reason = gettext_noop("'%(key)s' must be a whole number of cents, got %(value)s", key=key, value=repr(value))
    if s is not None and i is not None:
        raise _seat_err(cls, s, i, action or str(event.get("type")), reason, rule)
    raise cls(gettext_noop("%(type)s event: %(reason)s (%(rule)s)", type=event_name(event.get('type')), reason=reason, rule=rule), rule=rule)


#: Fast path for canonical tokens ("As", "??"); anything else goes through ``parse_card``.
_TOKEN_IDS: dict[str, int] = {str(card): int(card) for card in CARDS}


#: Named cards only (no unknown tokens), for the deal fast path.
_CARD_IDS: dict[str, int] = dict(_TOKEN_IDS)
_TOKEN_IDS.update({"??": UNKNOWN, "XX": UNKNOWN, "xx": UNKNOWN, "##": UNKNOWN})


def _parse_tokens(text: Any) -> list[int]:
    """Cards of a deal/show field: str ``"As Kd"``/``"AsKd"``/``"?? Kd"`` or a list; UNKNOWN for ``??``."""
    if isinstance(text, str):
        fast = [_TOKEN_IDS.get(t) for t in text.split()]
        if None not in fast:
            return fast  # type: ignore[return-value]
        raw = [t for t in text.replace(",", " ").split() if t]
        tokens: list[str] = []
        for t in raw:
            if len(t) > 3:
                tokens.extend(t[k:k + 2] for k in range(0, len(t), 2))
            else:
                tokens.append(t)
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    elif text is None:
        raise UnknownEvent(gettext_noop("the cards are missing (give 'cards', e.g. 'As Kd 3c')"))
    else:
        raise UnknownEvent(gettext_noop("cards must be a string such as 'As Kd', got %(text)s", text=repr(text)))
    out = []
    for t in tokens:
        if isinstance(t, int) and not isinstance(t, bool) and 0 <= t < DECK_SIZE:
            out.append(int(t))
        elif isinstance(t, str) and t in ("??", "XX", "xx", "##"):
            out.append(UNKNOWN)
        elif isinstance(t, str):
            out.append(int(parse_card(t)))
        else:
            raise InvalidCard(gettext_noop("%(t)s is not a card", t=repr(t)))
    return out


def _fields_check(event: Mapping[str, Any], kind: str) -> None:
    """Refuse a key the event type does not take (a misspelt ``amout``, a ``to`` on a call): the croupier
    must not believe an amount was logged that the engine ignored. ``note`` and ``_``-prefixed keys pass.
    The check is the catalogue's (:meth:`rules.engines.events.EventCatalogue.check_fields`); the words are
    the stud engine's (they name the seat)."""
    CATALOGUE.check_fields(event, kind, _refuse_field)


def _refuse_field(kind: str, keys: list[Any], event: Mapping[str, Any]) -> UnknownEvent:
    extra = sorted(keys)
    seat = event.get("seat")
    who = (gettext_noop("seat %(seat)s cannot %(kind)s: ", seat=seat, kind=_action(kind)) if type(seat) is int else '')
    takes = ", ".join(sorted(CATALOGUE.fields(kind))) or "nothing"
    return UnknownEvent(gettext_noop("%(who)sthe %(kind)s event does not take %(items)s (it takes: %(takes)s); remove it and log again", who=who, kind=event_name(kind), items=', '.join(repr(k) for k in extra), takes=takes),
                        seat=seat if type(seat) is int else None, extra={"field": str(extra[0])})


def _fmt(c: int) -> str:
    return "??" if c == UNKNOWN else str(CARDS[c])


def _seat_cards(s: StudState, i: int, action: str, value: Any) -> list[int]:
    """:func:`_parse_tokens` for a seat's event: a bad card or field names the seat, the action and the rule
    (R1.1 one 52-card deck; R1.3 the deal)."""
    try:
        return _parse_tokens(value)
    except (InvalidCard, UnknownEvent) as exc:
        raise _seat_err(type(exc), s, i, action, exc.message, "R1.1" if isinstance(exc, InvalidCard) else "R1.3",
                        **exc.extra) from None


#: The keys each event type takes (its fields, ``type`` and a croupier's ``note``): the catalogue's table
#: (:attr:`rules.engines.events.EventCatalogue.allowed`), read from the typed events (:mod:`rules.engines.stud.events`).
_EVENT_FIELDS: dict[str, frozenset[str]] = CATALOGUE.allowed
