"""The Forty-one engine (spec B.4-B.6, B.9): vectors F-16, F-19, F-21 to F-29, config, errors, Spitz."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from rules.engines import forty_one as fo
from rules.engines.base import Pot
from rules.engines.cards import format_cards
from rules.engines.errors import (
    ConfigError,
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    OutOfTurn,
    RuleViolation,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.forty_one_config import pot_taxes, tax_on
from rules.engines.registry import get_engine

BASE = {"ante": "2.00", "limits": ["5.00", "10.00"], "tax_cap": "10.00", "bonus_41_amount": "50.00"}
F21_OPTIONS = {"round_bet_sizes": ["lower", "upper"]}
STACK = 100_00
FOUR = {1: STACK, 2: STACK, 3: STACK, 4: STACK}

# Holdings used by the F-21 table: seat 3's three sevens beat seat 2's pair of nines (point value 18).
F21_CARDS = {1: "A♥ K♥ Q♥ 9♠", 2: "9♥ 9♣ 8♣ 7♦", 3: "7♠ 7♥ 7♣ 8♦", 4: "T♠ T♦ J♠ J♦"}


def cfg(**overrides):
    return fo.build_config({**BASE, **overrides})


def act(kind, seat, to=None):
    event = {"type": kind, "seat": seat}
    if to is not None:
        event["to"] = to
    return event


def start(config, stacks=FOUR, forehand=1, cards=F21_CARDS):
    """Antes, blind and the first deal (two cards each, clockwise from the forehand)."""
    state = fo.new_hand(config, stacks, button=forehand)
    for seat in state.seats:
        if config.ante:
            state = fo.apply(state, {"type": "ante", "seat": seat})
    if state.phase == "forced_bets":
        state = fo.apply(state, {"type": "blind", "seat": forehand})
    for seat in state.seats:
        state = fo.apply(state, {"type": "deal", "seat": seat, "cards": " ".join(cards[seat].split()[:2])})
    return state


def to_round2(state, cards=F21_CARDS):
    """Second deal to every seat still in, then each exposes its first two cards."""
    assert state.phase == "deal2", state.phase
    for seat in state.live:
        state = fo.apply(state, {"type": "deal", "seat": seat, "cards": " ".join(cards[seat].split()[2:])})
    for seat in list(state.live):
        state = fo.apply(state, {"type": "expose", "seat": seat, "cards": " ".join(cards[seat].split()[:2])})
    return state


def show_all(state):
    assert state.phase == "showdown", state.phase
    for seat in list(state.live):
        state = fo.apply(state, {"type": "show", "seat": seat})
    return state


def run(state, events):
    for event in events:
        state = fo.apply(state, event)
    return state


ROUND1_F21 = [act("call", 2), act("raise", 3, 10_00), act("fold", 4), act("call", 1), act("call", 2)]


def pot_total(state):
    return fo.view(state)["pot_total"]


def assert_showdown_tool_agrees(state):
    """The showdown tool ranks the shown hands with the same winner as the engine's main pot."""
    doc = {"game": "forty_one", "forehand": state.forehand,
           "hands": {str(s): format_cards(state.hole[s]) for s in state.shown},
           "config": {k: v for k, v in fo.config_to_dict(state.config).items()
                      if k in ("points_mode", "category_order", "flush_tiebreak")}}
    assert fo.showdown(doc)["winner"] == fo.settlement(state).winners[0] == fo.view(state)["winner"]


# --- config (B.9) ------------------------------------------------------------------------------------


def test_config_defaults_are_the_spec_defaults():
    c = cfg()
    assert (c.ante, c.limits, c.tax_cap, c.bonus_41_amount) == (200, (500, 1000), 1000, 5000)
    assert c.round_bet_sizes == ("lower", "lower") and c.forehand_post_live and c.max_raises_per_round == 3
    assert c.raise_cap_heads_up == 3 and not c.uncap_after_cap and c.close_mode == "standard"
    assert c.exposure_order == "simultaneous" and c.tax_rate == Decimal("0.05") and c.tax_step == 1
    assert c.tax_rounding == "floor" and c.tax_uncontested_pots and c.bonus_41_requires == "any_shown"
    assert c.category_order == ("quads", "flush4", "trips", "flush3", "points")


def test_config_round_trips_through_its_dict():
    c = cfg(raise_cap_heads_up=None, deck="double_german", tax_step="0.50", category_order=["quads", "trips", "points"])
    raw = fo.config_to_dict(c)
    json.dumps(raw)
    assert fo.build_config(raw) == c


@pytest.mark.parametrize("missing", ["ante", "limits", "tax_cap", "bonus_41_amount"])
def test_required_keys_have_no_default(missing):
    raw = dict(BASE)
    del raw[missing]
    with pytest.raises(ConfigError) as err:
        fo.build_config(raw)
    assert err.value.field == missing


