"""Property tests of the Forty-one engine over random legal hands for 3 to 7 players (issue 5).

Invariants: the hand always ends; chips are conserved to the cent (stacks + tax = starting chips,
the 41 bonus comes from the house on top); every pot has exactly one winner and the engine's winner
is the best hand the showdown tool ranks first; replaying the events rebuilds the same state.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engines import forty_one as fo
from rules.engines.cards import format_cards

BASE = {"ante": "2.00", "limits": ["5.00", "10.00"], "tax_cap": "4.00", "bonus_41_amount": "50.00"}

OPTIONS = st.fixed_dictionaries({}, optional={
    "forehand_post_live": st.booleans(),
    "short_forehand_blind": st.sampled_from(["call_full", "call_short"]),
    "short_allin_rule": st.sampled_from(["half_bet", "full_bet"]),
    "round_bet_sizes": st.sampled_from([["lower", "lower"], ["lower", "upper"]]),
    "round2_check_allowed": st.booleans(),
    "exposure_order": st.sampled_from(["simultaneous", "in_turn"]),
    "raise_cap_heads_up": st.sampled_from([3, None]),
    "uncap_after_cap": st.booleans(),
    "close_mode": st.sampled_from(["standard", "raise_right"]),
    "points_mode": st.sampled_from(["rank_or_suit", "suit_only"]),
    "flush_tiebreak": st.sampled_from(["position", "highest_card_then_position"]),
    "tax_step": st.sampled_from(["0.01", "0.50"]),
    "tax_uncontested_pots": st.booleans(),
    "tax_includes_antes": st.booleans(),
    "tax_side_pots": st.sampled_from(["per_pot_main_first", "total_from_main_pot"]),
    "bonus_41_requires": st.sampled_from(["any_shown", "shown_at_showdown", "won_pot"]),
})
STACKS = st.sampled_from([1_00, 2_50, 4_00, 7_00, 9_00, 12_00, 25_00, 60_00, 200_00])


@st.composite
def tables(draw):
    n = draw(st.integers(min_value=3, max_value=7))
    seats = sorted(draw(st.lists(st.integers(min_value=1, max_value=9), min_size=n, max_size=n, unique=True)))
    stacks = {s: draw(STACKS) for s in seats}
    return stacks, draw(st.sampled_from(seats))


@settings(max_examples=150, deadline=None)
@given(table=tables(), options=OPTIONS, seed=st.integers(min_value=0, max_value=2**32),
       aggression=st.sampled_from([0.1, 0.35, 0.7]), fold_rate=st.sampled_from([0.05, 0.3, 0.6]))
def test_random_legal_hands_conserve_chips_and_have_one_winner(table, options, seed, aggression, fold_rate):
    stacks, forehand = table
    config = fo.build_config({**BASE, **options})
    events = fo.random_hand(config, stacks, forehand, random.Random(seed), aggression=aggression,
                            fold_rate=fold_rate)
    state = fo.replay(config, stacks, events, button=forehand)
    assert fo.is_complete(state)
    view = fo.view(state)
    result = fo.settlement(state)
    result.check_balanced()

    # chips conserved to the cent: what the seats hold now plus the tax is what they brought
    final = {int(s): v for s, v in view["final_stacks"].items()}
    assert all(v >= 0 for v in final.values())
    assert sum(final.values()) + result.tax == sum(stacks.values())
    assert all(final[s] - stacks[s] == result.net[s] - result.bonus.get(s, 0) for s in stacks)
    assert result.tax <= config.tax_cap

    # exactly one winner per pot, drawn from the seats still in; the main pot's winner is the engine's winner
    live = set(state.live)
    assert [i for i, _, _ in result.pot_awards] == list(range(len(result.pots)))
    assert all(seat in pot.eligible for (_, seat, _), pot in zip(result.pot_awards, result.pots))
    assert view["winner"] in live and view["winner"] == result.winners[0]
    assert sum(a for _, _, a in result.pot_awards) + result.tax == sum(p.amount for p in result.pots)
    if not state.showdown_reached:
        assert len(live) == 1
    else:
        shown = {str(s): format_cards(state.hole[s]) for s in state.shown}
        doc = {"game": "forty_one", "forehand": forehand, "hands": shown,
               "config": {"points_mode": config.points_mode, "flush_tiebreak": config.flush_tiebreak}}
        ranked = fo.showdown(doc)
        assert all(len(group) == 1 for group in ranked["ranking"])
        assert ranked["winner"] == view["winner"]
    for seat, amount in result.bonus.items():
        assert amount == config.bonus_41_amount and state.hands[seat].is_41

    # replay gives the same state (events are stored canonical)
    again = fo.replay(config, stacks, state.events, button=forehand)
    assert fo.view(again) == view


@settings(max_examples=40, deadline=None)
@given(table=tables(), seed=st.integers(min_value=0, max_value=2**32))
def test_every_listed_legal_action_is_accepted(table, seed):
    stacks, forehand = table
    config = fo.build_config(BASE)
    rng = random.Random(seed)
    events = fo.random_hand(config, stacks, forehand, rng)
    state = fo.new_hand(config, stacks, button=forehand)
    for event in events:
        view = fo.view(state)
        json.dumps(view)
        if view["expect"] == "action":
            for action in view["legal_actions"]:
                probe = {"type": action["type"], "seat": view["to_act"]}
                if action["type"] in ("bet", "raise"):
                    probe["to"] = action["min"]
                assert fo.can_apply(state, probe), probe
        state = fo.apply(state, event)
    assert fo.is_complete(state)
