"""The contract every game engine keeps, so the services can treat the three games alike.

DESIGN.md: a hand is its config plus its event list; replaying the events always yields the same
state; the service stores events, never engine state. Each game module (``stud``, ``forty_one``,
``capsa``) exposes one object satisfying :class:`GameEngine`, registered in
:mod:`rules.engines.registry`.

Conventions shared by all engines:

* Amounts are ``int`` cents everywhere inside (events, state, settlement).
* An event is a JSON-able ``dict`` with a ``"type"`` key (``"ante"``, ``"deal"``, ``"bet"``, ...)
  and the game's fields; seats are ints, cards are canonical strings (``"As Td"``), amounts cents.
* ``apply`` never mutates its input state; on a rule breach it raises a ``RuleViolation`` subclass
  and the caller's state is unchanged (verify / can / act, STYLE.md rule 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Pot:
    """One pot (main or side). ``amount`` in cents; ``eligible`` the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class PairTransfer:
    """A Capsa pairwise payment: ``payer`` pays ``payee`` ``amount`` cents (``units`` × pair stake)."""

    payer: int
    payee: int
    units: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """The money result of a finished hand or deal; everything in cents, keyed by seat.

    ``contributions``: what each seat put in (antes, blinds, bets; Capsa: what it paid to others).
    ``returned``: uncalled bets given back. ``awards``: what each seat won from pots (Capsa: what it
    received from others). ``pot_awards``: per pot, ``(pot_index, seat, cents)``.
    ``tax``: house revenue taken from the pot(s) (stud Taxe, Forty-one tax).
    ``fees``: house fee paid by each seat on top (Capsa commission / per-seat / time fee).
    ``bonus``: what the house pays each seat (Forty-one 41 bonus); a house expense.
    ``net``: each seat's result = awards + returned + bonus - contributions - fees.

    Invariant (asserted by :meth:`check_balanced`): sum(contributions) ==
    sum(awards) + sum(returned) + tax.
    """

    contributions: Mapping[int, int]
    awards: Mapping[int, int]
    returned: Mapping[int, int] = field(default_factory=dict)
    tax: int = 0
    fees: Mapping[int, int] = field(default_factory=dict)
    bonus: Mapping[int, int] = field(default_factory=dict)
    pots: Sequence[Pot] = ()
    pot_awards: Sequence[tuple[int, int, int]] = ()
    transfers: Sequence[PairTransfer] = ()
    winners: Sequence[int] = ()

    @property
    def net(self) -> dict[int, int]:
        seats = set(self.contributions) | set(self.awards) | set(self.returned) | set(self.fees) | set(self.bonus)
        return {
            s: self.awards.get(s, 0) + self.returned.get(s, 0) + self.bonus.get(s, 0)
            - self.contributions.get(s, 0) - self.fees.get(s, 0)
            for s in sorted(seats)
        }

    def check_balanced(self) -> None:
        """Raise ``AssertionError`` unless chips in equal chips out plus tax, to the cent."""
        chips_in = sum(self.contributions.values())
        chips_out = sum(self.awards.values()) + sum(self.returned.values()) + self.tax
        if chips_in != chips_out:
            raise AssertionError(f"settlement unbalanced: in {chips_in} != out {chips_out}")


class GameEngine(Protocol):
    """What the tables and accounting services need from an engine.

    ``game`` is the registry name: ``"seven_card_stud"``, ``"forty_one"`` or ``"capsa_susun"``.
    """

    game: str

    def build_config(self, raw: Mapping[str, Any]) -> Any:
        """Build the typed, validated config from the spec's keys (money as EUR strings/Decimal).

        Raises ``ConfigError`` whose ``field`` names the bad key.
        """

    def config_to_dict(self, config: Any) -> dict[str, Any]:
        """The JSON-able raw form of a config (round-trips through ``build_config``)."""

    def new_hand(self, config: Any, seats: Mapping[int, int], *, button: int) -> Any:
        """Start a hand: ``seats`` maps seat number to starting stack in cents; ``button`` is the
        dealer button (stud, Capsa) or the forehand seat (Forty-one)."""

    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        """Return the new state after ``event``; raise ``RuleViolation`` and change nothing otherwise."""

    def view(self, state: Any) -> dict[str, Any]:
        """JSON-able answer for the croupier: ``street``/phase, ``to_act`` (seat or None),
        ``legal_actions`` (list of ``{"type", "min", "max"}`` in cents), ``pots``, ``tax``,
        ``stacks``, ``contributions``, ``complete``; at the end ``settlement``."""

    def is_complete(self, state: Any) -> bool:
        """True once the hand has ended and can be settled."""

    def settlement(self, state: Any) -> Settlement:
        """The money result of a complete hand; raises ``RuleViolation`` if not complete."""

    def next_button(self, occupied: Sequence[int], current: int) -> int:
        """The button / forehand seat for the next hand: one seat clockwise, skipping empty seats."""
