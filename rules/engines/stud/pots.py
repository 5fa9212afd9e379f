"""Stud pots: uncalled wagers returned (R10.1), main and side pots (R10.1, R10.2, R10.4), split shares and
the odd chip (R11.3).
"""

from __future__ import annotations

from operator import not_, sub

from rules.core.pots import side_pots, split_shares, uncalled
from rules.engines.stud.state import StudState


def _effective(s: StudState) -> list[int]:
    """What each position has in the pots: its chips put in less those returned; with
    ``ante_trimming`` false (R10.4) a live seat's ante is left out (dead money, see :func:`_pots`)."""
    eff = list(map(sub, s.contrib, s.returned)) if any(s.returned) else s.contrib[:]
    if not s.cfg.ante_trimming:
        eff = [e - (0 if d else a) for e, d, a in zip(eff, s.dead, s.ante_paid)]
    return eff


def _return_uncalled(s: StudState) -> None:
    """R10.1: the part of the top wager nobody matched goes back to its owner
    (:func:`rules.core.pots.uncalled`; antes that are dead money, R10.4, are never "uncalled")."""
    top, extra = uncalled(_effective(s))
    if extra > 0:
        s.returned[top] += extra
        s.stack[top] += extra
        s.sc[top] -= min(extra, s.sc[top])


def _pots(s: StudState, *, with_taxe: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """Main and side pots as ``[(amount, eligible positions)]``, main pot first (R10.1, R10.2, R10.4):
    :func:`rules.core.pots.side_pots` cut at the live all-in seats' totals, the untrimmed antes dead money
    in the main pot, and the Taxe (``with_taxe``) taken out of each pot as it was taken (R8.2)."""
    eff = _effective(s)
    dead_antes = 0 if s.cfg.ante_trimming else sum(a for a, d in zip(s.ante_paid, s.dead) if not d)
    live = list(map(not_, s.folded))
    stack = s.stack
    cuts = [eff[j] for j in range(s.n) if live[j] and stack[j] == 0] if 0 in stack else ()
    pots = side_pots(eff, live, cuts, dead=dead_antes)
    if with_taxe and s.taxe:
        amounts = [a for a, _ in pots]
        for k, t in enumerate(s.taxe_split):
            # a pot that existed at the 4th-street deal never disappears; else the main pot pays
            amounts[k if k < len(amounts) else 0] -= t
        return [(a, e) for a, (_, e) in zip(amounts, pots)]
    return pots


def _split(s: StudState, amount: int, winners: list[int]) -> list[tuple[int, int]]:
    """R11.3: :func:`rules.core.pots.split_shares` with the stud's odd-chip order: the highest card by suit
    first, or from the dealer's left (``odd_chip_rule``)."""
    if len(winners) == 1:
        return [(winners[0], amount)]
    if s.cfg.odd_chip_rule == "high_card_by_suit":
        order = sorted(winners, key=lambda j: max(c for c, _ in s.cards[j]), reverse=True)
    else:
        order = sorted(winners)
    return split_shares(amount, winners, order, s.cfg.chip_unit)
