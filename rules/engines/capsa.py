"""Capsa Susun (13-card Chinese poker) deal engine and showdown tool (spec ``capsa_susun.md``, A.1-A.13).

A deal is config + seats + ordered events (DESIGN.md). Players settle with each other pair by pair
(A.6); the house only takes a fee (A.11). Seats are ints; clockwise means ascending seat numbers,
wrapping round; the button is the dealer seat and the surrender round starts at its left (A.5).

Phases and events (``view(state)["expect"]`` names what comes next)
-------------------------------------------------------------------
``deal``
    ``{"type": "deal", "seat": s, "cards": "13 cards"}`` once per seat, any order (A.2, A.5.1).
    Cards dealt face down and not seen may be logged as 13 ``??``: the seat's ``set`` (or its
    ``declare_natural`` with ``"cards"``) names them later, checked against every card already seen;
    not where ``natural_declaration="auto"`` reads naturals at the deal.
    When the last seat is dealt, with ``natural_declaration="auto"`` every natural is detected,
    declared and paid; its holder does not set (A.5.2, A.8).
``set``
    ``{"type": "set", "seat": s, "front": "3 cards", "middle": "5 cards", "back": "5 cards"}`` from
    every seat without a natural, any order, once. A fouled setting is legal (A.4); it is flagged at
    the reveal. With ``natural_declaration="optional"`` a seat holding a natural may instead send
    ``{"type": "declare_natural", "seat": s}`` (optionally ``"natural": name``). With
    ``setting_time_limit_s`` and ``unset_on_timeout_is_foul`` the floor may log
    ``{"type": "timeout", "seat": s}`` for a seat that did not set: its hand is fouled (A.4) and it
    takes no part in the surrender round. In auto mode, with fewer than two seats left to set, the
    set and surrender rounds are skipped (there is nothing to compare).
``surrender``
    ``{"type": "play", "seat": s}`` or ``{"type": "surrender", "seat": s}`` in turn, clockwise from
    the button's left, by every seat that set (A.5.4, A.9). Skipped when ``surrender_enabled`` is
    false or fewer than two seats set.
``reveal``
    ``{"type": "reveal"}``: the hands are shown, fouls flagged, the deal settles (A.5.6-7).
    Before it, ``{"type": "declare_royalty", "seat": s, "row": "front|middle|back"}`` records an
    announced royalty (A.5.5); it only matters with ``royalties_require_declaration``. The engine
    detects royalties itself and shows them in the view once every seat has set.
any time before the first play/surrender decision and before any natural is declared:
    ``{"type": "misdeal", "reason": "..."}`` (A.5.1): the deal is void, nothing settles, no fee, and
    the button does not move. ``reason="exposed_card"`` is refused when ``misdeal_on_exposed_card``
    is false (the card stays with its player).

Errors (state unchanged): :class:`UnknownEvent` (type or fields), :class:`InvalidCard`,
:class:`DuplicateCard`, :class:`WrongCardCount`, :class:`OutOfTurn` (surrender round),
:class:`IllegalAction` (e.g. a setting that does not use exactly the seat's 13 cards, a natural the
cards do not make), :class:`HandComplete`.

Settlement (:func:`settlement`): ``contributions[s]`` = cents s pays to others, ``awards[s]`` = cents s
receives, ``transfers`` one :class:`PairTransfer` per pair that exchanged units (``amount`` after table
stakes), ``fees[s]`` the house fee on top; ``check_balanced`` holds with ``tax=0``.

Showdown tool (:func:`showdown`): see its docstring.
"""

from __future__ import annotations

import random as _random_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from rules.engines.base import Settlement
from rules.engines.capsa_config import CapsaConfig, build_config, config_to_dict
from rules.engines.capsa_scoring import (
    FEE_ROUNDING,
    NATURAL,
    SeatHand,
    build_settlement,
    clockwise_from_button,
    describe_seat,
    evaluate_seat,
    seat_units,
    settle_pairs,
    settlement_to_dict,
)
from rules.engines.cards import DECK_52, UNKNOWN_TOKENS, Card, format_cards, parse_cards
from rules.engines.errors import (
    ConfigError,
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidCard,
    OutOfTurn,
    RuleViolation,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.evaluators.capsa import (
    ROW_SIZES,
    ROWS,
    evaluate_five,
    naturals_made,
)
from rules.engines.messages import action_word, gettext_noop
from rules.engines.money import format_cents

__all__ = [
    "ENGINE", "CapsaState", "FEE_ROUNDING", "apply", "build_config", "can_apply", "config_to_dict",
    "is_complete", "new_hand", "next_button", "random_deal", "replay", "settlement", "showdown", "view",
]

GAME = "capsa_susun"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
CARDS_PER_HAND = 13
EVENT_TYPES = ("deal", "declare_natural", "set", "timeout", "surrender", "play", "declare_royalty", "reveal",
               "misdeal")
#: Fields each event type may carry besides ``"type"``; ``"note"`` and keys starting with ``_`` are allowed
#: on every event (as in the Forty-one engine); anything else is refused so a typo is never stored.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "deal": frozenset({"seat", "cards"}),
    "declare_natural": frozenset({"seat", "natural", "cards"}),
    "set": frozenset({"seat", "front", "middle", "back"}),
    "timeout": frozenset({"seat"}),
    "surrender": frozenset({"seat"}),
    "play": frozenset({"seat"}),
    "declare_royalty": frozenset({"seat", "row"}),
    "reveal": frozenset(),
    "misdeal": frozenset({"reason"}),
}
META_FIELDS = frozenset({"note"})
#: Per event type, the keys always accepted (the fast check in :func:`apply`).
_ALLOWED_FIELDS = {kind: fields | META_FIELDS | {"type"} for kind, fields in EVENT_FIELDS.items()}


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


