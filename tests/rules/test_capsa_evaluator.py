"""Capsa Susun row evaluation, setting validity and naturals (spec A.3, A.4, A.8; vectors C-01..C-12, C-23, C-25, C-26)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from phevaluator import evaluate_cards

from rules.engines.cards import parse_cards
from rules.engines.evaluators.capsa import (
    CATEGORY_NAMES,
    compare_keys,
    compare_rows,
    describe_key,
    evaluate_five,
    evaluate_three,
    hand_name,
    natural_key,
    naturals_made,
    row_key,
    setting_foul,
    three_flushes_split,
)


def c(text: str) -> list[int]:
    return [int(x) for x in parse_cards(text)]


# --------------------------------------------------------------------------------------------------
# 5-card and 3-card keys against counts and a peer library
# --------------------------------------------------------------------------------------------------

FIVE_CARD_COUNTS = {
    "straight_flush": 40, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108, "straight": 10200,
    "three_of_a_kind": 54912, "two_pair": 123552, "pair": 1098240, "high_card": 1302540,
}


def test_five_card_categories_match_the_standard_counts_over_all_2598960_hands_and_order_like_phevaluator():
    counts: Counter[int] = Counter()
    representative: dict[tuple, tuple[int, ...]] = {}
    ev = evaluate_five
    for hand in combinations(range(52), 5):
        key = ev(hand)
        counts[key[0]] += 1
        if key not in representative:
            representative[key] = hand
    assert {CATEGORY_NAMES[k]: v for k, v in counts.items()} == FIVE_CARD_COUNTS
    assert len(representative) == 7462  # the distinct 5-card poker hand classes
    # Ascending keys must be strictly stronger for phevaluator (lower rank number = stronger).
    phe = [evaluate_cards(*representative[k]) for k in sorted(representative)]
    assert all(a > b for a, b in zip(phe, phe[1:]))


def test_five_card_order_agrees_with_phevaluator_on_a_seeded_sample_of_200000_hands():
    rng = random.Random(20261129)
    deck = list(range(52))
    by_key: dict[tuple, set[int]] = {}
    for _ in range(200_000):
        hand = rng.sample(deck, 5)
        by_key.setdefault(evaluate_five(hand), set()).add(evaluate_cards(*hand))
    assert all(len(ranks) == 1 for ranks in by_key.values()), "one key, one phevaluator class"
    ordered = [next(iter(by_key[k])) for k in sorted(by_key)]
    assert all(a > b for a, b in zip(ordered, ordered[1:]))


def test_three_card_front_counts_over_all_22100_fronts_ignore_straights_and_flushes():
    counts = Counter(evaluate_three(h)[0] for h in combinations(range(52), 3))
    assert counts == {3: 52, 1: 3744, 0: 18304}


# --------------------------------------------------------------------------------------------------
# C-01 .. C-03: fronts; C-12: equal backs
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("vector", "first", "second", "expected"),
    [
        ("C-01 trips beat a pair", "2♠2♥2♦", "A♠A♥K♦", 1),
        ("C-02 front Q-K-A suited is high card, loses to 2-2", "Q♥K♥A♥", "2♣2♦3♠", -1),
        ("C-03 second card decides", "A♣K♦4♠", "A♥Q♠J♣", 1),
        ("C-12 equal flushes tie without a suit order", "A♠K♠Q♠J♠9♠", "A♥K♥Q♥J♥9♥", 0),
    ],
)
def test_row_comparison_vectors(vector, first, second, expected):
    assert compare_rows(c(first), c(second)) == expected, vector


def test_c02_suited_connected_front_is_named_high_card():
    key = evaluate_three(c("Q♥K♥A♥"))
    assert hand_name(key) == "high_card"
    assert describe_key(key) == "High card A-K-Q"


def test_c12_spade_flush_wins_with_suit_order_shcd():
    assert compare_rows(c("A♠K♠Q♠J♠9♠"), c("A♥K♥Q♥J♥9♥"), suit_order="SHCD") == 1
    assert compare_rows(c("A♥K♥Q♥J♥9♥"), c("A♠K♠Q♠J♠9♠"), suit_order="SHCD") == -1


def test_suit_order_uses_the_better_suit_inside_the_principal_group():
    # pair of kings, same kickers: K♠ beats K♥ under SHCD even though the other king suits differ
    assert compare_rows(c("K♠K♦5♣4♣3♣"), c("K♥K♣5♦4♦3♦"), suit_order="SHCD") == 1
    # SHDC (Pusoy): diamonds over clubs
    assert compare_rows(c("A♦7♣5♣"), c("A♣7♦5♦"), suit_order="SHDC") == 1
    assert compare_rows(c("A♦7♣5♣"), c("A♣7♦5♦"), suit_order="SHCD") == -1


def test_suit_order_never_breaks_a_front_against_middle_tie():
    assert compare_rows(c("9♠9♥8♦"), c("9♣9♦8♠3♥2♣"), suit_order="SHCD") == 0


def test_suit_first_flush_compare_puts_suit_before_ranks():
    low_spades, high_hearts = c("9♠7♠5♠4♠2♠"), c("A♥K♥Q♥J♥9♥")
    assert compare_rows(low_spades, high_hearts, suit_order="SHCD") == -1
    assert compare_rows(low_spades, high_hearts, suit_order="SHCD", flush_compare="suit_first") == 1


# --------------------------------------------------------------------------------------------------
# C-09: the wheel option
# --------------------------------------------------------------------------------------------------

WHEEL = "A♠2♦3♣4♥5♠"


@pytest.mark.parametrize(
    ("other", "low", "second_highest"),
    [("K♣Q♦J♥T♠9♣", -1, 1), ("T♣J♣Q♦K♥A♣", -1, -1), ("2♥3♥4♦5♦6♣", -1, 1)],
)
def test_c09_wheel_rank_low_and_second_highest(other, low, second_highest):
    assert compare_rows(c(WHEEL), c(other), wheel_rank="low") == low
    assert compare_rows(c(WHEEL), c(other), wheel_rank="second_highest") == second_highest


def test_wrap_around_is_not_a_straight():
    assert hand_name(row_key(c("K♠A♦2♣3♥4♠"))) == "high_card"


def test_royal_flush_is_named_separately():
    assert hand_name(row_key(c("A♠K♠Q♠J♠T♠"))) == "royal_flush"
    assert hand_name(row_key(c("A♠2♠3♠4♠5♠"), wheel_rank="second_highest"), wheel_rank="second_highest") == (
        "straight_flush")


# --------------------------------------------------------------------------------------------------
# C-04 .. C-08, C-10, C-11: setting validity
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("vector", "front", "middle", "back", "allow_equal", "fouled"),
    [
        ("C-04 front pair kicker Q beats middle pair kicker J", "K♠K♥Q♦", "K♣K♦J♠T♥9♣", "A♠A♥A♦4♣4♦", True, True),
        ("C-05 middle kicker 9 beats front kicker 5", "K♠K♥5♦", "K♣K♦9♠8♥2♣", "A♠A♥A♦4♣4♦", True, False),
        ("C-06 equal front and middle, equal allowed", "9♠9♥8♦", "9♣9♦8♠3♥2♣", "A♠A♥A♦4♣4♦", True, False),
        ("C-06 equal front and middle, strict", "9♠9♥8♦", "9♣9♦8♠3♥2♣", "A♠A♥A♦4♣4♦", False, True),
        ("C-07 A-K-Q front beats A-K-J-9-8 middle", "A♠K♥Q♦", "A♣K♦J♠9♥8♣", "2♠2♥2♦4♣4♦", True, True),
        ("C-08 flush middle beats straight back", "2♣3♦5♥", "A♠J♠8♠6♠3♠", "9♦T♣J♥Q♠K♦", True, True),
        ("C-10 valid", "2♣5♦7♠", "9♠9♥9♦4♣4♦", "J♠J♥J♦J♣3♠", True, False),
        ("C-11 valid", "5♣5♦5♠", "A♠A♥A♦K♣K♦", "9♥8♥7♥6♥5♥", True, False),
        ("C-11 same front with two pair middle", "5♣5♦5♠", "A♠A♥K♦K♣2♦", "9♥8♥7♥6♥5♥", True, True),
    ],
)
def test_setting_validity_vectors(vector, front, middle, back, allow_equal, fouled):
    reason = setting_foul(c(front), c(middle), c(back), allow_equal_rows=allow_equal)
    assert (reason is not None) == fouled, (vector, reason)


def test_foul_reason_names_the_rows():
    reason = setting_foul(c("K♠K♥Q♦"), c("K♣K♦J♠T♥9♣"), c("A♠A♥A♦4♣4♦"))
    assert reason == "the front (Pair of Kings, kicker Q) beats the middle (Pair of Kings, kickers J-T-9)"


def test_foul_reason_names_the_wheel_by_its_top_card_when_the_wheel_ranks_second_highest():
    # A.3 wheel_rank=second_highest: the wheel's key ordinal is that of a King-high straight under the low wheel;
    # the reason must still name the straight the cards make (it said "Straight, King-high" before).
    reason = setting_foul(c("2♣3♦7♥"), c("A♠2♥3♦4♣5♦"), c("K♠K♥9♦8♣7♦"), wheel_rank="second_highest")
    assert reason == "the middle (Straight, Five-high (wheel)) beats the back (Pair of Kings, kickers 9-8-7)"
    reason = setting_foul(c("2♣3♦7♥"), c("A♠K♥Q♦J♣T♦"), c("A♠2♥3♦4♣5♦"), wheel_rank="second_highest")
    assert reason == "the middle (Straight, Ace-high) beats the back (Straight, Five-high (wheel))"


def test_cross_size_comparison_stops_at_the_shorter_key():
    assert compare_keys((1, 9, 8), (1, 9, 8, 3, 2)) == 0
    assert compare_keys((3, 5), (3, 14, 13, 12)) == -1


# --------------------------------------------------------------------------------------------------
# C-23, C-25, C-26: naturals
# --------------------------------------------------------------------------------------------------

def test_c23a_dragon_is_also_three_straights_but_not_three_flushes():
    made = naturals_made(c("2♣3♣4♣5♣6♣7♣8♣9♦T♦J♦Q♦K♦A♦"))
    assert set(made) == {"dragon", "three_straights"}


def test_c23b_six_pairs_strict():
    made = naturals_made(c("A♠A♥K♠K♥Q♠Q♥J♠J♥T♠T♥9♠9♥2♠"))
    assert set(made) == {"six_pairs"}


def test_c23c_three_straights_without_a_dragon():
    made = naturals_made(c("2♠3♦4♣ 3♥4♠5♦6♣7♥ 8♠9♦T♣J♥Q♠"))
    assert set(made) == {"three_straights"}


@pytest.mark.parametrize("hand", ["A♠A♥A♦K♠K♥Q♠Q♥J♠J♥T♠T♥9♠9♥", "A♠A♥A♦A♣K♠K♥Q♠Q♥J♠J♥T♠T♥2♦"])
def test_c23d_trips_or_quads_with_pairs_count_only_under_pair_count(hand):
    assert natural_key("six_pairs", c(hand), six_pairs_definition="strict") is None
    assert natural_key("six_pairs", c(hand), six_pairs_definition="pair_count") is not None


def test_three_flush_suit_profiles():
    assert naturals_made(c("2♠5♠9♠ 3♥6♥8♥T♥Q♥ 4♦7♦J♦K♦3♦")).keys() == {"three_flushes"}
    # 8 + 5: the 8-suit splits into 5 + 3
    assert "three_flushes" in naturals_made(c("2♠3♠5♠7♠9♠J♠K♠A♠ 4♥6♥8♥T♥Q♥"))
    # 7 + 6 (C-23a's suits) is not
    assert three_flushes_split(c("2♠3♠5♠7♠9♠J♠K♠ A♥4♥6♥8♥T♥Q♥")) is None


def test_c25_three_flushes_compare_back_then_middle():
    x = c("Q♦5♦4♦ K♣J♣8♣6♣2♣ A♥Q♥9♥7♥3♥")
    y = c("Q♣5♣3♣ K♦J♦9♦6♦3♦ A♠Q♠9♠7♠3♠")
    kx, ky = natural_key("three_flushes", x), natural_key("three_flushes", y)
    assert kx[0] == ky[0]  # backs tie
    assert ky > kx  # K-J-9 middle beats K-J-8


def test_three_flushes_canonical_arrangement_puts_the_best_flush_in_back():
    front, middle, back = three_flushes_split(c("Q♦5♦4♦ A♥Q♥9♥7♥3♥ K♣J♣8♣6♣2♣"))
    assert sorted(back) == sorted(c("A♥Q♥9♥7♥3♥"))
    assert sorted(front) == sorted(c("Q♦5♦4♦"))


def test_c26_six_pairs_compare_pair_ranks_and_ignore_the_singleton():
    x = natural_key("six_pairs", c("A♠A♥K♠K♥Q♠Q♥J♠J♥T♠T♥9♠9♥2♠"))
    y = natural_key("six_pairs", c("A♦A♣K♦K♣Q♦Q♣J♦J♣T♦T♣8♦8♣3♦"))
    y2 = natural_key("six_pairs", c("A♦A♣K♦K♣Q♦Q♣J♦J♣T♦T♣9♦9♣3♦"))
    assert x > y
    assert x == y2
    assert natural_key("six_pairs", c("A♦A♣K♦K♣Q♦Q♣J♦J♣T♦T♣9♦9♣3♦"), six_pairs_compare_singleton=True) > (
        natural_key("six_pairs", c("A♠A♥K♠K♥Q♠Q♥J♠J♥T♠T♥9♠9♥2♠"), six_pairs_compare_singleton=True))


def test_three_straights_with_a23_and_qka_fronts():
    assert natural_key("three_straights", c("A♠2♦3♣ 4♥5♠6♦7♣8♥ 9♠T♦J♣Q♥K♠")) is not None
    assert natural_key("three_straights", c("Q♠K♦A♣ 2♥3♠4♦5♣6♥ 5♠6♦7♣8♥9♠")) is not None
    high = natural_key("three_straights", c("Q♠K♦A♣ 2♥3♠4♦5♣6♥ 5♠6♦7♣8♥9♠"))
    low = natural_key("three_straights", c("A♠2♦3♣ 2♥3♠4♦5♣6♥ 5♠6♦7♣8♥9♠"))
    assert high > low


def test_clean_dragon():
    made = naturals_made(c("2♠3♠4♠5♠6♠7♠8♠9♠T♠J♠Q♠K♠A♠"))
    assert {"clean_dragon", "dragon", "three_flushes", "three_straights"} <= set(made)
