"""The typed :class:`~rules.core.view.HandView` of a Capsa deal (issue 14), read off the engine's view.

Capsa has no betting: its legal actions carry no amounts; an action several seats may take now (a deal, a
setting) is listed once per seat; table actions (``reveal``, ``misdeal``) have ``seat`` None.
"""

from __future__ import annotations

from rules.core.view import AnswerMoney, HandView, LegalAction, SeatView, outcome_of
from rules.engines import capsa
from rules.engines.cards import format_cards

__all__ = ["ANSWER_MONEY", "hand_view"]


#: The cents in the Capsa engine's answer (:func:`rules.engines.capsa.view`, with its settlement); a
#: payment's ``units`` and the seats' unit counts are not money.
ANSWER_MONEY = AnswerMoney(
    scalars=frozenset({"amount", "tax"}),
    maps=frozenset({"stacks", "contributions", "returned", "awards", "fees", "bonus", "net"}),
)


def hand_view(state: capsa.CapsaState) -> HandView:
    """The typed view of a Capsa deal (see :mod:`rules.core.view`); money in cents."""
    view = capsa.view(state)
    actions = []
    for item in view["legal_actions"]:
        seats = item.get("seats") or [None]
        for seat in seats:
            actions.append(LegalAction(kind=item["type"], seat=seat, cards=13 if item["type"] == "deal" else None))
    complete = bool(view["complete"])
    result = capsa.settlement(state) if complete else None
    seats_view = []
    for s in state.seats:
        dealt = state.hands.get(s, ())
        shown = state.phase == "complete" and s in state.settings
        seats_view.append(SeatView(
            seat=s, stack=state.stacks[s] + (result.net.get(s, 0) if result is not None else 0),
            in_pot=result.contributions.get(s, 0) if result is not None else 0,
            up_cards=tuple(format_cards(dealt).split()) if shown else (),
            down_cards=() if shown else (tuple(format_cards(dealt).split()) if dealt
                                         else ("??",) * 13 if s in state.hands else ())))
    return HandView(
        game=view["game"], phase=view["phase"], street=None, expect=None if complete else view["expect"],
        to_act=view["to_act"], button=state.button, seats=tuple(seats_view), legal_actions=tuple(actions),
        pots=(), house_take=sum(result.fees.values()) if result is not None else 0, house_take_kind="fee",
        complete=complete, outcome=outcome_of(result, void=state.misdeal is not None) if result is not None else None,
        extra={"awaiting": tuple(view["awaiting"])},
    )
