"""The typed :class:`~rules.core.view.HandView` of a Forty-one hand (issue 14), read off the engine's view.

``ante``/``blind``/``call`` carry ``add`` (the chips put in); ``bet``/``raise`` carry ``to`` (the seat's
round total after it) and ``add`` (``to`` minus its round bet).
"""

from __future__ import annotations

from typing import Any

from rules.core.view import AnswerMoney, HandView, LegalAction, SeatView, outcome_of, pots_of
from rules.engines import forty_one
from rules.engines.cards import format_cards

__all__ = ["ANSWER_MONEY", "hand_view"]


#: The cents in the Forty-one engine's answer (:func:`rules.engines.forty_one.view`, with its settlement).
ANSWER_MONEY = AnswerMoney(
    scalars=frozenset({"min", "max", "amount", "to", "tax", "level", "unit", "pot_total", "to_call"}),
    maps=frozenset({"stacks", "contributions", "returned", "uncalled", "round_bets", "awards", "fees", "bonus", "net",
                    "final_stacks"}),
)


def hand_view(state: forty_one.FortyOneState) -> HandView:
    """The typed view of a Forty-one hand (see :mod:`rules.core.view`); money in cents."""
    st = state
    view = forty_one.view(st)
    seat = view["to_act"]
    round_bets = {int(k): v for k, v in view["round_bets"].items()}
    actions = []
    for item in view["legal_actions"]:
        kind = item["type"]
        if kind in ("bet", "raise"):
            already = round_bets.get(seat, 0)
            actions.append(LegalAction(kind=kind, seat=seat, to=item["min"], add=item["min"] - already,
                                       max_to=item["max"], max_add=item["max"] - already))
        elif kind in ("ante", "blind", "call"):
            actions.append(LegalAction(kind=kind, seat=seat, add=item["min"], max_add=item["max"]))
        elif kind == "deal":
            actions.append(LegalAction(kind=kind, seat=seat, cards=2))
        else:
            actions.append(LegalAction(kind=kind, seat=seat))
    result = st.result if st.complete else None
    returned = result.returned if result is not None else {}
    # once settled, a seat's stack is what it takes home: behind + won + returned + the house's 41 bonus
    after = ({s: result.awards.get(s, 0) + result.returned.get(s, 0) + result.bonus.get(s, 0) for s in st.seats}
             if result is not None else {})
    seats = tuple(
        SeatView(seat=s, stack=st.stacks[s] + after.get(s, 0), in_pot=st.contrib[s] - returned.get(s, 0),
                 round_bet=round_bets.get(s, 0), folded=s in st.folded,
                 all_in=s not in st.folded and st.stacks[s] == 0 and not st.complete,
                 up_cards=tuple(format_cards(st.exposed.get(s, ())).split()),
                 down_cards=tuple(c for c in format_cards(st.hole.get(s, ())).split()
                                  if c not in format_cards(st.exposed.get(s, ())).split()) + ("??",) * st.unseen.get(s, 0))
        for s in st.seats)
    complete = bool(view["complete"])
    outcome = outcome_of(st.result, void=st.misdeal) if complete and st.result is not None else None
    extra: dict[str, Any] = {"raises_left": view["raises_left"], "unit": view["unit"], "level": view["level"]}
    return HandView(
        game=view["game"], phase=view["phase"], street=view["round"], expect=view["expect"], to_act=seat,
        button=st.forehand, seats=seats, legal_actions=tuple(actions), pots=pots_of(view["pots"]),
        house_take=int(view["tax"]), house_take_kind="tax", complete=complete, outcome=outcome, extra=extra,
    )
