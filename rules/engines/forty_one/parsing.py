"""Reading a Forty-one event from the wire: its shape and fields, the seat, amounts and the cards of the
pack (B.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.seats import parse_seat
from rules.engines.cards import (
    PIQUET_32,
    UNKNOWN_TOKENS,
    Card,
    check_no_duplicates,
    parse_cards,
    parse_german_card,
)
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    RuleViolation,
    UnknownEvent,
)
from rules.engines.forty_one.events import CATALOGUE
from rules.engines.forty_one.state import FortyOneState
from rules.engines.forty_one_config import FortyOneConfig
from rules.engines.messages import action_word, event_name, gettext_noop, retemplate
from rules.engines.money import MAX_AMOUNT_CENTS

#: Per event type: (required keys, every key allowed without a closer look) for the fast path of _check_shape;
#: the catalogue's tables (:class:`rules.engines.events.EventCatalogue`), read from the typed events
#: (:mod:`rules.engines.forty_one.events`), the one definition of every event's fields.
_FAST_SHAPE: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (CATALOGUE.required(kind), CATALOGUE.allowed[kind]) for kind in CATALOGUE.types
}


#: A card outside the 32-card pack: the general "not in this game's deck" messages name the pack (B.2).
_PIQUET_DECK_MESSAGES = {
    "'%(token)s' is not in this game's deck": gettext_noop("'%(token)s' is not in the 32-card pack (7 to A, B.2)", token="").template,
    "'%(c)s' is not in this game's deck": gettext_noop("'%(c)s' is not in the 32-card pack (7 to A, B.2)", c="").template,
}


def _seat_of(state: FortyOneState, event: Mapping[str, Any]) -> int:
    """The event's seat, dealt into the hand (:func:`rules.core.seats.parse_seat`; B.4).

    The usual event (an ``int`` seat dealt in) is answered at once; anything else is read, and refused
    in Forty-one's words, by :func:`~rules.core.seats.parse_seat`."""
    seat = event.get("seat")
    if type(seat) is int and seat in state.seats:
        return seat
    return parse_seat(
        event, state.seats,
        not_a_seat=lambda: UnknownEvent(gettext_noop("%(type)s event: 'seat' must be a seat number, got %(seat)s", type=event_name(event.get('type')), seat=repr(event.get("seat")))),
        not_dealt=lambda seat: IllegalAction(gettext_noop("seat %(seat)s is not dealt into this hand (seats %(seats)s)", seat=seat, seats=', '.join(map(str, state.seats))),
                                             seat=seat))


