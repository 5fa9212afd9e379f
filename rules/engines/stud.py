"""Seven Card Stud engine (spec ``seven_card_stud.md`` §1-§12, Bavarian house sheet first).

A hand is its :class:`~rules.engines.stud_config.StudConfig` plus the seats with their stacks plus
an ordered list of events. :func:`apply` returns a new :class:`StudState` (the input is never
changed) or raises a :class:`~rules.engines.errors.RuleViolation` subclass whose message names the
seat, the action and the rule. Replaying the same events always gives the same state.

Seats and order
    Table seats are fixed numbers (1..8). ``button`` is the dealer-button seat; the spec's "seat 1"
    (first to be dealt, R1.2) is the first occupied seat clockwise after it (higher numbers first,
    then wrapping round). Every message names the table seat number.

Amounts
    Int cents, the unit of the stacks. ``to`` amounts are the seat's *total for the street*, as PHH
    ``cbr`` does ("raise to 20.00"). Split-limit wagers are the exact fixed amounts; spread wagers
    must be whole chip units (``chip_unit``) unless all-in.

Events (JSON dicts; ``seat`` is a table seat number, cards canonical strings, ``??`` = unknown card)
    ``{"type": "ante", "seat": s[, "amount": c]}``
        Every seat posts ``min(ante, stack)`` before any card (R1.2, R10.4). Any order. If ``amount``
        is given it must equal that figure. With ``ante`` 0 the ante phase is skipped.
    ``{"type": "burn"[, "card": "7h"]}``
        Optional record of the burn before 4th-7th street (R1.3; also 3rd with
        ``burn_before_first_deal``). Unlogged burns are counted automatically when the street's first
        card is dealt, so deck accounting (R9) is right either way.
    ``{"type": "deal", "seat": s, "cards": "As Kd 7h"[, "face": "down"|"up"]}``
        1-3 cards for the seat's current street, in deal order (3rd: down down up; 4th-6th: up;
        7th: down). ``face`` is optional; a 1st/2nd card dealt face ``up`` is the exposure of R12.2
        (that seat's third card then comes face down). Unknown down cards may be ``??``.
    ``{"type": "deal_community", "card": "7d"}``
        The 7th-street community card when the deck runs out (R9.3), or as ``rrop_reshuffle`` falls
        back to it (R9.5).
    ``{"type": "bring_in", "seat": s}``
        The low card's forced bring-in (R4.1-R4.2, R7.4; short stacks post all, R10.3).
    ``{"type": "complete"|"bet"|"raise", "seat": s, "to": c}``
        A wager to ``c``. The type must be the one :func:`view` lists: ``bet`` when nothing is bet,
        ``complete`` when only a bring-in or a short all-in bet stands (R4.6, R6.5, R7.5, R10.3),
        ``raise`` otherwise. The bring-in seat's open for more than the bring-in is ``complete``.
    ``{"type": "call"|"check"|"fold", "seat": s}``
    ``{"type": "taxe"[, "amount": c]}``
        Optional croupier confirmation. The Taxe itself is taken **automatically** from the pot the
        moment the last 4th-street up card is dealt (R8.1); none if the hand ends on 3rd street
        (R8.2). A logged ``taxe`` event must match the amount taken.
    ``{"type": "show", "seat": s[, "cards": "..."]}`` / ``{"type": "muck", "seat": s}``
        Showdown, in the order of R11.1 (last aggressor on 7th, else the high board, then clockwise).
        ``cards`` (all of the seat's own cards) fills in unknown down cards. A seat may not muck if
        that would leave a pot with nobody to win it; the last hand left wins unshown (R1.5).
    ``{"type": "misdeal"}``
        Floor event (R12.1): only on 3rd street before two players have acted (the forced bring-in
        does not count); voids the hand and returns every chip.
    ``{"type": "card_exposed", "seat": s, "card": "As"}``
        Floor event (R12.2), 3rd street only: a dealt down card was turned up. It becomes the seat's
        up card and the third card is dealt face down; both down cards exposed = dead hand, ante
        returned.

Automation
    ``view(state)["expect"]`` tells what comes next: ``"ante"``, ``"deal"``, ``"deal_community"``,
    ``"bring_in"``, ``"action"``, ``"show"`` or ``None`` (complete); ``legal_actions`` lists the
    exact events that are legal now with their amounts (``min``/``max`` are the ``to`` totals for
    wagers and the chips put in for ``call``/``ante``/``bring_in``; split-limit wagers also carry the
    exact ``amounts``).

Decisions the spec leaves open, as implemented here
    * ``fold`` is refused when the seat could check (it is never forced to fold).
    * Several short all-ins reopen the betting once together they reach a full unit over the last
      full wager (R6.5); under ``half_bet`` a single all-in of half a unit or more is full.
    * Spread limit: a completion of a short bet (R7.5) may be any amount in [min, max].
    * With ``bring_in_may_fold`` a folded bring-in leaves 3rd street unopened: the next seats may
      check or bet.
    * The bring-in falls to the lowest door card among seats that still have chips (a seat all-in
      from its ante cannot post it).
    * 7th-street cards dealt face up (R12.3) are recorded but do not change the acting order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_DOWN, Decimal
from functools import lru_cache
from typing import Any

from rules.core.seats import clockwise_after, next_clockwise
from rules.engines.base import Pot, Settlement
from rules.engines.cards import CARDS, parse_card
from rules.engines.errors import (
    ConfigError,
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    OutOfTurn,
    RuleViolation,
    UnknownEvent,
)
from rules.engines.evaluators.low import ace_to_five_key, eight_or_better_key, low_board_key
from rules.engines.evaluators.stud import stud_key
from rules.engines.evaluators.stud_board import board_key, board_suit_key
from rules.engines.messages import Amount, gettext_noop, or_list
from rules.engines.stud_config import StudConfig, build_config, config_to_dict
from rules.engines.stud_variant import SEVEN_CARD_STUD, StudVariant

__all__ = [
    "ENGINE",
    "StudEngine",
    "StudState",
    "apply",
    "build_config",
    "config_to_dict",
    "is_complete",
    "legal_actions",
    "new_hand",
    "next_button",
    "replay",
    "settlement",
    "view",
]

#: The Taxe in ``percent_with_cap`` mode is rounded down to the chip unit (R8.3).
TAXE_ROUNDING = ROUND_DOWN
#: Cards in the stud deck (R1.1).
DECK_SIZE = 52
UNKNOWN = -1
#: Faces of each street's cards for a seat (R1.3): True = face up.
PATTERN: dict[int, tuple[bool, ...]] = {3: (False, False, True), 4: (True,), 5: (True,), 6: (True,), 7: (False,)}
_WAGERS = ("bet", "complete", "raise")
#: How a message names each event as an action ("seat 2 cannot be dealt cards: ...").
#: Every other action is named by its event type, marked here so that it is translated.
_ACTION_WORDS = {"deal": gettext_noop("be dealt cards"), "bring_in": gettext_noop("bring it in"),
                 "ante": gettext_noop("post an ante"), "card_exposed": gettext_noop("record an exposed card"),
                 "bet": gettext_noop("bet"), "complete": gettext_noop("complete"), "raise": gettext_noop("raise"),
                 "call": gettext_noop("call"), "check": gettext_noop("check"), "fold": gettext_noop("fold"),
                 "show": gettext_noop("show"), "muck": gettext_noop("muck"), "burn": gettext_noop("burn"),
                 "taxe": gettext_noop("taxe"), "misdeal": gettext_noop("misdeal"),
                 "deal_community": gettext_noop("deal_community")}
_STREET_NAMES = {3: gettext_noop("3rd"), 4: gettext_noop("4th"), 5: gettext_noop("5th"), 6: gettext_noop("6th"),
                 7: gettext_noop("7th")}
_EVENT_TYPES = frozenset({
    "ante", "burn", "deal", "deal_community", "bring_in", "complete", "bet", "raise", "call", "check",
    "fold", "taxe", "show", "muck", "misdeal", "card_exposed",
})


class StudState:
    """One hand in progress. Treat as immutable: :func:`apply` returns a copy.

    Per-seat lists are indexed by *position* (0 = first seat left of the button, R1.2);
    ``seats[i]`` is the table seat number. Amounts in cents.
    """

    __slots__ = (
        "cfg", "seats", "pos", "n", "button", "start", "stack", "contrib", "returned", "sc", "folded",
        "dead", "ante_paid", "ante_done", "cards", "exposed", "dealt", "n_dealt", "burns", "burned",
        "burned_streets", "community", "phase", "street", "bet_to", "full_to", "wagers", "last_inc",
        "big_bet", "acted", "to_act", "bring_in_idx", "open_pair", "uncapped", "last_aggr", "taxe",
        "taxe_split", "taxe_taken", "taxe_logged", "shown", "mucked", "show_order", "awards",
        "pot_awards", "final_pots", "voluntary", "void", "seventh_mode", "n_events", "variant", "pot_halves",
    )

    cfg: StudConfig
    seats: tuple[int, ...]
    pos: dict[int, int]
    n: int
    button: int
    start: tuple[int, ...]
    stack: list[int]
    contrib: list[int]
    returned: list[int]
    sc: list[int]
    folded: list[bool]
    dead: list[bool]
    ante_paid: list[int]
    ante_done: list[bool]
    cards: list[tuple[tuple[int, bool], ...]]
    exposed: list[int]
    dealt: set[int]
    n_dealt: int
    burns: int
    burned: list[int]
    burned_streets: list[int]
    community: int | None
    phase: str
    street: int
    bet_to: int
    full_to: int
    wagers: int
    last_inc: int
    big_bet: bool
    acted: list[int | None]
    to_act: int | None
    bring_in_idx: int | None
    open_pair: bool
    uncapped: bool
    last_aggr: int | None
    taxe: int
    taxe_split: tuple[int, ...]
    taxe_taken: bool
    taxe_logged: bool
    shown: list[bool]
    mucked: list[bool]
    show_order: tuple[int, ...]
    awards: list[int]
    pot_awards: tuple[tuple[int, int, int], ...]
    final_pots: tuple[tuple[int, tuple[int, ...]], ...]
    voluntary: int
    void: bool
    seventh_mode: str | None
    n_events: int
    variant: StudVariant
    pot_halves: tuple[tuple[int, int], ...]

    def copy(self) -> StudState:
        """A copy that shares the immutable fields and copies the per-seat lists and the dealt set
        (hand-written: a getattr/setattr loop costs ~10x more; test_stud_engine checks every slot)."""
        new = StudState.__new__(StudState)
        (new.cfg, new.seats, new.pos, new.n, new.button, new.start, new.n_dealt, new.burns, new.community,
         new.phase, new.street, new.bet_to, new.full_to, new.wagers, new.last_inc, new.big_bet, new.to_act,
         new.bring_in_idx, new.open_pair, new.uncapped, new.last_aggr, new.taxe, new.taxe_split, new.taxe_taken,
         new.taxe_logged, new.show_order, new.pot_awards, new.final_pots, new.voluntary, new.void,
         new.seventh_mode, new.n_events, new.variant, new.pot_halves) = (
            self.cfg, self.seats, self.pos, self.n, self.button, self.start, self.n_dealt, self.burns,
            self.community, self.phase, self.street, self.bet_to, self.full_to, self.wagers, self.last_inc,
            self.big_bet, self.to_act, self.bring_in_idx, self.open_pair, self.uncapped, self.last_aggr, self.taxe,
            self.taxe_split, self.taxe_taken, self.taxe_logged, self.show_order, self.pot_awards, self.final_pots,
            self.voluntary, self.void, self.seventh_mode, self.n_events, self.variant, self.pot_halves)
        (new.stack, new.contrib, new.returned, new.sc, new.folded, new.dead, new.ante_paid, new.ante_done,
         new.cards, new.exposed, new.burned, new.acted, new.shown, new.mucked, new.awards, new.burned_streets) = (
            self.stack[:], self.contrib[:], self.returned[:], self.sc[:], self.folded[:], self.dead[:],
            self.ante_paid[:], self.ante_done[:], self.cards[:], self.exposed[:], self.burned[:], self.acted[:],
            self.shown[:], self.mucked[:], self.awards[:], self.burned_streets[:])
        new.dealt = set(self.dealt)
        return new

    def __repr__(self) -> str:
        return f"<StudState street={self.street} phase={self.phase} to_act={self.to_act_seat}>"

    @property
    def to_act_seat(self) -> int | None:
        return None if self.to_act is None else self.seats[self.to_act]

    @property
    def complete(self) -> bool:
        return self.phase == "complete"


_LIST_SLOTS = (
    "stack", "contrib", "returned", "sc", "folded", "dead", "ante_paid", "ante_done", "cards", "exposed",
    "burned", "acted", "shown", "mucked", "awards", "burned_streets",
)
_IMMUTABLE_SLOTS = tuple(
    s for s in StudState.__slots__ if s not in _LIST_SLOTS and s != "dealt"
)


# --------------------------------------------------------------------------------------------- helpers


def _seat_err(cls: type[RuleViolation], s: StudState, i: int, action: str, reason: str, rule: str,
              **extra: Any) -> RuleViolation:
    seat = s.seats[i]
    words = _ACTION_WORDS.get(action, action) if type(action) is str else action
    return cls(gettext_noop("seat %(seat)s cannot %(action)s: %(reason)s (%(rule)s)", seat=seat, action=words,
                            reason=reason, rule=rule), seat=seat, rule=rule, extra={"action": action, **extra})


def _m(c: int) -> Amount:
    return Amount(c)


def _live(s: StudState, i: int) -> bool:
    return not s.folded[i]


def _n_live(s: StudState) -> int:
    return s.folded.count(False)


def _with_chips(s: StudState) -> list[int]:
    return [i for i in range(s.n) if not s.folded[i] and s.stack[i] > 0]


def _board(s: StudState, i: int) -> list[int]:
    """Up cards of position ``i`` that count for acting order (7th-street card excluded, R5.5)."""
    board = [c for c, up in s.cards[i][:6] if up and c != UNKNOWN]
    if s.community is not None and s.street == 7:
        board.append(s.community)
    return board


def _board_rank(s: StudState, i: int) -> tuple[Any, ...]:
    b = _board(s, i)
    if not b:
        return (-1,)
    if s.variant.boards == "low":
        return _low_rank_of(tuple(b))
    return _rank_of(tuple(b), s.cfg.board_counts_straights_flushes, s.cfg.high_board_tiebreak == "suit")


@lru_cache(maxsize=1 << 14)
def _low_rank_of(board: tuple[int, ...]) -> tuple[Any, ...]:
    """A low board as a key where bigger acts first (RZ5.1): the low key with every number negated."""
    shape, ranks = low_board_key(board)
    return (0, tuple(-x for x in shape), tuple(-r for r in ranks))


@lru_cache(maxsize=1 << 16)
def _rank_of(board: tuple[int, ...], counts_sf: bool, by_suit: bool) -> tuple[Any, ...]:
    k = board_key(board, counts_straights_flushes=counts_sf)
    return (k, board_suit_key(board)) if by_suit else (k,)


def _high_board(s: StudState, candidates: Sequence[int]) -> int:
    """The best board among ``candidates`` (positions); ties to the earliest position (R5.1-R5.3)."""
    cfg = s.cfg
    counts_sf, by_suit = cfg.board_counts_straights_flushes, cfg.high_board_tiebreak == "suit"
    low = s.variant.boards == "low"
    extra = (s.community,) if s.community is not None and s.street == 7 else ()
    cards = s.cards
    best = None
    best_key: tuple[Any, ...] = ()
    for i in candidates:
        b = tuple([c for c, up in cards[i][:6] if up and c != UNKNOWN]) + extra
        k = (_low_rank_of(b) if low else _rank_of(b, counts_sf, by_suit)) if b else (-1,)
        if best is None or k > best_key:
            best, best_key = i, k
    return best  # type: ignore[return-value]


def _need(s: StudState, i: int) -> int:
    """How many cards position ``i`` still needs on the current street."""
    have = len(s.cards[i])
    target = 3 if s.street == 3 else s.street
    return max(0, target - have)


def _stub(s: StudState) -> int:
    return DECK_SIZE - s.n_dealt - s.burns


def _is_capped(s: StudState) -> bool:
    return s.wagers >= 1 + s.cfg.raise_cap and not s.uncapped


def _raises_left(s: StudState) -> int | None:
    if s.uncapped:
        return None
    return max(0, 1 + s.cfg.raise_cap - max(s.wagers, 1))


def _units(s: StudState, i: int) -> tuple[int, ...]:
    """Split-limit bet sizes open to position ``i`` now (R6.1, R6.4)."""
    cfg = s.cfg
    street = s.street
    if street == 4 and cfg.open_pair_option == "on":
        if s.big_bet:
            return (cfg.higher,)  # type: ignore[return-value]
        if s.open_pair and (cfg.open_pair_scope == "any_player" or _own_pair(s, i)):
            return tuple(sorted({cfg.lower, cfg.higher}))  # type: ignore[arg-type]
    return (cfg.lower if street <= 4 else cfg.higher,)  # type: ignore[return-value]


def _own_pair(s: StudState, i: int) -> bool:
    ranks = [c >> 2 for c, up in s.cards[i][:4] if up and c != UNKNOWN]
    return len(ranks) != len(set(ranks))


def _any_open_pair(s: StudState) -> bool:
    return any(_own_pair(s, i) for i in range(s.n) if not s.folded[i])


# --------------------------------------------------------------------------------------------- new hand


def new_hand(config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], *, button: int,
             variant: StudVariant = SEVEN_CARD_STUD) -> StudState:
    """Start a hand. ``seats`` maps table seat number -> starting stack (cents, > 0); ``button`` is the
    dealer-button seat; ``variant`` the stud game (Seven Card Stud, Razz, Hi-Lo). 2-8 players (R1.1).
    Raises :class:`IllegalAction` / :class:`InvalidAmount`."""
    cfg = config if isinstance(config, StudConfig) else build_config(config)
    if not isinstance(seats, Mapping) or not 2 <= len(seats) <= 8:
        raise IllegalAction(gettext_noop("a stud hand needs 2 to 8 players (R1.1)"), rule="R1.1")
    for seat, stack in seats.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise IllegalAction(gettext_noop("seat %(seat)s is not a seat number", seat=repr(seat)), rule="R1.1")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise InvalidAmount(gettext_noop("seat %(seat)s cannot play: stack %(stack)s is not a positive amount in cents (R3.5)", seat=seat, stack=repr(stack)),
                                seat=seat, rule="R3.5")
    if isinstance(button, bool) or not isinstance(button, int):
        raise IllegalAction(gettext_noop("button %(button)s is not a seat number", button=repr(button)), rule="R1.2")
    order = clockwise_after(seats, button)
    s = StudState.__new__(StudState)
    n = len(order)
    s.cfg = cfg
    s.seats = tuple(order)
    s.pos = {seat: i for i, seat in enumerate(order)}
    s.n = n
    s.button = button
    s.start = tuple(seats[seat] for seat in order)
    s.stack = list(s.start)
    s.contrib = [0] * n
    s.returned = [0] * n
    s.sc = [0] * n
    s.folded = [False] * n
    s.dead = [False] * n
    s.ante_paid = [0] * n
    s.ante_done = [False] * n
    s.cards = [()] * n
    s.exposed = [0] * n
    s.dealt = set()
    s.n_dealt = 0
    s.burns = 0
    s.burned = []
    s.burned_streets = []
    s.community = None
    s.street = 3
    s.bet_to = s.full_to = s.wagers = s.last_inc = 0
    s.big_bet = False
    s.acted = [None] * n
    s.to_act = None
    s.bring_in_idx = None
    s.open_pair = False
    s.uncapped = False
    s.last_aggr = None
    s.taxe = 0
    s.taxe_split = ()
    s.taxe_taken = False
    s.taxe_logged = False
    s.shown = [False] * n
    s.mucked = [False] * n
    s.show_order = ()
    s.awards = [0] * n
    s.pot_awards = ()
    s.final_pots = ()
    s.voluntary = 0
    s.void = False
    s.seventh_mode = None
    s.n_events = 0
    s.variant = variant
    s.pot_halves = ()
    s.phase = "ante" if cfg.ante > 0 else "deal"
    return s


# --------------------------------------------------------------------------------------------- validation


def _seat_of(s: StudState, event: Mapping[str, Any]) -> int:
    seat = event.get("seat")
    if type(seat) is int:
        i = s.pos.get(seat)
        if i is not None:
            return i
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise UnknownEvent(gettext_noop("%(type)s event needs an integer 'seat', got %(seat)s", type=event.get('type'), seat=repr(seat)))
    i = s.pos.get(seat)
    if i is None:
        raise UnknownEvent(gettext_noop("seat %(seat)s is not in this hand (seats %(seats)s)", seat=seat, seats=', '.join(map(str, s.seats))),
                           seat=seat)
    return i


#: How a missing amount is explained to the croupier, by event field.
_AMOUNT_MEANING = {"to": gettext_noop("the seat's total bet on this street after the action"),
                   "amount": gettext_noop("the chips put in")}


def _amount_field(event: Mapping[str, Any], key: str, *, required: bool = True, s: StudState | None = None,
                  i: int | None = None, action: str = "", rule: str = "R6.1") -> int | None:
    """``event[key]`` as int cents. A missing/non-int value raises :class:`UnknownEvent`, a negative one
    :class:`InvalidAmount`; with ``s``/``i`` the message names the seat, ``action`` and ``rule``."""
    value = event.get(key)
    if type(value) is int and value >= 0:
        return value
    if value is None and not required:
        return None
    negative = type(value) is int
    cls = InvalidAmount if negative else UnknownEvent
    if value is None:
        reason = gettext_noop("the amount is missing (give '%(key)s': %(meaning)s)", key=key,
                              meaning=_AMOUNT_MEANING.get(key, gettext_noop("the amount")))
    elif negative:
        reason = gettext_noop("'%(key)s' must not be negative, got %(value)s", key=key, value=repr(value))
    else:
        reason = gettext_noop("'%(key)s' must be a whole number of cents, got %(value)s", key=key, value=repr(value))
    if s is not None and i is not None:
        raise _seat_err(cls, s, i, action or str(event.get("type")), reason, rule)
    raise cls(gettext_noop("%(type)s event: %(reason)s (%(rule)s)", type=event.get('type'), reason=reason, rule=rule), rule=rule)


#: Fast path for canonical tokens ("As", "??"); anything else goes through ``parse_card``.
_TOKEN_IDS: dict[str, int] = {str(card): int(card) for card in CARDS}
#: Named cards only (no unknown tokens), for the deal fast path.
_CARD_IDS: dict[str, int] = dict(_TOKEN_IDS)
_TOKEN_IDS.update({"??": UNKNOWN, "XX": UNKNOWN, "xx": UNKNOWN, "##": UNKNOWN})


def _parse_tokens(text: Any) -> list[int]:
    """Cards of a deal/show field: str ``"As Kd"``/``"AsKd"``/``"?? Kd"`` or a list; UNKNOWN for ``??``."""
    if isinstance(text, str):
        fast = [_TOKEN_IDS.get(t) for t in text.split()]
        if None not in fast:
            return fast  # type: ignore[return-value]
        raw = [t for t in text.replace(",", " ").split() if t]
        tokens: list[str] = []
        for t in raw:
            if len(t) > 3:
                tokens.extend(t[k:k + 2] for k in range(0, len(t), 2))
            else:
                tokens.append(t)
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    elif text is None:
        raise UnknownEvent(gettext_noop("the cards are missing (give 'cards', e.g. 'As Kd 3c')"))
    else:
        raise UnknownEvent(gettext_noop("cards must be a string such as 'As Kd', got %(text)s", text=repr(text)))
    out = []
    for t in tokens:
        if isinstance(t, int) and not isinstance(t, bool) and 0 <= t < DECK_SIZE:
            out.append(int(t))
        elif isinstance(t, str) and t in ("??", "XX", "xx", "##"):
            out.append(UNKNOWN)
        elif isinstance(t, str):
            out.append(int(parse_card(t)))
        else:
            raise InvalidCard(gettext_noop("%(t)s is not a card", t=repr(t)))
    return out


# --------------------------------------------------------------------------------------------- apply


def apply(state: StudState, event: Mapping[str, Any]) -> StudState:
    """Return the state after ``event`` (a new object; ``state`` is unchanged).

    Raises :class:`UnknownEvent` (unknown type, missing/malformed field), :class:`InvalidCard`,
    :class:`DuplicateCard`, :class:`OutOfTurn`, :class:`IllegalAction`, :class:`InvalidAmount` or
    :class:`HandComplete`; the message names the seat, the action and the spec rule.
    """
    s = state.copy()
    _apply(s, event)
    return s


def _fields_check(event: Mapping[str, Any], kind: str) -> None:
    """Refuse a key the event type does not take (a misspelt ``amout``, a ``to`` on a call): the croupier
    must not believe an amount was logged that the engine ignored. ``note`` and ``_``-prefixed keys pass."""
    allowed = _EVENT_FIELDS[kind]
    extra = sorted(k for k in event if k not in allowed and not (isinstance(k, str) and k.startswith("_")))
    if extra:
        seat = event.get("seat")
        who = (gettext_noop("seat %(seat)s cannot %(kind)s: ", seat=seat, kind=kind) if type(seat) is int else '')
        takes = ", ".join(sorted(allowed - {"type", "note"})) or "nothing"
        raise UnknownEvent(gettext_noop("%(who)sthe %(kind)s event does not take %(items)s (it takes: %(takes)s); remove it and log again", who=who, kind=kind, items=', '.join(repr(k) for k in extra), takes=takes),
                           seat=seat if type(seat) is int else None, extra={"field": str(extra[0])})


def _apply(s: StudState, event: Mapping[str, Any]) -> None:
    """Apply ``event`` to ``s`` in place (used on a private copy; may leave ``s`` half-changed on error)."""
    if type(event) is dict:
        kind = event.get("type")
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is not None and s.phase != "complete":
            if not event.keys() <= _EVENT_FIELDS[kind]:  # type: ignore[index]
                _fields_check(event, kind)  # type: ignore[arg-type]
            handler(s, event)
            s.n_events += 1
            return
    elif not isinstance(event, Mapping):
        raise UnknownEvent(gettext_noop("an event must be a mapping with a 'type', got %(event)s", event=repr(event)))
    kind = event.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if handler is None:
        reason = gettext_noop("unknown event type %(kind)s; expected one of %(event_types)s", kind=repr(kind), event_types=', '.join(sorted(_EVENT_TYPES)))
        if i is not None:
            raise UnknownEvent(gettext_noop("seat %(seat)s cannot %(kind)s: %(reason)s", seat=seat, kind=kind, reason=reason), seat=seat, extra={"action": str(kind)})
        raise UnknownEvent(reason)
    if s.phase == "complete":
        rule = "R12.1" if s.void else ("R1.5" if s.folded.count(False) == 1 else "R11.2")
        how = (gettext_noop("void by a misdeal") if s.void else (gettext_noop("won without a showdown") if rule == 'R1.5' else gettext_noop("shown down")))
        if i is not None:
            raise _seat_err(HandComplete, s, i, _ACTION_WORDS.get(kind, kind),  # type: ignore[arg-type]
                            gettext_noop("the hand is over (%(how)s)", how=how), rule)
        raise HandComplete(gettext_noop("the hand is over (%(how)s); no %(kind)s event is possible (%(rule)s)", how=how, kind=kind, rule=rule), rule=rule)
    _fields_check(event, kind)  # type: ignore[arg-type]
    handler(s, event)
    s.n_events += 1


def _on_ante(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if i is None:
        i = _seat_of(s, event)
    if s.phase != "ante":
        raise _seat_err(IllegalAction, s, i, gettext_noop("post an ante"), gettext_noop("the antes are already in"), "R1.2")
    if s.ante_done[i]:
        raise _seat_err(IllegalAction, s, i, gettext_noop("post an ante"), gettext_noop("its ante is already posted"), "R3.3")
    due = min(s.cfg.ante, s.stack[i])
    amount = _amount_field(event, "amount", required=False, s=s, i=i, action="post an ante", rule="R3.3")
    if amount is not None and amount != due:
        raise _seat_err(InvalidAmount, s, i, gettext_noop("post an ante"), gettext_noop("the ante is %(due)s, not %(amount)s", due=_m(due), amount=_m(amount)),
                        "R3.3" if due == s.cfg.ante else "R10.4")
    s.stack[i] -= due
    s.contrib[i] += due
    s.ante_paid[i] = due
    s.ante_done[i] = True
    if all(s.ante_done):
        s.phase = "deal"


def _on_burn(s: StudState, event: Mapping[str, Any]) -> None:
    if s.phase != "deal":
        raise IllegalAction(gettext_noop("cannot burn a card now: burns come before a street's first card (R1.3)"), rule="R1.3")
    if not _burn_due(s):
        raise IllegalAction(gettext_noop("cannot burn a card: no burn is due before %(street_name)s street now (R1.3)", street_name=_STREET_NAMES[s.street]),
                            rule="R1.3")
    card = event.get("card")
    if card is not None:
        c = _parse_tokens(card)
        if len(c) != 1 or c[0] == UNKNOWN:
            raise UnknownEvent(gettext_noop("burn 'card' must be one card, got %(card)s", card=repr(card)))
        if c[0] in s.dealt or c[0] in s.burned:
            raise DuplicateCard(gettext_noop("cannot burn %(card)s: it is already dealt or burned; there is one 52-card deck (R1.1)", card=CARDS[c[0]]), rule="R1.1", extra={"card": str(CARDS[c[0]])})
        s.burned.append(c[0])
    _burn(s)


def _burn_due(s: StudState) -> bool:
    if s.street in s.burned_streets:
        return False
    if any(len(s.cards[i]) > (0 if s.street == 3 else s.street - 1) for i in range(s.n)):
        return False  # dealing of the street has begun
    if s.street == 3:
        return s.cfg.burn_before_first_deal
    if s.street == 7 and s.seventh_mode == "community" and _stub(s) <= 1:
        return False  # R9.3: the last card is turned without a burn
    return True


def _burn(s: StudState) -> None:
    s.burned_streets.append(s.street)
    s.burns += 1


def _on_deal(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if i is None:
        i = _seat_of(s, event)
    street = s.street
    text = event.get("cards")
    if (s.phase == "deal" and type(text) is str and not s.folded[i] and not s.exposed[i]
            and s.seventh_mode in (None, "normal") and event.get("face") is None):
        # Fast path (the common deal): named cards, no face given, no exposure, streets 3-6 or a
        # normal 7th. Anything unusual falls through to the full checks below.
        cards: list[Any] = list(map(_CARD_IDS.get, text.split()))
        held = s.cards[i]
        base = len(held) - (0 if street == 3 else street - 1)
        k = len(cards)
        if (None not in cards and 0 < k <= (3 if street == 3 else 1) - base and len(set(cards)) == k
                and s.dealt.isdisjoint(cards) and (not s.burned or set(s.burned).isdisjoint(cards))):
            if street not in s.burned_streets and (street >= 4 or s.cfg.burn_before_first_deal):
                _burn(s)
            s.cards[i] = held + tuple(zip(cards, PATTERN[street][base:base + k]))
            s.dealt.update(cards)
            s.n_dealt += k
            _after_deal(s)
            return
    if s.phase != "deal":
        what = (gettext_noop("the antes are not all in") if s.phase == 'ante' else gettext_noop("no cards are due now"))
        raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt cards"), what, "R1.2")
    if s.folded[i]:
        raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt cards"), gettext_noop("the seat is out of the hand"), "R1.4")
    if s.street == 7 and s.seventh_mode == "community":
        raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt a 7th card"),
                        gettext_noop("the deck has %(stub)s cards for %(n_live)s players, so one community card is turned", stub=_stub(s), n_live=_n_live(s)),
                        "R9.3")
    cards = _seat_cards(s, i, "be dealt cards", event.get("cards"))
    need = _need(s, i)
    if not cards:
        raise _seat_err(UnknownEvent, s, i, gettext_noop("be dealt cards"), gettext_noop("the event needs 'cards'"), "R1.3")
    if len(cards) > need:
        raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt %(items)s", items=' '.join(_fmt(c) for c in cards)),
                        gettext_noop("it needs %(need)s more card(s) on %(street_name)s street", need=need, street_name=_STREET_NAMES[s.street]), "R1.3")
    face = event.get("face")
    if face is None and not s.exposed[i] and UNKNOWN not in cards and not (s.seventh_mode == "reshuffle"):
        base = len(s.cards[i]) - (0 if s.street == 3 else s.street - 1)
        pattern = PATTERN[s.street]
        dealt = s.dealt
        if len(set(cards)) == len(cards) and not any(
                c in dealt or c in s.burned or c == s.community for c in cards):
            if s.street >= 4 and s.street not in s.burned_streets:
                _burn(s)
            elif s.street == 3 and s.cfg.burn_before_first_deal and 3 not in s.burned_streets:
                _burn(s)
            s.cards[i] = s.cards[i] + tuple(zip(cards, pattern[base:base + len(cards)]))
            dealt.update(cards)
            s.n_dealt += len(cards)
            _after_deal(s)
            return
    if face not in (None, "up", "down"):
        raise _seat_err(UnknownEvent, s, i, gettext_noop("be dealt cards"), gettext_noop("'face' must be 'up' or 'down', got %(face)s", face=repr(face)), "R1.3")
    new = []
    base = len(s.cards[i]) - (0 if s.street == 3 else s.street - 1)
    exposed = s.exposed[i]
    recycled = s.seventh_mode == "reshuffle" and s.street == 7
    seen = set()
    for k, c in enumerate(cards):
        slot = base + k
        up = PATTERN[s.street][slot]
        if s.street == 3 and slot == 2 and exposed:
            up = False  # R12.2: after an exposed down card the third card comes face down
        if face is not None and (face == "up") != up:
            if s.street == 3 and slot < 2 and face == "up":
                up = True
                exposed += 1
            elif s.street == 7 and face == "up":
                up = True  # R12.3: recorded, the floor rules on it
            else:
                raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt %(c)s face %(face)s", c=_fmt(c), face=face),
                                gettext_noop("that card is dealt %(face)s", face=(gettext_noop("face up") if up else gettext_noop("face down"))), "R1.3")
        if c == UNKNOWN and up and not (s.street == 3 and slot == 2):  # RZ1.2: only a door card may go unrecorded
            raise InvalidCard(gettext_noop("seat %(seat)s: a face-up card must be named, not '??'", seat=s.seats[i]), seat=s.seats[i])
        if c != UNKNOWN:
            if c in s.dealt or c in seen or (c in s.burned and not recycled) or c == s.community:
                holder = next((s.seats[j] for j in range(s.n) if any(c == x for x, _ in s.cards[j])), None)
                where = (gettext_noop("it is twice in this deal") if c in seen else (gettext_noop("that card is already burned") if c in s.burned and c not in s.dealt else (gettext_noop("that card is already dealt to seat %(holder)s", holder=holder) if holder is not None else gettext_noop("that card is already dealt"))))
                raise _seat_err(DuplicateCard, s, i, gettext_noop("be dealt %(card)s", card=CARDS[c]), gettext_noop("%(where)s; there is one 52-card deck", where=where),
                                "R1.1", card=str(CARDS[c]))
            seen.add(c)
        new.append((c, up))
    if s.street >= 4 and s.street not in s.burned_streets:
        _burn(s)  # the unlogged burn before this street (R1.3)
    elif s.street == 3 and s.cfg.burn_before_first_deal and 3 not in s.burned_streets:
        _burn(s)
    s.cards[i] = s.cards[i] + tuple(new)
    s.exposed[i] = exposed
    for c, _up in new:
        if c != UNKNOWN:
            s.dealt.add(c)
    s.n_dealt += len(new)
    if exposed >= 2 and s.street == 3:
        _dead_hand(s, i)
    _after_deal(s)


def _fmt(c: int) -> str:
    return "??" if c == UNKNOWN else str(CARDS[c])


def _seat_cards(s: StudState, i: int, action: str, value: Any) -> list[int]:
    """:func:`_parse_tokens` for a seat's event: a bad card or field names the seat, the action and the rule
    (R1.1 one 52-card deck; R1.3 the deal)."""
    try:
        return _parse_tokens(value)
    except (InvalidCard, UnknownEvent) as exc:
        raise _seat_err(type(exc), s, i, action, exc.message, "R1.1" if isinstance(exc, InvalidCard) else "R1.3",
                        **exc.extra) from None


def _dead_hand(s: StudState, i: int) -> None:
    """R12.2: both down cards exposed: the hand is dead and the ante goes back."""
    s.folded[i] = True
    s.dead[i] = True
    back = s.contrib[i] - s.returned[i]
    s.returned[i] += back
    s.stack[i] += back


def _on_card_exposed(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    if s.street != 3 or s.phase not in ("deal",):
        raise _seat_err(IllegalAction, s, i, gettext_noop("record an exposed card"),
                        gettext_noop("only a 3rd-street down card exposed during the deal is handled here"), "R12.2")
    cards = _seat_cards(s, i, "record an exposed card", event.get("card"))
    if len(cards) != 1 or cards[0] == UNKNOWN:
        raise _seat_err(UnknownEvent, s, i, gettext_noop("record an exposed card"),
                        gettext_noop("the event needs one named 'card', got %(card)s", card=repr(event.get('card'))), "R12.2")
    c = cards[0]
    held = list(s.cards[i])
    for k, (hc, up) in enumerate(held[:2]):
        if hc == c and not up:
            held[k] = (hc, True)
            break
    else:
        raise _seat_err(IllegalAction, s, i, gettext_noop("expose %(c)s", c=_fmt(c)), gettext_noop("that is not one of its face-down cards"), "R12.2")
    if len(held) == 3 and held[2][1]:
        raise _seat_err(IllegalAction, s, i, gettext_noop("expose %(c)s", c=_fmt(c)),
                        gettext_noop("its door card is already dealt face up; the floor must rule"), "R12.2")
    s.cards[i] = tuple(held)
    s.exposed[i] += 1
    if s.exposed[i] >= 2:
        _dead_hand(s, i)
    _after_deal(s)


def _on_deal_community(s: StudState, event: Mapping[str, Any]) -> None:
    if s.phase != "deal" or s.street != 7 or s.seventh_mode != "community":
        raise IllegalAction(gettext_noop("cannot deal a community card: only when the deck runs out on 7th street (R9.3)"),
                            rule="R9.3")
    cards = _parse_tokens(event.get("card"))
    if len(cards) != 1 or cards[0] == UNKNOWN:
        raise UnknownEvent(gettext_noop("deal_community needs one named 'card', got %(card)s", card=repr(event.get('card'))))
    c = cards[0]
    stub = _stub(s)
    scramble = stub <= 0  # R9.3: S = 0, the burns are scrambled and one is turned
    if c in s.dealt or (c in s.burned and not scramble):
        raise DuplicateCard(gettext_noop("cannot deal %(card)s as the community card: it is already dealt (R1.1)", card=CARDS[c]), rule="R1.1",
                            extra={"card": str(CARDS[c])})
    if stub >= 2 and 7 not in s.burned_streets:
        _burn(s)
    s.community = c
    s.dealt.add(c)
    s.n_dealt += 1
    _start_betting(s)


def _after_deal(s: StudState) -> None:
    folded = s.folded
    if folded.count(False) <= 1:
        _finish_by_fold(s)
        return
    target = 3 if s.street == 3 else s.street
    for held, out in zip(s.cards, folded):
        if not out and len(held) < target:
            return
    if s.street == 4 and not s.taxe_taken:
        _take_taxe(s)
    _start_betting(s)


def _take_taxe(s: StudState) -> None:
    """R8.1-R8.3: the Taxe leaves the pot once, as the 4th-street up cards land."""
    cfg = s.cfg
    if cfg.taxe_mode == "flat" and not cfg.taxe_amount:  # no Taxe configured (e.g. PHH replays)
        s.taxe_split = ()
        s.taxe = 0
        s.taxe_taken = True
        return
    pots = _pots(s, with_taxe=False)
    total = sum(a for a, _ in pots)
    if cfg.taxe_mode == "flat":
        wanted = cfg.taxe_amount or 0
    else:
        raw = Decimal(total) * Decimal(cfg.taxe_percent) / 100  # type: ignore[arg-type]
        units = (raw / cfg.chip_unit).quantize(Decimal(1), rounding=TAXE_ROUNDING)
        wanted = min(int(units) * cfg.chip_unit, cfg.taxe_cap or 0)
    split = [0] * len(pots)
    if pots and wanted:
        if cfg.taxe_from == "main_pot":
            split[0] = min(wanted, pots[0][0])
        else:
            taxe = min(wanted, total)
            for k, (amt, _) in enumerate(pots):
                split[k] = taxe * amt // total
            split[0] += taxe - sum(split)
    s.taxe_split = tuple(split)
    s.taxe = sum(split)
    s.taxe_taken = True


def _on_taxe(s: StudState, event: Mapping[str, Any]) -> None:
    if not s.taxe_taken:
        raise IllegalAction(gettext_noop("cannot log the Taxe: it is taken when the 4th-street up cards are dealt (R8.1)"),
                            rule="R8.1")
    if s.taxe_logged:
        raise IllegalAction(gettext_noop("cannot log the Taxe twice: it is taken once per game (R8.1)"), rule="R8.1")
    amount = _amount_field(event, "amount", required=False, rule="R8.3")
    if amount is not None and amount != s.taxe:
        raise InvalidAmount(gettext_noop("the Taxe taken is %(taxe)s, not %(amount)s (R8.3)", taxe=_m(s.taxe), amount=_m(amount)), rule="R8.3")
    s.taxe_logged = True


# --------------------------------------------------------------------------------------------- betting


def _start_betting(s: StudState) -> None:
    """Open the betting round of the street just dealt (R4.1, R5.1-R5.4, R6.4)."""
    n = s.n
    cfg = s.cfg
    folded, stack = s.folded, s.stack
    s.phase = "betting"
    s.sc = [0] * n
    s.acted = [None] * n
    s.bet_to = s.full_to = s.wagers = s.last_inc = 0
    s.big_bet = False
    s.last_aggr = None
    s.bring_in_idx = None
    s.uncapped = cfg.uncap_heads_up and folded.count(False) == 2
    if s.street == 4 and cfg.open_pair_option == "on" and cfg.limit_type == "split":
        s.open_pair = _any_open_pair(s)
    else:
        s.open_pair = False
    chips = [i for i in range(n) if not folded[i] and stack[i] > 0]
    if len(chips) <= 1:
        s.to_act = None
        _end_round(s)
        return
    if s.street == 3:
        cards = s.cards
        key = _razz_bring_in_key if s.variant.bring_in == "high_card" else _stud_bring_in_key
        doors = [min([key(c) for c, up in cards[i] if up and c != UNKNOWN], default=None) for i in chips]
        known = [d for d in doors if d is not None]
        if known:
            low = min(known)
            s.bring_in_idx = s.to_act = chips[doors.index(low)]
        else:  # RZ1.2: no door card recorded (a history); the first seat may post, see _on_bring_in
            s.bring_in_idx = s.to_act = chips[0]
        s.phase = "bring_in"
        return
    top = _high_board(s, [i for i in range(n) if not folded[i]])
    if stack[top] == 0:
        if cfg.allin_high_board_opener == "next_clockwise":
            top = next((top + k) % n for k in range(1, n) if (top + k) % n in chips)
        else:
            top = _high_board(s, chips)
    s.to_act = top


def _stud_bring_in_key(c: int) -> int:
    """Smallest = brings it in (R4.1): the lowest rank, ace high, then clubs < diamonds < hearts < spades."""
    return c


def _unrecorded_door(s: StudState, i: int) -> bool:
    """RZ1.2: position ``i``'s door card was logged as ``??`` (a history that did not record it)."""
    return any(c == UNKNOWN and up for c, up in s.cards[i])


