"""The stud betting round: bring-in, completion, fixed (split) and spread limit wagers, caps, short all-ins
and reopening, the turn (R4-R7, R9.2-R9.5, R10.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.betting import is_full_wager
from rules.core.seats import CLOCKWISE_POSITIONS
from rules.engines.errors import (
    IllegalAction,
    InvalidAmount,
    OutOfTurn,
)
from rules.engines.messages import gettext_noop, or_list
from rules.engines.stud.parsing import _amount_field, _seat_of
from rules.engines.stud.pots import _return_uncalled
from rules.engines.stud.showdown import _finish_by_fold, _start_showdown
from rules.engines.stud.state import (
    _ACTION_WORDS,
    POSITIONS,
    UNKNOWN,
    StudState,
    _any_open_pair,
    _high_board,
    _is_capped,
    _m,
    _n_live,
    _seat_err,
    _stub,
    _units,
)


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
    live: Sequence[int] = POSITIONS[n] if True not in folded else [i for i in POSITIONS[n] if not folded[i]]
    chips = live if 0 not in stack else [i for i in live if stack[i] > 0]
    s.uncapped = cfg.uncap_heads_up and len(live) == 2
    street = s.street
    if street == 4 and cfg.open_pair_option == "on" and cfg.limit_type == "split":
        s.open_pair = _any_open_pair(s)
    else:
        s.open_pair = False
    if len(chips) <= 1:
        s.to_act = None
        _end_round(s)
        return
    if street == 3:
        # R4.1: the lowest door card brings it in, ace high, clubs < diamonds < hearts < spades: the card id
        # itself; Razz (RZ4.1) by _razz_bring_in_key. Ties cannot happen (one deck).
        keys = _RAZZ_BRING_IN_KEYS if s.variant.bring_in == "high_card" else None
        boards = s.boards  # the named up cards
        low = low_key = None
        for i in chips:
            for c in boards[i]:
                k = c if keys is None else keys[c]
                if low is None or k < low_key:  # type: ignore[operator]
                    low, low_key = i, k
        # RZ1.2: with no door card recorded (a history) the first seat may post, see _on_bring_in
        s.bring_in_idx = s.to_act = chips[0] if low is None else low
        s.phase = "bring_in"
        return
    top = _high_board(s, live)
    if stack[top] == 0:
        if cfg.allin_high_board_opener == "next_clockwise":
            top = next((top + k) % n for k in range(1, n) if (top + k) % n in chips)
        else:
            top = _high_board(s, chips)
    s.to_act = top


def _unrecorded_door(s: StudState, i: int) -> bool:
    """RZ1.2: position ``i``'s door card was logged as ``??`` (a history that did not record it)."""
    return any(c == UNKNOWN and up for c, up in s.cards[i])


def _razz_bring_in_key(c: int) -> int:
    """Smallest = brings it in under Razz (RZ4.1): the highest rank with the ace low, then spades > hearts >
    diamonds > clubs; i.e. minus the card's ace-low order."""
    r = c >> 2
    return -((0 if r == 12 else r + 1) * 4 + (c & 3))


#: :func:`_razz_bring_in_key` of every card id, for the 3rd-street deal.
_RAZZ_BRING_IN_KEYS: tuple[int, ...] = tuple(_razz_bring_in_key(c) for c in range(52))


#: The phases in which a seat acts (:func:`_check_turn`).
_TURN_PHASES = ("betting", "bring_in")


def _check_turn(s: StudState, i: int, action: str) -> None:
    """Raise unless it is position ``i``'s turn to bet (callers skip the call when ``s.to_act == i`` in a
    betting phase)."""
    if s.phase not in _TURN_PHASES:
        reasons = {"ante": gettext_noop("the antes are not all in"),
                   "deal": gettext_noop("the cards for this street are not all dealt"),
                   "showdown": gettext_noop("the betting is over; the showdown has begun")}
        raise _seat_err(IllegalAction, s, i, action, reasons.get(s.phase, gettext_noop("no betting now")), "R1.3")
    if s.to_act != i:
        who = s.seats[s.to_act]  # type: ignore[index]
        rule = "R4.1" if s.phase == "bring_in" else ("R4.3" if s.street == 3 else "R5.1")
        raise _seat_err(OutOfTurn, s, i, action, gettext_noop("it is seat %(who)s's turn", who=who), rule, to_act=who)


