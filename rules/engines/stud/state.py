"""The state of a stud hand (:class:`StudState`), its board and limit helpers, and :func:`new_hand`
(R1.1-R1.3, R5, R6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

from rules.core.betting import is_capped
from rules.core.seats import clockwise_after
from rules.engines.errors import (
    IllegalAction,
    InvalidAmount,
    RuleViolation,
)
from rules.engines.evaluators.low import low_board_key
from rules.engines.evaluators.stud_board import board_key, board_suit_key
from rules.engines.messages import Amount, action_word, gettext_noop
from rules.engines.stud_config import StudConfig, build_config
from rules.engines.stud_variant import SEVEN_CARD_STUD, StudVariant

#: Cards in the stud deck (R1.1).
DECK_SIZE = 52


UNKNOWN = -1


#: The card of a dealt ``(card, face up)`` pair.
_CARD_OF = itemgetter(0)


#: ``POSITIONS[n]``: the positions of a hand of ``n`` seats, ``(0, 1, ..., n - 1)``.
POSITIONS: dict[int, tuple[int, ...]] = {n: tuple(range(n)) for n in range(1, 11)}


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


def _action(kind: object) -> object:
    """The marked words for an action named by its event type in "seat 3 cannot ..." (``"deal"`` -> "be
    dealt cards"); anything else as :func:`rules.engines.messages.action_word`."""
    return _ACTION_WORDS.get(kind, action_word(kind)) if isinstance(kind, str) else kind



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
        "boards",
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
    #: Per position, the up cards that count for the acting order (:func:`_board_of` of ``cards``, R5.5),
    #: kept with ``cards`` by every event that deals, exposes or shows a card.
    boards: list[tuple[int, ...]]
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
        new.boards = self.boards[:]
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
    "burned", "acted", "shown", "mucked", "awards", "burned_streets", "boards",
)


_IMMUTABLE_SLOTS = tuple(
    s for s in StudState.__slots__ if s not in _LIST_SLOTS and s != "dealt"
)


def _seat_err(cls: type[RuleViolation], s: StudState, i: int, action: str, reason: str, rule: str,
              **extra: Any) -> RuleViolation:
    seat = s.seats[i]
    words = (_ACTION_WORDS.get(action) or action_word(action)) if type(action) is str else action
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


def _board_of(held: tuple[tuple[int, bool], ...]) -> tuple[int, ...]:
    """The up cards of a seat's ``held`` cards that count for acting order: the named ones of the first six
    (the 7th-street card is excluded even when dealt face up, R5.5, R12.3)."""
    return tuple([c for c, up in held[:6] if up and c != UNKNOWN])


def _board(s: StudState, i: int) -> list[int]:
    """Up cards of position ``i`` that count for acting order (7th-street card excluded, R5.5)."""
    board = list(s.boards[i])
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


#: Board keys (:func:`_rank_of`, :func:`_low_rank_of`; bigger acts first) by the game's board order and the
#: config's two board settings (low boards, straights and flushes count, suit tie-break), then by board.
_BOARD_KEYS: dict[tuple[bool, bool, bool], dict[tuple[int, ...], tuple[Any, ...]]] = {}


def _high_board(s: StudState, candidates: Sequence[int]) -> int:
    """The best board among ``candidates`` (positions); ties to the earliest position (R5.1-R5.3)."""
    cfg = s.cfg
    low = s.variant.boards == "low"
    flags = (low, cfg.board_counts_straights_flushes, cfg.high_board_tiebreak == "suit")
    keys = _BOARD_KEYS.get(flags)
    if keys is None:
        keys = _BOARD_KEYS[flags] = {}
    extra = (s.community,) if s.community is not None and s.street == 7 else ()
    boards = s.boards
    best = None
    best_key: tuple[Any, ...] = ()
    for i in candidates:
        b = boards[i] + extra if extra else boards[i]
        k = keys.get(b)
        if k is None:
            k = (_low_rank_of(b) if low else _rank_of(b, flags[1], flags[2])) if b else (-1,)
            if len(keys) >= 1 << 16:
                keys.clear()
            keys[b] = k
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
    """The cap of one bet and ``raise_cap`` raises (R6.2, R7.3; none once heads-up uncapped it, R6.3)."""
    return is_capped(s.wagers - 1, None if s.uncapped else s.cfg.raise_cap)


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


#: The deal order (R1.2) and position of each seat, by the seats (in the caller's order) and the button.
_LAYOUTS: dict[tuple[int, ...], tuple[tuple[int, ...], dict[int, int]]] = {}


def new_hand(config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], *, button: int,
             variant: StudVariant = SEVEN_CARD_STUD) -> StudState:
    """Start a hand. ``seats`` maps table seat number -> starting stack (cents, > 0); ``button`` is the
    dealer-button seat; ``variant`` the stud game (Seven Card Stud, Razz, Hi-Lo). 2-8 players (R1.1).
    Raises :class:`IllegalAction` / :class:`InvalidAmount`."""
    cfg = config if isinstance(config, StudConfig) else build_config(config)
    if not (type(seats) is dict or isinstance(seats, Mapping)) or not 2 <= len(seats) <= 8:
        raise IllegalAction(gettext_noop("a stud hand needs 2 to 8 players (R1.1)"), rule="R1.1")
    plain = type(button) is int  # only plain ints are keys of _LAYOUTS
    for seat, stack in seats.items():
        if type(seat) is int and seat >= 1 and type(stack) is int and stack > 0:
            continue  # the usual seat; anything else is looked at closely
        plain = False
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise IllegalAction(gettext_noop("seat %(seat)s is not a seat number", seat=repr(seat)), rule="R1.1")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise InvalidAmount(gettext_noop("seat %(seat)s cannot play: stack %(stack)s is not a positive amount in cents (R3.5)", seat=seat, stack=repr(stack)),
                                seat=seat, rule="R3.5")
    if isinstance(button, bool) or not isinstance(button, int):
        raise IllegalAction(gettext_noop("button %(button)s is not a seat number", button=repr(button)), rule="R1.2")
    key = (*seats, button)
    layout = _LAYOUTS.get(key) if plain else None
    if layout is None:
        clockwise = clockwise_after(seats, button)
        layout = (tuple(clockwise), {seat: i for i, seat in enumerate(clockwise)})
        if plain:
            if len(_LAYOUTS) >= 1024:
                _LAYOUTS.clear()
            _LAYOUTS[key] = layout
    s = StudState.__new__(StudState)
    order, s.pos = layout  # shared by every hand of the seating: never changed
    n = len(order)
    s.cfg = cfg
    s.seats = order
    s.n = n
    s.button = button
    s.start = tuple(seats.values()) if order == key[:-1] else tuple(map(seats.__getitem__, order))
    s.stack = list(s.start)
    s.contrib = [0] * n
    s.returned = [0] * n
    s.sc = [0] * n
    s.folded = [False] * n
    s.dead = [False] * n
    s.ante_paid = [0] * n
    s.ante_done = [False] * n
    s.cards = [()] * n
    s.boards = [()] * n
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