# ------------------------------------------------------------------------------------------------------
# start, order
# ------------------------------------------------------------------------------------------------------

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
    return CapsaState(config=config, seats=order, stacks=dict(seats), button=button)


def next_button(occupied: Sequence[int], current: int) -> int:
    """The next button: the next occupied seat clockwise after ``current`` (A.5.1). After a misdeal the
    button does not move: the service keeps ``current`` (``view(state)["button_moves"]`` is false)."""
    if not occupied:
        raise ConfigError("seats", gettext_noop("no occupied seat for the button"))
    return clockwise_from_button(occupied, current)[0]


def _surrender_order(state: CapsaState) -> list[int]:
    return [s for s in clockwise_from_button(state.seats, state.button)
            if s in state.settings]


def _setters(state: CapsaState) -> list[int]:
    return [s for s in state.seats if s not in state.naturals]


# ------------------------------------------------------------------------------------------------------
# event parsing helpers
# ------------------------------------------------------------------------------------------------------

def _seat_of(state: CapsaState, event: Mapping[str, Any], action: str) -> int:
    seat = event.get("seat")
    if isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) <= 6:
        seat = int(seat)
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise UnknownEvent(gettext_noop("%(action)s: the event needs a seat number, got %(seat)s", action=action, seat=repr(event.get('seat'))), rule="A.5")
    if seat not in state.seats:
        raise IllegalAction(gettext_noop("seat %(seat)s is not dealt in this deal (seats %(seats)s)", seat=seat, seats=', '.join(map(str, state.seats))),
                            seat=seat, rule="A.2")
    return seat


def _cards(event: Mapping[str, Any], key: str, seat: int, action: str) -> list[Card]:
    raw = event.get(key)
    if raw is None:
        raise UnknownEvent(gettext_noop("seat %(seat)s %(action)s: the event needs '%(key)s' cards", seat=seat, action=action, key=key), seat=seat)
    if not isinstance(raw, str | list | tuple):
        raise InvalidCard(gettext_noop("seat %(seat)s %(action)s: '%(key)s' must be cards as text such as \"As Kd\" or a list of cards, got %(raw)s", seat=seat, action=action, key=key, raw=repr(raw)), seat=seat, rule="A.2")
    try:
        return parse_cards(raw, deck=DECK_52)
    except DuplicateCard as exc:
        raise DuplicateCard(gettext_noop("seat %(seat)s %(action)s: %(message)s", seat=seat, action=action, message=exc.message), seat=seat, rule="A.2", extra=exc.extra) from None
    except InvalidCard as exc:
        raise InvalidCard(gettext_noop("seat %(seat)s %(action)s: %(message)s", seat=seat, action=action, message=exc.message), seat=seat, rule="A.2", extra=exc.extra) from None


def _detect_natural(config: CapsaConfig, cards: Sequence[int]) -> str | None:
    """The highest natural (by ``natural_precedence``) the 13 cards make, or None (A.8)."""
    if not config.naturals_enabled:
        return None
    made = naturals_made(cards, wheel_rank=config.wheel_rank, six_pairs_definition=config.six_pairs_definition,
                         six_pairs_compare_singleton=config.six_pairs_compare_singleton)
    best = None
    for name in config.natural_precedence:
        if name in made:
            best = name
    return best


def _after_deal(state: CapsaState) -> CapsaState:
    naturals: dict[int, str] = {}
    if state.config.natural_declaration == "auto":
        for s in state.seats:
            found = _detect_natural(state.config, state.hands[s])
            if found:
                naturals[s] = found
    state = _evolve(state, naturals=naturals, phase="set")
    if state.config.natural_declaration == "auto" and len(_setters(state)) < 2:
        return _evolve(state, phase="reveal")
    return state


def _after_setting(state: CapsaState) -> CapsaState:
    pending = [s for s in _setters(state) if s not in state.settings and s not in state.timed_out]
    if pending:
        return state
    if state.config.surrender_enabled and len(_surrender_order(state)) >= 2:
        return _evolve(state, phase="surrender")
    return _evolve(state, phase="reveal")


# ------------------------------------------------------------------------------------------------------
# apply
# ------------------------------------------------------------------------------------------------------