def test_per_limit_cap_table_picks_the_tables_limit():
    c = cfg(tax_cap={"5/10": "10.00", "10/20": "15.00"}, bonus_41_amount={"5.00/10.00": "25.00"})
    assert (c.tax_cap, c.bonus_41_amount) == (1000, 2500)
    with pytest.raises(ConfigError) as err:
        cfg(tax_cap={"10/20": "15.00"})
    assert err.value.field == "tax_cap"


@pytest.mark.parametrize(("key", "value"), [
    ("close_mode", "auf"), ("tax_rate", 0.05), ("tax_rate", "1.5"), ("max_players", 8), ("deck", "tarot"),
    ("round_bet_sizes", ["lower"]), ("forehand_post_live", "yes"), ("limits", ["10.00", "5.00"]), ("bring_in", "1"),
])
def test_bad_config_value_names_the_field(key, value):
    with pytest.raises(ConfigError) as err:
        cfg(**{key: value})
    assert err.value.field == key


def test_engine_is_registered():
    engine = get_engine("forty_one")
    assert engine is fo.ENGINE and engine.game == "forty_one"


# --- F-21 and F-21d: pot accounting ------------------------------------------------------------------


def test_f21_pot_accounting_with_upper_limit_in_round_two():
    state = start(cfg(**F21_OPTIONS))
    assert pot_total(state) == 13_00
    state = run(state, ROUND1_F21)
    assert pot_total(state) == 38_00
    state = to_round2(state)
    state = run(state, [act("bet", 2, 10_00), act("raise", 3, 20_00), act("fold", 1), act("call", 2)])
    assert pot_total(state) == 78_00
    state = show_all(state)
    result = fo.settlement(state)
    assert dict(result.contributions) == {1: 12_00, 2: 32_00, 3: 32_00, 4: 2_00}
    assert result.tax == 3_90 and dict(result.awards) == {3: 74_10}
    result.check_balanced()
    assert_showdown_tool_agrees(state)


@pytest.mark.parametrize(("options", "tax", "award"), [({}, 2_90, 55_10), ({"tax_step": "0.50"}, 2_50, 55_50)])
def test_f21d_default_lower_limit_in_round_two(options, tax, award):
    state = to_round2(run(start(cfg(**options)), ROUND1_F21))
    state = run(state, [act("bet", 2, 5_00), act("raise", 3, 10_00), act("fold", 1), act("call", 2)])
    assert pot_total(state) == 58_00
    state = show_all(state)
    result = fo.settlement(state)
    assert dict(result.contributions) == {1: 12_00, 2: 22_00, 3: 22_00, 4: 2_00}
    assert (result.tax, result.awards[3]) == (tax, award)


def test_f21_tax_with_half_euro_step():
    assert tax_on(78_00, cfg(tax_step="0.50")) == 3_50


# --- F-22, F-26, F-27: uncontested pots ----------------------------------------------------------------

F22_ROUND1 = [act("raise", 2, 10_00), act("fold", 3), act("fold", 4), act("fold", 1)]


@pytest.mark.parametrize(("options", "tax"), [
    ({}, 90), ({"tax_step": "0.50"}, 50), ({"tax_uncontested_pots": False}, 0),
])
def test_f22_uncontested_pot_returns_the_uncalled_raise(options, tax):
    state = run(start(cfg(**options)), F22_ROUND1)
    if state.phase == "reveal":
        state = fo.apply(state, {"type": "muck", "seat": 2})
    result = fo.settlement(state)
    assert dict(result.returned) == {2: 5_00}
    assert [p.amount for p in result.pots] == [18_00]
    assert result.tax == tax and dict(result.awards) == {2: 18_00 - tax}
    assert fo.view(state)["winner"] == 2


F26_CARDS = {**F21_CARDS, 2: "A♥ K♥ Q♥ J♥", 1: "9♥ 9♣ 8♣ 7♦"}


def f26_hand(requires):
    """F-26's money with four cards held: pot 18.00 (antes, blind, seat 2's call), seat 2's round-2 bet
    uncalled. (Read literally, F-22 ends in round 1, when seat 2 holds only two cards and cannot show a 41.)"""
    state = run(start(cfg(bonus_41_requires=requires), cards=F26_CARDS),
                [act("call", 2), act("fold", 3), act("fold", 4), act("check", 1)])
    state = to_round2(state, cards=F26_CARDS)
    return run(state, [act("bet", 2, 5_00), act("fold", 1)])


@pytest.mark.parametrize(("requires", "bonus"), [("any_shown", {2: 50_00}), ("shown_at_showdown", {}), ("won_pot", {})])
def test_f26_forty_one_shown_in_an_uncontested_pot(requires, bonus):
    state = f26_hand(requires)
    if requires == "any_shown":
        assert fo.view(state)["expect"] == "show" and fo.view(state)["to_act"] == 2
        state = fo.apply(state, {"type": "show", "seat": 2})
    result = fo.settlement(state)
    assert [p.amount for p in result.pots] == [18_00] and dict(result.returned) == {2: 5_00}
    assert result.tax == 90 and dict(result.awards) == {2: 17_10}
    assert dict(result.bonus) == bonus
    assert result.net[2] == 17_10 + 5_00 - 12_00 + bonus.get(2, 0)
    result.check_balanced()


