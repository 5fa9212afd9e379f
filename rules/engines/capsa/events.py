"""The events of Capsa Susun, one frozen dataclass each (:mod:`rules.engines.events`; the rules named are
``docs/rules/capsa_susun.md``'s). Capsa moves no chips by event: there are no amount fields."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engines.events import Event, EventCatalogue, cards_field, seat_field, text_field

__all__ = ["CATALOGUE"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    """A seat's 13 cards (A.2), or 13 ``??`` dealt face down unseen (A.5.1)."""

    TYPE = "deal"
    seat: int = seat_field()
    cards: str = cards_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareNatural(Event):
    """A natural declared (A.8): its name, and the 13 cards when they were dealt unseen."""

    TYPE = "declare_natural"
    seat: int = seat_field()
    natural: str | None = text_field(required=False)
    cards: str | None = cards_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Set(Event):
    """A seat's three rows (A.2, A.4): 3 cards in front, 5 in the middle, 5 in the back."""

    TYPE = "set"
    seat: int = seat_field()
    front: str = cards_field()
    middle: str = cards_field()
    back: str = cards_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout(Event):
    """A seat's time to set ran out (A.5.3)."""

    TYPE = "timeout"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Surrender(Event):
    """A seat surrenders (A.9)."""

    TYPE = "surrender"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Event):
    """A seat plays on in the surrender round (A.9)."""

    TYPE = "play"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareRoyalty(Event):
    """A royalty announced for a row (A.7)."""

    TYPE = "declare_royalty"
    seat: int = seat_field()
    row: str = text_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(Event):
    """The hands are turned and the deal is settled (A.5)."""

    TYPE = "reveal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Misdeal(Event):
    """A misdeal: the deal is void (A.5.1)."""

    TYPE = "misdeal"
    reason: str | None = text_field(required=False)


CATALOGUE = EventCatalogue("capsa_susun", (
    Deal, DeclareNatural, Set, Timeout, Surrender, Play, DeclareRoyalty, Reveal, Misdeal,
), seat_text=True)