def apply(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    """Return the state after ``event`` (see the module docstring for the events and phases).

    Never mutates ``state``; raises a :class:`RuleViolation` subclass with a croupier-readable message
    (naming seat, action and rule) and changes nothing when the event is not allowed now.
    """
    if not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be an object with a 'type', got %(event)s", event=repr(event)))
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise UnknownEvent(gettext_noop("unknown Capsa event type %(kind)s; expected one of %(event_types)s", kind=repr(kind), event_types=', '.join(EVENT_TYPES)))
    if state.phase == "complete":
        what = (gettext_noop("the deal was declared a misdeal") if state.misdeal else gettext_noop("the deal is settled"))
        raise HandComplete(gettext_noop("%(kind)s refused: %(what)s", kind=action_word(kind), what=what))
    if _ALLOWED_FIELDS[kind].issuperset(event):
        unknown = None  # the usual event: every field known
    else:
        unknown = sorted(str(k) for k in event
                         if k != "type" and k not in EVENT_FIELDS[kind] and k not in META_FIELDS
                         and not str(k).startswith("_"))
    if unknown:
        allowed = ", ".join(sorted(EVENT_FIELDS[kind])) or "no other fields"
        raise UnknownEvent(gettext_noop("%(kind)s event: unknown field %(unknown)s (a %(kind)s takes %(allowed)s)", kind=action_word(kind), unknown=repr(unknown[0]), allowed=allowed),
                           extra={"field": unknown[0]})
    handler = _HANDLERS[kind]
    new = handler(state, event)
    return _evolve(new, event_count=state.event_count + 1)


def can_apply(state: CapsaState, event: Mapping[str, Any]) -> bool:
    """True when :func:`apply` would accept ``event`` (the verify/can pair of STYLE.md rule 2)."""
    try:
        apply(state, event)
    except RuleViolation:
        return False
    return True


def verify_event(state: CapsaState, event: Mapping[str, Any]) -> None:
    """Raise the :class:`RuleViolation` :func:`apply` would raise for ``event``; return None if legal."""
    apply(state, event)


def _on_deal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "deal")
    if state.phase != "deal":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot be dealt cards now: the deal is finished (A.5.1)", seat=seat), seat=seat,
                            rule="A.5")
    if seat in state.hands:
        raise IllegalAction(gettext_noop("seat %(seat)s has already been dealt its 13 cards (A.2)", seat=seat), seat=seat, rule="A.2")
    if _unseen_deal(event.get("cards")):
        return _deal_unseen(state, seat)
    cards = _cards(event, "cards", seat, "deal")
    if len(cards) != CARDS_PER_HAND:
        raise WrongCardCount(gettext_noop("seat %(seat)s deal: %(n_cards)s cards logged, a Capsa hand has 13 (A.2); if the player holds the wrong number of cards, log a misdeal (A.5.1)", seat=seat, n_cards=len(cards)),
                             seat=seat, rule="A.2")
    for other, held in state.hands.items():
        both = set(held) & set(cards)
        if both:
            card = Card(min(both))
            raise DuplicateCard(gettext_noop("seat %(seat)s deal: %(card)s was already dealt to seat %(other)s (A.2)", seat=seat, card=card, other=other), seat=seat,
                                rule="A.2", extra={"card": str(card)})
    hands = {**state.hands, seat: tuple(sorted(cards))}
    new = _evolve(state, hands=hands)
    if len(hands) == len(state.seats):
        new = _after_deal(new)
    return new


def _unseen_deal(raw: Any) -> bool:
    """A deal logged as 13 unknown cards (``"?? ?? ..."``): the croupier dealt them face down, unseen (A.5.1)."""
    tokens = raw.replace(",", " ").split() if isinstance(raw, str) else raw if isinstance(raw, list | tuple) else ()
    return len(tokens) > 0 and all(t in UNKNOWN_TOKENS for t in tokens)


def _deal_unseen(state: CapsaState, seat: int) -> CapsaState:
    """Record a face-down deal of 13 unseen cards (an empty tuple in ``hands``): the cards become known when
    the seat sets (``set``) or shows its natural (``declare_natural`` with ``cards``), checked against every
    card already seen. Under ``natural_declaration=auto`` the engine reads naturals at the deal, so the
    cards must be named then (A.5.2)."""
    if state.config.naturals_enabled and state.config.natural_declaration == "auto":
        raise IllegalAction(gettext_noop("seat %(seat)s deal: name the 13 cards; naturals are read at the deal at this "
                                         "table (natural_declaration=auto, A.5.2)", seat=seat), seat=seat, rule="A.5")
    hands = {**state.hands, seat: ()}
    new = _evolve(state, hands=hands)
    if len(hands) == len(state.seats):
        new = _after_deal(new)
    return new


def _seen_elsewhere(state: CapsaState, seat: int, cards: Sequence[int], action: str) -> None:
    """Refuse a card of ``seat``'s newly shown hand that was already seen with another seat (A.2)."""
    for other, held in state.hands.items():
        both = set(held) & set(cards) if other != seat else set()
        if both:
            card = Card(min(both))
            raise DuplicateCard(gettext_noop("seat %(seat)s %(action)s: %(card)s was already dealt to seat %(other)s (A.2)",
                                             seat=seat, action=action_word(action), card=card, other=other),
                                seat=seat, rule="A.2", extra={"card": str(card)})


def _require_phase(state: CapsaState, seat: int | None, action: str, phases: tuple[str, ...], rule: str) -> None:
    if state.phase not in phases:
        who = (gettext_noop("seat %(seat)s cannot %(action)s", seat=seat, action=action_word(action)) if seat is not None else gettext_noop("cannot %(action)s", action=action_word(action)))
        expect = _expect(state)
        raise IllegalAction(gettext_noop("%(who)s now: the deal expects %(expect)s (%(rule)s)", who=who, expect=expect, rule=rule), seat=seat, rule=rule)


def _on_declare_natural(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "declare a natural")
    config = state.config
    if not config.naturals_enabled:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: naturals are off at this table (A.8)", seat=seat),
                            seat=seat, rule="A.8")
    if config.natural_declaration == "auto":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: naturals are declared automatically when the cards are dealt (natural_declaration=auto, A.5.2)", seat=seat), seat=seat, rule="A.5")
    _require_phase(state, seat, "declare a natural", ("set",), "A.5.2")
    if seat in state.naturals:
        raise IllegalAction(gettext_noop("seat %(seat)s has already declared %(natural)s", seat=seat, natural=state.naturals[seat]), seat=seat, rule="A.5")
    if seat in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: it has already set its hand (A.5.2)", seat=seat),
                            seat=seat, rule="A.5")
    if seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: its time to set ran out (A.5.3)", seat=seat), seat=seat,
                            rule="A.5")
    if state.decisions:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural after play or surrender was declared (A.5)", seat=seat),
                            seat=seat, rule="A.5")
    cards = state.hands[seat]
    if not cards:  # dealt unseen: the natural is shown now (A.5.2) and checked against every card seen
        shown = _cards(event, "cards", seat, "declare a natural")
        if len(shown) != CARDS_PER_HAND:
            raise WrongCardCount(gettext_noop("seat %(seat)s shows %(n_cards)s cards for its natural; a Capsa hand has 13 "
                                              "(A.2)", seat=seat, n_cards=len(shown)), seat=seat, rule="A.2")
        _seen_elsewhere(state, seat, shown, "declare_natural")
        cards = tuple(sorted(shown))
        state = _evolve(state, hands={**state.hands, seat: cards})
    elif event.get("cards") is not None:
        raise IllegalAction(gettext_noop("seat %(seat)s: its cards are known from the deal; declare the natural "
                                         "without 'cards'", seat=seat), seat=seat, rule="A.5")
    found = _detect_natural(config, cards)
    claimed = event.get("natural")
    made = naturals_made(cards, wheel_rank=config.wheel_rank, six_pairs_definition=config.six_pairs_definition,
                         six_pairs_compare_singleton=config.six_pairs_compare_singleton)
    if claimed is not None and (claimed not in config.natural_precedence or claimed not in made):
        raise IllegalAction(gettext_noop("seat %(seat)s claims %(replace)s, but the cards %(cards)s do not make it (A.8)", seat=seat, replace=str(claimed).replace('_', ' '), cards=format_cards(cards)), seat=seat, rule="A.8")
    if found is None:
        raise IllegalAction(gettext_noop("seat %(seat)s claims a natural, but the cards %(cards)s make none (A.8)", seat=seat, cards=format_cards(cards)),
                            seat=seat, rule="A.8")
    return _after_setting(_evolve(state, naturals={**state.naturals, seat: found}))