def test_f26_winner_who_mucks_gets_no_bonus():
    state = fo.apply(f26_hand("any_shown"), {"type": "muck", "seat": 2})
    assert fo.settlement(state).bonus == {} and fo.settlement(state).awards == {2: 17_10}


def test_uncontested_winner_with_two_cards_is_not_asked_to_show():
    state = run(start(cfg(), cards=F26_CARDS), F22_ROUND1)
    assert state.complete and fo.settlement(state).awards == {2: 17_10}
    assert fo.settlement(state).bonus == {}


@pytest.mark.parametrize(("options", "tax"), [({}, 40), ({"tax_step": "0.50"}, 0), ({"tax_uncontested_pots": False}, 0)])
def test_f27_blind_not_called_goes_back_to_the_forehand(options, tax):
    state = run(start(cfg(**options)), [act("fold", 2), act("fold", 3), act("fold", 4)])
    result = fo.settlement(state)
    assert dict(result.returned) == {1: 5_00}
    assert [p.amount for p in result.pots] == [8_00]
    assert (result.tax, dict(result.awards)) == (tax, {1: 8_00 - tax})


def test_dead_blind_stays_in_the_pot():
    state = run(start(cfg(forehand_post_live=False)), [act("check", 2), act("check", 3), act("fold", 4)])
    view = fo.view(state)
    assert view["phase"] == "round1" and view["to_act"] == 1
    state = fo.apply(state, act("fold", 1))
    assert state.phase == "deal2"
    state = to_round2(state)
    state = run(state, [act("bet", 2, 5_00), act("fold", 3), {"type": "muck", "seat": 2}])
    result = fo.settlement(state)
    assert result.returned == {2: 5_00}
    assert [p.amount for p in result.pots] == [13_00]


# --- F-23: tax cap -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("pot", "tax"), [(400_00, 10_00), (37_00, 1_85)])
def test_f23_tax_is_capped_per_limit(pot, tax):
    assert pot_taxes(cfg(tax_cap={"5/10": "10.00"}), [pot]) == [tax]


def test_tax_without_antes_and_half_up_rounding():
    assert pot_taxes(cfg(tax_includes_antes=False), [58_00], antes=8_00) == [2_50]
    assert tax_on(37_10, cfg(tax_rounding="half_up")) == 1_86
    assert tax_on(37_10, cfg()) == 1_85


# --- F-24: raise cap ---------------------------------------------------------------------------------


def capped_round(options=None):
    state = start(cfg(**(options or {})))
    return run(state, [act("raise", 2, 10_00), act("raise", 3, 15_00), act("raise", 4, 20_00)])


def test_f24_fourth_raise_is_refused_and_state_unchanged():
    state = capped_round()
    view = fo.view(state)
    assert view["to_act"] == 1 and view["raises_left"] == 0
    assert [a["type"] for a in view["legal_actions"]] == ["fold", "call"]
    with pytest.raises(IllegalAction, match="capped at 20.00 after 3 raises"):
        fo.apply(state, act("raise", 1, 25_00))
    assert fo.view(state) == view


def test_f24_capped_round_stays_capped_when_two_remain():
    state = run(capped_round({"raise_cap_heads_up": None}), [act("fold", 1), act("fold", 2)])
    assert fo.view(state)["to_act"] == 3
    assert [a["type"] for a in fo.view(state)["legal_actions"]] == ["fold", "call"]
    state = fo.apply(state, act("call", 3))
    assert state.phase == "deal2"


def test_f24_heads_up_before_the_cap_keeps_three_raises_by_default():
    state = run(start(cfg()), [act("fold", 2), act("fold", 3)])
    state = run(state, [act("raise", 4, 10_00), act("raise", 1, 15_00), act("raise", 4, 20_00)])
    with pytest.raises(IllegalAction, match="capped"):
        fo.apply(state, act("raise", 1, 25_00))


def test_f24_heads_up_unlimited_option():
    state = run(start(cfg(raise_cap_heads_up=None)), [act("fold", 2), act("fold", 3)])
    state = run(state, [act("raise", 4, 10_00), act("raise", 1, 15_00), act("raise", 4, 20_00),
                        act("raise", 1, 25_00), act("raise", 4, 30_00)])
    assert fo.view(state)["raises"] == 5 and fo.view(state)["raises_left"] is None


def test_uncap_after_cap_option_reopens_heads_up():
    state = run(capped_round({"raise_cap_heads_up": None, "uncap_after_cap": True}), [act("fold", 1), act("fold", 2)])
    state = fo.apply(state, act("raise", 3, 25_00))
    assert fo.view(state)["level"] == 25_00


# --- F-28, F-29: all-in and side pots ------------------------------------------------------------------


@pytest.mark.parametrize(("cap", "taxes", "seat3", "seat1"), [("10.00", [1_90, 2_00], 36_10, 38_00),
                                                             ("3.00", [1_90, 1_10], 36_10, 38_90)])
