"""The stud deal: antes, burns, cards to each seat, exposed cards, the community card (R1.2-R1.4, R3.3,
R9.3, R12.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.cards import CARDS
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    UnknownEvent,
)
from rules.engines.messages import gettext_noop
from rules.engines.stud.betting import _start_betting
from rules.engines.stud.parsing import _CARD_IDS, _amount_field, _fmt, _parse_tokens, _seat_cards, _seat_of
from rules.engines.stud.showdown import _finish_by_fold
from rules.engines.stud.state import (
    _STREET_NAMES,
    PATTERN,
    UNKNOWN,
    StudState,
    _board_of,
    _m,
    _n_live,
    _need,
    _seat_err,
    _stub,
)
from rules.engines.stud.taxe import _take_taxe


def _on_ante(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if i is None:
        i = _seat_of(s, event)
    if s.phase != "ante":
        raise _seat_err(IllegalAction, s, i, gettext_noop("post an ante"), gettext_noop("the antes are already in"), "R1.2")
    ante_done = s.ante_done
    if ante_done[i]:
        raise _seat_err(IllegalAction, s, i, gettext_noop("post an ante"), gettext_noop("its ante is already posted"), "R3.3")
    stack = s.stack
    due = s.cfg.ante
    if stack[i] < due:
        due = stack[i]  # R10.4: all in for less
    amount = event.get("amount")
    if amount is not None:
        amount = _amount_field(event, "amount", required=False, s=s, i=i, action=gettext_noop("post an ante"), rule="R3.3")
        if amount is not None and amount != due:
            raise _seat_err(InvalidAmount, s, i, gettext_noop("post an ante"), gettext_noop("the ante is %(due)s, not %(amount)s", due=_m(due), amount=_m(amount)),
                            "R3.3" if due == s.cfg.ante else "R10.4")
    stack[i] -= due
    s.contrib[i] += due
    s.ante_paid[i] = due
    ante_done[i] = True
    if False not in ante_done:
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


def _deal_named(s: StudState, i: int, cards: list[Any]) -> bool:
    """The common deal, in place: position ``i`` gets ``cards`` (card ids; ``None`` for a token that is not a
    named card) with no face given. True when done; False, with ``s`` unchanged, when anything is unusual
    (a phase, an exposure, a 7th-street mode, an unknown or repeated card, too many cards), so that the
    caller falls back to :func:`_on_deal`'s full checks and their messages."""
    if s.phase != "deal" or s.folded[i] or s.exposed[i]:
        return False
    street = s.street
    held = s.cards[i]
    dealt = s.dealt
    burned = s.burned
    if street == 3:
        base = len(held)
        if len(cards) == 3 and not base:  # the usual 3rd-street deal: two down, one up (R1.3)
            a, b, c = cards
            if (a is None or b is None or c is None or a == b or a == c or b == c or a in dealt or b in dealt
                    or c in dealt or (burned and (a in burned or b in burned or c in burned))):
                return False
            if s.cfg.burn_before_first_deal and 3 not in s.burned_streets:
                _burn(s)
            s.cards[i] = ((a, False), (b, False), (c, True))
            s.boards[i] = (c,)
            dealt.add(a)
            dealt.add(b)
            dealt.add(c)
            s.n_dealt += 3
        else:
            k = len(cards)
            if (None in cards or not 0 < k <= 3 - base or len(set(cards)) != k or not dealt.isdisjoint(cards)
                    or (burned and not set(burned).isdisjoint(cards))):
                return False
            if s.cfg.burn_before_first_deal and 3 not in s.burned_streets:
                _burn(s)
            s.cards[i] = held = held + tuple(zip(cards, PATTERN[3][base:base + k]))
            s.boards[i] = _board_of(held)
            dealt.update(cards)
            s.n_dealt += k
    else:  # 4th to 7th street: one card, up (7th: down, R1.3)
        if len(cards) != 1 or len(held) != street - 1:
            return False
        c = cards[0]
        if c is None or c in dealt or (burned and c in burned):
            return False
        if street == 7:
            mode = s.seventh_mode
            if mode is not None and mode != "normal":
                return False
            s.cards[i] = (*held, (c, False))
        else:
            s.cards[i] = (*held, (c, True))
            s.boards[i] += (c,)
        if street not in s.burned_streets:
            _burn(s)
        dealt.add(c)
        s.n_dealt += 1
    _after_deal(s)
    return True


#: Positions from the last to the first, by the number of seats (:func:`_after_deal`: seats are dealt in
#: order, so the last live position is the one still waiting until the street is dealt).
_LAST_FIRST = {n: tuple(range(n - 1, -1, -1)) for n in range(1, 11)}


def _on_deal(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None
    if i is None:
        i = _seat_of(s, event)
    text = event.get("cards")
    if type(text) is str and event.get("face") is None and _deal_named(
            s, i, [_CARD_IDS.get(text)] if len(text) == 2 else list(map(_CARD_IDS.get, text.split()))):
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
    cards = _seat_cards(s, i, gettext_noop("be dealt cards"), event.get("cards"))
    need = _need(s, i)
    if not cards:
        raise _seat_err(UnknownEvent, s, i, gettext_noop("be dealt cards"), gettext_noop("the event needs 'cards'"), "R1.3")
    if len(cards) > need:
        raise _seat_err(IllegalAction, s, i, gettext_noop("be dealt %(items)s", items=' '.join(_fmt(c) for c in cards)),
                        (gettext_noop("it already has all its cards for %(street_name)s street", street_name=_STREET_NAMES[s.street])
                         if need == 0 else gettext_noop("it needs %(need)s more card(s) on %(street_name)s street", need=need, street_name=_STREET_NAMES[s.street])),
                        "R1.3")
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
            s.boards[i] = _board_of(s.cards[i])
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
    s.boards[i] = _board_of(s.cards[i])
    s.exposed[i] = exposed
    for c, _up in new:
        if c != UNKNOWN:
            s.dealt.add(c)
    s.n_dealt += len(new)
    if exposed >= 2 and s.street == 3:
        _dead_hand(s, i)
    _after_deal(s)


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
    cards = _seat_cards(s, i, gettext_noop("record an exposed card"), event.get("card"))
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
    s.boards[i] = _board_of(s.cards[i])
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
    """After a deal: one seat left wins (a dead hand, R12.2); once every live seat has its cards for the
    street, the Taxe (on 4th street, R8.1) and the betting round."""
    folded = s.folded
    if folded.count(False) <= 1:
        _finish_by_fold(s)
        return
    street = s.street  # 3 cards on 3rd street, then one more each street
    cards = s.cards
    for j in _LAST_FIRST[s.n]:  # from the last position: seats are dealt in order, so it returns at once
        if not folded[j] and len(cards[j]) < street:
            return
    if street == 4 and not s.taxe_taken:
        _take_taxe(s)
    _start_betting(s)