def _amount(event: Mapping[str, Any], key: str) -> int | None:
    if key not in event:
        return None
    value = event[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidAmount(gettext_noop("%(type)s event: '%(key)s' must be whole cents (an int >= 0), got %(value)s", type=event_name(event.get('type')), key=key, value=repr(value)),
                            extra={"field": key})
    if value > MAX_AMOUNT_CENTS:
        raise InvalidAmount(gettext_noop("%(type)s event: '%(key)s' of %(value)s cents is too large", type=event_name(event.get('type')), key=key, value=value), extra={"field": key})
    return value


def parse_pack_cards(raw: Any, config: FortyOneConfig) -> list[Card]:
    """Parse cards of the 32-card pack: canonical text or tokens, and German names for a double-German
    deck (``"Herz Ass, Herz König"`` or a list of names; B.2). Raises :class:`InvalidCard`,
    :class:`DuplicateCard`."""
    if isinstance(raw, list | tuple):
        tokens = list(raw)
    elif isinstance(raw, str):
        tokens = None
    else:
        raise InvalidCard(gettext_noop("cards must be text such as \"As Kd\" or a list of cards, got %(raw)s", raw=repr(raw)))
    if config.deck == "double_german":
        pieces = tokens if tokens is not None else [p.strip() for p in raw.replace(";", ",").split(",") if p.strip()]
        cards: list[Card] = []
        for piece in pieces:
            if not isinstance(piece, str):
                raise InvalidCard(gettext_noop("%(piece)s is not a card", piece=repr(piece)))
            try:
                cards.extend(parse_cards(piece, deck=PIQUET_32, allow_duplicates=True))
                continue
            except InvalidCard:
                pass
            words = piece.split()
            if len(words) > 2 and len(words) % 2 == 0:
                for i in range(0, len(words), 2):
                    cards.append(parse_german_card(" ".join(words[i:i + 2])))
            else:
                cards.append(parse_german_card(piece))
        for c in cards:
            if c not in PIQUET_32:
                raise InvalidCard(gettext_noop("'%(c)s' is not in the 32-card pack (B.2)", c=c), extra={"token": str(c)})
        check_no_duplicates(cards)
        return cards
    try:
        return parse_cards(raw if tokens is None else tokens, deck=PIQUET_32)
    except InvalidCard as err:
        if "deck" in err.message:
            err.message = retemplate(err.message, _PIQUET_DECK_MESSAGES)
            err.args = (err.message,)
        raise


#: Every two different cards of the 32-card pack in canonical text (``"As Kd"``: what the terminals send
#: and what is stored) -> the two cards: what :func:`parse_pack_cards` returns for that text, in either
#: deck (the German names are an alternative spelling, B.2), looked up instead of parsed.
_PAIR_TEXT: dict[str, tuple[Card, Card]] = {
    f"{a} {b}": (a, b) for a in sorted(PIQUET_32) for b in sorted(PIQUET_32) if a != b
}


def _check_shape(event: Any) -> str:
    if type(event) is dict:
        kind = event.get("type")
        if type(kind) is str:
            allowed = _FAST_SHAPE.get(kind)
            if allowed is not None and event.keys() >= allowed[0] and allowed[1].issuperset(event):
                # the usual well-formed event; anything else is checked in full below. ``keys >= required``,
                # not ``required <= keys``: the same test, but the frozenset's comparison declines a
                # ``dict_keys`` and the reflected one costs several times the direct one
                return kind
    if not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be an object with a \"type\", got %(type_name)s", type_name=type(event).__name__))
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in _FAST_SHAPE:
        raise UnknownEvent(gettext_noop("unknown Forty-one event type %(kind)s; expected one of %(fields)s", kind=repr(kind), fields=', '.join(_FAST_SHAPE)))
    missing = CATALOGUE.missing(event, kind)
    if missing == ["to"]:
        raise UnknownEvent(gettext_noop("%(kind)s event: the amount is missing (give 'to': the seat's total bet in "
                                        "this round after the action)", kind=event_name(kind)), extra={"field": "to"})
    if missing:
        raise UnknownEvent(gettext_noop("%(kind)s event: missing %(missing)s", kind=event_name(kind), missing=', '.join(missing)), extra={"field": missing[0]})
    CATALOGUE.check_fields(event, kind, _refuse_field)  # the one field check, in Forty-one's words
    return kind


def _refuse_field(kind: str, keys: list[Any], event: Mapping[str, Any]) -> UnknownEvent:
    extra = sorted(keys)
    return UnknownEvent(gettext_noop("%(kind)s event: unknown field %(extra)s", kind=event_name(kind), extra=repr(extra[0])), extra={"field": extra[0]})


def _split_unseen(raw: Any) -> tuple[int, Any]:
    """``"?? 9h"`` -> ``(1, "9h")``: how many cards of a deal were dealt face down unseen (``??``), and the
    named rest (text or list as given). Cards logged unseen are named when exposed or shown (B.4)."""
    if isinstance(raw, str):
        sep = "," if "," in raw else " "
        pieces = [p.strip() for p in raw.split(sep) if p.strip()]
        named = [p for p in pieces if p not in UNKNOWN_TOKENS]
        return len(pieces) - len(named), (", " if sep == "," else " ").join(named)
    if isinstance(raw, list | tuple):
        named_list = [p for p in raw if not (isinstance(p, str) and p in UNKNOWN_TOKENS)]
        return len(raw) - len(named_list), named_list
    return 0, raw


def _adopt_unseen(st: FortyOneState, seat: int, cards: Sequence[Card], action: str) -> None:
    """Cards ``seat`` now shows that it was dealt unseen (``??``): each must not be held by another seat; they
    take the place of unseen cards (B.4)."""
    new = [c for c in cards if c not in st.hole.get(seat, ())]
    if not new:
        return
    if len(new) > st.unseen.get(seat, 0):
        return  # more new cards than unseen ones: the caller's own check names the card it does not hold
    held_by = {int(c): s for s, held in st.hole.items() if s != seat for c in held}
    for c in new:
        if int(c) in held_by:
            raise DuplicateCard(gettext_noop("seat %(seat)s cannot %(action)s %(c)s: it was dealt to seat %(other)s",
                                             seat=seat, action=action_word(action), c=c, other=held_by[int(c)]),
                                seat=seat, rule="B.4", extra={"card": str(c)})
    st.hole[seat] = (*st.hole.get(seat, ()), *new)
    st.unseen[seat] -= len(new)


def _event_cards(st: FortyOneState, ev: dict[str, Any], seat: int) -> list[Card]:
    try:
        return parse_pack_cards(ev["cards"], st.config)
    except RuleViolation as err:
        err.seat = seat
        err.message = gettext_noop("seat %(seat)s: %(message)s", seat=seat, message=err.message)
        err.args = (err.message,)
        raise