def test_f28_all_in_and_side_pot(cap, taxes, seat3, seat1):
    stacks = {**FOUR, 3: 12_00}
    state = start(cfg(**F21_OPTIONS, tax_cap=cap), stacks=stacks)
    assert state.stacks[3] == 10_00
    state = run(state, ROUND1_F21)
    assert state.stacks[3] == 0 and pot_total(state) == 38_00
    state = to_round2(state)
    assert fo.view(state)["to_act"] == 2  # seat 3 is all-in and does not act
    state = run(state, [act("bet", 2, 10_00), act("raise", 1, 20_00), act("call", 2)])
    state = show_all(state)
    result = fo.settlement(state)
    assert list(result.pots) == [Pot(38_00, (1, 2, 3)), Pot(40_00, (1, 2))]
    assert [t for t in pot_taxes(state.config, [38_00, 40_00])] == taxes
    assert dict(result.awards) == {3: seat3, 1: seat1}
    assert result.winners == (3, 1)
    result.check_balanced()
    assert_showdown_tool_agrees(state)


def test_f29_short_blind_must_still_be_called_in_full():
    stacks = {**FOUR, 1: 4_00}
    state = start(cfg(), stacks=stacks)
    assert state.blind == 2_00 and state.stacks[1] == 0
    view = fo.view(state)
    assert view["to_act"] == 2
    assert {a["type"]: a["min"] for a in view["legal_actions"]} == {"fold": None, "call": 5_00, "raise": 10_00}
    state = run(state, [act("call", 2), act("call", 3), act("fold", 4)])
    assert state.phase == "deal2"
    assert fo.view(state)["pots"] == [{"amount": 14_00, "eligible": [1, 2, 3]}, {"amount": 6_00, "eligible": [2, 3]}]


def test_short_blind_call_short_option_allows_completion_as_the_opening_bet():
    state = start(cfg(short_forehand_blind="call_short"), stacks={**FOUR, 1: 4_00})
    actions = {a["type"]: a["min"] for a in fo.view(state)["legal_actions"]}
    assert actions == {"fold": None, "call": 2_00, "raise": 5_00}
    state = fo.apply(state, act("raise", 2, 5_00))
    assert fo.view(state)["raises"] == 0  # the completion is the opening bet, not a raise


def test_short_all_in_raise_below_half_a_unit_does_not_reopen_betting():
    state = start(cfg(), stacks={**FOUR, 3: 9_00})  # seat 3: 7.00 behind after the ante
    state = run(state, [act("call", 2)])
    state = fo.apply(state, act("raise", 3, 7_00))  # all-in, 2.00 over 5.00: below half of 5.00
    assert fo.view(state)["raises"] == 0
    state = fo.apply(state, act("raise", 4, 10_00))  # seat 4 had not acted: may complete to 10.00
    state = run(state, [act("call", 1)])
    assert fo.view(state)["raises"] == 1


def test_short_all_in_raise_of_half_a_unit_counts_as_a_raise():
    state = start(cfg(), stacks={**FOUR, 3: 10_00})  # 8.00 behind: raise to 8.00 is 3.00 >= 2.50
    state = run(state, [act("call", 2), act("raise", 3, 8_00)])
    view = fo.view(state)
    assert view["raises"] == 1
    assert {a["type"]: a["min"] for a in view["legal_actions"]}["raise"] == 13_00


def test_everyone_all_in_runs_out_to_the_showdown_without_betting():
    stacks = {1: 7_00, 2: 7_00, 3: 7_00, 4: 100_00}
    state = run(start(cfg(), stacks=stacks), [act("call", 2), act("call", 3), act("call", 4)])
    assert state.phase == "deal2"  # seats 1-3 are all-in, only seat 4 has chips: no more betting
    state = to_round2(state)
    assert state.phase == "showdown"
    state = show_all(state)
    fo.settlement(state).check_balanced()


# --- F-16, F-19: showdown and the 41 bonus -------------------------------------------------------------

F16_CARDS = {1: "A♥ K♥ Q♥ J♥", 2: "9♥ 9♣ 8♣ 7♦", 3: "A♠ K♠ Q♠ T♠", 4: "7♠ 8♠ 7♣ 8♦", 5: "9♠ T♦ J♦ Q♦"}
FIVE = {s: STACK for s in range(1, 6)}


def checked_down(config, forehand, cards, stacks=FIVE):
    """Everyone calls the blind, checks round 2, everybody shows."""
    state = start(config, stacks=stacks, forehand=forehand, cards=cards)
    state = run(state, [act("call", s) for s in state.after(forehand)[:-1]] + [act("check", forehand)])
    state = to_round2(state, cards=cards)
    state = run(state, [act("check", s) for s in state.after(forehand)])
    return show_all(state)


