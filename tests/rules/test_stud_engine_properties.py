"""Property tests over random legal stud hands, 2-8 players, split and spread limit (issue 4).

At every step: chips are conserved to the cent (stacks + pots + Taxe = starting stacks), no card
is dealt twice and each seat's board is the one its cards show. Every hand ends; the settlement balances; nobody wins more than they were eligible
for; replaying the events gives the same state.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engines import stud
from rules.engines.errors import RuleViolation
from rules.engines.stud.pots import _pots
from rules.engines.stud_sim import play_random_hand, random_config

STACKS = [50, 300, 1_000, 4_000, 20_000, 100_000]  # cents: short stacks make all-ins and side pots


def check_step(total: int):
    def check(state: stud.StudState) -> None:
        in_pots = 0 if state.phase == "complete" else sum(a for a, _ in _pots(state))
        assert sum(state.stack) + in_pots + state.taxe == total
        assert all(x >= 0 for x in state.stack)
        cards = [c for hand in state.cards for c, _ in hand if c != stud.UNKNOWN]
        if state.community is not None:
            cards.append(state.community)
        assert len(cards) == len(set(cards))
        # each seat's board (the up cards that set the acting order, R5.5) is kept with its cards
        assert state.boards == [tuple(c for c, up in hand[:6] if up and c != stud.UNKNOWN) for hand in state.cards]
    return check


def eligible_limit(state: stud.StudState, j: int) -> int:
    """The most position ``j`` can win: from each seat, at most what ``j`` itself put in (R10.1),
    plus every ante when antes are not trimmed (R10.4)."""
    eff = [state.contrib[k] - state.returned[k] for k in range(state.n)]
    if state.cfg.ante_trimming:
        return sum(min(e, eff[j]) for e in eff)
    bets = [eff[k] - (0 if state.dead[k] else state.ante_paid[k]) for k in range(state.n)]
    return sum(min(b, bets[j]) for b in bets) + sum(state.ante_paid)


def run(seed: int, n: int, limit_type: str) -> None:
    rng = random.Random(seed)
    raw = random_config(rng, limit_type=limit_type)
    seats = {k + 1: rng.choice(STACKS) for k in range(n)}
    total = sum(seats.values())
    state, events = play_random_hand(rng, raw, seats, button=n, on_step=check_step(total))
    assert stud.is_complete(state)
    result = stud.settlement(state)
    result.check_balanced()
    assert sum(state.stack) + result.tax == total
    for pot_index, seat, amount in result.pot_awards:
        assert seat in result.pots[pot_index].eligible and amount >= 0
    for k, pot in enumerate(result.pots):
        assert sum(a for i, _s, a in result.pot_awards if i == k) == pot.amount
    for j, seat in enumerate(state.seats):
        assert result.awards[seat] <= eligible_limit(state, j)
    again = stud.replay(raw, seats, events, button=n)
    assert again.stack == state.stack and stud.view(again) == stud.view(state)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_split_limit_random_hands_keep_every_invariant(seed, n):
    run(seed, n, "split")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_spread_limit_random_hands_keep_every_invariant(seed, n):
    run(seed, n, "spread")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_full_tables_run_out_of_cards_and_still_settle(seed):
    """8 players who rarely fold reach 7th street and need a community card or a reshuffle (R9)."""
    rng = random.Random(seed)
    raw = random_config(rng, limit_type="split")
    seats = {k + 1: 100_000 for k in range(8)}
    state, _ = play_random_hand(rng, raw, seats, button=8, fold_weight=0.0, wager_weight=0.1,
                                on_step=check_step(800_000))
    stud.settlement(state).check_balanced()


def test_an_illegal_event_leaves_the_state_unchanged():
    rng = random.Random(7)
    raw = random_config(rng, limit_type="split")
    state = stud.new_hand(raw, {1: 5_000, 2: 5_000, 3: 5_000}, button=3)
    before = stud.view(state)
    for bad in ({"type": "call", "seat": 1}, {"type": "deal", "seat": 1, "cards": "As As"},
                {"type": "raise", "seat": 2, "to": 10}):
        try:
            stud.apply(state, bad)
        except RuleViolation:
            pass
        assert stud.view(state) == before
