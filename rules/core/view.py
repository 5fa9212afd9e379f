"""The one typed view of a hand, the same shape for every game (issue 14); the croupier's screen reads it.

Every registered game builds it from its state (``GameSpec.hand_view(state)``; the hand service's
``hand_view(hand=...)``). Money is int cents throughout; seats are table seat numbers (ints).

Shape (``HandView.as_dict()`` gives the same as JSON-able dicts and lists)::

    HandView
      game            registry name ("seven_card_stud", "razz", "seven_card_stud_hi_lo", "forty_one", "capsa_susun")
      phase           the engine's phase ("ante", "deal", "betting", "round1", "set", "showdown", "complete" ...)
      street          stud street 3..7, Forty-one round 1/2, else None
      expect          what the croupier logs next ("ante", "deal", "action", "show", "set" ...; None when complete)
      to_act          the seat to act, or None (several seats may act at once: see legal_actions)
      button          the button (stud, Capsa) or forehand/Spitz (Forty-one) seat
      seats           one SeatView per seat in the hand, by seat number:
                        seat, stack (behind; once complete what the seat takes home), in_pot (put in this hand, returned chips taken off),
                        round_bet (this street/round), folded, all_in, up_cards (shown cards, "As"),
                        down_cards (face-down cards held, named or "??")
      legal_actions   one LegalAction per (kind, seat) legal now:
                        kind   the event type to log ("bet", "raise", "complete", "call", "check", "fold",
                               "ante", "blind", "bring_in", "deal", "show", "muck", "set", ...)
                        seat   who (None for a table event such as "deal_community" or "reveal")
                        to     wagers (bet/raise/complete): the seat's total for the round after it
                        add    the chips this action puts in now (ante, blind, bring-in, call, and wagers:
                               to minus the seat's round bet); None when it moves no chips
                        max_to / max_add   the top of a spread-limit range (equal to to/add when fixed)
                        choices  every allowed ``to`` when a split limit leaves a choice (open pair, R6.4)
                        cards  how many cards a "deal" needs, else None
      pots            PotView(amount, eligible seats), main pot first; the house take already out
      house_take      the house's take so far (stud Taxe, Forty-one tax; Capsa fee once settled), cents
      house_take_kind "taxe" | "tax" | "fee"
      complete        True once the hand is over
      outcome         None until complete, then an Outcome:
                        void (misdeal: everything returned), pots, awards ((pot index, seat, cents), ...),
                        won / returned / fees / bonus / net by seat, house_take
      extra           the game's own details (stud: raises_left, bring_in_seat, community; Forty-one:
                        raises_left, unit and level in cents; Capsa: awaiting)

Which of these values are cents is declared once, :data:`VIEW_MONEY` (``extra``: the game's ``answer_money``).

Pure Python (no Django), frozen dataclasses with ``slots``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["VIEW_MONEY", "AnswerMoney", "HandView", "LegalAction", "Outcome", "PotView", "SeatView", "outcome_of",
           "pots_of"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of the hand (money in cents): see the module docstring."""

    seat: int
    stack: int
    in_pot: int
    round_bet: int = 0
    folded: bool = False
    all_in: bool = False
    up_cards: tuple[str, ...] = ()
    down_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One action legal now (money in cents): ``to`` a wager's round total, ``add`` the chips it puts in;
    ``max_to``/``max_add`` the top of a spread-limit range; ``choices`` the allowed totals of a split-limit
    choice; ``cards`` the number of cards a deal needs."""

    kind: str
    seat: int | None
    to: int | None = None
    add: int | None = None
    max_to: int | None = None
    max_add: int | None = None
    choices: tuple[int, ...] = ()
    cards: int | None = None


@dataclass(frozen=True, slots=True)
class PotView:
    """A pot in cents and the seats that may win it (main pot first)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished hand ended (cents by seat); ``void`` for a misdeal (every chip returned)."""

    void: bool
    pots: tuple[PotView, ...]
    awards: tuple[tuple[int, int, int], ...]
    won: Mapping[int, int]
    returned: Mapping[int, int]
    fees: Mapping[int, int]
    bonus: Mapping[int, int]
    net: Mapping[int, int]
    house_take: int


@dataclass(frozen=True, slots=True)
class HandView:
    """The croupier's typed view of a hand, the same for every game (module docstring)."""

    game: str
    phase: str
    street: int | None
    expect: str | None
    to_act: int | None
    button: int | None
    seats: tuple[SeatView, ...]
    legal_actions: tuple[LegalAction, ...]
    pots: tuple[PotView, ...]
    house_take: int
    house_take_kind: str
    complete: bool
    outcome: Outcome | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The view as JSON-able dicts and lists (seat-keyed maps keep int keys; tuples become lists).

        Walks the frozen dataclasses field by field (what ``dataclasses.asdict`` gives, without its deep copy:
        every value here is immutable): an API answer renders it on every logged action (issue 14)."""
        out: dict[str, Any] = _jsonable(self)
        return out

    def actions_for(self, seat: int | None) -> tuple[LegalAction, ...]:
        """The legal actions of ``seat`` (``None``: the table's own, e.g. a community card)."""
        return tuple(a for a in self.legal_actions if a.seat == seat)


@dataclass(frozen=True, slots=True)
class AnswerMoney:
    """Which values of a game's engine answer (``engine.view(state)``, the API's ``state``) are integer
    cents, declared by the game (``GameSpec.answer_money``) so the edge shows them as EUR without guessing
    from key names: ``scalars``: keys whose int value is cents, at any depth (``"tax"``, a legal action's
    ``"min"``/``"max"``, a pot's ``"amount"``); ``maps``: keys whose value maps seats to cents
    (``"stacks"``); ``lists``: keys whose value is a list of cents (``"amounts"``); ``rows``: keys whose
    value is a list of ``[pot, seat, cents]`` rows (stud's ``"pot_awards"``). Seats, counts, units of a
    Capsa payment and everything else are not money."""

    scalars: frozenset[str] = frozenset()
    maps: frozenset[str] = frozenset()
    lists: frozenset[str] = frozenset()
    rows: frozenset[str] = frozenset()


#: The cents of the view itself (``HandView.as_dict()``), for an edge that shows money as EUR: a seat's
#: ``stack``/``in_pot``/``round_bet``, a legal action's ``to``/``add``/``max_to``/``max_add`` and its
#: ``choices``, a pot's ``amount``, ``house_take`` (the view's and the outcome's), the outcome's seat maps
#: ``won``/``returned``/``fees``/``bonus``/``net`` and the cents of its ``awards`` rows. Seats, streets,
#: counts and flags are not money. ``extra`` is the game's own: its money is the game's ``answer_money``.
VIEW_MONEY = AnswerMoney(
    scalars=frozenset({"stack", "in_pot", "round_bet", "to", "add", "max_to", "max_add", "amount", "house_take"}),
    maps=frozenset({"won", "returned", "fees", "bonus", "net"}),
    lists=frozenset({"choices"}),
    rows=frozenset({"awards"}),
)


def _jsonable(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: _jsonable(getattr(value, name)) for name in names}
    if kind is tuple and all(type(v) is str for v in value):  # cards
        return list(value)
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


_ATOMS = frozenset({str, int, bool, float, type(None)})
#: The fields of the view's dataclasses, in order (what :meth:`HandView.as_dict` walks).
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(cls.__dataclass_fields__) for cls in (HandView, SeatView, LegalAction, PotView, Outcome)}


