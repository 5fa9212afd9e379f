"""The events of Forty-one, one frozen dataclass each (:mod:`rules.engines.events`; the rules named are
``docs/rules/forty_one.md``'s). Amounts in cents; with the double-German pack (B.2) cards may be sent
as German names and are recorded as ``"Ah Qc"``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engines.events import Event, EventCatalogue, cards_field, cents_field, seat_field, text_field

__all__ = ["CATALOGUE"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ante(Event):
    """A seat posts its ante (B.4 step 2); ``amount``, if given, must be the ante due."""

    TYPE = "ante"
    seat: int = seat_field()
    amount: int | None = cents_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Blind(Event):
    """The forehand's blind (B.4 step 2); ``amount``, if given, must be the blind due."""

    TYPE = "blind"
    seat: int = seat_field()
    amount: int | None = cents_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    """Two cards dealt to a seat (B.4 steps 3-4), ``??`` for one dealt face down unseen."""

    TYPE = "deal"
    seat: int = seat_field()
    cards: str = cards_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Check(Event):
    """A check (B.4)."""

    TYPE = "check"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(Event):
    """A call (B.4); ``amount``, if given, must be the chips the call puts in."""

    TYPE = "call"
    seat: int = seat_field()
    amount: int | None = cents_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Event):
    """A fold (B.4)."""

    TYPE = "fold"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Bet(Event):
    """A bet: ``to`` the seat's total in this round after it (B.4)."""

    TYPE = "bet"
    seat: int = seat_field()
    to: int = cents_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Raise(Event):
    """A raise: ``to`` the seat's total in this round after it (B.4)."""

    TYPE = "raise"
    seat: int = seat_field()
    to: int = cents_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Expose(Event):
    """The two cards a seat turns up before round 2 (B.4 step 4)."""

    TYPE = "expose"
    seat: int = seat_field()
    cards: str = cards_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Event):
    """A seat shows at the showdown (B.4 step 7); ``cards`` names the cards not yet seen."""

    TYPE = "show"
    seat: int = seat_field()
    cards: str | None = cards_field(required=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Event):
    """A seat gives up its hand at the showdown."""

    TYPE = "muck"
    seat: int = seat_field()


@dataclass(frozen=True, slots=True, kw_only=True)
class Misdeal(Event):
    """A misdeal: every chip goes back, the forehand stays (B.4b)."""

    TYPE = "misdeal"
    reason: str | None = text_field(required=False)


def _german_pack(context: Any) -> bool:
    config = getattr(context, "config", context)
    deck = config.get("deck") if isinstance(config, dict) else getattr(config, "deck", None)
    return deck == "double_german"


CATALOGUE = EventCatalogue("forty_one", (
    Ante, Blind, Deal, Check, Call, Fold, Bet, Raise, Expose, Show, Muck, Misdeal,
), german=_german_pack)
