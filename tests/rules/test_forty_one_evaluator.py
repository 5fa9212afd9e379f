"""Forty-one hand evaluation (spec B.2, B.3): vectors F-01 to F-20, the exhaustive F-25 counts."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from rules.core.seats import clockwise_from
from rules.engines.cards import PIQUET_32, parse_cards, parse_german_card
from rules.engines.errors import ConfigError, DuplicateCard, InvalidCard, WrongCardCount
from rules.engines.evaluators.forty_one import (
    card_value,
    evaluate,
    hand_key,
    priority,
    rank_seats,
    validate_category_order,
)

TRADITIONAL = ("quads", "trips", "points")  # B.7: a four-card flush is just a high suit sum


def ev(text: str, **options):
    return evaluate(parse_cards(text), **options)


# --- single hands: F-01 to F-07, F-11 ----------------------------------------------------------------

SINGLE_HANDS = [
    # id, hand, category, value, suit_only value
    ("F-01", "A♥ 9♥ 9♠ 8♣", "points", 20, 20),
    ("F-02", "9♥ 9♠ 8♥ 8♠", "points", 18, 17),
    ("F-03", "A♥ A♠ 7♣ 8♦", "points", 22, 11),
    ("F-04", "A♥ K♠ 9♣ 7♦", "points", 11, 11),
    ("F-05", "K♥ K♠ A♣ 9♣", "points", 20, 20),
    ("F-06", "A♥ K♥ Q♥ J♥", "flush4", 41, 41),
    ("F-07", "A♠ K♠ Q♠ T♠", "flush4", 41, 41),
    ("F-11", "A♦ K♦ Q♦ A♣", "flush3", 31, 31),
]


@pytest.mark.parametrize(("vector", "hand", "category", "value", "suit_only"), SINGLE_HANDS,
                         ids=[v[0] for v in SINGLE_HANDS])
def test_spec_hand_has_category_and_value(vector, hand, category, value, suit_only):
    result = ev(hand)
    assert (result.category, result.value) == (category, value)
    assert ev(hand, points_mode="suit_only").value == suit_only


def test_forty_one_is_flagged_for_the_bonus():
    assert ev("A♥ K♥ Q♥ J♥").is_41
    assert not ev("A♥ K♥ Q♥ 9♥").is_41
    assert ev("A♥ K♥ Q♥ J♥").description == "four of one suit, 41 (hearts)"


def test_three_of_one_suit_ignores_the_fourth_card_and_reads_no_pair():
    hand = ev("A♦ K♦ Q♦ A♣")
    assert sorted(str(c) for c in hand.cards) == ["Ad", "Kd", "Qd"]


def test_point_value_plays_the_group_with_the_higher_top_card_on_equal_sums():
    hand = ev("K♥ K♠ A♣ 9♣")  # F-05: kings 20 = clubs 20
    assert sorted(str(c) for c in hand.cards) == ["9c", "Ac"]


# --- comparisons: F-08 to F-13 ----------------------------------------------------------------------

BEATS = [
    ("F-08", "7♣ 8♣ 9♣ T♣", "A♥ A♠ A♣ K♦"),
    ("F-09", "K♥ K♠ K♣ 7♦", "Q♥ Q♠ Q♦ A♣"),
    ("F-10", "7♥ 7♠ 7♣ 8♦", "A♦ K♦ Q♦ A♣"),
    ("F-12", "A♠ A♥ A♦ A♣", "K♠ K♥ K♦ K♣"),
    ("B.3 rule 4", "7♠ 7♥ 7♦ 7♣", "A♥ K♥ Q♥ J♥"),
]


@pytest.mark.parametrize(("vector", "better", "worse"), BEATS, ids=[b[0] for b in BEATS])
def test_spec_hand_beats_the_other(vector, better, worse):
    assert ev(better).key > ev(worse).key
    assert hand_key(parse_cards(better)) > hand_key(parse_cards(worse))


def test_trips_compare_by_rank_not_by_sum():
    assert ev("K♥ K♠ K♣ 7♦").value == 6 and ev("Q♥ Q♠ Q♦ A♣").value == 5


def test_equal_four_of_one_suit_sums_are_equal_keys_f13():
    a, b = ev("K♠ Q♠ T♠ 8♠"), ev("A♣ T♣ 9♣ 8♣")
    assert a.value == b.value == 38
    assert a.key == b.key


def test_highest_card_option_breaks_equal_sums_by_cards_f13():
    a = ev("K♠ Q♠ T♠ 8♠", flush_tiebreak="highest_card_then_position")
    b = ev("A♣ T♣ 9♣ 8♣", flush_tiebreak="highest_card_then_position")
    assert b.key > a.key  # the ace is the highest counted card


def test_traditional_order_puts_trips_above_a_four_card_flush():
    flush, trips = ev("7♣ 8♣ 9♣ T♣", category_order=TRADITIONAL), ev("7♥ 7♠ 7♦ 8♦", category_order=TRADITIONAL)
    assert flush.category == "points" and flush.value == 34
    assert trips.key > flush.key


# --- seat order: F-14 to F-18 -----------------------------------------------------------------------


def test_priority_runs_clockwise_from_the_forehand_f14():
    assert clockwise_from([1, 2, 3, 4, 5], 4) == [4, 5, 1, 2, 3]
    assert [priority(s, range(1, 6), 4) for s in (4, 5, 1, 2, 3)] == [0, 1, 2, 3, 4]


def test_equal_three_of_one_suit_goes_to_the_seat_nearer_the_forehand_f15():
    hands = {2: ev("K♣ Q♣ J♣ A♦"), 5: ev("A♥ K♥ 9♥ 7♠"), 3: ev("9♠ 9♦ 8♠ 8♦")}
    assert hands[2].key == hands[5].key
    assert rank_seats(hands, forehand=4, table_seats=range(1, 6)) == [5, 2, 3]


F16 = [(1, 1), (2, 3), (3, 3), (4, 1), (5, 1)]


@pytest.mark.parametrize(("forehand", "winner"), F16)
def test_forty_one_against_forty_one_goes_by_position_f16(forehand, winner):
    hands = {1: ev("A♥ K♥ Q♥ J♥"), 3: ev("A♠ K♠ Q♠ T♠")}
    assert rank_seats(hands, forehand, table_seats=range(1, 6))[0] == winner


@pytest.mark.parametrize(("forehand", "winner"), [(1, 1), (2, 2)])
def test_equal_point_values_go_by_position_f17(forehand, winner):
    hands = {1: ev("K♥ K♠ 7♣ 8♦"), 2: ev("A♣ 9♣ T♦ 8♥")}
    assert hands[1].value == hands[2].value == 20
    assert rank_seats(hands, forehand, table_seats=range(1, 6))[0] == winner


def test_folded_forehand_still_anchors_the_tie_break_f18():
    hands = {5: ev("K♥ K♠ 7♣ 8♦"), 1: ev("A♣ 9♣ T♦ 8♥")}
    assert rank_seats(hands, forehand=4, table_seats=range(1, 6)) == [5, 1]


def test_double_german_herz_ass_koenig_ober_unter_is_41_f20():
    cards = [parse_german_card(n) for n in ("Herz-Ass", "Herz-König", "Herz-Ober", "Herz-Unter")]
    assert [card_value(c) for c in cards] == [11, 10, 10, 10]
    hand = evaluate(cards)
    assert (hand.category, hand.value, hand.is_41) == ("flush4", 41, True)


# --- errors ------------------------------------------------------------------------------------------


def test_evaluate_refuses_wrong_count_foreign_cards_and_duplicates():
    with pytest.raises(WrongCardCount):
        ev("A♥ K♥ Q♥")
    with pytest.raises(InvalidCard):
        evaluate(parse_cards("A♥ K♥ Q♥ 6♥"))
    with pytest.raises(DuplicateCard):
        evaluate(parse_cards("A♥ A♥ Q♥ J♥", allow_duplicates=True))


@pytest.mark.parametrize("order", [["quads", "points", "trips"], ["points", "points"], ["royal", "points"], "points"])
def test_bad_category_order_is_a_config_error(order):
    with pytest.raises(ConfigError):
        validate_category_order(order)


# --- F-25: exhaustive --------------------------------------------------------------------------------

ALL_HANDS = list(combinations(sorted(PIQUET_32), 4))


def test_all_35960_hands_give_the_spec_frequencies_f25():
    assert len(ALL_HANDS) == 35_960
    hands = [evaluate(h) for h in ALL_HANDS]
    assert Counter(h.category for h in hands) == {
        "quads": 8, "flush4": 280, "trips": 896, "flush3": 5_376, "points": 29_400}
    assert sum(h.is_41 for h in hands) == 16
    flush4 = Counter(h.value for h in hands if h.category == "flush4")
    assert [flush4[v] for v in range(34, 42)] == [16, 28, 40, 56, 56, 40, 28, 16]
    flush3 = Counter(h.value for h in hands if h.category == "flush3")
    assert [flush3[v] for v in range(24, 32)] == [96, 384, 480, 1056, 1056, 960, 768, 576]
    points = [h.value for h in hands if h.category == "points"]
    assert min(points) == 10 and max(points) == 22
    # the fast path agrees with the full evaluation on every hand
    assert all(hand_key(cards) == hand.key for cards, hand in zip(ALL_HANDS, hands))


@pytest.mark.parametrize("options", [
    {"points_mode": "suit_only"},
    {"category_order": TRADITIONAL},
    {"flush_tiebreak": "highest_card_then_position"},
])
def test_fast_key_agrees_with_evaluate_under_every_option(options):
    for cards in ALL_HANDS[::7]:
        assert hand_key(cards, **options) == evaluate(cards, **options).key


def test_suit_only_points_never_exceed_one_suit():
    for cards in ALL_HANDS[::11]:
        hand = evaluate(cards, points_mode="suit_only")
        if hand.category == "points":
            assert len({c.suit for c in hand.cards}) == 1


def test_ranking_all_hands_puts_four_aces_on_top():
    # Its speed is measured in bench/evaluators.py, not asserted here (no timed tests).
    ranked = sorted(ALL_HANDS, key=hand_key, reverse=True)
    assert hand_key(ranked[0]) == (4, 7)
