"""The Forty-one (Einundvierzig) engine: one casino hand as config + seats + events (spec B.4-B.6).

A hand is replayed from its events; :func:`apply` returns a NEW :class:`FortyOneState` or raises a
:class:`~rules.engines.errors.RuleViolation` subclass and leaves the state as it was.

Flow (B.4) and the events of each step (amounts int cents, cards canonical text such as ``"As Kd"``;
with ``deck = "double_german"`` German names such as ``"Herz Ass, Herz König"`` are accepted too)::

    forced bets   {"type": "ante", "seat": s[, "amount": c]}     every seat (amount = min(ante, stack))
                  {"type": "blind", "seat": forehand[, "amount": c]}  lower limit; live unless
                                                                  forehand_post_live = false (B.4 step 2)
    first deal    {"type": "deal", "seat": s, "cards": "As Kd"}   two cards to every seat (B.4 step 3)
    round 1       {"type": "check"|"call"|"fold", "seat": s}
                  {"type": "bet"|"raise", "seat": s, "to": c}     "to" = the seat's total this round
    second deal   {"type": "deal", "seat": s, "cards": "Qh Jh"}   two more to every seat still in
    exposure      {"type": "expose", "seat": s, "cards": "As Qh"} two of the four, each seat still in
    round 2       as round 1 (no forced bet; B.4 step 5)
    showdown      {"type": "show", "seat": s}                    every seat still in turns up (B.4 step 9)
    uncontested   {"type": "show"|"muck", "seat": winner}        only asked when the winner holds four
                                                                  cards and bonus_41_requires = any_shown (B.6)
    floor         {"type": "misdeal"}                            before two players acted in round 1 (B.4b)

Any event may carry ``"note"`` or keys starting with ``_`` (ignored); other unknown keys are refused.
Forced bets and deals may be logged in any order (``view()["to_act"]`` suggests the clockwise one);
betting is strictly in turn. With ``exposure_order = "simultaneous"`` the exposures may be logged in
any order (they are turned up together); with ``"in_turn"`` clockwise from the forehand's left.
A card dealt face down and not seen may be logged as ``??`` (``"?? ??"``): the exposure names two of
the seat's cards and the showdown (``show`` with all four ``cards``) the rest, each checked against the
cards dealt to the other seats; a folded hand stays unknown.

Readings of the spec that this engine fixes (documented for the croupier and the tests):

* A short all-in of at least half a unit counts as a full bet/raise (``short_allin_rule="half_bet"``,
  B.4a); the next full raise is then one unit over the all-in total. A smaller one only raises the
  amount to call; players who already acted may call or fold, the others may also complete it to
  the previous full wager plus one unit (this completion counts as a raise, or as the opening bet).
* ``close_mode = "raise_right"``: once a player calls while entitled to raise ("Auf!"), nobody may
  raise for the rest of that round; the others still call or fold (B.4 step 7, Model B).
* The forehand's dead blind (``forehand_post_live = false``) is dead money in the main pot, never
  returned. With ``tax_includes_antes = false`` the antes are deducted from the main pot's taxable base.
* The engine's ``winner`` is the winner of the main pot: every seat still in is entitled to it, so it
  is the best hand at the showdown (what :func:`showdown` ranks first). Nothing is ever split (B.3 rule 5).
* After a misdeal the hand is complete with every chip returned; the Spitz does not move
  (:func:`next_forehand` keeps it; :func:`next_button` is the plain clockwise move for the tables service).
"""

from __future__ import annotations

import random as _random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.core.seats import next_clockwise
from rules.engines.base import Pot, Settlement
from rules.engines.cards import (
    PIQUET_32,
    UNKNOWN_TOKENS,
    Card,
    check_no_duplicates,
    format_cards,
    parse_cards,
    parse_german_card,
)
from rules.engines.errors import (
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    OutOfTurn,
    RuleViolation,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.evaluators.forty_one import (
    FortyOneHand,
    clockwise_order,
    evaluate,
    rank_seats,
)
from rules.engines.forty_one_config import FortyOneConfig, build_config, config_to_dict, pot_taxes
from rules.engines.messages import action_word, gettext_noop
from rules.engines.money import MAX_AMOUNT_CENTS, format_cents

__all__ = [
    "ENGINE",
    "FortyOneEngine",
    "FortyOneState",
    "apply",
    "build_config",
    "can_apply",
    "config_to_dict",
    "is_complete",
    "new_hand",
    "next_button",
    "next_forehand",
    "random_hand",
    "replay",
    "settlement",
    "settlement_to_dict",
    "showdown",
    "verify",
    "view",
]

GAME = "forty_one"
#: Cards per seat in each of the two deals (B.4 steps 3-4) and exposed before round 2 (B.4 step 4).
CARDS_PER_DEAL = 2
CARDS_EXPOSED = 2
#: Cards a hand has at the showdown (B.3, B.4b "a hand without exactly four cards ... is dead").
SHOWDOWN_CARDS = 4
#: Keys any event may carry without being refused.
META_KEYS = frozenset({"note"})

_PHASE_EXPECT = {
    "forced_bets": "ante", "deal1": "deal", "round1": "action", "deal2": "deal", "expose": "expose",
    "round2": "action", "showdown": "showdown", "reveal": "show", "complete": None,
}

# fields per event type: (required, optional)
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "ante": (frozenset({"seat"}), frozenset({"amount"})),
    "blind": (frozenset({"seat"}), frozenset({"amount"})),
    "deal": (frozenset({"seat", "cards"}), frozenset()),
    "check": (frozenset({"seat"}), frozenset()),
    "call": (frozenset({"seat"}), frozenset({"amount"})),
    "fold": (frozenset({"seat"}), frozenset()),
    "bet": (frozenset({"seat", "to"}), frozenset()),
    "raise": (frozenset({"seat", "to"}), frozenset()),
    "expose": (frozenset({"seat", "cards"}), frozenset()),
    "show": (frozenset({"seat"}), frozenset({"cards"})),
    "muck": (frozenset({"seat"}), frozenset()),
    "misdeal": (frozenset(), frozenset({"reason"})),
}


#: Per event type: (required keys, every key allowed without a closer look) for the fast path of _check_shape.
_FAST_SHAPE: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (required, required | optional | {"type"} | META_KEYS) for kind, (required, optional) in _FIELDS.items()
}


# --- state ------------------------------------------------------------------------------------------