def _on_set(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "set")
    if seat in state.naturals:
        raise IllegalAction(gettext_noop("seat %(seat)s holds a natural (%(replace)s) and does not set (A.5.2)", seat=seat, replace=state.naturals[seat].replace('_', ' ')), seat=seat, rule="A.5")
    _require_phase(state, seat, "set", ("set",), "A.5.3")
    if seat in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s has already set its hand (A.5.3)", seat=seat), seat=seat, rule="A.5")
    if seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot set: its time ran out and the hand is fouled (A.4)", seat=seat), seat=seat,
                            rule="A.4")
    rows: dict[str, tuple[int, ...]] = {}
    for row in ROWS:
        cards = _cards(event, row, seat, "set")
        if len(cards) != ROW_SIZES[row]:
            raise WrongCardCount(gettext_noop("seat %(seat)s set: the %(row)s needs %(row_size)s cards, %(n_cards)s given (A.2)", seat=seat, row=row, row_size=ROW_SIZES[row], n_cards=len(cards)),
                                 seat=seat, rule="A.2")
        rows[row] = tuple(cards)
    used = [c for row in ROWS for c in rows[row]]
    seen: set[int] = set()
    for c in used:
        if c in seen:
            raise DuplicateCard(gettext_noop("seat %(seat)s set: %(card)s is placed in two rows", seat=seat, card=Card(c)), seat=seat, rule="A.2",
                                extra={"card": str(Card(c))})
        seen.add(c)
    if not state.hands[seat]:  # dealt unseen: the setting shows the 13 cards, checked against every card seen
        _seen_elsewhere(state, seat, used, "set")
        state = _evolve(state, hands={**state.hands, seat: tuple(sorted(used))})
    held = set(state.hands[seat])
    foreign = [Card(c) for c in used if c not in held]
    if foreign:
        missing = sorted(held - seen)
        raise IllegalAction(
            gettext_noop("seat %(seat)s set: %(foreign)s %(note)s not in the seat's 13 cards (missing from the setting: %(items)s); a setting uses exactly the seat's 13 cards (A.2)", seat=seat, foreign=format_cards(foreign), note=(gettext_noop("is") if len(foreign) == 1 else gettext_noop("are")), items=format_cards([Card(c) for c in missing])), seat=seat, rule="A.2")
    new = _evolve(state, settings={**state.settings, seat: rows})
    return _after_setting(new)


def _on_timeout(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "time out")
    config = state.config
    _require_phase(state, seat, "time out", ("set",), "A.5.3")
    if config.setting_time_limit_s is None:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot time out: this table has no setting timer (A.5.3)", seat=seat), seat=seat,
                            rule="A.5")
    if not config.unset_on_timeout_is_foul:
        raise IllegalAction(gettext_noop("seat %(seat)s: an unset hand is not fouled at this table (unset_on_timeout_is_foul=false); the seat must still set (A.4)", seat=seat), seat=seat, rule="A.4")
    if seat in state.naturals or seat in state.settings or seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot time out: it is not waiting to set", seat=seat), seat=seat, rule="A.5")
    return _after_setting(_evolve(state, timed_out=state.timed_out | {seat}))


def _on_decision(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    kind = event["type"]
    seat = _seat_of(state, event, kind)
    if kind == "surrender" and not state.config.surrender_enabled:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot surrender: surrender is off at this table (A.9)", seat=seat), seat=seat,
                            rule="A.9")
    _require_phase(state, seat, kind, ("surrender",), "A.5.4")
    order = _surrender_order(state)
    if seat not in order:
        raise IllegalAction(gettext_noop("seat %(seat)s takes no part in the surrender round (it did not set)", seat=seat), seat=seat,
                            rule="A.5")
    if seat in state.decisions:
        raise IllegalAction(gettext_noop("seat %(seat)s has already declared %(decision)s", seat=seat, decision=state.decisions[seat]), seat=seat, rule="A.5")
    due = next(s for s in order if s not in state.decisions)
    if seat != due:
        raise OutOfTurn(gettext_noop("seat %(seat)s cannot %(kind)s yet: seat %(due)s declares first (clockwise from the dealer's left, A.5.4)", seat=seat, kind=action_word(kind), due=due), seat=seat, rule="A.5")
    decisions = {**state.decisions, seat: kind}
    new = _evolve(state, decisions=decisions)
    if len(decisions) == len(order):
        new = _evolve(new, phase="reveal")
    return new