@pytest.mark.parametrize(("forehand", "winner"), [(1, 1), (2, 3), (3, 3), (4, 1), (5, 1)])
def test_f16_forty_one_against_forty_one_in_a_hand(forehand, winner):
    state = checked_down(cfg(), forehand, F16_CARDS)
    result = fo.settlement(state)
    assert result.winners == (winner,)
    assert dict(result.bonus) == {1: 50_00, 3: 50_00}
    assert_showdown_tool_agrees(state)


@pytest.mark.parametrize(("requires", "multiple", "bonus"), [
    ("any_shown", "every_holder", {1: 50_00}),
    ("shown_at_showdown", "every_holder", {1: 50_00}),
    ("won_pot", "every_holder", {}),
])
def test_f19_quads_beat_41_and_the_bonus_follows_the_option(requires, multiple, bonus):
    cards = {1: "A♥ K♥ Q♥ J♥", 2: "7♠ 7♥ 7♦ 7♣", 3: "9♥ 9♣ 8♣ 8♦"}
    three = {1: STACK, 2: STACK, 3: STACK}
    state = checked_down(cfg(bonus_41_requires=requires, bonus_41_multiple_holders=multiple), 1, cards, stacks=three)
    result = fo.settlement(state)
    assert result.winners == (2,)
    assert dict(result.bonus) == bonus
    assert result.net[1] == -result.contributions[1] + bonus.get(1, 0)


def test_pot_winner_only_pays_only_the_winning_41_holder():
    state = checked_down(cfg(bonus_41_multiple_holders="pot_winner_only"), 2, F16_CARDS)
    assert dict(fo.settlement(state).bonus) == {3: 50_00}


def test_showdown_requires_every_hand_to_be_shown_and_refuses_muck():
    state = start(cfg())
    state = run(state, [act("call", 2), act("call", 3), act("call", 4), act("check", 1)])
    state = to_round2(state)
    state = run(state, [act("check", s) for s in (2, 3, 4, 1)])
    assert fo.view(state)["expect"] == "showdown"
    with pytest.raises(IllegalAction, match="turns up all four cards"):
        fo.apply(state, {"type": "muck", "seat": 2})
    with pytest.raises(IllegalAction, match="holds"):
        fo.apply(state, {"type": "show", "seat": 2, "cards": "A♥ K♥ Q♥ J♥"})


# --- errors: each readable, the state unchanged ----------------------------------------------------------


def exposure_state():
    state = run(start(cfg()), [act("call", 2), act("call", 3), act("call", 4), act("check", 1)])
    for seat in state.live:
        state = fo.apply(state, {"type": "deal", "seat": seat, "cards": " ".join(F21_CARDS[seat].split()[2:])})
    return state


def _after_blind(dealt=False):
    state = fo.new_hand(cfg(), FOUR, button=1)
    state = run(state, [{"type": "ante", "seat": s} for s in FOUR] + [{"type": "blind", "seat": 1}])
    if dealt:
        state = fo.apply(state, {"type": "deal", "seat": 1, "cards": "A♥ K♥"})
    return state


ERRORS = [
    ("expose a card not held", exposure_state, {"type": "expose", "seat": 2, "cards": "A♥ 9♥"}, IllegalAction,
     "does not hold"),
    ("expose three cards", exposure_state, {"type": "expose", "seat": 2, "cards": "9♥ 9♣ 8♣"}, WrongCardCount,
     "exactly 2"),
    ("expose one card", exposure_state, {"type": "expose", "seat": 2, "cards": "9♥"}, WrongCardCount, "exactly 2"),
    ("act out of turn", lambda: start(cfg()), act("call", 3), OutOfTurn, "seat 2's turn"),
    ("raise by other than the unit", lambda: start(cfg()), act("raise", 2, 12_00), InvalidAmount,
     "one unit of 5.00"),
    ("round-2 bet of the upper limit", lambda: to_round2(run(start(cfg()), [act("call", 2), act("call", 3),
                                                                          act("call", 4), act("check", 1)])),
     act("bet", 2, 10_00), InvalidAmount, "a bet is one unit of 5.00"),
    ("bet facing the blind", lambda: start(cfg()), act("bet", 2, 10_00), IllegalAction, "already bet"),
    ("check facing the blind", lambda: start(cfg()), act("check", 2), IllegalAction, "5.00 is to call"),
    ("fourth raise", capped_round, act("raise", 1, 25_00), IllegalAction, "capped"),
    ("unknown event", lambda: start(cfg()), {"type": "wink", "seat": 2}, UnknownEvent, "unknown"),
    ("unknown field", lambda: start(cfg()), {"type": "call", "seat": 2, "size": 1}, UnknownEvent, "size"),
    ("seat not dealt in", lambda: start(cfg()), act("call", 9), IllegalAction, "not dealt"),
    ("card from a 52 deck", _after_blind,
     {"type": "deal", "seat": 1, "cards": "2h 3h"}, InvalidCard, "32-card pack"),
    ("card dealt twice", lambda: _after_blind(dealt=True), {"type": "deal", "seat": 2, "cards": "A♥ 7s"},
     DuplicateCard, "already dealt"),
    ("misdeal after two actions", lambda: run(start(cfg()), [act("call", 2), act("call", 3)]), {"type": "misdeal"},
     IllegalAction, "before two players"),
    ("bad amount type", lambda: start(cfg()), {"type": "raise", "seat": 2, "to": "10.00"}, InvalidAmount, "cents"),
    ("float amount", lambda: start(cfg()), {"type": "raise", "seat": 2, "to": 1000.0}, InvalidAmount, "cents"),
    ("absurdly large raise", lambda: start(cfg()), {"type": "raise", "seat": 2, "to": 10**30}, InvalidAmount,
     "too large"),
    ("absurdly large call", lambda: start(cfg()), {"type": "call", "seat": 2, "amount": 10**30}, InvalidAmount,
     "too large"),
    ("absurdly large ante", lambda: fo.new_hand(cfg(), FOUR, button=1), {"type": "ante", "seat": 1, "amount": 10**30},
     InvalidAmount, "too large"),
    ("seat as text", lambda: start(cfg()), {"type": "call", "seat": "2"}, UnknownEvent, "seat number"),
    ("raise without its amount", lambda: start(cfg()), {"type": "raise", "seat": 2}, UnknownEvent,
     "raise event: the amount is missing \\(give 'to'"),
]