def _wager_options(s: StudState, i: int, action: str) -> tuple[str, int, int, tuple[int, ...] | None]:
    """The wager open to position ``i``: (type, min to, max to, exact amounts or None for a range).

    Raises :class:`IllegalAction` naming why no wager is possible (cap R6.2/R7.3, not reopened R6.5/R7.5,
    no chips)."""
    kind, lo, hi, amounts, _units_used = _wager_span(s, i, action)
    return kind, lo, hi, amounts


def _wager_span(s: StudState, i: int, action: str) -> tuple[str, int, int, tuple[int, ...] | None, tuple[int, ...] | None]:
    """:func:`_wager_options` plus the split-limit bet sizes it used (:func:`~rules.engines.stud.state._units`;
    ``None`` in spread limit), which :func:`_do_wager` reads again to classify the wager."""
    cfg = s.cfg
    sc_i = s.sc[i]
    bet_to = s.bet_to
    full_to = s.full_to
    avail = s.stack[i] + sc_i
    if avail <= bet_to:
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("it has no chips left beyond a call"), "R10.1")
    acted = s.acted[i]
    if acted is not None and acted >= full_to and bet_to > sc_i:
        raise _seat_err(IllegalAction, s, i, action,
                        gettext_noop("the all-in to %(bet_to)s was less than a full raise and does not reopen the betting", bet_to=_m(s.bet_to)),
                        "R6.5" if cfg.split else "R7.5")
    if _is_capped(s):
        raise _seat_err(IllegalAction, s, i, action,
                        gettext_noop("the round is capped at %(bet_to)s after %(n_raises)s", bet_to=_m(s.bet_to), n_raises=_n_raises(cfg.raise_cap)),
                        "R6.2" if cfg.split else "R7.3")
    kind = "bet" if bet_to == 0 else ("complete" if full_to == 0 else "raise")
    if cfg.limit_type == "split":
        units = _units(s, i)
        if len(units) == 1:  # the usual fixed unit: to one full wager, or all-in for less (R6.1, R10.1)
            t = full_to + units[0]
            t = t if t <= avail else avail
            return kind, t, t, (t,), units
        targets = sorted({full_to + u for u in units})
        amounts = [t for t in targets if t <= avail]
        if avail < targets[-1]:
            amounts.append(avail)
        amounts = sorted(set(amounts))
        return kind, amounts[0], amounts[-1], tuple(amounts), units
    mn, mx = cfg.limits(s.street)
    if kind in ("bet", "complete"):
        lo, hi = mn, mx
    else:
        min_inc = mn if cfg.spread_min_raise == "table_min" else max(mn, s.last_inc)
        unit = cfg.chip_unit
        min_inc = -(-min_inc // unit) * unit  # whole chips (R11.3)
        lo, hi = bet_to + min_inc, bet_to + max(min_inc, mx // unit * unit)
    if avail < lo:
        return kind, avail, avail, None, None
    return kind, lo, min(hi, avail), None, None


def _n_raises(n: int) -> str:
    words = {0: gettext_noop("no raises"), 1: gettext_noop("one raise"), 2: gettext_noop("two raises"),
             3: gettext_noop("three raises"), 4: gettext_noop("four raises")}
    return words.get(n) or gettext_noop("%(n)s raises", n=n)


def _on_bring_in(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None  # the fast path of _seat_of
    if i is None:
        i = _seat_of(s, event)
    if s.phase != "bring_in":
        raise _seat_err(IllegalAction, s, i, gettext_noop("bring it in"), gettext_noop("there is no bring-in to post now"), "R4.1")
    if s.to_act != i and _unrecorded_door(s, i) and s.stack[i] > 0 and not s.folded[i]:
        s.bring_in_idx = s.to_act = i  # RZ1.2: an unrecorded door card may have been the card that brings it in
    if s.to_act != i:
        raise _seat_err(OutOfTurn, s, i, gettext_noop("bring it in"),
                        gettext_noop("seat %(seat)s has the lowest door card", seat=s.seats[s.to_act]), "R4.1")  # type: ignore[index]
    cfg = s.cfg
    split = cfg.limit_type == "split"
    amount = cfg.bring_in_amount()
    stack = s.stack
    post = amount if amount <= stack[i] else stack[i]
    stack[i] -= post  # _put
    s.contrib[i] += post
    s.sc[i] += post
    s.bet_to = post
    full = post == amount and cfg.bring_in_mode == "full_bet" or (not split and post == amount)
    if post < amount and split and cfg.bring_in_mode == "full_bet" and cfg.short_bring_in == "half_bet_rule":
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
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None  # the fast path of _seat_of
    if i is None:
        i = _seat_of(s, event)
    cfg = s.cfg
    to = event.get("to")
    if type(to) is not int or to < 0:
        to = _amount_field(event, "to", s=s, i=i, action=kind, rule=(
            (("R4.6" if cfg.bring_in_mode == "partial_with_completion" else "R4.2") if cfg.split else "R7.4")
            if s.phase == "bring_in" else ("R6.1" if cfg.split else "R7.1")))
    phase = s.phase
    if s.to_act != i or phase != "betting":
        if phase == "bring_in" and s.to_act == i:
            _bring_in_complete(s, i, kind, to)  # type: ignore[arg-type]
            return
        _check_turn(s, i, kind)  # raises
    want, lo, hi, amounts, units = _wager_span(s, i, kind)
    if kind != want:
        hint = {'bet': gettext_noop("nothing is bet yet"), 'complete': gettext_noop("only %(bet_to)s is in, not a full bet", bet_to=_m(s.bet_to)), 'raise': gettext_noop("there is a bet of %(bet_to)s", bet_to=_m(s.bet_to))}[want]
        raise _seat_err(IllegalAction, s, i, kind, gettext_noop("%(hint)s; the wager now is '%(want)s'", hint=hint, want=want),
                        "R4.6" if want == "complete" else "R6.1")
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
        if to != s.stack[i] + s.sc[i] and (to - (s.bet_to if want == "raise" else 0)) % cfg.chip_unit:  # type: ignore[operator]
            raise _seat_err(InvalidAmount, s, i, gettext_noop("%(kind)s to %(to)s", kind=_ACTION_WORDS.get(kind, kind), to=_m(to)),  # type: ignore[arg-type]
                            gettext_noop("amounts are in whole chips of %(chip_unit)s", chip_unit=_m(cfg.chip_unit)), "R11.3")
    _do_wager(s, i, to, units)  # type: ignore[arg-type]
    if s.street == 3:
        s.voluntary += 1
    _advance(s, i)


def _do_wager(s: StudState, i: int, to: int, units: tuple[int, ...] | None) -> None:
    """Put position ``i`` in to ``to`` and classify the wager: full (counts for the cap, reopens) or
    short all-in (R6.5, R7.5, R10.3). ``units``: the split-limit bet sizes open to ``i``
    (:func:`~rules.engines.stud.state._units`), ``None`` in spread limit."""
    cfg = s.cfg
    prev_bet, prev_full = s.bet_to, s.full_to
    if units is not None:
        # a short all-in's half unit is measured from the current bet here (R6.5, R10.3; Forty-one: from
        # the last full wager, B.4a)
        full = is_full_wager(to, last_full=prev_full, half_from=prev_bet, unit=min(units),
                             short_allin_rule=cfg.short_allin_rule)
        if s.street == 4 and s.open_pair and to - prev_full >= cfg.higher and cfg.higher > cfg.lower:  # type: ignore[operator]
            s.big_bet = True  # R6.4: once H is wagered every later raise is H
    else:
        mn, _ = cfg.limits(s.street)
        if prev_full == 0:
            full = to >= mn
        else:
            min_inc = mn if cfg.spread_min_raise == "table_min" else max(mn, s.last_inc)
            full = to - prev_bet >= min_inc or cfg.spread_short_allin_reopens
    chips = to - s.sc[i]  # _put
    s.stack[i] -= chips
    s.contrib[i] += chips
    s.sc[i] = to
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
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None  # the fast path of _seat_of
    if i is None:
        i = _seat_of(s, event)
    if s.to_act != i or s.phase not in _TURN_PHASES:
        _check_turn(s, i, "call")  # raises
    if s.phase == "bring_in":
        raise _seat_err(IllegalAction, s, i, gettext_noop("call"), gettext_noop("there is nothing to call; post the bring-in"), "R4.2")
    owe = s.bet_to - s.sc[i]
    if owe <= 0:
        raise _seat_err(IllegalAction, s, i, gettext_noop("call"), gettext_noop("there is no bet to call; check"), "R6.1")
    stack = s.stack
    chips = owe if owe <= stack[i] else stack[i]  # _put
    stack[i] -= chips
    s.contrib[i] += chips
    s.sc[i] += chips
    s.acted[i] = s.full_to
    if s.street == 3:
        s.voluntary += 1
    _advance(s, i)


def _on_check(s: StudState, event: Mapping[str, Any]) -> None:
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None  # the fast path of _seat_of
    if i is None:
        i = _seat_of(s, event)
    if s.to_act != i or s.phase not in _TURN_PHASES:
        _check_turn(s, i, "check")  # raises
    elif s.phase == "bring_in":
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
    seat = event.get("seat")
    i = s.pos.get(seat) if type(seat) is int else None  # the fast path of _seat_of
    if i is None:
        i = _seat_of(s, event)
    if s.to_act != i or s.phase not in _TURN_PHASES:
        _check_turn(s, i, "fold")  # raises
    if s.phase == "bring_in":
        if not s.cfg.bring_in_may_fold:
            raise _seat_err(IllegalAction, s, i, gettext_noop("fold"), gettext_noop("the low card must post the bring-in first"), "R4.2")
        s.phase = "betting"
    elif s.bet_to - s.sc[i] <= 0:
        raise _seat_err(IllegalAction, s, i, gettext_noop("fold"), gettext_noop("there is no bet to call; check"), "R6.1")
    folded = s.folded
    folded[i] = True
    street = s.street
    if street == 3:
        s.voluntary += 1
    live = folded.count(False)  # _n_live
    if live == 1:
        _finish_by_fold(s)
        return
    if live == 2 and s.cfg.uncap_heads_up and not _is_capped(s):
        s.uncapped = True  # R6.3 (RRoP-BR 4): heads-up before the cap
    if street == 4 and s.open_pair and s.cfg.open_pair_check == "while_showing":
        s.open_pair = _any_open_pair(s)
    _advance(s, i)


def _advance(s: StudState, i: int) -> None:
    """Move the turn clockwise to the next seat that must act, or close the round (R6.6)."""
    folded = s.folded
    for j in CLOCKWISE_POSITIONS[s.n][i]:  # rules.core.betting.must_act, inlined in the replay's hottest loop
        if not folded[j] and s.stack[j] > 0 and (s.acted[j] is None or s.sc[j] < s.bet_to):
            s.to_act = j
            return
    s.to_act = None
    _end_round(s)




def _end_round(s: StudState) -> None:
    _return_uncalled(s)
    s.to_act = None
    if s.folded.count(False) == 1:  # _n_live
        _finish_by_fold(s)
        return
    street = s.street
    if street == 7:
        _start_showdown(s)
        return
    s.street = street = street + 1
    s.phase = "deal"
    if street == 7:
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
