"""Forty-one pots and the settlement: uncalled bets, main and side pots, the tax per pot and the 41 bonus
(B.4 step 8, B.4a, B.5, B.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.core.pots import side_pots, uncalled
from rules.engines.base import Pot, Settlement
from rules.engines.forty_one.state import FortyOneState, _clockwise
from rules.engines.forty_one_config import pot_taxes


def _pot_layers(st: FortyOneState) -> tuple[dict[int, int], list[Pot]]:
    """Uncalled amounts and the pots, main first (B.4 step 8, B.4a): :func:`rules.core.pots.uncalled` and
    :func:`rules.core.pots.side_pots` cut at every seat's total. The dead blind is main-pot money."""
    seats = st.seats
    totals = [st.contrib[s] - (st.dead_blind if s == st.forehand else 0) for s in seats]
    returned: dict[int, int] = {}
    top, extra = uncalled(totals)
    if extra > 0:
        returned[seats[top]] = extra
        totals[top] -= extra
    folded = st.folded
    live = [s not in folded for s in seats]
    pots = side_pots(totals, live, totals, dead=st.dead_blind)
    return returned, [Pot(amount, tuple(seats[j] for j in eligible)) for amount, eligible in pots]


@lru_cache(maxsize=4096)
def _positions(seats: tuple[int, ...], forehand: int) -> dict[int, int]:
    """Each seat's clockwise distance from the forehand, 0 for the forehand (the B.3 rule 5 tie-break); the
    order :func:`~rules.engines.evaluators.forty_one.rank_seats` uses (pure, so cached; never changed)."""
    return {s: i for i, s in enumerate(_clockwise(seats, forehand))}


def _best_seat(st: FortyOneState, eligible: Sequence[int]) -> int:
    """The winner among ``eligible`` (seats that showed): the best hand key, equal keys by clockwise
    distance from the forehand, B.3 rule 5; nothing is ever split. The same seat as
    ``rank_seats({s: st.hands[s] for s in eligible}, st.forehand, table_seats=st.seats)[0]`` (the table's
    seats hold every eligible seat and the forehand), without sorting the others."""
    hands, position = st.hands, _positions(st.seats, st.forehand)
    return min(eligible, key=lambda s: (tuple(-k for k in hands[s].key), position[s]))


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
            winner = _best_seat(st, pot.eligible)
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