@pytest.mark.parametrize(("case", "make", "event", "error", "text"), ERRORS, ids=[e[0] for e in ERRORS])
def test_illegal_event_raises_a_specific_error_and_changes_nothing(case, make, event, error, text):
    state = make()
    before = fo.view(state)
    events_before = state.events
    with pytest.raises(error, match=text) as err:
        fo.apply(state, event)
    assert isinstance(err.value, RuleViolation) and err.value.message
    assert not fo.can_apply(state, event)
    assert fo.view(state) == before and state.events == events_before


def test_exposure_cannot_be_changed_and_in_turn_order_is_enforced():
    state = fo.apply(exposure_state(), {"type": "expose", "seat": 3, "cards": "7♠ 8♦"})
    with pytest.raises(IllegalAction, match="cannot be changed"):
        fo.apply(state, {"type": "expose", "seat": 3, "cards": "7♠ 7♥"})
    in_turn = run(start(cfg(exposure_order="in_turn")), [act("call", 2), act("call", 3), act("call", 4),
                                                          act("check", 1)])
    for seat in in_turn.live:
        in_turn = fo.apply(in_turn, {"type": "deal", "seat": seat, "cards": " ".join(F21_CARDS[seat].split()[2:])})
    with pytest.raises(OutOfTurn, match="seat 2 exposes first"):
        fo.apply(in_turn, {"type": "expose", "seat": 3, "cards": "7♠ 8♦"})


def test_event_after_the_end_is_refused():
    state = run(start(cfg()), [act("fold", 2), act("fold", 3), act("fold", 4)])
    with pytest.raises(HandComplete):
        fo.apply(state, act("call", 2))


def test_wrong_player_count_and_forehand_not_seated():
    with pytest.raises(IllegalAction, match="3 to 7 players"):
        fo.new_hand(cfg(), {1: 100, 2: 100}, button=1)
    with pytest.raises(IllegalAction, match="Spitz"):
        fo.new_hand(cfg(), FOUR, button=6)


# --- misdeal, Spitz, replay, view ------------------------------------------------------------------------


def test_misdeal_returns_everything_and_the_spitz_stays():
    state = fo.apply(run(start(cfg()), [act("call", 2)]), {"type": "misdeal"})
    result = fo.settlement(state)
    assert dict(result.returned) == dict(result.contributions) and result.tax == 0
    assert all(v == 0 for v in result.net.values())
    assert fo.next_forehand(state, [1, 2, 3, 4]) == 1


@pytest.mark.parametrize(("occupied", "current", "expected"), [
    ([1, 2, 3, 4, 5], 4, 5), ([1, 2, 3, 4, 5], 5, 1), ([1, 3, 6], 3, 6), ([1, 3, 6], 4, 6), ([2, 5, 7], 7, 2),
])
def test_next_forehand_moves_clockwise_skipping_empty_seats(occupied, current, expected):
    assert fo.next_button(occupied, current) == expected


def test_replay_of_stored_events_gives_the_same_state():
    state = run(start(cfg(**F21_OPTIONS)), ROUND1_F21)
    again = fo.replay(state.config, state.starting, state.events, button=1)
    assert fo.view(again) == fo.view(state)


def test_view_says_what_comes_next():
    state = fo.new_hand(cfg(), FOUR, button=3)
    view = fo.view(state)
    assert (view["expect"], view["to_act"]) == ("ante", 3)
    assert view["legal_actions"] == [{"type": "ante", "min": 200, "max": 200}]
    state = run(state, [{"type": "ante", "seat": s} for s in FOUR])
    assert (fo.view(state)["expect"], fo.view(state)["to_act"]) == ("blind", 3)
    state = fo.apply(state, {"type": "blind", "seat": 3})
    assert (fo.view(state)["expect"], fo.view(state)["to_act"]) == ("deal", 3)
    json.dumps(fo.view(state))


