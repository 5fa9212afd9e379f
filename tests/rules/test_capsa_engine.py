"""Capsa Susun deal engine, settlement and showdown tool (spec A.4-A.13; vectors C-10, C-11, C-13..C-31)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engines import capsa
from rules.engines.capsa import ENGINE, apply, new_hand, random_deal, replay, showdown, view
from rules.engines.capsa_config import CapsaConfig, build_config, config_to_dict
from rules.engines.capsa_scoring import apply_table_stakes, method_score, row_royalties
from rules.engines.cards import CARDS, format_cards, parse_cards
from rules.engines.errors import (
    ConfigError,
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidCard,
    OutOfTurn,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.evaluators.capsa import evaluate_five, evaluate_three
from rules.engines.showdown import MalformedShowdown
from rules.showdown import run_showdown

# C-15: four players using all 52 cards, seats 1..4 = P1..P4 (front, middle, back).
C15 = {
    1: ("5♣5♦4♣", "9♠9♥9♦Q♠Q♥", "K♠K♥K♦K♣2♠"),
    2: ("A♠J♦3♥", "T♠T♥8♣8♦2♥", "A♥J♥7♥6♥4♥"),
    3: ("7♣7♦A♦", "3♣4♦5♥6♣7♠", "8♠9♣T♦J♣Q♦"),
    4: ("A♣J♠3♠", "2♦2♣5♠4♠3♦", "6♠6♦Q♣T♣8♥"),
}
C19_P4_FOULED = ("6♠6♦A♣", "2♦2♣Q♣J♠T♣", "3♠3♦8♥5♠4♠")
C23A_DRAGON = "2♣3♣4♣5♣6♣7♣8♣9♦T♦J♦Q♦K♦A♦"
C23B_SIX_PAIRS = "A♠A♥K♠K♥Q♠Q♥J♠J♥T♠T♥9♠9♥2♠"
C24_Z = "9♣T♣J♣Q♣K♣2♦3♦4♦3♠4♠5♥6♥8♥"
C24_Z_SET = ("2♦5♥6♥", "3♦4♦3♠4♠8♥", "9♣T♣J♣Q♣K♣")
NO_ROYALTIES = {"royalty_table": "none"}
BIG_STACK = 10_000_000


def canon(text: str) -> str:
    return format_cards(parse_cards(text))


def deal(raw_config: dict, hands: dict, *, surrender=(), button: int | None = None, stacks: dict | None = None,
         declare=()):
    """Drive one deal through the engine: hands map seat -> (front, middle, back) or a 13-card natural."""
    config = build_config({"unit_value": "1.00", **raw_config})
    seats = stacks or {s: BIG_STACK for s in hands}
    state = new_hand(config, seats, button=button if button is not None else max(hands))
    events = []
    for s, hand in hands.items():
        cards = hand if isinstance(hand, str) else " ".join(hand)
        events.append({"type": "deal", "seat": s, "cards": canon(cards)})
    for e in events:
        state = apply(state, e)
    for s in declare:
        e = {"type": "declare_natural", "seat": s}
        state = apply(state, e)
        events.append(e)
    for s, hand in hands.items():
        if isinstance(hand, tuple) and state.phase == "set":
            e = {"type": "set", "seat": s, "front": canon(hand[0]), "middle": canon(hand[1]), "back": canon(hand[2])}
            state = apply(state, e)
            events.append(e)
    while view(state)["expect"] == "surrender":
        due = view(state)["to_act"]
        e = {"type": "surrender" if due in surrender else "play", "seat": due}
        state = apply(state, e)
        events.append(e)
    e = {"type": "reveal"}
    state = apply(state, e)
    events.append(e)
    return state, events


def net_units(state) -> dict[int, int]:
    result = ENGINE.settlement(state)
    stake = state.config.unit_value
    return {s: (result.awards[s] - result.contributions[s]) // stake for s in state.seats}


def c15(*seats, **replace_seats):
    hands = {s: C15[s] for s in (seats or C15)}
    hands.update({int(k[1:]): v for k, v in replace_seats.items()})
    return hands


# --------------------------------------------------------------------------------------------------
# C-13 / C-14: methods
# --------------------------------------------------------------------------------------------------

C13 = [  # w, l, 1-1-1, 2-4, 2-4 more_rows, 1-6, 1-4
    (3, 0, 3, 4, 4, 6, 4),
    (2, 1, 1, 2, 2, 1, 1),
    (2, 0, 2, 3, 3, 2, 2),
    (1, 0, 1, 1, 2, 1, 1),
    (1, 1, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0),
]


@pytest.mark.parametrize(("w", "lost", "m111", "m24", "m24_more", "m16", "m14"), C13)
def test_c13_method_outcomes_for_every_row_pattern_and_their_mirror(w, lost, m111, m24, m24_more, m16, m14):
    cases = [
        ({"method": "1-1-1", "surrender_penalty": 1}, m111),
        ({"method": "2-4"}, m24),
        ({"method": "2-4", "overall_rule": "more_rows_than_opponent"}, m24_more),
        ({"method": "1-6"}, m16),
        ({"method": "1-4"}, m14),
    ]
    for raw, expected in cases:
        config = build_config({"unit_value": "1.00", **raw})
        assert method_score(config, w, lost) == expected, raw
        assert method_score(config, lost, w) == -expected, raw


def test_majority_method_pays_one_unit_to_the_side_with_more_rows():
    config = build_config({"unit_value": "1.00", "method": "majority", "surrender_enabled": False})
    assert [method_score(config, w, lo) for w, lo in ((3, 0), (2, 1), (1, 0), (1, 1), (0, 2))] == [1, 1, 1, 0, -1]


C14 = {1: ("K♠Q♦9♣", "A♠A♦8♣5♥4♠", "7♠7♦7♣3♥2♠"), 2: ("K♥Q♣9♦", "A♥A♣8♦5♠4♦", "6♠6♦6♣3♦2♦")}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [({"method": "2-4"}, 1), ({"method": "2-4", "overall_rule": "more_rows_than_opponent"}, 2), ({"method": "1-6"}, 1)],
)
def test_c14_win_tie_tie_pair(raw, expected):
    state, _ = deal({**NO_ROYALTIES, **raw}, C14)
    assert net_units(state) == {1: expected, 2: -expected}
    assert view(state)["pairs"][0]["rows"] == {"front": "tie", "middle": "tie", "back": 1}


# --------------------------------------------------------------------------------------------------
# C-15 .. C-22, C-24, C-27: table-driven settlements through the engine
# --------------------------------------------------------------------------------------------------

SETTLEMENT_VECTORS = [
    ("C-15 2-4", {**NO_ROYALTIES}, c15(), (), {1: 10, 2: -3, 3: 4, 4: -11}),
    ("C-15 1-6", {**NO_ROYALTIES, "method": "1-6"}, c15(), (), {1: 13, 2: -5, 3: 6, 4: -14}),
    ("C-15 1-4", {**NO_ROYALTIES, "method": "1-4"}, c15(), (), {1: 9, 2: -3, 3: 4, 4: -10}),
    ("C-16 2-4 royalties", {}, c15(), (), {1: 28, 2: -9, 3: -2, 4: -17}),
    ("C-16 1-6 royalties", {"method": "1-6"}, c15(), (), {1: 31, 2: -11, 3: 0, 4: -20}),
    ("C-16 2-4 independent", {"royalty_mode": "independent"}, c15(), (), {1: 28, 2: -9, 3: -2, 4: -17}),
    ("C-16 1-6 independent", {"method": "1-6", "royalty_mode": "independent"}, c15(), (),
     {1: 31, 2: -11, 3: 0, 4: -20}),
    ("C-18 2-4 SHCD", {**NO_ROYALTIES, "suit_order": "SHCD"}, c15(), (), {1: 10, 2: -2, 3: 4, 4: -12}),
    ("C-18 1-6 SHCD", {**NO_ROYALTIES, "method": "1-6", "suit_order": "SHCD"}, c15(), (),
     {1: 13, 2: -1, 3: 6, 4: -18}),
    ("C-19 2-4 foul", {**NO_ROYALTIES}, c15(P4=C19_P4_FOULED), (), {1: 10, 2: -2, 3: 4, 4: -12}),
    ("C-19 1-6 foul", {**NO_ROYALTIES, "method": "1-6"}, c15(P4=C19_P4_FOULED), (), {1: 13, 2: -1, 3: 6, 4: -18}),
    ("C-19 2-4 foul + royalties", {}, c15(P4=C19_P4_FOULED), (), {1: 28, 2: -8, 3: -2, 4: -18}),
    ("C-20 2-4 surrender", {**NO_ROYALTIES, "surrender_penalty": 2}, c15(), (4,), {1: 8, 2: -4, 3: 2, 4: -6}),
    ("C-20 1-6 surrender", {**NO_ROYALTIES, "method": "1-6", "surrender_penalty": 3}, c15(), (4,),
     {1: 10, 2: -4, 3: 3, 4: -9}),
    ("C-20 2-4 default penalty", {**NO_ROYALTIES}, c15(), (4,), {1: 8, 2: -4, 3: 2, 4: -6}),
    ("C-21 2-4", {**NO_ROYALTIES}, {1: C15[1], 4: C19_P4_FOULED, 3: C15[3]}, (3,), {1: 6, 4: -4, 3: -2}),
    ("C-21 1-6", {**NO_ROYALTIES, "method": "1-6"}, {1: C15[1], 4: C19_P4_FOULED, 3: C15[3]}, (3,),
     {1: 9, 4: -6, 3: -3}),
    ("C-22 3 players 2-4", {**NO_ROYALTIES}, c15(1, 2, 3), (), {1: 6, 2: -6, 3: 0}),
    ("C-22 3 players 1-6", {**NO_ROYALTIES, "method": "1-6"}, c15(1, 2, 3), (), {1: 7, 2: -7, 3: 0}),
    ("C-22 2 players 2-4", {**NO_ROYALTIES}, c15(2, 3), (), {2: -2, 3: 2}),
    ("C-22 2 players 1-6", {**NO_ROYALTIES, "method": "1-6"}, c15(2, 3), (), {2: -1, 3: 1}),
    ("C-24 winner_value", {**NO_ROYALTIES}, {1: C23A_DRAGON, 2: C23B_SIX_PAIRS, 3: C24_Z_SET}, (),
     {1: 26, 2: -10, 3: -16}),
    ("C-24 difference", {**NO_ROYALTIES, "natural_vs_natural": "difference"},
     {1: C23A_DRAGON, 2: C23B_SIX_PAIRS, 3: C24_Z_SET}, (), {1: 23, 2: -7, 3: -16}),
    ("C-27 home run", {**NO_ROYALTIES, "method": "1-1-1", "scoop_multiplier": 2, "home_run_multiplier": 2},
     c15(1, 2, 4), (), {1: 24, 2: -10, 4: -14}),
    ("C-27 four players, no home run",
     {**NO_ROYALTIES, "method": "1-1-1", "scoop_multiplier": 2, "home_run_multiplier": 2}, c15(), (),
     {1: 13, 2: -5, 3: 6, 4: -14}),
]


@pytest.mark.parametrize(("vector", "raw", "hands", "surrender", "expected"), SETTLEMENT_VECTORS,
                         ids=[v[0] for v in SETTLEMENT_VECTORS])
def test_settlement_vectors(vector, raw, hands, surrender, expected):
    state, events = deal(raw, hands, surrender=surrender)
    assert net_units(state) == expected
    v = view(state)
    assert {int(s): u for s, u in v["units"].items()} == expected
    assert sum(expected.values()) == 0
    # the same events replay to the same result
    again = replay(state.config, state.stacks, events, button=state.button)
    assert view(again) == v
    # and the showdown tool agrees with the engine on rows, fouls and units
    doc = showdown_doc(hands, config_to_dict(state.config))
    for s in surrender:
        doc["hands"][str(s)]["surrender"] = True
    out = run_showdown(doc)
    assert out["fouled"] == v["fouled"]
    assert [(p["seats"], p["rows"], p["units"]) for p in out["pairs"]] == [
        (p["seats"], p["rows"], p["units"]) for p in v["pairs"]]
    assert {int(s): info["units"] for s, info in out["seats"].items()} == expected


def test_c15_row_results_per_pair():
    state, _ = deal(NO_ROYALTIES, c15())
    rows = {tuple(p["seats"]): p["rows"] for p in view(state)["pairs"]}

    def as_wlt(pair):
        a = pair[0]
        return "".join("W" if rows[pair][r] == a else "T" if rows[pair][r] == "tie" else "L"
                       for r in ("front", "middle", "back"))

    assert {p: as_wlt(p) for p in rows} == {
        (1, 2): "WWW", (1, 3): "LWW", (1, 4): "WWW", (2, 3): "LLW", (2, 4): "TWW", (3, 4): "WWW"}


def test_c17_per_pair_stakes_money():
    state, _ = deal({**NO_ROYALTIES, "unit_value": "10.00", "pair_stakes": {"1-2": "100.00"}}, c15())
    result = ENGINE.settlement(state)
    before_fee = {s: result.awards[s] - result.contributions[s] for s in state.seats}
    assert before_fee == {1: 46000, 2: -39000, 3: 4000, 4: -11000}
    result.check_balanced()
    transfer = {(t.payer, t.payee): (t.units, t.amount) for t in result.transfers}
    assert transfer[(2, 1)] == (4, 40000)
    assert transfer[(4, 2)] == (3, 3000)


@pytest.mark.parametrize(
    ("raw", "fees", "after_fee"),
    [
        ({}, {1: 2300, 2: 0, 3: 200, 4: 0}, {1: 43700, 2: -39000, 3: 3800, 4: -11000}),
        ({"fee_cap_per_deal": "20.00"}, {1: 2000, 2: 0, 3: 200, 4: 0}, {1: 44000, 2: -39000, 3: 3800, 4: -11000}),
    ],
)
def test_c28_commission_on_winners_with_and_without_cap(raw, fees, after_fee):
    state, _ = deal({**NO_ROYALTIES, "unit_value": "10.00", "pair_stakes": {"1-2": "100.00"}, **raw}, c15())
    result = ENGINE.settlement(state)
    assert dict(result.fees) == fees
    assert result.net == after_fee
    assert sum(result.net.values()) + sum(result.fees.values()) == 0


def test_c29_commission_rounds_down_to_the_cent():
    state, _ = deal({**NO_ROYALTIES, "unit_value": "1.15"}, c15())
    result = ENGINE.settlement(state)
    assert {s: result.awards[s] - result.contributions[s] for s in state.seats} == {1: 1150, 2: -345, 3: 460,
                                                                                    4: -1265}
    assert dict(result.fees) == {1: 57, 2: 0, 3: 23, 4: 0}
    assert capsa.FEE_ROUNDING == "ROUND_DOWN"


def test_c30_per_seat_fee():
    state, _ = deal({**NO_ROYALTIES, "fee_mode": "per_seat", "fee_per_seat": "0.50"}, c15())
    result = ENGINE.settlement(state)
    assert result.net == {1: 950, 2: -350, 3: 350, 4: -1150}
    assert sum(result.fees.values()) == 200


def test_c31_time_fee_is_not_charged_per_deal():
    state, _ = deal({**NO_ROYALTIES, "fee_mode": "time", "fee_time_amount": "5.00"}, c15())
    result = ENGINE.settlement(state)
    assert result.net == {1: 1000, 2: -300, 3: 400, 4: -1100}
    assert sum(result.fees.values()) == 0


# --------------------------------------------------------------------------------------------------
# royalties (C-10, C-11, modes)
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("vector", "front", "middle", "back", "expected"),
    [
        ("C-10", "2♣5♦7♠", "9♠9♥9♦4♣4♦", "J♠J♥J♦J♣3♠", {"middle": 2, "back": 4}),
        ("C-11", "5♣5♦5♠", "A♠A♥A♦K♣K♦", "9♥8♥7♥6♥5♥", {"front": 3, "middle": 2, "back": 5}),
        ("royal flush back", "2♣5♦7♠", "9♠9♥9♦4♣4♦", "A♠K♠Q♠J♠T♠", {"middle": 2, "back": 7}),
    ],
)
def test_royalties_table_a71(vector, front, middle, back, expected):
    config = build_config({"unit_value": "1.00"})
    keys = {"front": evaluate_three(parse_cards(front)), "middle": evaluate_five(parse_cards(middle)),
            "back": evaluate_five(parse_cards(back))}
    assert row_royalties(config, keys) == expected


def test_row_winner_only_pays_only_the_higher_quads():
    sevens = ("2♣3♦5♠", "9♠9♥9♦4♣4♦", "7♠7♥7♦7♣3♠")
    sixes = ("2♦3♣5♣", "T♠T♥T♦8♣8♦", "6♠6♥6♦6♣3♥")
    state, _ = deal({}, {1: sevens, 2: sixes})
    pair = view(state)["pairs"][0]
    assert pair["royalties"] == {"1": 4, "2": 2}  # seat 2 wins the middle: full house 2; seat 1 the back: quads 4
    independent, _ = deal({"royalty_mode": "independent"}, {1: sevens, 2: sixes})
    assert view(independent)["pairs"][0]["royalties"] == {"1": 6, "2": 6}


def test_one_royalty_per_hand_collects_only_the_highest():
    state, _ = deal({"one_royalty_per_hand": True}, c15(1, 2))
    assert view(state)["pairs"][0]["royalties"]["1"] == 4
    assert net_units(state)[1] == 4 + 4


def test_unannounced_royalty_is_not_paid_when_declaration_is_required():
    raw = {"royalties_require_declaration": True}
    silent, _ = deal(raw, c15(1, 2))
    assert net_units(silent)[1] == 4
    config = build_config({"unit_value": "1.00", **raw})
    state = new_hand(config, {1: BIG_STACK, 2: BIG_STACK}, button=2)
    for s in (1, 2):
        state = apply(state, {"type": "deal", "seat": s, "cards": canon(" ".join(C15[s]))})
    for s in (1, 2):
        state = apply(state, {"type": "set", "seat": s, "front": canon(C15[s][0]), "middle": canon(C15[s][1]),
                              "back": canon(C15[s][2])})
    state = apply(state, {"type": "declare_royalty", "seat": 1, "row": "back"})
    with pytest.raises(IllegalAction, match="earns none"):
        apply(state, {"type": "declare_royalty", "seat": 1, "row": "front"})
    for s in (1, 2):
        state = apply(state, {"type": "play", "seat": s})
    state = apply(state, {"type": "reveal"})
    assert net_units(state)[1] == 4 + 4


def test_foul_pays_opponent_royalties_can_be_switched_off():
    hands = c15(1, 4, P4=C19_P4_FOULED)
    on, _ = deal({}, hands)
    off, _ = deal({"foul_pays_opponent_royalties": False}, hands)
    assert net_units(on)[1] == 4 + 6
    assert net_units(off)[1] == 4


# --------------------------------------------------------------------------------------------------
# naturals (C-25, C-26, optional declaration)
# --------------------------------------------------------------------------------------------------

C25_X = "Q♦5♦4♦ K♣J♣8♣6♣2♣ A♥Q♥9♥7♥3♥"
C25_Y = "Q♣5♣3♣ K♦J♦9♦6♦3♦ A♠Q♠9♠7♠3♠"


@pytest.mark.parametrize(("mode", "expected"), [("winner_value", {1: -3, 2: 3}), ("difference", {1: 0, 2: 0})])
def test_c25_higher_three_flushes_by_middle(mode, expected):
    state, _ = deal({"natural_vs_natural": mode}, {1: C25_X, 2: C25_Y})
    assert net_units(state) == expected
    assert view(state)["seats"]["2"]["natural"] == "three_flushes"


@pytest.mark.parametrize(
    ("other", "expected"),
    [("A♦A♣K♦K♣Q♦Q♣J♦J♣T♦T♣8♦8♣3♦", {1: 3, 2: -3}), ("A♦A♣K♦K♣Q♦Q♣J♦J♣T♦T♣9♦9♣3♦", {1: 0, 2: 0})],
)
def test_c26_six_pairs_against_six_pairs(other, expected):
    state, _ = deal({}, {1: C23B_SIX_PAIRS, 2: other})
    assert net_units(state) == expected


def test_natural_holder_is_paid_by_every_other_status_and_does_not_set():
    hands = {
        1: C23B_SIX_PAIRS,
        2: ("A♦K♦2♥", "8♠8♥7♠7♥3♦", "6♠6♥6♦5♠5♥"),  # valid
        3: ("Q♦Q♣4♠", "J♦J♣5♦4♥3♥", "T♦T♣9♦9♣4♦"),  # fouled: QQ front beats JJ middle
        4: ("A♣K♣2♦", "8♦8♣7♦7♣3♠", "6♣5♣4♣3♣2♣"),  # surrenders
    }
    state, _ = deal({**NO_ROYALTIES}, hands, surrender=(4,), button=4)
    assert net_units(state) == {1: 9, 2: -3 + 4 + 2, 3: -3 - 4, 4: -3 - 2}
    assert view(state)["fouled"] == [3]
    with pytest.raises(IllegalAction, match="holds a natural"):
        s0 = new_hand(build_config({"unit_value": "1.00"}), {1: 1, 2: 1}, button=2)
        s0 = apply(s0, {"type": "deal", "seat": 1, "cards": canon(C23B_SIX_PAIRS)})
        s0 = apply(s0, {"type": "deal", "seat": 2, "cards": canon(" ".join(C15[3]))})
        apply(s0, {"type": "set", "seat": 1, "front": "As Ah Ks", "middle": "Kh Qs Qh Js Jh", "back": "Ts Th 9s 9h 2s"})


def test_scoop_plus_fixed_natural_payout():
    state, _ = deal({"natural_payout": "scoop_plus_fixed"}, {1: C23B_SIX_PAIRS, 2: C15[3]})
    assert net_units(state) == {1: 4 + 3, 2: -7}


def test_optional_natural_must_be_declared_and_must_exist():
    raw = {"natural_declaration": "optional"}
    config = build_config({"unit_value": "1.00", **raw})
    state = new_hand(config, {1: BIG_STACK, 2: BIG_STACK}, button=2)
    state = apply(state, {"type": "deal", "seat": 1, "cards": canon(C23B_SIX_PAIRS)})
    state = apply(state, {"type": "deal", "seat": 2, "cards": canon(" ".join(C15[3]))})
    assert view(state)["expect"] == "set"
    with pytest.raises(IllegalAction, match="make none"):
        apply(state, {"type": "declare_natural", "seat": 2})
    with pytest.raises(IllegalAction, match="do not make it"):
        apply(state, {"type": "declare_natural", "seat": 1, "natural": "dragon"})
    state, _ = deal(raw, {1: C23B_SIX_PAIRS, 2: C15[3]}, declare=(1,))
    assert net_units(state) == {1: 3, 2: -3}


def test_auto_natural_cannot_be_declared_by_hand():
    config = build_config({"unit_value": "1.00"})
    state = new_hand(config, {1: 0, 2: 0}, button=2)
    with pytest.raises(IllegalAction, match="automatically"):
        apply(state, {"type": "declare_natural", "seat": 1})


# --------------------------------------------------------------------------------------------------
# flow, turn order and errors
# --------------------------------------------------------------------------------------------------

def started(raw=None, seats=(1, 2, 3, 4), button=4, hands=None):
    config = build_config({"unit_value": "1.00", **NO_ROYALTIES, **(raw or {})})
    state = new_hand(config, {s: BIG_STACK for s in seats}, button=button)
    hands = hands or C15
    for s in seats:
        state = apply(state, {"type": "deal", "seat": s, "cards": canon(" ".join(hands[s]))})
    return state


def set_all(state, hands=None):
    hands = hands or C15
    for s in state.seats:
        h = hands[s]
        state = apply(state, {"type": "set", "seat": s, "front": canon(h[0]), "middle": canon(h[1]),
                              "back": canon(h[2])})
    return state


def test_view_tells_a_simulator_what_comes_next():
    config = build_config({"unit_value": "1.00"})
    state = new_hand(config, {1: 100, 3: 100, 4: 100}, button=3)
    v = view(state)
    assert (v["expect"], v["to_act"], v["awaiting"]) == ("deal", 4, [4, 1, 3])
    assert v["pots"] == [] and v["tax"] == 0 and v["complete"] is False
    state = started(button=2)
    assert view(state)["expect"] == "set"
    state = set_all(state)
    v = view(state)
    assert (v["expect"], v["to_act"]) == ("surrender", 3)  # clockwise from the dealer's left
    assert v["seats"]["1"]["royalties"] == {}  # no royalties at this table


def test_surrender_out_of_turn_is_refused_and_changes_nothing():
    state = set_all(started(button=2))
    before = state
    with pytest.raises(OutOfTurn, match="seat 3 declares first"):
        apply(state, {"type": "surrender", "seat": 1})
    assert state == before
    state = apply(state, {"type": "play", "seat": 3})
    assert view(state)["to_act"] == 4


def test_setting_must_use_exactly_the_seats_13_cards():
    state = started()
    with pytest.raises(IllegalAction, match=r"not in the seat's 13 cards .*A\.2"):
        apply(state, {"type": "set", "seat": 1, "front": "5c 5d 4c", "middle": "9s 9h 9d Qs Qh",
                      "back": "Ks Kh Kd Kc As"})
    with pytest.raises(DuplicateCard, match="two rows"):
        apply(state, {"type": "set", "seat": 1, "front": "5c 5d 4c", "middle": "9s 9h 9d Qs Qh",
                      "back": "Ks Kh Kd Kc 5c"})
    with pytest.raises(WrongCardCount, match="the front row needs 3 cards"):
        apply(state, {"type": "set", "seat": 1, "front": "5c 5d", "middle": "9s 9h 9d Qs Qh",
                      "back": "Ks Kh Kd Kc 2s"})
    with pytest.raises(InvalidCard):
        apply(state, {"type": "set", "seat": 1, "front": "5c 5d 1x", "middle": "9s 9h 9d Qs Qh",
                      "back": "Ks Kh Kd Kc 2s"})


def test_deal_errors():
    config = build_config({"unit_value": "1.00"})
    state = new_hand(config, {1: 0, 2: 0}, button=2)
    state = apply(state, {"type": "deal", "seat": 1, "cards": canon(" ".join(C15[1]))})
    with pytest.raises(DuplicateCard, match="already dealt to seat 1"):
        apply(state, {"type": "deal", "seat": 2, "cards": canon(" ".join(C15[1]))})
    with pytest.raises(WrongCardCount, match="12 cards"):
        apply(state, {"type": "deal", "seat": 2, "cards": canon(" ".join(C15[2]))[:-3]})
    with pytest.raises(IllegalAction, match="already been dealt"):
        apply(state, {"type": "deal", "seat": 1, "cards": canon(" ".join(C15[2]))})
    with pytest.raises(IllegalAction, match="not dealt in"):
        apply(state, {"type": "deal", "seat": 7, "cards": canon(" ".join(C15[2]))})
    with pytest.raises(UnknownEvent):
        apply(state, {"type": "bet", "seat": 2})
    with pytest.raises(IllegalAction, match=r"the cards of seat\(s\) .* are still to be logged"):
        apply(state, {"type": "reveal"})


def test_fouled_setting_is_legal_and_reported_as_a_loss():
    hands = c15(P4=C19_P4_FOULED)
    state = set_all(started(hands=hands), hands)
    for s in (1, 2, 3, 4):
        state = apply(state, {"type": "play", "seat": s})
    state = apply(state, {"type": "reveal"})
    v = view(state)
    assert v["fouled"] == [4]
    assert v["seats"]["4"]["foul_reason"].startswith("the front (Pair of Sixes")
    with pytest.raises(HandComplete):
        apply(state, {"type": "reveal"})


def test_misdeal_voids_the_deal_and_keeps_the_button():
    state = started()
    state = apply(state, {"type": "misdeal", "reason": "card exposed"})
    v = view(state)
    assert v["complete"] and v["misdeal"] == "card exposed" and v["button_moves"] is False
    assert sum(v["settlement"]["fees"].values()) == 0 and v["settlement"]["transfers"] == []


def test_misdeal_refused_after_play_declared_and_exposed_card_option():
    state = apply(set_all(started(button=2)), {"type": "play", "seat": 3})
    with pytest.raises(IllegalAction, match="no longer"):
        apply(state, {"type": "misdeal"})
    fresh = started({"misdeal_on_exposed_card": False})
    with pytest.raises(IllegalAction, match="stays with its player"):
        apply(fresh, {"type": "misdeal", "reason": "exposed_card"})


def test_timeout_fouls_an_unset_hand():
    raw = {"setting_time_limit_s": 60}
    state = started(raw, seats=(1, 2, 3))
    state = apply(state, {"type": "timeout", "seat": 3})
    for s in (1, 2):
        h = C15[s]
        state = apply(state, {"type": "set", "seat": s, "front": canon(h[0]), "middle": canon(h[1]),
                              "back": canon(h[2])})
    assert view(state)["expect"] == "surrender"
    for s in (1, 2):
        state = apply(state, {"type": "play", "seat": s})
    state = apply(state, {"type": "reveal"})
    assert net_units(state) == {1: 4 + 4, 2: -4 + 4, 3: -8}
    no_timer = started(seats=(1, 2, 3))
    with pytest.raises(IllegalAction, match="no setting timer"):
        apply(no_timer, {"type": "timeout", "seat": 3})


def test_require_cover_refuses_a_short_seat():
    config = build_config({"unit_value": "1.00", "max_loss_policy": "require_cover"})
    with pytest.raises(IllegalAction, match="seat 2 .* cover of 20.00"):
        new_hand(config, {1: 2000, 2: 1999, 3: 2000}, button=1)
    assert new_hand(config, {1: 2000, 2: 2000, 3: 2000}, button=1).phase == "deal"


def test_table_stakes_a_short_seat_loses_exactly_its_stack_pro_rata():
    stacks = {1: BIG_STACK, 2: BIG_STACK, 3: BIG_STACK, 4: 5000}
    state, _ = deal({**NO_ROYALTIES, "unit_value": "10.00"}, c15(), stacks=stacks, button=4)
    result = ENGINE.settlement(state)
    # P4 owes P1 40.00, P2 30.00, P3 40.00 = 110.00 but holds 50.00: the 60.00 shortfall comes back
    # 60*40/110 = 21.81, 60*30/110 = 16.36, 21.81 (rounded down) + 2 leftover cents to seats 1 and 2.
    paid = {(t.payer, t.payee): t.amount for t in result.transfers}
    assert paid[(4, 1)] == 4000 - 2182
    assert paid[(4, 2)] == 3000 - 1637
    assert paid[(4, 3)] == 4000 - 2181
    assert result.contributions[4] - result.awards[4] == 5000
    result.check_balanced()


def test_table_stakes_repeats_until_nobody_is_short():
    paid = {(1, 2): 1000, (2, 3): 1500}
    out = apply_table_stakes(paid, {1: 0, 2: 100, 3: 0}, button=3)
    nets = {s: sum(v for (p, q), v in out.items() if q == s) - sum(v for (p, q), v in out.items() if p == s)
            for s in (1, 2, 3)}
    assert nets[1] >= 0 and nets[2] >= -100 and sum(nets.values()) == 0


def test_next_button_moves_clockwise_skipping_empty_seats():
    assert ENGINE.next_button([1, 3, 6], 3) == 6
    assert ENGINE.next_button([1, 3, 6], 6) == 1


# --------------------------------------------------------------------------------------------------
# config (A.10, A.12)
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["western_2_4", "western_1_6", "capsa_susun_id", "pusoy_ph"])
def test_presets_build_and_round_trip(preset):
    config = build_config({"preset": preset, "unit_value": "2.50", "pair_stakes": {"2-1": "100.00"}})
    assert isinstance(config, CapsaConfig)
    assert build_config(config_to_dict(config)) == config
    assert config.stake(1, 2) == 10000 and config.stake(2, 3) == 250


def test_preset_values():
    assert build_config({"preset": "western_1_6", "unit_value": "1"}).effective_surrender_penalty == 3
    western = build_config({"unit_value": "1"})
    assert (western.method, western.effective_surrender_penalty, western.scoop_value) == ("2-4", 2, 4)
    cid = build_config({"preset": "capsa_susun_id", "unit_value": "1"})
    assert (cid.method, cid.scoop_value, cid.suit_order, cid.effective_surrender_penalty) == ("1-1-1", 6, "SHCD", 3)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({}, "unit_value"),
        ({"unit_value": "1", "method": "3-5"}, "method"),
        ({"unit_value": "1", "colour": "red"}, "colour"),
        ({"unit_value": "1", "method": "1-1-1"}, "surrender_penalty"),
        ({"unit_value": "1", "preset": "malaya_dobree"}, "preset"),
        ({"unit_value": "1", "flush_compare": "suit_first"}, "flush_compare"),
        ({"unit_value": "1", "suit_order": "SHC"}, "suit_order"),
        ({"unit_value": "1", "pair_stakes": {"1-1": "5.00"}}, "pair_stakes"),
        ({"unit_value": "1", "pair_stakes": {"A-B": "5.00"}}, "pair_stakes"),
        ({"unit_value": "1.001"}, "unit_value"),
        ({"unit_value": "1", "fee_mode": "per_seat"}, "fee_per_seat"),
        ({"unit_value": "1", "fee_rate": 0.05}, "fee_rate"),
        ({"unit_value": "1", "royalty_table": {"front": {"flush": 3}}}, "royalty_table"),
        ({"unit_value": "1", "natural_precedence": ["dragon", "dragon"]}, "natural_precedence"),
    ],
)
def test_config_errors_name_the_field(raw, field):
    with pytest.raises(ConfigError) as err:
        build_config(raw)
    assert err.value.field == field


def test_wrong_number_of_players_is_refused():
    config = build_config({"unit_value": "1"})
    with pytest.raises(ConfigError, match="2 to 4"):
        new_hand(config, {1: 0}, button=1)
    with pytest.raises(ConfigError, match="2 to 4"):
        new_hand(config, {s: 0 for s in range(1, 6)}, button=1)


# --------------------------------------------------------------------------------------------------
# showdown tool
# --------------------------------------------------------------------------------------------------

def showdown_doc(hands, config=None):
    return {"game": "capsa_susun", "config": config or {},
            "hands": {str(s): ({"cards": h} if isinstance(h, str) else
                               {"front": h[0], "middle": h[1], "back": h[2]}) for s, h in hands.items()}}


def test_showdown_c15_ranks_by_net_units_and_reports_money_where_stakes_are_given():
    out = showdown(showdown_doc(c15(), {**NO_ROYALTIES, "unit_value": "10.00", "pair_stakes": {"1-2": "100.00"}}))
    assert out["ranking"] == [[1], [3], [2], [4]]
    assert {s: v["amounts"] for s, v in out["seats"].items()} == {"1": "460.00", "2": "-390.00", "3": "40.00",
                                                                  "4": "-110.00"}
    assert out["seats"]["1"]["category"] == {"front": "pair", "middle": "full_house", "back": "four_of_a_kind"}
    no_money = showdown(showdown_doc(c15(), NO_ROYALTIES))
    assert "amounts" not in no_money["seats"]["1"]
    assert {s: v["units"] for s, v in no_money["seats"].items()} == {"1": 10, "2": -3, "3": 4, "4": -11}


def test_showdown_flags_fouls_and_naturals():
    out = showdown(showdown_doc(c15(P4=C19_P4_FOULED), {"preset": "western_1_6", **NO_ROYALTIES}))
    assert out["fouled"] == [4] and out["seats"]["4"]["fouled"] is True
    out = showdown(showdown_doc({1: C23A_DRAGON, 2: C23B_SIX_PAIRS, 3: C24_Z_SET}, NO_ROYALTIES))
    assert out["seats"]["1"]["natural"] == "dragon"
    assert {s: v["units"] for s, v in out["seats"].items()} == {"1": 26, "2": -10, "3": -16}


@pytest.mark.parametrize(
    ("hands", "error"),
    [
        ({1: C15[1], 2: C15[1]}, DuplicateCard),
        ({1: C15[1], 2: ("A♠J♦", "T♠T♥8♣8♦2♥", "A♥J♥7♥6♥4♥3♥")}, WrongCardCount),
        ({1: C15[1], 2: ("A♠J♦3♥", "T♠T♥8♣8♦2♥", "A♥J♥7♥6♥Zz")}, InvalidCard),
        ({1: C15[1], 2: " ".join(C15[2])}, IllegalAction),
        ({1: C15[1]}, WrongCardCount),
        ({1: C15[1], "x": C15[2]}, MalformedShowdown),
    ],
)
def test_showdown_errors(hands, error):
    with pytest.raises(error):
        showdown(showdown_doc(hands))


# --------------------------------------------------------------------------------------------------
# property tests over random deals
# --------------------------------------------------------------------------------------------------

CONFIG_VARIANTS = [
    {},
    {"method": "1-6"},
    {"method": "1-4", "royalty_mode": "independent", "suit_order": "SHCD"},
    {"preset": "capsa_susun_id", "home_run_multiplier": 2},
    {"method": "2-4", "overall_rule": "higher_total_incl_royalties", "one_royalty_per_hand": True,
     "wheel_rank": "second_highest"},
    {"preset": "pusoy_ph", "allow_equal_rows": False},
    {"natural_declaration": "optional", "royalties_require_declaration": True, "setting_time_limit_s": 30},
    {"method": "majority", "surrender_penalty": 1, "natural_vs_natural": "difference",
     "natural_payout": "scoop_plus_fixed"},
]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), variant=st.integers(0, len(CONFIG_VARIANTS) - 1),
       stakes=st.booleans())
def test_random_deals_sum_to_zero_and_each_seat_is_the_sum_of_its_pairs(seed, players, variant, stakes):
    rng = random.Random(seed)
    seats = sorted(rng.sample(range(1, 9), players))
    raw = {"unit_value": "1.00", **CONFIG_VARIANTS[variant]}
    if stakes:
        raw["pair_stakes"] = {f"{seats[0]}-{seats[1]}": "25.00"}
    config = build_config(raw)
    button = rng.choice(seats)
    table = {s: BIG_STACK for s in seats}
    events = random_deal(config, table, button, rng, foul_rate=0.4, surrender_rate=0.15)
    state = replay(config, table, events, button=button)
    v = view(state)
    assert v["complete"]
    assert json.loads(json.dumps(v)) == json.loads(json.dumps(v, sort_keys=True))  # JSON-able
    result = ENGINE.settlement(state)
    result.check_balanced()
    before_fee = {s: result.awards[s] - result.contributions[s] for s in seats}
    assert sum(before_fee.values()) == 0
    units = {int(s): u for s, u in v["units"].items()}
    for s in seats:
        own = [p["units"][str(s)] for p in v["pairs"] if s in p["seats"]]
        assert units[s] == sum(own)
        assert before_fee[s] == sum(p["units"][str(s)] * config.stake(*p["seats"]) for p in v["pairs"]
                                    if s in p["seats"])
    for s in v["fouled"]:
        assert all(p["units"][str(s)] <= 0 for p in v["pairs"] if s in p["seats"])
    # same events, same state
    assert view(replay(config, table, events, button=button)) == v


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), variant=st.integers(0, 5))
def test_showdown_agrees_with_the_engine_on_rows_and_fouls(seed, players, variant):
    rng = random.Random(seed)
    seats = list(range(1, players + 1))
    config = build_config({"unit_value": "1.00", **CONFIG_VARIANTS[variant]})
    table = {s: BIG_STACK for s in seats}
    events = random_deal(config, table, seats[-1], rng, foul_rate=0.5, surrender_rate=0.2)
    state = replay(config, table, events, button=seats[-1])
    v = view(state)
    hands = {}
    for s in seats:
        if s in state.naturals:
            hands[str(s)] = {"cards": format_cards([CARDS[x] for x in state.hands[s]])}
        elif s in state.settings:
            rows = state.settings[s]
            hands[str(s)] = {r: format_cards([CARDS[x] for x in rows[r]]) for r in ("front", "middle", "back")}
            hands[str(s)]["surrender"] = state.decisions.get(s) == "surrender"
        else:  # the only seat without a natural does not set: nothing for the showdown to compare
            assert len(seats) - len(state.naturals) == 1
            return
    out = showdown({"game": "capsa_susun", "hands": hands, "config": config_to_dict(config)})
    json.dumps(out)
    assert out["fouled"] == v["fouled"]
    assert [(p["seats"], p["rows"], p["units"]) for p in out["pairs"]] == [
        (p["seats"], p["rows"], p["units"]) for p in v["pairs"]]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_table_stakes_never_take_more_than_a_stack(seed, players):
    rng = random.Random(seed)
    seats = list(range(1, players + 1))
    config = build_config({"unit_value": "5.00", "method": "1-6"})
    table = {s: rng.choice([0, 700, 2500, 10_000, BIG_STACK]) for s in seats}
    events = random_deal(config, table, 1, rng, foul_rate=0.5)
    result = ENGINE.settlement(replay(config, table, events, button=1))
    result.check_balanced()
    for s in seats:
        assert result.contributions[s] - result.awards[s] <= table[s]


def test_random_deal_can_log_a_misdeal_that_settles_nothing():
    config = build_config({"unit_value": "1.00", "naturals_enabled": False})
    events = random_deal(config, {1: 0, 2: 0}, 2, random.Random(5), misdeal_rate=1.0)
    state = replay(config, {1: 0, 2: 0}, events, button=2)
    assert events[-1]["type"] == "misdeal" and state.misdeal
    assert ENGINE.settlement(state).net == {1: 0, 2: 0}


def test_state_is_unchanged_by_a_refused_event():
    state = started()
    snapshot = replace(state)
    for bad in ({"type": "set", "seat": 1, "front": "As Ah Ad", "middle": "2c 3c 4c 5c 6c", "back": "7c 8c 9c Tc Jc"},
                {"type": "play", "seat": 1}, {"type": "nonsense"}, "not an event"):
        with pytest.raises((IllegalAction, UnknownEvent, OutOfTurn)):
            apply(state, bad)
    assert state == snapshot
    assert ENGINE.can_apply(state, {"type": "set", "seat": 1, "front": canon(C15[1][0]),
                                    "middle": canon(C15[1][1]), "back": canon(C15[1][2])})


# --------------------------------------------------------------------------------------------------
# hostile input (review): every bad event is a RuleViolation and changes nothing
# --------------------------------------------------------------------------------------------------

def _fresh():
    return new_hand(build_config({"unit_value": "1.00"}), {1: BIG_STACK, 2: BIG_STACK}, button=2)


SET1 = {"type": "set", "seat": 1, "front": "5c 5d 4c", "middle": "9s 9h 9d Qs Qh", "back": "Ks Kh Kd Kc 2s"}
BAD_EVENTS = [
    ("seat in superscript digits", _fresh, {"type": "deal", "seat": "²", "cards": canon(" ".join(C15[1]))},
     UnknownEvent),
    ("cards as a number", _fresh, {"type": "deal", "seat": 1, "cards": 5}, InvalidCard),
    ("cards as true", _fresh, {"type": "deal", "seat": 1, "cards": True}, InvalidCard),
    ("cards as a float", _fresh, {"type": "deal", "seat": 1, "cards": 1.5}, InvalidCard),
    ("cards as an object", _fresh, {"type": "deal", "seat": 1, "cards": {"As": 1}}, InvalidCard),
    ("unknown field on a deal", _fresh, {"type": "deal", "seat": 1, "cards": canon(" ".join(C15[1])), "face": "up"},
     UnknownEvent),
    ("a seat on a misdeal", _fresh, {"type": "misdeal", "seat": 1}, UnknownEvent),
    ("row as a number", lambda: started(seats=(1, 2)), {**SET1, "front": 5}, InvalidCard),
    ("unknown field on a setting", lambda: started(seats=(1, 2)), {**SET1, "fornt": "5c 5d 4c"}, UnknownEvent),
    ("extra field on the reveal", lambda: set_all(started(seats=(1, 2), raw={"surrender_enabled": False})),
     {"type": "reveal", "seat": 1}, UnknownEvent),
]


@pytest.mark.parametrize(("case", "make", "event", "error"), BAD_EVENTS, ids=[e[0] for e in BAD_EVENTS])
def test_bad_event_is_a_rule_violation_and_changes_nothing(case, make, event, error):
    state = make()
    before = json.dumps(view(state), sort_keys=True)
    with pytest.raises(error) as err:
        apply(state, event)
    assert err.value.message
    assert not capsa.can_apply(state, event)
    assert json.dumps(view(state), sort_keys=True) == before


def test_note_and_underscore_fields_are_allowed_on_any_event():
    state = apply(_fresh(), {"type": "deal", "seat": 1, "cards": canon(" ".join(C15[1])), "note": "x", "_by": 7})
    assert view(state)["seats"]["1"]["dealt"] is True


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"natural_precedence": 5}, "natural_precedence"),
        ({"scoop_multiplier": "²"}, "scoop_multiplier"),
        ({"setting_time_limit_s": "1" * 5000}, "setting_time_limit_s"),
        ({"pair_stakes": {"²-1": "5.00"}}, "pair_stakes"),
        ({"natural_values": {"dragon": 10**30}}, "natural_values"),
        ({"royalty_table": {"back": {"four_of_a_kind": 10**30}}}, "royalty_table"),
        ({"cover_units": 10**30}, "cover_units"),
    ],
)
def test_hostile_config_values_are_config_errors(raw, field):
    with pytest.raises(ConfigError) as err:
        build_config({"unit_value": "1", **raw})
    assert err.value.field == field


def test_config_that_is_not_an_object_is_a_config_error():
    with pytest.raises(ConfigError) as err:
        build_config(5)
    assert err.value.field == "config"


def test_money_config_error_names_the_field_once():
    with pytest.raises(ConfigError) as err:
        build_config({"unit_value": 1.5})
    assert err.value.message.count("unit_value") == 1


@pytest.mark.parametrize(
    ("hand2", "error", "words"),
    [
        ({"front": 5, "middle": "T♠T♥8♣8♦2♥", "back": "A♥J♥7♥6♥4♥"}, InvalidCard, "seat 2"),
        ({"front": "A♠J♦3♥", "middle": "T♠T♥8♣8♦2♥", "back": "A♥J♥7♥6♥4♥", "surrender": "no"}, MalformedShowdown,
         "surrender"),
        ({"front": "A♠J♦3♥", "middle": "T♠T♥8♣8♦2♥", "back": "A♥J♥7♥6♥4♥", "colour": "red"}, MalformedShowdown,
         "colour"),
    ],
)
def test_showdown_refuses_malformed_hands_with_a_message(hand2, error, words):
    doc = showdown_doc(c15(1))
    doc["hands"]["2"] = hand2
    with pytest.raises(error) as err:
        run_showdown(doc)
    assert words in err.value.message


def test_showdown_config_that_is_not_an_object_is_refused():
    doc = {**showdown_doc(c15(1, 2)), "config": 5}
    with pytest.raises(ConfigError):
        run_showdown(doc)


# --- cards dealt face down and unseen (issue 14) ---------------------------------------------------------

def _optional_naturals():
    from rules.engines import capsa as engine

    return engine.build_config({"preset": "western_2_4", "unit_value": "1.00", "natural_declaration": "optional"})


def test_an_unseen_deal_is_logged_as_unknown_cards_and_the_setting_names_them():
    from rules.engines import capsa as engine
    from rules.games.capsa_susun.view import hand_view

    config = _optional_naturals()
    rng = __import__("random").Random(4)
    events = engine.random_deal(config, {1: 10_000, 2: 10_000}, 1, rng)
    deal_1 = next(e for e in events if e["type"] == "deal" and e["seat"] == 1)
    unseen = [{**e, "cards": " ".join(["??"] * 13)} if e is deal_1 else e for e in events]
    state = engine.new_hand(config, {1: 10_000, 2: 10_000}, button=1)
    for event in unseen[:2]:
        state = engine.apply(state, event)
    assert hand_view(state).seats[0].down_cards == ("??",) * 13
    final = engine.replay(config, {1: 10_000, 2: 10_000}, unseen, button=1)
    known = engine.replay(config, {1: 10_000, 2: 10_000}, events, button=1)
    assert engine.settlement(final) == engine.settlement(known)


def test_an_unseen_hand_cannot_show_a_card_seen_with_another_seat():
    from rules.engines import capsa as engine

    config = _optional_naturals()
    events = engine.random_deal(config, {1: 10_000, 2: 10_000}, 1, __import__("random").Random(5))
    deals = [e for e in events if e["type"] == "deal"]
    state = engine.new_hand(config, {1: 10_000, 2: 10_000}, button=1)
    for e in deals:
        state = engine.apply(state, e if e["seat"] != 1 else {**e, "cards": "?? " * 13})
    other = next(e for e in events if e["type"] == "set" and e["seat"] == 2)
    with pytest.raises(DuplicateCard) as err:
        engine.apply(state, {"type": "set", "seat": 1, "front": other["front"], "middle": other["middle"],
                             "back": other["back"]})
    assert "seat 2" in str(err.value) and err.value.rule == "A.2"


def test_an_unseen_deal_is_refused_where_naturals_are_read_at_the_deal():
    from rules.engines import capsa as engine

    config = engine.build_config({"preset": "western_2_4", "unit_value": "1.00", "natural_declaration": "auto"})
    state = engine.new_hand(config, {1: 10_000, 2: 10_000}, button=1)
    with pytest.raises(IllegalAction) as err:
        engine.apply(state, {"type": "deal", "seat": 1, "cards": "?? " * 13})
    assert "natural_declaration=auto" in str(err.value)
