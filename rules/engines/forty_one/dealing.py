"""Forty-one forced bets, the two deals and the exposure of two cards (B.4 steps 1-4, B.4a)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from rules.engines.cards import (
    Card,
    format_cards,
)
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidAmount,
    OutOfTurn,
    WrongCardCount,
)
from rules.engines.forty_one.betting import _start_round
from rules.engines.forty_one.parsing import (
    _PAIR_TEXT,
    _adopt_unseen,
    _amount,
    _event_cards,
    _seat_of,
    _split_unseen,
)
from rules.engines.forty_one.state import (
    CARDS_EXPOSED,
    CARDS_PER_DEAL,
    FortyOneState,
    _after_order,
    _check_forced_done,
    _clockwise,
    _post_blind,
    _put,
)
from rules.engines.messages import gettext_noop
from rules.engines.money import format_cents


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


def _deal_targets(st: FortyOneState) -> list[int]:
    """Seats still owed cards in the current deal, clockwise from the forehand (B.4 step 1)."""
    need = CARDS_PER_DEAL * (1 if st.phase == "deal1" else 2)
    seats = st.seats if st.phase == "deal1" else st.live
    hole, unseen = st.hole, st.unseen
    return [s for s in _clockwise(tuple(seats), st.forehand) if len(hole.get(s, ())) + unseen.get(s, 0) < need]


def _owed_cards(st: FortyOneState, seat: int, need: int) -> bool:
    """Whether ``seat`` holds fewer than ``need`` cards, seen or unseen (:func:`_deal_targets` for one seat)."""
    return len(st.hole.get(seat, ())) + st.unseen.get(seat, 0) < need


def _deal_done(st: FortyOneState) -> bool:
    """True when no seat is owed cards in the current deal (:func:`_deal_targets` is empty; B.4 steps 3-4)."""
    hole, unseen = st.hole, st.unseen
    folded: AbstractSet[int]
    if st.phase == "deal1":
        if len(hole) < len(st.seats):
            return False  # a seat without cards yet (a seat's unseen cards are counted with its hole entry)
        need, folded = CARDS_PER_DEAL, frozenset()
    else:
        need, folded = 2 * CARDS_PER_DEAL, st.folded
    for s in st.seats:
        if s not in folded and len(hole.get(s, ())) + unseen.get(s, 0) < need:
            return False
    return True


def _deal(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    """Two cards to a seat in the first or the second deal (B.4 steps 3-4); ``??`` for a card dealt face
    down unseen. The usual two named cards (``"As Kd"``) are looked up, not parsed (:data:`_PAIR_TEXT`)."""
    seat = _seat_of(st, ev)
    phase = st.phase
    if phase not in ("deal1", "deal2"):
        raise IllegalAction(gettext_noop("no cards are dealt now (phase %(phase)s); deals follow the forced bets and round 1 (B.4 steps 3-4)", phase=st.phase), seat=seat, rule="B.4")
    # seat in _deal_targets(st): every seat in the first deal, the seats still in in the second
    if (phase == "deal2" and seat in st.folded) or not _owed_cards(st, seat, CARDS_PER_DEAL * (1 if phase == "deal1" else 2)):
        why = gettext_noop("has folded") if seat in st.folded else gettext_noop("already has its cards for this deal")
        raise IllegalAction(gettext_noop("seat %(seat)s cannot be dealt cards: it %(why)s (B.4 step %(note)s)", seat=seat, why=why, note=(3 if st.phase == 'deal1' else 4)),
                            seat=seat, rule="B.4")
    raw = ev.get("cards")
    pair = _PAIR_TEXT.get(raw) if type(raw) is str else None
    cards: list[Card] | tuple[Card, ...]
    if pair is not None:
        cards, n_unseen, text = pair, 0, raw
    else:
        n_unseen, named = _split_unseen(raw)
        cards = _event_cards(st, {**ev, "cards": named}, seat) if named else []
        if len(cards) + n_unseen != CARDS_PER_DEAL:
            raise WrongCardCount(gettext_noop("seat %(seat)s is dealt %(cards_per_deal)s cards in each deal, not %(n_cards)s (B.4 steps 3-4)", seat=seat, cards_per_deal=CARDS_PER_DEAL, n_cards=len(cards) + n_unseen), seat=seat, rule="B.4")
        text = " ".join([format_cards(cards)] * bool(cards) + ["??"] * n_unseen)
    hole = st.hole
    dealt_cards: set[Card] = set()
    for held in hole.values():
        dealt_cards.update(held)
    if not dealt_cards.isdisjoint(cards):
        dealt = {int(c): s for s, held in hole.items() for c in held}
        for c in cards:
            if int(c) in dealt:
                raise DuplicateCard(gettext_noop("card %(c)s is already dealt to seat %(dealt)s", c=c, dealt=dealt[int(c)]), seat=seat,
                                    extra={"card": str(c)})
    hole[seat] = (*hole.get(seat, ()), *cards)
    if n_unseen:
        st.unseen[seat] = st.unseen.get(seat, 0) + n_unseen
    if _deal_done(st):
        if phase == "deal1":
            _start_round(st, 1)
        else:
            st.phase = "expose"
            _check_exposure_done(st)
    return {"type": "deal", "seat": seat, "cards": text}


def _expose_pending(st: FortyOneState) -> list[int]:
    """Seats still in that have not exposed, clockwise from the forehand's left (B.4 step 4)."""
    folded, exposed = st.folded, st.exposed
    return [s for s in _after_order(st.seats, st.forehand) if s not in folded and s not in exposed]


