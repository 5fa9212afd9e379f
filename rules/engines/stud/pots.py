"""Stud pots: uncalled wagers returned (R10.1), main and side pots (R10.1, R10.2, R10.4), split shares and
the odd chip (R11.3).
"""

from __future__ import annotations

from typing import Any

from rules.engines.stud.state import StudState


def _return_uncalled(s: StudState) -> None:
    """R10.1: the part of the top wager nobody matched goes back to its owner."""
    eff = [a - b for a, b in zip(s.contrib, s.returned)]
    if not s.cfg.ante_trimming:  # R10.4 ante_trimming=false: antes are dead money, never "uncalled"
        eff = [e - (0 if d else a) for e, d, a in zip(eff, s.dead, s.ante_paid)]
    high = max(eff)
    top = eff.index(high)
    extra = high - sorted(eff)[-2]
    if extra > 0:
        s.returned[top] += extra
        s.stack[top] += extra
        s.sc[top] -= min(extra, s.sc[top])


def _pots(s: StudState, *, with_taxe: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """Main and side pots as ``[(amount, eligible positions)]``, main pot first (R10.1, R10.2, R10.4)."""
    n = s.n
    eff = [s.contrib[j] - s.returned[j] for j in range(n)]
    dead_antes = 0
    if not s.cfg.ante_trimming:
        dead_antes = sum(s.ante_paid[j] for j in range(n) if not s.dead[j])
        eff = [eff[j] - (0 if s.dead[j] else s.ante_paid[j]) for j in range(n)]
    live = [not f for f in s.folded]
    levels = sorted({eff[j] for j in range(n) if live[j] and s.stack[j] == 0})
    pots: list[list[Any]] = []
    prev = 0
    for lv in levels:
        amt = sum(min(e, lv) - prev for e in eff if e > prev)
        elig = tuple(j for j in range(n) if live[j] and eff[j] >= lv)
        prev = lv
        if amt:
            if pots and pots[-1][1] == elig:
                pots[-1][0] += amt
            else:
                pots.append([amt, elig])
    amt = sum(e - prev for e in eff if e > prev)
    if amt:
        elig = tuple(j for j in range(n) if live[j] and eff[j] > prev) or tuple(
            j for j in range(n) if live[j] and eff[j] >= prev)
        if pots and pots[-1][1] == elig:
            pots[-1][0] += amt
        else:
            pots.append([amt, elig])
    if dead_antes:
        if pots:
            pots[0][0] += dead_antes
        else:
            pots.append([dead_antes, tuple(j for j in range(n) if live[j])])
    if with_taxe and s.taxe:
        for k, t in enumerate(s.taxe_split):
            if k < len(pots):
                pots[k][0] -= t
            else:  # pragma: no cover - a pot that existed at the 4th-street deal never disappears
                pots[0][0] -= t
    return [(a, e) for a, e in pots]


def _split(s: StudState, amount: int, winners: list[int]) -> list[tuple[int, int]]:
    """R11.3: equal shares in whole chip units; odd units one each by highest card by suit (or from the
    dealer's left); a sub-unit remainder goes to the first in that order."""
    if len(winners) == 1:
        return [(winners[0], amount)]
    unit = s.cfg.chip_unit
    k = len(winners)
    share = amount // (k * unit) * unit
    rest = amount - share * k
    if s.cfg.odd_chip_rule == "high_card_by_suit":
        order = sorted(winners, key=lambda j: max(c for c, _ in s.cards[j]), reverse=True)
    else:
        order = sorted(winners)
    out = {j: share for j in winners}
    for j in order:
        if rest >= unit:
            out[j] += unit
            rest -= unit
    if rest:
        out[order[0]] += rest
    return [(j, out[j]) for j in sorted(winners)]
