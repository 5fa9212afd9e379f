"""The state of a Capsa Susun deal (:class:`CapsaState`, immutable), :func:`new_hand` and the button (A.2,
A.5.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.seats import clockwise_after, next_clockwise
from rules.engines.capsa.events import CATALOGUE
from rules.engines.capsa_config import CapsaConfig
from rules.engines.errors import (
    ConfigError,
    IllegalAction,
)
from rules.engines.messages import Message, gettext_noop
from rules.engines.money import format_cents

GAME = "capsa_susun"


MIN_PLAYERS, MAX_PLAYERS = 2, 4


CARDS_PER_HAND = 13


EVENT_TYPES = ("deal", "declare_natural", "set", "timeout", "surrender", "play", "declare_royalty", "reveal",
               "misdeal")


#: Fields each event type may carry besides ``"type"``; ``"note"`` and keys starting with ``_`` are allowed
#: on every event (as in the Forty-one engine); anything else is refused so a typo is never stored
#: (:meth:`rules.engines.events.EventCatalogue.check_fields`, the one field check).
EVENT_FIELDS: dict[str, frozenset[str]] = {kind: CATALOGUE.fields(kind) for kind in CATALOGUE.types}


@dataclass(frozen=True)
class CapsaState:
    """An immutable Capsa deal. ``seats`` clockwise (ascending); ``hands`` seat -> its 13 dealt cards;
    ``naturals`` seat -> declared natural; ``settings`` seat -> {row: cards}; ``decisions`` seat ->
    ``"play"``/``"surrender"``; ``royalty_claims`` seat -> announced rows; ``phase`` one of
    ``deal set surrender reveal complete``."""

    config: CapsaConfig
    seats: tuple[int, ...]
    stacks: Mapping[int, int]
    button: int
    phase: str = "deal"
    hands: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    naturals: Mapping[int, str] = field(default_factory=dict)
    settings: Mapping[int, Mapping[str, tuple[int, ...]]] = field(default_factory=dict)
    timed_out: frozenset[int] = frozenset()
    decisions: Mapping[int, str] = field(default_factory=dict)
    royalty_claims: Mapping[int, frozenset[str]] = field(default_factory=dict)
    misdeal: str | None = None
    event_count: int = 0


def _evolve(state: CapsaState, **changes: Any) -> CapsaState:
    """A copy of ``state`` with ``changes`` (what ``dataclasses.replace`` does, without its per-call
    field introspection; every value is immutable or replaced whole, so a shallow copy is a copy)."""
    new = object.__new__(CapsaState)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new


def _moved_on(fresh: CapsaState, phase: str, **changes: Any) -> CapsaState:
    """``fresh`` in ``phase`` (and with ``changes``), set in place: only for a state a handler has just made
    with :func:`_evolve` and not yet returned (nobody else holds it), which saves a copy per phase change."""
    d = fresh.__dict__
    d.update(changes)
    d["phase"] = phase
    return fresh


def new_hand(config: CapsaConfig, seats: Mapping[int, int], *, button: int) -> CapsaState:
    """Start a deal for 2-4 seats (A.2); ``seats`` maps seat -> starting stack in cents; ``button``
    the dealer seat (the surrender round starts at its left, A.5).

    Raises :class:`ConfigError` for a wrong number of seats or a bad stack, and (``max_loss_policy=
    "require_cover"``) :class:`IllegalAction` for a seat whose stack is below ``cover_units`` x its
    largest pair stake x its number of opponents (A.6).
    """
    if not isinstance(config, CapsaConfig):
        raise ConfigError("config", gettext_noop("is not a Capsa config; build it with build_config"))
    if not (MIN_PLAYERS <= len(seats) <= MAX_PLAYERS):
        raise ConfigError("seats", gettext_noop("Capsa Susun is dealt to 2 to 4 players, not %(n_seats)s (A.2)", n_seats=len(seats)))
    for s, stack in seats.items():
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise ConfigError("seats", gettext_noop("seat %(s)s is not a seat number", s=repr(s)))
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
            raise ConfigError("seats", gettext_noop("seat %(s)s: stack %(stack)s is not a whole number of cents >= 0", s=s, stack=repr(stack)))
    order = tuple(sorted(seats))
    if config.unit_value is None:  # with a unit value every pair has a stake; else each needs its own
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                config.stake(a, b)  # raises ConfigError when no unit value applies
    if config.max_loss_policy == "require_cover":
        for s in order:
            largest = max(config.stake(s, o) for o in order if o != s)
            need = config.cover_units * largest * (len(order) - 1)
            if seats[s] < need:
                raise IllegalAction(
                    gettext_noop("seat %(seat)s cannot be dealt in: its stack %(stack)s is below the cover of %(need)s (%(cover_units)s units x %(largest)s x %(n_order)s opponents, A.6 require_cover)", seat=s, stack=format_cents(seats[s]), need=format_cents(need), cover_units=config.cover_units, largest=format_cents(largest), n_order=len(order) - 1), seat=s, rule="A.6", code="insufficient_cover")
    # the dataclass's own defaults, set at once (its generated __init__ sets each field through object.__setattr__)
    state = object.__new__(CapsaState)
    state.__dict__.update(config=config, seats=order, stacks=dict(seats), button=button, phase="deal", hands={},
                          naturals={}, settings={}, timed_out=frozenset(), decisions={}, royalty_claims={},
                          misdeal=None, event_count=0)
    return state


def next_button(occupied: Sequence[int], current: int) -> int:
    """The next button: the next occupied seat clockwise after ``current`` (A.5.1). After a misdeal the
    button does not move: the service keeps ``current`` (``view(state)["button_moves"]`` is false)."""
    if not occupied:
        raise ConfigError("seats", gettext_noop("no occupied seat for the button"))
    return next_clockwise(occupied, current)


def _surrender_order(state: CapsaState) -> list[int]:
    return [s for s in clockwise_after(state.seats, state.button)
            if s in state.settings]


def _setters(state: CapsaState) -> list[int]:
    return [s for s in state.seats if s not in state.naturals]


def is_complete(state: CapsaState) -> bool:
    """True once the deal is settled (after the reveal) or void (misdeal)."""
    return state.phase == "complete"


def _expected_words(state: CapsaState) -> Message:
    """What the deal waits for, in words naming the seats (a refusal's reason; ``_expect`` is its code)."""
    def seats(numbers: Sequence[int]) -> str:
        return ", ".join(str(n) for n in numbers)

    if state.phase == "deal":
        waiting = [s for s in clockwise_after(state.seats, state.button) if s not in state.hands]
        return gettext_noop("the cards of seat(s) %(seats)s are still to be logged", seats=seats(waiting))
    if state.phase == "set":
        waiting = [s for s in clockwise_after(state.seats, state.button)
                   if s not in state.naturals and s not in state.settings and s not in state.timed_out]
        return gettext_noop("seat(s) %(seats)s still have to set their hands", seats=seats(waiting))
    if state.phase == "surrender":
        due = next(s for s in _surrender_order(state) if s not in state.decisions)
        return gettext_noop("seat %(seat)s has to play or surrender first", seat=due)
    if state.phase == "reveal":
        return gettext_noop("the hands are to be revealed")
    return gettext_noop("the deal is over")


def _expect(state: CapsaState) -> str:
    return {"deal": "deal", "set": "set", "surrender": "surrender", "reveal": "reveal",
            "complete": "nothing (complete)"}[state.phase]