def _expose(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    """A seat still in turns up two of its four cards after the second deal (B.4 step 4); in turn from the
    forehand's left with ``exposure_order = "in_turn"``. Two named cards are looked up (:data:`_PAIR_TEXT`)."""
    seat = _seat_of(st, ev)
    if st.phase != "expose":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot expose cards now: players turn up two cards after the second deal (B.4 step 4)", seat=seat), seat=seat, rule="B.4")
    if seat in st.folded:
        raise IllegalAction(gettext_noop("seat %(seat)s has folded and exposes nothing", seat=seat), seat=seat, rule="B.4")
    if seat in st.exposed:
        raise IllegalAction(gettext_noop("seat %(seat)s has already exposed %(exposed)s; an exposure cannot be changed (B.4 step 4)", seat=seat, exposed=format_cards(st.exposed[seat])), seat=seat, rule="B.4")
    if st.config.exposure_order == "in_turn":
        pending = _expose_pending(st)
        if seat != pending[0]:
            raise OutOfTurn(gettext_noop("seat %(seat)s cannot expose yet: seat %(pending)s exposes first (exposure in turn, B.4 step 4)", seat=seat, pending=pending[0]), seat=seat, rule="B.4")
    raw = ev["cards"]
    pair = _PAIR_TEXT.get(raw) if type(raw) is str else None
    held = st.hole.get(seat, ())
    if pair is not None and pair[0] in held and pair[1] in held:
        cards: list[Card] | tuple[Card, ...] = pair  # two cards it holds: nothing to adopt, nothing to refuse
    else:
        cards = _event_cards(st, ev, seat)
        if len(cards) != CARDS_EXPOSED:
            raise WrongCardCount(gettext_noop("seat %(seat)s must expose exactly %(cards_exposed)s of its four cards, not %(n_cards)s (B.4 step 4)", seat=seat, cards_exposed=CARDS_EXPOSED, n_cards=len(cards)), seat=seat, rule="B.4")
        _adopt_unseen(st, seat, cards, "expose")
        for c in cards:
            if c not in st.hole[seat]:
                # The refusal names the card asked for, never the seat's face-down cards (a live hand's answers
                # do not name them, issue 20).
                raise IllegalAction(gettext_noop("seat %(seat)s cannot expose %(c)s: it does not hold it (B.4 step 4)",
                                                 seat=seat, c=c), seat=seat, rule="B.4")
    st.exposed[seat] = tuple(cards)
    _check_exposure_done(st)
    return {"type": "expose", "seat": seat, "cards": format_cards(cards)}


def _check_exposure_done(st: FortyOneState) -> None:
    if st.phase == "expose" and not _expose_pending(st):
        _start_round(st, 2)
