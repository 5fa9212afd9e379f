"""The typed :class:`~rules.core.view.HandView` of a stud hand (Seven Card Stud, Razz, Hi-Lo; issue 14).

Read-only over :class:`~rules.engines.stud.StudState`: the legal actions are :func:`stud.legal_actions`
with their amounts split into ``to`` (the seat's street total after a wager) and ``add`` (the chips it
puts in now), so a call and a raise are never confused (issue 13).
"""

from __future__ import annotations

from typing import Any

from rules.core.view import AnswerMoney, HandView, LegalAction, PotView, SeatView, outcome_of
from rules.engines import stud
from rules.engines.stud.parsing import _fmt
from rules.engines.stud.pots import _pots
from rules.engines.stud.state import _raises_left
from rules.engines.stud.view import _expect

__all__ = ["ANSWER_MONEY", "hand_view"]


#: The cents in the stud engine's answer (:func:`rules.engines.stud.view`, with its settlement once complete).
ANSWER_MONEY = AnswerMoney(
    scalars=frozenset({"min", "max", "amount", "to", "tax", "bet_to"}),
    maps=frozenset({"stacks", "contributions", "street_contributions", "returned", "awards", "fees", "bonus", "net"}),
    lists=frozenset({"amounts"}),
    rows=frozenset({"pot_awards"}),
)

_WAGERS = frozenset({"bet", "raise", "complete"})
_CHIPS = frozenset({"ante", "bring_in", "call"})


def _action(s: stud.StudState, item: dict[str, Any]) -> LegalAction:
    kind, seat = item["type"], item["seat"]
    if kind in _WAGERS:
        already = s.sc[s.pos[seat]] if s.phase == "betting" else 0
        lo, hi = item["min"], item["max"]
        amounts = tuple(item.get("amounts") or ())
        return LegalAction(kind=kind, seat=seat, to=lo, add=lo - already, max_to=hi, max_add=hi - already,
                           choices=amounts if len(amounts) > 1 else ())
    if kind in _CHIPS:
        return LegalAction(kind=kind, seat=seat, add=item["min"], max_add=item["max"])
    if kind == "deal":
        return LegalAction(kind=kind, seat=seat, cards=item.get("count"))
    if kind == "deal_community":
        return LegalAction(kind=kind, seat=None, cards=1)
    return LegalAction(kind=kind, seat=seat)


def hand_view(s: stud.StudState) -> HandView:
    """The typed view of a stud hand (see :mod:`rules.core.view` for the shape); money in cents."""
    betting = s.phase in ("betting", "bring_in")
    seats = []
    for j in sorted(range(s.n), key=lambda k: s.seats[k]):
        cards = s.cards[j]
        seats.append(SeatView(
            seat=s.seats[j], stack=s.stack[j], in_pot=s.contrib[j] - s.returned[j],
            round_bet=s.sc[j] if betting else 0, folded=s.folded[j],
            all_in=not s.folded[j] and s.stack[j] == 0 and s.phase != "complete",
            up_cards=tuple(_fmt(c) for c, up in cards if up),
            down_cards=tuple(_fmt(c) for c, up in cards if not up)))
    complete = s.phase == "complete"
    raw_pots = s.final_pots if complete else _pots(s)
    pots = tuple(PotView(a, tuple(sorted(s.seats[j] for j in e))) for a, e in raw_pots)
    return HandView(
        game=s.variant.game, phase=s.phase, street=s.street, expect=_expect(s), to_act=s.to_act_seat,
        button=s.button, seats=tuple(seats), legal_actions=tuple(_action(s, a) for a in stud.legal_actions(s)),
        pots=pots, house_take=s.taxe, house_take_kind="taxe", complete=complete,
        outcome=outcome_of(stud.settlement(s), void=s.void) if complete else None,
        extra={"raises_left": _raises_left(s) if s.phase == "betting" else None,
               "bring_in_seat": None if s.bring_in_idx is None else s.seats[s.bring_in_idx],
               "community": None if s.community is None else _fmt(s.community)},
    )
