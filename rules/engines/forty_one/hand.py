"""The Forty-one entry points: :func:`apply`, :func:`verify`, :func:`can_apply`, :func:`replay`, the
settlement and the next Spitz (B.4 step 1, B.4b).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.core.seats import next_clockwise
from rules.engines.base import Settlement
from rules.engines.errors import (
    HandComplete,
    IllegalAction,
    RuleViolation,
)
from rules.engines.forty_one.betting import _call, _check, _fold, _wager
from rules.engines.forty_one.dealing import _ante, _blind, _deal, _expose
from rules.engines.forty_one.parsing import _check_shape
from rules.engines.forty_one.showdown import _misdeal, _muck, _show
from rules.engines.forty_one.state import FortyOneState, new_hand
from rules.engines.forty_one_config import FortyOneConfig
from rules.engines.messages import event_name, gettext_noop


def apply(state: FortyOneState, event: Mapping[str, Any]) -> FortyOneState:
    """Return the state after ``event`` (see the module docstring for the event shapes).

    Raises (the given ``state`` is never changed): :class:`UnknownEvent` (bad type or field),
    :class:`HandComplete`, :class:`OutOfTurn`, :class:`IllegalAction`, :class:`InvalidAmount`,
    :class:`InvalidCard`, :class:`DuplicateCard`, :class:`WrongCardCount`.
    """
    kind = _check_shape(event)
    if state.complete:
        raise HandComplete(gettext_noop("the hand is over; %(kind)s is not accepted (start the next hand)", kind=event_name(kind)))
    new = state.clone()
    stored = _HANDLERS[kind](new, dict(event))
    new.events = (*state.events, stored)
    return new


def verify(state: FortyOneState, event: Mapping[str, Any]) -> None:
    """Raise the :class:`RuleViolation` that :func:`apply` would raise for ``event``; else return None."""
    apply(state, event)


def can_apply(state: FortyOneState, event: Mapping[str, Any]) -> bool:
    """True if ``event`` is legal now (:func:`verify` would not raise)."""
    try:
        apply(state, event)
    except RuleViolation:
        return False
    return True


def replay(config: FortyOneConfig, seats: Mapping[int, int], events: Iterable[Mapping[str, Any]], *,
           button: int) -> FortyOneState:
    """Rebuild a hand from its events (DESIGN.md: the service stores events, never state).

    Same result and errors as folding :func:`apply` over the events, but the private state is updated
    in place (nobody else holds it, and it is dropped when an event raises), so nothing is copied: not the
    state, and not an event that is already a ``dict`` (the handlers only read the event they are given).
    """
    state = new_hand(config, seats, button=button)
    stored_events = list(state.events)
    append = stored_events.append
    handlers = _HANDLERS
    for event in events:
        kind = _check_shape(event)
        if state.phase == "complete":
            raise HandComplete(gettext_noop("the hand is over; %(kind)s is not accepted (start the next hand)", kind=event_name(kind)))
        append(handlers[kind](state, event if type(event) is dict else dict(event)))
    state.events = tuple(stored_events)
    return state


def is_complete(state: FortyOneState) -> bool:
    """True once the hand has ended (showdown, uncontested win or misdeal) and can be settled."""
    return state.complete


def settlement(state: FortyOneState) -> Settlement:
    """The money result of a complete hand (B.4 steps 8-9, B.4a, B.5, B.6).

    ``contributions``: antes, blind and bets per seat; ``returned``: uncalled bets (and everything after
    a misdeal); ``awards``: pot winnings after tax; ``tax``: the B.5 tax; ``bonus``: the 41 payment owed
    by the house (B.6); ``pots``/``pot_awards``: per pot, main pot first; ``winners``: pot winners, the
    main pot's first. Raises :class:`IllegalAction` while the hand is still running.
    """
    if not state.complete or state.result is None:
        raise IllegalAction(gettext_noop("the hand is not finished yet; there is no settlement"))
    return state.result


_HANDLERS = {
    "ante": _ante, "blind": _blind, "deal": _deal, "check": _check, "call": _call, "fold": _fold,
    "bet": _wager, "raise": _wager, "expose": _expose, "show": _show, "muck": _muck, "misdeal": _misdeal,
}


def next_button(occupied: Sequence[int], current: int) -> int:
    """The forehand (Spitz) of the next hand: the next occupied seat clockwise after ``current``,
    skipping empty seats (B.4 step 1). ``current`` need not be occupied any more.

    Raises :class:`IllegalAction` if no seat is occupied.
    """
    seats = sorted(set(occupied))
    if not seats:
        raise IllegalAction(gettext_noop("no occupied seat to pass the Spitz to (B.4 step 1)"), rule="B.4")
    return next_clockwise(seats, current)


def next_forehand(state: FortyOneState, occupied: Sequence[int]) -> int:
    """The Spitz after ``state``'s hand: unchanged after a misdeal (B.4b), else :func:`next_button`."""
    if state.misdeal:
        return state.forehand
    return next_button(occupied, state.forehand)
