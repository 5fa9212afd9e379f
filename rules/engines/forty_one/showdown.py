"""The Forty-one showdown, the uncontested end, the 41 reveal and the misdeal (B.4 steps 8-9, B.4b, B.6)."""

from __future__ import annotations

from typing import Any

from rules.engines.base import Settlement
from rules.engines.cards import (
    format_cards,
)
from rules.engines.errors import (
    IllegalAction,
    OutOfTurn,
    WrongCardCount,
)
from rules.engines.forty_one.parsing import _adopt_unseen, _event_cards, _seat_of
from rules.engines.forty_one.settle import _settle
from rules.engines.forty_one.state import SHOWDOWN_CARDS, FortyOneState, _evaluate_held
from rules.engines.messages import gettext_noop


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