def _razz_bring_in_key(c: int) -> int:
    """Smallest = brings it in under Razz (RZ4.1): the highest rank with the ace low, then spades > hearts >
    diamonds > clubs; i.e. minus the card's ace-low order."""
    r = c >> 2
    return -((0 if r == 12 else r + 1) * 4 + (c & 3))


def _check_turn(s: StudState, i: int, action: str) -> None:
    if s.phase not in ("betting", "bring_in"):
        reasons = {"ante": "the antes are not all in", "deal": "the cards for this street are not all dealt",
                   "showdown": "the betting is over; the showdown has begun"}
        raise _seat_err(IllegalAction, s, i, action, reasons.get(s.phase, "no betting now"), "R1.3")
    if s.to_act != i:
        who = s.seats[s.to_act]  # type: ignore[index]
        rule = "R4.1" if s.phase == "bring_in" else ("R4.3" if s.street == 3 else "R5.1")
        raise _seat_err(OutOfTurn, s, i, action, gettext_noop("it is seat %(who)s's turn", who=who), rule, to_act=who)


def _wager_options(s: StudState, i: int, action: str) -> tuple[str, int, int, tuple[int, ...] | None]:
    """The wager open to position ``i``: (type, min to, max to, exact amounts or None for a range).

    Raises :class:`IllegalAction` naming why no wager is possible (cap R6.2/R7.3, not reopened R6.5/R7.5,
    no chips)."""
    cfg = s.cfg
    avail = s.stack[i] + s.sc[i]
    if avail <= s.bet_to:
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("it has no chips left beyond a call"), "R10.1")
    if s.acted[i] is not None and s.acted[i] >= s.full_to and s.bet_to > s.sc[i]:  # type: ignore[operator]
        raise _seat_err(IllegalAction, s, i, action,
                        gettext_noop("the all-in to %(bet_to)s was less than a full raise and does not reopen the betting", bet_to=_m(s.bet_to)),
                        "R6.5" if cfg.split else "R7.5")
    if _is_capped(s):
        raise _seat_err(IllegalAction, s, i, action,
                        gettext_noop("the round is capped at %(bet_to)s after %(n_raises)s", bet_to=_m(s.bet_to), n_raises=_n_raises(cfg.raise_cap)),
                        "R6.2" if cfg.split else "R7.3")
    kind = "bet" if s.bet_to == 0 else ("complete" if s.full_to == 0 else "raise")
    if cfg.limit_type == "split":
        units = _units(s, i)
        if len(units) == 1:  # the usual fixed unit: to one full wager, or all-in for less (R6.1, R10.1)
            t = s.full_to + units[0]
            t = t if t <= avail else avail
            return kind, t, t, (t,)
        targets = sorted({s.full_to + u for u in units})
        amounts = [t for t in targets if t <= avail]
        if avail < targets[-1]:
            amounts.append(avail)
        amounts = sorted(set(amounts))
        return kind, amounts[0], amounts[-1], tuple(amounts)
    mn, mx = cfg.limits(s.street)
    if kind in ("bet", "complete"):
        lo, hi = mn, mx
    else:
        min_inc = mn if cfg.spread_min_raise == "table_min" else max(mn, s.last_inc)
        unit = cfg.chip_unit
        min_inc = -(-min_inc // unit) * unit  # whole chips (R11.3)
        lo, hi = s.bet_to + min_inc, s.bet_to + max(min_inc, mx // unit * unit)
    if avail < lo:
        return kind, avail, avail, None
    return kind, lo, min(hi, avail), None


def _n_raises(n: int) -> str:
    words = {0: gettext_noop("no raises"), 1: gettext_noop("one raise"), 2: gettext_noop("two raises"),
             3: gettext_noop("three raises"), 4: gettext_noop("four raises")}
    return words.get(n) or gettext_noop("%(n)s raises", n=n)


def _on_bring_in(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    if s.phase != "bring_in":
        raise _seat_err(IllegalAction, s, i, gettext_noop("bring it in"), gettext_noop("there is no bring-in to post now"), "R4.1")
    if s.to_act != i and _unrecorded_door(s, i) and s.stack[i] > 0 and not s.folded[i]:
        s.bring_in_idx = s.to_act = i  # RZ1.2: an unrecorded door card may have been the card that brings it in
    if s.to_act != i:
        raise _seat_err(OutOfTurn, s, i, gettext_noop("bring it in"),
                        gettext_noop("seat %(seat)s has the lowest door card", seat=s.seats[s.to_act]), "R4.1")  # type: ignore[index]
    cfg = s.cfg
    amount = cfg.bring_in_amount()
    post = min(amount, s.stack[i])
    _put(s, i, post)
    s.bet_to = post
    full = post == amount and cfg.bring_in_mode == "full_bet" or (not cfg.split and post == amount)
    if post < amount and cfg.split and cfg.bring_in_mode == "full_bet" and cfg.short_bring_in == "half_bet_rule":
        full = 2 * post >= cfg.lower  # type: ignore[operator]  # R10.3 alternative: the short bring-in is an all-in under R6.5
    if full:
        s.full_to = post
        s.wagers = 1
        s.last_inc = post
    s.acted[i] = s.full_to
    s.phase = "betting"
    s.bring_in_idx = i
    _advance(s, i)


def _put(s: StudState, i: int, chips: int) -> None:
    s.stack[i] -= chips
    s.contrib[i] += chips
    s.sc[i] += chips


def _on_wager(s: StudState, event: Mapping[str, Any]) -> None:
    kind = event["type"]
    i = _seat_of(s, event)
    cfg = s.cfg
    to = event.get("to")
    if type(to) is not int or to < 0:
        to = _amount_field(event, "to", s=s, i=i, action=kind, rule=(
            ("R4.6" if cfg.split else "R7.4") if s.phase == "bring_in" else ("R6.1" if cfg.split else "R7.1")))
    if s.phase == "bring_in" and s.to_act == i:
        _bring_in_complete(s, i, kind, to)  # type: ignore[arg-type]
        return
    _check_turn(s, i, kind)
    want, lo, hi, amounts = _wager_options(s, i, kind)
    if kind != want:
        hint = {'bet': gettext_noop("nothing is bet yet"), 'complete': gettext_noop("only %(bet_to)s is in, not a full bet", bet_to=_m(s.bet_to)), 'raise': gettext_noop("there is a bet of %(bet_to)s", bet_to=_m(s.bet_to))}[want]
        raise _seat_err(IllegalAction, s, i, kind, gettext_noop("%(hint)s; the wager now is '%(want)s'", hint=hint, want=want),
                        "R4.6" if want == "complete" else "R6.1")
    avail = s.stack[i] + s.sc[i]
    if amounts is not None:
        if to not in amounts:
            allowed = or_list([_m(a) for a in amounts])
            rule = "R6.4" if s.street == 4 and s.open_pair else "R6.1"
            if s.street == 4 and s.big_bet:
                reason = gettext_noop("after a %(higher)s wager every raise is %(higher)s, so only %(allowed)s", higher=_m(cfg.higher), allowed=allowed)  # type: ignore[arg-type]
            else:
                reason = gettext_noop("the %(kind)s is to %(allowed)s", kind=_ACTION_WORDS.get(kind, kind), allowed=allowed)
            raise _seat_err(InvalidAmount, s, i, gettext_noop("%(kind)s to %(to)s", kind=_ACTION_WORDS.get(kind, kind), to=_m(to)), reason, rule)  # type: ignore[arg-type]
    else:
        if not lo <= to <= hi:  # type: ignore[operator]
            raise _seat_err(InvalidAmount, s, i, gettext_noop("%(kind)s to %(to)s", kind=_ACTION_WORDS.get(kind, kind), to=_m(to)),  # type: ignore[arg-type]
                            gettext_noop("the %(kind)s must be to %(lo)s-%(hi)s", kind=_ACTION_WORDS.get(kind, kind), lo=_m(lo), hi=_m(hi)), "R7.1")
        if to != avail and (to - (s.bet_to if want == "raise" else 0)) % cfg.chip_unit:  # type: ignore[operator]
            raise _seat_err(InvalidAmount, s, i, gettext_noop("%(kind)s to %(to)s", kind=_ACTION_WORDS.get(kind, kind), to=_m(to)),  # type: ignore[arg-type]
                            gettext_noop("amounts are in whole chips of %(chip_unit)s", chip_unit=_m(cfg.chip_unit)), "R11.3")
    _do_wager(s, i, to)  # type: ignore[arg-type]
    if s.street == 3:
        s.voluntary += 1
    _advance(s, i)


def _do_wager(s: StudState, i: int, to: int) -> None:
    """Put position ``i`` in to ``to`` and classify the wager: full (counts for the cap, reopens) or
    short all-in (R6.5, R7.5, R10.3)."""
    cfg = s.cfg
    prev_bet, prev_full = s.bet_to, s.full_to
    if cfg.split:
        units = _units(s, i)
        u = min(units)
        if to - prev_full in units:
            full = True
        else:  # an all-in for less than the full amount
            single, cum = to - prev_bet, to - prev_full
            full = cum >= u or (cfg.short_allin_rule == "half_bet" and 2 * single >= u)
        if s.street == 4 and s.open_pair and to - prev_full >= cfg.higher and cfg.higher > cfg.lower:  # type: ignore[operator]
            s.big_bet = True  # R6.4: once H is wagered every later raise is H
    else:
        mn, _ = cfg.limits(s.street)
        if prev_full == 0:
            full = to >= mn
        else:
            min_inc = mn if cfg.spread_min_raise == "table_min" else max(mn, s.last_inc)
            full = to - prev_bet >= min_inc or cfg.spread_short_allin_reopens
    _put(s, i, to - s.sc[i])
    s.bet_to = to
    if full:
        s.wagers += 1
        s.last_inc = to - (prev_bet if prev_full else 0)
        s.full_to = to
    s.acted[i] = s.full_to
    s.last_aggr = i


def _bring_in_complete(s: StudState, i: int, kind: str, to: int) -> None:
    """The low card opens for more than the bring-in (R4.6 complete; R7.4 spread open up to max)."""
    cfg = s.cfg
    if kind != "complete":
        raise _seat_err(IllegalAction, s, i, kind, gettext_noop("the low card posts the bring-in or completes"), "R4.2")
    lo, hi = _bring_in_complete_range(s, i)
    if lo is None:
        raise _seat_err(IllegalAction, s, i, gettext_noop("complete"),
                        gettext_noop("under full_bet the bring-in is the full bet; post the bring-in"), "R4.2")
    if not lo <= to <= hi:  # type: ignore[operator]
        raise _seat_err(InvalidAmount, s, i, gettext_noop("complete to %(to)s", to=_m(to)),
                        gettext_noop("the completion is to %(lo)s%(note)s", lo=_m(lo), note=(gettext_noop("-%(hi)s", hi=_m(hi)) if hi != lo else '')),  # type: ignore[arg-type]
                        "R4.6" if cfg.split else "R7.4")
    if not cfg.split and to != s.stack[i] and to % cfg.chip_unit:
        raise _seat_err(InvalidAmount, s, i, gettext_noop("complete to %(to)s", to=_m(to)),
                        gettext_noop("amounts are in whole chips of %(chip_unit)s", chip_unit=_m(cfg.chip_unit)), "R11.3")
    _put(s, i, to)
    s.bet_to = s.full_to = to
    s.wagers = 1
    s.last_inc = to
    s.acted[i] = to
    s.last_aggr = i
    s.phase = "betting"
    s.bring_in_idx = i
    _advance(s, i)


def _bring_in_complete_range(s: StudState, i: int) -> tuple[int | None, int | None]:
    cfg = s.cfg
    if cfg.split:
        if cfg.bring_in_mode == "full_bet" or s.stack[i] < cfg.lower:  # type: ignore[operator]
            return None, None
        return cfg.lower, cfg.lower
    mn, mx = cfg.limits(3)
    if not cfg.spread_bring_in_may_exceed_min or s.stack[i] <= mn or mx <= mn:
        return None, None
    lo = mn + cfg.chip_unit
    hi = min(mx, s.stack[i])
    if lo > hi:
        lo = hi
    return lo, hi


def _on_call(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_turn(s, i, "call")
    if s.phase == "bring_in":
        raise _seat_err(IllegalAction, s, i, gettext_noop("call"), gettext_noop("there is nothing to call; post the bring-in"), "R4.2")
    owe = s.bet_to - s.sc[i]
    if owe <= 0:
        raise _seat_err(IllegalAction, s, i, gettext_noop("call"), gettext_noop("there is no bet to call; check"), "R6.1")
    _put(s, i, min(owe, s.stack[i]))
    s.acted[i] = s.full_to
    if s.street == 3:
        s.voluntary += 1
    _advance(s, i)


def _on_check(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_turn(s, i, "check")
    if s.phase == "bring_in":
        raise _seat_err(IllegalAction, s, i, gettext_noop("check"), gettext_noop("the low card must post the bring-in of %(bring_in_amount)s", bring_in_amount=_m(s.cfg.bring_in_amount())), "R4.2")
    owe = s.bet_to - s.sc[i]
    if owe > 0:
        what = (gettext_noop("the bring-in") if s.full_to == 0 and s.street == 3 else gettext_noop("the bet"))
        raise _seat_err(IllegalAction, s, i, gettext_noop("check"), gettext_noop("%(what)s of %(bet_to)s must be called", what=what, bet_to=_m(s.bet_to)), "R4.3"
                        if s.street == 3 else "R6.1")
    s.acted[i] = s.full_to
    if s.street == 3:
        s.voluntary += 1
    _advance(s, i)


def _on_fold(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_turn(s, i, "fold")
    if s.phase == "bring_in":
        if not s.cfg.bring_in_may_fold:
            raise _seat_err(IllegalAction, s, i, gettext_noop("fold"), gettext_noop("the low card must post the bring-in first"), "R4.2")
        s.phase = "betting"
    elif s.bet_to - s.sc[i] <= 0:
        raise _seat_err(IllegalAction, s, i, gettext_noop("fold"), gettext_noop("there is no bet to call; check"), "R6.1")
    s.folded[i] = True
    if s.street == 3:
        s.voluntary += 1
    if _n_live(s) == 1:
        _finish_by_fold(s)
        return
    if s.cfg.uncap_heads_up and _n_live(s) == 2 and not _is_capped(s):
        s.uncapped = True  # R6.3 (RRoP-BR 4): heads-up before the cap
    if s.street == 4 and s.cfg.open_pair_check == "while_showing" and s.open_pair:
        s.open_pair = _any_open_pair(s)
    _advance(s, i)


def _advance(s: StudState, i: int) -> None:
    """Move the turn clockwise to the next seat that must act, or close the round (R6.6)."""
    folded, stack, acted, sc, bet_to = s.folded, s.stack, s.acted, s.sc, s.bet_to
    for j in _CLOCKWISE[s.n][i]:
        if not folded[j] and stack[j] > 0 and (acted[j] is None or sc[j] < bet_to):
            s.to_act = j
            return
    s.to_act = None
    _end_round(s)


#: ``_CLOCKWISE[n][i]``: the positions after ``i`` clockwise at an ``n``-seat hand, ending with ``i`` itself.
_CLOCKWISE = {n: tuple(tuple((i + k) % n for k in range(1, n + 1)) for i in range(n)) for n in range(1, 9)}


def _return_uncalled(s: StudState) -> None:
    """R10.1: the part of the top wager nobody matched goes back to its owner."""
    eff = [a - b for a, b in zip(s.contrib, s.returned)]
    if not s.cfg.ante_trimming:  # R10.4 ante_trimming=false: antes are dead money, never "uncalled"
        eff = [e - (0 if d else a) for e, d, a in zip(eff, s.dead, s.ante_paid)]
    high = max(eff)
    top = eff.index(high)
    extra = high - sorted(eff)[-2]
    if extra > 0:
        s.returned[top] += extra
        s.stack[top] += extra
        s.sc[top] -= min(extra, s.sc[top])


def _end_round(s: StudState) -> None:
    _return_uncalled(s)
    s.to_act = None
    if _n_live(s) == 1:
        _finish_by_fold(s)
        return
    if s.street == 7:
        _start_showdown(s)
        return
    s.street += 1
    s.phase = "deal"
    if s.street == 7:
        _plan_seventh(s)


def _plan_seventh(s: StudState) -> None:
    """R9.2-R9.5: individual 7th cards, or a community card when the deck runs short."""
    cfg = s.cfg
    n_live = _n_live(s)
    stub = _stub(s)
    need = n_live + (1 if cfg.use_last_card else 2)
    if stub >= need:
        s.seventh_mode = "normal"
    elif cfg.out_of_cards_policy == "rrop_reshuffle" and stub + s.burns - 1 >= n_live:
        s.seventh_mode = "reshuffle"
    else:
        s.seventh_mode = "community"


# --------------------------------------------------------------------------------------------- pots


def _pots(s: StudState, *, with_taxe: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """Main and side pots as ``[(amount, eligible positions)]``, main pot first (R10.1, R10.2, R10.4)."""
    n = s.n
    eff = [s.contrib[j] - s.returned[j] for j in range(n)]
    dead_antes = 0
    if not s.cfg.ante_trimming:
        dead_antes = sum(s.ante_paid[j] for j in range(n) if not s.dead[j])
        eff = [eff[j] - (0 if s.dead[j] else s.ante_paid[j]) for j in range(n)]
    live = [not f for f in s.folded]
    levels = sorted({eff[j] for j in range(n) if live[j] and s.stack[j] == 0})
    pots: list[list[Any]] = []
    prev = 0
    for lv in levels:
        amt = sum(min(e, lv) - prev for e in eff if e > prev)
        elig = tuple(j for j in range(n) if live[j] and eff[j] >= lv)
        prev = lv
        if amt:
            if pots and pots[-1][1] == elig:
                pots[-1][0] += amt
            else:
                pots.append([amt, elig])
    amt = sum(e - prev for e in eff if e > prev)
    if amt:
        elig = tuple(j for j in range(n) if live[j] and eff[j] > prev) or tuple(
            j for j in range(n) if live[j] and eff[j] >= prev)
        if pots and pots[-1][1] == elig:
            pots[-1][0] += amt
        else:
            pots.append([amt, elig])
    if dead_antes:
        if pots:
            pots[0][0] += dead_antes
        else:
            pots.append([dead_antes, tuple(j for j in range(n) if live[j])])
    if with_taxe and s.taxe:
        for k, t in enumerate(s.taxe_split):
            if k < len(pots):
                pots[k][0] -= t
            else:  # pragma: no cover - a pot that existed at the 4th-street deal never disappears
                pots[0][0] -= t
    return [(a, e) for a, e in pots]


# --------------------------------------------------------------------------------------------- showdown


def _start_showdown(s: StudState) -> None:
    """R11.1: last aggressor on 7th shows first, else the high board; then clockwise."""
    s.phase = "showdown"
    live = [i for i in range(s.n) if not s.folded[i]]
    first = s.last_aggr if s.last_aggr is not None and not s.folded[s.last_aggr] else _high_board(s, live)
    s.show_order = tuple((first + k) % s.n for k in range(s.n) if not s.folded[(first + k) % s.n])
    s.to_act = first


def _on_show(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_show_turn(s, i, "show")
    cards = event.get("cards")
    if cards is not None:
        given = _seat_cards(s, i, "show", cards)
        own = s.cards[i]
        if len(given) != len(own):
            raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("it holds %(n_own)s cards, not %(n_given)s", n_own=len(own), n_given=len(given)), "R11.2")
        known = [c for c, _ in own if c != UNKNOWN]
        if UNKNOWN in given or len(set(given)) != len(given):
            raise _seat_err(InvalidCard, s, i, gettext_noop("show"), gettext_noop("every shown card must be named once"), "R11.2")
        missing = [c for c in known if c not in given]
        if missing:
            raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("it was dealt %(missing)s, which is not shown", missing=_fmt(missing[0])),
                            "R11.2")
        fresh = [c for c in given if c not in known]
        for c in fresh:
            if c in s.dealt:
                raise DuplicateCard(gettext_noop("seat %(seat)s cannot show %(c)s: it was dealt elsewhere", seat=s.seats[i], c=_fmt(c)),
                                    seat=s.seats[i], extra={"card": _fmt(c)})
        it = iter(fresh)
        s.cards[i] = tuple((next(it), up) if c == UNKNOWN else (c, up) for c, up in own)
        for c in fresh:
            s.dealt.add(c)
    if any(c == UNKNOWN for c, _ in s.cards[i]):
        raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("its face-down cards are not known; send them in 'cards'"),
                        "R11.2")
    s.shown[i] = True
    _next_shower(s)


def _on_muck(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_show_turn(s, i, "muck")
    for k, (_amt, elig) in enumerate(_pots(s)):
        if i in elig and not any(j != i and not s.mucked[j] for j in elig):
            raise _seat_err(IllegalAction, s, i, gettext_noop("muck"),
                            gettext_noop("it is the last hand that can win %(note)s", note=(gettext_noop("the main pot") if k == 0 else gettext_noop("side pot %(k)s", k=k))),
                            "R11.1")
    s.mucked[i] = True
    _next_shower(s)


def _check_show_turn(s: StudState, i: int, action: str) -> None:
    if s.phase != "showdown":
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("there is no showdown now"), "R11.1")
    if s.folded[i]:
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("the seat has folded"), "R11.1")
    if s.to_act != i:
        raise _seat_err(OutOfTurn, s, i, action, gettext_noop("seat %(seat)s shows first", seat=s.seats[s.to_act]),  # type: ignore[index]
                        "R11.1", to_act=s.seats[s.to_act])  # type: ignore[index]


def _next_shower(s: StudState) -> None:
    pending = [j for j in s.show_order if not s.shown[j] and not s.mucked[j]]
    in_play = [j for j in s.show_order if not s.mucked[j]]
    if len(in_play) <= 1 or not pending:
        _finish_showdown(s)
        return
    s.to_act = pending[0]


def _finish_by_fold(s: StudState) -> None:
    """R1.5: one player left wins every pot unshown, at once. A forced bring-in nobody called stays
    in the pot (D6: the low card wins the antes plus its own bring-in); any other uncalled wager goes
    back first (R10.1)."""
    winner = next(j for j in range(s.n) if not s.folded[j])
    if not (s.street == 3 and s.phase == "betting" and s.last_aggr is None and winner == s.bring_in_idx):
        _return_uncalled(s)
    pots = _pots(s)
    awards = []
    for k, (amt, _elig) in enumerate(pots):
        awards.append((k, winner, amt))
    _close(s, pots, awards)


def _finish_showdown(s: StudState) -> None:
    """Award each pot separately to the best hand among its eligible unmucked seats (R10.2, R11.2, R11.3)."""
    pots = _pots(s)
    showdown = s.variant.showdown
    if showdown != "high":
        _close(s, pots, _split_showdown(s, pots, showdown))
        return
    keys: dict[int, int] = {}
    awards = []
    for k, (amt, elig) in enumerate(pots):
        contenders = [j for j in elig if not s.mucked[j]] or list(elig)
        if len(contenders) == 1:
            awards.append((k, contenders[0], amt))
            continue
        for j in contenders:
            if j not in keys:
                keys[j] = stud_key(_own_cards(s, j))
        best = max(keys[j] for j in contenders)
        winners = [j for j in contenders if keys[j] == best]
        for j, share in _split(s, amt, winners):
            awards.append((k, j, share))
    _close(s, pots, awards)


def _own_cards(s: StudState, j: int) -> list[int]:
    own = [c for c, _ in s.cards[j]]
    if s.community is not None:
        own.append(s.community)
    return own


def _split_showdown(s: StudState, pots: list[tuple[int, tuple[int, ...]]], showdown: str) -> list[tuple[int, int, int]]:
    """Razz (``low``, RZ2.2): each pot to the best ace-to-five low. Hi-Lo (``high_low_8``, HL2.1-HL2.4):
    each pot split in two halves, the high half to the best high hand, the low half to the best
    qualifying eight-or-better low; an odd chip unit goes to the high half (HL2.3); without a
    qualifying low the high hand takes the whole pot (HL2.4). Ties share a half as :func:`_split`."""
    awards: list[tuple[int, int, int]] = []
    halves: list[tuple[int, int]] = []
    unit = s.cfg.chip_unit
    for k, (amt, elig) in enumerate(pots):
        contenders = [j for j in elig if not s.mucked[j]] or list(elig)
        if showdown == "low":
            lows = {j: ace_to_five_key(_own_cards(s, j)) for j in contenders}
            best_low = min(lows.values())
            shares = _split(s, amt, [j for j in contenders if lows[j] == best_low])
            awards.extend((k, j, a) for j, a in shares)
            halves.append((0, amt))
            continue
        highs = {j: stud_key(_own_cards(s, j)) for j in contenders}
        best_high = max(highs.values())
        high_winners = [j for j in contenders if highs[j] == best_high]
        qualified = {j: key for j in contenders if (key := eight_or_better_key(_own_cards(s, j))) is not None}
        if not qualified:
            awards.extend((k, j, a) for j, a in _split(s, amt, high_winners))
            halves.append((amt, 0))
            continue
        low_half = amt // (2 * unit) * unit
        high_half = amt - low_half
        best8 = min(qualified.values())
        merged: dict[int, int] = {}
        for j, a in _split(s, high_half, high_winners):
            merged[j] = merged.get(j, 0) + a
        for j, a in _split(s, low_half, [j for j, key in qualified.items() if key == best8]):
            merged[j] = merged.get(j, 0) + a
        awards.extend((k, j, merged[j]) for j in sorted(merged))
        halves.append((high_half, low_half))
    s.pot_halves = tuple(halves)
    return awards


def _split(s: StudState, amount: int, winners: list[int]) -> list[tuple[int, int]]:
    """R11.3: equal shares in whole chip units; odd units one each by highest card by suit (or from the
    dealer's left); a sub-unit remainder goes to the first in that order."""
    if len(winners) == 1:
        return [(winners[0], amount)]
    unit = s.cfg.chip_unit
    k = len(winners)
    share = amount // (k * unit) * unit
    rest = amount - share * k
    if s.cfg.odd_chip_rule == "high_card_by_suit":
        order = sorted(winners, key=lambda j: max(c for c, _ in s.cards[j]), reverse=True)
    else:
        order = sorted(winners)
    out = {j: share for j in winners}
    for j in order:
        if rest >= unit:
            out[j] += unit
            rest -= unit
    if rest:
        out[order[0]] += rest
    return [(j, out[j]) for j in sorted(winners)]


def _close(s: StudState, pots: list[tuple[int, tuple[int, ...]]], awards: list[tuple[int, int, int]]) -> None:
    for _k, j, amt in awards:
        s.awards[j] += amt
        s.stack[j] += amt
    s.final_pots = tuple(pots)
    s.pot_awards = tuple(awards)
    s.phase = "complete"
    s.to_act = None


def _on_misdeal(s: StudState, event: Mapping[str, Any]) -> None:
    if s.street != 3 or s.voluntary >= 2:
        raise IllegalAction(gettext_noop("cannot call a misdeal: two players have already acted, the deal stands (R12.1)"),
                            rule="R12.1")
    for j in range(s.n):
        back = s.contrib[j] - s.returned[j]
        s.returned[j] += back
        s.stack[j] += back
    s.void = True
    _close(s, [], [])


#: The keys each event type takes (besides ``type`` and a croupier's ``note``); anything else is refused.
_EVENT_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(fields) | {"type", "note"}
    for kind, fields in {
        "ante": ("seat", "amount"), "burn": ("card",), "deal": ("seat", "cards", "face"), "deal_community": ("card",),
        "bring_in": ("seat",), "complete": ("seat", "to"), "bet": ("seat", "to"), "raise": ("seat", "to"),
        "call": ("seat",), "check": ("seat",), "fold": ("seat",), "taxe": ("amount",), "show": ("seat", "cards"),
        "muck": ("seat",), "misdeal": ("reason",), "card_exposed": ("seat", "card"),
    }.items()
}

_HANDLERS = {
    "ante": _on_ante, "burn": _on_burn, "deal": _on_deal, "deal_community": _on_deal_community,
    "bring_in": _on_bring_in, "complete": _on_wager, "bet": _on_wager, "raise": _on_wager, "call": _on_call,
    "check": _on_check, "fold": _on_fold, "taxe": _on_taxe, "show": _on_show, "muck": _on_muck,
    "misdeal": _on_misdeal, "card_exposed": _on_card_exposed,
}


# --------------------------------------------------------------------------------------------- queries


def legal_actions(s: StudState) -> list[dict[str, Any]]:
    """The events legal now, as ``[{"type", "seat", "min", "max"[, "amounts"]}]`` (cents; see module doc)."""
    out: list[dict[str, Any]] = []
    if s.phase == "ante":
        for j in range(s.n):
            if not s.ante_done[j]:
                due = min(s.cfg.ante, s.stack[j])
                out.append({"type": "ante", "seat": s.seats[j], "min": due, "max": due})
        return out
    if s.phase == "deal":
        if s.street == 7 and s.seventh_mode == "community":
            return [{"type": "deal_community", "seat": None, "min": None, "max": None}]
        for j in range(s.n):
            if not s.folded[j] and _need(s, j):
                base = len(s.cards[j]) - (0 if s.street == 3 else s.street - 1)
                faces = ["up" if u else "down" for u in PATTERN[s.street][base:]]
                if s.street == 3 and s.exposed[j] and faces:
                    faces[-1] = "down"
                out.append({"type": "deal", "seat": s.seats[j], "count": _need(s, j), "faces": faces,
                            "min": None, "max": None})
        return out
    i = s.to_act
    if i is None:
        return out
    seat = s.seats[i]
    if s.phase == "showdown":
        out.append({"type": "show", "seat": seat, "min": None, "max": None})
        try:
            for _k, (_a, elig) in enumerate(_pots(s)):
                if i in elig and not any(j != i and not s.mucked[j] for j in elig):
                    raise IllegalAction("")
            out.append({"type": "muck", "seat": seat, "min": None, "max": None})
        except IllegalAction:
            pass
        return out
    cfg = s.cfg
    if s.phase == "bring_in":
        post = min(cfg.bring_in_amount(), s.stack[i])
        out.append({"type": "bring_in", "seat": seat, "min": post, "max": post})
        lo, hi = _bring_in_complete_range(s, i)
        if lo is not None:
            entry = {"type": "complete", "seat": seat, "min": lo, "max": hi}
            if cfg.split:
                entry["amounts"] = [lo]
            out.append(entry)
        if cfg.bring_in_may_fold:
            out.append({"type": "fold", "seat": seat, "min": None, "max": None})
        return out
    owe = s.bet_to - s.sc[i]
    if owe > 0:
        out.append({"type": "fold", "seat": seat, "min": None, "max": None})
        c = min(owe, s.stack[i])
        out.append({"type": "call", "seat": seat, "min": c, "max": c})
    else:
        out.append({"type": "check", "seat": seat, "min": None, "max": None})
    try:
        kind, lo, hi, amounts = _wager_options(s, i, "wager")
    except IllegalAction:
        return out
    entry = {"type": kind, "seat": seat, "min": lo, "max": hi}
    if amounts is not None:
        entry["amounts"] = list(amounts)
    out.append(entry)
    return out


def _expect(s: StudState) -> str | None:
    if s.phase == "deal" and s.street == 7 and s.seventh_mode == "community":
        return "deal_community"
    return {"ante": "ante", "deal": "deal", "bring_in": "bring_in", "betting": "action",
            "showdown": "show"}.get(s.phase)


def is_complete(s: StudState) -> bool:
    """True once the hand is over (won by folds, shown down, or void by misdeal)."""
    return s.phase == "complete"


def settlement(s: StudState) -> Settlement:
    """The money result of a complete hand (R10-R11): contributions incl. antes, uncalled bets
    returned, awards per seat and per pot, the Taxe. Raises :class:`IllegalAction` if not complete."""
    if s.phase != "complete":
        raise IllegalAction(gettext_noop("the hand is not complete; nothing to settle yet"))
    seats = s.seats
    pots = tuple(Pot(amount=a, eligible=tuple(seats[j] for j in e)) for a, e in s.final_pots)
    result = Settlement(
        contributions={seats[j]: s.contrib[j] for j in range(s.n)},
        awards={seats[j]: s.awards[j] for j in range(s.n)},
        returned={seats[j]: s.returned[j] for j in range(s.n)},
        tax=s.taxe,
        pots=pots,
        pot_awards=tuple((k, seats[j], a) for k, j, a in s.pot_awards),
        winners=tuple(seats[j] for j in range(s.n) if s.awards[j] > 0),
    )
    return result


def settlement_dict(st: Settlement) -> dict[str, Any]:
    """JSON form of a :class:`Settlement`."""
    return {
        "contributions": dict(st.contributions), "awards": dict(st.awards), "returned": dict(st.returned),
        "tax": st.tax, "net": st.net, "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in st.pots],
        "pot_awards": [list(x) for x in st.pot_awards], "winners": list(st.winners),
    }


def view(s: StudState) -> dict[str, Any]:
    """JSON-able answer for the croupier (base.GameEngine.view): street, phase, expect, to_act,
    legal_actions, raises_left, bet_to, pots, tax, stacks, contributions, boards, complete (+settlement)."""
    seats = s.seats
    pots = s.final_pots if s.phase == "complete" else _pots(s)
    out: dict[str, Any] = {
        "game": s.variant.game,
        "phase": s.phase,
        "street": s.street,
        "expect": _expect(s),
        "to_act": s.to_act_seat,
        "legal_actions": legal_actions(s),
        "raises_left": _raises_left(s) if s.phase == "betting" else None,
        "bet_to": s.bet_to,
        "bring_in_seat": None if s.bring_in_idx is None else seats[s.bring_in_idx],
        "open_pair": s.open_pair,
        "pots": [{"amount": a, "eligible": [seats[j] for j in e]} for a, e in pots],
        "tax": s.taxe,
        "stacks": {seats[j]: s.stack[j] for j in range(s.n)},
        "contributions": {seats[j]: s.contrib[j] for j in range(s.n)},
        "street_contributions": {seats[j]: s.sc[j] for j in range(s.n)},
        "returned": {seats[j]: s.returned[j] for j in range(s.n)},
        "folded": [seats[j] for j in range(s.n) if s.folded[j]],
        "all_in": [seats[j] for j in range(s.n) if not s.folded[j] and s.stack[j] == 0],
        "boards": {seats[j]: " ".join(_fmt(c) for c, up in s.cards[j] if up) for j in range(s.n)},
        "down_cards": {seats[j]: sum(1 for _c, up in s.cards[j] if not up) for j in range(s.n)},
        "community": None if s.community is None else _fmt(s.community),
        "complete": s.phase == "complete",
        "void": s.void,
    }
    if s.phase == "complete":
        out["settlement"] = settlement_dict(settlement(s))
    return out


def next_button(occupied: Sequence[int], current: int) -> int:
    """The next button seat: the first occupied seat clockwise after ``current`` (DESIGN.md tables/)."""
    if not occupied:
        raise IllegalAction(gettext_noop("no occupied seat for the button"))
    return next_clockwise(occupied, current)


def replay(config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], events: Sequence[Mapping[str, Any]],
           *, button: int, variant: StudVariant = SEVEN_CARD_STUD) -> StudState:
    """Rebuild a hand from its events. On a bad event re-raises its error with ``"event K (type): "``
    in front of the message and ``extra["event_index"] = K`` (0-based)."""
    s = new_hand(config, seats, button=button, variant=variant)
    for k, event in enumerate(events):
        try:
            _apply(s, event)
        except RuleViolation as exc:
            kind = event.get("type") if isinstance(event, Mapping) else None
            exc.message = gettext_noop("event %(k)s (%(kind)s): %(message)s", k=k, kind=kind, message=exc.message)
            exc.args = (exc.message,)
            exc.extra["event_index"] = k
            raise
    return s


class StudEngine:
    """The :class:`~rules.engines.base.GameEngine` of a stud game: Seven Card Stud (``ENGINE``), and with
    their :class:`~rules.engines.stud_variant.StudVariant` Razz and Seven Card Stud Hi-Lo."""

    apply = staticmethod(apply)
    view = staticmethod(view)
    is_complete = staticmethod(is_complete)
    settlement = staticmethod(settlement)
    next_button = staticmethod(next_button)
    legal_actions = staticmethod(legal_actions)
    config_to_dict = staticmethod(config_to_dict)

    def __init__(self, variant: StudVariant = SEVEN_CARD_STUD) -> None:
        self.variant = variant
        self.game = variant.game

    def build_config(self, raw: Mapping[str, Any]) -> StudConfig:
        """:func:`~rules.engines.stud_config.build_config`; a game without the open-pair rule (Razz, Hi-Lo)
        defaults ``open_pair_option`` to ``off`` and refuses ``on`` (RZ3.1, HL3.1)."""
        if not self.variant.open_pair and isinstance(raw, Mapping):
            if raw.get("open_pair_option", "off") not in ("off", False):
                raise ConfigError("open_pair_option", gettext_noop("%(game)s has no open-pair rule; it must be off (RZ3.1, HL3.1)",
                                                                   game=self.variant.label), rule="RZ3.1")
            raw = {**raw, "open_pair_option": "off"}
        return build_config(raw)

    def new_hand(self, config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], *, button: int) -> StudState:
        """:func:`new_hand` of this engine's stud game."""
        if not isinstance(config, StudConfig):
            config = self.build_config(config)
        return new_hand(config, seats, button=button, variant=self.variant)

    def replay(self, config: StudConfig | Mapping[str, Any], seats: Mapping[int, int],
               events: Sequence[Mapping[str, Any]], *, button: int) -> StudState:
        """:func:`replay` of this engine's stud game."""
        if not isinstance(config, StudConfig):
            config = self.build_config(config)
        return replay(config, seats, events, button=button, variant=self.variant)


ENGINE = StudEngine()