def test_double_german_deck_accepts_german_names():
    config = cfg(deck="double_german")
    state = _german_start(config)
    assert fo.view(state)["phase"] == "round1"
    assert state.hole[1] == tuple(fo.parse_pack_cards("Herz Ass, Herz König", config))


def _german_start(config):
    state = fo.new_hand(config, FOUR, button=1)
    state = run(state, [{"type": "ante", "seat": s} for s in FOUR] + [{"type": "blind", "seat": 1}])
    names = {1: "Herz Ass, Herz König", 2: ["Eichel 7", "Laub Ober"], 3: "Schellen Unter Schellen 10", 4: "As Kc"}
    return run(state, [{"type": "deal", "seat": s, "cards": c} for s, c in names.items()])


# --- showdown tool ---------------------------------------------------------------------------------------


def test_showdown_tool_ranks_with_the_forehand_tie_break_f15():
    doc = {"game": "forty_one", "forehand": 4,
           "hands": {"2": "K♣ Q♣ J♣ A♦", "5": "A♥ K♥ 9♥ 7♠", "3": "9♠ 9♦ 8♠ 8♦"}}
    out = fo.showdown(doc)
    assert out["ranking"] == [[5], [2], [3]] and out["winner"] == 5
    assert out["seats"]["5"]["category"] == "flush3" and out["seats"]["3"]["description"] == "point value 18"
    assert out["seats"]["2"]["cards"] == "Kc Qc Jc"
    json.dumps(out)


def test_showdown_tool_via_the_dispatcher_and_german_cards():
    from rules.showdown import run_showdown

    doc = {"game": "forty_one", "forehand": 1, "config": {"deck": "double_german"},
           "hands": {"1": "Herz Ass, Herz König, Herz Ober, Herz Unter", "2": "Eichel 7, Laub 7, Schellen 7, Herz 7"}}
    out = run_showdown(doc)
    assert out["winner"] == 2 and out["seats"]["1"]["is_41"]


@pytest.mark.parametrize(("hands", "error"), [
    ({"1": "A♥ K♥ Q♥", "2": "7♠ 7♥ 7♦ 7♣"}, WrongCardCount),
    ({"1": "A♥ K♥ Q♥ J♥", "2": "A♥ 7♥ 7♦ 7♣"}, DuplicateCard),
    ({"1": "A♥ K♥ Q♥ 6♥", "2": "7♠ 7♥ 7♦ 7♣"}, InvalidCard),
])
def test_showdown_tool_refuses_bad_hands(hands, error):
    with pytest.raises(error):
        fo.showdown({"game": "forty_one", "forehand": 1, "hands": hands})


def test_showdown_tool_refuses_a_category_order_that_is_not_a_list():
    with pytest.raises(ConfigError) as err:
        fo.showdown({"game": "forty_one", "forehand": 1, "config": {"category_order": 5},
                     "hands": {"1": "A♥ K♥ Q♥ J♥"}})
    assert err.value.field == "category_order"


@pytest.mark.parametrize(("hands", "error", "seat", "words"), [
    ({"1": "Herz Ass, Herz Ass, Herz Ober, Herz Unter"}, DuplicateCard, 1, "seat 1"),
    ({"1": "Herz Ass, Herz König, Herz Ober, Herz Unter", "2": "Herz 6, Laub 7, Eichel 7, Schellen 7"}, InvalidCard,
     2, "seat 2: 'Herz 6'"),
    ({"3": 5}, InvalidCard, 3, "seat 3"),
])
def test_showdown_tool_german_card_errors_name_the_seat(hands, error, seat, words):
    with pytest.raises(error) as err:
        fo.showdown({"game": "forty_one", "forehand": 1, "config": {"deck": "double_german"}, "hands": hands})
    assert words in err.value.message and err.value.seat == seat


def test_showdown_tool_points_german_names_to_the_double_german_deck():
    with pytest.raises(InvalidCard) as err:
        fo.showdown({"game": "forty_one", "forehand": 1, "hands": {"1": "Herz Ass, Herz König, Herz Ober, Herz Unter"}})
    assert "seat 1" in err.value.message and "double_german" in err.value.message


def test_showdown_tool_names_the_32_card_pack():
    with pytest.raises(InvalidCard, match="32-card pack"):
        fo.showdown({"game": "forty_one", "forehand": 1, "hands": {"1": "A♥ K♥ Q♥ 6♥"}})


@pytest.mark.parametrize("key", ["inf/10", "1e999999999/10", "nan/10"])
def test_per_limit_key_that_is_not_a_limit_level_is_a_config_error(key):
    with pytest.raises(ConfigError) as err:
        cfg(tax_cap={key: "10.00"})
    assert err.value.field == "tax_cap"


def test_showdown_tool_needs_a_forehand():
    with pytest.raises(RuleViolation, match="forehand"):
        fo.showdown({"game": "forty_one", "hands": {"1": "A♥ K♥ Q♥ J♥"}})