@dataclass
class FortyOneState:
    """One hand in progress; treat as immutable (``apply`` returns a copy). Amounts in int cents.

    ``seats``: seats dealt in, ascending; ``forehand``: the Spitz seat; ``starting``/``stacks``:
    chips at the start / behind now; ``contrib``: chips put in (antes, blind, bets); ``hole``: cards
    held; ``exposed``: the two up cards; ``phase``: see ``_PHASE_EXPECT``; betting state of the current
    round: ``round_bet`` (this round, live money), ``level`` (amount to match), ``raise_base`` (the
    last full wager; a raise goes to ``raise_base + unit``), ``raises``, ``capped``, ``acted`` (seats
    that acted since the last full bet or raise), ``raise_closed`` (raise_right mode).
    """

    config: FortyOneConfig
    seats: tuple[int, ...]
    forehand: int
    starting: dict[int, int]
    stacks: dict[int, int]
    contrib: dict[int, int]
    antes: dict[int, int] = field(default_factory=dict)
    blind: int | None = None
    dead_blind: int = 0
    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    unseen: dict[int, int] = field(default_factory=dict)
    exposed: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    phase: str = "forced_bets"
    round_no: int = 0
    round_bet: dict[int, int] = field(default_factory=dict)
    level: int = 0
    raise_base: int = 0
    raises: int = 0
    capped: bool = False
    acted: set[int] = field(default_factory=set)
    raise_closed: bool = False
    to_act: int | None = None
    round1_actions: int = 0
    shown: set[int] = field(default_factory=set)
    showdown_reached: bool = False
    misdeal: bool = False
    uncontested_winner: int | None = None
    result: Settlement | None = None
    hands: dict[int, FortyOneHand] = field(default_factory=dict)
    events: tuple[dict[str, Any], ...] = ()

    def clone(self) -> FortyOneState:
        """A copy whose mutable containers are fresh (values are immutable, so one level suffices).

        Hand-written copy-on-apply (no ``dataclasses.replace``): one dict update plus the containers.
        """
        new = object.__new__(FortyOneState)
        d = new.__dict__
        d.update(self.__dict__)
        d["starting"] = self.starting.copy()
        d["stacks"] = self.stacks.copy()
        d["contrib"] = self.contrib.copy()
        d["antes"] = self.antes.copy()
        d["hole"] = self.hole.copy()
        d["unseen"] = self.unseen.copy()
        d["exposed"] = self.exposed.copy()
        d["folded"] = self.folded.copy()
        d["round_bet"] = self.round_bet.copy()
        d["acted"] = self.acted.copy()
        d["shown"] = self.shown.copy()
        d["hands"] = self.hands.copy()
        return new

    # helpers ---------------------------------------------------------------------------------------
    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), ascending."""
        folded = self.folded
        if not folded:
            return list(self.seats)
        return [s for s in self.seats if s not in folded]

    @property
    def complete(self) -> bool:
        return self.phase == "complete"

    def after(self, seat: int) -> list[int]:
        """All seats clockwise starting after ``seat`` (``seat`` itself last)."""
        return list(_after_order(self.seats, seat))

    @property
    def unit(self) -> int:
        return self.config.unit(self.round_no or 1)


@lru_cache(maxsize=4096)
def _after_order(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """:meth:`FortyOneState.after` for a seat tuple (pure, so cached)."""
    order = clockwise_order(set(seats) | {seat}, seat)
    return tuple([s for s in order[1:] if s in seats] + ([seat] if seat in seats else []))


@lru_cache(maxsize=4096)
def _clockwise(seats: tuple[int, ...], forehand: int) -> tuple[int, ...]:
    """:func:`clockwise_order` of a seat tuple (pure, so cached)."""
    return tuple(clockwise_order(seats, forehand))


@lru_cache(maxsize=65536)
def _evaluate_held(held: tuple[Card, ...], points_mode: str, category_order: tuple[str, ...],
                   flush_tiebreak: str) -> FortyOneHand:
    """:func:`evaluate` of a seat's four held cards (pure; the result is frozen, so cached)."""
    return evaluate(held, points_mode=points_mode, category_order=category_order, flush_tiebreak=flush_tiebreak)


def new_hand(config: FortyOneConfig, seats: Mapping[int, int], *, button: int) -> FortyOneState:
    """Start a hand. ``seats``: seat -> starting stack in cents (table stakes, B.4a); ``button``: the
    forehand's seat (the Spitz, B.4 step 1).

    Raises :class:`IllegalAction` for fewer than ``min_players`` or more than ``max_players`` seats
    (B.8 #13), a seat without chips, or a forehand not dealt in.
    """
    if not isinstance(config, FortyOneConfig):
        config = build_config(config)
    table = {}
    for seat, stack in seats.items():
        seat_no = int(seat)
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise IllegalAction(gettext_noop("seat %(seat_no)s cannot be dealt in without chips (stack %(stack)s) (B.4a)", seat_no=seat_no, stack=repr(stack)),
                                seat=seat_no, rule="B.4a")
        table[seat_no] = stack
    n = len(table)
    if not config.min_players <= n <= config.max_players:
        raise IllegalAction(gettext_noop("Forty-one is dealt to %(min_players)s to %(max_players)s players, not %(n)s (B.2, B.8 #13)", min_players=config.min_players, max_players=config.max_players, n=n), rule="B.8")
    if button not in table:
        raise IllegalAction(gettext_noop("the forehand (Spitz) must sit at a seat dealt in; seat %(button)s is not (B.4 step 1)", button=button),
                            seat=button, rule="B.4")
    ordered = tuple(sorted(table))
    state = FortyOneState(config=config, seats=ordered, forehand=button, starting=dict(table),
                          stacks=dict(table), contrib={s: 0 for s in ordered})
    _check_forced_done(state)
    return state


# --- event validation -------------------------------------------------------------------------------


def _seat_of(state: FortyOneState, event: Mapping[str, Any]) -> int:
    seat = event.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise UnknownEvent(gettext_noop("%(type)s event: 'seat' must be a seat number, got %(seat)s", type=event.get('type'), seat=repr(seat)))
    if seat not in state.seats:
        raise IllegalAction(gettext_noop("seat %(seat)s is not dealt into this hand (seats %(seats)s)", seat=seat, seats=', '.join(map(str, state.seats))),
                            seat=seat)
    return seat


def _amount(event: Mapping[str, Any], key: str) -> int | None:
    if key not in event:
        return None
    value = event[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidAmount(gettext_noop("%(type)s event: '%(key)s' must be whole cents (an int >= 0), got %(value)s", type=event.get('type'), key=key, value=repr(value)),
                            extra={"field": key})
    if value > MAX_AMOUNT_CENTS:
        raise InvalidAmount(gettext_noop("%(type)s event: '%(key)s' of %(value)s cents is too large", type=event.get('type'), key=key, value=value), extra={"field": key})
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
            err.message = err.message.replace("this game's deck", "the 32-card pack (7 to A, B.2)")
            err.args = (err.message,)
        raise


def _check_shape(event: Any) -> str:
    if type(event) is dict:
        kind = event.get("type")
        if type(kind) is str:
            allowed = _FAST_SHAPE.get(kind)
            if allowed is not None and allowed[0] <= event.keys() and allowed[1].issuperset(event):
                return kind  # the usual well-formed event; anything else is checked in full below
    if not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be an object with a \"type\", got %(type_name)s", type_name=type(event).__name__))
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise UnknownEvent(gettext_noop("unknown Forty-one event type %(kind)s; expected one of %(fields)s", kind=repr(kind), fields=', '.join(_FIELDS)))
    required, optional = _FIELDS[kind]
    missing = sorted(required - set(event))
    if missing == ["to"]:
        raise UnknownEvent(gettext_noop("%(kind)s event: the amount is missing (give 'to': the seat's total bet in "
                                        "this round after the action)", kind=action_word(kind)), extra={"field": "to"})
    if missing:
        raise UnknownEvent(gettext_noop("%(kind)s event: missing %(missing)s", kind=action_word(kind), missing=', '.join(missing)), extra={"field": missing[0]})
    extra = sorted(k for k in event if k not in required | optional | {"type"} | META_KEYS
                   and not str(k).startswith("_"))
    if extra:
        raise UnknownEvent(gettext_noop("%(kind)s event: unknown field %(extra)s", kind=action_word(kind), extra=repr(extra[0])), extra={"field": extra[0]})
    return kind


# --- public verify / can / apply -------------------------------------------------------------------


