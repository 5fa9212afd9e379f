"""The Forty-one betting rounds: fixed limits, the raise cap, short all-ins and reopening, the turn (B.4
steps 3-7, B.4a).
"""

from __future__ import annotations

from typing import Any

from rules.core.betting import is_capped, is_full_wager
from rules.engines.errors import (
    IllegalAction,
    InvalidAmount,
    OutOfTurn,
)
from rules.engines.forty_one.parsing import _amount, _seat_of
from rules.engines.forty_one.showdown import _finish_uncontested
from rules.engines.forty_one.state import _PHASE_EXPECT, FortyOneState, _after_order, _put
from rules.engines.messages import action_word, gettext_noop
from rules.engines.money import format_cents


def _with_chips(st: FortyOneState) -> list[int]:
    stacks, folded = st.stacks, st.folded
    return [s for s in st.seats if s not in folded and stacks[s] > 0]


def _next_to_act(st: FortyOneState, after: int) -> int | None:
    """The first seat clockwise after ``after`` that must still act, or None when the round is over: a seat
    still in with chips behind that is behind the bet or has not acted since the last full wager
    (:func:`rules.core.betting.must_act`, inlined in the replay's hottest loop; B.4 steps 3-7), and when
    not behind only if another seat still in has chips to bet against (B.4a; counted once, when needed)."""
    folded, stacks, acted, round_bet, level = st.folded, st.stacks, st.acted, st.round_bet, st.level
    with_chips = -1
    for s in _after_order(st.seats, after):
        if s in folded or stacks[s] <= 0:
            continue
        if round_bet[s] < level:
            return s  # behind: it must call, fold or raise
        if s in acted:
            continue
        if with_chips < 0:
            with_chips = len(_with_chips(st))
        if with_chips > 1:
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


def _raise_limit(st: FortyOneState) -> int | None:
    """Raises allowed in this round now: 3, or ``raise_cap_heads_up`` with two players in (``None``: no
    cap; B.4 step 6)."""
    if len(st.seats) - len(st.folded) == 2:  # len(st.live): every folded seat is dealt in
        return st.config.raise_cap_heads_up
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
    elif counts and ((st.capped and not cfg.uncap_after_cap) or is_capped(st.raises, _raise_limit(st))):
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
    """After ``seat``'s action: the uncontested end when one seat is left (B.6), else the next to act or the
    end of the round (B.4 steps 3-7)."""
    if st.round_no == 1:
        st.round1_actions += 1
    if len(st.seats) - len(st.folded) == 1:  # len(st.live): every folded seat is dealt in
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
    """A check: nothing to call, and in round 2 only if ``round2_check_allowed`` (B.4 steps 3 and 5)."""
    seat = _betting_turn(st, ev, "check")
    level = st.level
    if st.round_bet[seat] < level or (level == 0 and st.round_no == 2 and not st.config.round2_check_allowed):
        raise IllegalAction(_options(st, seat).check_reason or "", seat=seat, rule="B.4")
    st.acted.add(seat)
    _after_action(st, seat)
    return {"type": "check", "seat": seat}


def _call(st: FortyOneState, ev: dict[str, Any]) -> dict[str, Any]:
    """A call of the amount to call, all-in for less (B.4 step 3, B.4a); with ``close_mode = "raise_right"``
    a call by a seat entitled to raise closes the raising ("Auf!", B.4 step 7)."""
    seat = _betting_turn(st, ev, "call")
    to_call = st.level - st.round_bet[seat]
    if to_call <= 0:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot call: there is nothing to call; check, %(wager_type)s or fold (B.4 step 3)", seat=seat, wager_type=action_word(_options(st, seat).wager_type)), seat=seat, rule="B.4")
    stack = st.stacks[seat]
    call_amount = to_call if to_call < stack else stack  # all-in for less (B.4a)
    given = _amount(ev, "amount")
    if given is not None and given != call_amount:
        raise InvalidAmount(gettext_noop("seat %(seat)s calls %(call_amount)s, not %(given)s (B.4 step 3)", seat=seat, call_amount=format_cents(call_amount), given=format_cents(given)), seat=seat, rule="B.4")
    if st.config.close_mode == "raise_right" and call_amount == to_call and _options(st, seat).wager_to is not None:
        st.raise_closed = True  # "Auf!": the holder of the raise right only called (B.4 step 7, Model B)
    _put(st, seat, call_amount)
    st.round_bet[seat] += call_amount
    st.acted.add(seat)
    _after_action(st, seat)
    return {"type": "call", "seat": seat, "amount": call_amount}


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
    # a short all-in's half unit is measured from the last full wager here (B.4a; stud: from the current bet)
    full = is_full_wager(to, last_full=st.raise_base, half_from=st.raise_base, unit=unit,
                         short_allin_rule=st.config.short_allin_rule)
    st.level = max(st.level, to)
    if full:
        if opts.counts_as_raise:
            st.raises += 1
            if is_capped(st.raises, _raise_limit(st)):
                st.capped = True
        st.raise_base = to
        st.acted = {seat}
    else:
        st.acted.add(seat)  # a short all-in below half a unit reopens nothing (B.4a)
    _after_action(st, seat)
    return {"type": kind, "seat": seat, "to": to}
