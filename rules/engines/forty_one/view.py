"""Queries on a Forty-one hand: the croupier's next seat, the legal actions, the settlement as JSON and the
view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.base import Pot, Settlement
from rules.engines.cards import (
    format_cards,
)
from rules.engines.forty_one.betting import _options, _raise_limit
from rules.engines.forty_one.dealing import _deal_targets, _expose_pending
from rules.engines.forty_one.settle import _pot_layers
from rules.engines.forty_one.showdown import _show_pending
from rules.engines.forty_one.state import _PHASE_EXPECT, GAME, FortyOneState, _clockwise


def _expect(st: FortyOneState) -> str | None:
    if st.phase == "forced_bets":
        return "ante" if st.config.ante and len(st.antes) < len(st.seats) else "blind"
    return _PHASE_EXPECT[st.phase]


def _hint(st: FortyOneState) -> int | None:
    """The seat the croupier should log next (strict in betting and in-turn exposure, a suggestion elsewhere)."""
    if st.phase == "forced_bets":
        missing = [s for s in _clockwise(st.seats, st.forehand) if st.config.ante and s not in st.antes]
        if missing:
            return missing[0]
        return st.forehand
    if st.phase in ("deal1", "deal2"):
        targets = _deal_targets(st)
        return targets[0] if targets else None
    if st.phase == "expose":
        pending = _expose_pending(st)
        return pending[0] if pending else None
    if st.phase == "showdown":
        pending = _show_pending(st)
        return pending[0] if pending else None
    return st.to_act


def legal_actions(state: FortyOneState) -> list[dict[str, Any]]:
    """The actions open to ``view()["to_act"]`` now, as ``{"type", "min", "max"}`` (cents, or None).

    ``ante``/``blind``/``call``: the chips the action puts in; ``bet``/``raise``: the seat's total for the
    round after it ("to"). Floor events (``misdeal``) are not listed.
    """
    st = state
    seat = _hint(st)
    if seat is None:
        return []
    phase = st.phase

    def item(kind: str, amount: int | None = None) -> dict[str, Any]:
        return {"type": kind, "min": amount, "max": amount}

    if phase == "forced_bets":
        if _expect(st) == "ante":
            return [item("ante", min(st.config.ante, st.stacks[seat]))]
        return [item("blind", min(st.config.lower, st.stacks[seat]))]
    if phase in ("deal1", "deal2"):
        return [item("deal")]
    if phase == "expose":
        return [item("expose")]
    if phase == "showdown":
        return [item("show")]
    if phase == "reveal":
        return [item("show"), item("muck")]
    opts = _options(st, seat)
    actions = [item("fold")]
    if opts.check_reason is None:
        actions.append(item("check"))
    elif opts.to_call > 0:
        actions.append(item("call", opts.call_amount))
    if opts.wager_to is not None:
        actions.append(item(opts.wager_type, opts.wager_to))
    return actions


def _pots_json(pots: Sequence[Pot]) -> list[dict[str, Any]]:
    """Pots as JSON, each pot's eligible seats by seat number."""
    return [{"amount": p.amount, "eligible": sorted(p.eligible)} for p in pots]


def settlement_to_dict(result: Settlement) -> dict[str, Any]:
    """The JSON form of a :class:`Settlement` (seat keys as strings, cents as ints)."""

    def by_seat(values: Mapping[int, int]) -> dict[str, int]:
        return {str(s): v for s, v in sorted(values.items())}

    return {
        "contributions": by_seat(result.contributions),
        "awards": by_seat(result.awards),
        "returned": by_seat(result.returned),
        "tax": result.tax,
        "fees": by_seat(result.fees),
        "bonus": by_seat(result.bonus),
        "pots": _pots_json(result.pots),
        "pot_awards": [{"pot": i, "seat": s, "amount": a} for i, s, a in result.pot_awards],
        "winners": list(result.winners),
        "net": by_seat(result.net),
    }


def view(state: FortyOneState) -> dict[str, Any]:
    """The croupier's JSON view of the hand.

    Keys: ``phase``/``street`` (``forced_bets``, ``deal1``, ``round1``, ``deal2``, ``expose``, ``round2``,
    ``showdown``, ``reveal``, ``complete``), ``expect`` (``ante``|``blind``|``deal``|``action``|``expose``|
    ``showdown``|``show``|None), ``to_act``, ``legal_actions``, ``round``, ``unit``, ``to_call``, ``level``,
    ``raises``, ``raises_left`` (None = unlimited), ``pots`` (uncalled amounts left out; see ``uncalled``),
    ``pot_total``, ``tax``, ``stacks``, ``contributions``, ``exposed``, ``folded``, ``forehand``,
    ``complete``, ``misdeal``, ``winner`` (main-pot winner), ``bonus``, ``net`` and ``settlement`` once
    complete. Seat keys are strings; money in cents.
    """
    st = state
    returned, pots = _pot_layers(st)
    seat = _hint(st)
    betting = st.phase in ("round1", "round2")
    raises_left: int | None = None
    if betting:
        limit = _raise_limit(st)
        if st.capped and not st.config.uncap_after_cap:
            raises_left = 0
        elif limit is not None:
            raises_left = max(0, limit - st.raises)
    out: dict[str, Any] = {
        "game": GAME,
        "phase": st.phase,
        "street": st.phase,
        "expect": _expect(st),
        "to_act": seat,
        "legal_actions": legal_actions(st),
        "forehand": st.forehand,
        "round": st.round_no or None,
        "unit": st.unit if betting else None,
        "level": st.level if betting else None,
        "to_call": max(0, st.level - st.round_bet[seat]) if betting and seat is not None else None,
        "raises": st.raises if betting else None,
        "raises_left": raises_left,
        "pots": _pots_json(pots),
        "uncalled": {str(s): a for s, a in returned.items()},
        "pot_total": sum(st.contrib.values()),
        "tax": st.result.tax if st.result else 0,
        "stacks": {str(s): st.stacks[s] for s in st.seats},
        "contributions": {str(s): st.contrib[s] for s in st.seats},
        "round_bets": {str(s): st.round_bet[s] for s in st.seats} if betting else {},
        "exposed": {str(s): format_cards(c) for s, c in st.exposed.items()},
        "folded": sorted(st.folded),
        "complete": st.complete,
        "misdeal": st.misdeal,
        "winner": None,
    }
    if st.complete and st.result is not None:
        result = st.result
        out["settlement"] = settlement_to_dict(result)
        out["winner"] = result.winners[0] if result.winners else None
        out["bonus"] = {str(s): a for s, a in result.bonus.items()}
        out["net"] = {str(s): a for s, a in result.net.items()}
        out["final_stacks"] = {
            str(s): st.stacks[s] + result.awards.get(s, 0) + result.returned.get(s, 0) for s in st.seats
        }
        out["hands"] = {str(s): {"category": h.category, "description": h.description,
                                 "cards": format_cards(h.cards)} for s, h in sorted(st.hands.items())}
    return out