def test_raise_right_closes_the_raising_once_a_player_only_calls():
    state = fo.apply(start(cfg(close_mode="raise_right")), act("call", 2))
    assert [a["type"] for a in fo.view(state)["legal_actions"]] == ["fold", "call"]
    with pytest.raises(IllegalAction, match="raise_right"):
        fo.apply(state, act("raise", 3, 10_00))
    state = run(state, [act("call", 3), act("call", 4), act("check", 1)])
    assert state.phase == "deal2"


def test_wrong_ante_or_blind_amount_is_refused():
    state = fo.new_hand(cfg(), FOUR, button=2)
    with pytest.raises(InvalidAmount, match="ante is 2.00"):
        fo.apply(state, {"type": "ante", "seat": 1, "amount": 5_00})
    state = run(state, [{"type": "ante", "seat": s} for s in FOUR])
    with pytest.raises(OutOfTurn, match="forehand"):
        fo.apply(state, {"type": "blind", "seat": 1})
    with pytest.raises(InvalidAmount, match="lower limit"):
        fo.apply(state, {"type": "blind", "seat": 2, "amount": 10_00})


def test_short_ante_puts_the_player_all_in():
    state = fo.new_hand(cfg(), {**FOUR, 3: 1_50}, button=1)
    state = fo.apply(state, {"type": "ante", "seat": 3})
    assert state.contrib[3] == 1_50 and state.stacks[3] == 0


def test_round2_without_check_must_be_opened_with_a_bet_or_fold():
    state = run(start(cfg(round2_check_allowed=False)), [act("call", 2), act("call", 3), act("call", 4),
                                                         act("check", 1)])
    state = to_round2(state)
    assert [a["type"] for a in fo.view(state)["legal_actions"]] == ["fold", "bet"]
    with pytest.raises(IllegalAction, match="opened with a bet"):
        fo.apply(state, act("check", 2))


# --- cards dealt face down and unseen (issue 14) ---------------------------------------------------------


def _unseen_variant(events, seat):
    """``events`` with ``seat``'s dealt cards logged as ``??``."""
    return [{**e, "cards": "?? ??"} if e["type"] == "deal" and e["seat"] == seat else e for e in events]


def test_refused_exposure_names_the_card_asked_for_never_the_seats_face_down_cards():
    # B.4 step 4 with issue 20: a live hand's answers never name a face-down card, refusals included.
    state = exposure_state()
    held = fo.view(state)  # what the seat holds is recorded (record every card), but stays private
    with pytest.raises(IllegalAction) as refused:
        fo.apply(state, {"type": "expose", "seat": 2, "cards": "A♥ 9♥"})
    message = str(refused.value)
    assert "does not hold it" in message and "A" in message
    assert "holds" not in message and "9♣" not in message and "8♣" not in message, message
    assert fo.view(state) == held


def test_unseen_cards_replay_to_the_same_hand_once_exposed_and_shown():
    import random as _random

    engine = get_engine("forty_one")
    from rules.registry import get_game

    spec = get_game("forty_one")
    config = engine.build_config(spec.example_config)
    seats = {1: 20_000, 2: 20_000, 3: 20_000}
    for seed in range(40):
        events = spec.random_hand(config, seats, 1, _random.Random(seed))
        known = engine.replay(config, seats, events, button=1)
        for seat in seats:
            showed = any(e["type"] == "show" and e["seat"] == seat for e in events)
            exposed = any(e["type"] == "expose" and e["seat"] == seat for e in events)
            unseen = _unseen_variant(events, seat)
            if showed:  # a shown hand names all four cards
                hole = " ".join(str(c) for c in known.hole[seat])
                unseen = [{**e, "cards": hole} if e["type"] == "show" and e["seat"] == seat else e for e in unseen]
            state = engine.replay(config, seats, unseen, button=1)
            assert engine.settlement(state) == engine.settlement(known), (seed, seat)
            if not showed and not exposed:
                assert state.unseen.get(seat, 0) > 0  # a folded hand stays unknown


def test_a_shown_card_dealt_to_another_seat_is_refused_and_an_unseen_hand_must_name_its_cards():
    engine = get_engine("forty_one")
    from rules.registry import get_game

    config = engine.build_config(get_game("forty_one").example_config)
    state = engine.new_hand(config, {1: 20_000, 2: 20_000, 3: 20_000}, button=1)
    for event in ({"type": "ante", "seat": 1}, {"type": "ante", "seat": 2}, {"type": "ante", "seat": 3},
                  {"type": "blind", "seat": 1}):
        state = engine.apply(state, event)
    state = engine.apply(state, {"type": "deal", "seat": 1, "cards": "?? ??"})
    state = engine.apply(state, {"type": "deal", "seat": 2, "cards": "As Ks"})
    assert state.unseen == {1: 2}
    assert engine.view(state)["legal_actions"]
    with pytest.raises(RuleViolation):
        engine.apply(state, {"type": "deal", "seat": 3, "cards": "As 7h"})  # As was dealt to seat 2
