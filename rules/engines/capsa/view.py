"""Queries on a Capsa deal: each seat's rows, the settlement, the legal actions and the croupier's view."""

from __future__ import annotations

from typing import Any

from rules.core.seats import clockwise_after
from rules.engines.base import Settlement
from rules.engines.capsa.play import _detect_natural
from rules.engines.capsa.state import GAME, CapsaState, _expect, _surrender_order, is_complete
from rules.engines.capsa_scoring import (
    NATURAL,
    SeatHand,
    build_settlement,
    describe_seat,
    evaluate_seat,
    seat_units,
    settle_pairs,
    settlement_to_dict,
)
from rules.engines.errors import (
    IllegalAction,
)
from rules.engines.messages import gettext_noop


def seat_hands(state: CapsaState) -> dict[int, SeatHand]:
    """Every seat evaluated for settlement (status, rows, keys, fouls, royalties), A.4-A.9."""
    out = {}
    for s in state.seats:
        out[s] = evaluate_seat(
            state.config, s,
            rows=state.settings.get(s),
            natural=state.naturals.get(s),
            cards=state.hands.get(s, ()),
            surrendered=state.decisions.get(s) == "surrender",
            unset=s in state.timed_out,
            declared_royalties=state.royalty_claims.get(s, frozenset()),
        )
    return out


def settlement(state: CapsaState) -> Settlement:
    """The money result of a complete deal (A.6-A.11); see the module docstring for the fields.

    A misdeal settles nothing and charges no fee. Raises :class:`IllegalAction` before completion.
    """
    if not is_complete(state):
        raise IllegalAction(gettext_noop("the deal is not settled yet: it expects %(expect)s", expect=_expect(state)), rule="A.5")
    if state.misdeal:
        zeros = {s: 0 for s in state.seats}
        return Settlement(contributions=zeros, awards=dict(zeros), fees=dict(zeros))
    pairs = settle_pairs(state.config, seat_hands(state))
    return build_settlement(state.config, pairs, state.seats, stacks=state.stacks, button=state.button)


def _legal_actions(state: CapsaState) -> tuple[list[dict[str, Any]], int | None, list[int]]:
    def act(kind: str, seats: list[int]) -> dict[str, Any]:
        return {"type": kind, "min": None, "max": None, "seats": seats}

    if state.phase == "deal":
        waiting = [s for s in clockwise_after(state.seats, state.button) if s not in state.hands]
        return [act("deal", waiting), act("misdeal", [])], (waiting[0] if waiting else None), waiting
    if state.phase == "set":
        waiting = [s for s in clockwise_after(state.seats, state.button)
                   if s not in state.naturals and s not in state.settings and s not in state.timed_out]
        actions = [act("set", waiting)]
        if state.config.natural_declaration == "optional" and state.config.naturals_enabled:
            holders = [s for s in waiting if not state.hands[s] or _detect_natural(state.config, state.hands[s])]
            if holders:
                actions.append(act("declare_natural", holders))
        if state.config.setting_time_limit_s is not None and state.config.unset_on_timeout_is_foul:
            actions.append(act("timeout", waiting))
        if state.settings:
            actions.append(act("declare_royalty", sorted(state.settings)))
        if not state.naturals:
            actions.append(act("misdeal", []))
        return actions, (waiting[0] if waiting else None), waiting
    if state.phase == "surrender":
        due = next(s for s in _surrender_order(state) if s not in state.decisions)
        return ([act("play", [due]), act("surrender", [due]), act("declare_royalty", sorted(state.settings))],
                due, [due])
    if state.phase == "reveal":
        return [act("reveal", []), act("declare_royalty", sorted(state.settings))], None, []
    return [], None, []


def view(state: CapsaState) -> dict[str, Any]:
    """JSON-able state for the croupier and simulators.

    Keys: ``game``, ``phase``/``street``, ``expect`` (``"deal"``, ``"set"``, ``"surrender"``,
    ``"reveal"`` or ``"nothing (complete)"``), ``to_act`` (the next seat, or None), ``awaiting`` (seats
    that may act now), ``legal_actions`` (``{"type", "min", "max", "seats"}``; no amounts in Capsa),
    ``pots`` ([]), ``tax`` (0), ``stacks``, ``contributions``, ``complete``, ``button``, ``button_moves``,
    ``misdeal``, ``seats`` (per seat: dealt, natural, set, decision, royalties once all have set,
    status/fouled after the reveal), and when complete ``units``, ``pairs`` and ``settlement``.
    """
    actions, to_act, awaiting = _legal_actions(state)
    all_set = state.phase in ("surrender", "reveal", "complete")
    hands = seat_hands(state) if all_set and not state.misdeal else {}
    seats_view: dict[str, Any] = {}
    for s in state.seats:
        info: dict[str, Any] = {
            "dealt": s in state.hands,
            "natural": state.naturals.get(s),
            "set": s in state.settings,
            "timed_out": s in state.timed_out,
            "decision": state.decisions.get(s),
            "announced_royalties": sorted(state.royalty_claims.get(s, ())),
        }
        if s in hands:
            info["royalties"] = dict(hands[s].detected_royalties) if hands[s].status != NATURAL else {}
        if state.phase == "complete" and s in hands:
            info.update(describe_seat(state.config, hands[s]))
        seats_view[str(s)] = info
    out: dict[str, Any] = {
        "game": GAME,
        "phase": state.phase,
        "street": state.phase,
        "expect": _expect(state),
        "to_act": to_act,
        "awaiting": awaiting,
        "legal_actions": actions,
        "pots": [],
        "tax": 0,
        "stacks": {str(s): state.stacks[s] for s in state.seats},
        "contributions": {str(s): 0 for s in state.seats},
        "complete": is_complete(state),
        "button": state.button,
        "button_moves": state.misdeal is None,
        "misdeal": state.misdeal,
        "seats": seats_view,
    }
    if is_complete(state):
        result = settlement(state)
        out["settlement"] = settlement_to_dict(result)
        out["contributions"] = {str(s): result.contributions.get(s, 0) for s in state.seats}
        if not state.misdeal:
            pairs = settle_pairs(state.config, hands)
            out["pairs"] = [p.as_dict() for p in pairs]
            out["units"] = {str(s): u for s, u in seat_units(pairs, state.seats).items()}
            out["fouled"] = [s for s in state.seats if hands[s].status == "fouled"]
    return out