def apply(state: FortyOneState, event: Mapping[str, Any]) -> FortyOneState:
    """Return the state after ``event`` (see the module docstring for the event shapes).

    Raises (the given ``state`` is never changed): :class:`UnknownEvent` (bad type or field),
    :class:`HandComplete`, :class:`OutOfTurn`, :class:`IllegalAction`, :class:`InvalidAmount`,
    :class:`InvalidCard`, :class:`DuplicateCard`, :class:`WrongCardCount`.
    """
    kind = _check_shape(event)
    if state.complete:
        raise HandComplete(gettext_noop("the hand is over; %(kind)s is not accepted (start the next hand)", kind=action_word(kind)))
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
    in place (nobody else holds it, and it is dropped when an event raises), so nothing is copied.
    """
    state = new_hand(config, seats, button=button)
    stored_events = list(state.events)
    for event in events:
        kind = _check_shape(event)
        if state.phase == "complete":
            raise HandComplete(gettext_noop("the hand is over; %(kind)s is not accepted (start the next hand)", kind=action_word(kind)))
        stored_events.append(_HANDLERS[kind](state, dict(event)))
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


# --- forced bets ------------------------------------------------------------------------------------


def _ante(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase != "forced_bets" or st.config.ante == 0:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot post an ante now: antes are posted before the deal (B.4 step 2)", seat=seat),
                            seat=seat, rule="B.4")
    if seat in st.antes:
        raise IllegalAction(gettext_noop("seat %(seat)s has already posted its ante (B.4 step 2)", seat=seat), seat=seat, rule="B.4")
    due = min(st.config.ante, st.stacks[seat])
    given = _amount(ev, "amount")
    if given is not None and given != due:
        raise InvalidAmount(gettext_noop("seat %(seat)s's ante is %(due)s, not %(given)s (B.4 step 2%(note)s)", seat=seat, due=format_cents(due), given=format_cents(given), note=(gettext_noop(", all-in") if due < st.config.ante else '')), seat=seat, rule="B.4")
    _put(st, seat, due)
    st.antes[seat] = due
    _check_forced_done(st)
    return {"type": "ante", "seat": seat, "amount": due}


def _blind(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase != "forced_bets" or st.blind is not None:
        raise IllegalAction(gettext_noop("the forehand's blind is posted once, before the deal (B.4 step 2)"), seat=seat, rule="B.4")
    if seat != st.forehand:
        raise OutOfTurn(gettext_noop("seat %(seat)s cannot post the blind: the forehand (Spitz) at seat %(forehand)s posts it (B.4 step 2)", seat=seat, forehand=st.forehand), seat=seat, rule="B.4")
    if st.config.ante and seat not in st.antes:
        raise OutOfTurn(gettext_noop("seat %(seat)s posts its ante first, then the blind (B.4a)", seat=seat), seat=seat, rule="B.4a")
    due = min(st.config.lower, st.stacks[seat])
    given = _amount(ev, "amount")
    if given is not None and given != due:
        raise InvalidAmount(gettext_noop("the forehand's blind is %(due)s (the lower limit%(note)s), not %(given)s (B.4 step 2)", due=format_cents(due), note=(gettext_noop(", all-in") if due < st.config.lower else ''), given=format_cents(given)), seat=seat, rule="B.4")
    _post_blind(st, due)
    _check_forced_done(st)
    return {"type": "blind", "seat": seat, "amount": due}


def _post_blind(st: FortyOneState, amount: int) -> None:
    _put(st, st.forehand, amount)
    st.blind = amount
    if not st.config.forehand_post_live:
        st.dead_blind = amount


def _check_forced_done(st: FortyOneState) -> None:
    if st.phase != "forced_bets":
        return
    if st.config.ante and len(st.antes) < len(st.seats):
        return
    if st.blind is None:
        if st.stacks[st.forehand] > 0:
            return
        _post_blind(st, 0)  # the forehand is all-in on the ante (B.4a): nothing left to post
    st.phase = "deal1"


def _put(st: FortyOneState, seat: int, amount: int) -> None:
    st.stacks[seat] -= amount
    st.contrib[seat] += amount


# --- deals and exposure -----------------------------------------------------------------------------


def _deal_targets(st: FortyOneState) -> list[int]:
    """Seats still owed cards in the current deal, clockwise from the forehand (B.4 step 1)."""
    need = CARDS_PER_DEAL * (1 if st.phase == "deal1" else 2)
    seats = st.seats if st.phase == "deal1" else st.live
    hole, unseen = st.hole, st.unseen
    return [s for s in _clockwise(tuple(seats), st.forehand) if len(hole.get(s, ())) + unseen.get(s, 0) < need]


def _deal(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase not in ("deal1", "deal2"):
        raise IllegalAction(gettext_noop("no cards are dealt now (phase %(phase)s); deals follow the forced bets and round 1 (B.4 steps 3-4)", phase=st.phase), seat=seat, rule="B.4")
    if seat not in _deal_targets(st):
        why = gettext_noop("has folded") if seat in st.folded else gettext_noop("already has its cards for this deal")
        raise IllegalAction(gettext_noop("seat %(seat)s cannot be dealt cards: it %(why)s (B.4 step %(note)s)", seat=seat, why=why, note=(3 if st.phase == 'deal1' else 4)),
                            seat=seat, rule="B.4")
    n_unseen, named = _split_unseen(ev.get("cards"))
    cards = _event_cards(st, {**ev, "cards": named}, seat) if named else []
    if len(cards) + n_unseen != CARDS_PER_DEAL:
        raise WrongCardCount(gettext_noop("seat %(seat)s is dealt %(cards_per_deal)s cards in each deal, not %(n_cards)s (B.4 steps 3-4)", seat=seat, cards_per_deal=CARDS_PER_DEAL, n_cards=len(cards) + n_unseen), seat=seat, rule="B.4")
    dealt = {int(c): s for s, held in st.hole.items() for c in held}
    for c in cards:
        if int(c) in dealt:
            raise DuplicateCard(gettext_noop("card %(c)s is already dealt to seat %(dealt)s", c=c, dealt=dealt[int(c)]), seat=seat,
                                extra={"card": str(c)})
    st.hole[seat] = (*st.hole.get(seat, ()), *cards)
    if n_unseen:
        st.unseen[seat] = st.unseen.get(seat, 0) + n_unseen
    if not _deal_targets(st):
        if st.phase == "deal1":
            _start_round(st, 1)
        else:
            st.phase = "expose"
            _check_exposure_done(st)
    return {"type": "deal", "seat": seat, "cards": " ".join([format_cards(cards)] * bool(cards) + ["??"] * n_unseen)}


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


def _expose_pending(st: FortyOneState) -> list[int]:
    start = st.after(st.forehand)
    return [s for s in start if s not in st.folded and s not in st.exposed]


def _expose(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase != "expose":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot expose cards now: players turn up two cards after the second deal (B.4 step 4)", seat=seat), seat=seat, rule="B.4")
    if seat in st.folded:
        raise IllegalAction(gettext_noop("seat %(seat)s has folded and exposes nothing", seat=seat), seat=seat, rule="B.4")
    if seat in st.exposed:
        raise IllegalAction(gettext_noop("seat %(seat)s has already exposed %(exposed)s; an exposure cannot be changed (B.4 step 4)", seat=seat, exposed=format_cards(st.exposed[seat])), seat=seat, rule="B.4")
    pending = _expose_pending(st)
    if st.config.exposure_order == "in_turn" and seat != pending[0]:
        raise OutOfTurn(gettext_noop("seat %(seat)s cannot expose yet: seat %(pending)s exposes first (exposure in turn, B.4 step 4)", seat=seat, pending=pending[0]), seat=seat, rule="B.4")
    cards = _event_cards(st, ev, seat)
    if len(cards) != CARDS_EXPOSED:
        raise WrongCardCount(gettext_noop("seat %(seat)s must expose exactly %(cards_exposed)s of its four cards, not %(n_cards)s (B.4 step 4)", seat=seat, cards_exposed=CARDS_EXPOSED, n_cards=len(cards)), seat=seat, rule="B.4")
    _adopt_unseen(st, seat, cards, "expose")
    for c in cards:
        if c not in st.hole[seat]:
            raise IllegalAction(gettext_noop("seat %(seat)s cannot expose %(c)s: it does not hold it (it holds %(hole)s) (B.4 step 4)", seat=seat, c=c, hole=format_cards(st.hole[seat])), seat=seat, rule="B.4")
    st.exposed[seat] = tuple(cards)
    _check_exposure_done(st)
    return {"type": "expose", "seat": seat, "cards": format_cards(cards)}


def _check_exposure_done(st: FortyOneState) -> None:
    if st.phase == "expose" and not _expose_pending(st):
        _start_round(st, 2)


# --- betting ----------------------------------------------------------------------------------------


def _with_chips(st: FortyOneState) -> list[int]:
    stacks, folded = st.stacks, st.folded
    return [s for s in st.seats if s not in folded and stacks[s] > 0]


def _needs_action(st: FortyOneState, seat: int) -> bool:
    if seat in st.folded or st.stacks[seat] == 0:
        return False
    behind = st.round_bet[seat] < st.level
    if not behind and len(_with_chips(st)) <= 1:
        return False  # nobody left to bet against (B.4a)
    return behind or seat not in st.acted


def _next_to_act(st: FortyOneState, after: int) -> int | None:
    for s in st.after(after):
        if _needs_action(st, s):
            return s
    return None


def _start_round(st: FortyOneState, round_no: int) -> None:
    st.phase = f"round{round_no}"
    st.round_no = round_no
    st.round_bet = {s: 0 for s in st.seats}
    st.acted = set()
    st.raises = 0
    st.capped = False
    st.raise_closed = False
    st.level = st.raise_base = 0
    lower = st.config.lower
    if round_no == 1 and st.config.forehand_post_live and st.blind is not None:
        st.round_bet[st.forehand] = st.blind
        if st.blind >= lower or st.config.short_forehand_blind == "call_full":
            st.level = st.raise_base = lower  # the full blind is the opening bet (B.4 step 3, B.4a)
        else:
            st.level, st.raise_base = st.blind, 0  # call_short: a short blind like a stud bring-in (B.4a)
    st.to_act = _next_to_act(st, st.forehand)
    if st.to_act is None:
        _end_round(st)


def _end_round(st: FortyOneState) -> None:
    st.to_act = None
    if st.round_no == 1:
        st.phase = "deal2"
    else:
        st.phase = "showdown"
        st.showdown_reached = True


def _raise_limit(st: FortyOneState) -> float:
    """Raises allowed in this round now: 3, or ``raise_cap_heads_up`` with two players in (B.4 step 6)."""
    if len(st.live) == 2:
        cap = st.config.raise_cap_heads_up
        return float("inf") if cap is None else cap
    return st.config.max_raises_per_round


class _Options:
    """What ``seat`` may do now in a betting round (amounts in cents).

    ``check_reason``/``wager_reason`` (None when allowed) are worded only when read: the figures they
    quote are captured when the options are computed.
    """

    __slots__ = ("to_call", "call_amount", "wager_type", "wager_to", "counts_as_raise", "_seat", "_check_code",
                 "_wager_code", "_stack", "_level", "_raises")

    def __init__(self, seat: int, to_call: int, call_amount: int, check_code: int, wager_type: str,
                 wager_to: int | None, wager_code: int, counts_as_raise: bool, stack: int, level: int,
                 raises: int) -> None:
        self.to_call = to_call
        self.call_amount = call_amount
        self.wager_type = wager_type
        self.wager_to = wager_to
        self.counts_as_raise = counts_as_raise
        self._seat = seat
        self._check_code = check_code
        self._wager_code = wager_code
        self._stack = stack
        self._level = level
        self._raises = raises

    @property
    def check_reason(self) -> str | None:
        seat, code = self._seat, self._check_code
        if code == _CHECK_TO_CALL:
            return gettext_noop("seat %(seat)s cannot check: %(to_call)s is to call (B.4 step 3)", seat=seat, to_call=format_cents(self.to_call))
        if code == _CHECK_ROUND2_BET:
            return (gettext_noop("seat %(seat)s cannot check: round 2 is opened with a bet (round2_check_allowed=false, B.4 step 5)", seat=seat))
        return None

    @property
    def wager_reason(self) -> str | None:
        seat, code, wager_type = self._seat, self._wager_code, self.wager_type
        if code == _WAGER_ALL_IN:
            return gettext_noop("seat %(seat)s has %(stack)s behind and can only call all-in or fold (B.4a)", seat=seat, stack=format_cents(self._stack))
        if code == _WAGER_CLOSED:
            return (gettext_noop("seat %(seat)s cannot %(wager_type)s: a player called while entitled to raise, so the betting is closed (close_mode raise_right, B.4 step 7)", seat=seat, wager_type=action_word(wager_type)))
        if code == _WAGER_NOT_REOPENED:
            return (gettext_noop("seat %(seat)s cannot raise: the short all-in did not reopen the betting; call %(to_call)s or fold (B.4a)", seat=seat, to_call=format_cents(self.to_call)))
        if code == _WAGER_CAPPED:
            return (gettext_noop("seat %(seat)s cannot raise: the round is capped at %(level)s after %(raises)s raises (B.4 step 6)", seat=seat, level=format_cents(self._level), raises=self._raises))
        if code == _WAGER_NOBODY:
            return gettext_noop("seat %(seat)s cannot %(wager_type)s: no other player still in has chips to call it (B.4a)", seat=seat, wager_type=action_word(wager_type))
        return None


# why a check or a bet/raise is refused (worded by _Options)
_CHECK_TO_CALL, _CHECK_ROUND2_BET = 1, 2
_WAGER_ALL_IN, _WAGER_CLOSED, _WAGER_NOT_REOPENED, _WAGER_CAPPED, _WAGER_NOBODY = 1, 2, 3, 4, 5


def _options(st: FortyOneState, seat: int) -> _Options:
    cfg = st.config
    unit = st.unit
    rb, stack = st.round_bet[seat], st.stacks[seat]
    level = st.level
    to_call = max(0, level - rb)
    call_amount = min(to_call, stack)
    check_code = 0
    if to_call > 0:
        check_code = _CHECK_TO_CALL
    elif st.round_no == 2 and level == 0 and not cfg.round2_check_allowed:
        check_code = _CHECK_ROUND2_BET
    wager_type = "bet" if level == 0 else "raise"
    full_to = st.raise_base + unit
    counts = st.raise_base > 0
    wager_to = min(full_to, rb + stack)
    code = 0
    if stack <= to_call:
        code = _WAGER_ALL_IN
    elif st.raise_closed:
        code = _WAGER_CLOSED
    elif seat in st.acted and level > 0:
        code = _WAGER_NOT_REOPENED
    elif counts and ((st.capped and not cfg.uncap_after_cap) or st.raises >= _raise_limit(st)):
        code = _WAGER_CAPPED
    elif not [s for s in _with_chips(st) if s != seat]:
        code = _WAGER_NOBODY
    return _Options(seat, to_call, call_amount, check_code, wager_type, None if code else wager_to, code, counts,
                    stack, level, st.raises)


def _betting_turn(st: FortyOneState, ev: dict[str, Any], kind: str) -> int:
    seat = _seat_of(st, ev)
    if st.phase not in ("round1", "round2"):
        expect = _PHASE_EXPECT[st.phase]
        raise IllegalAction(gettext_noop("seat %(seat)s cannot %(kind)s now: no betting round is running (the hand expects %(expect)s)", seat=seat, kind=action_word(kind), expect=expect), seat=seat, rule="B.4")
    if seat in st.folded:
        raise IllegalAction(gettext_noop("seat %(seat)s has folded and cannot %(kind)s", seat=seat, kind=action_word(kind)), seat=seat, rule="B.4")
    if seat != st.to_act:
        raise OutOfTurn(gettext_noop("seat %(seat)s cannot %(kind)s: it is seat %(to_act)s's turn (clockwise from the forehand's left, B.4 step 3)", seat=seat, kind=action_word(kind), to_act=st.to_act), seat=seat, rule="B.4", extra={"to_act": st.to_act})
    return seat


def _after_action(st: FortyOneState, seat: int) -> None:
    if st.round_no == 1:
        st.round1_actions += 1
    if len(st.live) == 1:
        _finish_uncontested(st)
        return
    st.to_act = _next_to_act(st, seat)
    if st.to_act is None:
        _end_round(st)


def _fold(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _betting_turn(st, ev, "fold")
    st.folded.add(seat)
    _after_action(st, seat)
    return {"type": "fold", "seat": seat}


def _check(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _betting_turn(st, ev, "check")
    opts = _options(st, seat)
    if opts.check_reason:
        raise IllegalAction(opts.check_reason, seat=seat, rule="B.4")
    st.acted.add(seat)
    _after_action(st, seat)
    return {"type": "check", "seat": seat}


def _call(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _betting_turn(st, ev, "call")
    opts = _options(st, seat)
    if opts.to_call == 0:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot call: there is nothing to call; check, %(wager_type)s or fold (B.4 step 3)", seat=seat, wager_type=action_word(opts.wager_type)), seat=seat, rule="B.4")
    given = _amount(ev, "amount")
    if given is not None and given != opts.call_amount:
        raise InvalidAmount(gettext_noop("seat %(seat)s calls %(call_amount)s, not %(given)s (B.4 step 3)", seat=seat, call_amount=format_cents(opts.call_amount), given=format_cents(given)), seat=seat, rule="B.4")
    if st.config.close_mode == "raise_right" and opts.wager_to is not None and opts.call_amount == opts.to_call:
        st.raise_closed = True  # "Auf!": the holder of the raise right only called (B.4 step 7, Model B)
    _put(st, seat, opts.call_amount)
    st.round_bet[seat] += opts.call_amount
    st.acted.add(seat)
    _after_action(st, seat)
    return {"type": "call", "seat": seat, "amount": opts.call_amount}


def _wager(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    kind = ev["type"]
    seat = _betting_turn(st, ev, kind)
    to = _amount(ev, "to")
    assert to is not None
    opts = _options(st, seat)
    if kind != opts.wager_type:
        if kind == "bet":
            raise IllegalAction(gettext_noop("seat %(seat)s cannot bet: %(level)s is already bet; call, raise or fold (B.4 step 3)", seat=seat, level=format_cents(st.level)), seat=seat, rule="B.4")
        raise IllegalAction(gettext_noop("seat %(seat)s cannot raise: nobody has bet this round; check or bet (B.4 step 5)", seat=seat),
                            seat=seat, rule="B.4")
    if opts.wager_reason:
        raise IllegalAction(opts.wager_reason, seat=seat, rule="B.4")
    assert opts.wager_to is not None
    unit = st.unit
    if to != opts.wager_to:
        allin = opts.wager_to < st.raise_base + unit
        if allin:
            detail = gettext_noop("all-in to %(wager_to)s", wager_to=format_cents(opts.wager_to))
        elif kind == "bet":
            detail = gettext_noop("to %(wager_to)s: a bet is one unit of %(unit)s", wager_to=format_cents(opts.wager_to), unit=format_cents(unit))
        else:
            detail = (gettext_noop("to %(wager_to)s: a raise is one unit of %(unit)s over %(raise_base)s", wager_to=format_cents(opts.wager_to), unit=format_cents(unit), raise_base=format_cents(st.raise_base)))
        raise InvalidAmount(gettext_noop("seat %(seat)s cannot %(kind)s to %(to)s; it may %(kind)s only %(detail)s (split limit, B.4 steps 3 and 5)", seat=seat, kind=action_word(kind), to=format_cents(to), detail=detail), seat=seat, rule="B.4",
                            extra={"to": opts.wager_to})
    if to <= st.level:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot %(kind)s to %(to)s: that does not exceed %(level)s; call instead (B.4a)", seat=seat, kind=action_word(kind), to=format_cents(to), level=format_cents(st.level)), seat=seat, rule="B.4a")
    rb = st.round_bet[seat]
    _put(st, seat, to - rb)
    st.round_bet[seat] = to
    half_ok = st.config.short_allin_rule == "half_bet" and 2 * (to - st.raise_base) >= unit
    full = to >= st.raise_base + unit or half_ok
    st.level = max(st.level, to)
    if full:
        if opts.counts_as_raise:
            st.raises += 1
            if st.raises >= _raise_limit(st):
                st.capped = True
        st.raise_base = to
        st.acted = {seat}
    else:
        st.acted.add(seat)  # a short all-in below half a unit reopens nothing (B.4a)
    _after_action(st, seat)
    return {"type": kind, "seat": seat, "to": to}


# --- showdown, uncontested end, misdeal -------------------------------------------------------------


def _show_pending(st: FortyOneState) -> list[int]:
    return [s for s in st.after(st.forehand) if s not in st.folded and s not in st.shown]


def _show(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase == "showdown":
        if seat in st.folded:
            raise IllegalAction(gettext_noop("seat %(seat)s has folded and has nothing to show", seat=seat), seat=seat, rule="B.4")
        if seat in st.shown:
            raise IllegalAction(gettext_noop("seat %(seat)s has already shown its cards", seat=seat), seat=seat, rule="B.4")
    elif st.phase == "reveal":
        if seat != st.uncontested_winner:
            raise OutOfTurn(gettext_noop("seat %(seat)s cannot show: only seat %(uncontested_winner)s, who won without a showdown, may show or muck (B.6)", seat=seat, uncontested_winner=st.uncontested_winner), seat=seat, rule="B.6")
    else:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot show now: cards are shown at the showdown (B.4 step 9)", seat=seat),
                            seat=seat, rule="B.4")
    if st.unseen.get(seat):
        if "cards" not in ev:
            raise IllegalAction(gettext_noop("seat %(seat)s: its face-down cards were not seen; send all four in "
                                             "'cards' (B.4 step 9)", seat=seat), seat=seat, rule="B.4")
        _adopt_unseen(st, seat, _event_cards(st, ev, seat), "show")
    held = st.hole.get(seat, ())
    if "cards" in ev:
        claimed = _event_cards(st, ev, seat)
        if sorted(claimed) != sorted(held):
            raise IllegalAction(gettext_noop("seat %(seat)s shows %(claimed)s but holds %(held)s", seat=seat, claimed=format_cards(claimed), held=format_cards(held)),
                                seat=seat, rule="B.4")
    if len(held) != SHOWDOWN_CARDS:  # pragma: no cover - the deals guarantee four cards
        raise WrongCardCount(gettext_noop("seat %(seat)s holds %(n_held)s cards; a hand without four cards is dead (B.4b)", seat=seat, n_held=len(held)),
                             seat=seat, rule="B.4b")
    st.shown.add(seat)
    cfg = st.config
    st.hands[seat] = _evaluate_held(tuple(held), cfg.points_mode, cfg.category_order, cfg.flush_tiebreak)
    if st.phase == "showdown" and not _show_pending(st):
        _finish_showdown(st)
    elif st.phase == "reveal":
        _complete(st)
    return {"type": "show", "seat": seat, "cards": format_cards(held)}


def _muck(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    seat = _seat_of(st, ev)
    if st.phase == "showdown":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot muck at the showdown: every player still in turns up all four cards (B.4 step 9)", seat=seat), seat=seat, rule="B.4")
    if st.phase != "reveal" or seat != st.uncontested_winner:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot muck now; to give up the hand, fold in turn (B.4 step 3)", seat=seat),
                            seat=seat, rule="B.4")
    _complete(st)
    return {"type": "muck", "seat": seat}


def _misdeal(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    if st.phase not in ("forced_bets", "deal1") and not (st.phase == "round1" and st.round1_actions < 2):
        raise IllegalAction(gettext_noop("a misdeal can only be called before two players have acted in round 1; the deal stands (B.4b)"), rule="B.4b")
    st.misdeal = True
    st.phase = "complete"
    st.to_act = None
    returned = {s: a for s, a in st.contrib.items() if a}
    st.result = Settlement(contributions=dict(st.contrib), awards={}, returned=returned)
    stored: dict[str, Any] = {"type": "misdeal"}
    if "reason" in ev:
        stored["reason"] = str(ev["reason"])
    return stored


def _finish_uncontested(st: FortyOneState) -> None:
    (winner,) = st.live
    st.uncontested_winner = winner
    st.to_act = None
    held = len(st.hole.get(winner, ())) + st.unseen.get(winner, 0)  # four cards, seen or not (B.4)
    if st.config.bonus_41_requires == "any_shown" and held == SHOWDOWN_CARDS:
        st.phase = "reveal"  # the winner may show a 41 for the bonus (B.6; F-26)
        st.to_act = winner
        return
    _complete(st)


def _finish_showdown(st: FortyOneState) -> None:
    _complete(st)


def _complete(st: FortyOneState) -> None:
    st.phase = "complete"
    st.to_act = None
    st.result = _settle(st)


def _pot_layers(st: FortyOneState) -> tuple[dict[int, int], list[Pot]]:
    """Uncalled amounts and the pots, main first (B.4 step 8, B.4a). The dead blind is main-pot money."""
    totals = {s: st.contrib[s] - (st.dead_blind if s == st.forehand else 0) for s in st.seats}
    returned: dict[int, int] = {}
    ranked = sorted(totals, key=lambda s: -totals[s])
    if len(ranked) > 1 and totals[ranked[0]] > totals[ranked[1]]:
        top = ranked[0]
        returned[top] = totals[top] - totals[ranked[1]]
        totals[top] = totals[ranked[1]]
    layers: list[list[Any]] = []
    previous = 0
    for level in sorted({t for t in totals.values() if t > 0}):
        payers = [s for s in st.seats if totals[s] >= level]
        amount = (level - previous) * len(payers)
        eligible = tuple(s for s in payers if s not in st.folded)
        if layers and (eligible == layers[-1][1] or not eligible):
            layers[-1][0] += amount
        else:
            layers.append([amount, eligible])
        previous = level
    if st.dead_blind:
        if layers:
            layers[0][0] += st.dead_blind
        else:
            layers.append([st.dead_blind, tuple(st.live)])
    return returned, [Pot(amount, eligible) for amount, eligible in layers]


def _taxes(st: FortyOneState, pots: Sequence[Pot], contested: bool) -> list[int]:
    """Tax per pot (B.5), see :func:`~rules.engines.forty_one_config.pot_taxes`."""
    return pot_taxes(st.config, [p.amount for p in pots], contested=contested, antes=sum(st.antes.values()))


def _settle(st: FortyOneState) -> Settlement:
    returned, pots = _pot_layers(st)
    contested = st.showdown_reached
    taxes = _taxes(st, pots, contested)
    awards: dict[int, int] = {}
    pot_awards: list[tuple[int, int, int]] = []
    winners: list[int] = []
    for index, (pot, tax) in enumerate(zip(pots, taxes)):
        if contested:
            contenders = {s: st.hands[s] for s in pot.eligible}
            winner = rank_seats(contenders, st.forehand, table_seats=st.seats)[0]
        else:
            winner = st.uncontested_winner if st.uncontested_winner is not None else pot.eligible[0]
        amount = pot.amount - tax
        awards[winner] = awards.get(winner, 0) + amount
        pot_awards.append((index, winner, amount))
        if winner not in winners:
            winners.append(winner)
    bonus = _bonus(st, winners)
    return Settlement(
        contributions=dict(st.contrib), awards=awards, returned=returned, tax=sum(taxes), bonus=bonus,
        pots=tuple(pots), pot_awards=tuple(pot_awards), winners=tuple(winners),
    )


def _bonus(st: FortyOneState, pot_winners: Sequence[int]) -> dict[int, int]:
    """The 41 special payment owed by the house, per seat (B.6; F-16, F-19, F-26)."""
    cfg = st.config
    holders = [s for s in sorted(st.shown) if st.hands[s].is_41]
    if cfg.bonus_41_requires in ("shown_at_showdown", "won_pot") and not st.showdown_reached:
        holders = []
    if cfg.bonus_41_requires == "won_pot":
        holders = [s for s in holders if s in pot_winners]
    if len(holders) > 1 and cfg.bonus_41_multiple_holders == "pot_winner_only":
        holders = [s for s in holders if s in pot_winners]
    return {s: cfg.bonus_41_amount for s in holders if cfg.bonus_41_amount}


_HANDLERS = {
    "ante": _ante, "blind": _blind, "deal": _deal, "check": _check, "call": _call, "fold": _fold,
    "bet": _wager, "raise": _wager, "expose": _expose, "show": _show, "muck": _muck, "misdeal": _misdeal,
}


# --- view -------------------------------------------------------------------------------------------


def _expect(st: FortyOneState) -> str | None:
    if st.phase == "forced_bets":
        return "ante" if st.config.ante and len(st.antes) < len(st.seats) else "blind"
    return _PHASE_EXPECT[st.phase]


def _hint(st: FortyOneState) -> int | None:
    """The seat the croupier should log next (strict in betting and in-turn exposure, a suggestion elsewhere)."""
    if st.phase == "forced_bets":
        missing = [s for s in _clockwise(st.seats, st.forehand) if st.config.ante and s not in st.antes]
        if missing:
            return missing[0]
        return st.forehand
    if st.phase in ("deal1", "deal2"):
        targets = _deal_targets(st)
        return targets[0] if targets else None
    if st.phase == "expose":
        pending = _expose_pending(st)
        return pending[0] if pending else None
    if st.phase == "showdown":
        pending = _show_pending(st)
        return pending[0] if pending else None
    return st.to_act


def legal_actions(state: FortyOneState) -> list[dict[str, Any]]:
    """The actions open to ``view()["to_act"]`` now, as ``{"type", "min", "max"}`` (cents, or None).

    ``ante``/``blind``/``call``: the chips the action puts in; ``bet``/``raise``: the seat's total for the
    round after it ("to"). Floor events (``misdeal``) are not listed.
    """
    st = state
    seat = _hint(st)
    if seat is None:
        return []
    phase = st.phase

    def item(kind: str, amount: int | None = None) -> dict[str, Any]:
        return {"type": kind, "min": amount, "max": amount}

    if phase == "forced_bets":
        if _expect(st) == "ante":
            return [item("ante", min(st.config.ante, st.stacks[seat]))]
        return [item("blind", min(st.config.lower, st.stacks[seat]))]
    if phase in ("deal1", "deal2"):
        return [item("deal")]
    if phase == "expose":
        return [item("expose")]
    if phase == "showdown":
        return [item("show")]
    if phase == "reveal":
        return [item("show"), item("muck")]
    opts = _options(st, seat)
    actions = [item("fold")]
    if opts.check_reason is None:
        actions.append(item("check"))
    elif opts.to_call > 0:
        actions.append(item("call", opts.call_amount))
    if opts.wager_to is not None:
        actions.append(item(opts.wager_type, opts.wager_to))
    return actions


def _pots_json(pots: Sequence[Pot]) -> list[dict[str, Any]]:
    return [{"amount": p.amount, "eligible": list(p.eligible)} for p in pots]


def settlement_to_dict(result: Settlement) -> dict[str, Any]:
    """The JSON form of a :class:`Settlement` (seat keys as strings, cents as ints)."""

    def by_seat(values: Mapping[int, int]) -> dict[str, int]:
        return {str(s): v for s, v in sorted(values.items())}

    return {
        "contributions": by_seat(result.contributions),
        "awards": by_seat(result.awards),
        "returned": by_seat(result.returned),
        "tax": result.tax,
        "fees": by_seat(result.fees),
        "bonus": by_seat(result.bonus),
        "pots": _pots_json(result.pots),
        "pot_awards": [{"pot": i, "seat": s, "amount": a} for i, s, a in result.pot_awards],
        "winners": list(result.winners),
        "net": by_seat(result.net),
    }


def view(state: FortyOneState) -> dict[str, Any]:
    """The croupier's JSON view of the hand.

    Keys: ``phase``/``street`` (``forced_bets``, ``deal1``, ``round1``, ``deal2``, ``expose``, ``round2``,
    ``showdown``, ``reveal``, ``complete``), ``expect`` (``ante``|``blind``|``deal``|``action``|``expose``|
    ``showdown``|``show``|None), ``to_act``, ``legal_actions``, ``round``, ``unit``, ``to_call``, ``level``,
    ``raises``, ``raises_left`` (None = unlimited), ``pots`` (uncalled amounts left out; see ``uncalled``),
    ``pot_total``, ``tax``, ``stacks``, ``contributions``, ``exposed``, ``folded``, ``forehand``,
    ``complete``, ``misdeal``, ``winner`` (main-pot winner), ``bonus``, ``net`` and ``settlement`` once
    complete. Seat keys are strings; money in cents.
    """
    st = state
    returned, pots = _pot_layers(st)
    seat = _hint(st)
    betting = st.phase in ("round1", "round2")
    raises_left: int | None = None
    if betting:
        limit = _raise_limit(st)
        if st.capped and not st.config.uncap_after_cap:
            raises_left = 0
        elif limit != float("inf"):
            raises_left = max(0, int(limit) - st.raises)
    out: dict[str, Any] = {
        "game": GAME,
        "phase": st.phase,
        "street": st.phase,
        "expect": _expect(st),
        "to_act": seat,
        "legal_actions": legal_actions(st),
        "forehand": st.forehand,
        "round": st.round_no or None,
        "unit": st.unit if betting else None,
        "level": st.level if betting else None,
        "to_call": max(0, st.level - st.round_bet[seat]) if betting and seat is not None else None,
        "raises": st.raises if betting else None,
        "raises_left": raises_left,
        "pots": _pots_json(pots),
        "uncalled": {str(s): a for s, a in returned.items()},
        "pot_total": sum(st.contrib.values()),
        "tax": st.result.tax if st.result else 0,
        "stacks": {str(s): st.stacks[s] for s in st.seats},
        "contributions": {str(s): st.contrib[s] for s in st.seats},
        "round_bets": {str(s): st.round_bet[s] for s in st.seats} if betting else {},
        "exposed": {str(s): format_cards(c) for s, c in st.exposed.items()},
        "folded": sorted(st.folded),
        "complete": st.complete,
        "misdeal": st.misdeal,
        "winner": None,
    }
    if st.complete and st.result is not None:
        result = st.result
        out["settlement"] = settlement_to_dict(result)
        out["winner"] = result.winners[0] if result.winners else None
        out["bonus"] = {str(s): a for s, a in result.bonus.items()}
        out["net"] = {str(s): a for s, a in result.net.items()}
        out["final_stacks"] = {
            str(s): st.stacks[s] + result.awards.get(s, 0) + result.returned.get(s, 0) for s in st.seats
        }
        out["hands"] = {str(s): {"category": h.category, "description": h.description,
                                 "cards": format_cards(h.cards)} for s, h in sorted(st.hands.items())}
    return out


# --- Spitz ------------------------------------------------------------------------------------------


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


# --- simulation -------------------------------------------------------------------------------------


def random_hand(
    config: FortyOneConfig,
    seats: Mapping[int, int],
    button: int,
    rng: _random.Random,
    *,
    aggression: float = 0.35,
    fold_rate: float = 0.12,
    max_events: int = 500,
) -> list[dict[str, Any]]:
    """A random legal hand (events only), driven by ``view()``; for demos and property tests.

    ``rng`` is the only source of randomness (STYLE.md). Raises ``RuntimeError`` if the hand does not
    end within ``max_events`` (a bug).
    """
    state = new_hand(config, seats, button=button)
    deck = sorted(PIQUET_32)
    rng.shuffle(deck)
    events: list[dict[str, Any]] = []
    while not state.complete:
        if len(events) >= max_events:
            raise RuntimeError("random_hand: the hand did not end")
        seat = _hint(state)
        expect = _expect(state)
        event: dict[str, Any]
        if expect in ("ante", "blind"):
            event = {"type": expect, "seat": seat}
        elif expect == "deal":
            cards, deck = deck[:CARDS_PER_DEAL], deck[CARDS_PER_DEAL:]
            event = {"type": "deal", "seat": seat, "cards": format_cards(cards)}
        elif expect == "expose":
            assert seat is not None
            event = {"type": "expose", "seat": seat,
                     "cards": format_cards(rng.sample(list(state.hole[seat]), CARDS_EXPOSED))}
        elif expect == "showdown":
            event = {"type": "show", "seat": seat}
        elif expect == "show":
            event = {"type": rng.choice(["show", "show", "muck"]), "seat": seat}
        else:
            actions = {a["type"]: a for a in legal_actions(state)}
            roll = rng.random()
            wager = "bet" if "bet" in actions else "raise" if "raise" in actions else None
            passive = "check" if "check" in actions else "call" if "call" in actions else None
            if roll < fold_rate and "check" not in actions:
                event = {"type": "fold", "seat": seat}
            elif wager and (roll < fold_rate + aggression or passive is None):
                event = {"type": wager, "seat": seat, "to": actions[wager]["min"]}
            else:
                event = {"type": passive or "fold", "seat": seat}
        state = apply(state, event)
        events.append(event)
    return events


# --- showdown tool ----------------------------------------------------------------------------------


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Rank a Forty-one showdown (issue 3; called by ``rules.showdown.run_showdown``).

    Input: ``{"game": "forty_one", "hands": {SEAT: CARDS}, "forehand": SEAT, "config": {...}}``; each hand
    has exactly four cards of the 32-card pack (B.3, B.4b), French text or, with ``config.deck =
    "double_german"``, German names; ``config`` may set ``deck``, ``points_mode``, ``category_order``,
    ``flush_tiebreak`` (B.9; money keys are not needed here and are ignored).

    Output: ``{"game": "forty_one", "ranking": [[seat], ...], "seats": {"SEAT": {"category",
    "description", "cards", "shown", "value", "priority", "is_41"}}, "winner": seat, "forehand": seat}``.
    Forty-one never splits (B.3 rule 5): equal hands are ordered by clockwise distance from the
    forehand's seat, so every ranking group holds exactly one seat. ``"cards"`` are the cards that count.

    Raises :class:`~rules.engines.showdown.MalformedShowdown` (shape, seat, missing forehand),
    :class:`ConfigError`, :class:`InvalidCard`, :class:`WrongCardCount`, :class:`DuplicateCard`.
    """
    from rules.engines.showdown import MalformedShowdown, parse_seat, parse_showdown_hands, require_document

    doc = require_document(doc)
    raw_config = doc.get("config") or {}
    if not isinstance(raw_config, Mapping):
        raise MalformedShowdown(gettext_noop("\"config\" must be an object of Forty-one keys"), extra={"field": "config"})
    options = {k: raw_config[k] for k in ("deck", "points_mode", "category_order", "flush_tiebreak")
               if k in raw_config}
    placeholder = {"ante": "0", "limits": ["1", "1"], "tax_cap": "0", "bonus_41_amount": "0"}
    config = build_config({**placeholder, **options})
    if "forehand" not in doc:
        raise MalformedShowdown(gettext_noop("a Forty-one showdown needs \"forehand\": the Spitz seat decides ties (B.3 rule 5)"),
                                extra={"field": "forehand"})
    forehand = parse_seat(doc["forehand"])
    if config.deck == "double_german":
        hands = _german_hands(doc, config)
    else:
        try:
            hands = parse_showdown_hands(doc, deck=PIQUET_32, card_counts=(SHOWDOWN_CARDS,),
                                         game_label="a Forty-one hand (B.3)")
        except InvalidCard as err:
            message = err.message.replace("this game's deck", "the 32-card pack (7 to A, B.2)")
            if _GERMAN_WORDS.search(str(err.extra.get("token", ""))):
                message += '; for German names set "config": {"deck": "double_german"}'
            err.message = message
            err.args = (message,)
            raise
    evaluated = {seat: evaluate(cards, **config.evaluator_options) for seat, cards in hands.items()}
    order = rank_seats(evaluated, forehand)
    table = clockwise_order(set(hands) | {forehand}, forehand)
    seats_out = {
        str(seat): {
            "category": hand.category,
            "description": hand.description,
            "cards": format_cards(hand.cards),
            "shown": format_cards(hands[seat]),
            "value": hand.value,
            "priority": table.index(seat),
            "is_41": hand.is_41,
        }
        for seat, hand in evaluated.items()
    }
    return {"game": GAME, "ranking": [[s] for s in order], "seats": seats_out, "winner": order[0],
            "forehand": forehand}


