"""Queries on a stud hand: the legal actions, the settlement and the croupier's view (JSON-able)."""

from __future__ import annotations

from typing import Any

from rules.engines.base import Pot, Settlement
from rules.engines.errors import (
    IllegalAction,
)
from rules.engines.messages import gettext_noop
from rules.engines.stud.betting import _bring_in_complete_range, _wager_options
from rules.engines.stud.parsing import _fmt
from rules.engines.stud.pots import _pots
from rules.engines.stud.state import PATTERN, StudState, _need, _raises_left


def legal_actions(s: StudState) -> list[dict[str, Any]]:
    """The events legal now, as ``[{"type", "seat", "min", "max"[, "amounts"]}]`` (cents; see module doc)."""
    out: list[dict[str, Any]] = []
    if s.phase == "ante":
        for j in range(s.n):
            if not s.ante_done[j]:
                due = min(s.cfg.ante, s.stack[j])
                out.append({"type": "ante", "seat": s.seats[j], "min": due, "max": due})
        return out
    if s.phase == "deal":
        if s.street == 7 and s.seventh_mode == "community":
            return [{"type": "deal_community", "seat": None, "min": None, "max": None}]
        for j in range(s.n):
            if not s.folded[j] and _need(s, j):
                base = len(s.cards[j]) - (0 if s.street == 3 else s.street - 1)
                faces = ["up" if u else "down" for u in PATTERN[s.street][base:]]
                if s.street == 3 and s.exposed[j] and faces:
                    faces[-1] = "down"
                out.append({"type": "deal", "seat": s.seats[j], "count": _need(s, j), "faces": faces,
                            "min": None, "max": None})
        return out
    i = s.to_act
    if i is None:
        return out
    seat = s.seats[i]
    if s.phase == "showdown":
        out.append({"type": "show", "seat": seat, "min": None, "max": None})
        try:
            for _k, (_a, elig) in enumerate(_pots(s)):
                if i in elig and not any(j != i and not s.mucked[j] for j in elig):
                    raise IllegalAction("")
            out.append({"type": "muck", "seat": seat, "min": None, "max": None})
        except IllegalAction:
            pass
        return out
    cfg = s.cfg
    if s.phase == "bring_in":
        post = min(cfg.bring_in_amount(), s.stack[i])
        out.append({"type": "bring_in", "seat": seat, "min": post, "max": post})
        lo, hi = _bring_in_complete_range(s, i)
        if lo is not None:
            entry = {"type": "complete", "seat": seat, "min": lo, "max": hi}
            if cfg.split:
                entry["amounts"] = [lo]
            out.append(entry)
        if cfg.bring_in_may_fold:
            out.append({"type": "fold", "seat": seat, "min": None, "max": None})
        return out
    owe = s.bet_to - s.sc[i]
    if owe > 0:
        out.append({"type": "fold", "seat": seat, "min": None, "max": None})
        c = min(owe, s.stack[i])
        out.append({"type": "call", "seat": seat, "min": c, "max": c})
    else:
        out.append({"type": "check", "seat": seat, "min": None, "max": None})
    try:
        kind, lo, hi, amounts = _wager_options(s, i, "wager")
    except IllegalAction:
        return out
    entry = {"type": kind, "seat": seat, "min": lo, "max": hi}
    if amounts is not None:
        entry["amounts"] = list(amounts)
    out.append(entry)
    return out


def _expect(s: StudState) -> str | None:
    if s.phase == "deal" and s.street == 7 and s.seventh_mode == "community":
        return "deal_community"
    return {"ante": "ante", "deal": "deal", "bring_in": "bring_in", "betting": "action",
            "showdown": "show"}.get(s.phase)


def is_complete(s: StudState) -> bool:
    """True once the hand is over (won by folds, shown down, or void by misdeal)."""
    return s.phase == "complete"


def settlement(s: StudState) -> Settlement:
    """The money result of a complete hand (R10-R11): contributions incl. antes, uncalled bets
    returned, awards per seat and per pot, the Taxe. Raises :class:`IllegalAction` if not complete."""
    if s.phase != "complete":
        raise IllegalAction(gettext_noop("the hand is not complete; nothing to settle yet"))
    seats = s.seats
    pots = tuple(Pot(amount=a, eligible=tuple(sorted(seats[j] for j in e))) for a, e in s.final_pots)  # by seat number
    result = Settlement(
        contributions={seats[j]: s.contrib[j] for j in range(s.n)},
        awards={seats[j]: s.awards[j] for j in range(s.n)},
        returned={seats[j]: s.returned[j] for j in range(s.n)},
        tax=s.taxe,
        pots=pots,
        pot_awards=tuple((k, seats[j], a) for k, j, a in s.pot_awards),
        winners=tuple(seats[j] for j in range(s.n) if s.awards[j] > 0),
    )
    return result


def settlement_dict(st: Settlement) -> dict[str, Any]:
    """JSON form of a :class:`Settlement`."""
    return {
        "contributions": dict(st.contributions), "awards": dict(st.awards), "returned": dict(st.returned),
        "tax": st.tax, "net": st.net, "pots": [{"amount": p.amount, "eligible": sorted(p.eligible)} for p in st.pots],
        "pot_awards": [list(x) for x in st.pot_awards], "winners": list(st.winners),
    }


def view(s: StudState) -> dict[str, Any]:
    """JSON-able answer for the croupier (base.GameEngine.view): street, phase, expect, to_act,
    legal_actions, raises_left, bet_to, pots, tax, stacks, contributions, boards, complete (+settlement)."""
    seats = s.seats
    pots = s.final_pots if s.phase == "complete" else _pots(s)
    out: dict[str, Any] = {
        "game": s.variant.game,
        "phase": s.phase,
        "street": s.street,
        "expect": _expect(s),
        "to_act": s.to_act_seat,
        "legal_actions": legal_actions(s),
        "raises_left": _raises_left(s) if s.phase == "betting" else None,
        "bet_to": s.bet_to,
        "bring_in_seat": None if s.bring_in_idx is None else seats[s.bring_in_idx],
        "open_pair": s.open_pair,
        "pots": [{"amount": a, "eligible": sorted(seats[j] for j in e)} for a, e in pots],  # by seat number
        "tax": s.taxe,
        "stacks": {seats[j]: s.stack[j] for j in range(s.n)},
        "contributions": {seats[j]: s.contrib[j] for j in range(s.n)},
        "street_contributions": {seats[j]: s.sc[j] for j in range(s.n)},
        "returned": {seats[j]: s.returned[j] for j in range(s.n)},
        "folded": [seats[j] for j in range(s.n) if s.folded[j]],
        "all_in": [seats[j] for j in range(s.n) if not s.folded[j] and s.stack[j] == 0],
        "boards": {seats[j]: " ".join(_fmt(c) for c, up in s.cards[j] if up) for j in range(s.n)},
        "down_cards": {seats[j]: sum(1 for _c, up in s.cards[j] if not up) for j in range(s.n)},
        "community": None if s.community is None else _fmt(s.community),
        "complete": s.phase == "complete",
        "void": s.void,
    }
    if s.phase == "complete":
        out["settlement"] = settlement_dict(settlement(s))
    return out