def _on_declare_royalty(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "announce a royalty")
    row = event.get("row")
    if row not in ROWS:
        raise UnknownEvent(gettext_noop("seat %(seat)s royalty: 'row' must be front, middle or back, got %(row)s", seat=seat, row=repr(row)), seat=seat)
    _require_phase(state, seat, "announce a royalty", ("set", "surrender", "reveal"), "A.5.5")
    if seat not in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot announce a royalty before it has set its hand (A.5.5)", seat=seat),
                            seat=seat, rule="A.5")
    if state.decisions.get(seat) == "surrender":
        raise IllegalAction(gettext_noop("seat %(seat)s surrendered and collects no royalties (A.9)", seat=seat), seat=seat, rule="A.9")
    hand = evaluate_seat(state.config, seat, rows=state.settings[seat])
    if row not in hand.detected_royalties:
        raise IllegalAction(gettext_noop("seat %(seat)s announces a royalty in the %(row)s, but %(setting)s earns none (A.7)", seat=seat, row=row, setting=format_cards(state.settings[seat][row])), seat=seat, rule="A.7")
    claims = {**state.royalty_claims, seat: state.royalty_claims.get(seat, frozenset()) | {row}}
    return _evolve(state, royalty_claims=claims)


def _on_reveal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    _require_phase(state, None, "reveal", ("reveal",), "A.5.6")
    return _evolve(state, phase="complete")


def _on_misdeal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    reason = event.get("reason", "misdeal")
    if not isinstance(reason, str):
        raise UnknownEvent(gettext_noop("misdeal: 'reason' must be text, got %(reason)s", reason=repr(reason)))
    if state.phase not in ("deal", "set") or state.decisions:
        raise IllegalAction(gettext_noop("the deal can no longer be declared a misdeal: play or surrender has been declared (A.5.1)"), rule="A.5")
    if state.naturals:
        raise IllegalAction(gettext_noop("the deal can no longer be declared a misdeal: a natural has been declared and paid (A.5.1)"), rule="A.5")
    if reason == "exposed_card" and not state.config.misdeal_on_exposed_card:
        raise IllegalAction(gettext_noop("an exposed card does not void the deal at this table (misdeal_on_exposed_card=false): the card stays with its player (A.5.1)"), rule="A.5")
    return _evolve(state, phase="complete", misdeal=reason)


_HANDLERS = {
    "deal": _on_deal, "declare_natural": _on_declare_natural, "set": _on_set, "timeout": _on_timeout,
    "surrender": _on_decision, "play": _on_decision, "declare_royalty": _on_declare_royalty, "reveal": _on_reveal,
    "misdeal": _on_misdeal,
}


# ------------------------------------------------------------------------------------------------------
# reading the state
# ------------------------------------------------------------------------------------------------------

def is_complete(state: CapsaState) -> bool:
    """True once the deal is settled (after the reveal) or void (misdeal)."""
    return state.phase == "complete"


def _expect(state: CapsaState) -> str:
    return {"deal": "deal", "set": "set", "surrender": "surrender", "reveal": "reveal",
            "complete": "nothing (complete)"}[state.phase]


def seat_hands(state: CapsaState) -> dict[int, SeatHand]:
    """Every seat evaluated for settlement (status, rows, keys, fouls, royalties), A.4-A.9."""
    out = {}
    for s in state.seats:
        out[s] = evaluate_seat(
            state.config, s,
            rows=state.settings.get(s),
            natural=state.naturals.get(s),
            cards=state.hands.get(s, ()),
            surrendered=state.decisions.get(s) == "surrender",
            unset=s in state.timed_out,
            declared_royalties=state.royalty_claims.get(s, frozenset()),
        )
    return out


def settlement(state: CapsaState) -> Settlement:
    """The money result of a complete deal (A.6-A.11); see the module docstring for the fields.

    A misdeal settles nothing and charges no fee. Raises :class:`IllegalAction` before completion.
    """
    if not is_complete(state):
        raise IllegalAction(gettext_noop("the deal is not settled yet: it expects %(expect)s", expect=_expect(state)), rule="A.5")
    if state.misdeal:
        zeros = {s: 0 for s in state.seats}
        return Settlement(contributions=zeros, awards=dict(zeros), fees=dict(zeros))
    pairs = settle_pairs(state.config, seat_hands(state))
    return build_settlement(state.config, pairs, state.seats, stacks=state.stacks, button=state.button)


def _legal_actions(state: CapsaState) -> tuple[list[dict[str, Any]], int | None, list[int]]:
    def act(kind: str, seats: list[int]) -> dict[str, Any]:
        return {"type": kind, "min": None, "max": None, "seats": seats}

    if state.phase == "deal":
        waiting = [s for s in clockwise_from_button(state.seats, state.button) if s not in state.hands]
        return [act("deal", waiting), act("misdeal", [])], (waiting[0] if waiting else None), waiting
    if state.phase == "set":
        waiting = [s for s in clockwise_from_button(state.seats, state.button)
                   if s not in state.naturals and s not in state.settings and s not in state.timed_out]
        actions = [act("set", waiting)]
        if state.config.natural_declaration == "optional" and state.config.naturals_enabled:
            holders = [s for s in waiting if not state.hands[s] or _detect_natural(state.config, state.hands[s])]
            if holders:
                actions.append(act("declare_natural", holders))
        if state.config.setting_time_limit_s is not None and state.config.unset_on_timeout_is_foul:
            actions.append(act("timeout", waiting))
        if state.settings:
            actions.append(act("declare_royalty", sorted(state.settings)))
        if not state.naturals:
            actions.append(act("misdeal", []))
        return actions, (waiting[0] if waiting else None), waiting
    if state.phase == "surrender":
        due = next(s for s in _surrender_order(state) if s not in state.decisions)
        return ([act("play", [due]), act("surrender", [due]), act("declare_royalty", sorted(state.settings))],
                due, [due])
    if state.phase == "reveal":
        return [act("reveal", []), act("declare_royalty", sorted(state.settings))], None, []
    return [], None, []