_GERMAN_WORDS = re.compile(r"eichel|laub|gr(ü|ue)n|herz|schellen|unter|ober|k(ö|oe)nig|ass|daus", re.IGNORECASE)


def _german_hands(doc: Mapping[str, Any], config: FortyOneConfig) -> dict[int, list[Card]]:
    from rules.engines.showdown import MalformedShowdown, parse_seat

    raw = doc.get("hands")
    if not isinstance(raw, Mapping) or not raw:
        raise MalformedShowdown(gettext_noop("\"hands\" must map each seat to its cards, e.g. {\"1\": \"Herz Ass, Herz König, ...\"}"),
                                extra={"field": "hands"})
    hands: dict[int, list[Card]] = {}
    owner: dict[int, int] = {}
    for raw_seat, raw_cards in raw.items():
        seat = parse_seat(raw_seat)
        if seat in hands:
            raise MalformedShowdown(gettext_noop("seat %(seat)s is given twice", seat=seat), seat=seat)
        try:
            cards = parse_pack_cards(raw_cards, config)
        except RuleViolation as err:
            err.seat = seat
            err.message = gettext_noop("seat %(seat)s: %(message)s", seat=seat, message=err.message)
            err.args = (err.message,)
            raise
        if len(cards) != SHOWDOWN_CARDS:
            raise WrongCardCount(gettext_noop("seat %(seat)s shows %(n_cards)s cards; a Forty-one hand has 4 (B.3)", seat=seat, n_cards=len(cards)), seat=seat,
                                 extra={"count": len(cards), "allowed": [SHOWDOWN_CARDS]})
        for c in cards:
            if int(c) in owner:
                raise DuplicateCard(gettext_noop("card %(c)s is shown twice: in seat %(owner)s and in seat %(seat)s", c=c, owner=owner[int(c)], seat=seat),
                                    seat=seat, extra={"card": str(c)})
            owner[int(c)] = seat
        hands[seat] = cards
    return dict(sorted(hands.items()))


