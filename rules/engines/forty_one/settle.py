"""Forty-one pots and the settlement: uncalled bets, main and side pots, the tax per pot and the 41 bonus
(B.4 step 8, B.4a, B.5, B.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engines.base import Pot, Settlement
from rules.engines.evaluators.forty_one import (
    rank_seats,
)
from rules.engines.forty_one.state import FortyOneState
from rules.engines.forty_one_config import pot_taxes


def _pot_layers(st: FortyOneState) -> tuple[dict[int, int], list[Pot]]:
    """Uncalled amounts and the pots, main first (B.4 step 8, B.4a). The dead blind is main-pot money."""
    totals = {s: st.contrib[s] - (st.dead_blind if s == st.forehand else 0) for s in st.seats}
    returned: dict[int, int] = {}
    ranked = sorted(totals, key=lambda s: -totals[s])
    if len(ranked) > 1 and totals[ranked[0]] > totals[ranked[1]]:
        top = ranked[0]
        returned[top] = totals[top] - totals[ranked[1]]
        totals[top] = totals[ranked[1]]
    layers: list[list[Any]] = []
    previous = 0
    for level in sorted({t for t in totals.values() if t > 0}):
        payers = [s for s in st.seats if totals[s] >= level]
        amount = (level - previous) * len(payers)
        eligible = tuple(s for s in payers if s not in st.folded)
        if layers and (eligible == layers[-1][1] or not eligible):
            layers[-1][0] += amount
        else:
            layers.append([amount, eligible])
        previous = level
    if st.dead_blind:
        if layers:
            layers[0][0] += st.dead_blind
        else:
            layers.append([st.dead_blind, tuple(st.live)])
    return returned, [Pot(amount, eligible) for amount, eligible in layers]


def _taxes(st: FortyOneState, pots: Sequence[Pot], contested: bool) -> list[int]:
    """Tax per pot (B.5), see :func:`~rules.engines.forty_one_config.pot_taxes`."""
    return pot_taxes(st.config, [p.amount for p in pots], contested=contested, antes=sum(st.antes.values()))


def _settle(st: FortyOneState) -> Settlement:
    returned, pots = _pot_layers(st)
    contested = st.showdown_reached
    taxes = _taxes(st, pots, contested)
    awards: dict[int, int] = {}
    pot_awards: list[tuple[int, int, int]] = []
    winners: list[int] = []
    for index, (pot, tax) in enumerate(zip(pots, taxes)):
        if contested:
            contenders = {s: st.hands[s] for s in pot.eligible}
            winner = rank_seats(contenders, st.forehand, table_seats=st.seats)[0]
        else:
            winner = st.uncontested_winner if st.uncontested_winner is not None else pot.eligible[0]
        amount = pot.amount - tax
        awards[winner] = awards.get(winner, 0) + amount
        pot_awards.append((index, winner, amount))
        if winner not in winners:
            winners.append(winner)
    bonus = _bonus(st, winners)
    return Settlement(
        contributions=dict(st.contrib), awards=awards, returned=returned, tax=sum(taxes), bonus=bonus,
        pots=tuple(pots), pot_awards=tuple(pot_awards), winners=tuple(winners),
    )


def _bonus(st: FortyOneState, pot_winners: Sequence[int]) -> dict[int, int]:
    """The 41 special payment owed by the house, per seat (B.6; F-16, F-19, F-26)."""
    cfg = st.config
    holders = [s for s in sorted(st.shown) if st.hands[s].is_41]
    if cfg.bonus_41_requires in ("shown_at_showdown", "won_pot") and not st.showdown_reached:
        holders = []
    if cfg.bonus_41_requires == "won_pot":
        holders = [s for s in holders if s in pot_winners]
    if len(holders) > 1 and cfg.bonus_41_multiple_holders == "pot_winner_only":
        holders = [s for s in holders if s in pot_winners]
    return {s: cfg.bonus_41_amount for s in holders if cfg.bonus_41_amount}