def view(state: CapsaState) -> dict[str, Any]:
    """JSON-able state for the croupier and simulators.

    Keys: ``game``, ``phase``/``street``, ``expect`` (``"deal"``, ``"set"``, ``"surrender"``,
    ``"reveal"`` or ``"nothing (complete)"``), ``to_act`` (the next seat, or None), ``awaiting`` (seats
    that may act now), ``legal_actions`` (``{"type", "min", "max", "seats"}``; no amounts in Capsa),
    ``pots`` ([]), ``tax`` (0), ``stacks``, ``contributions``, ``complete``, ``button``, ``button_moves``,
    ``misdeal``, ``seats`` (per seat: dealt, natural, set, decision, royalties once all have set,
    status/fouled after the reveal), and when complete ``units``, ``pairs`` and ``settlement``.
    """
    actions, to_act, awaiting = _legal_actions(state)
    all_set = state.phase in ("surrender", "reveal", "complete")
    hands = seat_hands(state) if all_set and not state.misdeal else {}
    seats_view: dict[str, Any] = {}
    for s in state.seats:
        info: dict[str, Any] = {
            "dealt": s in state.hands,
            "natural": state.naturals.get(s),
            "set": s in state.settings,
            "timed_out": s in state.timed_out,
            "decision": state.decisions.get(s),
            "announced_royalties": sorted(state.royalty_claims.get(s, ())),
        }
        if s in hands:
            info["royalties"] = dict(hands[s].detected_royalties) if hands[s].status != NATURAL else {}
        if state.phase == "complete" and s in hands:
            info.update(describe_seat(state.config, hands[s]))
        seats_view[str(s)] = info
    out: dict[str, Any] = {
        "game": GAME,
        "phase": state.phase,
        "street": state.phase,
        "expect": _expect(state),
        "to_act": to_act,
        "awaiting": awaiting,
        "legal_actions": actions,
        "pots": [],
        "tax": 0,
        "stacks": {str(s): state.stacks[s] for s in state.seats},
        "contributions": {str(s): 0 for s in state.seats},
        "complete": is_complete(state),
        "button": state.button,
        "button_moves": state.misdeal is None,
        "misdeal": state.misdeal,
        "seats": seats_view,
    }
    if is_complete(state):
        result = settlement(state)
        out["settlement"] = settlement_to_dict(result)
        out["contributions"] = {str(s): result.contributions.get(s, 0) for s in state.seats}
        if not state.misdeal:
            pairs = settle_pairs(state.config, hands)
            out["pairs"] = [p.as_dict() for p in pairs]
            out["units"] = {str(s): u for s, u in seat_units(pairs, state.seats).items()}
            out["fouled"] = [s for s in state.seats if hands[s].status == "fouled"]
    return out


def replay(config: CapsaConfig, seats: Mapping[int, int], events: Sequence[Mapping[str, Any]], *,
           button: int) -> CapsaState:
    """Rebuild a deal from its events (the same events always give the same state)."""
    state = new_hand(config, seats, button=button)
    for event in events:
        state = apply(state, event)
    return state


# ------------------------------------------------------------------------------------------------------
# simulation helper
# ------------------------------------------------------------------------------------------------------

def _sensible_setting(cards: Sequence[int], config: CapsaConfig) -> dict[str, tuple[int, ...]]:
    """Greedy: the best back from the 13 cards, the best middle from the other 8, the rest in front."""
    ev = evaluate_five
    wheel = config.wheel_rank
    back = max(combinations(cards, 5), key=lambda c: ev(c, wheel_rank=wheel))
    rest = [c for c in cards if c not in back]
    middle = max(combinations(rest, 5), key=lambda c: ev(c, wheel_rank=wheel))
    front = tuple(c for c in rest if c not in middle)
    return {"front": front, "middle": middle, "back": back}


def _row_text(cards: Sequence[int]) -> str:
    return format_cards([Card(c) for c in cards])


def random_deal(
    config: CapsaConfig,
    seats: Mapping[int, int],
    button: int,
    rng: _random_module.Random,
    *,
    foul_rate: float = 0.25,
    surrender_rate: float = 0.1,
    misdeal_rate: float = 0.0,
) -> list[dict[str, Any]]:
    """A legal random event list for one deal (for simulators, demos and property tests).

    Shuffles with the injected ``rng``; deals 13 cards each one at a time clockwise from the button's
    left; sets each hand sensibly (greedy best back, then middle) or, with probability ``foul_rate``,
    at random (often fouled); declares optional naturals, announces royalties, surrenders with
    probability ``surrender_rate`` and reveals. Drives the engine, so the events always replay.
    """
    deck = list(range(52))
    rng.shuffle(deck)
    order = clockwise_from_button(list(seats), button)
    dealt: dict[int, list[int]] = {s: [] for s in order}
    for i in range(CARDS_PER_HAND * len(order)):
        dealt[order[i % len(order)]].append(deck[i])
    state = new_hand(config, seats, button=button)
    events: list[dict[str, Any]] = []

    def push(event: dict[str, Any]) -> None:
        nonlocal state
        state = apply(state, event)
        events.append(event)

    for s in order:
        push({"type": "deal", "seat": s, "cards": _row_text(sorted(dealt[s]))})
    if misdeal_rate and rng.random() < misdeal_rate and not state.naturals:
        push({"type": "misdeal", "reason": "faulty deck"})
        return events
    while state.phase == "set":
        for s in [x for x in order if x not in state.naturals and x not in state.settings
                  and x not in state.timed_out]:
            cards = list(state.hands[s])
            if (config.natural_declaration == "optional" and config.naturals_enabled
                    and _detect_natural(config, cards) and rng.random() < 0.8):
                push({"type": "declare_natural", "seat": s})
                continue
            if config.setting_time_limit_s and config.unset_on_timeout_is_foul and rng.random() < 0.03:
                push({"type": "timeout", "seat": s})
                continue
            if rng.random() < foul_rate:
                rng.shuffle(cards)
                rows = {"front": tuple(cards[:3]), "middle": tuple(cards[3:8]), "back": tuple(cards[8:])}
            else:
                rows = _sensible_setting(cards, config)
            push({"type": "set", "seat": s, **{r: _row_text(rows[r]) for r in ROWS}})
            if config.royalties_require_declaration:
                hand = evaluate_seat(config, s, rows=state.settings[s])
                for row in hand.detected_royalties:
                    if rng.random() < 0.8:
                        push({"type": "declare_royalty", "seat": s, "row": row})
    while state.phase == "surrender":
        due = next(s for s in _surrender_order(state) if s not in state.decisions)
        push({"type": "surrender" if rng.random() < surrender_rate else "play", "seat": due})
    push({"type": "reveal"})
    return events