# --- the engine object ------------------------------------------------------------------------------


class FortyOneEngine:
    """The :class:`~rules.engines.base.GameEngine` for Forty-one (``ENGINE``); thin wrappers of this module."""

    game = GAME

    def build_config(self, raw: Mapping[str, Any]) -> FortyOneConfig:
        return build_config(raw)

    def config_to_dict(self, config: FortyOneConfig) -> dict[str, Any]:
        return config_to_dict(config)

    def new_hand(self, config: FortyOneConfig, seats: Mapping[int, int], *, button: int) -> FortyOneState:
        return new_hand(config, seats, button=button)

    def apply(self, state: FortyOneState, event: Mapping[str, Any]) -> FortyOneState:
        return apply(state, event)

    def verify(self, state: FortyOneState, event: Mapping[str, Any]) -> None:
        verify(state, event)

    def can_apply(self, state: FortyOneState, event: Mapping[str, Any]) -> bool:
        return can_apply(state, event)

    def view(self, state: FortyOneState) -> dict[str, Any]:
        return view(state)

    def is_complete(self, state: FortyOneState) -> bool:
        return is_complete(state)

    def settlement(self, state: FortyOneState) -> Settlement:
        return settlement(state)

    def next_button(self, occupied: Sequence[int], current: int) -> int:
        return next_button(occupied, current)

    def next_forehand(self, state: FortyOneState, occupied: Sequence[int]) -> int:
        return next_forehand(state, occupied)

    def replay(self, config: FortyOneConfig, seats: Mapping[int, int], events: Iterable[Mapping[str, Any]], *,
               button: int) -> FortyOneState:
        return replay(config, seats, events, button=button)

    def random_hand(self, config: FortyOneConfig, seats: Mapping[int, int], button: int,
                    rng: _random.Random) -> list[dict[str, Any]]:
        return random_hand(config, seats, button, rng)

    def showdown(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return showdown(doc)


ENGINE = FortyOneEngine()