def pots_of(pots: Sequence[Any]) -> tuple[PotView, ...]:
    """Pots given as ``{"amount", "eligible"}`` dicts, ``Pot`` objects or ``(amount, eligible)`` pairs; each
    pot's eligible seats by seat number (the engines keep them in their own order, e.g. clockwise)."""
    out = []
    for pot in pots:
        if isinstance(pot, Mapping):
            out.append(PotView(int(pot["amount"]), tuple(sorted(int(s) for s in pot["eligible"]))))
        elif isinstance(pot, tuple):
            out.append(PotView(int(pot[0]), tuple(sorted(int(s) for s in pot[1]))))
        else:
            out.append(PotView(int(pot.amount), tuple(sorted(int(s) for s in pot.eligible))))
    return tuple(out)


def outcome_of(settlement: Any, *, void: bool = False) -> Outcome:
    """The :class:`Outcome` of a :class:`~rules.engines.base.Settlement` (cents by seat)."""
    fees = dict(settlement.fees)
    return Outcome(
        void=void,
        pots=pots_of(settlement.pots),
        awards=tuple((int(k), int(s), int(a)) for k, s, a in settlement.pot_awards),
        won=dict(settlement.awards),
        returned=dict(settlement.returned),
        fees=fees,
        bonus=dict(settlement.bonus),
        net=dict(settlement.net),
        house_take=int(settlement.tax) + sum(fees.values()),
    )
