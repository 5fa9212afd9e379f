"""The events of the stud games (Seven Card Stud, Razz, Seven Card Stud Hi-Lo), one frozen dataclass each
(:mod:`rules.engines.events`; the rules named are ``docs/rules/seven_card_stud.md``'s). Amounts in cents."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engines.events import Event, EventCatalogue, cards_field, cents_field, seat_field, text_field

__all__ = ["CATALOGUE"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ante(Event):
    """A seat posts its ante (R3.3); ``amount``, if given, must be the ante due."""

    TYPE = "ante"
    seat: int = seat_field()
    amount: int | None = cents_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Burn(Event):
    """A burn card before a street (R1.3), named if the croupier saw it."""

    TYPE = "burn"
    card: str | None = cards_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    """Cards dealt to a seat (R1.3): ``"?? ?? Kd"``; ``face`` ``up``/``down`` for an irregular deal (R12.2)."""

    TYPE = "deal"
    seat: int = seat_field()
    cards: str = cards_field()
    face: str | None = text_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealCommunity(Event):
    """The one community card when the deck runs short on 7th street (R9.3)."""

    TYPE = "deal_community"
    card: str = cards_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class BringIn(Event):
    """The forced bring-in (R4)."""

    TYPE = "bring_in"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Complete(Event):
    """Completing the bring-in to a full bet (R4): ``to`` the seat's street total after it."""

    TYPE = "complete"
    seat: int = seat_field()
    to: int = cents_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Bet(Event):
    """A bet (R6): ``to`` the seat's street total after it."""

    TYPE = "bet"
    seat: int = seat_field()
    to: int = cents_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Raise(Event):
    """A raise (R6): ``to`` the seat's street total after it."""

    TYPE = "raise"
    seat: int = seat_field()
    to: int = cents_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(Event):
    """A call (R6); the engine computes the chips."""

    TYPE = "call"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Check(Event):
    """A check (R6)."""

    TYPE = "check"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Event):
    """A fold (R6)."""

    TYPE = "fold"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Taxe(Event):
    """The Taxe as taken (R8); ``amount``, if given, must be the Taxe due."""

    TYPE = "taxe"
    amount: int | None = cents_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Event):
    """A seat shows at the showdown (R11.2); ``cards`` all its cards (the down cards named)."""

    TYPE = "show"
    seat: int = seat_field()
    cards: str | None = cards_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Event):
    """A seat gives up its hand at the showdown (R11.2)."""

    TYPE = "muck"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Misdeal(Event):
    """A misdeal: every chip goes back (R12.1)."""

    TYPE = "misdeal"
    reason: str | None = text_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardExposed(Event):
    """A down card exposed by the dealer (R12.2)."""

    TYPE = "card_exposed"
    seat: int = seat_field()
    card: str = cards_field()


CATALOGUE = EventCatalogue("seven_card_stud", (
    Ante, Burn, Deal, DealCommunity, BringIn, Complete, Bet, Raise, Call, Check, Fold, Taxe, Show, Muck, Misdeal,
    CardExposed,
))
