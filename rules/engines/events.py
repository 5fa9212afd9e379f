"""Typed events and their canonical records, the same for every game (issue 14).

Every event a croupier logs is one frozen dataclass (a subclass of :class:`Event`, one per event type,
declared in the game engine's package: ``rules/engines/<game>/events.py``; each engine reads its table of
event fields from them, so every event's fields are defined once), read from the wire by the one parser
:meth:`EventCatalogue.parse` and written back by :meth:`Event.record` in **canonical form**:

* ``"type"`` first, then the type's fields in their declared order, then the ``note`` and ``_``-prefixed
  keys every event may carry (as sent);
* cards as text ``"As Td ??"``: rank upper case (``T`` for ten), suit lower case, ``??`` for a card dealt
  face down and not seen (``XX``/``xx``/``##`` are read as ``??``), one space between cards; a list of
  card names becomes that text, and so do ``"as,kd"``, ``"AsKd"``, ``"A♠ 10h"`` and (Forty-one with the
  double-German pack) ``"Herz Ass, Eichel Ober"``;
* amounts in integer cents (the API converts EUR at its edge); seats as ints (Capsa also reads ``"3"``);
* a key sent with ``null`` is kept as ``null`` (the engines tell an explicit ``null`` from a missing key).

The parser makes one field check (the type is known, no key the type does not take, the required keys
are there) and one seat check (the seat is a seat number), for every game. It judges the *form* of an
event, never the hand: whether seat 3 is in the hand, whether the cards are still in the deck, whether
``to`` is a legal total, is the engine's question (``rules.contract.act`` applies the canonical record to
the state and, when the engine refuses it, reports the engine's own words for what was sent). Values the
parser cannot put in canonical form (a token that is no card) are kept as sent, so the engine refuses
them with its message; the parser therefore never accepts an event the engine refuses.

Canonical records are a fixed point: ``parse(record).record() == record``, and they replay to the same
state as the event that was sent (``tests/rules/test_contract.py`` checks both for every game).

Pure Python, no Django; frozen dataclasses with ``slots``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.core.seats import seat_number
from rules.engines.cards import UNKNOWN_TOKENS, parse_card, parse_german_card
from rules.engines.errors import RuleViolation, UnknownEvent
from rules.engines.messages import event_name, gettext_noop

__all__ = [
    "CARDS", "CENTS", "SEAT", "TEXT", "Event", "EventCatalogue", "canonical_cards", "cards_field", "cents_field",
    "field_kind", "seat_field", "text_field",
]

#: Field kinds (``dataclasses.field(metadata={"kind": ...})``): a seat number, cards, integer cents, text.
SEAT = "seat"
CARDS = "cards"
CENTS = "cents"
TEXT = "text"
#: Keys every event may carry besides its fields: a free ``note``, and anything starting with ``_``.
META_KEYS = frozenset({"note"})


def field_kind(f: dataclasses.Field[Any]) -> str:
    """The kind of an event field (:data:`SEAT`, :data:`CARDS`, :data:`CENTS` or :data:`TEXT`)."""
    return str(f.metadata.get("kind", TEXT))


def seat_field(*, required: bool = True) -> Any:
    """A seat-number field (int)."""
    return _field(SEAT, required)


def cards_field(*, required: bool = True) -> Any:
    """A cards field: canonical text ``"As Td ??"`` (kept as sent when it is no cards)."""
    return _field(CARDS, required)


def cents_field(*, required: bool = True) -> Any:
    """An amount field in integer cents (``to``: a wager's total for the round; ``amount``: chips put in)."""
    return _field(CENTS, required)


def text_field(*, required: bool = True) -> Any:
    """A text or choice field (``face``, ``reason``, ``row``, ``natural``), kept as sent."""
    return _field(TEXT, required)


def _field(kind: str, required: bool) -> Any:
    if required:
        return dataclasses.field(metadata={"kind": kind, "required": True})
    return dataclasses.field(default=None, metadata={"kind": kind, "required": False})


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One logged event. Subclasses set ``TYPE`` (the wire's ``"type"``) and declare their fields with
    :func:`seat`, :func:`cards`, :func:`cents` and :func:`text` (optional fields default to ``None``).

    ``nulls``: the optional fields sent as an explicit ``null`` (kept in the record, see the module
    docstring); ``meta``: the ``note`` and ``_``-prefixed keys as ``(key, value)`` pairs, sorted by key.
    """

    TYPE: ClassVar[str] = ""
    nulls: frozenset[str] = frozenset()
    meta: tuple[tuple[str, Any], ...] = ()

    def record(self) -> dict[str, Any]:
        """The canonical record (a JSON-able dict; module docstring)."""
        out: dict[str, Any] = {"type": self.TYPE}
        for f in _own_fields(type(self)):
            value = getattr(self, f.name)
            if value is not None or f.name in self.nulls:
                out[f.name] = value
        out.update(self.meta)
        return out

    def money(self) -> dict[str, int]:
        """The amount fields that are set, ``{name: cents}`` (the API shows them as EUR)."""
        return {f.name: getattr(self, f.name) for f in _own_fields(type(self))
                if field_kind(f) == CENTS and type(getattr(self, f.name)) is int}

    @property
    def seat_number(self) -> int | None:
        """The seat the event is about, or ``None`` for a table event (``reveal``, ``burn``, ``taxe``)."""
        value = getattr(self, "seat", None)
        return value if type(value) is int else None


#: Each event class's fields (not ``nulls``/``meta``), in declared order; filled by :class:`EventCatalogue`.
_FIELDS: dict[type[Event], tuple[dataclasses.Field[Any], ...]] = {}


def _own_fields(cls: type[Event]) -> tuple[dataclasses.Field[Any], ...]:
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = tuple(f for f in dataclasses.fields(cls) if f.name not in ("nulls", "meta"))
        _FIELDS[cls] = fields
    return fields


# --- cards ----------------------------------------------------------------------------------------------------

_CARD_TEXT: dict[str, str] = {}


def _token(token: str) -> str | None:
    """One token in canonical text (``"as"`` -> ``"As"``, ``"XX"`` -> ``"??"``), or ``None`` if it is no card."""
    known = _CARD_TEXT.get(token)
    if known is not None:
        return known
    if token in UNKNOWN_TOKENS:
        return "??"
    try:
        out = str(parse_card(token))
    except RuleViolation:
        return None
    if len(_CARD_TEXT) < 10_000:
        _CARD_TEXT[token] = out
    return out


def _standard(tokens: Iterable[Any]) -> list[str] | None:
    out: list[str] = []
    for t in tokens:
        if not isinstance(t, str):
            return None
        card = _token(t)
        if card is None and len(t) > 3 and len(t) % 2 == 0:  # "AsKd" (PHH style): two-character cards
            pieces = [_token(t[k:k + 2]) for k in range(0, len(t), 2)]
            if None in pieces or "??" in pieces:
                return None
            out.extend(p for p in pieces if p is not None)
            continue
        if card is None:
            return None
        out.append(card)
    return out


def _german(value: str | list[Any] | tuple[Any, ...]) -> list[str] | None:
    """Forty-one's double-German names (``"Herz Ass, Eichel Ober"``, a list of names, ``"?? Herz Ass"``):
    the named cards in canonical text, then one ``??`` per unseen card (Forty-one counts them, B.4)."""
    if isinstance(value, str):
        sep = "," if "," in value else None
        pieces = [p.strip() for p in (value.replace(";", ",").split(",") if sep else value.split()) if p.strip()]
        if sep is None:  # "?? Herz Ass": unknown tokens apart, the rest one name list
            unseen = sum(p in UNKNOWN_TOKENS for p in pieces)
            named = " ".join(p for p in pieces if p not in UNKNOWN_TOKENS)
            pieces = [named] if named else []
        else:
            unseen = sum(p in UNKNOWN_TOKENS for p in pieces)
            pieces = [p for p in pieces if p not in UNKNOWN_TOKENS]
    else:
        if not all(isinstance(p, str) for p in value):
            return None
        unseen = sum(p in UNKNOWN_TOKENS for p in value)
        pieces = [p for p in value if p not in UNKNOWN_TOKENS]
    out: list[str] = []
    for piece in pieces:
        standard = _standard(piece.split())
        if standard is not None and "??" not in standard:
            out.extend(standard)
            continue
        words = piece.split()
        try:
            if len(words) > 2 and len(words) % 2 == 0:
                out.extend(str(parse_german_card(" ".join(words[k:k + 2]))) for k in range(0, len(words), 2))
            else:
                out.append(str(parse_german_card(piece)))
        except RuleViolation:
            return None
    return out + ["??"] * unseen


_SEPARATORS = re.compile(r"[\s,]+")


def canonical_cards(value: Any, *, german: bool = False) -> Any:
    """``"as kd xx"`` / ``["A♠", "Kd"]`` / ``"AsKd"`` -> ``"As Kd ??"``; with ``german`` (Forty-one's
    double-German pack) also German names. Anything that is not cards (a number, a misspelt token) is
    returned as given, for the engine to refuse in its own words."""
    if isinstance(value, str):
        if value in _CARD_TEXT:
            return _CARD_TEXT[value]
        tokens: list[Any] = [t for t in _SEPARATORS.split(value) if t]
    elif isinstance(value, list | tuple):
        tokens = list(value)
    else:
        return value
    out = _standard(tokens)
    if out is None and german and isinstance(value, str | list | tuple):
        out = _german(value)
    return value if out is None else " ".join(out)


# --- the parser -----------------------------------------------------------------------------------------------


def _form_error(kind: Any, reason: str) -> UnknownEvent:
    return UnknownEvent(gettext_noop("%(kind)s event: %(reason)s", kind=event_name(str(kind)), reason=reason))


class EventCatalogue:
    """The event types of one game and the one parser of its wire form.

    ``types``: the game's :class:`Event` subclasses; ``seat_text``: a seat may be sent as digits
    (``"3"``, Capsa); ``german``: given the engine config (or a state holding it as ``config``/``cfg``),
    whether cards may be written as double-German names (Forty-one, B.2).
    """

    def __init__(self, game: str, types: Iterable[type[Event]], *, seat_text: bool = False,
                 german: Callable[[Any], bool] | None = None) -> None:
        self.game = game
        self.types: dict[str, type[Event]] = {}
        for cls in types:
            if not cls.TYPE or cls.TYPE in self.types:
                raise ValueError(f"{game}: event type {cls.TYPE!r} is empty or declared twice")
            self.types[cls.TYPE] = cls
        self.seat_text = seat_text
        self._german = german
        self._fields = {kind: _own_fields(cls) for kind, cls in self.types.items()}
        self._names = {kind: frozenset(f.name for f in fields) for kind, fields in self._fields.items()}
        self._required = {kind: frozenset(f.name for f in fields if f.metadata.get("required"))
                          for kind, fields in self._fields.items()}
        #: Per event type, every key it takes without a closer look: its fields, ``type`` and ``note`` (the
        #: fast path of :meth:`check_fields`, ``allowed[kind].issuperset(event)``).
        self.allowed: dict[str, frozenset[str]] = {kind: names | {"type"} | META_KEYS for kind, names in self._names.items()}

    def fields(self, kind: str) -> frozenset[str]:
        """The keys event type ``kind`` takes besides ``type`` (``note`` and ``_`` keys always pass)."""
        return self._names[kind]

    def required(self, kind: str) -> frozenset[str]:
        """The keys event type ``kind`` must carry (the others of :meth:`fields` are optional)."""
        return self._required[kind]

    def check_fields(self, event: Mapping[Any, Any], kind: str,
                     refuse: Callable[[str, list[Any], Mapping[Any, Any]], RuleViolation] | None = None) -> None:
        """The one field check of every game: raise unless event type ``kind`` takes every key of ``event``
        (its fields, ``type``, ``note`` and keys starting with ``_``). ``refuse(kind, keys, event)`` words
        the refusal, ``keys`` being the keys it does not take in the event's order; by default the
        parser's :class:`~rules.engines.errors.UnknownEvent` naming the first of them. Each engine keeps
        its own words (they name the seat, the field) but not its own check."""
        allowed = self.allowed[kind]
        if allowed.issuperset(event):
            return
        extra = [k for k in event if k not in allowed and not (isinstance(k, str) and k.startswith("_"))]
        if extra:
            raise (refuse or self._refuse_field)(kind, extra, event)

    def _refuse_field(self, kind: str, extra: list[Any], event: Mapping[Any, Any]) -> RuleViolation:
        return _form_error(kind, gettext_noop("it does not take %(key)s (it takes: %(takes)s)", key=repr(extra[0]),
                                              takes=", ".join(sorted(self._names[kind])) or "nothing"))

    def missing(self, event: Mapping[Any, Any], kind: str) -> list[str]:
        """The required keys of event type ``kind`` that ``event`` lacks, sorted (a key sent as ``null`` is
        there: the engines tell an explicit ``null`` from a missing key)."""
        required = self._required[kind]
        return sorted(required - event.keys()) if required else []

    def money_fields(self, kind: str) -> frozenset[str]:
        """The keys of event type ``kind`` that hold integer cents (empty for an unknown type)."""
        return frozenset(f.name for f in self._fields.get(kind, ()) if field_kind(f) == CENTS)

    def german_cards(self, context: Any) -> bool:
        """True if cards may be written as double-German names under ``context`` (a config or a state)."""
        if self._german is None or context is None:
            return False
        return self._german(context)

    def parse(self, raw: Any, *, context: Any = None) -> Event:
        """The typed event of ``raw`` (a JSON object), cards in canonical text; ``context`` (the engine
        config or a state) says whether German card names are read (:meth:`german_cards`).

        Raises :class:`~rules.engines.errors.UnknownEvent` for a form no engine accepts: not an object, an
        unknown ``type``, a key the type does not take, a required key missing, a seat that is not a seat
        number, an amount that is not whole cents (an int >= 0).
        """
        if not isinstance(raw, Mapping):
            raise UnknownEvent(gettext_noop("an event must be an object with a \"type\", got %(type_name)s",
                                            type_name=type(raw).__name__))
        kind = raw.get("type")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise UnknownEvent(gettext_noop("unknown event type %(kind)s; expected one of %(event_types)s",
                                            kind=repr(kind), event_types=", ".join(sorted(self.types))))
        assert isinstance(kind, str)
        self.check_fields(raw, kind)  # the one field check
        names = self._names[kind]
        values: dict[str, Any] = {}
        nulls: list[str] = []
        meta: list[tuple[str, Any]] = []
        german = None
        for key, value in raw.items():
            if key == "type":
                continue
            if key in names:
                if value is None:
                    nulls.append(key)
                else:
                    values[key] = value
            else:  # ``note`` or a ``_`` key (check_fields)
                meta.append((key, value))
        missing = self.missing(raw, kind)
        if missing:
            raise _form_error(kind, gettext_noop("%(key)s is missing", key=repr(missing[0])))
        for f in self._fields[kind]:
            if f.name not in values:
                continue
            value = values[f.name]
            what = field_kind(f)
            if what == SEAT:  # the one seat check (rules.core.seats.seat_number)
                seat = seat_number(value, digits=self.seat_text)
                if seat is None:
                    raise _form_error(kind, gettext_noop("'seat' must be a seat number, got %(value)s",
                                                        value=repr(value)))
                value = seat
            elif what == CENTS:
                if type(value) is not int or value < 0:
                    raise _form_error(kind, gettext_noop("%(key)s must be whole cents (an int >= 0), got %(value)s",
                                                        key=repr(f.name), value=repr(value)))
            elif what == CARDS:
                if german is None:
                    german = self.german_cards(context)
                value = canonical_cards(value, german=german)
            values[f.name] = value
        if nulls:
            values["nulls"] = frozenset(nulls)
        if meta:
            values["meta"] = tuple(sorted(meta, key=lambda kv: kv[0]))
        return cls(**values)

    def record(self, raw: Any, *, context: Any = None) -> dict[str, Any]:
        """``parse(raw, context=context).record()``: the canonical record of a wire event."""
        return self.parse(raw, context=context).record()

    def build(self, kind: str, **fields: Any) -> Event:
        """The typed event of type ``kind`` from keyword fields (``build("bet", seat=3, to=1000)``), checked
        as :meth:`parse` checks the wire form."""
        return self.parse({"type": kind, **fields})