# ------------------------------------------------------------------------------------------------------
# showdown tool (issue 3)
# ------------------------------------------------------------------------------------------------------

def _parse_seat(raw: Any) -> int:
    try:
        from rules.engines.showdown import parse_seat
    except ImportError:  # pragma: no cover - the dispatcher module is written in parallel
        parse_seat = None  # type: ignore[assignment]
    if parse_seat is not None:
        return parse_seat(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
        return raw
    if isinstance(raw, str) and raw.strip().isdigit() and int(raw) > 0:
        return int(raw)
    raise _malformed(f"{raw!r} is not a seat number")


def _malformed(message: str, **kwargs: Any) -> RuleViolation:
    """A malformed showdown document: the dispatcher's ``MalformedShowdown`` when it exists."""
    try:
        from rules.engines.showdown import MalformedShowdown
    except ImportError:  # pragma: no cover
        return UnknownEvent(message, **kwargs)
    return MalformedShowdown(message, **kwargs)


def _group_ranking(keys: Mapping[int, int]) -> list[list[int]]:
    try:
        from rules.engines.showdown import group_ranking
    except ImportError:  # pragma: no cover
        group_ranking = None  # type: ignore[assignment]
    if group_ranking is not None:
        return group_ranking(keys)
    groups: dict[int, list[int]] = {}
    for s, k in keys.items():
        groups.setdefault(k, []).append(s)
    return [sorted(groups[k]) for k in sorted(groups, reverse=True)]


#: Keys a seat's hand may carry in a showdown document.
SHOWDOWN_HAND_KEYS = frozenset({*ROWS, "cards", "surrender"})


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Compare the shown Capsa hands of 2-4 seats and settle them pairwise (issue 3, A.3-A.11).

    Input::

        {"game": "capsa_susun",
         "hands": {"1": {"front": "5c 5d 4c", "middle": "9s 9h 9d Qs Qh", "back": "Ks Kh Kd Kc 2s"},
                   "2": {"front": ..., "middle": ..., "back": ..., "surrender": true},   # optional flag
                   "3": {"cards": "13 cards"}},          # a natural holder shows 13 cards, no setting
         "config": {"preset": "western_1_6", "unit_value": "1.00", "pair_stakes": {"1-2": "100.00"}}}

    ``config`` takes the deal engine's keys (A.12, presets A.10); ``unit_value`` is optional here.
    Pair keys are ``"a-b"`` with seat numbers. With naturals enabled, a seat whose 13 cards make a
    natural is settled as the natural (as the engine does under ``natural_declaration=auto``).

    Output::

        {"game": "capsa_susun", "method": "2-4", "ranking_by": "net_units",
         "ranking": [[1], [3], [2], [4]],   # by each seat's net units for the deal, best first; ties grouped
         "seats": {"1": {"status": "valid"|"fouled"|"surrendered"|"natural", "fouled": bool,
                         "foul_reason": str|None, "natural": str|None,
                         "category": {"front": "pair", ...}, "rows": {"front": "Pair of Fives, kickers 4"},
                         "description": "front: ... / middle: ... / back: ...",
                         "cards": {"front": "5d 5c 4c", ...}, "royalties": {"middle": 2},
                         "units": 10, "amounts": "10.00"}},   # amounts only where stakes are given
         "pairs": [{"seats": [1, 2], "kind": "rows", "rows": {"front": 1, "middle": 1, "back": "tie"},
                    "units": {"1": 4, "2": -4}, "royalties": {...}, "multiplier": 1}],
         "fouled": [4]}

    ``amounts`` is the seat's net money result before the house fee (EUR string); ``"fee"`` is added
    per seat when the config has ``unit_value``/``pair_stakes`` covering every pair.

    Raises :class:`InvalidCard` (not a card), :class:`DuplicateCard` (a card twice, in one hand or
    across hands), :class:`WrongCardCount` (a row that is not 3/5/5 cards), :class:`ConfigError`
    (bad config), ``MalformedShowdown`` of :mod:`rules.engines.showdown` (malformed document),
    :class:`IllegalAction` (13 cards shown without a setting that make no natural).
    """
    if not isinstance(doc, Mapping):
        raise _malformed("the showdown document must be an object with 'hands'")
    raw_hands = doc.get("hands")
    if not isinstance(raw_hands, Mapping) or not raw_hands:
        raise _malformed("the showdown document needs 'hands': {seat: {front, middle, back}}")
    raw_config = doc.get("config")
    if raw_config is not None and not isinstance(raw_config, Mapping):
        raise ConfigError("config", gettext_noop("must be an object of Capsa Susun keys (A.12)"))
    config = build_config(raw_config or {}, require_unit_value=False)
    if not (MIN_PLAYERS <= len(raw_hands) <= MAX_PLAYERS):
        raise WrongCardCount(gettext_noop("Capsa Susun compares 2 to 4 hands, not %(n_raw_hands)s (A.2)", n_raw_hands=len(raw_hands)), rule="A.2")
    hands: dict[int, SeatHand] = {}
    owner: dict[int, int] = {}
    for raw_seat, raw in raw_hands.items():
        seat = _parse_seat(raw_seat)
        if seat in hands:
            raise _malformed(f"seat {seat} is given twice", seat=seat)
        if isinstance(raw, (str, list)):
            raw = {"cards": raw}
        if not isinstance(raw, Mapping):
            raise _malformed(f"seat {seat}: a hand is {{front, middle, back}} or {{cards}}", seat=seat)
        unknown = sorted(str(k) for k in raw if k not in SHOWDOWN_HAND_KEYS)
        if unknown:
            raise _malformed(f"seat {seat}: unknown key {unknown[0]!r}; a hand has front, middle, back (or cards) "
                             "and optionally surrender", seat=seat)
        if not isinstance(raw.get("surrender", False), bool):
            raise _malformed(f"seat {seat}: \"surrender\" must be true or false, got {raw['surrender']!r}", seat=seat)
        if "cards" in raw and any(r in raw for r in ROWS):
            raise _malformed(f"seat {seat}: give either the 13 \"cards\" of a natural or the front, middle and back "
                             "of a setting, not both", seat=seat)
        rows: dict[str, tuple[int, ...]] | None = None
        if "cards" in raw:
            cards = _cards(raw, "cards", seat, "show")
            if len(cards) != CARDS_PER_HAND:
                raise WrongCardCount(gettext_noop("seat %(seat)s: a hand has 13 cards, %(n_cards)s given (A.2)", seat=seat, n_cards=len(cards)), seat=seat,
                                     rule="A.2")
        else:
            rows = {}
            for row in ROWS:
                row_cards = _cards(raw, row, seat, "show")
                if len(row_cards) != ROW_SIZES[row]:
                    raise WrongCardCount(gettext_noop("seat %(seat)s: the %(row)s needs %(row_size)s cards, %(n_row_cards)s given (A.2)", seat=seat, row=row, row_size=ROW_SIZES[row], n_row_cards=len(row_cards)), seat=seat, rule="A.2")
                rows[row] = tuple(row_cards)
            cards = [Card(c) for row in ROWS for c in rows[row]]
        for c in cards:
            if c in owner:
                where = (gettext_noop("twice in its hand") if owner[c] == seat else gettext_noop("also in seat %(owner)s's hand", owner=owner[c]))
                raise DuplicateCard(gettext_noop("seat %(seat)s: %(card)s is %(where)s", seat=seat, card=Card(c), where=where), seat=seat, rule="A.2",
                                    extra={"card": str(Card(c))})
            owner[c] = seat
        natural = _detect_natural(config, cards)
        if rows is None and natural is None:
            raise IllegalAction(gettext_noop("seat %(seat)s shows 13 cards without a setting, but they make no natural (A.8)", seat=seat),
                                seat=seat, rule="A.8")
        surrendered = bool(raw.get("surrender", False))
        hands[seat] = evaluate_seat(config, seat, rows=rows, natural=natural, cards=cards, surrendered=surrendered)
    seats = sorted(hands)
    pairs = settle_pairs(config, hands)
    units = seat_units(pairs, seats)
    has_stakes = config.unit_value is not None or all(
        any(k == (a, b) for k, _ in config.pair_stakes) for i, a in enumerate(seats) for b in seats[i + 1:])
    money = None
    if has_stakes:
        money = build_settlement(config, pairs, seats)
    seats_out: dict[str, Any] = {}
    for s in seats:
        info = describe_seat(config, hands[s])
        info["units"] = units[s]
        if money is not None:
            info["amounts"] = format_cents(money.awards[s] - money.contributions[s])
            info["fee"] = format_cents(money.fees[s])
        seats_out[str(s)] = info
    return {
        "game": GAME,
        "method": config.method,
        "ranking_by": "net_units",
        "ranking": _group_ranking(units),
        "seats": seats_out,
        "pairs": [p.as_dict() for p in pairs],
        "fouled": [s for s in seats if hands[s].status == "fouled"],
    }


class _CapsaEngine:
    """The module-level :data:`ENGINE` (GameEngine protocol of :mod:`rules.engines.base`)."""

    game = GAME

    def build_config(self, raw: Mapping[str, Any]) -> CapsaConfig:
        return build_config(raw)

    def config_to_dict(self, config: CapsaConfig) -> dict[str, Any]:
        return config_to_dict(config)

    def new_hand(self, config: CapsaConfig, seats: Mapping[int, int], *, button: int) -> CapsaState:
        return new_hand(config, seats, button=button)

    def apply(self, state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
        return apply(state, event)

    def can_apply(self, state: CapsaState, event: Mapping[str, Any]) -> bool:
        return can_apply(state, event)

    def view(self, state: CapsaState) -> dict[str, Any]:
        return view(state)

    def is_complete(self, state: CapsaState) -> bool:
        return is_complete(state)

    def settlement(self, state: CapsaState) -> Settlement:
        return settlement(state)

    def next_button(self, occupied: Sequence[int], current: int) -> int:
        return next_button(occupied, current)

    def replay(self, config: CapsaConfig, seats: Mapping[int, int], events: Sequence[Mapping[str, Any]], *,
               button: int) -> CapsaState:
        return replay(config, seats, events, button=button)

    def random_deal(self, config: CapsaConfig, seats: Mapping[int, int], button: int,
                    rng: _random_module.Random) -> list[dict[str, Any]]:
        return random_deal(config, seats, button, rng)

    def showdown(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return showdown(doc)


ENGINE = _CapsaEngine()
